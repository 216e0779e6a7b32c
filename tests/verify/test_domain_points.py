"""`verify.domain_points`: points where a statement's given equations hold, for statements a random point of
the domain almost never meets."""

import sympy

from rue_verify.verify.domain_points import solved_refutation
from rue_verify.verify.statements import Holds, _sample_refutation, _truth

a, b = sympy.symbols("a b", positive=True)
K = sympy.Symbol("K", integer=True, positive=True)


def test_a_statement_false_only_where_its_given_equation_holds_is_refuted_there():
    """exp(a) > 2 exp(b) - 1 given a = b is false at every point of its domain (e^b < 2e^b - 1 for b > 0), but a
    point drawn at random meets a = b with probability zero: the sampler finds nothing, the solved search does,
    and its witness meets the equation and refutes the claim to 50 digits."""
    st = Holds(sympy.exp(a) > 2 * sympy.exp(b) - 1, given=(sympy.Eq(a, b),))
    assert _sample_refutation(st, tries=48) is None
    d = solved_refutation(st)
    assert d is not None and d.status == "refuted", d
    point = {s: sympy.Float(d.witness["params"][str(s)], 50) for s in (a, b)}
    assert _truth(sympy.Eq(a, b), point) is True and _truth(st.claim, point) is False


def test_a_true_statement_is_never_refuted_and_an_integer_is_solved_only_to_an_integer():
    """Planted the other way: a statement true on its domain (a <= 2b given a = b) gets no refutation; K given
    by 2K = L (L an integer too) is an integer only where L is even, and a point where it is not is never used."""
    assert solved_refutation(Holds(a <= 2 * b, given=(sympy.Eq(a, b),))) is None
    L = sympy.Symbol("L", integer=True, positive=True)
    st = Holds(K > 100, given=(sympy.Eq(2 * K, L),))
    d = solved_refutation(st)
    assert d is not None and isinstance(d.witness["params"]["K"], int) and d.witness["params"]["K"] <= 100, d
    assert 2 * d.witness["params"]["K"] == d.witness["params"]["L"]
    assert solved_refutation(Holds(K > 100, given=(sympy.Eq(2 * K, 2 * L + 1),))) is None     # never an integer


def test_no_given_equation_no_search():
    assert solved_refutation(Holds(a > b, given=(b < a,))) is None
