"""`rue-verify report`: the ledger and every figure family in one static page.

Writes into a directory: `index.html` (no server needed; the figures are files beside it),
`report.md` (the same content in Markdown) and `figures/` (PNG and SVG). The page leads with the
ledger's table (verdict, one-line summary, a link to each claim's evidence and witness), then the
figures with their captions, then every claim's findings. `--quick` simulates with fewer runs;
`--full` with many more, and takes the reproduction's figures from its stored paper-scale results.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass
from pathlib import Path

from . import __version__, plots, render
from .files import write_text
from .reproduction.grid import variance_parts


@dataclass(frozen=True)
class Scale:
    name: str
    mc_draws: int        # Theorem 3.1's Monte Carlo
    rue_runs: int        # Theorems 5.1, 5.2 and the tau lemma
    ucbe_runs: int
    full_info_pairs: int


QUICK = Scale("quick", 100_000, 120, 1000, 100_000)
FULL = Scale("full", 1_000_000, 1000, 10_000, 1_000_000)

CAPTIONS = {
    "ledger-overview": "The ledger at a glance: the verdicts of every claim, by place in the paper.",
    "theorem-3-1": "Theorem 3.1: the exact probability that the two best of K Gaussian means are within alpha, its "
                   "bound c_K alpha / sigma0 (not real for K < 36), and a Monte Carlo check.",
    "c-K-constant": "c_K and the repaired C_K against the smallest constant that makes Theorem 3.1 true, "
                    "K = 2 ... 10^4.",
    "theorem-5-1": "Theorem 5.1's terms and sum against RUE's simulated failure probability.",
    "theorem-5-2": "Theorem 5.2's terms and sum against RUE's simulated simple regret.",
    "ucbe-bound": "Section 2: UCB-E's bound against simulated UCB-E.",
    "full-information": "Section 2.1: the full-information error against Feller's lower bound.",
    "informative-region": "Where Theorem 5.1 falls below 1, for several K.",
    "tau-lemma": "Lemma sec:tau on the allocations RUE produces: both sides of the lemma.",
    "figure3-fixed": "Reproduction of Figure 3: fixed means, K = 20 (H over the suboptimal arms).",
    "figure2-random": "Reproduction of Figure 2: random means, N(0.5, 0.1) read as standard deviation 0.1 (the reading "
                      "that matches the paper's median H).",
    "figure5-more-arms": "Reproduction of the appendix's Figure 5: F4 with K = 40 and 80.",
    "figure4-two-stage": "Reproduction of the appendix's Figure 4: the two-stage algorithm against q.",
}


def figures(scale: Scale, results, rows, seed: int = 0) -> dict:
    """name -> a function that draws that figure, in the page's order."""
    out = {"ledger-overview": lambda: plots.ledger_overview(results),
           "theorem-3-1": lambda: plots.theorem_3_1(draws=scale.mc_draws, seed=seed),
           "c-K-constant": plots.c_K_constant,
           "theorem-5-1": lambda: plots.theorem_5_1(runs=scale.rue_runs, seed=seed),
           "theorem-5-2": lambda: plots.theorem_5_2(runs=scale.rue_runs, seed=seed),
           "ucbe-bound": lambda: plots.ucbe_bound(runs=scale.ucbe_runs, seed=seed),
           "full-information": lambda: plots.full_information(runs=scale.full_info_pairs, seed=seed),
           "informative-region": plots.informative_region,
           "tau-lemma": lambda: plots.tau_lemma(runs=scale.rue_runs, seed=seed)}
    studies = {r["study"] for r in rows}
    if "fixed" in studies:
        out["figure3-fixed"] = lambda: plots.fixed_setups(rows, study="fixed")
    if "random" in studies:
        out["figure2-random"] = lambda: plots.random_setups(rows, normal_scale="sd")
    if "arms" in studies:
        out["figure5-more-arms"] = lambda: plots.fixed_setups(rows, study="arms")
    if "two-stage" in studies:
        out["figure4-two-stage"] = lambda: plots.two_stage(rows)
    return out


