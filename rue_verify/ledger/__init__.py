"""The claims ledger: one computed verdict, with evidence, per claim of `shared/CLAIMS.md`.

Importing this package registers every claim: the theory of Sections 2-5 and the appendix, and the
empirical claims of Section 6 (judged on the reproduction's results). Each claim is declared once
(`core.claim`): its statement and location, its check, the results it needs, how to recompute its
witnesses, and its repairs (`core.repair`, beside it) or why it has none.
"""

from __future__ import annotations

import importlib
from typing import Callable, Iterable

from .core import REGISTRY, SEVERITY, ClaimResult, Finding, Mode, run_claim

__all__ = ["REGISTRY", "SEVERITY", "ClaimResult", "Finding", "Mode", "run_claim", "run_ledger"]

#: the ledger's modules in the paper's order; importing one registers its claims (the registry's
#: order, and so every output's, is this order, then each module's order of declaration)
MODULES = ("section2", "section3", "section4", "theorem5", "proof_decomposition", "proof_event", "proof_regret",
           "discussion", "section6", "beyond")
for _m in MODULES:
    importlib.import_module(f"{__name__}.{_m}")

from . import proof_graph  # noqa: E402  (after the claims it reads are registered)


def check(cids: tuple[str, ...], mode: Mode) -> list[ClaimResult]:
    """The results of claims run one after another in one process (a module-level function, so a
    worker process can run it): claims that share a cached simulation go together."""
    return [run_claim(REGISTRY[cid], mode) for cid in cids]


def batches(ids: list[str]) -> list[tuple[str, ...]]:
    """The claims as units of work: those that share a cached simulation in one unit (first, as the
    largest), every other claim alone."""
    groups: dict[str, list[str]] = {}
    singles = []
    for cid in ids:
        key = REGISTRY[cid].shares
        (groups.setdefault(key, []) if key else singles).append(cid)
    return [tuple(g) for g in groups.values()] + [(cid,) for cid in singles]


def run_ledger(mode: Mode | None = None, ids: Iterable[str] | None = None,
               progress: Callable[[str], None] | None = None, workers: int = 1) -> list[ClaimResult]:
    """Run the checks (all, or `ids`) and return their results in the registry's order. With several
    `workers` the claims run in parallel processes (`rue_verify.parallel`); the results are the same
    (every search seeds itself by name). `progress(cid)` is called as each claim finishes."""
    from ..parallel import run
    mode = mode or Mode()
    wanted = list(REGISTRY) if ids is None else list(ids)
    unknown = [i for i in wanted if i not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown claim id(s) {unknown}; known: {', '.join(REGISTRY)}")
    results = {}
    after = (lambda unit: [progress(cid) for cid in unit]) if progress else None
    for unit, out in run([(unit, check, (unit, mode)) for unit in batches(wanted)], workers, after).items():
        results.update({r.id: r for r in out})
    ordered = [results[cid] for cid in wanted]
    proof_graph.resolve(ordered)      # settles the repairs' proof steps that rest on other claims' nodes
    return ordered
