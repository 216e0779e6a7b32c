"""A proof graph, given its node table: each node a statement, the claim whose findings decide it (a
finding declares its node, `findings.about`; a claim's undeclared findings decide the claim's own node:
the graph never reads a finding's text), and a computed status named by the method that decided it:
`certified`, `exhausted`, `sampled`, or `refuted`, `undefined`, `inconsistent`, `conditional`,
`inconclusive`, `vacuous`, `read` (only a reading of the text holds), `argued` (no machine check), or
`definition`. Two kinds of edge lead down from a node: `uses`, what its checks' methods used (the nodes
its own proof's steps rest on, a repair's steps likewise; for a node with no check of its own, its
parts, whose conjunction it is), and `cites`, what the text's proof of it cites (typed in the table: the
paper's argument, whether or not a check of ours used it too). A node's proof is the text's route to it: its own check,
what that used and what the text cites, all the way down; so a node below it, used or cited, is "below"
it. A node with either has a proof status besides: `proved` when every node below it, and every step of
its own proof, is certified on its whole domain; `checked` ("holds as far as checked") when all are
established but some only exhausted, sampled or certified on part of its domain (`weakest` names the
weakest, its method and where); `argued` when some is not established; `broken` when some is bad or a
step of its own proof is refuted (`broken_at` names every break). Every node carries the domain its
deciding findings covered (`domain`). A claim's proof steps that rest on other nodes (`proofs.Rests`), a
repair's or the claim's own, are settled here, once the whole ledger has run. Nothing here knows a
paper: the node table comes from the caller."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from .claims import ClaimResult
from .findings import DECIDED, SEVERITY, overall, weakest
from .proofs import NOT_CHAINED, PROOF_WORDS, settle_proof

#: a node's statement status (module docstring); the first four break a proof that uses them
BAD = ("refuted", "undefined", "inconsistent", "conditional")
#: statuses that establish a node, strongest first (a definition is as good as a certificate)
DECIDED_NODE = ("definition",) + DECIDED
#: statuses that leave a node not established ('read': only a reading of the text holds)
OPEN = ("inconclusive", "vacuous", "untested", "read", "argued", "error")
STATUS = DECIDED_NODE + OPEN + BAD


@dataclass(frozen=True)
class Node:
    """One node of a proof graph. `label`: its LaTeX label (None for an unlabelled step);
    `aliases`: other labels that name it (the main text's copies `*-main`, the section holding its
    proof); `claim`: the ledger claim that checks it (a claim that checks several nodes declares, on
    each finding, the node it decides: `findings.about`); `relation`: how its witness reads (lhs
    relation rhs)."""

    id: str
    kind: str
    location: str
    statement: str
    #: the nodes the text's proof of this node cites (read off the text, typed in the table): the paper's
    #: argument, not what a check used; `resolve` derives `uses` from the checks' methods
    cites: tuple[str, ...] = ()
    claim: str | None = None
    label: str | None = None
    aliases: tuple[str, ...] = ()
    relation: str = "<="
    #: why no stronger method than sampling decides this node, where sampling is what decides it
    #: (a node whose status is `sampled` owes a reason; `nodes_json` carries it beside the status)
    sampled_because: str | None = None


@dataclass
class Graph:
    """Every node (the table's and the repairs') with its status, witness and, where it has one, its
    proof status."""

    nodes: dict[str, dict]

    def node(self, key: str) -> dict:
        """A node by id, label or alias."""
        for n in self.nodes.values():
            if key == n["id"] or key == n["label"] or key in n["aliases"]:
                return n
        raise KeyError(f"no node {key!r}; known: {', '.join(self.nodes)}")


def findings_of(r: ClaimResult, node: str, own: bool = True) -> list:
    """The findings of claim result `r` that decide `node`: those that declare it, and for the claim's
    own node (`own`: the first node of the table its claim checks) those that declare no node. Never
    the text; a node that is not its claim's own and that no finding declares has none."""
    return [f for f in r.findings if f.node == node or (own and f.node is None)]


def _deciding(fs: list) -> list:
    """The findings that decide a node that holds: not a reading, not a corroborating search beside a
    proof, not a measure of tightness (the checks, where those are all there is)."""
    checks = [f for f in fs if f.verdict == "holds" and f.kind != "reading"]
    return [f for f in checks if not f.corroborates and f.kind != "tightness"] or checks


