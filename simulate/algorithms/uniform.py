"""Uniform allocation: floor(n/K) pulls per arm, the n mod K remaining pulls to distinct arms chosen
at random; recommend the largest empirical mean (ties at random)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._common import EMPTY_TABLE, EMPTY_TIES, argmax_random, draw_sum, uniform

NAME = "uniform"


@njit(cache=True, error_model="numpy")
def run(mu, n, gaussian, nu, table, ties):
    K = mu.shape[0]
    T = np.full(K, float(n // K))
    free = np.ones(K, np.bool_)
    tie_i = np.zeros(1, np.int64)
    for e in range(n % K):                     # extras to distinct random arms
        pick = min(int(uniform(ties, tie_i) * (K - e)), K - e - 1)
        seen = -1
        for j in range(K):
            if free[j]:
                seen += 1
                if seen == pick:
                    free[j] = False
                    T[j] += 1.0
                    break
    cursor = np.zeros(K, np.int64)
    S = np.empty(K)
    for j in range(K):
        s, _ = draw_sum(j, int(T[j]), mu, gaussian, nu, table, cursor)
        S[j] = s / T[j] if T[j] > 0 else -np.inf
    return argmax_random(S, ties, tie_i), T


@njit(cache=True, parallel=True, error_model="numpy")
def batch(means, n, gaussian, nu, seeds):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    for i in prange(R):
        np.random.seed(seeds[i])
        rec[i], pulls[i] = run(means[i], n, gaussian, nu, EMPTY_TABLE, EMPTY_TIES)
    return rec, pulls


def reference(source, K: int, n: int) -> tuple[int, np.ndarray]:
    T = np.full(K, float(n // K))
    free = list(range(K))
    for e in range(n % K):
        j = free.pop(min(int(source.uniform() * (K - e)), K - e - 1))
        T[j] += 1
    means = np.array([source.phase(j, int(T[j]))[0] / T[j] if T[j] > 0 else -np.inf for j in range(K)])
    return source.argmax(means), T
