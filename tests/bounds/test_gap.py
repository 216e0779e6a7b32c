"""Section 3 / Appendix A.1: c_K, e_*(alpha), the top-gap density, Lemma A.1's proof terms."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import special

import bounds
from bounds import gap
from rue_verify import testing as S
from simulate.stats import STRICT_LEVEL, binomial_interval

LEVEL = STRICT_LEVEL

# tolerances, each with its reason
QUAD_REL = 1e-8      # composite Gauss-Legendre vs mpmath at 30 digits (worst seen: 4e-10 at alpha=1e-6)
EXACT_REL = 1e-12    # closed forms vs quadrature in the well-conditioned range


# ---------------------------------------------------------------- golden values (independent)
@pytest.mark.parametrize("a", [1e-3, 0.1, 1.0, 3.0])
def test_e_star_K2_is_half_normal(a):
    # K = 2: X_(1) - X_(2) = |X_1 - X_2| ~ |N(0, 2)|, so e_*(a) = erf(a / 2).
    assert bounds.e_star(a, 2) == pytest.approx(math.erf(a / 2), rel=EXACT_REL)


def test_tightest_constant_golden_K2_K3():
    # p_2(0) = 1/sqrt(pi); p_3(0) = 6/(2 pi) * int Phi e^{-x^2} = 3/(2 sqrt(pi)) (by symmetry).
    assert gap.gap_constant_tightest(2) == pytest.approx(1 / math.sqrt(math.pi), rel=EXACT_REL)
    assert gap.gap_constant_tightest(3) == pytest.approx(3 / (2 * math.sqrt(math.pi)), rel=EXACT_REL)


def test_expected_range_golden():
    # E|X1 - X2| = 2/sqrt(pi); E[max of 3] = 3/(2 sqrt(pi)), so the range has mean 3/sqrt(pi).
    assert gap.expected_range(2) == pytest.approx(2 / math.sqrt(math.pi), rel=1e-9)
    assert gap.expected_range(3) == pytest.approx(3 / math.sqrt(math.pi), rel=1e-9)


def test_c_K_golden_against_hand_evaluation():
    # by hand: K = 100, ln K = 4.605170186, K/(4 sqrt(2 pi) ln K) = 2.165493..., its ln = 0.772650...
    with mpmath.workdps(30):
        lnK = mpmath.log(100)
        hand = 4 * mpmath.sqrt(2) * lnK * mpmath.sqrt(mpmath.log(100 / (4 * mpmath.sqrt(2 * mpmath.pi) * lnK))) \
            + 2 / mpmath.sqrt(2 * mpmath.pi)
    assert float(hand) == pytest.approx(23.698245874166, rel=1e-12)
    assert bounds.c_K(100) == pytest.approx(float(hand), rel=1e-14)


# ---------------------------------------------------------------- c_K's domain
def test_c_K_undefined_below_threshold_with_reason():
    with pytest.raises(bounds.UndefinedError, match="square root of a negative"):
        bounds.c_K(20)
    assert isinstance(bounds.UndefinedError("x"), ValueError)


def test_c_K_domain_is_a_threshold():
    K = np.arange(2, 2000)
    ok = bounds.c_K_is_defined(K)
    first = int(K[ok][0])
    assert not ok[K < first].any() and ok[K >= first].all()


@pytest.mark.parametrize("bad", [1, 0, -3, 2.5, float("nan")])
def test_c_K_rejects_bad_K(bad):
    with pytest.raises(ValueError, match="K must be an integer >= 2"):
        bounds.c_K(bad)


@pytest.mark.parametrize("kwargs,name", [({"alpha": -1.0, "K": 5}, "alpha"), ({"alpha": 1.0, "K": 1}, "K"),
                                         ({"alpha": 1.0, "K": 5, "sigma0_sq": 0.0}, "sigma0_sq")])
def test_e_star_bad_input_names_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        bounds.e_star(**kwargs)


# ---------------------------------------------------------------- float vs mpmath twins
@settings(max_examples=25)
@given(K=st.integers(2, 3000), a=S.alpha)
@example(K=2, a=1e-4)
@example(K=3000, a=5.0)
def test_e_star_matches_mpmath(K, a):
    assert bounds.e_star(a, K) == pytest.approx(float(gap.e_star_mp(a, K, 1, 30)), rel=QUAD_REL, abs=1e-15)


@settings(max_examples=20)
@given(K=st.integers(2, 5000))
def test_tightest_constant_matches_mpmath(K):
    assert gap.gap_constant_tightest(K) == pytest.approx(float(gap.gap_constant_tightest_mp(K)), rel=QUAD_REL)


@settings(max_examples=40)
@given(K=S.K_defined)
def test_c_K_float_equals_mpmath_and_sympy(K):
    import sympy
    x = bounds.c_K(K)
    with mpmath.workdps(30):
        y = float(bounds.c_K(mpmath.mpf(K)))
    Ks = sympy.Symbol("K", positive=True)
    z = float(bounds.c_K(Ks).subs(Ks, K).evalf(30))
    assert x == pytest.approx(y, rel=1e-13) and x == pytest.approx(z, rel=1e-13)


# ---------------------------------------------------------------- properties
@settings(max_examples=40)
@given(K=S.K_any, s=st.floats(0.0, 6.0))
def test_gap_density_bounded_by_gaussian_factor(K, s):
    # derived in bounds.gap: p(s) <= exp(-s^2/4) p(0), so p peaks at 0
    assert gap.gap_density(s, K) <= math.exp(-s * s / 4) * gap.gap_density(0.0, K) * (1 + 1e-9)


@settings(max_examples=30)
@given(K=S.K_any, a=S.alpha, b=S.alpha)
def test_e_star_monotone_and_below_tightest_line(K, a, b):
    lo, hi = sorted((a, b))
    assert bounds.e_star(lo, K) <= bounds.e_star(hi, K) + 1e-14
    assert bounds.e_star(lo, K) <= gap.gap_constant_tightest(K) * lo * (1 + 1e-9)


@settings(max_examples=30)
@given(K=S.K_any, a=S.alpha, s0=S.variance)
def test_e_star_scales_with_sigma0(K, a, s0):
    assert bounds.e_star(a, K, s0) == pytest.approx(bounds.e_star(a / math.sqrt(s0), K), rel=1e-12)


def test_a_K_solves_its_equation():
    for K in (2, 10, 100, 10_000):
        a = float(gap.a_K(K))
        assert a * math.exp(a * a / 2) == pytest.approx(gap.PROOF_C * K / math.log(K), rel=1e-10)


def test_mills_upper_undefined_at_zero():
    with pytest.raises(bounds.UndefinedError, match="t = 0"):
        gap.mills_upper(0.0)


def test_second_order_cdf_matches_binomial():
    from scipy import stats
    t = np.linspace(-3, 4, 50)
    for K in (2, 5, 40):
        assert np.allclose(gap.second_order_cdf(t, K), stats.binom.sf(K - 2, K, special.ndtr(t)), atol=1e-14)


@pytest.mark.statistical
@pytest.mark.parametrize("K,alpha,sigma0_sq", [(2, 0.3, 1.0), (10, 0.2, 1.0), (50, 0.05, 4.0), (200, 0.1, 0.25)])
def test_monte_carlo_gap_probability_matches_exact(K, alpha, sigma0_sq):
    rng = np.random.default_rng([7, K])
    R = 200_000
    mu = np.sort(rng.normal(0, np.sqrt(sigma0_sq), (R, K)), axis=1)
    hits = int(np.sum(mu[:, -1] - mu[:, -2] <= alpha))
    ci = binomial_interval(hits, R, LEVEL)
    exact = bounds.e_star(alpha, K, sigma0_sq)
    assert ci.low <= exact <= ci.high
    if bounds.c_K_is_defined(K) and K >= 37:             # where the ledger finds Theorem 3.1 holds
        S.assert_rate_below(hits, R, bounds.theorem_3_1_bound(alpha, K, sigma0_sq), LEVEL)
