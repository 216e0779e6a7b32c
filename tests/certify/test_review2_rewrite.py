"""sympy certificates planted by a second review (`rue_verify.certify.rewrite`): a certificate whose statement text
(what a reader reads, and what the key names) is FALSE must fail `rewrite.check` (each passed before its fix).

"""

from rue_verify.certify import rewrite


def _cert(claim_srepr: str, functions: dict | None = None, replaced: list | None = None) -> dict:
    functions = functions or {}
    claim = rewrite.parse(claim_srepr, functions)
    c = {"kind": "sympy", "statement": str(claim), "source": "source-hash", "what": "review",
         "claim": claim_srepr, "given": [], "symbols": rewrite._symbols_field([claim]), "functions": functions,
         "replaced": replaced or []}
    c["key"] = rewrite.key(c["statement"], c["source"])
    return c


def test_a_float_computed_by_the_parse_prints_as_another_number():
    """HOLE: the Float check reads each Float *literal* (Float('0.1') prints as 0.1: accepted), but `parse` builds
    Add/Mul evaluated, and 0.1 + 0.2 evaluates to the double 0.30000000000000004, which prints as 0.3. The
    statement is then the printed claim, '0.3 > 0.3' (false), while sympy decides 0.30000000000000004 > 0.3."""
    c = _cert("StrictGreaterThan(Add(Float('0.1', precision=53), Float('0.2', precision=53)), "
              "Float('0.3', precision=53))")
    assert c["statement"] == "0.3 > 0.3"
    ok, detail = rewrite.check(c)
    assert not ok, f"'0.3 > 0.3' certified: {detail}"


def test_a_maximum_over_a_range_with_a_fractional_end_takes_its_sign_from_points_off_the_range():
    """HOLE (in `_maximum_sign`, and the engine's `statements._range_sign` has the same rule): MaxOver(f, (k, lo,
    hi)) is the largest f(k) over the INTEGERS k in [lo, hi] (`verify.sums.MaxOver`), but the sign is read from f at
    k = lo + j (j = 0, 1, ...), points of the range only when lo is an integer. With lo = 1/2 the integers of
    [1/2, 1] are {1}, where (-1)**(2k) = 1 > 0; at 1/2 + j it is -1: the false claim MaxOver(...) < 0 passes."""
    fn = {"MaxOver": {"nargs": [2], "assumptions": {}}}
    c = _cert("StrictLessThan(Function('MaxOver')(Pow(Integer(-1), Mul(Integer(2), Symbol('k'))), "
              "Tuple(Symbol('k'), Rational(1, 2), Integer(1))), Integer(0))", fn, ["MaxOver"])
    assert c["statement"] == "MaxOver((-1)**(2*k), (k, 1/2, 1)) < 0"
    ok, detail = rewrite.check(c)
    assert not ok, f"a maximum of 1 read as negative: {detail}"


def test_a_symbol_named_like_a_sympy_constant_is_refused():
    """Symbol('I', real=True) prints as the imaginary unit does: a file reading 'I**2 + 1 > 0' (false of I) with I a
    real symbol is refused as it is read, naming the symbol."""
    text = "StrictGreaterThan(Add(Pow(Symbol('I', real=True), Integer(2)), Integer(1)), Integer(0))"
    c = {"kind": "sympy", "statement": "I**2 + 1 > 0", "source": "source-hash", "what": "review", "claim": text,
         "given": [], "symbols": [["I", ["real"]]], "functions": {}, "replaced": []}
    c["key"] = rewrite.key(c["statement"], c["source"])
    ok, detail = rewrite.check(c)
    assert not ok and "'I'" in detail, detail
