"""Proofs as findings: a proof is a list of steps, each checked (an exact check's outcome, a
finding of a search), argued (no machine check, with the reason), or resting on another node of a
proof graph (`Rests`, settled once the graph is resolved, `verify.graph`). Its status is its weakest
step's, named by the method that decided it."""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass

from .findings import DECIDED, Finding, shorten
from .statements import Condition, Holds, decide, decide_within

#: the wall-clock limit of one mutant's decision (`step_mutants`), in seconds
MUTANT_SECONDS = 8.0


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
    it is applied, so that a reader can check it against any textbook) under side conditions, each a
    statement about the objects the step uses, decided by the engine (`conditions`: `statements.Condition`s,
    e.g. `statements.convex(phi, x)`, or (text, check) pairs whose check is a `statements.Holds` or a
    certified `Finding`). The step is certified (`proved (cites: ...)`) only when every condition is
    decided true; a condition that fails or is not decided leaves it argued: the result may not apply.
    A literal (True, 1, a numpy bool) is refused as a condition: it certifies nothing."""

    lemma: str
    statement: str
    conditions: tuple


@dataclass(frozen=True)
class Rests:
    """A proof step that is another node of the proof graph (a claim, or a claim's repair as
    `repair:ID`): its status is that node's, resolved once the whole ledger has run
    (`proof_graph.resolve`). Made while a claim's check runs, a name that is no node or claim of
    that claim's paper is refused here (a ValueError), so the claim reads `error` with the line."""

    node: str
    #: in a derivation (`verify.derive`): the node's statement's symbols, by name, bound to the link's objects;
    #: the graph matches the instance against the link once the node's statement is known
    bind: dict | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.node, str):
            raise TypeError(f"Rests names a node by its id (a str), got {self.node!r}")
        from .claims import PAPERS, REGISTRY, running
        c = running()
        if c is None:
            return
        from .admission import names
        space = REGISTRY.of(c.paper)
        key = (c.paper, len(space))
        if _KNOWN.get("key") != key:
            _KNOWN.update(key=key, names=names(PAPERS.get(c.paper), space))
        if self.node not in _KNOWN["names"]:
            raise ValueError(f"Rests({self.node!r}) names no node or claim of paper {c.paper!r}")


#: the names a Rests may take in the paper of the claim running (`Rests`), computed once per paper
_KNOWN: dict = {}


#: what one step of a proof is: certified (sympy, exact or interval arithmetic, an SMT solver's proof),
#: exhausted (every case of a finite domain searched, e.g. every history up to a length), sampled (a
#: search or simulation of points found no counterexample), refuted, argued (no machine check; a reason
#: says why), or rests (on another node; resolved later). A proof is `proved` when every step is
#: certified on the whole domain; `checked` ("holds as far as checked") when every step is certified,
#: exhausted or sampled and some step is not certified or covers part of its domain: it names that
#: weakest step.

#: what a proof whose steps are all certified leaves out when they are not a chain (`verify.derive`)
NOT_CHAINED = ("the tie between the steps and the statement: the steps are not a chain from the statement's one "
               "side to the other (not a verify.derive derivation)")

#: how a proof status reads in text
PROOF_WORDS = {"proved": "proved", "checked": "holds as far as checked", "argued": "argued", "pending": "pending",
               "broken": "broken"}


#: the reason a bare boolean is not a certificate (a step's check must carry its statement)
BARE = ("a bare True certifies nothing: the step carries no statement the engine could decide (state it as "
        "verify.Holds, cite a lemma with verify.Cites, or rest on a node with verify.Rests)")


def negated(st: Holds) -> Holds:
    """A statement's negation, as `statements.kinded_mutants` makes its first mutant (a test holds them equal),
    without building the other mutants: a certified row needs only this one."""
    import sympy
    return dataclasses.replace(st, claim=sympy.Not(st.claim, evaluate=False)
                               if not isinstance(st.claim, sympy.Rel) else st.claim.negated)


def _literal(x) -> bool:
    """True, 1, 1.0, a numpy bool: a value that says 'checked' without saying what."""
    return isinstance(x, (bool, int, float)) or type(x).__module__ == "numpy"


