"""SMT-LIB certificates of z3's decisions (`rue_verify.certify.smt`), re-decided by cvc5: a certified statement's
file is unsat for cvc5 too; planted corruptions (a fact dropped or weakened, facts that contradict one another, the
negated claim removed or flipped, a key that does not match its statement) are rejected, each saying why; an
induction's cases and a derivation's rows carry theirs; the checker loads no search."""

import dataclasses
import json
import re
import subprocess
import sys

import pytest
import sympy

from rue_verify.certify import check, collect, smt
from rue_verify.verify import induction as ind
from rue_verify.verify.derivation import Decide, Statement, derive, from_derivation, link
from rue_verify.verify.statements import Holds, decide, rel
from tests.verify.test_induction import toy

pytest.importorskip("cvc5")
z3 = pytest.importorskip("z3")

x = sympy.Symbol("x", real=True)
#: exp(x) >= 1 + x for every real x: z3 proves it only through the fact exp(a) >= 1 + a (at x > 0 the other facts,
#: exp(x) > 1 and exp(x) > 0, leave room below 1 + x)
TANGENT = Holds(rel(sympy.exp(x), ">=", 1 + x), method="z3")


@pytest.fixture(scope="module")
def text() -> str:
    d = decide(TANGENT)
    assert d.status == "certified" and d.method == "z3" and d.smt2
    return d.smt2


def cert(smt2: str, statement: str = "exp(x) >= x + 1") -> dict:
    return smt.certificate(smt2, statement, "source-hash", "test: exp's tangent")


def assertion(text: str, comment: str) -> str:
    """The assertion line under the comment line that contains `comment` (exactly one)."""
    lines = text.splitlines()
    hits = [i for i, line in enumerate(lines) if line.startswith(";") and comment in line]
    assert len(hits) == 1, (comment, hits)
    return lines[hits[0] + 1]


def test_the_text_names_every_fact_and_cvc5_redecides_it_unsat(text):
    assert text.rstrip().endswith("(check-sat)") and "(set-logic QF_NRA)" in text
    assert "(declare-fun x () Real)" in text and re.search(r"; _exp\d+: stands for exp\(x\)", text)
    tangent = assertion(text, "exp(a) >= 1 + a: the exponential's tangent at 0")
    assert tangent.startswith("(assert (! ") and ":named fact_" in tangent
    assert ":named negated_claim" in assertion(text, "the claim negated: not (exp(x) >= x + 1)")
    ok, detail = smt.check(cert(text))
    assert ok, detail
    assert "unsat" in detail


def test_a_fact_the_proof_needs_dropped_is_rejected(text):
    dropped = text.replace(assertion(text, "tangent at 0") + "\n", "")
    ok, detail = smt.check(cert(dropped))
    assert not ok and "cvc5 does not re-decide it unsat" in detail and "sat" in detail


def test_a_fact_weakened_is_rejected(text):
    line = assertion(text, "tangent at 0")
    weakened = text.replace(line, line.replace("(+ 1.0 x)", "x"))          # exp(a) >= a: true, and too weak
    assert weakened != text
    ok, detail = smt.check(cert(weakened))
    assert not ok and ": sat" in detail and "disagrees with z3" in detail


def test_facts_that_contradict_one_another_certify_nothing(text):
    line = assertion(text, "tangent at 0")
    wrong = text.replace(line, re.sub(r"\(>= (_exp\d+) \(\+ 1\.0 x\)\)", r"(< \1 0.0)", line))
    assert wrong != text
    ok, detail = smt.check(cert(wrong))
    assert not ok and "contradict" in detail
    ok, detail = smt.check(cert(text.replace("(check-sat)", "(assert (! false :named fact_99))\n(check-sat)")))
    assert not ok and "contradict" in detail
    ok, detail = smt.check(cert(text.replace("(check-sat)", "(assert false)\n(check-sat)")))   # not named: refused
    assert not ok and "named" in detail


def test_the_negated_claim_removed_or_flipped_is_rejected(text):
    line = assertion(text, "the claim negated")
    ok, detail = smt.check(cert(text.replace(line + "\n", "")))
    assert not ok and "negated link once" in detail
    flipped = line.replace("(not (>= ", "(>= ").replace(")) :named", ") :named")
    assert flipped != line
    ok, detail = smt.check(cert(text.replace(line, flipped)))          # no longer (not CLAIM): refused as it is
    assert not ok and "(not CLAIM)" in detail
    other = line.replace("(not (>= ", "(not (< ")                       # the opposite claim negated: cvc5 says sat
    assert other != line
    ok, detail = smt.check(cert(text.replace(line, other)))
    assert not ok and ": sat" in detail and "disagrees" in detail
    ok, detail = smt.check(cert(text.replace(line, "(assert (! false :named negated_claim))")))
    assert not ok and "(not CLAIM)" in detail


