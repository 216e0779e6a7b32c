"""rue_verify.ledger.core: findings and verdicts, summaries that cannot contradict them, the margin
search, and text shortened at boundaries."""

import pytest

from rue_verify.ledger import Finding, Mode
from rue_verify.ledger.core import Dim, minimize_margin, overall

SMALL = Mode("test", K_max=400, random_samples=300, sim_runs=60, seed=3)


def test_overall_is_most_severe():
    fs = [Finding("holds", "a", "b"), Finding("vacuous", "a", "b"), Finding("undefined", "a", "b")]
    assert overall(fs) == "undefined"
    with pytest.raises(ValueError):
        Finding("maybe", "a", "b")


def test_summary_prose_cannot_contradict_the_computed_verdict():
    from rue_verify.ledger.core import Claim, Expect, run_claim
    fs = [Finding("refuted", "K = 3", "found a witness")]
    kept = run_claim(Claim("X", "loc", "stmt", lambda m: (Expect("it holds", "refuted"), fs)), SMALL)
    assert kept.summary == "it holds"
    replaced = run_claim(Claim("X", "loc", "stmt", lambda m: (Expect("it holds", "holds"), fs)), SMALL)
    assert "it holds" not in replaced.summary and "refuted (K = 3)" in replaced.summary


def test_shorten_cuts_at_a_boundary_never_mid_word():
    from rue_verify.ledger.core import shorten
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
