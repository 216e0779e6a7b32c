"""rue_verify.plots.empirical: each figure has the panels, series, labels and caption it promises,
and draws the numbers of the result rows (read back from the matplotlib objects)."""

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer

from rue_verify import plots
from rue_verify.reproduction.grid import Scale, execute, grid, instance_errors

# one worker builds the module's fixture once (xdist would otherwise build it in each worker)
pytestmark = pytest.mark.xdist_group("empirical_rows")

TINY = Scale("tiny", fixed_runs=12, random_instances=4, random_runs=3, arms_runs=4, two_stage_runs=6,
             two_stage_random_runs=2)


@pytest.fixture(scope="module")
def rows():
    keep = []
    for t in grid(TINY, studies=("fixed", "random", "two-stage"), conventions=("project",)):
        if (t.study == "fixed" and t.setup in ("F1", "F6") and t.H_convention == "suboptimal") or \
                (t.study == "random" and t.setup == "R3") or (t.study == "two-stage" and t.setup == "F4"):
            keep.append(execute(t, 1))
    return keep


def series(ax):
    return {c.get_label(): c for c in ax.containers if isinstance(c, ErrorbarContainer)}


def test_fixed_setups_draws_each_rows_rate_with_its_interval(rows):
    fig = plots.fixed_setups(rows, study="fixed")
    axes = [a for a in fig.axes if a.get_visible()]
    assert [a.get_title() for a in axes] == ["F1, K = 20", "F6, K = 20"]
    for ax, setup in zip(axes, ("F1", "F6")):
        assert ax.get_ylabel() == "error probability" and len(ax.get_xticklabels()) == 3
        got = series(ax)
        assert set(got) == {"rue", "ucbe", "sr", "sh", "ttts"}
        for lab, cont in got.items():
            want = [float(r["error_rate"]) for b in ("H/2", "H", "2H") for r in rows
                    if r["study"] == "fixed" and r["setup"] == setup and r["label"] == lab and r["budget"] == b]
            assert np.allclose(cont.lines[0].get_ydata(), want)
            assert len(cont.lines[2]) == 1                  # the vertical error bars
    assert any("exact 95% intervals" in t.get_text() and "seed 1" in t.get_text() for t in fig.texts)


def test_random_setups_has_means_and_per_instance_differences(rows):
    fig = plots.random_setups(rows)
    top, bottom = fig.axes[0], fig.axes[1]
    assert top.get_title() == "R3: mean over instances" and "baseline minus RUE" in bottom.get_title()
    rue = series(top)["rue"]
    want = [instance_errors(r).mean() for b in ("N/4", "N/2", "N") for r in rows
            if r["study"] == "random" and r["label"] == "rue" and r["budget"] == b]
    assert np.allclose(rue.lines[0].get_ydata(), want)
    assert len([p for p in bottom.patches]) == 12             # 3 budgets x 4 baselines
    assert bottom.get_ylabel() == "error difference"


def test_two_stage_has_a_line_per_budget_over_q(rows):
    fig = plots.two_stage(rows)
    ax = fig.axes[0]
    got = series(ax)
    assert set(got) == {"two-stage, H/2", "two-stage, H", "two-stage, 2H"}
    assert np.allclose(got["two-stage, H"].lines[0].get_xdata(), np.arange(1, 10) / 10)
    assert ax.get_xlabel().startswith("q") and len(ax.get_lines()) >= 3


def test_no_rows_is_a_clear_error():
    with pytest.raises(ValueError, match="no rows"):
        plots.fixed_setups([{"setup": "R1", "H_convention": "x", "study": "random", "K": 20, "label": "rue"}])
