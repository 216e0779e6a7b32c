"""The variance-estimator figure (claims VAR-EST-COST, VAR-EST-METHODS, TOPTWO-REST): RUE's and its top-two
variant's simple regret over the limit's constant with each variance estimator, split into the near-tie part
and the rest, and the end-of-run estimate of sigma0^2 against the truth. Reads the study of
`rue_verify.rates.estimators`."""

from __future__ import annotations

import numpy as np

from .common import caption
from .table import Table


def estimators_table(rates_dir: str | None = None) -> Table:
    """Per (K, n), algorithm and estimator: n sr_n / L_r and its rest part with 95% intervals, and the
    end-of-run sigma0^2 estimate's weighted quantiles (5, 25, 50, 75, 95%) and mean under the prior."""
    from ..rates import estimators as E
    res = E.load(E.ledger_source(rates_dir))
    rows = []
    for K, n in res.grid():
        for c in res.at(K, n):
            e, rest, s0 = c.efficiency(), c.efficiency(q="rest"), c.estimate("sigma0_est")
            q = c.quantiles["sigma0"]
            rows.append({"K": K, "n": n, "algorithm": c.algorithm, "variances": c.variances, "y": e.estimate,
                         "low": e.low, "high": e.high, "rest": rest.estimate, "rest_low": rest.low,
                         "rest_high": rest.high, "s0_mean": s0.estimate, "s0_q05": q[0], "s0_q25": q[1],
                         "s0_q50": q[2], "s0_q75": q[3], "s0_q95": q[4], "runs": c.runs})
    return Table(rows, {"family": "variance-estimators", "source": res.description,
                        "seed": res.manifest.get("seed", "?"), "estimators": list(E.ESTIMATORS),
                        "names": [E.NAMES[v] for v in E.ESTIMATORS]})


def draw_estimators(t: Table, ax=None):
    import matplotlib.pyplot as plt
    fig = ax or plt.figure(figsize=(13.5, 5.2))
    left, mid, right = fig.subplots(1, 3)
    ests = list(t.meta["estimators"])
    names = dict(zip(ests, t.meta["names"]))
    cells = sorted({(int(r["K"]), int(r["n"])) for r in t.rows})
    colours = plt.get_cmap("tab10")
    x = np.arange(len(ests))
    width = 0.8 / max(len(cells), 1)           # a cell's slot; RUE left of its centre, the variant right
    for i, (K, n) in enumerate(cells):
        for alg, marker, ls in (("rue", "o", "-"), ("rue-top-two", "P", "--")):
            sel = {r["variances"]: r for r in t.where(K=K, n=n, algorithm=alg)}
            if not sel:
                continue
            xs = x - 0.4 + width * (i + 0.5) + (0.22 if alg != "rue" else -0.22) * width
            for a, key in ((left, ""), (mid, "rest")):
                col = "y" if not key else key
                lo, hi = ("low", "high") if not key else ("rest_low", "rest_high")
                y = np.array([float(sel[v][col]) if v in sel else np.nan for v in ests])
                yl = np.array([float(sel[v][lo]) if v in sel else np.nan for v in ests])
                yh = np.array([float(sel[v][hi]) if v in sel else np.nan for v in ests])
                a.errorbar(xs, y, yerr=[y - yl, yh - y], color=colours(i), marker=marker, ms=5, capsize=2, ls="none",
                           label=f"K = {K}, n = {n:,}" if alg == "rue" else None)
    for a in (left, mid):
        a.set_xticks(x, [names[v] for v in ests], rotation=25, ha="right", fontsize=7)
        a.grid(alpha=0.3, axis="y")
    left.axhline(1.0, color="k", lw=0.7, ls=":")
    left.set_ylabel("n sr_n / the limit's constant L_r (95%)")
    left.set_title("Simple regret by variance estimator (1: the limit)", fontsize=9)
    left.errorbar([], [], color="0.3", marker="o", ls="none", label="RUE")
    left.errorbar([], [], color="0.3", marker="P", ls="none", label="top-two variant")
    left.legend(fontsize=7)
    mid.axhline(0.0, color="k", lw=0.7)
    mid.set_ylabel("rest part of n sr_n / L_r (95%)")
    mid.set_title("Regret outside near ties (top two not within 5 sigma/sqrt(n))", fontsize=9)
    for i, (K, n) in enumerate(cells):                 # sigma0^2 estimates: RUE's, boxes of weighted quantiles
        sel = {r["variances"]: r for r in t.where(K=K, n=n, algorithm="rue")}
        for j, v in enumerate(ests):
            if v == "known" or v not in sel:
                continue
            r = sel[v]
            xc = j - 0.4 + width * (i + 0.5)
            q05, q25, q50, q75, q95 = (float(r[f"s0_q{p}"]) for p in ("05", "25", "50", "75", "95"))
            right.plot([xc, xc], [q05, q95], color=colours(i), lw=1)
            right.add_patch(plt.Rectangle((xc - width * 0.35, q25), width * 0.7, q75 - q25, fc=colours(i), alpha=0.4,
                                          ec=colours(i)))
            right.plot([xc - width * 0.35, xc + width * 0.35], [q50, q50], color=colours(i), lw=1.5)
            right.plot([xc], [float(r["s0_mean"])], color="k", marker="x", ms=4)
    right.axhline(1.0, color="k", lw=0.8, ls=":")
    right.set_yscale("log")
    right.set_xticks(x[1:], [names[v] for v in ests[1:]], rotation=25, ha="right", fontsize=7)
    right.set_xlim(0.5, len(ests) - 0.5)
    right.set_ylabel("RUE's end-of-run estimate of sigma0^2")
    right.set_title("RUE's sigma0^2 estimates against the truth (dotted):\n5-25-50-75-95% under the prior, x the mean",
                    fontsize=9)
    right.grid(alpha=0.3, which="both", axis="y")
    caption(fig, f"Model of Section 3 (sigma0^2 = sigma^2 = 1), near-tie-sampled instances paired across estimators, "
                 f"{t.rows[0]['runs']} runs per point;\n{t.meta['source']}.")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


