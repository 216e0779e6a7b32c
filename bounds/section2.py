"""Section 2 (`sec:onucbe`): UCB-E's bounds, the small-gap thresholds, and full information.

Problem complexities of Audibert et al. (2010) as Section 2 defines them: Delta_k = mu_* - mu_k for
k != i*, Delta_{i*} = Delta_min;  H = sum_k Delta_k^-2;  H_2 = max_i i Delta_(i)^-2 with the gaps in
increasing order (Delta_(1) = Delta_(2) = Delta_min).
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np
from scipy import special

from ._core import UndefinedError, as_numeric, check_positive, namespace_for, require_positive


def gaps(means: Any) -> np.ndarray:
    """Delta_k for every arm, with Delta_{i*} = Delta_min (Section 2). Needs a unique best arm."""
    mu = np.asarray(means, dtype=float)
    if mu.ndim != 1 or mu.size < 2:
        raise ValueError(f"means must be a list of K >= 2 numbers, got shape {mu.shape}")
    best = int(np.argmax(mu))
    d = mu[best] - mu
    others = np.delete(d, best)
    dmin = float(others.min())
    if dmin <= 0:
        raise UndefinedError("the best arm is not unique, so Delta_min = 0 and H is infinite",
                             {"means": mu.tolist()})
    d[best] = dmin
    return d


def H_complexity(means: Any, include_best: bool = True) -> float:
    """H = sum_k Delta_k^-2 (Section 2; Audibert et al.'s H_1). `include_best=False` drops the
    best arm's own term Delta_min^-2 (the convention of most implementations, including the
    authors' code, which sets UCB-E's parameter and the budgets from it)."""
    d = gaps(means)
    total = float(np.sum(d ** -2.0))
    return total if include_best else total - float(d.min()) ** -2.0


def H_2(means: Any) -> float:
    """H_2 = max_i i Delta_(i)^-2, gaps sorted increasingly, Delta_(1) = Delta_min (Section 2)."""
    d = np.sort(gaps(means))
    return float(np.max(np.arange(1, d.size + 1) * d ** -2.0))


def ucbe_upper_bound(n: Any, K: Any, H: Any) -> Any:
    """UCB-E's error bound quoted in Section 2: 2 n K exp(-(n - K)/(18 H)) (rewards in [0, 1])."""
    n, K, H = as_numeric(n), as_numeric(K), as_numeric(H)
    m = namespace_for(n, K, H)
    return 2 * n * K * m.exp(-(n - K) / (18 * H))


def ucbe_bound_at_parameter(n: Any, K: Any, a: Any) -> Any:
    """Audibert et al.'s UCB-E bound at exploration parameter a: 2 n K exp(-2a/25)."""
    n, K, a = as_numeric(n), as_numeric(K), as_numeric(a)
    m = namespace_for(n, K, a)
    return 2 * n * K * m.exp(-2 * a / 25)


def ucbe_parameter_limit(n: Any, K: Any, H: Any) -> Any:
    """The largest admissible UCB-E parameter, 25 (n - K) / (36 H) (Section 2)."""
    n, K, H = as_numeric(n), as_numeric(K), as_numeric(H)
    return 25 * (n - K) / (36 * H)


def smallgap_upper_threshold(n: Any) -> Any:
    """(54 n^-1 log n)^(1/2): Section 2's small-gap threshold for UCB-E's upper bound."""
    n = as_numeric(n)
    m = namespace_for(n)
    return m.sqrt(54 * m.log(n) / n)


def smallgap_lower_threshold(n: Any) -> Any:
    """((32 n)^-1 log n)^(1/2): Section 2's small-gap threshold for the lower bound."""
    n = as_numeric(n)
    m = namespace_for(n)
    return m.sqrt(m.log(n) / (32 * n))


def ucbe_lower_bound(n: Any, p: Any, H_2: Any) -> Any:
    """exp(-5 n / (p (1 - p) H_2)): Audibert et al.'s lower bound without its o(1) (Section 2)."""
    n, p, H_2 = as_numeric(n), as_numeric(p), as_numeric(H_2)
    m = namespace_for(n, p, H_2)
    return m.exp(-5 * n / (p * (1 - p) * H_2))


