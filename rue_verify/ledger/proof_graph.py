"""The proofs as a graph: every theorem, lemma, proposition, labelled equation and unlabelled step
that the appendix proofs and the main-text proof outline use, each a node with the nodes it uses (read
off the proofs), its claim (the ledger's check of that step) and a computed status; the repairs'
proofs joined to it through the nodes their steps rest on (`core.Rests`).

A node's status is its statement's, computed by the ledger and named by the method that decided it:
`certified` (sympy, exact or interval arithmetic), `exhausted` (every case of a finite domain: every
reward history up to a length, at the parameter points the finding names), `sampled` (a search or a
simulation of points found no counterexample), `refuted`, `undefined`, `inconsistent`, `conditional`,
`inconclusive` (a check ran and could not decide: an undecided simulation, an empirical repair that
its held-out half did not confirm), `vacuous` (nothing was tested), `read` (only a reading of the text
holds), `argued` (no machine check), or
`definition`. A node's findings are those that declare it (`core.about`; the claim's undeclared
findings belong to the claim's own node): the graph never reads a finding's text. A node that uses
others has a proof status besides: `proved` when every node below it, all the way down, is
certified, exhausted, sampled or a definition (`weakest` names the weakest and where); `argued` when
some is only argued, vacuous or inconclusive (not established); `broken` when some is refuted,
undefined, inconsistent or conditional (`broken_at` names them). The two are separate: a true
statement can have a broken proof.

`resolve(results)` settles the repairs' steps that rest on other nodes (once the whole ledger has
run) and returns the graph; `nodes_json` and `trees` are its two views (`rue-verify proofs`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .core import DECIDED, REGISTRY, SEVERITY, ClaimResult, settle_proof, weakest
from .witnesses import recompute_witness

#: a node's statement status (module docstring); the first four break a proof that uses them
BAD = ("refuted", "undefined", "inconsistent", "conditional")
#: statuses that establish a node, strongest first (a definition is as good as a certificate)
DECIDED_NODE = ("definition",) + DECIDED
#: statuses that leave a node not established ('read': only a reading of the text holds)
OPEN = ("inconclusive", "vacuous", "read", "argued")
STATUS = DECIDED_NODE + OPEN + BAD


@dataclass(frozen=True)
class Node:
    """One node of the paper's proofs. `label`: its LaTeX label (None for an unlabelled step);
    `aliases`: other labels that name it (the main text's copies `*-main`, the section holding its
    proof); `claim`: the ledger claim that checks it (a claim that checks several nodes declares, on
    each finding, the node it decides: `core.about`); `relation`: how its witness reads (lhs relation
    rhs)."""

    id: str
    kind: str
    location: str
    statement: str
    uses: tuple[str, ...] = ()
    claim: str | None = None
    label: str | None = None
    aliases: tuple[str, ...] = ()
    relation: str = "<="


def _n(id: str, kind: str, location: str, statement: str, uses=(), claim=None, *, label: str | None = "",
       **kw) -> Node:
    return Node(id, kind, location, statement, tuple(uses), claim, label=id if label == "" else label, **kw)


#: the paper's proofs (Appendix A.1-A.5 and the proof outline of Section 5), read off the text
PAPER: tuple[Node, ...] = (
    _n("lemma-true", "theorem", "Theorem 3.1", "e_*(alpha) <= c_K alpha/sigma0 for mu_k iid N(mu0, sigma0^2)",
       ("lem:bound-D2", "A1:every-K"), "THM-GAP", aliases=("sec:lemProof",)),
    _n("A1:every-K", "step", "Appendix A.1, end of the proof", "Lemma A.1's constant, proved 'for K large enough', "
       "taken as c_K at every K >= 2", (), "THM-GAP", label=None),
    _n("lem:bound-D2", "lemma", "Lemma A.1", "Pr(X_(1) - X_(2) <= alpha) <= C (ln K)^(3/2) alpha",
       ("A1:formula", "A1:steps", "fact-2", "fact-3/left"), "LEM-A1"),
    _n("A1:formula", "step", "Appendix A.1, proof of Lemma A.1", "eta(alpha) = 1 - K int Phi^(K-1)(x) f(x + alpha) dx "
       "and its derivative", ("fact-2",), "LEM-A1-FORMULA", label=None),
    _n("A1:steps", "step", "Appendix A.1, proof of Lemma A.1", "the bounds on T_1, T_2, a_K, (1 - 1/x)^x <= 1/e and "
       "the choice of c", ("fact-3/left",), "LEM-A1-STEPS", label=None),
    _n("MGF-inequality", "fact", "Appendix A.5, Fact 1", "Pr(X >= alpha) <= exp(-alpha^2/(2 sigma^2)) for "
       "X ~ N(0, sigma^2)", (), "FACT-1-3", aliases=("sec:property",)),
    _n("fact-2", "fact", "Appendix A.5, Fact 2", "the joint density of the top two order statistics", (), "FACT-1-3",
       label=None),
    _n("fact-3/left", "fact", "Appendix A.5, Fact 3", "the left Mills-ratio bound t/(t^2+1) phi(t) <= 1 - Phi(t)",
       (), "FACT-1-3", label=None),
    _n("fact-3", "fact", "Appendix A.5, Fact 3", "the Mills-ratio bounds and Pr(X_(2) < t)", ("fact-3/left",),
       "FACT-1-3", label=None),
    _n("posterior-mu", "equation", "Section 4.1 (eqs. posterior-mu, blup, MSE)", "mu_k | H_t ~ N(muhat_k, tau_k^2)",
       (), "PROP-POST", aliases=("blup", "MSE")),
    _n("var-lemma", "proposition", "Proposition 4.1", "Pr(muhat_k >= muhat_i* | Delta_k, H_n) <= exp(-Delta_k^2/"
       "(8 tau_k^2)) + exp(-Delta_k^2/(8 tau_i*^2))", ("MGF-inequality", "posterior-mu"), "PROP-41",
       aliases=("sec:proProof",)),
    _n("tilde_c", "definition", "Section 5.2 (eq. tilde_c)", "ctilde_k = sqrt(2 sigma0^2 sigma^2 log n/(T_k sigma0^2 "
       "+ sigma^2))"),
    _n("E2", "definition", "Proof of Theorem 5.1", "E_2 = {Delta_min >= 2(1+eta) sqrt((K-1) beta sigma^2 log n/n)} "
       "(the label also marks the event E_3k)"),
    _n("sec:tau/upper", "lemma", "Lemma sec:tau, right side", "tau_k^2 <= ttau_k^2 (1 + sigma^2/(K sigma0^2))", (),
       "LEM-TAU-UPPER", label=None),
    _n("sec:tau/lower", "lemma", "Lemma sec:tau, left side", "tau_k^2 >= ttau_k^2 (1 + sigma0^2/(K (sigma0^2 + "
       "sigma^2)))", (), "LEM-TAU-LOWER", label=None),
    _n("sec:tau", "lemma", "Lemma sec:tau (Lemmas 1 and 5 of RB:21)", "both sides of Lemma sec:tau",
       ("sec:tau/upper", "sec:tau/lower")),
    _n("toTilde", "equation", "Proof of Theorem 5.1 (eq. toTilde)", "c_k <= sqrt(beta) ctilde_k",
       ("sec:tau/upper", "tilde_c"), "PF-TOTILDE"),
    _n("regret-decomV", "equation", "Proof of Theorem 5.1 (eq. regret-decomV)", "e_n <= Pr(Delta_J < eta(c_1 + c_J) "
       "| E) + Pr(not E)", (), "PF-DECOMP", aliases=("regret-decomV-main",)),
    _n("eta-cond", "step", "Proof of Theorem 5.1 (before eq. prob-dk-v1)", "eta = 1/(1 + 4 rho) satisfies 2 eta "
       "(1 + eta) sqrt(beta/beta_1) + eta - 1 <= 0", (), "PF-ETA-COND", label=None),
    _n("Tk_up1", "equation", "Lemma TwoBoundOnC (eq. Tk_up1)", "on E, T_k <= 2 + 2 Delta_k^-2 (1+eta)^2 beta sigma^2 "
       "log n", ("sec:tau/upper",), "LEM-TK-UP", aliases=("Tk_up",)),
    _n("Tk_lowv2", "equation", "Lemma TwoBoundOnC (eq. Tk_lowv2)", "on E, (1-eta) sqrt(beta_1) ctilde_k <= (1+eta) "
       "sqrt(beta) ctilde_1 + Delta_k", ("sec:tau/lower", "sec:tau/upper"), "LEM-TK-LOW"),
    _n("TwoBoundOnC", "lemma", "Lemma TwoBoundOnC", "eqs. Tk_up1 and Tk_lowv2 on E", ("Tk_up1", "Tk_lowv2"),
       aliases=("sec:lemma",)),
    _n("prob-dk", "equation", "Proof of Theorem 5.1 (eq. prob-dk)", "Pr(Delta_k < eta sqrt(beta)(ctilde_1 + ctilde_k)"
       " | E) <= Pr(Delta_k < eta(1+eta) sqrt(beta) ctilde_k | E_1, E) + Pr(not E_1 | E)",
       ("toTilde",), "PF-E1"),
    # the appendix uses the eta-condition and Lemma TwoBoundOnC after eq. prob-dk, to show that its first
    # probability is zero: they are edges of prob-dk-v1, not of prob-dk
    _n("prob-dk-v1", "equation", "Proof of Theorem 5.1 (eq. prob-dk-v1)", "Pr(Delta_k < eta sqrt(beta)(ctilde_1 + "
       "ctilde_k) | E) <= Pr(not E_1 | E)", ("prob-dk", "eta-cond", "TwoBoundOnC", "tilde_c"), "PF-E1"),
    _n("eqn:T1n", "equation", "Proof of Theorem 5.1 (eq. eqn:T1n)", "T_1 >= n - 2(K-1)(1+eta)^2 Delta_min^-2 beta "
       "sigma^2 log n - 2(K-1), and its consequence on E_2", ("Tk_up1", "E2"), "PF-T1N-E2",
       aliases=("eqn:T1n-main",)),
    _n("prob-dk-v2", "equation", "Proof of Theorem 5.1 (eq. prob-dk-v2)", "the two gap probabilities bounded by the "
       "gap law", ("prob-dk-v1", "eqn:T1n", "E2", "lem:bound-D2", "lemma-true"), "PF-DK-V2"),
    _n("decomk-v2", "equation", "Proof of Theorem 5.1 (eq. decomk-v2)", "Pr(not E) <= sum_k sum_t [Pr(pooled tail) + "
       "Pr(not E_3k)]", ("posterior-mu", "sec:tau/lower"), "PF-EBAR-DECOMP", aliases=("decomk-v2-main",)),
    _n("nu-t", "step", "Proof of Theorem 5.1 (before eq. e31)", "nu_t >= K^-1 (sigma0^2 + nu^2/2)", (), "PF-NU-T",
       label=None),
    _n("e31", "equation", "Proof of Theorem 5.1 (eq. e31)", "the pooled mean's tail bound",
       ("nu-t", "MGF-inequality"), "PF-E31", aliases=("e31-main",)),
    _n("E3k-tail", "step", "Proof of Theorem 5.1 (the bound on Pr(not E_3k))", "Pr(not E_3k) <= 2 exp(-beta_1 "
       "sigma0^2 log n/(delta (1+4 rho)^2 (2 sigma0^2 + sigma^2)))", ("MGF-inequality",), "PF-E3K", label=None),
    _n("decomk-v3", "equation", "Proof of Theorem 5.1 (eq. decomk-v3)", "Pr(not E) <= 2K n^(-mK+1) + 2K n^(-sigma^2 "
       "m/(delta(2 sigma0^2 + sigma^2))+1)", ("decomk-v2", "e31", "E3k-tail"), "PF-EBAR-FINAL",
       aliases=("decomk-v3-main",)),
    _n("them-R", "theorem", "Theorem 5.1", "the bound on RUE's failure probability e_n",
       ("regret-decomV", "prob-dk-v1", "prob-dk-v2", "decomk-v3"), "THM-FAIL",
       aliases=("sec:proofthem1", "sec:them1", "sec:proof-outline")),
    _n("fact:range", "fact", "Proof of Theorem 5.2", "E[mu_(1) - mu_(K)] <= 2 sigma0 sqrt(2 log K)", (), "FACT-RANGE",
       label=None),
    _n("Rn-en", "equation", "Proof of Theorem 5.2 (eq. Rn-en)", "sr_n <= e_n E[mu_(1) - mu_(K)] <= 2 sigma0 "
       "sqrt(2 log K) e_n", ("fact:range",), "PF-REGRET-STEP"),
    _n("them-R-Bayes", "theorem", "Theorem 5.2", "the bound on RUE's simple Bayes regret sr_n",
       ("Rn-en", "them-R"), "THM-REGRET", aliases=("sec:proofthem2",)),
)

#: the theorems `trees` prints, in the paper's order
THEOREMS = ("lemma-true", "var-lemma", "them-R", "them-R-Bayes")


@dataclass
class Graph:
    """Every node (the paper's and the repairs') with its status, witness and, where it has one, its
    proof status."""

    nodes: dict[str, dict]

    def node(self, key: str) -> dict:
        """A node by id, label or alias."""
        for n in self.nodes.values():
            if key == n["id"] or key == n["label"] or key in n["aliases"]:
                return n
        raise KeyError(f"no node {key!r}; known: {', '.join(self.nodes)}")


def by_label() -> dict[str, Node]:
    """Every label and alias of the paper's nodes -> its node (the LaTeX cross-check reads it)."""
    out = {}
    for n in PAPER:
        for key in (n.label, *n.aliases):
            if key:
                out[key] = n
    return out


