"""Section 3 and Appendix A.1: the prior gap, Theorem 3.1 (`lemma-true`) and Lemma A.1 (`lem:bound-D2`).

Notation: mu_1..mu_K iid N(mu0, sigma0^2); e_*(alpha) = Pr(mu_(1) - mu_(2) <= alpha). With
X = (mu - mu0)/sigma0 standard normal, e_*(alpha) = eta(alpha/sigma0) of Lemma A.1.

Exact reference quantities use the substitution v = Phi(x)^(K-1) (the CDF of the maximum of K-1
standard normals), which turns the proof's integral::

    eta(a) = K (K-1) int Phi(x)^(K-2) f(x) [Phi(x + a) - Phi(x)] dx

into  eta(a) = K int_0^1 [Phi(x(v) + a) - Phi(x(v))] dv,  x(v) = Phi^-1(v^(1/(K-1))),
an integral over (0, 1) with no cancellation at small a. The density of the top gap is::

    p(s) = K int_0^1 f(x(v) + s) dv.

Since x^2 + (x+s)^2 = 2(x + s/2)^2 + s^2/2 and Phi^(K-2) is increasing, p(s) <= exp(-s^2/4) p(0):
the density is largest at 0, so the smallest constant C with e_*(alpha) <= C alpha/sigma0 for all
alpha > 0 is exactly p(0) (`gap_constant_tightest`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import mpmath
import numpy as np
from scipy import special

from ._core import (
    UndefinedError,
    as_numeric,
    check_int,
    check_positive,
    is_symbolic,
    namespace_for,
    require_nonnegative,
)

#: The constant c of the proof of Lemma A.1 ("Now let us take c = 1/(4 sqrt(2 pi))").
PROOF_C = 1.0 / (4.0 * np.sqrt(2.0 * np.pi))


# ---------------------------------------------------------------- Theorem 3.1
def c_K_radicand(K: Any) -> Any:
    """ln(K / (4 sqrt(2 pi) ln K)): the number under the square root of c_K (Theorem 3.1)."""
    m = namespace_for(K)
    return m.log(K / (4 * m.sqrt(2 * m.pi) * m.log(K)))


def c_K_is_defined(K: Any) -> Any:
    """True where c_K (Theorem 3.1, `lemma-true`) is a real number: its radicand is >= 0.

    Args:
        K: the number of arms, an integer >= 2, or an array of them (vectorised).

    Returns:
        A bool, or a bool array of K's shape.
    """
    check_int("K", K, 2)
    return np.asarray(c_K_radicand(as_numeric(K))) >= 0


def c_K(K: Any) -> Any:
    """The constant of Theorem 3.1 (label `lemma-true`).

    c_K = 4 sqrt(2) ln K sqrt(ln(K / (4 sqrt(2 pi) ln K))) + 2 / sqrt(2 pi).

    Args:
        K: number of arms, an integer >= 2 (scalar or array); an mpmath number evaluates in
            mpmath, a sympy symbol returns the expression.

    Raises:
        ValueError: K is not an integer >= 2.
        UndefinedError: the radicand is negative (small K), so c_K is not real.
    """
    check_int("K", K, 2)
    K = as_numeric(K)
    m = namespace_for(K)
    rad = c_K_radicand(K)
    require_nonnegative("ln(K/(4 sqrt(2 pi) ln K))", rad,
                        "c_K takes the square root of a negative number", {"K": K})
    return 4 * m.sqrt(2) * m.log(K) * m.sqrt(rad) + 2 / m.sqrt(2 * m.pi)


def theorem_3_1_bound(alpha: Any, K: Any, sigma0_sq: Any = 1.0) -> Any:
    """The right side of Theorem 3.1 (`lemma-true`): c_K alpha / sigma0.

    Args:
        alpha: the gap, > 0 (in the units of the means), or an array (vectorised).
        K: the number of arms, an integer >= 2 where c_K is real (K >= 36).
        sigma0_sq: the prior variance of the means, > 0.

    Returns:
        The bound on Pr(mu_(1) - mu_(2) <= alpha), of the arguments' broadcast shape.

    Raises:
        ValueError: a parameter outside its range (named).
        UndefinedError: c_K is not real at this K.
    """
    check_positive("alpha", alpha)
    check_positive("sigma0_sq", sigma0_sq)
    alpha, sigma0_sq = as_numeric(alpha), as_numeric(sigma0_sq)
    m = namespace_for(alpha, K, sigma0_sq)
    return c_K(K) * alpha / m.sqrt(sigma0_sq)


def lemma_a1_bound(alpha: Any, K: Any, C: Any) -> Any:
    """Right side of Lemma A.1 (`lem:bound-D2`): C (ln K)^(3/2) alpha, for standard normals."""
    check_int("K", K, 2)
    check_positive("alpha", alpha)
    check_positive("C", C)
    K, alpha, C = as_numeric(K), as_numeric(alpha), as_numeric(C)
    m = namespace_for(alpha, K, C)
    return C * m.log(K) * m.sqrt(m.log(K)) * alpha


# ---------------------------------------------------------------- exact gap probability
_GL_NODES = 400
_GL_PANELS = (0.0, 1e-8, 1e-5, 1e-3, 0.02, 0.2, 0.6, 0.9, 0.99, 0.999, 0.99999, 1.0)


@lru_cache(maxsize=4)
def _v_rule(nodes: int = _GL_NODES) -> tuple[np.ndarray, np.ndarray]:
    """Composite Gauss-Legendre nodes and weights on (0, 1), graded towards both ends."""
    x, w = np.polynomial.legendre.leggauss(nodes)
    vs, ws = [], []
    for a, b in zip(_GL_PANELS[:-1], _GL_PANELS[1:]):
        vs.append(a + (b - a) * (x + 1) / 2)
        ws.append(w * (b - a) / 2)
    return np.concatenate(vs), np.concatenate(ws)


def _max_quantiles(K: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x(v) = Phi^-1(v^(1/(K-1))) at the rule's nodes, with q = 1 - Phi(x(v)) computed stably."""
    v, w = _v_rule()
    q = -np.expm1(np.log(v) / (K - 1))          # 1 - v^(1/(K-1)), exact near v = 1
    x = -special.ndtri(q)                        # Phi^-1(1 - q)
    return x, q, w


