"""Repaired statements: the nearest correct version of each refuted, undefined or inconsistent
statement the ledger found, beside the originals (every name says `repaired`). Each docstring says
what was changed and why; the ledger (`rue_verify.ledger.repairs`) verifies each one with the
machinery that judged the original.

All functions take numbers, numpy arrays, mpmath numbers or sympy symbols, like the originals.
"""

from __future__ import annotations

from typing import Any

from ._core import as_numeric, check_int, check_positive, check_range, namespace_for, require_positive
from .theorems import beta, outline_gap_roots

EULER_GAMMA = 0.5772156649015329

#: 1 + (2 pi)^(-1/2) rounded up: the two constant parts of `gap_constant_repaired`.
GAP_CONSTANT_OFFSET = 1.4


def gap_constant_repaired(K: Any) -> Any:
    """Theorem 3.1 (`lemma-true`) repaired: C_K = 1.4 + sqrt(2 ln(K + 1)), real for every K >= 2, with
    e_*(alpha) <= C_K alpha / sigma0 for all alpha > 0.

    Why it holds (each step checked in the ledger): the density of the top gap at s >= 0 is
    K(K-1) int Phi^(K-2)(x) phi(x) phi(x + s) dx. For x >= 0, phi(x + s) <= phi(x) = h(x)(1 - Phi(x))
    with the hazard h(x) <= (x + sqrt(x^2 + 4))/2 <= x + 1 (Birnbaum 1942), so that part is at most
    E[(X_(2) + 1); X_(2) >= 0] <= 1 + E[max(0, X_1..X_K)] <= 1 + sqrt(2 ln(K + 1)) (Chernoff). For
    x < 0, phi(x + s) <= phi(0), so that part is at most K 2^(1-K)/sqrt(2 pi) <= 1/sqrt(2 pi).
    """
    check_int("K", K, 2)
    K = as_numeric(K)
    m = namespace_for(K)
    return GAP_CONSTANT_OFFSET + m.sqrt(2 * m.log(K + 1))


def theorem_3_1_repaired(alpha: Any, K: Any, sigma0_sq: Any = 1.0) -> Any:
    """Theorem 3.1 repaired: C_K alpha / sigma0 with `gap_constant_repaired` (every K >= 2)."""
    check_positive("alpha", alpha)
    check_positive("sigma0_sq", sigma0_sq)
    alpha, s0 = as_numeric(alpha), as_numeric(sigma0_sq)
    m = namespace_for(alpha, s0, as_numeric(K))
    return gap_constant_repaired(K) * alpha / m.sqrt(s0)


