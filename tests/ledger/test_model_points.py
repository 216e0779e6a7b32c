"""ledger.model_points.sym_ratio: its fast path (the logs' difference) answers 1 only where the long way does,
and every other ratio is the long way's."""

import sympy

from rue_verify.ledger.model_points import K_, n_, s0_, s_, sym_ratio


def _long(a, b):
    return sympy.simplify(sympy.powsimp(sympy.simplify(a / b), force=True))


def test_equal_sides_give_one_and_unequal_ones_their_ratio():
    a = 2 * K_ * n_ * sympy.exp(-s0_ * sympy.log(n_) / s_)
    b = 2 * K_ * n_ ** (1 - s0_ / s_)
    assert sym_ratio(a, b) == 1 == _long(a, b)
    for planted in (2 * b, b * n_, b * sympy.exp(s0_), b + 1):      # each a ratio that is not 1
        got = sym_ratio(a, planted)
        assert got != 1 and sympy.simplify(got - _long(a, planted)) == 0, planted


def test_sides_not_known_positive_take_the_long_way():
    x = sympy.Symbol("x", real=True)
    assert sym_ratio(x * 2, x) == 2 and sym_ratio(sympy.exp(x) * x, x) == sympy.exp(x)
