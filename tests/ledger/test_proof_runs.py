"""rue_verify.ledger.proof_runs: the ledger's vectorised RUE and UCB-E against bounds and the kernels."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
from bounds import section2 as s2
from rue_verify.ledger.proof_runs import posterior_rows, ucbe_runs
from simulate.stats import binomial_interval

LEVEL = 1 - 1e-6


@pytest.mark.statistical
def test_ucbe_error_below_section2_bound_where_informative():
    mu = np.array([0.9, 0.1])
    H = s2.H_complexity(mu)
    n = next(m for m in range(3, 10 ** 5) if s2.ucbe_upper_bound(m, 2, H) < 1)
    a = float(s2.ucbe_parameter_limit(n, 2, H))
    rng = np.random.default_rng(12)
    R = 4000
    rec = ucbe_runs(np.tile(mu, (R, 1)), n, a, rng)
    ci = binomial_interval(int(np.sum(rec != 0)), R, LEVEL)
    assert ci.low <= float(s2.ucbe_upper_bound(n, 2, H))
    # that alone passes for a UCB-E that is almost always wrong (the bound is near 1 there): on a hard
    # instance its error rate must also be the compiled UCB-E's (simulate.algorithms.ucbe, same a)
    from simulate.algorithms import get
    hard, m = np.array([0.55, 0.45, 0.4]), 120
    mine = ucbe_runs(np.tile(hard, (R, 1)), m, 2.0, np.random.default_rng(13))
    seeds = np.arange(R, dtype=np.uint64)
    theirs, _ = get("ucbe").batch(np.tile(hard, (R, 1)), m, seeds, seeds + R, a=2.0)
    a_ci, b_ci = (binomial_interval(int(np.sum(x != 0)), R, LEVEL) for x in (mine, theirs))
    assert a_ci.low <= b_ci.high and b_ci.low <= a_ci.high and 0.05 < b_ci.estimate < 0.5, (a_ci, b_ci)


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
    from rue_verify.ledger.proof_runs import tracked_rue_runs
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
    from rue_verify.ledger.proof_runs import tracked_rue_runs
    with pytest.raises(ValueError, match=r"noise: an \(R, n\)"):
        tracked_rue_runs(np.zeros((2, 3)), 10, np.random.default_rng(0), sigma0_sq=1.0, sigma_sq=1.0,
                         noise=np.zeros((2, 9)))
    with pytest.raises(ValueError, match="engine must be"):
        tracked_rue_runs(np.zeros((2, 3)), 10, np.random.default_rng(0), engine="gpu")
