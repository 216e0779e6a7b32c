"""UCB-E (Audibert, Bubeck & Munos 2010), as Sections 2 and 6 use it.

- Initialisation: one pull per arm.
- Round t: pull argmax_k rbar_k + sqrt(a / T_k), ties uniformly at random. The exploration parameter
  a = c n / H (Section 6: c = 2, H summed over the suboptimal arms only, as the authors' code);
  the runner computes a from the true means, which is why UCB-E is "infeasible".
- Recommendation: the largest empirical mean, ties at random.
Only the pulled arm's index changes each round, so the update is O(1) and the argmax is one pass.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ._common import FAST, EMPTY_TABLE, EMPTY_TIES, argmax_random, draw, pick_tie

NAME = "ucbe"


@njit(cache=True, error_model="numpy", fastmath=FAST)
def run(mu, n, gaussian, nu, a, table, ties):
    K = mu.shape[0]
    T = np.zeros(K)
    S = np.zeros(K)
    U = np.empty(K)
    cursor = np.zeros(K, np.int64)
    tie_i = np.zeros(1, np.int64)
    for t in range(n):
        if t < K:
            k = t
        else:
            best = U[0]
            for j in range(1, K):
                best = max(best, U[j])
            cnt = 0
            for j in range(K):
                cnt += U[j] == best
            k = 0
            while U[k] != best:
                k += 1
            if cnt > 1:
                k = pick_tie(U, best, cnt, ties, tie_i)
            if ties.shape[0] > 0:
                tie_i[0] += 1
        r = draw(k, mu, gaussian, nu, table, cursor)
        T[k] += 1.0
        S[k] += r
        U[k] = S[k] / T[k] + math.sqrt(a / T[k])
    means = np.empty(K)
    for j in range(K):
        means[j] = S[j] / T[j] if T[j] > 0 else -np.inf
    return argmax_random(means, ties, tie_i), T


@njit(cache=True, parallel=True, error_model="numpy")
def batch(means, n, gaussian, nu, seeds, a):
    """Runs r = 0..R-1; `a` has one exploration parameter per run (random instances differ in H)."""
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    for i in prange(R):
        np.random.seed(seeds[i])
        rec[i], pulls[i] = run(means[i], n, gaussian, nu, a[i], EMPTY_TABLE, EMPTY_TIES)
    return rec, pulls


def reference(source, K: int, n: int, a: float) -> tuple[int, np.ndarray]:
    """Plain numpy UCB-E."""
    T = np.zeros(K)
    S = np.zeros(K)
    for t in range(n):
        k = t if t < K else source.argmax(S / T + np.sqrt(a / T))
        S[k] += source.reward(k)
        T[k] += 1
    return source.argmax(np.where(T > 0, S / np.maximum(T, 1), -np.inf)), T
