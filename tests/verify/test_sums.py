"""The rules on sums, harmonic numbers, floors, expectations and maxima (`verify.sums`) and the schemas they
cite (`verify.schemas`): each certifies exactly its link form, its ranges and conditions decided, and each
planted near-miss (an off-by-one limit, a reversed range, a negative factor, a flipped inclusion, an undeclared
random quantity) is refused, refuted with a witness where a point of the domain makes the link false."""

import mpmath
import pytest
import sympy

from rue_verify.verify import schemas, sums
from rue_verify.verify.derivation import Cite, Ex, Normal, Pr, Statement, cup, derive, from_derivation, link
from rue_verify.verify.statements import rel

k, j, i = sympy.symbols("k j i", integer=True)
n = sympy.Symbol("n", integer=True, positive=True)
m = sympy.Symbol("m", integer=True)                      # any integer: its ranges may be reversed
K = sympy.Symbol("K", integer=True, positive=True)
x = sympy.Symbol("x", positive=True)
y = sympy.Symbol("y", positive=True)


def first(st: Statement, to, rule, op=None):
    """The first link's row of a one-link derivation."""
    f = from_derivation(derive(st, [link(op or st.op, to, rule)]), "t")
    return f.proof["steps"][0], f


def proved(st: Statement, *links) -> bool:
    return from_derivation(derive(st, list(links)), "t").proof["status"] == "proved"


# ----------------------------------------------------------------------------------- integral comparison
def test_integral_comparison_certifies_its_forms_and_refuses_the_off_by_one():
    H = sympy.Sum(1 / k, (k, 1, n))
    ok, _ = first(Statement(H, "<=", 1 + sympy.log(n)), 1 + sympy.log(n), sums.IntegralComparison())
    assert ok["status"] == "certified", ok["detail"]
    unevaluated, _ = first(Statement(H, "<=", 1 + sympy.Integral(1 / y, (y, 1, n))),
                           1 + sympy.Integral(1 / y, (y, 1, n)), sums.IntegralComparison())
    assert unevaluated["status"] == "certified"
    # the first term dropped (int_1^n alone), and int_1^{n+1} read as an upper bound: no form, refuted
    for bad in (sympy.log(n), sympy.log(n + 1)):
        row, f = first(Statement(H, "<=", bad), bad, sums.IntegralComparison())
        assert row["status"] == "refuted" and row["witness"]["params"], row
        assert f.proof["status"] == "broken"
    # the lower forms: int_a^{b+1} f and f(b) + int_a^b f
    low, _ = first(Statement(H, ">=", sympy.log(n + 1)), sympy.log(n + 1), sums.IntegralComparison())
    assert low["status"] == "certified"
    low2, _ = first(Statement(H, ">=", sympy.log(n) + 1 / n), sympy.log(n) + 1 / n, sums.IntegralComparison())
    assert low2["status"] == "certified"


def test_integral_comparison_decides_the_monotonicity():
    """sum_{k=1}^n k <= 1 + int_1^n x dx is a nonincreasing summand's form: k increases, so it is refused;
    the nondecreasing form sum <= int_1^{n+1} x dx is certified."""
    S = sympy.Sum(k, (k, 1, n))
    wrong = 1 + (n ** 2 - 1) / 2
    row, _ = first(Statement(S, "<=", wrong), wrong, sums.IntegralComparison())
    assert row["status"] != "certified" and "nonincreasing" in row["detail"], row["detail"]
    up = ((n + 1) ** 2 - 1) / 2
    row, _ = first(Statement(S, "<=", up), up, sums.IntegralComparison())
    assert row["status"] == "certified", row["detail"]


