"""One source per formula: the interval proofs (`verify.intervals`) evaluate `bounds`' own functions on
arb balls, and each ball encloses the function's floating value."""

import pytest
from flint import arb

from bounds import gap


@pytest.mark.parametrize("fn", [gap.normal_tail, gap.fact1_tail_bound, gap.mills_lower, gap.mills_upper])
def test_the_formulas_on_arb_balls_enclose_their_floating_values(fn):
    """One source per formula: the interval proofs evaluate `bounds`' own functions on arb balls."""
    for t in (0.05, 0.7, 1.9, 6.0, 30.0):
        ball = fn(arb(t))
        assert ball.lower() <= fn(t) * (1 + 1e-14) and fn(t) * (1 - 1e-14) <= ball.upper(), (fn.__name__, t, ball)
