"""rue_verify.rates.split: the two parts of the regret add up to the study's sr_n, and the oracle,
which sees every arm n times, loses almost nothing outside the near ties."""

import numpy as np

from rue_verify.rates import grid
from rue_verify.rates.efficiency import constants
from rue_verify.rates.split import regret_split
from rue_verify.rates.truth import bayes_truth, oracle_truth


def test_the_parts_add_up_to_the_regret_and_the_oracle_loses_only_near_ties():
    s = grid.Setting("t", 6, tilt=True)
    n, runs = 3000, 400
    rue = regret_split(s, "rue", n, runs, 5)
    t = bayes_truth("rue", 6, n, 1.0, 1.0, runs, 5, grid.algorithm_params("rue", s), tilt=True)
    total = t.regret.estimate * n / constants(s).regret
    assert np.isclose(rue.near.estimate + rue.rest.estimate, total, rtol=1e-12)
    orc = regret_split(s, grid.ORACLE, n, runs, 5)
    o = oracle_truth(6, n, 1.0, 1.0, runs, 5, tilt=True)
    assert np.isclose(orc.near.estimate + orc.rest.estimate, o.regret.estimate * n / constants(s).regret, rtol=1e-12)
    assert orc.rest.high < 0.02 * orc.near.low and 0 < orc.near_share < 1
