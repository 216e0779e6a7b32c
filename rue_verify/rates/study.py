"""What the rate claims compare against: the exponent the paper states, the peers' own bounds, and
the names the ledger and the figures share. The study itself is data (`grid`), run by a sweep into a
store (`rue_verify.rates.run`, `rue-verify rates`) and read back as curves (`results`)."""

from __future__ import annotations

import numpy as np

from .grid import BASE, PEER_NAMES, Setting

#: O~(sqrt(K/n)): the exponent in n the paper states for both quantities (abstract, Section 5), and in K
CLAIMED_EXPONENT = -0.5
CLAIMED_EXPONENT_K = 0.5


#: the peers, with the name of the bound `peer_bounds` gives for each: this project's derivations,
#: named for what they are (the papers' own statements are `PUBLISHED_BOUNDS`)
PEER_BOUNDS = {"bayes_elim": "derived here by Atsidakou et al.'s elimination argument "
                             "(bounds.atsidakou2022.elimination_bound)",
               "prior_alloc": "derived here as the exact pairwise sum that Nguyen et al.'s argument bounds "
                              "(bounds.nguyen2024.pairwise_bound)"}
#: the peers' own published bounds, where this project has them (`published_bounds`)
PUBLISHED_BOUNDS = {"prior_alloc": "published by Nguyen et al., as the authors' code computes it "
                                   "(bounds.nguyen2024.published_bound)"}


#: RUE and the peers: the algorithms whose rates the study measures on every setting
ALGORITHMS = ("rue",) + PEER_NAMES


def peer_bounds(n: int, setting: Setting = BASE) -> dict[str, float]:
    """The peers' upper bounds on their own failure probability at budget n (their model, told the
    prior): Bayesian elimination's (`bounds.atsidakou2022`) and the prior-informed allocation's
    pairwise bound at its floor counts (`bounds.nguyen2024`; fewer pulls than it makes, so still a
    bound). Bayesian elimination's argument is for a common prior: on a setting with per-arm priors
    only the pairwise bound is given."""
    from bounds import atsidakou2022, nguyen2024
    from simulate.algorithms.prior_alloc import counts
    K, s0, s = setting.K, setting.sigma0_sq, setting.sigma_sq
    zeros, pv = np.zeros(K), np.full(K, 1.0) * setting.prior_vars()
    pulls = counts(n, nguyen2024.optimal_allocation(zeros, pv, n, s))
    out = {"prior_alloc": nguyen2024.pairwise_bound(zeros, pv, pulls, s)}
    return out if setting.prior_ratio != 1 else {"bayes_elim": atsidakou2022.elimination_bound(K, n, s0, s), **out}


def published_bounds(n: int, setting: Setting = BASE) -> dict[str, float]:
    """The peers' own published bounds on their failure probability at budget n (`PUBLISHED_BOUNDS`):
    Nguyen et al.'s at the allocation the peer uses (their formula takes the weights and n)."""
    from bounds import nguyen2024
    K, s = setting.K, setting.sigma_sq
    zeros, pv = np.zeros(K), np.full(K, 1.0) * setting.prior_vars()
    w = nguyen2024.optimal_allocation(zeros, pv, n, s)
    return {"prior_alloc": nguyen2024.published_bound(zeros, pv, w, n, s)}

