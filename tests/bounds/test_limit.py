"""The limit (`bounds.limit`): the finite-n bound's integrals against closed forms and independent
quadrature, its constants against the certified zero-gap density, the oracle's place below it."""

import math

import mpmath
import numpy as np
import pytest
from scipy import integrate, stats

from bounds import UndefinedError, certify, limit, lower

POINTS = [(n, s0, s) for n in (1, 7, 100, 1e4, 1e6, 1e8) for s0, s in ((1.0, 1.0), (0.25, 4.0), (10.0, 0.1))]


@pytest.mark.parametrize("n,s0,s", POINTS)
def test_two_arms_integrals_match_closed_forms(n, s0, s):
    assert limit.failure_lower_bound(n, 2, s0, s) == pytest.approx(limit.two_arms_failure(n, s0, s), rel=1e-10)
    assert limit.regret_lower_bound(n, 2, s0, s) == pytest.approx(limit.two_arms_regret(n, s0, s), rel=1e-10)


@pytest.mark.parametrize("n,s0,s", [(3, 1.0, 1.0), (200, 0.25, 4.0), (5e4, 2.0, 0.5)])
def test_two_arms_closed_forms_against_mpmath(n, s0, s):
    """The pair experiment integrated directly: d ~ N(0, 2 s0^2), the sign flips with probability
    Phi(-|d| sqrt(n) / (2 sigma)) and costs |d|."""
    a, c = mpmath.sqrt(2 * s0), mpmath.sqrt(n) / (2 * mpmath.sqrt(s))
    dens = lambda x: mpmath.npdf(x, 0, a)       # noqa: E731
    flip = lambda x: mpmath.ncdf(-c * x)        # noqa: E731
    fail = 2 * mpmath.quad(lambda x: dens(x) * flip(x), [0, 1 / c, 10 / c, mpmath.inf])
    regret = 2 * mpmath.quad(lambda x: x * dens(x) * flip(x), [0, 1 / c, 10 / c, mpmath.inf])
    assert limit.two_arms_failure(n, s0, s) == pytest.approx(float(fail), rel=1e-12)
    assert limit.two_arms_regret(n, s0, s) == pytest.approx(float(regret), rel=1e-12)


@pytest.mark.parametrize("K,n,s0,s", [(3, 10, 1.0, 1.0), (6, 400, 0.5, 2.0), (12, 5e4, 1.0, 1.0)])
def test_many_arms_against_an_independent_double_integral(K, n, s0, s):
    """The top gap's density written out (the top arm at y, the second at y - t, the rest below it)
    and integrated by scipy, not through `gap.gap_density`."""
    sd, c = math.sqrt(s0), math.sqrt(n) / (2 * math.sqrt(s))
    g, G = stats.norm(0, sd).pdf, stats.norm(0, sd).cdf

    x, w = np.polynomial.legendre.leggauss(40)
    edges = np.linspace(-12 * sd, 12 * sd, 97)
    y = np.concatenate([a + (b - a) * (x + 1) / 2 for a, b in zip(edges[:-1], edges[1:])])
    wy = np.concatenate([w * (b - a) / 2 for a, b in zip(edges[:-1], edges[1:])])

    def density(t):         # Gauss-Legendre over the top arm's value y (not gap's quantile variable)
        return K * (K - 1) * float(np.sum(wy * g(y) * g(y - t) * G(y - t) ** (K - 2)))
    top = min(40 / c, 30 * sd)
    pts = [top * 2.0 ** -k for k in range(12, 0, -1)]
    fail = integrate.quad(lambda t: density(t) * stats.norm.cdf(-c * t), 0, top, points=pts, epsabs=1e-12,
                          limit=200)[0]
    regret = integrate.quad(lambda t: t * density(t) * stats.norm.cdf(-c * t), 0, top, points=pts, epsabs=1e-13,
                            limit=200)[0]
    assert limit.failure_lower_bound(n, K, s0, s) == pytest.approx(fail, rel=1e-6)
    assert limit.regret_lower_bound(n, K, s0, s) == pytest.approx(regret, rel=1e-6)


