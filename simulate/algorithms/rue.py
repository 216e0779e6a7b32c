"""RUE, Random-effect UCB Exploration (Algorithm 1, label `alg:bai`; index of Section 4.2).

- Initialisation: two round-robin passes (every arm pulled twice).
- Round t: U_k = muhat_k + sqrt(tau_k^2 * DEG * log n), DEG = 2, from the posterior of eqs. `blup`
  and `MSE` (`bounds.estimation.posterior`). Pull argmax U, ties uniformly at random. The exploration
  constant is a parameter (`deg`, default the paper's DEG = 2; claim EXPLORE-CLIFF sweeps it).
- Variances: known, or re-estimated every round (`variances`: the authors' estimator or the
  unbiased ANOVA one), from O(1)-updated running totals.
- Recommendation: the largest posterior mean, ties at random.

A second entry, `TOP_TWO` ("rue-top-two"), is not from the paper: a top-two balanced variant written
here from issue 51's description, to see whether RUE's loss in near ties is its uneven split of the
top pair. Each round after the initial passes it takes the leader (the largest posterior mean) and
the challenger (the largest index U among the other arms) and pulls the one pulled fewer times (the
leader on equal counts). Its ties, of posterior means or of indices, go to the lowest index (with
Gaussian rewards they have probability 0 after the first rounds); it draws no tie uniform.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import njit, prange

from . import variances as V
from .rue_crossover import CALIBRATE_WORK, HEAP_MAX, HEAP_MIN
from .rue_recommend import recommend
from .sources import (
    collect,
    decided,
    live_source,
    n_arms,
    pick_index,
    replay_source,
    reward,
    tie_uniform,
)
from .spec import Algorithm, Param

DEG = 2.0
BLOCK = 128    # runs interleaved per block where there are enough: the per-arm loops run across
               # them as vectors. Each loop over the arms carries per-run accumulators (the weights'
               # sums, the running maximum, its index and ties) from one arm to the next through
               # memory; with 32 runs that is 4 independent AVX-512 vectors per arm, too few to hide
               # the chain's latency, and RUE ran at 627 / 1143 M arm-rounds/s (K = 20 / 80, one
               # thread, AMD EPYC, znver5) against 775-895 / 1499-1577 with 128-256 runs.
#: a cap on the block by K: each of the kernels' (K, B) arrays kept within CACHE_DOUBLES doubles (128 KiB),
#: so the five or six of them stay in a core's L2 cache, as far as MIN_BLOCK allows (above K = 512 blocks
#: stay at MIN_BLOCK runs: 250 KiB an array at K = 1000). Measured at K = 1000 (F4, known variances, 128 runs,
#: one thread, Intel Xeon, 2 MiB L2): blocks of 32 / 64 / 128 runs gave 511 / 444 / 396 M arm-rounds/s on the
#: plain path and 616 / 555 / 422 on the lazy one; at K = 160-320 the lazy path too was fastest with 32-64
#: (docs/bench.txt). At K <= 128 the cap is above BLOCK and changes nothing.
CACHE_DOUBLES = 16384
MIN_BLOCK = 32  # the smallest block made to give every thread work (LLVM's vector path needs 20-24)
UNIT = 4       # LLVM vectorises 4 (AVX2) or 8 (AVX-512) wide with a scalar remainder; blocks are
               # whole units, so on AVX2 hosts they run fully vectorised (8 wide: at most 4 runs of
               # a block take the scalar path; padding to 8 cost more than it saved, measured).


# fastmath "contract" lets LLVM fuse a * b + c into one FMA instruction (one rounding instead of
# two). The vector and the scalar code paths fuse alike (`test_interleaved_batch_equals_single_runs`
# compares them in the rounding-sensitive 'unbiased' mode). A CPU without FMA rounds differently, so
# a seed's results are reproducible on one machine class; against unfused arithmetic, decisions
# differ only at near-ties.
@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _block(src, n, mode, s0_known, s_known, rec, pulls, lo, hi, sums, deg, top_two, refit):
    """Runs lo..hi-1 of `src` in lockstep, arrays laid out `(K, B)` so each per-arm step is a vector
    op across runs; each run's arithmetic is sequential and its own, so a run's result does not
    depend on the block it is in. A table source runs one block of one run. sums: empty, or the
    array that gets each run's reward sums, the running totals S it kept (the rewards added in the
    order drawn, as a collecting source would: a store in the reward loop costs RUE about 40%).
    deg: the exploration constant (the paper's DEG = 2); top_two: the top-two balanced pick (`TOP_TWO`);
    refit: the likelihood estimators' schedule (`variances.REFIT_GROWTH`): a run refits ML or REML when
    its pulls have grown by this share since its last fit, and keeps that fit in between."""
    K = n_arms(src)
    B = hi - lo
    T = np.zeros((K, B))
    S = np.zeros((K, B))
    rbar = np.zeros((K, B))
    sq = np.zeros((K, B))
    omw = np.empty((K, B))
    U = np.empty((K, B))
    N = np.zeros(B)
    Stot = np.zeros(B)
    Qtot = np.zeros(B)
    A = np.zeros(B)
    sumT2 = np.zeros(B)
    npulled = np.zeros(B)
    s02 = np.empty(B)
    s2 = np.empty(B)
    den = np.empty(B)
    num = np.empty(B)
    best = np.empty(B)
    cnt = np.empty(B, np.int64)
    pick = np.empty(B, np.int64)
    fit0 = np.empty(B)
    fit1 = np.empty(B)
    nextfit = np.zeros(B)
    likelihood = mode >= V.ML_MODE
    c = math.sqrt(deg * math.log(n))
    for t in range(n):
        if t < 2 * K:
            for b in range(B):
                pick[b] = t % K
        else:
            for b in range(B):
                if likelihood:
                    if N[b] >= nextfit[b]:
                        fit0[b], fit1[b] = V.likelihood_from(T[:, b], rbar[:, b], Qtot[b] - A[b],
                                                             mode == V.REML_MODE)
                        nextfit[b] = N[b] * (1.0 + refit)
                    s02[b], s2[b] = fit0[b], fit1[b]
                else:
                    s02[b], s2[b] = V.from_totals(N[b], Stot[b], Qtot[b], A[b], sumT2[b], npulled[b], mode,
                                                  s0_known, s_known)
                den[b] = 0.0
                num[b] = 0.0
            for j in range(K):
                for b in range(B):
                    o = s2[b] / (T[j, b] * s02[b] + s2[b])
                    omw[j, b] = o
                    den[b] += o * T[j, b]
                    num[b] += o * S[j, b]
            for b in range(B):
                inv = 1.0 / den[b]
                num[b] = num[b] * inv                # rbar_0
                den[b] = s2[b] * inv                 # sigma^2 / sum_j T_j (1 - w_j)
            for b in range(B):
                best[b] = -np.inf
                cnt[b] = 0
                pick[b] = -1
            for j in range(K):                       # index, running max, first maximiser, ties
                for b in range(B):
                    o = omw[j, b]
                    u = o * num[b] + (1.0 - o) * rbar[j, b] + c * math.sqrt(s02[b] * o + o * o * den[b])
                    U[j, b] = u
                    up = u > best[b]
                    pick[b] = j if up else pick[b]
                    cnt[b] = 1 if up else cnt[b] + (u == best[b])
                    best[b] = u if up else best[b]
            if top_two:
                for b in range(B):
                    pick[b] = _top_two(U[:, b], omw[:, b], num[b], rbar[:, b], T[:, b])
            else:
                for b in range(B):
                    if cnt[b] > 1:
                        pick[b] = pick_index(U[:, b], best[b], cnt[b], tie_uniform(src, lo + b))
            decided(src)
        for b in range(B):
            k = pick[b]
            r = reward(src, lo + b, k)
            if T[k, b] == 0:
                npulled[b] += 1.0
            sumT2[b] += 2.0 * T[k, b] + 1.0
            T[k, b] += 1.0
            S[k, b] += r
            rbar[k, b] = S[k, b] / T[k, b]
            A[b] -= sq[k, b]
            sq[k, b] = S[k, b] * rbar[k, b]
            A[b] += sq[k, b]
            N[b] += 1.0
            Stot[b] += r
            Qtot[b] += r * r
    m = np.empty(K)
    for b in range(B):
        if likelihood:                   # the recommendation's fit is on the final data, whatever the schedule
            e0, e1 = V.likelihood_from(T[:, b], rbar[:, b], Qtot[b] - A[b], mode == V.REML_MODE)
        else:
            e0, e1 = V.from_totals(N[b], Stot[b], Qtot[b], A[b], sumT2[b], npulled[b], mode, s0_known, s_known)
        recommend(src, lo, b, T, S, omw, e0, e1, m, rec, pulls, sums)


@njit(cache=True, error_model="numpy", fastmath={"contract"})
def _top_two(U, omw, rbar0, rbar, T):
    """The top-two balanced pick of one run: the leader (largest posterior mean (1 - w_j) rbar_0 +
    w_j rbar_j), the challenger (largest index among the others), the one pulled fewer times (the
    leader on equal counts); ties of either maximum to the lowest index."""
    K = U.shape[0]
    lead = 0
    lm = -np.inf
    for j in range(K):
        m = omw[j] * rbar0 + (1.0 - omw[j]) * rbar[j]
        if m > lm:
            lm = m
            lead = j
    ch = -1
    cu = -np.inf
    for j in range(K):
        if j != lead and U[j] > cu:
            cu = U[j]
            ch = j
    return lead if T[lead] <= T[ch] else ch


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums, mode, s0_known, s_known, starts, deg, top_two,
           refit):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, None)
    for g in prange(starts.shape[0] - 1):
        _block(src, n, mode, s0_known, s_known, rec, pulls, starts[g], starts[g + 1], sums, deg, top_two, refit)
    return rec, pulls


def block_for(K: int) -> int:
    """The runs interleaved per block at K arms: BLOCK, or fewer where K * BLOCK doubles would not
    stay within CACHE_DOUBLES, in whole units and not below MIN_BLOCK."""
    return max(MIN_BLOCK, min(BLOCK, CACHE_DOUBLES // max(K, 1) // UNIT * UNIT))


def padded_runs(R: int) -> int:
    """The runs `batch` computes for R: R rounded up to whole units of UNIT."""
    return -(-R // UNIT) * UNIT


#: the smallest K at which known-variance runs take the lazy argmax (`rue_lazy`). Measured on one thread
#: (Intel Xeon, AVX-512; docs/bench.txt, `bench --large-k`): the two paths are level at K = 2-4, the lazy one
#: 7% faster at K = 10, 17% at 20 and 1.7-1.9x at K = 80-320; below 8 the plain kernel is kept
LAZY_FROM = 8
#: the smallest K at which they take the tree argmax (`rue_heap`) where this host's own crossover is not known
#: (`heap_from`). Measured on one thread (AMD EPYC, znver5; docs/bench.txt, `bench --large-k`, F4): the lazy path
#: is 2-3x faster at K = 20-80, the two are level at K = 160 (60% / 58% of the ceiling), and the trees 2.9x faster
#: at K = 320 and 8x at K = 1000. On the Intel Xeon host they meet near K = 90 for runs of 100,000 rounds, 150
#: for 20,000 and 260-300 for 2,000 (CPU time, one thread), so between HEAP_MIN and HEAP_MAX the crossover is
#: measured on each host and for each budget (`rue_crossover`)
HEAP_FROM = 160
#: RUE's argmax paths with known variances: every arm's index each round (the reference), the lazy
#: pass over cheap bounds (`rue_lazy`), the tournament trees (`rue_heap`)
PATHS = ("plain", "lazy", "heap")


def heap_from(calibrate: bool = True, n: int | None = None, K: int = 0) -> int:
    """The K from which known-variance runs of budget n (None: runs of `rue_crossover.HEAP_ROUNDS` rounds past
    the initial passes; K: the arms, for those passes) take the trees on this host: from timings taken once
    per host and kernel source (`rue_crossover`: about a second, one thread) and kept beside numba's compiled
    kernels; with `calibrate` False, only timings already known (this process, the cache), else HEAP_FROM.
    Speed only: every path makes the same pulls."""
    from . import rue_crossover
    value = rue_crossover.heap_from(batch, block_for, calibrate, None if n is None else n - 2 * K)
    return HEAP_FROM if value is None else value


def argmax_path(K: int, variances: str, top_two: bool, path: str | None = None, given: str = "path",
                work: float | None = None, n: int | None = None) -> str:
    """The argmax path runs take: `path` where asked for, else by K with known variances (the only
    mode where the lazy and tree bounds hold) and RUE's own pick: plain below LAZY_FROM, lazy below
    HEAP_MIN, the trees from HEAP_MAX (plain again from `rue_heap.MAX_K`, beyond its slack's reach), and
    in between the trees from this host's measured crossover for the budget n (`heap_from`; n None: a long
    run). `work`: the call's arm-rounds (runs x n x K); below `CALIBRATE_WORK` a call does not wait for a
    calibration and takes the crossover already known, else HEAP_FROM (None: calibrate where needed). Every
    path makes the same pulls, so the choice, and so the calibration, changes speed only. `given`: the
    parameter an error names."""
    if path is not None and path not in PATHS:
        raise ValueError(f"{given}: RUE's argmax path must be one of {', '.join(PATHS)}, got {path!r}")
    if path not in (None, "plain") and (variances != "known" or top_two):
        raise ValueError(f"{given}: the {path} argmax needs variances='known' and RUE's own pick (its bound holds "
                         f"only while sigma0^2 and sigma^2 stay fixed)")
    if path is not None:
        return path
    if variances != "known" or top_two or K < LAZY_FROM:
        return "plain"
    if K < HEAP_MIN:
        return "lazy"
    from .rue_heap import MAX_K
    if K >= MAX_K:
        return "plain"
    if K >= HEAP_MAX:
        return "heap"
    return "heap" if K >= heap_from(work is None or work >= CALIBRATE_WORK, n, K) else "lazy"


def lazy_path(K: int, variances: str, top_two: bool, lazy: bool | None) -> bool:
    """Whether runs skip the plain pass (`argmax_path`; `lazy` True or False forces lazy or plain)."""
    return _chosen(K, variances, top_two, lazy, None) != "plain"


def _chosen(K, variances, top_two, lazy, path, work=None, n=None) -> str:
    """`argmax_path` from the kernels' two spellings: `path`, or the older `lazy` (True: 'lazy',
    False: 'plain')."""
    if path is not None and lazy is not None:
        raise ValueError(f"path and lazy: give one of them, got path={path!r} and lazy={lazy!r}")
    if lazy is not None:
        return argmax_path(K, variances, top_two, "lazy" if lazy else "plain", given="lazy")
    return argmax_path(K, variances, top_two, path, work=work, n=n)


def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, variances="authors", sigma0_sq=1.0,
          sigma_sq=1.0, block=None, sums=None, deg=DEG, top_two=False, lazy=None, evaluated=None,
          refit=V.REFIT_GROWTH, path=None, stats=None):
    """Runs are padded to whole units of UNIT (throwaway copies of the last run) and interleaved in
    blocks of about `block` runs, each a whole number of units, as many blocks as a multiple of the
    threads where that leaves each at least `block`; where there are too few runs for that, in
    blocks of at least MIN_BLOCK runs, one per thread. `block` None: BLOCK, capped by K
    (`block_for`). Identical to `run` with the same seeds for
    every run, whatever the blocking. `path` (None: by K and n, `argmax_path`; `lazy` True / False is
    path 'lazy' / 'plain') sends known-variance runs to the lazy argmax (`rue_lazy`) or the trees
    (`rue_heap`), with the same pulls and recommendations; `evaluated`, an `(R,)` array, gets each
    run's exact index evaluations after round 2K (the plain kernel's are K per round); `stats`, an
    `(R, 3)` array, the tree path's counters (`rue_heap.EVALUATIONS`, `REKEYS`, `PLAIN_ROUNDS`).
    `refit`: the ML / REML refit schedule (`variances.REFIT_GROWTH`; 0 refits every round)."""
    means = np.asarray(means, float)
    seeds, reward_seeds = (np.asarray(x, np.uint64) for x in (seeds, reward_seeds))
    R = means.shape[0]
    out = collect(sums, means.shape)
    RU = padded_runs(R)
    if RU != R:
        pad = RU - R
        means = np.concatenate([means, np.repeat(means[-1:], pad, axis=0)])
        seeds = np.concatenate([seeds, np.repeat(seeds[-1:], pad)])
        reward_seeds = np.concatenate([reward_seeds, np.repeat(reward_seeds[-1:], pad)])
    if block is None:
        block = block_for(means.shape[1])
    threads = numba.get_num_threads()
    units = RU // UNIT
    nblocks = max(1, RU // max(block, UNIT))
    if nblocks < threads:                          # smaller blocks, down to MIN_BLOCK, to use every thread
        nblocks = max(nblocks, min(threads, RU // min(MIN_BLOCK, max(block, UNIT))))
    if nblocks >= threads:
        nblocks -= nblocks % threads
    base, extra = divmod(units, nblocks)           # spread the units evenly over the blocks
    sizes = [(base + (i < extra)) * UNIT for i in range(nblocks)]
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    kept = np.zeros((0, 0)) if out is None else out if RU == R else np.empty((RU, means.shape[1]))  # padded: theirs too
    mode = V.mode_of(variances)
    chosen = _chosen(means.shape[1], variances, top_two, lazy, path, work=float(R) * n * means.shape[1], n=n)
    if chosen == "heap":
        from . import rue_heap
        st = np.zeros((RU, 3))
        rec, pulls = rue_heap._batch(np.ascontiguousarray(means), n, gaussian, nu, reward_seeds, seeds, kept,
                                     float(sigma0_sq), float(sigma_sq), float(deg), st)
        if evaluated is not None:
            evaluated[...] = st[:R, rue_heap.EVALUATIONS]
        if stats is not None:
            stats[...] = st[:R]
    elif chosen == "lazy":
        from . import rue_lazy
        ev = np.zeros(RU)
        rec, pulls = rue_lazy._batch(np.ascontiguousarray(means), n, gaussian, nu, reward_seeds, seeds, kept,
                                     float(sigma0_sq), float(sigma_sq), starts, float(deg), ev)
        if evaluated is not None:
            evaluated[...] = ev[:R]
    else:
        rec, pulls = _batch(np.ascontiguousarray(means), n, gaussian, nu, reward_seeds, seeds, kept,
                            mode, sigma0_sq, sigma_sq, starts, float(deg), bool(top_two), _refit(refit))
        if evaluated is not None:
            evaluated[...] = max(n - 2 * means.shape[1], 0) * means.shape[1]
    if out is not None and kept is not out:
        out[...] = kept[:R]
    return rec[:R], pulls[:R]


def _refit(refit) -> float:
    refit = float(refit)
    if not (refit >= 0.0 and math.isfinite(refit)):
        raise ValueError(f"refit: the share by which a run's pulls grow between ML/REML fits must be a finite "
                         f"number >= 0 (0: every round), got {refit!r}")
    return refit


def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0, variances="authors",
        sigma0_sq=1.0, sigma_sq=1.0, deg=DEG, top_two=False, lazy=None, refit=V.REFIT_GROWTH, path=None):
    mu = np.asarray(mu, float)
    mode = V.mode_of(variances)
    if table is None:
        return tuple(x[0] for x in batch(mu[None], n, [seed], [reward_seed], gaussian, nu, variances, sigma0_sq,
                                         sigma_sq, deg=deg, top_two=top_two, lazy=lazy, refit=refit, path=path))
    rec, pulls = np.empty(1, np.int64), np.empty((1, mu.size))
    src = replay_source(mu.size, table, ties, gaussian, nu)
    chosen = _chosen(mu.size, variances, top_two, lazy, path, work=float(n) * mu.size, n=n)
    if chosen == "heap":
        from . import rue_heap
        rue_heap._run(src, 0, n, float(sigma0_sq), float(sigma_sq), math.sqrt(float(deg) * math.log(n)), not gaussian,
                      rec, pulls,
                      np.zeros((0, 0)), np.zeros(3))
    elif chosen == "lazy":
        from . import rue_lazy
        rue_lazy._block(src, n, float(sigma0_sq), float(sigma_sq), rec, pulls, 0, 1, np.zeros((0, 0)), float(deg),
                        np.zeros(1))
    else:
        _block(src, n, mode, sigma0_sq, sigma_sq, rec, pulls, 0, 1, np.zeros((0, 0)), float(deg), bool(top_two),
               _refit(refit))
    return rec[0], pulls[0]


def reference(source, K: int, n: int, gaussian=False, nu=0.0, variances: str = "authors", sigma0_sq: float = 1.0,
              sigma_sq: float = 1.0, deg: float = DEG, top_two: bool = False,
              refit: float = V.REFIT_GROWTH) -> tuple[int, np.ndarray]:
    """Plain numpy RUE, recomputing everything each round from the definitions (readable, slow);
    with `top_two`, the top-two balanced variant (`TOP_TWO`). ML and REML are refitted when the pulls
    have grown by the share `refit` since the last fit (the kernels' schedule) and at the end."""
    from bounds.estimation import posterior
    T, S, Q = np.zeros(K), np.zeros(K), np.zeros(K)
    last = {"next": 0.0, "fit": None}

    def post(final=False):
        if variances in V.LIKELIHOOD and not final:
            if T.sum() >= last["next"]:
                last["fit"] = V.estimate(T, S, Q, variances)
                last["next"] = T.sum() * (1.0 + refit)
            s02, s2 = last["fit"]
        else:
            s02, s2 = V.estimate(T, S, Q, variances, sigma0_sq, sigma_sq)
        return posterior(T, S, float(s02[0]), float(s2[0]))

    for t in range(n):
        if t < 2 * K:
            k = t % K
        else:
            p = post()
            U = p.mean + np.sqrt(p.var * deg * math.log(n))
            if top_two:
                lead = int(np.argmax(p.mean))                       # first maximisers
                ch = int(np.argmax(np.where(np.arange(K) == lead, -np.inf, U)))
                k = lead if T[lead] <= T[ch] else ch
                source.argmax(np.arange(K) == k, lowest=True)       # one decision a round, as the kernel's
            else:
                k = source.argmax(U)
        r = source.reward(k)
        T[k] += 1
        S[k] += r
        Q[k] += r * r
    return source.argmax(post(final=True).mean), T


ALGORITHM = Algorithm(
    name="rue", title="RUE, Random-effect UCB Exploration (Zhu & Qiu 2024, Algorithm 1)",
    batch=batch, run=run, reference=reference,
    min_budget=lambda K, p: 2 * K, budget_rule="Algorithm 1 pulls every arm twice first",
    params=(Param("variances", "authors", "sigma0^2 and sigma^2: the authors' estimates, the unbiased ANOVA "
                  "estimates, known (sigma0_sq, sigma_sq), or maximum likelihood / REML of the one-way "
                  "random-effects model (refitted as the pulls grow by 1/16)", choices=V.ESTIMATORS),
            Param("sigma0_sq", 1.0, "prior variance of the arm means, with variances='known'", low=0.0, open_low=True),
            Param("sigma_sq", 1.0, "likelihood variance sigma^2 = nu^2 / delta, with variances='known'", low=0.0,
                  open_low=True),
            Param("deg", DEG, "exploration constant DEG in sqrt(DEG tau^2 log n) (the paper: 2)", low=0.0,
                  open_low=True, high=1e6, tag=lambda d, p: "" if d == DEG else f" [DEG = {d:g}]")),
    style=("tab:red", "o", "-"), cost=1.0, collects_sums=True, one_nu="")

def top_two_batch(*args, **kw):
    """`batch` with the top-two balanced pick (`TOP_TWO`)."""
    return batch(*args, **kw, top_two=True)


def top_two_run(*args, **kw):
    """`run` with the top-two balanced pick."""
    return run(*args, **kw, top_two=True)


def top_two_reference(*args, **kw):
    """`reference` with the top-two balanced pick."""
    return reference(*args, **kw, top_two=True)


#: the top-two balanced variant (module docstring): RUE's index and posterior, another pick
TOP_TWO = Algorithm(
    name="rue-top-two", title="RUE, top-two balanced (a variant written here, issue 51: the less-pulled of the "
                              "leader and the best other index)",
    batch=top_two_batch, run=top_two_run, reference=top_two_reference,
    min_budget=ALGORITHM.min_budget, budget_rule=ALGORITHM.budget_rule, params=ALGORITHM.params,
    style=("tab:pink", "P", "--"), cost=1.1, collects_sums=True, one_nu="")
