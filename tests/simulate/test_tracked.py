"""simulate.proofs.tracked: the proof-tracking RUE against bounds, the fast kernel and its own compiled twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
from simulate.proofs.tracked import posterior_rows, tracked_rue_runs
from simulate.stats import binomial_interval

LEVEL = 1 - 1e-6


@pytest.mark.statistical
@pytest.mark.parametrize("engine", ["compiled", "numpy"])
def test_the_tracked_rue_errs_as_often_as_the_compiled_rue(engine):
    """The tracker's recommendation is RUE's: on a hard Gaussian instance its error rate agrees with
    the fast kernel's (`simulate.algorithms`, the same known variances), within exact intervals at
    level 1 - 1e-6; a tracker that recommended a wrong arm, or the last pulled arm, fails this."""
    from simulate.algorithms import get
    from simulate.runner import run_algorithm
    from simulate.seeds import run_seeds
    mu, n, R = np.array([0.3, 0.1, 0.0, -0.2]), 60, 4000
    means = np.tile(mu, (R, 1))
    mine = tracked_rue_runs(means, n, np.random.default_rng(21), sigma0_sq=1.0, sigma_sq=1.0, nu_sq=1.0,
                            engine=engine)
    params = get("rue").resolve({"sigma0_sq": 1.0, "sigma_sq": 1.0, "variances": "known"})
    theirs, *_ = run_algorithm("rue", params, means, n, run_seeds(5, "rue", R), run_seeds(5, "rw", R), True, 1.0)
    a, b = (binomial_interval(int(np.sum(x != 0)), R, LEVEL) for x in (mine.recommended, theirs))
    assert a.low <= b.high and b.low <= a.high and 0.1 < b.estimate < 0.7, (a, b)
    assert np.array_equal(mine.errors, mine.recommended != 0)


def test_bernoulli_rewards_run_the_numpy_loop_with_known_variances():
    """Bernoulli rewards go through the reference loop (the kernel is Gaussian): a clear instance is
    solved and the budget is spent exactly."""
    R, n = 400, 80
    res = tracked_rue_runs(np.tile([0.9, 0.1, 0.2], (R, 1)), n, np.random.default_rng(3), sigma0_sq=0.25,
                           sigma_sq=0.25, reward="bernoulli")
    assert (res.pulls.sum(axis=1) == n).all() and (res.pulls >= 2).all()
    assert binomial_interval(int(res.errors.sum()), R, LEVEL).high < 0.05


@settings(max_examples=60)
@given(T=st.lists(st.integers(1, 300), min_size=2, max_size=15), s0=st.floats(1e-2, 1e2), s=st.floats(1e-2, 1e2),
       seed=st.integers(0, 1000))
def test_vectorised_posterior_is_bounds_posterior(T, s0, s, seed):
    T = np.asarray(T, float)
    S = np.random.default_rng(seed).normal(0, 1, T.size) * T
    m, v = posterior_rows(T[None], S[None], s0, s)
    p = bounds.posterior(T, S, s0, s)
    assert np.allclose(m[0], p.mean, rtol=1e-12, atol=1e-12) and np.allclose(v[0], p.var, rtol=1e-12)


@pytest.mark.parametrize("K, n, s0, s, delta", [(2, 40, 1.0, 1.0, 1.0), (3, 400, 1.0, 1e-2, 1.0),
                                                 (5, 200, 0.1, 2.0, 0.5), (20, 300, 10.0, 0.01, 1.0),
                                                 (4, 3000, 1.0, 1.0, 1e-3)])
def test_the_compiled_tracker_is_the_numpy_loop_on_shared_rewards(K, n, s0, s, delta):
    """Both engines on one table of standard normals make the same pulls and recommendations and
    record the same events, violations and worst cases (the corners: two arms, small sigma^2, a
    noise far below sigma^2 where E holds)."""
    rng = np.random.default_rng([K, n])
    R = 48
    means = rng.normal(0.0, np.sqrt(s0), (R, K))
    z = rng.standard_normal((R, n))
    kw = dict(sigma0_sq=s0, sigma_sq=s, nu_sq=delta * s, track_proof=True, noise=z)
    ref = tracked_rue_runs(means, n, np.random.default_rng(0), engine="numpy", **kw)
    fast = tracked_rue_runs(means, n, np.random.default_rng(0), **kw)
    assert np.array_equal(ref.pulls, fast.pulls) and np.array_equal(ref.recommended, fast.recommended)
    for name in ("event_E", "tk_up_violated", "tk_low_violated", "decomp_covered"):
        assert np.array_equal(getattr(ref, name), getattr(fast, name)), name
    assert ref.route.keys() == fast.route.keys()
    for name in ref.route:
        assert np.array_equal(ref.route[name], fast.route[name]), name
    for name in ("tk_up_worst", "tk_low_worst"):
        np.testing.assert_allclose(getattr(ref, name), getattr(fast, name), rtol=1e-12)
    if delta < 1e-2:                      # the corner where E holds: the comparison is not vacuous there
        assert ref.route["E_rep"].any()


def test_the_tracker_refuses_a_noise_table_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"noise: an \(R, n\)"):
        tracked_rue_runs(np.zeros((2, 3)), 10, np.random.default_rng(0), sigma0_sq=1.0, sigma_sq=1.0,
                         noise=np.zeros((2, 9)))
    with pytest.raises(ValueError, match="engine must be"):
        tracked_rue_runs(np.zeros((2, 3)), 10, np.random.default_rng(0), sigma0_sq=1.0, sigma_sq=1.0, engine="gpu")
    with pytest.raises(ValueError, match="sigma0_sq and sigma_sq must be > 0"):
        tracked_rue_runs(np.zeros((2, 3)), 10, np.random.default_rng(0), sigma0_sq=0.0, sigma_sq=1.0)