def e_star(alpha: Any, K: int, sigma0_sq: float = 1.0) -> Any:
    """Exact gap probability e_*(alpha) = Pr(mu_(1) - mu_(2) <= alpha) (Section 3, Theorem 3.1).

    The one-dimensional integral of the proof of Lemma A.1, by composite Gauss-Legendre in the
    variable v = Phi(x)^(K-1). Vectorised over `alpha`; see `e_star_mp` for the mpmath twin.

    Args:
        alpha: gap threshold(s) > 0, scalar or array.
        K: number of arms, integer >= 2.
        sigma0_sq: prior variance of the arm means, > 0.

    Returns:
        e_*(alpha), same shape as `alpha`.
    """
    check_int("K", K, 2)
    check_positive("alpha", alpha)
    check_positive("sigma0_sq", sigma0_sq)
    a = np.asarray(alpha, dtype=float) / np.sqrt(float(sigma0_sq))
    x, q, w = _max_quantiles(int(K))
    # Phi(x + a) - Phi(x) = q - (1 - Phi(x + a))
    diff = q[None, :] - special.ndtr(-(x[None, :] + a.reshape(-1, 1)))
    out = K * (diff @ w)
    return out.reshape(a.shape) if a.shape else float(out[0])


def gap_density(s: Any, K: int, sigma0_sq: float = 1.0) -> Any:
    """The density of mu_(1) - mu_(2), the gap between the two largest of K iid N(0, sigma0^2) means, at
    s >= 0 (the derivative of e_*).

    Args:
        s: the gap, a number >= 0 or an array of them (vectorised; in the units of the means).
        K: the number of arms, an integer >= 2.
        sigma0_sq: the prior variance, > 0.

    Returns:
        The density, of `s`'s shape (per unit of s).
    """
    check_int("K", K, 2)
    check_positive("sigma0_sq", sigma0_sq)
    s_arr = np.asarray(s, dtype=float)
    if np.any(~(s_arr >= 0)):
        raise ValueError(f"s must be >= 0, got {s!r}")
    sig = np.sqrt(float(sigma0_sq))
    x, _, w = _max_quantiles(int(K))
    dens = np.exp(-0.5 * (x[None, :] + s_arr.reshape(-1, 1) / sig) ** 2) / np.sqrt(2 * np.pi)
    out = K * (dens @ w) / sig
    return out.reshape(s_arr.shape) if s_arr.shape else float(out[0])


