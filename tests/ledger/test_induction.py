"""The paper's steps about RUE's histories by induction (`ledger.proof_induction`, `decide.induct`): the
round 2K+1 fault of eq. Tk_up1 comes out of the solver told only where E starts; Tk_lowv2 fails at the
round that pulls arm 1 (also with beta_1 = 1); the repaired steps are proved for every n; the solver's
counterexamples become histories that the plain reference RUE replays; a planted false step that the
exhaustive grid misses is found by the induction and the search together; a solver timeout leaves a
step open."""

import json
import math

import pytest

from bounds import repaired as rp
from rue_verify.cli import main
from rue_verify.decide import Induct, Violation, decide, gap_at_least, induct
from rue_verify.ledger import proof_induction as pi
from rue_verify.ledger.proof_histories import POINTS

z3 = pytest.importorskip("z3")


def test_the_round_2k_plus_1_fault_comes_out_of_the_solver_and_replays(capsys):
    d, wit, searched = pi.decided("Tk_up1", "paper")
    assert d.status == "counterexample"
    sat = [c.label for c in d.cases if c.answer == "sat"]
    assert sat == ["the round from the base state, not on E: arm k pulled (U_k >= U_1)"]   # only where E is absent
    # the history: arm k's third pull at round 2K+1, on E from 2K+1 on, replayed and evaluated again
    q = wit["params"]
    assert q["history"]["pulls"][-1] != 1 and q["n"] == 2 * q["K"] + 1
    assert main(["proofs", "--node", "Tk_up1", "--at", json.dumps(wit)]) == 0
    assert json.loads(capsys.readouterr().out)["holds"] is False
    assert pi.decided("Tk_up1", "repaired")[0].proved          # E from the base state: proved for every n


def test_tk_lowv2_breaks_at_the_round_that_pulls_arm_1_even_with_beta_1_equal_to_1(capsys):
    for step in ("Tk_lowv2", "Tk_lowv2-beta1"):
        d, wit, searched = pi.decided(step, "paper")
        assert any(c.answer == "sat" and "any later state, on E: arm 1 pulled" in c.label for c in d.cases), step
        assert wit is not None, (step, searched)
        assert wit["params"]["history"]["pulls"][-1] == 1          # arm 1's pull moved its count past the state
    assert pi.decided("Tk_lowv2-shifted", "repaired")[0].proved


@pytest.mark.parametrize("step", ["Tk_up1", "Tk_lowv2-shifted", "regret-decomV", "eqn:T1n", "gap-repaired"])
def test_the_repaired_steps_are_proved_for_every_n_and_say_what_they_rest_on(step):
    f = pi.induction_finding(step, "repaired")
    assert f.verdict == "holds" and f.certified and "every budget n" in f.domain
    d = pi.decided(step, "repaired")[0]
    assert all(node in f.domain for node in d.rests_on)


def test_a_planted_width_reaches_the_inductions_and_leaves_the_repaired_steps_unproved(monkeypatch):
    """RUE's widths in the abstract states are `estimation.c_width`'s formula, so a width planted one third wider
    (sqrt(3 tau^2 log n)) leaves the repaired eq. Tk_up1 unproved: its bound holds for the code's width, which the
    planted one is not (before, the states wrote c^2 = 2 tau^2 log n out, and a planted width left it proved). The
    shifted eq. Tk_lowv2 stays proved, rightly: both its sides scale with the width (ctilde is c_width's too), so the
    planted width makes another true statement."""
    from bounds import estimation as es
    clean = {step: pi.decided(step, "repaired")[0] for step in ("Tk_up1", "Tk_lowv2-shifted")}
    assert all(d.proved and any(c.cut for c in d.cases) for d in clean.values())

    def wider(tau_sq, n):
        m = es.namespace_for(tau_sq, n)
        return m.sqrt(3 * es.as_numeric(tau_sq) * m.log(es.as_numeric(n)))
    monkeypatch.setattr(es, "c_width", wider)
    d = pi.decided("Tk_up1", "repaired")[0]
    assert not d.proved and d.failing is None and any(c.cut and c.answer == "sat" for c in d.cases), d.summary()
    assert pi.decided("Tk_lowv2-shifted", "repaired")[0].proved


