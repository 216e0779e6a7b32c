"""Proofs as derivations (`verify.derivation`): a chain from the statement's computed left side to its
right side, each link justified; and the planted errors around the relations that a list of separately
checked steps let through (a flipped citation, a union bound that misses a term, an empty or content-free
condition, a Gaussian tail at a negative threshold, a link that assumes what nothing established)."""

import pytest
import sympy

from bounds import estimation as es
from bounds import theorems as th
from rue_verify.verify import Finding, Repair, from_proof
from rue_verify.verify.claims import ClaimResult
from rue_verify.verify.derivation import (
    Cite,
    CountTimesMax,
    Decide,
    Ex,
    Fact,
    Found,
    Monotone,
    Normal,
    Pr,
    Schema,
    Statement,
    Telescope,
    Termwise,
    UnionBound,
    compose,
    cup,
    derive,
    event,
    from_derivation,
    link,
    rests,
)
from rue_verify.verify.derivation import restate as derivation_restate
from rue_verify.verify.findings import made_by_engine
from rue_verify.verify.graph import Node, resolve
from rue_verify.verify.schemas import GAUSSIAN_TAIL, JENSEN
from rue_verify.verify.statements import rel

#: what a test's hand-made certified finding stands in for (an induction, a derivation): marked as the engine marks
#: its own findings, since a Finding built by hand certifies nothing in a derivation
STAND_IN = "a test's stand-in for an engine method"

T, s0, s, n, tau = sympy.symbols("T_k sigma0_sq sigma_sq n tau_sq", positive=True)
K = sympy.Symbol("K", integer=True, positive=True)
DOMAIN = (rel(n, ">", 1), rel(K, ">=", 2), rel(T, ">=", 1))


def _statuses(f) -> list[str]:
    return [r["status"] for r in f.proof["steps"]]


def _to_tilde(beta=th.beta, upper=es.tau_sq_upper, premise=True):
    """eq. toTilde as a derivation built from the formulas: c(tau) <= sqrt(beta) ctilde, from tau <= the
    upper side of Lemma sec:tau (a premise resting on that node)."""
    st = Statement(es.c_width(tau, n), "<=", sympy.sqrt(beta(K, s0, s)) * es.c_tilde(T, n, s0, s), DOMAIN)
    up = upper(T, K, s0, s)
    x = sympy.Symbol("x", positive=True)
    given = (rel(tau, "<=", up), rests("UP", T_k=T)) if premise else rel(tau, "<=", up)
    return derive(st, [link("<=", es.c_width(up, n), Monotone(es.c_width(x, n), x, given),
                            "the width increases with the variance (gcongr)"),
                       link("=", sympy.sqrt(beta(K, s0, s)) * es.c_tilde(T, n, s0, s), Decide(),
                            "the upper side is beta ttau^2")])


def test_a_derivation_from_the_formulas_closes_and_reads_its_statement():
    f = from_derivation(_to_tilde(premise=False).__class__(
        Statement(es.c_width(tau, n), "<=", sympy.sqrt(th.beta(K, s0, s)) * es.c_tilde(T, n, s0, s),
                  DOMAIN + (rel(tau, "<=", es.tau_sq_upper(T, K, s0, s)),)),
        _to_tilde(premise=False).links), "d")
    assert f.proof["chain"]["closed"] is True
    assert f.proof["status"] == "proved", f.detail
    assert f.proof["chain"]["statement"]["op"] == "<="


def test_a_wrong_formula_leaves_the_chain_open():
    """beta moved by 1% in the statement's right side: the links are the same, the chain no longer ends at it."""
    d = _to_tilde(premise=False)
    wrong = Statement(d.statement.lhs, "<=", sympy.sqrt(th.beta(K, s0, s) * sympy.Rational(99, 100))
                      * es.c_tilde(T, n, s0, s), d.statement.given + (rel(tau, "<=", es.tau_sq_upper(T, K, s0, s)),))
    f = from_derivation(derive(wrong, d.links), "d")
    assert f.proof["chain"]["closed"] is False and f.proof["status"] == "argued"
    assert "not the statement's right side" in f.proof["steps"][-1]["detail"]


def test_a_link_may_not_assume_what_nothing_established():
    f = from_derivation(_to_tilde(premise=False), "d")
    assert f.proof["status"] == "argued"
    assert "neither follows from the statement's domain" in f.proof["steps"][0]["detail"]


