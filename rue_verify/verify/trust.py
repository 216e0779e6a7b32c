"""What a node's proof rests on (`rue-verify proofs --trust NODE`): every link of its derivation and of the
derivations of the nodes it rests on, each with what decided it, so that a reader sees which parts of a `proved`
they must believe and how each could be checked again without this package.

A link is one of (its `kind`):

- `decided`: a relation the engine decided, by the methods in `by` ("sympy": an identity or a sign sympy
  simplifies to; "z3": real arithmetic with the abstraction's facts, its SMT-LIB problem a certificate cvc5
  re-decides (`rue-verify certificates`); "arb": interval arithmetic over boxes);
- `rule`: an engine rule (a union bound over a counted index set, a termwise comparison, a monotone step, ...),
  its side conditions decided by the methods in `by`;
- `cites`: a cited result instantiated on the link's objects, its conditions decided by the methods in `by`;
- `rests`: a node of the graph, read at its own proof status (its links are listed in turn);
- `fact`: a fact established earlier in the same proof (its own link decided where it is listed);
- `found`: a finding the engine made (an induction over every n, an exhaustive search, an interval
  certificate), `by` naming it; `restated` when the relation it was matched against was attached by the
  caller (`derivation.restate`) rather than tied by the engine to what the method decided (an induction's
  `Reading` ties its own);
- `identity`: one expression as sympy writes both sides (nothing decided);
- `closure`: the check that the chain's two ends are the statement's sides;
- `argued`: a link the engine did not decide (the proof is then not `proved`).

Nothing here decides anything: it reads the graph a run resolved."""

from __future__ import annotations

import re
from collections import Counter

#: a method as a decision's detail names it ("sympy: ...", "... (certified): z3: ...")
_SAID = re.compile(r"(?:^|[:;(] )(sympy|z3|arb):")

#: the kinds of a link, in the order `trust` counts them
KINDS = ("decided", "rule", "cites", "rests", "fact", "found", "identity", "closure", "argued")


def _hollow(text: str) -> bool:
    """Whether a z3 problem's negated claim is (not true): the relation reached z3 already evaluated to true by
    sympy from its symbols' assumptions, so it is sympy's decision, and its problem certifies nothing (read as the
    checker reads it, `certify.smt.hollow`, let bindings included)."""
    from ..certify.smt import hollow
    return hollow(text)