def node_for_claim(cid: str) -> str:
    """The node a claim's witnesses are evaluated at: the paper's node it checks, else its own id."""
    return next((n.id for n in PAPER if n.claim == cid), cid)


def findings_of(r: ClaimResult, node: str) -> list:
    """The findings of claim result `r` that decide `node`: those that declare it, else (for the
    claim's own node) those that declare no node. Never the text."""
    mine = [f for f in r.findings if f.node == node]
    if mine:
        return mine
    return [f for f in r.findings if f.node is None]


def _decided(fs: list) -> tuple[str, dict | None]:
    """A node's status from its findings: the worst verdict, and for a pass the weakest method."""
    if not fs:
        return "argued", None
    worst = min((f.verdict for f in fs), key=SEVERITY.index)
    witness = next((f.witness for f in fs if f.verdict == worst and f.witness), None)
    if worst == "holds":                 # a reading of the text is no check: it decides nothing alone
        checks = [f for f in fs if f.verdict == "holds" and f.kind != "reading"]
        return (weakest(checks) if checks else "read"), None
    if worst == "vacuous":               # nothing was tested: not a pass
        return "vacuous", None
    if worst == "inconclusive":          # a check that could not decide, or no check at all
        return ("inconclusive" if any(f.kind != "reading" for f in fs if f.verdict == "inconclusive")
                else "argued"), witness
    return worst, witness


