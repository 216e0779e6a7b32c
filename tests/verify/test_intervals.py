"""rue_verify.verify.intervals: the arb branch-and-bound proves a true inequality on a whole box,
finds a false one whose only violations sit in a narrow region, and says 'open' where a bound has no
slack; the paper's formulas evaluated on arb balls enclose their floating values."""

import math

import numpy as np
import pytest
from flint import arb

from bounds import gap
from rue_verify.verify.intervals import Side, as_finding, certify


def test_a_true_inequality_is_proved_on_the_whole_box():
    c = certify(lambda x, y: (x * y).log() - x.log() - y.log() + 1, {"x": Side(0.1, 10, "log"), "y": Side(1, 5)},
                strict=True)
    assert c.proved and c.boxes >= 1 and c.smallest > 0
    f = as_finding(c, what="log(xy) = log x + log y, plus 1")
    assert f.verdict == "holds" and f.certified and "x in [0.1, 10]" in f.domain


def test_a_violation_in_a_narrow_region_is_found():
    """Fact 1's margin minus a bump of height 5e-3 and width 1e-4 at x = 3.31: false only within about
    1e-4 of 3.31, which a grid of 101 points on [0, 6] does not see."""
    def margin(x):
        dip = arb(5e-3) * (-(((x - arb(3.31)) / arb(1e-4)) ** 2)).exp()
        return gap.fact1_tail_bound(x) - gap.normal_tail(x) - dip
    c = certify(margin, {"x": Side(0, 6)}, strict=True)
    assert c.status == "refuted"
    x = c.witness["point"]["x"]
    assert abs(x - 3.31) < 3e-4 and c.witness["margin"] < 0
    grid = np.linspace(0, 6, 101)          # a grid does not see it
    assert all(float(margin(arb(float(t))).mid()) > 0 for t in grid)
    f = as_finding(c, what="planted")
    assert f.verdict == "refuted" and f.witness["params"]["x"] == x


def test_no_slack_leaves_the_box_open_and_never_proved():
    c = certify(lambda x, y: (x + y) ** 2 - 4 * x * y, {"x": Side(0.5, 2), "y": Side(0.5, 2)}, max_boxes=3000)
    assert c.status == "open" and c.left > 0
    assert as_finding(c, what="AM-GM").verdict == "inconclusive"


def test_bad_sides_are_refused():
    with pytest.raises(ValueError, match="finite interval"):
        Side(0, math.inf)
    with pytest.raises(ValueError, match="'log' side needs low > 0"):
        Side(0, 1, "log")


@pytest.mark.parametrize("fn", [gap.normal_tail, gap.fact1_tail_bound, gap.mills_lower, gap.mills_upper])
def test_the_formulas_on_arb_balls_enclose_their_floating_values(fn):
    """One source per formula: the interval proofs evaluate `bounds`' own functions on arb balls."""
    for t in (0.05, 0.7, 1.9, 6.0, 30.0):
        ball = fn(arb(t))
        assert ball.lower() <= fn(t) * (1 + 1e-14) and fn(t) * (1 - 1e-14) <= ball.upper(), (fn.__name__, t, ball)
