"""The repaired statements of Section 2 and of the discussion (Section 5.1) as derivations: each reads proved
from its formulas in bounds/, and a planted wrong formula (through a copy: a builder argument or a
monkeypatched bounds function) leaves its proof unproved."""

import pytest
import sympy

import bounds.certify
import bounds.repaired
import bounds.section2
import bounds.theorems
from rue_verify.ledger import discussion, section2
from rue_verify.verify import Mode
from rue_verify.verify.derivation import Statement, from_derivation, replaced
from rue_verify.verify.statements import rel


def _proof(d):
    return from_derivation(d, "d").proof


def _not_proved(proof) -> bool:
    return proof["status"] != "proved" and (
        not proof["chain"]["closed"] or any(r["status"] != "certified" for r in proof["steps"]))


@pytest.mark.parametrize("repair", [section2.repair_lower_h2, section2.repair_full_alpha,
                                    discussion.repair_disc_rho, discussion.repair_disc_hb])
def test_each_repair_is_a_closed_derivation_of_its_formula(repair):
    rep = repair(Mode())
    proof = next(f.proof for f in rep.findings if f.proof)
    assert proof["chain"]["closed"] and proof["status"] == "proved", proof["weakest"]
    assert all(r["status"] == "certified" for r in proof["steps"]), [r for r in proof["steps"]
                                                                     if r["status"] != "certified"]
    assert rep.verdict == "holds"


def test_lower_h2_ends_at_log_2k_h2_through_a_telescoped_sum():
    """The text's steps are links: the harmonic factor bounded term by term (not an identity standing in for the
    inequality), its sum telescoped, H_2 <= H as a fact; both inductions proved."""
    proof = _proof(section2.lower_h2_derivation())
    just = [r.get("justification", "") for r in proof["steps"]]
    assert "rule: Termwise" in just and "rule: Telescope" in just
    st = proof["chain"]["statement"]
    assert st["op"] == "<=" and st["lhs"] == str(section2.H_)
    assert st["rhs"] == str(sympy.log(2 * section2.K_ARMS) * section2.H2_)
    assert "H_2 <= H" in proof["chain"]["facts"]


def test_h_and_h2_are_objects_of_the_gaps_not_free_numbers():
    """H <= log(2K) H_2 is false for free numbers H, H_2 (H = 10, H_2 = 1, K = 2): the statement speaks of H and H_2
    built from the sorted gaps, so its only free symbols are K and Delta_min, and a step that binds H to a number
    is not matched to it."""
    from rue_verify.verify.derivation import check_instance
    st = section2.lower_h2_derivation().statement
    assert {str(x) for x in st.lhs.free_symbols | st.rhs.free_symbols} == {"K"}
    ten = sympy.Integer(10)
    why = check_instance(st.record(), {"op": "<=", "bind": {"H": ten}}, st,
                         ({"H": ten}, ten, "<=", sympy.log(4) * 1, ()))
    assert why and "binds H" in why, why


@pytest.mark.parametrize("wrong", [lambda i: 1 / (i + 1), lambda i: 1 / i ** 2, lambda i: sympy.Rational(101, 100) / i])
def test_lower_h2_with_a_planted_harmonic_factor_is_not_proved(wrong):
    assert _not_proved(_proof(section2.lower_h2_derivation(harmonic=wrong)))


def test_lower_h2_with_a_planted_induction_is_not_proved(monkeypatch):
    """A round that lets a term be 2 H_2/(t+1) (H_2 taken as the largest i Delta_(i)^-2 / 2): the induction is
    not proved, and the link it justified is not certified."""
    good = bounds.certify.h_le_harmonic_h2_induction

    def wrong():
        spec = dict(good())
        t1, y, M = (next(s for s in spec["round"][1].free_symbols if s.name == n) for n in ("t'", "y_(t+1)", "H_2"))
        spec["round"] = (spec["round"][0], rel(t1 * y, "<=", 2 * M), *spec["round"][2:])
        return spec
    monkeypatch.setattr(bounds.certify, "h_le_harmonic_h2_induction", wrong)
    proof = _proof(section2.lower_h2_derivation())
    assert _not_proved(proof)
    assert any(r["status"] == "argued" and ("not proved" in r["detail"] or "open" in r["detail"])
               for r in proof["steps"]), [r["detail"] for r in proof["steps"]]


