"""How to cite the paper and the toolkit: the one text the report, the erratum and the README quote
(CITATION.cff, at the top of the source tree, says the same for software indexes; a test holds them
together)."""

from __future__ import annotations

from .. import __version__

#: the paper checked (its title page and the camera-ready month and OpenReview link it declares)
PAPER = ("Rong J.B. Zhu and Yanqi Qiu. UCB Exploration for Fixed-Budget Bayesian Best Arm Identification. "
         "Transactions on Machine Learning Research, October 2024. https://openreview.net/forum?id=BqSi73krYd")


def toolkit() -> str:
    """The toolkit, at the version that produced an output."""
    return (f"The rue-verify contributors. rue-verify {__version__}: every quantitative claim of Zhu & Qiu "
            "(TMLR 2024) checked numerically, symbolically and by simulation.")


def cite_this(paper: str | None = None) -> str:
    """One line for a report's or an erratum's foot (`paper`: the checked paper's reference; default
    Zhu & Qiu's)."""
    return f"Cite this: {toolkit()} It checks: {paper or PAPER}"