@pytest.mark.parametrize("K", [2, 5, 10, 100])
def test_the_finite_bound_rises_to_the_constant(K):
    """sqrt(n) e-bound and n sr-bound approach the limit's constants from below as n grows."""
    L = limit.limit_constants(K, 0.5, 2.0)
    ns = [10.0 ** k for k in range(1, 10)]
    fr = [limit.failure_lower_bound(n, K, 0.5, 2.0) * math.sqrt(n) / L.failure for n in ns]
    rr = [limit.regret_lower_bound(n, K, 0.5, 2.0) * n / L.regret for n in ns]
    for seq in (fr, rr):
        assert all(x < 1 for x in seq) and all(np.diff(seq) > 0)
        assert seq[-1] > 0.999


@pytest.mark.parametrize("K,s0", [(2, 1.0), (3, 0.3), (10, 1.0), (30, 4.0), (100, 1.0)])
def test_the_zero_gap_density_lies_in_its_certified_bracket(K, s0):
    lo, hi = certify.zero_gap_density_bracket(K, s0)
    assert lo <= limit.zero_gap_density(K, s0) <= hi
    assert (hi - lo) / lo < 0.01
    if K == 2:          # p(0) = 2 int g^2 = 1 / (sqrt(pi) sigma0)
        assert lo <= 1 / math.sqrt(math.pi * s0) <= hi


def test_per_arm_density_reduces_to_the_common_one_and_to_two_arms():
    assert limit.zero_gap_density(7, [0.8] * 7) == pytest.approx(limit.zero_gap_density(7, 0.8), rel=1e-10)
    m, v = [0.5, -1.0], [1.0, 3.0]
    exact = 2 * stats.norm.pdf(1.5, 0, math.sqrt(4.0))      # 2 int g_1 g_2: the density of mu_1 - mu_2 at 0, twice
    assert limit.zero_gap_density(2, v, m) == pytest.approx(exact, rel=1e-10)


def test_per_arm_density_against_the_pairs_summed_by_scipy():
    m, v = np.array([0.0, 0.3, -0.5, 1.0]), np.array([1.0, 0.2, 2.0, 0.5])
    sd = np.sqrt(v)
    total = 0.0
    for i in range(4):
        for j in range(4):
            if i != j:
                rest = [k for k in range(4) if k not in (i, j)]
                f = lambda x: (stats.norm.pdf(x, m[i], sd[i]) * stats.norm.pdf(x, m[j], sd[j])   # noqa: E731
                               * np.prod([stats.norm.cdf(x, m[k], sd[k]) for k in rest]))
                total += integrate.quad(f, -15, 15, limit=200, epsabs=1e-13)[0]
    assert limit.zero_gap_density(4, v, m) == pytest.approx(total, rel=1e-8)


@pytest.mark.parametrize("n,s0,s", [(1, 1.0, 1.0), (50, 0.25, 4.0), (1e4, 1.0, 1.0), (1e6, 3.0, 0.5)])
def test_the_oracle_is_the_bound_at_twice_the_budget_for_two_arms(n, s0, s):
    assert lower.oracle_two_arms(n, s0, s) == pytest.approx(limit.two_arms_failure(2 * n, s0, s), rel=1e-6)
    # and so the oracle sits below the limit by the predicted factor, in the limit
    ratio = limit.two_arms_failure(2 * 1e10, s0, s) / limit.two_arms_failure(1e10, s0, s)
    assert ratio == pytest.approx(limit.ORACLE_FACTOR["failure"], rel=1e-4)
    ratio = limit.two_arms_regret(2 * 1e10, s0, s) / limit.two_arms_regret(1e10, s0, s)
    assert ratio == pytest.approx(limit.ORACLE_FACTOR["regret"], rel=1e-4)


def test_bad_input_is_named_and_per_arm_finite_n_is_undefined():
    with pytest.raises(ValueError, match="n"):
        limit.failure_lower_bound(0, 10)
    with pytest.raises(ValueError, match="K"):
        limit.regret_lower_bound(10, 1)
    with pytest.raises(ValueError, match="sigma_sq"):
        limit.limit_constants(10, 1.0, -1.0)
    with pytest.raises(ValueError, match="sigma0_sq"):
        limit.zero_gap_density(3, [1.0, 2.0])
    with pytest.raises(UndefinedError, match="common prior"):
        limit.lower_bound("failure", 100, 3, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="quantity"):
        limit.lower_bound("mse", 100, 3)
