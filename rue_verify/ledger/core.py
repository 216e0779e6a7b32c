"""The claims ledger's machinery: findings, verdicts, witnesses, the claim registry and the
systematic searches (grid + seeded random sampling + margin minimisation) that the checks use."""

from __future__ import annotations

import functools
import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable

import numpy as np

from simulate.seeds import stream

#: Verdicts from most to least severe (CLAIMS.md). A claim's verdict is its most severe finding.
SEVERITY = ("refuted", "undefined", "inconsistent", "conditional", "vacuous", "inconclusive", "holds")

#: What a finding rests on: "computed" (a search, an integral, a simulation, a proof), or "reading"
#: (a reading of the paper's text: a symbol left undefined, two places that say different things).
#: "charitable" marks the reading that makes a statement true when the literal one does not; "rate" a
#: measured exponent in n against a claimed one, "tightness" how far a valid bound is from the truth.
KINDS = ("computed", "reading", "charitable", "rate", "tightness")


@dataclass
class Finding:
    """One finding about a claim: a verdict, the domain it covers, and its evidence."""

    verdict: str
    domain: str
    detail: str
    witness: dict | None = None
    certified: bool = False
    kind: str = "computed"
    proof: dict | None = None      # a proof's steps and status (`from_proof`), read by the proof graph
    #: how a 'holds' was decided when it is neither certified nor sampled: 'exhausted' (every case of a
    #: finite domain, e.g. every history up to a length, `from_exhaustive`); None otherwise
    method: str | None = None
    #: the proof graph's node this finding decides (None: the claim's node); the graph reads this, never the text
    node: str | None = None

    def __post_init__(self) -> None:
        if self.verdict not in SEVERITY:
            raise ValueError(f"verdict must be one of {SEVERITY}, got {self.verdict!r}")
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {self.method!r}")

    @property
    def decided_by(self) -> str:
        """How a 'holds' was decided, weakest last: 'certified' (sympy, exact or interval arithmetic),
        'exhausted' (every case of a finite domain), 'sampled' (a search or simulation of points)."""
        return "certified" if self.certified else (self.method or "sampled")


#: how a finding that holds can have been decided besides certified and sampled (`Finding.method`)
METHODS = (None, "exhausted")
#: the ways a 'holds' is decided, strongest first (`Finding.decided_by`)
DECIDED = ("certified", "exhausted", "sampled")


def about(node: str, finding: Finding) -> Finding:
    """`finding`, declared to decide the proof graph's node `node` (a claim that checks several nodes
    says which finding is which; the graph never reads a finding's text).

    Args:
        node: the node's id in the proof graph's table.
        finding: the finding.
    """
    finding.node = node
    return finding


def weakest(findings: Iterable[Finding]) -> str:
    """The weakest way any of these (holding) findings was decided (`DECIDED`)."""
    return max((f.decided_by for f in findings), key=DECIDED.index, default="certified")


# ---------------------------------------------------------------- findings from computed quantities
def from_margin(margin: float, domain: str, *, holds: str, fails: str, tol: float = 0.0,
                tol_reason: str = "exact comparison", fail: str = "refuted",
                witness: Callable[[], dict] | dict | None = None, certified: bool = False,
                kind: str = "computed") -> Finding:
    """A finding whose verdict is computed from `margin` (>= -tol means the claim held everywhere
    checked): the text, the witness and the certificate follow the same test, so none of them can
    say something the number does not. `witness` may be a function, built only on failure.

    Args:
        margin: the smallest margin found (rhs - lhs for a claim lhs <= rhs); below -tol is a violation.
        domain: what was searched.
        holds: the text when it held.
        fails: the text when it failed.
        tol: the slack allowed (rounding), with `tol_reason` saying why.
        tol_reason: why the slack is there.
        fail: the verdict when it fails.
        witness: the witness, or a function that builds it (on failure).
        certified: the margin is rigorous (arb, exact).
        kind: as in `from_value`.
    """
    ok = bool(margin >= -tol)
    tail = f" [smallest margin {fmt(margin)}; tolerance {tol:g}: {tol_reason}]"
    w = None if ok else (witness() if callable(witness) else witness)
    return Finding("holds" if ok else fail, domain, (holds if ok else fails) + tail, w, certified and ok, kind)