def test_a_premise_resting_on_a_node_is_matched_against_that_nodes_statement():
    """The premise tau <= upper rests on node UP; UP's own derivation states tau <= tau_sq_upper(T_k, ...).
    Bound right, the repair is proved; UP's formula planted wrong (a constant moved), the premise is no
    instance of it and the proof is argued."""
    def graph(upper):
        st = Statement(tau, "<=", upper(T, K, s0, s), DOMAIN)
        certificate = made_by_engine(Finding("holds", "all", "a certificate", certified=True), STAND_IN)
        up = from_derivation(derive(st, [link("<=", upper(T, K, s0, s), Found(derivation_restate(certificate, st)))]),
                             "d")
        table = (Node("up", "lemma", "L", "tau <= upper", (), "UP"), Node("top", "equation", "E", "toTilde", (), "TOP"))
        res = [ClaimResult("UP", "UP", "UP", "holds", "", [up], 0.0),
               ClaimResult("TOP", "TOP", "TOP", "refuted", "", [Finding("refuted", "x", "broken")], 0.0,
                           repairs=[Repair("toTilde", None, [from_derivation(_to_tilde(), "d")])])]
        return resolve(res, table, known={"UP", "TOP"})
    good = graph(es.tau_sq_upper)
    assert good.nodes["repair:TOP"]["proof"] == "proved", good.nodes["repair:TOP"]
    wrong = graph(lambda *a: es.tau_sq_upper(*a) * sympy.Rational(101, 100))
    rep = wrong.nodes["repair:TOP"]
    assert rep["proof"] != "proved"
    premise = rep["proof_steps"][0]
    assert premise["status"] == "argued" and "instantiated" in premise["detail"], premise


def test_a_list_of_certified_steps_is_not_a_proof_of_the_statement():
    x = sympy.Symbol("x", positive=True)
    f = from_proof([("x <= x + 1", __import__("rue_verify").verify.Holds(rel(x, "<=", x + 1)))], "d", "c")
    assert _statuses(f)[0] == "certified"
    assert f.proof["status"] == "checked" and f.partial  # certified on a part: not tied to the statement
    assert "not a chain" in f.proof["weakest"]


def test_a_flipped_citation_conclusion_does_not_certify():
    Y, y = sympy.Symbol("Y", real=True), sympy.Symbol("y", real=True)
    phi = sympy.Function("phi")
    flipped = Schema("Jensen, flipped", JENSEN.params, rel(phi(Ex(Y)), ">=", Ex(phi(Y))), JENSEN.conditions)
    L = sympy.Lambda(y, sympy.exp(y / 4))
    st = Statement(sympy.exp(Ex(Y) / 4), "<=", Ex(sympy.exp(Y / 4)))
    good = from_derivation(derive(st, [link("<=", Ex(sympy.exp(Y / 4)), Cite(JENSEN, {"phi": L, "Y": Y}))]), "d")
    assert good.proof["status"] == "proved", good.detail
    bad = from_derivation(derive(st, [link("<=", Ex(sympy.exp(Y / 4)), Cite(flipped, {"phi": L, "Y": Y}))]), "d")
    assert bad.proof["steps"][0]["status"] == "argued" and "it states >=" in bad.proof["steps"][0]["detail"]
    concave = sympy.Lambda(y, -sympy.exp(y / 4))
    st2 = Statement(-sympy.exp(Ex(Y) / 4), "<=", Ex(-sympy.exp(Y / 4)))
    bad2 = from_derivation(derive(st2, [link("<=", Ex(-sympy.exp(Y / 4)), Cite(JENSEN, {"phi": concave, "Y": Y}))]),
                           "d")
    assert bad2.proof["steps"][0]["status"] == "argued" and "fails" in bad2.proof["steps"][0]["detail"]


def test_a_union_bound_whose_sum_misses_a_term_does_not_certify():
    k = sympy.Symbol("k", integer=True)
    m = sympy.Symbol("n", integer=True, positive=True)
    A = event("A")
    U = Pr(cup(A(k), (k, 2, m)))
    ok = derive(Statement(U, "<=", sympy.Sum(Pr(A(k)), (k, 2, m))),
                [link("<=", sympy.Sum(Pr(A(k)), (k, 2, m)), UnionBound())])
    assert from_derivation(ok, "d").proof["status"] == "proved"
    short = derive(Statement(U, "<=", sympy.Sum(Pr(A(k)), (k, 3, m))),
                   [link("<=", sympy.Sum(Pr(A(k)), (k, 3, m)), UnionBound())])
    f = from_derivation(short, "d")
    assert f.proof["steps"][0]["status"] == "argued" and "[2, n]" in f.proof["steps"][0]["detail"]


def test_a_condition_on_an_empty_domain_decides_nothing():
    x = sympy.Symbol("x", real=True)
    mu, v = sympy.symbols("mu v", positive=True)
    tag = sympy.Symbol("X")
    lhs = Pr(sympy.Ge(sympy.Abs(Normal(mu, v, tag) - mu), x, evaluate=False))
    st = Statement(lhs, "<=", 2 * sympy.exp(-x ** 2 / (2 * v)), (rel(x, "<", 0),))
    # the link claims x >= 0 on a domain where x < 0: the premise is no consequence of the domain
    f = from_derivation(derive(st, [link("<=", st.rhs, Cite(GAUSSIAN_TAIL, {"m": mu, "v": v, "x": x, "tag": tag},
                                                              given=(rel(x, ">=", 0),)))]), "d")
    assert f.proof["status"] == "argued"
    assert all(r["status"] != "certified" for r in f.proof["steps"][:-1])