def test_integral_comparison_in_context_and_with_a_negative_factor():
    H = sympy.Sum(1 / k, (k, 1, n))
    row, _ = first(Statement(3 + 2 * H, "<=", 5 + 2 * sympy.log(n)), 5 + 2 * sympy.log(n), sums.IntegralComparison())
    assert row["status"] == "certified", row["detail"]
    row, _ = first(Statement(3 - 2 * H, "<=", 1 - 2 * sympy.log(n)), 1 - 2 * sympy.log(n), sums.IntegralComparison())
    assert row["status"] != "certified"


# ---------------------------------------------------------------------------------------- sum identities
def test_split_off_needs_its_terms():
    f = 1 / k ** 2
    ok, _ = first(Statement(sympy.Sum(f, (k, 1, n)), "==", 1 + sympy.Sum(f, (k, 2, n))),
                  1 + sympy.Sum(f, (k, 2, n)), sums.SplitOff())
    assert ok["status"] == "certified", ok["detail"]
    tail = sympy.Sum(f, (k, 1, n - 2)) + 1 / n ** 2 + 1 / (n - 1) ** 2
    last, _ = first(Statement(sympy.Sum(f, (k, 1, n)), "==", tail), tail, sums.SplitOff(count=2, end="last"))
    assert last["status"] == "argued" and "at least 2" in last["detail"]          # n = 1 has one term
    nonneg = sympy.Symbol("p", integer=True, nonnegative=True)
    empty, _ = first(Statement(sympy.Sum(f, (k, 1, nonneg)), "==", 1 + sympy.Sum(f, (k, 2, nonneg))),
                     1 + sympy.Sum(f, (k, 2, nonneg)), sums.SplitOff())
    assert empty["status"] != "certified"
    cut, _ = first(Statement(sympy.Sum(f, (k, 1, n)), "==", sympy.Sum(f, (k, 1, j)) + sympy.Sum(f, (k, j + 1, n)),
                             (rel(j, ">=", 0), rel(j, "<=", n))),
                   sympy.Sum(f, (k, 1, j)) + sympy.Sum(f, (k, j + 1, n)), sums.Split(at=j))
    assert cut["status"] == "certified", cut["detail"]


def test_reindex_finds_a_shift_or_a_reflection_and_nothing_else():
    st = Statement(sympy.Sum(1 / (K + 1 - k), (k, 1, K - 1)), "==", sympy.Sum(1 / i, (i, 2, K)))
    assert first(st, st.rhs, sums.Reindex())[0]["status"] == "certified"
    shift = Statement(sympy.Sum(k ** 2, (k, 3, n + 2)), "==", sympy.Sum((j + 2) ** 2, (j, 1, n)))
    assert first(shift, shift.rhs, sums.Reindex())[0]["status"] == "certified"
    off = Statement(sympy.Sum(1 / (K + 1 - k), (k, 1, K - 1)), "==", sympy.Sum(1 / i, (i, 1, K - 1)))
    row, _ = first(off, off.rhs, sums.Reindex())
    assert row["status"] in ("argued", "refuted") and row["status"] != "certified"


def test_closed_form_checks_the_range_is_not_reversed():
    """sympy reads Sum(1, (k, 1, m)) as m for every integer m, a paper as 0 where m < 0."""
    row, _ = first(Statement(sympy.Sum(1, (k, 1, m)), "==", m), m, sums.ClosedForm())
    # refuted where the sampler meets m < 0 (the sum read as empty, 0 != m), else argued naming the reversed range
    assert (row["status"] == "refuted" and row["witness"]["params"]["m"] < 0) or \
        (row["status"] == "argued" and "reversed" in row["detail"]), row
    ok, _ = first(Statement(sympy.Sum(1, (k, 1, m)), "==", m, (rel(m, ">=", 0),)), m, sums.ClosedForm())
    assert ok["status"] == "certified"
    geo, _ = first(Statement(sympy.Sum(2 ** -k, (k, 1, n)), "==", 1 - 2 ** -(n + 1)), 1 - 2 ** -(n + 1),
                   sums.ClosedForm())
    assert geo["status"] == "refuted" and geo["witness"]["params"]