def from_value(value: float, domain: str, detail: str | None = None, *, holds: str | None = None,
               fails: str | None = None, at_most: float | None = None,
               at_least: float | None = None, tol: float = 0.0, strict: bool = False, fail: str = "refuted",
               witness: Callable[[], dict] | dict | None = None, certified: bool = False,
               kind: str = "computed") -> Finding:
    """A finding whose verdict is computed from a quantity against the claim's threshold: it holds when
    `value <= at_most + tol` (or `value >= at_least - tol`; with `strict`, < and >), else `fail`; the
    witness (a function is called only on failure) follows the same test. `certified` says the
    quantity is rigorous (arb, exact), so the verdict is certified whichever way it goes. `detail`
    states the value; or `holds` and `fails`, the text for each outcome, chosen by the same test.

    Args:
        value: the computed quantity.
        domain: what was searched or computed (a parameter range, a number of points).
        detail: the text stating the value, or None with `holds` and `fails`.
        holds: the text when the claim held.
        fails: the text when it failed.
        at_most: the claim is value <= at_most.
        at_least: the claim is value >= at_least (give exactly one of the two).
        tol: the slack allowed, in the value's units (rounding; say why in the text).
        strict: compare with < or > instead.
        fail: the verdict when it fails ('refuted', 'conditional', 'inconclusive', ...).
        witness: the witness, or a function that builds it (called only on failure).
        certified: the value is rigorous, so the verdict is certified.
        kind: 'computed', 'reading', 'charitable', 'rate' or 'tightness'.
    """
    if (at_most is None) == (at_least is None):
        raise ValueError("from_value: give exactly one of at_most, at_least")
    if (detail is None) == (holds is None or fails is None):
        raise ValueError("from_value: give detail, or both holds and fails")
    margin = (at_most - value) if at_most is not None else (value - at_least)
    ok = bool(margin > -tol) if strict else bool(margin >= -tol)
    w = None if ok else (witness() if callable(witness) else witness)
    text = detail if detail is not None else (holds if ok else fails)
    return Finding("holds" if ok else fail, domain, text, w, bool(certified), kind)


def from_count(violations: int, domain: str, detail: str | None = None, *, holds: str | None = None,
               fails: str | None = None, fail: str = "refuted", witness: Callable[[], dict] | dict | None = None,
               kind: str = "computed") -> Finding:
    """A finding from a count of violations found (a search, a simulation): holds when there is none.

    Args:
        violations: how many violations the search or simulation found.
        domain: what was searched.
        detail: the text, or None with `holds` and `fails`.
        holds: the text with no violation.
        fails: the text with some.
        fail: the verdict when there are violations.
        witness: the witness of one violation, or a function that builds it.
        kind: as in `from_value`.
    """
    return from_value(violations, domain, detail, holds=holds, fails=fails, at_most=0, fail=fail, witness=witness,
                      kind=kind)


def from_intervals(lhs: tuple[float, float], rhs: tuple[float, float], domain: str, detail: str, *,
                   witness: Callable[[], dict] | dict | None = None, kind: str = "computed") -> Finding:
    """A finding on `lhs <= rhs` when both sides are only known to lie in intervals (simulations):
    refuted when lhs's interval lies wholly above rhs's, holds when wholly below, else inconclusive.

    Args:
        lhs: the left side's interval (low, high).
        rhs: the right side's interval (low, high).
        domain: what was simulated.
        detail: the text.
        witness: the witness, or a function that builds it (on refutation).
        kind: as in `from_value`.
    """
    if lhs[0] > rhs[1]:
        return Finding("refuted", domain, detail, witness() if callable(witness) else witness, False, kind)
    return Finding("holds" if lhs[1] < rhs[0] else "inconclusive", domain, detail, None, False, kind)