def test_a_gaussian_tail_at_a_negative_threshold_does_not_certify():
    mu, v = sympy.symbols("mu v", positive=True)
    tag = sympy.Symbol("X")
    x = -sympy.Rational(1, 2)
    lhs = Pr(sympy.Ge(sympy.Abs(Normal(mu, v, tag) - mu), x, evaluate=False))
    st = Statement(lhs, "<=", 2 * sympy.exp(-x ** 2 / (2 * v)))
    f = from_derivation(derive(st, [link("<=", st.rhs, Cite(GAUSSIAN_TAIL, {"m": mu, "v": v, "x": x, "tag": tag}))]),
                        "d")
    row = f.proof["steps"][0]
    assert row["status"] == "argued" and "the threshold is nonnegative: fails" in row["detail"], row["detail"]
    good = Statement(lhs.xreplace({x: sympy.Rational(1, 2)}), "<=", 2 * sympy.exp(-sympy.Rational(1, 4) / (2 * v)))
    ok = from_derivation(derive(good, [link("<=", good.rhs, Cite(GAUSSIAN_TAIL, {"m": mu, "v": v, "x": sympy.Rational(
        1, 2), "tag": tag}))]), "d")
    assert ok.proof["status"] == "proved", ok.detail


def test_a_content_free_condition_is_refused():
    x = sympy.Symbol("x", real=True)
    X2 = sympy.Symbol("X", real=True)
    with pytest.raises(ValueError, match="mentions no parameter"):
        Schema("s", (x,), rel(x, "<=", x + 1), (("nothing", rel(0, "<", 1)),))
    with pytest.raises(ValueError, match="mentions no parameter"):
        Schema("s", (x,), rel(x, "<=", x + 1), (("about another thing", rel(X2 ** 2, ">=", 0)),))
    with pytest.raises(ValueError, match="is \\(text, sympy relation\\)"):
        Schema("s", (x,), rel(x, "<=", x + 1), (("a finding", Finding("holds", "d", "x", certified=True)),))


def test_sums_termwise_count_times_max_and_telescoping():
    k = sympy.Symbol("k", integer=True)
    m = sympy.Symbol("n", integer=True, positive=True)
    a = 1 / (k + 1) ** 2
    st = Statement(sympy.Sum(a, (k, 1, m)), "<=", sympy.Sum(1 / (k * (k + 1)), (k, 1, m)))
    assert from_derivation(derive(st, [link("<=", st.rhs, Termwise())]), "d").proof["status"] == "proved"
    wrong = Statement(sympy.Sum(1 / k ** 2, (k, 1, m)), "<=", sympy.Sum(1 / (k * (k + 1)), (k, 1, m)))
    f = from_derivation(derive(wrong, [link("<=", wrong.rhs, Termwise())]), "d")
    assert f.proof["steps"][0]["status"] != "certified"
    shifted = Statement(sympy.Sum(a, (k, 1, m)), "<=", sympy.Sum(1 / (k * (k + 1)), (k, 2, m)))
    g = from_derivation(derive(shifted, [link("<=", shifted.rhs, Termwise())]), "d")
    assert g.proof["steps"][0]["status"] == "argued" and "same range" in g.proof["steps"][0]["detail"]
    cm = Statement(sympy.Sum(a, (k, 1, m)), "<=", m / 4)
    assert from_derivation(derive(cm, [link("<=", m / 4, CountTimesMax(sympy.Rational(1, 4)))]), "d"
                           ).proof["status"] == "proved"
    cm_bad = Statement(sympy.Sum(a, (k, 1, m)), "<=", (m - 1) / 4)
    assert from_derivation(derive(cm_bad, [link("<=", (m - 1) / 4, CountTimesMax(sympy.Rational(1, 4)))]), "d"
                           ).proof["steps"][0]["status"] == "argued"
    tel = Statement(sympy.Sum(1 / k - 1 / (k + 1), (k, 1, m)), "==", 1 - 1 / (m + 1))
    assert from_derivation(derive(tel, [link("=", 1 - 1 / (m + 1), Telescope(-1 / k, k))]), "d"
                           ).proof["status"] == "proved"
    tel_bad = Statement(sympy.Sum(1 / k - 1 / (k + 1), (k, 1, m)), "==", 1 - 1 / m)
    assert from_derivation(derive(tel_bad, [link("=", 1 - 1 / m, Telescope(-1 / k, k))]), "d"
                           ).proof["status"] == "argued"


