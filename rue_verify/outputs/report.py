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

from .. import __version__
from ..plots.registry import FAMILIES, SCALES, Inputs, Scale
from ..store.files import write_text
from ..verify.findings import dumps
from . import render
from .citation import cite_this
from .paper_latex import MACROS


def report(scale: str | Scale = "quick", out: str | Path = "report", thorough: bool = False, results_dir=None,
           progress: bool = True, seed: int = 0, claims=None, workers: int = 1, rates_dir=None,
           claim_files: tuple[str, ...] = (), your_bounds: tuple[tuple[str, str], ...] = (), sections=None,
           paper: str = "zhu-qiu", claim_seconds: float | None = None, redraw: bool = False) -> dict:
    """Run the ledger and draw every figure family (`plots.FAMILIES`) whose inputs are there, the claims
    and the figures together on `workers` processes; write index.html, report.md and figures/ (PNG, SVG
    and each figure's table as CSV). The output is the same whatever the number of workers.
    results_dir, rates_dir: a reproduction's and a rate study's directories (default: the shipped ones).
    claim_files: files of your own claims, judged and shown beside the paper's (`ledger.load_claims`).
    your_bounds: (quantity 'failure' or 'regret', 'path/to/file.py:NAME') pairs: your bounds, drawn in
    the landscape beside the paper's, the repaired and the peers' (`user_bounds`).
    claims, sections: only these claim IDs, or the claims of these sections (None: all).
    paper: the paper whose claims to run (`verify.papers.load_paper`: a name, module or .py file); only
    it is loaded. The figure families draw Zhu & Qiu's bounds and RUE's simulations: a report of
    another paper (`Paper.figures` false) has its claims, their evidence and its proof graph's
    statuses, titled by that paper.
    claim_seconds: the time limit of one claim's check (None: the mode's default; 0: none); a claim
    past it, or whose check fails, reads `error` (`errored` in what is returned) and the report goes on.
    redraw: draw every figure, even one whose table is that of the figure shipped with the package (whose
    images are otherwise copied: `plots.ship`)."""
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
    from ..verify.papers import load_paper
    from ..verify.runner import load_claims, select
    the_paper = load_paper(paper)
    for spec in claim_files:
        load_claims(spec)
    ids = _chosen(select(claims), sections)
    if not the_paper.figures and (results_dir or rates_dir or your_bounds):
        raise ValueError(f"--results, --rates and --bounds feed Zhu & Qiu's figures and empirical claims; paper "
                         f"{the_paper.name} reads none of them")
    limit = {} if claim_seconds is None else {"seconds": claim_seconds or None}
    with staged(final) as out:
        if not the_paper.figures:
            return _claims_only(the_paper, paper, scale, out, final, thorough, progress, seed, ids, workers,
                                tuple(claim_files), limit)
        return _report(scale, out, final, thorough, results_dir, progress, seed, ids, workers, rates_dir,
                       tuple(claim_files), tuple(your_bounds), the_paper, limit, redraw)


def _chosen(ids: list[str], sections) -> list[str]:
    """The claims of `ids` in `sections` (None: all); a ParameterError naming 'section' for a section the
    paper does not have, with its sections."""
    if not sections:
        return ids
    from ..errors import ParameterError
    from ..verify import REGISTRY
    from ..verify.runner import section_of
    wanted = [x.strip() for tok in sections for x in tok.split(",") if x.strip()]
    have = list(dict.fromkeys(section_of(REGISTRY[c]) for c in ids))
    unknown = [x for x in wanted if x not in have]
    if unknown:
        raise ParameterError("section", f"no section {', '.join(map(repr, unknown))} in paper {REGISTRY.active!r}; "
                             f"its sections: {', '.join(have)}")
    return [c for c in ids if section_of(REGISTRY[c]) in wanted]


