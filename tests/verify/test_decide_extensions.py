"""What the engine reads beyond plain real arithmetic, each with a planted wrong case: floor and ceiling
through their defining inequalities on an integer, integer symbols kept integer (witnesses too); erf, erfc,
Phi and the Mills ratio through sound facts (each true of the function); arb boxes with an unbounded side
(a tail proved past a cut), a documented budget of boxes, and margins below the floats' range reported as
they are; `method="sympy"` reading its given relations; `union_bound` over one range or several, refusing
malformed ones; findings from the caller's own computation saying the toolkit did not check it; and
`decide`'s JSON saying neither true nor false of an undecided step."""

import dataclasses

import mpmath
import pytest
import sympy

from rue_verify.verify import Finding, from_exact, from_exhaustive, from_margin, from_value, union_bound
from rue_verify.verify.findings import fmt
from rue_verify.verify.proofs import step_mutants
from rue_verify.verify.statements import ARB_MAX_BOXES, Holds, Phi, decide, on_box, phi, rel

x, y, a = sympy.symbols("x y a", real=True)
xp = sympy.Symbol("x", positive=True)
n = sympy.Symbol("n", integer=True, positive=True)


# ------------------------------------------------------------------------------------ floor, ceiling, integers
def test_a_false_floor_inequality_is_refuted_at_an_integer_given_as_an_integer():
    d = decide(Holds(rel(sympy.floor(n / 2), ">=", n / 2), method="z3"))
    assert d.status == "refuted" and d.method == "z3", d
    k = d.witness["params"]["n"]
    assert isinstance(k, int) and k % 2 == 1 and k > 0, d.witness          # an odd n, as an int (not 1.0)
    assert f"'n': {k}}}" in d.detail, d.detail                                  # printed as an integer too


def test_true_floor_and_ceiling_steps_are_certified_through_their_defining_inequalities():
    for claim in (rel(sympy.floor(x), "<=", x), rel(sympy.floor(x), ">", x - 1), rel(sympy.ceiling(n / 2), ">=", n / 2),
                  rel(sympy.ceiling(x), "<", x + 1), rel(sympy.frac(x), "<", 1)):
        d = decide(Holds(claim, method="z3"))
        assert d.status == "certified" and "defining inequalities" in d.detail, (claim, d)
    assert step_mutants(Holds(rel(sympy.ceiling(n / 2), ">=", n / 2), method="z3"))["negation"] == "refuted"
    # floor(x) >= x - 1/2 is false at x = 3/4: refuted, the witness a real
    d = decide(Holds(rel(sympy.floor(x), ">=", x - sympy.Rational(1, 2)), method="z3"))
    assert d.status == "refuted" and d.witness["params"]["x"] % 1 > 0.5, d


def test_a_sampled_witness_gives_an_integer_symbol_as_an_int_and_respects_signs():
    d = decide(Holds(rel(n ** 2, "<=", 10 * n), method="sympy"))          # false for n > 10
    assert d.status == "refuted" and isinstance(d.witness["params"]["n"], int) and d.witness["params"]["n"] > 10, d
    neg = sympy.Symbol("m", negative=True)
    d = decide(Holds(rel(neg, "<", 0), method="sympy"))                # true: never refuted by a positive sample
    assert d.status == "certified", d


def test_arb_refutes_an_integer_symbol_only_at_an_integer():
    k = sympy.Symbol("k", integer=True)
    assert decide(Holds(rel(k * (k - 1), ">=", 0), method="arb", box={k: (-3, 5)})).status != "refuted"
    d = decide(Holds(rel(k * (k - 1), ">=", 1), method="arb", box={k: (-3, 5)}))
    assert d.status == "refuted" and isinstance(d.witness["params"]["k"], int), d


# ----------------------------------------------------------------------------------- Gaussian tails (z3 facts)
def test_the_mills_ratio_bounds_are_certified_over_x_positive_and_can_fail():
    upper = Holds(rel(1 - Phi(xp), "<=", phi(xp) / xp), method="z3")                 # Gordon 1941, upper
    lower = Holds(rel(xp / (xp ** 2 + 1) * phi(xp), "<=", 1 - Phi(xp)), method="z3")   # Gordon 1941, lower
    chernoff = Holds(rel(sympy.erfc(xp), "<=", sympy.exp(-xp ** 2)), method="z3")
    for st in (upper, lower, chernoff):
        d = decide(st)
        assert d.status == "certified", (st.text(), d)
    r = step_mutants(upper)
    assert r["negation"] == "refuted" and r["verdict"] == "can fail", r


