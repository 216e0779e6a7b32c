"""Section 4: the posterior (eqs. blup, MSE) and Lemma sec:tau."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
from bounds.estimation import exact_gaussian_posterior, posterior_variance_formula, tau_sq_lower
from rue_verify import testing as S

CONDITIONING_TOL = 1e-9   # two linear-algebra routes to the same Gaussian; condition numbers up to ~1e6


def assert_matches_exact(post_fn, T, S_, s0, s):
    p = post_fn(T, S_, s0, s)
    q = exact_gaussian_posterior(T, S_, s0, s)
    scale = max(1.0, float(np.abs(q.mean).max()), float(q.var.max()))
    assert np.max(np.abs(p.mean - q.mean)) <= CONDITIONING_TOL * scale
    assert np.max(np.abs(p.var - q.var)) <= CONDITIONING_TOL * scale


@settings(max_examples=100)
@given(h=S.history(), s0=st.floats(1e-2, 1e2), s=st.floats(1e-2, 1e2))
def test_posterior_is_flat_prior_gaussian_conditioning(h, s0, s):
    T, S_ = h
    assert_matches_exact(bounds.posterior, T, S_, s0, s)


def test_the_comparison_catches_a_broken_posterior():
    """The property above can fail: a posterior without the pooled term is caught."""
    def broken(T, S_, s0, s):
        p = bounds.posterior(T, S_, s0, s)
        T = np.asarray(T, float)
        return bounds.Posterior(p.mean, s0 * s / (T * s0 + s))      # drops (1-w)^2 sigma^2 / sum
    with pytest.raises(AssertionError):
        assert_matches_exact(broken, [3, 5, 2], [1.0, 2.0, 0.5], 1.0, 1.0)


def test_known_mu0_posterior_differs():
    T, S_ = [3, 5, 2], [1.0, 2.0, 0.5]
    p = bounds.posterior(T, S_, 1.0, 1.0)
    q = exact_gaussian_posterior(T, S_, 1.0, 1.0, mu0=0.0)
    assert np.max(np.abs(p.var - q.var)) > 1e-3


@settings(max_examples=200)
@given(T=S.pull_counts(min_pulls=1), s0=S.variance, s=S.variance)
def test_tau_upper_and_repaired_lower_hold_for_every_draw(T, s0, s):
    S.assert_posterior_variance_bounds(T, s0, s)


def test_the_variance_assertion_can_fail():
    """Lemma sec:tau's literal lower side fails at K = 2, T = (3, 3): used as the lower side, the
    assertion says so; and a variance above the upper side is caught too."""
    import bounds.repaired as rep
    real = rep.tau_sq_lower_repaired
    try:
        rep.tau_sq_lower_repaired = tau_sq_lower
        with pytest.raises(AssertionError, match=r"tau_0\^2 = .* outside"):
            S.assert_posterior_variance_bounds([3, 3], 1.0, 1.0)
    finally:
        rep.tau_sq_lower_repaired = real
    with pytest.raises(AssertionError):
        S.assert_posterior_variance_bounds([3, 3], 1.0, 1.0, rtol=-0.5)


def test_tau_lower_counterexample_is_real():
    # K = 2, equal pulls T = 3, sigma0^2 = sigma^2 = 1: tau^2 = tilde (1 + 1/6) < tilde (1 + 1/4)
    T = np.array([3.0, 3.0])
    tau = np.asarray(posterior_variance_formula(T, 1.0, 1.0))
    assert np.all(tau < tau_sq_lower(T, 2, 1.0, 1.0))


def test_posterior_extends_to_unpulled_arms_and_rejects_empty():
    p = bounds.posterior([0, 4], [0.0, 2.0], 1.0, 1.0)
    assert p.var[0] > p.var[1] and np.isfinite(p.mean).all()
    with pytest.raises(bounds.UndefinedError, match="no arm has been pulled"):
        bounds.posterior([0, 0], [0.0, 0.0], 1.0, 1.0)


@pytest.mark.parametrize("args,name", [(([1, -1], [0, 0], 1, 1), "T"), (([1, 2], [0, 0, 0], 1, 1), "reward_sums"),
                                       (([1, 2], [0, 0], -1, 1), "sigma0_sq"), (([1, 2], [0, 0], 1, 0), "sigma_sq")])
def test_posterior_bad_input(args, name):
    with pytest.raises(ValueError, match=name):
        bounds.posterior(*args)


@settings(max_examples=50)
@given(hs=st.lists(S.history(), min_size=2, max_size=4), s0=st.floats(1e-2, 1e2), s=st.floats(1e-2, 1e2))
def test_posterior_arrays_on_many_histories_equal_one_at_a_time(hs, s0, s):
    """The row-wise form (RUE's tracked runs use it) gives each row's posterior exactly."""
    from bounds.estimation import posterior_arrays
    K = min(len(T) for T, _ in hs)
    T = np.array([h[0][:K] for h in hs], float)
    S_ = np.array([h[1][:K] for h in hs], float)
    keep = T.sum(axis=1) > 0
    if not keep.any():
        return
    mean, var, _ = posterior_arrays(T[keep], S_[keep], s0, s)
    for i, (t, x) in enumerate(zip(T[keep], S_[keep])):
        one = bounds.posterior(t, x, s0, s)
        assert np.array_equal(mean[i], one.mean) and np.array_equal(var[i], one.var)


def test_shrinkage_is_one_formula_for_numbers_arrays_and_symbols():
    import sympy

    from bounds.estimation import shrinkage, tau_sq_tilde
    T, s0, s = sympy.symbols("T sigma0_sq sigma_sq", positive=True)
    assert sympy.simplify(shrinkage(T, s0, s) - (1 - s0 / (s0 + s / T))) == 0        # 1 - w_k, w_k of eq. blup
    assert sympy.simplify(tau_sq_tilde(T, s0, s) - s0 * shrinkage(T, s0, s)) == 0
    assert np.allclose(shrinkage(np.array([0.0, 1.0, 4.0]), 2.0, 1.0), [1.0, 1 / 3, 1 / 9])
