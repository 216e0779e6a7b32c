"""A step's statement (`verify.Holds`) decided by the engine: each method certifies what is true,
refutes (with a counterexample replayed on the statement) or leaves argued what is not, never passes a
false step, and never raises; every certificate can fail (`step_mutants`: its negation and another mutant
refuted); a bare True certifies nothing."""

import sympy

from rue_verify.verify import Holds, bounded, dominated, from_proof, integrable, nonnegative, rel
from rue_verify.verify.proofs import step_mutants
from rue_verify.verify.statements import decide, mutants

x, y, a = sympy.symbols("x y a", real=True)
M = sympy.symbols("M", positive=True)


def test_sympy_certifies_an_identity_and_not_a_wrong_one():
    assert decide(Holds(rel(sympy.Derivative(x ** 3, x), "==", 3 * x ** 2), method="sympy")).status == "certified"
    assert decide(Holds(rel(sympy.Derivative(x ** 3, x), "==", 3 * x), method="sympy")).status != "certified"
    assert decide(Holds(rel(sympy.log(2), ">=", sympy.Rational(7, 10)), method="sympy")).status == "refuted"


def test_z3_proves_with_its_premises_and_refutes_without_them_by_a_replayed_counterexample():
    st = Holds(rel(1 / a ** 2, ">=", 1 / y ** 2), (rel(a, ">", 0), rel(a, "<=", y)), "z3")
    assert decide(st).status == "certified"
    d = decide(Holds(st.claim, st.given[1:], "z3"))
    assert d.status == "refuted"
    p = {sympy.Symbol(k, real=True): sympy.Rational(v) for k, v in d.witness["params"].items()}
    assert not bool((1 / a ** 2 >= 1 / y ** 2).subs(p)) and bool((a <= y).subs(p))


def test_z3_reads_exp_only_through_sound_facts_so_a_model_is_checked_before_it_refutes():
    # exp(x) >= 1 + x is one of the facts: certified; exp(x) >= 1 + x + x^2/2 fails only for x < 0
    assert decide(Holds(rel(sympy.exp(x), ">=", 1 + x), method="z3")).status == "certified"
    d = decide(Holds(rel(sympy.exp(x), ">=", 1 + x + x ** 2 / 2), method="z3"))
    assert d.status != "certified"
    if d.status == "refuted":
        assert d.witness["params"]["x"] < 0


def test_what_no_method_reads_is_argued_never_a_crash_or_a_pass():
    f = sympy.Function("f")
    assert decide(Holds(rel(sympy.gamma(x) ** x, ">=", 0), method="z3")).status == "argued"
    assert decide(Holds(rel(f(x), ">=", 0))).status == "argued"
    assert decide(Holds(sympy.Eq(x, x))).status == "argued"          # True as written: sympy decided it, not us
    assert decide(Holds(True)).status == "argued"


def test_arb_certifies_on_its_box_only_and_says_so():
    d = decide(Holds(rel(1 - sympy.erf(x), ">", 0), method="arb", box={x: (0, 3)}))
    assert d.status == "certified" and d.partial and "[0, 3]" in d.partial
    assert decide(Holds(rel(x ** 2, "<", 1), method="arb", box={x: (0, 3)})).status == "refuted"


def test_a_step_on_an_empty_domain_is_argued_since_its_negation_is_certified_too():
    p = from_proof([("x > 1 when x < 0 and x > 0", Holds(rel(x, ">", 1), (rel(x, "<", 0), rel(x, ">", 0)), "z3"))],
                   "d", "c")
    assert p.proof["status"] == "argued" and "negation is certified too" in p.detail


def test_a_bare_true_certifies_nothing():
    p = from_proof([("a step", True)], "d", "c")
    assert p.proof["status"] == "argued" and "bare True" in p.detail


