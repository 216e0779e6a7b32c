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
allocations). `pairwise_bound` is the pairwise sum evaluated exactly, the quantity their argument
bounds from above: this project's derivation, not their statement. Their own bound, with its
constants, is `published_bound`, written from the authors' public code (the notebook `MAB.ipynb`,
function `factorized_upper_bound`, in nguyenicolas/Prior_Dependent_Allocations_BAI), since the
paper's text is not at hand; a test shows that each of its pair terms is at least the exact pair
probability. The authors' code also mixes the optimised allocation with a prior-weighted one and
draws the pulls from a multinomial; `simulate.algorithms.prior_alloc` does not (yet) offer that.
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



def published_bound(prior_mean, prior_var, weights, n: int, noise_var: float) -> float:
    """The authors' own bound on PI-BAI's probability of error, as their public code computes it
    (label `published_bound`), beside this module's exact pairwise sum (`pairwise_bound`).

    Source: the function `factorized_upper_bound` of the notebook `MAB.ipynb` in the authors'
    repository nguyenicolas/Prior_Dependent_Allocations_BAI (the stored copies of the paper hold its
    abstract and introduction only, so the paper's own statement of it was not read). With prior
    means nu_k, prior variances v0_k, allocation weights p_k and noise variance v, and
    c_k = v / n + p_k v0_k, it sums over ordered pairs i != j

        exp(-(nu_i - nu_j)^2 / (2 (v0_i + v0_j))) / sqrt(1 + n phi_ij),
        phi_ij = (v0_i^2 p_i c_j + v0_j^2 p_j c_i) / (v (v0_i c_j + v0_j c_i)).

    It differs from `pairwise_bound` (each pair's term is a bound on the exact pair probability
    there), and `tests/simulate/test_peers.py` shows by how much.

    Args:
        prior_mean: the arms' prior means, `(K,)`.
        prior_var: their prior variances, `(K,)`, > 0.
        weights: the allocation, `(K,)`, >= 0, summing to 1.
        n: the budget, >= 1.
        noise_var: the reward-noise variance, > 0.

    Returns:
        The bound (a float; it can exceed 1).
    """
    nu = np.asarray(prior_mean, float)
    v0 = np.asarray(prior_var, float)
    p = np.asarray(weights, float)
    if nu.shape != v0.shape or nu.shape != p.shape or nu.ndim != 1 or nu.size < 2:
        raise ValueError(f"prior_mean, prior_var and weights must be (K,) arrays with K >= 2, got shapes "
                         f"{nu.shape}, {v0.shape}, {p.shape}")
    if not (np.all(v0 > 0) and noise_var > 0 and n >= 1 and np.all(p >= 0)):
        raise ValueError("prior_var and noise_var must be > 0, n >= 1 and the weights >= 0")
    terms = published_terms(nu, v0, p, n, noise_var)
    return float(terms.sum() - np.trace(terms))


def published_terms(nu: np.ndarray, v0: np.ndarray, p: np.ndarray, n: int, noise_var: float) -> np.ndarray:
    """The `(K, K)` pair terms of `published_bound` (symmetric; its diagonal is not part of the bound)."""
    c = noise_var / n + p * v0
    num = np.outer(v0 ** 2 * p, c)
    den = np.outer(v0, c) * noise_var
    phi = (num + num.T) / (den + den.T)
    sep = np.exp(-(nu[None, :] - nu[:, None]) ** 2 / (2 * (v0[None, :] + v0[:, None])))
    return sep / np.sqrt(1 + n * phi)


def authors_allocation(prior_mean, prior_var, n: int, noise_var: float, alpha: float = 0.5, starts: int = 32,
                       seed: int = 0) -> np.ndarray:
    """The allocation weights the authors' code gives PI-BAI-Opt (label `authors_allocation`).

    Source: `compute_w_opt_one` and `compute_w_opt` of `MAB.ipynb` in nguyenicolas/Prior_Dependent_
    Allocations_BAI. From each random start on the simplex, minimise `published_bound` (SLSQP, every
    weight in [0, 1], the weights' absolute values summing to 1); mix the minimiser with the
    prior-weighted vector w~ = (nu v0 / sum v0) / ||nu v0 / sum v0||_2 as alpha w_opt + (1 - alpha) w~
    and renormalise to sum 1; keep the mix whose bound is smallest. The notebook's experiment calls it
    with alpha = 0.5 and 500 starts; here the starts are `starts` seeded draws (`seed`), so the result is
    reproducible. The pulls are then drawn per run from a multinomial with these weights
    (`simulate.algorithms.prior_alloc`, allocation='authors').

    Raises:
        UndefinedError: every prior mean is 0 (w~ is 0/0: the authors' formula divides by a zero norm),
            or the mix has a negative weight (negative prior means), where no multinomial exists.
    """
    nu = np.asarray(prior_mean, float)
    v0 = np.asarray(prior_var, float)
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha!r}")
    tilde = nu * v0 / v0.sum()
    norm = float(np.linalg.norm(tilde))
    if alpha < 1 and norm == 0.0:
        raise UndefinedError("the authors' prior-weighted allocation (mu_0 v_0 / sum v_0) / ||.||_2 is 0/0 when "
                             "every prior mean is 0", {"n": n})
    w_tilde = tilde / norm if norm > 0 else np.zeros_like(tilde)
    K = nu.size
    rng = np.random.default_rng(seed)
    best, best_val = None, math.inf
    for _ in range(starts):
        p0 = rng.random(K)
        p0 /= p0.sum()
        res = optimize.minimize(lambda p: published_bound(nu, v0, np.clip(p, 0.0, None), n, noise_var), p0,
                                method="SLSQP", bounds=[(0.0, 1.0)] * K,
                                constraints=[{"type": "eq", "fun": lambda p: np.sum(np.abs(p)) - 1.0}])
        mix = alpha * np.clip(res.x, 0.0, None) + (1.0 - alpha) * w_tilde
        w = mix / mix.sum()
        if np.any(w < 0):
            continue
        val = published_bound(nu, v0, w, n, noise_var)
        if val < best_val:
            best, best_val = w, val
    if best is None:
        raise UndefinedError("every mix of the optimised and the prior-weighted allocation has a negative weight "
                             "(negative prior means): no multinomial draw exists", {"n": n})
    return best / best.sum()
