"""The repaired steps about RUE's histories (Lemma TwoBoundOnC's two equations, eqs. prob-dk/prob-dk-v1,
eqn:T1n and E_2) and the eta condition are derivations that end at their formulas: each chain closes on a
statement built from `bounds`, the induction that decides a step about every state on E is a `Found` premise
beside the lemmas it assumed (premises resting on their nodes). Planted wrong formulas (monkeypatched
`bounds` functions, never an edit of the ledger) leave each proof unestablished: the induction is decided
afresh on the planted formula (its cache is keyed by the formulas it reads), or a link no longer holds; and a
planted eq. Tk_up1 leaves eqn:T1n's repair, which rests on it, unproved in a resolved graph."""

import pytest
import sympy

from bounds import estimation as es
from bounds import repaired as rp
from bounds import theorems as th
from rue_verify.ledger import proof_decomposition as pd
from rue_verify.ledger import proof_induction as pi
from rue_verify.ledger import section4 as s4
from rue_verify.ledger.model_points import K_, n_, s0_, s_
from rue_verify.verify import Finding, Repair
from rue_verify.verify.claims import ClaimResult
from rue_verify.verify.derivation import from_derivation, instance_of
from rue_verify.verify.graph import Node, resolve

pytest.importorskip("z3")


def _established(f) -> bool:
    """The chain closes and every row is certified, but for the premises resting on other nodes (the graph
    matches those against the nodes' statements)."""
    p = f.proof
    return p["chain"]["closed"] and all(s["status"] == "certified" for s in p["steps"] if s["status"] != "rests")


def _rests(f) -> set:
    return {s["uses"] for s in f.proof["steps"] if s["status"] == "rests"}


@pytest.fixture
def small_search(monkeypatch):
    """The history search behind a planted step's counterexample at K = 2, n = 5 only (a smaller search can
    only leave the step open instead of refuted: not proved either way)."""
    monkeypatch.setattr(pi, "CONCRETE_N", {2: 5})


def test_the_repaired_steps_are_closed_derivations_ending_at_their_formulas():
    Dk, Dm = pi.Delta_k, pi.Delta_min
    cases = [
        (pd.eta_cond_derivation(), rp.eta_condition_repaired(K_, s0_, s_), set()),          # its left side, < 0
        (pd.tk_up_derivation("repaired"), rp.Tk_upper_repaired(Dk, K_, n_, s0_, s_), {"sec:tau/upper"}),
        (pd.tk_low_derivation("repaired"), pi.relation("Tk_lowv2-shifted", "repaired").rhs,
         {"sec:tau/upper", "repair:LEM-TAU-LOWER"}),
        (pd.pf_e1_derivation(), (1 + rp.eta_repaired(K_, s0_, s_)) * sympy.sqrt(th.beta(K_, s0_, s_))
         * es.c_tilde(pi.T_1 - 1, n_, s0_, s_), {"sec:tau/upper", "repair:LEM-TK-LOW", "repair:PF-ETA-COND"}),
        (pd.t1n_derivation("repaired"), n_ - (K_ - 1) * rp.Tk_upper_repaired(Dm, K_, n_, s0_, s_),
         {"repair:LEM-TK-UP"}),
        (pd.t1n_e2_derivation(), n_ / 2 - 2 * (K_ - 1), {"repair:LEM-TK-UP"}),
    ]
    for f, formula, rests in cases:
        st = f.proof["chain"]["statement"]
        assert _established(f), f.detail
        lhs, _, rhs, _ = instance_of(st, {})
        side = lhs if rhs == 0 else rhs
        assert sympy.simplify(side - formula) == 0, st["text"]
        assert _rests(f) == rests, (st["text"], _rests(f))
    # the steps an induction decided are found by it, for every budget n
    found = [s for s in pd.tk_up_derivation("repaired").proof["steps"] if s.get("justification", "").startswith(
        "found by")]
    assert found and found[0]["status"] == "certified" and "every budget n" in found[0]["statement"]


def test_the_paper_forms_break_at_their_induction():
    """Tk_up1 and Tk_lowv2 as printed: the same derivations, their induction refuted by a replayed history."""
    for f in (pd.tk_up_derivation("paper"), pd.tk_low_derivation("paper")):
        assert f.proof["chain"]["closed"] and f.proof["status"] == "broken", f.detail
        assert f.proof["steps"][0]["status"] == "refuted" and f.witness["params"]["history"]["pulls"]


def test_the_decomposition_and_prob_dk_are_proved_probability_inequalities():
    for f in (pd.decomp_derivation(), pd.prob_dk_derivation()):
        assert f.proof["status"] == "proved", f.detail
        assert [s.get("cites") for s in f.proof["steps"][:-1]] == [pd.SPLIT.name, pd.MONOTONE.name]


def test_a_planted_eta_leaves_the_eta_condition_unproved(monkeypatch):
    """eta_repaired with rho's 4 moved to 2: the condition is then 2 rho/(1 + 2 rho)^2 > 0."""
    monkeypatch.setattr(rp, "eta_repaired", lambda K, s0, s, beta_1=None: 1 / (1 + 2 * sympy.sqrt(th.beta(K, s0, s))))
    f = pd.eta_cond_derivation()
    assert not _established(f) and f.proof["status"] != "proved"
    assert f.proof["steps"][0]["status"] != "certified"


