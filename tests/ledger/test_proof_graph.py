"""The proof graph: every label and reference of the appendix proofs and the proof outline is a node
(the LaTeX cross-check), every node has a computed status, no repair holds on a proof that is not
proved, an unchecked step cannot pass, and every refuted finding's witness recomputes through the
node it belongs to (`rue-verify proofs --node ID --at JSON`)."""

import copy
import json
import re
from pathlib import Path

import pytest

from rue_verify.cli import main
from rue_verify.ledger import proof_graph
from rue_verify.verify import Argued, Finding, Repair, Rests, from_proof
from rue_verify.verify import graph as engine_graph

#: the session's quick ledger (a minute and a half) is built once: these modules share one xdist worker
pytestmark = pytest.mark.xdist_group("quick_ledger")

PAPER = Path(__file__).resolve().parents[3] / "shared" / "paper" / "rue-bayesian-bai.tex"


def _proof_text() -> str:
    """The main-text proof outline and the appendix proofs (A.1-A.5, before the experiments)."""
    tex = PAPER.read_text()
    outline = tex[tex.index(r"\label{sec:proof-outline}"):tex.index(r"\section{Experiments}")]
    appendix = tex[tex.index(r"\subsection{Proof of Theorem \ref{lemma-true}}"):
                   tex.index(r"\subsection{More Results of Experiments}")]
    return outline + appendix


@pytest.mark.skipif(not PAPER.exists(), reason="the paper is beside the repository (shared/paper)")
def test_every_label_and_reference_of_the_proofs_is_a_node():
    text = _proof_text()
    labels = set(re.findall(r"\\label\{([^}]*)\}", text))           # commented-out labels included
    refs = set(re.findall(r"\\(?:eq|c|C)?ref\{([^}]*)\}", text))
    assert len(labels) >= 20 and len(refs) >= 15                       # the regexes found the proofs
    known = proof_graph.by_label()
    assert sorted((labels | refs) - set(known)) == []
    for n in proof_graph.PAPER:                                          # every citation names a node
        assert all(u in {m.id for m in proof_graph.PAPER} for u in n.cites), n.id


@pytest.fixture(scope="module")
def graph(quick_ledger):
    return quick_ledger.graph          # the one graph the run resolved


def _below(nodes: dict, key: str) -> set[str]:
    seen, todo = set(), list(nodes[key]["uses"]) + list(nodes[key]["cites"])   # used or cited: the text's route
    while todo:
        u = todo.pop()
        if u not in seen:
            seen.add(u)
            todo += nodes[u]["uses"] + nodes[u]["cites"]
    return seen


def test_every_node_has_a_computed_status_and_proofs_follow_their_steps(graph):
    """Read against the nodes below, not recomputed by the function under test: a proof is `proved`
    only when every node below it and its own inference are certified on their whole domain; a node
    whose statement fails never reads proved or checked; every break names a bad node below or the
    node's own proof or inference."""
    nodes = graph.nodes
    strong = ("certified", "definition")
    for n in nodes.values():
        assert n["status"] in proof_graph.STATUS, n["id"]
        if n["route"] != "paper" or "proof" not in n:
            continue
        below = _below(nodes, n["id"])
        if n["proof"] == "proved":
            assert all(nodes[u]["status"] in strong and not nodes[u].get("partial") for u in below), n["id"]
            own = n.get("own")
            assert (own["status"] == "proved") if own else n["status"] in strong, n["id"]
        if n["status"] in proof_graph.BAD:
            assert n["proof"] == "broken", n["id"]
        if n["proof"] == "broken":
            assert n["broken_at"], n["id"]
            for b in n["broken_at"]:
                assert (b in below and nodes[b]["status"] in proof_graph.BAD) or b.startswith(f"{n['id']} ("), b
        else:
            assert not n["broken_at"] and not any(nodes[u]["status"] in proof_graph.BAD for u in below), n["id"]
        if n["proof"] == "checked":          # names its weakest step, which is not a certificate on all of it
            assert n["weakest"] and (not n["weakest"].startswith("certified") or " on " in n["weakest"]), n
    # a theorem whose proof uses a refuted lemma is broken there
    assert "Tk_lowv2" in nodes["them-R"]["broken_at"]
    assert nodes["Tk_lowv2"]["status"] == "refuted"
    # Tk_lowv2 breaks at the lemma it uses and at its own induction step (the one-pull gap)
    assert "sec:tau/lower" in nodes["Tk_lowv2"]["broken_at"]
    assert any(b.startswith("Tk_lowv2 (its own proof") for b in nodes["Tk_lowv2"]["broken_at"])