def test_every_certificate_of_these_kinds_refutes_its_negation_and_a_mutant():
    for st in (Holds(rel(sympy.Derivative(x ** 3, x), "==", 3 * x ** 2), method="sympy"),
               Holds(rel(x * y, "<=", (x ** 2 + y ** 2) / 2), method="z3"),
               Holds(rel(a, "<=", M), (rel(a, "<", M / 2),), "z3")):
        assert decide(st).status == "certified"
        r = step_mutants(st)
        assert r["negation"] == "refuted" and r["refuted"] >= 1 and r["verdict"] == "can fail", (st, r)
    assert [name for name, _ in mutants(Holds(rel(a, "<=", M), (rel(a, "<", M / 2),)))][0] == "negation"


def test_cited_conditions_reject_the_objects_their_lemmas_exclude():
    # bounded: 0 <= g <= 1 holds for g = exp(-x^2) and fails for the violator; nonnegative likewise
    g = sympy.exp(-x ** 2)
    c = bounded(g, 0, 1, method="z3")
    assert decide(c.holds).status == "certified" and decide(c.violator).status != "certified"
    n = nonnegative(g, method="z3")
    assert decide(n.holds).status == "certified" and decide(n.violator).status != "certified"
    # differentiation under the integral: the Gaussian is dominated, exp(+(x + a)^2/2) is not, and its
    # dominating function's integral diverges
    dom = (sympy.Abs(x) + M) * sympy.exp(-sympy.Max(sympy.Abs(x) - M, 0) ** 2 / 2)
    good = dominated(sympy.exp(-(x + a) ** 2 / 2), a, dom, (rel(sympy.Abs(a), "<=", M),))
    assert decide(good.holds).status == "certified"
    bad = dominated(sympy.exp((x + a) ** 2 / 2), a, dom, (rel(sympy.Abs(a), "<=", M),))
    assert decide(bad.holds).status != "certified"
    y0 = sympy.Symbol("y", nonnegative=True)
    assert decide(integrable(sympy.exp(-y0 ** 2 / 2), y0, 0, sympy.oo).holds).status == "certified"
    assert decide(integrable(sympy.exp(y0 ** 2 / 2), y0, 0, sympy.oo).holds).status != "certified"


def test_proof_mutants_lists_every_certified_step_and_the_summary_counts_them():
    from rue_verify.outputs.text import mutants as lines
    from rue_verify.verify import Finding, Repair
    from rue_verify.verify.claims import ClaimResult
    from rue_verify.verify.proofs import mutants_summary, proof_mutants
    proof = from_proof([("x y <= (x^2 + y^2)/2", Holds(rel(x * y, "<=", (x ** 2 + y ** 2) / 2), method="z3")),
                        ("a certificate", Finding("holds", "all", "arb", certified=True)),
                        ("bare", True)], "d", "c")
    r = ClaimResult("C", "here", "s", "refuted", "", [Finding("refuted", "d", "x")], 0.0,
                    repairs=[Repair("s", None, [proof])])
    rows = proof_mutants([r])
    assert [(row["node"], row["step"], row["verdict"]) for row in rows] == [("repair:C", 1, "can fail"),
                                                                             ("repair:C", 2, "finding")]
    summary = mutants_summary(rows)
    assert summary["steps"] == 2 and summary["negation_refuted"] == summary["can_fail"] == 1
    assert summary["mutants_refuted"] == rows[0]["refuted"] >= 1 and summary["undecided"] == 0, summary
    assert lines(rows, summary)[-2].startswith("2 certified steps: 1 with a statement, 1 certified by a finding")


def test_a_search_counts_a_point_it_cannot_compute_as_undefined_never_as_a_pass():
    import math

    from rue_verify.verify import from_margin
    from rue_verify.verify.claims import Mode
    from rue_verify.verify.search import Dim, minimize_margin

    def margin(p):                   # undefined (an error, a NaN) on half the space, true elsewhere
        if p["x"] < 1:
            raise ZeroDivisionError("planted")
        return math.nan if p["x"] < 2 else p["x"]
    r = minimize_margin(margin, {"x": Dim(0.1, 10.0)}, Mode(), 1, random=50)
    assert r.undefined > 0 and r.undefined_at["x"] < 2 and "undefined" in r.domain and r.margin >= 2
    nowhere = minimize_margin(lambda p: math.nan, {"x": Dim(0.1, 10.0)}, Mode(), 1, random=10)
    assert math.isnan(nowhere.margin) and nowhere.undefined == nowhere.evaluated
    assert from_margin(nowhere.margin, nowhere.domain, holds="h", fails="f").verdict == "inconclusive"


