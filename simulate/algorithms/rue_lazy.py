"""RUE's argmax without evaluating every arm's index (known variances): the same pulls and the same
recommendation as `rue._block`, tie-breaking included.

With sigma0^2 and sigma^2 known, an arm k's index is
    U_k = o_k rbar_0 + (1 - o_k) rbar_k + c sqrt(sigma0^2 o_k + o_k^2 d),   o_k = 1 - w_k,
    d = sigma^2 / sum_j T_j o_j,
where o_k and rbar_k change only when arm k is pulled, rbar_0 moves every round and d only shrinks
(T o = T sigma^2 / (T sigma0^2 + sigma^2) grows with T). So the index computed at an earlier round,
less o_k times rbar_0 then, plus o_k times rbar_0 now, bounds the index now from above:
    U_k(now) <= A_k + o_k rbar_0(now),   A_k = U_k(then) - o_k rbar_0(then).
Each round (issue 52's design):
  1. o_j is cached per arm (computed when the arm is pulled, by the plain kernel's own expression),
     and the sums sum_j o_j T_j and sum_j o_j S_j are formed in the plain kernel's order, so rbar_0
     and d are the plain kernel's to the bit;
  2. every arm's bound A_j + o_j rbar_0 (A_j holds a rounding margin, `MARGIN` relative to the terms'
     size) and the two largest bounds are found in one pass with one multiply-add per arm;
  3. the arm of the largest bound is evaluated exactly (the plain kernel's expression). Where the
     second largest bound is below that value, no other arm can reach it and the arm is the argmax;
     otherwise every arm whose bound reaches it is evaluated, in index order, and their exact values
     give the maximum, the first maximiser and the count of ties, as the plain kernel's pass over
     every arm does. An arm evaluated there gets its A refreshed.
The arm pulled last round is evaluated first (its A is refreshed), and at round 2K every arm is.
No division and no square root run per arm, only per evaluated arm (`docs/bench.txt` has the
measured arms evaluated per round).

Runs are interleaved in blocks as in `rue._block` (arrays `(K, B)`, passes 1-2 vector ops across the
runs). Only the known-variance mode may take this path: with estimated variances sigma0^2 and
sigma^2 move every round and the bound does not hold (`rue.batch` sends those runs to the plain
kernel).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .rue_index import index as _index
from .rue_recommend import recommend
from .sources import decided, live_source, n_arms, reward, tie_uniform

#: the bound's rounding margin, relative to the size of the index's terms: far above the few units in
#: the last place that separate A_k + o_k rbar_0 from the index recomputed, far below any gap that
#: matters (an arm within it is simply evaluated)
MARGIN = 1e-10


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _refresh(A, k, b, omw, r0, rbar, c, s02, d):
    """Arm k's exact index (run b), and its bound's offset from it: A = U - o rbar_0 plus the rounding
    margin, MARGIN times the size of the other two terms; returns the index."""
    o = omw[k, b]
    u = _index(o, r0, rbar[k, b], c, s02, d)
    A[k, b] = u - o * r0 + MARGIN * (abs((1.0 - o) * rbar[k, b]) + c * math.sqrt(s02 * o + o * o * d))
    return u


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _block(src, n, s0_known, s_known, rec, pulls, lo, hi, sums, deg, evaluated):
    """Runs lo..hi-1 of `src` in lockstep (known variances), as `rue._block` with mode 'known';
    evaluated[lo + b] gets the number of exact index evaluations run b made after round 2K."""
    K = n_arms(src)
    B = hi - lo
    T = np.zeros((K, B))
    S = np.zeros((K, B))
    rbar = np.zeros((K, B))
    omw = np.empty((K, B))
    A = np.full((K, B), np.inf)       # the bound's offset, its rounding margin included; +inf: must be evaluated
    den = np.empty(B)
    num = np.empty(B)
    top = np.empty(B)
    arg = np.empty(B, np.int64)
    pick = np.empty(B, np.int64)
    evals = np.zeros(B)
    cand_k = np.empty(K, np.int64)    # one run's arms evaluated this round, in index order, and their values
    cand_u = np.empty(K)
    second = np.empty(B)
    floor = np.empty(B)
    up_num = np.empty(B)
    s02, s2 = s0_known, s_known
    c = math.sqrt(deg * math.log(n))
    for t in range(n):
        if t < 2 * K:
            for b in range(B):
                pick[b] = t % K
        else:
            for b in range(B):
                den[b] = 0.0
                num[b] = 0.0
            for j in range(K):                       # 1. the sums, in the plain kernel's order
                for b in range(B):
                    o = omw[j, b]
                    den[b] += o * T[j, b]
                    num[b] += o * S[j, b]
            for b in range(B):
                inv = 1.0 / den[b]
                num[b] = num[b] * inv                # rbar_0
                den[b] = s2 * inv                    # sigma^2 / sum_j T_j (1 - w_j)
                up_num[b] = num[b] + MARGIN * abs(num[b])
                if t > 2 * K:                        # the arm pulled last round: its offset anew
                    _refresh(A, pick[b], b, omw, num[b], rbar, c, s02, den[b])
                    evals[b] += 1.0
                else:                                # round 2K: every arm
                    for k in range(K):
                        _refresh(A, k, b, omw, num[b], rbar, c, s02, den[b])
                    evals[b] += K
                top[b] = -np.inf
                second[b] = -np.inf
                arg[b] = 0
            for j in range(K):                       # 2. the two largest bounds: one multiply-add per arm
                for b in range(B):
                    v = A[j, b] + omw[j, b] * up_num[b]
                    up = v > top[b]
                    second[b] = top[b] if up else max(second[b], v)
                    arg[b] = j if up else arg[b]
                    top[b] = v if up else top[b]
            for b in range(B):                       # 3. the exact value of the largest bound's arm
                j = arg[b]
                floor[b] = _index(omw[j, b], num[b], rbar[j, b], c, s02, den[b])
                evals[b] += 1.0
                pick[b] = arg[b]
                if second[b] >= floor[b]:            # another bound reaches it: exact values of every arm that
                    #                                  reaches, in index order
                    best = -np.inf
                    cnt = 0
                    found = 0
                    for k in range(K):
                        if A[k, b] + omw[k, b] * up_num[b] >= floor[b]:
                            u = _refresh(A, k, b, omw, num[b], rbar, c, s02, den[b])
                            evals[b] += 1.0
                            cand_k[found] = k
                            cand_u[found] = u
                            found += 1
                            if u > best:
                                best = u
                                pick[b] = k
                                cnt = 1
                            elif u == best:
                                cnt += 1
                    if cnt > 1:                      # the plain kernel's tie rule (`pick_index`) over the same values
                        target = min(int(tie_uniform(src, lo + b) * cnt), cnt - 1)
                        seen = 0
                        for i in range(found):
                            if cand_u[i] == best:
                                if seen == target:
                                    pick[b] = cand_k[i]
                                    break
                                seen += 1
            decided(src)
        for b in range(B):
            k = pick[b]
            r = reward(src, lo + b, k)
            T[k, b] += 1.0
            S[k, b] += r
            rbar[k, b] = S[k, b] / T[k, b]
            omw[k, b] = s2 / (T[k, b] * s02 + s2)
            A[k, b] = np.inf
    m = np.empty(K)
    for b in range(B):
        recommend(src, lo, b, T, S, omw, s02, s2, m, rec, pulls, sums)
        evaluated[lo + b] = evals[b]


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums, s0_known, s_known, starts, deg, evaluated):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, None)
    for g in prange(starts.shape[0] - 1):
        _block(src, n, s0_known, s_known, rec, pulls, starts[g], starts[g + 1], sums, deg, evaluated)
    return rec, pulls
