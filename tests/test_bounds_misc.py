"""Section 2 and Section 5 formulas, the registry (symbolic = numeric), vacuity, certification."""

import math

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
from bounds import certify, gap, orders, section2 as s2, theorems as th, vacuity
from bounds.registry import REGISTRY, SYMBOLS, evaluate, symbolic
from tests import strategies as S

SYM_NUM_REL = 1e-10   # lambdified sympy vs numpy evaluation of the same function


def _draw_params(entry, data):
    vals = {}
    for p in entry.params:
        if p == "K":
            vals[p] = data.draw(st.integers(40, 5000), label=p)
        elif p == "n":
            vals[p] = float(4 * (vals.get("K", 40) - 1) + data.draw(st.integers(1, 10 ** 6), label=p))
        elif p == "delta":
            vals[p] = data.draw(S.delta, label=p)
        elif p == "p":
            vals[p] = data.draw(st.floats(0.05, 0.45), label=p)
        elif p == "t":
            vals[p] = data.draw(st.floats(0.1, 10), label=p)
        else:
            vals[p] = data.draw(st.floats(0.05, 20), label=p)
    return vals


SYMBOLIC = [k for k, e in REGISTRY.items() if e.symbolic]


@pytest.mark.parametrize("name", SYMBOLIC)
@settings(max_examples=8)
@given(data=st.data())
def test_symbolic_and_numeric_forms_agree(name, data):
    entry = REGISTRY[name]
    vals = _draw_params(entry, data)
    try:
        num = evaluate(name, **vals)
    except (bounds.UndefinedError, ValueError):
        return
    expr = symbolic(name)
    subs = {SYMBOLS[p]: v for p, v in vals.items()}
    items = expr.items() if isinstance(expr, dict) else [(None, expr)]
    for key, e in items:
        got = float(sympy.N(e.subs(subs), 30))
        want = float(num[key] if key is not None else num)
        assert got == pytest.approx(want, rel=SYM_NUM_REL, abs=1e-300)


def test_theorem_5_1_undefined_and_hypotheses():
    with pytest.raises(bounds.UndefinedError, match="c_K"):
        th.theorem_5_1_bound(20, 1000, 1.0, 1.0, 1.0)
    with pytest.raises(bounds.UndefinedError, match="n - 4"):
        th.theorem_5_1_bound(40, 156, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="n must be >= 4"):
        th.theorem_5_1_bound(40, 100, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="delta must be in"):
        th.theorem_5_1_bound(40, 1000, 1.0, 1.0, 1.5)
    with pytest.raises(ValueError, match="n must be > 4"):
        th.theorem_5_2_bound(40, 156, 1.0, 1.0, 1.0)


def test_theorem_5_2_equals_its_proof_only_when_sigma0_is_one():
    a = th.theorem_5_2_bound(100, 10 ** 6, 1.0, 0.1, 0.01)
    b = th.regret_bound_from_proof(100, 10 ** 6, 1.0, 0.1, 0.01)
    assert a == pytest.approx(b, rel=1e-12)
    a4 = th.theorem_5_2_bound(100, 10 ** 6, 4.0, 0.4, 0.01)
    b4 = th.regret_bound_from_proof(100, 10 ** 6, 4.0, 0.4, 0.01)
    assert not math.isclose(a4, b4, rel_tol=1e-3)


def test_eta_condition_holds_with_intended_rho_identity():
    # rho^2 = beta/beta_1 exactly when sigma0^2 + sigma^2 = 1
    for K, s0 in ((40, 0.3), (1000, 0.9)):
        assert float(th.rho(K, s0, 1 - s0)) ** 2 == pytest.approx(
            float(th.beta(K, s0, 1 - s0) / th.beta_1(K, s0, 1 - s0)), rel=1e-12)
        assert float(th.eta_condition(K, s0, 1 - s0)) <= 0


def test_vacuity_finds_the_crossing():
    r = vacuity.smallest_informative_n(100, 1.0, 0.1, 0.01)
    assert r.n_first is not None
    assert th.theorem_5_1_bound(100, r.n_first, 1.0, 0.1, 0.01) < 1
    assert th.theorem_5_1_bound(100, r.n_first - 1, 1.0, 0.1, 0.01) >= 1
    never = vacuity.smallest_informative_n(100, 1.0, 1.0, 1.0, n_max=10 ** 9)
    assert never.n_first is None and "grid" in never.reason
    und = vacuity.smallest_informative_n(20, 1.0, 1.0, 1.0)
    assert und.n_first is None and und.reason.startswith("undefined")


def test_orders_are_derived():
    ex = orders.n_exponents()
    assert ex["gap_term_E1"] == sympy.Rational(-1, 2) and ex["gap_term_E2"] == sympy.Rational(-1, 2)
    assert orders.rho_limit_large_K() == 1


def test_arb_upper_bound_is_above_the_float_value():
    for K in (2, 37, 500, 10_000):
        assert certify.p0_upper(K, 0.05) >= gap.gap_constant_tightest(K)
    c = certify.certify_theorem_3_1(37)
    assert c.certified and c.upper <= c.lower
    assert not certify.certify_theorem_3_1(36).certified
    assert certify.c_K_certainly_undefined(35) and not certify.c_K_certainly_undefined(36)


def test_sympy_proof_of_tau_upper_checks_every_step():
    assert all(ok for _, ok in certify.prove_tau_upper())


def test_section2_definitions():
    mu = [0.5, 0.45, 0.45, 0.3]
    d = s2.gaps(mu)
    assert d.tolist() == pytest.approx([0.05, 0.05, 0.05, 0.2])
    assert s2.H_complexity(mu) == pytest.approx(3 / 0.0025 + 25)
    assert s2.H_complexity(mu, include_best=False) == pytest.approx(2 / 0.0025 + 25)
    assert s2.H_2(mu) == pytest.approx(max(1 / 0.0025, 2 / 0.0025, 3 / 0.0025, 4 / 0.04))
    with pytest.raises(bounds.UndefinedError, match="not unique"):
        s2.gaps([0.5, 0.5, 0.1])
    with pytest.raises(bounds.UndefinedError, match="divides by x"):
        s2.feller_bound(10, 0.0, 1.0)


@settings(max_examples=50)
@given(n=st.integers(2, 10 ** 7), D=st.floats(1e-4, 3), s=S.variance)
def test_feller_bound_below_exact(n, D, s):
    with mpmath.workdps(30):
        e = s2.full_info_error(mpmath.mpf(n), mpmath.mpf(D), mpmath.mpf(s))
        b = s2.feller_bound(mpmath.mpf(n), mpmath.mpf(D), mpmath.mpf(s))
    assert b <= e