def test_a_false_erfc_step_is_refuted_and_never_certified():
    for claim, dom in ((rel(sympy.erfc(xp), "<=", sympy.exp(-2 * xp ** 2)), ()),                 # too fast a tail
                       (rel(sympy.erfc(x), "<=", sympy.exp(-x ** 2)), ()),                       # false for x < 0
                       (rel(1 - Phi(xp), "<=", phi(xp) / (2 * xp)), ()),                        # half Gordon's
                       (rel(1 - Phi(x), ">=", phi(x) / x), (rel(x, ">", 0),))):                 # the wrong side
        d = decide(Holds(claim, dom, method="z3"))
        assert d.status == "refuted", (claim, d)
        at = {s: sympy.Rational(v) for s, v in d.witness["params"].items()}
        sub = {s: at[str(s)] for s in claim.free_symbols}
        lhs, rhs = (sympy.N(side.subs(sub), 30) for side in (claim.lhs, claim.rhs))
        assert claim.func(lhs, rhs) is sympy.false, (claim, sub, lhs, rhs)


def test_the_erf_facts_are_true_of_the_function():
    # each fact _ToZ3.erf_facts states, at points from 1e-3 to 40 (where erfc is 1e-697), to 60 digits
    mpmath.mp.dps = 60
    try:
        for s in (mpmath.mpf("1e-3"), mpmath.mpf("0.3"), 1, 2, 5, 12, 40):
            s = mpmath.mpf(s)
            e, t, rp = mpmath.exp(-s ** 2), mpmath.erfc(s), mpmath.sqrt(mpmath.pi)
            assert t <= e and 2 * s * e <= rp * (2 * s * s + 1) * t and rp * s * t <= e, s
    finally:
        mpmath.mp.dps = 15


# --------------------------------------------------------------------------- arb: tails, budget, underflow
def test_arb_certifies_past_its_box_by_a_proved_tail_and_refutes_a_false_tail_step():
    d = decide(Holds(rel(1 - Phi(xp), "<=", phi(xp) / xp), method="arb", box={xp: (sympy.Rational(1, 2), sympy.oo)}))
    assert d.status == "certified" and "tail" in d.detail and "oo" in d.partial, d
    d = decide(Holds(rel(x / (1 + x), "<", 1), on_box({x: (0, sympy.oo)}), "arb", {x: (0, sympy.oo)}))
    assert d.status == "certified" and d.partial is None, d
    d = decide(Holds(rel(sympy.erfc(x), "<=", sympy.exp(-x ** 2) / 2), method="arb", box={x: (0, sympy.oo)}))
    assert d.status == "refuted" and d.witness["params"]["x"] >= 0, d
    # a tail neither the claim nor its monotone margin proves: argued, saying how to give a cut
    d = decide(Holds(rel(sympy.sin(x), "<=", 2), method="arb", box={x: (0, sympy.oo)}, seconds=2))
    assert d.status == "argued" and "cut" in d.detail, d


def test_a_box_too_large_for_the_default_budget_is_certified_with_a_raised_one():
    st = Holds(rel((x + y) ** 2, ">", 4 * x * y - sympy.Rational(1, 20)), method="arb", box={x: (1, 2), y: (1, 2)})
    assert st.max_boxes == ARB_MAX_BOXES
    d = decide(st)
    assert d.status == "argued" and f"max_boxes = {ARB_MAX_BOXES}" in d.detail, d      # never refuted, and says why
    d = decide(dataclasses.replace(st, max_boxes=60_000))
    assert d.status == "certified" and d.partial, d
    with pytest.raises(ValueError, match="max_boxes"):
        Holds(rel(x, "<", 1), method="arb", box={x: (0, 0.5)}, max_boxes=0)


def test_a_margin_below_the_floats_range_is_reported_as_it_is():
    from rue_verify.verify.intervals import Side, certify
    d = decide(Holds(rel(sympy.erfc(x), ">", 0), method="arb", box={x: (30, 31)}))
    assert d.status == "certified" and "smallest 0)" not in d.detail and "e-4" in d.detail, d
    c = certify(lambda x: x.erfc(), {"x": Side(30, 31)}, strict=True)
    assert c.proved and c.smallest > 0 and c.smallest_text.endswith(("e-420", "e-421", "e-419")), c
    assert fmt(mpmath.mpf("1e-400")) == "1.0e-400" and fmt(0.0) == "0"
    f = from_margin(mpmath.mpf("0.5") * mpmath.mpf("1e-400"), "d", holds="h", fails="f")
    assert f.verdict == "holds" and "5.0e-401" in f.detail, f.detail


