"""Claims: each declared once (`claim`, its check a function of the `Mode`), with its repairs
(`repair`) or the reason it has none (`NoRepair`), in one registry; `run_claim` runs one check into a
`ClaimResult`. Nothing here knows a paper: a paper's ledger is a set of modules that declare claims."""

from __future__ import annotations

import functools
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from simulate.seeds import stream

from .findings import Finding, jsonable, overall


@dataclass(frozen=True)
class LedgerInputs:
    """What the empirical claims read: a reproduction's result directory (`results`; None: the
    paper-scale results shipped with the package; nothing runs a sweep), a rate study's directory
    (`rates`; None: the shipped study), and whether a claim whose studies `results` lack is judged on
    the shipped results instead of refused (`partial_results`: the report of a partial reproduction;
    the finding says so), and files of your own claims to run beside the paper's (`claims`: paths to
    .py files, module names or entry points of the group `rue_verify.claims`; `ledger.load_claims`)."""

    results: str | None = None
    rates: str | None = None
    partial_results: bool = False
    claims: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mode:
    """How hard the checks work (`quick`, or `thorough`, which does more; `rue_verify.timing.WAITS`
    says how long each takes), with the `inputs` the empirical claims read. Frozen: a run's mode is
    what it was built as.

    Args:
        name: 'quick' or 'thorough' (printed with every result).
        K_max: the largest K of the deterministic scans.
        random_samples: random points per deterministic search.
        sim_runs: runs per fixed simulation point.
        seed: the root of every search's random stream (`rng`).
        search_points: parameter points a Monte Carlo search screens.
        search_runs: runs per screened point.
        confirm_runs: runs at each of the best points, for the verdict.
        history_n: (K, the largest n) pairs the exact history search of the proofs covers, every
            history of every length from the theorems' smallest n up to it.
        history_beyond: (K, n) pairs searched best-first beyond that (a sample of the tree, at the
            parameter point where the exhaustive search came nearest to breaking the step).
        history_programs: the linear programs each best-first search may solve.
        inputs: the result directories the empirical claims read (`LedgerInputs`).
    """

    name: str = "quick"
    K_max: int = 10_000
    random_samples: int = 4_000
    sim_runs: int = 400
    seed: int = 20241001
    search_points: int = 24
    search_runs: int = 200
    confirm_runs: int = 4_000
    history_n: tuple[tuple[int, int], ...] = ((2, 12), (3, 12), (4, 13))
    history_beyond: tuple[tuple[int, int], ...] = ()
    history_programs: int = 3000
    inputs: LedgerInputs = LedgerInputs()

    @classmethod
    def thorough(cls, **kw) -> "Mode":
        """The thorough mode (`kw`: any other field, e.g. `inputs` or `seed`)."""
        return cls("thorough", 10_000, 40_000, 4_000, search_points=160, search_runs=600, confirm_runs=40_000,
                   history_n=((2, 14), (3, 13), (4, 14)), history_beyond=((2, 30), (3, 24)), **kw)

    def coverage(self) -> str:
        """What this mode covers, in one line (printed by `rue-verify claims`)."""
        return (f"mode={self.name}, seed={self.seed}: K up to {self.K_max} in scans; {self.random_samples} random "
                f"points per deterministic search; Monte Carlo searches screen {self.search_points} informative "
                f"points x {self.search_runs} runs, refine the worst, and confirm with {self.confirm_runs} runs; "
                f"{self.sim_runs} runs per fixed simulation point; every reward history (the exact history search) for "
                + ", ".join(f"K = {K} up to n = {n}" for K, n in self.history_n)
                + ("; best-first beyond, " + ", ".join(f"K = {K} at n = {n}" for K, n in self.history_beyond)
                   + f" ({self.history_programs} programs each)" if self.history_beyond else ""))

    def rng(self, *key: str | int) -> np.random.Generator:
        """A generator for one search, spawned from the mode's seed under a name (numpy SeedSequence):
        searches do not share streams, and a search's stream does not depend on which others ran."""
        return stream(self.seed, *key)


@dataclass
class Claim:
    """One claim of the paper, declared once: what it says and where, the check that judges it, the
    reproduction studies the check reads (`needs`), how to recompute the two sides of its witnesses
    (`recompute`: a witness's params -> (lhs, rhs) from `bounds` or a rerun; seed-keyed Monte Carlo
    witnesses are rerun by `proof_search.recompute`), its repaired statements (`repair`, declared
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


@dataclass
class Repair:
    """The nearest correct statement to a refuted, undefined or inconsistent claim, checked with the
    same machinery. `formula` names its `bounds.registry` entry (evaluated by `rue-verify bound`)."""

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
            return other.repairs[0].verdict == "holds", f"{arg}'s repair: {other.repairs[0].verdict}"
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


REGISTRY: dict[str, Claim] = {}


def claim(id: str, location: str, statement: str, *, needs: tuple[str, ...] = (),
          recompute: Callable[[dict], tuple[float, float]] | None = None, no_repair: NoRepair | None = None,
          shares: str | None = None, bound: bool = False, section: str = "Other"):
    """Declare a claim whose check is the decorated function Mode -> (summary, findings). `bound`: the
    claim is an upper or lower bound, so its check owes a finding of kind `tightness` (CLAIMS-BEYOND.md;
    a test holds every such claim to it). `section`: the part of the paper it belongs to (the report
    groups and filters by it; `claims_in` fixes it for a module).

    Args:
        id: the claim's ID, as in CLAIMS.md (unique).
        location: where the paper says it ("Lemma TwoBoundOnC (eq. Tk_lowv2)").
        statement: what the paper says, in plain text.
        needs: the reproduction studies its check reads ('fixed', 'random', 'arms', 'two-stage').
        recompute: a witness's params -> (lhs, rhs), computed again from scratch (`verify.witnesses`).
        no_repair: why a refuted, undefined or inconsistent claim has no repair (`NoRepair`).
        shares: the name of a cached simulation it shares with other claims (they run in one process).
        bound: the claim is a bound (it owes a tightness finding).
        section: the part of the paper it belongs to.
    """
    def deco(fn: Callable[[Mode], tuple[str, list[Finding]]]):
        if id in REGISTRY:
            raise ValueError(f"claim {id} registered twice")
        REGISTRY[id] = Claim(id, location, statement, fn, tuple(needs), recompute, no_repair, shares=shares,
                             bound=bound, section=section)
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
        if claim_id not in REGISTRY:
            raise ValueError(f"repair of {claim_id}: declare the claim before its repairs")
        REGISTRY[claim_id].repairs.append(fn)
        if recompute is not None:
            REGISTRY[claim_id].repair_recompute = recompute
        return fn
    return deco


def run_claim(c: Claim, mode: Mode) -> ClaimResult:
    t0 = time.perf_counter()
    summary, findings = c.check(mode)
    verdict = overall(findings)
    if isinstance(summary, Expect) and summary.verdict != verdict:
        summary = auto_summary(findings)
    repairs = [fn(mode) for fn in c.repairs]
    return ClaimResult(c.id, c.location, c.statement, verdict, str(summary), findings,
                       round(time.perf_counter() - t0, 3), mode.name, repairs)