def test_a_constant_term_moves_but_the_sign_of_a_difference_does_not():
    st = Holds(rel(x ** 2 - 1, "==", (x - 1) * (x + 1)), method="sympy")
    moved = [(name, decide(m).status) for name, m in mutants(st) if name.startswith("the constant")]
    assert moved and all(status != "certified" for _, status in moved), moved
    assert any("-1 " in name for name, _ in moved)                   # the constant term -1 of x^2 - 1
    assert all("-1" not in name for name, _ in mutants(Holds(rel(x - y, ">=", 0))))     # x - y: a sign, not a term


def test_a_conjunction_has_its_constants_moved_in_every_part():
    t = sympy.Symbol("t", real=True)    # the limit's own variable: sampling substitutes x into a Limit over x
    st = Holds(sympy.And(rel(sympy.Limit(sympy.exp(-t ** 2 / 2), t, sympy.oo), "==", 0),
                         rel(sympy.Derivative(3 * x ** 2, x), "==", 6 * x)), method="sympy")
    r = step_mutants(st)
    assert r["verdict"] == "can fail", r          # a moved 3 or 6 breaks the derivative, whatever the limit does
    assert any(m["status"] == "refuted" and m["kind"].startswith("constant") and ("3" in m["mutant"] or "6" in
                                                                                   m["mutant"]) for m in r["mutants"])


def test_an_arb_certificate_covers_its_box_and_is_partial_unless_the_box_is_the_whole_domain():
    from rue_verify.verify import on_box
    box = {x: (0, 3)}
    claim = rel(1 - sympy.erf(x), ">", 0)
    assert decide(Holds(claim, method="arb", box=box)).partial                    # x real: the box is a part
    whole = decide(Holds(claim, on_box(box), "arb", box))
    assert whole.status == "certified" and whole.partial is None                 # claimed on the box alone
    assert decide(Holds(claim, (rel(x, ">=", 0),), "arb", box)).status != "certified"   # another given: not read


def test_sampling_never_refutes_a_true_identity_by_its_last_rounded_digit():
    """A true identity sympy cannot simplify, sampled at points where its two sides are computed along different
    roads: its relation is kept unevaluated at the point and compared with a tolerance (sympy compares two numeric
    sides exactly and read this one False, which made it 'refuted'); the same identity off by 1% is refuted."""
    import sympy

    from rue_verify.verify.statements import Holds, decide, sample_refutation
    K = sympy.Symbol("K", positive=True, integer=True)
    a, b, c = sympy.symbols("a b c", positive=True)
    k = sympy.Symbol("k", integer=True, positive=True)
    x = sympy.IndexedBase("x", positive=True)
    term = x[k] / (b * x[k] + c)
    lhs = sympy.Sum(sympy.sqrt(a / 2 + b) * term, (k, 1, K)) ** 2
    true = Holds(sympy.Eq(lhs, (a / 2 + b) * sympy.Sum(term, (k, 1, K)) ** 2, evaluate=False), method="z3")
    false = Holds(sympy.Eq(lhs, sympy.Rational(101, 100) * (a / 2 + b) * sympy.Sum(term, (k, 1, K)) ** 2,
                           evaluate=False), method="z3")
    assert sample_refutation(true, tries=16) is None
    assert decide(true).status != "refuted"
    assert sample_refutation(false, tries=16) is not None


