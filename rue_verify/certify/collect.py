"""Certificates collected from a run: one JSON file per link that z3 certified (kind "smt2", `smt.certificate`).

A row of a proof that z3 decided carries the SMT-LIB text of the problem z3 found unsat (`row["smt2"]`, set by
`verify.proofs._holds_row`; a cited lemma's condition and a term-wise rule's terms carry theirs the same way), and
an induction's unsat case carries its own (`verify.induction.Case.smt2`). `write_certificates` finds them in
whatever the run gave: the claims' results (`ClaimResult`s, their JSON, an `api` `Output`), the proof graph, an
induction's `Decision`, or a list or dict of these, and writes each as `<key>.json` (sorted keys, UTF-8).

Only certified rows are taken (a row's `status` "certified", a condition's `state` "holds"), each once (by key).

A claim's findings also keep the statement each certified step decided (`Finding.checks`); from them
`certificates` adds what the rows do not carry: an arb decision's box cover (kind "boxes", `boxes.certificate`),
and for a step sympy decided, the same statement decided by z3 (`second_opinion`): where z3 certifies it too and
cvc5 re-decides its SMT-LIB problem (`answers.answer`: shipped, kept, or decided as the file is written), that
problem; where either does not, the statement itself as sympy's text (kind "sympy",
`rewrite.certificate`), which the reader's sympy re-decides, written only when that check passes at write time
(`sympy_certificate`); where neither, the step is listed as uncovered (`uncovered`) with both reasons. Those
second decisions are the only things this module decides; the checker decides nothing of ours."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from . import smt


def source_hash() -> str:
    """The hash of the code a z3 link's SMT-LIB text is built from: the engine's translation to z3 and the
    induction's cases (`verify/statements.py`, `verify/induction.py`, read as files, not imported)."""
    here = Path(__file__).resolve().parent.parent / "verify"
    h = hashlib.sha256()
    for name in ("statements.py", "induction.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()


def certificates(results_or_graph, source: str | None = None, uncovered: list | None = None) -> list[dict]:
    """Every certified z3 link found in `results_or_graph` (module docstring) as an "smt2" certificate, each key
    once, then the certified steps kept in findings' `checks`: an arb cover as a "boxes" certificate, a sympy
    decision re-decided by z3 as an "smt2" one, else by sympy alone as a "sympy" one; `source` defaults to
    `source_hash()`. `uncovered`, when given, is appended one {"what", "method", "why"} per certified step that got
    no certificate."""
    source = source_hash() if source is None else source
    out = {c["key"]: c for c in row_certificates(results_or_graph, source)}
    for what, h in _checked_steps(results_or_graph):
        for cert in _step_certificates(h, what, source, uncovered):
            out.setdefault(cert["key"], cert)
    return list(out.values())


def row_certificates(results_or_graph, source: str | None = None) -> list[dict]:
    """The "smt2" certificates the rows of `results_or_graph` carry (each certified z3 link's problem), each key
    once: `certificates` without the steps it decides again."""
    source = source_hash() if source is None else source
    out: dict[str, dict] = {}
    for statement, what, text in _links(results_or_graph, "", {}):
        cert = smt.certificate(text, statement, source, what)
        out.setdefault(cert["key"], cert)
    return list(out.values())


def by_node(graph, source: str | None = None) -> dict[str, list[dict]]:
    """Node id -> the "smt2" certificates of its own links (its rows' and their conditions' z3 problems), for
    every node of a proof graph that has any: what the report lists beside each proof."""
    source = source_hash() if source is None else source
    out: dict[str, list[dict]] = {}
    for key, n in graph.nodes.items():
        rows = (n.get("own") or {}).get("steps") or n.get("proof_steps") or []
        seen: dict[str, dict] = {}
        for statement, what, text in _links(rows, key, {}):
            cert = smt.certificate(text, statement, source, what)
            seen.setdefault(cert["key"], cert)
        if seen:
            out[key] = list(seen.values())
    return out


def second_opinion(h, seconds: float = 20.0):
    """The statement `h` (a `Holds` another method certified) decided by z3, for its SMT-LIB problem: the
    `Decision` (kept decisions are reused, `statements.decide`)."""
    from ..verify.statements import decide
    return decide(dataclasses.replace(h, method="z3", seconds=max(seconds, h.seconds)))


def _step_certificates(h, what: str, source: str, uncovered: list | None) -> list[dict]:
    from ..verify.statements import decide
    from . import boxes
    d = decide(h)                                     # kept: the run decided it already
    if d.status != "certified":
        return []
    statement = h.text()
    if d.smt2 and not smt.hollow(d.smt2):
        return [smt.certificate(d.smt2, statement, source, what)]
    if d.cover:
        import sympy
        parts = h.claim.args if isinstance(h.claim, sympy.And) else (h.claim,)
        tail = (d.cover.get("tail") or {}).get("problems") or []
        # the tail past the box, where z3 decided it: its problems are certificates of their own, for cvc5
        return [boxes.certificate(d.cover, statement, source, what, relations=[str(p) for p in parts])] + [
            smt.certificate(t["smt2"], t["statement"], source, what + " (the tail past the box)")
            for t in tail if isinstance(t.get("smt2"), str) and not smt.hollow(t["smt2"])]
    if d.smt2:
        why = ("z3 was given the claim already evaluated to true (sympy decided it from the symbols' assumptions when "
               "the relation was built): no certificate of its content")
    elif d.method == "sympy":
        z = second_opinion(h)
        if z.status == "certified" and z.smt2 and not smt.hollow(z.smt2):
            from . import answers
            ok, said = answers.answer(z.smt2, statement)          # cvc5 on it (shipped, kept or decided now)
            if ok:
                return [smt.certificate(z.smt2, statement, source, what + " (sympy decided it; z3 too, for cvc5)")]
            why = f"z3 re-decides it, but cvc5 does not: {said}"
        else:
            why = (f"z3 does not re-decide it: {z.detail}" if not (z.smt2 and smt.hollow(z.smt2)) else
                   "z3 was given the claim already evaluated to true: no certificate of its content")
        cert, said = sympy_certificate(h, statement, source, what)
        if cert is not None:
            return [cert]
        why = f"{said}; {why}"
    else:
        why = f"its {d.method} decision keeps no certificate"
    if uncovered is not None:
        uncovered.append({"what": what, "method": d.method, "why": why[:300]})
    return []


def sympy_certificate(h, statement: str, source: str, what: str) -> tuple[dict | None, str]:
    """(the "sympy" certificate of the step `h` sympy decided, or None; why not): written only when its own check
    passes on the file as written (JSON and back), so that a step whose decision needs more than sympy and the
    file hold (a rule of the toolkit's functions: a maximum's sign, a probability's) stays uncovered, with the
    check's reason."""
    from . import rewrite
    try:
        cert = rewrite.certificate(h, statement, source, what)
        ok, detail = rewrite.check(json.loads(json.dumps(cert, sort_keys=True, ensure_ascii=False)))
    except Exception as err:                  # a statement the file cannot hold (a class of ours not a function)
        return None, f"no sympy certificate: {type(err).__name__}: {str(err)[:200]}"
    return (cert, detail) if ok else (None, f"its sympy certificate does not check: {detail}")


def _checked_steps(obj):
    """(what, Holds) of each certified step a claim's findings keep (`Finding.checks`) in `obj` (results, a list of
    them, an api Output's list): a derivation's decided links and a proof's decided steps."""
    from ..verify.proofs import proof_findings
    from ..verify.statements import Holds
    if isinstance(obj, (list, tuple)) or (hasattr(obj, "graph") and hasattr(obj, "__iter__")):   # a run's results
        for x in obj:
            yield from _checked_steps(x)
        return
    if not (hasattr(obj, "findings") and hasattr(obj, "id")):
        return
    for node, f in proof_findings([obj]):
        checks = getattr(f, "checks", None) or {}
        for row in f.proof.get("steps", []):
            h = checks.get(row.get("step"))
            if row.get("status") == "certified" and isinstance(h, Holds):
                yield f"{node}, step {row['step']}: {row.get('text') or h.text()}", h


def write_certificates(results_or_graph, directory, source: str | None = None,
                       uncovered: list | None = None, extra=(), progress=None) -> list[Path]:
    """Write each certificate of `certificates(results_or_graph)`, then each of `extra` (a paper's own searches',
    `Paper.certificates`), to `directory/<key>.json`, each whole or not at all (a temporary file renamed into
    place); the paths written (`uncovered` as `certificates` takes it). `progress(what)` is called as each is
    written (what it certifies), for a display: the paper's searches may take minutes."""
    import itertools
    import os
    import tempfile
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    paths, done = [], set()
    for cert in itertools.chain(certificates(results_or_graph, source, uncovered), extra):
        if cert["key"] in done:
            continue
        done.add(cert["key"])
        p = d / f"{cert['key']}.json"
        fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(cert, sort_keys=True, indent=1, ensure_ascii=False) + "\n")
            os.replace(tmp, p)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        paths.append(p)
        if progress:
            progress(str(cert.get("what") or cert["key"]))
    return paths


