"""CITATION.cff, rue_verify.outputs.citation and the ledger's citation of the paper say the same: the
toolkit's version, and the paper's title, authors, year and link (as its title page declares them)."""

from pathlib import Path

from rue_verify import __version__
from rue_verify.ledger import CITATION
from rue_verify.outputs import citation

CFF = Path(__file__).resolve().parents[1] / "CITATION.cff"


def test_the_citation_file_and_the_cite_line_agree():
    cff = CFF.read_text()
    assert f"version: {__version__}" in cff and __version__ in citation.cite_this()
    for piece in ("UCB Exploration for Fixed-Budget Bayesian Best Arm Identification", "Zhu", "Qiu",
                  "Transactions on Machine Learning Research", "2024", "https://openreview.net/forum?id=BqSi73krYd"):
        assert piece in cff and piece in CITATION and piece in citation.cite_this(CITATION), piece
