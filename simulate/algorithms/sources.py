"""What an algorithm sees: the rewards of the arms it pulls, and uniforms for its own random choices.

A kernel never reads the true means. It is handed a *source* (a tuple made by `live_source` or
`table_source`) and asks it for rewards (`reward`; a phase's sum, `phase_sum`) and for uniforms
(`uniform`, `argmax_random`, `tie_uniform`):
- live: the rewards of arm k in run i come from their own xoshiro256+ stream (row i K + k of `rw`,
  seeded from the run's reward seed), so the j-th pull of arm k gets the same reward whichever
  algorithm makes it when runs share reward seeds (common random numbers), except that a Gaussian
  phase sum is one draw (`phase_sum`). The algorithm's own
  uniforms (ties, coins, posterior draws) come from the run's stream `st[i]`, seeded from its
  algorithm seed. Bernoulli rewards are u < mu; Gaussian ones mu + nu z, z by a ziggurat (`_rng.normal`),
  with nu one number for every arm or one per arm (`noise_sd`: arm k's reward is mu_k + nu[k] z).
- table: `table[k, j]` is arm k's j-th reward and `ties[m]` the m-th uniform the algorithm asks
  for. The plain references read the same tables through `TableSource`, so a kernel and its
  reference can be compared pull by pull. Every argmax consumes one uniform in table mode; in live
  mode only an argmax with a tie draws one.
A tie among c maximal arms picks the floor(u c)-th of them in index order.

A live source can also keep each run's reward sums as the kernel draws them (`collect`): a run's data
is then (pulls, sums) without drawing its rewards a second time (`replayed_sums` does that for an
algorithm whose kernel keeps none, such as an outside one).
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import njit, types
from numba.extending import overload

from ._rng import box_muller, next_double, normal, seed_states

#: what the live streams are, in words: a result store's definition includes it (`rue_verify.store`), so rows
#: drawn from other streams are not resumed into a directory. Change it whenever a seed's draws change.
STREAMS = ("xoshiro256+ per run and per arm, seeded by splitmix64; Bernoulli u < mu; Gaussian mu + nu z, "
           "z by a 256-strip ziggurat; a Gaussian phase's sum as one normal; an algorithm's own normals "
           "(posterior draws) by the same ziggurat on the run's stream")


@njit(cache=True, inline="always")
def bernoulli(u, p):
    """1.0 if u < p else 0.0, as a product with the comparison so that LLVM emits no branch (a
    branch on a near-fair coin is mispredicted about half the time)."""
    return 1.0 * (u < p)


def noise_sd(nu, k):
    """Arm k's noise standard deviation: `nu` itself when it is one number (every arm's), else nu[k]
    (one per arm, a float64 array of K). Compiled per type (`_noise_sd`), so with one number a kernel
    multiplies by it as before, with no load or branch in its reward loop (one array for both measured
    about 10% slower on Gaussian RUE, K = 10)."""
    return nu if np.ndim(nu) == 0 else nu[k]


@overload(noise_sd)
def _noise_sd(nu, k):
    if isinstance(nu, types.Array):
        return lambda nu, k: nu[k]
    return lambda nu, k: nu


def one_sd(nu):
    """The noise sd of a kernel whose definition has one for every arm (Bayesian elimination's sigma^2 from
    the reward law): `nu` itself; NaN for a per-arm nu, which those entries refuse before a kernel runs
    (`spec.Algorithm.one_nu`), so that the kernel still compiles for a per-arm source."""
    return nu if np.ndim(nu) == 0 else math.nan


@overload(one_sd)
def _one_sd(nu):
    if isinstance(nu, types.Array):
        return lambda nu: math.nan
    return lambda nu: nu


def nu_argument(nu):
    """`nu` as the kernels take it: one number as given (`float`), or a per-arm sequence as a C-contiguous
    writable float64 array (a read-only one would be another type, compiled again)."""
    return float(nu) if np.ndim(nu) == 0 else np.require(nu, np.float64, ("C", "W"))


@njit(cache=True)
def live_source(means, gaussian, nu, reward_seeds, seeds, sums):
    """The source of live runs r = 0..R-1 on means[r] (`(R, K)`): run r's reward streams are
    seeded from reward_seeds[r] (splitmix64 outputs 4k..4k+3 start arm k's stream), its own
    stream from seeds[r]. nu: the Gaussian noise sd, one number or a float64 array of one per arm
    (`noise_sd`). sums: `(R, K)` zeros that every reward drawn is added to (run r's arm k
    in sums[r, k], in the order drawn), or None (`collect`)."""
    R, K = means.shape
    rw = seed_states(reward_seeds.astype(np.uint64), 4 * K).reshape(R * K, 4)
    st = seed_states(seeds.astype(np.uint64))
    # the empty table and ties are allocated here, not module constants (which numba freezes read-only): so a
    # live source without sums has the type of a table source, and a kernel's run compiles once for both
    return (means, gaussian, nu, rw, st, np.zeros((0, 0)), np.zeros(0), np.zeros(K, np.int64),
            np.zeros(1, np.int64), sums)


@njit(cache=True)
def table_source(K, table, ties, gaussian=False, nu=0.0):
    """The source of one run (i = 0) that reads its rewards from `table` and uniforms from `ties`
    (the reward law is still said: a Gaussian posterior or confidence bound needs nu)."""
    st = np.zeros((1, 4), np.uint64)
    return (np.zeros((1, K)), gaussian, nu, np.zeros((K, 4), np.uint64), st, table, ties,
            np.zeros(K, np.int64), np.zeros(1, np.int64), None)


def collect(sums, shape) -> np.ndarray:
    """What a kernel's live source adds its rewards to (`live_source`): `sums` (an `(R, K)` float
    array, C-contiguous and writable, which is zeroed and then holds each run's reward sum per arm),
    or None when `sums` is None (nothing kept, and nothing in the compiled reward loop: `keep`)."""
    if sums is None:
        return None
    if not (isinstance(sums, np.ndarray) and sums.shape == tuple(shape) and sums.dtype == np.float64
            and sums.flags.c_contiguous and sums.flags.writeable):
        raise ValueError(f"sums must be a writable C-contiguous float64 array of shape {tuple(shape)} "
                         f"(runs, K), got {getattr(sums, 'shape', type(sums).__name__)}")
    sums[...] = 0.0
    return sums


def replay_source(K, table, ties, gaussian=False, nu=0.0):
    """`table_source` from any array-likes (the `run` functions' table mode)."""
    return table_source(K, np.require(table, np.float64, ("C", "W")), np.require(ties, np.float64, ("C", "W")),
                        bool(gaussian), nu_argument(nu))


@njit(cache=True, inline="always")
def n_arms(src):
    return src[0].shape[1]


@njit(cache=True, error_model="numpy", inline="always")
def reward(src, i, k):
    """Run i's next reward from arm k."""
    means, gaussian, nu, rw, st, table, ties, cursor, tie_i, sums = src
    if table.shape[0] > 0:
        r = table[k, cursor[k]]
        cursor[k] += 1
        return r
    row = i * means.shape[1] + k
    if gaussian:
        r = means[i, k] + noise_sd(nu, k) * normal(rw, row)
    else:
        r = bernoulli(next_double(rw, row), means[i, k])
    keep(sums, i, k, r)
    return r


def keep(sums, i, k, r):
    """Add reward r of run i's arm k to `sums` (`live_source`); nothing when `sums` is None. Compiled
    per type (`_keep`), so a kernel that keeps no sums has no branch or store in its reward loop:
    a test of an empty array there cost the Bernoulli kernels of Section 6 a third to two thirds of
    their speed (`rue-verify bench`), and a kernel that keeps sums is compiled a second time."""
    if sums is not None:
        sums[i, k] += r


@overload(keep)      # not inline='always': numba 0.68's IR inlining of it lost the table cursor's increments
def _keep(sums, i, k, r):
    if isinstance(sums, types.NoneType):
        return lambda sums, i, k, r: None

    def add(sums, i, k, r):
        if i < sums.shape[0]:          # an array too small for the runs is not written past its end
            sums[i, k] += r
    return add


@njit(cache=True, error_model="numpy")
def reward_sum(src, i, k, m):
    """The sum of run i's next m rewards from arm k, each drawn and added in order (what a run that
    pulls one reward at a time saw: `replayed_sums`)."""
    s = 0.0
    for _ in range(m):
        s += reward(src, i, k)
    return s


@njit(cache=True, error_model="numpy")
def phase_sum(src, i, k, m):
    """The sum of run i's next m rewards from arm k, for an algorithm that looks at them only as a sum
    (a phase of sequential halving, successive rejects, elimination; a fixed allocation).

    Live Gaussian rewards: m mu + nu sqrt(m) z (nu the arm's, `noise_sd`), one standard normal z from arm
    k's stream (as `reward` draws it), since a sum of m independent N(mu, nu^2) is N(m mu, m nu^2). One
    draw instead of m: the same law for every statistic of the run, and for m = 1 the very reward `reward` gives.
    The j-th reward of the arm is then no longer shared with an algorithm that pulls one at a time
    (common random numbers hold between algorithms with the same phases). Bernoulli rewards and table
    mode: the m rewards one by one, as `reward_sum` (a table is read entry by entry, so a kernel and its
    reference still agree pull for pull)."""
    means, gaussian, nu, rw, st, table, ties, cursor, tie_i, sums = src
    if m <= 0:
        return 0.0
    if table.shape[0] > 0 or not gaussian:
        return reward_sum(src, i, k, m)
    row = i * means.shape[1] + k
    r = m * means[i, k] + noise_sd(nu, k) * math.sqrt(m) * normal(rw, row)
    keep(sums, i, k, r)
    return r


@njit(cache=True, inline="always")
def tie_uniform(src, i):
    """The uniform that breaks the current decision's tie: in table mode the table's current entry
    (`decided` moves past it), in live mode a fresh draw from run i's stream."""
    ties = src[6]
    if ties.shape[0] > 0:
        return ties[src[8][0]]
    return next_double(src[4], i)


@njit(cache=True, inline="always")
def decided(src):
    """A decision is over: in table mode the next decision reads the next tie uniform."""
    if src[6].shape[0] > 0:
        src[8][0] += 1


@njit(cache=True, inline="always")
def uniform(src, i):
    """A uniform for the algorithm's own random choices (coins, posterior draws, random extras)."""
    ties = src[6]
    if ties.shape[0] > 0:
        tie_i = src[8]
        u = ties[tie_i[0]]
        tie_i[0] += 1
        return u
    return next_double(src[4], i)


@njit(cache=True, inline="always")
def standard_normal(src, i):
    """A standard normal for the algorithm's own random choices (a posterior draw): in table mode
    Box-Muller's cosine of the next two uniforms (what a plain reference reads off the same table),
    live the ziggurat (`_rng.normal`) on run i's stream."""
    if src[6].shape[0] > 0:
        z, _ = box_muller(uniform(src, i), uniform(src, i))
        return z
    return normal(src[4], i)


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
def argmax_random(values, src, i, lowest=False):
    """argmax with uniformly random tie-breaking (see the module docstring for the stream rule), or
    with `lowest` the first maximiser (the authors' convention in some baselines; no live draw, and
    in table mode the decision's uniform is still consumed so the streams stay aligned)."""
    arg, best, count = top(values)
    if count > 1 and not lowest:
        arg = pick_index(values, best, count, tie_uniform(src, i))
    decided(src)
    return arg


@njit(cache=True, error_model="numpy")
def add_extras(T, count, src, i):
    """Give one more pull to each of `count` distinct arms chosen uniformly at random (one uniform
    per extra: the e-th picks the floor(u (K - e))-th arm still free), in place. Uniform allocation
    and the prior-informed allocation both spend their remainders so, on the same draws."""
    K = T.shape[0]
    free = np.ones(K, np.bool_)
    for e in range(count):
        pick = min(int(uniform(src, i) * (K - e)), K - e - 1)
        seen = -1
        for j in range(K):
            if free[j]:
                seen += 1
                if seen == pick:
                    free[j] = False
                    T[j] += 1.0
                    break


@njit(cache=True, error_model="numpy")
def keep_top(key, keep, src, i, lowest=False):
    """The `keep` arms with the largest `key` (ties by `argmax_random`), as a mask; `key` is used up.
    The halving step of sequential halving and Bayesian elimination."""
    nxt = np.zeros(key.shape[0], np.bool_)
    for _k in range(keep):
        a = argmax_random(key, src, i, lowest)
        nxt[a] = True
        key[a] = -np.inf
    return nxt


#: the index-tie conventions: at random (this project's rule everywhere) or to the lowest index
TIE_RULES = ("random", "lowest-index")


# ---------------------------------------------------------------- plain numpy side
class LiveSource:
    """Rewards and uniforms for the plain references, drawn from one numpy Generator. `nu_sq`: the
    Gaussian noise variance, one number or one per arm (arm k's reward mu_k + sqrt(nu_sq[k]) z)."""

    def __init__(self, means: np.ndarray, rng: np.random.Generator, reward: str = "bernoulli",
                 nu_sq: float = 1.0):
        self.mu = np.asarray(means, float)
        self.rng = rng
        self.gaussian = reward == "gaussian"
        self.nu = math.sqrt(nu_sq) if np.ndim(nu_sq) == 0 else np.sqrt(np.asarray(nu_sq, float))
        if np.ndim(self.nu) and self.nu.shape != self.mu.shape:
            raise ValueError(f"nu_sq must be one number or one per arm (K = {self.mu.size}), got shape "
                             f"{self.nu.shape}")

    def reward(self, k: int) -> float:
        if self.gaussian:
            return float(self.mu[k] + noise_sd(self.nu, k) * self.rng.standard_normal())
        return 1.0 if self.rng.random() < self.mu[k] else 0.0

    def phase(self, k: int, m: int) -> float:
        return float(sum(self.reward(k) for _ in range(m)))

    def argmax(self, values: np.ndarray, lowest: bool = False) -> int:
        best = np.flatnonzero(values == values.max())
        if best.size == 1 or lowest:
            return int(best[0])
        return int(best[min(int(self.rng.random() * best.size), best.size - 1)])

    def uniform(self) -> float:
        return float(self.rng.random())


class TableSource:
    """Rewards and uniforms from fixed tables (the stream a kernel reads through `table_source`)."""

    def __init__(self, table: np.ndarray, ties: np.ndarray):
        self.table = np.asarray(table, float)
        self.ties = np.asarray(ties, float)
        self.cursor = np.zeros(self.table.shape[0], np.int64)
        self.tie_i = 0

    def reward(self, k: int) -> float:
        r = float(self.table[k, self.cursor[k]])
        self.cursor[k] += 1
        return r

    def phase(self, k: int, m: int) -> float:
        s = 0.0
        for _ in range(m):               # same summation order as the kernel
            s += self.reward(k)
        return s

    def argmax(self, values: np.ndarray, lowest: bool = False) -> int:
        best = np.flatnonzero(values == values.max())
        u = self.uniform()
        return int(best[0 if lowest else min(int(u * best.size), best.size - 1)])

    def uniform(self) -> float:
        u = float(self.ties[self.tie_i])
        self.tie_i += 1
        return u


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _replayed_sums(means, gaussian, nu, reward_seeds, pulls):
    R, K = means.shape
    src = live_source(means, gaussian, nu, reward_seeds, reward_seeds, None)
    out = np.empty((R, K))
    for i in numba.prange(R):      # i as int64: prange's is uint64 in the parallel body (a second compile)
        for k in range(K):
            out[i, k] = reward_sum(src, np.int64(i), k, int(pulls[i, k]))
    return out


@njit(cache=True, parallel=True, error_model="numpy")
def _replayed_squares(means, gaussian, nu, reward_seeds, pulls):
    R, K = means.shape
    src = live_source(means, gaussian, nu, reward_seeds, reward_seeds, None)
    out = np.empty((R, K))
    for i in numba.prange(R):
        for k in range(K):
            q = 0.0
            for _ in range(int(pulls[i, k])):
                r = reward(src, np.int64(i), k)
                q += r * r
            out[i, k] = q
    return out


def replayed_squares(means, pulls, reward_seeds, gaussian: bool, nu) -> np.ndarray:
    """The sums of squared rewards `(R, K)` of finished live runs, replayed as `replayed_sums` replays
    the sums (what a variance estimate at the end of a run needs beside the pulls and sums)."""
    return _replayed_squares(np.ascontiguousarray(means, float), bool(gaussian), nu_argument(nu),
                             np.asarray(reward_seeds, np.uint64), np.ascontiguousarray(pulls, float))


def replayed_sums(means, pulls, reward_seeds, gaussian: bool, nu) -> np.ndarray:
    """The reward sums `(R, K)` of finished live runs: arm k's first pulls[r, k] rewards of run r's
    stream (seeded from reward_seeds[r]), drawn one at a time, which are the rewards a run that drew
    them one at a time saw, since the j-th such pull of an arm reads the j-th reward of its stream
    whatever the algorithm. A run's data is thus (pulls, sums) without the kernels returning more than
    their pulls. Not for a kernel that draws phase sums (`phase_sum`): such a kernel keeps its own."""
    return _replayed_sums(np.ascontiguousarray(means, float), bool(gaussian), nu_argument(nu),
                          np.asarray(reward_seeds, np.uint64), np.ascontiguousarray(pulls, float))
