"""Efficiency against the limit (`rates.efficiency`, `bounds.limit`): adaptive algorithms simulated from
scratch meet the finite-n bound; uniform allocation attains it at K = 2 and sits where the pair
argument puts it for K arms; the constants' estimate is what its definition says."""

import math

import numpy as np
import pytest

from bounds import limit
from rue_verify import rates
from rue_verify.rates import efficiency
from rue_verify.rates.grid import algorithm_params
from simulate.algorithms import get
from simulate.runner import outcomes, run_algorithm
from simulate.seeds import run_seeds, stream
from simulate.stats import STRICT_LEVEL, binomial_interval

LEVEL = STRICT_LEVEL


def _failures(name: str, K: int, n: int, runs: int, seed: int, s0: float = 1.0, s: float = 1.0):
    means = stream(seed, f"test:limit:{name}:{K}:{n}").normal(0.0, math.sqrt(s0), (runs, K))
    setting = rates.Setting("test", K, s0, s)
    p = get(name).resolve(algorithm_params(name, setting))
    rec, _, _, _ = run_algorithm(name, p, means, n, run_seeds(seed, "test:limit:alg", runs),
                                 run_seeds(seed, "test:limit:rewards", runs), True, math.sqrt(s))
    fail, regret = outcomes(means, rec)
    return int(fail.sum()), regret


@pytest.mark.parametrize("name,K,n", [("rue", 3, 30), ("ttts", 3, 30), ("sh", 4, 40), ("rue", 8, 200),
                                      ("bayes_elim", 4, 64)])
def test_adaptive_algorithms_meet_the_finite_bound(name, K, n):
    """Exact binomial upper limit at level 1 - 1e-6 of the simulated failure rate, and a t upper limit
    of the mean regret, at or above the bound: the pair argument holds against adaptive algorithms."""
    runs = 60_000
    k, regret = _failures(name, K, n, runs, 7)
    assert binomial_interval(k, runs, LEVEL).high >= limit.failure_lower_bound(n, K)
    upper = regret.mean() + 5.0 * regret.std(ddof=1) / math.sqrt(runs)
    assert upper >= limit.regret_lower_bound(n, K)


def test_uniform_attains_the_bound_with_two_arms():
    runs, n = 200_000, 20
    k, regret = _failures("uniform", 2, n, runs, 11)
    iv = binomial_interval(k, runs, LEVEL)
    assert iv.low <= limit.two_arms_failure(n) <= iv.high
    half = 5.0 * regret.std(ddof=1) / math.sqrt(runs)
    assert abs(regret.mean() - limit.two_arms_regret(n)) <= half


def test_uniform_sits_where_the_pair_argument_puts_it():
    """Uniform gives each of the top two n/K pulls: its estimate of their gap has variance 2 K sigma^2/n
    against the limit's 4 sigma^2/n, so its efficiency tends to sqrt(K/2) (failure) and K/2 (regret).
    The shipped study's uniform (and prior_alloc, which allocates uniformly under a common prior) on the
    base setting, at 99.9% intervals."""
    res = rates.load()
    K = res.settings()["base"].K
    for name in ("uniform", "prior_alloc"):
        c = res.curve("base", name)
        for q, want in (("failure", math.sqrt(K / 2)), ("regret", K / 2)):
            _, lo, hi = efficiency.efficiency(c, q, level=0.999).efficiency
            assert lo <= want <= hi, (name, q, lo, hi, want)


def test_every_algorithm_of_the_study_meets_the_finite_bound():
    """The shipped study, every algorithm on every common-prior setting at every budget, at 99.9%
    family-wise over the points of each quantity (as the ledger's check, `ledger.beyond`)."""
    res = rates.load()
    curves = [(name, alg, res.curve(name, alg)) for name, setting in res.settings().items()
              if setting.prior_ratio == 1 for alg in res.algorithms(name)
              if alg != rates.grid.ORACLE]            # not an algorithm with budget n: it sees K n observations
    level = efficiency.family_level(sum(len(c.n) for _, _, c in curves))
    for name, alg, c in curves:
        for q in ("failure", "regret"):
            e = efficiency.efficiency(c, q, level=level)
            assert e.finite_ratio[:, 2].min() >= 1, (name, alg, q)


def test_the_family_level_is_bonferronis():
    assert efficiency.family_level(1) == pytest.approx(0.999)
    assert efficiency.family_level(200) == pytest.approx(1 - 0.001 / 200)
    assert efficiency.family_level(0) == pytest.approx(0.999)
    assert efficiency.family_level(10, family=0.95) == pytest.approx(0.995)


def test_the_constant_is_the_mean_of_the_largest_budgets():
    c = rates.load().curve("base", "rue")
    for q, power in (("failure", 0.5), ("regret", 1.0)):
        e = efficiency.efficiency(c, q)
        top = slice(-efficiency.TOP, None)
        assert e.constant[0] == pytest.approx(float(np.mean(c.mean(q)[top] * c.n[top] ** power)), rel=1e-12)
        assert e.constant[1] < e.constant[0] < e.constant[2]
        assert e.efficiency[0] == pytest.approx(e.constant[0] / getattr(limit.limit_constants(c.setting.K), q))
        w = e.witness()
        assert set(w) >= {"params", "quantity", "constant", "interval", "limit", "efficiency", "n"}
        assert w["n"] == [int(x) for x in c.n[top]]


def test_per_arm_settings_have_constants_but_no_finite_bound():
    res = rates.load()
    s = res.settings()["differing priors"]
    assert efficiency.finite_bound(s, "failure", 1000) is None
    e = efficiency.efficiency(res.curve("differing priors", "rue"), "failure")
    assert e.finite_ratio is None and e.limit == pytest.approx(
        limit.limit_constants(s.K, s.prior_vars(), s.sigma_sq).failure)


def test_the_shipped_oracle_is_pinned_within_one_percent_on_every_common_prior_setting():
    """The oracle's rows average its exact error given the means over grid.SCALES['paper'].oracle_draws
    prior draws, so its efficiency's 95% interval is within 1% of the estimate on either side on every
    common-prior setting (under per-arm priors its failure is a posterior integral per draw, and it
    takes fewer draws)."""
    from rue_verify.rates import grid, load
    from rue_verify.rates.efficiency import efficiency
    res = load()
    checked = 0
    for name, s in res.settings().items():
        c = res.curve(name, grid.ORACLE)
        assert c.runs == grid.SCALES["paper"].runs(next(p for p in grid.SCALES["paper"].plans if p.setting == s),
                                                   grid.ORACLE)
        if s.prior_ratio != 1:
            continue
        for q in ("failure", "regret"):
            e, lo, hi = efficiency(c, q).efficiency
            assert hi - e <= 0.01 * e and e - lo <= 0.01 * e, (name, q)
            checked += 1
    assert checked == 10
