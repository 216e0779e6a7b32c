"""rue_verify.plots.rates: the rate figure's table holds each quantity's curve with intervals, its fit
and its local slopes (from the shipped rate study), the landscape keeps every truth above the oracle
for every K, and each figure drawn from its CSV alone is the same figure."""

import numpy as np

from rue_verify.plots import Table
from rue_verify.plots.rates import draw_rates, rates_table


def test_the_rate_table_and_its_redraw(tmp_path):
    from rue_verify.rates import load
    t = rates_table()
    budgets = load().curve("base", "rue").n.size
    for q in ("failure probability", "simple regret"):
        truth = t.where(quantity=q, series="truth")
        assert len(truth) == budgets and all(r["low"] <= r["y"] <= r["high"] for r in truth)
        fit, = t.where(quantity=q, series="fit")
        assert fit["low"] <= fit["y"] <= fit["high"] and len(t.where(quantity=q, series="local")) == budgets - 1
    (tmp_path / "rates.csv").write_text(t.to_csv())
    again = Table.from_csv(tmp_path / "rates.csv")

    def lines(table):
        return [np.asarray(ln.get_ydata(), float) for ax in draw_rates(table).axes for ln in ax.get_lines()]
    a, b = lines(t), lines(again)
    assert len(a) == len(b) and all(np.allclose(x, y) for x, y in zip(a, b))


def test_the_landscape_puts_every_truth_above_the_oracle_and_redraws_from_its_csv(tmp_path):
    from rue_verify.plots.rates import draw_landscape, landscape_table
    t = landscape_table()
    Ks = sorted({int(r["K"]) for r in t.rows})
    assert len(Ks) >= 3 and Ks[-1] >= 100
    for K in Ks:
        for q in ("failure probability", "simple regret"):
            oracle = {r["x"]: r for r in t.where(quantity=q, series="oracle (lower bound)", kind="truth")
                      if int(r["K"]) == K}
            for name in ("rue", "bayes_elim", "prior_alloc"):
                truth = [r for r in t.where(quantity=q, series=name, kind="truth") if int(r["K"]) == K]
                assert len(truth) == len(oracle) >= 5 and all(r["low"] <= r["y"] <= r["high"] for r in truth)
                # a lower bound: no algorithm's truth is significantly below the oracle's
                assert all(r["high"] >= oracle[r["x"]]["low"] for r in truth), (K, name)
    assert {r["series"] for r in t.where(kind="bound")} == {"Theorem 5.1 repaired (RUE)", "Theorem 5.2 repaired (RUE)",
                                                            "bayes_elim's bound (derived here)",
                                                            "prior_alloc's bound (derived here)",
                                                            "prior_alloc's published bound"}
    (tmp_path / "landscape.csv").write_text(t.to_csv())
    again = Table.from_csv(tmp_path / "landscape.csv")

    def lines(table):
        return [np.asarray(ln.get_ydata(), float) for ax in draw_landscape(table).axes for ln in ax.get_lines()]
    a, b = lines(t), lines(again)
    assert len(a) == len(b) and all(np.allclose(x, y) for x, y in zip(a, b))