def test_a_closed_form_by_cases_holds_in_its_case_only():
    """sum_{k>=0} r^k = 1/(1 - r) is sympy's first case, for r < 1: certified where the domain says r < 1."""
    q = sympy.Symbol("r", positive=True)
    series = sympy.Sum(q ** k, (k, 0, sympy.oo))
    ok, _ = first(Statement(series, "==", 1 / (1 - q), (rel(q, "<", 1),)), 1 / (1 - q), sums.ClosedForm())
    assert ok["status"] == "certified", ok["detail"]
    row, _ = first(Statement(series, "==", 1 / (1 - q)), 1 / (1 - q), sums.ClosedForm())
    assert row["status"] != "certified" and "r < 1" in row["detail"]


# ----------------------------------------------------------------------------------- sums compared
def test_term_by_term_reads_the_context_and_the_ranges():
    a, b = 1 / k ** 2, 1 / k
    c = sympy.Symbol("c", positive=True)
    st = Statement(3 + c * sympy.Sum(a, (k, 1, n)), "<=", 3 + c * sympy.Sum(b, (k, 1, n)))
    assert first(st, st.rhs, sums.TermByTerm())[0]["status"] == "certified"
    neg = Statement(3 - c * sympy.Sum(a, (k, 1, n)), "<=", 3 - c * sympy.Sum(b, (k, 1, n)))
    assert first(neg, neg.rhs, sums.TermByTerm())[0]["status"] != "certified"
    # a range that may be reversed (m < 0): sympy's sum is then negative and the terms' order flips
    rev = Statement(sympy.Sum(a, (k, 1, m)), "<=", sympy.Sum(b, (k, 1, m)), (rel(m, ">=", -5),))
    row, _ = first(rev, rev.rhs, sums.TermByTerm())
    assert row["status"] != "certified" and "reversed" in row["detail"]
    other = Statement(sympy.Sum(a, (k, 1, n)), "<=", sympy.Sum(b, (k, 2, n)))
    row, _ = first(other, other.rhs, sums.TermByTerm())
    assert row["status"] != "certified" and "same range" in row["detail"]


def test_term_by_term_with_floors_and_a_cited_schema():
    s_ = sums.sequence("s", positive=True, integer=True)
    L = sympy.Symbol("L", integer=True, positive=True)
    st = Statement(sympy.Sum(s_(k) * sympy.floor(n / (s_(k) * L)), (k, 1, L)), "<=", sympy.Sum(n / L, (k, 1, L)))
    assert first(st, st.rhs, sums.TermByTerm())[0]["status"] == "certified"
    up = Statement(sympy.Sum(s_(k) * sympy.ceiling(n / (s_(k) * L)), (k, 1, L)), "<=", sympy.Sum(n / L, (k, 1, L)))
    assert first(up, up.rhs, sums.TermByTerm())[0]["status"] != "certified"
    mu = sums.sequence("mu")
    X = sympy.Function("X")
    v = sympy.Symbol("v", positive=True)
    ev = sympy.Ge(sympy.Abs(Normal(mu(k), v, X(k)) - mu(k)), x, evaluate=False)
    bound = 2 * sympy.exp(-x ** 2 / (2 * v))
    st = Statement(sympy.Sum(Pr(ev), (k, 1, K)), "<=", sympy.Sum(bound, (k, 1, K)))
    good = Cite(schemas.GAUSSIAN_TAIL, {"m": mu(k), "v": v, "x": x, "tag": X(k)})
    assert first(st, st.rhs, sums.TermByTerm(cite=good))[0]["status"] == "certified"
    wrong = Cite(schemas.GAUSSIAN_TAIL, {"m": mu(k), "v": 2 * v, "x": x, "tag": X(k)})
    row, _ = first(st, st.rhs, sums.TermByTerm(cite=wrong))
    assert row["status"] == "argued" and "instance" in row["detail"]