def report(scale: str | Scale = "quick", out: str | Path = "report", thorough: bool = False, results_dir=None,
           progress: bool = True, seed: int = 0, claims=None) -> dict:
    """Run the ledger, draw every figure family, write index.html, report.md and figures/."""
    from .ledger import Mode, run_ledger
    from .reproduction import load
    if not isinstance(scale, Scale):
        if scale not in ("quick", "full"):
            raise ValueError(f"scale must be 'quick' or 'full', got {scale!r}")
        scale = QUICK if scale == "quick" else FULL
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out: {out} exists and is not a directory")
    (out / "figures").mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    mode = Mode.thorough() if thorough else Mode()
    mode.results = str(results_dir) if results_dir else None
    import sys

    from tqdm import tqdm
    bar = tqdm(desc="report: ledger", unit="step", file=sys.stderr, disable=not progress, leave=False)
    results = run_ledger(mode, claims, progress=lambda cid: bar.set_postfix_str(cid))
    res = load(mode.results)
    rows = list(res.rows)
    draw = figures(scale, results, rows, seed)
    bar.reset(total=len(draw))
    bar.set_description("report: figures")
    files = {}
    for name, make in draw.items():
        bar.set_postfix_str(name)
        fig = make()
        caption = next((t.get_text() for t in fig.texts), "")
        plots.save(fig, out / "figures" / name)
        files[name] = caption
        bar.update()
    bar.close()
    seconds = time.perf_counter() - t0
    meta = {"version": __version__, "scale": scale.name, "ledger_mode": mode.name, "seed": seed,
            "ledger_seed": mode.seed, "results": res.description, "seconds": round(seconds, 1)}
    write_text(out / "index.html", _html(results, files, meta))
    write_text(out / "report.md", _markdown(results, files, meta))
    return {"out": str(out), "figures": [f"figures/{n}.png" for n in files] + [f"figures/{n}.svg" for n in files],
            "claims": len(results), "seconds": seconds, **meta}


def _intro(meta: dict) -> str:
    return (f"rue-verify {meta['version']}, {meta['scale']} report: ledger mode {meta['ledger_mode']} (seed "
            f"{meta['ledger_seed']}), figure simulations with seed {meta['seed']}, Section 6 figures and empirical "
            f"claims from {meta['results']}; built in {meta['seconds']} s. Every verdict and figure below is computed.")