def _condition(c):
    """A `Cites` condition as (text, its check, the Condition or None)."""
    if isinstance(c, Condition):
        return c.text, c.holds, c
    if isinstance(c, tuple) and len(c) == 2:
        return c[0], c[1], None
    return repr(c)[:60], c, None


def _condition_state(check, decider=decide) -> tuple[str, str]:
    """(holds | fails | unchecked, why) of one side condition (a statement decided by `decider`)."""
    if isinstance(check, Holds):
        d = decider(check)
        if d.status == "certified" and decider(negated(check)).status == "certified":
            return "unchecked", "its negation is certified too: its domain is empty, so it decides nothing"
        return {"certified": "holds", "refuted": "fails"}.get(d.status, "unchecked"), d.detail
    if isinstance(check, Argued):
        return "unchecked", check.reason
    if isinstance(check, Finding):
        # a finding says what its check found, not which condition of this step it is about
        return ("fails" if check.verdict in ("refuted", "undefined", "inconsistent") else "unchecked",
                "a finding is not a condition: state the condition as a verify.Holds about the step's objects "
                f"({shorten(check.detail, 60)})")
    if check is False or (_literal(check) and not check):
        return "fails", "a literal false"
    if _literal(check):
        return "unchecked", "refused: a literal certifies nothing"
    return "unchecked", f"not a statement ({type(check).__name__})"


def _problem(check, state: str, decider=decide) -> dict:
    """{"smt2": z3's problem} of a condition z3 established (cvc5 re-decides it, `verify.second`), else {}."""
    if state != "holds":
        return {}
    d = decider(check)                     # kept: decided just now
    return {"smt2": d.smt2} if d.status == "certified" and d.method == "z3" and d.smt2 else {}


def _cites_row(s: dict, ok: Cites, i: int, decider=decide) -> dict:
    made: dict = {}
    inner = decider

    def decider(h):                        # each condition decided once: its state and its problem from one decision
        if id(h) not in made:
            made[id(h)] = (h, inner(h))
        return made[id(h)][1]
    conds = [_condition(c) for c in ok.conditions]
    if not conds:
        raise TypeError(f"proof step ({i}) cites {ok.lemma} with no side condition: say which conditions it "
                        "needs, each with its check")
    states = [(text, *_condition_state(check, decider)) for text, check, _ in conds]
    said = "; ".join(f"{t}: {st}" + (f" ({why})" if st != "holds" else "") for t, st, why in states)
    stated = [check for _, check, _ in conds if isinstance(check, Holds)]
    s.update(statement=f"{ok.lemma}: {ok.statement}", conditions=[
        {"text": t, "state": st, **({"statement": c.text(), "latex": c.latex(), **_problem(c, st, decider)}
                                    if isinstance(c, Holds) else {})}
        for (t, st, _), (_, c, _) in zip(states, conds)])
    if stated:                             # the conditions the engine decided, typeset from their statements
        s["latex"] = r",\quad ".join(c.latex() for c in stated)
    if all(st == "holds" for _, st, _ in states):
        s.update(status="certified", detail=f"proved (cites: {ok.lemma}: {ok.statement}; every side condition "
                                            f"decided: {said})", cites=ok.lemma)
    else:
        s.update(status="argued", detail=f"cites {ok.lemma} ({ok.statement}), but a side condition is not "
                                         f"established, so it may not apply: {said}", cites=ok.lemma)
    return s


#: the time limit of a certified statement's negation (the vacuity check: a statement true on its domain has a
#: certified negation only where that domain is empty, which z3 sees at once); a negation not decided in it is not
#: certified, so the statement is not called vacuous
NEGATION_SECONDS = 5.0


def _negation(neg) -> "object":
    """A certified statement's negation decided (the vacuity check), kept between runs even where its time limit
    cut it short: the check asks only whether the negation is certified, so a kept 'not decided' can only leave a
    statement not called vacuous, which an empty domain would not be for long (z3 sees one at once)."""
    from . import statements
    key = statements._cache_key(neg)
    key = key and key + "-negation"
    hit = statements._cache_get(key)
    if hit is not None:
        return hit
    d = decide(neg)
    statements._cache_put(key, d, keep_timed=True, st=neg)
    return d


#: the open collections of decisions (`sub_decisions`), innermost last
_SUBS: list[list] = []


