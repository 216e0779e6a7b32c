"""rue_verify.rates.split: the parts of the regret are unbiased (a planted rule whose regret is almost
all in the near ties comes out so, against exact quadrature; the estimator it replaced does not),
they add up to the study's sr_n, they agree with the realised regret's split, and the oracle loses
almost nothing outside the near ties."""

import math

import numpy as np

from bounds import limit
from rue_verify.rates import grid
from rue_verify.rates.efficiency import constants
from rue_verify.rates.split import as_dict, near_classes, regret_split, split_line
from rue_verify.rates.truth import bayes_truth, conditional_regret, known_mean_posterior, oracle_truth, simulated_runs
from simulate.stats import STRICT_LEVEL, mean_interval

LEVEL = STRICT_LEVEL


def overlap(a, b) -> bool:
    return a.low <= b.high and b.low <= a.high


def test_a_planted_near_tie_rule_comes_out_near_tie_and_the_replaced_estimator_does_not():
    """Uniform allocation on two arms is the pair problem itself: its regret's near-tie part and rest
    are the limit's own, by one-dimensional quadrature (`bounds.limit.regret_near_ties`), with 98% of
    it in the near ties. The posterior-expectation split finds both parts within its 1 - 1e-6
    intervals; the replaced estimator (conditional regret times the true means' class) puts
    significantly more in the rest, so this test would have caught it."""
    s = grid.Setting("planted", 2, tilt=True)
    n, runs, seed = 2000, 160_000, 11
    sp = regret_split(s, "uniform", n, runs, seed, level=LEVEL)
    scale = n / constants(s).regret
    exact_near = limit.regret_near_ties(n, 2, 1.0, 1.0, sp.width) * scale
    exact_rest = limit.regret_lower_bound(n, 2, 1.0, 1.0) * scale - exact_near
    assert exact_near > 0.95 * (exact_near + exact_rest)
    assert sp.near.low <= exact_near <= sp.near.high and sp.rest.low <= exact_rest <= sp.rest.high
    r = simulated_runs("uniform", 2, n, 1.0, 1.0, runs, seed, {}, True)
    m, v = known_mean_posterior(r.pulls, r.sums, 1.0, 1.0)
    far = ~near_classes(r.means, sp.width * math.sqrt(1.0 / n))
    old_rest = mean_interval(r.weights * conditional_regret(m, v, r.rec) * far * scale, LEVEL)
    assert old_rest.low > exact_rest


def test_the_parts_add_up_agree_with_the_realised_regret_and_the_oracle_loses_only_near_ties():
    s = grid.Setting("t", 6, tilt=True)
    n, runs = 3000, 400
    rue = regret_split(s, "rue", n, runs, 5)
    t = bayes_truth("rue", 6, n, 1.0, 1.0, runs, 5, grid.algorithm_params("rue", s), tilt=True)
    total = t.regret.estimate * n / constants(s).regret
    assert np.isclose(rue.near.estimate + rue.rest.estimate, total, rtol=1e-12)
    assert overlap(rue.near, rue.near_realised)
    assert overlap(rue.rest, rue.rest_realised) or rue.rest_realised.high == 0      # no run lost regret there
    assert np.isclose(rue.limit_near + rue.limit_rest, limit.regret_lower_bound(n, 6) * n / constants(s).regret)
    assert 0 <= rue.starved.estimate <= 1 and 0 < rue.pair_share <= 1 and 0.5 <= rue.best_of_pair[0] <= 1
    d = as_dict(rue)
    assert d["near"] == list(rue.near[:3]) and d["excess_rest"][0] == rue.rest.estimate - rue.limit_rest
    assert "limit's own" in split_line(rue) and "realised regret (check)" in split_line(rue)
    orc = regret_split(s, grid.ORACLE, n, runs, 5)
    o = oracle_truth(6, n, 1.0, 1.0, runs, 5, tilt=True)
    assert np.isclose(orc.near.estimate + orc.rest.estimate, o.regret.estimate * n / constants(s).regret, rtol=1e-12)
    assert orc.rest.high < 0.02 * orc.near.low and 0 < orc.near_share < 1


def test_every_algorithm_of_a_comparison_that_takes_a_variance_mode_gets_the_studys():
    """Equal terms: RUE and its top-two variant are told the same variances in every setting of every
    scale (the variant used to fall back to its default, the authors' estimates, in the split), and
    the split passes exactly those parameters to the simulator."""
    from unittest import mock

    from rue_verify.rates import split
    from rue_verify.rates.grid import SCALES, VARIANCES, algorithm_params
    from simulate.algorithms import REGISTRY, get
    takes = [a for a in REGISTRY if "variances" in {p.name for p in get(a).params}]
    assert {"rue", "rue-top-two"} <= set(takes)
    for scale in SCALES.values():
        for plan in scale.plans:
            modes = {a: algorithm_params(a, plan.setting) for a in takes}
            assert {m["variances"] for m in modes.values()} == {VARIANCES}, modes
            assert len({(m["sigma0_sq"], m["sigma_sq"]) for m in modes.values()}) == 1, modes
    told = {}

    def record(algorithm, K, n, s0, s, runs, seed, params, tilt):
        told[algorithm] = params
        raise StopIteration
    plan = next(p for p in SCALES["quick"].plans if p.setting.prior_ratio == 1)
    with mock.patch.object(split, "simulated_runs", record):
        for alg in ("rue", "rue-top-two"):
            try:
                split.regret_split(plan.setting, alg, 100, 8, 0)
            except StopIteration:
                pass
    assert told["rue"]["variances"] == told["rue-top-two"]["variances"] == VARIANCES


def test_each_studys_manifest_names_every_algorithms_variance_mode_and_they_agree():
    """The rate and cliff studies' manifests record the mode each algorithm is told, per setting, and
    within a setting every algorithm that takes one is told the same."""
    from rue_verify.rates import cliff, grid
    for modes in (grid.manifest(grid.tasks("quick"), 0, "quick")["variances"],
                  cliff.manifest(cliff.tasks("quick"), 0, "quick")["variances"]):
        assert modes and set(modes.values()) == {grid.VARIANCES}
        by_setting = {}
        for key, mode in modes.items():
            by_setting.setdefault(key.split("@")[1], set()).add(mode)
        assert all(len(v) == 1 for v in by_setting.values())
    assert "rue-top-two@K30" in cliff.manifest(cliff.tasks("quick"), 0, "quick")["variances"]
