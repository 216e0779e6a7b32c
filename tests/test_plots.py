"""rue_verify.plots: each figure has the panels, series, labels and caption it promises, and draws the
numbers of the result rows (read back from the matplotlib objects)."""

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer

from rue_verify import plots
from rue_verify.reproduction.grid import Scale, execute, grid, instance_errors

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


# ---------------------------------------------------------------- the paper's bounds (plots.theory)
def lines(ax):
    return {ln.get_label(): ln for ln in ax.get_lines()}


def test_theorem_3_1_draws_the_exact_probability_and_says_where_the_bound_is_undefined():
    import bounds
    fig = plots.theorem_3_1(K=(5, 40), draws=3000, seed=2)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log" and ax.get_ylabel() == "probability"
    got = lines(ax)
    exact = got["K = 5: exact e_*(alpha)"]
    assert np.allclose(exact.get_ydata(), bounds.e_star(exact.get_xdata(), 5))
    bound = got["K = 40: bound c_K alpha / sigma0"]
    assert np.allclose(bound.get_ydata(), bounds.theorem_3_1_bound(bound.get_xdata(), 40))
    assert "K = 5: bound undefined" in got and any("K = 5: no bound" in t.get_text() for t in ax.texts)
    assert set(series(ax)) == {"K = 5: Monte Carlo", "K = 40: Monte Carlo"}


def test_c_K_constant_marks_the_undefined_range_and_stays_above_the_tightest_constant():
    fig = plots.c_K_constant(K_max=400)
    ax = fig.axes[0]
    got = lines(ax)
    tight, ck = got["tightest constant sup_alpha e_*(alpha)/alpha"], got["c_K (Theorem 3.1)"]
    assert ck.get_xdata()[0] == 36                                # the first K where c_K is real
    assert any("c_K undefined" in p.get_label() for p in ax.patches)
    t = dict(zip(tight.get_xdata(), tight.get_ydata()))
    assert all(c >= t[k] for k, c in zip(ck.get_xdata(), ck.get_ydata()) if k >= 37)


def test_theorem_5_1_draws_the_terms_their_sum_and_simulated_rates():
    from bounds import theorems
    fig = plots.theorem_5_1(settings=((40, 1.0, 1.0, 0.5),), ns=(200, 1000), runs=20, seed=1)
    ax = fig.axes[0]
    total = lines(ax)["bound (sum)"]
    n = total.get_xdata()
    assert np.allclose(total.get_ydata(), theorems.theorem_5_1_bound(40, n.astype(float), 1.0, 1.0, 0.5))
    assert ax.get_xlabel() == "n (budget)" and "seed 1" in fig.texts[0].get_text()
    undefined = plots.theorem_5_1(settings=((20, 1.0, 1.0, 1.0),), ns=(100,), runs=10)
    assert any("undefined" in t.get_text() for t in undefined.axes[0].texts)


def test_informative_region_and_tau_lemma_and_ledger_overview():
    fig = plots.informative_region(K=(40,), ratios=[1e2, 1e4])
    assert fig.axes[0].get_yscale() == "log" and "K = 40" in lines(fig.axes[0])
    fig = plots.tau_lemma(K=6, n=200, runs=4, seed=3)
    labels = [h.get_label() for h in fig.axes[0].get_legend().legend_handles]
    assert any(lab.startswith("lower side") for lab in labels) and any(lab.startswith("upper side") for lab in labels)
    from rue_verify.ledger import Finding
    from rue_verify.ledger.core import ClaimResult
    res = [ClaimResult("A", "Section 2", "s", "holds", "x", [Finding("holds", "d", "e")], 0.1),
           ClaimResult("B", "Section 2", "s", "refuted", "x", [Finding("refuted", "d", "e")], 0.1),
           ClaimResult("C", "Section 3", "s", "holds", "x", [Finding("holds", "d", "e")], 0.1)]
    ax = plots.ledger_overview(res).axes[0]
    widths = {(b.get_y(), b.get_facecolor()[:3]): b.get_width() for b in ax.patches if b.get_width() > 0}
    assert sum(widths.values()) == 3
