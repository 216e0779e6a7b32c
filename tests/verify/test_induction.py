"""The induction engine alone (`rue_verify.verify.induction`), on toy systems: an invariant proved
for every n, the fault of an event assumed one round too early found without being told, the lemmas
named as what a proof rests on, an implication at a state, a sympy formula translated faithfully, the
solver's time limit, and a missing solver."""

import sys

import pytest
import sympy

from rue_verify.verify import induction as ind

z3 = pytest.importorskip("z3")


def toy(event_from: int) -> ind.System:
    """A counter x that a round may grow only when the state's y >= 1; the event E is y <= 0. On E the
    counter never grows, so x <= 0 is invariant exactly where E covers the states that decide rounds."""
    def params():
        return {"c": z3.Real("c")}, [z3.Real("c") > 0], {}

    def state(p, tag):
        v = {"x": z3.Real(f"x@{tag}"), "y": z3.Real(f"y@{tag}")}
        return v, [v["x"] >= 0]

    def rounds(p, s, s2):
        return [("grow", z3.And(s["y"] >= 1, s2["x"] == s["x"] + 1)), ("stay", s2["x"] == s["x"])]

    return ind.System(params, state, lambda p, s: [s["x"] == 0], rounds, lambda p, s: s["y"] <= 0, event_from,
                      "the toy counter")


FLAT = ind.Invariant("flat", "x <= 0", lambda p, s: s["x"] <= 0,
                     (ind.Lemma("LEMMA-C", "c is positive", lambda p, s: p["c"] > 0),))


def test_an_invariant_is_proved_for_every_n_where_the_event_covers_the_base_state():
    d = ind.decide(toy(0), FLAT)
    assert d.proved and d.rests_on == ("LEMMA-C",)
    assert [c.answer for c in d.cases] == ["unsat"] * len(d.cases) and len(d.cases) == 5
    f = ind.finding(d)
    assert f.verdict == "holds" and f.certified and "every budget n" in f.domain and "LEMMA-C" in f.domain


def test_the_event_one_round_late_is_found_at_the_round_from_the_base_state_without_being_told():
    d = ind.decide(toy(1), FLAT)
    assert d.status == "counterexample"
    bad = d.failing
    assert bad.label == "the round from the base state, not on E: grow" and bad.offset == 0
    assert bad.model["y@t"] >= 1 and bad.model["x@t1"] == 1                # the abstract counterexample
    # every later round is on E and proved: only the base round fails
    assert [c.label for c in d.cases if c.answer == "sat"] == [bad.label]
    f = ind.finding(d)                                   # no history search behind it: open, not refuted
    assert f.verdict == "inconclusive" and "open" in f.detail
    assert ind.finding(d, witness={"params": {}, "lhs": 1, "rhs": 0}).verdict == "refuted"


def test_a_state_implication_and_asking_again_at_fixed_values():
    never = ind.AtState("never", "on E, y >= 1 is impossible", lambda p, s: [s["y"] >= 1],
                        lambda p, s: z3.BoolVal(False))
    assert ind.decide(toy(0), never).proved
    d = ind.decide(toy(1), FLAT, fix={"c": 3}, only="the round from the base state, not on E: grow")
    assert len(d.cases) == 1 and d.failing.model["c"] == 3


def test_a_formula_written_once_in_sympy_is_what_the_solver_sees():
    K, s0, x = sympy.symbols("K sigma0_sq x", positive=True)
    expr = (1 + 1 / (K * s0)) ** 2 * sympy.sqrt(x) / (x + 1) - 3
    env = {K: z3.Real("K"), s0: z3.Real("s0"), x: z3.Real("x")}
    term, side = ind.from_sympy(expr, env)
    for k, a, b in ((2, 0.5, 3.0), (7, 2.0, 0.25), (3, 1.5, 9.0)):
        s = z3.Solver()
        s.add(*side, env[K] == k, env[s0] == a, env[x] == b, z3.Real("v") == term)
        assert s.check() == z3.sat
        v = s.model()[z3.Real("v")]
        got = float(v.approx(15).as_decimal(15).rstrip("?")) if z3.is_algebraic_value(v) else \
            float(v.as_fraction())
        assert got == pytest.approx(float(expr.subs({K: k, s0: a, x: b})), rel=1e-9)
    with pytest.raises(ValueError, match="no z3 form"):
        ind.from_sympy(sympy.exp(x), env)


def test_the_time_limit_gives_unknown_and_the_step_stays_open():
    def params():
        return {}, [], {}

    def state(p, tag):
        xs = z3.Reals(" ".join(f"{v}@{tag}" for v in "abcde"))
        return {"xs": xs}, [x > 0 for x in xs] + [z3.Product(xs) == 1]

    amgm = ind.AtState("amgm", "sum of squares >= 5 when the product is 1", lambda p, s: [],
                       lambda p, s: z3.Sum([x * x for x in s["xs"]]) >= 5)
    sys_ = ind.System(params, state, lambda p, s: [], lambda p, s, s2: [], lambda p, s: z3.BoolVal(True), 0,
                      "five reals")
    slow = ind.decide(sys_, amgm, timeout_ms=1)
    assert slow.status == "unknown" and slow.cases[0].reason
    assert ind.finding(slow).verdict == "inconclusive" and "unknown" in ind.finding(slow).detail
    assert ind.decide(sys_, amgm, timeout_ms=60_000).proved


