"""The one renderer of the ledger: a claim's verdict, summary, findings, witnesses and repairs, as
plain text (the command line), Markdown (`claims --markdown`, report.md, a reproduction's summary)
and HTML (the report). Every output reads the same view (`finding_view`, `repair_view`), so the
copies cannot drift apart.
"""

from __future__ import annotations

import html
import json
import textwrap

from .ledger.core import PALETTE, ClaimResult, Finding, Repair


# ---------------------------------------------------------------- the view
def tag(f: Finding) -> str:
    """'refuted, certified, reading': a finding's verdict with its qualifiers."""
    return f.verdict + (", certified" if f.certified else "") + (f", {f.kind}" if f.kind != "computed" else "")


def repair_head(x: Repair) -> str:
    return f"repaired ({x.verdict}" + (f"; rue-verify bound {x.formula}" if x.formula else "") + f"): {x.statement}"


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
            for f in r.findings:
                out.append(" " * 4 + f"- [{tag(f)}] {f.domain}: {f.detail}")
                if f.witness:
                    out.append(" " * 6 + "witness: " + json.dumps(f.witness))
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
        lines.append(f"{indent}  - witness: `{json.dumps(f.witness)}`")
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
        lines.append("")
    return lines


def markdown(results: list[ClaimResult], title: str, intro: str) -> str:
    """A whole document: title, intro, the verdict table, then the evidence."""
    return "\n".join([f"# {title}", "", intro, ""] + markdown_table(results) + markdown_evidence(results)) + "\n"


# ---------------------------------------------------------------- HTML
def _badge(verdict: str, text: str) -> str:
    return f'<span class="v" style="background:{PALETTE[verdict]}">{html.escape(text)}</span>'


def html_table(results: list[ClaimResult]) -> str:
    e = html.escape
    rows = []
    for r in results:
        rep = ("" if not r.repairs else " <b>Repaired</b> (" + ", ".join(
            e(f"{x.formula or 'statement'}: {x.verdict}") for x in r.repairs) + ").")
        rows.append(f'<tr><td><a href="#{anchor(r.id)}">{e(r.id)}</a></td><td>{_badge(r.verdict, r.verdict)}</td>'
                    f"<td>{e(r.summary)}{rep}</td></tr>")
    return ('<table><thead><tr><th>claim</th><th>verdict</th><th>summary</th></tr></thead><tbody>\n'
            + "\n".join(rows) + "\n</tbody></table>")


def _html_finding(f: Finding) -> str:
    e = html.escape
    w = f"<pre>{e(json.dumps(f.witness, indent=1))}</pre>" if f.witness else ""
    return f"<li>{_badge(f.verdict, tag(f))} <i>{e(f.domain)}</i>: {e(f.detail)}{w}</li>"


def html_evidence(results: list[ClaimResult]) -> str:
    e = html.escape
    out = []
    for r in results:
        items = [_html_finding(f) for f in r.findings]
        for x in r.repairs:
            items.append(f"<li><b>repaired</b> {_badge(x.verdict, x.verdict)}"
                         + (f" (<code>rue-verify bound {e(x.formula)}</code>)" if x.formula else "")
                         + f": {e(x.statement)}<ul>" + "".join(_html_finding(f) for f in x.findings) + "</ul></li>")
        out.append(f'<section id="{anchor(r.id)}"><h3>{e(r.id)}: {e(r.verdict)}</h3>'
                   f'<p><i>{e(r.location)}.</i> {e(r.statement)}</p><ul>{"".join(items)}</ul></section>')
    return "\n".join(out)
