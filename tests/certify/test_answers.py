"""cvc5's answers on z3's problems (`rue_verify.certify.answers`) and the graph that reads them
(`rue_verify.verify.second`): a link whose problem cvc5 does not re-decide is not certified, nor anything resting on
it; an answer is read only under its own key (problem, statement, configurations, cvc5's version); the shipped
answers cover the quick ledger's graph (its first run runs no cvc5); a kept answer is written whole."""

import copy
import json
import os

import pytest

from rue_verify.certify import answers, smt
from rue_verify.verify import second
from rue_verify.verify.findings import Finding
from rue_verify.verify.statements import Holds, decide, rel

pytest.importorskip("cvc5")
pytestmark = pytest.mark.xdist_group("quick_ledger")


@pytest.fixture
def kept_here(tmp_path, monkeypatch):
    """The decision cache (and so the kept answers) in a temporary directory."""
    monkeypatch.setenv("RUE_VERIFY_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / answers.KEPT_DIR


@pytest.fixture(scope="module")
def small():
    """(statement, SMT-LIB text) of a link z3 certifies and cvc5 re-decides at once: exp(x) >= 1 + x."""
    import sympy
    x = sympy.Symbol("x", real=True)
    h = Holds(rel(sympy.exp(x), ">=", 1 + x), method="z3")
    d = decide(h)
    assert d.status == "certified" and d.smt2 and not smt.hollow(d.smt2), d
    return h.text(), d.smt2


def _z3_rows(n: dict) -> list[dict]:
    rows = (n.get("own") or {}).get("steps") or n.get("proof_steps") or []
    return [r for r in rows if r.get("status") == "certified" and second.problems(r)
            and all(d is r or d.get("state") == "holds" for d, _, _ in second.problems(r))]


def _below_all(g, key: str) -> set:
    from rue_verify.verify.graph import below
    seen, todo = set(), list(below(g.nodes[key]))
    while todo:
        u = todo.pop()
        if u not in seen and u in g.nodes:
            seen.add(u)
            todo.extend(below(g.nodes[u]))
    return seen


def _rows(n: dict) -> list[dict]:
    return (n.get("own") or {}).get("steps") or n.get("proof_steps") or []


def test_a_link_cvc5_does_not_redecide_leaves_its_node_and_a_node_resting_on_it_not_proved(quick_ledger,
                                                                                             monkeypatch):
    """Planted shipped answers for one z3 link of a proved node (cvc5 answers unknown) and one of another proved node
    (cvc5 answers sat: it disagrees): the results read again, each row is argued and names z3's unsat and cvc5's
    answer, each node is not proved, nor a proved node resting on the first; their other z3 links stay certified,
    and the fixture's own results are not touched."""
    from rue_verify.ledger import proof_graph
    g = quick_ledger.graph
    proved = [k for k, n in g.nodes.items() if n.get("proof") == "proved"]
    pairs = [(a, b) for a in proved if _z3_rows(g.nodes[a]) for b in proved if a in _below_all(g, b)]
    assert pairs, "no proved node with a z3 link that another proved node rests on"
    a, b = pairs[0]
    first = {k: second.problems(_z3_rows(g.nodes[k])[0])[0][2] for k in proved if _z3_rows(g.nodes[k])}
    c = next(k for k in first if k not in (a, b) and a not in _below_all(g, k) and first[k] != first[a])
    planted = {}
    for node, said in ((a, "unknown"), (c, "sat")):
        _, statement, text = second.problems(_z3_rows(g.nodes[node])[0])[0]
        planted[node] = (text, f"cvc5 does not re-decide it unsat: it answers coverings: {said} (planted)")
        monkeypatch.setitem(answers.shipped(), answers.key(text, statement), {"ok": False, "detail": planted[node][1]})
    results = [copy.deepcopy(r) for r in quick_ledger]
    assert second.read(results) >= 2
    again = proof_graph.resolve(results)
    assert all(again.nodes[k]["proof"] != "proved" for k in (a, b, c)), (a, b, c)
    for node, (text, detail) in planted.items():
        mine = [r for r in _rows(again.nodes[node]) if any(t == text for _, _, t in second.problems(r))]
        assert mine and all(r["status"] == "argued" and "z3 answers unsat" in r["detail"] and detail in r["detail"]
                            for r in mine), mine
        others = {r["step"] for r in _z3_rows(g.nodes[node]) if all(t != text for _, _, t in second.problems(r))}
        assert all(r["status"] == "certified" for r in _rows(again.nodes[node]) if r["step"] in others)
    assert all(g.nodes[k]["proof"] == "proved" for k in (a, b, c))         # the fixture's graph is not touched


def test_an_induction_case_cvc5_does_not_redecide_leaves_its_link_argued_naming_the_case():
    """A link an induction decided holds only if every case does: each unsat case (`smt2_cases`) is asked of cvc5,
    and one it does not re-decide leaves the row argued, naming the case; the row's own problem is not replaced by
    the case's. Every case re-decided leaves the row certified."""
    def induction_row():
        return {"step": 1, "status": "certified", "detail": "proved for every n",
                "smt2_cases": [["S on D [case: the base state]", "induction S: the base state", "B"],
                               ["S on D [case: the round from any later state]", "induction S: later", "R"]]}
    said = {("S on D [case: the base state]", "B"): (True, "re-decided"),
            ("S on D [case: the round from any later state]", "R"): (False, "cvc5 answers unknown")}
    row = induction_row()
    assert [st for _, st, _ in second.problems(row)] == [c[0] for c in row["smt2_cases"]]
    assert second.reread_row(row, lambda st, text: said[st, text])
    assert row["status"] == "argued" and row["cvc5"] == "cvc5 answers unknown"
    assert "on the induction's case 'the round from any later state', but cvc5 answers unknown" in row["detail"]
    assert "smt2" not in row and row.get("statement") is None
    row = induction_row()
    assert not second.reread_row(row, lambda st, text: (True, "re-decided")) and row["status"] == "certified"
    from rue_verify.verify import trust
    assert trust._certificates(induction_row()) == 2


def test_a_condition_cvc5_does_not_redecide_is_unchecked_and_its_row_argued():
    """A cited lemma's condition (a row's `conditions`) whose problem cvc5 does not re-decide: the condition reads
    unchecked, and the row citing the lemma argued, naming the condition and cvc5."""
    row = {"step": 1, "status": "certified", "detail": "proved (cites L)", "statement": "L: a <= b",
           "conditions": [{"text": "f convex", "state": "holds", "statement": "c1", "smt2": "P1", "detail": "z3"},
                          {"text": "g > 0", "state": "holds", "statement": "c2", "smt2": "P2", "detail": "z3"}]}
    monkeypatch_free = {("c1", "P1"): (True, "re-decided"), ("c2", "P2"): (False, "cvc5 does not re-decide it")}
    moved = second.reread_row(row, lambda st, text: monkeypatch_free[st, text])
    assert moved and row["status"] == "argued" and "z3 answers unsat on a condition (g > 0), but cvc5" in row["detail"]
    assert [c["state"] for c in row["conditions"]] == ["holds", "unchecked"]
    assert not second.reread_row(row, lambda st, text: (False, "x"))      # an argued row stays as it is


def test_the_shipped_answers_cover_every_z3_problem_of_the_quick_ledgers_graph(quick_ledger):
    """Every z3 problem of the quick ledger's proofs (`second.results_problems`: the rows' own, their conditions',
    the kept decisions of rows that carry none) and of its graph's rows has its shipped answer, under this cvc5 and
    these configurations: the first command runs no cvc5. The run read them: each row argued for cvc5 says what a
    shipped answer of its problems says."""
    shipped = answers.shipped()
    probs = list(second.results_problems(quick_ledger))
    assert len(probs) > 50
    missing = [where for where, _, _, st, text in probs if answers.key(text, st) not in shipped]
    assert not missing, f"rebuild with python -m rue_verify.certify.answers_build: {missing[:10]}"
    for _, row, _, st, text in probs:
        if row.get("cvc5") and row["status"] == "argued":
            assert row["cvc5"] in [shipped[answers.key(t, s)]["detail"] for _, s, t in second.problems(row)]
    in_graph = [(st, text) for n in quick_ledger.graph.nodes.values()
                for r in (n.get("own") or {}).get("steps") or n.get("proof_steps") or []
                for _, st, text in second.problems(r)]
    assert in_graph and all(answers.key(text, st) in shipped for st, text in in_graph)


def test_every_certified_step_of_the_quick_ledger_carries_a_certificate(quick_ledger):
    """The collector finds a certificate (smt2, boxes or sympy) for every certified step of the quick ledger's
    results and graph: none is listed uncovered (the history search's Farkas certificates are test_farkas's). What
    is counted is computed: a step the checker could not re-decide would be listed here with its reason."""
    from rue_verify.certify import collect
    for obj in (quick_ledger, quick_ledger.graph):
        uncovered: list = []
        certs = collect.certificates(obj, "source", uncovered)
        assert certs and not uncovered, uncovered


def test_an_answer_is_read_only_under_its_own_problem_and_statement(small, kept_here, monkeypatch):
    """A shipped answer is read for its own problem only: the same problem with its text changed (a comment added),
    or filed under another statement, has another key, and cvc5 decides it afresh; the fresh answer is kept and read
    back."""
    statement, text = small
    monkeypatch.setitem(answers.shipped(), answers.key(text, statement), {"ok": False, "detail": "planted"})
    assert answers.answer(text, statement) == (False, "planted")
    changed = text.replace("(check-sat)", "; a comment\n(check-sat)")
    for t, s in ((changed, statement), (text, statement + " ")):
        assert answers.key(t, s) != answers.key(text, statement)
        ok, detail = answers.answer(t, s)
        assert ok and "cvc5 re-decides it unsat" in detail, detail
        assert answers.kept(answers.key(t, s)) == (ok, detail)


def test_the_key_covers_the_configurations_and_cvc5s_version(small, monkeypatch):
    statement, text = small
    k = answers.key(text, statement)
    monkeypatch.setattr(smt, "CONFIGS", smt.CONFIGS[:1])
    assert answers.key(text, statement) != k
    monkeypatch.undo()
    monkeypatch.setattr(answers, "cvc5_version", lambda: "0.0.1")
    assert answers.key(text, statement) != k


def test_with_the_cache_off_neither_shipped_nor_kept_answers_are_read(small, kept_here, monkeypatch):
    """`RUE_VERIFY_CACHE=off` (`--recheck`): cvc5 decides afresh, whatever is shipped or kept, and keeps nothing."""
    statement, text = small
    k = answers.key(text, statement)
    monkeypatch.setitem(answers.shipped(), k, {"ok": False, "detail": "planted, shipped"})
    answers.keep(k, False, "planted, kept")
    assert answers.answer(text, statement) == (False, "planted, shipped")
    monkeypatch.setenv("RUE_VERIFY_CACHE", "off")
    ok, detail = answers.answer(text, statement)
    assert ok and "planted" not in detail
    assert answers.kept(k) is None


def test_a_kept_answer_is_written_whole_or_not_at_all(kept_here, monkeypatch):
    """An answer is kept through a temporary file renamed into place: at the rename the whole answer is in the
    temporary file and nothing at its name; a write stopped before the rename leaves nothing at its name and no
    temporary file; a half-written file at its name is not read as an answer."""
    k = "0" * 64
    real = os.replace
    seen = []

    def replace(src, dst):
        seen.append((json.loads(open(src).read()), os.path.exists(dst)))
        real(src, dst)
    monkeypatch.setattr(os, "replace", replace)
    answers.keep(k, False, "cvc5 does not re-decide it unsat: unknown", 1.5)
    assert seen == [({"ok": False, "detail": "cvc5 does not re-decide it unsat: unknown", "seconds": 1.5,
                      "cvc5": answers.cvc5_version()}, False)]
    assert answers.kept(k) == (False, "cvc5 does not re-decide it unsat: unknown")

    def crash(src, dst):
        raise OSError("the machine stopped here")
    monkeypatch.setattr(os, "replace", crash)
    other = "1" * 64
    answers.keep(other, True, "cvc5 re-decides it unsat")
    assert answers.kept(other) is None and not list(kept_here.glob("*.tmp"))
    (kept_here / f"{other}.json").write_text('{"ok": true, "det')            # half a file, as a crash would leave
    assert answers.kept(other) is None
    answers.keep(other, True, "cvc5 is not installed (pip install cvc5)")      # says nothing of the problem: not kept
    assert answers.kept(other) is None


def test_cvc5s_limit_is_of_cpu_time(quick_ledger):
    """A problem cvc5 does not decide (one the graph reads argued for cvc5's unknown), given 1 s: unknown, past 1 s
    of CPU (the kernel's limit on the child)."""
    shipped = answers.shipped()
    hard = [(st, text) for _, row, _, st, text in second.results_problems(quick_ledger) if row.get("cvc5")
            and "unknown" in shipped.get(answers.key(text, st), {}).get("detail", "")
            and not shipped[answers.key(text, st)]["ok"]]
    if not hard:
        pytest.skip("cvc5 answers every link of the quick ledger")
    commands = [c for c in smt.commands_of(hard[0][1]) if c[1] != "check-sat"]
    answer, why = smt.decide(commands, 1.0, dict(smt.CONFIGS[0][1]))
    assert answer == "unknown" and why == "no answer within 1 s of CPU", (answer, why)


def test_a_proofs_head_says_why_each_argued_step_is_argued():
    """A proof argued names its argued steps apart: z3's word cvc5 does not re-decide, a rest on a node not proved,
    and no machine check; a row that says nothing of either is counted as the last."""
    from rue_verify.verify.proofs import _argued_steps
    rows = [{"step": 1, "status": "argued", "cvc5": "cvc5 answers unknown"},
            {"step": 2, "status": "argued", "uses": "N", "detail": "rests on N (argued)"},
            {"step": 3, "status": "argued", "uses": "L", "detail": "cites L, but its condition is unchecked"},
            {"step": 4, "status": "certified"}]
    said = _argued_steps(rows, [1, 2, 3])
    assert said == ("step(s) 1 (z3 answers unsat, cvc5 does not re-decide it) and step(s) 2 (resting on a node not "
                    "proved) and step(s) 3 (no machine check)")


def test_a_hand_written_proof_carries_its_inductions_cases_so_cvc5_is_asked_each():
    """A step of a hand-written proof (`from_proof`) justified by an induction's finding carries the induction's
    cases as a derivation's row does; a case cvc5 does not re-decide then leaves the proof unproved (found by the
    review: the row had dropped them, and stayed certified on z3's word)."""
    from rue_verify.verify import induction as ind
    from rue_verify.verify.proofs import from_proof, settle_proof
    Z = ind.z3()
    system = ind.System(lambda: ({"x": Z.Real("x")}, [Z.Real("x") > 0], {}),
                        lambda p, t: ({"v": Z.Real(f"v@{t}")}, []), lambda p, s: [s["v"] == 1],
                        lambda p, s, s2: [("step", s2["v"] == s["v"] + p["x"])], lambda p, s: Z.BoolVal(True), 0,
                        "x > 0")
    f = ind.finding(ind.decide(system, ind.Invariant("inv", "v >= 1", lambda p, s: s["v"] >= 1)))
    assert f.verdict == "holds" and f.smt2_cases
    proof = from_proof([("by induction", f)], "x > 0", "v >= 1")
    row = proof.proof["steps"][0]
    assert len(second.cases(row)) == len(f.smt2_cases)
    assert second.reread_row(row, lambda st, text: (False, "cvc5 answers unknown"))
    settle_proof(proof)
    assert row["status"] == "argued" and proof.verdict != "holds" and not proof.certified


def test_an_answer_is_keyed_by_the_checkers_source(monkeypatch):
    """A changed checker (`certify.smt`: what a problem must be, how cvc5 is asked) reads no answer given by the old
    one (found by the review: a stricter checker kept every old 'unsat' under the same key)."""
    before = answers.key("(check-sat)", "s")
    import hashlib
    from pathlib import Path
    assert answers.checker_hash() == hashlib.sha256(Path(smt.__file__).read_bytes()).hexdigest()
    monkeypatch.setattr(answers, "_CHECKER", ["another checker"])
    assert answers.key("(check-sat)", "s") != before


def test_a_rest_on_a_node_reads_the_hypotheses_z3_established_with_cvc5(monkeypatch):
    """A link resting on a node must meet the node's hypotheses on its domain (`derivation.check_instance`); those z3
    established are read with cvc5 as every z3 link is (review: they were decided after the reading, on z3's word
    alone). Each is kept on the step for its certificate; one cvc5 does not re-decide makes the rest no instance,
    naming it. Planted: a hollow problem (sympy's decision) is not asked; inside `z3_alone` nothing is."""
    import sympy

    from rue_verify.certify import answers as ans
    from rue_verify.verify import graph
    x = sympy.Symbol("x", positive=True)
    st = Holds(rel(x + 1, ">", 1), ())
    row = {"status": "certified", "smt2": "(assert (! (not (> (+ x 1.0) 1.0)) :named negated_claim))"}
    said = {}
    monkeypatch.setattr(ans, "answer", lambda text, statement: said.setdefault(statement, (False, "cvc5: unknown")))
    step = {}
    why = graph._hypotheses_read(step, [(st, dict(row))])
    assert why and "z3's word alone: cvc5: unknown" in why and step["cvc5"] == "cvc5: unknown"
    assert step["hypotheses"][0]["state"] == "unchecked" and step["hypotheses"][0]["statement"] == st.text()
    monkeypatch.setattr(ans, "answer", lambda text, statement: (True, "re-decided"))
    step = {}
    assert graph._hypotheses_read(step, [(st, dict(row))]) is None and step["hypotheses"][0]["state"] == "holds"
    assert [s for _, s, _ in second.problems(step)] == [st.text()]
    hollow = dict(row, smt2="(assert (! (not true) :named negated_claim))")
    assert graph._hypotheses_read({}, [(st, hollow)]) is None
    monkeypatch.setattr(ans, "answer", lambda text, statement: (False, "no"))
    with second.z3_alone():
        assert graph._hypotheses_read({}, [(st, dict(row))]) is None


@pytest.mark.parametrize("afresh", [False, True])
def test_the_build_keeps_the_answers_it_holds_under_the_same_key_and_decides_the_rest(tmp_path, monkeypatch, afresh):
    """`answers_build` decides only the problems whose key the shipped answers do not hold (the same problem,
    statement, cvc5, configurations and checker: `answers.key`), unless `afresh`; an answer cut short by the clock is
    decided again, and the file is written whole with every problem's answer."""
    import gzip

    from rue_verify.certify import answers_build
    probs = {answers.key(f"P{i}", f"S{i}"): {"smt2": f"P{i}", "statement": f"S{i}", "what": f"w{i}"} for i in range(3)}
    k0, k1, k2 = probs
    held = {k0: {"ok": True, "detail": "cvc5 re-decides it unsat (held)", "seconds": 1.0},
            k1: {"ok": False, "detail": "unknown (no answer within 60 s of the clock)", "seconds": 60.0},
            answers.key("P9", "S9"): {"ok": True, "detail": "an old problem", "seconds": 1.0}}
    asked = []
    monkeypatch.setattr(answers_build.os, "nice", lambda n: 0)             # the test's worker keeps its priority
    monkeypatch.setattr(answers_build, "pack_problems", lambda: dict(probs))
    monkeypatch.setattr(answers, "shipped", lambda: held)
    monkeypatch.setattr(answers, "decide", lambda smt2, st: asked.append(smt2) or (True, f"decided {smt2}", 0.1))
    out = tmp_path / "a.json.gz"
    summary = answers_build.build(out, say=lambda line: None, results=[], afresh=afresh)
    assert sorted(asked) == (["P0", "P1", "P2"] if afresh else ["P1", "P2"])
    data = json.loads(gzip.decompress(out.read_bytes()))
    assert set(data["answers"]) == set(probs) and summary["problems"] == 3
    assert data["answers"][k0]["detail"] == ("decided P0" if afresh else "cvc5 re-decides it unsat (held)")


def test_what_a_derivations_link_decides_on_the_way_is_read_with_cvc5():
    """A link justified by a finding must meet the finding's hypotheses on the link's domain; what z3 establishes so
    (and any premise or definedness condition decided while the link is checked) the row keeps (`hypotheses`), and
    cvc5 reads it as it reads a condition (review H4, part 2: these were z3's word alone). Planted: cvc5 not
    re-deciding the hypothesis leaves the row argued and the proof not proved; re-deciding it leaves both as z3 had
    them. A hand-written proof's cited condition carries its problem the same way."""
    import sympy

    from rue_verify.verify import Cites
    from rue_verify.verify.derivation import Found, Statement, derive, from_derivation, link, restate
    from rue_verify.verify.findings import made_by_engine
    from rue_verify.verify.proofs import from_proof, settle_proof
    x, y = sympy.symbols("x y", real=True)
    cert = made_by_engine(Finding("holds", "all", "a certificate", certified=True), "a test's stand-in")
    restate(cert, Statement(x, "<=", x + y, given=(rel(y, ">=", 0),)))
    top = Statement(x, "<=", x + y, given=(rel(y, ">=", x * x + 1),))    # y >= 0 follows, for z3 (not sympy)

    def proof():
        return from_derivation(derive(top, [link("<=", x + y, Found(cert))]), "d")
    f = proof()
    row = f.proof["steps"][0]
    assert row["status"] == "certified" and f.proof["status"] == "proved", f.proof
    held = row.get("hypotheses") or []
    assert [h["statement"] for h in held] == [Holds(rel(y, ">=", 0), top.given).text()], row
    assert [s for _, s, _ in second.problems(row)] == [held[0]["statement"]]
    assert second.reread_row(row, lambda st, text: (False, "cvc5 answers unknown"))
    settle_proof(f)
    assert row["status"] == "argued" and "on a condition" in row["detail"] and f.proof["status"] != "proved"
    f = proof()
    assert not second.reread_row(f.proof["steps"][0], lambda st, text: (True, "re-decided"))
    assert f.proof["status"] == "proved"
    # a hand-written proof's cited condition carries z3's problem, so cvc5 is asked it
    hand = from_proof([("cites L", Cites("L", "a <= b", [("y >= 0", Holds(rel(y, ">=", 0), top.given))]))],
                      "y >= x^2 + 1", "a <= b")
    cond = hand.proof["steps"][0]["conditions"][0]
    assert cond["state"] == "holds" and isinstance(cond.get("smt2"), str) and second.problems(hand.proof["steps"][0])


def test_a_rest_reads_its_instances_hypotheses_as_check_instance_decides_them():
    """The graph collects a rest's hypotheses as `check_instance` decides them (`proofs.sub_decisions`), not by
    replacing the engine's decision function: inside the block the decisions are collected, after it nothing is."""
    import sympy

    from rue_verify.verify import proofs
    y = sympy.Symbol("y", real=True)
    h = Holds(rel(y * y + 1, ">", 0), ())
    with proofs.sub_decisions() as got:
        proofs.holds_row({}, h, describe=False)
    assert [st for st, _ in got] == [h] and got[0][1]["status"] == "certified"
    proofs.holds_row({}, h, describe=False)
    assert len(got) == 1 and not proofs._SUBS


def test_a_decision_kept_in_the_process_reaches_every_link_that_makes_it():
    """A definedness condition is decided once per process (`derivation._defined_status` keeps it); the decisions it
    made reach every link that asks it again, so a link's kept problems (and its row) do not depend on which claim
    asked first or on how many processes ran the ledger (found by the suite: one process and two gave different
    rows)."""
    import sympy

    from rue_verify.verify import derivation, proofs
    x, y = sympy.symbols("x y", real=True)
    cond, given = rel(y, ">=", 0), (rel(y, ">=", x * x + 1),)
    derivation._defined_decided.cache_clear()
    seen = []
    for _ in range(2):
        with proofs.sub_decisions() as got:
            assert derivation._defined_status(cond, given) == "certified"
        seen.append([(st.text(), row.get("smt2")) for st, row in got])
    assert seen[0] == seen[1] and len(seen[0]) == 1 and seen[0][0][1], seen


def test_a_finding_proved_given_lemmas_justifies_a_link_only_resting_on_each():
    """An induction proved given a lemma (assumed at its states) justifies a link only where the link rests on that
    lemma's node, so the graph reads the step at the lemma's proof status (review: the lemma was dropped, and a false
    step whose 'lemma' is the step itself read proved)."""
    import sympy
    import z3

    from rue_verify.verify import induction as ind
    from rue_verify.verify.derivation import Found, Statement, derive, from_derivation, link, restate, rests
    toy = ind.System(lambda: ({"c": z3.Real("c")}, [z3.Real("c") > 0], {}),
                     lambda p, t: ({"x": z3.Real(f"x@{t}")}, [z3.Real(f"x@{t}") >= 0]), lambda p, s: [s["x"] == 0],
                     lambda p, s, s2: [("grow", s2["x"] == s["x"] + p["c"])], lambda p, s: z3.BoolVal(True), 0, "toy")
    circular = ind.Lemma("LEM-UNPROVED", "x <= 5", lambda p, s: s["x"] <= 5)
    f = ind.finding(ind.decide(toy, ind.Invariant("bad", "x <= 5", lambda p, s: s["x"] <= 5, (circular,))))
    assert f.verdict == "holds" and f.rests_on == ("LEM-UNPROVED",)     # true given the lemma: the lemma is false
    x = sympy.Symbol("x", nonnegative=True)
    st = Statement(x, "<=", 5)
    restate(f, st)
    alone = from_derivation(derive(st, [link("<=", 5, Found(f))]), "x >= 0")
    row = alone.proof["steps"][0]
    assert row["status"] == "argued" and "LEM-UNPROVED" in row["detail"] and alone.proof["status"] != "proved"
    f2 = restate(ind.finding(ind.decide(toy, ind.Invariant("bad", "x <= 5", lambda p, s: s["x"] <= 5, (circular,)))),
                 st)
    leaning = from_derivation(derive(st, [link("<=", 5, Found(f2, given=((rel(x, "<=", 5), rests("LEM-UNPROVED")),)))]),
                              "x >= 0")
    rows = leaning.proof["steps"]
    assert [r.get("uses") for r in rows][:1] == ["LEM-UNPROVED"] and rows[1]["status"] == "certified", rows


def test_a_finding_of_a_derivation_carries_its_z3_problems_to_the_link_it_justifies():
    """A link justified by another derivation's finding copies that finding's status when it is built; the inner
    proof's z3 problems are carried on it (`hypotheses`), so that cvc5 not re-deciding one leaves the outer link
    argued too (review: the outer proof stayed proved after the inner one was argued)."""
    import sympy

    from rue_verify.verify.derivation import Decide, Found, Statement, derive, from_derivation, link
    from rue_verify.verify.proofs import settle_proof
    x, y = sympy.symbols("x y", real=True)
    st = Statement(x, "<=", x + y, given=(rel(y, ">=", x * x + 1),))
    inner = from_derivation(derive(st, [link("<=", x + y, Decide("z3"))]), "d")
    assert inner.proof["status"] == "proved" and "smt2" in inner.proof["steps"][0]
    outer = from_derivation(derive(st, [link("<=", x + y, Found(inner))]), "d")
    row = outer.proof["steps"][0]
    assert row["status"] == "certified" and [h["statement"] for h in row.get("hypotheses", [])] == \
        [inner.proof["steps"][0]["statement"]], row
    asked = []
    assert second.reread_row(row, lambda s_, t: (asked.append(s_), (False, "cvc5 answers unknown"))[1])
    settle_proof(outer)
    assert asked and row["status"] == "argued" and outer.proof["status"] != "proved"


def test_a_cited_conditions_problem_comes_from_the_decision_that_made_it_hold(monkeypatch):
    """A cited condition's state and the problem it carries come from one decision: decided again (the cache off)
    and timed out the second time, the condition kept no problem and cvc5 was never asked (review)."""
    import sympy

    from rue_verify.verify import Cites, statements
    from rue_verify.verify.proofs import from_proof
    monkeypatch.setenv("RUE_VERIFY_CACHE", "off")
    x, y = sympy.symbols("x y", real=True)
    h = Holds(rel(y, ">=", 0), (rel(y, ">=", x * x + 1),))
    real, calls = statements._decide, []

    def flaky(st):
        calls.append(st)
        d = real(st)
        return d if st != h or sum(c == h for c in calls) == 1 else statements.Decision("argued", "z3", "z3: unknown")
    monkeypatch.setattr(statements, "_decide", flaky)
    f = from_proof([("cites L", Cites("L", "a <= b", [("y >= 0", h)]))], "y >= x^2 + 1", "a <= b")
    cond = f.proof["steps"][0]["conditions"][0]
    assert cond["state"] == "holds" and isinstance(cond.get("smt2"), str), cond
