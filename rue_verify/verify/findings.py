"""Findings: what a check found about a claim (a verdict, the domain it covered, the evidence, and
how a pass was decided), and the constructors that compute a verdict from a margin, a value, a count,
intervals, a rate, a tightness ratio, paired classes, parts, an exact check, an exhaustive search or
a certificate, so that no text can say something its number does not. A witness is JSON-ready data
(`witness`). A finding certified (or exhausted) by the caller's own Python, which the toolkit does not
check, is `trusted` and says so ('certified by the caller's computation, not checked by the toolkit').
Nothing here knows a paper."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

#: Verdicts from most to least severe (CLAIMS.md). A claim's verdict is its most severe finding (`overall`).
#: 'untested': the run could not have refuted the claim (a bound far above every rate the run could resolve),
#: so it is not a pass; it gives way to any other finding that decides the claim holds.
#: 'error': the check itself failed (it raised, returned no findings or ran past its time limit), so the
#: claim was not judged; it says so first, and the rest of the run goes on (`faults`).
SEVERITY = ("error", "refuted", "undefined", "inconsistent", "conditional", "vacuous", "untested", "inconclusive",
            "holds")

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
    #: a check of a statement that a proof among the same node's findings decides (a random search
    #: beside a sympy proof): it can still refute the statement, and when it holds it does not weaken
    #: how the node was decided
    corroborates: bool = False
    #: the part of the statement's domain the finding's method leaves out, where it covers only part
    #: (a certificate on K <= 10^4 of a statement for every K): a node it decides is then established
    #: only as far as checked, never proved
    partial: str | None = None
    #: the statement a certified finding decided, where it is one the method states (an induction's invariant,
    #: as z3 holds it), and its LaTeX: a proof step certified by this finding shows them
    statement: str | None = None
    latex: str | None = None
    #: the finding's certificate (or exhaustion) is the caller's own computation, which the toolkit did not
    #: check (`from_exact`, `from_exhaustive`, `from_value(certified=True)`, `from_margin(certified=True)`,
    #: `from_certificate`): its `decision` and its detail say so
    trusted: bool = False

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

    @property
    def decision(self) -> str:
        """How the finding was decided, in words: `decided_by`, and for a `trusted` one that the toolkit did
        not check the computation ('certified by the caller's computation, not checked by the toolkit')."""
        if self.trusted and self.verdict == "holds" and self.decided_by != "sampled":
            return trusted_text(self.decided_by)
        return self.decided_by if self.verdict == "holds" else self.verdict


def trusted_text(how: str) -> str:
    """What a trusted finding's status says ('certified' or 'exhausted')."""
    return (f"{how} by the caller's {'search' if how == 'exhausted' else 'computation'}, not checked by the "
            "toolkit")


def made_by_engine(f: Finding, method: str) -> Finding:
    """`f`, marked as made by one of the engine's own methods (`method`: an induction decided by z3, a derivation):
    only such a finding justifies a link of a derivation (`derivation.Found`); a Finding built by hand, or from the
    caller's own computation (`trusted`), decides nothing there."""
    f.engine_method = method
    return f


def _trusted(f: Finding) -> Finding:
    """`f`, built from the caller's own computation: marked `trusted`, and where it holds as certified or
    exhausted its detail opens with what its status then means (so every place that prints it says so)."""
    f.trusted = True
    if f.verdict == "holds" and f.decided_by != "sampled":
        f.detail = f"[{trusted_text(f.decided_by)}] {f.detail}"
    return f


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


def corroborating(finding: Finding) -> Finding:
    """`finding`, declared to corroborate a proof among the same node's findings (a search of the
    statement a proof decides): it can refute the statement, and when it holds it does not weaken
    how the node was decided (`Finding.corroborates`)."""
    finding.corroborates = True
    return finding


def weakest(findings: Iterable[Finding]) -> str:
    """The weakest way any of these (holding) findings was decided (`DECIDED`)."""
    return max((f.decided_by for f in findings), key=DECIDED.index, default="certified")


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
    if math.isnan(margin):                   # no point where the margin could be computed: nothing was tested
        return Finding("inconclusive", domain, f"the margin could not be computed anywhere searched ({domain})",
                       kind=kind)
    ok = bool(margin >= -tol)
    tail = f" [smallest margin {fmt(margin)}; tolerance {tol:g}: {tol_reason}]"
    w = None if ok else (witness() if callable(witness) else witness)
    f = Finding("holds" if ok else fail, domain, (holds if ok else fails) + tail, w, certified and ok, kind)
    return _trusted(f) if certified else f


def from_value(value: float, domain: str, detail: str | None = None, *, holds: str | None = None,
               fails: str | None = None, at_most: float | None = None,
               at_least: float | None = None, tol: float = 0.0, strict: bool = False, fail: str = "refuted",
               witness: Callable[[], dict] | dict | None = None, certified: bool = False,
               kind: str = "computed") -> Finding:
    """A finding whose verdict is computed from a quantity against the claim's threshold: it holds when
    `value <= at_most + tol` (or `value >= at_least - tol`; with `strict`, < and >), else `fail`; the
    witness (a function is called only on failure) follows the same test. `certified` says the
    quantity is rigorous (arb, exact), so the verdict is certified whichever way it goes; the toolkit takes
    the caller's word for it, so the finding is `trusted` and a certified 'holds' says so in its detail.
    `detail` states the value; or `holds` and `fails`, the text for each outcome, chosen by the same test.

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
    if isinstance(margin, float) and math.isnan(margin):     # a quantity that could not be computed tests nothing
        return Finding("inconclusive", domain, f"the quantity could not be computed ({domain})", kind=kind)
    ok = bool(margin > -tol) if strict else bool(margin >= -tol)
    w = None if ok else (witness() if callable(witness) else witness)
    text = detail if detail is not None else (holds if ok else fails)
    f = Finding("holds" if ok else fail, domain, text, w, bool(certified), kind)
    return _trusted(f) if certified else f


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
    rationals or integers (`ok` is its outcome): `fail` when it fails, certified when it holds. The check is
    the caller's own computation, which the toolkit does not see: the finding is `trusted` and, when it holds
    certified, its detail opens with 'certified by the caller's computation, not checked by the toolkit'
    (a statement the engine decides is a `Holds` in a proof instead).

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
    f = Finding("holds" if ok else fail, domain, detail, w, bool(certified and ok), kind)
    return _trusted(f) if certified else f


def from_exhaustive(found: dict | None, domain: str, *, holds: str, fails: str, node: str | None = None,
                    kind: str = "computed") -> Finding:
    """A finding from an exhaustive search of a finite domain (every reward history up to a length, at
    the parameter points `domain` names): 'holds', decided as `exhausted`, when the search found
    nothing; refuted, with the witness it found, when it found a counterexample. The search is the
    caller's: the finding is `trusted`, and a 'holds' says 'exhausted by the caller's search, not checked by
    the toolkit'.

    Args:
        found: the witness of the counterexample found, or None.
        domain: what was exhausted.
        holds: the text when nothing was found.
        fails: the text when a counterexample was found.
        node: the proof graph's node the finding decides (`about`).
        kind: as in `from_value`.
    """
    if found is None:
        return _trusted(Finding("holds", domain, holds, None, False, kind, method="exhausted", node=node))
    return _trusted(Finding("refuted", domain, fails, found, False, kind, node=node))


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
    return _trusted(Finding("holds" if ok else fail, domain, proved if ok else failed, certified=bool(ok), kind=kind))



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


def overall(findings: Iterable[Finding]) -> str:
    """The most severe verdict of `findings`; an 'untested' finding (a check that could not have failed)
    counts only where no other finding decides that the claim holds (a reading or a measure of tightness
    decides nothing)."""
    fs = list(findings)
    if not fs:
        raise ValueError("a claim needs at least one finding")
    worst = min((f.verdict for f in fs), key=SEVERITY.index)
    if worst == "untested" and any(f.verdict == "holds" and f.kind not in ("reading", "tightness") for f in fs):
        return min((f.verdict for f in fs if f.verdict != "untested"), key=SEVERITY.index)
    return worst


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
    return jsonable(w)


def jsonable(x: Any) -> Any:
    """`x` as strict JSON's values: numpy scalars and arrays as Python's, every non-finite number as a
    string that says what it is ('nan', 'inf', '-inf'; strict JSON has no NaN or Infinity)."""
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating, float)):
        v = float(x)
        return v if math.isfinite(v) else str(v)
    if isinstance(x, np.ndarray):
        return jsonable(x.tolist())
    if isinstance(x, (np.bool_,)):
        return bool(x)
    if hasattr(x, "__float__") and not isinstance(x, (int, bool, str)):
        try:
            v = float(x)
        except (TypeError, ValueError, OverflowError):
            return str(x)
        return v if math.isfinite(v) else str(v)
    return x


def dumps(x: Any, **kw: Any) -> str:
    """`x` as strict JSON (`jsonable` first; anything else JSON has no type for as its text). Never
    writes NaN or Infinity: a non-finite number that got past `jsonable` is a ValueError."""
    import json
    return json.dumps(jsonable(x), allow_nan=False, default=str, **kw)


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
    """`x` to `digits` significant digits. A number that a float cannot hold (an mpmath, arb or sympy number of
    1e-400, or 1e400) is written from its own digits, never as the 0 (or inf) its float would be."""
    try:
        v = float(x)
    except OverflowError:
        v = math.inf
    if (v == 0 or not math.isfinite(v)) and not isinstance(x, (int, float, np.number)):
        text = _exact_text(x, digits)
        if text is not None:
            return text
    return f"{v:.{digits}g}"


def _exact_text(x: Any, digits: int) -> str | None:
    """An mpmath, arb or sympy number in decimal with its own exponent, None for anything else (or 0)."""
    if hasattr(x, "mid") and hasattr(x, "str"):                  # an arb ball: its midpoint
        return None if bool(x.mid() == 0) else x.mid().str(digits, radius=False)
    try:
        import mpmath
        m = mpmath.mpf(x) if not isinstance(x, mpmath.mpf) else x
    except (TypeError, ValueError):
        try:
            import sympy
            m = mpmath.mpf(sympy.Float(sympy.sympify(x), digits + 5)._mpf_) if sympy.sympify(x).is_number else None
        except Exception:
            return None
    if m is None or m == 0 or not mpmath.isfinite(m):
        return None
    return mpmath.nstr(m, digits)

