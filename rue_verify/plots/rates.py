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


def landscape_table(runs: int = 400, seed: int = 0, thorough: bool = False) -> Table:
    """The bound landscape under the model of Section 3: for each quantity, the measured truth of
    every algorithm of the rate study (95% intervals), the full-information oracle below them (a
    lower bound on every algorithm), the repaired Theorems 5.1 and 5.2 and the peers' own bounds above
    (the paper's literal theorems are undefined at this K), and every truth's local slopes."""
    from bounds import repaired as rp
    st = study.SETTING
    rows = []
    series = {a: study.curves(thorough, runs, seed, a) for a in study.ALGORITHMS}
    series["oracle (lower bound)"] = study.oracle_curves(thorough, runs, seed)
    ns = [t.n for t in series["rue"]]
    for quantity, attr in (("failure probability", "failure"), ("simple regret", "regret")):
        for name, curve in series.items():
            for t in curve:
                iv = getattr(t, attr)
                rows.append({"quantity": quantity, "series": name, "kind": "truth", "x": t.n, "y": iv.estimate,
                             "low": iv.low, "high": iv.high})
            fit = fit_paired(ns, np.column_stack([getattr(t, attr + "_runs") for t in curve]), tail=0.0)
            rows += [{"quantity": quantity, "series": name, "kind": "local", "x": m, "y": b, "low": b - 1.96 * e,
                      "high": b + 1.96 * e} for m, b, e in fit.local]
        fn = rp.theorem_5_1_repaired if attr == "failure" else rp.theorem_5_2_repaired
        rows += [{"quantity": quantity, "series": f"Theorem 5.{1 if attr == 'failure' else 2} repaired (RUE)",
                  "kind": "bound", "x": n, "y": float(fn(st["K"], n, st["sigma0_sq"], st["sigma_sq"], 1.0))}
                 for n in ns]
        if attr == "failure":
            for n in ns:
                for name, b in study.peer_bounds(n).items():
                    rows.append({"quantity": quantity, "series": f"{name}'s bound", "kind": "bound", "x": n, "y": b})
    return Table(rows, {"family": "landscape", "runs": runs, "seed": seed, **st})


def draw_landscape(t: Table, ax=None):
    import matplotlib.pyplot as plt

    from simulate.algorithms import get
    fig = ax or plt.figure(figsize=(12, 8.5))
    axes = fig.subplots(2, 2)

    def color(name):
        base = name.split("'")[0].split(" ")[0]
        if base == "oracle":
            return "k"
        if base == "Theorem":
            return "tab:red"
        return get(base).style[0]
    for row, quantity in enumerate(("failure probability", "simple regret")):
        curve, slope = axes[row]
        for name in dict.fromkeys(r["series"] for r in t.where(quantity=quantity)):
            pts = t.where(quantity=quantity, series=name)
            kind = pts[0]["kind"]
            x = np.array([r["x"] for r in pts if r["kind"] != "local"], float)
            y = np.array([r["y"] for r in pts if r["kind"] != "local"], float)
            if kind == "bound":
                curve.plot(x, y, color=color(name), ls="--", lw=1.3, label=f"{name}: upper bound")
                continue
            lo = np.array([r["low"] for r in pts if r["kind"] == "truth"], float)
            hi = np.array([r["high"] for r in pts if r["kind"] == "truth"], float)
            ok = y > 0
            curve.errorbar(x[ok], y[ok], yerr=[y[ok] - np.maximum(lo[ok], y[ok] * 1e-3), hi[ok] - y[ok]],
                           color=color(name), marker="o" if name != "oracle (lower bound)" else "v", ms=3.5,
                           capsize=2, lw=1, label=name + (" (truth, 95%)" if "oracle" not in name else ""))
            loc = [r for r in pts if r["kind"] == "local"]
            slope.errorbar([r["x"] for r in loc], [r["y"] for r in loc],
                           yerr=[[r["y"] - r["low"] for r in loc], [r["high"] - r["y"] for r in loc]],
                           color=color(name), marker="s", ms=3, capsize=2, lw=0.8, alpha=0.8, label=name)
        slope.axhline(study.CLAIMED_EXPONENT, color="tab:red", ls=":", lw=1, label="the paper's exponent -1/2")
        for a in (curve, slope):
            a.set_xscale("log")
            a.set_xlabel("n (budget)")
            a.grid(alpha=0.3)
        curve.set_yscale("log")
        curve.set_ylabel(quantity + (" e_n" if row == 0 else " sr_n"))
        slope.set_ylabel("local slope d log y / d log n (95%)")
        curve.set_title(f"{quantity}: truth between the oracle and the upper bounds", fontsize=9)
        slope.set_title(f"{quantity}: local slopes", fontsize=9)
        curve.legend(fontsize=5.5, loc="lower left")
        slope.legend(fontsize=5.5, loc="lower left", ncol=2)
    caption(fig, f"Model of Section 3, K = {t.meta['K']}, sigma0^2 = {t.meta['sigma0_sq']:g}, sigma^2 = "
                 f"{t.meta['sigma_sq']:g}, delta = 1; {t.meta['runs']} runs per budget on the same instances for every "
                 f"algorithm; seed {t.meta['seed']}. Literal Theorems 5.1/5.2: undefined at this K; prior_alloc = "
                 "uniform allocation here (homogeneous prior).")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig
