"""Uniform allocation: floor(n/K) pulls per arm, the n mod K remaining pulls to distinct arms chosen
at random; recommend the largest empirical mean (ties at random)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .sources import add_extras, argmax_random, collect, live_source, n_arms, phase_sum, replay_source
from .spec import Algorithm


@njit(cache=True, error_model="numpy")
def _run(src, i, n):
    K = n_arms(src)
    T = np.full(K, float(n // K))
    add_extras(T, n % K, src, i)               # extras to distinct random arms
    S = np.empty(K)
    for j in range(K):
        S[j] = phase_sum(src, i, j, int(T[j])) / T[j] if T[j] > 0 else -np.inf
    return argmax_random(S, src, i), T


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
    T = np.full(K, float(n // K))
    free = list(range(K))
    for e in range(n % K):
        j = free.pop(min(int(source.uniform() * (K - e)), K - e - 1))
        T[j] += 1
    means = np.array([source.phase(j, int(T[j])) / T[j] if T[j] > 0 else -np.inf for j in range(K)])
    return source.argmax(means), T


ALGORITHM = Algorithm(
    name="uniform", title="Uniform allocation (round robin), the baseline every adaptive rule should beat",
    batch=batch, run=run, reference=reference,
    min_budget=lambda K, p: K, budget_rule="every arm needs a pull for its empirical mean",
    style=("tab:gray", "x", "--"), cost=0.05, collects_sums=True, phase_sums=True, one_nu="")
