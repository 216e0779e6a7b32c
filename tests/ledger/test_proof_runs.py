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


@settings(max_examples=60)
@given(T=st.lists(st.integers(1, 300), min_size=2, max_size=15), s0=st.floats(1e-2, 1e2), s=st.floats(1e-2, 1e2),
       seed=st.integers(0, 1000))
def test_vectorised_posterior_is_bounds_posterior(T, s0, s, seed):
    T = np.asarray(T, float)
    S = np.random.default_rng(seed).normal(0, 1, T.size) * T
    m, v = posterior_rows(T[None], S[None], s0, s)
    p = bounds.posterior(T, S, s0, s)
    assert np.allclose(m[0], p.mean, rtol=1e-12, atol=1e-12) and np.allclose(v[0], p.var, rtol=1e-12)
