"""Claims: each declared once (`claim`, its check a function of the `Mode`), with its repairs
(`repair`) or the reason it has none (`NoRepair`), in one registry; `run_claim` runs one check into a
`ClaimResult`. Nothing here knows a paper: a paper's ledger is a set of modules that declare claims."""

from __future__ import annotations

import contextlib
import functools
import os
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from simulate.seeds import stream

from .findings import Finding, jsonable, overall

#: every paper declared in this process, by name (`papers.register`), and each spec a paper was loaded
#: from -> its name (`papers.load_paper`); the paper claims declared now belong to (`declaring`)
PAPERS: dict[str, Any] = {}
LOADED: dict[str, str] = {}
_DECLARING: list[tuple[str, str]] = []


@contextlib.contextmanager
def declaring(paper: str, origin: str):
    """Claims declared inside belong to `paper`, with `origin` 'paper' (the paper's own ledger) or
    'yours' (a file of your own claims added to it)."""
    _DECLARING.append((paper, origin))
    try:
        yield
    finally:
        _DECLARING.pop()


def declarer() -> tuple[str | None, str]:
    """(the paper, origin) claims declared now belong to (`declaring`); (None, 'paper') outside."""
    return _DECLARING[-1] if _DECLARING else (None, "paper")


def paper_of(spec: str | None):
    """The `papers.Paper` that `spec` names (a declared paper's name, or what `load_paper` loaded it from;
    None: the registry's active paper), None if there is none."""
    if spec in LOADED:
        return PAPERS.get(LOADED[spec])
    return PAPERS.get(spec or REGISTRY.active or "")


@dataclass(frozen=True)
class LedgerInputs:
    """What a run reads besides its claims: the paper (`paper`: a name, module or .py file,
    `papers.load_paper`; None: the active paper), files of your own claims to run beside the paper's
    (`claims`: paths to .py files, module names or entry points of the group `rue_verify.claims`;
    `runner.load_claims`), and the paper's own inputs, which only its claims and its `check_inputs`
    read (for Zhu & Qiu: a reproduction's result directory `results` and a rate study's `rates`, None
    meaning the shipped ones, and `partial_results`: a claim whose studies `results` lack is judged on
    the shipped results instead of refused)."""

    results: str | None = None
    rates: str | None = None
    partial_results: bool = False
    claims: tuple[str, ...] = ()
    paper: str | None = None


@dataclass(frozen=True)
class Mode:
    """How hard the checks work (`quick`, or `thorough`, which does more), with the `inputs` a run
    reads. Frozen: a run's mode is what it was built as. A paper's own settings (`papers.Paper.settings`,
    e.g. Zhu & Qiu's history grid `history_n`) read as attributes: `settings` given here, else the
    paper's for this mode's name (its 'quick' ones for a mode of another name).

    Args:
        name: 'quick' or 'thorough' (printed with every result).
        K_max: the largest K of the deterministic scans.
        random_samples: random points per deterministic search.
        sim_runs: runs per fixed simulation point.
        seed: the root of every search's random stream (`rng`).
        search_points: parameter points a Monte Carlo search screens.
        search_runs: runs per screened point.
        confirm_runs: runs at each of the best points, for the verdict.
        inputs: what the run reads (`LedgerInputs`).
        settings: (name, value) pairs that override the paper's settings.
        seconds: the time limit of one claim's check, repairs included (None: none; the thorough mode
            has none unless given): past it the claim reads `error` and the run goes on.
    """

    name: str = "quick"
    K_max: int = 10_000
    random_samples: int = 4_000
    sim_runs: int = 400
    seed: int = 20241001
    search_points: int = 24
    search_runs: int = 200
    confirm_runs: int = 4_000
    inputs: LedgerInputs = LedgerInputs()
    settings: tuple[tuple[str, Any], ...] = ()
    seconds: float | None = 600.0

    def __getattr__(self, key: str):
        if key.startswith("__") or key in ("settings", "inputs", "name", "seconds"):
            raise AttributeError(key)
        own = dict(self.settings)
        if key in own:
            return own[key]
        paper = paper_of(self.inputs.paper)
        if paper is not None:
            table = paper.settings.get(self.name, paper.settings.get("quick", {}))
            if key in table:
                return table[key]
        raise AttributeError(f"Mode has no setting {key!r}" + (f" (paper {paper.name} declares "
                             f"{', '.join(sorted(table)) or 'none'})" if paper is not None else ""))

    @classmethod
    def thorough(cls, **kw) -> "Mode":
        """The thorough mode (`kw`: any other field, e.g. `inputs` or `seed`)."""
        kw.setdefault("seconds", None)
        return cls("thorough", 10_000, 40_000, 4_000, search_points=160, search_runs=600, confirm_runs=40_000, **kw)

    def coverage(self) -> str:
        """What this mode covers, in one line (printed by `rue-verify claims`): the engine's searches,
        then what the paper's settings cover (`papers.Paper.coverage`)."""
        paper = paper_of(self.inputs.paper)
        own = paper.coverage(self) if paper is not None and paper.coverage else ""
        sizes = (f"K up to {self.K_max} in scans; {self.random_samples} random points per deterministic search; "
                 f"Monte Carlo searches screen {self.search_points} informative points x {self.search_runs} runs, "
                 f"refine the worst, and confirm with {self.confirm_runs} runs; {self.sim_runs} runs per fixed "
                 f"simulation point")
        if not own:                 # a paper that does not say what its settings cover: its findings do
            return (f"mode={self.name}, seed={self.seed}: what each claim covered is in its findings' domains "
                    f"(claims -v); the mode's sizes, where a check takes them from the mode: {sizes}")
        return f"mode={self.name}, seed={self.seed}: {sizes}; {own}"

    def rng(self, *key: str | int) -> np.random.Generator:
        """A generator for one search, spawned from the mode's seed under a name (numpy SeedSequence):
        searches do not share streams, and a search's stream does not depend on which others ran."""
        return stream(self.seed, *key)


