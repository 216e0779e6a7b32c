"""The claims ledger: one computed verdict, with evidence, per claim of `shared/CLAIMS.md`.

Importing this package registers every check: the theory of Sections 2-5 and the appendix, and
the empirical claims of Section 6 (judged on the reproduction's results).
"""

from __future__ import annotations

from typing import Callable, Iterable

from . import repairs, section2, section3, section4, section5, section6  # noqa: F401  (registration)
from .core import REGISTRY, SEVERITY, ClaimResult, Finding, Mode, run_claim

__all__ = ["REGISTRY", "SEVERITY", "ClaimResult", "Finding", "Mode", "run_claim", "run_ledger"]


def run_ledger(mode: Mode | None = None, ids: Iterable[str] | None = None,
               progress: Callable[[str], None] | None = None) -> list[ClaimResult]:
    """Run the checks (all, or `ids`) in the registry's order and return their results."""
    mode = mode or Mode()
    wanted = list(REGISTRY) if ids is None else list(ids)
    unknown = [i for i in wanted if i not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown claim id(s) {unknown}; known: {', '.join(REGISTRY)}")
    out = []
    for cid in wanted:
        if progress:
            progress(cid)
        out.append(run_claim(REGISTRY[cid], mode))
    return out
