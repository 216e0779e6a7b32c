"""rue_verify.rates.truth: the conditional (Rao-Blackwell) estimators equal the plain ones in
expectation on the same runs (paired t-intervals at level 1 - 1e-6, fixed seeds), their integrals
match sampling from the posterior, and a planted error in the posterior is caught."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rue_verify.rates import truth
from rue_verify.rates.truth import bayes_truth, conditional_failure, conditional_regret
from simulate.stats import STRICT_LEVEL, mean_interval

LEVEL = STRICT_LEVEL


def union_grid(m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Per run, the sorted union of every arm's window m_k +- 9 sd_k at spacing 0.07 sd_k (the grid
    `truth._grid` thins)."""
    z = np.linspace(-9.0, 9.0, truth.POINTS)
    return np.sort((m[:, :, None] + s[:, :, None] * z).reshape(m.shape[0], -1), axis=1)


@pytest.mark.parametrize("algorithm,params,K,n", [("rue", {"variances": "known"}, 5, 200), ("uniform", {}, 8, 400),
                                                   ("sh", {}, 6, 300)])
def test_the_conditional_estimators_are_unbiased_on_the_same_runs(algorithm, params, K, n):
    t = bayes_truth(algorithm, K, n, 1.0, 1.0, 3000, seed=11, params=params, level=LEVEL)
    assert t.failure_plain.low <= t.failure.estimate <= t.failure_plain.high
    assert t.regret_plain.low <= t.regret.estimate <= t.regret_plain.high
    assert t.vr_failure > 1.5 and t.vr_regret > 1.5                       # and they are worth it


def test_the_pairing_catches_a_wrong_posterior(monkeypatch):
    """Plant an error (the posterior variance doubled): the paired difference between the plain and
    the conditional failure estimates is then far from zero on the same runs."""
    real = truth.conditional_values
    monkeypatch.setattr(truth, "conditional_values", lambda m, v, rec: real(m, 4 * v, rec))
    t = bayes_truth("uniform", 8, 400, 1.0, 1.0, 3000, seed=11, level=LEVEL)
    assert not t.failure_plain.low <= t.failure.estimate <= t.failure_plain.high


@pytest.mark.parametrize("v_low,v_high,close", [(0.01, 0.2, 0.0), (1e-7, 4e-6, 0.002)],
                         ids=["wide posteriors", "narrow posteriors (large n)"])
def test_the_integrals_match_sampling_the_posterior(v_low, v_high, close):
    """Narrow posteriors spread over a wide range of means (large n) are where a uniform grid over
    the whole range failed: their CDF steps fall between its points."""
    rng = np.random.default_rng(3)
    R, K, draws = 6, 7, 200_000
    m = rng.normal(0, 0.3 if not close else 1.0, (R, K))
    if close:
        m[np.arange(R), m.argmax(axis=1)] = np.sort(m, axis=1)[:, -2] + close     # a close contest
    v = rng.uniform(v_low, v_high, (R, K))
    rec = m.argmax(axis=1)
    f, g = conditional_failure(m, v, rec), conditional_regret(m, v, rec)
    for r in range(R):
        mu = m[r] + np.sqrt(v[r]) * rng.standard_normal((draws, K))
        fail = mu.argmax(axis=1) != rec[r]
        lo, hi = (lambda k: (k / draws - 5 * np.sqrt(k) / draws - 1e-4, k / draws + 5 * np.sqrt(k) / draws + 1e-4))(
            fail.sum())
        assert lo <= f[r] <= hi
        ci = mean_interval(mu.max(axis=1) - mu[:, rec[r]], LEVEL)
        assert ci.low <= g[r] <= ci.high