def from_rate(exponent: float, interval: tuple[float, float], claimed: float, domain: str, detail: str, *,
              witness: dict, kind: str = "rate") -> Finding:
    """A finding on 'the quantity decays at least like n^claimed' (an O~ rate) from a measured exponent
    and its interval: refuted when the interval lies wholly above `claimed` (significantly slower),
    holds when wholly at or below it, else inconclusive. The witness (the quantity, the exponent, its
    interval and the range of n fitted) is kept whatever the verdict, as CLAIMS-BEYOND.md asks.

    Args:
        exponent: the measured exponent in n.
        interval: its interval (low, high).
        claimed: the claimed exponent (-1/2 for O~(sqrt(K/n))).
        domain: the settings and budgets fitted.
        detail: the text.
        witness: {"quantity", "exponent", "interval", "n", "params", ...} as CLAIMS-BEYOND.md gives it.
        kind: 'rate'.
    """
    verdict = "refuted" if interval[0] > claimed else ("holds" if interval[1] <= claimed else "inconclusive")
    return Finding(verdict, domain, detail, witness, False, kind)


def from_tightness(ratios, points: list[dict], domain: str, *, bound: str, paper: dict | None = None,
                   exponent: dict | None = None, lower: bool = False, tol: float = 0.0) -> Finding:
    """How far a bound is from the truth on the points measured: `ratios[i]` = bound/truth at
    `points[i]` (truth/bound for a lower bound), at least 1 wherever the bound is valid. The verdict
    is computed from the smallest ratio: holds when it is >= 1, refuted when it is below (that point
    is a counterexample). The witness names the point where the bound is tightest, the ratios at the
    paper's own settings (`paper`: label -> ratio) and, for a bound in n or K, `exponent`: the
    variable, the bound's exponent and the measured one (with its interval when measured by
    simulation). `tol`: the relative rounding of ratios computed in floating point where the bound is
    attained (a ratio within it of 1 is 1).

    Args:
        ratios: bound/truth at each point (truth/bound for a lower bound), an array.
        points: the parameters of each point, dicts named as CLAIMS.md names them.
        domain: what the points cover.
        bound: the bound's name, for the text.
        paper: label -> ratio at the paper's own settings.
        exponent: {"variable", "bound", "measured", "interval"} for a bound in n or K.
        lower: the bound is a lower bound.
        tol: the relative rounding allowed where the bound is attained.
    """
    r = np.asarray(ratios, float)
    i = int(np.nanargmin(r))
    gap = ""
    if exponent:
        gap = (f"; in {exponent['variable']} the bound goes like {exponent['variable']}^{exponent['bound']:.3g} "
               f"and the truth like {exponent['variable']}^{exponent['measured']:.3g}"
               + (f" [{exponent['interval'][0]:.3g}, {exponent['interval'][1]:.3g}]" if exponent.get("interval")
                  else "")
               + f" (gap {exponent['bound'] - exponent['measured']:.3g})")
    at_paper = "; at the paper's settings " + ", ".join(f"{k}: {v:.3g}" for k, v in paper.items()) if paper else ""
    what = f"the truth over the lower bound {bound}" if lower else f"the bound {bound} over the truth"
    detail = (f"{what}: at least {r[i]:.4g} (at {points[i]}) over {r.size} points, at most "
              f"{np.nanmax(r):.4g}{at_paper}{gap}")
    witness = {"params": points[i], "ratio": float(r[i]), "paper": paper or {}, "exponent": exponent or {}}
    return Finding("holds" if r[i] >= 1 - tol else "refuted", domain, detail, witness, False, "tightness")