def tau_sq_lower_repaired(T_k: Any, K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """Lemma `sec:tau`, left side repaired: tau_k^2 >= ttau_k^2 (1 + sigma^2 / (K (T_k sigma0^2 + sigma^2))).

    tau_k^2 - this = sigma^4/A^2 (sigma^2/D - sigma0^2/K) with A = T_k sigma0^2 + sigma^2 and
    D = sum_j T_j sigma^2/(T_j sigma0^2 + sigma^2) <= K sigma^2/sigma0^2 (each term is below
    sigma^2/sigma0^2). Tight when all T_j are equal and large (the exact ratio is 1 + sigma^2/(K T sigma0^2)).
    """
    check_int("K", K, 1)
    check_positive("sigma0_sq", sigma0_sq)
    check_positive("sigma_sq", sigma_sq)
    T, K, s0, s = as_numeric(T_k), as_numeric(K), as_numeric(sigma0_sq), as_numeric(sigma_sq)
    A = T * s0 + s
    return s0 * s / A * (1 + s / (K * A))


def eta_repaired(K: Any, sigma0_sq: Any, sigma_sq: Any, beta_1: Any = None) -> Any:
    """eta = 1/(1 + 4 rho) with rho = sqrt(beta / beta_1): the rho for which the proof's condition
    2 eta (1 + eta) sqrt(beta/beta_1) + eta - 1 <= 0 (eq. `prob-dk`) holds; it equals -8 rho^2/(1 + 4 rho)^2.
    With the repaired Lemma `sec:tau` (c_k >= ctilde_k) the proof's beta_1 is 1 (the default)."""
    b = beta(K, sigma0_sq, sigma_sq)
    m = namespace_for(as_numeric(K), as_numeric(sigma0_sq), as_numeric(sigma_sq))
    return 1 / (1 + 4 * m.sqrt(b / (1 if beta_1 is None else beta_1)))


def Tk_upper_repaired(Delta_k: Any, K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """The right side of eq. `Tk_up1` with `eta_repaired` in place of the paper's eta:
    2 + 2 Delta_k^-2 (1 + eta)^2 beta sigma^2 log n (the repaired route of Theorem 5.1's proof)."""
    e, b = eta_repaired(K, sigma0_sq, sigma_sq), beta(K, sigma0_sq, sigma_sq)
    Delta_k, n, sigma_sq = as_numeric(Delta_k), as_numeric(n), as_numeric(sigma_sq)
    m = namespace_for(Delta_k, n, sigma_sq)
    return 2 + 2 * (1 + e) ** 2 * b * sigma_sq * m.log(n) / Delta_k ** 2


def eta_condition_repaired(K: Any, sigma0_sq: Any, sigma_sq: Any) -> Any:
    """The proof's condition 2 eta (1 + eta) sqrt(beta) + eta - 1 (beta_1 = 1) at `eta_repaired`; <= 0 is needed."""
    e = eta_repaired(K, sigma0_sq, sigma_sq)
    m = namespace_for(as_numeric(K), as_numeric(sigma0_sq), as_numeric(sigma_sq))
    return 2 * e * (1 + e) * m.sqrt(beta(K, sigma0_sq, sigma_sq)) + e - 1


def nu_t_upper_repaired(sigma0_sq: Any, nu_sq: Any) -> Any:
    """The variance proxy of rbar_0 - mu0 (proof of Theorem 5.1, before eq. `e31`) bounded the way a
    tail bound needs, from above: nu_t = sum_k a_k^2 (sigma0^2 + nu^2/T_k) with weights a_k >= 0
    summing to 1, so nu_t <= max_k (sigma0^2 + nu^2/T_k) <= sigma0^2 + nu^2/2 when every T_k >= 2.
    (The paper's K^-1 (sigma0^2 + nu^2/2) is a lower bound in the wrong direction, and false.)"""
    check_positive("sigma0_sq", sigma0_sq)
    check_positive("nu_sq", nu_sq)
    return as_numeric(sigma0_sq) + as_numeric(nu_sq) / 2


def e3k_bound_repaired(T_k: Any, x: Any, nu_sq: Any) -> Any:
    """`Pr(|rbar_k - mu_k| >= x)` <= 2 exp(-x^2 T_k / (2 nu^2)) for the mean of T_k rewards with
    sub-Gaussian proxy nu^2 (Fact 1, both tails): the exponent is half the paper's."""
    T, x, nu = as_numeric(T_k), as_numeric(x), as_numeric(nu_sq)
    m = namespace_for(T, x, nu)
    return 2 * m.exp(-x ** 2 * T / (2 * nu))


def e31_bound_repaired(x: Any, sigma0_sq: Any, nu_sq: Any) -> Any:
    """`Pr(|rbar_0 - mu0| >= x)` <= 2 exp(-x^2 / (2 (sigma0^2 + nu^2/2))) for fixed pull counts >= 2
    (Fact 1 with the repaired proxy `nu_t_upper_repaired`)."""
    x = as_numeric(x)
    m = namespace_for(x, as_numeric(sigma0_sq), as_numeric(nu_sq))
    return 2 * m.exp(-x ** 2 / (2 * nu_t_upper_repaired(sigma0_sq, nu_sq)))


def not_E_bound_repaired(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> dict[str, Any]:
    """A valid bound on Pr(not E) (eq. `decomk-v3` repaired), for Gaussian rewards of variance
    nu^2 = delta sigma^2 and means mu_k ~ N(mu0, sigma0^2), RUE with every arm pulled >= 2 times.

    With eta = `eta_repaired` and r = (eta/3) sqrt(2 sigma0^2 (2 sigma0^2 + sigma^2) log n / sigma^2)::

        E' = {for every arm k and every count T in 2..n, |rbar_k(T) - mu_k| <= eta ctilde(T)/3}
             and {mu_(1) - mu_(K) <= r}.
        On E', for every k and round (w_k = sigma^2/(T_k sigma0^2 + sigma^2), a_j the pooling weights),
        |muhat_k - mu_k| <= w_k |rbar_0 - sum_j a_j mu_j| + w_k |sum_j a_j mu_j - mu_k|
                            + (1 - w_k)|rbar_k - mu_k| <= eta ctilde_k <= eta c_k,
        so E' lies inside E. Then
        Pr(not E') <= 2K(n-1) n^(-2 eta^2 sigma0^2/(9 delta (2 sigma0^2 + sigma^2)))   [reward tables, Fact 1]
                      + K erfc(r / (2 sqrt(2) sigma0))                     [Pr(max > r/2) + Pr(min < -r/2)].

    The paper's union over rounds of a pooled-mean tail with the proxy K^-1(...) is replaced by the
    union over (arm, count), for which each rbar_k(T) has exactly the law Fact 1 needs.
    """
    check_int("K", K, 2)
    check_positive("n", n)
    check_positive("sigma0_sq", sigma0_sq)
    check_positive("sigma_sq", sigma_sq)
    check_range("delta", delta, 0.0, 1.0, low_open=True)
    K, n, s0, s, d = (as_numeric(v) for v in (K, n, sigma0_sq, sigma_sq, delta))
    m = namespace_for(K, n, s0, s, d)
    e = eta_repaired(K, s0, s)
    r = e / 3 * m.sqrt(2 * s0 * (2 * s0 + s) * m.log(n) / s)
    return {"noise_term": 2 * K * (n - 1) * n ** (-2 * e ** 2 * s0 / (9 * d * (2 * s0 + s))),
            "range_term": K * m.erfc(r / (2 * m.sqrt(2) * m.sqrt(s0)))}


def gap_roots_repaired(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any) -> dict[str, Any]:
    """The repaired route's two gap terms without their constant 2 (1 + eta) C_K: the proof outline's
    (`bounds.theorems.outline_gap_roots`) with arm 1's count one pull lower in the first,
    sqrt(beta sigma^2 log n / (sigma0^2 n - 4 sigma0^2 (K-1) - 2 sigma0^2 + 2 sigma^2)), because the
    shifted eq. `Tk_lowv2` that replaces the refuted one bounds ctilde_1 at T_1 - 1 (on E and E_2,
    T_1 - 1 >= n/2 - 2(K-1) - 1); the second, sqrt(beta sigma^2 (K-1) log n / (sigma0^2 n)), is unchanged."""
    K, n, s0, s = (as_numeric(v) for v in (K, n, sigma0_sq, sigma_sq))
    m = namespace_for(K, n, s0, s)
    g = outline_gap_roots(K, n, s0, s)
    g["gap_term_E1"] = m.sqrt(beta(K, s0, s) * s * m.log(n) / (s0 * n - 4 * s0 * (K - 1) - 2 * s0 + 2 * s))
    return g


def theorem_5_1_repaired_terms(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> dict[str, Any]:
    """Theorem 5.1 (`them-R`) with every error the ledger found corrected, n >= 4K - 2:
    - the gap terms keep Theorem 3.1's 1/sigma0 (the main-text outline, PF-DK-V2), with the repaired
      constant C_K (real for every K, THM-GAP) and eta from `eta_repaired` (PF-ETA-COND; beta_1 = 1
      from the repaired Lemma `sec:tau`), gamma = 2 (1 + eta) C_K; the first has arm 1's count one pull
      lower (`gap_roots_repaired`: the refuted eq. `Tk_lowv2` is replaced by its shifted form);
    - Pr(not E) is `not_E_bound_repaired` (PF-EBAR-FINAL, PF-E31, PF-E3K, PF-NU-T).
    The result is invariant under rescaling sigma0^2, sigma^2 together, as e_n is.
    """
    require_positive("n - 4(K-1) - 1", as_numeric(n) - 4 * (as_numeric(K) - 1) - 1,
                     "the repaired Theorem 5.1 needs n >= 4K - 2 (on E and E_2 arm 1's count less one is at least "
                     "n/2 - 2(K-1) - 1)", {"K": K, "n": n})
    e = eta_repaired(K, sigma0_sq, sigma_sq)
    g = gap_roots_repaired(K, n, sigma0_sq, sigma_sq)
    out = {k: 2 * (1 + e) * gap_constant_repaired(K) * v for k, v in g.items()}
    out.update(not_E_bound_repaired(K, n, sigma0_sq, sigma_sq, delta))
    return out


def theorem_5_1_repaired(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> Any:
    """The sum of `theorem_5_1_repaired_terms`."""
    return sum(theorem_5_1_repaired_terms(K, n, sigma0_sq, sigma_sq, delta).values())


def range_second_moment_bound(K: Any, sigma0_sq: Any) -> Any:
    """E[(mu_(1) - mu_(K))^2] <= 4 sigma0^2 (4 ln K + 2 ln 2): range^2 <= 4 max_k (mu_k - mu0)^2, and
    E[max X_k^2] <= 4 ln(K sqrt 2) for standard normals (Chernoff with lambda = 1/4)."""
    check_int("K", K, 2)
    check_positive("sigma0_sq", sigma0_sq)
    K, s0 = as_numeric(K), as_numeric(sigma0_sq)
    m = namespace_for(K, s0)
    return 4 * s0 * (4 * m.log(K) + 2 * m.log(2))


def theorem_5_2_repaired(K: Any, n: Any, sigma0_sq: Any, sigma_sq: Any, delta: Any) -> Any:
    """Theorem 5.2 (`them-R-Bayes`) repaired: sr_n = E[(mu_* - mu_J) 1{J != i*}] <= sqrt(E[range^2] e_n)
    (Cauchy-Schwarz, replacing the proof's unconditional E[range] for a conditional one, PF-REGRET-STEP),
    with e_n <= min(1, repaired Theorem 5.1)."""
    m = namespace_for(*(as_numeric(v) for v in (K, n, sigma0_sq, sigma_sq, delta)))
    e = theorem_5_1_repaired(K, n, sigma0_sq, sigma_sq, delta)
    return m.sqrt(range_second_moment_bound(K, sigma0_sq)) * m.sqrt(e)


def ucbe_lower_chain_threshold_repaired(n: Any, K: Any, p: Any = 0.2) -> Any:
    """Section 2's lower-bound chain repaired: with H_2 >= H / log(2K) (the true direction),
    exp(-5n/(p(1-p) H_2)) >= exp(-5 log(2K) n/(p(1-p) H)) >= n^(-1/2) whenever
    Delta_min <= (p(1-p) log n / (5 log(2K) n))^(1/2), this threshold (H >= 2 Delta_min^-2)."""
    check_positive("n", n)
    check_int("K", K, 2)
    check_range("p", p, 0.0, 1.0, low_open=True, high_open=True)
    n, K, p = as_numeric(n), as_numeric(K), as_numeric(p)
    m = namespace_for(n, K, p)
    return m.sqrt(p * (1 - p) * m.log(n) / (5 * m.log(2 * K) * n))


def _harmonic(K: Any) -> Any:
    """The harmonic number H_K = sum_{i=1}^K 1/i: sympy's `harmonic` for a symbol, psi(K + 1) + Euler's gamma
    (DLMF 5.4.14) for a number."""
    if namespace_for(K).name == "sympy":
        import sympy
        return sympy.harmonic(K)
    from scipy.special import digamma
    return float(digamma(float(K) + 1)) + EULER_GAMMA


def harmonic_log_bound_repaired(K: Any) -> Any:
    """1/2 + sum_{i=2}^K 1/i = (2 H_K - 1)/2, H_K the harmonic number, the factor in H <= (1/2 + sum_{i=2}^K 1/i) H_2
    <= log(2K) H_2 (Section 2 repaired: the paper's H <= H_2 <= log(2K) H has its first inequality reversed). One
    expression for numbers and symbols (the repair's derivation passes through it)."""
    check_int("K", K, 2)
    return (2 * _harmonic(K) - 1) / 2


__all__ = [n for n in dir() if n.endswith("repaired") or n == "range_second_moment_bound"]
