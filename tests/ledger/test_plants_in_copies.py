"""Formulas of bounds/ planted wrong in a copy of the project (its source tree copied, one line of a
formula changed as text, the claims run in a fresh process from the copy): every node whose statement is
built from that formula stops reading proved, while the same run on an unchanged copy reads proved. The
ledger itself is never edited; the plant is the code a reviewer would change.

Each run decides only the claims a node's proof touches (the node's and those it rests on), not the
whole graph."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bounds", "simulate", "rue_verify")

SCRIPT = """
import contextlib, json, sys
from rue_verify.ledger import run_ledger
from rue_verify.verify.second import z3_alone
ids, nodes, alone = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3] == "z3"
with z3_alone() if alone else contextlib.nullcontext():
    g = run_ledger(ids=ids).graph
print(json.dumps({k: g.nodes[k].get("proof") for k in nodes}))
"""


def _copy(dest: Path) -> Path:
    for p in PACKAGES:
        shutil.copytree(ROOT / p, dest / p, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


def _plant(root: Path, file: str, old: str, new: str) -> None:
    path = root / file
    text = path.read_text()
    assert text.count(old) == 1, f"the plant's line must occur once in {file}: {old!r}"
    path.write_text(text.replace(old, new))


def _proofs(root: Path, ids: list[str], nodes: list[str], alone: bool = False) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(root / ".numba")}
    out = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(ids), json.dumps(nodes), "z3" if alone else "both"],
                         cwd=root, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert str(root) in subprocess.run([sys.executable, "-c", "import bounds; print(bounds.__file__)"], cwd=root,
                                       env=env, capture_output=True, text=True).stdout, "the copy was not imported"
    return got


#: (file, the formula's line, the planted line, the claims to run, the nodes that state the formula)
PLANTS = {
    "beta, a constant moved (toTilde false at T_j = 1)": (
        "bounds/theorems.py", "    return 1 + s / (K * s0)\n", "    return (1 + s / (K * s0)) * 99 / 100\n",
        ["LEM-TAU-UPPER", "PF-TOTILDE"], ["toTilde"]),
    "the upper side of Lemma sec:tau, a term changed": (
        "bounds/estimation.py",
        "    return tau_sq_tilde(T_k, sigma0_sq, sigma_sq) * (1 + sigma_sq / (K * sigma0_sq))\n",
        "    return tau_sq_tilde(T_k, sigma0_sq, sigma_sq) * (1 + sigma_sq / (K * sigma0_sq) / 2)\n",
        ["LEM-TAU-UPPER", "PF-TOTILDE"], ["sec:tau/upper"]),
    "the repaired lower side of Lemma sec:tau, a count off by one": (
        "bounds/repaired.py", "    return s0 * s / A * (1 + s / (K * A))\n",
        "    return s0 * s / A * (1 + s / ((K - 1) * A))\n",
        ["LEM-TAU-LOWER"], ["repair:LEM-TAU-LOWER"]),
    "Section 2's repaired harmonic factor, its constant moved (a reviewer's plant: false at K = 2)": (
        "bounds/repaired.py", "    return (2 * _harmonic(K) - 1) / 2\n", "    return (2 * _harmonic(K) - 1.02) / 2\n",
        ["SEC2-LOWER-H2"], ["repair:SEC2-LOWER-H2"]),
    "the repaired Theorem 3.1's constant, its log term shrunk (the derived bound no longer below it)": (
        "bounds/repaired.py", "    return GAP_CONSTANT_OFFSET + m.sqrt(2 * m.log(K + 1))\n",
        "    return GAP_CONSTANT_OFFSET + m.sqrt(3 * m.log(K + 1) / 2)\n",
        ["THM-GAP", "FACT-1-3", "FACT-RANGE", "LEM-A1-FORMULA"], ["repair:THM-GAP"]),
    "the repaired variance proxy of the pooled mean, halved term (false: nu_t can reach sigma0^2 + nu^2/2)": (
        "bounds/repaired.py", "    return as_numeric(sigma0_sq) + as_numeric(nu_sq) / 2\n",
        "    return as_numeric(sigma0_sq) + as_numeric(nu_sq) / 3\n",
        ["PF-NU-T", "PF-E31"], ["repair:PF-NU-T", "repair:PF-E31"]),
    "the repaired tail of a reward table's mean, its exponent doubled": (
        "bounds/repaired.py", "    return 2 * m.exp(-x ** 2 * T / (2 * nu))\n",
        "    return 2 * m.exp(-x ** 2 * T / nu)\n",
        ["PF-E3K"], ["repair:PF-E3K"]),
    "the repaired upper bound on a suboptimal arm's count, a count off by one": (
        "bounds/repaired.py", "    return 2 + 2 * (1 + e) ** 2 * b * sigma_sq * m.log(n) / Delta_k ** 2\n",
        "    return 1 + 2 * (1 + e) ** 2 * b * sigma_sq * m.log(n) / Delta_k ** 2\n",
        ["LEM-TK-UP", "LEM-TAU-LOWER", "LEM-TAU-UPPER"], ["repair:LEM-TK-UP"]),
}


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """The unchanged copy, and its proofs of each plant's nodes (run once per set of claims)."""
    root, seen = _copy(tmp_path_factory.mktemp("clean")), {}

    def proofs(ids, nodes, alone=False):
        key = (tuple(ids), tuple(nodes), alone)
        if key not in seen:
            seen[key] = _proofs(root, ids, nodes, alone)
        return seen[key]
    return proofs


@pytest.mark.parametrize("name", sorted(PLANTS))
def test_a_formula_planted_wrong_in_a_copy_leaves_its_nodes_unproved(tmp_path, clean, name):
    """Where the clean copy's proof is not proved because cvc5 does not re-decide one of its z3 links (the repaired
    LEM-TK-UP: an induction case), the plant is judged on z3's reading alone (`second.z3_alone`), where the clean
    copy is proved: the plant must break the proof z3 accepts, not only the one cvc5 already doubts."""
    file, old, new, ids, nodes = PLANTS[name]
    before = clean(ids, nodes)
    alone = not all(v == "proved" for v in before.values())
    if alone:
        before = clean(ids, nodes, alone=True)
    assert all(v == "proved" for v in before.values()), before
    planted = _copy(tmp_path / "planted")
    _plant(planted, file, old, new)
    got = _proofs(planted, ids, nodes, alone)
    assert all(v != "proved" for v in got.values()), (name, got)
