"""rue_verify.verify (findings, proofs, claims): findings and verdicts, summaries that cannot contradict
them, the margin search, and text shortened at boundaries."""

import pytest

from rue_verify.ledger import Finding, Mode
from rue_verify.verify import overall
from rue_verify.verify.search import Dim, minimize_margin

SMALL = Mode("test", K_max=400, random_samples=300, sim_runs=60, seed=3)


def test_overall_is_most_severe():
    fs = [Finding("holds", "a", "b"), Finding("vacuous", "a", "b"), Finding("undefined", "a", "b")]
    assert overall(fs) == "undefined"
    with pytest.raises(ValueError):
        Finding("maybe", "a", "b")


def test_summary_prose_cannot_contradict_the_computed_verdict():
    from rue_verify.verify import Claim, Expect, run_claim
    fs = [Finding("refuted", "K = 3", "found a witness")]
    kept = run_claim(Claim("X", "loc", "stmt", lambda m: (Expect("it holds", "refuted"), fs)), SMALL)
    assert kept.summary == "it holds"
    replaced = run_claim(Claim("X", "loc", "stmt", lambda m: (Expect("it holds", "holds"), fs)), SMALL)
    assert "it holds" not in replaced.summary and "refuted (K = 3)" in replaced.summary


def test_shorten_cuts_at_a_boundary_never_mid_word():
    from rue_verify.verify import shorten
    text = "grew significantly in 2, shrank in 1 of 4 cells. sr: advantage (baseline - RUE error) K=20 0.078"
    assert shorten(text, 500) == text
    out = shorten(text, 70)
    assert len(out) <= 74 and out.endswith(" ...") and text.startswith(out[:-4])
    assert out[:-4].endswith(".")                      # the sentence boundary wins
    words = shorten("a" * 10 + " bbbbbbbbbb cccccccccc", 15)
    assert words == "aaaaaaaaaa ..."


def test_margin_search_finds_a_planted_corner():
    space = {"a": Dim(1e-3, 1e3), "b": Dim(1e-3, 1e3)}
    r = minimize_margin(lambda p: -1.0 if p["a"] > 700 and p["b"] < 2e-3 else 1.0, space, Mode(seed=9), "planted",
                        random=3000)
    assert r.margin < 0 and r.params["a"] > 700


def test_every_ledger_verdict_goes_through_a_constructor():
    """No module of the ledger builds a Finding itself: every verdict comes from a constructor that
    computes it from its quantity (`core.from_*`, `core.reading` for the paper's text, and
    `montecarlo.rate_finding` for an adversarial search)."""
    import ast
    import pathlib

    import rue_verify.ledger as L
    offenders = []
    for path in pathlib.Path(L.__file__).parent.glob("*.py"):
        if path.name in ("core.py", "montecarlo.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Finding":
                offenders.append(f"{path.name}:{node.lineno}")
    assert not offenders, offenders


def test_constructors_follow_their_quantity():
    from rue_verify.verify import from_classes, from_count, from_exact, from_majority, from_value
    assert from_value(0.5, "d", "t", at_most=1).verdict == "holds"
    assert from_value(1.0, "d", "t", at_most=1, strict=True, fail="vacuous").verdict == "vacuous"
    f = from_value(2.0, "d", at_least=3, holds="fine", fails="short", witness=lambda: {"w": 1})
    assert (f.verdict, f.detail, f.witness) == ("refuted", "short", {"w": 1})
    assert from_count(0, "d", "t", witness={"w": 1}).witness is None
    assert from_exact(False, "d", "t", fail="inconsistent").verdict == "inconsistent"
    assert from_exact(True, "d", "t").certified
    assert from_classes(["better", "undecided"], "d", "t").verdict == "inconclusive"
    assert from_classes(["worse", "better"], "d", "t", want="worse").verdict == "refuted"
    assert from_majority(["better", "better", "undecided"], "d", "t").verdict == "holds"
    with pytest.raises(ValueError):
        from_value(1.0, "d", "t")


def test_a_proof_with_a_refuted_step_cannot_hold():
    import sympy

    from rue_verify.verify import Finding, Holds, Repair, from_proof, from_value, rel
    ok = from_value(0.0, "grid", "fine", at_most=1)
    bad = from_value(2.0, "grid", "too big", at_most=1, witness={"x": 2})
    x = sympy.Symbol("x", real=True)
    true = Holds(rel(x ** 2 + 1, ">", 0))
    held = from_proof([("a", true), ("b", ok)], "d", "it holds")
    assert held.verdict == "holds" and not held.certified and "searched (grid): no counterexample" in held.detail
    broken = from_proof([("a", true), ("b", bad)], "d", "it holds")
    assert broken.verdict == "inconclusive" and broken.witness == {"x": 2} and "not established" in broken.detail
    assert broken.proof["status"] == "broken" and broken.proof["broken_at"] == ["step 2"]
    rep = Repair("s", None, [broken, Finding("holds", "d", "search")])
    assert rep.verdict == "inconclusive" and "breaks at step 2" in rep.text()     # both parts said


def test_tightness_and_rate_findings_compute_their_verdicts():
    from rue_verify.verify import from_rate, from_tightness
    ok = from_tightness([3.0, 1.5, 2.0], [{"K": 1}, {"K": 2}, {"K": 3}], "d", bound="B", paper={"K = 3": 2.0})
    assert ok.verdict == "holds" and ok.kind == "tightness" and ok.witness["params"] == {"K": 2}
    assert ok.witness["ratio"] == 1.5 and "at least 1.5" in ok.detail
    bad = from_tightness([3.0, 0.9], [{"K": 1}, {"K": 2}], "d", bound="B")
    assert bad.verdict == "refuted" and bad.witness["params"] == {"K": 2}
    w = {"quantity": "q"}
    assert from_rate(-0.9, (-1.1, -0.7), -0.5, "d", "x", witness=w).verdict == "holds"
    assert from_rate(-0.3, (-0.4, -0.2), -0.5, "d", "x", witness=w).verdict == "refuted"
    assert from_rate(-0.5, (-0.7, -0.3), -0.5, "d", "x", witness=w).verdict == "inconclusive"
