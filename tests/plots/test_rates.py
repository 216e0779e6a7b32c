"""rue_verify.plots.rates: the rate figure's table holds each quantity's curve with intervals, its fit
and its local slopes, and the figure drawn from its CSV alone is the same figure."""

import numpy as np

from rue_verify.plots import Table
from rue_verify.plots.rates import draw_rates, rates_table


def test_the_rate_table_and_its_redraw(tmp_path):
    t = rates_table(runs=60, seed=2)
    for q in ("failure probability", "simple regret"):
        truth = t.where(quantity=q, series="truth")
        assert len(truth) == 10 and all(r["low"] <= r["y"] <= r["high"] for r in truth)
        fit, = t.where(quantity=q, series="fit")
        assert fit["low"] <= fit["y"] <= fit["high"] and len(t.where(quantity=q, series="local")) == 9
    (tmp_path / "rates.csv").write_text(t.to_csv())
    again = Table.from_csv(tmp_path / "rates.csv")

    def lines(table):
        return [np.asarray(ln.get_ydata(), float) for ax in draw_rates(table).axes for ln in ax.get_lines()]
    a, b = lines(t), lines(again)
    assert len(a) == len(b) and all(np.allclose(x, y) for x, y in zip(a, b))