def test_a_key_that_does_not_match_its_statement_is_rejected(text):
    c = cert(text)
    moved = dict(c, statement="exp(x) >= x + 2")          # the file moved to another link
    ok, detail = smt.check(moved)
    assert not ok and "key" in detail
    ok, _ = smt.check(dict(c, key=smt.key("exp(x) >= x + 1", "another source")))
    assert not ok


def test_a_name_hidden_in_a_comment_or_a_quoted_symbol_and_a_definition_or_an_integer_sort_are_refused(text):
    """The holes a reviewer found: a name read from a comment (`:named fact_1) ; :named case_0`), from a quoted
    symbol, a define-fun pinning a variable, a constant of another sort or a function with arguments, another
    logic."""
    line = assertion(text, "tangent at 0")
    ok, detail = smt.check(cert(text.replace(line, line + " ; :named case_0")))
    assert ok, detail                                       # a comment changes nothing: cvc5 and the check agree
    assert smt._named(line + " ; :named case_0") == smt._named(line)
    assert smt._named("(assert (! (> x |:named case_0 |) :named fact_1))") == "fact_1"
    for planted, word in (("(define-fun x () Real 0.0)", "define-fun"), ("(declare-fun y () Bool)", "constant"),
                          ("(declare-fun f (Real) Real)", "constant"), ("(declare-const z String)", "constant")):
        ok, detail = smt.check(cert(text.replace("(check-sat)", planted + "\n(check-sat)")))
        assert not ok and word in detail, (planted, detail)
    ok, detail = smt.check(cert(text.replace("(set-logic QF_NRA)", "(set-logic QF_NIA)")))
    assert not ok and "logic" in detail


def test_a_file_that_is_not_one_problem_is_rejected(text):
    ok, detail = smt.check(cert(text.replace("(check-sat)", "(push 1)\n(check-sat)")))
    assert not ok and "push" in detail
    ok, detail = smt.check(cert(text + "(check-sat)\n"))
    assert not ok and "check-sat" in detail
    ok, detail = smt.check(cert(text.replace("(check-sat)", "(check-sat")))
    assert not ok and "cannot be read" in detail
    ok, detail = smt.check(cert(text.replace("(declare-fun x () Real)", "")))
    assert not ok and "could not read" in detail


def test_an_inductions_unsat_cases_carry_their_smt2_and_cvc5_agrees():
    system = toy(0)                 # the engine's toy counter: x <= 0 is invariant on E
    flat = ind.Invariant("flat", "x <= 0", lambda p, s: s["x"] <= 0,
                         (ind.Lemma("LEMMA-C", "c is positive", lambda p, s: p["c"] > 0),))
    d = ind.decide(system, flat)
    assert d.proved and all(c.smt2 for c in d.cases)
    assert "; the lemma LEMMA-C at the state before the case: c is positive" in d.cases[1].smt2
    certs = collect.certificates(d, source="s")
    assert len(certs) == len(d.cases)
    for c in certs:
        ok, detail = smt.check(c)
        assert ok, (c["what"], detail)
    late = ind.decide(dataclasses.replace(system, event_from=1), flat)       # E one round late: a sat case
    assert late.failing is not None and late.failing.smt2 is None          # a sat case certifies nothing


def test_a_derivations_z3_rows_are_written_and_the_directory_checks(tmp_path):
    y = sympy.Symbol("y", positive=True)
    st = Statement(1 + y, "<=", sympy.exp(y) + y ** 2)
    f = from_derivation(derive(st, [link("<=", sympy.exp(y), Decide("z3")),
                                    link("<=", sympy.exp(y) + y ** 2, Decide("z3"))]), "y > 0")
    rows = [r for r in f.proof["steps"] if r.get("smt2")]
    assert len(rows) == 2 and all(r["status"] == "certified" for r in rows)
    # the second link, exp(y) <= exp(y) + y^2, reached z3 already true (sympy evaluates it from y > 0): its problem
    # is (not true), a hollow certificate, which is not written and which the checker refuses
    assert [smt.hollow(r["smt2"]) for r in rows] == [False, True]
    ok, detail = smt.check(smt.certificate(rows[1]["smt2"], rows[1]["statement"], "s", "w"))
    assert not ok and "(not true)" in detail
    paths = collect.write_certificates([f], tmp_path)
    assert len(paths) == 1 and all(p.name == json.loads(p.read_text())["key"] + ".json" for p in paths)
    (tmp_path / "unknown.json").write_text(json.dumps({"kind": "tea", "key": "k"}))
    (tmp_path / "broken.json").write_text("{")
    got = {p.split("/")[-1]: (kind, ok, detail) for p, kind, ok, detail in check.check_directory(tmp_path)}
    assert got.pop("unknown.json") == ("tea", False, "no checker for kind 'tea'")
    assert got.pop("broken.json")[1] is False
    assert [v[:2] for v in got.values()] == [("smt2", True)], got


FORBIDDEN = ("z3", "highspy", "scipy.optimize", "rue_verify.verify.histories", "rue_verify.verify.search",
             "rue_verify.verify.induction", "rue_verify.verify.statements")