@dataclass
class Claim:
    """One claim of a paper, declared once: what it says and where, the check that judges it, the
    paper's inputs the check reads (`needs`), how to recompute the two sides of its witnesses
    (`recompute`: a witness's params -> (lhs, rhs), computed from scratch; seed-keyed Monte Carlo
    witnesses are rerun by their search's replay, `verify.witnesses`), its repaired statements (`repair`, declared
    beside it), where a refuted, undefined or inconsistent claim has none, why (`no_repair`), and the
    cached simulations it shares with other claims (`shares`: claims that share run in one worker
    process, so the cache is computed once)."""

    id: str
    location: str
    statement: str
    check: Callable[[Mode], tuple[str, list[Finding]]]
    needs: tuple[str, ...] = ()
    recompute: Callable[[dict], tuple[float, float]] | None = None
    no_repair: NoRepair | None = None
    repairs: list = field(default_factory=list)
    shares: str | None = None
    bound: bool = False
    section: str = "Other"
    #: the repaired statement's relation at a point: params -> (lhs, rhs) of its lhs <= rhs, computed
    #: from scratch (`repair(..., recompute=)`); None where the repair is not a relation at a point
    repair_recompute: Callable[[dict], tuple[float, float]] | None = None
    #: the paper it belongs to (its namespace; `papers.declaring`) and whether it is the paper's own
    #: claim ('paper') or one of a file of your own added to it ('yours')
    paper: str = ""
    origin: str = "paper"
    #: the proof-graph node it checks, where the paper's node table does not name it (None: its own
    #: id), and the nodes the paper's proof of that node cites (the graph's `cites` of it)
    node: str | None = None
    uses: tuple[str, ...] = ()


@dataclass
class Repair:
    """The nearest correct statement to a refuted, undefined or inconsistent claim, checked with the
    same machinery. `formula` names the paper's formula for it, where the paper has a registry of
    formulas (Zhu & Qiu: a `bounds.registry` entry, evaluated by `rue-verify bound`); None otherwise."""

    statement: str
    formula: str | None
    findings: list[Finding]

    @property
    def verdict(self) -> str:
        """The most severe finding; a proof that is not proved is an inconclusive finding, so a repair
        holds only when its proof is proved."""
        return overall(self.findings)

    @property
    def proof(self) -> dict | None:
        """The status of the repair's proof ({"status", "broken_at", "argued"}), None without one."""
        p = next((f.proof for f in self.findings if f.proof), None)
        return None if p is None else {k: p[k] for k in ("status", "broken_at", "argued", "weakest")}

    def text(self) -> str:
        """One line with both parts: what the checks of the statement found, and its proof's status."""
        rest = [f for f in self.findings if not f.proof]
        said = overall(rest) if rest else None
        p = self.proof
        if p is None:
            return f"{self.verdict}"
        proof = {"proved": "its proof is proved (every step certified)",
                 "checked": f"its proof holds as far as checked (its weakest step: {p['weakest']})",
                 "argued": f"its proof is argued at step(s) "
                 f"{', '.join(map(str, p['argued']))}", "broken": f"its proof breaks at {', '.join(p['broken_at'])}",
                 "pending": "its proof rests on nodes not run"}[p["status"]]
        return (f"the statement {said} on its checks; " if said else "") + proof

    def to_json(self) -> dict:
        return jsonable({"statement": self.statement, "formula": self.formula, "verdict": self.verdict,
                          "proof": self.proof, "text": self.text(),
                          "domain": "; ".join(f.domain for f in self.findings),
                          "certified": all(f.certified for f in self.findings if f.verdict == "holds"),
                          "evidence": [asdict(f) for f in self.findings]})