def test_a_missing_solver_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "z3", None)
    with pytest.raises(ind.SolverMissing, match="pip install z3-solver"):
        ind.z3()


def test_a_decision_with_no_case_decides_nothing():
    """An `only=` that matches no case leaves the step open: it is never 'proved' by having nothing to check."""
    d = ind.decide(toy(0), FLAT, only="no such case")
    assert d.cases == [] and d.status == "unknown" and not d.proved
    f = ind.finding(d)
    assert f.verdict == "inconclusive" and not f.certified


def test_a_proved_step_carries_the_invariant_it_decided_as_its_statement():
    """The finding of a proved induction states the invariant z3 decided (its text and LaTeX, through
    sympy), so a proof step it certifies shows what was proved; an implication at a state shows its premises
    implying its conclusion; a formula with an operator sympy lacks falls back to z3's own text."""
    f = ind.finding(ind.decide(toy(0), FLAT))
    assert f.statement == "at every state: x@t <= 0" and f.latex == r"x@t \leq 0"
    never = ind.AtState("never", "on E, y >= 1 is impossible", lambda p, s: [s["y"] >= 1],
                        lambda p, s: z3.BoolVal(False))
    g = ind.finding(ind.decide(toy(0), never))
    assert "Implies(y@t >= 1, False)" in g.statement and r"\Rightarrow" in g.latex
    x, y = z3.Reals("x y")
    X, Y = sympy.symbols("x y", real=True)
    assert sympy.simplify(ind.to_sympy(x * y - 2 * x / y + x ** 2) - (X * Y - 2 * X / Y + X ** 2)) == 0
    assert sympy.simplify(ind.to_sympy(x * y - 2 * x / y + x ** 2) - (X * Y + 2 * X / Y + X ** 2)) != 0
    bv = z3.BitVec("b", 8)
    text, latex = ind.statement_of(bv & 3 == 1)          # bit-vector and: no sympy counterpart
    assert "b & 3" in text and latex.startswith(r"\texttt{")
    from rue_verify.verify.proofs import from_proof
    step = from_proof([("the invariant", f)], "every n", "x <= 0").proof["steps"][0]
    assert step["status"] == "certified" and step["statement"] == f.statement
    assert not ind.finding(ind.decide(toy(1), FLAT)).statement        # an open step states nothing as proved


def test_a_round_proved_in_cuts_carries_each_piece_and_a_false_or_unsupported_cut_proves_nothing():
    """A round's argument in pieces (`Cut`): each piece is a case of its own (its problem carried for cvc5), proved
    from the hypotheses it keeps, and the round's case assumes it. Planted: a false cut (x grows by 2) and a cut kept
    from the one hypothesis it needs (E) are each satisfiable, which leaves the step open, neither proved nor
    refuted (a cut's model is no counterexample of the step). (On E the round that grows cannot happen, so a cut
    that keeps E is proved whatever it says: the planted false cut keeps the round, not E.)"""
    def no_growth(p, s, s2):                      # on E the round that grows cannot happen: y <= 0 and y >= 1
        return s["y"] <= 0
    kept = ("the system's parameters", "the state before the round", "the event E at the state before", "the round:")
    good = ind.Invariant("flat", "x <= 0", lambda p, s: s["x"] <= 0,
                         cuts=(ind.Cut("y <= 0 (E)", "grow", no_growth, kept),))
    d = ind.decide(toy(0), good)
    cut_cases = [c for c in d.cases if c.cut]
    assert d.proved and len(cut_cases) == 2 and all(c.answer == "unsat" and c.smt2 for c in cut_cases), d.summary()
    assert all("[the cut: y <= 0 (E)]" in c.label for c in cut_cases)
    grow = next(c for c in d.cases if c.label == "the round from any later state, on E: grow")
    assert "a cut, proved as a case of its own" in grow.smt2
    f = ind.finding(d)
    assert f.verdict == "holds" and len(f.smt2_cases) == len(d.cases)
    false = ind.Invariant("flat", "x <= 0", lambda p, s: s["x"] <= 0,
                          cuts=(ind.Cut("x grows by 2", "grow", lambda p, s, s2: s2["x"] == s["x"] + 2,
                                        kept[:2] + kept[3:]),))
    unsupported = ind.Invariant("flat", "x <= 0", lambda p, s: s["x"] <= 0,
                                cuts=(ind.Cut("y <= 0, E dropped", "grow", no_growth, kept[:2] + kept[3:]),))
    for step in (false, unsupported):
        d = ind.decide(toy(0), step)
        assert d.status == "unknown" and d.failing is None, d.summary()
        f = ind.finding(d)
        assert f.verdict == "inconclusive" and "a cut of the argument is false" in f.detail, f.detail