def test_widen_needs_nonnegative_terms_and_a_wider_range():
    st = Statement(sympy.Sum(1 / k ** 2, (k, 2, n)), "<=", sympy.Sum(1 / k ** 2, (k, 1, n)))
    assert first(st, st.rhs, sums.Widen())[0]["status"] == "certified"
    neg = Statement(sympy.Sum(-1 / k ** 2, (k, 2, n)), "<=", sympy.Sum(-1 / k ** 2, (k, 1, n)))
    assert first(neg, neg.rhs, sums.Widen())[0]["status"] != "certified"
    narrower = Statement(sympy.Sum(1 / k ** 2, (k, 1, n)), "<=", sympy.Sum(1 / k ** 2, (k, 2, n)))
    assert first(narrower, narrower.rhs, sums.Widen())[0]["status"] != "certified"


def test_count_times_a_bound_reads_a_declared_order():
    up = sums.sequence("D", positive=True, order="nondecreasing")
    free = sums.sequence("E", positive=True)
    for seq, want in ((up, "certified"), (free, "argued")):
        st = Statement(sympy.Sum(1 / seq(i) ** 2, (i, k, K)), "<=", (K - k + 1) / seq(k) ** 2,
                       (rel(k, ">=", 1), rel(k, "<=", K)))
        row, _ = first(st, st.rhs, sums.CountTimesBound(1 / seq(k) ** 2))
        assert row["status"] == want, row["detail"]


def test_cauchy_schwarz_for_sums():
    N = sums.sequence("N", nonnegative=True)
    st = Statement(sympy.Sum(sympy.sqrt(N(i)), (i, 1, K)), "<=", sympy.sqrt(K) * sympy.sqrt(sympy.Sum(N(i), (i, 1, K))))
    assert first(st, st.rhs, sums.CauchySchwarzSum(sympy.sqrt(N(i)), 1))[0]["status"] == "certified"
    a, b = sums.sequence("a"), sums.sequence("b")
    sq = Statement(sympy.Sum(a(i) * b(i), (i, 1, K)) ** 2, "<=",
                   sympy.Sum(a(i) ** 2, (i, 1, K)) * sympy.Sum(b(i) ** 2, (i, 1, K)))
    assert first(sq, sq.rhs, sums.CauchySchwarzSum(a(i), b(i)))[0]["status"] == "certified"
    missing = Statement(sympy.Sum(sympy.sqrt(N(i)), (i, 1, K)), "<=", sympy.sqrt(sympy.Sum(N(i), (i, 1, K))))
    assert first(missing, missing.rhs, sums.CauchySchwarzSum(sympy.sqrt(N(i)), 1))[0]["status"] != "certified"
    c = sympy.Function("c")                                      # not declared real
    st = Statement(sympy.Sum(c(i), (i, 1, K)), "<=", sympy.sqrt(K) * sympy.sqrt(sympy.Sum(c(i) ** 2, (i, 1, K))))
    row, _ = first(st, st.rhs, sums.CauchySchwarzSum(c(i), 1))
    assert row["status"] != "certified" and "real" in row["detail"]


