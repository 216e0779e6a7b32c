"""The holes a reviewer found in the certificates and the engine (session 7), each planted here and now rejected:
a certificate file whose strings sympy would parse (and run) in the checker, assumptions a file sets False or
hides behind a bound variable's name, floats whose printed text is another number, a bound index declared with a
sign its range does not show, a farkas tolerance named by a prefix of another; in the engine, a two-sided bound's
upper case read with the lower case's substitution, a kept sum taken as a constant under d/dx, a domain's point
accepted within a rounding tolerance."""

import json
import subprocess
import sys

import pytest
import sympy

from rue_verify.certify import farkas, rewrite
from rue_verify.verify.statements import Holds, decide, rel


def _file(claim, given=(), statement=None):
    h = Holds(claim, tuple(given), "sympy")
    return h, json.loads(json.dumps(rewrite.certificate(h, statement or h.text(), "src", "w")))


@pytest.mark.parametrize("ctor", ["Tuple", "exp", "log", "Abs", "Max", "harmonic", "IndexedBase", "Integer"])
def test_a_string_in_a_certificate_never_reaches_sympys_parser(tmp_path, ctor):
    flag = tmp_path / "ran"
    payload = f"__import__('pathlib').Path({str(flag)!r}).write_text('x') or 1"
    with pytest.raises(ValueError):
        rewrite.parse(f"{ctor}({payload!r})", {})
    assert not flag.exists()


def test_a_file_that_would_run_code_fails_and_leaves_the_other_checks_alone(tmp_path):
    code = ("import sys;m=sys.modules['rue_verify.certify.rewrite'];m.decide=lambda c,g:(True,'ok');"
            "f=__import__('rue_verify.certify.farkas',fromlist=['x']);f.verify_multipliers=lambda *a,**k:(True,'')")
    st = "1 > 2"
    (tmp_path / "a.json").write_text(json.dumps({
        "kind": "sympy", "statement": st, "source": "s", "what": "w", "key": rewrite.key(st, "s"),
        "claim": "StrictGreaterThan(Integer(1), Integer(2))", "given": ["Tuple(%r)" % ("exec(%r) or 1" % code)],
        "symbols": [], "functions": {}, "replaced": []}))
    st2 = "toy: m <= 0"
    bad = {"kind": "farkas", "statement": st2, "source": "s", "what": "w", "key": farkas.key(st2, "s"), "n_vars": 6,
           "n": 4, "step": "toy", "complete": True, "branching": {"rule": "every", "K": 2}, "values": ["1/1"],
           "root": {"arms": [0, 1, 0, 1], "rows": [], "status": "leaf", "branch": [], "y": None,
                    "checks": [{"label": "m", "rows": [[[6], [0], None, 0]], "kind": "bound", "y": [[0, "-1/1"]]}]},
           "nodes": []}
    (tmp_path / "b.json").write_text(json.dumps(bad))
    r = subprocess.run([sys.executable, "-m", "rue_verify.certify", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 1 and "farkas: 0 checked, 1 failed" in r.stdout and "sympy: 0 checked, 1 failed" in r.stdout


def test_assumptions_a_file_sets_false_or_hides_behind_a_bound_name_are_refused():
    x = sympy.Symbol("x", integer=False)
    _, c = _file(sympy.Ne(x, 1, evaluate=False))
    assert not rewrite.check(c)[0]
    k = sympy.Symbol("k", nonnegative=True)
    claim = sympy.Ge(k + sympy.Sum(1, (k, 1, 2)), 2, evaluate=False)       # k + 2 >= 2: false at k = -1
    _, c = _file(claim, statement=str(claim))
    c["key"] = rewrite.key(c["statement"], c["source"])
    assert not rewrite.check(c)[0]
    _, c = _file(claim)                                                     # said, it checks
    assert rewrite.check(c)[0]


def test_a_float_whose_printed_text_is_another_number_is_refused():
    x = sympy.Symbol("x", positive=True)
    _, c = _file(sympy.Gt(sympy.Float(0.1) * x + sympy.Float(0.2) * x, sympy.Float(0.3) * x, evaluate=False))
    assert c["statement"] == "0.3*x > 0.3*x for x positive" and not rewrite.check(c)[0]
    _, c = _file(sympy.Gt(2 * x, sympy.Float(1.9375, precision=5) * x, evaluate=False))
    assert not rewrite.check(c)[0]
    _, c = _file(sympy.Gt(2 * x, sympy.Float(1.4) * x, evaluate=False))    # 1.4 prints as itself: checks
    assert rewrite.check(c)[0]


def test_a_bound_index_declared_with_a_sign_its_range_does_not_show_signs_nothing():
    n = sympy.Symbol("n", integer=True, positive=True)
    k = sympy.Symbol("k", integer=True, negative=True)                      # the range 1..n is positive
    claim = sympy.Lt(sympy.Sum(k * sympy.exp(k), (k, 1, n)), 0, evaluate=False)
    h, c = _file(claim)
    ok, detail = rewrite.check(c)
    assert not ok and "declared negative" in detail, detail
    assert decide(h).status != "certified" and decide(Holds(claim, (), "auto")).status != "certified"


def test_the_engine_reads_every_case_of_a_two_sided_bound_with_its_own_substitution():
    x, s = sympy.symbols("x s", real=True)
    given = (rel(x, ">=", 0), rel(x, "<=", 1), rel(s, ">=", -x))
    for method in ("sympy", "auto"):
        assert decide(Holds(sympy.Gt(s + 1, 0, evaluate=False), given, method)).status != "certified"  # x=1, s=-1
        assert decide(Holds(sympy.Ge(s + 1, 0, evaluate=False), given, method)).status == "certified"


def test_a_sum_in_the_variable_of_a_derivative_is_no_constant():
    x = sympy.Symbol("x", real=True)
    j, n = sympy.Symbol("j", integer=True, positive=True), sympy.Symbol("n", integer=True, positive=True)
    S = sympy.Sum(sympy.exp(j * x), (j, 1, n))
    assert decide(Holds(sympy.Eq(sympy.Derivative(S, x), 0, evaluate=False), (), "sympy")).status != "certified"
    assert decide(Holds(sympy.Eq(sympy.Derivative(x * S, x), S, evaluate=False), (), "auto")).status != "certified"


def test_a_domain_met_only_within_rounding_is_not_a_point_of_the_domain():
    x = sympy.Symbol("x", real=True)
    B = sympy.Integer(10) ** 30
    d = decide(Holds(sympy.Le(x ** 2 + 1, 0, evaluate=False),
                     (sympy.Eq(x, B, evaluate=False), rel(x, "<=", B - 1000)), "sympy"))
    assert d.status != "refuted", d
