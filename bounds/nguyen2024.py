"""Nguyen, Aouali, Gyorgy & Vernade (2024), "Prior-dependent allocations for Bayesian fixed-budget
best-arm identification in structured bandits" (arXiv 2402.05878): the multi-armed case.

Their algorithm (PI-BAI) fixes the allocation before the first pull, from the prior alone, and
recommends the arm with the largest posterior mean. Their bound on its probability of error (PoE)
sums, over ordered pairs of arms, the probability that the posterior means order the pair wrongly.
Under the Gaussian model (arm k's mean from N(nu_k, s0_k^2), rewards N(mu_k, sigma^2), T_k pulls)
that pair probability has a closed form: with D = mu_j - mu_i and M = m_j - m_i (posterior means),
M ~ N(nu_j - nu_i, v), v = (s0_i^2 - tau_i^2) + (s0_j^2 - tau_j^2), and D - M is independent of M
with variance tau_i^2 + tau_j^2 (tau_k^2 = (1/s0_k^2 + T_k/sigma^2)^-1: the posterior variance of
a Gaussian prior with a known mean, arm by arm, as in `estimation.exact_gaussian_posterior` with mu0
given; not the paper's eq. `MSE`, which pools the arms to estimate mu0). So

    Pr(mu_j > mu_i, m_i >= m_j) = Phi2(-delta / sqrt(v), delta / sqrt(v + w); -sqrt(v / (v + w))),

delta = nu_j - nu_i, w = tau_i^2 + tau_j^2 (label `pair_error`), and the PoE of any fixed
allocation is at most the sum over i != j (label `pairwise_bound`): a failure recommends some i
with m_i >= m_j for the best arm j.

Where each detail comes from: the stored copies of the paper hold its abstract and introduction
only. That the allocation is fixed from the prior and that the recommendation is the largest
posterior mean is in them; that the "optimized" allocation minimises the PoE bound is from a
summary of the paper (sciencestack's abstract page: "Optimized, G-optimal, and warm-up TS"
allocations). The bound here is the pairwise sum evaluated exactly, the quantity their argument
bounds from above; their closed form with its constants could not be read and is not claimed.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special

from ._core import UndefinedError


def posterior_var(prior_var, pulls, noise_var):
    """tau_k^2 = (1/s0_k^2 + T_k/sigma^2)^-1, the Gaussian posterior variance after T_k pulls."""
    return 1.0 / (1.0 / np.asarray(prior_var, float) + np.asarray(pulls, float) / noise_var)


def phi2(h, k, rho):
    """Pr(X <= h, Y <= k) for standard normals with correlation rho (|rho| < 1), by Owen's T
    (vectorised). h = k = 0 uses 1/4 + arcsin(rho)/(2 pi)."""
    h, k, rho = np.broadcast_arrays(np.asarray(h, float), np.asarray(k, float), np.asarray(rho, float))
    out = np.empty(h.shape)
    s = np.sqrt(1.0 - rho ** 2)
    zero = (h == 0) & (k == 0)
    out[zero] = 0.25 + np.arcsin(rho[zero]) / (2 * math.pi)
    rest = ~zero
    hh, kk, rr, ss = h[rest], k[rest], rho[rest], s[rest]
    with np.errstate(divide="ignore", invalid="ignore"):
        ah = np.where(hh != 0, (kk - rr * hh) / (hh * ss), 0.0)
        ak = np.where(kk != 0, (hh - rr * kk) / (kk * ss), 0.0)
    # T(0, +-inf) = +-1/4: the limit of the terms whose first argument is zero
    th = np.where(hh != 0, special.owens_t(hh, ah), 0.25 * np.sign(kk))
    tk = np.where(kk != 0, special.owens_t(kk, ak), 0.25 * np.sign(hh))
    corr = np.where((hh * kk < 0) | ((hh * kk == 0) & (hh + kk < 0)), 0.5, 0.0)
    out[rest] = 0.5 * (special.ndtr(hh) + special.ndtr(kk)) - th - tk - corr
    return np.clip(out, 0.0, 1.0)


def pair_error(delta, prior_var_i, prior_var_j, post_var_i, post_var_j):
    """Pr(mu_j > mu_i and m_i >= m_j) for one ordered pair (label `pair_error`): delta = nu_j - nu_i
    (prior means), the prior and posterior variances of the two arms. Vectorised."""
    v = (np.asarray(prior_var_i) - post_var_i) + (np.asarray(prior_var_j) - post_var_j)
    w = np.asarray(post_var_i) + post_var_j
    delta = np.asarray(delta, float)
    v = np.maximum(v, 1e-300)
    return phi2(-delta / np.sqrt(v), delta / np.sqrt(v + w), -np.sqrt(v / (v + w)))


def pairwise_bound(prior_mean, prior_var, pulls, noise_var) -> float:
    """The PoE bound of a fixed allocation with posterior-mean recommendation (label
    `pairwise_bound`): the sum over ordered pairs i != j of `pair_error`. Arrays of length K."""
    nu = np.asarray(prior_mean, float)
    s0 = np.asarray(prior_var, float)
    if nu.shape != s0.shape or nu.ndim != 1 or nu.size < 2:
        raise ValueError(f"prior_mean and prior_var must be arrays of the same length K >= 2, got {nu.shape}, "
                         f"{s0.shape}")
    if not (np.all(s0 > 0) and np.all(np.isfinite(s0))) or not noise_var > 0:
        raise ValueError("prior_var must be finite and > 0 for every arm, and noise_var > 0")
    tau = posterior_var(s0, pulls, noise_var)
    i, j = np.where(~np.eye(nu.size, dtype=bool))
    return float(np.sum(pair_error(nu[j] - nu[i], s0[i], s0[j], tau[i], tau[j])))


def optimal_allocation(prior_mean, prior_var, n: int, noise_var: float, grouped: bool = True) -> np.ndarray:
    """The allocation weights w (summing to 1) that minimise `pairwise_bound` with T = n w
    (label `optimized_allocation`). With `grouped`, arms with the same prior share one weight (the
    bound is symmetric in them), so a homogeneous prior gives exactly w = 1/K; with `grouped=False`
    every arm's weight is free and the optimiser runs from four seeded starts, which is how
    `tests/simulate/test_peers.py` shows by computation that the homogeneous optimum is 1/K."""
    nu = np.asarray(prior_mean, float)
    s0 = np.asarray(prior_var, float)
    if not grouped:
        return _free_allocation(nu, s0, n, noise_var)
    keys, group = np.unique(np.stack([nu, s0], 1), axis=0, return_inverse=True)
    group = group.ravel()
    counts = np.bincount(group).astype(float)
    G = keys.shape[0]
    if G == 1:
        return np.full(nu.size, 1.0 / nu.size)
    if not n >= 1:
        raise UndefinedError("an allocation needs a budget n >= 1", {"n": n})

    def weights(x):
        z = np.concatenate([[0.0], x])
        e = np.exp(z - z.max())
        return e / np.sum(counts * e)          # per-arm weight of each group

    def objective(x):
        return pairwise_bound(nu, s0, n * weights(x)[group], noise_var)

    res = optimize.minimize(objective, np.zeros(G - 1), method="L-BFGS-B", bounds=[(-30, 30)] * (G - 1))
    w = weights(res.x)[group]
    return w / w.sum()


def _free_allocation(nu: np.ndarray, s0: np.ndarray, n: int, noise_var: float) -> np.ndarray:
    """`optimal_allocation` with every arm's weight free (a softmax of K - 1 free numbers), the best of
    four seeded starts."""
    if not n >= 1:
        raise UndefinedError("an allocation needs a budget n >= 1", {"n": n})
    K = nu.size

    def weights(x):
        z = np.concatenate([[0.0], x])
        e = np.exp(z - z.max())
        return e / e.sum()

    rng = np.random.default_rng(K)
    best = None
    for _ in range(4):
        res = optimize.minimize(lambda x: pairwise_bound(nu, s0, n * weights(x), noise_var), rng.normal(0, 1, K - 1),
                                method="L-BFGS-B", bounds=[(-30, 30)] * (K - 1))
        if best is None or res.fun < best.fun:
            best = res
    return weights(best.x)