def _coverage(fs: list) -> tuple[str, str | None]:
    """(the domain the node's deciding findings covered, what part of the statement they leave out)."""
    fs = _statement(fs)
    worst = min((f.verdict for f in fs), key=SEVERITY.index, default=None)
    used = _deciding(fs) if worst == "holds" else [f for f in fs if f.verdict == worst]
    domain = "; ".join(dict.fromkeys(f.domain for f in used if f.domain))
    partial = next((f.partial for f in used if f.partial), None) if worst == "holds" else None
    return domain, partial


def _statement(fs: list) -> list:
    """The findings that judge a node's statement: a proof that does not establish it (broken, argued)
    says nothing of the statement where other findings judge it (the node's proof status reads it)."""
    return [f for f in fs if not (f.proof and f.verdict == "inconclusive")] or fs


def _decided(fs: list) -> tuple[str, dict | None]:
    """A node's status from its findings: the worst verdict, and for a pass the weakest method."""
    fs = _statement(fs)
    if not fs:
        return "argued", None
    worst = overall(fs)
    witness = next((f.witness for f in fs if f.verdict == worst and f.witness), None)
    if worst == "holds":                 # a reading of the text is no check: it decides nothing alone
        deciding = _deciding(fs)
        return (weakest(deciding) if deciding else "read"), None
    if worst in ("vacuous", "untested"):  # nothing was tested, or nothing the run could have refuted: not a pass
        return worst, None
    if worst == "inconclusive":          # a check that could not decide, or no check at all
        return ("inconclusive" if any(f.kind != "reading" for f in fs if f.verdict == "inconclusive")
                else "argued"), witness
    return worst, witness


def _status_of_repair(rep) -> str:
    v = rep.verdict
    if v == "inconclusive":              # a proof that is not proved is argued; a check that did not decide is not
        return "argued" if rep.proof and rep.proof["status"] not in ("proved", "checked") else "inconclusive"
    return _decided(rep.findings)[0]


def _from_parts(kids: list[str]) -> str:
    """The status of a node with no check of its own (a lemma that is the sum of its parts): the first
    bad part's, else not established where a part is not, else the weakest part's method."""
    bad = next((s for s in BAD if s in kids), None)
    if bad:
        return bad
    if any(k in OPEN for k in kids):
        return "argued"
    return max(kids, key=DECIDED_NODE.index, default="definition")


def node_for_claim(cid: str, table) -> str:
    """The node of `table` a claim checks (where its witnesses are evaluated), else the claim's own id."""
    return next((n.id for n in table if n.claim == cid), cid)


