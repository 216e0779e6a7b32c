"""The reproduction's figures (rows from `rue-verify reproduce`):
- `fixed_setups`: error probability against budget per setup (Figure 3; the appendix's K = 40, 80).
- `random_setups`: Figure 2: mean error over the instances with standard errors, and box plots of
  the per-instance differences of each baseline against RUE.
- `two_stage`: the two-stage algorithm's error against q, per budget, with RUE's for reference.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from simulate.environments import FIXED_BUDGETS, PAPER_ALGORITHMS, RANDOM_BUDGETS

from ..reproduction.grid import instance_errors
from .common import caption, line_style
from .table import Table, figure

#: the result columns a reproduction figure's table keeps
COLUMNS = ("study", "setup", "K", "budget", "n", "normal_scale", "H_convention", "algorithm", "label", "params",
           "instances", "runs", "total_runs", "error_rate", "ci_low", "ci_high", "per_instance_failures", "seed",
           "version")


def _table(family: str, sel: list[dict], **meta) -> Table:
    return Table([{c: r[c] for c in COLUMNS} for r in sel], {"family": family, **meta})


def _describe(rows: list[dict]) -> str:
    r = rows[0]
    return f"seed {r['seed']}, rue-verify {r['version']}"


def _default_label(algorithm: str) -> str:
    """The label of an algorithm's default reading; an outside algorithm that cannot be loaded here
    any more (its file moved) is labelled by its name, as it was when it ran."""
    from simulate.algorithms import get
    try:
        return get(algorithm).label()
    except ValueError:
        return algorithm


def _default_labels(rows: list[dict], extra: tuple = ()) -> tuple:
    """Each algorithm's default reading present in the rows (the paper's first), and `extra` labels."""
    have = list(dict.fromkeys(r["label"] for r in rows))
    default = {r["label"] for r in rows if r["label"] == _default_label(r["algorithm"])}
    plain = [lab for lab in PAPER_ALGORITHMS if lab in have] + [lab for lab in have if lab not in PAPER_ALGORITHMS
                                                                and lab in default]
    return tuple(plain) + tuple(lab for lab in extra if lab in have)


def fixed_setups_table(rows: list[dict], setups=None, K: int | None = None, H_convention: str = "suboptimal",
                       labels=None, study: str | None = None) -> Table:
    """The result rows of fixed-mean settings (Figure 3; the appendix's K = 40, 80): error probability
    against budget (ceil(H/2), ceil(H), 2 ceil(H)) with exact 95% intervals."""
    sel = [r for r in rows if r["setup"].startswith("F") and r["H_convention"] == H_convention
           and (study is None or r["study"] == study) and (K is None or int(r["K"]) == K)
           and (setups is None or r["setup"] in setups)]
    labels = labels or _default_labels(sel, ("sh [lowest-index ties]",))
    sel = [r for r in sel if r["label"] in labels]
    if not sel:
        raise ValueError("fixed_setups: no rows match (setups, K, H convention, labels)")
    return _table("fixed-setups", sel, H_convention=H_convention, labels=list(labels))


def draw_fixed_setups(t: Table, ax=None):
    """One panel per setup and K; `ax` may be the Figure to draw into."""
    sel, labels, H_convention = t.rows, t.meta["labels"], t.meta["H_convention"]
    fig = ax
    panels = sorted({(r["setup"], int(r["K"])) for r in sel}, key=lambda x: (x[1], x[0]))
    cols = min(3, len(panels))
    nrows = -(-len(panels) // cols)
    fig = fig or plt.figure(figsize=(4.2 * cols, 3.3 * nrows + 0.5))
    axes = fig.subplots(nrows, cols, squeeze=False).ravel()
    budgets = tuple(FIXED_BUDGETS)
    for ax, (setup, k) in zip(axes, panels):
        here = [r for r in sel if (r["setup"], int(r["K"])) == (setup, k)]
        ns = {r["budget"]: int(r["n"]) for r in here}
        for lab in labels:
            pts = sorted((budgets.index(r["budget"]), float(r["error_rate"]), float(r["ci_low"]), float(r["ci_high"]))
                         for r in here if r["label"] == lab)
            if not pts:
                continue
            x, y, lo, hi = (np.array(v) for v in zip(*pts))
            color, marker, ls = line_style(next(r for r in here if r["label"] == lab))
            ax.errorbar(x, y, yerr=[y - lo, hi - y], color=color, marker=marker, ls=ls, capsize=3, label=lab, ms=4)
        ax.set_xticks(range(len(budgets)), [f"{b}\nn={ns.get(b, '?')}" for b in budgets], fontsize=8)
        ax.set_title(f"{setup}, K = {k}", fontsize=10)
        ax.set_ylabel("error probability")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    axes[0].legend(fontsize=7)
    runs = sorted({int(r["total_runs"]) for r in sel})
    caption(fig, f"Error probability with exact 95% intervals; budgets from H over "
                 f"{'the suboptimal arms' if H_convention == 'suboptimal' else 'every arm (Section 2)'}; "
                 f"{'/'.join(map(str, runs))} runs per point; {_describe(sel)}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def random_setups_table(rows: list[dict], normal_scale: str = "variance", labels=None) -> Table:
    """Figure 2's result rows (random means, one reading of N(0.5, 0.1)), with per-instance failures."""
    sel = [r for r in rows if r["study"] == "random" and r["normal_scale"] in (normal_scale, "-")]
    labels = labels or _default_labels(sel)
    sel = [r for r in sel if r["label"] in labels]
    if not sel:
        raise ValueError("random_setups: no rows match")
    return _table("random-setups", sel, normal_scale=normal_scale, labels=list(labels))


def draw_random_setups(t: Table, ax=None):
    """Upper row, the mean error over the instances with its standard error, per setup; lower row,
    box plots over the instances of each baseline's error minus RUE's."""
    sel, labels, normal_scale = t.rows, t.meta["labels"], t.meta["normal_scale"]
    fig = ax
    setups = sorted({r["setup"] for r in sel})
    fig = fig or plt.figure(figsize=(4.4 * len(setups), 7.2))
    axes = fig.subplots(2, len(setups), squeeze=False)
    budgets = tuple(RANDOM_BUDGETS)
    base = [lab for lab in labels if lab != "rue"]
    for j, setup in enumerate(setups):
        here = {(r["budget"], r["label"]): r for r in sel if r["setup"] == setup}
        ax = axes[0, j]
        for lab in labels:
            pts = [(i, instance_errors(here[(b, lab)])) for i, b in enumerate(budgets) if (b, lab) in here]
            if not pts:
                continue
            x = np.array([i for i, _ in pts])
            m = np.array([e.mean() for _, e in pts])
            se = np.array([e.std(ddof=1) / np.sqrt(e.size) for _, e in pts])
            color, marker, ls = line_style(here[(budgets[pts[0][0]], lab)])
            ax.errorbar(x, m, yerr=se, color=color, marker=marker, ls=ls, capsize=3, label=lab, ms=4)
        ns = {b: here[(b, "rue")]["n"] for b in budgets if (b, "rue") in here}
        ax.set_xticks(range(len(budgets)), [f"{b}\nn={ns.get(b, '?')}" for b in budgets], fontsize=8)
        ax.set_title(f"{setup}: mean over instances", fontsize=10)
        ax.set_ylabel("error probability")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax = axes[1, j]
        data, pos, colors = [], [], []
        width = 0.8 / max(len(base), 1)
        for i, b in enumerate(budgets):
            for q, lab in enumerate(base):
                if (b, lab) in here and (b, "rue") in here:
                    data.append(instance_errors(here[(b, lab)]) - instance_errors(here[(b, "rue")]))
                    pos.append(i - 0.4 + width * (q + 0.5))
                    colors.append(line_style(here[(b, lab)])[0])
        if not data:            # results without RUE's rows (a run of other algorithms only)
            ax.text(0.5, 0.5, "no RUE rows in these results to compare with", ha="center", va="center",
                    transform=ax.transAxes, fontsize=9)
        bp = ax.boxplot(data, positions=pos, widths=width * 0.9, patch_artist=True, showfliers=True,
                        flierprops={"markersize": 2}) if data else {"boxes": []}
        for patch, c in zip(bp["boxes"], colors):
            patch.set_facecolor(c)
            patch.set_alpha(0.5)
        ax.axhline(0, color="k", lw=0.8)
        ax.set_xticks(range(len(budgets)), budgets)
        ax.set_title(f"{setup}: baseline minus RUE, per instance", fontsize=10)
        ax.set_ylabel("error difference")
        ax.grid(alpha=0.3)
        if j == 0:
            shown = [lab for lab in base if any(k[1] == lab for k in here)]
            ax.legend([plt.Rectangle((0, 0), 1, 1, fc=line_style(next(r for k, r in here.items() if k[1] == lab))[0],
                                     alpha=0.5) for lab in shown], shown, fontsize=7)
    axes[0, 0].legend(fontsize=7)
    r0 = sel[0]
    caption(fig, f"N(0.5, 0.1) read as {normal_scale} 0.1 (R1, R2); {r0['instances']} instances x {r0['runs']} runs; "
                 f"bars: standard error over instances; {_describe(sel)}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def two_stage_table(rows: list[dict], tie_rule: str = "random") -> Table:
    """Appendix Figure 4's result rows: the two-stage algorithm over q, RUE and uniform allocation."""
    sel = [r for r in rows if r["study"] == "two-stage"]
    if not sel:
        raise ValueError("two_stage: no rows")
    return _table("two-stage", sel, tie_rule=tie_rule)


def draw_two_stage(t: Table, ax=None):
    """The two-stage algorithm's error against q, one line per budget, with RUE's error at the same
    budget as a dashed line."""
    sel, tie_rule = t.rows, t.meta["tie_rule"]
    fig = ax
    setups = sorted({r["setup"] for r in sel})
    fig = fig or plt.figure(figsize=(5.2 * len(setups), 3.8))
    axes = fig.subplots(1, len(setups), squeeze=False)[0]
    for ax, setup in zip(axes, setups):
        here = [r for r in sel if r["setup"] == setup]
        budgets = sorted({r["budget"] for r in here}, key=lambda b: int(next(r["n"] for r in here if r["budget"] == b)))
        for c, b in zip(("tab:blue", "tab:green", "tab:red"), budgets):
            ts = sorted((q_of(r), float(r["error_rate"]), float(r["ci_low"]), float(r["ci_high"]))
                        for r in here if r["budget"] == b and r["algorithm"] == "two-stage"
                        and f'"tie_rule": "{tie_rule}"' in r["params"])
            q, y, lo, hi = (np.array(v) for v in zip(*ts))
            ax.errorbar(q, y, yerr=[y - lo, hi - y], color=c, marker="o", ms=3, capsize=2,
                        label=f"two-stage, {b}")
            rue = next(r for r in here if r["budget"] == b and r["algorithm"] == "rue")
            ax.axhline(float(rue["error_rate"]), color=c, ls="--", lw=1, label=f"RUE, {b}")
        ax.set_xlabel("q (fraction of the budget in stage 1)")
        ax.set_ylabel("error probability")
        ax.set_title(f"{setup}", fontsize=10)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    caption(fig, f"Two-stage (Komiyama et al. 2023), ties {tie_rule}; exact 95% intervals; "
                 f"{sel[0]['total_runs']} runs per point (F4); {_describe(sel)}.")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def q_of(row: dict) -> float:
    import json
    return json.loads(row["params"])["q"]


fixed_setups = figure(fixed_setups_table, draw_fixed_setups)
random_setups = figure(random_setups_table, draw_random_setups)
two_stage = figure(two_stage_table, draw_two_stage)
