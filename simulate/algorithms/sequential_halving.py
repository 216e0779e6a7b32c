"""Sequential halving (Karnin, Koren & Somekh 2013), in two variants that differ in which samples a
round's means use (`estimate`).

ceil(log2 K) rounds; in each, every surviving arm gets floor(n / (|S| ceil(log2 K))) pulls; the
ceil(|S| / 2) arms with the best empirical means survive, and the last survivor is recommended.
Unused budget (from the floors) is left unused. Ties go at random, or with tie_rule='lowest-index' to
the lowest index, as the authors' code does (which favours arm 1, the best arm of the F-setups).

- estimate='cumulative' (the default): a round's means are of every sample the arm has had so far,
  earlier rounds' included: the authors' code's convention, and what Section 6 runs.
- estimate='round': a round's means are of that round's samples only (fresh samples each round). A
  reader of Karnin et al. reports this as their own definition, and the two variants' error rates
  differ (0.144 against 0.177 at one point of that reader's); Karnin et al.'s text was not at hand here,
  so the attribution is that reader's, not checked against the paper.
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
def _run(src, i, n, lowest, fresh):
    K = n_arms(src)
    T = np.zeros(K)
    S = np.zeros(K)
    R = np.zeros(K)                 # this round's sums (fresh: the round's means are R / m)
    last = 0                        # the last round's pulls per arm
    alive = np.ones(K, np.bool_)
    size = K
    L = int(math.ceil(math.log2(K)))
    key = np.empty(K)
    for _ in range(L):
        if size == 1:
            break
        m = n // (size * L)
        last = m
        for j in range(K):
            if alive[j]:
                R[j] = phase_sum(src, i, j, m)
                S[j] += R[j]
                T[j] += m
        keep = (size + 1) // 2
        for j in range(K):
            if fresh:
                key[j] = (R[j] / m if m > 0 else 0.0) if alive[j] else -np.inf
            else:
                key[j] = (S[j] / T[j] if T[j] > 0 else 0.0) if alive[j] else -np.inf
        alive = keep_top(key, keep, src, i, lowest)
        size = keep
    for j in range(K):              # the survivor, by the last round's means (fresh) or every sample's
        if fresh:
            key[j] = (R[j] / last if last > 0 else 0.0) if alive[j] else -np.inf
        else:
            key[j] = (S[j] / T[j] if T[j] > 0 else 0.0) if alive[j] else -np.inf
    return argmax_random(key, src, i, lowest), T


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums, lowest, fresh):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, sums)
    for i in prange(R):     # i as int64: prange's is uint64 in the parallel body, which compiles _run twice
        rec[i], T = _run(src, np.int64(i), n, lowest, fresh)
        for k in range(K):  # by element: a slice assignment compiles numba's error-message formatting
            pulls[i, k] = T[k]
    return rec, pulls


#: which samples a round's means use (module docstring)
ESTIMATES = ("cumulative", "round")


def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, tie_rule="random", sums=None,
          estimate="cumulative"):
    return _batch(np.ascontiguousarray(means, float), n, gaussian, nu, np.asarray(reward_seeds, np.uint64),
                  np.asarray(seeds, np.uint64), collect(sums, np.shape(means)), tie_rule == "lowest-index",
                  estimate == "round")


def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0, tie_rule="random",
        estimate="cumulative"):
    mu = np.asarray(mu, float)
    if table is None:
        return tuple(x[0] for x in batch(mu[None], n, [seed], [reward_seed], gaussian, nu, tie_rule,
                                         estimate=estimate))
    return _run(replay_source(mu.size, table, ties, gaussian, nu), 0, n, tie_rule == "lowest-index",
                estimate == "round")


def reference(source, K: int, n: int, gaussian=False, nu=0.0, tie_rule="random",
              estimate="cumulative") -> tuple[int, np.ndarray]:
    """Plain numpy sequential halving, either variant (`estimate`)."""
    lowest = tie_rule == "lowest-index"
    L = rounds(K)
    T, S = np.zeros(K), np.zeros(K)
    alive = np.ones(K, bool)
    R, last = np.zeros(K), 0
    for _ in range(L):
        if alive.sum() == 1:
            break
        m = last = n // (int(alive.sum()) * L)
        R = np.zeros(K)
        for j in np.flatnonzero(alive):
            R[j] = source.phase(j, m)
            S[j] += R[j]
            T[j] += m
        if estimate == "round":
            key = np.where(alive, R / m if m > 0 else 0.0, -np.inf)
        else:
            key = np.where(alive, np.divide(S, T, out=np.zeros(K), where=T > 0), -np.inf)
        nxt = np.zeros(K, bool)
        for _k in range((int(alive.sum()) + 1) // 2):
            a = source.argmax(key, lowest)
            nxt[a] = True
            key[a] = -np.inf
        alive = nxt
    if estimate == "round":
        return source.argmax(np.where(alive, R / last if last > 0 else 0.0, -np.inf), lowest), T
    return source.argmax(np.where(alive, np.divide(S, T, out=np.zeros(K), where=T > 0), -np.inf), lowest), T


ALGORITHM = Algorithm(
    name="sh", title="Sequential halving (Karnin, Koren & Somekh 2013)",
    batch=batch, run=run, reference=reference,
    min_budget=lambda K, p: K * rounds(K),
    budget_rule="the first round gives every arm floor(n / (K ceil(log2 K))) >= 1 pulls",
    params=(Param("tie_rule", "random", "index ties: at random (this project) or to the lowest index (the authors' "
                  "code)", choices=TIE_RULES, tag=tie_tag),
            Param("estimate", "cumulative", "a round's means: of every sample so far (cumulative, the authors' code) "
                  "or of that round's fresh samples only (round)", choices=ESTIMATES,
                  tag=lambda v, p: "" if v == "cumulative" else " [fresh samples per round]", keyed_at_default=False)),
    style=("tab:purple", "v", "-"), cost=0.05, collects_sums=True, phase_sums=True, readings=(TIES,), one_nu="")