def test_a_fact_established_earlier_is_used_only_as_it_was_stated():
    x = sympy.Symbol("x", positive=True)
    fact = derive(Statement(sympy.log(1 + x), "<=", x), [link("<=", x, Decide())])
    st = Statement(2 * sympy.log(1 + x), "<=", 2 * x)
    ok = derive(st, [link("<=", 2 * x, Decide(given=((rel(sympy.log(1 + x), "<=", x), Fact("log")),)))],
                facts={"log": fact})
    f = from_derivation(ok, "d")
    assert f.proof["status"] == "proved", f.detail
    other = derive(st, [link("<=", 2 * x, Decide(given=((rel(sympy.log(1 + x), "<=", x / 2), Fact("log")),)))],
                   facts={"log": fact})
    g = from_derivation(other, "d")
    assert g.proof["status"] == "argued"


def test_a_found_link_reads_as_its_finding_was_decided():
    x = sympy.Symbol("x", positive=True)
    st = Statement(x, "<=", x + 1)
    sampled = made_by_engine(Finding("holds", "1000 points", "no counterexample"), STAND_IN)
    f = from_derivation(derive(st, [link("<=", x + 1, Found(derivation_restate(sampled, st)))]), "d")
    assert f.proof["status"] == "checked"
    refuted = Finding("refuted", "x", "a counterexample", witness={"params": {"x": 1}})
    assert from_derivation(derive(st, [link("<=", x + 1, Found(refuted))]), "d").proof["status"] == "broken"


def test_links_compose_only_one_way():
    assert compose(["<=", "==", "<"]) == "<"
    assert compose(["==", "=="]) == "=="
    assert compose([">=", ">"]) == ">"
    assert compose(["<=", ">="]) is None
    x = sympy.Symbol("x", positive=True)
    st = Statement(x, "<", x + 2)
    f = from_derivation(derive(st, [link("<=", x + 1, Decide()), link("<=", x + 2, Decide())]), "d")
    assert f.proof["status"] == "argued" and "compose to <=" in f.proof["steps"][-1]["detail"]
    g = from_derivation(derive(st, [link("<", x + 1, Decide()), link("<=", x + 2, Decide())]), "d")
    assert g.proof["status"] == "proved"


def test_one_finding_justifies_one_link():
    """A certified finding (an induction, a search) decides one relation: the same object offered for two
    links certifies the first only."""
    x = sympy.Symbol("x", positive=True)
    cert = made_by_engine(Finding("holds", "all", "a certificate", certified=True), STAND_IN)
    st = Statement(x, "<=", x + 2)
    derivation_restate(cert, Statement(x, "<=", x + 1))
    f = from_derivation(derive(st, [link("<=", x + 1, Found(cert)), link("<=", x + 2, Found(cert))]), "d")
    assert [r["status"] for r in f.proof["steps"]][:2] == ["certified", "argued"]
    assert "already justifies step 1" in f.proof["steps"][1]["detail"]
    other = made_by_engine(Finding("holds", "all", "another certificate", certified=True), STAND_IN)
    derivation_restate(other, Statement(x + 1, "<=", x + 2))
    g = from_derivation(derive(st, [link("<=", x + 1, Found(cert)), link("<=", x + 2, Found(other))]), "d")
    assert g.proof["status"] == "proved"


def test_a_statement_whose_domain_is_empty_proves_nothing():
    """Every link and every condition is 'true' on an empty domain; the engine decides the negation too, and
    a negation that is also certified leaves the link argued."""
    x = sympy.Symbol("x", real=True)
    mu, v = sympy.symbols("mu v", positive=True)
    tag = sympy.Symbol("X")
    lhs = Pr(sympy.Ge(sympy.Abs(Normal(mu, v, tag) - mu), x, evaluate=False))
    st = Statement(lhs, "<=", 2 * sympy.exp(-x ** 2 / (2 * v)), (rel(x, "<", 0), rel(x, ">", 1)))
    f = from_derivation(derive(st, [link("<=", st.rhs, Cite(GAUSSIAN_TAIL, {"m": mu, "v": v, "x": x, "tag": tag}))]),
                        "d")
    row = f.proof["steps"][0]
    assert row["status"] == "argued" and "its negation is certified too" in row["detail"]
    g = from_derivation(derive(Statement(x, "<=", x - 1, st.given), [link("<=", x - 1, Decide())]), "d")
    assert g.proof["status"] == "argued"


def test_a_monotone_step_needs_a_function_that_increases_between_its_arguments():
    x = sympy.Symbol("x", positive=True)
    up = es.tau_sq_upper(T, K, s0, s)
    given = DOMAIN + (rel(tau, "<=", up),)
    st = Statement(-es.c_width(tau, n), "<=", -es.c_width(up, n), given)
    f = from_derivation(derive(st, [link("<=", -es.c_width(up, n), Monotone(-es.c_width(x, n), x,
                                                                             rel(tau, "<=", up)))]), "d")
    assert f.proof["steps"][0]["status"] == "argued" and "not shown nondecreasing" in f.proof["steps"][0]["detail"]
    wrong_side = Statement(es.c_width(tau, n), "<=", es.c_width(2 * up, n), given)
    g = from_derivation(derive(wrong_side, [link("<=", es.c_width(2 * up, n), Monotone(es.c_width(x, n), x,
                                                                                      rel(tau, "<=", up)))]), "d")
    assert g.proof["steps"][0]["status"] == "argued" and "not" in g.proof["steps"][0]["detail"]


