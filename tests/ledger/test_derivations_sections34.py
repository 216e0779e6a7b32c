"""Sections 3 and 4's proofs as derivations (`verify.derive`): each statement is built from the formulas of
`bounds`, so a wrong formula planted there (through a copy: monkeypatched, never by editing the ledger) leaves
the node's proof unproved, while the formulas as shipped prove it."""

import pytest
import sympy

import bounds.estimation
import bounds.gap
import bounds.repaired
import bounds.theorems
from rue_verify.ledger import Mode, proof_graph, section3, section4
from rue_verify.verify.derivation import from_derivation


def _proved(f) -> bool:
    return f.proof["status"] == "proved" and f.proof["chain"]["closed"]


def _results(*ids):
    """The claims' results, each run now (so a formula monkeypatched at the time is the one they use)."""
    from rue_verify.ledger import REGISTRY
    from rue_verify.verify.claims import run_claim
    return [run_claim(REGISTRY[cid], Mode()) for cid in ids]


def _graph(results):
    return proof_graph.resolve(results)


# ---------------------------------------------------------------- Section 4: Lemma sec:tau and eq. toTilde
def test_lemma_sec_tau_upper_and_totilde_are_proved_derivations_resting_on_each_other():
    g = _graph(_results("LEM-TAU-UPPER", "PF-TOTILDE", "LEM-TAU-LOWER"))
    up, tilde, low = g.nodes["sec:tau/upper"], g.nodes["toTilde"], g.nodes["repair:LEM-TAU-LOWER"]
    assert up["proof"] == "proved" and up["chain"]["closed"], up["proof"]
    assert tilde["proof"] == "proved" and tilde["chain"]["closed"] and tilde["uses"] == ["sec:tau/upper"], tilde
    premise = tilde["own"]["steps"][0]
    assert premise["status"] == "certified" and "its statement, instantiated, is this link" in premise["detail"]
    assert low["proof"] == "proved" and low["chain"]["closed"] and low["status"] == "certified", low
    # the statements are the formulas of bounds: tau_k^2 against tau_sq_upper and tau_sq_lower_repaired
    st = section4.tau_upper_statement()
    assert st.lhs == section4.TAU_SQ and st.rhs == bounds.estimation.tau_sq_upper(
        section4.T_K, section4.K_, section4.s0_, section4.s_)
    assert section4.tau_lower_repaired_statement().rhs == bounds.repaired.tau_sq_lower_repaired(
        section4.T_K, section4.K_, section4.s0_, section4.s_)
    assert {str(s) for s in st.relation().free_symbols | set().union(*(g_.free_symbols for g_ in st.given))} == {
        "tau_sq", "T_k", "D", "K", "sigma0_sq", "sigma_sq"}


def test_a_beta_that_makes_totilde_false_at_one_pull_leaves_it_unproved(monkeypatch):
    """beta = 1 + sigma^2/(2 K sigma0^2) (half the paper's term): at T_j = 1 for every arm, tau_k^2 is the upper side
    itself, so c_{k,n} > sqrt(beta) ctilde_{k,n}. The link to the statement's right side no longer holds."""
    good = from_derivation(section4.totilde_derivation(), "d")           # alone, pending on its Rests only
    assert [s["status"] for s in good.proof["steps"]] == ["rests", "certified", "certified", "certified"]
    real = bounds.theorems.beta
    monkeypatch.setattr(bounds.theorems, "beta", lambda K, s0, s: 1 + s / (2 * K * s0))
    f = section4.check_totilde(Mode())[1][0]
    assert f.proof["status"] != "proved" and f.proof["steps"][2]["status"] != "certified", f.proof["steps"][2]
    g = _graph(_results("LEM-TAU-UPPER", "PF-TOTILDE"))
    assert g.nodes["toTilde"]["proof"] != "proved", g.nodes["toTilde"]["proof"]
    # and the planted beta is indeed wrong at one pull per arm: c > sqrt(beta) ctilde there
    T, K, s0, s, n = 1, 3, 1.0, 2.0, 100.0
    tau = float(bounds.estimation.posterior_variance_formula([T] * K, s0, s)[0])
    assert float(bounds.estimation.c_width(tau, n)) > float(sympy.sqrt(1 + s / (2 * K * s0))) * float(
        bounds.estimation.c_tilde(T, n, s0, s))
    assert float(real(K, s0, s)) == pytest.approx(1 + s / (K * s0))


@pytest.mark.parametrize("wrong", [
    lambda T, K, s0, s: bounds.estimation.tau_sq_tilde(T, s0, s) * (1 + s / (2 * K * s0)),    # a constant moved
    lambda T, K, s0, s: bounds.estimation.tau_sq_tilde(T, s0, s),                             # a term dropped
])
def test_a_wrong_upper_side_of_lemma_sec_tau_leaves_its_proof_unproved(monkeypatch, wrong):
    monkeypatch.setattr(bounds.estimation, "tau_sq_upper", wrong)
    f = section4.check_tau_upper(Mode())[1][0]
    assert f.proof["status"] != "proved"
    assert f.proof["steps"][-2]["status"] != "certified", f.proof["steps"][-2]


def test_a_node_statement_that_is_not_the_premise_leaves_the_step_resting_on_it_argued(monkeypatch):
    """sec:tau/upper proved with a side 1% larger (still true, so its own proof closes): toTilde's premise
    tau_k^2 <= tau_sq_upper is no instance of that statement, so toTilde is not proved."""
    real = bounds.estimation.tau_sq_upper
    with monkeypatch.context() as m:
        m.setattr(bounds.estimation, "tau_sq_upper", lambda *a: real(*a) * sympy.Rational(101, 100))
        up = _results("LEM-TAU-UPPER")
    g = _graph(up + _results("PF-TOTILDE"))
    assert g.nodes["sec:tau/upper"]["proof"] == "proved"
    premise = g.nodes["toTilde"]["own"]["steps"][0]
    assert premise["status"] == "argued" and "instantiated" in premise["detail"], premise
    assert g.nodes["toTilde"]["proof"] != "proved"