def test_a_sum_whose_range_may_run_backwards_is_not_simplified_by_karrs_convention():
    """sum_{i=1}^{n} 1 = n for every integer n: sympy's simplify sums a reversed range as minus the range between
    (n for n <= -1 too), the engine reads it as empty (0 there): sympy's path certified it (a helper's review,
    session 7); it must be refuted (the sampler meets n < 0) or left undecided, never certified. With n >= 1
    declared, the same identity is certified (the check can pass)."""
    i, n = sympy.Symbol("i", integer=True), sympy.Symbol("n", integer=True)
    npos = sympy.Symbol("n", integer=True, positive=True)
    for method in ("sympy", "auto"):
        d = decide(Holds(sympy.Eq(sympy.Sum(1, (i, 1, n)), n, evaluate=False), method=method))
        assert d.status != "certified", (method, d)
        assert decide(Holds(sympy.Eq(sympy.Sum(1, (i, 1, npos)), npos, evaluate=False), method=method)).status \
            == "certified"


def test_a_claim_false_at_every_value_is_refuted_only_where_its_domain_has_a_point():
    """sympy shows x^2 + 1 <= 0 false at every real x: with the domain x > 3 it is refuted, the witness a point of
    that domain; with the empty domain 1 < y < 0 (a statement about nothing is true) it is not refuted."""
    x, y = sympy.Symbol("x", real=True), sympy.Symbol("y", real=True)
    false = sympy.Le(x ** 2 + 1, 0, evaluate=False)
    for method in ("sympy", "auto"):
        d = decide(Holds(false, given=(rel(x, ">", 3),), method=method))
        assert d.status == "refuted" and d.witness["params"]["x"] > 3, d
        claim = sympy.Le(x ** 2 + 1, y - y - 1, evaluate=False)
        e = decide(Holds(claim, given=(rel(y, ">", 1), rel(y, "<", 0)), method=method))
        assert e.status != "refuted", e


def test_a_point_z3_models_refutes_only_where_the_claim_is_false_for_every_value_of_what_it_cannot_evaluate():
    """A model of z3's abstraction whose point the statement cannot be evaluated at (a probability, a function the
    caller declared) is asked again with the point fixed: it refutes only when z3 certifies the claim false there for
    every value of those objects. Pr(x <= y) + x >= 2 with x < 1 is false at any point (a probability is at most 1,
    `Pr.value_range`); f(x) >= 0 for an undeclared f, and Pr(x <= y) > 0, are false only for some values of f or of
    the probability: never refuted (argued), since the function as it is may satisfy them."""
    from rue_verify.verify.derivation import Pr
    x, y = sympy.symbols("x y", positive=True)
    f = sympy.Function("f", real=True)
    d = decide(Holds(rel(Pr(sympy.Le(x, y)) + x, ">=", 2), (rel(x, "<", 1),), "z3"))
    assert d.status == "refuted" and "with the point fixed" in d.detail and d.witness["params"]["x"] < 1, d
    assert decide(Holds(rel(Pr(sympy.Le(x, y)), "<=", 1), (), "z3")).status == "certified"
    assert decide(Holds(rel(Pr(sympy.Le(x, y)), "<=", sympy.Rational(1, 2)), (), "z3")).status == "argued"
    for maybe in (rel(f(x), ">=", 0), rel(Pr(sympy.Le(x, y)), ">", 0), rel(f(x) + f(y), "<=", 2 * f(x))):
        d = decide(Holds(maybe, (), "z3"))
        assert d.status == "argued" and "decides nothing" in d.detail, (maybe, d)


def test_a_maximum_over_a_range_with_integer_ends_is_written_out():
    from rue_verify.verify.sums import max_over
    k, n = sympy.symbols("k n", integer=True, positive=True)
    x = sympy.Symbol("x", positive=True)
    assert max_over(x * k, (k, 1, 3)).doit() == 3 * x
    assert max_over(-(k - 2) ** 2, (k, 1, 4)).doit() == 0
    assert max_over(x * k, (k, 1, n)).doit() == max_over(x * k, (k, 1, n))          # symbolic: stays
    d = decide(Holds(rel(max_over(x * k, (k, 1, n)), ">", 5), (rel(x, "<", 1), rel(n, "<=", 3)), "z3"))
    assert d.status == "refuted" and d.witness["params"]["n"] <= 3, d