def test_a_sum_over_a_range_that_may_run_backwards_is_not_compared_termwise():
    """sympy reads sum_{k=1}^{m} with m < 0 as minus a sum (Karr's convention): sum k^2 <= sum (k^2 + 1) is
    -5 <= -8 at m = -3, so Termwise needs the range to run forwards on the domain."""
    k = sympy.Symbol("k", integer=True)
    m = sympy.Symbol("m", integer=True)
    st = Statement(sympy.Sum(k ** 2, (k, 1, m)), "<=", sympy.Sum(k ** 2 + 1, (k, 1, m)))
    f = from_derivation(derive(st, [link("<=", st.rhs, Termwise())]), "d")
    assert f.proof["steps"][0]["status"] == "argued" and "run forwards" in f.proof["steps"][0]["detail"]
    ok = Statement(st.lhs, "<=", st.rhs, (rel(m, ">=", 0),))
    assert from_derivation(derive(ok, [link("<=", st.rhs, Termwise())]), "d").proof["status"] == "proved"
    assert sympy.latex(Ex(k) ** 2) and sympy.latex(Pr(sympy.Ge(k, 1, evaluate=False)) ** 2)


def test_a_fact_is_used_only_where_its_hypotheses_hold():
    """log(1 + x) <= x is established for x >= 0; instantiated at x = y - 2 it is used where y > 0 only,
    where its hypothesis y - 2 >= 0 is not established."""
    x = sympy.Symbol("x", real=True)
    y = sympy.Symbol("y", positive=True)
    fact = derive(Statement(sympy.log(1 + x), "<=", x, (rel(x, ">=", 0),)), [link("<=", x, Decide())])
    st = Statement(sympy.log(y - 1), "<=", y - 2, (rel(y, ">", 1),))
    bad = derive(st, [link("<=", y - 2, Fact("log", {"x": y - 2}))], facts={"log": fact})
    f = from_derivation(bad, "d")
    assert f.proof["status"] != "proved" and "hypothesis" in f.proof["steps"][-2]["detail"], f.detail
    ok = derive(Statement(sympy.log(y - 1), "<=", y - 2, (rel(y, ">=", 2),)),
                [link("<=", y - 2, Fact("log", {"x": y - 2}))], facts={"log": fact})
    assert from_derivation(ok, "d").proof["status"] == "proved"


def test_the_holes_a_reviewer_found_stay_closed():
    """Each a false statement that read proved in a reviewer's copy: a finding that decided another relation;
    a monotone step through a pole; a rule's variable captured by the statement's domain (Monotone's, a cited
    schema's own variable, a sum's index); a count-times-bound whose bound mentions the index; a fact or a node
    used where its symbols' assumptions fail."""
    x = sympy.Symbol("x", real=True)
    status = lambda d: from_derivation(d, "d").proof["status"]                      # noqa: E731
    cert = Finding("holds", "all", "a certificate", certified=True)
    assert status(derive(Statement(x, "<=", x - 1), [link("<=", x - 1, Found(cert))])) == "argued"
    f = -1 / x
    assert status(derive(Statement(f.subs(x, -1), "<=", f.subs(x, 1)),
                         [link("<=", f.subs(x, 1), Monotone(f, x, rel(-1, "<=", 1)))])) == "argued"
    g = -(x - 2) ** 2
    assert status(derive(Statement(g, "<=", g.subs(x, 2 * x), (rel(x, ">=", 1), rel(x, "<=", 2))),
                         [link("<=", g.subs(x, 2 * x), Monotone(g, x, rel(x, "<=", 2 * x)))])) == "argued"
    y, Z = sympy.symbols("y Z", real=True)
    assert status(derive(Statement(Ex(Z) ** 3, "<=", Ex(Z ** 3), (rel(y, ">=", 0),)),
                         [link("<=", Ex(Z ** 3), Cite(JENSEN, {"phi": sympy.Lambda(y, y ** 3), "Y": Z}))])) == "argued"
    k = sympy.Symbol("k", integer=True)
    m = sympy.Symbol("n", integer=True, positive=True)
    assert status(derive(Statement(sympy.Sum(5, (k, 1, m)), "<=", sympy.Sum(k, (k, 1, m)), (rel(k, ">=", 5),)),
                         [link("<=", sympy.Sum(k, (k, 1, m)), Termwise())])) == "argued"
    assert status(derive(Statement(sympy.Sum(k, (k, 1, m)), "<=", m * k ** 2),
                         [link("<=", m * k ** 2, CountTimesMax(k ** 2))])) == "argued"
    half = sympy.Rational(1, 2)
    sq = derive(Statement(x, "<=", x ** 2, (rel(x, ">=", 1),)), [link("<=", x ** 2, Decide())])
    assert status(derive(Statement(half, "<=", half ** 2), [link("<=", half ** 2, Fact("f", {"x": half}))],
                         facts={"f": sq})) == "argued"
    xp = sympy.Symbol("x", positive=True)
    pos = derive(Statement(xp, ">", 0), [link(">", 0, Decide())])
    assert status(derive(Statement(sympy.Integer(-1), ">", 0), [link(">", 0, Fact("g", {"x": -1}))],
                         facts={"g": pos})) == "argued"
    # the controls read proved
    assert status(derive(Statement(sympy.exp(Ex(Z) / 4), "<=", Ex(sympy.exp(Z / 4))),
                         [link("<=", Ex(sympy.exp(Z / 4)), Cite(JENSEN, {"phi": sympy.Lambda(y, sympy.exp(y / 4)),
                                                                         "Y": Z}))])) == "proved"
    stated = derivation_restate(made_by_engine(Finding("holds", "all", "a certificate", certified=True), STAND_IN),
                                Statement(x, "<=", x + 1))
    assert status(derive(Statement(x, "<=", x + 1), [link("<=", x + 1, Found(stated))])) == "proved"


