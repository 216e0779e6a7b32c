"""bounds.lower.oracle_given_means: the oracle's error given the means, by quadrature, against the
two-armed closed form, against simulated sample means (exact binomial intervals at a tiny level), and
with per-arm shrinkage against the rule it names."""

import math

import numpy as np
import pytest
from scipy import stats

from bounds.lower import oracle_given_means


def test_two_arms_is_the_closed_form_at_every_scale():
    rng = np.random.default_rng(1)
    for n, s2 in ((3, 1.0), (1e3, 4.0), (1e7, 0.25)):
        mu = rng.normal(0.0, 1.0, (5000, 2))
        f, r = oracle_given_means(mu, n, s2)
        d = np.abs(mu[:, 0] - mu[:, 1])
        closed = stats.norm.cdf(-d / math.sqrt(2 * s2 / n))
        big = closed > 1e-15
        assert np.max(np.abs(f - closed)[big] / closed[big]) < 1e-11 and np.all(np.abs(f - closed)[~big] < 1e-15)
        assert np.allclose(r, d * closed, rtol=1e-11, atol=1e-16)


@pytest.mark.parametrize("shrink", [None, "per-arm"])
def test_against_simulated_sample_means(shrink):
    """For a few instances of 7 arms, simulate the sample means and the rule argmax a_k X_k 200,000
    times: the computed failure probability lies in the exact binomial interval at level 1 - 1e-9,
    and the regret in a t-interval at the same level."""
    rng = np.random.default_rng(2)
    K, n, s2 = 7, 40, 1.0
    a = None if shrink is None else rng.uniform(0.3, 1.0, K)
    mu = rng.normal(0.0, 0.3, (4, K))
    f, r = oracle_given_means(mu, n, s2, a)
    sim = np.random.default_rng(3)
    for i in range(4):
        X = mu[i] + math.sqrt(s2 / n) * sim.standard_normal((200_000, K))
        J = ((1.0 if a is None else a) * X).argmax(axis=1)
        fails = int((J != mu[i].argmax()).sum())
        ci = stats.binomtest(fails, 200_000).proportion_ci(1 - 1e-9, method="exact")
        assert ci.low <= f[i] <= ci.high, (i, f[i], ci)
        loss = mu[i].max() - mu[i][J]
        h = stats.t.ppf(1 - 0.5e-9, loss.size - 1) * loss.std(ddof=1) / math.sqrt(loss.size)
        assert abs(loss.mean() - r[i]) <= h, (i, r[i], loss.mean(), h)


def test_one_instance_and_bad_input():
    f, r = oracle_given_means([0.0, 0.1], 100, 1.0)
    assert isinstance(f, float) and 0 < r < f < 0.5
    with pytest.raises(ValueError, match="means"):
        oracle_given_means([0.0], 100, 1.0)
    with pytest.raises(ValueError, match="means"):
        oracle_given_means([0.0, float("nan")], 100, 1.0)
    with pytest.raises(ValueError, match="n must"):
        oracle_given_means([0.0, 1.0], 0, 1.0)
    with pytest.raises(ValueError, match="sigma_sq"):
        oracle_given_means([0.0, 1.0], 10, -1.0)
    with pytest.raises(ValueError, match="shrink"):
        oracle_given_means([0.0, 1.0], 10, 1.0, [1.0, 0.0])


def test_a_tied_best_pair_is_a_success_in_the_reference_and_the_compiled_oracle():
    """Two best arms at the same mean, the third far below: choosing either best arm is right, so the
    oracle's failure is (about) 0, not one half, and its regret 0; the compiled oracle agrees."""
    from rue_verify.rates.truth import oracle_given_means as compiled
    mu = np.array([[1.0, 1.0, -5.0], [0.3, -5.0, 0.3]])
    f, r = oracle_given_means(mu, 100, 1.0)
    assert np.all(f < 1e-12) and np.all(np.abs(r) < 1e-12), (f, r)
    fc, rc = compiled(mu, 100, 1.0, np.ones(3))
    assert np.allclose(fc, f, atol=1e-12) and np.allclose(rc, r, atol=1e-12), (fc, f)
