"""`rue-verify erratum`: a standalone LaTeX document for the paper's authors and reviewers, written
from the ledger's results. For every claim judged refuted, undefined or inconsistent it gives the
statement as printed and where, the verdict with its witness as numbers, each repaired statement,
and the repair's checks and proof (status, the weakest method behind it, and the route of its steps).

The repaired formulas are typeset by `sympy.latex` from the very expressions the ledger evaluated
(`bounds.registry.symbolic` of the repair's registered formula), never retyped; `tests/test_erratum`
parses every typeset formula back and evaluates it against the registry at random points. Claims are
grouped by theorem, Theorems 3.1, 5.1 (with its proof's lemmas) and 5.2 first.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass

from .. import __version__
from ..verify.proofs import PROOF_WORDS
from .citation import cite_this
from .paper_latex import statement_tex
from .render import formula

#: the verdicts an erratum lists
LISTED = ("refuted", "undefined", "inconsistent")
#: the groups that come first, in order: a claim belongs to the first whose test its location passes
THEOREMS = (("Theorem 3.1", lambda loc: loc.startswith("Theorem 3.1")),
            ("Theorem 5.1 and its proof", lambda loc: "Theorem 5.1" in loc or "TwoBoundOnC" in loc
             or loc.startswith("Theorems 5.1")),
            ("Theorem 5.2", lambda loc: loc.startswith("Theorem 5.2")))
#: a marker line before each typeset formula: `%% formula NAME TERM` (the round-trip test reads them)
MARK = "%% formula"


def display(name: str, term: str, tex: str) -> str:
    """A typeset formula on its own line, scaled down only where it is wider than the text
    (`\\fitmath`), after a marker line that names its registry entry and term."""
    return f"{MARK} {name} {term or '-'}\n\\begin{{center}}\\fitmath{{{tex}}}\\end{{center}}"


_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
            "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
            ">": r"\textgreater{}", "|": r"\textbar{}"}


def text(s: str) -> str:
    """Plain text as LaTeX: every special character escaped, so a statement reads as printed."""
    return "".join(_SPECIAL.get(c, c) for c in str(s))


def group_of(location: str) -> str:
    for name, test in THEOREMS:
        if test(location):
            return name
    return re.split(r"[,(]", location)[0].strip()


def _witness(r) -> dict | None:
    return next((f.witness for f in r.findings if f.witness and f.verdict == r.verdict), None)


def _witness_tex(w: dict) -> list[str]:
    """A witness as numbers: its parameters, then both sides and the relation, or its note."""
    rows = [(k, v) for k, v in (w.get("params") or {}).items()]
    rows += [(k, w[k]) for k in ("lhs", "relation", "rhs", "note") if w.get(k) is not None]
    rows += [(k, v) for k, v in w.items() if k not in ("params", "lhs", "relation", "rhs", "note")
             and isinstance(v, (int, float, str)) and not isinstance(v, bool)]
    out = [r"\begin{tabular}{@{}lp{0.75\linewidth}@{}}"]
    out += [rf"\texttt{{{text(k)}}} & {text(_number(v))}\\" for k, v in rows]
    return out + [r"\end{tabular}"]


#: a witness value longer than this is cut (the whole witness is in `claims --json`)
LONGEST = 90


def _number(v) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    s = json.dumps(v) if isinstance(v, (list, dict)) else str(v)
    return s if len(s) <= LONGEST else f"{s[:LONGEST]}... ({len(s)} characters; all of it in claims --json)"


def _proof_tex(p: dict) -> list[str]:
    """The repair's proof: its status, the weakest method behind a step, and each step with its status."""
    head = rf"\emph{{Proof:}} {text(PROOF_WORDS.get(p['status'], p['status']))}"
    if p.get("weakest") and p["status"] == "checked":
        head += rf"; the weakest step is {text(p['weakest'])}"
    if p["status"] == "argued" and p.get("argued"):      # what is not established, not what is
        head += rf"; not established at step(s) {text(', '.join(map(str, p['argued'])))}"
    if p.get("broken_at"):
        head += rf"; broken at step(s) {text(', '.join(map(str, p['broken_at'])))}"
    chain = p.get("chain")
    if chain:
        out = [head + (". It is a derivation: a chain of links from the statement's left side, computed from the "
                       "formulas, to its right side" if chain.get("closed") else ". Its chain does not close: the "
                       "links do not run from the statement's one side to the other") + ":"]
        out.append(rf"\begin{{center}}\fitmath{{{chain['statement']['latex']}}}\end{{center}}")
    else:
        out = [head + "."]
    if p.get("steps"):
        out.append(r"\begin{enumerate}\itemsep0pt")
        for s in p["steps"]:
            uses = rf" (rests on \texttt{{{text(s['uses'])}}})" if s.get("uses") else ""
            how = rf" [{text(s['justification'])}]" if s.get("justification") else ""
            cert = _certificate_name(s)
            cert = rf" (certificate \texttt{{{text(cert)}}})" if cert else ""
            out.append(rf"\item {text(s['text'])}{uses}{how}: \textbf{{{text(s['status'])}}}{cert}")
            link = s.get("link") or {}
            if link.get("latex"):               # the link itself, typeset from the expressions it relates
                out.append(rf"\\ \fitmath{{{link['latex']}}}")
            elif s.get("latex"):               # the statement the engine decided, typeset from it
                out.append(rf"\\ \fitmath{{{s['latex']}}}")
        out.append(r"\end{enumerate}")
    return out