def test_a_node_is_not_used_where_its_symbols_assumptions_fail():
    xp = sympy.Symbol("x", positive=True)
    t = sympy.Symbol("t", real=True)
    up = from_derivation(derive(Statement(xp, ">", 0), [link(">", 0, Decide())]), "d")
    table = (Node("up", "lemma", "L", "x > 0", (), "UP"), Node("top", "equation", "E", "t > 0", (), "TOP"))
    top = from_derivation(derive(Statement(t, ">", 0, (rel(t, "<=", -1),)), [link(">", 0, rests("UP", x=t))]), "d")
    res = [ClaimResult("UP", "UP", "UP", "holds", "", [up], 0.0),
           ClaimResult("TOP", "TOP", "TOP", "refuted", "", [Finding("refuted", "x", "broken")], 0.0,
                       repairs=[Repair("t > 0", None, [top])])]
    g = resolve(res, table, known={"UP", "TOP"})
    step = g.nodes["repair:TOP"]["proof_steps"][0]
    assert g.nodes["repair:TOP"]["proof"] != "proved" and "does not apply" in step["detail"], step


def test_the_holes_a_second_reviewer_found_stay_closed():
    """Each read proved in a reviewer's copy (issue 77's second review) and is false: a sum over a reversed range
    read by sympy's convention (negative) where the engine reads it empty; sum rules and Monotone reading an index's
    or a variable's own sign where only its range holds; a node's real or nonzero symbol bound to what is not; a
    nested sum or maximum whose inner index took an outer one's name; a Finding built by hand; a sequence's facts
    declared twice."""
    from rue_verify.verify.derivation import Termwise
    from rue_verify.verify.sums import AsAtoms, CountTimesBound, Reindex, _eq, max_over, sequence
    status = lambda d: from_derivation(d, "d").proof["status"]                      # noqa: E731
    n, k = sympy.Symbol("n", integer=True), sympy.Symbol("k", integer=True)
    assert status(derive(Statement(sympy.Sum(k ** 2, (k, 1, n)), "<=", -1, (rel(n, "<=", -2),)),
                         [link("<=", sympy.Integer(-1), Decide())])) != "proved"          # 0 <= -1 at n = -2
    nn, kp = sympy.Symbol("n", integer=True, nonnegative=True), sympy.Symbol("k", positive=True)
    R = sympy.Sum(kp + 1, (kp, -3, nn))
    assert status(derive(Statement(sympy.Sum(1, (kp, -3, nn)), "<=", R), [link("<=", R, Termwise())])) != "proved"
    ki = sympy.Symbol("k", integer=True, positive=True)
    assert status(derive(Statement(sympy.Sum(-ki, (ki, -3, nn)), "<=", 0),
                         [link("<=", 0, CountTimesBound(bound=0))])) != "proved"      # 6 <= 0 at n = 0
    x, y = sympy.Symbol("x", positive=True), sympy.Symbol("y", positive=True)
    assert status(derive(Statement(4 * y, "<=", y), [link("<=", y, Monotone(x ** 2 * y, x, rel(-2, "<=", 1)))])) \
        != "proved"
    j, m = sympy.symbols("j m", integer=True)
    npos = sympy.Symbol("n", integer=True, positive=True)
    A = sympy.Sum(2 * sympy.Sum(k, (j, 1, k)), (k, 1, npos))
    B = sympy.Sum(2 * sympy.Sum(j, (j, 1, k)), (k, 1, npos))
    assert not _eq(A, B) and not _eq(max_over(max_over(k - j, (j, 1, k)), (k, 1, npos)),
                                     max_over(max_over(j - k, (j, 1, k)), (k, 1, npos)))
    S, T = sympy.Sum(m, (m, 1, npos)), sympy.Sum(m + 1, (m, 0, npos - 1))
    assert status(derive(Statement(S + A, "==", T + B), [link("=", T + B, Reindex())])) != "proved"
    assert _eq(A, sympy.Sum(2 * sympy.Sum(m, (j, 1, m)), (m, 1, npos)))       # a renamed index is the same sum
    xr = sympy.Symbol("x", positive=True)
    hand = derivation_restate(Finding("holds", "all", "trust me", certified=True), Statement(xr + 1, "<=", xr))
    assert status(derive(Statement(xr + 1, "<=", xr), [link("<=", xr, Found(hand))])) == "argued"
    D = sequence("D_reviewed", positive=True, order="increasing")
    assert status(derive(Statement(D(1), ">", D(2)), [link(">", D(2), AsAtoms())])) != "proved"
    D2 = sequence("D_reviewed", positive=True, order="decreasing")          # another sequence of the same name
    assert D2 != D and D2(1) != D(1) and sequence("D_reviewed", positive=True, order="increasing") == D
    assert status(derive(Statement(D(1), ">", D(2)), [link(">", D(2), AsAtoms())])) != "proved"
    assert status(derive(Statement(D2(1), ">", D2(2)), [link(">", D2(2), AsAtoms())])) == "proved"