def _html(results, files: dict, meta: dict) -> str:
    e = html.escape
    figs = "\n".join(
        f'<figure id="fig-{e(n)}"><img src="figures/{e(n)}.png" alt="{e(CAPTIONS.get(n, n))}">'
        f'<figcaption><b>{e(CAPTIONS.get(n, n))}</b><br><small>{e(c)} '
        f'(<a href="figures/{e(n)}.svg">SVG</a>)</small></figcaption></figure>' for n, c in files.items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>rue-verify report: Zhu &amp; Qiu (TMLR 2024), RUE</title>
<style>
body {{ font-family: sans-serif; max-width: 1150px; margin: 2em auto; padding: 0 1em; color: #222; }}
table {{ border-collapse: collapse; width: 100%; font-size: 0.9em; }}
td, th {{ border-bottom: 1px solid #ddd; padding: 4px 6px; text-align: left; vertical-align: top; }}
.v {{ color: white; padding: 1px 6px; border-radius: 3px; font-size: 0.85em; white-space: nowrap; }}
figure {{ margin: 2em 0; }} img {{ max-width: 100%; border: 1px solid #eee; }}
pre {{ background: #f6f6f6; padding: 4px; font-size: 0.8em; overflow-x: auto; }}
li {{ margin-bottom: 0.4em; }}
</style></head>
<body>
<h1>Which statements of Zhu &amp; Qiu (TMLR 2024) hold, where, and by how much</h1>
<p>{e(_intro(meta))}</p>
<h2>The claims ledger</h2>
{render.html_table(results)}
<h2>Figures</h2>
{figs}
<h2>Evidence, claim by claim</h2>
{render.html_evidence(results)}
<div id="load-status" data-loaded="-1" data-broken="-1"></div>
<script>
window.addEventListener("load", function () {{
  var imgs = Array.prototype.slice.call(document.images);
  var broken = imgs.filter(function (i) {{ return !(i.complete && i.naturalWidth > 0); }}).length;
  var s = document.getElementById("load-status");
  s.setAttribute("data-loaded", String(imgs.length - broken));
  s.setAttribute("data-broken", String(broken));
}});
</script>
</body></html>
"""


def _markdown(results, files: dict, meta: dict) -> str:
    lines = ["# Which statements of Zhu & Qiu (TMLR 2024) hold, where, and by how much", "", _intro(meta), "",
             "## The claims ledger", ""] + render.markdown_table(results) + ["## Figures", ""]
    for n, c in files.items():
        lines += [f"![{CAPTIONS.get(n, n)}](figures/{n}.png)", "", f"*{CAPTIONS.get(n, n)}* {c}", ""]
    lines += ["## Evidence, claim by claim", ""] + render.markdown_evidence(results, level=3)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the reproduction's own output
def write_reproduction(res: dict) -> dict:
    """Draw the figures of a reproduction (the dict `reproduction.reproduce` returns) into its result
    directory and write summary.md with the empirical claims judged on its rows."""
    out = Path(res["out"])
    figures = draw(res["rows"], out)
    summary = write_summary(res["rows"], out, res["scale"], res["seed"], res["wall_seconds"], figures)
    return {**res, "figures": figures, "summary": summary}


def draw(rows: list[dict], out: Path) -> list[str]:
    studies = {r["study"] for r in rows}
    made = []
    if "fixed" in studies:
        for h in sorted({r["H_convention"] for r in rows if r["study"] == "fixed"}):
            made += plots.save(plots.fixed_setups(rows, study="fixed", H_convention=h), out / f"figure3-fixed-H-{h}")
    if "arms" in studies:
        made += plots.save(plots.fixed_setups(rows, study="arms"), out / "figure5-more-arms")
    if "random" in studies:
        for ns in ("variance", "sd"):
            made += plots.save(plots.random_setups(rows, normal_scale=ns), out / f"figure2-random-{ns}")
    if "two-stage" in studies:
        made += plots.save(plots.two_stage(rows), out / "figure4-two-stage")
    return [str(Path(p).name) for p in made]


def _cell(r: dict) -> str:
    return f"{float(r['error_rate']):.3f} [{float(r['ci_low']):.3f}, {float(r['ci_high']):.3f}]"


def write_summary(rows: list[dict], out: Path, scale: str, seed: int, wall: float, figures: list[str]) -> str:
    from .ledger import Mode, run_ledger
    from .ledger.section6 import NEEDS
    lines = [f"# Section 6 reproduced ({scale} scale)", "",
             f"Generated by `rue-verify reproduce --{scale}` (seed {seed}, rue-verify {rows[0]['version']}); "
             f"{len(rows)} rows in results.csv; this run's simulation wall time {wall:.0f} s (a resumed run counts "
             f"only what it ran). Error rates with exact 95% intervals.", ""]
    for study, title in (("fixed", "Figure 3: fixed means (F1-F6, K = 20)"), ("arms", "Figure 5: F4 with more arms"),
                         ("random", "Figure 2: random means (mean over instances)"),
                         ("two-stage", "Figure 4: the two-stage algorithm")):
        sel = [r for r in rows if r["study"] == study]
        if not sel:
            continue
        lines += [f"## {title}", ""]
        labels = list(dict.fromkeys(r["label"] for r in sel))
        keys = list(dict.fromkeys((r["setup"], r["K"], r["normal_scale"], r["H_convention"], r["budget"], r["n"])
                                  for r in sel))
        lines += ["| setup | K | reading | budget | n | " + " | ".join(labels) + " |",
                  "|---|---|---|---|---|" + "---|" * len(labels)]
        for k in keys:
            cell = {r["label"]: r for r in sel if (r["setup"], r["K"], r["normal_scale"], r["H_convention"],
                                                  r["budget"], r["n"]) == k}
            reading = k[2] if k[2] != "-" else ("H " + k[3] if study in ("fixed", "arms") else "-")
            lines.append(f"| {k[0]} | {k[1]} | {reading} | {k[4]} | {k[5]} | "
                         + " | ".join(_cell(cell[lab]) if lab in cell else "" for lab in labels) + " |")
        lines.append("")
        if study == "random":
            parts = [variance_parts(r) for r in sel]
            share = sorted(w / (b + w) for b, w in parts if b + w > 0)
            lines += [f"Uncertainty of the mean over instances: the within-instance part (finite runs) is "
                      f"{share[0]:.1%}-{share[-1]:.1%} of the variance (median {share[len(share) // 2]:.1%}); "
                      "the rest is between instances, which more runs per instance cannot reduce.", ""]
    lines += ["## Figures", ""] + [f"![{f}]({f})" for f in figures if f.endswith(".png")] + [""]
    have = {r["study"] for r in rows}
    results = run_ledger(Mode(results=str(out)), [c for c, need in NEEDS.items() if set(need) <= have])
    lines += ["## The empirical claims on these results", "",
              "Judged by the ledger (`rue-verify claims --results DIR`): paired comparisons, Holm's correction "
              "over each claim's cells; every reading of the paper's ambiguous statements is a separate finding.",
              ""] + render.markdown_table(results) + render.markdown_evidence(results, level=3)
    write_text(out / "summary.md", "\n".join(lines) + "\n")
    return str(out / "summary.md")