# ------------------------------------------------------------------------------ expectations, maxima
def test_linearity_of_expectations_and_sums():
    mu, v = sympy.Symbol("mu", real=True), sympy.Symbol("v", positive=True)
    Z = sympy.Symbol("Z")
    assert proved(Statement(Ex(3 * Normal(mu, v, Z) - 2), "==", 3 * mu - 2),
                  link("=", 3 * mu - 2, sums.Linearity()))
    assert proved(Statement(Ex(sums.Avg(sums.Bounded(mu, 0, 1, Z), n)), "==", mu), link("=", mu, sums.Linearity()))
    D, N = sums.sequence("Delta", nonnegative=True), sympy.Function("N")
    st = Statement(Ex(sympy.Sum(D(k) * N(k), (k, 1, K))), "==", sympy.Sum(D(k) * Ex(N(k)), (k, 1, K)))
    assert first(st, st.rhs, sums.Linearity(constant=(D, K)))[0]["status"] == "certified"
    # the gaps not declared deterministic, or the number of terms random: E does not pass the sum
    assert first(st, st.rhs, sums.Linearity(constant=(K,)))[0]["status"] != "certified"
    assert first(st, st.rhs, sums.Linearity(constant=(D,)))[0]["status"] != "certified"
    c = sympy.Symbol("c", real=True)
    cnt = Statement(sympy.Sum(c + 1 / k, (k, 1, n)), "==", n * c + sympy.Sum(1 / k, (k, 1, n)))
    assert first(cnt, cnt.rhs, sums.Linearity())[0]["status"] == "certified"
    rev = Statement(sympy.Sum(c, (k, 1, m)), "==", m * c)
    assert first(rev, rev.rhs, sums.Linearity())[0]["status"] != "certified"


def test_the_maximum_over_a_finite_set():
    f = sums.sequence("f", nonnegative=True)
    M = sums.max_over(f(k), (k, 1, K))
    assert M.free_symbols == {K}
    term = Statement(f(j), "<=", M, (rel(j, ">=", 1), rel(j, "<=", K)))
    assert first(term, M, sums.MaxOverFinite(at=j))[0]["status"] == "certified"
    outside = Statement(f(j), "<=", M, (rel(j, ">=", 1), rel(j, "<=", K + 1)))
    assert first(outside, M, sums.MaxOverFinite(at=j))[0]["status"] != "certified"
    assert first(Statement(M, "<=", sympy.Sum(f(k), (k, 1, K))), sympy.Sum(f(k), (k, 1, K)),
                 sums.MaxOverFinite())[0]["status"] == "certified"
    assert first(Statement(sympy.Sum(f(k), (k, 1, K)), "<=", K * M), K * M, sums.MaxOverFinite())[0]["status"] \
        == "certified"
    assert first(Statement(sympy.Sum(f(k), (k, 1, K)), "<=", (K - 1) * M), (K - 1) * M,
                 sums.MaxOverFinite())[0]["status"] != "certified"
    capped = sums.sequence("g", positive=True, upper=1)
    assert first(Statement(sums.max_over(capped(k), (k, 1, K)), "<=", 1), 1, sums.MaxOverFinite())[0]["status"] \
        == "certified"
    ev = Pr(rel(M, ">=", x))
    assert first(Statement(ev, "==", Pr(cup(rel(f(k), ">=", x), (k, 1, K)))), Pr(cup(rel(f(k), ">=", x), (k, 1, K))),
                 sums.MaxOverFinite())[0]["status"] == "certified"
    short = Pr(cup(rel(f(k), ">=", x), (k, 2, K)))
    assert first(Statement(ev, "==", short), short, sums.MaxOverFinite())[0]["status"] != "certified"


def test_inclusion_of_events_goes_one_way():
    mu = sympy.Symbol("mu", real=True)
    X = sums.Avg(sums.Bounded(mu, 0, 1, sympy.Symbol("X")), n)
    big, small = Pr(rel(X - mu, ">=", x)), Pr(rel(X - mu, ">=", 2 * x))
    assert first(Statement(small, "<=", big), big, sums.Inclusion())[0]["status"] == "certified"
    assert first(Statement(big, "<=", small), small, sums.Inclusion())[0]["status"] != "certified"
    same = Pr(rel(X, ">=", mu + x))
    assert first(Statement(big, "==", same), same, sums.Inclusion())[0]["status"] == "certified"