# ----------------------------------------------------------------------------------- sympy reads its given
def test_sympy_certifies_what_follows_from_its_given_and_refuses_what_does_not():
    ok = decide(Holds(rel(x ** 2, ">=", 1), (rel(x, ">=", 1),), "sympy"))
    assert ok.status == "certified" and ok.method == "sympy" and "x = t_x + 1" in ok.detail, ok
    chain = decide(Holds(rel(1 / a ** 2, ">=", 1 / y ** 2), (rel(a, ">", 0), rel(a, "<=", y)), "sympy"))
    assert chain.status == "certified", chain
    both = decide(Holds(rel(xp ** 2, "<=", 1), (rel(xp, "<=", 1),), "sympy"))                # 0 < x <= 1
    assert both.status == "certified", both
    assert decide(Holds(rel(x ** 2, ">=", 4), (rel(x, ">=", 1),), "sympy")).status == "refuted"
    assert decide(Holds(rel(x ** 2, "<=", 1), (rel(x, "<=", 1),), "sympy")).status == "refuted"   # x = -2
    unread = decide(Holds(rel(x ** 4, ">=", 1), (rel(x ** 2, ">=", 1),), "sympy"))
    assert unread.status == "argued" and "could not read" in unread.detail, unread


# --------------------------------------------------------------------------------------------- union bound
def test_union_bound_takes_one_range_or_several_and_refuses_malformed_ones():
    from rue_verify.verify import from_proof
    i, t = sympy.symbols("i t", integer=True)
    K = sympy.Symbol("K", integer=True, positive=True)
    p = sympy.Symbol("p", positive=True)
    one = union_bound((i, 1, K), p, K * p)
    assert "i = 1..K" in one.statement and "1 indices" not in one.statement
    assert from_proof([("union", one)], "d", "c").proof["steps"][0]["status"] == "certified"
    two = union_bound(((i, 1, K), (t, 1, 2)), p, 2 * K * p)
    assert "|I| = 2*K" in two.statement
    for bad in ((1, 2, 3), "i", [(i, 1)], ((i, 1, K), (i, 1, 2)), (i, 1, i + 1), ()):
        with pytest.raises(ValueError, match=r"^union_bound: index") as err:
            union_bound(bad, p, K * p)
        assert "\n" not in str(err.value)


# ------------------------------------------------------------------------- the caller's own computations
def test_findings_from_the_callers_own_computation_say_the_toolkit_did_not_check_it():
    said = "not checked by the toolkit"
    exact = from_exact(True, "symbolic", "an identity")
    assert exact.certified and exact.trusted and said in exact.decision and said in exact.detail
    assert exact.decided_by == "certified"                     # the verdict machinery reads it as before
    exh = from_exhaustive(None, "every history", holds="none found", fails="found")
    assert exh.decided_by == "exhausted" and "exhausted by the caller's search" in exh.detail and said in exh.decision
    val = from_value(1.0, "d", "one", at_most=2.0, certified=True)
    assert val.certified and said in val.detail
    plain = from_value(1.0, "d", "one", at_most=2.0)
    assert not plain.trusted and said not in plain.detail
    assert said not in from_exact(True, "d", "a float check", certified=False).detail
    assert not Finding("holds", "d", "x", certified=True).trusted      # the engine's own findings are not marked


# ----------------------------------------------------------------------------------------- decide's JSON
def test_decide_says_neither_true_nor_false_of_an_undecided_step(monkeypatch):
    # RUE's own decide: skipped where the ledger is absent (the engine's tests run without it)
    dec = pytest.importorskip("rue_verify.decide", exc_type=ImportError)
    from rue_verify.verify.histories import Outcome

    def tie_only(m, fn):
        return Outcome(None, 1, 1, 0, 1, 0.0, tie=((0, 1, 0, 1, 0), 0.5, "a tie"))
    monkeypatch.setattr(dec, "search", tie_only)
    res = dec.decide(lambda m, arms: [], 2, 5)
    assert res["status"] == "undecided" and res["holds"] is None, res
    monkeypatch.setattr(dec, "search", lambda m, fn: Outcome(None, 1, 1, 0, 1, 0.0))
    assert dec.decide(lambda m, arms: [], 2, 5)["holds"] is True