def _only_argued(rep) -> bool:
    """Whether a repair that is not 'holds' is so only because its proof is argued at a step: no finding of it
    refuted, undefined or inconsistent, and a proof among them argued."""
    bad = {"refuted", "undefined", "inconsistent", "broken", "error", "vacuous"}
    return not any(f.verdict in bad for f in rep.findings) and any(
        (f.proof or {}).get("status") == "argued" for f in rep.findings)


@dataclass(frozen=True)
class NoRepair:
    """Why a refuted, undefined or inconsistent claim has no repair, and what that reason rests on, so
    that it is checked like any step: 'repair:ID' (claim ID's repair holds: the correction lives
    there), 'finding:holds' (a computed finding of this claim holds: the reading that is true is
    judged on its own), 'finding:charitable' (a charitable reading holds), 'finding:rate' (the claim
    is answered by a measured rate), 'finding:computed' (by computed comparisons)."""

    reason: str
    rests_on: str

    def check(self, result: "ClaimResult", results: dict[str, "ClaimResult"]) -> tuple[bool | None, str]:
        """(whether the reason holds, None if what it rests on did not run; the evidence)."""
        what, _, arg = self.rests_on.partition(":")
        if what == "repair":
            other = results.get(arg)
            if other is None or not other.repairs:
                return None, f"{arg} did not run"
            rep = other.repairs[0]
            if rep.verdict == "inconclusive" and _only_argued(rep):      # stated and checked, its proof open
                return True, f"{arg}'s repair: inconclusive (no check fails; its proof is argued at a named step)"
            return rep.verdict == "holds", f"{arg}'s repair: {rep.verdict}"
        want = {"holds": ("computed", "holds"), "charitable": ("charitable", "holds"), "rate": ("rate", None),
                "computed": ("computed", None)}[arg]
        found = [f for f in result.findings if f.kind == want[0] and (want[1] is None or f.verdict == want[1])]
        return bool(found), f"{len(found)} {want[0]} finding(s)" + (" that hold" if want[1] else "")


@dataclass
class ClaimResult:
    id: str
    location: str
    statement: str
    verdict: str
    summary: str
    findings: list[Finding]
    seconds: float
    mode: str = "quick"
    repairs: list[Repair] = field(default_factory=list)
    no_repair: dict | None = None       # {reason, rests_on, holds, evidence}, set once the ledger has run

    def to_json(self) -> dict:
        d = asdict(self)
        d["findings"] = [asdict(f) for f in self.findings]
        d["repairs"] = [r.to_json() for r in self.repairs]
        if d["no_repair"] is None:
            del d["no_repair"]
        return jsonable(d)


class Expect(str):
    """A summary written for one outcome: valid only if the claim's computed verdict is `verdict`.
    Otherwise `run_claim` replaces it by a summary generated from the findings, so prose can never
    contradict what was computed."""

    def __new__(cls, text: str, verdict: str) -> "Expect":
        obj = super().__new__(cls, text)
        obj.verdict = verdict
        return obj


def auto_summary(findings: list[Finding]) -> str:
    return "; ".join(f"{f.verdict} ({f.domain})" for f in findings)


def _where(check) -> str:
    """Where a check is declared: its file's name and first line (its module where the source is not a
    file)."""
    code = getattr(check, "__code__", None)
    if code is None:
        return getattr(check, "__module__", "?")
    return f"{os.path.basename(code.co_filename)}:{code.co_firstlineno} ({check.__name__})"