#: where the erratum's certificates are written, beside erratum.tex (`write`)
CERTIFICATES = "certificates"


def _certificate_name(row: dict, short: bool = True) -> str | None:
    """The file of a certified z3 step's SMT-LIB certificate (`certify.collect`'s key: its statement and the
    engine's source hash), first 12 hex digits and an ellipsis where `short`; None for any other step."""
    if row.get("status") != "certified" or not isinstance(row.get("smt2"), str) or not row.get("statement"):
        return None
    from ..certify.collect import source_hash
    from ..certify.smt import key
    k = key(row["statement"], source_hash())
    return f"{CERTIFICATES}/{k[:12]}...json" if short else f"{CERTIFICATES}/{k}.json"


@dataclass(frozen=True)
class Provenance:
    """What a run was: its mode, seed and coverage, what it read (`results`, and `rates` where the paper
    reads a rate study; empty otherwise), its date, and the paper: its title, its citation, and how its
    statements are typeset as printed (`statement_tex`: a claim's location -> the paper's LaTeX, None
    where the paper's source is not at hand)."""

    mode: str
    seed: int
    coverage: str
    results: str
    rates: str
    date: str = ""
    paper: str = "Zhu & Qiu (TMLR 2024)"
    citation: str = ""
    statement_tex: object = statement_tex
    #: the paper is the toolkit's own (Zhu & Qiu's): the citation line names the toolkit as built for it
    toolkit_paper: bool = True


def write(paper, mode, results, out, ids=None) -> tuple[str, int]:
    """The erratum of a run of `paper`'s claims (`results`, in `mode`) written to `out`/erratum.tex (whole,
    or not at all); `ids`: the claims listed (None: every one refuted, undefined or inconsistent). Returns
    (the file's path, the number of claims listed). The command line's `erratum` is this and a print."""
    from pathlib import Path

    from ..store.files import write_text
    reads = paper.inputs_text(mode.inputs) if paper.inputs_text else "no inputs besides its claims"
    prov = Provenance(mode.name, mode.seed, mode.coverage(), reads, "", paper=paper.title, citation=paper.citation,
                      statement_tex=paper.statement_tex, toolkit_paper=bool(paper.figures))
    tex = Path(out) / "erratum.tex"
    listed = [r for r in results if r.verdict in LISTED and (ids is None or r.id in ids)]
    for r in listed:              # each repair's certified z3 steps, as the erratum names them (`_certificate_name`)
        from ..certify.collect import row_certificates
        for c in row_certificates(list(r.repairs)) if r.repairs else []:
            write_text(Path(out) / CERTIFICATES / f"{c['key']}.json", json.dumps(c, indent=1, sort_keys=True) + "\n")
    write_text(tex, document(results, prov, ids))
    return str(tex), sum(r.verdict in LISTED and (ids is None or r.id in ids) for r in results)


