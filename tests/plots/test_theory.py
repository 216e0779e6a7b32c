"""rue_verify.plots.theory: each family draws the numbers of `bounds` and of its simulations, says
where a bound is undefined, and names its parameters and seed."""

import numpy as np
import pytest

from rue_verify import plots
from tests.plots.test_empirical import series


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
    from rue_verify.verify import ClaimResult
    res = [ClaimResult("A", "Section 2", "s", "holds", "x", [Finding("holds", "d", "e")], 0.1),
           ClaimResult("B", "Section 2", "s", "refuted", "x", [Finding("refuted", "d", "e")], 0.1),
           ClaimResult("C", "Section 3", "s", "holds", "x", [Finding("holds", "d", "e")], 0.1)]
    ax = plots.ledger_overview(res).axes[0]
    widths = {(b.get_y(), b.get_facecolor()[:3]): b.get_width() for b in ax.patches if b.get_width() > 0}
    assert sum(widths.values()) == 3


def test_theorem_5_figures_simulate_their_shared_runs_once_and_run_together(monkeypatch):
    """Theorems 5.1 and 5.2's figures read the same RUE runs: in one process the second reuses the first's
    (the same numbers), and the report makes them in one unit (`groups`)."""
    from rue_verify.plots import theory
    from rue_verify.plots.registry import FAMILIES, groups
    calls = []
    real = theory.runner.rue_under_the_model

    def counted(*a, **k):
        calls.append(a[1])
        return real(*a, **k)
    monkeypatch.setattr(theory.runner, "rue_under_the_model", counted)
    theory._rue_under_the_model.cache_clear()
    at = ((4, 1.0, 1.0, 1.0),)
    fail = theory.theorem_5_1_table(settings=at, ns=(40,), runs=16, seed=3)
    regret = theory.theorem_5_2_table(settings=at, ns=(40,), runs=16, seed=3)
    assert calls == [40]
    failed, regret_runs, _ = theory.rue_under_the_model(4, 40, 1.0, 1.0, 1.0, 16, 3)
    assert fail.where(series="simulated")[0]["y"] == failed.mean()
    assert regret.where(series="simulated")[0]["y"] == pytest.approx(regret_runs.mean())
    unit = next(g for g in groups(list(FAMILIES)) if "theorem-5-1" in g)
    assert "theorem-5-2" in unit
