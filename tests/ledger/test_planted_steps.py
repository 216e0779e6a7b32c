"""Planted defects the proof engine must catch, each planted through a copy (an argument of the proof's
builder, or a graph built here), never by editing the ledger: a density that grows with s under the
repaired Theorem 3.1, a non-integrable integrand under differentiation under the integral sign, and a
sampled node under a step that rests on it."""

import pytest
import sympy

from rue_verify.ledger import section3
from rue_verify.verify import Finding, Repair, Rests, from_proof
from rue_verify.verify.claims import ClaimResult, Mode
from rue_verify.verify.derivation import Found, Statement, derive, from_derivation, link, restate, rests
from rue_verify.verify.findings import made_by_engine
from rue_verify.verify.graph import Node, resolve, trees


def _rows(d) -> dict[int, dict]:
    return {s["step"]: s for s in from_derivation(d, "d").proof["steps"]}


def test_theorem_3_1s_repaired_proof_rejects_a_density_that_grows_with_s():
    """The derivation's step 4 bounds int_0^A int H(y, s) dy ds by A int H(y, 0) dy, citing the monotone integral with
    H(y, s) <= H(y, 0) decided on H itself (z3). A joint density with Phi at the larger draw (its sheared form grows
    with s, like phi(x) phi(x - s)) fails that condition; every other step reads as before."""
    good = _rows(section3.gap_constant_proof(Mode()))
    assert good[4]["status"] == "certified" and good[9]["closure"] and good[9]["status"] == "certified"
    planted = section3.gap_integrand(lambda x, x1: x1 - x)
    bad = _rows(section3.gap_constant_proof(Mode(), integrand=planted))
    assert bad[4]["status"] == "argued"
    falls = next(c for c in bad[4]["conditions"] if "falls" in c["text"])
    assert falls["state"] == "fails", falls
    assert {k: v["status"] for k, v in bad.items() if k != 4} == {k: v["status"] for k, v in good.items() if k != 4}


def test_lemma_a1s_derivative_step_rejects_a_non_integrable_integrand():
    """eta'(alpha) by differentiation under the integral sign: the cited theorem's domination condition is decided on
    the integrand itself; exp((x + alpha)^2/2) has no integrable bound and is refused."""
    good = _rows(section3.a1_formula_proof()[1])
    assert good[1]["status"] == "certified" and good[2]["status"] == "certified"
    x, a = section3.X_, section3.ALPHA
    bad = _rows(section3.a1_formula_proof(integrand=sympy.exp((x + a) ** 2 / 2))[1])
    assert bad[1]["status"] == "argued"
    dominated = next(c for c in bad[1]["conditions"] if c["text"].startswith("|dg| <="))
    assert dominated["state"] == "fails", dominated


def _result(cid: str, findings, repairs=()) -> ClaimResult:
    return ClaimResult(cid, cid, cid, "holds", "", list(findings), 0.0, repairs=list(repairs))


def _proved_by_a_certificate(x) -> Finding:
    """A node's proof of x <= x + 1 as a derivation whose one link a certified finding decides."""
    st = Statement(x, "<=", x + 1)
    certificate = restate(made_by_engine(Finding("holds", "all", "a certificate", certified=True),
                                         "a test's stand-in for an induction"), st)
    return from_derivation(derive(st, [link("<=", x + 1, Found(certificate, "x <= x + 1"))]), "all")


def _resting_on_base(x) -> Repair:
    return Repair("top, repaired", None, [from_derivation(derive(Statement(x, "<=", x + 1), [
        link("<=", x + 1, rests("BASE"), "BASE's statement")]), "d")])


def test_a_step_resting_on_a_node_reads_its_proof_not_only_its_statement():
    """BASE's statement is proved by its own derivation, but the node it uses (SUB) is only sampled; a repair
    resting on BASE is then checked as far as that sample, never proved. With SUB proved too, it is proved."""
    x = sympy.Symbol("x", positive=True)
    table = (Node("base", "lemma", "L", "base", ("sub",), "BASE"), Node("sub", "lemma", "S", "sub", (), "SUB"))
    sub = _result("SUB", [Finding("holds", "1000 points", "no counterexample")])               # sampled
    base = _result("BASE", [_proved_by_a_certificate(x)])
    top = _result("TOP", [Finding("refuted", "x", "broken")], [_resting_on_base(x)])
    g = resolve([sub, base, top], table, known={"TOP"})
    assert g.nodes["base"]["status"] == "certified" and g.nodes["base"]["proof"] == "checked"
    rep = g.nodes["repair:TOP"]
    assert rep["proof"] == "checked" and rep["proof_steps"][0]["status"] == "sampled", rep
    # with SUB proved too, the same repair is proved
    sub_ok = _result("SUB", [_proved_by_a_certificate(sympy.Symbol("y", positive=True))])
    top2 = _result("TOP", [Finding("refuted", "x", "broken")], [_resting_on_base(x)])
    g2 = resolve([sub_ok, _result("BASE", [_proved_by_a_certificate(x)]), top2], table, known={"TOP"})
    assert g2.nodes["repair:TOP"]["proof"] == "proved", g2.nodes["repair:TOP"]