def from_classes(classes: list[str], domain: str, detail: str, *, want: str = "better",
                 kind: str = "computed", witness: Callable[[], dict] | None = None) -> Finding:
    """A finding on 'every cell goes the stated way' from paired comparisons classified with Holm's
    correction ('better', 'worse', 'undecided'): holds when every cell is significant in the direction
    `want`, refuted when any is significant the other way, else inconclusive. `witness` is called
    when refuted.

    Args:
        classes: 'better', 'worse' or 'undecided' per cell (`comparisons.classify`).
        domain: what the cells cover (the results read, the reading of the paper).
        detail: the text (the counts, the cells not won).
        want: the stated direction, 'better' or 'worse' (RUE's error against the other's).
        kind: as in `from_value`.
        witness: a function that builds the witness of a refutation.
    """
    other = "worse" if want == "better" else "better"
    verdict = "refuted" if other in classes else ("holds" if classes and set(classes) == {want} else "inconclusive")
    return Finding(verdict, domain, detail, witness() if witness and verdict == "refuted" else None, False, kind)


def from_majority(classes: list[str], domain: str, detail: str, *, want: str = "better",
                  kind: str = "computed", witness: Callable[[], dict] | None = None) -> Finding:
    """'In most cases': holds when more than half the cells are significant in the direction `want`,
    refuted when at least half are significant the other way, else inconclusive. `witness` is called
    when refuted.

    Args:
        classes: 'better', 'worse' or 'undecided' per cell (`comparisons.classify`).
        domain: what the cells cover (the results read, the reading of the paper).
        detail: the text (the counts, the cells not won).
        want: the stated direction, 'better' or 'worse' (RUE's error against the other's).
        kind: as in `from_value`.
        witness: a function that builds the witness of a refutation.
    """
    other = "worse" if want == "better" else "better"
    n = len(classes)
    verdict = ("holds" if classes.count(want) > n / 2 else "refuted" if classes.count(other) >= n / 2
               else "inconclusive")
    return Finding(verdict, domain, detail, witness() if witness and verdict == "refuted" else None, False, kind)


def from_parts(verdicts: list[str], domain: str, detail: str, kind: str = "computed",
               witness: Callable[[int], dict] | None = None) -> Finding:
    """A finding over several parts judged one by one (each verdict computed by the caller's stated
    rule): the most severe part's verdict. `witness(i)`, for the first part i with that verdict, is
    called when it is refuted.

    Args:
        verdicts: each part's verdict.
        domain: what the parts cover.
        detail: the text (each part and its verdict).
        kind: as in `from_value`.
        witness: part index -> its witness, for a refutation.
    """
    v = overall(Finding(x, domain, "") for x in verdicts)
    w = witness(verdicts.index(v)) if witness and v == "refuted" else None
    return Finding(v, domain, detail, w, False, kind)


def from_exact(ok: bool, domain: str, detail: str, *, fail: str = "refuted", certified: bool = True,
               witness: Callable[[], dict] | dict | None = None, kind: str = "computed") -> Finding:
    """A finding from an exact check, a sympy identity or simplification, an exact comparison of
    rationals or integers (`ok` is its outcome): `fail` when it fails, certified when it holds.

    Args:
        ok: the outcome of the exact check.
        domain: what it covers ("symbolic", a parameter range).
        detail: the text.
        fail: the verdict when it fails.
        certified: whether a pass is a certificate (exact arithmetic); False for a floating check.
        witness: the witness, or a function that builds it (on failure).
        kind: as in `from_value`.
    """
    w = None if ok else (witness() if callable(witness) else witness)
    return Finding("holds" if ok else fail, domain, detail, w, bool(certified and ok), kind)


def from_exhaustive(found: dict | None, domain: str, *, holds: str, fails: str, node: str | None = None,
                    kind: str = "computed") -> Finding:
    """A finding from an exhaustive search of a finite domain (every reward history up to a length, at
    the parameter points `domain` names): 'holds', decided as `exhausted`, when the search found
    nothing; refuted, with the witness it found, when it found a counterexample.

    Args:
        found: the witness of the counterexample found, or None.
        domain: what was exhausted.
        holds: the text when nothing was found.
        fails: the text when a counterexample was found.
        node: the proof graph's node the finding decides (`about`).
        kind: as in `from_value`.
    """
    if found is None:
        return Finding("holds", domain, holds, None, False, kind, method="exhausted", node=node)
    return Finding("refuted", domain, fails, found, False, kind, node=node)