def _x(K, n, s0, s):
    """eq. Tk_up1's repaired X (T_k <= 2 + X/Delta^2) from bounds."""
    return float(rp.Tk_upper_repaired(1.0, K, n, s0, s)) - 2


def planted_step(m, arms):
    """False where sigma0^2 > 20 sigma^2 only: eq. Tk_up1 with a sixteenth of its room."""
    if not m.sigma0_sq > 20 * m.sigma_sq:
        return []
    T = m.counts(arms)
    X = _x(m.K, m.n, m.sigma0_sq, m.sigma_sq) / 16
    return [Violation(f"arm {k + 1}", [gap_at_least(m, k, math.sqrt(X / (T[k] - 2)))], {"k": k})
            for k in range(1, m.K) if T[k] > 2]


def planted_holds(p, s):
    X = 2 * (1 + p["eta"]) ** 2 * p["beta"] * p["sigma_sq"] * p["L"] / 16
    return z3.Or(p["sigma0_sq"] <= 20 * p["sigma_sq"], (s["T_k"] - 2) * p["Delta"] * p["Delta"] <= X)


def test_a_planted_false_step_the_grid_misses_is_found_by_the_induction_and_the_search():
    for s0, s in POINTS:                                  # the exhaustive grid's points: it holds at every one
        assert decide(planted_step, 2, 9, s0, s, "repaired")["status"] == "holds"
    res = induct(Induct(planted_holds, "Tk_up1 with a sixteenth of its room where sigma0^2 > 20 sigma^2",
                        step=planted_step), "repaired")
    assert res["status"] == "refuted", res
    assert res["false_at"].startswith("after round"), res     # holds itself is false on the history's states
    q = res["witness"]["params"]
    assert q["sigma0_sq"] > 20 * q["sigma_sq"]
    # the history is real: replayed by the reference RUE, with E on its rounds, and the step broken on it
    again = decide(planted_step, q["K"], q["n"], q["sigma0_sq"], q["sigma_sq"], "repaired", every_budget=False)
    assert again["status"] == "broken"


def test_a_history_that_breaks_only_the_linear_form_refutes_nothing():
    """holds false only at T_k >= 100, which no history up to n = 10 reaches, beside a linear form that
    breaks at small counts: the solver's counterexample is real (abstract) and the search finds a history
    breaking the linear form, but holds is true at every state of that history, so the step stays open."""
    def mismatched(p, s):
        return z3.Or(planted_holds(p, s), s["T_k"] < 100)
    res = induct(Induct(mismatched, "planted, with holds false only at T_k >= 100", step=planted_step), "repaired")
    assert res["status"] == "open" and "disagree" in res["why"] and "witness" not in res, res
    assert res["unconfirmed"]["params"]["history"]["pulls"]


def test_a_planted_true_step_is_proved_for_every_n_and_a_timeout_leaves_it_open():
    tk = Induct(lambda p, s: (s["T_k"] - 2) * p["Delta"] * p["Delta"]
                <= 2 * (1 + p["eta"]) ** 2 * p["beta"] * p["sigma_sq"] * p["L"], "Tk_up1", ("tau_upper",))
    assert induct(tk, "repaired")["status"] == "proved"
    hard = Induct(pi._tk_low_holds(True), "the shifted Tk_lowv2")
    slow = induct(hard, "repaired", timeout_ms=1)
    assert slow["status"] == "open" and "unknown" in slow["why"]
    with pytest.raises(ValueError, match="lemmas: unknown"):
        induct(Induct(planted_holds, lemmas=("nope",)))