def test_a_nodes_uses_come_from_its_proof_and_its_citations_stay_apart():
    """The table's edges are the text's citations: a node checked by a proof of its own uses exactly what
    that proof's steps rest on; what the text cites stays in `cites`, whole, and still weakens the
    text's route (its proof status), never dropped; a node with no check of its own is its parts."""
    table = (Node("top", "theorem", "T", "top", ("cited", "used"), "TOP"),
             Node("cited", "lemma", "C", "cited", (), "CITED"), Node("used", "lemma", "U", "used", (), "USED"),
             Node("both", "lemma", "B", "both", ("used", "cited")))
    cited = _result("CITED", [Finding("holds", "1000 points", "no counterexample")])               # sampled
    used = _result("USED", [Finding("holds", "all", "a certificate", certified=True)])
    top = _result("TOP", [from_proof([("rests", Rests("USED"))], "d", "c")])
    g = resolve([cited, used, top], table, known=set())
    n = g.nodes["top"]
    assert n["uses"] == ["used"] and n["cites"] == ["cited", "used"] and n["uses_from"] == "proof", n
    assert n["proof"] == "checked" and "cited" in n["weakest"], n          # the text's route reads the sample
    text = trees(g, ["top"])                                                # the printed tree marks the edge kind
    assert [x for x in text if x.lstrip().startswith("- ")] == [
        x for x in text if x.lstrip().startswith(("- used [", "- cited ["))]
    assert " (cited)" not in next(x for x in text if "- used [" in x)
    assert " (cited)" in next(x for x in text if "- cited [" in x) and text[-1].startswith("(cited):")
    both = g.nodes["both"]
    assert both["uses"] == ["used", "cited"] and both["cites"] == [] and both["uses_from"] == "parts", both
    # a cited node that is refuted breaks the text's route even though no check of ours used it
    bad = _result("CITED", [Finding("refuted", "x", "a witness")])
    g2 = resolve([bad, used, top], table, known=set())
    assert g2.nodes["top"]["proof"] == "broken" and "cited" in g2.nodes["top"]["broken_at"], g2.nodes["top"]


@pytest.mark.slow   # every certified step of the whole quick ledger mutated: minutes since the derivations
@pytest.mark.xfail(strict=True, reason="issue 77, open: 68 of 88 negations refuted (64 at the eleventh session's "
                   "start), below 80%: of the 20 left, 11 hold probabilities, expectations or a law's function "
                   "(specific values a counterexample never chooses), 5 time limits, 2 integer readings, 2 about the "
                   "sorted gaps; strict, so reaching the target fails this mark")
def test_no_certified_step_of_the_ledger_has_its_negation_certified_and_most_have_it_refuted(quick_ledger):
    """Of the certified steps of the quick ledger that carry a statement, none has its negation certified;
    most have it refuted (a replayed witness, never a time limit), and each other one is undecided and says
    why (a negated conjunction sympy does not read, a z3 model that is no counterexample, a time limit),
    decided by the same method: the cheap half of `proofs --mutants` (the whole of it, every mutant, is the
    slow test below and docs/bench.txt's record)."""
    from rue_verify.verify.proofs import mutants_summary, proof_mutants
    rows = proof_mutants(quick_ledger, negation_only=True)
    s = mutants_summary(rows)
    assert s["statements"] >= 80 and s["cannot_fail"] == s["negation_certified"] == 0, s
    assert s["negation_refuted"] == s["negation_asked_only"] >= 0.8 * s["statements"], s
    assert s["negation_refuted"] + s["negation_undecided"] == s["statements"], s
    assert s["negation_asked_only"] + s["undecided"] == s["statements"], s
    for r in rows:
        if r["verdict"] == "undecided":
            assert r["negation"] == "undecided" and r["why"].startswith("its negation was not decided ("), r


@pytest.mark.slow
@pytest.mark.slow   # every certified step of the whole quick ledger mutated: minutes since the derivations
def test_every_certified_step_of_the_ledger_refutes_a_mutant_or_says_why_none(quick_ledger):
    """`proofs --mutants` over the whole quick ledger (a few minutes on 2 cores): of the certified steps that
    carry a statement, none has its negation certified and most have it refuted; one that can fail has its
    negation and another mutant refuted; one with no other mutant refuted says why (none exists, or each is
    still true or undecided, counted apart)."""
    from rue_verify.verify.proofs import mutants_summary, proof_mutants
    rows = proof_mutants(quick_ledger)
    s = mutants_summary(rows)
    assert s["statements"] >= 80 and s["cannot_fail"] == s["negation_certified"] == 0, s
    assert s["negation_refuted"] >= 0.8 * s["statements"] and s["undecided"] == s["negation_undecided"], s
    for r in rows:
        if r["verdict"] == "negation only":
            assert "no other mutant" in r["why"] or "still true" in r["why"], r
        if r["verdict"] == "can fail":
            assert r["negation"] == "refuted" and any(m["status"] == "refuted" for m in r["mutants"][1:]), r
    assert s["can_fail"] >= 0.8 * s["statements"] and s["mutants_refuted"] > 5 * s["mutants_undecided"], s
