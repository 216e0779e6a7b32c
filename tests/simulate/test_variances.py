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
def _design(rng, between=None):
    """A random unbalanced one-way design: 3-8 arms of 2-14 rewards; the arms' means drawn with variance
    `between` (default: uniform in [0.2, 3]; 0 or small puts the likelihood's maximum at sigma0^2 = 0)."""
    K = int(rng.integers(3, 9))
    T = rng.integers(2, 15, K).astype(float)
    mu = rng.normal(0, np.sqrt(rng.uniform(0.2, 3) if between is None else between), K)
    s = rng.uniform(0.3, 2)
    ys = [rng.normal(mu[k], np.sqrt(s), int(T[k])) for k in range(K)]
    return T, ys


def _loglik(ys, s0, s, restricted):
    """The exact (restricted) log-likelihood of y_kj = mu0 + u_k + e_kj at sigma0^2 = s0 and sigma^2 = s
    (numpy arrays broadcast), mu0 at its GLS value (for ML its maximiser), written from the closed forms
    of the block-diagonal covariance, independently of the package's profile: arm k's block
    V_k = s0 J + s I has V_k^-1 = (I - s0 / (s + T_k s0) J) / s and det V_k = s^(T_k - 1) (s + T_k s0), so
    r' V_k^-1 r = (r'r - s0 (1'r)^2 / (s + T_k s0)) / s and 1' V^-1 1 = sum_k T_k / (s + T_k s0); REML adds
    -1/2 log(1' V^-1 1) and counts N - 1 dimensions (statsmodels' constants)."""
    s0, s = np.asarray(s0, float)[..., None], np.asarray(s, float)[..., None]
    T = np.array([len(v) for v in ys], float)
    ybar = np.array([v.mean() for v in ys])
    within = np.array([((v - v.mean()) ** 2).sum() for v in ys])
    d = s + T * s0                                   # s + T_k s0, one per arm
    info = (T / d).sum(-1)                           # 1' V^-1 1
    mu0 = (T * ybar / d).sum(-1) / info              # GLS
    dev = ybar - mu0[..., None]
    rr, r1 = within + T * dev ** 2, T * dev          # r'r and 1'r of each arm's residuals
    quad = ((rr - s0 / d * r1 ** 2) / s).sum(-1)
    logdet = ((T - 1) * np.log(s) + np.log(d)).sum(-1)
    N = T.sum()
    if restricted:
        return -0.5 * (logdet + quad + np.log(info) + (N - 1) * np.log(2 * np.pi))
    return -0.5 * (logdet + quad + N * np.log(2 * np.pi))


def _dense_loglik(ys, s0, s, restricted):
    """The same from the dense N x N covariance (a check of the closed forms)."""
    y, g = np.concatenate(ys), np.repeat(np.arange(len(ys)), [len(v) for v in ys])
    V = s * np.eye(len(y)) + s0 * (g[:, None] == g[None, :])
    Vi, one = np.linalg.inv(V), np.ones(len(y))
    r = y - one @ Vi @ y / (one @ Vi @ one)
    out = -0.5 * (np.linalg.slogdet(V)[1] + r @ Vi @ r + (len(y) - restricted) * np.log(2 * np.pi))
    return out - (0.5 * np.log(one @ Vi @ one) if restricted else 0.0)


#: how far below the reference's (restricted) log-likelihood a fit may fall, and how closely its parameters
#: must match an interior maximum; a maximum counts as interior where it beats the boundary's best by
#: INTERIOR_GAIN (closer to the boundary the likelihood is so flat in sigma0^2 that only its value is
#: determined: two fits equal to the last digit of the likelihood can differ in sigma0^2 by 1e-5 relative)
LL_TOL, PARAM_RTOL, INTERIOR_GAIN = 1e-8, 1e-5, 1e-3


def _reference(ys, restricted):
    """The maximum of `_loglik` over sigma0^2 >= 0, sigma^2 > 0 by direct numerical maximisation: Nelder-Mead
    in (log sigma0^2, log sigma^2) from eight starting points, and on the boundary sigma0^2 = 0 a grid of
    4001 values of log sigma^2 refined by a bounded scalar search; the best of all. Returns
    {"s0", "s", "loglik", "interior"}."""
    from scipy import optimize
    scale = np.log(sum(((v - v.mean()) ** 2).sum() for v in ys) / sum(len(v) - 1 for v in ys))

    def neg(p):
        return -float(_loglik(ys, np.exp(p[0]), np.exp(p[1]), restricted))
    runs = [optimize.minimize(neg, [scale + a, scale + b], method="Nelder-Mead",
                              options={"xatol": 1e-10, "fatol": 1e-13, "maxiter": 4000})
            for a in (-6.0, -2.0, 0.0, 2.0) for b in (-0.5, 0.5)]
    inner = min(runs, key=lambda r: r.fun)
    grid = scale + np.linspace(-5.0, 5.0, 4001)
    i = int(np.argmax(_loglik(ys, np.zeros_like(grid), np.exp(grid), restricted)))
    edge = optimize.minimize_scalar(lambda b: -float(_loglik(ys, 0.0, np.exp(b), restricted)), method="bounded",
                                    bounds=(grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]),
                                    options={"xatol": 1e-12})
    if -inner.fun > -edge.fun:
        return {"s0": float(np.exp(inner.x[0])), "s": float(np.exp(inner.x[1])), "loglik": -float(inner.fun),
                "interior": -inner.fun > -edge.fun + INTERIOR_GAIN}
    return {"s0": 0.0, "s": float(np.exp(edge.x)), "loglik": -float(edge.fun), "interior": False}


