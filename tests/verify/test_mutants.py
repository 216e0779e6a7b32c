"""`proofs --mutants` counts honestly: a mutant is refuted only when its method refutes it (a replayed
witness); one that is argued or not decided in time is undecided, never refuted; the mutants bite where a
1% move cannot (an operator flipped, a constant times 2 or over 2, a sum's range shifted, a factor dropped)."""

import time

import sympy

from rue_verify.verify import Cites, Finding, Holds, proofs, rel, statements
from rue_verify.verify.proofs import mutants_summary, step_mutants
from rue_verify.verify.statements import MAX_MUTANTS, Decision, decide, kinded_mutants, mutants

x, y = sympy.symbols("x y", real=True)
k, n = sympy.symbols("k n", integer=True, positive=True)
HALF_LOG2 = Holds(rel(sympy.Rational(1, 2), "<=", sympy.log(2)), method="sympy")     # 39% of slack


def _hang(st):                           # a decision that never ends (the forked child sleeps)
    time.sleep(60)


def test_a_mutant_not_decided_in_time_is_undecided_never_refuted(monkeypatch):
    monkeypatch.setattr(proofs, "MUTANT_SECONDS", 0.05)
    monkeypatch.setattr(statements, "_sample_refutation", lambda st, tries=8: None)
    monkeypatch.setattr(statements, "decide", _hang)
    r = step_mutants(HALF_LOG2)
    assert r["mutants"] and all(m["status"] == "undecided" and m["timed_out"] for m in r["mutants"]), r
    assert r["negation"] == "undecided" and r["refuted"] == 0 and r["verdict"] == "undecided", r
    assert "not decided" in r["why"]


def _timing_out(monkeypatch):
    """Every decision past its limit, as `decide_within` says it (a tiny real limit races a fast child)."""
    monkeypatch.setattr(proofs, "decide_within",
                        lambda st, seconds: Decision("argued", st.method, f"not decided within {seconds:g} s"))


def test_a_tiny_time_limit_leaves_every_mutant_undecided(monkeypatch):
    _timing_out(monkeypatch)
    r = step_mutants(HALF_LOG2)
    assert r["verdict"] == "undecided" and r["refuted"] == 0 and r["undecided"] == len(r["mutants"]) - 1, r


def test_an_argued_decision_or_a_refutation_without_witness_is_undecided():
    assert proofs._mutant_row("m", "k", Decision("argued", "z3", "unknown"))["status"] == "undecided"
    assert proofs._mutant_row("m", "k", Decision("refuted", "z3", "no witness"))["status"] == "undecided"
    assert proofs._mutant_row("m", "k", Decision("refuted", "z3", "w", {"params": {}}))["status"] == "refuted"


def test_a_step_with_slack_is_bitten_by_a_doubled_constant_or_a_flipped_operator():
    r = step_mutants(HALF_LOG2)
    assert r["negation"] == "refuted" and r["verdict"] == "can fail", r
    bit = {m["kind"] for m in r["mutants"][1:] if m["status"] == "refuted"}
    assert bit & {"constant x2", "operator"}, r
    one = [m for m in r["mutants"] if m["kind"] == "constant 1%"]
    assert one and all(m["status"] == "certified" for m in one)       # 1% cannot bite 39% of slack
    assert r["refuted"] + r["undecided"] + r["certified"] == len(r["mutants"]) - 1


def test_a_sums_range_shifted_by_one_is_a_mutant_and_refuted():
    st = Holds(rel(sympy.Sum(1, (k, 1, n)), "==", n), method="sympy")
    assert decide(st).status == "certified"
    ranges = {name: m for kind, name, m in kinded_mutants(st) if kind == "range"}
    assert set(ranges) == {f"the range of Sum(1, (k, 1, n)) shifted ({w} bound to {b})"
                           for w, b in (("lower", 2), ("upper", n - 1), ("upper", n + 1))}, ranges
    assert rel(sympy.Sum(1, (k, 2, n)), "==", n) in [m.claim for m in ranges.values()]
    assert all(decide(m).status == "refuted" for m in ranges.values()), ranges


