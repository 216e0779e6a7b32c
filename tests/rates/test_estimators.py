"""rue_verify.rates.estimators: the variance-estimator study's rows are paired across estimators (the
same instances and reward streams), its end-of-run estimates are the plain estimator's on the runs'
own rewards (a replay of other rewards is refused), and the estimates' summaries are what the runs say."""

import csv

import numpy as np
import pytest

from rue_verify.rates import estimators as E
from rue_verify.rates.truth import instances, simulated_runs
from simulate.algorithms import variances as V
from simulate.algorithms.sources import replayed_squares

TINY = E.EstimatorScale("tiny", 48, 6)
CELLS = ((4, 300),)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("estimators")
    E.run(TINY, d, seed=3, progress=False, cells=CELLS)
    return d


def test_rows_are_the_grid_and_the_manifest_names_each_algorithms_modes(tiny):
    rows = list(csv.DictReader(open(tiny / "results.csv")))
    assert [r["key"] for r in rows] == [t.key for t in E.tasks(TINY, CELLS)]
    res = E.load(tiny)
    assert res.manifest["variances"] == {f"{a}@K=4,n=300": sorted(E.ESTIMATORS) for a in E.ALGORITHMS}
    assert res.manifest["refit_growth"] == V.REFIT_GROWTH


def test_estimators_share_instances_and_the_known_mode_reads_the_truth(tiny):
    """Every estimator of the cell runs on the same means and weights (the weight blocks are equal);
    told the variances, the end-of-run estimates are exactly them; estimating, they are not."""
    res = E.load(tiny)
    cells = res.at(4, 300, "rue")
    for c in cells[1:]:
        assert np.array_equal(c.sums["weight"], cells[0].sums["weight"])
    known = res.cell(4, 300, "rue", "known")
    assert known.estimate("sigma0_est").estimate == pytest.approx(1.0)
    assert known.quantiles["sigma0"] == [1.0] * len(E.QUANTILES)
    ml = res.cell(4, 300, "rue", "ml")
    assert ml.quantiles["sigma0"][0] < ml.quantiles["sigma0"][-1]


def test_the_end_estimates_are_the_plain_estimators_on_the_runs_rewards():
    """Recomputed by hand from a replay of each arm's reward stream, one reward at a time; and a run
    whose kernel sums are not the replay's (a planted change) is refused, not estimated."""
    task = E.EstimatorTask(4, 300, "rue", "reml", 16, 4)
    r = simulated_runs("rue", 4, 300, 1.0, 1.0, 16, 5, {"variances": "reml"}, True)
    e0, e1 = E.end_estimates(r, task, 5)
    means, reward_seeds, _ = instances(4, 1.0, 1.0, 16, 5, True)
    Q = replayed_squares(means, r.pulls, reward_seeds, True, 1.0)
    for i in range(16):
        assert (e0[i], e1[i]) == pytest.approx(V.likelihood_fit(r.pulls[i], r.sums[i], Q[i], True))
    bad = type(r)(r.params, r.means, r.weights, r.rec, r.pulls, r.sums + 0.5)
    with pytest.raises(RuntimeError, match="replayed reward sums differ"):
        E.end_estimates(bad, task, 5)


def test_weighted_quantiles_are_numpys_with_equal_weights_and_follow_the_weights():
    x = np.random.default_rng(1).normal(size=1001)
    assert E.weighted_quantiles(x, np.ones(1001), (0.5,)) == [pytest.approx(np.median(x))]
    w = np.where(x > 0, 1000.0, 1e-6)               # nearly all the weight above 0: the median moves up
    assert E.weighted_quantiles(x, w, (0.5,))[0] > 0.5


def test_a_study_naming_an_unknown_estimator_is_refused(tiny, tmp_path):
    text = (tiny / "results.csv").read_text().replace("|variances=ml|", "|variances=mm|").replace(",ml,", ",mm,")
    (tmp_path / "results.csv").write_text(text)
    with pytest.raises(ValueError, match="estimators: .* names estimators this version does not have: mm"):
        E.load(tmp_path)
