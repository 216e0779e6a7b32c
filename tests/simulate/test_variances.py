"""simulate.algorithms.variances: the kernel's O(1) form and the plain form of each estimator agree."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.algorithms import variances as V


@settings(max_examples=80)
@given(T=st.lists(st.integers(0, 300), min_size=2, max_size=15), seed=st.integers(0, 1000),
       variances=st.sampled_from(["authors", "unbiased"]))
def test_running_totals_give_the_plain_estimates(T, seed, variances):
    T = np.asarray(T, float)
    if T.sum() < 2:
        T[0] += 2
    rng = np.random.default_rng(seed)
    x = [rng.normal(rng.normal(), rng.uniform(0.1, 3.0), int(t)) for t in T]
    S = np.array([v.sum() for v in x])
    Q = np.array([(v * v).sum() for v in x])
    s02, s2 = V.estimate(T, S, Q, variances)
    pulled = T > 0
    A = float(np.sum(S[pulled] ** 2 / T[pulled]))
    k0, k = V.from_totals(T.sum(), S.sum(), Q.sum(), A, float(np.sum(T * T)), float(pulled.sum()),
                          V.mode_of(variances), 1.0, 1.0)
    assert s02[0] == pytest.approx(k0, rel=1e-9, abs=1e-12) and s2[0] == pytest.approx(k, rel=1e-9, abs=1e-12)


def test_the_plain_form_is_the_textbook_anova():
    """Within-arm variance pooled over arms, and the between-arm sum of squares, by hand."""
    x = [np.array([1.0, 2.0, 4.0]), np.array([0.0, 1.0]), np.array([5.0, 5.0, 6.0, 8.0])]
    T = np.array([len(v) for v in x], float)
    S = np.array([v.sum() for v in x])
    Q = np.array([(v * v).sum() for v in x])
    within = sum(((v - v.mean()) ** 2).sum() for v in x) / (T.sum() - 3)
    grand = np.concatenate(x).mean()
    ssb = sum(len(v) * (v.mean() - grand) ** 2 for v in x)
    den = T.sum() - (T ** 2).sum() / T.sum()
    s02, s2 = V.estimate(T, S, Q, "authors")
    assert s2[0] == pytest.approx(within) and s02[0] == pytest.approx(ssb / den)
    u02, _ = V.estimate(T, S, Q, "unbiased")
    assert u02[0] == pytest.approx((ssb - 2 * within) / den)
    assert V.estimate(T, S, Q, "known", 0.3, 2.0) == (pytest.approx([0.3]), pytest.approx([2.0]))


def test_estimates_are_floored_and_names_checked():
    s02, s2 = V.estimate([2, 2], [2.0, 2.0], [2.0, 2.0])        # identical Bernoulli rewards
    assert s02[0] == V.VAR_FLOOR and s2[0] == V.VAR_FLOOR
    with pytest.raises(ValueError, match="variances must be one of authors, unbiased, known, ml, reml, got 'anova'"):
        V.mode_of("anova")


# ---------------------------------------------------------------- ML and REML
def _design(rng):
    K = int(rng.integers(3, 9))
    T = rng.integers(2, 15, K).astype(float)
    mu = rng.normal(0, np.sqrt(rng.uniform(0.2, 3)), K)
    s = rng.uniform(0.3, 2)
    ys = [rng.normal(mu[k], np.sqrt(s), int(T[k])) for k in range(K)]
    return T, ys


def _loglik(y, groups, mu0, s0, s, restricted):
    """The (restricted) log-likelihood of the one-way model from the dense covariance, independently of
    the profile: V = s I + s0 Z Z'; REML adds -1/2 log(1' V^-1 1) with mu0 at its GLS value."""
    Z = (groups[:, None] == np.unique(groups)[None, :]).astype(float)
    V = s * np.eye(len(y)) + s0 * Z @ Z.T
    Vi = np.linalg.inv(V)
    one = np.ones(len(y))
    if restricted:
        mu0 = one @ Vi @ y / (one @ Vi @ one)
    r = y - mu0
    out = -0.5 * (np.linalg.slogdet(V)[1] + r @ Vi @ r + len(y) * np.log(2 * np.pi))
    return out - (0.5 * np.log(one @ Vi @ one) if restricted else 0.0)


@pytest.mark.parametrize("restricted", [False, True])
def test_ml_and_reml_maximise_the_likelihood_better_than_an_independent_fit(restricted):
    """On random unbalanced designs: `likelihood_fit`'s estimates reach a (restricted) likelihood, computed
    from the dense covariance, at least as high as a direct numerical maximisation of it (scipy) and
    as statsmodels' MixedLM where it converges, and agree with both to the optimisers' tolerance."""
    import warnings

    import pandas as pd
    import statsmodels.formula.api as smf
    from scipy import optimize

    from simulate.algorithms.variances import likelihood_fit
    rng = np.random.default_rng(2024)
    for _ in range(8):
        T, ys = _design(rng)
        y, g = np.concatenate(ys), np.repeat(np.arange(len(T)), T.astype(int))
        S, Q = np.array([v.sum() for v in ys]), np.array([(v ** 2).sum() for v in ys])
        s0, s = likelihood_fit(T, S, Q, restricted)

        def best_mu(s0, s):
            Z = (g[:, None] == np.unique(g)[None, :]).astype(float)
            Vi = np.linalg.inv(s * np.eye(len(y)) + s0 * Z @ Z.T)
            return np.ones(len(y)) @ Vi @ y / (np.ones(len(y)) @ Vi @ np.ones(len(y)))
        ours = _loglik(y, g, best_mu(s0, s), s0, s, restricted)
        direct = optimize.minimize(lambda p: -_loglik(y, g, best_mu(np.exp(p[0]), np.exp(p[1])), np.exp(p[0]),
                                                      np.exp(p[1]), restricted),
                                   [0.0, 0.0], method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12,
                                                                            "maxiter": 4000})
        assert ours >= -direct.fun - 1e-9, (ours, -direct.fun)
        if direct.x[0] > -15:                 # an interior maximum: the same point
            assert np.allclose([s0, s], np.exp(direct.x), rtol=1e-4), ([s0, s], np.exp(direct.x))
        df = pd.DataFrame({"y": y, "g": g})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = smf.mixedlm("y ~ 1", df, groups=df["g"]).fit(reml=restricted, method=["lbfgs"])
        if np.isfinite(fit.llf) and fit.converged:
            theirs = _loglik(y, g, best_mu(float(fit.cov_re.iloc[0, 0]), fit.scale), float(fit.cov_re.iloc[0, 0]),
                             fit.scale, restricted)
            assert ours >= theirs - 1e-9
            assert np.allclose([s0, s], [float(fit.cov_re.iloc[0, 0]), fit.scale], rtol=2e-3, atol=1e-6)


def test_ml_reaches_the_boundary_where_the_arms_agree_and_a_planted_wrong_profile_is_caught():
    """Identical arm means: the likelihood is largest at sigma0^2 = 0, which the fit returns (floored);
    and REML's sigma0^2 exceeds ML's on a design where both are interior (REML corrects ML's downward
    bias of the between-arm part, the reason Section 4's reference lists both)."""
    from simulate.algorithms.variances import VAR_FLOOR, likelihood_fit
    T = np.array([4.0, 4.0, 4.0])
    ys = [np.array([0.0, 1.0, -1.0, 0.0])] * 3
    S, Q = np.array([v.sum() for v in ys]), np.array([(v ** 2).sum() for v in ys])
    s0, s = likelihood_fit(T, S, Q, False)
    assert s0 == VAR_FLOOR and s == pytest.approx(2.0 / 4.0)          # sigma^2 = W / N at the boundary
    rng = np.random.default_rng(5)
    T, ys = _design(rng)
    S, Q = np.array([v.sum() for v in ys]), np.array([(v ** 2).sum() for v in ys])
    ml, reml = likelihood_fit(T, S, Q, False), likelihood_fit(T, S, Q, True)
    assert reml[0] > ml[0] > VAR_FLOOR


@settings(max_examples=60)
@given(T=st.lists(st.integers(0, 60), min_size=2, max_size=12), seed=st.integers(0, 1000),
       restricted=st.booleans())
def test_the_kernels_running_form_of_ml_and_reml_is_the_plain_fit(T, seed, restricted):
    """The kernels fit from counts, arm means and W = Qtot - sum_k S_k^2 / T_k (`likelihood_from`); the
    plain form from sums and squares per arm (`likelihood_fit`, which `estimate` runs row by row). The
    two agree to rounding on random unbalanced designs, empty arms included."""
    T = np.asarray(T, float)
    if T.sum() < 2:
        T[0] += 2
    rng = np.random.default_rng(seed)
    x = [rng.normal(rng.normal(0, rng.uniform(0.1, 2)), rng.uniform(0.1, 3.0), int(t)) for t in T]
    S = np.array([v.sum() for v in x])
    Q = np.array([(v * v).sum() for v in x])
    pulled = T > 0
    ybar = np.divide(S, T, out=np.zeros_like(S), where=pulled)
    W = Q.sum() - float(np.sum(S[pulled] ** 2 / T[pulled]))
    k0, k = V.likelihood_from(T, ybar, W, restricted)
    p0, p = V.estimate(T[None], S[None], Q[None], "reml" if restricted else "ml")
    assert p0.shape == (1, 1)
    assert p0[0, 0] == pytest.approx(k0, rel=1e-6, abs=1e-9) and p[0, 0] == pytest.approx(k, rel=1e-6, abs=1e-9)