def resolve(results: list[ClaimResult], table, replaces: dict[str, str] | None = None,
            known: Iterable[str] = ()) -> Graph:
    """The graph of the node table `table` (a sequence of `Node`) from a ledger run's results: every proof
    step that rests on another node (a repair's, or a claim's own) settled, its status computed here in
    the order the references need, a circle counting as argued. `replaces`: a repair node -> the node
    it replaces, where that is not the first node its claim checks. `known`: the IDs of claims that
    exist but did not run (a step resting on one is argued: not reached); a step resting on anything
    else that is neither a node nor a claim is an error (a ValueError naming it)."""
    res = {r.id: r for r in results}
    known = set(known) | set(res)
    nodes: dict[str, dict] = {}
    for n in table:
        own_proof, domain, partial = None, "", None
        if n.claim and n.claim in res:
            fs = findings_of(res[n.claim], n.id, own=node_for_claim(n.claim, table) == n.id)
            status, w = _decided(fs)
            domain, partial = _coverage(fs)
            own_proof = next((f for f in fs if f.proof), None)
        elif n.claim:
            status, w = "argued", None
        else:
            status, w = ("definition" if n.kind == "definition" else None), None
        nodes[n.id] = {"id": n.id, "label": n.label, "aliases": list(n.aliases), "kind": n.kind,
                       "location": n.location, "statement": n.statement, "claim": n.claim,
                       # a node with no check of its own is the conjunction of its parts: its citations are
                       # what its status is made of; a checked node uses what its own proof rests on (below)
                       "uses": [] if n.claim else list(n.cites), "cites": list(n.cites) if n.claim else [],
                       "status": status, "witness": w, "route": "paper", "relation": n.relation,
                       "sampled_because": n.sampled_because, "domain": domain, "partial": partial,
                       "own_proof": own_proof}
    repairs = {f"repair:{r.id}": (r, rep) for r in results for rep in r.repairs[:1]}
    state: dict[str, str] = {}
    # claims whose own proofs rest on other nodes: settled on demand, before any node they decide is read
    pending = {r.id for r in results if any(f.proof and any(st["uses"] for st in f.proof["steps"])
                                            for f in r.findings)}
    claim_state: dict[str, str] = {}

    def settle(f) -> None:                     # a proof's steps that rest on other nodes, then the proof
        for step in f.proof["steps"]:
            if step["uses"] is None:
                continue
            step["uses"] = canonical(step["uses"])
            s = status(step["uses"])
            step["status"] = ("refuted" if s in BAD else "certified" if s == "definition" else
                              s if s in DECIDED else "argued")
            node = nodes.get(step["uses"])
            if node is not None and node.get("partial") and step["status"] != "refuted":
                step["partial"] = node["partial"]
            step["detail"] = f"rests on {step['uses']} ({s})"
            if "instance" in step and step["status"] != "refuted":
                # a link of a derivation: the node's statement, instantiated, must be the link
                why = _instance_problem(step, statement_of(step["uses"]), object_of(step["uses"]),
                                        getattr(f, "instances", {}).get(step["step"]))
                if why:
                    step["status"], step["detail"] = "argued", f"rests on {step['uses']} ({s}), but {why}"
                else:
                    step["detail"] += "; its statement, instantiated, is this link"
        settle_proof(f)

    def object_of(key: str):                  # the node's Statement object, where its finding kept it
        fs = findings_for(key)
        return next((o for o in (getattr(f, "statement_object", None) for f in fs) if o is not None), None)

    def findings_for(key: str) -> list:
        if key in repairs:
            return repairs[key][1].findings
        if key in nodes and nodes[key]["claim"] in res:
            cid = nodes[key]["claim"]
            return findings_of(res[cid], key, own=node_for_claim(cid, table) == key)
        return res[key].findings if key in res else []

    def statement_of(key: str) -> dict | None:  # the computed statement of a node (its derivation's), if any
        if key in repairs:
            fs = repairs[key][1].findings
        elif key in nodes and nodes[key]["claim"] in res:
            cid = nodes[key]["claim"]
            fs = findings_of(res[cid], key, own=node_for_claim(cid, table) == key)
        elif key in res:
            fs = res[key].findings
        else:
            return None
        return next((rec for rec in map(_statement_record, fs) if rec), None)

    def settle_claim(cid: str) -> None:        # a claim's own proofs, then its verdict and its nodes again
        claim_state[cid] = "visiting"
        r = res[cid]
        for f in r.findings:
            if f.proof:
                settle(f)
        _reverdict(r)
        for n in table:
            if n.claim == cid:
                fs = findings_of(r, n.id, own=node_for_claim(cid, table) == n.id)
                nodes[n.id]["status"], nodes[n.id]["witness"] = _decided(fs)
                nodes[n.id]["domain"], nodes[n.id]["partial"] = _coverage(fs)
        claim_state[cid] = "done"

    def canonical(key: str) -> str:            # a claim id names the node it checks
        return key if key in nodes or key.startswith("repair:") else node_for_claim(key, table)

    def status(key: str) -> str:
        key = canonical(key)
        if key in nodes and key not in repairs:
            n = nodes[key]
            if n["claim"] in pending:
                if claim_state.get(n["claim"]) == "visiting":
                    return "argued"            # a circle
                if n["claim"] not in claim_state:
                    settle_claim(n["claim"])
            if n["status"] is None:           # a node without a check of its own: the sum of its parts
                n["status"] = "argued"         # (a circle through it reads as argued)
                n["status"] = _from_parts([status(u) for u in n["uses"]])
            return n["status"]
        if key not in repairs:
            cid = key.split(":", 1)[1] if key.startswith("repair:") else key
            if key == cid and cid in res:      # a claim that ran and checks no node of the table
                if cid in pending and cid not in claim_state:
                    settle_claim(cid)
                elif claim_state.get(cid) == "visiting":
                    return "argued"
                return _decided(findings_of(res[cid], cid))[0]
            if cid in known:
                return "argued"                # a node the run did not reach
            raise ValueError(f"a proof step rests on {key!r}, which is no node of the graph and no claim: "
                             f"known nodes: {', '.join(nodes)}")
        if state.get(key) == "visiting":
            return "argued"
        if key in state:
            return state[key]
        state[key] = "visiting"
        r, rep = repairs[key]
        for f in rep.findings:
            if f.proof:
                settle(f)
        state[key] = _status_of_repair(rep)
        return state[key]

    for cid in [r.id for r in results if r.id in pending]:
        if cid not in claim_state:
            settle_claim(cid)
    for n in table:                            # a node without a check of its own: the sum of its parts
        status(n.id)
    for n in table:                           # the paper node's own proof (settled above)
        f = nodes[n.id].pop("own_proof")
        nodes[n.id]["own"] = dict(f.proof) if f is not None else None
        nodes[n.id]["chain"] = (f.proof or {}).get("chain") if f is not None else None
    for key, (r, rep) in repairs.items():
        status(key)
        uses = [s["uses"] for f in rep.findings if f.proof for s in f.proof["steps"] if s["uses"]]
        node = (replaces or {}).get(key) or node_for_claim(r.id, table)
        domain, partial = _coverage(rep.findings)
        nodes[key] = {"id": key, "label": None, "aliases": [], "kind": "repair", "location": f"repair of {r.id}",
                      "statement": rep.statement, "uses": uses, "claim": r.id, "status": state[key],
                      "witness": None, "route": "repair", "repairs": node, "relation": "<=",
                      "proof_steps": [s for f in rep.findings if f.proof for s in f.proof["steps"]],
                      "proof": rep.proof["status"] if rep.proof else None,
                      "broken_at": rep.proof["broken_at"] if rep.proof else [],
                      "weakest": rep.proof["weakest"] if rep.proof else None, "domain": domain, "partial": partial,
                      "own": None, "chain": next((f.proof.get("chain") for f in rep.findings if f.proof
                                                  and f.proof.get("chain")), None)}
    for n in nodes.values():                  # a node with a proof of its own uses what its steps rest on
        rested = [s["uses"] for s in (n.get("own") or {}).get("steps", []) if s["uses"] in nodes]
        n.setdefault("cites", [])
        if n["route"] == "repair" or rested:
            n["uses"], n["uses_from"] = list(dict.fromkeys(n["uses"] if n["route"] == "repair" else rested)), "proof"
        else:
            n["uses_from"] = "proof" if n["claim"] else "parts"
    for key, n in nodes.items():
        if _has_proof(n):
            n["proof"], n["broken_at"], n["weakest"] = _proof_status(key, nodes)
    # a step that rests on a node reads that node's proof (where it has one), not only its statement: a
    # statement decided by a sample, or a proof argued below it, cannot make the step above certified
    for _ in range(len(nodes) + 1):
        if not _reread_rests(results, repairs, nodes, table):
            break
    return Graph(nodes)