def gap_constant_tightest(K: int) -> float:
    """The smallest C with e_*(alpha) <= C alpha / sigma0 for every alpha > 0: the top-gap density at 0.

    It equals K (K-1)/(2 pi) int Phi(x)^(K-2) exp(-x^2) dx (the module docstring says why p(0) is the
    supremum).

    Args:
        K: the number of arms, an integer >= 2.

    Returns:
        A float (dimensionless: the constant multiplies alpha / sigma0).
    """
    return float(gap_density(0.0, K))


# ---------------------------------------------------------------- mpmath twins (precision)
def _Phi(x: Any) -> Any:
    return mpmath.erfc(-x / mpmath.sqrt(2)) / 2


def _f(x: Any) -> Any:
    return mpmath.exp(-x * x / 2) / mpmath.sqrt(2 * mpmath.pi)


def _breakpoints(K: int) -> list:
    mid = mpmath.sqrt(2 * mpmath.log(K)) if K > 2 else mpmath.mpf(0)
    return [-mpmath.inf, mid - 8, mid - 3, mid - 1, mid, mid + 1, mid + 3, mid + 8, mpmath.inf]


def e_star_mp(alpha: Any, K: int, sigma0_sq: Any = 1, dps: int = 30) -> mpmath.mpf:
    """The mpmath twin of `e_star`, from the proof's first form K(K-1) int Phi^(K-2) f [Phi(x+a)-Phi(x)]:
    the probability that the two largest of K iid N(mu0, sigma0^2) means are within alpha.

    Args:
        alpha: the gap, a number >= 0 (in the units of the means).
        K: the number of arms, an integer >= 2.
        sigma0_sq: the prior variance of the means, > 0.
        dps: decimal digits of the quadrature.

    Returns:
        An `mpmath.mpf` in [0, 1].
    """
    check_int("K", K, 2)
    check_positive("alpha", alpha)
    with mpmath.workdps(dps):
        a = mpmath.mpf(alpha) / mpmath.sqrt(mpmath.mpf(sigma0_sq))

        def integrand(x):
            return _Phi(x) ** (K - 2) * _f(x) * (
                (mpmath.erfc(-(x + a) / mpmath.sqrt(2)) - mpmath.erfc(-x / mpmath.sqrt(2))) / 2)
        return K * (K - 1) * mpmath.quad(integrand, _breakpoints(K))


def eta_paper_form_mp(alpha: Any, K: int, dps: int = 30) -> mpmath.mpf:
    """eta(alpha) = 1 - K int Phi(x)^(K-1) f(x + alpha) dx, the proof's last form (Lemma A.1)."""
    check_int("K", K, 2)
    with mpmath.workdps(dps):
        a = mpmath.mpf(alpha)
        val = mpmath.quad(lambda x: _Phi(x) ** (K - 1) * _f(x + a), _breakpoints(K))
        return 1 - K * val


def eta_prime_paper_form_mp(alpha: Any, K: int, dps: int = 30) -> mpmath.mpf:
    """eta'(alpha) = -K int Phi(x)^(K-1) f'(x + alpha) dx, as differentiated in the proof."""
    check_int("K", K, 2)
    with mpmath.workdps(dps):
        a = mpmath.mpf(alpha)
        val = mpmath.quad(lambda x: _Phi(x) ** (K - 1) * (-(x + a)) * _f(x + a), _breakpoints(K))
        return -K * val