def test_a_planted_tk_upper_is_decided_afresh_and_not_proved(monkeypatch, small_search):
    """Tk_upper_repaired with its 2 (1+eta)^2 beta sigma^2 log n halved: the induction is decided on the planted
    formula (not read from the cache of the right one) and fails at the base state."""
    assert _established(pd.tk_up_derivation("repaired"))            # the right one, cached
    good = rp.Tk_upper_repaired
    monkeypatch.setattr(rp, "Tk_upper_repaired", lambda D, K, n, s0, s: 2 + (good(D, K, n, s0, s) - 2) / 2)
    f = pd.tk_up_derivation("repaired")
    assert f.proof["chain"]["closed"] and not _established(f)
    found = next(s for s in f.proof["steps"] if s.get("justification", "").startswith("found by"))
    assert found["status"] in ("refuted", "argued"), found


def test_a_planted_beta_leaves_the_shifted_tk_lowv2_unproved(monkeypatch, small_search):
    """beta with its sigma^2/(K sigma0^2) dropped (beta = 1) in the statement and the induction's states."""
    monkeypatch.setattr(th, "beta", lambda K, s0, s: sympy.Integer(1) + 0 * K)
    f = pd.tk_low_derivation("repaired")
    assert f.proof["chain"]["closed"] and not _established(f)


def test_ctilde_without_its_2_leaves_pf_e1s_repair_unproved(monkeypatch, small_search):
    """ctilde as eq. prob-dk-v1 prints its threshold, sqrt(sigma0^2 sigma^2 log n/(T sigma0^2 + sigma^2)): the
    induction at every state E covers no longer closes."""
    monkeypatch.setattr(es, "c_tilde", lambda T, n, s0, s: es.c_width(es.tau_sq_tilde(T, s0, s) / 2, n))
    f = pd.pf_e1_derivation()
    assert f.proof["chain"]["closed"] and not _established(f)


def test_a_planted_bound_or_threshold_leaves_eqn_t1n_unproved(monkeypatch):
    """Tk_upper_repaired growing with the gap (Delta^-2 read as Delta^2) breaks the step from the largest count's
    gap to Delta_min; E_2's threshold with its 2 moved to 1 breaks the last step to n/2 - 2(K-1)."""
    good = rp.Tk_upper_repaired
    with monkeypatch.context() as m:
        m.setattr(rp, "Tk_upper_repaired", lambda D, K, n, s0, s: 2 + (good(D, K, n, s0, s) - 2) * D ** 4)
        f = pd.t1n_derivation("repaired")
        assert not _established(f)
        assert [s["status"] for s in f.proof["steps"] if "falls as the gap grows" in s["text"]] != ["certified"]
    e2 = th.E2_threshold
    monkeypatch.setattr(th, "E2_threshold", lambda K, n, s0, s: e2(K, n, s0, s) / 2)
    g = pd.t1n_e2_derivation()
    assert not _established(g)


def _graph():
    """sec:tau/upper (Lemma sec:tau's right side, section4's derivation), eq. Tk_up1 and eqn:T1n with their
    repairs' derivations, resolved: the premises resting on nodes are matched against their statements."""
    table = (Node("sec:tau/upper", "lemma", "L", "tau upper", (), "LEM-TAU-UPPER"),
             Node("Tk_up1", "equation", "E", "Tk_up1", ("sec:tau/upper",), "LEM-TK-UP"),
             Node("eqn:T1n", "equation", "E", "eqn:T1n", ("Tk_up1",), "PF-T1N-E2"))
    up = ClaimResult("LEM-TAU-UPPER", "L", "s", "holds", "", [from_derivation(s4.tau_upper_derivation(), "d")], 0.0)
    tk = ClaimResult("LEM-TK-UP", "E", "s", "refuted", "", [Finding("refuted", "d", "x")], 0.0,
                     repairs=[Repair("s", None, [pd.tk_up_derivation("repaired")])])
    t1 = ClaimResult("PF-T1N-E2", "E", "s", "refuted", "", [Finding("refuted", "d", "x")], 0.0,
                     repairs=[Repair("s", None, [pd.t1n_derivation("repaired")])])
    return resolve([up, tk, t1], table)


def test_eqn_t1ns_repair_is_proved_only_as_far_as_the_tk_up1_it_rests_on(monkeypatch, small_search):
    g = _graph()
    for key in ("repair:LEM-TK-UP", "repair:PF-T1N-E2"):
        assert g.nodes[key]["proof"] == "proved", (key, g.nodes[key]["proof_steps"])
    assert "sec:tau/upper" in g.nodes["repair:LEM-TK-UP"]["uses"]
    good = rp.Tk_upper_repaired
    monkeypatch.setattr(rp, "Tk_upper_repaired", lambda D, K, n, s0, s: 2 + (good(D, K, n, s0, s) - 2) / 2)
    bad = _graph()
    assert bad.nodes["repair:LEM-TK-UP"]["proof"] != "proved"
    rep = bad.nodes["repair:PF-T1N-E2"]
    assert rep["proof"] != "proved"
    step = next(s for s in rep["proof_steps"] if s["uses"] == "repair:LEM-TK-UP")
    assert step["status"] != "certified", step