def test_a_products_factor_dropped_is_a_mutant_and_a_sign_is_no_factor():
    st = Holds(rel(x * y, "<=", (x ** 2 + y ** 2) / 2), method="z3")
    dropped = {name: m.claim for kind, name, m in kinded_mutants(st) if kind == "factor"}
    assert dropped.get("the factor x dropped from x*y") == rel(y, "<=", (x ** 2 + y ** 2) / 2), dropped
    assert decide(Holds(dropped["the factor x dropped from x*y"], method="z3")).status == "refuted"
    assert not [name for kind, name, _ in kinded_mutants(Holds(rel(x - y, "<=", x + sympy.Abs(y))))
                if kind == "factor"]                                                 # -y: a sign


def test_operator_flips_and_the_bound_on_mutants():
    flips = [m.claim for kind, _, m in kinded_mutants(HALF_LOG2) if kind == "operator"]
    assert flips == [rel(sympy.Rational(1, 2), ">=", sympy.log(2))]
    big = Holds(sympy.And(*[rel(x ** 2 + j * y ** 2 + j, ">=", j * x * y / 7) for j in range(1, 5)]),
                (rel(x, ">", 0), rel(y, ">", 0)))
    got = kinded_mutants(big)
    assert len(got) == MAX_MUTANTS and got[0][0] == "negation"
    assert len({kind for kind, _, _ in got}) >= 6                       # a spread of kinds, not one kind
    assert len({name for _, name, _ in got}) == len(got)
    assert [name for name, _ in mutants(big)] == [name for _, name, _ in got]


def test_a_step_without_any_mutant_but_its_negation_says_why():
    st = Holds(rel(sympy.Derivative(sympy.sin(x), x), "==", sympy.cos(x)), method="sympy")
    r = step_mutants(st)
    assert r["verdict"] == "negation only" and len(r["mutants"]) == 1, r
    assert "no other mutant" in r["why"] and "no operator to flip" in r["why"] and "no constant" in r["why"]


def test_a_cited_lemma_whose_conditions_cannot_be_negated_does_not_read_as_refuting_its_negation():
    check = Cites("a lemma", "it applies", (("a searched condition", Finding("holds", "all", "x", certified=True)),))
    r = step_mutants(check)
    assert r["negation"] == "undecided" and r["verdict"] == "undecided", r


def test_the_summary_counts_refuted_and_undecided_apart(monkeypatch):
    from rue_verify.outputs.text import mutants as lines
    rows = [{"node": "A", "step": 1, "text": "t", **step_mutants(HALF_LOG2)}]
    _timing_out(monkeypatch)
    rows.append({"node": "B", "step": 1, "text": "t", **step_mutants(HALF_LOG2)})
    rows.append({"node": "C", "step": 2, "text": "t", "mutants": [], "verdict": "finding", "why": "w"})
    s = mutants_summary(rows)
    assert s["steps"] == 3 and s["statements"] == 2 and s["findings"] == 1, s
    assert s["can_fail"] == 1 and s["undecided"] == 1 and s["negation_only"] == s["cannot_fail"] == 0, s
    assert s["negation_refuted"] == 1 and s["negation_undecided"] == 1 and s["negation_certified"] == 0, s
    assert s["mutants_refuted"] == rows[0]["refuted"] > 0 and s["mutants_timed_out"] == rows[1]["undecided"] > 0, s
    assert s["mutants_undecided"] == rows[0]["undecided"] + rows[1]["undecided"], s
    assert s["mutants_certified"] == rows[0]["certified"] + rows[1]["certified"], s
    text = lines(rows, s)
    assert text[1].startswith("B step 1: undecided: its negation was not decided")
    assert "1 can fail" in text[-2] and "1 are undecided" in text[-2]
    assert f"other mutants: {s['mutants_refuted']} refuted" in text[-1] and "undecided" in text[-1]


