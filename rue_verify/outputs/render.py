"""The one renderer of the ledger: a claim's verdict, summary, findings, witnesses and repairs, as
plain text (the command line), Markdown (`claims --markdown`, report.md, a reproduction's summary)
and HTML (the report). Every output reads the same view (`finding_view`, `repair_view`), so the
copies cannot drift apart.
"""

from __future__ import annotations

import html
import textwrap

from ..verify import ClaimResult, Finding, Repair
from ..verify.findings import dumps
from .paper_latex import statement_tex

#: The one colour of each verdict (the report's badges, the overview figure).
PALETTE = {"error": "#17202a", "refuted": "#c0392b", "undefined": "#8e44ad", "inconsistent": "#d35400",
           "conditional": "#b7950b", "vacuous": "#7f8c8d", "untested": "#a6acaf", "inconclusive": "#95a5a6",
           "holds": "#1e8449"}


# ---------------------------------------------------------------- the view
def tag(f: Finding) -> str:
    """'refuted, certified, reading': a finding's verdict with its qualifiers."""
    return f.verdict + (", certified" if f.certified else "") + (f", {f.kind}" if f.kind != "computed" else "")


def no_repair_text(r: ClaimResult) -> str | None:
    """Why a claim has no repair, and whether that reason held on this run (`core.NoRepair`)."""
    w = r.no_repair
    if not w:
        return None
    said = {True: "checked", False: "FALSE on this run", None: "not checked on this run"}[w["holds"]]
    return f"no repair: {w['reason']} ({said}: {w['evidence']})"


def formula(name: str | None) -> list | None:
    """The active paper's formula `name` typeset [(term, LaTeX)] (`Paper.formula`), None where the paper
    has no formulas or this one no closed form."""
    from ..verify.papers import paper_of
    p = paper_of(None)
    return p.formula(name) if name and p is not None and p.formula is not None else None


def evaluate_with(name: str | None) -> str:
    """How a reader evaluates the active paper's formula `name` ("rue-verify bound NAME"), '' where the
    paper names no command."""
    from ..verify.papers import paper_of
    p = paper_of(None)
    return p.formula_command.format(name=name) if name and p is not None and p.formula_command else ""


def repair_head(x: Repair) -> str:
    how = evaluate_with(x.formula)
    return f"repaired ({x.verdict}" + (f"; {how}" if how else "") + f"): {x.statement}"


def anchor(cid: str) -> str:
    return "claim-" + cid.replace("/", "-")


def counts(results: list[ClaimResult]) -> str:
    c: dict[str, int] = {}
    for r in results:
        c[r.verdict] = c.get(r.verdict, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in c.items())


# ---------------------------------------------------------------- plain text
def text(results: list[ClaimResult], verbose: bool = False, width: int = 100) -> list[str]:
    """The command line's table: a claim a line (summary wrapped), its repairs under it, and with
    `verbose` every finding and witness."""
    w = max(len(r.id) for r in results)
    out = []
    for r in results:
        line = f"{r.id:<{w}}  {r.verdict:<12}  "
        body = textwrap.wrap(r.summary, width - len(line)) or [""]
        out.append(line + body[0])
        out += [" " * len(line) + b for b in body[1:]]
        if verbose:
            out.append(" " * 4 + f"({r.seconds:.1f} s, {r.mode} mode)")
            for f in r.findings:
                out.append(" " * 4 + f"- [{tag(f)}] {f.domain}: {f.detail}")
                if f.witness:
                    out.append(" " * 6 + "witness: " + dumps(f.witness))
        for x in r.repairs:
            out += [" " * len(line) + b for b in textwrap.wrap(repair_head(x), width - len(line))]
            if verbose:
                out += [" " * (len(line) + 2) + f"- [{tag(f)}] {f.domain}: {f.detail}" for f in x.findings]
    return out


# ---------------------------------------------------------------- Markdown
def markdown_table(results: list[ClaimResult], link: bool = True) -> list[str]:
    lines = ["| claim | verdict | summary |", "|---|---|---|"]
    for r in results:
        cid = f"[{r.id}](#{anchor(r.id)})" if link else r.id
        rep = (" Repaired: " + ", ".join(f"{x.formula or 'statement'} ({x.verdict})" for x in r.repairs) + "."
               if r.repairs else "")
        lines.append(f"| {cid} | **{r.verdict}** | {(r.summary + rep).replace('|', '/')} |")
    return lines + [""]


def _md_finding(f: Finding, indent: str = "") -> list[str]:
    lines = [f"{indent}- **{tag(f)}** ({f.domain}): {f.detail}"]
    if f.witness:
        lines.append(f"{indent}  - witness: `{dumps(f.witness)}`")
    return lines