def test_every_nodes_uses_are_what_its_methods_used(graph):
    """No typed-in edge feeds `uses`: a repair uses what its steps rest on, a checked paper node what its
    own proof's steps rest on (nothing if it has none), a node with no check of its own its parts; the
    text's citations are `cites`, the table's edges exactly."""
    table = {n.id: n for n in proof_graph.PAPER}
    for key, n in graph.nodes.items():
        rested = [s["uses"] for s in (n["proof_steps"] if n["route"] == "repair" else
                                      (n.get("own") or {}).get("steps", [])) if s["uses"]]
        if n["route"] == "repair" or (n["claim"] and key in table):
            assert n["uses"] == list(dict.fromkeys(rested)), (key, n["uses"], rested)
        else:
            assert n["uses_from"] == "parts" and not n["claim"], key
        if key in table:
            assert n["cites"] == (list(table[key].cites) if table[key].claim else []), key
    assert graph.nodes["prob-dk"]["uses"] == [] and graph.nodes["prob-dk"]["cites"] == ["toTilde"]


def test_every_uses_entry_is_a_node_of_the_graph(graph):
    """What a node uses (a repair's steps' rests, a checked node's own proof's, a node's parts) is a node of the
    graph, never a bare claim ID: a step that rests on a claim rests on the node that claim checks. SEC2-LOWER-
    CHAIN's repair rests on SEC2-H-DEF's node (H >= 2 Delta_min^-2), which is certified, not sampled."""
    stray = {key: [u for u in n["uses"] if u not in graph.nodes] for key, n in graph.nodes.items()}
    assert not {k: v for k, v in stray.items() if v}, stray
    lower = graph.nodes["repair:SEC2-LOWER-CHAIN"]
    assert "H-def" in lower["uses"] and "SEC2-H-DEF" not in lower["uses"], lower["uses"]
    assert graph.nodes["H-def"]["claim"] == "SEC2-H-DEF" and graph.nodes["H-def"]["status"] == "certified"
    step = next(s for s in lower["proof_steps"] if s["uses"] == "H-def")
    assert step["status"] == "certified", step


def test_no_repair_holds_on_a_proof_that_is_not_proved(quick_ledger):
    for r in quick_ledger:
        for rep in r.repairs:
            if rep.proof is not None and rep.verdict == "holds":
                assert rep.proof["status"] in ("proved", "checked"), (r.id, rep.proof)
                # 'proved' only when every step is certified on its whole domain
                steps = [s for f in rep.findings if f.proof for s in f.proof["steps"]]
                if rep.proof["status"] == "proved":
                    assert all(s["status"] == "certified" and not s.get("partial") for s in steps), r.id
                else:
                    assert rep.proof["weakest"] and not all(s["status"] == "certified" and not s.get("partial")
                                                            for s in steps), r.id
            if rep.proof is not None:
                assert not rep.proof["argued"] or rep.verdict != "holds", r.id


def test_an_argued_or_broken_step_keeps_a_repair_from_holding():
    ok = Finding("holds", "d", "x")
    argued = Repair("s", None, [from_proof([("a", Argued("a reason")), ("b", Argued("textbook"))], "d", "c"), ok])
    assert argued.verdict == "inconclusive" and argued.proof["argued"] == [1, 2]
    bare = Repair("s", None, [from_proof([("a", True)], "d", "c"), ok])       # a bare True certifies nothing
    assert bare.verdict == "inconclusive" and bare.proof["argued"] == [1]
    bad = Finding("refuted", "d", "y", {"params": {}, "lhs": 1, "rhs": 0, "relation": "<="})
    broken = Repair("s", None, [from_proof([("a", bad)], "d", "c"), ok])
    assert broken.verdict == "inconclusive" and broken.proof["status"] == "broken"
    assert "the statement holds" in broken.text() and "breaks at step 1" in broken.text()
    with pytest.raises(TypeError, match="must say why"):
        from_proof([("a", None)], "d", "c")
    pending = from_proof([("a", Rests("NOWHERE"))], "d", "c")
    assert pending.verdict == "inconclusive" and pending.proof["status"] == "pending"


