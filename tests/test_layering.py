"""The design's one-way data flow: nothing in `bounds` imports `simulate` or `rue_verify`, nothing in
`simulate` imports `rue_verify` (checked in a fresh interpreter for every module)."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
MODULES = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                 for pkg in ("bounds", "simulate") for p in (ROOT / pkg).rglob("*.py"))


@pytest.mark.parametrize("package,forbidden", [("bounds", ("simulate", "rue_verify")), ("simulate", ("rue_verify",))])
def test_lower_layers_do_not_import_higher_ones(package, forbidden):
    mods = [m for m in MODULES if m.split(".")[0] == package]
    code = ("import importlib, sys\n"
            f"for m in {mods!r}:\n"
            "    importlib.import_module(m)\n"
            f"print(sorted({{k.split('.')[0] for k in sys.modules}} & {set(forbidden)!r}))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]", (package, out.stdout)


@pytest.mark.parametrize("package,forbidden", [
    ("rue_verify.reproduction", ("rue_verify.ledger", "rue_verify.plots", "rue_verify.report", "rue_verify.render")),
    ("rue_verify.rates", ("rue_verify.ledger", "rue_verify.plots", "rue_verify.report", "rue_verify.render",
                          "rue_verify.reproduction")),
    ("rue_verify.ledger", ("rue_verify.plots", "rue_verify.report", "rue_verify.render"))])
def test_the_toolkit_flows_one_way(package, forbidden):
    """reproduction -> results -> ledger -> figures and report (and the rate study below the ledger):
    no module reaches upwards."""
    code = ("import importlib, pkgutil, sys\n"
            f"pkg = importlib.import_module({package!r})\n"
            "for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
            "    importlib.import_module(m.name)\n"
            f"print(sorted(k for k in sys.modules if k.startswith({forbidden!r})))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]", (package, out.stdout)