def _status_of_repair(rep) -> str:
    v = rep.verdict
    if v == "inconclusive":              # a proof that is not proved is argued; a check that did not decide is not
        return "argued" if rep.proof and rep.proof["status"] != "proved" else "inconclusive"
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


def resolve(results: list[ClaimResult]) -> Graph:
    """Settle every repair's steps that rest on other nodes (their statuses computed here, in the
    order the references need, a circle counting as argued) and build the graph."""
    res = {r.id: r for r in results}
    nodes: dict[str, dict] = {}
    for n in PAPER:
        if n.claim and n.claim in res:
            status, w = _decided(findings_of(res[n.claim], n.id))
        elif n.claim:
            status, w = "argued", None
        else:
            status, w = ("definition" if n.kind == "definition" else None), None
        nodes[n.id] = {"id": n.id, "label": n.label, "aliases": list(n.aliases), "kind": n.kind,
                       "location": n.location, "statement": n.statement, "uses": list(n.uses), "claim": n.claim,
                       "status": status, "witness": w, "route": "paper", "relation": n.relation}
    for n in PAPER:           # a node without a check of its own (a lemma that is the sum of its parts)
        if nodes[n.id]["status"] is None:
            nodes[n.id]["status"] = _from_parts([nodes[u]["status"] for u in n.uses])
    repairs = {f"repair:{r.id}": (r, rep) for r in results for rep in r.repairs[:1]}
    state: dict[str, str] = {}

    def canonical(key: str) -> str:            # a claim id names the paper's node it checks
        return key if key in nodes or key.startswith("repair:") else node_for_claim(key)

    def status(key: str) -> str:
        key = canonical(key)
        if key in nodes and key not in repairs:
            return nodes[key]["status"]
        if key not in repairs:
            return "argued"                    # a node the run did not reach
        if state.get(key) == "visiting":
            return "argued"
        if key in state:
            return state[key]
        state[key] = "visiting"
        r, rep = repairs[key]
        for f in rep.findings:
            if not f.proof:
                continue
            for step in f.proof["steps"]:
                if step["uses"] is None:
                    continue
                step["uses"] = canonical(step["uses"])
                s = status(step["uses"])
                step["status"] = ("refuted" if s in BAD else "certified" if s == "definition" else
                                  s if s in DECIDED else "argued")
                step["detail"] = f"rests on {step['uses']} ({s})"
            settle_proof(f)
        state[key] = _status_of_repair(rep)
        return state[key]

    for key, (r, rep) in repairs.items():
        status(key)
        uses = [s["uses"] for f in rep.findings if f.proof for s in f.proof["steps"] if s["uses"]]
        node = node_for_claim(r.id)
        nodes[key] = {"id": key, "label": None, "aliases": [], "kind": "repair", "location": f"repair of {r.id}",
                      "statement": rep.statement, "uses": uses, "claim": r.id, "status": state[key],
                      "witness": None, "route": "repair", "repairs": node, "relation": "<=",
                      "proof_steps": [s for f in rep.findings if f.proof for s in f.proof["steps"]],
                      "proof": rep.proof["status"] if rep.proof else None,
                      "broken_at": rep.proof["broken_at"] if rep.proof else []}
    for key, n in nodes.items():
        if n["route"] == "paper" and n["uses"]:
            n["proof"], n["broken_at"], n["weakest"] = _proof_status(key, nodes)
    return Graph(nodes)