def section6_estimators_table(results: str | None = None) -> Table:
    """Section 6's empirical claims' verdicts with RUE's rows from each variance estimator
    (`ledger.section6_estimators`): one row per (claim, estimator), on the reproduction's rows `results`
    (None: the shipped ones)."""
    from ..ledger.section6_estimators import by_estimator, depends
    from ..reproduction import estimators as RE
    from ..verify import LedgerInputs, Mode
    rows = by_estimator(Mode(inputs=LedgerInputs(results=results)))
    moved = depends(rows)
    est = RE.load()
    return Table([{"claim": r["claim"], "estimator": r["estimator"], "verdict": r["verdict"],
                   "depends": int(r["claim"] in moved)} for r in rows],
                 {"family": "section6-estimators", "estimators": [RE.SHIPPED_ESTIMATOR, *RE.ESTIMATORS],
                  "depends": sorted(moved), "source": est.description, "seed": est.manifest.get("seed", "?")})


def draw_section6_estimators(t: Table, ax=None):
    import matplotlib.pyplot as plt

    from ..outputs.render import PALETTE
    fig = ax or plt.figure(figsize=(8.5, 0.45 * len(t.values("claim")) + 1.8))
    a = fig.add_subplot(1, 1, 1)
    claims, ests = t.values("claim"), list(t.meta["estimators"])
    for i, c in enumerate(claims):
        for j, e in enumerate(ests):
            r = t.where(claim=c, estimator=e)
            v = r[0]["verdict"] if r else "not run"
            a.add_patch(plt.Rectangle((j, i), 1, 1, fc=PALETTE.get(v, "0.85"), ec="white", lw=2))
            a.text(j + 0.5, i + 0.5, v, ha="center", va="center", fontsize=8, color="white" if v in PALETTE else "k")
    a.set_xlim(0, len(ests))
    a.set_ylim(len(claims), 0)
    a.set_xticks([j + 0.5 for j in range(len(ests))],
                 [("RUE " if j == 0 else "") + f"variances = {e}" + (" (shipped)" if j == 0 else "")
                  for j, e in enumerate(ests)], fontsize=8)
    a.set_yticks([i + 0.5 for i in range(len(claims))],
                 [c + ("  (moves)" if c in t.meta["depends"] else "") for c in claims], fontsize=8)
    a.tick_params(length=0)
    for s in a.spines.values():
        s.set_visible(False)
    moved = ", ".join(t.meta["depends"]) or "none"
    a.set_title(f"Section 6's claims with RUE run by each variance estimator; verdicts that move: {moved}", fontsize=9)
    caption(fig, f"The shipped reproduction's rows with RUE's replaced by the same tasks (same seed, so paired with "
                 f"the baselines) run with each estimator;\n{t.meta['source']}.")
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig
