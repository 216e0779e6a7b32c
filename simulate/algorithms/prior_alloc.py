"""Prior-informed fixed allocation, multi-armed (PI-BAI; Nguyen, Aouali, Gyorgy & Vernade 2024,
arXiv 2402.05878).

Before the first pull the allocation w is fixed from the prior alone: the weights that minimise the
pairwise bound on the probability of error (`bounds.nguyen2024.optimal_allocation`, their
"optimized" allocation). Arm k gets floor(n w_k) pulls and the remaining pulls go to distinct arms
chosen at random (as `uniform` gives its n mod K extras); the arm with the largest posterior mean is
recommended (ties at random). Prior, noise variance and their defaults are `bayes_elim`'s.

Where each detail comes from: fixed allocation from the prior and posterior-mean recommendation are in
the stored abstract and introduction; the "optimized" allocation by minimising their bound is from a
summary of the paper; the bound minimised here is the exact pairwise sum their argument bounds
(`bounds.nguyen2024.pairwise_bound`), not their published bound (`bounds.nguyen2024.published_bound`,
from the authors' code). The rounding of n w to whole pulls is this package's. The authors' own
allocation is the registry entry `prior_alloc_authors` (`AUTHORS` below): their code (MAB.ipynb,
`compute_w_opt` and `PI_BAI_Opt`) minimises their published bound from random starts, mixes the result
with prior-weighted weights (share alpha, 0.5 in their experiment) and draws each run's pulls from a
multinomial; with every prior mean 0, as in the rate study's model, their prior-weighted vector is 0/0
and it is undefined there. It is an entry of its own rather than a `Reading` of the reproduction: the
paper does not run PI-BAI, so there is no reading of the paper to settle, and a new parameter of
`prior_alloc` would change the keys of the shipped Section 6 study.

With a homogeneous prior the weights are exactly 1/K (the optimiser with every weight free lands on
1/K: `nguyen2024.optimal_allocation(grouped=False)`, tested), so the pulls are `uniform`'s, pull for pull,
and so are the recommendations when K divides n (equal counts: posterior means order the arms as
sample means do); `tests/simulate/test_peers.py` shows both on shared rewards.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit, prange

from .bayes_elim import PRIOR_PARAMS, PRIOR_RULES, noise_variance, one_nu, prior_kernel_params
from .sources import add_extras, argmax_random, collect, live_source, n_arms, phase_sum, replay_source, uniform
from .spec import Algorithm, Param


def counts(n: int, weights: np.ndarray) -> np.ndarray:
    """floor(n w_k) per arm (a hair of tolerance so that n * (1/K) with K | n is n / K)."""
    return np.floor(n * np.asarray(weights, float) + 1e-9)


@njit(cache=True, error_model="numpy")
def multinomial(T, n, weights, src, i):
    """n draws from the categorical law `weights` into the counts T (in place), one uniform per draw:
    the draw is the first arm whose cumulative weight exceeds it (the authors' rounding: their code
    draws np.random.multinomial(n, w) once per run)."""
    K = weights.shape[0]
    total = weights.sum()
    for _ in range(n):
        u = uniform(src, i) * total
        acc = 0.0
        pick = K - 1
        for j in range(K):
            acc += weights[j]
            if u < acc:
                pick = j
                break
        T[pick] += 1.0


@njit(cache=True, error_model="numpy")
def _run(src, i, n, base, prior_mean, prior_var, noise_var, draw=None):
    K = n_arms(src)
    s2 = noise_variance(src, noise_var)
    if draw is None:
        T = base.copy()
        add_extras(T, n - int(base.sum()), src, i)     # extras to distinct random arms, as `uniform` does
    else:
        T = np.zeros(K)
        multinomial(T, n, draw, src, i)
    post = np.empty(K)
    for j in range(K):
        S = phase_sum(src, i, j, int(T[j]))
        post[j] = (prior_mean[j] / prior_var[j] + S / s2) / (1.0 / prior_var[j] + T[j] / s2)
    return argmax_random(post, src, i), T


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums, base, prior_mean, prior_var, noise_var, draw=None):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, sums)
    for i in prange(R):     # i as int64: prange's is uint64 in the parallel body, which compiles _run twice
        rec[i], T = _run(src, np.int64(i), n, base, prior_mean, prior_var, noise_var, draw)
        for k in range(K):  # by element: a slice assignment compiles numba's error-message formatting
            pulls[i, k] = T[k]
    return rec, pulls


@functools.lru_cache(maxsize=256)
def _weights(prior_mean: tuple, prior_var: tuple, n: int, s2: float, scheme: str, alpha: float) -> tuple:
    from bounds import nguyen2024  # scipy.optimize: only when an allocation is made
    if scheme == "authors":
        return tuple(nguyen2024.authors_allocation(np.array(prior_mean), np.array(prior_var), n, s2, alpha))
    return tuple(nguyen2024.optimal_allocation(np.array(prior_mean), np.array(prior_var), n, s2))


def allocation(K, n, prior_mean, prior_var, noise_var, gaussian, nu, scheme="floor", alpha=0.5):
    """(floor counts, per-arm prior means, per-arm prior variances, the weights a run draws its pulls
    from or None) of runs with K arms and budget n: scheme 'floor' rounds n w down and spreads the
    rest (this package's), 'authors' draws every run's pulls from a multinomial with the authors'
    mixed weights (`bounds.nguyen2024.authors_allocation`, mixing share alpha)."""
    pm = np.broadcast_to(np.asarray(prior_mean, float), (K,))
    pv = np.broadcast_to(np.asarray(prior_var, float), (K,))
    s2 = noise_var if noise_var > 0 else (nu * nu if gaussian else 0.25)
    w = np.array(_weights(tuple(pm), tuple(pv), int(n), float(s2), scheme, float(alpha)))
    return counts(n, w), np.ascontiguousarray(pm), np.ascontiguousarray(pv), w if scheme == "authors" else None


def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, prior_mean=0.5, prior_var=0.1, noise_var=0.0,
          scheme="floor", alpha=0.5, sums=None):
    means = np.ascontiguousarray(means, float)
    base, pm, pv, draw = allocation(means.shape[1], n, prior_mean, prior_var, noise_var, gaussian, nu, scheme, alpha)
    return _batch(means, n, gaussian, nu, np.asarray(reward_seeds, np.uint64), np.asarray(seeds, np.uint64),
                  collect(sums, np.shape(means)), base, pm, pv, float(noise_var), draw)



def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0, prior_mean=0.5, prior_var=0.1,
        noise_var=0.0, scheme="floor", alpha=0.5):
    mu = np.asarray(mu, float)
    if table is None:
        return tuple(x[0] for x in batch(mu[None], n, [seed], [reward_seed], gaussian, nu, prior_mean, prior_var,
                                         noise_var, scheme, alpha))
    base, pm, pv, draw = allocation(mu.size, n, prior_mean, prior_var, noise_var, gaussian, nu, scheme, alpha)
    return _run(replay_source(mu.size, table, ties, gaussian, nu), 0, n, base, pm, pv, float(noise_var), draw)


def reference(source, K: int, n: int, gaussian=False, nu=0.0, prior_mean=0.5, prior_var=0.1,
              noise_var=0.0, scheme="floor", alpha=0.5) -> tuple[int, np.ndarray]:
    """Plain numpy PI-BAI: the allocation from the bound's minimiser (or the authors' mixed weights,
    drawn per run from a multinomial), then posterior means."""
    from bounds.nguyen2024 import authors_allocation, optimal_allocation
    s2 = noise_var if noise_var > 0 else (nu * nu if gaussian else 0.25)
    pm = np.broadcast_to(np.asarray(prior_mean, float), (K,))
    pv = np.broadcast_to(np.asarray(prior_var, float), (K,))
    if scheme == "authors":
        w = authors_allocation(pm, pv, n, s2, alpha)
        cum = np.cumsum(w)
        T = np.zeros(K)
        for _ in range(n):
            u = source.uniform() * cum[-1]
            T[min(int(np.searchsorted(cum, u, side="right")), K - 1)] += 1
    else:
        T = counts(n, optimal_allocation(pm, pv, n, s2))
        free = list(range(K))
        for e in range(n - int(T.sum())):
            T[free.pop(min(int(source.uniform() * (K - e)), K - e - 1))] += 1
    S = np.array([source.phase(j, int(T[j])) for j in range(K)])
    return source.argmax((pm / pv + S / s2) / (1.0 / pv + T / s2)), T


ALGORITHM = Algorithm(
    name="prior_alloc", title="Prior-informed fixed allocation, multi-armed PI-BAI (Nguyen et al. 2024)",
    batch=batch, run=run, reference=reference,
    min_budget=lambda K, p: K, budget_rule="n >= K (an arm may get no pull; its posterior is then its prior)",
    params=PRIOR_PARAMS, kernel_params=prior_kernel_params, kernel_rules=PRIOR_RULES,
    style=("tab:olive", "*", "-"), cost=0.05, collects_sums=True, phase_sums=True, one_nu=one_nu)


# ---------------------------------------------------------------- the authors' allocation
#: the authors' mixing share of their optimised weights (their experiment calls compute_w_opt with 0.5)
MIX = Param("mix_alpha", 0.5, "the share alpha of the authors' optimised weights in their mix with the "
            "prior-weighted ones (MAB.ipynb's experiment: 0.5)", low=0.0, high=1.0,
            tag=lambda v, p: f" [alpha {v:g}]" if v != 0.5 else "")


def authors_batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, prior_mean=0.5, prior_var=0.1,
                  noise_var=0.0, mix_alpha=0.5, sums=None):
    return batch(means, n, seeds, reward_seeds, gaussian, nu, prior_mean, prior_var, noise_var, "authors", mix_alpha,
                 sums)


def authors_run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0, prior_mean=0.5,
                prior_var=0.1, noise_var=0.0, mix_alpha=0.5):
    return run(mu, n, gaussian, nu, table, ties, seed, reward_seed, prior_mean, prior_var, noise_var, "authors",
               mix_alpha)


def authors_reference(source, K: int, n: int, gaussian=False, nu=0.0, prior_mean=0.5, prior_var=0.1, noise_var=0.0,
                      mix_alpha=0.5):
    return reference(source, K, n, gaussian, nu, prior_mean, prior_var, noise_var, "authors", mix_alpha)


#: PI-BAI-Opt as the authors' code runs it: a registry entry of its own, so that the reproduction's grid,
#: whose task keys hold every parameter of `prior_alloc`, and its shipped results stay as they are
AUTHORS = Algorithm(
    name="prior_alloc_authors",
    title="Prior-informed allocation as the authors' code runs it (PI_BAI_Opt of Nguyen et al.'s MAB.ipynb): "
          "their bound's minimiser mixed with prior-weighted weights, pulls drawn from a multinomial",
    batch=authors_batch, run=authors_run, reference=authors_reference,
    min_budget=lambda K, p: K, budget_rule="n >= K, as prior_alloc (an arm may draw no pull: its posterior is its "
                                           "prior)",
    params=PRIOR_PARAMS + (MIX,), kernel_params=prior_kernel_params, kernel_rules=PRIOR_RULES + (MIX,),
    style=("tab:olive", "x", "--"), cost=0.05, collects_sums=True, phase_sums=True, pulls_every_arm=False,
    one_nu=one_nu)
