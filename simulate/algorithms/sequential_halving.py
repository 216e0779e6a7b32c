"""Sequential halving (Karnin, Koren & Somekh 2013), with the authors' conventions.

ceil(log2 K) rounds; in each, every surviving arm gets floor(n / (|S| ceil(log2 K))) pulls; the
ceil(|S| / 2) arms with the best *cumulative* empirical means survive. The survivor with the best
cumulative mean is recommended. Unused budget (from the floors) is left unused. Ties go at random, or
with tie_rule='lowest-index' to the lowest index, as the authors' code does (which favours arm 1, the
best arm of the F-setups).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .sources import TIE_RULES, argmax_random, collect, keep_top, live_source, n_arms, phase_sum, replay_source
from .spec import TIES, Algorithm, Param, tie_tag


def rounds(K: int) -> int:
    """ceil(log2 K), the number of halving rounds."""
    return math.ceil(math.log2(K))


@njit(cache=True, error_model="numpy")
def _run(src, i, n, lowest):
    K = n_arms(src)
    T = np.zeros(K)
    S = np.zeros(K)
    alive = np.ones(K, np.bool_)
    size = K
    L = int(math.ceil(math.log2(K)))
    key = np.empty(K)
    for _ in range(L):
        if size == 1:
            break
        m = n // (size * L)
        for j in range(K):
            if alive[j]:
                S[j] += phase_sum(src, i, j, m)
                T[j] += m
        keep = (size + 1) // 2
        for j in range(K):
            key[j] = (S[j] / T[j] if T[j] > 0 else 0.0) if alive[j] else -np.inf
        alive = keep_top(key, keep, src, i, lowest)
        size = keep
    for j in range(K):
        key[j] = (S[j] / T[j] if T[j] > 0 else 0.0) if alive[j] else -np.inf
    return argmax_random(key, src, i, lowest), T


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums, lowest):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, sums)
    for i in prange(R):     # i as int64: prange's is uint64 in the parallel body, which compiles _run twice
        rec[i], T = _run(src, np.int64(i), n, lowest)
        for k in range(K):  # by element: a slice assignment compiles numba's error-message formatting
            pulls[i, k] = T[k]
    return rec, pulls


def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, tie_rule="random", sums=None):
    return _batch(np.ascontiguousarray(means, float), n, gaussian, nu, np.asarray(reward_seeds, np.uint64),
                  np.asarray(seeds, np.uint64), collect(sums, np.shape(means)), tie_rule == "lowest-index")


def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0, tie_rule="random"):
    mu = np.asarray(mu, float)
    if table is None:
        return tuple(x[0] for x in batch(mu[None], n, [seed], [reward_seed], gaussian, nu, tie_rule))
    return _run(replay_source(mu.size, table, ties, gaussian, nu), 0, n, tie_rule == "lowest-index")


def reference(source, K: int, n: int, gaussian=False, nu=0.0, tie_rule="random") -> tuple[int, np.ndarray]:
    """Plain numpy sequential halving."""
    lowest = tie_rule == "lowest-index"
    L = rounds(K)
    T, S = np.zeros(K), np.zeros(K)
    alive = np.ones(K, bool)
    for _ in range(L):
        if alive.sum() == 1:
            break
        m = n // (int(alive.sum()) * L)
        for j in np.flatnonzero(alive):
            S[j] += source.phase(j, m)
            T[j] += m
        key = np.where(alive, np.divide(S, T, out=np.zeros(K), where=T > 0), -np.inf)
        nxt = np.zeros(K, bool)
        for _k in range((int(alive.sum()) + 1) // 2):
            a = source.argmax(key, lowest)
            nxt[a] = True
            key[a] = -np.inf
        alive = nxt
    return source.argmax(np.where(alive, np.divide(S, T, out=np.zeros(K), where=T > 0), -np.inf), lowest), T


ALGORITHM = Algorithm(
    name="sh", title="Sequential halving (Karnin, Koren & Somekh 2013)",
    batch=batch, run=run, reference=reference,
    min_budget=lambda K, p: K * rounds(K),
    budget_rule="the first round gives every arm floor(n / (K ceil(log2 K))) >= 1 pulls",
    params=(Param("tie_rule", "random", "index ties: at random (this project) or to the lowest index (the authors' "
                  "code)", choices=TIE_RULES, tag=tie_tag),),
    style=("tab:purple", "v", "-"), cost=0.05, collects_sums=True, phase_sums=True, readings=(TIES,))
