"""The rate figures: RUE's Bayesian failure probability and simple regret against n with their
intervals and fitted power laws, and the local slopes beside them against the paper's exponent; and
the bound landscape, every truth between the oracle and the upper bounds for several K. Both read a
rate study's results (`rue_verify.rates.load`: the shipped one by default)."""

from __future__ import annotations

import numpy as np

from .. import rates
from ..rates import study
from ..rates.summary import k_family
from .common import caption
from .table import Table

QUANTITIES = (("failure probability", "failure"), ("simple regret", "regret"))


def rates_table(rates_dir: str | None = None) -> Table:
    """RUE on the rate study's base setting (conditional estimates with 95% intervals), each quantity's
    fitted exponent and interval, and its local slopes with standard errors."""
    res = rates.load(rates_dir)
    c = res.curve("base", "rue")
    rows = []
    for quantity, attr in QUANTITIES:
        for n, iv in zip(c.n, c.intervals(attr)):
            rows.append({"quantity": quantity, "series": "truth", "x": int(n), "y": iv.estimate, "low": iv.low,
                         "high": iv.high})
        fit = c.fit(attr)
        rows.append({"quantity": quantity, "series": "fit", "x": fit.n_range[0], "x2": fit.n_range[1],
                     "y": fit.exponent, "low": fit.interval[0], "high": fit.interval[1]})
        rows += [{"quantity": quantity, "series": "local", "x": m, "y": b, "low": b - 1.96 * e, "high": b + 1.96 * e}
                 for m, b, e in fit.local]
    return Table(rows, {"family": "rates", "runs": c.runs, "seed": res.manifest.get("seed", "?"),
                        "source": res.description, **c.setting.params, "claimed_exponent": study.CLAIMED_EXPONENT,
                        "estimator": "conditional estimates with near-tie importance sampling" if c.setting.tilt
                        else "conditional estimates"})


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
    caption(fig, f"Rates under the model of Section 3: {t.meta.get('estimator', 'conditional estimates')} from "
                 f"{t.meta['runs']} runs per budget, paired across budgets; {t.meta['source']}.")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def landscape_table(rates_dir: str | None = None, your_bounds: tuple[tuple[str, str], ...] = ()) -> Table:
    """The bound landscape under the model of Section 3, for each setting that differs from the base
    one only in K: for each quantity, the measured truth of RUE and the peers (95% intervals), the limit
    below them (`bounds.limit`: every algorithm with budget n meets it), the full-information oracle
    (which sees n observations of every arm, so sits below the limit), the repaired Theorems 5.1
    and 5.2 and the peers' own bounds above (the paper's literal theorems are undefined at these K),
    `your_bounds` ((quantity 'failure' or 'regret', 'path/to/file.py:NAME') pairs,
    `user_bounds.load_bound`) beside them, and every truth's local slopes."""
    from bounds import repaired as rp

    from ..rates import efficiency
    res = rates.load(rates_dir)
    rows = []
    names = k_family(res) or ["base"]
    for name in names:
        algs = [a for a in study.ALGORITHMS + ("oracle",) if res.has(name, a)]
        setting = res.settings()[name]
        ns = res.curve(name, "rue").n
        for quantity, attr in QUANTITIES:
            for a in algs:
                c = res.curve(name, a)
                label = "oracle (lower bound)" if a == "oracle" else a
                for n, iv in zip(c.n, c.intervals(attr)):
                    rows.append({"K": setting.K, "quantity": quantity, "series": label, "kind": "truth", "x": int(n),
                                 "y": iv.estimate, "low": iv.low, "high": iv.high})
                try:
                    fit = c.fit(attr, tail=0.0)
                except ValueError:          # a zero estimate somewhere: no slopes
                    continue
                rows += [{"K": setting.K, "quantity": quantity, "series": label, "kind": "local", "x": m, "y": b,
                          "low": b - 1.96 * e, "high": b + 1.96 * e} for m, b, e in fit.local]
            rows += [{"K": setting.K, "quantity": quantity, "series": "the limit (every algorithm)", "kind": "limit",
                      "x": int(n), "y": float(efficiency.finite_bound(setting, attr, int(n)))} for n in ns
                     if setting.prior_ratio == 1]
            fn = rp.theorem_5_1_repaired if attr == "failure" else rp.theorem_5_2_repaired
            rows += [{"K": setting.K, "quantity": quantity,
                      "series": f"Theorem 5.{1 if attr == 'failure' else 2} repaired (RUE)", "kind": "bound",
                      "x": int(n), "y": float(fn(setting.K, int(n), setting.sigma0_sq, setting.sigma_sq, 1.0))}
                     for n in ns]
            if attr == "failure":
                for n in ns:
                    for peer, b in study.peer_bounds(int(n), setting).items():
                        rows.append({"K": setting.K, "quantity": quantity, "series": f"{peer}'s bound (derived here)",
                                     "kind": "bound", "x": int(n), "y": b})
                    for peer, b in study.published_bounds(int(n), setting).items():
                        rows.append({"K": setting.K, "quantity": quantity, "series": f"{peer}'s published bound",
                                     "kind": "bound", "x": int(n), "y": b})
            for which, spec in your_bounds:
                if which != attr:
                    continue
                from ..user_bounds import evaluate, load_bound
                fn = load_bound(spec)
                rows += [{"K": setting.K, "quantity": quantity, "series": f"your bound {spec.rpartition(':')[2]}",
                          "kind": "bound", "x": int(n),
                          "y": evaluate(fn, spec, setting.K, int(n), setting.sigma0_sq, setting.sigma_sq)} for n in ns]
    _mark_broken(rows)
    base = res.settings()["base"]
    return Table(rows, {"family": "landscape", "runs": res.curve("base", "rue").runs, "source": res.description,
                        "sigma0_sq": base.sigma0_sq, "sigma_sq": base.sigma_sq,
                        "Ks": " ".join(str(res.settings()[n].K) for n in names)})