def test_your_induction_may_be_given_in_cuts_and_a_false_cut_leaves_it_open():
    """`Induct(cuts=...)`: a user's step proved in pieces (each piece a case of its own, listed as a cut), and a
    planted false piece (Delta^2 <= 0 from the index rule) leaves it open with why, neither proved nor refuted."""
    from rue_verify.verify import induction as ind
    tk = pi.steps("repaired")["Tk_up1"]
    res = induct(Induct(tk.holds, "eq. Tk_up1, yours", ("tau_upper",), cuts=tk.cuts), "repaired")
    assert res["status"] == "proved" and sum(c.get("cut", False) for c in res["cases"]) == 2 * len(tk.cuts), res
    false = ind.Cut("Delta^2 <= 0", "arm k pulled (U_k >= U_1)", lambda p, s, s2: p["Delta"] * p["Delta"] <= 0,
                    ("the system's parameters", "the round:"))
    res = induct(Induct(tk.holds, "eq. Tk_up1, a false piece", ("tau_upper",), cuts=(false,)), "repaired")
    assert res["status"] == "open" and "a cut is false" in res["why"] and "Delta^2 <= 0" in res["case"], res
    with pytest.raises(ValueError, match="cuts"):
        induct(Induct(tk.holds, cuts=("Delta <= c_k",)), "repaired")


@pytest.mark.parametrize("step", ["Tk_up1", "Tk_lowv2-shifted", "gap-repaired"])
def test_the_relation_a_derivation_reads_is_tied_to_what_the_induction_decided(step):
    """Each repaired step a derivation reads states its relation (`relation(step, 'repaired')`, built from `bounds`)
    through its induction's reading case, unsat; never attached beside it. Planted readings, each a relation the
    induction did not decide (its right side 1% smaller, its counts exchanged, its sides exchanged), are each found
    not to follow (z3, sat), and a derivation link the untied finding justifies reads argued, saying why."""
    import dataclasses

    import sympy

    from rue_verify.verify import induction as ind
    from rue_verify.verify.derivation import Found, Statement, derive, from_derivation, link
    d = pi.decided(step, "repaired")[0]
    read = [c for c in d.cases if c.reading]
    assert d.proved and len(read) == 1 and read[0].answer == "unsat" and read[0].smt2, d.summary()
    f = pi.induction_finding(step, "repaired")
    r = pi.relation(step, "repaired")
    assert f.statement_tied and (f.statement_object.lhs, f.statement_object.rhs) == (r.lhs, r.rhs)
    spec = pi.steps("repaired")[step]
    for bad in (type(r)(r.lhs, r.rhs * sympy.Rational(99, 100)), r.xreplace({pi.T_1: pi.T_k, pi.T_k: pi.T_1}),
                type(r)(r.rhs, r.lhs)):
        planted = dataclasses.replace(spec, reading=dataclasses.replace(spec.reading, relation=bad))
        asked = ind.decide(pi.system("repaired"), planted, only=ind.READ)
        assert asked.cases[-1].answer == "sat" and asked.relation is None and "does not derive" in asked.unread
    # the proved step with the planted reading: holds, but states no relation, so a link it justifies is argued
    planted = dataclasses.replace(spec, reading=dataclasses.replace(spec.reading, relation=type(r)(r.rhs, r.lhs)))
    f_bad = ind.finding(ind.decide(pi.system("repaired"), planted))
    assert f_bad.verdict == "holds" and getattr(f_bad, "statement_object", None) is None
    f_bad.rests_on = ()              # its lemmas set aside here, so that only the missing reading is at stake
    op = {"LessThan": "<=", "StrictLessThan": "<"}[type(r).__name__]
    row = from_derivation(derive(Statement(r.lhs, op, r.rhs), [link(op, r.rhs, Found(f_bad))]), "d").proof["steps"][0]
    assert row["status"] == "argued" and "its reading was not tied" in row["detail"], row