def _shortfalls(ys, fit, ref, restricted) -> list[str]:
    """How fit (sigma0^2, sigma^2) falls short of the reference maximum: a lower (restricted) likelihood, or,
    where the maximum is interior, other parameters. Empty: it agrees."""
    ours = float(_loglik(ys, *fit, restricted))
    out = []
    if ours < ref["loglik"] - LL_TOL:
        out.append(f"likelihood {ours!r} below the reference's {ref['loglik']!r}")
    if ref["interior"] and not np.allclose(fit, [ref["s0"], ref["s"]], rtol=PARAM_RTOL, atol=0.0):
        out.append(f"parameters {list(fit)} differ from the interior maximum {[ref['s0'], ref['s']]}")
    return out


@pytest.fixture(scope="module")
def likelihood_cases():
    """Twelve random unbalanced designs (fixed seed), a third with equal arm means and a third nearly so
    (maxima at or near the boundary), each with its ML and REML reference maxima."""
    rng = np.random.default_rng(2024)
    cases = []
    for i in range(12):
        T, ys = _design(rng, between=(None, 0.0, 0.05)[i % 3])
        S, Q = np.array([v.sum() for v in ys]), np.array([(v ** 2).sum() for v in ys])
        cases.append({"T": T, "S": S, "Q": Q, "ys": ys, "ref": {r: _reference(ys, r) for r in (False, True)}})
    return cases


def test_the_closed_form_likelihood_is_the_dense_one():
    rng = np.random.default_rng(11)
    for restricted in (False, True):
        _, ys = _design(rng)
        for s0, s in ((0.0, 0.7), (0.3, 1.1), (4.0, 0.2)):
            assert _loglik(ys, s0, s, restricted) == pytest.approx(_dense_loglik(ys, s0, s, restricted), abs=1e-9)


@pytest.mark.parametrize("restricted", [False, True])
def test_ml_and_reml_reach_the_maximum_of_the_exact_likelihood(likelihood_cases, restricted):
    """On random unbalanced designs, `likelihood_fit`'s estimates reach the (restricted) log-likelihood of a
    direct maximisation of it (`_reference`: several starts and the boundary sigma0^2 = 0 searched on its
    own) to LL_TOL, and its parameters where that maximum is interior. statsmodels' MixedLM is a second
    opinion only: its likelihood at its own estimates is the test's (a check of `_loglik`), and the fit's
    is at least as high; its estimates are not a reference (its default optimiser stops at sigma0^2 = 0, or
    short of the maximum, on many such designs)."""
    import warnings

    import pandas as pd
    import statsmodels.formula.api as smf

    from simulate.algorithms.variances import likelihood_fit
    kinds = {"interior": 0, "boundary": 0}
    for c in likelihood_cases:
        ref = c["ref"][restricted]
        if ref["interior"]:
            kinds["interior"] += 1
        elif ref["s0"] == 0.0:
            kinds["boundary"] += 1
        fit = likelihood_fit(c["T"], c["S"], c["Q"], restricted)
        assert _shortfalls(c["ys"], fit, ref, restricted) == []
        ys = c["ys"]
        df = pd.DataFrame({"y": np.concatenate(ys), "g": np.repeat(np.arange(len(ys)), c["T"].astype(int))})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = smf.mixedlm("y ~ 1", df, groups=df["g"]).fit(reml=restricted)
        s0, s = float(theirs.cov_re.iloc[0, 0]), float(theirs.scale)
        assert float(_loglik(ys, s0, s, restricted)) == pytest.approx(theirs.llf, abs=1e-7)
        assert float(_loglik(ys, *fit, restricted)) >= theirs.llf - LL_TOL
    assert kinds["interior"] >= 4 and kinds["boundary"] >= 3, kinds       # both kinds of maximum were tested


@pytest.mark.parametrize("restricted", [False, True])
def test_a_planted_wrong_estimator_fails_the_comparison(likelihood_cases, restricted):
    """The comparison has teeth: sigma0^2 forced to 0 (with sigma^2 at its best there) and the other
    likelihood's estimate (ML passed as REML, REML as ML) fall short of the reference's likelihood on every
    design whose maximum is interior."""
    from simulate.algorithms.variances import VAR_FLOOR, likelihood_fit
    interior = [c for c in likelihood_cases if c["ref"][restricted]["interior"]]
    assert len(interior) >= 4
    for c in interior:
        ys, ref = c["ys"], c["ref"][restricted]
        y = np.concatenate(ys)
        forced = (VAR_FLOOR, float(((y - y.mean()) ** 2).sum() / (y.size - restricted)))   # the boundary's best
        other = likelihood_fit(c["T"], c["S"], c["Q"], not restricted)
        for wrong in (forced, other):
            short = _shortfalls(ys, wrong, ref, restricted)
            assert short and short[0].startswith("likelihood"), (wrong, ref, short)


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
    # the same maximum: on a near-flat likelihood the two optimisers' stopping points may differ by ~1e-5 in
    # sigma0^2 (a design Hypothesis found: T = [5, 58, 45, 5], seed 45, REML), so the likelihood decides
    assert p0[0, 0] == pytest.approx(k0, rel=1e-4, abs=1e-7) and p[0, 0] == pytest.approx(k, rel=1e-4, abs=1e-7)
    ys = [v for v in x if len(v)]
    if len(ys) >= 2 and k > 0:
        a, b = _loglik(ys, p0[0, 0], p[0, 0], restricted), _loglik(ys, k0, k, restricted)
        assert float(a) == pytest.approx(float(b), rel=1e-9, abs=1e-9)