def _statement_record(f) -> dict | None:
    """The computed statement a finding decides: its derivation's (`verify.derive`), or one attached to a
    certified finding (`derivation.restate`)."""
    chain = (f.proof or {}).get("chain")
    if chain and chain.get("statement"):
        return chain["statement"]
    return getattr(f, "proof_statement", None)


def _instance_problem(step: dict, record: dict | None, target=None, objects=None) -> str | None:
    """Why a derivation's link resting on a node is not an instance of the node's statement (None: it is), the
    node's hypotheses that z3 established read with cvc5 (`_hypotheses_read`), collected as `check_instance` decides
    them (`proofs.sub_decisions`)."""
    if record is None:
        return ("that node has no computed statement (no derivation states it), so nothing ties the link to what "
                "the node established")
    from . import derivation
    from .proofs import sub_decisions
    with sub_decisions() as decided:
        why = derivation.check_instance(record, step["instance"], target, objects)
    return why or _hypotheses_read(step, decided)


def _hypotheses_read(step: dict, decided: list) -> str | None:
    """What z3 established on a link resting on a node (the node's hypotheses, `decided`; and what the link decided
    on the way, which it keeps already, `derivation._carry`), read with cvc5 as every z3 link is (`verify.second`):
    each kept on the step (`hypotheses`: statement and SMT-LIB problem, for its certificate), and the first cvc5 does
    not re-decide the reason the link is not an instance (None: every one is re-decided)."""
    from . import second
    from .findings import shorten
    held = list(step.get("hypotheses") or ())
    seen = {(h["statement"], h["smt2"]) for h in held}
    for st, row in decided:
        if row.get("status") == "certified" and isinstance(row.get("smt2"), str) and not second._hollow(row["smt2"]) \
                and (st.text(), row["smt2"]) not in seen:
            seen.add((st.text(), row["smt2"]))
            held.append({"text": st.text(), "statement": st.text(), "smt2": row["smt2"], "state": "holds"})
    if not held:
        return None
    step["hypotheses"] = held
    if not second._ON[-1]:
        return None
    from ..certify.answers import answer
    for h in held:
        ok, detail = answer(h["smt2"], h["statement"])
        if not ok:
            h.update(state="unchecked", cvc5=detail)
            step["cvc5"] = detail
            return f"{shorten(h['text'], 80)} (the node's hypothesis, or a relation the link decided on the way) is " \
                   f"z3's word alone: {detail}"
    return None