def test_a_formulas_large_mutants_double_and_halve_its_value_whatever_its_form():
    """`code_mutants.LARGE`: times 2 and times 1/2 of a number, a sympy expression or a dict of terms, each term
    alike (a 1% move of a definition or of a loose bound can leave a true statement, which a sound engine proves)."""
    import sympy

    from rue_verify.verify.code_mutants import LARGE, applies, mutant
    x = sympy.Symbol("x", positive=True)
    for fn, value in ((lambda: 3.0, 3.0), (lambda: x + 1, x + 1), (lambda: {"a": x, "b": 2.0}, {"a": x, "b": 2.0})):
        doubled, halved = (mutant(fn, k)() for k in LARGE)
        if isinstance(value, dict):
            assert doubled == {k: 2 * v for k, v in value.items()} and halved == {k: v / 2 for k, v in value.items()}
        else:
            assert sympy.simplify(doubled - 2 * value).is_zero and sympy.simplify(halved - value / 2).is_zero
        assert all(applies(fn, k, value) for k in LARGE)


def test_a_formula_moves_both_ways_so_that_a_looser_bound_is_not_the_only_mutant():
    """`code_mutants.KINDS` moves a value up 1% and down 1%: one of the two tightens any bound."""
    import sympy

    from rue_verify.verify.code_mutants import KINDS, applies, mutant
    x = sympy.Symbol("x", positive=True)
    assert {"moved", "moved down"} <= set(KINDS)
    up, down = mutant(lambda: x + 1, "moved")(), mutant(lambda: x + 1, "moved down")()
    assert sympy.simplify(up - sympy.Rational(101, 100) * (x + 1)).is_zero
    assert sympy.simplify(down - sympy.Rational(99, 100) * (x + 1)).is_zero
    assert mutant(lambda: {"a": 2.0}, "moved down")() == {"a": 2.0 * 0.99} and applies(None, "moved down", 1.0)


def test_a_code_mutant_asks_to_break_only_the_nodes_whose_statement_it_changed():
    """`code_mutants.mutant_row`: of a claim's proved nodes, those whose computed statement the mutant changed must
    all stop reading proved; a node of the same claim whose statement is not built on the formula is read but not
    asked to break; a mutant that changes no statement is counted apart, never as broken."""
    from types import SimpleNamespace

    from rue_verify.verify.code_mutants import mutant_row, summary

    def node(claim, text, proof="proved"):
        return {"claim": claim, "proof": proof, "chain": {"statement": {"text": text}}}
    proved = {"a": node("C", "x <= f(1)"), "b": node("C", "y <= 2"), "c": node("D", "z <= f(2)")}

    def graph(**nodes):
        return SimpleNamespace(nodes=nodes)
    broke = mutant_row("f", "halved", ("C",), proved,
                       graph(a=node("C", "x <= f(1)/2", "broken"), b=node("C", "y <= 2")))
    assert broke["built_on"] == ["a"] and broke["broke"] and broke["nodes"] == {"a": "broken", "b": "proved"}
    kept = mutant_row("f", "doubled", ("C",), proved, graph(a=node("C", "x <= 2 f(1)"), b=node("C", "y <= 2")))
    assert kept["built_on"] == ["a"] and not kept["broke"]
    none = mutant_row("g", "halved", ("C",), proved, graph(a=node("C", "x <= f(1)"), b=node("C", "y <= 2")))
    assert none["built_on"] == [] and not none["broke"]
    s = summary([broke, kept, none])
    assert s["broke"] == 1 and s["survived"] == ["f (doubled)"] and s["no_statement"] == ["g (halved)"]


