"""The rate figure: RUE's Bayesian failure probability and simple regret against n with their
intervals and fitted power laws, and the local slopes beside them against the paper's exponent."""

from __future__ import annotations

import numpy as np

from ..rates import fit_paired, study
from .common import caption
from .table import Table


def rates_table(runs: int = 400, seed: int = 0, thorough: bool = False) -> Table:
    """The curves of `rates.study` (conditional estimates with 95% intervals), each quantity's fitted
    exponent and interval, and its local slopes with standard errors."""
    rows = []
    curves = study.curves(thorough, runs, seed)
    for quantity, attr in (("failure probability", "failure"), ("simple regret", "regret")):
        for t in curves:
            iv = getattr(t, attr)
            rows.append({"quantity": quantity, "series": "truth", "x": t.n, "y": iv.estimate, "low": iv.low,
                         "high": iv.high})
        fit = fit_paired([t.n for t in curves], np.column_stack([getattr(t, attr + "_runs") for t in curves]))
        rows.append({"quantity": quantity, "series": "fit", "x": fit.n_range[0], "x2": fit.n_range[1],
                     "y": fit.exponent, "low": fit.interval[0], "high": fit.interval[1]})
        rows += [{"quantity": quantity, "series": "local", "x": m, "y": b, "low": b - 1.96 * e, "high": b + 1.96 * e}
                 for m, b, e in fit.local]
    return Table(rows, {"family": "rates", "runs": runs, "seed": seed, **study.SETTING,
                        "claimed_exponent": study.CLAIMED_EXPONENT})


def draw_rates(t: Table, ax=None):
    import matplotlib.pyplot as plt
    fig = ax or plt.figure(figsize=(11, 4.3))
    left, right = fig.subplots(1, 2)
    claimed = t.meta["claimed_exponent"]
    for color, quantity in zip(("tab:red", "tab:blue"), ("failure probability", "simple regret")):
        truth = t.where(quantity=quantity, series="truth")
        x, y, lo, hi = (np.array([r[k] for r in truth], float) for k in ("x", "y", "low", "high"))
        left.errorbar(x, y, yerr=[y - np.maximum(lo, y * 1e-3), hi - y], fmt="o", ms=4, capsize=3, color=color,
                      label=f"{quantity} (95%)")
        f = t.where(quantity=quantity, series="fit")[0]
        xs = np.geomspace(float(f["x"]), float(f["x2"]), 20)
        anchor = y[np.searchsorted(x, float(f["x"]))]
        left.plot(xs, anchor * (xs / float(f["x"])) ** float(f["y"]), color=color, lw=1.5,
                  label=f"fit: n^{float(f['y']):.2f} [{float(f['low']):.2f}, {float(f['high']):.2f}]")
        left.plot(x, y[0] * (x / x[0]) ** claimed, color=color, ls=":", lw=1, label=f"n^{claimed} from the first point")
        loc = t.where(quantity=quantity, series="local")
        lx, ly, llo, lhi = (np.array([r[k] for r in loc], float) for k in ("x", "y", "low", "high"))
        right.errorbar(lx, ly, yerr=[ly - llo, lhi - ly], fmt="s", ms=4, capsize=3, color=color,
                       label=f"{quantity}: local slope (95%)")
        right.axhspan(float(f["low"]), float(f["high"]), color=color, alpha=0.12)
    right.axhline(claimed, color="k", ls="--", lw=1, label=f"the paper's exponent {claimed}")
    for a in (left, right):
        a.set_xscale("log")
        a.set_xlabel("n (budget)")
    left.set_yscale("log")
    left.set_ylabel("e_n (probability) and sr_n (units of the means)")
    right.set_ylabel("local slope d log y / d log n")
    left.set_title(f"RUE, K = {t.meta['K']}, sigma0^2 = {t.meta['sigma0_sq']:g}, sigma^2 = {t.meta['sigma_sq']:g}",
                   fontsize=9)
    right.set_title("local slopes; bands: the fitted exponents' intervals", fontsize=9)
    left.legend(fontsize=6)
    right.legend(fontsize=6)
    caption(fig, f"Rates under the model of Section 3: conditional estimates from {t.meta['runs']} runs per budget, "
                 f"paired across budgets; seed {t.meta['seed']}.")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig
