"""Running a paper's ledger: the claims to run (`select`), grouped into units of work (`batches`, claims
that share a cached simulation in one unit), run in one process or several (`run_ledger`, through
`rue_verify.verify.parallel`), and collected into one `Checked` list: the results in the order asked for,
z3's links read with cvc5 (`second`: a link cvc5 does not re-decide is not certified), the proof graph
resolved once (the paper's, `graph.paper_graph`), and the reason of each refuted, undefined or inconsistent
claim without a repair checked. The paper comes in through `LedgerInputs.paper` (`papers.load_paper`, in every
worker process too); your own claim files load here (`load_claims`), as claims added to it. Nothing here knows
a paper."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .claims import REGISTRY, ClaimResult, Mode, run_claim
from .parallel import grouped

#: the section your own claims appear under (claims of origin 'yours'; one that declares a section of its
#: own appears as "Your claims: SECTION", `section_of`)
YOUR_SECTION = "Your claims"
#: the entry-point group a package declares its claims under (`load_claims`)
ENTRY_POINTS = "rue_verify.claims"
_LOADED: dict[tuple[str, str], list[str]] = {}


class Checked(list):
    """The results of a ledger run (a list of `ClaimResult`, in the order asked for) with the proof
    graph resolved from them, once (`graph`; None when the ledger has no node table). Every reader,
    the CLI, the figures and the report, reads this one graph."""

    def __init__(self, results: Iterable[ClaimResult] = (), graph: Any = None):
        super().__init__(results)
        self.graph = graph


def load_claims(spec: str) -> list[str]:
    """Register the claims of a file of your own, declared with `claims.claim` and `claims.repair` and
    judged with the same finding constructors: a path to a .py file, a module name, or the name of an
    entry point of the group `rue_verify.claims`. Returns their IDs (once per process; a worker
    process loads them again from `LedgerInputs.claims`). A `ParameterError` naming 'claims' if the
    file cannot be imported or declares no claim."""
    paper = REGISTRY.active or "claims"
    if (paper, spec) in _LOADED:
        return _LOADED[(paper, spec)]
    from importlib.metadata import entry_points

    from ..errors import ParameterError
    from ..store.userfiles import load_module
    from .papers import declaring
    before = set(REGISTRY.of(paper))
    ep = next((e for e in entry_points(group=ENTRY_POINTS) if e.name == spec), None)
    try:
        with declaring(paper, "yours"):
            if ep is not None:
                ep.load()
            else:
                load_module(spec, "claims")
    except ValueError as err:         # an ID the paper has already
        raise ParameterError("claims", f"{spec}: {err}") from None
    new = [cid for cid in REGISTRY.of(paper) if cid not in before]
    if not new:
        raise ParameterError("claims", f"{spec} declares no claim (declare them with rue_verify.verify.claim)")
    _LOADED[(paper, spec)] = new
    return new


def section_of(c) -> str:
    """The section claim `c` is shown under: its own, or for a claim of yours (origin 'yours') "Your
    claims", with the section it declares after a colon."""
    if c.origin != "yours":
        return c.section
    return YOUR_SECTION if c.section == "Other" else f"{YOUR_SECTION}: {c.section}"


def load_inputs(mode: Mode) -> None:
    """The paper `mode.inputs.paper` names (loaded and made active) and your claim files, in this
    process (a worker process does it before its first claim)."""
    if mode.inputs.paper:
        from .papers import load_paper
        load_paper(mode.inputs.paper)
    for spec in mode.inputs.claims:
        load_claims(spec)


def check(cids: tuple[str, ...], mode: Mode) -> list[ClaimResult]:
    """The results of claims run one after another in one process (a module-level function, so a
    worker process can run it): claims that share a cached simulation go together. Your own claim
    files (`mode.inputs.claims`) are loaded first, after the paper (`mode.inputs.paper`)."""
    load_inputs(mode)
    return [run_claim(REGISTRY[cid], mode) for cid in cids]


def batches(ids: list[str]) -> list[tuple[str, ...]]:
    """The claims as units of work: those that share a cached simulation in one unit (first, as the
    largest), every other claim alone."""
    return grouped(ids, lambda cid: REGISTRY[cid].shares)


