"""The rate study the ledger and the figures share: under the model of Section 3 at one setting, the
truth over budgets spanning three decades (four with `thorough`), every budget and every algorithm
on the same runs (common random numbers across n and across algorithms).

Algorithms (`ALGORITHMS`): RUE told the variances (Theorems 5.1 and 5.2 run it so) and the two
prior-dependent peers the paper cites told the prior (`algorithm_params`: a prior-free registry entry
runs too, told nothing); `oracle_curves`
gives the full-information oracle, a lower bound on every algorithm (`bounds.lower`)."""

from __future__ import annotations

import functools

import numpy as np

from .truth import bayes_truth, oracle_truth

#: RUE told the variances; K arms, sigma0^2, sigma^2 (rewards N(mu, sigma^2))
SETTING = {"K": 10, "sigma0_sq": 1.0, "sigma_sq": 1.0, "variances": "known"}
#: O~(sqrt(K/n)): the exponent in n the paper states for both quantities (abstract, Section 5)
CLAIMED_EXPONENT = -0.5


#: the peers, with the name of the bound `peer_bounds` gives for each
PEER_NAMES = ("bayes_elim", "prior_alloc")
PEER_BOUNDS = {"bayes_elim": "Atsidakou et al.'s elimination argument (bounds.atsidakou2022.elimination_bound)",
               "prior_alloc": "Nguyen et al.'s pairwise bound (bounds.nguyen2024.pairwise_bound)"}


def algorithm_params(name: str, setting: dict = SETTING) -> dict:
    """What each algorithm of the study is told: RUE the two variances, the peers the prior (mean 0,
    variance sigma0^2) and the reward variance, the prior-free baselines nothing."""
    if name == "rue":
        return {"variances": setting["variances"], "sigma0_sq": setting["sigma0_sq"], "sigma_sq": setting["sigma_sq"]}
    if name in PEER_NAMES:
        return {"prior_mean": 0.0, "prior_var": setting["sigma0_sq"], "noise_var": setting["sigma_sq"]}
    return {}


#: the algorithms of the study, RUE first: RUE and the peers (the prior-free baselines are compared on
#: Section 6's settings; under this homogeneous prior prior_alloc pulls as uniform allocation does)
ALGORITHMS = ("rue",) + PEER_NAMES


def budgets(thorough: bool = False) -> list[int]:
    top = 10 ** 6 if thorough else 10 ** 5
    return sorted({int(round(x)) for x in np.geomspace(100, top, 13 if thorough else 10)})


@functools.lru_cache(maxsize=16)
def curves(thorough: bool, runs: int, seed: int, algorithm: str = "rue") -> tuple:
    """The truth (`truth.Truth`) of `algorithm` at every budget."""
    s = SETTING
    return tuple(bayes_truth(algorithm, s["K"], n, s["sigma0_sq"], s["sigma_sq"], runs, seed,
                             algorithm_params(algorithm))
                 for n in budgets(thorough))


@functools.lru_cache(maxsize=4)
def oracle_curves(thorough: bool, runs: int, seed: int) -> tuple:
    """The full-information oracle's truth at every budget (same instances)."""
    s = SETTING
    return tuple(oracle_truth(s["K"], n, s["sigma0_sq"], s["sigma_sq"], runs, seed) for n in budgets(thorough))


def peer_bounds(n: int, setting: dict = SETTING) -> dict[str, float]:
    """The peers' upper bounds on their own failure probability at budget n (their model, told the
    prior): Bayesian elimination's (`bounds.atsidakou2022`) and the prior-informed allocation's
    pairwise bound at its floor counts (`bounds.nguyen2024`; fewer pulls than it makes, so still a
    bound)."""
    from bounds import atsidakou2022, nguyen2024
    from simulate.algorithms.prior_alloc import counts
    K, s0, s = setting["K"], setting["sigma0_sq"], setting["sigma_sq"]
    zeros, pv = np.zeros(K), np.full(K, s0)
    pulls = counts(n, nguyen2024.optimal_allocation(zeros, pv, n, s))
    return {"bayes_elim": atsidakou2022.elimination_bound(K, n, s0, s),
            "prior_alloc": nguyen2024.pairwise_bound(zeros, pv, pulls, s)}