@contextlib.contextmanager
def sub_decisions():
    """A block whose decisions (`_holds_row`: each (statement, row)) are collected in the list it yields, for the
    innermost such block: a derivation's link keeps the problems of what it decided on the way (a hypothesis, a
    premise, a definedness condition), so that cvc5 reads them as it reads the link (`verify.second`)."""
    got: list = []
    _SUBS.append(got)
    try:
        yield got
    finally:
        _SUBS.pop()


def collected(subs) -> None:
    """Decisions made before (each (statement, row), kept by a caller's own memo) added to the innermost open
    collection (`sub_decisions`), as if made now."""
    if _SUBS:
        _SUBS[-1].extend(subs)


def _holds_row(s: dict, st, describe: bool = True) -> dict:
    """The row of a decided statement: its status and detail, and (`describe`) its text and LaTeX (a check whose
    row only gives its status need not typeset it). Inside `sub_decisions`, (st, the row) is collected."""
    if _SUBS:
        _SUBS[-1].append((st, s))
    d = decide(st)
    s.update(method=d.method)
    if describe:
        s.update(statement=st.text(), latex=st.latex())
    if d.status == "certified":
        neg = negated(st)
        negation = _negation(dataclasses.replace(neg, seconds=min(neg.seconds, NEGATION_SECONDS)))
        if negation.status == "certified":
            s.update(status="argued", detail=f"the check does not depend on the step: its negation is certified too "
                                             f"({d.method}; the domain may be empty)")
            return s
        s.update(status="certified", detail=d.detail)
        if d.partial:
            s["partial"] = d.partial
        if d.smt2:                             # z3's problem as SMT-LIB, for a certificate (`rue_verify.certify`)
            s["smt2"] = d.smt2
        tail = ((d.cover or {}).get("tail") or {}).get("problems")
        if tail:                               # an arb box's unbounded tail, decided by z3: its problems, for cvc5
            s["tail"] = [dict(p) for p in tail]
    elif d.status == "refuted":
        s.update(status="refuted", detail=d.detail, witness=d.witness)
    else:
        s.update(status="argued", detail=d.detail)
    return s


#: the row of a decided statement, for the engine's other modules (derivation, sums)
holds_row = _holds_row


def _step(i: int, text: str, ok) -> dict:
    if ok is None:
        raise TypeError(f"proof step ({i}) '{shorten(text, 60)}': an unchecked step must say why it cannot be "
                        "checked (verify.Argued(reason)), or name the node it rests on (verify.Rests(node))")
    s = {"step": i, "text": text, "status": None, "detail": "", "uses": None}
    if isinstance(ok, Holds):
        _holds_row(s, ok)
    elif ok is False:
        s.update(status="refuted", detail="the machine check failed")
    elif _literal(ok):
        s.update(status="argued", detail=BARE)
    elif isinstance(ok, Finding) and ok.verdict == "holds" and ok.partial:
        s.update(status=ok.decided_by, detail=shorten(ok.detail, 240), partial=ok.partial, witness=ok.witness)
        _carry_cases(s, ok)
    elif isinstance(ok, Sampled):
        s = _step(i, text, ok.check)
        if s["status"] == "sampled":
            s["because"] = ok.because
            s["detail"] += f" (sampled: {ok.because})"
    elif isinstance(ok, Finding):
        s["status"] = ({"holds": ok.decided_by, "refuted": "refuted"}.get(ok.verdict, "argued"))
        if ok.verdict == "holds" and ok.certified:
            s["detail"] = shorten(ok.detail, 240)
            if ok.statement:
                s.update(statement=ok.statement, latex=ok.latex)
            _carry_cases(s, ok)
        else:
            s["detail"] = f"searched ({ok.domain}): " + ("no counterexample" if ok.verdict == "holds" else
                                                         f"{ok.verdict}: {ok.detail}")
        s["witness"] = ok.witness
    elif isinstance(ok, Argued):
        s.update(status="argued", detail=ok.reason)
    elif isinstance(ok, Rests):
        s.update(status="rests", uses=ok.node, detail=f"rests on {ok.node}")
    elif isinstance(ok, Cites):
        _cites_row(s, ok, i)
    else:
        raise TypeError(f"proof step ({i}): a Holds, a Finding, Sampled, Argued, Cites or Rests, got {ok!r}")
    return s