def select(ids: Iterable[str] | None = None) -> list[str]:
    """The claims of the active paper to run: `ids` in the order given (None: every claim, in the
    registry's order); a ValueError naming any unknown id, the paper and its IDs."""
    wanted = list(REGISTRY) if ids is None else list(ids)
    unknown = [i for i in wanted if i not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown claim id(s) {unknown} in paper {REGISTRY.active!r}; its claims: "
                         f"{', '.join(REGISTRY)}")
    return wanted


def paper_resolve(results: list[ClaimResult]) -> Any:
    """The active paper's graph of a run's results (`graph.paper_graph`)."""
    from .graph import paper_graph
    from .papers import paper_of
    return paper_graph(paper_of(None), results)


def unit_seconds(unit: tuple[str, ...], mode: Mode) -> float:
    """A unit's expected seconds: the sum of its claims' in the active paper's measured run (`Paper.seconds`, the
    mode's, else the quick ones; a claim not listed counts 0)."""
    from .papers import paper_of
    try:
        timed = paper_of(None).seconds
    except Exception:                      # no active paper yet
        return 0.0
    took = timed.get(mode.name) or timed.get("quick", {})
    return float(sum(took.get(cid, 0.0) for cid in unit))


def units(ids: list[str], mode: Mode, run: Callable[[tuple[str, ...], Mode], list[ClaimResult]] = check) -> list[tuple]:
    """The ledger as tasks for `rue_verify.verify.parallel.run`: (key, run, (unit, mode)) per unit of
    `batches` (a unit's key is its claim ids). `run` is `check`, or a ledger's module-level function
    that calls it: a worker process imports the module `run` lives in, so a ledger's own function
    registers the ledger's claims there first. The units go longest first by the paper's measured
    seconds (`Paper.seconds`, for the mode's name, else its quick ones), so that no long unit starts when
    the others are done; units it does not time keep their order, after the timed ones."""
    ordered = sorted(batches(ids), key=lambda unit: -unit_seconds(unit, mode))
    return [(unit, run, (unit, mode)) for unit in ordered]


def collect(ids: list[str], parts: Iterable[list[ClaimResult]],
            resolve: Callable[[list[ClaimResult]], Any] | None = paper_resolve) -> Checked:
    """The units' results in the order of `ids`, z3's links read with cvc5 (`second.read`: a link cvc5 does not
    re-decide is not certified; here, so that every reader of the run reads it), with the proof graph resolved once
    by `resolve` (default the active paper's: the steps that rest on other nodes settled; None: no graph) and the
    reason of each refuted, undefined or inconsistent claim without a repair checked (`claims.NoRepair`)."""
    from .second import read
    by_id = {r.id: r for part in parts for r in part}
    ordered = [by_id[cid] for cid in ids]
    read(ordered)
    graph = resolve(ordered) if resolve else None
    for r in ordered:                 # a claim without a repair: is its reason true on this run?
        why = REGISTRY[r.id].no_repair
        if why is not None and r.verdict in ("refuted", "undefined", "inconsistent"):
            holds, evidence = why.check(r, by_id)
            r.no_repair = {"reason": why.reason, "rests_on": why.rests_on, "holds": holds, "evidence": evidence}
    return Checked(ordered, graph)


def run_ledger(mode: Mode | None = None, ids: Iterable[str] | None = None,
               progress: Callable[[str], None] | None = None, workers: int = 1,
               resolve: Callable[[list[ClaimResult]], Any] | None = paper_resolve,
               run_unit: Callable[[tuple[str, ...], Mode], list[ClaimResult]] = check) -> Checked:
    """Run the checks (all, or `ids`) and return their results in that order (`collect`, with the
    graph `resolve` builds). With several `workers` the claims run in parallel processes
    (`rue_verify.verify.parallel`); the results are the same (every search seeds itself by name).
    `progress(cid)` is called as each claim finishes; `run_unit` as in `units`."""
    from .parallel import run
    mode = mode or Mode()
    load_inputs(mode)
    wanted = select(ids)
    after = (lambda unit: [progress(cid) for cid in unit]) if progress else None
    return collect(wanted, run(units(wanted, mode, run_unit), workers, after).values(), resolve)