def test_a_node_is_not_used_where_its_real_or_nonzero_symbol_is_bound_to_what_is_not():
    from rue_verify.verify.derivation import assumptions_hold
    xr, z, yr = sympy.Symbol("x", real=True), sympy.Symbol("z", real=True, nonzero=True), sympy.Symbol("y", real=True)
    assert "real" in assumptions_hold({"x": sympy.I * yr}, {xr}, ())
    assert "nonzero" in assumptions_hold({"z": yr}, {z}, ())
    assert assumptions_hold({"z": yr ** 2 + 1}, {z}, ()) is None


def _hole_status(d) -> str:
    return from_derivation(d, "d").proof["status"]


def test_hole_a_a_chain_through_an_expression_undefined_somewhere_is_not_proved():
    """Each link speaks where its expressions are defined: (y^3 + y)/(y + 1/y) = y^2 except at y = 0, so a chain
    y^2 = that > 0 would prove y^2 > 0 at y = 0. The intermediate must be shown defined on the whole domain."""
    from rue_verify.verify.derivation import _undefined_rows
    y = sympy.Symbol("y", real=True)
    E = (y ** 3 + y) / (y + 1 / y)
    f = from_derivation(derive(Statement(y ** 2, ">", 0), [link("=", E, Decide()), link(">", 0, Decide())]), "d")
    assert f.proof["status"] != "proved"
    row = f.proof["steps"][0]
    assert row["status"] == "argued" and "not shown defined" in row["detail"] and "the denominator y" in row["detail"]
    assert any(c["state"] != "holds" for c in row["defined"])
    # the same chain for a positive y is proved: sympy's assumptions answer at once, nothing is decided
    yp = sympy.Symbol("y", positive=True)
    Ep = (yp ** 3 + yp) / (yp + 1 / yp)
    assert _undefined_rows(Ep, ()) == []
    chain = [link("=", Ep, Decide()), link(">", 0, Decide())]
    assert _hole_status(derive(Statement(yp ** 2, ">", 0), chain)) == "proved"
    # a logarithm whose argument is positive on the statement's domain (x >= 1), decided there
    x = sympy.Symbol("x", real=True)
    dom = (rel(x, ">=", 1),)
    assert all(c["state"] == "holds" for c in _undefined_rows(x + sympy.log(x), dom))
    assert any(c["state"] != "holds" for c in _undefined_rows(x + sympy.log(x), ()))
    # an index of a sum lies in its range: 1/k is defined for k = 1..n, not for k = 0..n
    k, n = sympy.Symbol("k", integer=True), sympy.Symbol("n", integer=True, positive=True)
    assert all(c["state"] == "holds" for c in _undefined_rows(sympy.Sum(1 / k, (k, 1, n)), ()))
    assert any(c["state"] != "holds" for c in _undefined_rows(sympy.Sum(1 / k, (k, 0, n)), ()))
    # a link resting on a node is argued too, and no longer read at the node's status
    g = from_derivation(derive(Statement(y ** 2, ">", 0), [link("=", E, rests("SOME-NODE")), link(">", 0, Decide())]),
                        "d")
    assert g.proof["steps"][0]["status"] == "argued" and g.proof["steps"][0]["uses"] is None