def from_certificate(ok: bool, domain: str, *, proved: str, failed: str, fail: str = "inconclusive",
                     kind: str = "computed") -> Finding:
    """A finding from a rigorous check (interval arithmetic, exact arithmetic): certified 'holds'
    when it succeeded, else `fail` (by default inconclusive: a certificate that did not close is
    not a counterexample).

    Args:
        ok: whether the certificate closed.
        domain: what it covers.
        proved: the text when it closed.
        failed: the text when it did not.
        fail: the verdict when it did not (not a counterexample: 'inconclusive' by default).
        kind: as in `from_value`.
    """
    return Finding("holds" if ok else fail, domain, proved if ok else failed, certified=bool(ok), kind=kind)


@dataclass(frozen=True)
class Argued:
    """A proof step that no machine checks, with the reason no check can be written."""

    reason: str


@dataclass(frozen=True)
class Rests:
    """A proof step that is another node of the proof graph (a claim, or a claim's repair as
    `repair:ID`): its status is that node's, resolved once the whole ledger has run
    (`proof_graph.resolve`)."""

    node: str


#: what one step of a proof is: certified (sympy, exact or interval arithmetic), exhausted (every case
#: of a finite domain searched, e.g. every history up to a length), sampled (a search or simulation of
#: points found no counterexample), refuted, argued (no machine check; a reason says why), or rests (on
#: another node; resolved later). A proof is proved when every step is one of the first three, and
#: says which is the weakest.


def _step(i: int, text: str, ok) -> dict:
    if ok is None:
        raise TypeError(f"proof step ({i}) '{shorten(text, 60)}': an unchecked step must say why it cannot be "
                        "checked (core.Argued(reason)), or name the node it rests on (core.Rests(node))")
    s = {"step": i, "text": text, "status": None, "detail": "", "uses": None}
    if ok is True:
        s["status"] = "certified"
    elif ok is False:
        s.update(status="refuted", detail="the machine check failed")
    elif isinstance(ok, Finding):
        s["status"] = ({"holds": ok.decided_by, "refuted": "refuted"}.get(ok.verdict, "argued"))
        s["detail"] = f"searched ({ok.domain}): " + ("no counterexample" if ok.verdict == "holds" else
                                                     f"{ok.verdict}: {ok.detail}")
        s["witness"] = ok.witness
    elif isinstance(ok, Argued):
        s.update(status="argued", detail=ok.reason)
    elif isinstance(ok, Rests):
        s.update(status="rests", uses=ok.node, detail=f"rests on {ok.node}")
    else:
        raise TypeError(f"proof step ({i}): True, False, a Finding, Argued or Rests, got {ok!r}")
    return s


def proof_status(steps: list[dict]) -> tuple[str, list[int]]:
    """(status, the steps that decide it) of a proof from its steps' statuses: proved (every step
    certified, exhausted or sampled), argued (some step only argued), broken (some step refuted),
    pending (some step rests on a node not resolved yet)."""
    for status, proof in (("refuted", "broken"), ("argued", "argued"), ("rests", "pending")):
        at = [s["step"] for s in steps if s["status"] == status]
        if at:
            return proof, at
    return "proved", []