def lower_chain_middle(n: Any, H: Any) -> Any:
    """exp(-32 n / H): the middle member of Section 2's lower-bound chain."""
    n, H = as_numeric(n), as_numeric(H)
    m = namespace_for(n, H)
    return m.exp(-32 * n / H)


def full_info_error(n: Any, Delta: Any, sigma_sq: Any) -> Any:
    """e_n^* = Pr(delta >= Delta), delta ~ N(0, 2 sigma^2 / n) (eq. `full-e`): exact, two arms."""
    check_positive("sigma_sq", sigma_sq)
    check_positive("n", n)
    n, Delta, sigma_sq = as_numeric(n), as_numeric(Delta), as_numeric(sigma_sq)
    if namespace_for(n, Delta, sigma_sq).name == "mpmath":
        return mpmath.erfc(Delta / mpmath.sqrt(2 * sigma_sq / n) / mpmath.sqrt(2)) / 2
    return special.ndtr(-np.asarray(Delta) / np.sqrt(2 * np.asarray(sigma_sq) / np.asarray(n)))


def feller_x(n: Any, Delta: Any, sigma_sq: Any) -> Any:
    """x = n Delta^2 / (2 sigma^2), the argument of eq. `full-e-lb`."""
    n, Delta, sigma_sq = as_numeric(n), as_numeric(Delta), as_numeric(sigma_sq)
    return n * Delta ** 2 / (2 * sigma_sq)


def feller_bound(n: Any, Delta: Any, sigma_sq: Any) -> Any:
    """ebar_n^* = [x^-1/2 - x^-3/2] (2 pi)^-1/2 exp(-x/2), x = n Delta^2/(2 sigma^2) (eq. `full-e-lb`).

    Raises:
        UndefinedError: Delta = 0 (x = 0, a division by zero).
    """
    x = feller_x(n, Delta, sigma_sq)
    require_positive("x = n Delta^2/(2 sigma^2)", x, "Feller's bound divides by x", {
        "n": n, "Delta": Delta, "sigma_sq": sigma_sq})
    m = namespace_for(x)
    return (1 / m.sqrt(x) - 1 / (x * m.sqrt(x))) * m.exp(-x / 2) / m.sqrt(2 * m.pi)


def feller_small_gap_form(n: Any, alpha: Any, sigma_sq: Any) -> Any:
    """The paper's closed form of ebar_n^* at Delta = (2 alpha n^-1 log n)^(1/2) (Section 2.1):
    (2 pi)^-1/2 [(sigma^-2 alpha log n)^-1/2 - (sigma^-2 alpha log n)^-3/2] n^(-alpha/(2 sigma^2))."""
    n, alpha, sigma_sq = as_numeric(n), as_numeric(alpha), as_numeric(sigma_sq)
    m = namespace_for(n, alpha, sigma_sq)
    y = alpha * m.log(n) / sigma_sq
    return (1 / m.sqrt(y) - 1 / (y * m.sqrt(y))) * n ** (-alpha / (2 * sigma_sq)) / m.sqrt(2 * m.pi)


def small_gap_Delta(n: Any, alpha: Any) -> Any:
    """Delta = (2 alpha n^-1 log n)^(1/2), the boundary of Section 2.1's small-gap condition."""
    n, alpha = as_numeric(n), as_numeric(alpha)
    m = namespace_for(n, alpha)
    return m.sqrt(2 * alpha * m.log(n) / n)


def full_alpha_rhs(n: Any) -> Any:
    """(2 pi)^-1/2 [1/sqrt(log n) - 1/(log n)^(3/2)] n^(-1/2): Section 2.1's claimed lower bound."""
    n = as_numeric(n)
    m = namespace_for(n)
    L = m.log(n)
    return (1 / m.sqrt(L) - 1 / (L * m.sqrt(L))) / m.sqrt(n) / m.sqrt(2 * m.pi)


__all__ = [n for n in dir() if not n.startswith("_") and n not in {
    "annotations", "Any", "mpmath", "np", "special", "UndefinedError", "as_numeric",
    "check_int", "check_positive", "check_range", "namespace_for", "require_positive"}]
