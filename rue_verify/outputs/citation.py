"""How to cite the toolkit, with the paper an output checks (its plug-in's `Paper.citation`): the one
text the report and the erratum quote (CITATION.cff, at the top of the source tree, says the same for
software indexes; a test holds them together)."""

from __future__ import annotations

from .. import __version__


def toolkit() -> str:
    """The toolkit, at the version that produced an output."""
    return (f"The rue-verify contributors. rue-verify {__version__}: every quantitative claim of Zhu & Qiu "
            "(TMLR 2024) checked numerically, symbolically and by simulation.")


def engine() -> str:
    """The toolkit as the engine of another paper's output (it names no paper of its own)."""
    return (f"The rue-verify contributors. rue-verify {__version__}, the engine that checked these claims "
            "numerically, symbolically and by simulation.")


def cite_this(paper: str | None = None, own: bool = True) -> str:
    """One line for a report's or an erratum's foot (`paper`: the checked paper's reference, if it
    declares one; `own`: it is the paper the toolkit was built for, Zhu & Qiu's, else the toolkit is
    cited as the engine and only the checked paper is named)."""
    return f"Cite this: {toolkit() if own else engine()}" + (f" It checks: {paper}" if paper else "")
