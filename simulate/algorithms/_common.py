"""Shared pieces of the algorithm kernels: reward sources and random tie-breaking.

Every kernel reads rewards through one of two sources, so that a fast kernel and its plain numpy
reference can be run on the *same* reward stream (tests require identical pull sequences):
- live: numba's per-thread `np.random` (seeded once per run by the runner), Bernoulli or Gaussian;
- table: `table[k, j]` is arm k's j-th reward and `ties[i]` the uniform used by the i-th decision.
In table mode every argmax consumes one tie uniform; in live mode a uniform is drawn only when
there is a tie. A tie among c maximal arms picks the floor(u c)-th of them in index order.
Phase-based algorithms draw a phase's reward sum at once in live mode (Binomial or Normal) and
sum the table's entries in table mode.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._rng import box_muller, next_double

#: fastmath without the no-NaN / no-inf assumptions (kernels test isnan and use infinities)
FAST = {"nsz", "arcp", "contract", "afn", "reassoc"}

EMPTY_TABLE = np.zeros((0, 0))
EMPTY_TIES = np.zeros(0)


@njit(cache=True, inline="always")
def bernoulli(u, p):
    """1.0 if u < p else 0.0, computed as a product with the comparison so that LLVM emits no
    branch: a branch on a near-fair coin is mispredicted about half the time, and that cost RUE
    3-12% of its throughput (paired timings, K = 80 and K = 20)."""
    return 1.0 * (u < p)


@njit(cache=True, error_model="numpy", inline="always")
def draw(k, mu, gaussian, nu, table, cursor):
    """One reward of arm k."""
    if table.shape[0] > 0:
        r = table[k, cursor[k]]
        cursor[k] += 1
        return r
    if gaussian:
        return mu[k] + nu * np.random.standard_normal()
    return bernoulli(np.random.random(), mu[k])


@njit(cache=True, error_model="numpy", inline="always")
def draw_stream(k, mu, gaussian, nu, table, cursor, st, i):
    """`draw` for kernels on per-run xoshiro256+ streams (`_rng`): live rewards from run i's
    stream (Gaussian by Box-Muller, cosine branch)."""
    if table.shape[0] > 0:
        r = table[k, cursor[k]]
        cursor[k] += 1
        return r
    if gaussian:
        z, _ = box_muller(next_double(st, i), next_double(st, i))
        return mu[k] + nu * z
    return bernoulli(next_double(st, i), mu[k])


@njit(cache=True, error_model="numpy")
def draw_sum(k, m, mu, gaussian, nu, table, cursor):
    """The sum of m rewards of arm k, and the sum of their squares (phase-based algorithms)."""
    if m <= 0:
        return 0.0, 0.0
    if table.shape[0] > 0:
        s = 0.0
        q = 0.0
        for _ in range(m):
            r = table[k, cursor[k]]
            cursor[k] += 1
            s += r
            q += r * r
        return s, q
    if gaussian:
        s = m * mu[k] + nu * math.sqrt(m) * np.random.standard_normal()
        return s, math.nan
    s = float(np.random.binomial(m, mu[k]))
    return s, s


@njit(cache=True, error_model="numpy")
def pick_index(values, best, count, u):
    """The floor(u count)-th index (in order) among the `count` entries equal to `best`."""
    target = min(int(u * count), count - 1)
    seen = 0
    for k in range(values.shape[0]):
        if values[k] == best:
            if seen == target:
                return k
            seen += 1
    return -1


@njit(cache=True, error_model="numpy")
def pick_tie(values, best, count, ties, tie_i):
    """`pick_index` with u from the tie table (table mode) or numba's generator (live mode)."""
    u = ties[tie_i[0]] if ties.shape[0] > 0 else np.random.random()
    return pick_index(values, best, count, u)


@njit(cache=True, error_model="numpy")
def top(values):
    """(first maximiser, maximum, number of maximisers) in one pass."""
    best = -np.inf
    arg = 0
    count = 0
    for k in range(values.shape[0]):
        v = values[k]
        if v > best:
            best = v
            arg = k
            count = 1
        elif v == best:
            count += 1
    return arg, best, count


@njit(cache=True, error_model="numpy")
def argmax_random(values, ties, tie_i):
    """argmax with uniformly random tie-breaking (see module docstring for the stream rule)."""
    arg, best, count = top(values)
    if count > 1:
        arg = pick_tie(values, best, count, ties, tie_i)
    if ties.shape[0] > 0:
        tie_i[0] += 1
    return arg


@njit(cache=True, error_model="numpy")
def uniform(ties, tie_i):
    """A uniform draw (coin flips, random extras): from the tie stream in table mode."""
    if ties.shape[0] > 0:
        u = ties[tie_i[0]]
        tie_i[0] += 1
        return u
    return np.random.random()


# ---------------------------------------------------------------- plain numpy side
class LiveSource:
    """Rewards for the plain numpy references, drawn from a numpy Generator."""

    def __init__(self, means: np.ndarray, rng: np.random.Generator, reward: str = "bernoulli",
                 nu_sq: float = 1.0):
        self.mu = np.asarray(means, float)
        self.rng = rng
        self.gaussian = reward == "gaussian"
        self.nu = math.sqrt(nu_sq)

    def reward(self, k: int) -> float:
        if self.gaussian:
            return float(self.mu[k] + self.nu * self.rng.standard_normal())
        return 1.0 if self.rng.random() < self.mu[k] else 0.0

    def phase(self, k: int, m: int) -> tuple[float, float]:
        r = np.array([self.reward(k) for _ in range(m)])
        return float(r.sum()), float((r * r).sum())

    def argmax(self, values: np.ndarray) -> int:
        top = np.flatnonzero(values == values.max())
        return int(top[0]) if top.size == 1 else int(top[min(int(self.rng.random() * top.size), top.size - 1)])

    def uniform(self) -> float:
        return float(self.rng.random())


class TableSource:
    """Rewards and tie uniforms from fixed tables (the same stream a kernel in table mode reads)."""

    def __init__(self, table: np.ndarray, ties: np.ndarray):
        self.table = np.asarray(table, float)
        self.ties = np.asarray(ties, float)
        self.cursor = np.zeros(self.table.shape[0], np.int64)
        self.tie_i = 0

    def reward(self, k: int) -> float:
        r = float(self.table[k, self.cursor[k]])
        self.cursor[k] += 1
        return r

    def phase(self, k: int, m: int) -> tuple[float, float]:
        r = self.table[k, self.cursor[k]:self.cursor[k] + m]
        self.cursor[k] += m
        s = 0.0
        q = 0.0
        for x in r:                      # same summation order as the kernel
            s += float(x)
            q += float(x) * float(x)
        return s, q

    def argmax(self, values: np.ndarray) -> int:
        best = values.max()
        top = np.flatnonzero(values == best)
        u = self.ties[self.tie_i]
        self.tie_i += 1
        return int(top[min(int(u * top.size), top.size - 1)])

    def uniform(self) -> float:
        u = float(self.ties[self.tie_i])
        self.tie_i += 1
        return u