def _judged(series: str) -> str:
    """The algorithm a bound of the landscape is about: a peer's bound its peer, the rest RUE."""
    head = series.split("'")[0]
    return head if "'s " in series else "rue"


def _mark_broken(rows: list[dict]) -> None:
    """Each bound point gets `broken`: the truth of the algorithm it bounds is above it at that budget
    (the lower end of its 95% interval, so a mark is a significant violation)."""
    truth = {(r["K"], r["quantity"], r["series"], r["x"]): r["low"] for r in rows if r["kind"] == "truth"}
    for r in rows:
        if r["kind"] == "bound":
            low = truth.get((r["K"], r["quantity"], _judged(r["series"]), r["x"]))
            r["broken"] = bool(low is not None and low > r["y"])


def draw_landscape(t: Table, ax=None):
    import matplotlib.pyplot as plt

    from simulate.algorithms import get
    Ks = [int(k) for k in str(t.meta["Ks"]).split()]
    fig = ax or plt.figure(figsize=(4.2 * (len(Ks) + 1), 12.5))
    axes = np.atleast_2d(fig.subplots(2, len(Ks) + 1))
    styles = {K: ls for K, ls in zip(Ks, ("-", "--", ":", "-."))}

    def color(name):
        base = name.split("'")[0].split(" ")[0]
        if base == "the":
            return "k"
        if base == "your":
            return "tab:purple"
        if base == "oracle":
            return "k"
        if base == "Theorem":
            return "tab:red"
        return get(base).style[0]
    for row, (quantity, _) in enumerate(QUANTITIES):
        slope = axes[row][-1]
        for col, K in enumerate(Ks):
            curve = axes[row][col]
            sel = [r for r in t.where(quantity=quantity) if int(r["K"]) == K]
            for name in dict.fromkeys(r["series"] for r in sel):
                pts = [r for r in sel if r["series"] == name]
                kind = pts[0]["kind"]
                x = np.array([r["x"] for r in pts if r["kind"] != "local"], float)
                y = np.array([r["y"] for r in pts if r["kind"] != "local"], float)
                if kind == "limit":
                    curve.plot(x, y, color="k", lw=2.2, label=f"{name}: lower bound (bounds.limit)")
                    continue
                if kind == "bound":
                    clipped = row == 0 and bool(np.any(y > 1))        # a probability: the axis stops at 1
                    shown = np.minimum(y, 1.0) if row == 0 else y
                    curve.plot(x, shown, color=color(name), ls=":" if "published" in name else "--", lw=1.3,
                               label=f"{name}: upper bound" + (" (clipped at 1)" if clipped else ""))
                    bad = np.array([str(r.get("broken")) in ("True", "1") for r in pts if r["kind"] != "local"])
                    if bad.any():
                        curve.plot(x[bad], shown[bad], ls="none", marker="X", ms=7, mfc="none", mec="tab:red",
                                   mew=1.3, label=f"{name}: broken (truth above it)")
                    continue
                lo = np.array([r["low"] for r in pts if r["kind"] == "truth"], float)
                hi = np.array([r["high"] for r in pts if r["kind"] == "truth"], float)
                ok = y > 0
                curve.errorbar(x[ok], y[ok], yerr=[y[ok] - np.maximum(lo[ok], y[ok] * 1e-3), hi[ok] - y[ok]],
                               color=color(name), marker="o" if "oracle" not in name else "v", ms=3.5,
                               capsize=2, lw=1, label=name + (" (truth, 95%)" if "oracle" not in name else ""))
                loc = [r for r in pts if r["kind"] == "local"]
                if name in ("rue", "oracle (lower bound)") and loc:
                    slope.errorbar([r["x"] for r in loc], [r["y"] for r in loc],
                                   yerr=[[r["y"] - r["low"] for r in loc], [r["high"] - r["y"] for r in loc]],
                                   color=color(name), ls=styles[K], marker="s", ms=3, capsize=2, lw=0.9, alpha=0.8,
                                   label=f"{name.split(' ')[0]}, K = {K}")
            curve.set_xscale("log")
            curve.set_yscale("log")
            curve.set_xlabel("n (budget)")
            curve.set_ylabel(quantity + (" e_n" if row == 0 else " sr_n"))
            curve.set_title(f"{quantity}, K = {K}", fontsize=9)
            curve.grid(alpha=0.3)
            if row == 0:
                curve.set_ylim(top=1.5)                   # failure probabilities: nothing above 1 is drawn
            # under the panel, so that no curve is hidden by it
            curve.legend(fontsize=5.5, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1, frameon=False)
        slope.axhline(study.CLAIMED_EXPONENT, color="tab:red", ls=":", lw=1, label="the paper's exponent -1/2")
        slope.set_xscale("log")
        slope.set_xlabel("n (budget)")
        slope.set_ylabel("local slope d log y / d log n (95%)")
        slope.set_title(f"{quantity}: local slopes of RUE and the oracle", fontsize=9)
        slope.grid(alpha=0.3)
        slope.legend(fontsize=5.5, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)
    caption(fig, f"Model of Section 3, sigma0^2 = {float(t.meta['sigma0_sq']):g}, sigma^2 = "
                 f"{float(t.meta['sigma_sq']):g}, delta = 1; every algorithm on the same instances; "
                 f"{t.meta['source']}. Literal Theorems 5.1/5.2: undefined at these K; prior_alloc = "
                 "uniform allocation here (common prior).")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def efficiency_table(rates_dir: str | None = None) -> Table:
    """Every algorithm's efficiency against the limit (`rates.efficiency`) at every budget of every setting
    of the rate study: sqrt(n) e_n and n sr_n over the limit's constant, with 95% intervals; and, per
    setting, the efficiency the oracle (which sees n observations of every arm) tends to."""
    from bounds import limit

    from ..rates import efficiency
    res = rates.load(rates_dir)
    rows = []
    for name, setting in res.settings().items():
        for alg in res.algorithms(name):
            c = res.curve(name, alg)
            for quantity, attr in QUANTITIES:
                e = efficiency.efficiency(c, attr)
                rows += [{"setting": name, "text": setting.text, "quantity": quantity, "series": alg, "x": int(n),
                          "y": y / e.limit, "low": lo / e.limit, "high": hi / e.limit}
                         for n, (y, lo, hi) in zip(e.n, e.scaled)]
        for quantity, attr in QUANTITIES:
            rows.append({"setting": name, "text": setting.text, "quantity": quantity, "series": "oracle's limit",
                         "y": limit.ORACLE_FACTOR[attr]})
    return Table(rows, {"family": "efficiency", "source": res.description, "seed": res.manifest.get("seed", "?"),
                        "settings": " | ".join(res.settings())})