def test_a_survivor_is_told_apart_by_its_mutated_statement_a_false_one_being_a_hole():
    """A node that a code mutant leaves proved is read under the mutant: its computed statement (rebuilt from its
    record) false at a point of its domain is a hole in the proof, counted in the summary; true at every sampled
    point and certified when the engine decides it alone, it is another true statement (`still true`); true at every
    sampled point and not decided, it is listed apart (no counterexample sampled: not a proof). A planted hole
    (x <= x/2 for x > 0, left 'proved') must read as one; so must a hole no sampled point shows ((x - 1)^2 >= 10^-6,
    false only within 10^-3 of x = 1), which the engine's decision refutes."""
    from types import SimpleNamespace

    from rue_verify.verify.code_mutants import mutant_row, summary
    from rue_verify.verify.derivation import Statement
    p = sympy.Symbol("p", positive=True)

    def node(st, proof="proved"):
        return {"claim": "C", "proof": proof, "chain": {"statement": st.record()}}
    proved = {"a": node(Statement(p / 2, "<=", p)), "b": node(Statement(p, "<=", 2 * p))}
    hole = mutant_row("f", "doubled", ("C",), proved,
                      SimpleNamespace(nodes={"a": node(Statement(p, "<=", p / 2)), "b": proved["b"]}))
    assert hole["built_on"] == ["a"] and not hole["broke"] and hole["holes"] == ["a"], hole
    assert hole["survivors"]["a"]["kind"] == "false but proved" and "p" in hole["survivors"]["a"]["detail"]
    true = mutant_row("f", "moved", ("C",), proved,
                      SimpleNamespace(nodes={"a": node(Statement(p * sympy.Rational(101, 200), "<=", p)),
                                             "b": proved["b"]}))
    assert not true["broke"] and true["holes"] == [] and true["survivors"]["a"]["kind"] == "still true", true
    given = mutant_row("f", "moved", ("C",), proved,     # false only off the given domain: not a hole
                       SimpleNamespace(nodes={"a": node(Statement(p, "<=", 3, given=(sympy.Le(p, 2),))),
                                              "b": proved["b"]}))
    assert given["holes"] == [] and given["survivors"]["a"]["kind"] == "still true", given
    x = sympy.Symbol("x", real=True)
    thin = mutant_row("f", "moved down", ("C",), proved,  # false at one point: sampling misses it, the engine does not
                      SimpleNamespace(nodes={"a": node(Statement((x - 1) ** 2, ">=", sympy.Rational(1, 10 ** 6))),
                                             "b": proved["b"]}))
    assert thin["holes"] == ["a"] and thin["survivors"]["a"]["kind"] == "false but proved", thin
    s = summary([hole, true, given, thin])
    assert s["holes"] == ["f (doubled): a", "f (moved down): a"] and s["unrefuted_survivors"] == []
    assert s["true_survivors"] == ["f (moved): a", "f (moved): a"]
    # a statement true only in its proof's setting (a history's states on E): alone it is false under the clean code
    # too, so its mutant's refutation is no hole (found on the ledger: the repaired Tk_lowv2 under a wider width)
    setting = {"a": node(Statement(x, "<=", 1)), "b": proved["b"]}
    moved = mutant_row("f", "moved", ("C",), setting,
                       SimpleNamespace(nodes={"a": node(Statement(x, "<=", sympy.Rational(101, 100))),
                                              "b": proved["b"]}))
    assert moved["holes"] == [] and moved["survivors"]["a"]["kind"] == "not read", moved
    assert "false under the clean code too" in moved["survivors"]["a"]["detail"]


def test_a_rows_negation_is_the_first_mutant():
    """`proofs.negated` (what a certified row decides to be sure it depends on the step) is the mutants' first,
    built without the others, on a relation, a conjunction and a statement with givens."""
    for st in (HALF_LOG2, Holds(sympy.And(rel(x, "<=", y), rel(0, "<", x)), given=(rel(0, "<", y),)),
               Holds(rel(sympy.Sum(1 / k ** 2, (k, 1, n)), "<=", 2), given=(rel(1, "<=", n),)),
               Holds(rel(x ** 2, ">=", 0))):
        assert proofs.negated(st) == mutants(st)[0][1]
        assert proofs.negated(st) != st
