"""simulate.algorithms.two_stage: Chernoff bounds, candidates, budget."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.algorithms import two_stage
from simulate.algorithms.sources import TableSource
from tests.simulate.streams import reward_table


@settings(max_examples=200)
@given(N=st.integers(1, 10 ** 5), frac=st.floats(0.0, 1.0), n=st.integers(2, 10 ** 6))
def test_chernoff_bounds_solve_their_equation(N, frac, n):
    """lb <= p <= ub with N kl(p, x) = 2 log n at each, for a stage-1 mean p = k / N (scipy's
    brentq as the independent solver)."""
    from scipy.optimize import brentq
    p = round(frac * N) / N
    level = 2 * math.log(n)
    lb, ub = two_stage.chernoff_bounds(p, N, level)
    f = lambda x: N * two_stage.kl_bernoulli(p, x) - level      # noqa: E731
    assert 0.0 <= lb <= p <= ub <= 1.0
    if p > 0:
        assert lb == pytest.approx(brentq(f, 1e-300, p, xtol=1e-15), abs=1e-12)
    if p < 1 and f(1 - 1e-16) > 0:
        assert ub == pytest.approx(brentq(f, p, 1 - 1e-16, xtol=1e-15), abs=1e-12)


def test_keeps_only_the_candidates_whose_upper_bound_clears_the_best_lower_bound():
    """A case where stage 1 rules arms out: the kernel and the round-by-round reference agree,
    the excluded arms keep their stage-1 pulls, and every pull of the budget is used."""
    mu = np.array([0.9, 0.1, 0.6, 0.85, 0.2, 0.88])
    n, q = 3000, 0.4
    table, ties = reward_table(mu, n, False, 5)
    a, T = two_stage.run(mu, n, table=table, ties=ties, q=q)
    b, T2 = two_stage.reference(TableSource(table, ties), mu.size, n, q=q)
    n1, c1 = two_stage.stage_counts(n, mu.size, q)
    excluded = T == c1
    assert a == b and np.array_equal(T, T2) and T.sum() == n == T2.sum()
    assert n1 == 1200 and 1 <= excluded.sum() < mu.size - 1 and not excluded[[0, 3, 5]].any()
