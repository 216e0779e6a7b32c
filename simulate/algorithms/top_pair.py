"""The top pair: a vanishing uniform pilot finds the two best arms, then the rest of the budget is
split evenly between them. Not from the literature: the simplest rule that reaches the limit of
`bounds.limit` (issue 41, claim LIMIT-TIGHT), written here for that purpose.

- Pilot: every arm gets m = min(floor(n / K), max(1, ceil(scale n^exponent / K))) pulls (round
  robin). With 0 < exponent < 1 the pilot's share of the budget, K m / n, vanishes while every arm's
  pilot grows without bound.
- The pair: the two largest pilot means (the first by argmax, the second by argmax over the others;
  ties at random).
- Then the remaining n - K m pulls alternate between the pair, the first of the pair taking the odd
  one.
- Recommendation: the pair's arm with the larger mean over all its pulls (ties at random).

Why it reaches the limit (the argument of `bounds.limit`, run forwards). As n grows, e_n and sr_n come
from instances whose top two means are within a few sigma / sqrt(n). Given the pair, the rule is
the pair problem at budget n (1 - o(1)): the pair's difference is estimated with variance
4 sigma^2 / n (1 + o(1)), which is what the limit's constants integrate. What it loses besides is
the pilot's share and the pilot's misses. A miss costs only when the best arm itself is left out,
which needs two other arms to beat it in the pilot, both within about sigma / sqrt(m) of it: that
has prior probability of order 1/m, and the loss is then itself of order sigma / sqrt(m), so the
misses add order 1/m to the failure probability and m^-3/2 to the regret. With m ~ n^exponent / K
these are o(1/sqrt(n)) and o(1/n), below the limit's orders, only for exponent > 1/2 and exponent
> 2/3. At 2/3 the regret's misses are of the limit's own order, and the rule's regret constant stays
a multiple of the limit's (measured: 17 times at K = 10, n = 1e6). The default, 0.85, was the best of
0.75-0.9 at K = 10 and 30, n = 1e5 (2000 runs each; efficiencies 1.18 for the failure and 1.70 for
the regret at K = 10). Its pilot takes n^-0.15 of the budget, 18% at n = 1e5, a share that vanishes
slowly: the rule approaches the limit slowly, and `exponent` and `scale` set the trade.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .sources import argmax_random, collect, live_source, n_arms, phase_sum, replay_source
from .spec import Algorithm, Param


@njit(cache=True, error_model="numpy")
def pilot_pulls(n, K, exponent, scale):
    """Each arm's pilot: max(1, ceil(scale n^exponent / K)), at most floor(n / K)."""
    return min(n // K, max(1, int(math.ceil(scale * n ** exponent / K))))


@njit(cache=True, error_model="numpy")
def _run(src, i, n, exponent, scale):
    K = n_arms(src)
    m = pilot_pulls(n, K, exponent, scale)
    T = np.full(K, float(m))
    S = np.empty(K)
    for j in range(K):
        S[j] = phase_sum(src, i, j, m)
    v = S / m
    a = argmax_random(v, src, i)
    v[a] = -np.inf
    b = argmax_random(v, src, i)
    rest = n - K * m
    extra_a, extra_b = rest - rest // 2, rest // 2
    S[a] += phase_sum(src, i, a, extra_a)
    S[b] += phase_sum(src, i, b, extra_b)
    T[a] += extra_a
    T[b] += extra_b
    final = np.full(K, -np.inf)
    final[a] = S[a] / T[a]
    final[b] = S[b] / T[b]
    return argmax_random(final, src, i), T


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums, exponent, scale):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, sums)
    for i in prange(R):     # i as int64: prange's is uint64 in the parallel body, which compiles _run twice
        rec[i], T = _run(src, np.int64(i), n, exponent, scale)
        for k in range(K):  # by element: a slice assignment compiles numba's error-message formatting
            pulls[i, k] = T[k]
    return rec, pulls


def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, exponent=0.85, scale=1.0, sums=None):
    return _batch(np.ascontiguousarray(means, float), n, gaussian, nu, np.asarray(reward_seeds, np.uint64),
                  np.asarray(seeds, np.uint64), collect(sums, np.shape(means)), exponent, scale)


def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0, exponent=0.85, scale=1.0):
    mu = np.asarray(mu, float)
    if table is None:
        return tuple(x[0] for x in batch(mu[None], n, [seed], [reward_seed], gaussian, nu, exponent, scale))
    return _run(replay_source(mu.size, table, ties, gaussian, nu), 0, n, exponent, scale)


def reference(source, K: int, n: int, gaussian=False, nu=0.0, exponent: float = 0.85,
              scale: float = 1.0) -> tuple[int, np.ndarray]:
    """The rule as the module docstring states it, reading rewards and ties from `source`."""
    m = min(n // K, max(1, math.ceil(scale * n ** exponent / K)))
    S = np.array([source.phase(j, m) for j in range(K)])
    pilot = S / m
    a = source.argmax(pilot)
    b = source.argmax(np.where(np.arange(K) == a, -np.inf, pilot))
    rest = n - K * m
    T = np.full(K, float(m))
    for arm, extra in ((a, rest - rest // 2), (b, rest // 2)):
        S[arm] += source.phase(arm, extra)
        T[arm] += extra
    final = np.full(K, -np.inf)
    final[[a, b]] = S[[a, b]] / T[[a, b]]
    return source.argmax(final), T


ALGORITHM = Algorithm(
    name="top-pair", title="Top pair: a vanishing uniform pilot, then the budget split evenly between the pilot's "
                           "two best arms (written here to reach the limit)",
    batch=batch, run=run, reference=reference,
    min_budget=lambda K, p: K, budget_rule="every arm needs a pilot pull",
    params=(Param("exponent", 0.85, "the pilot's per-arm size grows like n^exponent / K (its share of the budget "
                  "vanishes for exponent < 1; it reaches the limit for exponent > 2/3)", low=0.0, high=1.0,
                  open_low=True, open_high=True),
            Param("scale", 1.0, "the pilot's total: scale n^exponent pulls (at least one per arm)", low=0.0,
                  open_low=True)),
    style=("tab:cyan", "P", "-"), cost=0.05, collects_sums=True, phase_sums=True, one_nu="")