def gap_constant_tightest_mp(K: int, dps: int = 30) -> mpmath.mpf:
    """mpmath twin of `gap_constant_tightest`: K(K-1)/(2 pi) int Phi^(K-2) exp(-x^2) dx."""
    check_int("K", K, 2)
    with mpmath.workdps(dps):
        val = mpmath.quad(lambda x: _Phi(x) ** (K - 2) * mpmath.exp(-x * x), _breakpoints(K))
        return K * (K - 1) * val / (2 * mpmath.pi)


# ---------------------------------------------------------------- the proof of Lemma A.1
def a_K(K: Any, c: float = PROOF_C) -> Any:
    """The unique a_K > 0 with a_K exp(a_K^2 / 2) = c K / ln K (proof of Lemma A.1), via Lambert W."""
    check_int("K", K, 2)
    check_positive("c", c)
    y = c * np.asarray(K, dtype=float) / np.log(np.asarray(K, dtype=float))
    return np.sqrt(special.lambertw(y * y).real)


def lemma_a1_proof_terms(K: int, c: float = PROOF_C) -> dict[str, Any]:
    """Every quantity of the proof of Lemma A.1 at one K (values and the side conditions).

    Keys: `cK_over_lnK`, `a_K`, `T1_bound` (K f(a_K)), `T2_bound` (2K/sqrt(2 pi) Phi(a_K)^(K-1)),
    `mills_form` (the bound after the classical estimate), `a_K_upper` (sqrt(2 ln(cK/ln K)), or
    an UndefinedError reason), `x_exponent` (x = 2 sqrt(2 pi) c K / ln K of (1 - 1/x)^x <= 1/e),
    `final_bound` (the proof's last constant), `needs` (the proof's side conditions, as booleans).
    """
    check_int("K", K, 2)
    K = int(K)
    lnK = np.log(K)
    y = c * K / lnK
    a = float(a_K(K, c))
    phi_a = float(special.ndtr(a))
    f_a = float(np.exp(-a * a / 2) / np.sqrt(2 * np.pi))
    mills = 1 - (1 / np.sqrt(2 * np.pi)) * a / (a * a + 1) * np.exp(-a * a / 2)
    out: dict[str, Any] = {
        "cK_over_lnK": y, "a_K": a, "T1_bound": K * f_a,
        "T2_bound": 2 * K / np.sqrt(2 * np.pi) * phi_a ** (K - 1),
        "mills_form": K / np.sqrt(2 * np.pi) * np.exp(-a * a / 2)
        + 2 * K / np.sqrt(2 * np.pi) * mills ** (K - 1),
        "x_exponent": 2 * np.sqrt(2 * np.pi) * c * K / lnK,
    }
    if y >= 1:
        out["a_K_upper"] = float(np.sqrt(2 * np.log(y)))
        out["final_bound"] = float(lnK / (c * np.sqrt(np.pi)) * np.sqrt(np.log(y))
                                   + 2 / np.sqrt(2 * np.pi))
    else:
        out["a_K_upper"] = "undefined: ln(cK/ln K) < 0"
        out["final_bound"] = "undefined: ln(cK/ln K) < 0"
    out["needs"] = {
        "cK/lnK >= sqrt(e) (gives a_K > 1)": bool(y >= np.sqrt(np.e)),
        "a_K >= 1": bool(a >= 1),
        "x > 1 for (1-1/x)^x <= 1/e": bool(out["x_exponent"] > 1),
        "1/(2K) <= 1/4 (exponent step)": bool(1 / (2 * K) <= 0.25),
    }
    return out


# ---------------------------------------------------------------- appendix facts
def normal_tail(t: Any) -> Any:
    """1 - Phi(t) = erfc(t/sqrt 2)/2, the standard normal's upper tail (Facts 1 and 3's left side)."""
    t = as_numeric(t)
    m = namespace_for(t)
    return m.erfc(t / m.sqrt(2)) / 2


def fact1_tail_bound(alpha: Any) -> Any:
    """Fact 1 (label `MGF-inequality`, Appendix A.5): Pr(X >= alpha) <= exp(-alpha^2/(2 sigma^2)) for
    X ~ N(0, sigma^2); scale-free, so stated here at sigma = 1 (alpha in units of sigma)."""
    alpha = as_numeric(alpha)
    m = namespace_for(alpha)
    return m.exp(-alpha ** 2 / 2)