def test_a_rest_on_a_refuted_node_breaks_the_repair_that_uses_it(quick_ledger):
    """Resolution reads the node's computed status: resting on the refuted Tk_lowv2 breaks a proof."""
    from rue_verify.verify import ClaimResult
    rep = Repair("s", None, [from_proof([("uses the paper's Tk_lowv2", Rests("LEM-TK-LOW"))], "d", "c")])
    extra = ClaimResult("X-TEST", "here", "s", "refuted", "", [Finding("refuted", "d", "x")], 0.0, repairs=[rep])
    # a copy: resolving settles the repairs' steps in place, and the session's ledger is shared
    g = proof_graph.resolve(copy.deepcopy(quick_ledger) + [extra])
    assert rep.verdict == "inconclusive" and rep.proof["broken_at"] == ["Tk_lowv2"]
    assert g.nodes["repair:X-TEST"]["proof"] == "broken"


def test_every_refuted_witness_recomputes_through_its_node(quick_ledger, capsys):
    """Every refuted finding names concrete values (never a limit, never a string) and `rue-verify
    proofs --node ... --at` computes both sides again from them."""
    seen = 0
    for r in quick_ledger:
        for f in r.findings:
            w = f.witness
            if f.verdict != "refuted":
                continue
            assert w and all(isinstance(w.get(s), (int, float)) for s in ("lhs", "rhs")), (r.id, f.detail[:120], w)
            node = proof_graph.node_for_claim(r.id)
            assert main(["proofs", "--node", node, "--at", json.dumps(w)]) == 0
            out = json.loads(capsys.readouterr().out)
            assert out["lhs"] == pytest.approx(w["lhs"], rel=1e-6) and out["rhs"] == pytest.approx(w["rhs"], rel=1e-6)
            assert out["holds"] is False, (r.id, out)
            seen += 1
    assert seen >= 10


def test_proofs_cli_refuses_half_a_query(capsys):
    assert main(["proofs", "--at", '{"K": 3}']) == 2
    assert "--node and --at go together" in capsys.readouterr().err
    assert main(["proofs", "--node", "no-such", "--at", "{}"]) == 2