def _has_proof(n: dict) -> bool:
    """Whether paper node `n` has a proof to judge: parts, a proof of its own, or the text's citations."""
    return n["route"] == "paper" and bool(n["uses"] or n["cites"] or n["own"])


def below(n: dict) -> list[str]:
    """The nodes directly below `n` in its proof: what its checks used, then what the text cites."""
    return list(dict.fromkeys([*n["uses"], *n.get("cites", ())]))


#: a node's proof status as the status of a step that rests on it
_FROM_PROOF = {"proved": "certified", "argued": "argued", "pending": "argued", "broken": "argued"}


def _rests_reads(key: str, nodes: dict) -> tuple[str | None, str | None]:
    """(the status a step resting on node `key` may have at most, by the node's proof; None where the node
    has no proof; the partial domain it carries)."""
    n = nodes.get(key)
    if n is None or not n.get("proof"):
        return None, None
    proof = n["proof"]
    if proof == "checked":
        low = (n.get("weakest") or "sampled").split(" ")[0]
        return (low if low in DECIDED else "sampled"), n.get("partial") or (n.get("weakest") if low == "certified"
                                                                           else None)
    return _FROM_PROOF.get(proof, "argued"), None


def _reread_rests(results, repairs, nodes, table) -> bool:
    """One pass of `resolve`'s last rule: each step resting on a node is no stronger than the node's
    proof; the proofs, claims and repairs whose steps weakened are settled again. Whether anything moved."""
    moved = False
    for r in results:
        touched = False
        for f in [*r.findings, *(x for rep in r.repairs[:1] for x in rep.findings)]:
            if not f.proof:
                continue
            changed = False
            for step in f.proof["steps"]:
                if step["uses"] is None or step["status"] in ("refuted", "argued"):
                    continue
                cap, partial = _rests_reads(step["uses"], nodes)
                if cap is None or STEP_ORDER.index(cap) <= STEP_ORDER.index(step["status"]):
                    if partial and not step.get("partial") and cap is not None:
                        step["partial"], changed = partial, True
                    continue
                step["status"], changed = cap, True
                step["detail"] += f"; its proof is {nodes[step['uses']]['proof']}, so the step is {cap}"
                if partial:
                    step["partial"] = partial
            if changed:
                settle_proof(f)
                touched = moved = True
        if not touched:
            continue
        _reverdict(r)
        for n in table:
            if n.claim == r.id:
                fs = findings_of(r, n.id, own=node_for_claim(r.id, table) == n.id)
                nodes[n.id]["status"], nodes[n.id]["witness"] = _decided(fs)
                nodes[n.id]["domain"], nodes[n.id]["partial"] = _coverage(fs)
                own = next((f for f in fs if f.proof), None)
                if own is not None:
                    nodes[n.id]["own"] = dict(own.proof)
        key = f"repair:{r.id}"
        if key in repairs and key in nodes:
            rep = repairs[key][1]
            nodes[key].update(status=_status_of_repair(rep), proof=rep.proof["status"] if rep.proof else None,
                              broken_at=rep.proof["broken_at"] if rep.proof else [],
                              weakest=rep.proof["weakest"] if rep.proof else None,
                              proof_steps=[s for f in rep.findings if f.proof for s in f.proof["steps"]])
    if moved:
        for key, n in nodes.items():
            if _has_proof(n):
                n["proof"], n["broken_at"], n["weakest"] = _proof_status(key, nodes)
    return moved


#: a step's statuses, strongest first (a step may only move down this list when it is re-read)
STEP_ORDER = ("certified", "exhausted", "sampled", "argued", "refuted")


def _reverdict(r) -> None:
    """A claim's verdict again once its proofs' steps are settled; where it moved, its summary is written
    again from its findings (the one written at run time described the pending proof)."""
    from .claims import auto_summary
    verdict = overall(r.findings)
    if verdict != r.verdict:
        r.verdict, r.summary = verdict, auto_summary(r.findings)


