"""Proofs as findings: a proof is a list of steps, each checked (an exact check's outcome, a
finding of a search), argued (no machine check, with the reason), or resting on another node of a
proof graph (`Rests`, settled once the graph is resolved, `verify.graph`). Its status is its weakest
step's, named by the method that decided it."""

from __future__ import annotations

from dataclasses import dataclass

from .findings import DECIDED, Finding, shorten


@dataclass(frozen=True)
class Sampled:
    """A proof step checked by a search or a simulation of points (`check`), with the reason no proof
    or interval certificate decides it (`because`): a step decided by sampling says why."""

    check: Finding
    because: str


@dataclass(frozen=True)
class Argued:
    """A proof step that no machine checks, with the reason no check can be written."""

    reason: str


@dataclass(frozen=True)
class Cites:
    """A proof step that applies a named classical result (`lemma`: its name; `statement`: the result as
    it is applied, so that a reader can check it against any textbook) under side conditions, each
    checked by machine
    (`conditions`: (text, check) pairs, a check being True or False from sympy or interval
    arithmetic, a `Finding`, or None where nothing checks it). The step is certified (`proved
    (cites: ...)`) only when every condition is checked and holds; a condition that fails or is not
    checked leaves it argued: the result may not apply."""

    lemma: str
    statement: str
    conditions: tuple


@dataclass(frozen=True)
class Rests:
    """A proof step that is another node of the proof graph (a claim, or a claim's repair as
    `repair:ID`): its status is that node's, resolved once the whole ledger has run
    (`proof_graph.resolve`)."""

    node: str


#: what one step of a proof is: certified (sympy, exact or interval arithmetic, an SMT solver's proof),
#: exhausted (every case of a finite domain searched, e.g. every history up to a length), sampled (a
#: search or simulation of points found no counterexample), refuted, argued (no machine check; a reason
#: says why), or rests (on another node; resolved later). A proof is `proved` when every step is
#: certified on the whole domain; `checked` ("holds as far as checked") when every step is certified,
#: exhausted or sampled and some step is not certified or covers part of its domain: it names that
#: weakest step.

#: how a proof status reads in text
PROOF_WORDS = {"proved": "proved", "checked": "holds as far as checked", "argued": "argued", "pending": "pending",
               "broken": "broken"}


def _step(i: int, text: str, ok) -> dict:
    if ok is None:
        raise TypeError(f"proof step ({i}) '{shorten(text, 60)}': an unchecked step must say why it cannot be "
                        "checked (verify.Argued(reason)), or name the node it rests on (verify.Rests(node))")
    s = {"step": i, "text": text, "status": None, "detail": "", "uses": None}
    if ok is True:
        s["status"] = "certified"
    elif isinstance(ok, Finding) and ok.verdict == "holds" and ok.partial:
        s.update(status=ok.decided_by, detail=shorten(ok.detail, 240), partial=ok.partial, witness=ok.witness)
    elif ok is False:
        s.update(status="refuted", detail="the machine check failed")
    elif isinstance(ok, Sampled):
        s = _step(i, text, ok.check)
        if s["status"] == "sampled":
            s["because"] = ok.because
            s["detail"] += f" (sampled: {ok.because})"
    elif isinstance(ok, Finding):
        s["status"] = ({"holds": ok.decided_by, "refuted": "refuted"}.get(ok.verdict, "argued"))
        if ok.verdict == "holds" and ok.certified:
            s["detail"] = shorten(ok.detail, 240)
        else:
            s["detail"] = f"searched ({ok.domain}): " + ("no counterexample" if ok.verdict == "holds" else
                                                         f"{ok.verdict}: {ok.detail}")
        s["witness"] = ok.witness
    elif isinstance(ok, Argued):
        s.update(status="argued", detail=ok.reason)
    elif isinstance(ok, Rests):
        s.update(status="rests", uses=ok.node, detail=f"rests on {ok.node}")
    elif isinstance(ok, Cites):
        def state(check) -> str:
            if isinstance(check, Finding):
                return "holds" if check.verdict == "holds" and check.certified else "fails" if \
                    check.verdict in ("refuted", "undefined", "inconsistent") else "unchecked"
            return {True: "holds", False: "fails"}.get(check, "unchecked")
        states = [(text, state(c)) for text, c in ok.conditions]
        if not states:
            raise TypeError(f"proof step ({i}) cites {ok.lemma} with no side condition: say which conditions it "
                            "needs, each with its check")
        said = "; ".join(f"{t}: {st}" for t, st in states)
        if all(st == "holds" for _, st in states):
            s.update(status="certified", detail=f"proved (cites: {ok.lemma}: {ok.statement}; every side condition "
                                                f"checked: {said})", cites=ok.lemma)
        else:
            s.update(status="argued", detail=f"cites {ok.lemma} ({ok.statement}), but a side condition is not "
                                             f"established, so it may not apply: {said}", cites=ok.lemma)
    else:
        raise TypeError(f"proof step ({i}): True, False, a Finding, Sampled, Argued, Cites or Rests, got {ok!r}")
    return s


