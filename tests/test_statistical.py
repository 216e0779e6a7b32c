"""Monte Carlo against exact quantities and bounds: fixed seeds, exact binomial intervals at level
1 - 1e-6, so these never flake (a failure means a real discrepancy)."""

import numpy as np
import pytest

import bounds
from bounds import section2 as s2
from simulate.reference import ucbe_reference
from simulate.stats import binomial_interval

LEVEL = 1 - 1e-6
pytestmark = pytest.mark.statistical


@pytest.mark.parametrize("K,alpha,sigma0_sq", [(2, 0.3, 1.0), (10, 0.2, 1.0), (50, 0.05, 4.0), (200, 0.1, 0.25)])
def test_monte_carlo_gap_probability_matches_exact(K, alpha, sigma0_sq):
    rng = np.random.default_rng([7, K])
    R = 200_000
    mu = np.sort(rng.normal(0, np.sqrt(sigma0_sq), (R, K)), axis=1)
    hits = int(np.sum(mu[:, -1] - mu[:, -2] <= alpha))
    ci = binomial_interval(hits, R, LEVEL)
    exact = bounds.e_star(alpha, K, sigma0_sq)
    assert ci.low <= exact <= ci.high
    if bounds.c_K_is_defined(K) and K >= 37:             # where the ledger finds Theorem 3.1 holds
        assert ci.low <= bounds.theorem_3_1_bound(alpha, K, sigma0_sq)


def test_full_information_error_matches_simulation():
    rng = np.random.default_rng(11)
    n, Delta, s = 50, 0.2, 1.0
    R = 400_000
    m1 = rng.normal(0.0, np.sqrt(s / n), R)
    m2 = rng.normal(-Delta, np.sqrt(s / n), R)
    ci = binomial_interval(int(np.sum(m1 <= m2)), R, LEVEL)
    assert ci.low <= float(s2.full_info_error(n, Delta, s)) <= ci.high
    assert ci.low >= float(s2.feller_bound(n, Delta, s))


def test_ucbe_error_below_section2_bound_where_informative():
    mu = np.array([0.9, 0.1])
    H = s2.H_complexity(mu)
    n = next(m for m in range(3, 10 ** 5) if s2.ucbe_upper_bound(m, 2, H) < 1)
    a = float(s2.ucbe_parameter_limit(n, 2, H))
    rng = np.random.default_rng(12)
    R = 4000
    rec = ucbe_reference(np.tile(mu, (R, 1)), n, a, rng)
    ci = binomial_interval(int(np.sum(rec != 0)), R, LEVEL)
    assert ci.low <= float(s2.ucbe_upper_bound(n, 2, H))