def document(results, provenance: Provenance, ids=None) -> str:
    """The erratum as one LaTeX document: a summary table, then one section per group of claims (the
    theorems first), each listed claim with its witness and repairs, then the provenance."""
    listed = [r for r in results if r.verdict in LISTED and (ids is None or r.id in ids)]
    order = [name for name, _ in THEOREMS]
    groups: dict[str, list] = {}
    for r in listed:
        groups.setdefault(group_of(r.location), []).append(r)
    ordered = [g for g in order if g in groups] + [g for g in groups if g not in order]
    date = provenance.date or datetime.date.today().isoformat()
    out = [r"\documentclass[10pt]{article}", r"\usepackage[margin=2cm]{geometry}", r"\usepackage{amsmath,amssymb}",
           r"\usepackage{longtable}", r"\usepackage[T1]{fontenc}",
           r"\usepackage{graphicx}", r"\setlength{\parindent}{0pt}", r"\setlength{\parskip}{4pt}",
           r"\newsavebox{\eqbox}",
           r"\newcommand{\fitmath}[1]{\sbox{\eqbox}{$\displaystyle #1$}\ifdim\wd\eqbox>\linewidth"
           r"\resizebox{\linewidth}{!}{\usebox{\eqbox}}\else\usebox{\eqbox}\fi}",
           # the paper's own macros, for its statements typeset as printed
           r"\newcommand{\E}[1]{\mathbb{E}\left[#1\right]}",
           r"\newcommand{\condE}[2]{\mathbb{E}\left[#1\,\middle|\,#2\right]}",
           r"\newcommand{\prob}[1]{\text{Pr}\left(#1\right)}",
           rf"\title{{Erratum: {text(provenance.paper)}}}",
           rf"\author{{Computed by rue-verify {text(__version__)}}}", rf"\date{{{text(date)}}}",
           r"\begin{document}", r"\maketitle",
           rf"This document lists every statement of {text(provenance.paper)} that the rue-verify ledger judged "
           r"refuted, undefined or inconsistent, with a witness as numbers and, where one exists, the repaired "
           r"statement. Each repaired formula is typeset from the expression the ledger evaluated; none is "
           r"retyped.", "",
           r"\section*{Summary}", r"\begin{longtable}{@{}p{0.2\textwidth}p{0.36\textwidth}p{0.12\textwidth}"
           r"p{0.24\textwidth}@{}}", r"claim & where & verdict & repair (checked; proof)\\ \hline \endhead"]
    for g in ordered:
        for r in groups[g]:
            rep = "; ".join(f"{x.verdict}; " + (PROOF_WORDS.get(x.proof["status"], x.proof["status"])
                                                + (f" (weakest: {x.proof['weakest']})" if x.proof["status"] == "checked"
                                                   else "") if x.proof else "no proof")
                            for x in r.repairs) or "none"
            out.append(rf"{text(r.id)} & {text(r.location)} & {text(r.verdict)} & {text(rep)}\\")
    out.append(r"\end{longtable}")
    errored = [r for r in results if r.verdict == "error" and (ids is None or r.id in ids)]
    if errored:                         # not judged: the erratum cannot say they are right
        out += [r"\section*{Claims not judged}",
                rf"The check of {len(errored)} claim(s) failed, so this erratum says nothing of them:",
                r"\begin{itemize}"]
        out += [rf"\item {text(r.id)} ({text(r.location)}): {text(r.summary)}" for r in errored]
        out.append(r"\end{itemize}")
    for g in ordered:
        out.append(rf"\section{{{text(g)}}}")
        for r in groups[g]:
            out += _claim_tex(r, provenance.statement_tex)
    out += [r"\section*{Provenance}", r"\begin{tabular}{@{}ll@{}}",
            rf"rue-verify & {text(__version__)}\\", rf"mode and seed & {text(provenance.mode)}, "
                                                      rf"seed {provenance.seed}\\",
            rf"inputs & {text(provenance.results)}\\"] + ([rf"rate study & {text(provenance.rates)}\\"]
                                                            if provenance.rates else []) + [
            rf"date & {text(date)}\\", r"\end{tabular}", "", rf"Covered: {text(provenance.coverage)}", "",
            rf"\emph{{{text(cite_this(provenance.citation or None, provenance.toolkit_paper))}}}",
            r"\end{document}", ""]
    return "\n".join(out)