def from_proof(steps: list[tuple[str, "bool | Finding | Argued | Rests"]], domain: str, conclusion: str) -> Finding:
    """A finding from a proof, step by step: True = machine-certified (sympy, exact arithmetic),
    False = the check failed, a Finding = a check of that step (certified, exhausted or sampled, as the
    finding was decided, when it found no counterexample; refuted when it found one; argued when it
    could not decide), Argued(reason) = no machine check, and why none can
    be written, Rests(node) = the step is another node of the proof graph. 'holds' only when the proof
    is proved; an argued, broken or (until its nodes resolve) pending proof leaves its conclusion
    inconclusive: the statement may still hold in simulation, but this proof does not establish it.
    The finding carries the steps in `proof` (status, broken_at, argued), which the proof graph reads.

    Args:
        steps: (the step's text, its check) pairs in the proof's order; a check is True, False, a
            Finding, `Argued(reason)` or `Rests(node)`.
        domain: what the proof covers.
        conclusion: what it establishes when proved.
    """
    rows = [_step(i, text, ok) for i, (text, ok) in enumerate(steps, 1)]
    f = Finding("inconclusive", domain, "", None, False, "computed", proof={"conclusion": conclusion, "steps": rows})
    settle_proof(f)
    return f


def settle_proof(f: Finding) -> None:
    """(Re)compute a proof finding's verdict, text and status from its steps (after `proof_graph`
    resolved the steps that rest on other nodes)."""
    rows, conclusion = f.proof["steps"], f.proof["conclusion"]
    status, at = proof_status(rows)
    low = max((s["status"] for s in rows if s["status"] in DECIDED), key=DECIDED.index, default="certified")
    f.proof.update(status=status, broken_at=[f"step {i}" if rows[i - 1]["uses"] is None else rows[i - 1]["uses"]
                                             for i in at] if status == "broken" else [],
                   argued=[i for i in (s["step"] for s in rows) if rows[i - 1]["status"] == "argued"],
                   weakest=low)
    body = "; ".join(f"({s['step']}) {s['text']} [{s['status']}" + (f": {s['detail']}" if s["detail"] else "") + "]"
                     for s in rows)
    head = {"proved": f"{conclusion} (its weakest step {low})",
            "broken": f"proof broken at {', '.join(map(str, f.proof['broken_at']))}, so {conclusion} is not "
                      "established by it",
            "argued": f"proof argued at step(s) {', '.join(map(str, f.proof['argued']))} (no machine check), so "
                      f"{conclusion} is not established by it",
            "pending": f"proof pending on other nodes, so {conclusion} is not yet established"}[status]
    f.verdict = "holds" if status == "proved" else "inconclusive"
    f.detail = f"{head}: {body}."
    f.certified = status == "proved" and all(s["status"] == "certified" for s in rows)
    f.method = "exhausted" if status == "proved" and low == "exhausted" else None
    f.witness = next((s.get("witness") for s in rows if s["status"] == "refuted" and s.get("witness")), None)