# ------------------------------------------------------------------------------------- harmonic numbers
def test_the_harmonic_schemas_hold_where_they_claim():
    """Each schema of schemas.HARMONIC at n = 1..300 and at 10^3..10^12 (mpmath, 40 digits)."""
    mpmath.mp.dps = 40
    for schema in schemas.HARMONIC:
        p = schema.params[0]
        assert all(c is sympy.true for _, c in schema.instance({"n": n})[1])          # n a positive integer
        sides = [sympy.lambdify(p, side, modules=[{"harmonic": mpmath.harmonic}, "mpmath"])
                 for side in (schema.conclusion.lhs, schema.conclusion.rhs)]
        strict = isinstance(schema.conclusion, sympy.StrictLessThan)
        for N in list(range(1, 301)) + [10 ** e for e in range(3, 13)]:
            lhs, rhs = (f(mpmath.mpf(N)) for f in sides)
            assert (lhs < rhs) if strict else (lhs <= rhs), (schema.name, N, lhs, rhs)


def test_harmonic_bounds_decide_with_the_cited_facts():
    logbar = sympy.Rational(1, 2) + sympy.Sum(1 / i, (i, 2, K))
    ok, _ = first(Statement(logbar, "<=", sympy.log(2 * K)), sympy.log(2 * K), sums.HarmonicBound())
    assert ok["status"] == "certified" and "Chvatal" in ok["detail"], ok["detail"]
    tight, _ = first(Statement(sympy.harmonic(K), "<=", sympy.log(K) + sympy.Rational(3, 5), (rel(K, ">=", 1000),)),
                     sympy.log(K) + sympy.Rational(3, 5), sums.HarmonicBound())
    assert tight["status"] == "certified", tight["detail"]
    low, _ = first(Statement(sympy.harmonic(K), ">=", sympy.log(K) + sympy.Rational(9, 10), (rel(K, ">=", 2),)),
                   sympy.log(K) + sympy.Rational(9, 10), sums.HarmonicBound())
    assert low["status"] == "refuted" and int(low["witness"]["params"]["K"]) >= 2, low
    cited = Statement(sympy.harmonic(n), "<=", 1 + sympy.log(n))
    assert proved(cited, link("<=", 1 + sympy.log(n), Cite(schemas.HARMONIC_UPPER, {"n": n})))
    real = sympy.Symbol("r", positive=True)
    row, _ = first(Statement(sympy.harmonic(real), "<=", 1 + sympy.log(real), (rel(real, ">=", 1),)),
                   1 + sympy.log(real), Cite(schemas.HARMONIC_UPPER, {"n": real}))
    assert row["status"] != "certified"                     # not known to be a whole number


def test_an_abstractions_counterexample_refutes_only_once_replayed():
    d = sums.Decided("refuted", "a model", witness={"params": {"K": 3.0, "_H0": 0.1}})
    out = sums._replayed(d, rel(sympy.harmonic(K), "<=", 1 + sympy.log(K)), ())
    assert out.status == "argued" and out.witness is None
    d = sums.Decided("refuted", "a model", witness={"params": {"K": 3.0, "_H0": 9.0}})
    out = sums._replayed(d, rel(sympy.harmonic(K), "<=", sympy.log(K)), ())
    assert out.status == "refuted" and out.witness == {"params": {"K": 3.0}}


def test_floors_and_ceilings():
    L = sympy.Symbol("L", integer=True, positive=True)
    ok, _ = first(Statement(sympy.ceiling(n / L), "<", n / L + 1), n / L + 1, sums.FloorCeiling())
    assert ok["status"] == "certified"
    bad, _ = first(Statement(sympy.ceiling(n / L), "<=", n / L), n / L, sums.FloorCeiling())
    assert bad["status"] == "refuted" and bad["witness"]["params"]
    none, _ = first(Statement(n, "<=", n + 1), n + 1, sums.FloorCeiling())
    assert none["status"] == "argued" and "no floor" in none["detail"]