def test_a_history_node_is_evaluated_on_a_history_and_a_repair_is_not_the_claim(quick_ledger, capsys):
    """`--node Tk_lowv2 --at` computes Tk_lowv2's own relation on the witness's history (it used to
    compute Lemma sec:tau's lower side, false at any point); a point without a history, a history of
    another step, and a repair node are refused with one line (a repair used to be evaluated as the
    claim it repairs)."""
    r = next(r for r in quick_ledger if r.id == "LEM-TK-LOW")
    w = next(f.witness for f in r.findings if f.witness and "history" in f.witness["params"])
    out = proof_graph.evaluate("Tk_lowv2", w)
    assert out["step"] == "Tk_lowv2" and out["holds"] is False and out["lhs"] > out["rhs"]
    for node, at, said in (("Tk_lowv2", {"K": 3, "T": [2, 9, 2]}, "needs a history witness"),
                           ("Tk_up1", w, "not of Tk_up1"),
                           ("repair:THM-FAIL", {"K": 4, "n": 100, "sigma0_sq": 1.0}, "not a relation at a point")):
        assert main(["proofs", "--node", node, "--at", json.dumps(at)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and said in err[0], err


def test_a_witness_or_point_that_is_not_one_is_refused_never_evaluated(quick_ledger, capsys):
    """A history cut short (it used to be zipped and called true), an arm out of range, NaN, a count of
    2.5, a number given as true and a variance of 0 are each one line naming what is wrong; an infinite
    value (JSON's 1e400) too."""
    r = next(r for r in quick_ledger if r.id == "LEM-TK-LOW")
    w = next(f.witness for f in r.findings if f.witness and "history" in f.witness["params"])

    def edited(path, value):
        x = copy.deepcopy(w)
        *head, last = path
        d = x["params"]
        for k in head:
            d = d[k]
        d[last] = value(d[last]) if callable(value) else value
        return x
    cases = [(("history", "rewards"), lambda v: v[:2], "history.rewards must be a list of"),
             (("history", "rewards"), lambda v: v[:-1], "history.rewards must be a list of"),
             (("history", "pulls"), lambda v: [9] + v[1:], "history.pulls[0] must be an arm in"),
             (("history", "means"), lambda v: [float("nan")] + v[1:], "history.means[0]"),
             (("K",), 2.5, "K must be an integer"),
             (("K",), True, "K: a number is wanted, not true"),
             (("sigma0_sq",), 0, "sigma0_sq must be a finite number > 0")]
    for path, value, said in cases:
        assert main(["proofs", "--node", "Tk_lowv2", "--at", json.dumps(edited(path, value))]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and said in err[0], (path, err)
    assert main(["proofs", "--node", "THM-GAP", "--at", '{"K": 36, "alpha": 1e400, "sigma0_sq": 1}']) == 2
    assert "finite" in capsys.readouterr().err
    assert main(["proofs", "--node", "THM-GAP", "--at", '{"K": 36, "alpha": 0.12, "sigma0_sq": 0}']) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot be evaluated" in err[0], err


def test_rewording_every_finding_moves_no_status(quick_ledger):
    """A node's findings are bound to it by identity (`Finding.node`), never by their text: with every
    finding's text (and every repair's) replaced, every node's status and proof status stay."""
    before = proof_graph.resolve(copy.deepcopy(quick_ledger))
    reworded = copy.deepcopy(quick_ledger)
    for r in reworded:
        for f in r.findings + [f for rep in r.repairs for f in rep.findings]:
            f.detail = "reworded"
            if f.proof:
                f.proof["conclusion"] = "reworded"
    after = proof_graph.resolve(reworded)
    assert {k: (n["status"], n.get("proof")) for k, n in before.nodes.items()} == \
        {k: (n["status"], n.get("proof")) for k, n in after.nodes.items()}


def test_a_node_status_names_the_method_and_nothing_passes_by_default():
    """A vacuous finding, a reading alone and a node without a check of its own whose part is
    inconclusive are not passes; a pass names how it was decided."""
    def status(*fs):
        return engine_graph._decided(list(fs))[0]
    assert status(Finding("vacuous", "d", "nothing tested")) == "vacuous"
    assert status(Finding("holds", "d", "the text says so", kind="reading")) == "read"
    assert status(Finding("holds", "d", "x", certified=True), Finding("holds", "d", "y", method="exhausted")) == \
        "exhausted"
    assert status(Finding("holds", "d", "x", method="exhausted"), Finding("holds", "d", "y")) == "sampled"
    assert engine_graph._from_parts(["certified", "inconclusive"]) == "argued"
    assert engine_graph._from_parts(["certified", "exhausted"]) == "exhausted"


def test_the_quick_graph_has_no_status_named_checked(graph):
    assert not [k for k, n in graph.nodes.items() if n["status"] == "checked"]


def test_the_repaired_history_steps_are_proved_for_every_n_and_name_what_they_rest_on(graph):
    """Issue 48's goal: the repaired Theorem 5.1's history steps are decided by the induction (every
    budget n), each resting on the lemma nodes it names; the exhaustive search beside each corroborates (it can
    refute, never weaken). Each proof is proved exactly where every case of its inductions is re-decided by cvc5
    and every node it rests on is proved; otherwise it is argued, its argued row naming the induction's case cvc5
    does not re-decide or the node not proved (`verify.second`)."""
    from rue_verify.certify import answers
    from rue_verify.verify import second
    rests = {"repair:LEM-TK-UP": {"sec:tau/upper"}, "repair:LEM-TK-LOW": {"repair:LEM-TAU-LOWER", "sec:tau/upper"},
             "repair:PF-E1": {"repair:LEM-TK-LOW", "repair:PF-ETA-COND"}, "repair:PF-T1N-E2": {"repair:LEM-TK-UP"}}
    for key, needs in rests.items():
        n = graph.nodes[key]
        assert needs <= set(n["uses"]), (key, n["uses"])
        cases = [c for s in n["proof_steps"] for c in second.cases(s)]
        undecided = [st for st, text in cases if not answers.answer(text, st)[0]]
        below = [u for u in n["uses"] if u in graph.nodes and graph.nodes[u]["proof"] not in ("proved", None)]
        if not undecided and not below:
            assert n["status"] == "certified" and n["proof"] == "proved", (key, n["status"], n["proof"])
            continue
        assert n["proof"] == "argued" and n["status"] != "certified", (key, n["status"], n["proof"])
        said = " ".join(s.get("detail", "") for s in n["proof_steps"] if s["status"] == "argued")
        assert all(f"case '{second._case_label(st)}'" in said for st in undecided), (key, said)
        assert all(f"rests on {u}" in said for u in below), (key, said)
        assert any("every budget n" in (s.get("detail", "") + str(s.get("text"))) or s["status"] == "certified"
                   and "z3" in s["text"] for s in n["proof_steps"]), key
    # the paper's forms are refuted by histories their induction's counterexample led to
    for key in ("Tk_up1", "Tk_lowv2"):
        assert graph.nodes[key]["status"] == "refuted" and graph.nodes[key]["proof"] == "broken"


def test_prob_dk_is_algebra_and_its_successor_carries_the_eta_condition(graph):
    """The appendix uses the eta-condition and Lemma TwoBoundOnC after eq. prob-dk, on the way to
    prob-dk-v1: those edges (and prob-dk-v1's printed-threshold inconsistency) belong to prob-dk-v1;
    prob-dk itself is decided by its own algebra."""
    uses = {n.id: set(n.cites) for n in proof_graph.PAPER}
    assert {"eta-cond", "TwoBoundOnC"} <= uses["prob-dk-v1"] and not {"eta-cond", "TwoBoundOnC"} & uses["prob-dk"]
    assert graph.nodes["prob-dk"]["status"] == "certified"
    assert graph.nodes["prob-dk-v1"]["status"] == "inconsistent"


def test_every_node_decided_by_sampling_says_why_nothing_stronger_applies(graph):
    """A paper node whose status is `sampled` carries the reason no proof or interval certificate
    decides it (`Node.sampled_because`); the nodes that have one are not sampled for want of trying."""
    sampled = [k for k, n in graph.nodes.items() if n["route"] == "paper" and n["status"] == "sampled"]
    assert not [k for k in sampled if not graph.nodes[k]["sampled_because"]]
    for k in ("MGF-inequality", "fact-3/left", "sec:tau/upper"):          # proofs over their whole domain
        assert graph.nodes[k]["status"] == "certified", (k, graph.nodes[k]["status"])


def test_a_corroborating_search_beside_a_proof_can_refute_but_not_weaken():
    proof = Finding("holds", "d", "proof", certified=True)
    search = Finding("holds", "d", "random search", corroborates=True)
    assert engine_graph._decided([proof, search])[0] == "certified"
    assert engine_graph._decided([proof, Finding("holds", "d", "tightness", kind="tightness")])[0] == "certified"
    assert engine_graph._decided([proof, Finding("refuted", "d", "found one", corroborates=True)])[0] == "refuted"
    assert engine_graph._decided([Finding("holds", "d", "search alone")])[0] == "sampled"


#: each appendix proof's subsection label -> the node it proves
PROOF_SECTIONS = {"sec:lemProof": "lemma-true", "sec:proProof": "var-lemma", "sec:proofthem1": "them-R",
                  "sec:proofthem2": "them-R-Bayes"}


def _section(tex: str, label: str) -> str:
    """The text of the subsection that carries `label` (right under its heading; the label also sits in
    a commented-out line of the main text), up to the next (sub)section."""
    start = next(m.start() for m in re.finditer(re.escape(rf"\label{{{label}}}"), tex)
                 if tex[:m.start()].rstrip().rsplit("\n", 1)[-1].startswith(r"\subsection"))
    ends = [i for i in (tex.find(r"\subsection", start), tex.find(r"\section", start)) if i > 0]
    return tex[start:min(ends)]


@pytest.mark.skipif(not PAPER.exists(), reason="the paper is beside the repository (shared/paper)")
@pytest.mark.parametrize("label", sorted(PROOF_SECTIONS))
def test_the_graph_edges_follow_the_appendix_proofs(label):
    """Read from the LaTeX: every node a proof's subsection labels or cites lies below the theorem it
    proves (the graph misses no step the proof uses), and every labelled node the theorem uses
    directly is labelled or cited in that subsection (the graph adds no edge the proof does not)."""
    known = proof_graph.by_label()
    text = _section(PAPER.read_text(), label)
    named = {known[x].id for x in re.findall(r"\\(?:label|eqref|ref|cref|Cref)\{([^}]*)\}", text) if x in known}
    root = PROOF_SECTIONS[label]
    nodes = {n.id: n for n in proof_graph.PAPER}
    below, queue = set(), list(nodes[root].cites)
    while queue:
        u = queue.pop()
        if u not in below:
            below.add(u)
            queue.extend(nodes[u].cites)
    assert named - below - {root} == set(), (label, sorted(named - below - {root}))
    direct = {u for u in nodes[root].cites if nodes[u].label and (root, u) not in proof_graph.IMPLICIT_EDGES}
    assert direct <= named, (label, sorted(direct - named))


@pytest.mark.parametrize("key, one, two", [
    ("repair:THM-GAP", {"K": 36, "alpha": 0.124, "sigma0_sq": 1.0}, {"K": 3, "alpha": 0.5, "sigma0_sq": 2.0}),
    ("repair:LEM-TAU-LOWER", {"T": [2, 3, 9], "k": 0, "sigma0_sq": 1.0, "sigma_sq": 0.5},
     {"T": [5, 2], "k": 1, "sigma0_sq": 0.3, "sigma_sq": 4.0}),
    ("repair:FACT-1-3", {"t": 1.3}, {"t": 0.2}),
    ("repair:PF-ETA-COND", {"K": 5, "sigma0_sq": 1.0, "sigma_sq": 3.0}, {"K": 200, "sigma0_sq": 0.1, "sigma_sq": 0.01}),
    ("repair:SEC2-FULL-ALPHA", {"n": 1000, "alpha": 0.5, "sigma_sq": 1.0},
     {"n": 10 ** 6, "alpha": 0.2, "sigma_sq": 0.3}),
    ("sec:tau/upper", {"T": [2, 3, 9], "k": 0, "sigma0_sq": 1.0, "sigma_sq": 0.5},
     {"T": [5, 2], "k": 1, "sigma0_sq": 0.3, "sigma_sq": 4.0}),
    ("fact:range", {"K": 20}, {"K": 3, "sigma0_sq": 4.0}),
])
def test_a_node_evaluates_its_own_relation_which_moves_with_the_state(key, one, two):
    """`--node ID --at` computes the node's own relation (for `repair:ID`, the repaired statement, not
    the claim it repairs): its two sides move with the point, and each holds where it is claimed to."""
    a, b = proof_graph.evaluate(key, one), proof_graph.evaluate(key, two)
    assert (a["lhs"], a["rhs"]) != (b["lhs"], b["rhs"]) and a["holds"] and b["holds"], (a, b)


def test_the_repair_holds_where_the_paper_node_fails():
    """At THM-GAP's witness the paper's node is false and its repair true: the two are different relations."""
    at = {"K": 36, "alpha": 0.124, "sigma0_sq": 1.0}
    paper, repaired = proof_graph.evaluate("lemma-true", at), proof_graph.evaluate("repair:THM-GAP", at)
    assert not paper["holds"] and repaired["holds"] and paper["lhs"] == pytest.approx(repaired["lhs"])


def test_every_proof_step_decided_by_sampling_says_why(quick_ledger):
    """A step of any proof (a claim's or a repair's) whose status is `sampled` carries the reason no
    proof or interval certificate decides it (`verify.Sampled`); a step resting on another node takes
    that node's status and reason."""
    missing = []
    for r in quick_ledger:
        for f in r.findings + [g for rep in r.repairs for g in rep.findings]:
            for s in (f.proof or {}).get("steps", []):
                if s["status"] == "sampled" and s["uses"] is None and not s.get("because"):
                    missing.append((r.id, s["step"], s["text"][:60]))
    assert not missing, missing


def test_a_sampled_step_carries_its_reason_and_a_proved_one_does_not():
    from rue_verify.verify import Sampled, from_proof
    f = from_proof([("a searched step", Sampled(Finding("holds", "grid", "none found"), "no closed form")),
                    ("an exact step", Sampled(Finding("holds", "symbolic", "sympy", certified=True), "unused"))],
                   "d", "c")
    first, second = f.proof["steps"]
    assert first["status"] == "sampled" and first["because"] == "no closed form" and "no closed form" in first["detail"]
    assert second["status"] == "certified" and "because" not in second


def test_every_proved_node_is_a_derivation_of_its_computed_statement(graph):
    """Issue 77: a node reads proved only when its proof is a chain from its statement's computed left side to
    its right side (`derivation` in proofs --json), and every node its proof rests on is proved too; a list of
    certified steps, or a certified finding with no chain, reads checked at most."""
    from rue_verify.verify.graph import nodes_json
    rows = {d["id"]: d for d in nodes_json(graph)}
    proved = [k for k, d in rows.items() if d.get("proof") == "proved"]
    assert proved, "no node of the quick graph is proved"
    for k in proved:
        n = graph.nodes[k]
        own = n.get("own") or {}
        if own or n["route"] == "repair":                  # a proof of its own: a closed chain
            assert rows[k]["derivation"], (k, rows[k].get("weakest"))
            assert rows[k]["chain"]["statement"]["srepr"]["lhs"], k
        for u in n["uses"]:
            assert graph.nodes[u].get("proof") in ("proved", None) and graph.nodes[u]["status"] in (
                "certified", "definition"), (k, u, graph.nodes[u].get("proof"))
    for k, d in rows.items():                             # no certified step outside a chain on a proved route
        steps = d.get("steps") or (graph.nodes[k].get("own") or {}).get("steps") or []
        if d.get("proof") == "proved":
            assert any(s.get("closure") and s["status"] == "certified" for s in steps) or not steps, k


def test_trust_lists_what_each_proved_node_rests_on_and_names_what_is_argued(graph):
    """`proofs --trust NODE` (verify.trust): a proved node rests on no argued link and only on proved nodes; every
    link z3 decided carries its SMT-LIB certificate (a link z3 got already true reads as sympy's); a node whose
    proof is not proved names a link that is
    argued or a node it rests on that is not proved."""
    from rue_verify.verify.trust import trust
    proved = [k for k, n in graph.nodes.items() if n.get("proof") == "proved"]
    assert proved
    for key in graph.nodes:
        d = trust(graph, key)
        assert sum(d["kinds"].values()) == len(d["links"])
        for lk in d["links"]:
            if lk["kind"] == "decided" and "z3" in lk["by"]:
                assert lk["certificates"] >= 1, (key, lk)
        below = [n for n in d["nodes"] if n["node"] != key]
        if key in proved:
            assert d["argued"] == [], key
            assert all(n["proof"] in ("proved", None) for n in below), (key, below)
        elif d["links"] and graph.nodes[key].get("proof") in ("argued", "inconclusive"):
            assert d["argued"] or any(n["proof"] not in ("proved", None) for n in below), key


def test_trust_reads_a_link_planted_argued_and_a_certificate_taken_away(graph):
    """Planted in a copy of the graph: a proved node's decided link made argued is listed as argued; a z3 link's
    certificate removed is counted as missing."""
    from rue_verify.verify.trust import trust
    g = copy.deepcopy(graph)
    key, row = next((k, s) for k, n in g.nodes.items() if n.get("proof") == "proved"
                    for s in ((n.get("own") or {}).get("steps") or n.get("proof_steps") or [])
                    if isinstance(s.get("smt2"), str) and (s.get("justification") or "").startswith("decided"))
    before = trust(g, key)
    text = row["smt2"]
    from rue_verify.certify import smt
    negated = next(c for c, _ in smt.commands_of(text) if smt._named(c) == smt.NEGATED)
    row["smt2"] = text.replace(negated, "(assert (! (not true) :named negated_claim))")   # hollow: z3 got the
    assert row["smt2"] != text                                                             # claim already true
    hollow = trust(g, key)
    assert hollow["certificates"] == before["certificates"] - 1
    link = next(lk for lk in hollow["links"] if lk["node"] == key and lk["step"] == row["step"])
    assert "sympy" in link["by"] and "z3" not in link["by"]
    row["smt2"] = text
    row.pop("smt2")
    assert trust(g, key)["certificates"] == before["certificates"] - 1
    row["status"] = "argued"
    after = trust(g, key)
    assert f"{key} step {row['step']}" in after["argued"] and before["argued"] == []



def test_trust_rechecks_each_z3_problem_with_a_second_solver_and_names_a_disagreement(graph):
    """`recheck` runs on every z3 problem of the node's links; a second solver that refuses one (planted: a checker
    that says no to the first problem) is counted and the link named."""
    from rue_verify.verify.trust import trust
    key = next(k for k, n in graph.nodes.items() if n.get("proof") == "proved" and trust(graph, k)["certificates"])
    seen = []

    def checker(statement, text):
        seen.append(statement)
        return (len(seen) > 1, "planted: no")
    d = trust(graph, key, recheck=checker)
    assert d["rechecked"] == {"agreed": len(seen) - 1, "not": 1} and len(seen) >= d["certificates"]
    assert len(d["disagreements"]) == 1 and d["disagreements"][0].endswith("planted: no")
