"""`rue-verify report`: the ledger and every figure family in one static page.

Writes into a directory: `index.html` (no server needed; the figures are files beside it),
`report.md` (the same content in Markdown), `figures/` (PNG, SVG and each figure's table as CSV) and
`COMPLETE.json` (what the run was and when it finished; the page shows the same). Everything is
written into a hidden sibling directory that replaces `out` only when complete, so an interrupted
report leaves the previous complete report (or none), never a mixture. The page leads with filters
(by verdict, by section of the paper) and the ledger's table (each claim's statement beside its
verdict and what the check found, linked to its evidence), then every claim's evidence with the
figures that bear on it, then any other figures. `--quick` simulates with fewer runs,
`--full` with many more; the Section 6 figures and empirical claims read the shipped paper-scale
results unless `--results DIR` names others.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import shutil
import time
from pathlib import Path

from . import __version__, render
from .files import write_text
from .plots.registry import FAMILIES, SCALES, Inputs, Scale, draw_all
from .reproduction.grid import variance_parts


def report(scale: str | Scale = "quick", out: str | Path = "report", thorough: bool = False, results_dir=None,
           progress: bool = True, seed: int = 0, claims=None, workers: int = 1, rates_dir=None) -> dict:
    """Run the ledger and draw every figure family (`plots.FAMILIES`) whose inputs are there, the claims
    and the figures together on `workers` processes; write index.html, report.md and figures/ (PNG, SVG
    and each figure's table as CSV). The output is the same whatever the number of workers.
    results_dir, rates_dir: a reproduction's and a rate study's directories (default: the shipped ones)."""
    if not isinstance(scale, Scale):
        if scale not in SCALES:
            raise ValueError(f"scale must be one of {', '.join(SCALES)}, got {scale!r}")
        scale = SCALES[scale]
    final = Path(out).resolve()
    if final.exists() and not final.is_dir():
        raise ValueError(f"--out: {final} exists and is not a directory")
    others = sorted(set(os.listdir(final)) - set(REPORT_FILES)) if final.is_dir() else []
    if others:
        raise ValueError(f"--out: {final} holds files a report does not write ({', '.join(others[:3])}"
                         f"{', ...' if len(others) > 3 else ''}); a report replaces its whole directory, so choose a "
                         "new or empty one, or a previous report's")
    with staged(final) as out:
        return _report(scale, out, final, thorough, results_dir, progress, seed, claims, workers, rates_dir)


#: everything a report directory holds: the only entries `report` replaces
REPORT_FILES = ("index.html", "report.md", "figures", "COMPLETE.json")


@contextlib.contextmanager
def staged(final: Path):
    """A fresh hidden directory beside `final` that replaces it when the block ends normally, and is
    removed if the block raises; stale ones of dead runs are removed first."""
    final.parent.mkdir(parents=True, exist_ok=True)
    for old in final.parent.glob(f".{final.name}.partial-*"):
        pid = old.name.rsplit("-", 1)[-1]
        if not pid.isdigit() or not Path(f"/proc/{pid}").exists():
            shutil.rmtree(old, ignore_errors=True)
    stage = final.parent / f".{final.name}.partial-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir()
    try:
        yield stage
        previous = final.parent / f".{final.name}.previous-{os.getpid()}"
        if final.exists():
            os.replace(final, previous)
        try:
            os.replace(stage, final)
        except OSError:
            if previous.exists():           # put the previous report back before saying what failed
                os.replace(previous, final)
            raise
        shutil.rmtree(previous, ignore_errors=True)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _report(scale, out: Path, final: Path, thorough, results_dir, progress, seed, claims, workers, rates_dir) -> dict:
    from . import parallel
    from .ledger import LedgerInputs, Mode, collect, select, units
    from .plots.registry import make
    from .progress import bar, counter
    from .rates import load as load_rates
    from .reproduction import load
    t0 = time.perf_counter()
    # a partial reproduction's report judges the claims its results lack on the shipped results
    given = LedgerInputs(str(results_dir) if results_dir else None, str(rates_dir) if rates_dir else None,
                         partial_results=True)
    mode = Mode.thorough(inputs=given) if thorough else Mode(inputs=given)
    rates = load_rates(mode.inputs.rates)
    res = load(mode.inputs.results)
    ids = select(claims)
    inputs = Inputs(scale, seed, tuple(res.rows), rates=mode.inputs.rates)
    names = [n for n, f in FAMILIES.items() if f.available(inputs, ledger=True)]
    drawn_here = [n for n in names if "ledger" in FAMILIES[n].needs]        # they need the ledger's results
    tasks = [(("claims",) + key, fn, a) for key, fn, a in units(ids, mode)]
    tasks += [(("figure", n), make, (n, inputs, out / "figures")) for n in names if n not in drawn_here]
    shown = bar(len(ids) + len(names), "report", "task", progress)       # one step per claim and per figure
    step = counter(shown)
    done = parallel.run(tasks, workers, lambda key: [step(k) for k in (key[1:] if key[0] == "claims" else [key])])
    results = collect(ids, [part for key, part in done.items() if key[0] == "claims"])
    with_ledger = Inputs(scale, seed, tuple(res.rows), tuple(results), mode.inputs.rates)
    for n in drawn_here:
        done[("figure", n)] = make(n, with_ledger, out / "figures")
        step(("figure", n))
    shown.close()
    files = {n: done[("figure", n)] for n in names}
    seconds = time.perf_counter() - t0
    meta = {"version": __version__, "scale": scale.name, "ledger_mode": mode.name, "seed": seed,
            "ledger_seed": mode.seed, "results": res.description, "rates": rates.description,
            "seconds": round(seconds, 1),
            "claims": len(results), "figures": sorted(files), "finished": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    inline = {n: (out / "figures" / f"{n}.svg").read_text() for n in files if FAMILIES[n].inline}
    write_text(out / "index.html", _html(results, files, meta, inline))
    write_text(out / "report.md", _markdown(results, files, meta))
    write_text(out / "COMPLETE.json", json.dumps(meta, indent=1) + "\n")
    return {"out": str(final), "figures": [f"figures/{n}.{e}" for n in files for e in ("png", "svg")],
            "tables": [f"figures/{n}.csv" for n in files], "claims": len(results), "seconds": seconds,
            "workers": workers, **{k: v for k, v in meta.items() if k not in ("claims", "figures")}}


def _intro(meta: dict) -> str:
    return (f"rue-verify {meta['version']}, {meta['scale']} report: ledger mode {meta['ledger_mode']} (seed "
            f"{meta['ledger_seed']}), figure simulations with seed {meta['seed']}, Section 6 figures and empirical "
            f"claims from {meta['results']}, rates and tightness from {meta.get('rates', 'the shipped rate study')}. "
            f"Complete: {meta['claims']} claims and {len(meta['figures'])} figures, "
            f"finished {meta['finished']} after {meta['seconds']} s (the same record is in COMPLETE.json). Every "
            "verdict and figure below is computed.")


def _figure(n: str, c: str, svg: str | None = None) -> str:
    """A figure as the page shows it: its PNG, or (`svg`, a family drawn with links) its SVG inline."""
    e = html.escape
    body = (f'<div class="inline-svg">{svg[svg.index("<svg"):]}</div>'
            if svg else f'<img src="figures/{e(n)}.png" alt="{e(FAMILIES[n].caption)}">')
    return (f'<figure id="fig-{e(n)}">{body}'
            f'<figcaption><b>{e(FAMILIES[n].caption)}</b><br><small>{e(c)} (<a href="figures/{e(n)}.svg">SVG</a>, '
            f'<a href="figures/{e(n)}.csv">data</a>)</small></figcaption></figure>')


def place_figures(results, files: dict) -> tuple[dict[str, str], dict[str, list[str]], list[str]]:
    """Where each figure goes: under the first claim (in the ledger's order) it bears on (`home`:
    figure -> claim), linked from the other claims it bears on (`links`: claim -> figures), or, if it
    bears on none of these claims, apart."""
    ids = [r.id for r in results]
    home: dict[str, str] = {}
    links: dict[str, list[str]] = {}
    apart = []
    for n in files:
        mine = [cid for cid in ids if cid in FAMILIES[n].claims]
        if not mine:
            apart.append(n)
            continue
        home[n] = mine[0]
        for cid in mine[1:]:
            links.setdefault(cid, []).append(n)
    return home, links, apart


def _html(results, files: dict, meta: dict, inline: dict | None = None) -> str:
    e = html.escape
    inline = inline or {}
    home, links, apart = place_figures(results, files)
    figures = {r.id: "".join(_figure(n, files[n], inline.get(n)) for n in files if home.get(n) == r.id)
               + "".join(f'<p class="see">Figure: <a href="#fig-{e(n)}">{e(FAMILIES[n].caption)}</a> '
                         f'(shown under {e(home[n])})</p>' for n in links.get(r.id, [])) for r in results}
    others = "\n".join(_figure(n, files[n], inline.get(n)) for n in apart)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>rue-verify report: Zhu &amp; Qiu (TMLR 2024), RUE</title>
<style>
body {{ font-family: sans-serif; max-width: 1250px; margin: 1em auto; padding: 0 1em; color: #222; }}
h1 {{ font-size: 1.5em; margin: 0.2em 0; }}
table {{ border-collapse: collapse; width: 100%; font-size: 0.88em; }}
td, th {{ border-bottom: 1px solid #ddd; padding: 4px 6px; text-align: left; vertical-align: top; }}
td:nth-child(2) {{ width: 38%; }}
.v {{ color: white; padding: 1px 6px; border-radius: 3px; font-size: 0.85em; white-space: nowrap; }}
#filters {{ position: sticky; top: 0; background: #fff; padding: 6px 0; border-bottom: 2px solid #ccc; z-index: 1; }}
#filters button {{ background: #fff; border: 2px solid #ccc; border-radius: 4px; margin: 2px; cursor: pointer; }}
#filters button[aria-pressed="true"] {{ background: #eef; border-width: 3px; }}
.intro {{ font-size: 0.82em; color: #555; margin: 0.3em 0 0.6em; }}
details summary {{ cursor: pointer; }}
figure {{ margin: 1em 0; }} img {{ max-width: 100%; border: 1px solid #eee; }}
.inline-svg svg {{ max-width: 100%; height: auto; border: 1px solid #eee; }}
section {{ border-top: 1px solid #ddd; margin-top: 1.2em; }}
pre {{ background: #f6f6f6; padding: 4px; font-size: 0.8em; overflow-x: auto; }}
li {{ margin-bottom: 0.4em; }}
</style></head>
<body>
<h1>Which statements of Zhu &amp; Qiu (TMLR 2024) hold, where, and by how much</h1>
<p class="intro">{e(_intro(meta))}</p>
{render.html_filters(results)}
<h2>The claims ledger</h2>
{render.html_table(results)}
<h2>Evidence and figures, claim by claim</h2>
{render.html_evidence(results, figures)}
<h2>Other figures</h2>
{others or "<p>None: every figure is shown beside the claims it bears on.</p>"}
<div id="load-status" data-loaded="-1" data-broken="-1"></div>
<script>
{render.FILTER_SCRIPT}
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
        lines += [f"![{FAMILIES[n].caption}](figures/{n}.png)", "", f"*{FAMILIES[n].caption}* {c}", ""]
    lines += ["## Evidence, claim by claim", ""] + render.markdown_evidence(results, level=3)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the reproduction's own output
def write_reproduction(res: dict) -> dict:
    """Draw the figures of a reproduction (the dict `reproduction.reproduce` returns) into its output
    directory and write summary.md with the empirical claims judged on its rows (read from
    `res["results"]`, by default the output directory itself)."""
    out = Path(res["out"])
    figures = draw(res["rows"], out)
    summary = write_summary(res["rows"], out, res["scale"], res["seed"], res["wall_seconds"], figures,
                            res.get("results", str(out)))
    return {**res, "figures": figures, "summary": summary}


def redraw_reproduction(out: str | Path, results: str | None = None) -> dict:
    """The figures and summary of stored results (`results`: a result directory or 'shipped'; by
    default `out` itself), drawn into `out` without simulating."""
    from .reproduction import load
    res = load(results if results is not None else out)
    m = res.manifest
    return write_reproduction({"out": str(out), "rows": list(res.rows), "scale": m.get("scale", "?"),
                               "seed": m.get("seed", "?"), "wall_seconds": 0.0, "tasks": len(res.rows),
                               "results": res.source})


def draw(rows: list[dict], out: Path) -> list[str]:
    """The figure families drawn from a reproduction's rows alone (PNG, SVG and CSV in `out`)."""
    inputs = Inputs(rows=tuple(rows))
    names = [n for n, f in FAMILIES.items() if f.needs and "ledger" not in f.needs and f.available(inputs)]
    drawn = draw_all(inputs, out, names)
    return [f"{n}.{e}" for n in drawn for e in ("png", "svg", "csv")]


def _cell(r: dict) -> str:
    return f"{float(r['error_rate']):.3f} [{float(r['ci_low']):.3f}, {float(r['ci_high']):.3f}]"


def write_summary(rows: list[dict], out: Path, scale: str, seed: int, wall: float, figures: list[str],
                  results: str | None = None) -> str:
    from .ledger import REGISTRY, LedgerInputs, Mode, run_ledger
    from .reproduction import load
    held = "the paper-scale results shipped with the package" if results == "shipped" else "results.csv"
    lines = [f"# Section 6 reproduced ({scale} scale)", "",
             f"Generated by `rue-verify reproduce --{scale}` (seed {seed}, rue-verify {rows[0]['version']}); "
             f"{len(rows)} rows ({held}); "
             f"this run's simulation wall time {wall:.0f} s (a resumed or redrawn run counts only what it ran). Error "
             "rates with exact 95% intervals.", ""]
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
    stored = load(results if results == "shipped" else (results or str(out)))
    judged = [c.id for c in REGISTRY.values() if c.needs and not stored.lacks(*c.needs)]
    unjudged = [f"{c.id} (these results {stored.lacks(*c.needs)})" for c in REGISTRY.values()
                if c.needs and stored.lacks(*c.needs)]
    results = run_ledger(Mode(inputs=LedgerInputs(None if results == "shipped" else (results or str(out)))), judged)
    lines += ["## The empirical claims on these results", "",
              "Judged by the ledger (`rue-verify claims --results DIR`): paired comparisons, Holm's correction "
              "over each claim's cells; every reading of the paper's ambiguous statements is a separate finding.",
              ""] + (["Not judged here: " + "; ".join(unjudged) + ".", ""] if unjudged else []) \
        + render.markdown_table(results) + render.markdown_evidence(results, level=3)
    write_text(out / "summary.md", "\n".join(lines) + "\n")
    return str(out / "summary.md")