def _as_printed(tex: str) -> str:
    """The paper's LaTeX of a statement, as it compiles here: its labels dropped (they would clash with
    each other), everything else as the paper wrote it."""
    return re.sub(r"\\label\{[^}]*\}", "", tex).strip()


def _claim_tex(r, typeset=statement_tex) -> list[str]:
    printed = typeset(r.location) if typeset else None
    said = ([rf"\emph{{{text(r.location)}.}} As the paper typesets it:", rf"\begin{{quote}}{_as_printed(printed)}"
             r"\end{quote}", rf"In the ledger's words: {text(r.statement)}"] if printed else
            [rf"\emph{{{text(r.location)}.}} As printed:", rf"\begin{{quote}}{text(r.statement)}\end{{quote}}"])
    out = [rf"\subsection*{{{text(r.id)}: {text(r.verdict)}}}", *said,
           rf"\emph{{What the ledger found:}} {text(r.summary)}"]
    w = _witness(r)
    if w:
        out += ["", r"\emph{Witness:}", ""] + _witness_tex(w) + [""]
    if not r.repairs:
        reason = (r.no_repair or {}).get("reason")
        out.append(rf"\emph{{No repair:}} {text(reason or 'none is given')}.")
    for x in r.repairs:
        out += [rf"\emph{{Repaired statement}} ({text(x.verdict)} when checked):",
                rf"\begin{{quote}}{text(x.statement)}\end{{quote}}"]
        chain = next((f.proof["chain"] for f in x.findings if f.proof and f.proof.get("chain")), None)
        if chain:                              # typeset from the expressions the proof is about
            out += ["As the ledger states it, built from the formulas:",
                    rf"\begin{{center}}\fitmath{{{chain['statement']['latex']}}}\end{{center}}"]
        terms = formula(x.formula)
        if terms:
            out.append(rf"Its formula, \texttt{{{text(x.formula)}}}, as the ledger evaluated it"
                       + (":" if len(terms) == 1 else ", the sum of these terms:"))
            for k, tex in terms:
                out += ([rf"\texttt{{{text(k)}}}:"] if k else []) + [display(x.formula, k, tex)]
        elif x.formula:
            out.append(rf"Its formula, \texttt{{{text(x.formula)}}}, is computed numerically (no closed form to "
                       "typeset).")
        p = next((f.proof for f in x.findings if f.proof), None)
        if p:
            out += _proof_tex(p)
    return out


def compile_pdf(tex: str) -> tuple[str | None, str]:
    """Make the PDF of `tex` beside it with latexmk, or pdflatex run twice where latexmk is missing:
    (the PDF's path, '') or (None, why not: no TeX on PATH, or the log's first error)."""
    import shutil
    import subprocess
    from pathlib import Path
    path = Path(tex)
    if shutil.which("latexmk"):
        runs = [["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", path.name]]
    elif shutil.which("pdflatex"):
        runs = [["pdflatex", "-interaction=nonstopmode", "-halt-on-error", path.name]] * 2
    else:
        return None, ("no PDF: neither latexmk nor pdflatex is on PATH (Debian: apt-get install latexmk "
                      "texlive-latex-recommended); erratum.tex compiles with any standard TeX distribution")
    for cmd in runs:
        r = subprocess.run(cmd, cwd=path.parent, capture_output=True, text=True)
        if r.returncode != 0:
            log = path.with_suffix(".log")
            lines = log.read_text(errors="replace").splitlines() if log.exists() else r.stdout.splitlines()
            first = next((ln for ln in lines if ln.startswith("!")), (lines or ["(no log)"])[-1])
            return None, f"no PDF: {cmd[0]} failed ({first.strip()}); see {log}"
    return str(path.with_suffix(".pdf")), ""