def draw_efficiency(t: Table, ax=None):
    import textwrap

    import matplotlib.pyplot as plt

    from simulate.algorithms import get
    settings = str(t.meta["settings"]).split(" | ")
    fig = ax or plt.figure(figsize=(3.3 * len(settings), 7.8))
    axes = np.atleast_2d(fig.subplots(2, len(settings), sharey="row"))
    handles = {}
    for row, (quantity, _) in enumerate(QUANTITIES):
        for col, name in enumerate(settings):
            a = axes[row][col]
            sel = t.where(setting=name, quantity=quantity)
            for alg in dict.fromkeys(r["series"] for r in sel if r.get("x") not in (None, "")):
                pts = [r for r in sel if r["series"] == alg]
                x, y, lo, hi = (np.array([r[k] for r in pts], float) for k in ("x", "y", "low", "high"))
                oracle = alg == "oracle"
                colour, marker = ("0.3", "v") if oracle else (get(alg).style[0], "o")
                label = "oracle (sees n observations of every arm)" if oracle else alg
                handles[label] = a.errorbar(x, y, yerr=[y - lo, hi - y], color=colour, marker=marker, ms=3,
                                            capsize=2, lw=1, ls=":" if oracle else "-")
            handles["the limit: 1 (every algorithm >= 1 as n grows)"] = a.axhline(1.0, color="k", lw=2.2)
            o = [r for r in sel if r["series"] == "oracle's limit"]
            if o:
                handles["the oracle's limit (predicted: 1/sqrt(2), 1/2)"] = a.axhline(float(o[0]["y"]), color="0.3",
                                                                                     ls="--", lw=0.9)
            a.set_xscale("log")
            a.set_yscale("log")
            a.set_xlabel("n (budget)")
            if col == 0:
                a.set_ylabel(("sqrt(n) e_n" if row == 0 else "n sr_n") + " / the limit's constant (95%)")
            text = textwrap.fill(sel[0]["text"], 38) if sel else ""
            a.set_title(f"{quantity}: {name}\n{text}", fontsize=7.5)
            a.grid(alpha=0.3, which="both")
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=6, fontsize=7, frameon=False,
               bbox_to_anchor=(0.5, 0.03))
    caption(fig, f"Efficiency against the limit (bounds.limit, derived here): each algorithm's constant over the "
                 f"best any algorithm can reach with budget n; 1 is optimal. {t.meta['source']}.")
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig
