"""RUE, Random-effect UCB Exploration (Algorithm 1, label `alg:bai`; index of Section 4.2).

- Initialisation: two round-robin passes (every arm pulled twice; fewer if n < 2K).
- Round t: U_k = muhat_k + sqrt(tau_k^2 * DEG * log n), DEG = 2, from the posterior of eqs. `blup`
  and `MSE` (`bounds.estimation.posterior`); an arm with T_k <= 1 would have U_k = +inf, which
  after the initialisation cannot occur. Pull argmax U, ties uniformly at random.
- Variances: known (`sigma0_sq`, `sigma_sq` given) or re-estimated every round from O(1)-updated
  sufficient statistics (N = sum T_k, S = sum of rewards, Q = sum of squares, A = sum_k S_k^2/T_k,
  sum_k T_k^2):
    sigma^2  = (Q - A) / max(N - #{k: T_k >= 1}, 1)                 (pooled within-arm variance)
    SSB      = A - S^2 / N                                            (sum_k T_k (rbar_k - rbar)^2)
    'authors':  sigma0^2 = SSB / max(N - sum_k T_k^2 / N, 1)          (as the authors' code)
    'unbiased': sigma0^2 = (SSB - (#pulled - 1) sigma^2) / max(N - sum_k T_k^2 / N, 1)
                (the ANOVA moment estimator: E[SSB] = (K-1) sigma^2 + (N - sum T^2/N) sigma0^2)
  Both are floored at VAR_FLOOR so the posterior stays defined (e.g. Bernoulli arms with identical
  rewards early on).
- Recommendation: the largest posterior mean, ties at random.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ._common import EMPTY_TABLE, EMPTY_TIES, argmax_random, draw, pick_tie

NAME = "rue"
VAR_FLOOR = 1e-12
DEG = 2.0
ESTIMATORS = {"authors": 0, "unbiased": 1, "known": 2}


@njit(cache=True, error_model="numpy")
def _estimates(N, Stot, Qtot, A, sumT2, npulled, mode, s0_known, s_known):
    if mode == 2:
        return s0_known, s_known
    s2 = (Qtot - A) / max(N - npulled, 1.0)
    ssb = A - Stot * Stot / N
    den = max(N - sumT2 / N, 1.0)
    if mode == 0:
        s02 = ssb / den
    else:
        s02 = (ssb - (npulled - 1.0) * s2) / den
    return max(s02, VAR_FLOOR), max(s2, VAR_FLOOR)


@njit(cache=True, error_model="numpy", fastmath=True)
def run(mu, n, gaussian, nu, mode, s0_known, s_known, table, ties):
    """One run of RUE. Returns (recommended arm, pulls per arm)."""
    K = mu.shape[0]
    T = np.zeros(K)
    S = np.zeros(K)
    rbar = np.zeros(K)
    sq = np.zeros(K)
    omw = np.empty(K)
    U = np.empty(K)
    cursor = np.zeros(K, np.int64)
    tie_i = np.zeros(1, np.int64)
    N = 0.0
    Stot = 0.0
    Qtot = 0.0
    A = 0.0
    sumT2 = 0.0
    npulled = 0.0
    c = math.sqrt(DEG * math.log(n))
    t = 0
    while t < n:
        if t < 2 * K:
            k = t % K
        else:
            s02, s2 = _estimates(N, Stot, Qtot, A, sumT2, npulled, mode, s0_known, s_known)
            # after the initialisation every T_k >= 2, so no index is infinite here
            for j in range(K):                      # shrinkage 1 - w_k (vectorised)
                omw[j] = s2 / (T[j] * s02 + s2)
            den = 0.0
            num = 0.0
            for j in range(K):                      # pooled mean rbar_0 (ordered sums)
                den += omw[j] * T[j]
                num += omw[j] * S[j]
            r0 = num / den
            inv_den = s2 / den
            for j in range(K):                      # index U_k (vectorised)
                o = omw[j]
                U[j] = o * r0 + (1.0 - o) * rbar[j] + c * math.sqrt(s02 * o + o * o * inv_den)
            best = U[0]
            for j in range(1, K):                   # max (branch-free, vectorised)
                best = max(best, U[j])
            cnt = 0
            for j in range(K):                      # how many attain it
                cnt += U[j] == best
            k = 0
            while U[k] != best:                     # the first that attains it
                k += 1
            if cnt > 1:
                k = pick_tie(U, best, cnt, ties, tie_i)
            if ties.shape[0] > 0:
                tie_i[0] += 1
        r = draw(k, mu, gaussian, nu, table, cursor)
        # O(1) update of the sufficient statistics (sq[k] caches S_k^2 / T_k)
        if T[k] == 0:
            npulled += 1.0
        sumT2 += 2.0 * T[k] + 1.0
        T[k] += 1.0
        S[k] += r
        rbar[k] = S[k] / T[k]
        A -= sq[k]
        sq[k] = S[k] * rbar[k]
        A += sq[k]
        N += 1.0
        Stot += r
        Qtot += r * r
        t += 1
    s02, s2 = _estimates(N, Stot, Qtot, A, sumT2, npulled, mode, s0_known, s_known)
    den = 0.0
    num = 0.0
    for j in range(K):
        o = s2 / (T[j] * s02 + s2)
        omw[j] = o
        den += o * T[j]
        num += o * S[j]
    r0 = num / den
    for j in range(K):
        U[j] = omw[j] * r0 + (1.0 - omw[j]) * (S[j] / T[j] if T[j] > 0 else 0.0)
    return argmax_random(U, ties, tie_i), T


@njit(cache=True, parallel=True, error_model="numpy")
def batch(means, n, gaussian, nu, seeds, mode, s0_known, s_known):
    """Runs r = 0..R-1 on means[r] (shape `(R, K)`), each seeded with seeds[r]."""
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    for i in prange(R):
        np.random.seed(seeds[i])
        a, T = run(means[i], n, gaussian, nu, mode, s0_known, s_known, EMPTY_TABLE, EMPTY_TIES)
        rec[i] = a
        pulls[i] = T
    return rec, pulls


def reference(source, K: int, n: int, variances: str = "authors", sigma0_sq: float = 1.0,
              sigma_sq: float = 1.0) -> tuple[int, np.ndarray]:
    """Plain numpy RUE, recomputing everything each round from the definitions (readable, slow)."""
    from bounds.estimation import posterior
    T = np.zeros(K)
    S = np.zeros(K)
    Q = np.zeros(K)

    def variances_now():
        if variances == "known":
            return sigma0_sq, sigma_sq
        pulled = T > 0
        N = T.sum()
        rb = np.divide(S, T, out=np.zeros(K), where=pulled)
        s2 = float(np.sum(Q[pulled] - T[pulled] * rb[pulled] ** 2)) / max(N - pulled.sum(), 1.0)
        ssb = float(np.sum(T * (rb - S.sum() / N) ** 2))
        den = max(N - float(np.sum(T ** 2)) / N, 1.0)
        s02 = ssb / den if variances == "authors" else (ssb - (pulled.sum() - 1) * s2) / den
        return max(s02, VAR_FLOOR), max(s2, VAR_FLOOR)

    for t in range(n):
        if t < 2 * K:
            k = t % K
        else:
            s02, s2 = variances_now()
            p = posterior(T, S, s02, s2)
            U = np.where(T <= 1, np.inf, p.mean + np.sqrt(p.var * DEG * math.log(n)))
            k = source.argmax(U)
        r = source.reward(k)
        T[k] += 1
        S[k] += r
        Q[k] += r * r
    s02, s2 = variances_now()
    return source.argmax(posterior(T, S, s02, s2).mean), T
