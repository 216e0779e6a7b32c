"""bounds.orders: the orders of Section 5.1, derived by sympy limits."""

import sympy

from bounds import orders


def test_orders_are_derived():
    ex = orders.n_exponents()
    assert ex["gap_term_E1"] == sympy.Rational(-1, 2) and ex["gap_term_E2"] == sympy.Rational(-1, 2)
    assert orders.rho_limit_large_K() == 1