def _carry_cases(row: dict, f: Finding) -> None:
    """What a certified finding's method left to a second solver, carried on the row it justifies (`derivation`
    does the same): an induction's unsat cases (`Finding.smt2_cases`, from `induction.finding`), and the z3 problems
    of the certified steps of the finding's own proof (a derivation's, a hand-written proof's: `hypotheses`), so
    that cvc5 is asked each (`verify.second`) when this row is read, not only when the finding's own proof is (the
    row copies the finding's status when it is built, and would keep it); each is a certificate
    (`certify.collect`)."""
    if getattr(f, "smt2_cases", None):
        row["smt2_cases"] = [list(c) for c in f.smt2_cases]
    steps = f.proof.get("steps") if isinstance(getattr(f, "proof", None), dict) else None
    if not steps:
        return
    from .carried import problems
    kept = list(row.get("hypotheses") or ())
    seen = {(h.get("statement"), h.get("smt2")) for h in kept}
    for r in steps:
        if r.get("status") != "certified":
            continue
        for d, statement, text in problems(r):
            held = d.get("status") == "certified" if d is r else d.get("state", d.get("status")) in ("holds",
                                                                                                    "certified")
            if held and (statement, text) not in seen:
                seen.add((statement, text))
                kept.append({"text": f"the finding's step {r.get('step')}: {statement}", "statement": statement,
                             "smt2": text, "state": "holds"})
    if kept:
        row["hypotheses"] = kept


#: what a certified finding leaves to a second solver, carried on the row it justifies (for `derivation`)
carry_finding = _carry_cases


def solved(steps: list[tuple[str, "bool | None"]]) -> list[tuple[str, "bool | Argued"]]:
    """Proof steps from a solver's bare decisions (text, True, False or None): a bare True carries no
    statement, so it is argued (`BARE`), an undecided one argued with that reason, a False refuted. State
    the step as a `statements.Holds` instead, which the engine decides."""
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
    """A finding from a proof, step by step. A step is (its text, its check), or a statement alone (its
    text rendered from it). The check is a `statements.Holds` (a relation the engine decides: certified,
    refuted with a replayed counterexample, or argued with why; certified only if its negation is not
    certified too), a Finding (certified, exhausted or sampled, as the finding was decided, when it found
    no counterexample; refuted when it found one; argued when it could not decide), `Sampled(finding,
    because)` (a finding decided by sampling, with the reason no stronger method decides the step),
    `Argued(reason)` (no machine check, and why none can be written), `Cites(lemma, statement,
    conditions)` (a classical result applied under side conditions, each a statement the engine decides),
    or `Rests(node)` (the step is another node of the proof graph, read by that node's proof status). A
    bare True certifies nothing (`BARE`: the step is argued); a bare False is refuted. 'holds' only
    when the proof is proved (certified, every step) or checked (holds as far as checked: decided by its
    weakest step's method); an argued, broken or (until its nodes resolve) pending proof leaves its
    conclusion inconclusive: the statement may still hold in simulation, but this proof does not
    establish it.
    The finding carries the steps in `proof` (status, broken_at, argued), which the proof graph reads,
    and the statements its steps carry in `checks` (step -> Holds or Cites), which `step_mutants` decides.

    Args:
        steps: (the step's text, its check) pairs, or `Holds` alone, in the proof's order.
        domain: what the proof covers.
        conclusion: what it establishes when proved.
    """
    steps = [(None, st) if not isinstance(st, tuple) else st for st in steps]
    rows = []
    for i, (text, ok) in enumerate(steps, 1):
        row = _step(i, text if text is not None else _rendered(ok), ok)
        rows.append(row)
    f = Finding("inconclusive", domain, "", None, False, "computed", proof={"conclusion": conclusion, "steps": rows})
    f.checks = {row["step"]: ok for row, (_, ok) in zip(rows, steps) if isinstance(ok, (Cites, Holds))}
    settle_proof(f)
    return f


