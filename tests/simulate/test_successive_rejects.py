"""simulate.algorithms.successive_rejects: the schedule's budget and the live law."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.algorithms import successive_rejects as sr
from tests.simulate.streams import TINY, live_kernel_vs_reference


@pytest.mark.statistical
def test_live_kernel_has_the_law_of_the_reference():
    assert live_kernel_vs_reference("sr", "F2", 8, 400, 6000, 4) > TINY


@settings(max_examples=60)
@given(K=st.integers(2, 64), n=st.integers(1, 20000))
def test_schedule_fits_the_budget(K, n):
    """n_1 + ... + n_{K-1} + n_{K-1} <= n (the last two survivors both get n_{K-1} pulls)."""
    if n >= K:
        assert sr.schedule(K, n).sum() + sr.schedule(K, n)[-1] <= n
