"""The paper's own LaTeX for the statements the claims name by label, so that the report shows a
claim's statement as the paper typeset it (rendered offline by the vendored KaTeX, `assets/katex`).

The package does not read the paper: `data/paper_latex.json` holds the extracted statements, written
by `python -m rue_verify.outputs.paper_latex PATH/TO/PAPER.tex OUT.json`, and a test extracts them again from
the paper where it is at hand and compares. A theorem-like environment with a label gives its body; an
equation label gives the display line that carries it. Text macros of the paper (`\\rue`, `\\cref`)
become plain text; its math macros are passed to KaTeX (`MACROS`).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

#: the paper's math macros (its preamble's \\newcommand lines), as KaTeX takes them
MACROS = {r"\E": r"\mathbb{E}\left[#1\right]", r"\condE": r"\mathbb{E}\left[#1\,\middle|\,#2\right]",
          r"\prob": r"\text{Pr}\left(#1\right)", r"\mhyphen": "-"}
#: its text macros: the algorithms' names
TEXT_MACROS = {"rue": "RUE", "reucb": "ReUCB", "ucbe": "UCBE", "sh": "SH", "sr": "SR", "ttts": "TTTS"}
ENVIRONMENTS = ("theorem", "lemma", "proposition", "corollary", "fact", "assumption", "definition")
DISPLAYS = ("align*", "align", "equation", "equation*", "eqnarray", "eqnarray*", "gather", "gather*")


def _clean(tex: str) -> str:
    """Comments, labels and numbering commands out; text macros and cross-references as text."""
    tex = re.sub(r"(?<!\\)%.*", "", tex)
    tex = re.sub(r"\\(label|nonumber|notag)(\{[^}]*\})?", "", tex)
    tex = re.sub(r"\\(c?ref|Cref|eqref)\{([^}]*)\}", r"(\2)", tex)
    tex = re.sub(r"\\cite[pt]?\{([^}]*)\}", r"[\1]", tex)
    tex = re.sub(r"\\(" + "|".join(TEXT_MACROS) + r")\b(\\xspace)?\s?", lambda m: TEXT_MACROS[m.group(1)] + " ", tex)
    return re.sub(r"\n\s*\n", "\n", tex).strip()


def extract(tex: str) -> dict[str, str]:
    """{label: LaTeX} of every labelled theorem-like environment (its body) and every labelled display
    line (as a display of its own)."""
    out = {}
    for m in re.finditer(r"\\begin\{(" + "|".join(ENVIRONMENTS) + r")\}(\[[^\]]*\])?\s*\\label\{([^}]*)\}(.*?)"
                         r"\\end\{\1\}", tex, re.S):
        out[m.group(3)] = _clean(m.group(4))
    for m in re.finditer(r"\\begin\{(" + "|".join(re.escape(d) for d in DISPLAYS) + r")\}(.*?)\\end\{\1\}", tex, re.S):
        for line in re.split(r"\\\\", m.group(2)):
            for label in re.findall(r"\\label\{([^}]*)\}", line):
                body = _clean(line).replace("&", "")
                out.setdefault(label, rf"\[{body}\]")
    return out


def claim_labels(location: str) -> list[str]:
    """The labels a claim's location may name, in order: 'Theorem 5.1 (them-R)' -> them-R, '... (eq.
    Tk_up1)' -> Tk_up1, '(eqs. prob-dk, prob-dk-v1)' -> prob-dk, 'Lemma sec:tau (left side)' -> left,
    sec:tau (`statement_tex` takes the first the paper has)."""
    return (re.findall(r"\((?:eqs?\.\s*)?([A-Za-z][\w:-]*)", location)
            + re.findall(r"(?:Lemma|Theorem|Proposition) ([A-Za-z][\w:-]*)", location))


@lru_cache(maxsize=1)
def shipped() -> dict[str, str]:
    return json.loads(resources.files("rue_verify").joinpath("data/paper_latex.json").read_text())


def statement_tex(location: str) -> str | None:
    """The paper's LaTeX of the statement a claim's location names, where it has one."""
    return next((shipped()[x] for x in claim_labels(location) if x in shipped()), None)


if __name__ == "__main__":
    import sys
    with open(sys.argv[1]) as f:
        found = extract(f.read())
    with open(sys.argv[2], "w") as f:
        json.dump(found, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(found)} labelled statements to {sys.argv[2]}")