def _claims_only(paper, spec: str, scale, out: Path, final: Path, thorough, progress, seed, ids, workers,
                 claim_files, limit: dict) -> dict:
    """The report of a paper without figures: its claims run (on `workers` processes), their evidence, and
    the page and Markdown titled by the paper."""
    from ..studies.progress import bar, counter
    from ..verify import LedgerInputs, Mode, parallel
    from ..verify.runner import collect, units
    t0 = time.perf_counter()
    given = LedgerInputs(claims=claim_files, paper=spec)
    mode = Mode.thorough(inputs=given, **limit) if thorough else Mode(inputs=given, **limit)
    shown = bar(len(ids), "report", "claim", progress)
    step = counter(shown)
    done = parallel.run(units(ids, mode), workers, lambda key: [step(k) for k in key])
    shown.close()
    results = collect(ids, done.values())
    meta = _meta(scale, mode, seed, paper, time.perf_counter() - t0, results, {}, "")
    return _write(out, final, results, {}, meta, {}, workers, _proof_lines(results, paper), _certificates(results))


def _meta(scale, mode, seed: int, paper, seconds: float, checked, files: dict, reads: str, **extra) -> dict:
    """What a report run was (COMPLETE.json, the page's head): its scale, modes, seeds, paper, inputs
    (`reads`, '' for a paper without figures), size and time."""
    return {"version": __version__, "scale": scale.name, "ledger_mode": mode.name, "seed": seed,
            "ledger_seed": mode.seed, **extra, "paper": paper.title, "short": paper.short or paper.title,
            "citation": paper.citation, "toolkit_paper": bool(paper.figures),
            "reads": reads, "seconds": round(seconds, 1), "claims": len(checked),
            "errored": [r.id for r in checked if r.verdict == "error"],
            "figures": sorted(files), "finished": time.strftime("%Y-%m-%d %H:%M:%S %Z")}


def _proof_lines(checked, paper) -> list[str]:
    """Each theorem's proof as a tree of the steps it uses, with each node's computed status (what `rue-verify
    proofs` prints), from the run's graph; empty when the run has none."""
    from ..verify import graph
    g = getattr(checked, "graph", None)
    if g is None or not g.nodes:
        return []
    lines = graph.trees(g, paper.theorems or graph.roots(g))
    certs = _certificates(checked)
    if certs:
        lines += ["", f"Certificates ({CERTIFICATES}/, one SMT-LIB 2 problem a file: each link z3 decided, with every "
                      "fact it used named; a reader re-decides them with cvc5 or any SMT solver, or with `rue-verify "
                      f"certificates --check {CERTIFICATES}` beside this page):"]
        for node, mine in certs.items():
            lines.append(f"  {node} (proof {g.nodes[node].get('proof') or 'none'}): "
                         + ", ".join(f"{CERTIFICATES}/{c['key']}.json" for c in mine))
    return lines


#: the directory of a report's certificates (`_certificates`)
CERTIFICATES = "certificates"


def _certificates(checked) -> dict[str, list[dict]]:
    """The run's graph's z3 links as certificates, by node (`certify.collect.by_node`); empty without a graph."""
    g = getattr(checked, "graph", None)
    if g is None or not g.nodes:
        return {}
    from ..certify.collect import by_node
    return by_node(g)


def _write(out: Path, final: Path, results, files: dict, meta: dict, inline: dict, workers: int,
           proofs: list[str] | None = None, certificates: dict | None = None) -> dict:
    """The page, its Markdown, the KaTeX assets and COMPLETE.json written into `out` (the staging
    directory); what was written, as `report` returns it. `proofs`: the proofs section's lines; `certificates`:
    node -> its links' certificates, each written as `certificates/<key>.json` with the paper it belongs to."""
    _assets(out)
    for mine in (certificates or {}).values():
        for c in mine:
            (out / CERTIFICATES).mkdir(exist_ok=True)
            named = {**c, "paper": meta["paper"]} if meta.get("paper") else c     # which paper's link it certifies
            write_text(out / CERTIFICATES / f"{c['key']}.json", dumps(named, indent=1, sort_keys=True) + "\n")
    write_text(out / "index.html", _html(results, files, meta, inline, proofs))
    write_text(out / "report.md", _markdown(results, files, meta, proofs))
    write_text(out / "COMPLETE.json", dumps(meta, indent=1) + "\n")
    return {"out": str(final), "figures": [f"figures/{n}.{e}" for n in files for e in ("png", "svg")],
            "tables": [f"figures/{n}.csv" for n in files], "claims": len(results), "seconds": meta["seconds"],
            "workers": workers, **{k: v for k, v in meta.items() if k not in ("claims", "figures")}}