def _rendered(ok) -> str:
    """A step's text from its statement, where the caller gave none."""
    if hasattr(ok, "text") and callable(ok.text):
        return ok.text() + (f" ({ok.note})" if getattr(ok, "note", "") else "")
    raise TypeError(f"a proof step without text must carry a statement (verify.Holds), got {ok!r}")


def settle_proof(f: Finding) -> None:
    """(Re)compute a proof finding's verdict, text and status from its steps (after `proof_graph`
    resolved the steps that rest on other nodes)."""
    rows, conclusion = f.proof["steps"], f.proof["conclusion"]
    status, at = proof_status(rows)
    chain = f.proof.get("chain")
    if status == "proved" and not (chain and chain.get("closed")):
        # every step certified, but the steps are not a chain from the statement's one side to the other:
        # nothing ties them to the statement, so the proof holds only as far as its steps were checked
        status = "checked"
    low = max((s["status"] for s in rows if s["status"] in DECIDED), key=DECIDED.index, default="certified")
    where = next((s for s in rows if s["status"] == low and (low != "certified" or s.get("partial"))), None)
    if status == "checked" and low == "certified" and where is None:
        where = {"step": "", "uses": None, "partial": NOT_CHAINED}
    weakest = low if where is None else ((f"{low} at step {where['step']}" if where["step"] else f"{low} steps")
                                         + (f" ({where['uses']})" if where["uses"] else "")
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
            "argued": f"proof argued at {_argued_steps(rows, f.proof['argued'])}, so {conclusion} is not established "
                      "by it",
            "pending": f"proof pending on other nodes, so {conclusion} is not yet established"}[status]
    f.verdict = "holds" if status in ("proved", "checked") else "inconclusive"
    f.detail = f"{head}: {body}."
    # every step certified, some on part of its domain (a box) or not tied to the statement: certified on a part
    f.certified = status == "proved" or (status == "checked" and low == "certified")
    f.method = "exhausted" if status == "checked" and low == "exhausted" else None
    f.partial = (next((s["partial"] for s in rows if s.get("partial")), None if chain and chain.get("closed")
                      else NOT_CHAINED) if status == "checked" else None)
    f.witness = next((s.get("witness") for s in rows if s["status"] == "refuted" and s.get("witness")), None)


def _argued_steps(rows: list, argued: list) -> str:
    """The argued steps, said apart: those z3 decided but cvc5 does not re-decide (`verify.second`: one solver's word
    is not a proof), those resting on a node its proof does not establish, and those no machine checks."""
    def kind(row):
        if row.get("cvc5"):
            return "z3 answers unsat, cvc5 does not re-decide it"
        if row.get("uses") and str(row.get("detail") or "").startswith(f"rests on {row['uses']}"):
            return "resting on a node not proved"
        return "no machine check"
    said: dict[str, list] = {}
    for i in argued:
        said.setdefault(kind(rows[i - 1]), []).append(i)
    return " and ".join(f"step(s) {', '.join(map(str, steps))} ({why})" for why, steps in said.items()) or "no step"


def _mutant_row(name: str, kind: str, d) -> dict:
    """One mutant's outcome: 'refuted' only when its method refuted it with a witness (replayed on the
    statement), 'certified' when it is still true, 'undecided' otherwise (argued, or not decided within
    `MUTANT_SECONDS`: `timed_out`). A mutant that is not decided is never counted as refuted."""
    status = ("refuted" if d.status == "refuted" and d.witness is not None else
              "certified" if d.status == "certified" else "undecided")
    row = {"mutant": name, "kind": kind, "status": status, "detail": shorten(d.detail, 160),
           "timed_out": status == "undecided" and d.detail.startswith(("not decided within", "the decision's process"))}
    if status == "refuted":
        row["witness"] = d.witness
    return row


def _cites_mutant(name: str, kind: str, check: Cites, conditions: tuple, limited) -> dict:
    """A cited lemma with its conditions replaced (`conditions`), decided as the step was (`_cites_row`): refuted
    when a condition is refuted (a replayed witness), certified when every one holds, else undecided."""
    states = [c["state"] for c in _cites_row({}, _replaced(check, conditions), 0, limited)["conditions"]]
    status = "refuted" if "fails" in states else "certified" if all(s == "holds" for s in states) else "undecided"
    decided = [limited(c) for _, c, _ in map(_condition, conditions) if isinstance(c, Holds)]
    timed = any(d.detail.startswith(("not decided within", "the decision's process")) for d in decided)
    said = "; ".join(d.detail for d in decided if d.status == ("refuted" if status == "refuted" else "argued"))
    return {"mutant": name, "kind": kind, "status": status, "detail": shorten(said, 160),
            "timed_out": status == "undecided" and timed}