def test_the_posterior_is_the_exact_conditioning_of_bounds():
    """The vectorised known-mean posterior equals bounds.estimation's exact Gaussian conditioning
    (mu0 = 0 known), history by history, unpulled arms included."""
    from bounds.estimation import exact_gaussian_posterior
    from rue_verify.rates.truth import known_mean_posterior
    rng = np.random.default_rng(7)
    T = rng.integers(0, 50, (20, 6)).astype(float)
    T[:, 0] += 1                                            # at least one arm pulled
    S = T * rng.normal(0, 1, T.shape)
    m, v = known_mean_posterior(T, S, 2.0, 0.5)
    for r in range(T.shape[0]):
        exact = exact_gaussian_posterior(T[r], S[r], 2.0, 0.5, mu0=0.0)
        assert np.allclose(m[r], exact.mean, rtol=1e-10, atol=1e-12) and np.allclose(v[r], exact.var, rtol=1e-10)


@given(st.integers(2, 120), st.integers(1, 12), st.floats(1e-8, 1.0), st.integers(0, 2 ** 32 - 1))
@settings(max_examples=40, deadline=None)
def test_leaving_out_the_arms_that_cannot_matter_changes_neither_integral(K, R, v_scale, seed):
    """The integrals run over the arms `relevant_arms` keeps; on any posterior (many arms, narrow or
    wide, recommended arm the best or not) they equal the reference integrals over every arm."""
    rng = np.random.default_rng(seed)
    m = rng.normal(0, 1, (R, K))
    v = v_scale * rng.uniform(0.01, 1.0, (R, K))
    rec = np.where(rng.random(R) < 0.5, m.argmax(axis=1), rng.integers(0, K, R))
    every = truth.reference_values(m, v, rec)
    # the regret is in the means' units: a difference of two of them is exact only to their rounding
    for f, ref, atol in ((conditional_failure, every[0], 1e-15),
                         (conditional_regret, every[1], 1e-13 * max(1.0, np.abs(m).max()))):
        assert np.allclose(f(m, v, rec), ref, rtol=1e-9, atol=atol), f.__name__


def test_near_tie_weights_average_one_under_the_proposal_and_a_wrong_density_is_caught(monkeypatch):
    """E_q[prior/proposal] = 1 (level 1 - 1e-6, 400 000 draws, common and per-arm priors); the same
    check on weights computed with the wrong share of prior draws fails."""
    pv = np.geomspace(0.1, 10, 6)
    for K, s0 in ((10, 1.0), (6, pv), (100, 0.25)):
        _, _, w = truth.instances(K, s0, 1.0, 400_000, seed=4, tilt=True)
        ci = mean_interval(w, LEVEL)
        assert ci.low <= 1.0 <= ci.high and w.max() <= 1 / truth.TILT_PRIOR_SHARE + 1e-12
    monkeypatch.setattr(truth, "TILT_PRIOR_SHARE", 0.3)        # the sampler's share is read before the weights'
    mu, _, _ = truth.draw_instances(10, 1.0, 1.0, 400_000, seed=4, tilt=True)
    monkeypatch.setattr(truth, "TILT_PRIOR_SHARE", 0.5)
    ci = mean_interval(truth.near_tie_weights(mu, 1.0, 1.0), LEVEL)
    assert not ci.low <= 1.0 <= ci.high


def test_near_tie_sampling_is_unbiased_and_pays_at_large_n():
    """The weighted conditional estimates under near-tie sampling equal the plain estimates on prior
    draws (independent runs, level 1 - 1e-6), and at n = 1e4, where failures need a near-tie, they
    vary several times less than the conditional estimates on prior draws."""
    params = {"variances": "known"}
    tilted = bayes_truth("rue", 5, 300, 1.0, 1.0, 3000, seed=12, params=params, level=LEVEL, tilt=True)
    prior = bayes_truth("rue", 5, 300, 1.0, 1.0, 3000, seed=13, params=params, level=LEVEL)
    for q in ("failure", "regret"):
        a, b = getattr(tilted, q), getattr(prior, q + "_plain")
        z = (a.estimate - b.estimate) / np.hypot(a.high - a.estimate, b.high - b.estimate)
        assert abs(z) <= 1.0, q              # the half-widths are at level 1 - 1e-6 already
        assert getattr(tilted, q + "_plain").low <= a.estimate <= getattr(tilted, q + "_plain").high
    big_t = bayes_truth("rue", 10, 10_000, 1.0, 1.0, 1000, seed=12, params=params, tilt=True)
    big_p = bayes_truth("rue", 10, 10_000, 1.0, 1.0, 1000, seed=12, params=params)
    assert big_t.vr_failure > 2 * big_p.vr_failure and big_t.vr_regret > 2 * big_p.vr_regret


