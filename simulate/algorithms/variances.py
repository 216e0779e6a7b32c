"""The variance estimates RUE plugs into its posterior (Section 6: "we use the estimates of the
variances sigma_0^2 and sigma^2"; the paper does not give the formulas, the authors' code does).

With T_k pulls, rbar_k the mean of arm k, N = sum_k T_k and rbar the grand mean:
    sigma^2  = sum_k sum_j (r_kj - rbar_k)^2 / max(N - #{k: T_k >= 1}, 1)      (pooled within-arm)
    SSB      = sum_k T_k (rbar_k - rbar)^2
    'authors':  sigma0^2 = SSB / max(N - sum_k T_k^2 / N, 1)                   (the authors' code)
    'unbiased': sigma0^2 = (SSB - (#{k: T_k >= 1} - 1) sigma^2) / max(N - sum_k T_k^2 / N, 1)
                (the ANOVA moment estimator: E[SSB] = (K - 1) sigma^2 + (N - sum T^2 / N) sigma0^2)
    'known':    the given sigma0^2 and sigma^2.
Both estimates are floored at VAR_FLOOR so that the posterior stays defined (for example Bernoulli
arms whose rewards are all equal early on).

Two forms of the same definitions: `estimate` from per-arm counts, sums and sums of squares
(numpy, any leading axes: the plain references and the ledger's simulator), and `from_totals`, the
kernel's O(1) form from running totals (A = sum_k S_k^2 / T_k, sumT2 = sum_k T_k^2). A test draws
histories and checks that the two agree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ESTIMATORS = ("authors", "unbiased", "known")
VAR_FLOOR = 1e-12


def mode_of(variances: str) -> int:
    """The kernels' integer code of an estimator name."""
    if variances not in ESTIMATORS:
        raise ValueError(f"variances must be one of {', '.join(ESTIMATORS)}, got {variances!r}")
    return ESTIMATORS.index(variances)


def estimate(T, S, Q, variances: str = "authors", sigma0_sq: float = 1.0, sigma_sq: float = 1.0):
    """(sigma0^2, sigma^2) from pull counts T, reward sums S and sums of squares Q (arrays whose
    last axis is the arms); results have the leading shape with a trailing axis of 1."""
    mode_of(variances)
    T, S, Q = (np.asarray(x, float) for x in (T, S, Q))
    lead = T.shape[:-1] + (1,)
    if variances == "known":
        return np.full(lead, float(sigma0_sq)), np.full(lead, float(sigma_sq))
    pulled = T > 0
    rbar = np.divide(S, T, out=np.zeros_like(S), where=pulled)
    N = T.sum(axis=-1, keepdims=True)
    npulled = pulled.sum(axis=-1, keepdims=True)
    s2 = (Q - T * rbar ** 2).sum(axis=-1, keepdims=True) / np.maximum(N - npulled, 1.0)
    grand = S.sum(axis=-1, keepdims=True) / N
    ssb = (T * (rbar - grand) ** 2).sum(axis=-1, keepdims=True)
    den = np.maximum(N - (T ** 2).sum(axis=-1, keepdims=True) / N, 1.0)
    s02 = ssb / den if variances == "authors" else (ssb - (npulled - 1) * s2) / den
    return np.maximum(s02, VAR_FLOOR), np.maximum(s2, VAR_FLOOR)


@njit(cache=True, error_model="numpy")
def from_totals(N, Stot, Qtot, A, sumT2, npulled, mode, s0_known, s_known):
    """`estimate` from running totals: N pulls, Stot and Qtot the sums of rewards and squares,
    A = sum_k S_k^2 / T_k, sumT2 = sum_k T_k^2, npulled arms pulled; mode = `mode_of(name)`."""
    if mode == 2:
        return s0_known, s_known
    s2 = (Qtot - A) / max(N - npulled, 1.0)
    invN = 1.0 / N
    ssb = A - Stot * Stot * invN
    den = max(N - sumT2 * invN, 1.0)
    if mode == 0:
        s02 = ssb / den
    else:
        s02 = (ssb - (npulled - 1.0) * s2) / den
    return max(s02, VAR_FLOOR), max(s2, VAR_FLOOR)
