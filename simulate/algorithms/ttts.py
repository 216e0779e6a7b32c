"""Top-two Thompson sampling (Russo 2020), leader probability beta = 1/2.

- Posterior: Bernoulli rewards, Beta(1, 1) priors updated with a reward r as (r, 1 - r); Gaussian
  rewards, N(rbar_k, nu_k^2 / T_k) with the environment's noise variance known (flat prior): one nu^2
  for every arm, or each arm's own when the noise is given per arm.
- Initialisation: two round-robin passes.
- Round t: draw theta from the posterior; the leader is argmax theta (ties at random). With
  probability 1/2 pull the leader; otherwise redraw theta until its argmax differs from the leader,
  at most K + 1 draws, and pull that challenger (if every draw returns the leader, pull the leader).
- Recommendation: the largest empirical mean, ties at random.

A posterior argmax is found by one of two exact samplers of the same law: live Bernoulli runs use
`lazy_argmax` (the argmax without drawing every theta); table mode, Gaussian rewards and the
reference draw every theta (`beta_sampler`; normals by `standard_normal`: in table mode Box-Muller
on the source's uniforms, so that kernel and reference can be compared pull by pull, live a ziggurat).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ._rng import lane_buffer, next_double, seed_lanes
from .beta_sampler import beta_draw, beta_reference, cheng_constants
from .lazy_argmax import cdf_init, cdf_update, cells, grid, lazy_argmax
from .sources import (
    argmax_random,
    collect,
    live_source,
    n_arms,
    noise_sd,
    replay_source,
    reward,
    standard_normal,
    uniform,
)
from .spec import Algorithm


@njit(cache=True, error_model="numpy")
def _sample(theta, C, S, T, gaussian, nu, src, i):
    """Every theta_j from the posterior (the plain sampler)."""
    for j in range(theta.shape[0]):
        if gaussian:
            theta[j] = S[j] / T[j] + noise_sd(nu, j) / math.sqrt(T[j]) * standard_normal(src, i)
        else:
            theta[j] = beta_draw(int(C[j, 0]), C[j, 1], C[j, 2], C[j, 3], C[j, 4], C[j, 5], src, i)


@njit(cache=True, error_model="numpy", _nrt=False)
def _rounds(src, i, n, lanes, lazy, T, S, A, B, C, theta, u, XS, lx, l1x, F, G, W, lnB, cand):
    """The rounds of one run, on state allocated by `_run`. Compiled without reference counting
    (nothing here allocates): numba's atomic increments around inlined calls are costly in the
    lazy sampler's inner loop."""
    K = n_arms(src)
    gaussian = src[1]
    nu = src[2]
    st = src[4]
    m = F.shape[0] - 1
    guess = m // 2
    for t in range(n):
        if t < 2 * K:
            k = t % K
        elif lazy:
            k, guess = lazy_argmax(F, A, B, u, cand, guess, lx, l1x, st, lanes, i)
            if next_double(st, i) >= 0.5:
                leader = k
                for _ in range(K + 1):
                    c, guess = lazy_argmax(F, A, B, u, cand, guess, lx, l1x, st, lanes, i)
                    if c != leader:
                        k = c
                        break
        else:
            _sample(theta, C, S, T, gaussian, nu, src, i)
            k = argmax_random(theta, src, i)
            if uniform(src, i) >= 0.5:
                leader = k
                for _ in range(K + 1):
                    _sample(theta, C, S, T, gaussian, nu, src, i)
                    c = argmax_random(theta, src, i)
                    if c != leader:
                        k = c
                        break
        r = reward(src, i, k)
        if lazy:
            cdf_update(F, G, W, lnB, k, A[k], B[k], r, XS, lx, l1x)
        T[k] += 1.0
        S[k] += r
        A[k] += r
        B[k] += 1.0 - r
        if not gaussian and not lazy:
            C[k, 0], C[k, 1], C[k, 2], C[k, 3], C[k, 4], C[k, 5] = cheng_constants(A[k], B[k])