#: everything a report directory holds: the only entries `report` replaces
REPORT_FILES = ("index.html", "report.md", "figures", "COMPLETE.json", "katex", CERTIFICATES)


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


def _figure_seconds() -> dict:
    """Each figure family's measured seconds in a quick report (`rue_verify/data/seconds.json`), so that the report's
    pool starts its longest tasks first; empty where the file is unreadable."""
    import json
    from importlib import resources
    try:
        return json.loads(resources.files("rue_verify").joinpath("data", "seconds.json").read_text())["figures"]
    except Exception:
        return {}


def _report(scale, out: Path, final: Path, thorough, results_dir, progress, seed, ids, workers, rates_dir,
            claim_files, your_bounds, paper, limit: dict, redraw: bool = False) -> dict:
    from ..ledger import LedgerInputs, Mode, collect, load_claims, units
    from ..plots.registry import groups, make, make_group
    from ..rates import load as load_rates
    from ..reproduction import load
    from ..studies.progress import bar, counter
    from ..user_bounds import check_bound, load_bound
    from ..verify import parallel
    from ..verify.runner import unit_seconds
    t0 = time.perf_counter()
    # a partial reproduction's report judges the claims its results lack on the shipped results
    given = LedgerInputs(str(results_dir) if results_dir else None, str(rates_dir) if rates_dir else None,
                         partial_results=True, claims=claim_files)
    for spec in claim_files:
        load_claims(spec)
    mode = Mode.thorough(inputs=given, **limit) if thorough else Mode(inputs=given, **limit)
    rates = load_rates(mode.inputs.rates)
    res = load(mode.inputs.results)
    for _, spec in your_bounds:          # a bound that cannot be judged is refused before anything runs
        load_bound(spec)
    inputs = Inputs(scale, seed, tuple(res.rows), rates=mode.inputs.rates, bounds=tuple(your_bounds),
                    results=mode.inputs.results)
    names = [n for n, f in FAMILIES.items() if f.available(inputs, ledger=True)]
    drawn_here = [n for n in names if "ledger" in FAMILIES[n].needs]        # they need the ledger's results
    tasks = [(("claims",) + key, fn, a) for key, fn, a in units(ids, mode)]
    tasks += [(("figures",) + g, make_group, (g, inputs, out / "figures", redraw))
              for g in groups([n for n in names if n not in drawn_here])]
    took = _figure_seconds()                # longest first, claims and figures together (speed only)
    tasks.sort(key=lambda t: -(unit_seconds(t[0][1:], mode) if t[0][0] == "claims" else
                               sum(took.get(n, 0.0) for n in t[0][1:])))
    shown = bar(len(ids) + len(names), "report", "task", progress)       # one step per claim and per figure
    step = counter(shown)
    done = parallel.run(tasks, workers, lambda key: [step(k if key[0] == "claims" else ("figure", k)) for k in key[1:]])
    for key in [k for k in done if k[0] == "figures"]:
        done.update({("figure", n): caption for n, caption in done.pop(key).items()})
    checked = collect(ids, [part for key, part in done.items() if key[0] == "claims"])
    # your bounds, judged as check-bound judges them
    results = checked + [check_bound(spec, q, "rue", rates_dir=mode.inputs.rates, mode=mode) for q, spec in your_bounds]
    with_ledger = Inputs(scale, seed, tuple(res.rows), tuple(results), mode.inputs.rates, tuple(your_bounds),
                         checked.graph, mode.inputs.results)
    for n in drawn_here:
        done[("figure", n)] = make(n, with_ledger, out / "figures", redraw)
        step(("figure", n))
    shown.close()
    from ..plots.registry import Failed
    files = {n: done[("figure", n)] for n in names if not isinstance(done[("figure", n)], Failed)}
    failed = {n: str(done[("figure", n)]) for n in names if isinstance(done[("figure", n)], Failed)}
    meta = _meta(scale, mode, seed, paper, time.perf_counter() - t0, results, files, paper.inputs_text(mode.inputs),
                 results=res.description, rates=rates.description, figure_errors=failed)
    inline = {n: (out / "figures" / f"{n}.svg").read_text() for n in files if FAMILIES[n].inline}
    return _write(out, final, results, files, meta, inline, workers, _proof_lines(checked, paper),
                  _certificates(checked))