def test_hole_b_jensen_with_a_phi_undefined_somewhere_is_not_proved():
    """phi'' is decided only where it is defined: 1/t^2 has phi'' = 6/t^4 >= 0, yet 1/E Y^2 <= E 1/Y^2 is false
    (Y = -1 or 3 with probability 1/2: 1 <= 5/9). Jensen needs phi defined and continuous on the whole line."""
    from rue_verify.verify.schemas import JENSEN_CONCAVE
    Y, t = sympy.Symbol("Y", real=True), sympy.Symbol("t", real=True)
    st = Statement(1 / Ex(Y) ** 2, "<=", Ex(1 / Y ** 2))
    f = from_derivation(derive(st, [link("<=", Ex(1 / Y ** 2), Cite(JENSEN, {"phi": sympy.Lambda(t, 1 / t ** 2),
                                                                               "Y": Y}))]), "d")
    row = f.proof["steps"][0]
    assert f.proof["status"] != "proved" and row["status"] == "argued"
    assert [c["state"] for c in row["conditions"]] == ["holds", "unchecked"]
    assert "defined and continuous" in row["detail"]
    st2 = Statement(Ex(sympy.log(Y ** 2)), "<=", sympy.log(Ex(Y) ** 2))
    log_sq = sympy.Lambda(t, sympy.log(t ** 2))
    f2 = from_derivation(derive(st2, [link("<=", st2.rhs, Cite(JENSEN_CONCAVE, {"phi": log_sq, "Y": Y}))]), "d")
    assert f2.proof["status"] != "proved" and "log" in f2.proof["steps"][0]["detail"]
    # a phi defined everywhere still proves
    st3 = Statement(sympy.exp(Ex(Y) / 4), "<=", Ex(sympy.exp(Y / 4)))
    assert _hole_status(derive(st3, [link("<=", st3.rhs, Cite(JENSEN, {"phi": sympy.Lambda(t, sympy.exp(t / 4)),
                                                                 "Y": Y}))])) == "proved"


def test_hole_a_cite_whose_instance_sympy_evaluates_is_argued_not_a_crash():
    """A conclusion instantiated at numbers is evaluated by sympy (to False or True): no relation to match."""
    x = sympy.Symbol("x", real=True)
    at_most_one = Schema("x <= 1", (x,), rel(x, "<=", 1), (("x is real", rel(x ** 2, ">=", 0)),))
    for v in (2, 0):
        f = from_derivation(derive(Statement(v, "<=", 1), [link("<=", 1, Cite(at_most_one, {"x": v}))]), "d")
        row = f.proof["steps"][0]
        assert f.proof["status"] != "proved" and row["status"] == "argued"
        assert "sympy evaluated it" in row["detail"]


def test_a_statement_the_caller_attaches_is_said_to_be_attached_and_a_stated_one_cannot_be_replaced():
    """`restate` attaches a statement to a finding whose method states none: the link it justifies carries
    `restated` and says the engine did not tie it. A derivation states its own relation: restating it raises."""
    from rue_verify.outputs.text import trust as trust_lines
    from rue_verify.verify.trust import classify
    x = sympy.Symbol("x", positive=True)
    cert = derivation_restate(made_by_engine(Finding("holds", "all", "a certificate", certified=True), STAND_IN),
                              Statement(x, "<=", x + 1))
    f = from_derivation(derive(Statement(x, "<=", x + 1), [link("<=", x + 1, Found(cert))]), "d")
    row = f.proof["steps"][0]
    assert row["status"] == "certified" and row["restated"].startswith("x <= x + 1"), row
    assert row["detail"].startswith("its statement attached by the caller (restate), not tied by the engine")
    assert classify(row)[0] == "found"
    with pytest.raises(ValueError, match="states its own relation"):
        derivation_restate(f, Statement(x, "<=", x + 5))
    shown = trust_lines({"node": "n", "proof": "proved", "nodes": [], "links": [], "kinds": {}, "methods": {},
                         "found": [], "certificates": 0, "argued": [], "restated": ["n step 1"]})
    assert any("the caller attached" in line and "n step 1" in line for line in shown)


def test_a_statement_set_on_a_finding_by_hand_or_replaced_after_is_not_read():
    """Planted by a review: a statement object set on an engine finding by hand (not `restate`, not its method), or
    a derivation finding's statement replaced on a copy, justifies no link."""
    import copy
    x = sympy.Symbol("x", positive=True)
    false = Statement(x + 1, "<=", x)
    f = made_by_engine(Finding("holds", "all", "i", certified=True), STAND_IN)
    f.statement_object = false
    row = from_derivation(derive(false, [link("<=", x, Found(f))]), "d").proof["steps"][0]
    assert row["status"] == "argued" and "not the one its method recorded" in row["detail"], row
    good = from_derivation(derive(Statement(x, "<=", x + 1), [link("<=", x + 1, Decide())]), "d")
    forged = copy.copy(good)
    forged.statement_object = false
    row = from_derivation(derive(false, [link("<=", x, Found(forged))]), "d").proof["steps"][0]
    assert row["status"] == "argued" and "not the one its method recorded" in row["detail"], row
