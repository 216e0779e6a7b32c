"""rue_verify.verify.intervals: the arb branch-and-bound proves a true inequality on a whole box,
finds a false one whose only violations sit in a narrow region, and says 'open' where a bound has no
slack (the paper's formulas on arb balls are held to their floating values in tests/bounds/test_arb_balls.py)."""

import math

import numpy as np
import pytest
from flint import arb

from rue_verify.verify.intervals import Side, as_finding, certify


def test_a_true_inequality_is_proved_on_the_whole_box():
    c = certify(lambda x, y: (x * y).log() - x.log() - y.log() + 1, {"x": Side(0.1, 10, "log"), "y": Side(1, 5)},
                strict=True)
    assert c.proved and c.boxes >= 1 and c.smallest > 0
    f = as_finding(c, what="log(xy) = log x + log y, plus 1")
    assert f.verdict == "holds" and f.certified and "x in [0.1, 10]" in f.domain


def test_a_violation_in_a_narrow_region_is_found():
    """A margin of 1e-3 + x^2/10^4 minus a bump of height 5e-3 and width 1e-4 at x = 3.31: false only within
    about 1e-4 of 3.31, which a grid of 101 points on [0, 6] does not see."""
    def margin(x):
        dip = arb(5e-3) * (-(((x - arb(3.31)) / arb(1e-4)) ** 2)).exp()
        return arb(1e-3) + x * x / 10000 - dip
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
