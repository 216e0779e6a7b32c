"""bounds.section2: H, H_2, UCB-E's bounds, full information and Feller's bound (Section 2)."""

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
from bounds import section2 as s2
from rue_verify import testing as S
from simulate.stats import STRICT_LEVEL, binomial_interval

LEVEL = STRICT_LEVEL


def test_section2_definitions():
    mu = [0.5, 0.45, 0.45, 0.3]
    d = s2.gaps(mu)
    assert d.tolist() == pytest.approx([0.05, 0.05, 0.05, 0.2])
    assert s2.H_complexity(mu) == pytest.approx(3 / 0.0025 + 25)
    assert s2.H_complexity(mu, include_best=False) == pytest.approx(2 / 0.0025 + 25)
    assert s2.H_2(mu) == pytest.approx(max(1 / 0.0025, 2 / 0.0025, 3 / 0.0025, 4 / 0.04))
    with pytest.raises(bounds.UndefinedError, match="not unique"):
        s2.gaps([0.5, 0.5, 0.1])
    with pytest.raises(bounds.UndefinedError, match="divides by x"):
        s2.feller_bound(10, 0.0, 1.0)


@settings(max_examples=50)
@given(n=st.integers(2, 10 ** 7), D=st.floats(1e-4, 3), s=S.variance)
def test_feller_bound_below_exact(n, D, s):
    with mpmath.workdps(30):
        e = s2.full_info_error(mpmath.mpf(n), mpmath.mpf(D), mpmath.mpf(s))
        b = s2.feller_bound(mpmath.mpf(n), mpmath.mpf(D), mpmath.mpf(s))
    assert b <= e


@pytest.mark.statistical
def test_full_information_error_matches_simulation():
    rng = np.random.default_rng(11)
    n, Delta, s = 50, 0.2, 1.0
    R = 400_000
    m1 = rng.normal(0.0, np.sqrt(s / n), R)
    m2 = rng.normal(-Delta, np.sqrt(s / n), R)
    ci = binomial_interval(int(np.sum(m1 <= m2)), R, LEVEL)
    assert ci.low <= float(s2.full_info_error(n, Delta, s)) <= ci.high
    assert ci.low >= float(s2.feller_bound(n, Delta, s))
