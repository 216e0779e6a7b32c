"""simulate.runner: reproducibility, the authors' F1 error rates, and bad input."""

import csv
import pathlib

import numpy as np
import pytest
from scipy import stats

from simulate.environments import Environment
from simulate.runner import simulate
from tests.simulate.streams import TINY


def test_reproducible_and_worker_independent():
    env = Environment("F3", 12)
    kw = dict(budget=600, runs=300, seed=11, progress=False)
    algs = ["rue", "ucbe", "sr", "sh", "ttts", "two-stage", "uniform"]
    a = simulate(env, algs, workers=1, **kw)
    b = simulate(env, algs, workers=2, **kw)
    c = simulate(env, algs, workers=2, chunks=7, **kw)
    for x, y, z in zip(a.results, b.results, c.results):
        assert x.failures == y.failures == z.failures and x.mean_pulls == y.mean_pulls == z.mean_pulls
    d = simulate(env, algs, workers=2, budget=600, runs=300, seed=12, progress=False)
    assert [r.mean_pulls for r in d.results] != [r.mean_pulls for r in a.results]


AUTHORS_F1 = pathlib.Path(__file__).resolve().parents[1] / "data" / "authors-implementation-F1.csv"


def authors_rows():
    """Error rates of the authors' own R implementation on F1 (a copy of shared/reference's file:
    see tests/data/README.md)."""
    return list(csv.DictReader(AUTHORS_F1.open()))


@pytest.mark.statistical
@pytest.mark.parametrize("alg,runs", [("SR", 6000), ("UCBE", 2000), ("RUE", 1500), ("TTTS", 600)])
def test_f1_error_rates_agree_with_authors_implementation(alg, runs):
    env = Environment("F1", 20)
    for row in (r for r in authors_rows() if r["algorithm"] == alg):
        n = int(row["n"])
        if alg == "TTTS" and n > 8000:
            continue          # TTTS at 2H is paper-scale (see the slow test)
        r = simulate(env, [alg.lower()], n, runs, seed=21, progress=False).results[0]
        theirs = (int(row["failures"]), int(row["runs"]) - int(row["failures"]))
        p = stats.fisher_exact([[r.failures, runs - r.failures], list(theirs)]).pvalue
        assert p > TINY, (alg, n, r.error_rate, row["error_rate"])


def test_runner_bad_input():
    env = Environment("F1", 20)
    with pytest.raises(ValueError, match="algorithm"):
        simulate(env, ["rue2"], 100, 10, progress=False)
    with pytest.raises(ValueError, match="budget"):
        simulate(env, ["rue"], "3H", 10, progress=False)
    with pytest.raises(ValueError, match="runs"):
        simulate(env, ["rue"], 100, 0, progress=False)
    with pytest.raises(ValueError, match="fixed means"):
        simulate(Environment("R1", 20, "gaussian"), ["rue"], "H", 10, progress=False)
    with pytest.raises(ValueError, match=r"two-stage: q must be a finite number in \(0, 1\), got 1.0"):
        simulate(env, [("two-stage", {"q": 1.0})], 100, 10, progress=False)
    with pytest.raises(ValueError, match=r"ucbe: c must be a finite number in \(0, inf\), got -1"):
        simulate(env, [("ucbe", {"c": -1})], 100, 10, progress=False)        # was a segmentation fault
    for name, need in (("rue", 40), ("sr", 21), ("sh", 100), ("ucbe", 20)):  # were negative or missing pulls
        with pytest.raises(ValueError, match=f"budget: {name} needs n >= {need} with K = 20"):
            simulate(env, [name], 10, 10, progress=False)


def test_with_tied_best_arms_recommending_any_of_them_is_a_success():
    """Two best arms at 0.5: a run fails exactly when its regret is positive, never because it chose the
    other best arm (an error rate of about a half beside a regret of 0 was the symptom)."""
    from simulate.environments import environment_for
    from simulate.runner import outcomes, simulate
    means = np.array([[0.5, 0.5, 0.2], [0.5, 0.5, 0.2], [0.3, 0.1, 0.3]])
    failed, regret = outcomes(means, np.array([0, 1, 1]))
    assert failed.tolist() == [False, False, True] and regret.tolist() == pytest.approx([0.0, 0.0, 0.2])
    res = simulate(environment_for(None, None, [0.5, 0.5]), [("rue", {}), ("uniform", {})], 40, 200, 0,
                   progress=False)
    for r in res.to_json()["results"]:
        assert r["error_rate"] == 0.0 and r["simple_regret"] == 0.0, r