def markdown_evidence(results: list[ClaimResult], level: int = 2) -> list[str]:
    """Every claim: its statement, every finding with its witness, every repair with its evidence."""
    h = "#" * level
    lines = []
    for r in results:
        lines += [f'<a id="{anchor(r.id)}"></a>', "", f"{h} {r.id}: {r.verdict}", "", f"*{r.location}.* {r.statement}",
                  ""]
        for f in r.findings:
            lines += _md_finding(f)
        for x in r.repairs:
            lines.append(f"- **{repair_head(x)}**")
            for f in x.findings:
                lines += _md_finding(f, "  ")
        if no_repair_text(r):
            lines.append(f"- *{no_repair_text(r)}*")
        lines.append("")
    return lines


def markdown(results: list[ClaimResult], title: str, intro: str) -> str:
    """A whole document: title, intro, the verdict table, then the evidence."""
    return "\n".join([f"# {title}", "", intro, ""] + markdown_table(results) + markdown_evidence(results)) + "\n"


# ---------------------------------------------------------------- HTML
def _badge(verdict: str, text: str) -> str:
    return f'<span class="v" style="background:{PALETTE[verdict]}">{html.escape(text)}</span>'


#: the sections of what a user brings: claims of their own (`claims --claims`), bounds (`--bounds`)
YOURS = ("Your claims", "Your bounds")


def section(cid: str) -> str:
    """The part of the paper a claim belongs to (its declaration's `section`); a bound of yours
    (`check_bound`'s results, IDs 'BOUND:...') is in 'Your bounds'."""
    from ..verify import REGISTRY
    from ..verify.runner import YOUR_SECTION, section_of
    if cid.startswith("BOUND:"):
        return YOURS[1]
    c = REGISTRY.get(cid)
    assert YOURS[0] == YOUR_SECTION
    return section_of(c) if c else "Other"


def yours(cid: str) -> str | None:
    """Which of `YOURS` a result is (a claim of your own, a bound of yours), None for the paper's own."""
    sec = section(cid)
    return next((y for y in YOURS if sec == y or sec.startswith(y + ": ")), None)


def _summary(text: str, limit: int = 180) -> str:
    """A summary shortened at a clause boundary, the full text one click away."""
    from ..verify import shorten
    e = html.escape
    short = shorten(text, limit)
    return e(text) if short == text else f"<details><summary>{e(short)}</summary>{e(text)}</details>"


def html_filters(results: list[ClaimResult]) -> str:
    """Buttons that show the claims of one verdict, a menu of the paper's sections, and a reset: plain
    HTML; the page's inline script applies them to every element with data-verdict/data-section."""
    e = html.escape
    verdicts: dict[str, int] = {}
    for r in results:
        verdicts[r.verdict] = verdicts.get(r.verdict, 0) + 1
    buttons = "".join(f'<button type="button" class="vf" data-v="{e(v)}" aria-pressed="false" '
                      f'style="border-color:{PALETTE[v]}">{_badge(v, v)} {n}</button>' for v, n in verdicts.items())
    options = "".join(f'<option value="{e(x)}">{e(x)}</option>' for x in dict.fromkeys(section(r.id) for r in results))
    return (f'<div id="filters"><b>Show</b> {buttons} <select id="section-filter" aria-label="section">'
            f'<option value="">every section</option>{options}</select> <button type="button" id="reset">all '
            f'{len(results)} claims</button> <span id="shown"></span></div>')


FILTER_SCRIPT = """
(function () {
  var chosen = {}, sel = document.getElementById("section-filter");
  function apply() {
    var any = Object.keys(chosen).some(function (k) { return chosen[k]; }), sec = sel.value, n = 0;
    document.querySelectorAll("[data-verdict]").forEach(function (el) {
      var show = (!any || chosen[el.getAttribute("data-verdict")]) && (!sec || el.getAttribute("data-section") === sec);
      el.hidden = !show;
      if (show && el.tagName === "TR") n++;
    });
    document.getElementById("shown").textContent = n + " shown";
  }
  document.querySelectorAll("button.vf").forEach(function (b) {
    b.addEventListener("click", function () {
      var v = b.getAttribute("data-v");
      chosen[v] = !chosen[v];
      b.setAttribute("aria-pressed", String(chosen[v]));
      apply();
    });
  });
  // a link can carry a filter: index.html#verdict=refuted or #section=Section%206%3A%20the%20experiments
  var h = decodeURIComponent(location.hash.slice(1)), m = h.match(/^(verdict|section)=(.+)$/);
  if (m && m[1] === "verdict") {
    chosen[m[2]] = true;
    document.querySelectorAll("button.vf").forEach(function (b) {
      if (b.getAttribute("data-v") === m[2]) b.setAttribute("aria-pressed", "true");
    });
  } else if (m) { sel.value = m[2]; }
  sel.addEventListener("change", apply);
  document.getElementById("reset").addEventListener("click", function () {
    chosen = {}; sel.value = "";
    document.querySelectorAll("button.vf").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
    apply();
  });
  apply();
})();
"""