def test_a_true_statement_is_never_refuted_at_a_point_it_does_not_admit():
    """Planted by a review: z3's model at a point the statement cannot be evaluated at must not refute a true
    statement when the point is outside what the statement speaks of: a bound index that shares a free symbol's
    name (max over k of k^2 against a free k), a value a symbol's assumptions exclude (noninteger, irrational,
    prime), a point where a denominator inside a probability's event is zero. Two symbols of one name are two
    variables for z3: t (real) <= t (positive) is false, not proved."""
    from rue_verify.verify.derivation import Pr, event
    from rue_verify.verify.sums import max_over
    k, n = sympy.symbols("k n", integer=True, positive=True)
    x = sympy.Symbol("x", noninteger=True)
    r = sympy.Symbol("r", irrational=True)
    p = sympy.Symbol("p", prime=True)
    y = sympy.Symbol("y", real=True)
    A = event("A")
    true = [Holds(rel(max_over(k ** 2, (k, 1, n)), ">=", (k + 1) ** 2), (rel(k, "<", n),), "z3"),
            Holds(rel(x ** 2 - 3 * x + 2, "!=", 0)), Holds(rel(r ** 2 - 3 * r + 2, "!=", 0), (), "z3"),
            Holds(rel(p ** 2 - 5 * p + 4, "!=", 0), (), "z3"),
            Holds(rel(y ** 2 + y ** 2 * Pr(A(1 / y)), ">", 0), (), "z3")]
    for st in true:
        assert decide(st).status != "refuted", st
    t_real, t_pos = sympy.Symbol("t", real=True), sympy.Symbol("t", positive=True)
    assert decide(Holds(rel(t_real, "<=", t_pos))).status == "refuted"
    assert decide(Holds(rel(t_real, "<=", t_pos), (), "z3")).status == "refuted"


def test_a_declared_sequence_is_a_parameter_whose_terms_a_counterexample_may_choose_within_its_facts():
    """A sequence (`sums.sequence`) is a parameter of the statement: z3's model of its terms (the others filled by
    their neighbours) refutes the statement when every term meets the declared sign, order and bounds and the claim
    is false there, to 50 digits. D nondecreasing: D(1) < D(2) is refuted (a constant sequence); D(1) <= D(2) and,
    for an increasing I, I(1) < I(2) are true and never refuted, though z3 alone, which reads no order, has models
    of their negations. A function that is not a declared sequence (a specific unknown one) is never given values."""
    from rue_verify.verify.sums import max_over, sequence
    D = sequence("D_test", positive=True, order="nondecreasing")
    I_ = sequence("I_test", positive=True, order="increasing")
    d = decide(Holds(rel(D(1), "<", D(2)), (), "z3"))
    assert d.status == "refuted" and d.witness["params"]["D_test(1)"] == d.witness["params"]["D_test(2)"], d
    for true in (rel(D(1), "<=", D(2)), rel(I_(1), "<", I_(2)), rel(I_(2), ">=", I_(1))):
        assert decide(Holds(true, (), "z3")).status != "refuted", true
    g = sympy.Function("g_test", positive=True)
    assert decide(Holds(rel(g(1), "<", g(2)), (), "z3")).status == "argued"
    # the maximum over a range with integer ends, its terms chosen: (log K + 1/2) M <= log(2K) M negated is false
    K, j = sympy.symbols("K j", integer=True, positive=True)
    M = max_over(j / D(j) ** 2, (j, 1, K))
    neg = Holds(rel((sympy.log(K) + sympy.Rational(1, 2)) * M, ">", sympy.log(2 * K) * M), (rel(K, ">=", 2),), "z3")
    assert decide(neg).status == "refuted"


