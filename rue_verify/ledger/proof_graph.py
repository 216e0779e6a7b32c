"""The paper's proofs as a graph: every theorem, lemma, proposition, labelled equation and unlabelled
step that the appendix proofs and the main-text proof outline use (and the Section 2 definition a
repair's proof rests on), each a node with the nodes its proof in the text cites (read off the proofs:
the paper's argument; the engine derives what our checks used
from their methods) and its claim (the ledger's check of that step). The engine resolves it
(`rue_verify.verify.graph`: statuses named by the method that decided them, proof statuses, the
repairs joined through the nodes their steps rest on); this module holds the table (`PAPER`), the
theorems `trees` prints, and `evaluate`, a node's own relation at a point or on a reward history.
"""

from __future__ import annotations

from ..verify import graph as _graph
from ..verify.claims import ClaimResult
from ..verify.graph import BAD, DECIDED_NODE, OPEN, STATUS, Graph, Node, nodes_json  # noqa: F401  (the graph's vocabulary)


def _n(id: str, kind: str, location: str, statement: str, cites=(), claim=None, *, label: str | None = "",
       **kw) -> Node:
    return Node(id, kind, location, statement, tuple(cites), claim, label=id if label == "" else label, **kw)


#: the paper's proofs (Appendix A.1-A.5 and the proof outline of Section 5), read off the text, and the
#: Section 2 definition SEC2-LOWER-CHAIN's repair rests on
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
       "the choice of c", ("fact-3/left",), "LEM-A1-STEPS", label=None,
       sampled_because="the steps are claimed 'for K large enough' with no threshold, so no domain box can be named "
                       "for them; they are evaluated on every K up to the mode's K_max and, where they involve alpha, "
                       "on a grid of alpha"),
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
    # Section 2, outside the proofs above: a repair's proof rests on it (SEC2-LOWER-CHAIN's), and a step that
    # rests on a claim names a node of the graph
    _n("H-def", "definition", "Section 2 (the complexity H)", "H = sum_k Delta_k^-2 with Delta_{i*} = Delta_min; "
       "hence H >= 2 Delta_min^-2", (), "SEC2-H-DEF", label=None),
)

#: edges a proof uses without labelling or citing the node (the test that reads the edges from the
#: LaTeX holds every other edge of a theorem to its proof's text), each with where the proof uses it
IMPLICIT_EDGES = {
    ("var-lemma", "posterior-mu"): "the last step applies the Gaussian tail to muhat - mu, whose law N(0, tau^2) is "
                                   "eq. posterior-mu, not cited there",
}

#: each repair on the theorems' repaired routes: the paper's node it replaces and, in a few words, what
#: it changes (the proof figure draws it so; the statement itself is the repair's)
REPAIRS = {
    "repair:THM-GAP": ("lemma-true", "C_K = 1.4 + sqrt(2 ln(K+1)) for c_K"),
    "repair:THM-FAIL": ("them-R", "C_K, eta_repaired, n >= 4K-2, T_1 - 1, repaired Pr(not E)"),
    "repair:THM-REGRET": ("them-R-Bayes", "sqrt of the repaired e_n, no kappa"),
    "repair:PF-E1": ("prob-dk-v1", "threshold at ctilde(T_1 - 1)"),
    "repair:LEM-TK-UP": ("Tk_up1", "E from round 2K"),
    "repair:LEM-TK-LOW": ("Tk_lowv2", "arm 1's count one pull lower"),
    "repair:PF-T1N-E2": ("eqn:T1n", "E from round 2K, eta_repaired"),
    "repair:PF-EBAR-FINAL": ("decomk-v3", "through the reward-table event E'"),
    "repair:PF-ETA-COND": ("eta-cond", "beta_1 = 1"),
    "repair:LEM-TAU-LOWER": ("sec:tau/lower", "sigma^2/(K(T_k sigma0^2 + sigma^2)) in the factor"),
}

#: the theorems `trees` prints, in the paper's order
THEOREMS = ("lemma-true", "var-lemma", "them-R", "them-R-Bayes")


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
    return _graph.node_for_claim(cid, PAPER)


def resolve(results: list[ClaimResult]) -> Graph:
    """The paper's graph from a ledger run's results (`verify.graph.paper_graph` on the paper's plug-in:
    the table `PAPER` and a node for each claim of your own); a ledger run resolves it once
    (`ledger.collect`), and its readers take `results.graph`."""
    from . import PAPER as paper
    return _graph.paper_graph(paper, results)


def trees(g: Graph) -> list[str]:
    """One paragraph per theorem of the paper (`THEOREMS`) and the tree of its proof."""
    return _graph.trees(g, THEOREMS)


#: the nodes that are statements about a reward history, with the history steps that state them
#: (`proof_histories.STEPS`, as step and route): `evaluate` computes their own relation on a history
HISTORY_STEPS = {"Tk_up1": {("Tk_up1", "paper")}, "repair:LEM-TK-UP": {("Tk_up1", "repaired")},
                 "Tk_lowv2": {("Tk_lowv2", "paper")}, "repair:LEM-TK-LOW": {("Tk_lowv2-shifted", "repaired")},
                 "eqn:T1n": {("eqn:T1n", "paper")}, "repair:PF-T1N-E2": {("eqn:T1n", "repaired")},
                 "regret-decomV": {("regret-decomV", "paper")}, "prob-dk-v1": {("prob-dk-v1", "paper")},
                 "repair:PF-E1": {("gap-repaired", "repaired")}}


def evaluate_history(key: str, w: dict) -> dict | None:
    """A history node's own relation on the history a witness carries (replayed by the plain
    reference RUE), None for a node that is no statement about a history (the engine evaluates it,
    `verify.graph.evaluate`): a point without a history, or a history of another step, is refused,
    since the relation is about a history and a point alone says nothing of it."""
    from .proof_histories import recompute
    steps = HISTORY_STEPS.get(key)
    q = w["params"]
    if steps is None and "history" not in q:
        return None
    if "history" not in q or "step" not in q:
        raise ValueError(f"{key} is a statement about a reward history on E: --at needs a history witness "
                         "(params with step, route and history: pulls, rewards, means), as 'rue-verify claims -v' "
                         "prints them")
    if steps is not None and (q["step"], q.get("route")) not in steps:
        raise ValueError(f"the witness is of step {q['step']} ({q.get('route')} route), not of {key} "
                         f"({', '.join(f'{s} ({r})' for s, r in sorted(steps))})")
    lhs, rhs = recompute(w)
    relation = w.get("relation", "<=")
    return {"node": key, "step": q["step"], "route": q.get("route"), "lhs": lhs, "rhs": rhs, "relation": relation,
            "holds": _graph.relation_holds(lhs, rhs, relation, w.get("tol"))}


def evaluate(key: str, at: dict) -> dict:
    """A node's relation at a point (a witness's params, or a whole witness), both sides computed again
    from scratch (`verify.graph.evaluate` on the paper's plug-in; history nodes by `evaluate_history`)."""
    from . import PAPER as paper
    return _graph.evaluate(paper, key, at)
