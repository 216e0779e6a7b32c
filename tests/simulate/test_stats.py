"""simulate.stats: exact binomial (Clopper-Pearson) and t intervals."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from simulate.stats import binomial_interval, mean_interval, sums_interval


@settings(max_examples=100)
@given(n=st.integers(1, 5000), frac=st.floats(0, 1), level=st.sampled_from([0.9, 0.95, 1 - 1e-6]))
def test_binomial_interval_is_clopper_pearson(n, frac, level):
    """The ends are the Beta quantiles of the exact interval (Clopper & Pearson 1934)."""
    k = round(frac * n)
    ci = binomial_interval(k, n, level)
    a = (1 - level) / 2
    low = 0.0 if k == 0 else stats.beta.ppf(a, k, n - k + 1)
    high = 1.0 if k == n else stats.beta.ppf(1 - a, k + 1, n - k)
    assert ci.estimate == k / n and ci.low <= k / n <= ci.high
    assert ci.low == pytest.approx(low, abs=1e-9) and ci.high == pytest.approx(high, abs=1e-9)


def test_mean_interval_is_the_t_interval():
    v = np.array([0.1, 0.4, 0.35, 0.8, 0.0])
    ci = mean_interval(v, 0.9)
    h = stats.t.ppf(0.95, 4) * v.std(ddof=1) / np.sqrt(5)
    assert (ci.estimate, ci.low, ci.high) == pytest.approx((v.mean(), v.mean() - h, v.mean() + h))


def test_the_interval_from_sums_is_the_interval_from_the_values():
    """A result store keeps a row's sum and sum of squares; the interval from them is the values' own."""
    v = np.random.default_rng(3).exponential(size=257)
    a, b = sums_interval(float(v.sum()), float((v ** 2).sum()), v.size, 0.99), mean_interval(v, 0.99)
    assert (a.estimate, a.low, a.high) == pytest.approx((b.estimate, b.low, b.high), rel=1e-12)
    with pytest.raises(ValueError, match="count"):
        sums_interval(1.0, 1.0, 1)


@pytest.mark.parametrize("args,match", [((3, 0), "trials"), ((-1, 5), "successes"), ((6, 5), "successes"),
                                        ((1, 5, 1.0), "level")])
def test_binomial_interval_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        binomial_interval(*args)
