"""The exploration-constant figure (claim EXPLORE-CLIFF): RUE's simple regret over the limit's constant
against DEG, one line per (K, n) with 95% intervals, its top-two balanced variant at DEG = 2 beside it,
and the share of runs that starve the best arm. Reads the study of `rue_verify.rates.cliff`."""

from __future__ import annotations

import numpy as np

from .common import caption
from .table import Table


def cliff_table(rates_dir: str | None = None) -> Table:
    """Per (K, n) and variant: n sr_n / L_r with its 95% interval, the failure probability, the starved
    share with its interval, and the finite-n limit over L_r."""
    from bounds import limit

    from ..rates import cliff
    res = cliff.load(cliff.ledger_source(rates_dir))
    rows = []
    for K, n in res.grid():
        bound = limit.regret_lower_bound(n, K) * n / limit.limit_constants(K).regret
        for c in res.at(K, n):
            e, st, f = c.efficiency(), c.interval("starved"), c.interval("failure")
            rows.append({"K": K, "n": n, "series": c.algorithm, "deg": c.deg, "y": e.estimate, "low": e.low,
                         "high": e.high, "starved": st.estimate, "starved_low": max(st.low, 0.0),
                         "starved_high": st.high, "failure": f.estimate, "limit": bound, "runs": c.runs})
    return Table(rows, {"family": "explore-cliff", "source": res.description, "seed": res.manifest.get("seed", "?"),
                        "starved_at_most": cliff.STARVED, "paper_deg": cliff.PAPER_DEG})


def draw_cliff(t: Table, ax=None):
    import matplotlib.pyplot as plt
    fig = ax or plt.figure(figsize=(11, 4.6))
    left, right = fig.subplots(1, 2)
    cells = sorted({(int(r["K"]), int(r["n"])) for r in t.rows})
    colours = plt.get_cmap("tab10")
    for i, (K, n) in enumerate(cells):
        sel = t.where(K=K, n=n)
        rue = sorted((r for r in sel if r["series"] == "rue"), key=lambda r: float(r["deg"]))
        x, y, lo, hi, st, slo, shi = (np.array([r[k] for r in rue], float)
                                      for k in ("deg", "y", "low", "high", "starved", "starved_low", "starved_high"))
        ls = "-" if K == cells[0][0] else "--"
        label = f"K = {K}, n = {n:,}"
        left.errorbar(x, y, yerr=[y - lo, hi - y], color=colours(i), marker="o", ms=4, capsize=3, ls=ls, label=label)
        right.errorbar(x, st, yerr=[st - slo, shi - st], color=colours(i), marker="o", ms=4, capsize=3, ls=ls,
                       label=label)
        for r in sel:
            if r["series"] != "rue":
                v = float(r["y"])
                left.errorbar([float(r["deg"]) * 1.04], [v], yerr=[[v - float(r["low"])], [float(r["high"]) - v]],
                              color=colours(i), marker="P", ms=7, capsize=3, ls="none")
        left.axhline(float(sel[0]["limit"]), color=colours(i), lw=0.8, ls=":")
    left.errorbar([], [], color="0.3", marker="P", ls="none", label="top-two balanced variant (DEG = 2)")
    left.plot([], [], color="0.3", ls=":", lw=0.8, label="the finite-n limit (every algorithm is above)")
    left.axvline(float(t.meta["paper_deg"]), color="k", lw=0.6)
    left.set_yscale("log")
    left.set_xlabel("DEG in sqrt(DEG tau^2 log n) (the paper: 2, the vertical line)")
    left.set_ylabel("n sr_n / the limit's constant L_r (95%)")
    left.set_title("RUE's simple regret against its exploration constant", fontsize=9)
    left.legend(fontsize=7)
    right.set_xlabel("DEG")
    right.set_ylabel(f"share of runs pulling the best arm <= {t.meta['starved_at_most']} times (95%)")
    right.set_title("Runs that starve the best arm", fontsize=9)
    right.legend(fontsize=7)
    for a in (left, right):
        a.grid(alpha=0.3, which="both")
    caption(fig, f"Model of Section 3 (sigma0^2 = sigma^2 = 1, RUE told both), near-tie-sampled instances paired "
                 f"across DEG, {t.rows[0]['runs']} runs per point;\n{t.meta['source']}.")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig
