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
import numba
from numba import njit, prange

from ._common import EMPTY_TABLE, EMPTY_TIES, bernoulli, pick_index
from ._rng import next_double, next_normal, seed_states

NAME = "rue"
VAR_FLOOR = 1e-12
DEG = 2.0
ESTIMATORS = {"authors": 0, "unbiased": 1, "known": 2}


@njit(cache=True, error_model="numpy")
def _estimates(N, Stot, Qtot, A, sumT2, npulled, mode, s0_known, s_known):
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


@njit(cache=True, inline="always")
def _tie_u(ties, tie_i, st, i):
    if ties.shape[0] > 0:
        return ties[tie_i[0]]
    return next_double(st, i)


@njit(cache=True, error_model="numpy")
def run(mu, n, gaussian, nu, mode, s0_known, s_known, table, ties, seed=0):
    """One run of RUE: `_block` with a single run. Returns (recommended arm, pulls per arm). Live
    draws come from the xoshiro256+ stream of `seed` (the stream `batch` gives that seed); in table
    mode rewards and tie uniforms come from `table` and `ties` (module `_common`)."""
    K = mu.shape[0]
    st = seed_states(np.array([seed], np.uint64))
    rec = np.empty(1, np.int64)
    pulls = np.empty((1, K))
    _block(mu.reshape(1, K), n, gaussian, nu, mode, s0_known, s_known, st, rec, pulls, 0, 1, table, ties)
    return rec[0], pulls[0]


@njit(cache=True)
def _final_pick(U, ties, tie_i, st, i):
    best = U[0]
    for j in range(1, U.shape[0]):
        best = max(best, U[j])
    cnt = 0
    for j in range(U.shape[0]):
        cnt += U[j] == best
    k = 0
    while U[k] != best:
        k += 1
    if cnt > 1:
        k = pick_index(U, best, cnt, _tie_u(ties, tie_i, st, i))
    return k


BLOCK = 32     # runs interleaved per thread at least: the per-arm loops run across them as vectors
UNIT = 4       # LLVM vectorises those loops 4 wide (ymm) with a scalar remainder, and takes the
               # vector path for loops of at least 20-24 runs (trip-count checks in the assembly):
               # blocks of 32 or more runs whose size is a multiple of 4 run fully vectorised.
               # (Padding to 16, as before, computed 112 runs for 100: 11% slower, same results.)


# fastmath "contract" lets LLVM fuse a * b + c into one FMA instruction (one rounding instead of
# two): 5% more throughput at K = 20 and K = 80. The vector and the scalar code paths fuse alike
# (`test_rue_interleaved_batch_equals_single_runs` compares them in the rounding-sensitive
# 'unbiased' mode). A CPU without FMA rounds differently, so a seed's results are reproducible on
# one machine class. Against unfused arithmetic, decisions changed only at near-ties: in none of
# 2,528 runs (F1-F4) with the 'authors' or known variances, in 0.25-4.3% of 'unbiased' runs. That
# estimator's sigma0^2 sat at VAR_FLOOR for hundreds to thousands of rounds in every F1 and F4 run
# checked, and there the posterior shrinks all arms to nearly one index.
@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _block(mu, n, gaussian, nu, mode, s0_known, s_known, st, rec, pulls, lo, hi, table, ties):
    """Runs lo..hi-1 in lockstep, arrays laid out `(K, B)` so each per-arm step is a vector op
    across runs; each run's arithmetic is sequential and its own, so a run's result does not depend
    on the block it is in. Table mode (one run only): rewards from `table`, tie uniforms from `ties`,
    one tie uniform consumed per decision."""
    K = mu.shape[1]
    B = hi - lo
    tabled = table.shape[0] > 0
    cursor = np.zeros(K, np.int64)
    tie_i = np.zeros(1, np.int64)
    T = np.zeros((K, B))
    S = np.zeros((K, B))
    rbar = np.zeros((K, B))
    sq = np.zeros((K, B))
    omw = np.empty((K, B))
    U = np.empty((K, B))
    N = np.zeros(B)
    Stot = np.zeros(B)
    Qtot = np.zeros(B)
    A = np.zeros(B)
    sumT2 = np.zeros(B)
    npulled = np.zeros(B)
    s02 = np.empty(B)
    s2 = np.empty(B)
    den = np.empty(B)
    num = np.empty(B)
    best = np.empty(B)
    cnt = np.empty(B, np.int64)
    pick = np.empty(B, np.int64)
    spare = np.full(hi, np.nan)
    c = math.sqrt(DEG * math.log(n))
    for t in range(n):
        if t < 2 * K:
            for b in range(B):
                pick[b] = t % K
        else:
            for b in range(B):
                s02[b], s2[b] = _estimates(N[b], Stot[b], Qtot[b], A[b], sumT2[b], npulled[b], mode,
                                           s0_known, s_known)
                den[b] = 0.0
                num[b] = 0.0
            for j in range(K):
                for b in range(B):
                    o = s2[b] / (T[j, b] * s02[b] + s2[b])
                    omw[j, b] = o
                    den[b] += o * T[j, b]
                    num[b] += o * S[j, b]
            for b in range(B):
                inv = 1.0 / den[b]
                num[b] = num[b] * inv                # rbar_0
                den[b] = s2[b] * inv                 # sigma^2 / sum_j T_j (1 - w_j)
            for b in range(B):
                best[b] = -np.inf
                cnt[b] = 0
                pick[b] = -1
            for j in range(K):                       # index, running max, first maximiser, ties
                for b in range(B):
                    o = omw[j, b]
                    u = o * num[b] + (1.0 - o) * rbar[j, b] + c * math.sqrt(s02[b] * o + o * o * den[b])
                    U[j, b] = u
                    up = u > best[b]
                    pick[b] = j if up else pick[b]
                    cnt[b] = 1 if up else cnt[b] + (u == best[b])
                    best[b] = u if up else best[b]
            for b in range(B):
                if cnt[b] > 1:
                    pick[b] = pick_index(U[:, b], best[b], cnt[b], _tie_u(ties, tie_i, st, lo + b))
            if tabled:
                tie_i[0] += 1
        for b in range(B):
            k = pick[b]
            i = lo + b
            if tabled:
                r = table[k, cursor[k]]
                cursor[k] += 1
            elif gaussian:
                r = mu[i, k] + nu * next_normal(st, spare, i)
            else:
                r = bernoulli(next_double(st, i), mu[i, k])
            if T[k, b] == 0:
                npulled[b] += 1.0
            sumT2[b] += 2.0 * T[k, b] + 1.0
            T[k, b] += 1.0
            S[k, b] += r
            rbar[k, b] = S[k, b] / T[k, b]
            A[b] -= sq[k, b]
            sq[k, b] = S[k, b] * rbar[k, b]
            A[b] += sq[k, b]
            N[b] += 1.0
            Stot[b] += r
            Qtot[b] += r * r
    m = np.empty(K)
    for b in range(B):
        e0, e1 = _estimates(N[b], Stot[b], Qtot[b], A[b], sumT2[b], npulled[b], mode, s0_known, s_known)
        d = 0.0
        q = 0.0
        for j in range(K):
            o = e1 / (T[j, b] * e0 + e1)
            omw[j, b] = o
            d += o * T[j, b]
            q += o * S[j, b]
        r0 = q / d
        for j in range(K):
            m[j] = omw[j, b] * r0 + (1.0 - omw[j, b]) * (S[j, b] / T[j, b] if T[j, b] > 0 else 0.0)
        rec[lo + b] = _final_pick(m, ties, tie_i, st, lo + b)
        for j in range(K):
            pulls[lo + b, j] = T[j, b]


def padded_runs(R: int) -> int:
    """The runs `batch` computes for R: R rounded up to whole units of UNIT."""
    return -(-R // UNIT) * UNIT


def batch(means, n, gaussian, nu, seeds, mode, s0_known, s_known, block=BLOCK):
    """Runs r = 0..R-1 on means[r] (shape `(R, K)`), run r on the stream of seeds[r]. Runs are
    padded to whole units of UNIT (throwaway copies of the last run) and interleaved in blocks of
    at least `block` runs, each a whole number of units, as many blocks as a multiple of the
    threads where that leaves each at least `block`. Identical to `run(..., seed=seeds[r])` for
    every r, whatever the blocking."""
    R = means.shape[0]
    RU = padded_runs(R)
    if RU != R:
        means = np.concatenate([means, np.repeat(means[-1:], RU - R, axis=0)])
        seeds = np.concatenate([seeds, np.repeat(seeds[-1:], RU - R)])
    threads = numba.get_num_threads()
    units = RU // UNIT
    nblocks = max(1, RU // max(block, UNIT))
    if nblocks >= threads:
        nblocks -= nblocks % threads
    base, extra = divmod(units, nblocks)           # spread the units evenly over the blocks
    sizes = [(base + (i < extra)) * UNIT for i in range(nblocks)]
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    rec, pulls = _batch(np.ascontiguousarray(means), n, gaussian, nu, seeds, mode, s0_known, s_known, starts)
    return rec[:R], pulls[:R]


@njit(cache=True, parallel=True, error_model="numpy")
def _batch(means, n, gaussian, nu, seeds, mode, s0_known, s_known, starts):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    st = seed_states(seeds.astype(np.uint64))
    for g in prange(starts.shape[0] - 1):
        lo = starts[g]
        hi = starts[g + 1]
        _block(means, n, gaussian, nu, mode, s0_known, s_known, st, rec, pulls, lo, hi, EMPTY_TABLE, EMPTY_TIES)
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
