"""verify.search: the deterministic search says which margin it minimised, and the relative margin finds the
point where a claim is tightest in proportion where the absolute one is drawn to small sides."""

import math

import pytest

from rue_verify.verify import Mode
from rue_verify.verify.search import Dim, minimize_margin, minimize_relative

SPACE = {"K": Dim(2, 64, "lin", integer=True)}


def _sides(p):
    """A claim lhs <= rhs with lhs = K (1 - 0.4/64) and rhs = K + 0.4: its absolute margin 0.4 (1 + K/64)
    is smallest at K = 2, its relative margin (0.4 + 0.4 K/64) / (K + 0.4) at K = 64."""
    K = p["K"]
    return K * (1 - 0.4 / 64), K + 0.4


def test_relative_and_absolute_margins_pick_different_points():
    lhs = lambda p: _sides(p)[0]                         # noqa: E731
    rhs = lambda p: _sides(p)[1]                         # noqa: E731
    absolute = minimize_margin(lambda p: rhs(p) - lhs(p), SPACE, Mode(), salt=0, random=64)
    relative = minimize_relative(lhs, rhs, SPACE, Mode(), salt=0, random=64)
    assert absolute.params["K"] == 2 and relative.params["K"] == 64
    rel = lambda p: (rhs(p) - lhs(p)) / max(abs(lhs(p)), abs(rhs(p)))     # noqa: E731
    assert relative.margin == pytest.approx(min(rel({"K": k}) for k in range(2, 65)), rel=1e-12)
    assert "minimising the relative margin" in relative.domain
    assert "minimising the margin as the check defines it" in absolute.domain


def test_a_relative_violation_is_negative_and_both_zero_is_zero():
    r = minimize_relative(lambda p: 2.0 * p["K"], lambda p: float(p["K"]), SPACE, Mode(), salt=1, random=8)
    assert r.margin == pytest.approx(-0.5) and r.violations > 0
    z = minimize_relative(lambda p: 0.0, lambda p: 0.0, SPACE, Mode(), salt=1, random=8)
    assert z.margin == 0.0 and z.violations == 0


def test_an_undefined_side_is_not_a_pass_and_a_bad_kind_is_refused():
    r = minimize_relative(lambda p: math.nan, lambda p: 1.0, SPACE, Mode(), salt=2, random=8)
    assert r.undefined > 0 and "undefined" in r.domain
    with pytest.raises(ValueError, match="kind: the margin minimised is one of absolute, relative"):
        minimize_margin(lambda p: 1.0, SPACE, Mode(), salt=0, kind="ratio")


def test_relative_margin_keeps_sides_a_float_would_underflow():
    """Sides of 1e-400 and 2e-400 (mpmath values) have relative margin 1/2, not 0; the same sides as floats (both
    0.0) would read 0: the search reads them as mpmath numbers."""
    import mpmath
    r = minimize_relative(lambda p: mpmath.mpf("1e-400") * p["K"], lambda p: mpmath.mpf("2e-400") * p["K"], SPACE,
                          Mode(), salt=2, random=8)
    assert r.margin == pytest.approx(0.5)
    wrong = minimize_relative(lambda p: mpmath.mpf("3e-400") * p["K"], lambda p: mpmath.mpf("2e-400") * p["K"],
                              SPACE, Mode(), salt=2, random=8)
    assert wrong.margin == pytest.approx(-1 / 3)