class Registry(dict):
    """Every declared claim, namespaced by paper (`spaces`: paper -> id -> Claim). As a dict it maps the
    IDs of the active paper (`activate`; the first paper that declares a claim, until another is
    loaded) to their claims, in the order declared: a paper's IDs never clash with another's, and a
    clash within one paper is refused naming both declarations."""

    def __init__(self) -> None:
        super().__init__()
        self.spaces: dict[str, dict[str, Claim]] = {}
        self.active: str | None = None

    def add(self, c: Claim) -> None:
        space = self.spaces.setdefault(c.paper, {})
        if c.id in space:
            old = space[c.id]
            raise ValueError(f"claim {c.id} registered twice in paper {c.paper!r}: {_where(old.check)} and "
                             f"{_where(c.check)}; give one of them another ID")
        self.put(c)

    def put(self, c: Claim) -> None:
        """Declare `c`, or replace the claim of its id in its paper."""
        self.spaces.setdefault(c.paper, {})[c.id] = c
        if self.active is None:
            self.active = c.paper
        if c.paper == self.active:
            dict.__setitem__(self, c.id, c)

    def activate(self, paper: str) -> None:
        """Make `paper`'s claims the ones this dict maps."""
        self.active = paper
        self.clear()
        self.update(self.spaces.get(paper, {}))

    def rename(self, old: str, new: str) -> None:
        """Move the claims declared under `old` into paper `new` (a file that declares its claims before
        its `PAPER`)."""
        from dataclasses import replace as _replace
        for c in self.spaces.pop(old, {}).values():
            self.add(_replace(c, paper=new))
        if self.active == old:
            self.activate(new)

    def of(self, paper: str) -> dict[str, Claim]:
        """`paper`'s claims, id -> Claim, in the order declared."""
        return self.spaces.get(paper, {})


REGISTRY = Registry()


def claim(id: str, location: str, statement: str, *, needs: tuple[str, ...] = (),
          recompute: Callable[[dict], tuple[float, float]] | None = None, no_repair: NoRepair | None = None,
          shares: str | None = None, bound: bool = False, section: str = "Other", node: str | None = None,
          uses: tuple[str, ...] = ()):
    """Declare a claim whose check is the decorated function Mode -> (summary, findings). `bound`: the
    claim is an upper or lower bound, so its check owes a finding of kind `tightness` (`run_claim`
    refuses a run without one). `section`: the part of the paper it belongs to (the report groups and
    filters by it; `claims_in` fixes it for a module). The claim belongs to the paper being loaded
    (`papers.declaring`), else to the active paper.

    Args:
        id: the claim's ID (unique within its paper).
        location: where the paper says it ("Lemma TwoBoundOnC (eq. Tk_lowv2)").
        statement: what the paper says, in plain text.
        needs: the paper's inputs its check reads (the paper's names: Zhu & Qiu's reproduction studies
            'fixed', 'random', 'arms', 'two-stage'); the paper's own code reads them, the engine never.
        recompute: a witness's params -> (lhs, rhs), computed again from scratch (`verify.witnesses`);
            for a claim of yours it wins over every replay; a paper's own key replays come first for
            the paper's own claims (`witnesses.recompute_witness`).
        no_repair: why a refuted, undefined or inconsistent claim has no repair (`NoRepair`).
        shares: the name of a cached simulation it shares with other claims (they run in one process).
        bound: the claim is a bound (it owes a tightness finding).
        section: the part of the paper it belongs to.
        node: the proof-graph node it checks, where the paper's node table does not name it (default:
            the claim's id, in a paper without a table or for a claim of your own).
        uses: the nodes (or claim IDs) that the paper's proof of that node cites, for a paper without a
            hand-written table: the node's `cites` in the graph (what your checks used, its `uses`,
            comes from their `Rests` steps).
    """
    def deco(fn: Callable[[Mode], tuple[str, list[Finding]]]):
        paper, origin = declarer()
        REGISTRY.add(Claim(id, location, statement, fn, tuple(needs), recompute, no_repair, shares=shares,
                           bound=bound, section=section, paper=paper or REGISTRY.active or "claims", origin=origin,
                           node=node, uses=tuple(uses)))
        return fn
    return deco


def claims_in(section: str) -> Callable[..., Callable]:
    """The `claim` decorator of one part of the paper: every claim it declares belongs to `section`.

    Args:
        section: the part of the paper, as the report's filter shows it.
    """
    return functools.partial(claim, section=section)