def mills_lower(t: Any) -> Any:
    """Fact 3, left: (2 pi)^-1/2 t/(t^2+1) exp(-t^2/2) <= 1 - Phi(t)."""
    t = as_numeric(t)
    m = namespace_for(t)
    return t / (t ** 2 + 1) * m.exp(-t ** 2 / 2) / m.sqrt(2 * m.pi)


def mills_upper(t: Any) -> Any:
    """Fact 3, right: 1 - Phi(t) <= exp(-t^2/2) / (t sqrt(2 pi)). Undefined at t = 0."""
    t = as_numeric(t)
    if not is_symbolic(t) and np.any(np.asarray(t, dtype=float) == 0):
        raise UndefinedError("division by t = 0 in Fact 3's upper bound", {"t": t})
    m = namespace_for(t)
    return m.exp(-t ** 2 / 2) / (t * m.sqrt(2 * m.pi))


def top_two_density(x2: Any, x1: Any, K: int) -> Any:
    """Fact 2: joint density of (X_(2), X_(1)) for K iid N(0,1), x1 >= x2 (zero otherwise)."""
    check_int("K", K, 2)
    x1, x2 = np.asarray(x1, dtype=float), np.asarray(x2, dtype=float)
    f = lambda z: np.exp(-z * z / 2) / np.sqrt(2 * np.pi)  # noqa: E731
    return np.where(x1 >= x2, K * (K - 1) * special.ndtr(x2) ** (K - 2) * f(x2) * f(x1), 0.0)


def second_order_cdf(t: Any, K: int) -> Any:
    """Fact 3: Pr(X_(2) < t) = Phi(t)^K + K (1 - Phi(t)) Phi(t)^(K-1)."""
    check_int("K", K, 2)
    P = special.ndtr(np.asarray(t, dtype=float))
    return P ** K + K * (1 - P) * P ** (K - 1)


# ---------------------------------------------------------------- the range of the means
def expected_range(K: int, sigma0_sq: float = 1.0) -> float:
    """E[mu_(1) - mu_(K)] = 2 sigma0 E[max of K standard normals] (proof of Theorem 5.2).

    E[max] = int_0^1 Phi^-1(v^(1/K)) dv (v the CDF of the maximum), by the same composite rule.
    """
    check_int("K", K, 2)
    check_positive("sigma0_sq", sigma0_sq)
    v, w = _v_rule()
    q = -np.expm1(np.log(v) / K)
    return float(2 * np.sqrt(sigma0_sq) * (-special.ndtri(q)) @ w)


def expected_range_mp(K: int, sigma0_sq: Any = 1, dps: int = 30) -> mpmath.mpf:
    """mpmath twin of `expected_range`: 2 sigma0 int x K Phi^(K-1) f dx."""
    check_int("K", K, 2)
    with mpmath.workdps(dps):
        val = mpmath.quad(lambda x: x * K * _Phi(x) ** (K - 1) * _f(x), _breakpoints(K))
        return 2 * mpmath.sqrt(mpmath.mpf(sigma0_sq)) * val


def range_bound(K: Any, sigma0_sq: Any = 1.0) -> Any:
    """2 sigma0 sqrt(2 log K): the bound on E[mu_(1) - mu_(K)] used in the proof of Theorem 5.2."""
    check_int("K", K, 2)
    check_positive("sigma0_sq", sigma0_sq)
    K, sigma0_sq = as_numeric(K), as_numeric(sigma0_sq)
    m = namespace_for(K, sigma0_sq)
    return 2 * m.sqrt(sigma0_sq) * m.sqrt(2 * m.log(K))


__all__ = [n for n in dir() if not n.startswith("_") and n not in {
    "annotations", "Any", "lru_cache", "mpmath", "np", "special", "NUMPY", "SYMPY",
    "UndefinedError", "as_numeric", "check_int", "check_positive", "is_symbolic",
    "namespace_for", "require_nonnegative"}]
