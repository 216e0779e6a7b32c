"""rue_verify.outputs.erratum: every typeset formula is read back (sympy's LaTeX parser) and agrees with the
registry's expression at random points; the document lists exactly the refuted, undefined and
inconsistent claims, theorems first; it compiles where TeX is installed (CI installs it); without
TeX, --pdf says so in one line."""

import math
import os
import re
import shutil

import numpy as np
import pytest
import sympy

from bounds import registry
from bounds._core import UndefinedError
from rue_verify.outputs import erratum

#: the session's quick ledger (a minute and a half) is built once: these modules share one xdist worker
pytestmark = pytest.mark.xdist_group("quick_ledger")

PROVENANCE = erratum.Provenance("quick", 20241001, "coverage", "shipped results", "shipped study", "2026-11-25")


@pytest.fixture(scope="module")
def document(quick_ledger):
    return erratum.document(quick_ledger, PROVENANCE)


def _formulas(tex: str) -> list[tuple[str, str, str]]:
    """(registry name, term, LaTeX) of every marked formula."""
    pat = re.escape(erratum.MARK) + r" (\S+) (\S+)\n\\begin\{center\}\\fitmath\{(.*)\}\\end\{center\}"
    return re.findall(pat, tex)


def _read_back(tex: str):
    """The LaTeX parsed back into an expression of the registry's parameters."""
    from sympy.core.function import AppliedUndef
    from sympy.parsing.latex import parse_latex
    expr = parse_latex(tex.replace(r"\operatorname{erfc}", "g"))
    # the parser reads "alpha (x)" as a function applied to x: for a symbol that is a product
    expr = expr.replace(lambda e: isinstance(e, AppliedUndef) and e.func.__name__ != "g",
                        lambda e: sympy.Symbol(e.func.__name__) * e.args[0])
    S = {s.name: s for s in expr.free_symbols}
    sub = {S[k]: v for k, v in {"sigma_{0}": sympy.sqrt(sympy.Symbol("sigma0_sq", positive=True)),
                                "sigma": sympy.sqrt(sympy.Symbol("sigma_sq", positive=True)),
                                "nu": sympy.sqrt(sympy.Symbol("nu_sq", positive=True)), "e": sympy.E,
                                "pi": sympy.pi}.items() if k in S}
    expr = expr.subs(sub).replace(sympy.Function("g"), sympy.erfc)
    return expr.subs({s: sympy.Symbol(s.name.replace("{", "").replace("}", "")) for s in expr.free_symbols})


def _point(rng, params):
    ranges = {"K": lambda: int(rng.integers(2, 60)), "n": lambda: int(rng.integers(300, 10 ** 6)),
              "sigma0_sq": lambda: float(np.exp(rng.uniform(-2, 2))),
              "sigma_sq": lambda: float(np.exp(rng.uniform(-2, 2))),
              "delta": lambda: float(rng.uniform(0.05, 1)), "alpha": lambda: float(rng.uniform(0.01, 2)),
              "nu_sq": lambda: float(np.exp(rng.uniform(-2, 2))), "t": lambda: float(rng.uniform(0.2, 5)),
              "x": lambda: float(rng.uniform(0.1, 3)), "T_k": lambda: int(rng.integers(1, 100)),
              "p": lambda: float(rng.uniform(0.05, 0.95))}
    return {k: ranges[k]() for k in params}


def test_every_typeset_formula_is_the_registrys(document):
    found = _formulas(document)
    names = {n for n, _, _ in found}
    assert {"theorem_3_1_repaired", "theorem_5_1_repaired", "theorem_5_2_repaired"} <= names
    rng = np.random.default_rng(4)
    for name, term, tex in found:
        expr = _read_back(tex)
        entry = registry.REGISTRY[name]
        f = sympy.lambdify(sorted(expr.free_symbols, key=str), expr, "mpmath")
        args = sorted(expr.free_symbols, key=str)
        checked = 0
        for _ in range(40):
            pt = _point(rng, entry.params)
            try:
                want = registry.evaluate(name, **pt)
            except UndefinedError:
                continue
            want = want[term] if isinstance(want, dict) else want
            got = complex(f(*[pt[str(a)] for a in args]))
            assert abs(got.imag) < 1e-12 and math.isclose(got.real, float(want), rel_tol=1e-9, abs_tol=1e-300), \
                (name, term, pt, got, want)
            checked += 1
        assert checked >= 10, (name, term)


def test_it_lists_the_broken_claims_theorems_first(quick_ledger, document):
    listed = [r.id for r in quick_ledger if r.verdict in erratum.LISTED]
    heads = re.findall(r"\\subsection\*\{(\S+): (\w+)\}", document)
    assert sorted(h for h, _ in heads) == sorted(erratum.text(i) for i in listed)
    sections = re.findall(r"\\section\{(.+?)\}", document)
    assert sections[:3] == [name for name, _ in erratum.THEOREMS]
    assert "Cite this" in document and "20241001" in document
    only = erratum.document(quick_ledger, PROVENANCE, {"THM-FAIL"})
    assert re.findall(r"\\subsection\*\{(\S+):", only) == ["THM-FAIL"]


def test_text_is_escaped():
    assert erratum.text("a_b^2 <= 5% & {x} ~ #1 \\") == (r"a\_b\textasciicircum{}2 \textless{}= 5\% \& \{x\} "
                                                           r"\textasciitilde{} \#1 \textbackslash{}")


def test_the_document_compiles(document, tmp_path):
    if not (shutil.which("latexmk") or shutil.which("pdflatex")):
        if os.environ.get("CI"):
            pytest.fail("TeX is missing in CI (.ci/run installs Debian's latexmk and texlive-latex-*)")
        pytest.skip("no TeX here (apt-get install latexmk texlive-latex-recommended)")
    tex = tmp_path / "erratum.tex"
    tex.write_text(document)
    pdf, why = erratum.compile_pdf(str(tex))
    assert pdf and why == "" and (tmp_path / "erratum.pdf").stat().st_size > 10_000, why


def test_without_tex_the_pdf_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    tex = tmp_path / "erratum.tex"
    tex.write_text("x")
    pdf, why = erratum.compile_pdf(str(tex))
    assert pdf is None and "PATH" in why and "\n" not in why


def test_each_certified_z3_step_names_its_certificate_and_write_puts_it_there(quick_ledger, tmp_path):
    """A repair's step that z3 certified names its SMT-LIB certificate (the first hex digits of its key) in the
    erratum, and `write` puts every such file in certificates/ beside erratum.tex, under its full key."""
    import json

    from rue_verify.certify import smt
    from rue_verify.ledger import PAPER
    from rue_verify.verify import Mode
    tex, _ = erratum.write(PAPER, Mode(), quick_ledger, tmp_path)
    named = re.findall(r"certificate \\texttt\{certificates/([0-9a-f]{12})\.\.\.json\}", open(tex).read())
    files = {p.stem: json.loads(p.read_text()) for p in (tmp_path / "certificates").glob("*.json")}
    assert named and files
    assert {k[:12] for k in files} >= set(named)
    for k, c in files.items():
        assert k == c["key"] == smt.key(c["statement"], c["source"])