def test_a_chosen_sequence_never_refutes_a_true_statement():
    """Planted by a review: a sequence's chosen terms refute nothing true: an identity whose sides differ only by the
    50-digit rounding of the chosen terms (compared with `_truth`'s tolerance, never exactly); an integer sequence
    with a strict order (the terms between must exist: N(1) < N(3) leaves room for N(2) only if N(3) >= N(1) + 2);
    a sum over a reversed range (empty: 0, as the engine reads it, never by Karr's convention); a bound whose symbol
    shares only its name with the statement's; a point z3 gives rounded (sqrt 2) where a step function jumps."""
    from rue_verify.verify.sums import sequence
    D = sequence("D_round", positive=True)
    N = sequence("N_int", positive=True, integer=True, order="increasing")
    R = sequence("R_rev", positive=True)
    cpos, creal = sympy.Symbol("c", positive=True), sympy.Symbol("c", real=True)
    C = sequence("C_bound", nonnegative=True, lower=cpos)
    k, n = sympy.Symbol("k", integer=True), sympy.Symbol("n", integer=True)
    x = sympy.Symbol("x", positive=True)
    true = [Holds(rel(sympy.log(3 * D(1)), "==", sympy.log(3) + sympy.log(D(2))), (rel(D(1), "==", D(2)),)),
            Holds(rel(N(3), ">=", N(1) + 2), (rel(N(3), ">", N(1)),)),
            Holds(rel(N(3) - N(1), "!=", 1), (), "z3"),
            Holds(rel(sympy.Sum(R(k), (k, 1, n)), "==", 0), (rel(n, "<", 0), rel(R(1), ">=", 1))),
            Holds(rel(C(1), ">", 0), (rel(creal, "<=", 0),), "z3"),
            Holds(rel(sympy.exp(x) * sympy.floor(x ** 2), ">=", 8), (sympy.Eq(x ** 2, 2),))]
    for st in true:
        assert decide(st).status != "refuted", st


def test_definedness_facts_hold_where_their_part_is_evaluated_and_other_review_plants():
    """Planted by a third review: a Piecewise branch's facts (a denominator nonzero, a root's square) hold only where
    the branch is taken, so a false statement guarded by one is not certified; a maximum over an index inside one
    over the same index keeps its own; a floor's integer is not a user's symbol of the same name; a limit's variable
    is bound; a sequence's rounded algebraic term where a step function reads it refutes nothing; a point where a
    logarithm's argument is negative speaks of nothing."""
    from sympy import Eq, Limit, Piecewise, exp, floor, log, oo, sqrt

    from rue_verify.verify.sums import max_over, sequence
    x = sympy.Symbol("x", positive=True)
    y = sympy.Symbol("y", nonnegative=True)
    z = sympy.Symbol("z", real=True)
    k = sympy.Symbol("k", integer=True, positive=True)
    D = sequence("D_alg", positive=True)
    false = [Holds(rel(Piecewise((1 / y, y > 0), (-1, True)), ">=", 0), (), "z3"),
             Holds(rel(Piecewise((sqrt(z), z >= 0), (-1, True)), ">=", 0), (), "z3"),
             Holds(rel(max_over(max_over(2 * k, (k, 1, 3)), (k, 1, 2)), "<=", 4), (), "z3"),
             Holds(Eq(floor(z), sympy.Symbol("_floor0", integer=True), evaluate=False), (), "z3")]
    for st in false:
        assert decide(st).status != "certified", st
    assert max_over(max_over(2 * k, (k, 1, 3)), (k, 1, 2)).doit() == 6
    true = [Holds(rel(Limit(x * exp(-x), x, oo) + exp(-1) * x, "<=", x / 2), (rel(x, ">=", 1),), "z3"),
            Holds(rel(floor(D(1) ** 2), ">=", 4 + 2 * exp(-1)), (Eq(D(1) ** 2, 5, evaluate=False),), "z3"),
            Holds(rel(abs(log(z)), "<=", 0), (rel(z, "<", 0),), "z3")]
    for st in true:
        assert decide(st).status != "refuted", st