def _replaced(check: Cites, conditions: tuple) -> Cites:
    import dataclasses
    return dataclasses.replace(check, conditions=tuple(conditions))


#: why a statement has no mutant but its negation (`step_mutants`)
NO_MUTANT = "no operator to flip, no constant, no sum or product, no term, no factor, no premise, no assumption"


def step_mutants(check, negation_only: bool = False) -> dict:
    """The mutants of one certified step's check (`statements.kinded_mutants`; for a `Cites`, every condition
    that is a statement negated, and each condition's object swapped for its violator), each decided by the
    same method under `MUTANT_SECONDS` (`_mutant_row`): refuted (with a replayed witness), undecided (argued
    or timed out) or certified (still true). Returns {"mutants": [{"mutant", "kind", "status", "detail",
    "timed_out"}], "negation": its status, "refuted", "undecided", "certified", "timed_out": how many of the
    other mutants, "verdict", "why"}. The verdict: 'can fail' when the negation and at least one other mutant
    are refuted; 'negation only' when the negation alone is (the why says whether the others are still true,
    undecided, or none exists); 'undecided' when the negation was not decided; 'cannot fail' when it is
    certified. `negation_only`: the negation alone is asked (verdict 'negation refuted' in place of the first
    two), the cheap half of the test."""
    from .statements import kinded_mutants

    out, decided = [], {}

    def limited(st):                   # a condition a mutant leaves as it was is decided once
        if id(st) not in decided:
            decided[id(st)] = (st, decide_within(st, MUTANT_SECONDS))
        return decided[id(st)][1]
    none_why = NO_MUTANT
    if isinstance(check, Holds):
        listed = kinded_mutants(check)
        for kind, name, m in listed[:1] if negation_only else listed:
            d = decide_within(m, MUTANT_SECONDS)
            if d.status != "refuted" and d.status != "certified":
                # undecided: a point of the domain that meets its given equations may still refute it (a random
                # point meets an equation with probability zero, and z3's model may be no point of the domain)
                from .domain_points import solved_refutation
                from .faults import TimeLimit, time_limit
                try:                           # sympy's solve has no limit of its own
                    with time_limit(MUTANT_SECONDS, "the search at points meeting the given equations"):
                        d = solved_refutation(m) or d
                except TimeLimit:
                    pass
            out.append(_mutant_row(name, kind, d))
    elif isinstance(check, Cites):
        conds = [_condition(c) for c in check.conditions]
        negated_conds = tuple((text, negated(c)) if isinstance(c, Holds) else (text, c) for text, c, _ in conds)
        if any(isinstance(c, Holds) for _, c, _ in conds):
            out.append(_cites_mutant("negation (every condition that is a statement negated)", "negation", check,
                                     negated_conds, limited))
        else:
            out.append({"mutant": "negation", "kind": "negation", "status": "undecided", "timed_out": False,
                        "detail": "no condition is a statement the engine decides, so none can be negated"})
        for j, (text, _, cond) in enumerate([] if negation_only else conds):
            if cond is None or cond.violator is None:
                continue
            swapped = list(check.conditions)
            swapped[j] = (text, cond.violator)
            out.append(_cites_mutant(f"condition '{shorten(text, 50)}' on its violator", "violator", check,
                                     tuple(swapped), limited))
        none_why = "no condition names an object that violates it"
    else:
        return {"mutants": [], "verdict": "no statement", "why": "the step carries no statement to mutate"}
    neg, others = out[0]["status"], out[1:]
    counts = {s: sum(m["status"] == s for m in others) for s in ("refuted", "undecided", "certified")}
    timed = sum(m["timed_out"] for m in others)
    n = len(others)
    said = (f"of its {n} other mutants {counts['refuted']} refuted, {counts['undecided']} undecided"
            + (f" ({timed} not decided in time)" if timed else "") + f", {counts['certified']} still true")
    if neg == "certified":
        verdict, why = "cannot fail", "its negation is certified too: the check does not depend on the step"
    elif neg == "undecided":
        verdict, why = "undecided", (f"its negation was not decided ({out[0]['detail']}), so the step is not shown "
                                     "able to fail" + (f"; {said}" if others else ""))
    elif negation_only:
        verdict, why = "negation refuted", "its negation is refuted; it alone was asked (the other mutants were not)"
    elif counts["refuted"]:
        verdict, why = "can fail", f"its negation is refuted and {said}"
    elif others:
        verdict, why = "negation only", (f"only its negation is refuted: {said} (no mutant bites: each is true by "
                                         "the same method, or not decided)")
    else:
        verdict, why = "negation only", f"only its negation is refuted: it has no other mutant ({none_why})"
    return {"mutants": out, "negation": neg, **counts, "timed_out": timed, "verdict": verdict, "why": why}


