"""simulate.algorithms.rue_lazy: RUE's lazy argmax makes the same pulls and recommendations as the
plain kernel, tie-breaking included, and evaluates about two indices a round; the modes where its
bound does not hold never take it."""

import numpy as np
import pytest

from rue_verify import testing
from simulate.algorithms import rue
from simulate.algorithms.sources import TableSource
from tests.simulate.streams import reward_table

KNOWN = {"variances": "known", "sigma0_sq": 1.0, "sigma_sq": 1.0}
#: every K to 300, then every 100th to 1000
KS = list(range(2, 301)) + list(range(400, 1001, 100))


def _both(means, n, gaussian, params, seed=0):
    R = means.shape[0]
    rng = np.random.default_rng(seed)
    seeds, rewards = (rng.integers(0, 2 ** 63, R).astype(np.uint64) for _ in range(2))
    plain = rue.batch(means, n, seeds, rewards, gaussian=gaussian, nu=1.0, lazy=False, **params)
    ev = np.zeros(R)
    lazy = rue.batch(means, n, seeds, rewards, gaussian=gaussian, nu=1.0, lazy=True, evaluated=ev, **params)
    return plain, lazy, ev


def test_the_same_pulls_and_recommendations_at_every_k():
    """Gaussian rewards on prior draws, four runs per K, 200 rounds past the initial passes."""
    for K in KS:
        means = np.random.default_rng(K).normal(0, 1, (4, K))
        (a, Ta), (b, Tb), ev = _both(means, 2 * K + 200, True, KNOWN, K)
        assert np.array_equal(a, b) and np.array_equal(Ta, Tb), K
        assert ev.mean() <= 3 * 200 + K, K       # the first lazy round evaluates every arm, then about two a round


@pytest.mark.parametrize("K", [3, 70, 257])
def test_near_ties_and_exact_ties_break_alike(K):
    """Hand-made ties: every mean equal, Bernoulli rewards (indices tie exactly, so the tie
    uniforms decide), and two arms within 1e-12 under Gaussian rewards; many seeds."""
    equal = np.full((32, K), 0.5)
    for seed in range(3):
        (a, Ta), (b, Tb), _ = _both(equal, 2 * K + 300, False, {**KNOWN, "sigma0_sq": 0.01, "sigma_sq": 0.25}, seed)
        assert np.array_equal(a, b) and np.array_equal(Ta, Tb)
    close = np.random.default_rng(1).normal(0, 1, (32, K))
    close[:, 1] = close[:, 0] + 1e-12
    (a, Ta), (b, Tb), _ = _both(close, 2 * K + 300, True, KNOWN)
    assert np.array_equal(a, b) and np.array_equal(Ta, Tb)


def test_the_lazy_run_replays_the_reference_on_a_reward_table():
    """The plain numpy reference, recomputing every index every round, and the lazy kernel on one table."""
    mu = np.random.default_rng(3).uniform(0.2, 0.8, 90)
    table, ties = reward_table(mu, 600, True, 4)
    a, T = rue.run(mu, 600, gaussian=True, nu=1.0, table=table, ties=ties, lazy=True, **KNOWN)
    b, T2 = rue.reference(TableSource(table, ties), 90, 600, gaussian=True, nu=1.0, **KNOWN)
    assert a == b and np.array_equal(T, T2)
    testing.assert_kernel_matches_reference("rue", mu, 600, True, 4, KNOWN)      # K = 90 takes the lazy path


def test_estimated_variances_never_take_the_lazy_path():
    """With sigma0^2 and sigma^2 re-estimated every round the bound does not hold: asking for it is an
    error, and the default sends such runs to the plain kernel whatever K."""
    assert rue.lazy_path(500, "known", False, None) and not rue.lazy_path(500, "authors", False, None)
    assert not rue.lazy_path(500, "known", True, None) and not rue.lazy_path(rue.LAZY_FROM - 1, "known", False, None)
    with pytest.raises(ValueError, match="lazy: the lazy argmax needs variances='known'"):
        rue.batch(np.zeros((1, 80)), 400, [1], [2], variances="authors", lazy=True)


def test_the_comparison_can_fail():
    """A lazy kernel told another exploration constant than the plain one is caught."""
    means = np.random.default_rng(0).normal(0, 1, (4, 80))
    rng = np.random.default_rng(0)
    seeds, rewards = (rng.integers(0, 2 ** 63, 4).astype(np.uint64) for _ in range(2))
    _, Ta = rue.batch(means, 400, seeds, rewards, gaussian=True, nu=1.0, lazy=False, **KNOWN)
    _, Tb = rue.batch(means, 400, seeds, rewards, gaussian=True, nu=1.0, lazy=True, deg=2.5, **KNOWN)
    assert not np.array_equal(Ta, Tb)