@pytest.mark.parametrize("wrong", [
    lambda T, K, s0, s: s0 * s / (T * s0 + s) * (1 + 2 * s / (K * (T * s0 + s))),    # a constant moved
    lambda T, K, s0, s: s0 * s / (T * s0 + s) * (1 + s / (T * s0 + s)),              # K dropped
])
def test_a_wrong_repaired_lower_side_of_lemma_sec_tau_leaves_the_repair_unproved(monkeypatch, wrong):
    monkeypatch.setattr(bounds.repaired, "tau_sq_lower_repaired", wrong)
    rep = section4.repair_tau_lower(Mode())
    assert rep.proof["status"] != "proved" and rep.verdict != "holds", rep.proof
    monkeypatch.undo()
    good = section4.repair_tau_lower(Mode())
    assert good.proof["status"] == "proved" and good.verdict == "holds"


# ---------------------------------------------------------------- Section 3: Theorem 3.1 repaired, Lemma A.1, the facts
def test_section_3s_derivations_are_proved_and_rest_on_fact_2():
    g = _graph(_results("THM-GAP", "LEM-A1-FORMULA", "FACT-1-3", "FACT-RANGE"))
    for key in ("repair:THM-GAP", "A1:formula", "MGF-inequality", "fact-2", "fact-3/left", "repair:FACT-1-3",
                "fact:range"):
        n = g.nodes[key]
        assert n["proof"] == "proved" and n["chain"]["closed"] and n["status"] == "certified", (key, n["proof"])
    for key in ("repair:THM-GAP", "A1:formula"):
        assert g.nodes[key]["uses"] == ["fact-2"], g.nodes[key]["uses"]
        steps = g.nodes[key].get("proof_steps") or g.nodes[key]["own"]["steps"]
        rest = next(s for s in steps if s.get("uses") == "fact-2")
        assert rest["status"] == "certified" and "its statement, instantiated, is this link" in rest["detail"]
    # the statements' right sides are the formulas of bounds
    assert section3.gap_constant_proof().statement.rhs == bounds.repaired.theorem_3_1_repaired(
        section3.ALPHA_GAP, section3.K_, section3.s0_)
    assert section3.range_derivation().statement.rhs == bounds.gap.range_bound(section3.K_, section3.s0_)


@pytest.mark.parametrize("wrong", [
    lambda K: 1.4 + 0 * K,                                                      # the sqrt(2 ln(K+1)) term dropped
    lambda K: sympy.Rational(7, 5) + sympy.sqrt(sympy.log(K + 1)) / 2,            # its constant moved (2 -> 1/4)
])
def test_a_wrong_constant_of_the_repaired_theorem_3_1_leaves_its_proof_unproved(monkeypatch, wrong):
    """C_K planted below sqrt(2 ln K) for large K (false there: e_*(alpha)/alpha -> E[X_(1)] ~ sqrt(2 ln K)): the
    last link, sqrt(2 ln K) alpha/sigma0 <= C_K alpha/sigma0, is no longer decided."""
    monkeypatch.setattr(bounds.repaired, "gap_constant_repaired", wrong)
    f = from_derivation(section3.gap_constant_proof(), "d")
    last = f.proof["steps"][-2]
    assert last["status"] != "certified" and f.proof["status"] != "proved", last


def test_a_repaired_theorem_3_1_without_its_sigma0_leaves_its_proof_unproved(monkeypatch):
    real = bounds.repaired.theorem_3_1_repaired
    monkeypatch.setattr(bounds.repaired, "theorem_3_1_repaired", lambda a, K, s0=1.0: real(a, K, 1))
    f = from_derivation(section3.gap_constant_proof(), "d")
    assert f.proof["steps"][-2]["status"] != "certified" and f.proof["status"] != "proved"


def test_a_wrong_repaired_mills_bound_leaves_fact_3s_repair_unproved(monkeypatch):
    """1 - Phi(t) <= phi(t)/(2t) (a constant moved) is false for large t; the last link fails."""
    real = bounds.gap.mills_upper
    monkeypatch.setattr(bounds.gap, "mills_upper", lambda t: real(t) / 2)
    rep = section3.repair_fact3(Mode())
    assert rep.proof["status"] != "proved" and rep.verdict != "holds", rep.proof
    monkeypatch.undo()
    good = section3.repair_fact3(Mode())
    assert good.proof["status"] == "proved" and good.verdict == "holds"


@pytest.mark.parametrize("name, wrong, builder", [
    ("fact1_tail_bound", lambda a: sympy.exp(-a ** 2), "fact1_derivation"),                 # the 1/2 dropped
    ("mills_lower", lambda t: 2 * t / (t ** 2 + 1) * sympy.exp(-t ** 2 / 2) / sympy.sqrt(2 * sympy.pi),
     "mills_lower_derivation"),                                                             # a constant moved
    ("range_bound", lambda K, s0=1.0: sympy.sqrt(s0) * sympy.sqrt(2 * sympy.log(K)), "range_derivation"),  # 2 dropped
])
def test_a_wrong_fact_formula_leaves_the_facts_derivation_unproved(monkeypatch, name, wrong, builder):
    assert _proved(from_derivation(getattr(section3, builder)(), "d"))
    monkeypatch.setattr(bounds.gap, name, wrong)
    f = from_derivation(getattr(section3, builder)(), "d")
    assert f.proof["status"] != "proved" and any(s["status"] != "certified" for s in f.proof["steps"]), f.proof
