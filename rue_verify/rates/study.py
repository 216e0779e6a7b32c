"""The rate study the ledger and the figures share: RUE with known variances under the model of
Section 3 at one setting, over budgets spanning three decades (four with `thorough`), every budget
on the same runs (common random numbers across n)."""

from __future__ import annotations

import functools

import numpy as np

from .truth import bayes_truth

#: RUE told the variances; K arms, sigma0^2, sigma^2 (rewards N(mu, sigma^2))
SETTING = {"K": 10, "sigma0_sq": 1.0, "sigma_sq": 1.0, "variances": "known"}
#: O~(sqrt(K/n)): the exponent in n the paper states for both quantities (abstract, Section 5)
CLAIMED_EXPONENT = -0.5


def budgets(thorough: bool = False) -> list[int]:
    top = 10 ** 6 if thorough else 10 ** 5
    return sorted({int(round(x)) for x in np.geomspace(100, top, 13 if thorough else 10)})


@functools.lru_cache(maxsize=4)
def curves(thorough: bool, runs: int, seed: int) -> tuple:
    """The truth (`truth.Truth`) at every budget."""
    s = SETTING
    params = {"variances": s["variances"], "sigma0_sq": s["sigma0_sq"], "sigma_sq": s["sigma_sq"]}
    return tuple(bayes_truth("rue", s["K"], n, s["sigma0_sq"], s["sigma_sq"], runs, seed, params)
                 for n in budgets(thorough))
