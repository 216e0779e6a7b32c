"""The two-stage algorithm of Komiyama et al. (2023), parameter q in (0, 1), as their experiment
code (`jkomiyama/bayesbai_paper`, policy `TwostagePolicy`) runs it.

- Stage 1: rounds t = 0 .. n1 - 1 with n1 = min(n, ceil(q n)) (the rounds t < q n) pull arm t mod K,
  so arm j gets floor(n1 / K) pulls, one more if j < n1 mod K.
- Candidates: with N_j the stage-1 pulls and rbar_j the stage-1 mean of arm j, the Chernoff
  confidence bounds lb_j < rbar_j < ub_j solve N_j kl(rbar_j, x) = 2 log n (kl the Bernoulli
  divergence; with Gaussian rewards of variance nu^2, (rbar - x)^2 / (2 nu^2), so
  x = rbar -+ nu sqrt(4 log n / N_j), nu the arm's own when the noise is given per arm). An arm
  without pulls has bounds [0, 1] (Gaussian: the real line). The candidates are the arms with ub_j > max_i lb_i.
- Stage 2: rounds t = n1 .. n - 1 pull the (t mod K')-th candidate in index order (K' candidates),
  so every one of the n pulls is used.
- Recommendation: the largest empirical mean over all pulled arms, ties at random.

Two details of that code are not reproduced, as artefacts rather than the algorithm: it computes
the candidates one pull before stage 1 ends (the last stage-1 pull is not in the statistics), and
it finds lb and ub by 20 bisection steps from a bracket clipped at 1e-5 (about 1e-6 precision);
here the bounds are solved to double precision on the full stage-1 statistics. Its ties go to the
lowest index; here at random, unless tie_rule='lowest-index' asks for theirs.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .sources import TIE_RULES, argmax_random, collect, live_source, n_arms, noise_sd, phase_sum, replay_source
from .spec import TIES, Algorithm, Param, tie_tag


@njit(cache=True, error_model="numpy")
def kl_bernoulli(p, x):
    """kl(p, x) = p log(p / x) + (1 - p) log((1 - p) / (1 - x)), 0 log 0 = 0, for p in [0, 1],
    x in (0, 1)."""
    v = 0.0
    if p > 0.0:
        v += p * math.log(p / x)
    if p < 1.0:
        v += (1.0 - p) * math.log((1.0 - p) / (1.0 - x))
    return v


@njit(cache=True, error_model="numpy")
def _crossing(p, thr, inside, outside):
    """Bisection between a point with kl(p, .) <= thr (`inside`) and one with kl(p, .) > thr
    (`outside`), to adjacent doubles; returns the inside end."""
    for _ in range(200):
        mid = 0.5 * (inside + outside)
        if mid == inside or mid == outside:
            break
        if kl_bernoulli(p, mid) > thr:
            outside = mid
        else:
            inside = mid
    return inside


@njit(cache=True, error_model="numpy")
def chernoff_bounds(p, N, level):
    """(lb, ub): the x <= p and x >= p with N kl(p, x) = level (Bernoulli), to double precision;
    kl(p, .) is 0 at p, decreasing below it and increasing above, infinite at 0 (p > 0) and 1
    (p < 1). lb = 0 if p = 0, ub = 1 if p = 1; without pulls, [0, 1]."""
    if N <= 0:
        return 0.0, 1.0
    thr = level / N
    lb = _crossing(p, thr, p, 0.0) if p > 0.0 else 0.0
    ub = _crossing(p, thr, p, 1.0) if p < 1.0 else 1.0
    return lb, ub


@njit(cache=True, error_model="numpy")
def stage_counts(n, K, q):
    """(stage-1 rounds n1, stage-1 pulls per arm)."""
    n1 = min(n, int(math.ceil(q * n)))
    c = np.empty(K, np.int64)
    for j in range(K):
        c[j] = n1 // K + (1 if j < n1 % K else 0)
    return n1, c


@njit(cache=True, error_model="numpy")
def _run(src, i, n, q, lowest):
    K = n_arms(src)
    gaussian = src[1]
    nu = src[2]
    T = np.zeros(K)
    S = np.zeros(K)
    n1, c1 = stage_counts(n, K, q)
    for j in range(K):
        S[j] += phase_sum(src, i, j, c1[j])
        T[j] += c1[j]
    level = 2.0 * math.log(n)
    lb = np.empty(K)
    ub = np.empty(K)
    for j in range(K):
        if T[j] == 0:
            lb[j], ub[j] = (-np.inf, np.inf) if gaussian else (0.0, 1.0)
        elif gaussian:
            h = noise_sd(nu, j) * math.sqrt(2.0 * level / T[j])
            lb[j], ub[j] = S[j] / T[j] - h, S[j] / T[j] + h
        else:
            lb[j], ub[j] = chernoff_bounds(S[j] / T[j], T[j], level)
    top = lb.max()
    cand = np.empty(K, np.int64)
    nc = 0
    for j in range(K):
        if ub[j] > top:
            cand[nc] = j
            nc += 1
    n2 = n - n1
    if n2 > 0:                              # round t pulls cand[t mod nc]: base each, one more for
        base, rem = divmod(n2, nc)          # the rem positions cyclically from n1 mod nc
        for p in range(nc):
            m = base + (1 if (p - n1) % nc < rem else 0)
            S[cand[p]] += phase_sum(src, i, cand[p], m)
            T[cand[p]] += m
    key = np.empty(K)
    for j in range(K):
        key[j] = S[j] / T[j] if T[j] > 0 else -np.inf
    return argmax_random(key, src, i, lowest), T


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums, q, lowest):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, sums)
    for i in prange(R):     # i as int64: prange's is uint64 in the parallel body, which compiles _run twice
        rec[i], T = _run(src, np.int64(i), n, q, lowest)
        for k in range(K):  # by element: a slice assignment compiles numba's error-message formatting
            pulls[i, k] = T[k]
    return rec, pulls


def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, q=0.5, tie_rule="random", sums=None):
    return _batch(np.ascontiguousarray(means, float), n, gaussian, nu, np.asarray(reward_seeds, np.uint64),
                  np.asarray(seeds, np.uint64), collect(sums, np.shape(means)), float(q), tie_rule == "lowest-index")


def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0, q=0.5, tie_rule="random"):
    mu = np.asarray(mu, float)
    if table is None:
        return tuple(x[0] for x in batch(mu[None], n, [seed], [reward_seed], gaussian, nu, q, tie_rule))
    src = replay_source(mu.size, table, ties, gaussian, nu)
    return _run(src, 0, n, float(q), tie_rule == "lowest-index")


def reference(source, K: int, n: int, gaussian: bool = False, nu: float = 1.0,
              q: float = 0.5, tie_rule: str = "random") -> tuple[int, np.ndarray]:
    """Plain two-stage, round by round as the definition reads; the bounds by scipy's brentq."""
    from scipy.optimize import brentq

    def kl(p, x):
        return sum(a * math.log(a / b) for a, b in ((p, x), (1 - p, 1 - x)) if a > 0)

    def bounds(p, N, k):
        if N == 0:
            return (-math.inf, math.inf) if gaussian else (0.0, 1.0)
        if gaussian:
            h = noise_sd(nu, k) * math.sqrt(4 * math.log(n) / N)
            return p - h, p + h
        thr = 2 * math.log(n) / N
        lb = 0.0 if p == 0 else brentq(lambda x: kl(p, x) - thr, 1e-300, p, xtol=1e-15, rtol=1e-15)
        ub = 1.0 if p == 1 else brentq(lambda x: kl(p, x) - thr, p, 1 - 1e-16, xtol=1e-15, rtol=1e-15)
        return lb, ub

    T, S = np.zeros(K), np.zeros(K)
    stage1 = [t % K for t in range(n) if t < q * n]
    for k in stage1:
        S[k] += source.reward(k)
        T[k] += 1
    b = [bounds(S[j] / T[j] if T[j] else 0.0, T[j], j) for j in range(K)]
    cand = [j for j in range(K) if b[j][1] > max(lo for lo, _ in b)]
    for t in range(len(stage1), n):
        k = cand[t % len(cand)]
        S[k] += source.reward(k)
        T[k] += 1
    return source.argmax(np.where(T > 0, S / np.maximum(T, 1), -np.inf), tie_rule == "lowest-index"), T


def min_budget(K: int, params: dict) -> int:
    """The smallest n whose stage 1 (the rounds t < q n) pulls every arm once: ceil(q n) >= K."""
    n = max(K, math.ceil(K / params["q"]))
    while n > 1 and math.ceil(params["q"] * (n - 1)) >= K:
        n -= 1
    while math.ceil(params["q"] * n) < K:
        n += 1
    return n


ALGORITHM = Algorithm(
    name="two-stage", title="Two-stage algorithm (Komiyama et al. 2023), as their experiment code runs it",
    batch=batch, run=run, reference=reference,
    min_budget=min_budget, budget_rule="stage 1, the rounds t < q n, pulls every arm once",
    params=(Param("tie_rule", "random", "index ties: at random (this project) or to the lowest index (the authors' "
                  "code)", choices=TIE_RULES, tag=tie_tag),
            Param("q", 0.5, "fraction of the budget in stage 1 (round robin)", low=0.0, high=1.0, open_low=True,
                  open_high=True, tag=lambda q, p: f" q={q:g}")),
    style=("tab:brown", "P", "-"), cost=0.05, collects_sums=True, phase_sums=True, readings=(TIES,), one_nu="")
