"""The engine package loads nothing of this paper: no claim module, no bound, no simulator."""

import subprocess
import sys

ENGINE = ("rue_verify.verify", "rue_verify.verify.findings", "rue_verify.verify.proofs", "rue_verify.verify.claims",
          "rue_verify.verify.runner", "rue_verify.verify.graph", "rue_verify.verify.witnesses",
          "rue_verify.verify.search", "rue_verify.verify.montecarlo", "rue_verify.verify.histories",
          "rue_verify.verify.intervals", "rue_verify.verify.papers", "rue_verify.verify.induction",
          "rue_verify.verify.parallel", "rue_verify.verify.statements",
          "rue_verify.verify.lemmas", "rue_verify.verify.derivation", "rue_verify.verify.schemas",
          "rue_verify.verify.code_mutants", "rue_verify.verify.sums", "rue_verify.verify.domain_points",
          "rue_verify.verify.second", "rue_verify.verify.carried", "rue_verify.verify.sequences")
#: what the engine may load of the rest: the version (rue_verify's __init__ reads it from one place),
#: the seed streams (numpy SeedSequence) and the exact binomial intervals; none of them simulates
ALLOWED = {"rue_verify", "simulate", "simulate.version", "simulate.seeds", "simulate.stats"}


def test_importing_the_engine_loads_no_paper_and_no_simulator():
    code = (f"import sys, importlib\nfor m in {ENGINE!r}: importlib.import_module(m)\n"
            "print(sorted(k for k in sys.modules\n"
            "             if k.split('.')[0] in ('bounds', 'simulate', 'rue_verify', 'numba')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    loaded = set(eval(out.stdout))
    assert set(ENGINE) <= loaded
    assert loaded - set(ENGINE) <= ALLOWED, sorted(loaded - set(ENGINE) - ALLOWED)


def test_the_engine_holds_no_symbol_of_this_paper():
    """No engine module names the paper's algorithm, its theorems or its claims (its docstrings may
    name them as examples of a caller; its code may not)."""
    import ast
    import importlib
    from pathlib import Path
    words = ("RUE", "eta", "beta_1", "THM-", "LEM-", "PF-", "Tk_up", "Tk_low", "sigma0")
    for m in ENGINE:
        path = Path(importlib.import_module(m).__file__)
        tree = ast.parse(path.read_text())
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
                {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} | \
                {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments) for a in n.args + n.kwonlyargs}
        assert not {w for w in words if w in names}, (m, {w for w in words if w in names})


def test_the_engines_tests_pass_with_the_ledger_absent(tmp_path):
    """The engine's own tests (this directory, but for this file and `test_papers.py`) pass in a process where
    importing Zhu & Qiu's ledger fails. `test_papers.py` runs the example papers end to end (half a minute of
    the suite): its example's and README's runs already run in fresh interpreters of their own and check there
    that no ledger module loads, so running the file twice would check nothing more of the engine's standing
    alone."""
    from pathlib import Path
    (tmp_path / "no_ledger.py").write_text(
        "import sys\n"
        "class _Absent:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'rue_verify.ledger' or name.startswith('rue_verify.ledger.'):\n"
        "            raise ImportError(f'{name}: the ledger is absent in this test')\n"
        "sys.meta_path.insert(0, _Absent())\n")
    here = Path(__file__).resolve().parent
    env = {**__import__("os").environ, "PYTHONPATH": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no_ledger", "-p", "no:cacheprovider",
                          "-p", "no:xdist", str(here), f"--ignore={here / 'test_engine_imports.py'}",
                          f"--ignore={here / 'test_papers.py'}"],
                         capture_output=True, text=True, timeout=900, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert " passed" in out.stdout and "error" not in out.stdout.splitlines()[-1]
