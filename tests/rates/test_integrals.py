"""rue_verify.rates.integrals: the compiled posterior integrals and the compiled oracle against their
plain references (`truth.reference_values`, `bounds.lower.oracle_given_means`), run by run, and the
approximations they make (log Phi, Phi rounding to 1) against scipy and the rounding itself."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from scipy import special

from bounds.lower import oracle_given_means as reference_oracle
from rue_verify.rates import integrals, truth


def test_log_ndtr_is_scipys_and_mpmaths():
    """Over z in [-1e4, 1e4] (densely in [-40, 40], where the branches meet at 0 and -20): within
    1e-13 relative of scipy.special.log_ndtr wherever the value is a normal double, and of mpmath's
    log Phi (40 digits) at points on every branch."""
    import mpmath
    z = np.concatenate([np.linspace(-1e4, 1e4, 20_001), np.linspace(-40, 40, 400_001), [0.0, -20.0, 6.0]])
    got = np.array([integrals.log_ndtr(x) for x in z])
    want = special.log_ndtr(z)
    normal = np.abs(want) > 1e-300
    assert np.all(np.abs(got - want)[normal] <= 1e-13 * np.abs(want[normal]))
    assert np.all(got <= 0) and np.all(np.isfinite(got))
    with mpmath.workdps(40):
        for x in (-1e3, -37.5, -20.5, -20.0, -19.9, -3.0, -1e-3, 0.0, 1e-3, 0.5, 3.0, 5.9, 6.0, 7.5, 20.0):
            exact = mpmath.log(mpmath.ncdf(x)) if x <= 0 else mpmath.log1p(-mpmath.ncdf(-x))   # Phi(x) = 1 - Phi(-x)
            assert abs(integrals.log_ndtr(x) - exact) <= 1e-13 * abs(exact), x


@njit
def _phi(x):
    return 0.5 * math.erfc(-x * math.sqrt(0.5))


def test_phi_rounds_to_one_above_the_cut_the_oracle_skips_and_not_just_below():
    """The compiled oracle skips the normal CDF factors whose argument is above `_PHI_ONE`: in
    compiled code they are exactly 1 there (on 100 000 points up to 60), and the cut is not loose
    by more than 0.1 (just below it, they are not 1)."""
    xs = np.linspace(integrals._PHI_ONE, 60.0, 100_000)
    assert all(_phi(x) == 1.0 for x in xs)
    assert _phi(integrals._PHI_ONE - 0.1) < 1.0


def _posteriors(K, R, v_scale, seed):
    rng = np.random.default_rng(seed)
    m = rng.normal(0, 1, (R, K))
    v = v_scale * rng.uniform(0.01, 1.0, (R, K))
    h = np.arange(R // 2)
    m[h, m[h].argmax(axis=1)] = np.sort(m[h], axis=1)[:, -2] + np.sqrt(v_scale) * rng.standard_normal(h.size)
    rec = np.where(rng.random(R) < 0.5, m.argmax(axis=1), rng.integers(0, K, R))
    return m, v, rec


@given(st.integers(2, 60), st.integers(1, 8), st.floats(1e-9, 2.0), st.integers(0, 2 ** 32 - 1))
@settings(max_examples=60, deadline=None)
def test_the_kernels_are_the_reference_run_by_run(K, R, v_scale, seed):
    """Each run's failure and regret equal the numpy reference on the same arms (the ones
    `relevant_arms` keeps for that run), to 1e-12 relative or 1e-17 absolute (the log CDFs the
    kernels skip are each under 1.2e-19); the regret, a difference of means, to 1e-13 of their size."""
    m, v, rec = _posteriors(K, R, v_scale, seed)
    f, g = truth.conditional_values(m, v, rec)
    for r in range(R):
        keep = truth.relevant_arms(m[r:r + 1], np.sqrt(v[r:r + 1]), rec[r:r + 1])[0]
        rf, rg = truth.reference_values(m[r:r + 1, keep], v[r:r + 1, keep], np.flatnonzero(keep == rec[r]))
        assert abs(f[r] - rf[0]) <= 1e-12 * rf[0] + 1e-17, (r, f[r], rf[0])
        assert abs(g[r] - rg[0]) <= 1e-12 * rg[0] + 1e-13 * max(1.0, np.abs(m[r]).max()), (r, g[r], rg[0])


def test_a_runs_values_do_not_depend_on_the_other_runs_or_the_threads():
    """Run by run, to the bit: the values of a shuffled half of the runs, and of all runs on one
    thread, are those of the whole batch on two."""
    import numba
    m, v, rec = _posteriors(10, 3000, 1e-3, 5)
    f, g = truth.conditional_values(m, v, rec)
    part = np.random.default_rng(1).permutation(3000)[:1500]
    fp, gp = truth.conditional_values(m[part], v[part], rec[part])
    assert np.array_equal(fp, f[part]) and np.array_equal(gp, g[part])
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        f1, g1 = truth.conditional_values(m, v, rec)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(f1, f) and np.array_equal(g1, g)


@given(st.integers(2, 100), st.sampled_from([1, 7, 100, 1e4, 1e6]), st.booleans(), st.integers(0, 2 ** 32 - 1))
@settings(max_examples=40, deadline=None)
def test_the_compiled_oracle_is_the_reference_oracle(K, n, per_arm, seed):
    """`truth.oracle_given_means` (compiled) against `bounds.lower.oracle_given_means` (numpy) on prior
    draws with planted near-ties, under a common rule and per-arm factors: to 1e-12 relative or 1e-17
    absolute (the product formed directly, not as the exp of a log-sum)."""
    rng = np.random.default_rng(seed)
    mu = rng.normal(0, 1, (16, K))
    mu[:8, 0] = mu[:8].max(axis=1) + rng.normal(0, 3 / math.sqrt(n), 8)
    a = rng.uniform(0.3, 1.0, K) if per_arm else np.ones(K)
    f, g = truth.oracle_given_means(mu, n, 1.7, a)
    rf, rg = reference_oracle(mu, float(n), 1.7, a if per_arm else None)
    assert np.all(np.abs(f - rf) <= 1e-12 * rf + 1e-17)
    assert np.all(np.abs(g - rg) <= 1e-12 * rg + 1e-17 * max(1.0, np.abs(mu).max()))


@given(st.integers(2, 100), st.sampled_from([1, 7, 100, 1e4, 1e6]), st.booleans(), st.integers(0, 2 ** 32 - 1))
@settings(max_examples=40, deadline=None)
def test_the_oracles_plain_estimators_in_one_pass_are_the_numpy_forms(K, n, ties, seed):
    """`integrals.plain_oracle` against what it replaces: the sample sums, `truth.known_mean_posterior`, numpy's
    argmax and `simulate.runner.outcomes`, to the bit, on prior draws (with `ties`: means and noise
    on a coarse grid, so that exact ties of the posterior means and of the true means occur)."""
    from simulate.runner import outcomes
    rng = np.random.default_rng(seed)
    mu, z = rng.normal(0, 1, (64, K)), rng.normal(0, 1, (64, K))
    if ties:
        mu, z = np.round(mu * 2) / 2, np.round(z)
    s0, nu_sq = rng.uniform(0.1, 2.0), 1.7
    m, _ = truth.known_mean_posterior(np.full(mu.shape, float(n)), n * mu + math.sqrt(n * nu_sq) * z, s0, nu_sq)
    want_fail, want_regret = outcomes(mu, m.argmax(axis=1))
    v = 1.0 / (1.0 / np.full(K, s0) + float(n) / nu_sq)
    fail, regret = np.empty(64), np.empty(64)
    integrals.plain_oracle(mu, z, float(n), math.sqrt(n * nu_sq), v, nu_sq, fail, regret)
    assert np.array_equal(fail, want_fail.astype(float)) and np.array_equal(regret, want_regret)


def test_the_compiled_oracle_refuses_bad_input_naming_the_parameter():
    import pytest
    mu = np.zeros((3, 4))
    for args, name in (((mu[:, :1], 10, 1.0, np.ones(1)), "means"), ((mu, 0, 1.0, np.ones(4)), "n"),
                       ((mu, 10, float("nan"), np.ones(4)), "nu_sq"), ((mu, 10, 1.0, np.ones(3)), "shrink")):
        with pytest.raises(ValueError, match=name):
            truth.oracle_given_means(*args)


def test_a_chunks_error_is_raised_and_the_helper_threads_do_not_hold_the_exit():
    """`truth._on_threads`: an error in any chunk reaches the caller; the helper threads are daemons, so
    an interrupted command does not wait for a chunk at interpreter exit (a thread pool's would)."""
    import threading

    import numba
    seen = []

    def kernel(rows, out):
        seen.append((threading.current_thread().daemon, threading.current_thread() is threading.main_thread()))
        if rows[0] > 0:
            raise RuntimeError("chunk failed")
        out[:] = rows
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs two threads")
    before = numba.get_num_threads()
    numba.set_num_threads(2)
    try:
        rows = np.arange(10.0)
        with pytest.raises(RuntimeError, match="chunk failed"):
            truth._on_threads(kernel, (rows,), (), (np.empty(10),))
    finally:
        numba.set_num_threads(before)
    assert sorted(seen) == [(False, True), (True, False)]          # one chunk here, one on a daemon thread