def test_lower_h2_with_unsorted_gaps_is_not_proved(monkeypatch):
    """H_2 <= H's induction with the next gap allowed above Delta_(i) (the sort dropped): not proved."""
    good = bounds.certify.h2_le_h_induction

    def wrong():
        spec = dict(good())
        spec["round"] = tuple(r for r in spec["round"] if not (isinstance(r, sympy.Le) and "Delta_(i)" in str(r.rhs)))
        return spec
    monkeypatch.setattr(bounds.certify, "h2_le_h_induction", wrong)
    assert _not_proved(_proof(section2.lower_h2_derivation()))


@pytest.mark.parametrize("which, wrong", [
    ("feller_small_gap_form", lambda f: lambda n, a, s: f(n, a, s) * sympy.Rational(101, 100)),
    ("feller_small_gap_form", lambda f: lambda n, a, s: f(n, a * sympy.Rational(101, 100), s)),
    ("full_alpha_rhs", lambda f: lambda n: f(n) * sympy.Rational(99, 100)),
    ("full_alpha_rhs", lambda f: lambda n: f(n) * n ** sympy.Rational(1, 100)),
])
def test_full_alpha_with_a_planted_formula_is_not_proved(monkeypatch, which, wrong):
    monkeypatch.setattr(bounds.section2, which, wrong(getattr(bounds.section2, which)))
    assert _not_proved(_proof(section2.full_alpha_derivation()))


def test_full_alpha_under_the_papers_condition_is_not_proved():
    """alpha >= sigma^2 (the paper's condition) in place of alpha <= sigma^2: the cited result's condition
    y <= log n is not established, so the link is argued."""
    d = section2.full_alpha_derivation()
    n, a, s = section2.N_, section2.ALPHA_, section2.SIGMA_SQ_
    st = Statement(d.statement.lhs, "<=", d.statement.rhs,
                   (rel(a, ">=", s), rel(sympy.sqrt(3), "<=", a * sympy.log(n) / s)))
    proof = _proof(replaced(d, statement=st))
    cited = next(r for r in proof["steps"] if r.get("cites"))
    assert _not_proved(proof) and cited["status"] == "argued" and "a <= b: " in cited["detail"], cited


@pytest.mark.parametrize("wrong", [
    lambda f: lambda K, s0, s: f(K, s0, s) * sympy.Rational(101, 100),
    lambda f: lambda K, s0, s: sympy.sqrt((K * (s0 + s) + s / s0) / (K * (s0 + s) + 2 * s0)),
])
def test_rho_with_a_planted_formula_is_not_proved(monkeypatch, wrong):
    monkeypatch.setattr(bounds.theorems, "rho", wrong(bounds.theorems.rho))
    assert _not_proved(_proof(discussion.rho_derivation()))


@pytest.mark.parametrize("wrong", [
    lambda f: lambda K, s0, s: f(K, s0, s) * sympy.Rational(101, 100),
    lambda f: lambda K, s0, s: (K + 2 * s / s0) * s,
    lambda f: lambda K, s0, s: (K + s / s0) * s + K,
])
def test_hb_with_a_planted_formula_is_not_proved(monkeypatch, wrong):
    monkeypatch.setattr(bounds.theorems, "H_b", wrong(bounds.theorems.H_b))
    assert _not_proved(_proof(discussion.hb_derivation()))


def _broken(proof) -> bool:
    """A link (not a Rests, which the graph settles) is argued or refuted, or the chain does not close."""
    return not proof["chain"]["closed"] or any(r["status"] in ("argued", "refuted") for r in proof["steps"])


