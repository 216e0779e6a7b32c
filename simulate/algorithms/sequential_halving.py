"""Sequential halving (Karnin, Koren & Somekh 2013), with the authors' conventions.

ceil(log2 K) rounds; in each, every surviving arm gets floor(n / (|S| ceil(log2 K))) pulls (drawn
as one phase sum); the ceil(|S| / 2) arms with the best *cumulative* empirical means survive (ties at
random). The survivor with the best cumulative mean is recommended. Unused budget (from the floors)
is left unused.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ._common import EMPTY_TABLE, EMPTY_TIES, argmax_random, draw_sum

NAME = "sh"


@njit(cache=True, error_model="numpy")
def run(mu, n, gaussian, nu, table, ties):
    K = mu.shape[0]
    T = np.zeros(K)
    S = np.zeros(K)
    alive = np.ones(K, np.bool_)
    size = K
    L = int(math.ceil(math.log2(K)))
    cursor = np.zeros(K, np.int64)
    tie_i = np.zeros(1, np.int64)
    key = np.empty(K)
    for _ in range(L):
        if size == 1:
            break
        m = n // (size * L)
        for j in range(K):
            if alive[j]:
                s, _q = draw_sum(j, m, mu, gaussian, nu, table, cursor)
                S[j] += s
                T[j] += m
        keep = (size + 1) // 2
        for j in range(K):
            key[j] = (S[j] / T[j] if T[j] > 0 else 0.0) if alive[j] else -np.inf
        nxt = np.zeros(K, np.bool_)
        for _k in range(keep):
            a = argmax_random(key, ties, tie_i)
            nxt[a] = True
            key[a] = -np.inf
        alive = nxt
        size = keep
    for j in range(K):
        key[j] = (S[j] / T[j] if T[j] > 0 else 0.0) if alive[j] else -np.inf
    return argmax_random(key, ties, tie_i), T


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
    """Plain numpy sequential halving."""
    L = math.ceil(math.log2(K))
    T, S = np.zeros(K), np.zeros(K)
    alive = np.ones(K, bool)
    for _ in range(L):
        if alive.sum() == 1:
            break
        m = n // (int(alive.sum()) * L)
        for j in np.flatnonzero(alive):
            s, _q = source.phase(j, m)
            S[j] += s
            T[j] += m
        key = np.where(alive, np.divide(S, T, out=np.zeros(K), where=T > 0), -np.inf)
        nxt = np.zeros(K, bool)
        for _k in range((int(alive.sum()) + 1) // 2):
            a = source.argmax(key)
            nxt[a] = True
            key[a] = -np.inf
        alive = nxt
    return source.argmax(np.where(alive, np.divide(S, T, out=np.zeros(K), where=T > 0), -np.inf)), T
