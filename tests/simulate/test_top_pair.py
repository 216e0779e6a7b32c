"""simulate.algorithms.top_pair: the pilot's share vanishes while each arm's pilot grows, and once
the pair is found the rule is the two-armed problem with every pull of the budget but the others'
pilots: its failure rate is Phi(-d / (sigma sqrt(1/T_a + 1/T_b))) (exact binomial interval)."""

import math

import numpy as np
from scipy import stats

from simulate.algorithms import get
from simulate.algorithms.top_pair import pilot_pulls


def test_the_pilot_vanishes_in_share_and_grows_per_arm():
    K = 10
    shares = [K * pilot_pulls(n, K, 0.85, 1.0) / n for n in (10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6)]
    sizes = [pilot_pulls(n, K, 0.85, 1.0) for n in (10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6)]
    assert shares == sorted(shares, reverse=True) and shares[-1] < shares[0] / 2
    assert sizes == sorted(sizes) and sizes[-1] >= 1000
    assert pilot_pulls(12, 10, 0.5, 100.0) == 1          # at most floor(n / K)


def test_with_the_pair_found_it_is_the_two_armed_problem():
    K, n, d, R = 6, 3000, 0.05, 40_000
    mu = np.array([d, 0.0, -6.0, -6.0, -6.0, -6.0])            # the others far below: the pilot finds the pair
    seeds = np.arange(R, dtype=np.uint64)
    rec, T = get("top-pair").batch(np.tile(mu, (R, 1)), n, seeds, seeds + R, gaussian=True, nu=1.0)
    m = pilot_pulls(n, K, 0.85, 1.0)
    assert np.all(T[:, 2:] == m) and np.all(T.sum(axis=1) == n)
    Ta, Tb = T[0, :2]
    assert abs(Ta - Tb) <= 1
    p = stats.norm.cdf(-d / math.sqrt(1 / Ta + 1 / Tb))
    ci = stats.binomtest(int((rec != 0).sum()), R).proportion_ci(1 - 1e-9, method="exact")
    assert ci.low <= p <= ci.high, (p, ci)
