"""A second review of the certificates: two of the sympy-certificate holes were the engine's own
(`verify.statements.decide`), so that the first command itself read these FALSE statements as certified.

"""

import sympy

from rue_verify.verify.statements import Holds, decide, rel
from rue_verify.verify.sums import max_over


def test_the_engine_certifies_0_3_greater_than_0_3():
    """0.1 + 0.2 is the double 0.30000000000000004; the statement prints it as 0.3: '0.3 > 0.3' certified."""
    h = Holds(rel(sympy.Float(0.1) + sympy.Float(0.2), ">", sympy.Float(0.3)), method="sympy")
    assert h.text() == "0.3 > 0.3"
    d = decide(h)
    assert d.status != "certified", d.detail


def test_the_engine_reads_a_maximum_s_sign_off_its_integer_range():
    """`statements._range_sign` reads MaxOver(f, (k, lo, hi)) at k = lo + j; with lo = 1/2 those are no integers of
    the range. The largest (-1)**(2k) over the integers of [1/2, 1] is 1, and 'MaxOver(...) < 0' is certified."""
    k = sympy.Symbol("k")
    h = Holds(rel(max_over((-1) ** (2 * k), (k, sympy.Rational(1, 2), 1)), "<", 0), method="sympy")
    d = decide(h)
    assert d.status != "certified", d.detail