def _proof_status(key: str, nodes: dict) -> tuple[str, list[str], str]:
    """(proved | argued | broken, the bad nodes below `key` nearest first, the weakest method below
    and where: "sampled at prob-dk")."""
    bad, argued, seen, queue = [], False, {key}, list(nodes[key]["uses"])
    low, where = "definition", ""
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
        queue.extend(nodes[u]["uses"])
    return ("broken" if bad else "argued" if argued else "proved"), bad, (f"{low} at {where}" if where else low)


def nodes_json(g: Graph) -> list[dict]:
    """The graph as `rue-verify proofs --json` prints it: one object per node."""
    out = []
    for n in g.nodes.values():
        d = {k: n[k] for k in ("id", "label", "kind", "location", "statement", "status", "uses", "witness", "claim",
                               "route")}
        if "proof" in n:
            d["proof"], d["broken_at"] = n["proof"], n["broken_at"]
            if "weakest" in n:
                d["weakest"] = n["weakest"]
        if n["route"] == "repair":
            d["repairs"], d["steps"] = n["repairs"], n["proof_steps"]
        out.append(d)
    return out


def trees(g: Graph) -> list[str]:
    """One paragraph per theorem: its statement's status, its proof's, where it breaks, and its repair."""
    lines = []
    for key in THEOREMS:
        n = g.nodes[key]
        rep = g.nodes.get(f"repair:{n['claim']}")
        text = (f"{n['location']} ({key}): statement {n['status']}; proof {n['proof']}"
                + (f" at {', '.join(n['broken_at'])}" if n["broken_at"] else ""))
        if rep:
            text += (f"; repair: statement {rep['status']}, proof {rep['proof']}"
                     + (f" at {', '.join(rep['broken_at'])}" if rep["broken_at"] else ""))
        lines.append(text)
        lines += _tree(g, key, "  ", set())
        if rep:
            lines.append("  repaired route:")
            lines += _tree(g, rep["id"], "    ", set())
    return lines


