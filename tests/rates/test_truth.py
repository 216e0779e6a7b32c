"""rue_verify.rates.truth: the conditional (Rao-Blackwell) estimators equal the plain ones in
expectation on the same runs (paired t-intervals at level 1 - 1e-6, fixed seeds), their integrals
match sampling from the posterior, and a planted error in the posterior is caught."""

import numpy as np
import pytest

from rue_verify.rates import truth
from rue_verify.rates.truth import bayes_truth, conditional_failure, conditional_regret
from simulate.stats import mean_interval

LEVEL = 1 - 1e-6


@pytest.mark.parametrize("algorithm,params,K,n", [("rue", {"variances": "known"}, 5, 200), ("uniform", {}, 8, 400),
                                                   ("sh", {}, 6, 300)])
def test_the_conditional_estimators_are_unbiased_on_the_same_runs(algorithm, params, K, n):
    t = bayes_truth(algorithm, K, n, 1.0, 1.0, 3000, seed=11, params=params, level=LEVEL)
    assert t.failure_plain.low <= t.failure.estimate <= t.failure_plain.high
    assert t.regret_plain.low <= t.regret.estimate <= t.regret_plain.high
    assert t.vr_failure > 1.5 and t.vr_regret > 1.5                       # and they are worth it


def test_the_pairing_catches_a_wrong_posterior(monkeypatch):
    """Plant an error (the posterior variance doubled): the paired difference between the plain and
    the conditional failure estimates is then far from zero on the same runs."""
    real = truth.conditional_failure
    monkeypatch.setattr(truth, "conditional_failure", lambda m, v, rec: real(m, 4 * v, rec))
    t = bayes_truth("uniform", 8, 400, 1.0, 1.0, 3000, seed=11, level=LEVEL)
    assert not t.failure_plain.low <= t.failure.estimate <= t.failure_plain.high


@pytest.mark.parametrize("v_low,v_high,close", [(0.01, 0.2, 0.0), (1e-7, 4e-6, 0.002)],
                         ids=["wide posteriors", "narrow posteriors (large n)"])
def test_the_integrals_match_sampling_the_posterior(v_low, v_high, close):
    """Narrow posteriors spread over a wide range of means (large n) are where a uniform grid over
    the whole range failed: their CDF steps fall between its points."""
    rng = np.random.default_rng(3)
    R, K, draws = 6, 7, 200_000
    m = rng.normal(0, 0.3 if not close else 1.0, (R, K))
    if close:
        m[np.arange(R), m.argmax(axis=1)] = np.sort(m, axis=1)[:, -2] + close     # a close contest
    v = rng.uniform(v_low, v_high, (R, K))
    rec = m.argmax(axis=1)
    f, g = conditional_failure(m, v, rec), conditional_regret(m, v, rec)
    for r in range(R):
        mu = m[r] + np.sqrt(v[r]) * rng.standard_normal((draws, K))
        fail = mu.argmax(axis=1) != rec[r]
        lo, hi = (lambda k: (k / draws - 5 * np.sqrt(k) / draws - 1e-4, k / draws + 5 * np.sqrt(k) / draws + 1e-4))(
            fail.sum())
        assert lo <= f[r] <= hi
        ci = mean_interval(mu.max(axis=1) - mu[:, rec[r]], LEVEL)
        assert ci.low <= g[r] <= ci.high


def test_the_posterior_is_the_exact_conditioning_of_bounds():
    """The vectorised known-mean posterior equals bounds.estimation's exact Gaussian conditioning
    (mu0 = 0 known), history by history, unpulled arms included."""
    from bounds.estimation import exact_gaussian_posterior
    from rue_verify.rates.truth import known_mean_posterior
    rng = np.random.default_rng(7)
    T = rng.integers(0, 50, (20, 6)).astype(float)
    T[:, 0] += 1                                            # at least one arm pulled
    S = T * rng.normal(0, 1, T.shape)
    m, v = known_mean_posterior(T, S, 2.0, 0.5)
    for r in range(T.shape[0]):
        exact = exact_gaussian_posterior(T[r], S[r], 2.0, 0.5, mu0=0.0)
        assert np.allclose(m[r], exact.mean, rtol=1e-10, atol=1e-12) and np.allclose(v[r], exact.var, rtol=1e-10)