def test_lower_chain_rests_on_h_def_and_the_lower_h2_repair_matched_to_their_statements():
    """In the graph, the two premises are instances of the nodes' computed statements (H >= 2 Delta_min^-2, H <=
    log(2K) H_2) and the repair reads proved; its statement ends at exp(-5n/(p(1-p) H_2))."""
    from rue_verify.ledger import Mode as LedgerMode
    from rue_verify.ledger import run_ledger
    g = run_ledger(LedgerMode(), ["SEC2-H-DEF", "SEC2-LOWER-H2", "SEC2-LOWER-CHAIN"]).graph
    node = g.nodes["repair:SEC2-LOWER-CHAIN"]
    assert node["proof"] == "proved" and set(node["uses"]) == {"H-def", "repair:SEC2-LOWER-H2"}, node
    rested = [s for s in node["proof_steps"] if s.get("uses")]
    assert len(rested) == 2 and all(s["status"] == "certified" and "instantiated, is this link" in s["detail"]
                                    for s in rested), rested
    assert not _broken(_proof(section2.lower_chain_derivation()))


@pytest.mark.parametrize("module, which, wrong", [
    (bounds.repaired, "ucbe_lower_chain_threshold_repaired",
     lambda f: lambda n, K, p: f(n, K, p) * sympy.Rational(101, 100)),
    (bounds.repaired, "ucbe_lower_chain_threshold_repaired", lambda f: lambda n, K, p: f(n, K / 2, p)),
    (bounds.section2, "ucbe_lower_bound", lambda f: lambda n, p, H2: f(n, p, H2 * sympy.Rational(99, 100))),
    (bounds.section2, "ucbe_lower_bound", lambda f: lambda n, p, H2: f(n, p, H2) ** sympy.Rational(101, 100)),
])
def test_lower_chain_with_a_planted_formula_is_not_proved(monkeypatch, module, which, wrong):
    monkeypatch.setattr(module, which, wrong(getattr(module, which)))
    assert _broken(_proof(section2.lower_chain_derivation()))


def test_hole_c_decreasing_with_a_phi_with_a_pole_is_not_proved():
    """phi = w/(u - 2) has phi' = -w/(u - 2)^2 <= 0 wherever it is defined, yet phi(3) = w > -w = phi(1): the
    mean value theorem needs phi defined and continuous on [a, b], a condition of DECREASING decided like the
    others."""
    from rue_verify.verify.derivation import Cite, derive, link
    u, w = sympy.Symbol("u", real=True), sympy.Symbol("w", real=True)
    st = Statement(w, "<=", -w, given=(sympy.Gt(w, 0, evaluate=False),))
    proof = _proof(derive(st, [link("<=", -w, Cite(section2.DECREASING, {"phi": sympy.Lambda(u, w / (u - 2)), "a": 1,
                                                                          "b": 3, "c": 1}))]))
    row = proof["steps"][0]
    assert proof["status"] != "proved" and row["status"] == "argued"
    assert [c["state"] for c in row["conditions"]][-1] == "unchecked" and "u - 2" in row["detail"]
    # with the pole outside [a, b] = [3, 4] the same function decreases there: proved
    st2 = Statement(w / 2, "<=", w, given=(sympy.Gt(w, 0, evaluate=False),))
    ok = _proof(derive(st2, [link("<=", w, Cite(section2.DECREASING, {"phi": sympy.Lambda(u, w / (u - 2)),
                                                                      "a": 3, "b": 4, "c": 3}))]))
    assert ok["status"] == "proved", ok["steps"]


def test_hole_c_decreasing_at_numbers_is_argued_not_a_crash():
    """At numbers sympy evaluates the instance phi(b) <= phi(a) to False (or True): an argued link, not an
    AttributeError."""
    from rue_verify.verify.derivation import Cite, derive, link
    u = sympy.Symbol("u", real=True)
    proof = _proof(derive(Statement(-1, "<=", 1), [link("<=", 1, Cite(section2.DECREASING, {
        "phi": sympy.Lambda(u, 1 / (u - 2)), "a": 1, "b": 3, "c": 1}))]))
    assert proof["status"] != "proved" and proof["steps"][0]["status"] == "argued"
    assert "sympy evaluated it" in proof["steps"][0]["detail"]