def _read_flat(relation, given=None) -> ind.Invariant:
    """FLAT with a reading: `relation` in the sympy symbols x (the state's counter) and c (the parameter)."""
    x, c = sympy.symbols("x c", real=True)
    return ind.Invariant("flat", "x <= 0", lambda p, s: s["x"] <= 0, FLAT.lemmas,
                         reading=ind.Reading(relation(x, c), lambda p, s: {x: s["x"], c: p["c"]}, given))


def test_a_reading_is_the_statement_only_when_z3_derives_it_from_what_was_decided():
    """A step's `Reading` is what a derivation's `Found` link is matched against: the finding states it only when its
    own case (what the step decided, the ties, and the relation negated) is unsat and its hypotheses have a model.
    Planted: a relation the invariant does not give (x <= -1), one read the wrong way (x >= 1), and ties that
    contradict each other (c < 0 beside the domain's c > 0), each leaving the finding with no statement and saying
    why; `restate` then refuses to replace a tied statement."""
    from rue_verify.verify.derivation import Statement, restate
    d = ind.decide(toy(0), _read_flat(lambda x, c: sympy.Le(x, c)))      # x <= 0 < c
    read = next(c for c in d.cases if c.reading)
    assert d.proved and read.answer == "unsat" and read.label == ind.READ and read.smt2, d.summary()
    f = ind.finding(d)
    assert f.statement_tied and f.statement_object.text() == Statement(sympy.Symbol("x", real=True), "<=",
                                                                        sympy.Symbol("c", real=True)).text()
    assert len(f.smt2_cases) == len(d.cases)                                # the reading's problem goes to cvc5
    with pytest.raises(ValueError, match="states its own relation"):
        restate(f, Statement(sympy.Symbol("x", real=True), "<=", 5))
    for wrong, given, why in ((lambda x, c: sympy.Le(x, -1), None, "does not derive"),
                              (lambda x, c: sympy.Ge(x, 1), None, "does not derive"),
                              (lambda x, c: sympy.Le(x, c), lambda p, s: [p["c"] < 0], "contradict each other")):
        d = ind.decide(toy(0), _read_flat(wrong, given))
        assert d.proved and d.relation is None and why in d.unread, (d.summary(), d.unread)
        f = ind.finding(d)
        assert f.verdict == "holds" and getattr(f, "statement_object", None) is None and why in f.unread
    # a step that is not proved is not read: no reading case is decided
    d = ind.decide(toy(1), _read_flat(lambda x, c: sympy.Le(x, c)))
    assert d.status == "counterexample" and not any(c.reading for c in d.cases)


def test_a_reading_ties_nothing_at_fixed_values_or_from_its_ties_alone():
    """Planted by a review: a step decided at fixed values (`fix=`) or under added constraints (`extra=`) states no
    relation for every state; a reading whose ties give the relation by themselves (a constant object, a tie that
    is the relation) reads nothing the step proved. A tied relation's link says where it holds (`scope`)."""
    from rue_verify.verify.derivation import Found, Statement, derive, from_derivation, link
    x, c = sympy.symbols("x c", real=True)
    shifted = ind.Invariant("flat", "x <= c - 3", lambda p, s: s["x"] <= p["c"] - 3, reading=ind.Reading(
        sympy.Le(x, c - 3), lambda p, s: {x: s["x"], c: p["c"]}))
    assert ind.decide(toy(0), shifted).status == "counterexample"
    for kw in ({"fix": {"c": 3}}, {"extra": lambda p: [p["c"] >= 3]}):
        d = ind.decide(toy(0), shifted, **kw)
        assert d.proved and d.relation is None and "fix=, extra=" in d.unread, (kw, d.summary())
    for reading in (ind.Reading(sympy.Ge(c, 100), lambda p, s: {c: p["c"]}, lambda p, s: [p["c"] >= 100]),
                    ind.Reading(sympy.Ge(x, 7), lambda p, s: {x: z3.RealVal(7)})):
        d = ind.decide(toy(0), ind.Invariant("flat", "x <= 0", lambda p, s: s["x"] <= 0, reading=reading))
        assert d.proved and d.relation is None and "alone" in d.unread, d.unread
    f = ind.finding(ind.decide(toy(0), _read_flat(lambda x_, c_: sympy.Le(x_, c_))))
    f.rests_on = ()                  # its lemma set aside here: only the scope is at stake
    row = from_derivation(derive(Statement(f.statement_object.lhs, "<=", f.statement_object.rhs),
                                 [link("<=", f.statement_object.rhs, Found(f))]), "d").proof["steps"][0]
    assert row["status"] == "certified" and row["scope"].startswith("at every state of the toy counter"), row
