"""The claims ledger: one computed verdict, with evidence, per claim of `shared/CLAIMS.md`.

Importing this package registers every claim: the theory of Sections 2-5 and the appendix, and the
empirical claims of Section 6 (judged on the reproduction's results). Each claim is declared once
(`core.claim`): its statement and location, its check, the results it needs, how to recompute its
witnesses, and its repairs (`core.repair`, beside it) or why it has none.
"""

from __future__ import annotations

import importlib
from typing import Callable, Iterable

from .core import REGISTRY, SEVERITY, ClaimResult, Finding, LedgerInputs, Mode, run_claim

__all__ = ["REGISTRY", "SEVERITY", "ClaimResult", "Finding", "LedgerInputs", "Mode", "run_claim", "run_ledger",
           "check_inputs", "load_claims", "select", "units", "collect"]

#: the ledger's modules in the paper's order; importing one registers its claims (the registry's
#: order, and so every output's, is this order, then each module's order of declaration)
MODULES = ("section2", "section3", "section4", "theorem5", "proof_decomposition", "proof_event", "proof_regret",
           "discussion", "section6", "beyond")
for _m in MODULES:
    importlib.import_module(f"{__name__}.{_m}")

from . import proof_graph  # noqa: E402  (after the claims it reads are registered)

#: the section your own claims appear under, unless they declare another (`core.claims_in`)
YOUR_SECTION = "Your claims"
_LOADED: dict[str, list[str]] = {}


def load_claims(spec: str) -> list[str]:
    """Register the claims of a file of your own, declared with `core.claim` and `core.repair` and
    judged with the same finding constructors: a path to a .py file, a module name, or the name of an
    entry point of the group `rue_verify.claims`. Returns their IDs (once per process; a worker
    process loads them again from `LedgerInputs.claims`). A `ParameterError` naming 'claims' if the
    file cannot be imported or declares no claim."""
    if spec in _LOADED:
        return _LOADED[spec]
    from dataclasses import replace
    from importlib.metadata import entry_points

    from ..errors import ParameterError
    from ..userfiles import load_module
    before = set(REGISTRY)
    ep = next((e for e in entry_points(group="rue_verify.claims") if e.name == spec), None)
    if ep is not None:
        ep.load()
    else:
        load_module(spec, "claims")
    new = [cid for cid in REGISTRY if cid not in before]
    if not new:
        raise ParameterError("claims", f"{spec} declares no claim (declare them with rue_verify.ledger.core.claim)")
    for cid in new:
        if REGISTRY[cid].section == "Other":
            REGISTRY[cid] = replace(REGISTRY[cid], section=YOUR_SECTION)
    _LOADED[spec] = new
    return new


def check(cids: tuple[str, ...], mode: Mode) -> list[ClaimResult]:
    """The results of claims run one after another in one process (a module-level function, so a
    worker process can run it): claims that share a cached simulation go together. Your own claim
    files (`mode.inputs.claims`) are loaded first."""
    for spec in mode.inputs.claims:
        load_claims(spec)
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


def check_inputs(inputs: LedgerInputs) -> None:
    """Load the result directories `inputs` names, so that a bad one is refused (an
    `errors.ParameterError` naming 'results' or 'rates') before any claim runs."""
    from ..rates import load as load_rates
    from ..reproduction import load
    load(inputs.results)
    load_rates(inputs.rates)


def select(ids: Iterable[str] | None = None) -> list[str]:
    """The claims to run: `ids` in the order given (None: every claim, in the registry's order); a
    ValueError naming any unknown id and the known ones."""
    wanted = list(REGISTRY) if ids is None else list(ids)
    unknown = [i for i in wanted if i not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown claim id(s) {unknown}; known: {', '.join(REGISTRY)}")
    return wanted


def units(ids: list[str], mode: Mode) -> list[tuple]:
    """The ledger as tasks for `rue_verify.parallel.run`: (key, check, (unit, mode)) per unit of
    `batches` (a unit's key is its claim ids)."""
    return [(unit, check, (unit, mode)) for unit in batches(ids)]


def collect(ids: list[str], parts: Iterable[list[ClaimResult]]) -> list[ClaimResult]:
    """The units' results in the order of `ids`, with the proof graph resolved (the repairs' steps
    that rest on other claims' nodes settled) and the reason of each refuted, undefined or
    inconsistent claim without a repair checked (`core.NoRepair`): what every run of the ledger
    returns."""
    by_id = {r.id: r for part in parts for r in part}
    ordered = [by_id[cid] for cid in ids]
    proof_graph.resolve(ordered)
    for r in ordered:                 # a claim without a repair: is its reason true on this run?
        why = REGISTRY[r.id].no_repair
        if why is not None and r.verdict in ("refuted", "undefined", "inconsistent"):
            holds, evidence = why.check(r, by_id)
            r.no_repair = {"reason": why.reason, "rests_on": why.rests_on, "holds": holds, "evidence": evidence}
    return ordered


def run_ledger(mode: Mode | None = None, ids: Iterable[str] | None = None,
               progress: Callable[[str], None] | None = None, workers: int = 1) -> list[ClaimResult]:
    """Run the checks (all, or `ids`) and return their results in that order (`collect`). With several
    `workers` the claims run in parallel processes (`rue_verify.parallel`); the results are the same
    (every search seeds itself by name). `progress(cid)` is called as each claim finishes. The one
    entry point of `claims`, the report (which interleaves `units` with its figures) and the
    reproduction's summary."""
    from ..parallel import run
    mode = mode or Mode()
    for spec in mode.inputs.claims:
        load_claims(spec)
    wanted = select(ids)
    after = (lambda unit: [progress(cid) for cid in unit]) if progress else None
    return collect(wanted, run(units(wanted, mode), workers, after).values())
