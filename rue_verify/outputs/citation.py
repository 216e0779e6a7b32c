"""How to cite the toolkit, with the paper an output checks (its plug-in's `Paper.citation`): the one
text the report and the erratum quote (CITATION.cff, at the top of the source tree, says the same for
software indexes; a test holds them together)."""

from __future__ import annotations

from .. import __version__


def toolkit() -> str:
    """The toolkit, at the version that produced an output."""
    return (f"The rue-verify contributors. rue-verify {__version__}: every quantitative claim of Zhu & Qiu "
            "(TMLR 2024) checked numerically, symbolically and by simulation.")


def cite_this(paper: str | None = None) -> str:
    """One line for a report's or an erratum's foot (`paper`: the checked paper's reference, if it
    declares one)."""
    return f"Cite this: {toolkit()}" + (f" It checks: {paper}" if paper else "")
