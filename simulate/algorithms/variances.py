"""The variance estimates RUE plugs into its posterior (Section 6: "we use the estimates of the
variances sigma_0^2 and sigma^2"; the paper does not give the formulas, the authors' code does).

With T_k pulls, rbar_k the mean of arm k, N = sum_k T_k and rbar the grand mean:
    sigma^2  = sum_k sum_j (r_kj - rbar_k)^2 / max(N - #{k: T_k >= 1}, 1)      (pooled within-arm)
    SSB      = sum_k T_k (rbar_k - rbar)^2
    'authors':  sigma0^2 = SSB / max(N - sum_k T_k^2 / N, 1)                   (the authors' code)
    'unbiased': sigma0^2 = (SSB - (#{k: T_k >= 1} - 1) sigma^2) / max(N - sum_k T_k^2 / N, 1)
                (the ANOVA moment estimator: E[SSB] = (K - 1) sigma^2 + (N - sum T^2 / N) sigma0^2)
    'known':    the given sigma0^2 and sigma^2.
    'ml', 'reml': maximum likelihood and restricted maximum likelihood of the one-way random-effects
                model (`likelihood_fit`, below), the two Section 4 names beside the moments.
Both estimates are floored at VAR_FLOOR so that the posterior stays defined (for example Bernoulli
arms whose rewards are all equal early on).

Two forms of the same definitions: `estimate` from per-arm counts, sums and sums of squares
(numpy, any leading axes: the plain references and the ledger's simulator), and `from_totals`, the
kernel's O(1) form from running totals (A = sum_k S_k^2 / T_k, sumT2 = sum_k T_k^2). A test draws
histories and checks that the two agree.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

ESTIMATORS = ("authors", "unbiased", "known", "ml", "reml")
VAR_FLOOR = 1e-12
#: the kernels' codes of the likelihood estimators (`mode_of`): ML and REML are refitted on a schedule
ML_MODE, REML_MODE = 3, 4
#: the likelihood estimators' refit schedule in the kernels: a run refits when its pulls have grown by this
#: share since its last fit (so about log(n / 2K) / log(1 + REFIT_GROWTH) fits a run, 136 at K = 10 and
#: n = 1e5) and keeps the last fit in between; its recommendation refits on the final data. 0: every round.
#: One fit costs about 12 / 33 / 109 us at K = 10 / 30 / 100 (AMD EPYC, one thread), where a RUE round at K = 10
#: takes 22 ns: a fit every round would make RUE hundreds of times slower; on this schedule RUE with ML runs at
#: 97 ns a round at K = 10, n = 2e4 (docs/bench.txt). The effect of the schedule is measured
#: against refitting every round in docs/bench.txt (`rue_verify.rates.estimators.refit_effect`).
REFIT_GROWTH = 1.0 / 16.0


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
    if variances in LIKELIHOOD:
        out = np.empty(lead + (2,))
        flat = out.reshape(-1, 2)
        for i, (t, s, q) in enumerate(zip(*(x.reshape(-1, x.shape[-1]) for x in (T, S, Q)))):
            flat[i] = likelihood_fit(t, s, q, variances == "reml")
        return out[..., 0], out[..., 1]
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


# ---------------------------------------------------------------- maximum likelihood and REML
#: the likelihood estimators Section 4 names (Robinson 1991: "maximum likelihood, and restricted maximum
#: likelihood") for the one-way random-effects model with unbalanced counts
LIKELIHOOD = ("ml", "reml")
#: the grid of the variance ratio lambda = sigma0^2 / sigma^2 the profile is scanned on (log-spaced), and the
#: tolerance of the golden-section refinement in log lambda
RATIO_LOW, RATIO_HIGH, RATIO_GRID, LOG_RATIO_TOL = 1e-8, 1e8, 97, 1e-9


@njit(cache=True, error_model="numpy")
def _profile(lam, T, ybar, W, N, npulled, restricted):
    """-2 log-likelihood of the one-way random-effects model r_kj = mu0 + a_k + e_kj (a_k ~ N(0,
    sigma0^2), e_kj ~ N(0, sigma^2)), profiled over mu0 and sigma^2 at the ratio lam = sigma0^2/sigma^2,
    up to a constant; with `restricted`, REML's (the likelihood of the contrasts free of mu0). Arm k's
    rewards have covariance sigma^2 (I + lam 11'), so with w_k = T_k / (1 + lam T_k) the quadratic form is
    W + sum_k w_k (ybar_k - mu0)^2 (W the within-arm sum of squares) and the log-determinant N log sigma^2
    + sum_k log(1 + lam T_k). Returns (value, sigma^2 at its profile maximum)."""
    sw, swy, logdet = 0.0, 0.0, 0.0
    for k in range(T.shape[0]):
        if T[k] > 0:
            w = T[k] / (1.0 + lam * T[k])
            sw += w
            swy += w * ybar[k]
            logdet += math.log1p(lam * T[k])
    mu = swy / sw
    q = W
    for k in range(T.shape[0]):
        if T[k] > 0:
            q += T[k] / (1.0 + lam * T[k]) * (ybar[k] - mu) ** 2
    df = N - 1.0 if restricted else N
    s2 = max(q / df, VAR_FLOOR)
    value = df * math.log(s2) + logdet + (math.log(sw) if restricted else 0.0)
    return value, s2


@njit(cache=True, error_model="numpy")
def likelihood_fit(T, S, Q, restricted):
    """(sigma0^2, sigma^2) maximising the likelihood (`restricted` False: ML) or the restricted likelihood
    (True: REML) of the one-way random-effects model over sigma0^2 >= 0, sigma^2 > 0, from per-arm counts
    T, sums S and sums of squares Q (1-D). The profile in the ratio lambda = sigma0^2/sigma^2 (`_profile`) is
    scanned on RATIO_GRID log-spaced points of [RATIO_LOW, RATIO_HIGH] and at lambda = 0 (the boundary: an
    estimate of sigma0^2 = 0 is a maximum there, as the likelihood allows), and the best interior point is
    refined by golden-section search to LOG_RATIO_TOL in log lambda. Fewer than two arms pulled leaves
    sigma0^2 unidentified (VAR_FLOOR is returned for it); one reward per arm leaves only the sum
    identified (all of it is returned as sigma0^2). Estimates are floored at VAR_FLOOR, as the other
    estimators'. Sources: the model and the two likelihoods as in Searle, Casella & McCulloch,
    Variance Components (1992), ch. 3 and 6, and Robinson (1991), which Section 4 cites; the profile in
    the ratio is the usual one-dimensional reduction (written here, checked against statsmodels'
    MixedLM and a direct maximisation in tests/simulate/test_variances.py)."""
    K = T.shape[0]
    ybar = np.zeros(K)
    W = 0.0
    for k in range(K):
        if T[k] > 0:
            ybar[k] = S[k] / T[k]
            W += Q[k] - S[k] * S[k] / T[k]
    return likelihood_from(T, ybar, W, restricted)


@njit(cache=True, error_model="numpy")
def likelihood_from(T, ybar, W, restricted):
    """`likelihood_fit` from the arms' counts T, means ybar (any value where T_k = 0) and the within-arm
    sum of squares W = sum_k sum_j (r_kj - ybar_k)^2: the kernels keep W as Qtot - sum_k S_k^2 / T_k."""
    K = T.shape[0]
    N, npulled = 0.0, 0.0
    for k in range(K):
        if T[k] > 0:
            N += T[k]
            npulled += 1.0
    W = max(W, 0.0)
    if npulled < 2.0:
        return VAR_FLOOR, max(W / max(N - npulled, 1.0), VAR_FLOOR)
    if N - npulled < 1.0:               # one reward per arm: only sigma0^2 + sigma^2 is identified; all of it
        grand = 0.0                     # is given to the prior, the part that moves the arms' means
        for k in range(K):
            if T[k] > 0:
                grand += T[k] * ybar[k]
        grand /= N
        ss = 0.0
        for k in range(K):
            if T[k] > 0:
                ss += (ybar[k] - grand) ** 2
        return max(ss / (npulled - (1.0 if restricted else 0.0)), VAR_FLOOR), VAR_FLOOR
    best_v, best_s2 = _profile(0.0, T, ybar, W, N, npulled, restricted)
    best_lam, best_i = 0.0, -1
    lo, hi = math.log(RATIO_LOW), math.log(RATIO_HIGH)
    step = (hi - lo) / (RATIO_GRID - 1)
    for i in range(RATIO_GRID):
        v, s2 = _profile(math.exp(lo + i * step), T, ybar, W, N, npulled, restricted)
        if v < best_v:
            best_v, best_s2, best_lam, best_i = v, s2, math.exp(lo + i * step), i
    if best_i >= 0:                     # refine within the neighbouring grid points (golden section)
        a, b = lo + max(best_i - 1, 0) * step, lo + min(best_i + 1, RATIO_GRID - 1) * step
        g = (math.sqrt(5.0) - 1.0) / 2.0
        c, d = b - g * (b - a), a + g * (b - a)
        fc = _profile(math.exp(c), T, ybar, W, N, npulled, restricted)[0]
        fd = _profile(math.exp(d), T, ybar, W, N, npulled, restricted)[0]
        while b - a > LOG_RATIO_TOL:
            if fc < fd:
                b, d, fd = d, c, fc
                c = b - g * (b - a)
                fc = _profile(math.exp(c), T, ybar, W, N, npulled, restricted)[0]
            else:
                a, c, fc = c, d, fd
                d = a + g * (b - a)
                fd = _profile(math.exp(d), T, ybar, W, N, npulled, restricted)[0]
        u = 0.5 * (a + b)
        v, s2 = _profile(math.exp(u), T, ybar, W, N, npulled, restricted)
        if v < best_v:
            best_v, best_s2, best_lam = v, s2, math.exp(u)
    return max(best_lam * best_s2, VAR_FLOOR), max(best_s2, VAR_FLOOR)