def _links(obj, where: str, seen):
    """(statement, what, smt2) of each certified z3 link in `obj`; `where` names the claim or node around it."""
    if isinstance(obj, (str, bytes, int, float, bool)) or obj is None or id(obj) in seen:
        return
    if isinstance(seen, dict):       # each object visited kept alive, so that no later temporary reuses its id
        seen[id(obj)] = obj
    else:
        seen.add(id(obj))
    if isinstance(obj, dict):
        yield from _dict_links(obj, where, seen)
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from _links(x, where, seen)
    elif hasattr(obj, "cases") and hasattr(obj, "step") and hasattr(obj, "statement"):   # an induction's Decision
        for c in obj.cases:
            if getattr(c, "answer", None) == "unsat" and getattr(c, "smt2", None):
                yield (f"{obj.statement} on {getattr(obj, 'domain', '')} [case: {c.label}]",
                       f"induction {obj.step}: {c.label}", c.smt2)
    elif hasattr(obj, "findings") and hasattr(obj, "id"):                                # a ClaimResult
        yield from _links(list(obj.findings) + list(getattr(obj, "repairs", [])), f"{where}{obj.id}", seen)
    elif hasattr(obj, "nodes") and isinstance(obj.nodes, dict):                          # the proof graph
        yield from _links(obj.nodes, where, seen)
    elif hasattr(obj, "data") and not dataclasses.is_dataclass(obj):                     # an api Output
        yield from _links(obj.data, where, seen)
    elif hasattr(obj, "proof") and hasattr(obj, "verdict") and not dataclasses.is_dataclass(obj):   # a Finding
        yield from _links(obj.proof, where, seen)
    elif dataclasses.is_dataclass(obj):                                                  # a Repair, a Finding
        yield from (tuple(x) for x in getattr(obj, "smt2_cases", None) or ())          # an induction's cases
        yield from _links({f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}, where, seen)


def _dict_links(d: dict, where: str, seen):
    here = f"{where} {d['id']}".strip() if isinstance(d.get("id"), str) else where
    certified = d.get("status") == "certified" or d.get("state") == "holds"
    if isinstance(d.get("smt2"), str) and certified and isinstance(d.get("statement"), str) \
            and not smt.hollow(d["smt2"]):
        step = f", step {d['step']}" if "step" in d else ""
        yield d["statement"], f"{here or 'a proof'}{step}: {d.get('text') or d['statement']}", d["smt2"]
    if certified and isinstance(d.get("smt2_cases"), list):        # a link an induction decided: its cases
        for case in d["smt2_cases"]:
            if isinstance(case, (list, tuple)) and len(case) == 3 and all(isinstance(x, str) for x in case):
                yield case[0], f"{here or 'a proof'}, step {d.get('step', '?')}: {case[1]}", case[2]
    for k, v in d.items():
        if k not in ("smt2", "smt2_cases"):
            yield from _links(v, here, seen)