def repair(claim_id: str, *, recompute: Callable[[dict], tuple[float, float]] | None = None):
    """Declare the check of a repaired statement of `claim_id` (declared above it): a function
    Mode -> Repair.

    Args:
        claim_id: the ID of the claim it repairs (declared before it).
        recompute: where the repaired statement is a relation lhs <= rhs at a point, params ->
            (lhs, rhs) computed from scratch (`rue-verify proofs --node repair:ID --at`).
    """
    def deco(fn: Callable[[Mode], Repair]):
        space = REGISTRY.of(declarer()[0] or REGISTRY.active or "claims")
        if claim_id not in space:
            raise ValueError(f"repair of {claim_id}: declare the claim before its repairs")
        space[claim_id].repairs.append(fn)
        if recompute is not None:
            space[claim_id].repair_recompute = recompute
        return fn
    return deco


#: the claim whose check is running in this process (`running`): a search registers its replay under
#: that claim's paper (`witnesses.register_search`)
_RUNNING: list[Claim] = []


def running() -> Claim | None:
    """The claim whose check is running now, None between checks."""
    return _RUNNING[-1] if _RUNNING else None


def run_claim(c: Claim, mode: Mode) -> ClaimResult:
    """Run claim `c`'s check and its repairs into a `ClaimResult`, under the mode's time limit
    (`Mode.seconds`). A check that raises, returns anything but (summary, findings) with at least one
    `Finding`, runs past its limit, or (declared a bound) gives no finding of kind `tightness`, and a
    repair that raises or returns no `Repair`, make the claim read `error`, with one line saying what
    and where in the declaring file (`faults.one_line`); the run goes on. Ctrl-C is not caught, nor a
    `ParameterError` (the run's inputs refused, e.g. results that lack a study the claim needs: the
    whole run stops with that one line)."""
    from ..errors import ParameterError
    from .faults import TimeLimit, declared_at, one_line, time_limit
    t0 = time.perf_counter()
    at = declared_at(c.check)
    summary, findings, repairs, error = "", [], [], None
    _RUNNING.append(c)
    try:
        with time_limit(mode.seconds, f"claim {c.id}'s check", "raise it with --claim-seconds, 0 for none"):
            out = c.check(mode)
            summary, findings, error = _returned(c, out)
            for fn in c.repairs:
                rep = fn(mode)
                if not isinstance(rep, Repair) or not rep.findings:
                    error = error or (f"its repair {getattr(fn, '__name__', fn)} ({declared_at(fn)}) returned "
                                      f"{_kind(rep)}, not a verify.Repair with findings")
                    break
                repairs.append(rep)
    except (KeyboardInterrupt, ParameterError):       # Ctrl-C; the run's inputs refused (the whole run stops)
        raise
    except TimeLimit as err:
        error = str(err)
    except BaseException as err:          # SystemExit included: a claim cannot end the run
        error = one_line(err)
    finally:
        _RUNNING.pop()
    if error is None and c.bound and not any(f.kind == "tightness" for f in findings):
        error = (f"claim {c.id} is declared a bound (claim(..., bound=True)), but its check gave no finding of kind "
                 "'tightness': say how far the bound is from the truth (verify.from_tightness), or declare it "
                 "without bound=True")
    if error is not None:
        findings = [f for f in findings if isinstance(f, Finding)] + [
            Finding("error", f"the check of {c.id}" + (f" ({at})" if at else ""), error)]
        summary = f"error: {error}"
    verdict = overall(findings)
    if isinstance(summary, Expect) and summary.verdict != verdict:
        summary = auto_summary(findings)
    return ClaimResult(c.id, c.location, c.statement, verdict, str(summary), findings,
                       round(time.perf_counter() - t0, 3), mode.name, repairs)


def _kind(x: Any) -> str:
    return "None" if x is None else f"a {type(x).__name__}"


def _returned(c: Claim, out: Any) -> tuple[str, list, str | None]:
    """(summary, findings, None) from what check `c` returned, or ('', [], why it is not a check's
    answer): a check returns (summary, findings), a list of at least one `Finding`."""
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        return "", [], (f"the check returned {_kind(out)}; a check returns (summary, findings), findings a list "
                        "of verify findings (from_proof, from_value, ...)")
    summary, findings = out
    if not isinstance(findings, (list, tuple)):
        return "", [], f"the check's findings are {_kind(findings)}, not a list of verify findings"
    if not findings:
        return "", [], "the check returned no finding (a claim needs at least one)"
    bad = next((f for f in findings if not isinstance(f, Finding)), None)
    if bad is not None:
        return "", [f for f in findings if isinstance(f, Finding)], (
            f"the check's findings hold {_kind(bad)}, not a verify Finding")
    if not isinstance(summary, str):
        return "", list(findings), f"the check's summary is {_kind(summary)}, not a str"
    return summary, list(findings), None
