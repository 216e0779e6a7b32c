"""simulate.algorithms.beta_sampler: exact Beta draws from uniforms (Cheng's BB and closed forms)."""

import numpy as np
import pytest
from numba import njit
from scipy import stats

from simulate.algorithms import beta_sampler
from simulate.algorithms.sources import live_source
from tests.simulate.streams import TINY


@pytest.mark.statistical
@pytest.mark.parametrize("a,b", [(1.0, 1.0), (5.0, 1.0), (1.0, 3.0), (1.5, 2.0), (3.0, 40.0), (900.0, 1100.0)])
def test_draws_have_the_beta_law(a, b):
    @njit
    def draws(a, b, N):
        seeds = np.array([3], np.uint64)
        src = live_source(np.zeros((1, 1)), False, 0.0, seeds, seeds, None)
        kind, lo, hi, tot, bb, cc = beta_sampler.cheng_constants(a, b)
        out = np.empty(N)
        for k in range(N):
            out[k] = beta_sampler.beta_draw(kind, lo, hi, tot, bb, cc, src, 0)
        return out
    x = draws(a, b, 100_000)
    assert stats.kstest(x, stats.beta(a, b).cdf).pvalue > TINY


def test_closed_forms_and_cheng_agree_with_the_reference_draw_for_draw():
    """The compiled sampler and `beta_reference` read the same uniforms and return the same values."""
    from simulate.algorithms.sources import table_source
    u = np.random.default_rng(1).random(4000)
    for a, b in ((1.0, 1.0), (4.0, 1.0), (1.0, 6.0), (2.5, 7.0), (300.0, 20.0)):
        src = table_source(1, np.zeros((1, 1)), u)
        it = iter(u)
        kind, lo, hi, tot, bb, cc = beta_sampler.cheng_constants(a, b)
        got = [beta_sampler.beta_draw(kind, lo, hi, tot, bb, cc, src, 0) for _ in range(50)]
        want = [beta_sampler.beta_reference(a, b, lambda: next(it)) for _ in range(50)]
        assert np.allclose(got, want, rtol=1e-12, atol=0)