def proof_findings(results):
    """(node, finding) for every finding with a proof among the results' claims and their repairs (a repair's node
    is `repair:<claim id>`): the walk the mutants, the second solver and the certificates share."""
    for r in results:
        groups = [(r.id, r.findings)] + [(f"repair:{r.id}", rep.findings) for rep in getattr(r, "repairs", [])]
        for node, findings in groups:
            for f in findings:
                if f.proof:
                    yield node, f


def proof_mutants(results, workers: int | None = None, negation_only: bool = False) -> list[dict]:
    """Every certified step of every proof in a run's results (the claims' and their repairs'), with its
    mutants decided (`step_mutants`): one dict per step, {"node", "step", "text"} and what `step_mutants`
    returns. A certified step without a statement object (a certified Finding: an arb certificate, an
    exhaustive search) is listed with verdict 'finding' (its method's own tests plant wrong inputs). The
    steps run on `workers` processes (default: every core); the answer does not depend on how many.
    `negation_only`: each step's negation alone (`step_mutants`)."""
    from .parallel import run
    entries, tasks = [], []
    for node, f in proof_findings(results):
        checks = getattr(f, "checks", {}) or {}
        for row in f.proof["steps"]:
            if row["status"] != "certified" or row.get("uses"):
                continue
            check = checks.get(row["step"])
            entry = {"node": node, "step": row["step"], "text": shorten(row["text"], 100)}
            if check is None:
                entry.update({"mutants": [], "verdict": "finding", "why": "certified by a finding (a certificate, "
                              "an induction over states or an exhaustive search), not a statement object: its "
                              "method's own tests plant wrong inputs"})
            else:
                tasks.append((len(entries), step_mutants, (check, negation_only)))
            entries.append(entry)
    for i, got in run(tasks, workers).items():
        entries[i].update(got)
    return entries


def mutants_summary(rows: list[dict]) -> dict:
    """The totals of `proof_mutants`: certified steps (`steps`), those with a statement (`statements`) and
    those certified by a finding (`findings`); of the statements, how many negations are refuted, undecided
    and certified (`negation_refuted`, `negation_undecided`, `negation_certified`), how many of their other
    mutants are refuted, undecided (of which not decided in time) and certified, still true
    (`mutants_refuted`, `mutants_undecided`, `mutants_timed_out`, `mutants_certified`), and how many steps
    read each verdict of `step_mutants` (`can_fail`, `negation_only`, `undecided`, `cannot_fail`, and
    `negation_asked_only` where the negation alone was asked)."""
    stated = [r for r in rows if r["verdict"] not in ("finding", "no statement")]
    out = {"steps": len(rows), "statements": len(stated), "findings": sum(r["verdict"] == "finding" for r in rows)}
    for s in ("refuted", "undecided", "certified"):
        out[f"negation_{s}"] = sum(r.get("negation") == s for r in stated)
    for s in ("refuted", "undecided", "timed_out", "certified"):
        out[f"mutants_{s}"] = sum(r.get(s, 0) for r in stated)
    for key, verdict in (("can_fail", "can fail"), ("negation_only", "negation only"), ("undecided", "undecided"),
                         ("cannot_fail", "cannot fail"), ("negation_asked_only", "negation refuted")):
        out[key] = sum(r["verdict"] == verdict for r in stated)
    return out