def _proof_status(key: str, nodes: dict) -> tuple[str, list[str], str]:
    """(proved | checked | argued | broken, every break: the bad nodes below `key` (used or cited) nearest first and
    the refuted steps of its own proof, the weakest method below and where: "sampled at prob-dk").
    Its own proof (the claim's proof of this node, where it has one) counts as a step below it."""
    bad, argued, seen, queue = [], False, {key}, below(nodes[key])
    low, where, part = "definition", "", None
    own, mine = nodes[key].get("own"), nodes[key]["status"]
    if own:
        bad += [f"{key} (its own proof: {b})" for b in own["broken_at"]]
        argued |= own["status"] in ("argued", "pending")
        if own["status"] == "checked":
            low, where = own["weakest"].split(" ")[0], f"{key}'s own proof ({own['weakest']})"
            if low == "certified":             # certified on a part of its domain, or not tied to its statement
                part = key
    elif mine in DECIDED_NODE:
        # no proof of its own: the step from the nodes it uses is as strong as the check of the node itself
        low, where = mine, (key if mine not in ("definition", "certified") else "")
        part = key if nodes[key].get("partial") else None
        if mine == "certified" and not part and nodes[key].get("claim"):
            # certified by a finding, with no derivation from the statement's sides: proved only as far as that
            low, where = "certified", key
            part, nodes[key]["not_chained"] = key, True
    else:
        argued |= mine in OPEN
    while queue:
        u = queue.pop(0)
        if u in seen:
            continue
        seen.add(u)
        s = nodes[u]["status"]
        if s in BAD:
            bad.append(u)
        argued |= s in OPEN
        if s in DECIDED_NODE and DECIDED_NODE.index(s) > DECIDED_NODE.index(low):
            low, where = s, u
        part = part or (u if nodes[u].get("partial") else None)
        queue.extend(below(nodes[u]))
    if mine in BAD and not bad:
        # the statement fails while every node it uses and its own proof hold: the inference breaks
        bad.insert(0, f"{key} (its own inference: the statement is {mine})")
    if bad:
        return "broken", bad, _weak(low, where, nodes)
    if argued:
        return "argued", [], _weak(low, where, nodes)
    if low in ("definition", "certified") and part:
        left = nodes[part].get("partial") or (NOT_CHAINED if nodes[part].get("not_chained") else
                                             (nodes[part].get("own") or {}).get("weakest", "part of its domain"))
        return "checked", [], f"certified at {part}, on {left}"
    return ("proved" if low in ("definition", "certified") else "checked"), [], _weak(low, where, nodes)


def _weak(low: str, where: str, nodes: dict) -> str:
    """The weakest method and where, with the domain that node's findings covered."""
    if not where:
        return low
    n = nodes.get(where)
    dom = f" ({n['domain']})" if n is not None and n.get("domain") and low != "certified" else ""
    return f"{low} at {where}{dom}"


def nodes_json(g: Graph) -> list[dict]:
    """The graph as `rue-verify proofs --json` prints it: one object per node."""
    out = []
    for n in g.nodes.values():
        d = {k: n[k] for k in ("id", "label", "kind", "location", "statement", "status", "uses", "cites", "witness",
                               "claim", "route", "domain")}
        # 'proof': the nodes its proof's steps rest on; 'parts': a node with no check of its own, whose
        # status is the conjunction of its parts. `cites` is the text's proof (its citations), apart.
        d["uses_from"] = n["uses_from"]
        if n.get("partial"):
            d["partial"] = n["partial"]
        if n.get("status") == "sampled" and n.get("sampled_because"):
            d["sampled_because"] = n["sampled_because"]
        if "proof" in n:
            d["proof"], d["broken_at"] = n["proof"], n["broken_at"]
            if "weakest" in n:
                d["weakest"] = n["weakest"]
        if n["route"] == "repair":
            d["repairs"], d["steps"], d["weakest"] = n["repairs"], n["proof_steps"], n["weakest"]
        chain = n.get("chain")
        # 'derivation': whether the node's proof is a chain from its statement's computed side to the other
        d["derivation"] = bool(chain and chain.get("closed"))
        if chain:
            d["chain"] = chain
        out.append(d)
    return out


def derivation_json(n: dict) -> dict:
    """One node's proof as `proofs --node` prints it: its statement (computed, where a derivation states it),
    its proof status, whether the proof is a derivation whose chain closes, and each link with its
    justification and status (a node without a proof of its own: its status and what it uses)."""
    own = n.get("own") or {}
    steps = own.get("steps") or n.get("proof_steps") or []
    chain = n.get("chain") or own.get("chain")
    out = {"id": n["id"], "location": n["location"], "statement": n["statement"], "status": n["status"],
           "proof": n.get("proof"), "weakest": n.get("weakest"), "derivation": bool(chain and chain.get("closed")),
           "computed": chain["statement"] if chain else None, "uses": n.get("uses", []),
           "links": [{k: s.get(k) for k in ("step", "text", "status", "detail", "justification", "link", "uses",
                                              "conditions", "premise", "closure", "statement", "latex")
                      if s.get(k) is not None} for s in steps]}
    return out