def _intro(meta: dict) -> str:
    draws = (f"figure simulations with seed {meta['seed']}, {meta['reads']}" if meta.get("reads") else
             "no figures (the toolkit's figure families draw its own paper's bounds and simulations; this paper "
             "declares none)")
    return (f"rue-verify {meta['version']}, {meta['scale']} report of {meta.get('paper') or 'its paper'}"
            f": ledger mode {meta['ledger_mode']} (seed {meta['ledger_seed']}), {draws}. "
            f"Complete: {meta['claims']} claims and {len(meta['figures'])} figures, "
            f"finished {meta['finished']} after {meta['seconds']} s (the same record is in COMPLETE.json). Every "
            "verdict and figure below is computed."
            + (f" Not judged, since their check failed: {', '.join(meta['errored'])}." if meta.get("errored") else "")
            + ("".join(f" {v}." for v in meta.get("figure_errors", {}).values())))


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


#: the proofs section's heading and its one line of explanation (the page and the Markdown)
PROOFS_HEAD = "Proofs"
PROOFS_NOTE = ("Each theorem's proof as a tree of the steps it uses, each with the status this run computed (proved: a "
               "derivation whose every link is decided on its whole domain; holds as far as checked: some step "
               "sampled or certified on part of its domain; argued or broken: where, by step). `rue-verify proofs "
               "--node ID` prints a node's derivation link by link.")


def _html(results, files: dict, meta: dict, inline: dict | None = None, proofs: list[str] | None = None) -> str:
    e = html.escape
    inline = inline or {}
    home, links, apart = place_figures(results, files)
    figures = {r.id: "".join(_figure(n, files[n], inline.get(n)) for n in files if home.get(n) == r.id)
               + "".join(f'<p class="see">Figure: <a href="#fig-{e(n)}">{e(FAMILIES[n].caption)}</a> '
                         f'(shown under {e(home[n])})</p>' for n in links.get(r.id, [])) for r in results}
    others = "\n".join(_figure(n, files[n], inline.get(n)) for n in apart)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>rue-verify report: {e(meta["paper"])}</title>
