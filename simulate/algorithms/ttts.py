"""Top-two Thompson sampling (Russo 2020), leader probability beta = 1/2.

- Posterior: Bernoulli rewards, Beta(1, 1) priors updated with a reward r as (r, 1 - r); Gaussian
  rewards, N(rbar_k, nu^2 / T_k) with the environment's noise variance nu^2 known (flat prior).
- Initialisation: two round-robin passes.
- Round t: draw theta from the posterior; the leader is argmax theta (ties at random). With
  probability 1/2 pull the leader; otherwise redraw theta until its argmax differs from the leader,
  at most K + 1 draws, and pull that challenger (if every draw returns the leader, pull the leader).
- Recommendation: the largest empirical mean, ties at random.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ._common import EMPTY_TABLE, EMPTY_TIES, argmax_random, draw, uniform

NAME = "ttts"


@njit(cache=True, error_model="numpy")
def beta_draw(a, b):
    """An exact Beta(a, b) draw for a, b >= 1 (always so here: Beta(1, 1) priors, increments in [0, 1]):
    closed forms when a or b is 1, otherwise Cheng's (1978) algorithm BB (about 2.5x faster than
    numba's gamma-based np.random.beta)."""
    if b == 1.0:
        return np.random.random() ** (1.0 / a)
    if a == 1.0:
        return 1.0 - np.random.random() ** (1.0 / b)
    tot = a + b
    lo = min(a, b)
    hi = max(a, b)
    bb = math.sqrt((tot - 2.0) / (2.0 * a * b - tot))
    cc = lo + 1.0 / bb
    while True:
        u1 = np.random.random()
        u2 = np.random.random()
        if u1 <= 0.0 or u1 >= 1.0:
            continue
        v = bb * math.log(u1 / (1.0 - u1))
        w = lo * math.exp(v)
        z = u1 * u1 * u2
        r = cc * v - 1.3862943611198906              # log 4
        s = lo + r - w
        if s + 2.6094379124341003 >= 5.0 * z:        # 1 + log 5
            break
        t = math.log(z)
        if s > t or r + tot * math.log(tot / (hi + w)) >= t:
            break
    return w / (hi + w) if a == lo else hi / (hi + w)


@njit(cache=True, error_model="numpy")
def _sample(theta, A, B, S, T, gaussian, nu):
    for j in range(theta.shape[0]):
        if gaussian:
            theta[j] = S[j] / T[j] + nu / math.sqrt(T[j]) * np.random.standard_normal()
        else:
            theta[j] = beta_draw(A[j], B[j])


@njit(cache=True, error_model="numpy")
def run(mu, n, gaussian, nu, table, ties):
    K = mu.shape[0]
    T = np.zeros(K)
    S = np.zeros(K)
    A = np.ones(K)
    B = np.ones(K)
    theta = np.empty(K)
    cursor = np.zeros(K, np.int64)
    tie_i = np.zeros(1, np.int64)
    for t in range(n):
        if t < 2 * K:
            k = t % K
        else:
            _sample(theta, A, B, S, T, gaussian, nu)
            k = argmax_random(theta, ties, tie_i)
            if uniform(ties, tie_i) >= 0.5:
                leader = k
                for _ in range(K + 1):
                    _sample(theta, A, B, S, T, gaussian, nu)
                    c = argmax_random(theta, ties, tie_i)
                    if c != leader:
                        k = c
                        break
        r = draw(k, mu, gaussian, nu, table, cursor)
        T[k] += 1.0
        S[k] += r
        A[k] += r
        B[k] += 1.0 - r
    means = np.empty(K)
    for j in range(K):
        means[j] = S[j] / T[j] if T[j] > 0 else -np.inf
    return argmax_random(means, ties, tie_i), T


@njit(cache=True, parallel=True, error_model="numpy")
def batch(means, n, gaussian, nu, seeds):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    for i in prange(R):
        np.random.seed(seeds[i])
        rec[i], pulls[i] = run(means[i], n, gaussian, nu, EMPTY_TABLE, EMPTY_TIES)
    return rec, pulls


def reference(source, K: int, n: int, gaussian: bool = False, nu: float = 0.0,
              rng: np.random.Generator | None = None) -> tuple[int, np.ndarray]:
    """Plain numpy TTTS (posterior samples from `rng`, rewards and ties from `source`)."""
    rng = rng or np.random.default_rng()
    T, S = np.zeros(K), np.zeros(K)
    A, B = np.ones(K), np.ones(K)

    def sample():
        return S / T + nu / np.sqrt(T) * rng.standard_normal(K) if gaussian else rng.beta(A, B)
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