def solved(steps: list[tuple[str, "bool | None"]]) -> list[tuple[str, "bool | Argued"]]:
    """Proof steps from a solver's decisions (text, True: proved, False: a counterexample, None: not
    decided, e.g. `bounds.certify.valid_for_all_reals`): an undecided step is argued, with that reason."""
    return [(text, Argued("the solver could not decide it within its time limit") if ok is None else ok)
            for text, ok in steps]


def proof_status(steps: list[dict]) -> tuple[str, list[int]]:
    """(status, the steps that decide it) of a proof from its steps' statuses: broken (some step
    refuted), argued (some step only argued), pending (some step rests on a node not resolved yet),
    checked (every step certified, exhausted or sampled, and some step not certified on its whole
    domain: the steps that are not), proved (every step certified on its whole domain)."""
    for status, proof in (("refuted", "broken"), ("argued", "argued"), ("rests", "pending")):
        at = [s["step"] for s in steps if s["status"] == status]
        if at:
            return proof, at
    weak = [s["step"] for s in steps if s["status"] != "certified" or s.get("partial")]
    return ("checked", weak) if weak else ("proved", [])


def from_proof(steps: list[tuple[str, "bool | Finding | Argued | Rests"]], domain: str, conclusion: str) -> Finding:
    """A finding from a proof, step by step: True = machine-certified (sympy, exact arithmetic),
    False = the check failed, a Finding = a check of that step (certified, exhausted or sampled, as the
    finding was decided, when it found no counterexample; refuted when it found one; argued when it
    could not decide), Sampled(finding, because) = a finding decided by sampling, with the reason
    no stronger method decides the step, Argued(reason) = no machine check, and why none can
    be written, Cites(lemma, statement, conditions) = a classical result applied under side conditions
    each checked by machine, Rests(node) = the step is another node of the proof graph. 'holds' only
    when the proof is proved (certified, every step) or checked (holds as far as checked: decided by its
    weakest step's method); an argued, broken or (until its nodes resolve) pending proof leaves its
    conclusion inconclusive: the statement may still hold in simulation, but this proof does not
    establish it.
    The finding carries the steps in `proof` (status, broken_at, argued), which the proof graph reads.

    Args:
        steps: (the step's text, its check) pairs in the proof's order; a check is True, False, a
            Finding, `Sampled(finding, because)`, `Argued(reason)`, `Cites(lemma, statement, conditions)`
            or `Rests(node)`.
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
    where = next((s for s in rows if s["status"] == low and (low != "certified" or s.get("partial"))), None)
    weakest = low if where is None else (f"{low} at step {where['step']}" + (f" ({where['uses']})" if where["uses"]
                                                                            else "")
                                         + (f", on {where['partial']}" if where.get("partial") else ""))
    f.proof.update(status=status, broken_at=[f"step {i}" if rows[i - 1]["uses"] is None else rows[i - 1]["uses"]
                                             for i in at] if status == "broken" else [],
                   argued=[i for i in (s["step"] for s in rows) if rows[i - 1]["status"] == "argued"],
                   weakest=weakest)
    body = "; ".join(f"({s['step']}) {s['text']} [{s['status']}" + (f": {s['detail']}" if s["detail"] else "") + "]"
                     for s in rows)
    head = {"proved": f"{conclusion} (every step certified)",
            "checked": f"{conclusion} holds as far as checked (its weakest step: {weakest})",
            "broken": f"proof broken at {', '.join(map(str, f.proof['broken_at']))}, so {conclusion} is not "
                      "established by it",
            "argued": f"proof argued at step(s) {', '.join(map(str, f.proof['argued']))} (no machine check), so "
                      f"{conclusion} is not established by it",
            "pending": f"proof pending on other nodes, so {conclusion} is not yet established"}[status]
    f.verdict = "holds" if status in ("proved", "checked") else "inconclusive"
    f.detail = f"{head}: {body}."
    f.certified = status == "proved"
    f.method = "exhausted" if status == "checked" and low == "exhausted" else None
    f.partial = next((s["partial"] for s in rows if s.get("partial")), None) if status == "checked" else None
    f.witness = next((s.get("witness") for s in rows if s["status"] == "refuted" and s.get("witness")), None)