@njit(cache=True, error_model="numpy")
def _run(src, i, n, lanes, sums):
    """One run; sums: empty, or the array whose row i gets the run's reward totals S (added in the
    order drawn, as a collecting source would, without a store in the reward loop)."""
    K = n_arms(src)
    T = np.zeros(K)
    S = np.zeros(K)
    A = np.ones(K)
    B = np.ones(K)
    C = np.empty((K, 6))
    for j in range(K):
        C[j, 0], C[j, 1], C[j, 2], C[j, 3], C[j, 4], C[j, 5] = cheng_constants(1.0, 1.0)
    theta = np.empty(K)
    u = lane_buffer(K)                           # the lazy argmax's uniforms
    lazy = not src[1] and src[5].shape[0] == 0   # live Bernoulli runs
    m = cells(K, n) if lazy else 1
    XS, lx, l1x = grid(m)
    F, G, W, lnB = cdf_init(K, m)
    cand = np.empty(K, np.int64)
    _rounds(src, i, n, lanes, lazy, T, S, A, B, C, theta, u, XS, lx, l1x, F, G, W, lnB, cand)
    if sums.shape[0] > 0:
        for j in range(K):          # not sums[i] = S: a slice assignment compiles numba's string formatting
            sums[i, j] = S[j]
    rbar = np.empty(K)
    for j in range(K):
        rbar[j] = S[j] / T[j] if T[j] > 0 else -np.inf
    return argmax_random(rbar, src, i), T


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, None)
    lanes = seed_lanes(seeds.astype(np.uint64))
    for i in prange(R):     # i as int64: prange's is uint64 in the parallel body, which compiles _run twice
        rec[i], T = _run(src, np.int64(i), n, lanes, sums)
        for k in range(K):  # by element: a slice assignment compiles numba's error-message formatting
            pulls[i, k] = T[k]
    return rec, pulls


def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, sums=None):
    return _batch(np.ascontiguousarray(means, float), n, gaussian, nu, np.asarray(reward_seeds, np.uint64),
                  np.asarray(seeds, np.uint64), _kept(collect(sums, np.shape(means))))


def _kept(sums):
    """The array `_run` writes the sums to: `sums`, or an empty one (one compiled kernel either way)."""
    return np.zeros((0, 0)) if sums is None else sums


def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0):
    mu = np.asarray(mu, float)
    if table is None:
        return tuple(x[0] for x in batch(mu[None], n, [seed], [reward_seed], gaussian, nu))
    src = replay_source(mu.size, table, ties, gaussian, nu)
    return _run(src, 0, n, seed_lanes(np.zeros(1, np.uint64)), np.zeros((0, 0)))


def reference(source, K: int, n: int, gaussian: bool = False, nu: float = 0.0) -> tuple[int, np.ndarray]:
    """Plain TTTS; every uniform (posterior draws, the coin) and every reward comes from `source`."""
    T, S = np.zeros(K), np.zeros(K)
    A, B = np.ones(K), np.ones(K)

    def normal():
        u1, u2 = source.uniform(), source.uniform()
        return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)

    def sample():
        if gaussian:
            return np.array([S[j] / T[j] + noise_sd(nu, j) / math.sqrt(T[j]) * normal() for j in range(K)])
        return np.array([beta_reference(A[j], B[j], source.uniform) for j in range(K)])

    for t in range(n):
        if t < 2 * K:
            k = t % K
        else:
            k = source.argmax(sample())
            if source.uniform() >= 0.5:
                leader = k
                for _ in range(K + 1):
                    c = source.argmax(sample())
                    if c != leader:
                        k = c
                        break
        r = source.reward(k)
        T[k] += 1
        S[k] += r
        A[k] += r
        B[k] += 1 - r
    return source.argmax(np.where(T > 0, S / np.maximum(T, 1), -np.inf)), T


ALGORITHM = Algorithm(
    name="ttts", title="Top-two Thompson sampling (Russo 2020), beta = 1/2, exact posterior draws",
    batch=batch, run=run, reference=reference,
    min_budget=lambda K, p: 2 * K, budget_rule="two round-robin passes first",
    style=("tab:orange", "D", "-"), cost=6.0, collects_sums=True, one_nu="")