def _tree(g: Graph, key: str, indent: str, seen: set) -> list[str]:
    out = []
    for u in g.nodes[key]["uses"]:
        n = g.nodes[u]
        again = u in seen
        out.append(f"{indent}- {u} [{n['status']}" + (f"; proof {n['proof']}" if n.get("proof") else "") + "]"
                   + (" (above)" if again else f": {n['statement'][:90]}"))
        if not again:
            seen.add(u)
            out += _tree(g, u, indent + "  ", seen)
    return out


#: the nodes that are statements about a reward history, with the history steps that state them
#: (`proof_histories.STEPS`, as step and route): `evaluate` computes their own relation on a history
HISTORY_STEPS = {"Tk_up1": {("Tk_up1", "paper")}, "repair:LEM-TK-UP": {("Tk_up1", "repaired")},
                 "Tk_lowv2": {("Tk_lowv2", "paper")}, "repair:LEM-TK-LOW": {("Tk_lowv2-shifted", "repaired")},
                 "eqn:T1n": {("eqn:T1n", "paper")}, "repair:PF-T1N-E2": {("eqn:T1n", "repaired")},
                 "regret-decomV": {("regret-decomV", "paper")}, "prob-dk-v1": {("prob-dk-v1", "paper")},
                 "repair:PF-E1": {("gap-repaired", "repaired")}}