def test_the_checker_loads_no_search(tmp_path, text):
    """Importing the checker, and checking an smt2 certificate with it, in a fresh interpreter loads none of
    the solvers or searches that found the certificate."""
    (tmp_path / "c.json").write_text(json.dumps(cert(text), sort_keys=True))
    code = ("import sys\nfrom rue_verify.certify import check, smt\n"
            f"rows = check.check_directory({str(tmp_path)!r})\n"
            f"print([r[2] for r in rows], sorted(m for m in {FORBIDDEN!r} if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[True] []", out.stdout


def test_keys_do_not_collide_when_a_statements_tail_is_the_sources_head():
    """sha256(statement + source) gave 'exp(x) >= x + 1' with source '9...' the key of 'exp(x) >= x + 19' with the
    source less its '9': the key now hashes the pair."""
    assert smt.key("exp(x) >= x + 1", "9abc") != smt.key("exp(x) >= x + 19", "abc")


def test_a_negated_link_z3_wrote_with_let_bindings_is_read_through_them(text):
    """z3 writes shared subterms as let bindings, the claim then a bound name: (let ((a!1 ...)) (not a!1)) is a
    negated link about the constants its bindings use; a let around (not true) is still hollow."""
    line = assertion(text, "the claim negated")
    let = "(assert (! (let ((a!1 (>= _exp0 (+ 1.0 x)))) (not a!1)) :named negated_claim))"
    ok, detail = smt.check(cert(text.replace(line, let)))
    assert ok, detail
    hollow = "(assert (! (let ((a!1 (>= _exp0 (+ 1.0 x)))) (not true)) :named negated_claim))"
    assert smt.hollow(text.replace(line, hollow))
    ok, detail = smt.check(cert(text.replace(line, hollow)))
    assert not ok and "(not true)" in detail


def test_an_inductions_cases_ride_on_the_link_it_certifies_and_only_a_certified_one_is_written():
    """`induction.finding` keeps each unsat case's problem (`smt2_cases`), a derivation's row that the finding
    certifies carries them, and the collector writes each as a certificate that cvc5 re-decides. Planted: the same
    row argued (not certified) writes none, and a case's file filed under a statement that names no induction case
    is refused (its `case_` assertions would go unchecked)."""
    system = toy(0)                 # the engine's toy counter: x <= 0 is invariant on E
    f = ind.finding(ind.decide(system, ind.Invariant("flat", "x <= 0", lambda p, s: s["x"] <= 0)))
    assert f.verdict == "holds" and len(f.smt2_cases) >= 2
    row = {"step": 1, "status": "certified", "smt2_cases": [list(c) for c in f.smt2_cases]}
    certs = collect.certificates([{"id": "T", "steps": [row]}], source="s")
    assert len(certs) == len(f.smt2_cases) and all("[case: " in c["statement"] for c in certs)
    assert all(smt.check(c)[0] for c in certs)
    assert collect.certificates([{"id": "T", "steps": [dict(row, status="argued")]}], source="s") == []
    moved = smt.certificate(certs[-1]["smt2"], "x <= 0", "s", "moved")
    ok, detail = smt.check(moved)
    assert not ok and "case_" in detail, detail


def test_a_step_whose_conclusion_is_false_negates_its_hypotheses_together_and_its_case_checks():
    """An `AtState` step concluding false (its hypotheses cannot hold together at a state E covers, as the repaired
    PF-E1's gap step) writes its case with the hypotheses' conjunction as the claim negated, not `(not false)`,
    which the checker refuses; cvc5 re-decides it. Planted: hypotheses that can hold together leave the case sat,
    and no certificate is kept."""
    def params():
        return {"c": z3.Real("c")}, [z3.Real("c") > 0], {}

    def state(p, tag):
        v = {"x": z3.Real(f"x@{tag}")}
        return v, [v["x"] >= 0]

    system = ind.System(params, state, lambda p, s: [s["x"] == 0], lambda p, s, s2: [("stay", s2["x"] == s["x"])],
                        lambda p, s: s["x"] <= p["c"], 0, "a counter")
    never = ind.AtState("never", "x > 2c cannot happen on E", lambda p, s: [s["x"] > 2 * p["c"]],
                        lambda p, s: z3.BoolVal(False))
    f = ind.finding(ind.decide(system, never))
    assert f.verdict == "holds" and len(f.smt2_cases) == 1
    statement, _, text = f.smt2_cases[0]
    negated = [c for c, _ in smt.commands_of(text) if "negated_claim" in c]
    assert len(negated) == 1 and "(> x@t (* 2.0 c))" in negated[0] and "false" not in negated[0]
    assert smt.check(smt.certificate(text, statement, "s", "w"))[0]
    can = ind.AtState("can", "x > c/2 cannot happen on E", lambda p, s: [2 * s["x"] > p["c"]],
                      lambda p, s: z3.BoolVal(False))
    g = ind.finding(ind.decide(system, can))
    assert g.verdict != "holds" and not getattr(g, "smt2_cases", None)