# ------------------------------------------------------------------------------------------- schemas
def test_the_concentration_schemas_decide_their_conditions():
    mu, T = sympy.Symbol("mu", real=True), sympy.Symbol("T", integer=True, positive=True)
    Z = sympy.Symbol("Z")
    ev = Pr(rel(sums.Avg(sums.Bounded(mu, 0, 1, Z), T) - mu, ">=", x))
    st = Statement(ev, "<=", sympy.exp(-2 * T * x ** 2), (rel(mu, ">=", 0), rel(mu, "<=", 1)))
    bind = {"mu": mu, "lo": 0, "hi": 1, "T": T, "x": x, "tag": Z}
    assert proved(st, link("<=", st.rhs, Cite(schemas.HOEFFDING, bind)))
    loose = Statement(ev, "<=", sympy.exp(-2 * T * x ** 2))                  # the mean not known to lie in [0, 1]
    row, _ = first(loose, loose.rhs, Cite(schemas.HOEFFDING, bind))
    assert row["status"] == "argued" and "the mean lies in the range" in row["detail"]
    v, c = sympy.Symbol("v", positive=True), sympy.Symbol("c", positive=True)
    neg = -x
    bern = Pr(rel(sums.Avg(sums.BoundedDeviation(mu, v, c, Z), T) - mu, ">=", neg))
    st = Statement(bern, "<=", sympy.exp(-T * neg ** 2 / (2 * v + 2 * c * neg / 3)))
    row, _ = first(st, st.rhs, Cite(schemas.BERNSTEIN, {"m": mu, "v": v, "c": c, "T": T, "x": neg, "tag": Z}))
    assert row["status"] == "argued" and "the deviation is nonnegative: fails" in row["detail"]


def test_the_two_sided_tails():
    mu, T = sympy.Symbol("mu", real=True), sympy.Symbol("T", integer=True, positive=True)
    Z = sympy.Symbol("Z")
    ev = Pr(rel(sympy.Abs(sums.Avg(sums.Bounded(mu, 0, 1, Z), T) - mu), ">=", x))
    st = Statement(ev, "<=", 2 * sympy.exp(-2 * T * x ** 2), (rel(mu, ">=", 0), rel(mu, "<=", 1)))
    assert proved(st, link("<=", st.rhs, Cite(schemas.HOEFFDING_TWO_SIDED,
                                              {"mu": mu, "lo": 0, "hi": 1, "T": T, "x": x, "tag": Z})))
    one = Statement(ev, "<=", sympy.exp(-2 * T * x ** 2), st.given)               # the factor 2 forgotten
    row, _ = first(one, one.rhs, Cite(schemas.HOEFFDING_TWO_SIDED, {"mu": mu, "lo": 0, "hi": 1, "T": T, "x": x,
                                                                    "tag": Z}))
    assert row["status"] == "argued" and "not this link" in row["detail"]


def test_every_schema_names_its_source_and_prints():
    for s in schemas.ALL:
        assert s.source and s.name
        assert sympy.latex(s.conclusion)
    assert sympy.latex(sums.Avg(sums.Bounded(0, 0, 1, sympy.Symbol("X")), n) ** 2)
    assert sympy.latex(sums.max_over(k, (k, 1, n)) ** 2)


@pytest.mark.parametrize("rule", [sums.SplitOff(), sums.Reindex(), sums.Linearity(), sums.TermByTerm(),
                                  sums.Widen(), sums.IntegralComparison(), sums.MaxOverFinite(), sums.Inclusion(),
                                  sums.CauchySchwarzSum(1, 1), sums.CountTimesBound(1), sums.ClosedForm(),
                                  sums.HarmonicBound(), sums.FloorCeiling(), sums.AsAtoms()])
def test_a_rule_on_a_link_it_does_not_read_certifies_nothing(rule):
    st = Statement(x, "<=", x + 1)
    row, f = first(st, x + 1, rule)
    assert row["status"] != "certified" or isinstance(rule, sums.AsAtoms), (rule, row)
    assert f.proof["status"] != "proved" or isinstance(rule, sums.AsAtoms)
