"""simulate.algorithms.fixed_share: the counts (largest remainders of shares x n), the kernel against its
plain reference pull for pull, and both against the exact two-arm error with a noise variance per arm."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

import simulate
from simulate.algorithms import get
from simulate.algorithms.fixed_share import counts, reference
from simulate.algorithms.sources import LiveSource, TableSource
from simulate.stats import STRICT_LEVEL, binomial_interval

#: two arms, mu_1 > mu_2, noise variances s_1^2 != s_2^2 and a share w of the budget for arm 1
MU, SD, W = (0.2, 0.0), (2.0, 0.5), 0.8


def exact_error(mu, var, T) -> float:
    """P(recommend arm 2) of a static allocation T on two Gaussian arms: the two empirical means differ by
    N(mu_1 - mu_2, var_1 / T_1 + var_2 / T_2), and ties have probability 0."""
    return float(norm.cdf(-(mu[0] - mu[1]) / math.sqrt(var[0] / T[0] + var[1] / T[1])))


def planted(mu, var, T) -> dict:
    """Wrong formulas that a simulation must tell apart from the exact one: one variance for both arms (the
    first arm's, or their mean), and the variances swapped between the arms."""
    return {"arm 1's variance for both": exact_error(mu, (var[0], var[0]), T),
            "the mean variance for both": exact_error(mu, ((var[0] + var[1]) / 2,) * 2, T),
            "variances swapped": exact_error(mu, var[::-1], T)}


@settings(max_examples=200)
@given(w=st.lists(st.floats(0.01, 1.0), min_size=2, max_size=9), n=st.integers(1, 10 ** 6))
def test_counts_are_the_largest_remainders_of_the_quotas(w, n):
    """The counts sum to n, each is the floor or the ceiling of its quota n w_k, and an arm rounded up
    never has a smaller fractional part than one rounded down (equal parts: the lower index first), so
    no counts summing to n are closer to the quotas; with two arms T_1 is w_1 n rounded, halves up."""
    w = [x / sum(w) for x in w]
    if abs(sum(w) - 1) > 1e-9:
        return
    K = len(w)
    T = counts(w, n, K)
    q = [n * Fraction(x) / sum(Fraction(y) for y in w) for x in w]
    assert T.sum() == n and all(math.floor(q[k]) <= T[k] <= math.ceil(q[k]) for k in range(K))
    up = [k for k in range(K) if T[k] > q[k]]
    down = [k for k in range(K) if T[k] < q[k]]
    for a in up:
        for b in down:
            fa, fb = q[a] - math.floor(q[a]), q[b] - math.floor(q[b])
            assert fa > fb or (fa == fb and a < b)
    if K == 2:
        assert T[0] == math.floor(q[0] + Fraction(1, 2))


def test_counts_and_shares_as_documented():
    assert counts((0.3, 0.7), 10, 2).tolist() == [3, 7] and counts((), 10, 3).tolist() == [4, 3, 3]
    assert counts((0.25, 0.75), 2, 2).tolist() == [1, 1]          # quotas 0.5 and 1.5: the half goes to arm 0
    assert counts((W, 1 - W), 100, 2).tolist() == [80, 20]       # 1 - 0.8 is 0.19999999999999996: still 20
    for shares, n, said in [((0.5, 0.6), 10, "sum to 1"), ((0.5, 0.5), 10, None), ((1.0,), 10, "be K = 2 numbers"),
                            ((0.0, 1.0), 10, "each be > 0")]:
        if said is None:
            counts(shares, n, 2)
        else:
            with pytest.raises(ValueError, match=f"fixed-share: shares must {said}"):
                counts(shares, n, 2)
    alg = get("fixed-share")
    with pytest.raises(ValueError, match=r"fixed-share: shares must be a sequence of finite numbers in \(0, 1\]"):
        alg.resolve({"shares": [0.5, 1.5]})
    assert alg.resolve({"shares": [0.25, 0.75]})["shares"] == (0.25, 0.75)
    assert alg.label({"shares": (0.25, 0.75)}) == "fixed-share [shares 0.25, 0.75]"


@pytest.mark.parametrize("shares,K", [((0.3, 0.7), 2), ((0.1, 0.2, 0.7), 3), ((), 5)])
def test_the_smallest_budget_gives_every_arm_a_quota_of_one(shares, K):
    alg = get("fixed-share")
    params = alg.resolve({"shares": shares})
    n = alg.min_budget(K, params)
    assert n == max(K, math.ceil(1 / min(shares or (1 / K,))))
    assert all(counts(shares, m, K).min() >= 1 for m in range(n, n + 50))
    with pytest.raises(ValueError, match=f"budget: fixed-share needs n >= {n}"):
        alg.check_budget(n - 1, K, params)


@pytest.mark.parametrize("tie_rule", ["random", "lowest-index"])
@pytest.mark.parametrize("gaussian", [False, True])
@settings(max_examples=10, deadline=None)
@given(K=st.integers(2, 8), extra=st.integers(0, 200), seed=st.integers(0, 10 ** 6))
def test_kernel_replays_reference_with_a_noise_sd_per_arm(tie_rule, gaussian, K, extra, seed):
    """On one reward table (Gaussian with each arm's own sd, or Bernoulli) and one table of uniforms, the
    compiled run and the plain reference make the same pulls and recommendation; so do Bernoulli tables
    built to tie (the tie rule decides)."""
    rng = np.random.default_rng(seed)
    mu = rng.uniform(0.1, 0.9, K)
    shares = tuple(rng.dirichlet(np.ones(K)) * 0.98 + 0.02 / K)
    shares = shares[:-1] + (1.0 - sum(shares[:-1]),)
    n = get("fixed-share").min_budget(K, {"shares": shares}) + extra
    sd = rng.uniform(0.2, 3.0, K)
    table = mu[:, None] + sd[:, None] * rng.standard_normal((K, n)) if gaussian else \
        (rng.random((K, n)) < 0.5).astype(float) * (rng.random((K, 1)) < 0.5)       # many ties
    ties = rng.random(100)
    kw = {"gaussian": gaussian, "nu": sd if gaussian else 0.0, "shares": shares, "tie_rule": tie_rule}
    a, T = get("fixed-share").run(mu, n, table=table, ties=ties, **kw)
    b, T2 = reference(TableSource(table, ties), K, n, **kw)
    assert a == b and np.array_equal(T, T2) and np.array_equal(T, counts(shares, n, K))


def test_the_exact_two_arm_error_lies_in_the_kernels_interval_and_the_planted_ones_do_not():
    """simulate.run with a noise sd per arm and the fixed share w: the error rate's exact (Clopper-Pearson)
    interval at level 1 - 1e-6 (fixed seed: it never flakes) holds Phi(-(mu_1 - mu_2) / sqrt(s_1^2 / n_1 +
    s_2^2 / n_2)), n_1 = round(w n), and excludes each planted wrong formula."""
    n, runs = 100, 200_000
    r = simulate.run("fixed-share", means=list(MU), gaussian=True, nu=list(SD), shares=[W, 1 - W], budget=n,
                     runs=runs, seed=11, level=STRICT_LEVEL)
    T = (round(W * n), n - round(W * n))
    assert r.mean_pulls == list(T)
    var = tuple(s * s for s in SD)
    exact = exact_error(MU, var, T)
    assert r.error.low <= exact <= r.error.high, (exact, r.error)
    for what, p in planted(MU, var, T).items():
        assert not r.error.low <= p <= r.error.high, (what, p, r.error)


def test_the_exact_two_arm_error_lies_in_the_plain_references_interval():
    """The plain reference on its own live source (numpy's normals, each arm's variance) agrees with the same
    formula, and excludes the planted ones, at a budget small enough to run it pull by pull."""
    n, runs, mu = 10, 20_000, (0.5, 0.0)
    var = tuple(s * s for s in SD)
    rng = np.random.default_rng(12)
    src = LiveSource(np.array(mu), rng, "gaussian", np.array(var))
    fails = sum(reference(src, 2, n, gaussian=True, nu=np.array(SD), shares=(W, 1 - W))[0] != 0 for _ in range(runs))
    ci = binomial_interval(fails, runs, STRICT_LEVEL)
    T = counts((W, 1 - W), n, 2)
    assert ci.low <= exact_error(mu, var, T) <= ci.high, (exact_error(mu, var, T), ci)
    for what, p in planted(mu, var, T).items():
        assert not ci.low <= p <= ci.high, (what, p, ci)