def trees(g: Graph, roots) -> list[str]:
    """One paragraph per root (a theorem): its statement's status, its proof's, where it breaks, and
    its repair, then the tree of the nodes its proof uses."""
    lines = []
    for key in roots:
        n = g.nodes[key]
        rep = g.nodes.get(f"repair:{n['claim']}")
        proof = n.get("proof")
        text = (f"{n['location']} ({key}): statement {n['status']}; "
                + (f"proof {PROOF_WORDS.get(proof, proof)}" if proof else "no proof of its own in the graph")
                + (f" at {', '.join(n['broken_at'])}" if n.get("broken_at") else ""))
        if rep:
            text += (f"; repair: statement {rep['status']}, proof {PROOF_WORDS.get(rep['proof'], rep['proof'])}"
                     + (f" at {', '.join(rep['broken_at'])}" if rep["broken_at"] else ""))
        lines.append(text)
        lines += _tree(g, key, "  ", set())
        if rep:
            lines.append("  repaired route:")
            lines += _tree(g, rep["id"], "    ", set())
    if any(" (cited)" in x for x in lines):
        lines.append("(cited): the paper's proof cites the node and no check of ours used it; its status still "
                     "counts in the paper's route")
    return lines


def roots(g: Graph) -> list[str]:
    """A paper's theorems where it names none: the nodes no other node uses that have a proof (nodes
    they use, a proof of their own, or a repair's)."""
    used = {u for n in g.nodes.values() for u in below(n)}
    return [k for k, n in g.nodes.items() if n["route"] == "paper" and k not in used
            and (below(n) or n.get("own") or f"repair:{n['claim']}" in g.nodes)]


def _tree(g: Graph, key: str, indent: str, seen: set) -> list[str]:
    """The nodes below `key`, each marked by its edge: what a check used, or 'cited' by the text's proof."""
    out, uses = [], set(g.nodes[key]["uses"])
    for u in below(g.nodes[key]):
        n = g.nodes[u]
        again = u in seen
        out.append(f"{indent}- {u} [{n['status']}" + (f"; proof {PROOF_WORDS.get(n['proof'], n['proof'])}"
                                                       if n.get("proof") else "") + "]"
                   + ("" if u in uses else " (cited)") + (" (above)" if again else f": {n['statement'][:90]}"))
        if not again:
            seen.add(u)
            out += _tree(g, u, indent + "  ", seen)
    return out


def paper_table(paper, claims) -> tuple[Node, ...]:
    """The node table of `paper` (`papers.Paper`) for a run of `claims` (its `Claim`s): the paper's own
    table, then a node for each claim that declares one (`claim(..., node=, uses=)`), that is one of
    your own, or whose paper has no table (a paper without a hand-written table still gets a graph)."""
    table = list(paper.table()) if paper is not None else []
    bare = not table
    ids = {n.id for n in table}
    for c in claims:
        if not (bare or c.node or c.uses or c.origin == "yours"):
            continue
        nid = c.node or c.id
        if nid not in ids:
            table.append(Node(nid, "claim", c.location, c.statement, tuple(c.uses), c.id))   # its citations
            ids.add(nid)
    return tuple(table)


def find_node(table, key: str) -> Node | None:
    """The node of `table` named `key` (its id, label or an alias)."""
    return next((n for n in table if key in (n.id, n.label, *n.aliases)), None)


def evaluate(paper, key: str, at: dict) -> dict:
    """Node `key`'s relation at a point (a witness's params, or a whole witness) of `paper`: {"node",
    "claim", "lhs", "rhs", "relation", "holds"}, both sides computed again from scratch by the
    recomputation its claim declares, or by the replay of a key its witness carries
    (`witnesses.recompute_witness`); a repair ('repair:ID') by its declared recomputation. The paper's
    own `evaluate` goes first (nodes the engine cannot evaluate alone: it returns None for the others).
    The relation is the witness's where given (the node's otherwise); '~' holds within the witness's
    tol. A KeyError for an unknown node, a ValueError where the node is no relation at a point, where
    the point is not one (`check_point`: no true/false for a number, no NaN or infinity), or where the
    relation is undefined there (a division by zero, a side that is NaN), naming why."""
    from .claims import REGISTRY
    from .faults import one_line
    space = REGISTRY.of(paper.name) if paper is not None else REGISTRY
    table = paper_table(paper, space.values())
    node = find_node(table, key)
    cid = node.claim if node else (key.split(":", 1)[1] if key.startswith("repair:") else key)
    if cid not in space:
        raise KeyError(f"no node or claim {key!r} in {paper.name if paper else 'the registry'}; nodes: "
                       + ", ".join(n.id for n in table))
    if not isinstance(at, dict):
        raise ValueError(f"the point must be a JSON object of named values, got {type(at).__name__}")
    w = at if "params" in at else {"params": at}
    if not isinstance(w["params"], dict):
        raise ValueError("params must be a JSON object of named values")
    check_point(w["params"])
    try:
        out = _evaluate(paper, key, w, space, node, cid)
    except (ArithmeticError, IndexError, TypeError, AssertionError, KeyError, AttributeError) as err:
        raise ValueError(f"{key} cannot be evaluated at this point: {one_line(err)}") from None
    for side in ("lhs", "rhs"):
        v = out.get(side)
        if isinstance(v, float) and math.isnan(v):
            raise ValueError(f"{key} is undefined at this point: its {side} is not a number")
    return out