def _said(r: ClaimResult) -> str:
    """What the paper says, typeset from its own LaTeX where the claim names a labelled statement (KaTeX
    renders it), with the ledger's plain reading on hover; the plain text otherwise."""
    e = html.escape
    printed = statement_tex(r.location)
    return (f'<div class="paper-tex" title="{e(r.statement)}">{e(printed)}</div>' if printed else e(r.statement))


def html_table(results: list[ClaimResult]) -> str:
    """The ledger as a reader meets it: where the paper says it, what it says, the verdict, and what
    the check found (shortened, the full text one click away); a row per claim, filterable."""
    e = html.escape
    rows = []
    for r in results:
        rep = ("" if not r.repairs else " <b>Repaired</b> (" + ", ".join(
            e(f"{x.formula or 'statement'}: {x.verdict}") for x in r.repairs) + ").")
        rows.append(f'<tr data-verdict="{e(r.verdict)}" data-section="{e(section(r.id))}">'
                    f'<td><a href="#{anchor(r.id)}">{e(r.id)}</a><br><small>{e(r.location)}</small></td>'
                    f"<td>{_said(r)}</td><td>{_badge(r.verdict, r.verdict)}</td>"
                    f"<td>{_summary(r.summary)}{rep}</td></tr>")
    return ('<table id="ledger"><thead><tr><th>claim</th><th>what the paper says</th><th>verdict</th>'
            '<th>what the check found</th></tr></thead><tbody>\n' + "\n".join(rows) + "\n</tbody></table>")


def _html_finding(f: Finding) -> str:
    e = html.escape
    w = f"<pre>{e(dumps(f.witness, indent=1))}</pre>" if f.witness else ""
    return f"<li>{_badge(f.verdict, tag(f))} <i>{e(f.domain)}</i>: {e(f.detail)}{w}{_html_steps(f)}</li>"


def _html_steps(f: Finding) -> str:
    """A proof's steps, each with its status and, where it carries a statement, the statement typeset from
    it (its LaTeX, which KaTeX renders): what the engine decided, not prose about it."""
    if not f.proof:
        return ""
    e = html.escape

    def tex(s):                          # a derivation's link typeset from the expressions it relates
        t = (s.get("link") or {}).get("latex") or s.get("latex")
        return f'<div class="math">\\[{e(t)}\\]</div>' if t else ""
    rows = [f'<li class="step">{e(s["text"])}'
            + (f' <i>[{e(s["justification"])}]</i>' if s.get("justification") else "")
            + f': <b>{e(s["status"])}</b>{tex(s)}</li>' for s in f.proof["steps"]]
    chain = f.proof.get("chain")
    head = ""
    if chain:
        head = (f'<p class="derivation">{"A derivation" if chain.get("closed") else "A chain that does not close"}'
                f' of <span class="math">\\({e(chain["statement"]["latex"])}\\)</span>, built from the formulas:'
                '</p>')
    return head + '<ol class="steps">' + "".join(rows) + "</ol>"


def _html_formula(name: str | None) -> str:
    """A repair's registered formula as display math (KaTeX renders it in the report), typeset from
    the registry's expression (`typeset.formula`); nothing where it has no closed form."""
    terms = formula(name)
    if not terms:
        return ""
    e = html.escape
    parts = [f'<div class="math">{e(k) + ": " if k else ""}\\[{e(tex)}\\]</div>' for k, tex in terms]
    return "".join(parts) + ('<div class="math-note">the bound is the sum of these terms</div>' if len(terms) > 1
                             else "")


def html_evidence(results: list[ClaimResult], figures: dict[str, str] | None = None) -> str:
    """Every claim: its statement, findings, witnesses, repairs, and the figures that bear on it
    (`figures`: claim id -> the HTML of its figures)."""
    e = html.escape
    out = []
    for r in results:
        items = [_html_finding(f) for f in r.findings]
        for x in r.repairs:
            items.append(f"<li><b>repaired</b> {_badge(x.verdict, x.verdict)}"
                         + (f" (<code>{e(evaluate_with(x.formula))}</code>)" if evaluate_with(x.formula) else "")
                         + f": {e(x.statement)}{_html_formula(x.formula)}<ul>"
                         + "".join(_html_finding(f) for f in x.findings) + "</ul></li>")
        if no_repair_text(r):
            items.append(f"<li><i>{e(no_repair_text(r))}</i></li>")
        printed = statement_tex(r.location)
        paper = (f'<details class="paper" open><summary>As the paper typesets it</summary><div class="paper-tex">'
                 f'{e(printed)}</div></details>' if printed else "")
        out.append(f'<section id="{anchor(r.id)}" data-verdict="{e(r.verdict)}" data-section="{e(section(r.id))}">'
                   f'<h3>{e(r.id)}: {_badge(r.verdict, r.verdict)}</h3>'
                   f'<p><i>{e(r.location)}.</i> {e(r.statement)}</p>{paper}<ul>{"".join(items)}</ul>'
                   f'{(figures or {}).get(r.id, "")}</section>')
    return "\n".join(out)
