"""The toolkit as users install it: a wheel built from this tree, installed into a fresh virtualenv
outside it and run from an empty directory, gives the same claims as the README's install (the same
claims run in this process: one of every ledger module) and writes nothing into the working directory."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

# one worker builds and installs the wheel once (xdist would otherwise build it in each worker)
pytestmark = pytest.mark.xdist_group("wheel")

ROOT = pathlib.Path(__file__).resolve().parents[1]      # the tree the wheel is built from


def run(cmd, **kw):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=900, **kw)
    assert r.returncode == 0, (cmd, r.stdout[-2000:], r.stderr[-3000:])
    return r


def source_copy(d: pathlib.Path) -> pathlib.Path:
    """What the wheel is built from: pyproject.toml, the README and the three packages, copied without
    caches or a previous build. Building in the working tree would read its `build/` (a module since moved
    away would ship again) and race the numba caches other tests write beside the kernels."""
    import shutil
    src = d / "src"
    src.mkdir()
    for f in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / f, src / f)
    for pkg in ("bounds", "simulate", "rue_verify"):
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"))
    return src


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    d = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", d / "dist", source_copy(d)])
    wheel = next((d / "dist").glob("rue_verify-*.whl"))
    run([sys.executable, "-m", "venv", d / "venv"])
    py = d / "venv" / "bin" / "python"
    run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", wheel])
    return d / "venv"


def test_the_wheel_imports_from_the_virtualenv(venv, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}    # a PYTHONPATH to a source tree too
    out = run([venv / "bin" / "python", "-c", "import bounds, simulate, rue_verify; "
               "print(bounds.__file__, simulate.__file__, rue_verify.__file__)"], cwd=tmp_path, env=env).stdout.split()
    assert all(p.startswith(str(venv)) for p in out), out


def test_the_wheel_reads_its_shipped_history_outcomes_and_timings(venv, tmp_path):
    """The installed package's code hashes to the shipped history outcomes' hash (its files, not the source tree's,
    are hashed), so a fresh install walks no point of the quick grid; and it knows its claims' measured seconds."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    out = run([venv / "bin" / "python", "-c",
               "from rue_verify.ledger import PAPER, SETTINGS; from rue_verify.ledger import proof_histories as h; "
               "from rue_verify.ledger import proof_history_record as r\n"
               "def walked(*a, **k): raise SystemExit('walked')\n"
               "h.search_many = walked\n"
               "[h._walks(route, tuple(SETTINGS['quick']['history_n'])) for route in h.ROUTE_STEPS]\n"
               "print(h.__file__, len(r.reused), len(PAPER.seconds['quick']))"], cwd=tmp_path, env=env).stdout.split()
    assert out[0].startswith(str(venv)) and int(out[1]) > 0 and int(out[2]) > 0, out


#: one cheap claim of every ledger module (the reproduction's, the rate study's, the exploration-constant and
#: the variance-estimator studies' shipped results among what they read): the whole quick ledger, compiled from
#: cold in the fresh virtualenv, took three minutes of CI's fifteen
SAMPLE = ("SEC2-THR-0223", "FACT-1-3", "PROP-41", "THM-COND", "PF-DK-V2", "PF-E31", "PF-REGRET-STEP", "DISC-MK",
          "EXP-K80", "RATE-FAIL", "EXPLORE-CLIFF", "VAR-EST-COST")


def test_the_wheel_gives_the_same_ledger_and_writes_nothing_here(venv, tmp_path):
    from rue_verify.ledger import MODULES, REGISTRY, Mode, run_ledger
    assert {REGISTRY[c].check.__module__.rsplit(".", 1)[1] for c in SAMPLE} == set(MODULES)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    r = run([venv / "bin" / "rue-verify", "claims", "--id", ",".join(SAMPLE), "--json", "-q"], cwd=tmp_path,
            env=env)
    assert list(tmp_path.iterdir()) == []                 # nothing written where the user stands
    got = json.loads(r.stdout)
    want = json.loads(json.dumps([c.to_json() for c in run_ledger(Mode(), list(SAMPLE))]))
    for claims in (got, want):
        for c in claims:
            c.pop("seconds")
    assert [c["id"] for c in got] == [c["id"] for c in want]
    assert {c["id"]: c["verdict"] for c in got} == {c["id"]: c["verdict"] for c in want}
    assert got == want                                     # every finding, witness and repair too
