"""rue_verify.outputs.paper_latex: the shipped statements are what the paper's LaTeX gives today (where the
paper is at hand, and always in CI), and claims find theirs by the label their location names."""

import os
from pathlib import Path

import pytest

from rue_verify.outputs import paper_latex

PAPER = Path(__file__).resolve().parents[2] / "shared" / "paper" / "rue-bayesian-bai.tex"


def test_the_shipped_statements_are_extracted_from_the_paper():
    if not PAPER.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{PAPER} is missing in CI")
        pytest.skip("the paper's LaTeX is not beside this clone")
    assert paper_latex.extract(PAPER.read_text()) == paper_latex.shipped()


def test_claims_find_their_statement_by_label():
    got = paper_latex.statement_tex("Theorem 5.1 (them-R)")
    assert got and r"\gamma" in got and r"\label" not in got
    assert paper_latex.statement_tex("Lemma TwoBoundOnC (eq. Tk_up1)").startswith(r"\[")
    assert paper_latex.statement_tex("Lemma sec:tau (left side)") == paper_latex.shipped()["sec:tau"]
    assert paper_latex.statement_tex("Proof of Theorem 5.1 (before eq. e31)") is None
    assert paper_latex.statement_tex("Section 6.2, Figure 3") is None
    assert r"\rue" not in "".join(paper_latex.shipped().values())        # text macros are plain text
