"""`rue-verify certificates`: a paper's certificates written from its ledger run and verified by the small checker
in a process that imports no search; a corrupted file fails the check, naming it."""

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "abm2010.py")
SEARCH = ("z3", "highspy", "scipy.optimize", "rue_verify.verify", "sympy")


def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "rue_verify.cli", "certificates", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=900)


def test_written_certificates_check_and_a_corrupted_one_fails(tmp_path):
    wrote = _cli("--paper", EXAMPLE, "--write", "certs", "-q", cwd=tmp_path)
    assert wrote.returncode == 0, wrote.stderr
    files = sorted((tmp_path / "certs").glob("*.json"))
    assert len(files) >= 3
    ok = _cli("--check", "certs", "--json", cwd=tmp_path)
    data = json.loads(ok.stdout)
    kinds = {json.loads(f.read_text())["kind"] for f in files}
    assert ok.returncode == 0 and sum(k["checked"] for k in data["kinds"].values()) == len(files), ok.stdout
    assert not any(k["failed"] for k in data["kinds"].values()) and "smt2" in kinds, ok.stdout
    assert "rewrite.py" in data["checker_lines"] or "sympy" not in kinds
    smt2 = next(f for f in files if json.loads(f.read_text())["kind"] == "smt2")
    cert = json.loads(smt2.read_text())
    cert["smt2"] = cert["smt2"].replace("(check-sat)", "(assert false)\n(check-sat)")     # a planted contradiction
    smt2.write_text(json.dumps(cert))
    bad = _cli("--check", "certs", cwd=tmp_path)
    assert bad.returncode == 1 and "FAILED" in bad.stdout and smt2.name in bad.stdout, bad.stdout
    assert _cli("--check", "nowhere", cwd=tmp_path).returncode == 2


def test_the_checker_process_imports_no_search(tmp_path):
    (tmp_path / "one.json").write_text(json.dumps({"kind": "nothing"}))
    code = ("import sys, runpy; sys.argv = ['x', %r, '--json']\n"
            "try:\n    runpy.run_module('rue_verify.certify', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('z3', 'highspy', 'sympy') or "
            "m.startswith(('scipy.optimize', 'rue_verify.verify'))), file=sys.stderr)") % str(tmp_path)
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert got.stderr.strip().splitlines()[-1] == "[]", got.stderr


def test_writing_certificates_reports_each_one_as_it_is_written(tmp_path):
    """`write_certificates(progress=...)` is told of every certificate it writes, in order (the command's count)."""
    import sympy

    from rue_verify.certify import collect
    from rue_verify.verify.derivation import Decide, Statement, derive, from_derivation, link
    y = sympy.Symbol("y", positive=True)
    f = from_derivation(derive(Statement(1 + y, "<=", sympy.exp(y) + y ** 2),
                               [link("<=", sympy.exp(y), Decide("z3")),
                                link("<=", sympy.exp(y) + 2 * y ** 2 + 1, Decide("z3"))]), "y > 0")
    told: list = []
    paths = collect.write_certificates([f], tmp_path / "certs", progress=told.append)
    assert paths and len(told) == len(paths)
    assert told == [json.loads(p.read_text())["what"] or json.loads(p.read_text())["key"] for p in paths]