def test_the_thinned_grid_is_as_accurate_as_a_union_grid_twice_as_fine(monkeypatch):
    """`_grid` drops the points a finer arm's window covers; on posteriors from wide to narrow, with
    near-ties and many overlapping arms, both integrals (compiled, on the thinned grid) stay within
    1e-3 of their mean value of the reference's on the full union grid at twice the density
    (second-order trapezoid: the union grid at the same density is itself about that far from it)."""
    rng = np.random.default_rng(8)
    for K, vlo, vhi in ((30, 0.3, 0.6), (10, 1e-6, 1e-2), (20, 1e-4, 1.0)):
        R = 40
        m, v = rng.normal(0, 1, (R, K)), rng.uniform(vlo, vhi, (R, K))
        h = np.arange(R // 2)
        m[h, m[h].argmax(axis=1)] = np.sort(m[h], axis=1)[:, -2] + 0.5 * np.sqrt(vhi) * rng.standard_normal(h.size)
        rec = np.where(rng.random(R) < 0.7, m.argmax(axis=1), rng.integers(0, K, R))
        got = truth.conditional_values(m, v, rec)
        monkeypatch.setattr(truth, "_grid", union_grid)
        monkeypatch.setattr(truth, "POINTS", 2 * truth.POINTS - 1)
        ref = truth.reference_values(m, v, rec)
        monkeypatch.undo()
        for a, b in zip(got, ref):
            assert np.max(np.abs(a - b)) <= 1e-3 * b.mean(), (K, vlo)


@given(st.integers(2, 40), st.integers(1, 30), st.floats(1e-6, 1.0), st.integers(0, 2 ** 32 - 1))
@settings(max_examples=30, deadline=None)
def test_the_arm_most_probably_best_in_one_pass(K, R, v_scale, seed):
    """`most_probably_best` finds, in one pass, an arm whose failure probability (evaluated apart,
    over every arm) is the least of all K, to 1e-9; it is the first such arm unless two are that
    close; the failure it returns is `conditional_failure` of that arm, to the bit."""
    rng = np.random.default_rng(seed)
    m = rng.normal(0, 1, (R, K))
    v = v_scale * np.geomspace(0.01, 1.0, K)[rng.permuted(np.tile(np.arange(K), (R, 1)), axis=1)]
    got, fail = truth.most_probably_best(m, v)
    every = np.column_stack([conditional_failure(m, v, np.full(R, k)) for k in range(K)])
    assert np.all(every[np.arange(R), got] <= every.min(axis=1) + 1e-9)
    close = np.sort(every, axis=1)[:, 1] - every.min(axis=1) < 1e-9
    assert np.all((got == every.argmin(axis=1)) | close)
    assert np.array_equal(fail, conditional_failure(m, v, got))


def test_the_instances_kept_for_the_next_budget_are_a_fresh_draw_and_read_only():
    """`instances` hands every budget of a setting the same arrays: equal to a fresh `draw_instances`,
    and read-only, so a caller that wrote into them would fail rather than change the next budget's."""
    a = truth.instances(5, 1.0, 1.0, 300, 3, tilt=True)
    assert truth.instances(5, 1.0, 1.0, 300, 3, tilt=True)[0] is a[0]
    assert all(np.array_equal(x, y) for x, y in zip(a, truth.draw_instances(5, 1.0, 1.0, 300, 3, tilt=True)))
    with pytest.raises(ValueError):
        a[0][0, 0] = 1.0
    assert not np.array_equal(truth.instances(5, 1.0, 1.0, 300, 4, tilt=True)[0], a[0])
