"""Successive rejects (Audibert, Bubeck & Munos 2010).

logbar(K) = 1/2 + sum_{i=2}^K 1/i; n_k = ceil((n - K) / (logbar(K) (K + 1 - k))), k = 1..K-1, n_0 = 0.
In phase k every surviving arm is pulled n_k - n_{k-1} more times, then the arm with the lowest
cumulative empirical mean is rejected (ties at random). The last survivor is recommended.
Budget: n_1 + ... + n_{K-1} + n_{K-1} <= n; n > K gives every arm at least one pull.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .sources import argmax_random, collect, live_source, n_arms, phase_sum, replay_source
from .spec import Algorithm


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
def _run(src, i, n):
    K = n_arms(src)
    T = np.zeros(K)
    S = np.zeros(K)
    active = np.ones(K, np.bool_)
    sched = schedule(K, n)
    prev = 0
    key = np.empty(K)
    for k in range(K - 1):
        m = sched[k] - prev
        prev = sched[k]
        for j in range(K):
            if active[j]:
                S[j] += phase_sum(src, i, j, m)
                T[j] += m
        for j in range(K):
            key[j] = -(S[j] / T[j]) if (active[j] and T[j] > 0) else (0.0 if active[j] else -np.inf)
        active[argmax_random(key, src, i)] = False
    for j in range(K):
        if active[j]:
            return j, T
    return -1, T


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, sums)
    for i in prange(R):     # i as int64: prange's is uint64 in the parallel body, which compiles _run twice
        rec[i], T = _run(src, np.int64(i), n)
        for k in range(K):  # by element: a slice assignment compiles numba's error-message formatting
            pulls[i, k] = T[k]
    return rec, pulls


def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, sums=None):
    return _batch(np.ascontiguousarray(means, float), n, gaussian, nu, np.asarray(reward_seeds, np.uint64),
                  np.asarray(seeds, np.uint64), collect(sums, np.shape(means)))


def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0):
    mu = np.asarray(mu, float)
    if table is None:
        return tuple(x[0] for x in batch(mu[None], n, [seed], [reward_seed], gaussian, nu))
    return _run(replay_source(mu.size, table, ties, gaussian, nu), 0, n)


def reference(source, K: int, n: int, gaussian=False, nu=0.0) -> tuple[int, np.ndarray]:
    """Plain numpy successive rejects, pull by pull. The phase lengths come from `schedule`, the
    one definition of Audibert et al.'s n_k (two summation orders of logbar(K) can round a
    quotient that is an integer up to a different ceiling)."""
    nk = [0] + [int(x) for x in schedule(K, n)]
    T, S = np.zeros(K), np.zeros(K)
    active = np.ones(K, bool)
    for k in range(1, K):
        for j in np.flatnonzero(active):
            S[j] += source.phase(j, nk[k] - nk[k - 1])
            T[j] += nk[k] - nk[k - 1]
        key = np.where(active, -np.divide(S, T, out=np.zeros(K), where=T > 0), -np.inf)
        active[source.argmax(key)] = False
    return int(np.flatnonzero(active)[0]), T


ALGORITHM = Algorithm(
    name="sr", title="Successive rejects (Audibert, Bubeck & Munos 2010)",
    batch=batch, run=run, reference=reference,
    min_budget=lambda K, p: K + 1, budget_rule="n_1 = ceil((n - K) / (logbar(K) K)) must give every arm a pull",
    style=("tab:green", "^", "-"), cost=0.05, collects_sums=True, phase_sums=True, one_nu="")