def reading(verdict: str, domain: str, detail: str, witness: dict | None = None,
            charitable: bool = False) -> Finding:
    """A finding about the paper's text (what a statement says, where two places disagree), or,
    with `charitable`, the verdict under the reading that the literal one is not.

    Args:
        verdict: the verdict of the reading.
        domain: which statements of the paper it reads.
        detail: what the text says, and where.
        witness: a witness, if the reading has numbers.
        charitable: the reading that makes the statement true, where the literal one does not.
    """
    return Finding(verdict, domain, detail, witness, False, "charitable" if charitable else "reading")


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
    """How hard the checks work (`quick` finishes in about half a minute on 2 cores; `thorough` does
    more), with the `inputs` the empirical claims read. Frozen: a run's mode is what it was built as.

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
    inputs: LedgerInputs = LedgerInputs()

    @classmethod
    def thorough(cls, **kw) -> "Mode":
        """The thorough mode (`kw`: any other field, e.g. `inputs` or `seed`)."""
        return cls("thorough", 10_000, 40_000, 4_000, search_points=160, search_runs=600, confirm_runs=40_000,
                   history_n=((2, 14), (3, 13), (4, 14)), **kw)

    def coverage(self) -> str:
        """What this mode covers, in one line (printed by `rue-verify claims`)."""
        return (f"mode={self.name}, seed={self.seed}: K up to {self.K_max} in scans; {self.random_samples} random "
                f"points per deterministic search; Monte Carlo searches screen {self.search_points} informative "
                f"points x {self.search_runs} runs, refine the worst, and confirm with {self.confirm_runs} runs; "
                f"{self.sim_runs} runs per fixed simulation point; every reward history of RUE on E for "
                + ", ".join(f"K = {K} up to n = {n}" for K, n in self.history_n))

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
        proof = {"proved": "its proof is proved", "argued": f"its proof is argued at step(s) "
                 f"{', '.join(map(str, p['argued']))}", "broken": f"its proof breaks at {', '.join(p['broken_at'])}",
                 "pending": "its proof rests on nodes not run"}[p["status"]]
        return (f"the statement {said} on its checks; " if said else "") + proof

    def to_json(self) -> dict:
        return _jsonable({"statement": self.statement, "formula": self.formula, "verdict": self.verdict,
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
        return _jsonable(d)


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
        recompute: a witness's params -> (lhs, rhs), computed again from scratch (`ledger.witnesses`).
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


def repair(claim_id: str):
    """Declare the check of a repaired statement of `claim_id` (declared above it): a function
    Mode -> Repair.

    Args:
        claim_id: the ID of the claim it repairs (declared before it).
    """
    def deco(fn: Callable[[Mode], Repair]):
        if claim_id not in REGISTRY:
            raise ValueError(f"repair of {claim_id}: declare the claim before its repairs")
        REGISTRY[claim_id].repairs.append(fn)
        return fn
    return deco


def overall(findings: Iterable[Finding]) -> str:
    fs = list(findings)
    if not fs:
        raise ValueError("a claim needs at least one finding")
    return min((f.verdict for f in fs), key=SEVERITY.index)


def run_claim(c: Claim, mode: Mode) -> ClaimResult:
    t0 = time.perf_counter()
    summary, findings = c.check(mode)
    verdict = overall(findings)
    if isinstance(summary, Expect) and summary.verdict != verdict:
        summary = auto_summary(findings)
    repairs = [fn(mode) for fn in c.repairs]
    return ClaimResult(c.id, c.location, c.statement, verdict, str(summary), findings,
                       round(time.perf_counter() - t0, 3), mode.name, repairs)


def witness(params: dict, lhs: Any, rhs: Any, relation: str = "<=", **extra: Any) -> dict:
    """A witness of a violated inequality: the paper claims `lhs relation rhs`.

    Args:
        params: every parameter of the point, named as CLAIMS.md names them (K, n, sigma0_sq, sigma_sq,
            delta or nu_sq, T, means, k), or a seed key for a Monte Carlo witness.
        lhs: the left side at the point, a number.
        rhs: the right side at the point, a number.
        relation: '<=', '>=', '<', '==' or '~' (approximately: give `tol`).
        **extra: anything else the witness says (what the sides are, a p-value, ...).

    Returns:
        The witness as JSON-ready data.
    """
    w = {"params": params, "lhs": lhs, "rhs": rhs, "relation": relation}
    w.update(extra)
    return _jsonable(w)


def _jsonable(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating, float)):
        v = float(x)
        return v if math.isfinite(v) else str(v)
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, (np.bool_,)):
        return bool(x)
    if hasattr(x, "__float__") and not isinstance(x, (int, bool, str)):
        try:
            return float(x)
        except (TypeError, ValueError):
            return str(x)
    return x


def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters at the last sentence or clause boundary (else the last
    word boundary), with an ellipsis; never mid-word."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    for sep in (". ", "; ", ": ", ", ", " "):
        i = cut.rfind(sep)
        if i > limit // 3:
            return cut[:i + (1 if sep == ". " else 0)].rstrip(" ,;:(") + " ..."
    return cut.rstrip() + " ..."


def fmt(x: float, digits: int = 4) -> str:
    return f"{float(x):.{digits}g}"
