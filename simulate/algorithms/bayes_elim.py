"""Bayesian elimination (Atsidakou, Katariya, Sanghavi & Kveton 2022, arXiv 2211.08572).

Sequential halving's schedule with posterior means: R = ceil(log2 K) stages; in stage r each of the
s_r surviving arms is pulled floor(n / (s_r R)) times; the ceil(s_r / 2) arms with the largest
posterior means survive; the last survivor is recommended. Arm k's prior is N(nu_k, s0_k^2) and
rewards are taken as N(mu_k, sigma^2): its posterior mean after T pulls summing to S is
(nu_k / s0_k^2 + S / sigma^2) / (1 / s0_k^2 + T / sigma^2).

Where each detail comes from (the stored copies of the paper hold only its abstract; see
`bounds.atsidakou2022`): the schedule is sequential halving's, per the abstract and the RUE paper's
account ("a Bayesian version of the SH algorithm"). Which observations a stage's posterior uses is
not in the stored material: `data='stage'` (default) uses that stage's only, as sequential halving
(Karnin et al. 2013) discards earlier stages and as an analysis by stages needs; `data='all'` uses
every observation so far. The prior is the user's (`prior_mean`, `prior_var`, spread over the arms by
`prior_ratio`, see `environments.prior_variances`), sigma^2 is `noise_var` or, when 0, nu^2 for
Gaussian rewards and 1/4 (the largest Bernoulli variance) for Bernoulli ones. Ties between posterior
means go at random (or to the lowest index, as the authors' SH code does).

With a homogeneous prior and `data='all'`, the surviving arms always have equal counts, so posterior
means order them as cumulative means do and the algorithm makes this package's `sh` decisions, pull
for pull; `tests/simulate/test_peers.py` shows it on shared rewards rather than assuming it. With the
default `data='stage'` it makes, pull for pull, the decisions of sequential halving that ranks the
survivors by each stage's sample means alone (a plain reference in the same test file, on shared
Gaussian rewards); it is not this package's `sh`, which ranks by cumulative means.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ..environments import prior_variances
from .sequential_halving import rounds
from .sources import TIE_RULES, collect, keep_top, live_source, n_arms, one_sd, phase_sum, replay_source
from .spec import Algorithm, Param, tie_tag

DATA = ("stage", "all")


@njit(cache=True, error_model="numpy")
def noise_variance(src, noise_var):
    if noise_var > 0:
        return noise_var
    sd = one_sd(src[2])             # one sigma^2 for every arm: a per-arm nu is refused (`ONE_NU`)
    return sd * sd if src[1] else 0.25


@njit(cache=True, error_model="numpy")
def _run(src, i, n, prior_mean, prior_var, noise_var, stage_only, lowest):
    K = n_arms(src)
    s2 = noise_variance(src, noise_var)
    T = np.zeros(K)
    S = np.zeros(K)
    alive = np.ones(K, np.bool_)
    key = np.empty(K)
    size = K
    L = int(math.ceil(math.log2(K)))
    for _ in range(L):
        if size == 1:
            break
        m = n // (size * L)
        for j in range(K):
            if alive[j]:
                x = phase_sum(src, i, j, m)
                S[j] = x if stage_only else S[j] + x
                T[j] += m
        for j in range(K):
            if alive[j]:
                t = float(m) if stage_only else T[j]
                key[j] = (prior_mean[j] / prior_var[j] + S[j] / s2) / (1.0 / prior_var[j] + t / s2)
            else:
                key[j] = -np.inf
        size = (size + 1) // 2
        alive = keep_top(key, size, src, i, lowest)
    for j in range(K):
        if alive[j]:
            return j, T
    return 0, T


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def _batch(means, n, gaussian, nu, reward_seeds, seeds, sums, prior_mean, prior_var, noise_var, stage_only, lowest):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    src = live_source(means, gaussian, nu, reward_seeds, seeds, sums)
    for i in prange(R):     # i as int64: prange's is uint64 in the parallel body, which compiles _run twice
        rec[i], T = _run(src, np.int64(i), n, prior_mean, prior_var, noise_var, stage_only, lowest)
        for k in range(K):  # by element: a slice assignment compiles numba's error-message formatting
            pulls[i, k] = T[k]
    return rec, pulls


def _arrays(K, prior_mean, prior_var):
    """Per-arm prior arrays from a number (every arm) or a sequence of K numbers."""
    out = []
    for name, v in (("prior_mean", prior_mean), ("prior_var", prior_var)):
        a = np.asarray(v, float)
        if a.ndim > 1 or (a.ndim == 1 and a.size != K):
            raise ValueError(f"{name} must be one number or one per arm (K = {K}), got shape {a.shape}")
        out.append(np.ascontiguousarray(np.broadcast_to(a, (K,))))
    return out


def batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, prior_mean=0.5, prior_var=0.1, noise_var=0.0,
          data="stage", tie_rule="random", sums=None):
    means = np.ascontiguousarray(means, float)
    pm, pv = _arrays(means.shape[1], prior_mean, prior_var)
    return _batch(means, n, gaussian, nu, np.asarray(reward_seeds, np.uint64), np.asarray(seeds, np.uint64),
                  collect(sums, np.shape(means)), pm, pv, float(noise_var), data == "stage", tie_rule == "lowest-index")


def run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0, prior_mean=0.5, prior_var=0.1,
        noise_var=0.0, data="stage", tie_rule="random"):
    mu = np.asarray(mu, float)
    if table is None:
        return tuple(x[0] for x in batch(mu[None], n, [seed], [reward_seed], gaussian, nu, prior_mean, prior_var,
                                         noise_var, data, tie_rule))
    pm, pv = _arrays(mu.size, prior_mean, prior_var)
    return _run(replay_source(mu.size, table, ties, gaussian, nu), 0, n, pm, pv, float(noise_var), data == "stage",
                tie_rule == "lowest-index")


def reference(source, K: int, n: int, gaussian=False, nu=0.0, prior_mean=0.5, prior_var=0.1, noise_var=0.0,
              data="stage", tie_rule="random") -> tuple[int, np.ndarray]:
    """Plain numpy Bayesian elimination, from the definition in the module docstring."""
    nu0, s0 = (np.broadcast_to(np.asarray(x, float), (K,)) for x in (prior_mean, prior_var))
    s2 = noise_var if noise_var > 0 else (nu * nu if gaussian else 0.25)
    lowest = tie_rule == "lowest-index"
    L = rounds(K)
    T, S = np.zeros(K), np.zeros(K)
    alive = list(range(K))
    for _ in range(L):
        if len(alive) == 1:
            break
        m = n // (len(alive) * L)
        for j in alive:
            x = source.phase(j, m)
            S[j] = x if data == "stage" else S[j] + x
            T[j] += m
        count = np.full(K, float(m)) if data == "stage" else T
        post = (nu0 / s0 + S / s2) / (1.0 / s0 + count / s2)
        key = np.full(K, -np.inf)
        key[alive] = post[alive]
        keep = []
        for _k in range((len(alive) + 1) // 2):
            a = source.argmax(key, lowest)
            keep.append(a)
            key[a] = -np.inf
        alive = sorted(keep)
    return alive[0], T


def prior_kernel_params(params: dict, means: np.ndarray, n: int) -> dict:
    """The user's prior for the kernel: prior_var spread over the arms by prior_ratio, as a tuple
    of K numbers (one per arm; a tuple, since the runner splits arrays by run), or one number when
    the prior is homogeneous."""
    K = np.atleast_2d(means).shape[1]
    out = {k: v for k, v in params.items() if k != "prior_ratio"}
    if params["prior_ratio"] != 1:
        out["prior_var"] = tuple(prior_variances(K, params["prior_var"], params["prior_ratio"]).tolist())
    return out


#: the prior a prior-dependent algorithm is told (shared with `prior_alloc`)
PRIOR_PARAMS = (
    Param("prior_mean", 0.5, "prior mean of every arm's mean (Section 6.1: 0.5)"),
    Param("prior_var", 0.1, "prior variance of the arms' means (Section 6.1's N(0.5, 0.1)); with prior_ratio > 1 "
          "the geometric mean of the per-arm variances", low=0.0, open_low=True),
    Param("prior_ratio", 1.0, "largest over smallest per-arm prior variance, spread geometrically over the arms "
          "(1: the homogeneous prior of Section 3)", low=1.0, high=1e6,
          tag=lambda r, p: f" [prior ratio {r:g}]" if r != 1 else ""),
    Param("noise_var", 0.0, "reward variance sigma^2 the posterior assumes; 0: nu^2 for Gaussian rewards, 1/4 for "
          "Bernoulli ones", low=0.0),
)
def one_nu(kw: dict) -> str:
    """Why the entry cannot run on a per-arm noise sd (`spec.Algorithm.one_nu`): with noise_var = 0 it
    reads the reward law's one sigma^2; told noise_var, it reads nothing of the environment's noise."""
    if kw.get("noise_var", 0.0) > 0:
        return ""
    return ("its posterior (and allocation) assumes one reward variance sigma^2 for every arm, which noise_var = 0 "
            "reads from the reward law; give noise_var (the sigma^2 it assumes) to run it on per-arm noise")


PRIOR_RULES = (
    Param("prior_mean", 0.5, "per-arm prior means"),
    Param("prior_var", 0.1, "per-arm prior variances", low=0.0, open_low=True),
    Param("noise_var", 0.0, "reward variance (0: from the reward law)", low=0.0),
)

ALGORITHM = Algorithm(
    name="bayes_elim", title="Bayesian elimination (Atsidakou et al. 2022): sequential halving on posterior means",
    batch=batch, run=run, reference=reference,
    min_budget=lambda K, p: K * rounds(K),
    budget_rule="the first stage gives every arm floor(n / (K ceil(log2 K))) >= 1 pulls",
    params=PRIOR_PARAMS + (
        Param("data", "stage", "observations a stage's posterior uses: that stage's (as sequential halving) or all so "
              "far", choices=DATA, tag=lambda d, p: " [all data]" if d == "all" else ""),
        Param("tie_rule", "random", "ties between posterior means: at random or to the lowest index",
              choices=TIE_RULES, tag=tie_tag)),
    kernel_params=prior_kernel_params,
    kernel_rules=PRIOR_RULES + (Param("data", "stage", "observations per posterior", choices=DATA),
                                Param("tie_rule", "random", "index ties", choices=TIE_RULES)),
    style=("tab:brown", "P", "-"), cost=0.05, collects_sums=True, phase_sums=True, one_nu=one_nu)