def check_point(x, where: str = "the point") -> None:
    """Refuse a point that is not one: a number given as true or false, or a NaN or infinite number
    (JSON's 1e400 reads as infinity), at any depth; a ValueError naming where."""
    if isinstance(x, bool):
        raise ValueError(f"{where}: a number is wanted, not {str(x).lower()}")
    if isinstance(x, float) and not math.isfinite(x):
        raise ValueError(f"{where}: {x} is not a finite number (a value past 1.8e308 reads as infinity)")
    if isinstance(x, dict):
        for k, v in x.items():
            check_point(v, k if where == "the point" or where == "params" else f"{where}.{k}")
    elif isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            check_point(v, f"{where}[{i}]")


def count_at(p: dict, name: str, low: int = 1, high: int | None = None) -> int:
    """The count `name` of a point `p` (a witness's params, `--at`'s JSON) as an int: a whole number in
    [low, high], 2.0 and 1e3 included; anything else (2.5, true, a string) a ValueError naming it, so a
    recompute never evaluates K = 2.5 as K = 2."""
    v = p.get(name)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v != int(v) \
            or v < low or (high is not None and v > high):
        raise ValueError(f"{name} must be a whole number in [{low}, {'inf' if high is None else high}], got {v!r}")
    return int(v)


def _evaluate(paper, key: str, w: dict, space, node, cid: str) -> dict:
    """`evaluate` on a point that is one."""
    from .witnesses import recompute_witness
    if paper is not None and paper.evaluate is not None:
        out = paper.evaluate(node.id if node else key, w)
        if out is not None:
            return out
    if key.startswith("repair:"):
        fn = space[cid].repair_recompute
        if fn is None:
            raise ValueError(f"{key} is not a relation at a point: its checks and witnesses are in 'rue-verify claims "
                             f"--id {cid} -v' (repairs that are relations at a point declare their recomputation)")
        lhs, rhs = fn(w["params"])
        return {"node": key, "claim": cid, "lhs": lhs, "rhs": rhs, "relation": "<=",
                "holds": relation_holds(lhs, rhs, "<=")}
    relation = w.get("relation", node.relation if node else "<=")
    lhs, rhs = recompute_witness(space[cid], w)
    return {"node": node.id if node else key, "claim": cid, "lhs": lhs, "rhs": rhs, "relation": relation,
            "holds": relation_holds(lhs, rhs, relation, w.get("tol"))}


def relation_holds(lhs: float, rhs: float, relation: str, tol: float | None = None) -> bool:
    """Whether `lhs relation rhs` holds ('<=', '>=', '==', '<', or '~': within `tol`, which it needs)."""
    if relation == "~" and tol is None:
        raise ValueError("the relation '~' (approximately) needs the witness's tol: |lhs - rhs| <= tol")
    if relation not in ("<=", ">=", "==", "<", "~"):
        raise ValueError(f"unknown relation {relation!r}: one of <=, >=, ==, <, ~")
    return bool({"<=": lambda: lhs <= rhs, ">=": lambda: lhs >= rhs, "==": lambda: lhs == rhs,
                 "<": lambda: lhs < rhs, "~": lambda: abs(lhs - rhs) <= tol}[relation]())


def paper_graph(paper, results: list[ClaimResult]) -> Graph:
    """`paper`'s graph from a run's results (`resolve` on `paper_table`, with its repairs' replaced
    nodes): the one graph every reader of a run reads."""
    from .claims import REGISTRY
    space = REGISTRY.of(paper.name) if paper is not None else dict(REGISTRY)
    return resolve(results, paper_table(paper, space.values()), dict(paper.replaces) if paper else None,
                   known=space)
