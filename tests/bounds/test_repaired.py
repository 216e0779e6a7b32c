"""bounds.repaired: every repaired statement holds over Hypothesis-drawn parameters (the ledger's
searches check the same statements over their domains)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bounds import gap
from bounds import repaired as rp
from bounds import section2 as s2
from bounds import theorems as th
from bounds.estimation import posterior_variance_formula


@given(st.integers(2, 3000), st.floats(1e-4, 8.0))
def test_repaired_gap_constant_bounds_e_star(K, alpha):
    assert gap.e_star(alpha, K) <= float(rp.theorem_3_1_repaired(alpha, K)) * (1 + 1e-9)


@given(st.lists(st.integers(1, 5000), min_size=2, max_size=25), st.floats(1e-3, 1e3), st.floats(1e-3, 1e3))
def test_repaired_tau_lower_side(T, s0, s):
    T = np.asarray(T, float)
    tau = np.asarray(posterior_variance_formula(T, s0, s), float)
    assert np.all(rp.tau_sq_lower_repaired(T, T.size, s0, s) <= tau * (1 + 1e-12))


@given(st.integers(2, 10 ** 6), st.floats(1e-4, 1e4), st.floats(1e-4, 1e4))
def test_repaired_eta_condition(K, s0, s):
    assert float(rp.eta_condition_repaired(K, s0, s)) <= 0


@given(st.lists(st.integers(2, 10 ** 4), min_size=2, max_size=30), st.floats(1e-3, 1e3), st.floats(1e-3, 1e3),
       st.floats(1e-3, 1.0))
def test_repaired_nu_t(T, s0, s, frac):
    nu = s * frac
    assert float(th.nu_t([float(t) for t in T], s0, s, nu)) <= float(rp.nu_t_upper_repaired(s0, nu)) * (1 + 1e-12)


@given(st.lists(st.floats(1e-3, 1.0), min_size=1, max_size=40))
def test_repaired_h2_chain(gaps):
    mu = np.r_[1.0, 1.0 - np.asarray(gaps)]
    H, H2 = s2.H_complexity(mu), s2.H_2(mu)
    K = mu.size
    assert H2 <= H * (1 + 1e-12) and H <= rp.harmonic_log_bound_repaired(K) * H2 * (1 + 1e-12)
    assert rp.harmonic_log_bound_repaired(K) <= math.log(2 * K)


@given(st.integers(10, 10 ** 7), st.integers(2, 40), st.floats(1e-3, 1.0), st.lists(st.floats(1e-3, 1.0),
                                                                                       min_size=39, max_size=39))
def test_repaired_lower_chain(n, K, frac, rest):
    p = 0.2
    d = float(rp.ucbe_lower_chain_threshold_repaired(n, K, p)) * frac
    mu = np.r_[1.0, 1.0 - np.maximum(np.asarray(rest[:K - 1]), d)]
    mu[1] = 1.0 - d
    H, H2 = s2.H_complexity(mu), s2.H_2(mu)
    first, middle = -5 * n / (p * (1 - p) * H2), -5 * math.log(2 * K) * n / (p * (1 - p) * H)
    assert first >= middle * (1 + 1e-12) and middle >= -0.5 * math.log(n) * (1 + 1e-12)


@given(st.integers(3, 10 ** 8), st.floats(1e-3, 1e2), st.floats(0.0, 1.0))
def test_repaired_full_alpha(n, s, u):
    L = math.log(n)
    lo = math.sqrt(3) * s / L
    if lo > s:
        return
    alpha = lo + u * (s - lo)
    lhs, rhs = s2.feller_small_gap_form(n, alpha, s), s2.full_alpha_rhs(n)
    assert lhs >= rhs - 1e-12 * abs(rhs)


@given(st.integers(2, 200), st.floats(1e-3, 1e3), st.floats(1e-6, 1.0), st.floats(1e-4, 1.0), st.floats(1e-2, 1e2))
def test_repaired_theorem_is_scale_free_and_defined(K, s0, ratio, d, c):
    n = 4 * K + 1
    a = float(rp.theorem_5_1_repaired(K, n, s0, ratio * s0, d))
    b = float(rp.theorem_5_1_repaired(K, n, c * s0, c * ratio * s0, d))
    assert math.isfinite(a) and a == pytest.approx(b, rel=1e-9)


@given(st.integers(2, 1000), st.floats(1e-3, 10.0), st.floats(1e-3, 10.0))
def test_repaired_tail_e3k_bounds_the_exact_tail(T, x, nu):
    from scipy import special
    assert 2 * special.ndtr(-x * math.sqrt(T / nu)) <= float(rp.e3k_bound_repaired(T, x, nu)) * (1 + 1e-12)
