"""rue_verify.rates.cliff: the exploration-constant study's rows are paired across DEG (the same
instances and reward streams), resume to the same file, and read back into cells whose comparisons
are what the blocks say; the bound on a share no run had is the exact one."""

import csv

import numpy as np
import pytest
from scipy import stats

from rue_verify.rates import cliff
from rue_verify.rates.truth import simulated_runs, zero_share_bound

TINY = cliff.CliffScale("tiny", 64, 8)
CELLS = ((4, 300),)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    d = tmp_path_factory.mktemp("cliff")
    cliff.run(TINY, d, seed=3, progress=False, cells=CELLS)
    return d


def test_rows_are_the_grid_and_a_rerun_resumes_to_the_same_file(tiny):
    rows = list(csv.DictReader(open(tiny / "results.csv")))
    assert [r["key"] for r in rows] == [t.key for t in cliff.tasks(TINY, CELLS)]
    before = (tiny / "results.csv").read_text()
    out = cliff.run(TINY, tiny, seed=3, progress=False, cells=CELLS)
    assert out["rows"] and (tiny / "results.csv").read_text().split("\n")[0] == before.split("\n")[0]
    assert [r["key"] for r in out["rows"]] == [r["key"] for r in rows]


def test_blocks_are_the_runs_own_values_and_the_variants_share_their_instances(tiny):
    """Block sums of the starved indicator recomputed from the runs themselves; DEG 0.5 and 4 on the
    same means (the instances do not depend on DEG) pull differently."""
    res = cliff.load(tiny)
    low, high = (next(c for c in res.at(4, 300) if c.algorithm == "rue" and c.deg == d) for d in (0.5, 4.0))
    a = simulated_runs("rue", 4, 300, 1.0, 1.0, 64, 3, {"variances": "known", "deg": 0.5}, True)
    b = simulated_runs("rue", 4, 300, 1.0, 1.0, 64, 3, {"variances": "known", "deg": 4.0}, True)
    assert np.array_equal(a.means, b.means) and not np.array_equal(a.pulls, b.pulls)
    starved = a.weights * (a.pulls[np.arange(64), a.means.argmax(axis=1)] <= 10)
    assert np.allclose(low.sums["starved"], [p.sum() for p in np.array_split(starved, 8)])
    assert low.runs == high.runs == 64


def test_the_ratio_and_margin_follow_the_blocks():
    """Planted blocks: the paper's regret exactly 1.2 times another's in every block gives a ratio
    of 1.2 with a zero-width interval and a margin of 0.1 times the other's mean."""
    G = 8
    counts = np.full(G, 10.0)
    other = np.linspace(1, 2, G) * 10
    def mk(regret, deg):
        return cliff.Cell(4, 300, "rue", deg, counts, {"regret": regret}, {"regret": regret ** 2})
    r = cliff.ratio(mk(1.2 * other, 2.0), mk(other, 3.0), 0.95)
    assert r.ratio.estimate == pytest.approx(1.2) and r.ratio.high - r.ratio.low == pytest.approx(0, abs=1e-12)
    assert r.margin.estimate == pytest.approx(0.1 * other.sum() / counts.sum())


@pytest.mark.parametrize("runs", [5, 100, 4000])
def test_the_zero_share_bound_is_the_exact_upper_end_times_the_largest_weight(runs):
    exact = stats.binomtest(0, runs).proportion_ci(0.95, method="exact").high
    assert zero_share_bound(runs, 0.95, tilt=False) == pytest.approx(exact, rel=1e-9)
    assert zero_share_bound(runs, 0.95) == pytest.approx(min(1.0, 2 * exact), rel=1e-9)


def test_a_study_of_another_form_is_refused(tmp_path):
    (tmp_path / "results.csv").write_text("key,K\n")
    with pytest.raises(ValueError, match="not the results of"):
        cliff.load(tmp_path)


def test_the_cli_shows_a_stored_study_and_refuses_a_missing_one(tiny, capsys):
    """`rates --cliff --show DIR`: one row per variant of every cell, the paper's DEG without a ratio to
    itself, and a directory without results is one line naming --show."""
    import json

    from rue_verify.cli import main
    assert main(["rates", "--cliff", "--show", str(tiny), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = out["rows"]
    assert len(rows) == len(cliff.tasks(TINY, CELLS)) and "exploration-constant study" in out["source"]
    assert [r["paper_over_this"] is None for r in rows] == [r["algorithm"] == "rue" and r["deg"] == 2 for r in rows]
    assert all(r["efficiency"][1] <= r["efficiency"][0] <= r["efficiency"][2] for r in rows)
    assert main(["rates", "--cliff", "--show", str(tiny / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "--show:" in err and err.count("\n") == 1
