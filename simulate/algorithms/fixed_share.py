"""Fixed-share static allocation: arm k gets T_k pulls, as close as possible to w_k n for the user's
shares w (`shares`, one per arm, each > 0, summing to 1; empty: equal shares 1/K), all fixed before any
reward; recommend the largest empirical mean.

- Counts (`counts`): the largest-remainder rounding of the quotas q_k = n w_k / sum(w), in exact rational
  arithmetic from the shares as given (floats): floor(q_k) each, then one more to each of the
  n - sum floor(q_k) arms with the largest fractional parts, equal parts to the lowest index. So
  sum T_k = n, every T_k is floor(q_k) or ceil(q_k), and no counts summing to n are closer to the quotas
  (in the summed or the largest distance); with two arms T_1 = round(w_1 n), halves up.
- Pulls: arm 0's T_0 pulls, then arm 1's, and so on: a schedule fixed in advance. Each arm's rewards
  come from its own stream (`sources`), so the order changes no reward; a Gaussian arm's T_k rewards
  are drawn as one sum (`sources.phase_sum`), exactly N(T_k mu_k, T_k nu_k^2).
- Recommendation: the largest empirical mean, ties at random or, with tie_rule='lowest-index', to the
  lowest index (the registry's two tie rules, `sources.TIE_RULES`).

On two arms with Gaussian rewards (means mu_1 > mu_2, noise sds s_1, s_2, one per arm: `nu` per arm)
it errs exactly with probability Phi(-(mu_1 - mu_2) / sqrt(s_1^2 / T_1 + s_2^2 / T_2)) (ties have
probability 0): `tests/simulate/test_fixed_share.py` holds the kernel to it.
The smallest budget gives every arm a quota of at least one pull, n >= sum(w) / min(w), so every
larger budget pulls every arm too (a count is 0 only below a quota of 1).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from numba import njit, prange

from .sources import TIE_RULES, argmax_random, collect, live_source, n_arms, phase_sum, replay_source
from .spec import Algorithm, Param, tie_tag

#: how far the shares' sum may be from 1 (the rounding of shares written as decimals)
SUM_TOLERANCE = 1e-9
NAME = "fixed-share"


def _shares(shares, K: int) -> list[Fraction]:
    """The shares as exact fractions (equal ones for an empty `shares`), checked against K."""
    if len(shares) == 0:
        return [Fraction(1, K)] * K
    if len(shares) != K:
        raise ValueError(f"{NAME}: shares must be K = {K} numbers (one per arm), got {len(shares)}")
    w = [Fraction(float(x)) for x in shares]
    if not all(x > 0 for x in w):
        raise ValueError(f"{NAME}: shares must each be > 0, got {list(shares)}")
    if abs(float(sum(w)) - 1.0) > SUM_TOLERANCE:
        raise ValueError(f"{NAME}: shares must sum to 1 (within {SUM_TOLERANCE:g}), got sum {float(sum(w))!r}")
    return w


def counts(shares, n: int, K: int) -> np.ndarray:
    """Each arm's pulls `(K,)` int64: the largest-remainder rounding of n w_k / sum(w) (module docstring)."""
    w = _shares(shares, K)
    total = sum(w)
    quota = [n * x / total for x in w]
    T = [math.floor(q) for q in quota]
    left = n - sum(T)
    for k in sorted(range(K), key=lambda k: (-(quota[k] - T[k]), k))[:left]:
        T[k] += 1
    return np.array(T, np.int64)


def min_budget(K: int, params: dict) -> int:
    """The smallest n at which every arm's quota n w_k / sum(w) is at least one pull."""
    w = _shares(params.get("shares", ()), K)
    return max(K, math.ceil(sum(w) / min(w)))


@njit(cache=True, error_model="numpy")
def _run(src, i, T, lowest):
    K = n_arms(src)
    pulls = np.empty(K)
    rbar = np.empty(K)
    for j in range(K):          # arm 0's pulls, then arm 1's, ...: fixed before any reward
        pulls[j] = T[j]
        rbar[j] = phase_sum(src, i, j, T[j]) / T[j] if T[j] > 0 else -np.inf
    return argmax_random(rbar, src, i, lowest), pulls


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums, T, lowest):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, sums)
    for i in prange(R):     # i as int64: prange's is uint64 in the parallel body, which compiles _run twice
        rec[i], P = _run(src, np.int64(i), T, lowest)
        for k in range(K):  # by element: a slice assignment compiles numba's error-message formatting
            pulls[i, k] = P[k]
    return rec, pulls


def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, shares=(), tie_rule="random", sums=None):
    means = np.ascontiguousarray(means, float)
    return _batch(means, n, gaussian, nu, np.asarray(reward_seeds, np.uint64), np.asarray(seeds, np.uint64),
                  collect(sums, np.shape(means)), counts(shares, n, means.shape[1]), tie_rule == "lowest-index")


def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0, shares=(), tie_rule="random"):
    mu = np.asarray(mu, float)
    if table is None:
        return tuple(x[0] for x in batch(mu[None], n, [seed], [reward_seed], gaussian, nu, shares, tie_rule))
    return _run(replay_source(mu.size, table, ties, gaussian, nu), 0, counts(shares, n, mu.size),
                tie_rule == "lowest-index")


def reference(source, K: int, n: int, gaussian=False, nu=0.0, shares=(), tie_rule="random") -> tuple[int, np.ndarray]:
    """Plain fixed share: the counts, every arm's rewards in the fixed order, the largest empirical mean."""
    T = counts(shares, n, K).astype(float)
    rbar = np.array([source.phase(j, int(T[j])) / T[j] if T[j] > 0 else -np.inf for j in range(K)])
    return source.argmax(rbar, tie_rule == "lowest-index"), T


def _tag(shares, params) -> str:
    return f" [shares {', '.join(f'{w:g}' for w in shares)}]" if shares else ""


ALGORITHM = Algorithm(
    name=NAME, title="Fixed-share static allocation: pulls as close as possible to shares x n, fixed in advance; "
                     "the largest empirical mean",
    batch=batch, run=run, reference=reference,
    min_budget=min_budget, budget_rule="every arm's quota shares_k n is at least one pull",
    params=(Param("shares", (), "each arm's share w_k of the budget (K numbers > 0 summing to 1; empty: equal shares)",
                  low=0.0, high=1.0, open_low=True, per_arm=True, tag=_tag),
            Param("tie_rule", "random", "ties between empirical means: at random or to the lowest index",
                  choices=TIE_RULES, tag=tie_tag)),
    style=("tab:olive", "h", ":"), cost=0.05, collects_sums=True, phase_sums=True, one_nu="")