<link rel="stylesheet" href="katex/katex.min.css">
<script defer src="katex/katex.min.js"></script>
<script defer src="katex/contrib/auto-render.js"></script>
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
.math {{ overflow-x: auto; }} .math-note {{ font-size: 0.8em; color: #555; }}
details.paper {{ margin: 0 0 0.5em; }} .paper-tex {{ background: #fafaf4; padding: 4px 8px; overflow-x: auto; }}
</style></head>
<body>
<h1>Which statements of {e(meta["short"])} hold, where, and by how much</h1>
<p class="intro">{e(_intro(meta))}</p>
{render.html_filters(results)}
<h2>The claims ledger</h2>
{render.html_table(results)}
{_html_proofs(proofs)}
<h2>Evidence and figures, claim by claim</h2>
{render.html_evidence(results, figures)}
{"<h2>Other figures</h2>" + (others or "<p>None: every figure is shown beside the claims it bears on.</p>")
 if files else ""}
<div id="load-status" data-loaded="-1" data-broken="-1"></div>
<div id="math-status" data-rendered="-1" data-errors="-1"></div>
<p class="intro">{e(cite_this(meta.get("citation") or None, meta.get("toolkit_paper", True)))}</p>
<script>
{render.FILTER_SCRIPT}
{MATH_SCRIPT}
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


#: renders every formula with the vendored KaTeX (offline), with the paper's macros, and records how
#: many rendered and how many failed (the browser test reads #math-status)
MATH_SCRIPT = """window.addEventListener("load", function () {
  var s = document.getElementById("math-status");
  if (typeof renderMathInElement !== "function") { s.setAttribute("data-errors", "missing"); return; }
  renderMathInElement(document.body, {delimiters: [
      {left: "\\\\[", right: "\\\\]", display: true}, {left: "$$", right: "$$", display: true},
      {left: "\\\\begin{align*}", right: "\\\\end{align*}", display: true},
      {left: "\\\\begin{align}", right: "\\\\end{align}", display: true},
      {left: "\\\\begin{equation}", right: "\\\\end{equation}", display: true},
      {left: "\\\\begin{equation*}", right: "\\\\end{equation*}", display: true},
      {left: "$", right: "$", display: false}],
    macros: """ + json.dumps(MACROS) + """, throwOnError: false, ignoredTags: ["script", "style", "pre", "code"]});
  s.setAttribute("data-rendered", String(document.querySelectorAll(".katex").length));
  s.setAttribute("data-errors", String(document.querySelectorAll(".katex-error").length));
});"""


def _assets(out: Path) -> None:
    """The vendored KaTeX beside the page (`assets/katex`, with its licence), so the math renders
    offline."""
    from importlib import resources
    src = resources.files("rue_verify").joinpath("assets/katex")

    def copy(node, dest: Path):
        dest.mkdir(parents=True, exist_ok=True)
        for item in node.iterdir():
            if item.is_dir():
                copy(item, dest / item.name)
            else:
                (dest / item.name).write_bytes(item.read_bytes())
    copy(src, out / "katex")


def _html_proofs(proofs: list[str] | None) -> str:
    if not proofs:
        return ""
    import re
    body = re.sub(rf"{CERTIFICATES}/([0-9a-f]{{64}})\.json",          # each certificate a link to its file
                  lambda m: f'<a href="{m.group(0)}">{m.group(0)}</a>', html.escape("\n".join(proofs)))
    return (f'<h2 id="proofs">{PROOFS_HEAD}</h2>\n<p class="intro">{html.escape(PROOFS_NOTE)}</p>\n<pre>'
            + body + "</pre>")


def _markdown(results, files: dict, meta: dict, proofs: list[str] | None = None) -> str:
    paper = [r for r in results if render.yours(r.id) is None]
    lines = [f"# Which statements of {meta['short']} hold, where, and by how much", "", _intro(meta), "",
             "## The claims ledger", ""] + render.markdown_table(paper)
    for name in render.YOURS:                        # your claims and bounds under a heading of their own
        mine = [r for r in results if render.yours(r.id) == name]
        lines += [f"## {name}", ""] + render.markdown_table(mine) if mine else []
    lines += ["## Figures", ""] if files else []
    for n, c in files.items():
        lines += [f"![{FAMILIES[n].caption}](figures/{n}.png)", "", f"*{FAMILIES[n].caption}* {c}", ""]
    if proofs:
        lines += [f"## {PROOFS_HEAD}", "", PROOFS_NOTE, "", "```"] + proofs + ["```", ""]
    lines += ["## Evidence, claim by claim", ""] + render.markdown_evidence(results, level=3)
    return "\n".join(lines) + "\n"
