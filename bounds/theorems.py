"""Section 5 (`sec:analysis`) and Appendix A.3-A.5: Theorems 5.1 (`them-R`), 5.2 (`them-R-Bayes`)
and every quantity of their proofs.

Parameters (the paper's symbols): K arms, budget n, prior variance sigma0_sq, likelihood variance
sigma_sq = nu^2 / delta, delta in (0, 1], nu_sq the sub-Gaussian noise proxy.
All functions take numbers, numpy arrays, mpmath numbers or sympy symbols (one source per formula).
"""

from __future__ import annotations

from typing import Any

from ._core import as_numeric, check_int, check_positive, check_range, is_symbolic, namespace_for, require_positive
from .gap import c_K


def _prep(K: Any, sigma0_sq: Any, sigma_sq: Any) -> tuple[Any, Any, Any]:
    check_int("K", K, 2)
    check_positive("sigma0_sq", sigma0_sq)
    check_positive("sigma_sq", sigma_sq)
    return as_numeric(K), as_numeric(sigma0_sq), as_numeric(sigma_sq)


def rho(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """rho = sqrt((K(sigma0^2+sigma^2) + sigma0^-2 sigma^2) / (K(sigma0^2+sigma^2) + sigma0^2)) (Thm 5.1)."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    m = namespace_for(K, s0, s)
    return m.sqrt((K * (s0 + s) + s / s0) / (K * (s0 + s) + s0))


def eta(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """eta = 1/(1 + 4 rho): the width fraction of the event E (proof of Theorem 5.1)."""
    return 1 / (1 + 4 * rho(K, sigma0_sq, sigma_sq))


def beta(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """beta = 1 + K^-1 sigma0^-2 sigma^2 (proof outline, eq. `tilde_c`)."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    return 1 + s / (K * s0)


def beta_1(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """beta_1 = 1 + K^-1 sigma0^2 / (sigma0^2 + sigma^2) (proof of Theorem 5.1)."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    return 1 + s0 / (K * (s0 + s))


def H_b(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """H_b = (K + sigma0^-2 sigma^2) sigma^2 (Theorem 5.1; Section 5.1's hardness)."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    return (K + s / s0) * s


def gamma(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """gamma = 2 (1 + 4 rho)^-1 (2 + 4 rho) c_K (Theorem 5.1). Undefined where c_K is."""
    r = rho(K, sigma0_sq, sigma_sq)
    return 2 * (2 + 4 * r) / (1 + 4 * r) * c_K(K)


def m_exponent(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """m = (1 + K^-1 sigma0^2/(sigma0^2 + sigma^2)) (1 + 4 rho)^-2 sigma^-2 sigma0^2 (Theorem 5.1)."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    return beta_1(K, s0, s) * s0 / ((1 + 4 * rho(K, s0, s)) ** 2 * s)


def kappa(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """kappa = 4 (1 + 4 rho)^-1 (2 + 4 rho) c_K sqrt(log K) (Theorem 5.2)."""
    r = rho(K, sigma0_sq, sigma_sq)
    m = namespace_for(as_numeric(K), r)
    return 4 * (2 + 4 * r) / (1 + 4 * r) * c_K(K) * m.sqrt(m.log(as_numeric(K)))


def _check_budget(K: Any, n: Any, strict: bool) -> None:
    check_positive("n", n)
    if is_symbolic(K, n):
        return
    import numpy as np
    Kv, nv = np.asarray(K, dtype=float), np.asarray(n, dtype=float)
    bad = nv <= 4 * (Kv - 1) if strict else nv < 4 * (Kv - 1)
    if np.any(bad):
        rel = ">" if strict else ">="
        raise ValueError(f"n must be {rel} 4(K-1) (the theorem's hypothesis), got n={n!r}, K={K!r}")


def ebar_terms(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> dict[str, Any]:
    """The two terms of eq. `decomk-v3`, the bound on Pr(not E):
    2 K n^(-mK + 1) and 2 K n^(-sigma^2 m / (delta (2 sigma0^2 + sigma^2)) + 1)."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    check_range("delta", delta, 0.0, 1.0, low_open=True)
    n, delta = as_numeric(n), as_numeric(delta)
    mm = m_exponent(K, s0, s)
    return {"mean_term": 2 * K * n ** (-mm * K + 1),
            "noise_term": 2 * K * n ** (-s * mm / (delta * (2 * s0 + s)) + 1)}


def theorem_5_1_terms(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> dict[str, Any]:
    """The four terms of Theorem 5.1 (`them-R`), the bound on RUE's failure probability e_n:

    gamma sqrt(H_b (K-1) log n / (n K)) + gamma sqrt(H_b log n / (K (n - 4(K-1))))
    + 2 K n^(-mK+1) + 2 K n^(-sigma^2 m/(delta (2 sigma0^2 + sigma^2)) + 1).

    Args:
        K: the number of arms, an integer >= 2 with c_K real.
        n: the budget, an integer >= 4(K-1).
        sigma0_sq: the prior variance of the arm means, > 0.
        sigma_sq: the variance RUE assumes for the rewards, > 0.
        delta: nu^2 / sigma^2, the true reward variance over sigma^2, in (0, 1].

    Returns:
        A dict of the four named terms (numpy, mpmath or sympy as the arguments are).

    Raises:
        ValueError: a parameter is outside its range (names it).
        UndefinedError: c_K is not real, or n = 4(K-1) (the second term divides by zero).
    """
    _check_budget(K, n, strict=False)
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    n = as_numeric(n)
    m = namespace_for(K, n, s0, s, as_numeric(delta))
    g = gamma(K, s0, s)
    hb = H_b(K, s0, s)
    require_positive("n - 4(K-1)", n - 4 * (K - 1),
                     "the second term of Theorem 5.1 divides by n - 4(K-1)", {"K": K, "n": n})
    out = {"gap_term_E2": g * m.sqrt(hb * (K - 1) * m.log(n) / (n * K)),
           "gap_term_E1": g * m.sqrt(hb * m.log(n) / (K * (n - 4 * (K - 1))))}
    out.update(ebar_terms(K, n, s0, s, delta))
    return out


def theorem_5_1_bound(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> Any:
    """Theorem 5.1 (`them-R`): the sum of `theorem_5_1_terms`, the bound on RUE's failure probability e_n.

    Args:
        K: the number of arms, an integer >= 2 with c_K real (K >= 36).
        n: the budget, an integer >= 4(K-1) (> 4(K-1) for Theorem 5.2).
        sigma0_sq: the prior variance of the arm means, > 0.
        sigma_sq: the variance RUE assumes for the rewards, > 0.
        delta: the ratio nu^2 / sigma^2 of the true reward variance to sigma^2, in (0, 1].

    Returns:
        A number (a probability bound for Theorem 5.1, in the means' units for Theorem 5.2); numpy,
        mpmath or sympy as the arguments are.

    Raises:
        ValueError: a parameter outside its range (named).
        UndefinedError: c_K is not real, or n = 4(K-1).
    """
    return sum(theorem_5_1_terms(K, n, sigma0_sq, sigma_sq, delta).values())


def theorem_5_2_terms(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> dict[str, Any]:
    """The terms of Theorem 5.2 (`them-R-Bayes`), the bound on RUE's simple Bayes regret sr_n:

    kappa sqrt(2 H_b (K-1) log n/(n K)) + kappa sqrt(2 H_b log n/(K (n - 4(K-1))))
    + 4 sigma0 sqrt(2 log K) (K n^(-mK+1) + K n^(-sigma^2 m/(delta(2 sigma0^2 + sigma^2)) + 1)).

    Args:
        K: the number of arms, an integer >= 2 with c_K real.
        n: the budget, an integer > 4(K-1).
        sigma0_sq: the prior variance of the arm means, > 0.
        sigma_sq: the variance RUE assumes for the rewards, > 0.
        delta: nu^2 / sigma^2, in (0, 1].

    Returns:
        A dict of the named terms (in the units of the means).

    Raises:
        ValueError: a parameter is outside its range (names it), or n <= 4(K-1) (the theorem's hypothesis).
        UndefinedError: c_K is not real.
    """
    _check_budget(K, n, strict=True)
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    n = as_numeric(n)
    m = namespace_for(K, n, s0, s, as_numeric(delta))
    k = kappa(K, s0, s)
    hb = H_b(K, s0, s)
    eb = ebar_terms(K, n, s0, s, delta)
    scale = 2 * m.sqrt(s0) * m.sqrt(2 * m.log(K))
    return {"gap_term_E2": k * m.sqrt(2 * hb * (K - 1) * m.log(n) / (n * K)),
            "gap_term_E1": k * m.sqrt(2 * hb * m.log(n) / (K * (n - 4 * (K - 1)))),
            "mean_term": scale * eb["mean_term"], "noise_term": scale * eb["noise_term"]}


def theorem_5_2_bound(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> Any:
    """Theorem 5.2 (`them-R-Bayes`): the sum of `theorem_5_2_terms`, the bound on RUE's simple Bayes regret sr_n.

    Args:
        K: the number of arms, an integer >= 2 with c_K real (K >= 36).
        n: the budget, an integer >= 4(K-1) (> 4(K-1) for Theorem 5.2).
        sigma0_sq: the prior variance of the arm means, > 0.
        sigma_sq: the variance RUE assumes for the rewards, > 0.
        delta: the ratio nu^2 / sigma^2 of the true reward variance to sigma^2, in (0, 1].

    Returns:
        A number (a probability bound for Theorem 5.1, in the means' units for Theorem 5.2); numpy,
        mpmath or sympy as the arguments are.

    Raises:
        ValueError: a parameter outside its range (named).
        UndefinedError: c_K is not real, or n = 4(K-1).
    """
    return sum(theorem_5_2_terms(K, n, sigma0_sq, sigma_sq, delta).values())


def regret_bound_from_proof(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> Any:
    """What the proof of Theorem 5.2 gives: 2 sigma0 sqrt(2 log K) times Theorem 5.1's bound."""
    K_, s0 = as_numeric(K), as_numeric(sigma0_sq)
    m = namespace_for(K_, s0, as_numeric(n))
    return 2 * m.sqrt(s0) * m.sqrt(2 * m.log(K_)) * theorem_5_1_bound(K, n, sigma0_sq, sigma_sq, delta)


# ---------------------------------------------------------------- the proof's intermediate forms
def outline_gap_terms(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> dict[str, Any]:
    """The main-text proof outline's last display (Section 5.2, after eq. `eqn:T1n-main`)::

        gamma (sqrt(beta sigma^2 log n/(sigma0^2 n - 4 sigma0^2 (K-1) + 2 sigma^2))
               + sqrt(beta sigma^2 log n/(sigma0^2 n/(K-1))))

    Returns the two terms by name (those of `outline_gap_roots`, times gamma).
    """
    g = gamma(K, sigma0_sq, sigma_sq)
    return {k: g * v for k, v in outline_gap_roots(K, n, sigma0_sq, sigma_sq).items()}


def outline_gap_roots(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> dict[str, Any]:
    """The outline's two gap terms without their constant gamma: sqrt(beta sigma^2 log n / (sigma0^2 n
    - 4 sigma0^2 (K-1) + 2 sigma^2)) and sqrt(beta sigma^2 log n / (sigma0^2 n / (K-1)))."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    n = as_numeric(n)
    m = namespace_for(K, n, s0, s)
    b = beta(K, s0, s)
    return {"gap_term_E1": m.sqrt(b * s * m.log(n) / (s0 * n - 4 * s0 * (K - 1) + 2 * s)),
            "gap_term_E2": m.sqrt(b * s * m.log(n) / (s0 * n / (K - 1)))}


def appendix_gap_terms(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> dict[str, Any]:
    """The appendix's last line of eq. `prob-dk-v2`: c_K (1 + eta) (sqrt(2 beta sigma0^2 sigma^2 log n /
    (sigma0^2 n/2 - 2 sigma0^2 (K-1) + sigma^2)) + sqrt(4 beta sigma^2 log n / (n/(K-1))))."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    n = as_numeric(n)
    m = namespace_for(K, n, s0, s)
    pre, b = c_K(K) * (1 + eta(K, s0, s)), beta(K, s0, s)
    return {"gap_term_E1": pre * m.sqrt(2 * b * s0 * s * m.log(n) / (s0 * n / 2 - 2 * s0 * (K - 1) + s)),
            "gap_term_E2": pre * m.sqrt(4 * b * s * m.log(n) / (n / (K - 1)))}


def eta_condition(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """2 eta (1 + eta) sqrt(beta/beta_1) + eta - 1, which the proof needs <= 0 (eq. `prob-dk`)."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    m = namespace_for(K, s0, s)
    e = eta(K, s0, s)
    return 2 * e * (1 + e) * m.sqrt(beta(K, s0, s) / beta_1(K, s0, s)) + e - 1


def Tk_upper(Delta_k: Any, K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """Right side of eq. `Tk_up1`: 2 + 2 Delta_k^-2 (1 + eta)^2 beta sigma^2 log n."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    Delta_k, n = as_numeric(Delta_k), as_numeric(n)
    m = namespace_for(Delta_k, K, n, s0, s)
    return 2 + 2 * (1 + eta(K, s0, s)) ** 2 * beta(K, s0, s) * s * m.log(n) / Delta_k ** 2


def T1_lower(Delta_min: Any, K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """Right side of eq. `eqn:T1n`: n - 2(K-1)(1+eta)^2 Delta_min^-2 beta sigma^2 log n - 2(K-1)."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    Delta_min, n = as_numeric(Delta_min), as_numeric(n)
    m = namespace_for(Delta_min, K, n, s0, s)
    return n - 2 * (K - 1) * (1 + eta(K, s0, s)) ** 2 * beta(K, s0, s) * s * m.log(n) / Delta_min ** 2 \
        - 2 * (K - 1)


def E2_threshold(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """The event E_2's threshold on Delta_min: 2 (1 + eta) sqrt((K-1) beta sigma^2 n^-1 log n)."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    n = as_numeric(n)
    m = namespace_for(K, n, s0, s)
    return 2 * (1 + eta(K, s0, s)) * m.sqrt((K - 1) * beta(K, s0, s) * s * m.log(n) / n)


def nu_t(T: Any, sigma0_sq: Any, sigma_sq: Any, nu_sq: Any) -> Any:
    """The variance proxy of rbar_0 - mu0 in the proof of Theorem 5.1 (before eq. `e31`):
    [sum_k (1-w_k) T_k]^-2 sum_k (1-w_k)^2 T_k^2 (sigma0^2 + nu^2 / T_k)."""
    from .estimation import shrinkage_terms
    one_minus_w, _, denom = shrinkage_terms(T, sigma0_sq, sigma_sq)
    num = sum(omw ** 2 * t ** 2 * (sigma0_sq + nu_sq / t) for omw, t in zip(one_minus_w, T))
    return num / denom ** 2


def nu_t_claimed_lower(K: Any, sigma0_sq: Any, nu_sq: Any) -> Any:
    """K^-1 (sigma0^2 + nu^2 / 2): the paper's claimed lower bound on nu_t."""
    return (sigma0_sq + nu_sq / 2) / K


def e3k_threshold(T_k: Any, K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """x = eta sqrt(beta_1) ctilde_k / 2: the deviation of rbar_k the event E_3k excludes (proof of Theorem 5.1)."""
    from .estimation import c_tilde
    K_, s0, s = _prep(K, sigma0_sq, sigma_sq)
    m = namespace_for(as_numeric(T_k), K_, as_numeric(n), s0, s)
    return eta(K_, s0, s) * m.sqrt(beta_1(K_, s0, s)) * c_tilde(as_numeric(T_k), as_numeric(n), s0, s) / 2


def e31_threshold(T_k: Any, K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """x = eta sqrt(beta_1) ctilde_k (T_k sigma0^2 + sigma^2)/(2 sigma^2): eq. `e31`'s deviation of rbar_0."""
    K_, s0, s = _prep(K, sigma0_sq, sigma_sq)
    T_k = as_numeric(T_k)
    return e3k_threshold(T_k, K_, n, s0, s) * (T_k * s0 + s) / s


def e31_exponents(T_k: Any, K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, nu_sq: Any) -> dict[str, Any]:
    """Exponents (as positive numbers E in 2 exp(-E)) of eq. `e31`.

    `paper_first`: 2 beta_1 sigma0^2 (T sigma0^2 + sigma^2) K log n / (4 (1+4rho)^2 sigma^2 (sigma0^2 + nu^2/2));
    `paper_final`: beta_1 sigma0^2 K log n / ((1+4rho)^2 sigma^2);
    `derived_first`: x^2 / (2 V) for the threshold x = eta sqrt(beta_1) ctilde (T sigma0^2 + sigma^2)/(2 sigma^2)
    and the variance proxy V = (sigma0^2 + nu^2/2)/K that the paper uses, i.e. the sub-Gaussian
    tail 2 exp(-x^2/(2V)) of Fact 1.
    """
    K_, s0, s = _prep(K, sigma0_sq, sigma_sq)
    T_k, n, nu_sq = as_numeric(T_k), as_numeric(n), as_numeric(nu_sq)
    m = namespace_for(T_k, K_, n, s0, s, nu_sq)
    r, b1 = rho(K_, s0, s), beta_1(K_, s0, s)
    x = e31_threshold(T_k, K_, n, s0, s)
    V = (s0 + nu_sq / 2) / K_
    return {"paper_first": 2 * b1 * s0 * (T_k * s0 + s) * K_ * m.log(n)
            / (4 * (1 + 4 * r) ** 2 * s * (s0 + nu_sq / 2)),
            "paper_final": b1 * s0 * K_ * m.log(n) / ((1 + 4 * r) ** 2 * s),
            "derived_first": x ** 2 / (2 * V)}


def e3k_exponents(T_k: Any, K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> dict[str, Any]:
    """Exponents of the bound on Pr(not E_3k) (proof of Theorem 5.1), nu^2 = delta sigma^2.

    `paper_first`: 2 T eta^2 beta_1 sigma^2 sigma0^2 log n / (4 nu^2 (T sigma0^2 + sigma^2));
    `paper_final`: beta_1 sigma0^2 log n / (delta (1+4rho)^2 (2 sigma0^2 + sigma^2));
    `derived_first`: x^2/(2 nu^2/T) with x = eta sqrt(beta_1) ctilde_k / 2 (Fact 1's tail).
    """
    K_, s0, s = _prep(K, sigma0_sq, sigma_sq)
    T_k, n, delta = as_numeric(T_k), as_numeric(n), as_numeric(delta)
    m = namespace_for(T_k, K_, n, s0, s, delta)
    r, b1, e = rho(K_, s0, s), beta_1(K_, s0, s), eta(K_, s0, s)
    nu_sq = delta * s
    x = e3k_threshold(T_k, K_, n, s0, s)
    return {"paper_first": 2 * T_k * e ** 2 * b1 * s * s0 * m.log(n) / (4 * nu_sq * (T_k * s0 + s)),
            "paper_final": b1 * s0 * m.log(n) / (delta * (1 + 4 * r) ** 2 * (2 * s0 + s)),
            "derived_first": x ** 2 / (2 * nu_sq / T_k)}


def delta_threshold(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """sigma^2 m / (2 (2 sigma0^2 + sigma^2)): Section 5.1's condition delta <= this for O~(K/n)."""
    K, s0, s = _prep(K, sigma0_sq, sigma_sq)
    return s * m_exponent(K, s0, s) / (2 * (2 * s0 + s))


__all__ = [n for n in dir() if not n.startswith("_") and n not in {
    "annotations", "Any", "UndefinedError", "as_numeric", "check_int", "check_positive",
    "check_range", "is_symbolic", "namespace_for", "require_positive"}]
