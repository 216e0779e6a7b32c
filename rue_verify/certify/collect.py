"""Certificates collected from a run: one JSON file per link that z3 certified (kind "smt2", `smt.certificate`).

A row of a proof that z3 decided carries the SMT-LIB text of the problem z3 found unsat (`row["smt2"]`, set by
`verify.proofs._holds_row`; a cited lemma's condition and a term-wise rule's terms carry theirs the same way), and
an induction's unsat case carries its own (`verify.induction.Case.smt2`). `write_certificates` finds them in
whatever the run gave: the claims' results (`ClaimResult`s, their JSON, an `api` `Output`), the proof graph, an
induction's `Decision`, or a list or dict of these, and writes each as `<key>.json` (sorted keys, UTF-8).

Only certified rows are taken (a row's `status` "certified", a condition's `state` "holds"), each once (by key).
This module reads results; it decides nothing."""

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


def certificates(results_or_graph, source: str | None = None) -> list[dict]:
    """Every certified z3 link found in `results_or_graph` (module docstring) as an "smt2" certificate, each key
    once; `source` defaults to `source_hash()`."""
    source = source_hash() if source is None else source
    out: dict[str, dict] = {}
    for statement, what, text in _links(results_or_graph, "", set()):
        cert = smt.certificate(text, statement, source, what)
        out.setdefault(cert["key"], cert)
    return list(out.values())


def write_certificates(results_or_graph, directory, source: str | None = None) -> list[Path]:
    """Write each certificate of `certificates(results_or_graph)` to `directory/<key>.json`; the paths written."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    paths = []
    for cert in certificates(results_or_graph, source):
        p = d / f"{cert['key']}.json"
        p.write_text(json.dumps(cert, sort_keys=True, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        paths.append(p)
    return paths


def _links(obj, where: str, seen: set):
    """(statement, what, smt2) of each certified z3 link in `obj`; `where` names the claim or node around it."""
    if isinstance(obj, (str, bytes, int, float, bool)) or obj is None or id(obj) in seen:
        return
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
    elif dataclasses.is_dataclass(obj):                                                  # a Finding, a Repair
        yield from _links({f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}, where, seen)


def _dict_links(d: dict, where: str, seen: set):
    here = f"{where} {d['id']}".strip() if isinstance(d.get("id"), str) else where
    certified = d.get("status") == "certified" or d.get("state") == "holds"
    if isinstance(d.get("smt2"), str) and certified and isinstance(d.get("statement"), str):
        step = f", step {d['step']}" if "step" in d else ""
        yield d["statement"], f"{here or 'a proof'}{step}: {d.get('text') or d['statement']}", d["smt2"]
    for k, v in d.items():
        if k != "smt2":
            yield from _links(v, here, seen)
