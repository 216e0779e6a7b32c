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


#: what the studies and the ledger must not reach: the figures, the report and its renderer, the commands (the
#: Python API and the command line)
ABOVE = ("rue_verify.plots", "rue_verify.outputs.report", "rue_verify.outputs.render", "rue_verify.api",
         "rue_verify.cli")


@pytest.mark.parametrize("package,forbidden", [
    ("rue_verify.reproduction", ("rue_verify.ledger",) + ABOVE),
    ("rue_verify.rates", ("rue_verify.ledger", "rue_verify.reproduction") + ABOVE),
    ("rue_verify.ledger", ABOVE)])
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


def _imports() -> dict[str, set[str]]:
    """module -> the project's modules it imports (at the top or inside a function), read from the
    source with `ast`; `from . import x` counts as importing the package's module x where it exists,
    else the package."""
    import ast
    mods = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
            for pkg in ("bounds", "simulate", "rue_verify") for p in (ROOT / pkg).rglob("*.py")}
    graph = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        out = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                out |= {a.name for a in node.names if a.name in mods}
            elif isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition(".")[0]
                target = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    out.add(sub if sub in mods else target)
        graph[name] = {m for m in out if m in mods and m != name}
    return graph


def test_no_module_imports_another_round_a_circle():
    """No two modules import each other, directly or through others (a package's __init__ importing
    its own modules is the package's face, not a circle, and is left out)."""
    graph = _imports()
    edges = {m: {t for t in ts if not m.startswith(t + ".") and not (t.startswith(m + ".") and
                                                                        m in graph and m.count(".") < t.count("."))}
             for m, ts in graph.items()}
    done, stack, cycles = set(), [], []

    def visit(m):
        if m in stack:
            cycles.append(stack[stack.index(m):] + [m])
            return
        if m in done:
            return
        stack.append(m)
        for t in sorted(edges.get(m, ())):
            visit(t)
        stack.pop()
        done.add(m)

    for m in sorted(edges):
        visit(m)
    assert not cycles, cycles[:5]


def test_no_module_imports_another_modules_private_names():
    import ast
    bad = []
    for pkg in ("bounds", "simulate", "rue_verify"):
        for path in (ROOT / pkg).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                    bad += [f"{path.relative_to(ROOT)}: {node.module}.{a.name}" for a in node.names
                            if a.name.startswith("_") and not a.name.startswith("__")]
    assert not bad, bad