def _methods(obj, out: set) -> set:
    """Every deciding method named anywhere inside a link's row: a 'method' field, an SMT-LIB certificate (z3),
    an interval cover (arb)."""
    if isinstance(obj, dict):
        m = obj.get("method")
        if isinstance(m, str) and m in ("sympy", "z3", "arb"):
            out.add(m)
        if isinstance(obj.get("smt2"), str):           # a problem z3 got already true: sympy's evaluation decided it
            out.add("sympy" if _hollow(obj["smt2"]) else "z3")
        if obj.get("cover"):
            out.add("arb")
        if isinstance(obj.get("detail"), str):
            out.update(_SAID.findall(obj["detail"]))
        how = obj.get("justification")
        if isinstance(how, str) and how.startswith("decided ("):
            out.update(m for m in ("sympy", "z3", "arb") if m in how)
        for k, v in obj.items():
            if k not in ("smt2", "cover"):
                _methods(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _methods(v, out)
    return out


def _problems(obj, out: list) -> list:
    """(statement, SMT-LIB text) of every z3 problem a link's row carries (its own and its conditions'):
    `second.problems`, without the dict that carries each."""
    from .second import problems
    out += [(statement, text) for _, statement, text in problems(obj)]
    return out


def _certificates(obj) -> int:
    """How many SMT-LIB certificates a link's row carries (its own and its conditions')."""
    if isinstance(obj, dict):
        from .second import cases
        own = int(isinstance(obj.get("smt2"), str) and not _hollow(obj["smt2"])) + len(cases(obj))
        return own + sum(_certificates(v) for k, v in obj.items() if k not in ("smt2", "smt2_cases"))
    if isinstance(obj, (list, tuple)):
        return sum(_certificates(v) for v in obj)
    return 0


def classify(row: dict) -> tuple[str, list[str]]:
    """(kind, by) of one link's row (module docstring)."""
    how = row.get("justification") or ""
    by = sorted(_methods(row, set()))
    if isinstance(row.get("smt2"), str) and _hollow(row["smt2"]) and not _problems(row, []):
        by = sorted((set(by) - {"z3"}) | {"sympy"})      # z3 got it already true: sympy's evaluation decided it
    if row.get("status") not in ("certified", "exhausted"):
        return "argued", by
    if row.get("closure"):
        return "closure", by
    if how == "identity":
        return "identity", []
    if how.startswith("decided"):
        return "decided", by
    if how.startswith("rule") or how.startswith("monotone"):
        return "rule", by
    if how.startswith("cites"):
        return "cites", by
    if how.startswith("rests on"):
        return "rests", by
    if how.startswith("fact"):
        return "fact", by
    if how.startswith("found by"):
        return "found", [how[len("found by "):]]
    if row.get("uses"):
        return "rests", by
    return "decided", by


def trust(g, key: str, recheck=None) -> dict:
    """What node `key` of graph `g` rests on (module docstring): {"node", "proof", "links": [{"node", "step", "text",
    "kind", "by", "justification", "certificates", "rests_on"}], "nodes": the nodes visited with their proof
    status, "kinds": links per kind, "methods": links per deciding method, "certificates": SMT-LIB certificates
    carried, "argued": the links not decided, "restated": the found links matched against a statement the caller
    attached}. KeyError for a node the graph does not have.

    `recheck`, a function (statement, SMT-LIB text) -> (ok, detail) (a second solver: `rue-verify proofs --trust`
    passes cvc5's, `rue_verify.certify.smt.check`), is run on every z3 problem of every link: each link gets
    "rechecked" [{ok, detail}], and the totals "rechecked" {"agreed", "not"} and "disagreements" (the links whose
    problem the second solver does not re-decide, with its answer): a link argued because cvc5 does not
    re-decide its problem (`verify.second`, its row's `cvc5`) is rechecked too, so that it is listed there."""
    from .graph import derivation_json
    start = g.node(key)
    seen, order, links = set(), [], []

    def visit(k):
        if k in seen or k not in g.nodes:
            return
        seen.add(k)
        n = g.nodes[k]
        d = derivation_json(n)                 # the rows themselves: derivation_json leaves their certificates out
        rows = (n.get("own") or {}).get("steps") or n.get("proof_steps") or []
        order.append({"node": k, "proof": d["proof"], "status": d["status"], "derivation": d["derivation"]})
        for row in rows:
            kind, by = classify(row)
            target = row.get("uses") if isinstance(row.get("uses"), str) else None
            links.append({"node": k, "step": row.get("step"), "text": row.get("text", ""), "kind": kind, "by": by,
                          "justification": row.get("justification") or ("closure" if row.get("closure") else ""),
                          "certificates": _certificates(row), "rests_on": target,
                          "restated": bool(row.get("restated"))})
            if recheck is not None and (kind != "argued" or row.get("cvc5")):   # argued for cvc5's answer: shown
                links[-1]["rechecked"] = [dict(zip(("ok", "detail"), recheck(st, text)))
                                          for st, text in _problems(row, [])]
            if target:
                visit(target)
        for u in d["uses"] if not d["links"] else []:      # a node without links of its own: its parts
            if isinstance(u, str):
                visit(u)
    visit(start["id"])
    methods = Counter(m for lk in links for m in lk["by"] if lk["kind"] in ("decided", "rule", "cites"))
    checked = [(lk, c) for lk in links for c in lk.get("rechecked", [])]
    out_extra = {} if recheck is None else {
        "rechecked": {"agreed": sum(bool(c["ok"]) for _, c in checked), "not": sum(not c["ok"] for _, c in checked)},
        "disagreements": [f"{lk['node']} step {lk['step']}: {c['detail']}" for lk, c in checked if not c["ok"]]}
    return {**out_extra, "node": start["id"], "proof": start.get("proof"), "links": links, "nodes": order,
            "kinds": {k: sum(lk["kind"] == k for lk in links) for k in KINDS},
            "methods": dict(sorted(methods.items())),
            "found": sorted({lk["by"][0] for lk in links if lk["kind"] == "found" and lk["by"]}),
            "certificates": sum(lk["certificates"] for lk in links),
            "argued": [f"{lk['node']} step {lk['step']}" for lk in links if lk["kind"] == "argued"],
            "restated": [f"{lk['node']} step {lk['step']}" for lk in links if lk["restated"]]}
