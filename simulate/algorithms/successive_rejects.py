"""Successive rejects (Audibert, Bubeck & Munos 2010).

logbar(K) = 1/2 + sum_{i=2}^K 1/i; n_k = ceil((n - K) / (logbar(K) (K + 1 - k))), k = 1..K-1, n_0 = 0.
In phase k every surviving arm is pulled n_k - n_{k-1} more times, then the arm with the lowest
cumulative empirical mean is rejected (ties at random). The last survivor is recommended.
A phase's reward sum is drawn at once (Binomial or Normal). Budget: n_1 + ... + n_{K-1} + n_{K-1} <= n.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ._common import EMPTY_TABLE, EMPTY_TIES, argmax_random, draw_sum

NAME = "sr"


@njit(cache=True, error_model="numpy")
def schedule(K, n):
    """n_1..n_{K-1} of Audibert et al."""
    logbar = 0.5
    for i in range(2, K + 1):
        logbar += 1.0 / i
    out = np.empty(K - 1, np.int64)
    for k in range(1, K):
        out[k - 1] = int(math.ceil((n - K) / (logbar * (K + 1 - k))))
    return out


@njit(cache=True, error_model="numpy")
def run(mu, n, gaussian, nu, table, ties):
    K = mu.shape[0]
    T = np.zeros(K)
    S = np.zeros(K)
    active = np.ones(K, np.bool_)
    cursor = np.zeros(K, np.int64)
    tie_i = np.zeros(1, np.int64)
    sched = schedule(K, n)
    prev = 0
    key = np.empty(K)
    for k in range(K - 1):
        m = sched[k] - prev
        prev = sched[k]
        for j in range(K):
            if active[j]:
                s, _ = draw_sum(j, m, mu, gaussian, nu, table, cursor)
                S[j] += s
                T[j] += m
        for j in range(K):
            key[j] = -(S[j] / T[j]) if (active[j] and T[j] > 0) else (0.0 if active[j] else -np.inf)
        active[argmax_random(key, ties, tie_i)] = False
    for j in range(K):
        if active[j]:
            return j, T
    return -1, T


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
    """Plain numpy successive rejects, pull by pull. The phase lengths come from `schedule`, the
    one definition of Audibert et al.'s n_k (two summation orders of logbar(K) can round a
    quotient that is an integer up to a different ceiling)."""
    nk = [0] + [int(x) for x in schedule(K, n)]
    T, S = np.zeros(K), np.zeros(K)
    active = np.ones(K, bool)
    for k in range(1, K):
        for j in np.flatnonzero(active):
            s, _ = source.phase(j, nk[k] - nk[k - 1])
            S[j] += s
            T[j] += nk[k] - nk[k - 1]
        key = np.where(active, -np.divide(S, T, out=np.zeros(K), where=T > 0), -np.inf)
        active[source.argmax(key)] = False
    return int(np.flatnonzero(active)[0]), T