def _evaluate_history(key: str, steps, w: dict) -> dict:
    """A history node's own relation on the history a witness carries (replayed by the plain
    reference RUE): a point without a history, or a history of another step, is refused, since the
    relation is about a history and a point alone says nothing of it."""
    from .proof_histories import recompute
    q = w["params"]
    if "history" not in q or "step" not in q:
        raise ValueError(f"{key} is a statement about a reward history on E: --at needs a history witness "
                         "(params with step, route and history: pulls, rewards, means), as 'rue-verify claims -v' "
                         "prints them")
    if steps is not None and (q["step"], q.get("route")) not in steps:
        raise ValueError(f"the witness is of step {q['step']} ({q.get('route')} route), not of {key} "
                         f"({', '.join(f'{s} ({r})' for s, r in sorted(steps))})")
    lhs, rhs = recompute(w)
    relation = w.get("relation", "<=")
    holds = {"<=": lhs <= rhs, ">=": lhs >= rhs, "<": lhs < rhs}[relation]
    return {"node": key, "step": q["step"], "route": q.get("route"), "lhs": lhs, "rhs": rhs, "relation": relation,
            "holds": bool(holds)}


def evaluate(key: str, at: dict) -> dict:
    """A node's relation at a point (a witness's params, or a whole witness): {"lhs", "rhs", "relation",
    "holds"}, both sides computed again from scratch by the recomputation its claim declares. The
    relation is the witness's where given (the node's otherwise); '~' holds within the witness's tol."""
    node = next((n for n in PAPER if key in (n.id, n.label, *n.aliases)), None)
    cid = node.claim if node else (key.split(":", 1)[1] if key.startswith("repair:") else key)
    if cid not in REGISTRY:
        raise KeyError(f"no node or claim {key!r}")
    w = at if "params" in at else {"params": at}
    steps = HISTORY_STEPS.get(node.id if node else key)
    if steps is not None or "history" in w["params"]:
        return _evaluate_history(node.id if node else key, steps, w)
    if key.startswith("repair:"):
        raise ValueError(f"{key} is the repaired statement: its checks and witnesses are in 'rue-verify claims --id "
                         f"{cid} -v' (a point-wise relation is evaluated for the paper's nodes and for repairs on "
                         "reward histories)")
    relation = w.get("relation", node.relation if node else "<=")
    lhs, rhs = recompute_witness(REGISTRY[cid], w)
    if relation == "~" and "tol" not in w:
        raise ValueError("the relation '~' (approximately) needs the witness's tol: |lhs - rhs| <= tol")
    holds = {"<=": lhs <= rhs, ">=": lhs >= rhs, "==": lhs == rhs, "<": lhs < rhs,
             "~": abs(lhs - rhs) <= w.get("tol", 0.0)}[relation]
    return {"node": node.id if node else key, "claim": cid, "lhs": lhs, "rhs": rhs, "relation": relation,
            "holds": bool(holds)}
