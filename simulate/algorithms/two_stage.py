"""The two-stage algorithm of Komiyama et al. (2023), parameter q in (0, 1).

Stage 1 gives every arm N1 = floor(q n / K) pulls. The candidates are the arms whose stage-1 mean is
within 2 w of the best, w = sqrt(log(n) / (2 N1)) (a Hoeffding width for rewards in [0, 1]); stage 2
splits the remaining n - K N1 pulls equally among the candidates (floor). The candidate with the
largest cumulative mean is recommended (ties at random).

Caveat: the stored copies of Komiyama et al. available here did not include the algorithm's own
text, so the candidate rule above is this project's reading of it and is not verified against the
original; `width` scales w for that reason.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ._common import EMPTY_TABLE, EMPTY_TIES, argmax_random, draw_sum

NAME = "two-stage"


@njit(cache=True, error_model="numpy")
def run(mu, n, gaussian, nu, q, width, table, ties):
    K = mu.shape[0]
    T = np.zeros(K)
    S = np.zeros(K)
    cursor = np.zeros(K, np.int64)
    tie_i = np.zeros(1, np.int64)
    N1 = max(int(q * n / K), 1) if K <= n else 0
    for j in range(K):
        s, _ = draw_sum(j, N1, mu, gaussian, nu, table, cursor)
        S[j] += s
        T[j] += N1
    best = -np.inf
    for j in range(K):
        best = max(best, S[j] / T[j])
    w = width * math.sqrt(math.log(n) / (2.0 * N1))
    cand = np.zeros(K, np.bool_)
    nc = 0
    for j in range(K):
        if S[j] / T[j] >= best - 2.0 * w:
            cand[j] = True
            nc += 1
    m2 = (n - K * N1) // nc
    for j in range(K):
        if cand[j]:
            s, _ = draw_sum(j, m2, mu, gaussian, nu, table, cursor)
            S[j] += s
            T[j] += m2
    key = np.empty(K)
    for j in range(K):
        key[j] = S[j] / T[j] if cand[j] else -np.inf
    return argmax_random(key, ties, tie_i), T


@njit(cache=True, parallel=True, error_model="numpy")
def batch(means, n, gaussian, nu, seeds, q, width):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    for i in prange(R):
        np.random.seed(seeds[i])
        rec[i], pulls[i] = run(means[i], n, gaussian, nu, q, width, EMPTY_TABLE, EMPTY_TIES)
    return rec, pulls


def reference(source, K: int, n: int, q: float, width: float = 1.0) -> tuple[int, np.ndarray]:
    N1 = max(int(q * n / K), 1)
    T, S = np.full(K, float(N1)), np.array([source.phase(j, N1)[0] for j in range(K)])
    w = width * math.sqrt(math.log(n) / (2 * N1))
    cand = S / T >= (S / T).max() - 2 * w
    m2 = (n - K * N1) // int(cand.sum())
    for j in np.flatnonzero(cand):
        S[j] += source.phase(j, m2)[0]
        T[j] += m2
    return source.argmax(np.where(cand, S / T, -np.inf)), T
