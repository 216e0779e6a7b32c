"""`rue-verify new-paper`: the file it writes runs as it stands from an empty directory, with a verdict of
every kind (proved, a bound with its tightness, refuted by Monte Carlo and in closed form with witnesses
that recompute, repairs resting on claims), its proofs derivations from its own formulas that read proved
(and not once a formula is planted wrong), and its outputs name only that paper."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rue_verify.scaffold import PLACEHOLDER, new_paper, template


def _cli(*args, cwd):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-m", "rue_verify.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env=env)


@pytest.fixture(scope="module")
def paper(tmp_path_factory):
    d = tmp_path_factory.mktemp("empty")
    r = _cli("new-paper", "sh2013", cwd=d)
    assert r.returncode == 0, r.stderr
    assert "wrote sh2013.py" in r.stdout and "rue-verify claims --paper sh2013.py" in r.stdout
    return d


def test_the_scaffold_gives_a_verdict_of_every_kind(paper):
    r = _cli("claims", "--paper", "sh2013.py", "--json", "-q", cwd=paper)
    assert r.returncode in (0, 1), r.stderr
    rows = {c["id"]: c for c in json.loads(r.stdout)}
    assert set(rows) == {"EXPONENT", "UNIFORM-UPPER", "UNIFORM-NO-K", "HARMONIC"}
    assert rows["EXPONENT"]["verdict"] == "holds"
    assert rows["UNIFORM-UPPER"]["verdict"] == "holds"
    assert any("tightness" in json.dumps(f) for f in rows["UNIFORM-UPPER"]["findings"])
    for i in ("UNIFORM-NO-K", "HARMONIC"):                      # the deliberately false ones, and their repairs
        assert rows[i]["verdict"] == "refuted" and rows[i]["repairs"], i
        assert all(rep["verdict"] == "holds" for rep in rows[i]["repairs"]), i


def _proofs(directory, name):
    r = _cli("proofs", "--paper", name, "--json", cwd=directory)
    assert r.returncode == 0, r.stderr
    return {n["id"]: n for n in json.loads(r.stdout)}


def test_its_proofs_are_derivations_that_read_proved(paper):
    """Every proof of the scaffold is a chain from its statement's computed left side to its right side: the
    exponent identity, Theorem 1 (a union bound, Hoeffding's inequality cited term by term, the exponent resting
    on EXPONENT, the count times a term), the repair resting on Theorem 1 and the harmonic repair (an integral
    comparison); each reads proved, and each Rests was matched against the statement of the node it names."""
    nodes = _proofs(paper, "sh2013.py")
    for key in ("EXPONENT", "UNIFORM-UPPER", "repair:UNIFORM-NO-K", "repair:HARMONIC"):
        n = nodes[key]
        assert n["derivation"] is True and n["chain"]["closed"] is True, key
        assert n["proof"] == "proved" and n["status"] == "certified", (key, n["proof"], n["weakest"])
    assert nodes["UNIFORM-UPPER"]["uses"] == ["EXPONENT"] and nodes["repair:UNIFORM-NO-K"]["uses"] == ["UNIFORM-UPPER"]
    assert nodes["UNIFORM-NO-K"]["status"] == "refuted" and nodes["HARMONIC"]["status"] == "refuted"
    # the statement is the file's own formula, computed: bound(K, n, Delta_min) with sympy symbols
    assert nodes["UNIFORM-UPPER"]["chain"]["statement"]["rhs"] == "(K - 1)*exp(-Delta_min**2*floor(n/K))"
    out = _cli("proofs", "--paper", "sh2013.py", "--node", "UNIFORM-UPPER", cwd=paper)
    assert out.returncode == 0, out.stderr
    for said in ("rule: UnionBound", "rule: term by term", "Hoeffding's inequality", "rests on EXPONENT",
                 "its statement, instantiated, is this link", "rule: count times a bound", "closure"):
        assert said in out.stdout, said


def test_a_planted_wrong_formula_leaves_the_theorem_unproved(tmp_path):
    """The bound's exponent doubled in a copy of the scaffold: the statement, computed from the formula, changes
    with it, the chain's last link (the count times a term) no longer reaches it, and Theorem 1 is not proved;
    the exponent identity, untouched, still is."""
    path = new_paper("planted", tmp_path)
    text = path.read_text()
    right = "return (K - 1) * exp(-pulls(n, K) * delta ** 2)"
    assert text.count(right) == 1
    path.write_text(text.replace(right, "return (K - 1) * exp(-2 * pulls(n, K) * delta ** 2)"))
    nodes = _proofs(tmp_path, "planted.py")
    thm = nodes["UNIFORM-UPPER"]
    assert thm["proof"] != "proved" and nodes["repair:UNIFORM-NO-K"]["proof"] != "proved"
    assert thm["chain"]["statement"]["rhs"] == "(K - 1)*exp(-2*Delta_min**2*floor(n/K))"
    out = _cli("proofs", "--paper", "planted.py", "--node", "UNIFORM-UPPER", cwd=tmp_path).stdout
    assert "[argued; rule: count times a bound]" in out and "is not the count of a sum's range" in out, out
    assert nodes["EXPONENT"]["proof"] == "proved"


def test_the_covered_line_and_the_citation_belong_to_the_paper(paper):
    """A paper that declares no coverage of its own gets a Covered line pointing to its findings, not the
    engine's scan sizes as if they were its checks; its report and erratum cite the toolkit as the engine
    and its own reference."""
    r = _cli("claims", "--paper", "sh2013.py", "--id", "EXPONENT", "-q", cwd=paper)
    head = r.stdout.splitlines()[0]
    assert "ledger of sh2013" in head and "what each claim covered is in its findings' domains" in head
    from rue_verify.outputs.citation import cite_this
    theirs, ours = cite_this("Doe 2025", own=False), cite_this("Zhu & Qiu 2024")
    assert "Zhu" not in theirs and "the engine that checked these claims" in theirs and theirs.endswith("Doe 2025")
    assert "every quantitative claim of Zhu & Qiu" in ours


def test_the_witnesses_recompute(paper):
    """The Monte Carlo refutation's witness reruns from its seed key, the closed form's from its point."""
    r = _cli("claims", "--paper", "sh2013.py", "--id", "UNIFORM-NO-K,HARMONIC", "--json", "-q", cwd=paper)
    rows = {c["id"]: c for c in json.loads(r.stdout)}
    for i in ("UNIFORM-NO-K", "HARMONIC"):
        w = next(f["witness"] for f in rows[i]["findings"] if f["verdict"] == "refuted")
        at = _cli("proofs", "--paper", "sh2013.py", "--node", i, "--at", json.dumps(w), cwd=paper)
        assert at.returncode == 0, (i, at.stderr)
        got = json.loads(at.stdout)
        assert got["holds"] is False and got["lhs"] == w["lhs"] and got["rhs"] == w["rhs"], (i, got, w)


def test_its_outputs_name_only_that_paper(paper):
    for args in (("proofs",), ("report", "--out", "rep", "-q"), ("erratum", "--out", "err", "-q")):
        r = _cli(*args, "--paper", "sh2013.py", cwd=paper)
        assert r.returncode == 0, (args, r.stderr)
        assert "Zhu" not in r.stdout and "RUE" not in r.stdout, args
    written = [p for p in (paper / "rep").rglob("*") if p.suffix in (".html", ".md", ".json")]
    written += list((paper / "err").glob("*.tex"))
    assert written
    for p in written:
        text = p.read_text()
        assert "Zhu" not in text and "sh2013" in text, p


def test_names_and_existing_files_are_refused(tmp_path):
    assert new_paper("ok-name_2", tmp_path).name == "ok-name_2.py"
    with pytest.raises(FileExistsError, match="exists"):
        new_paper("ok-name_2", tmp_path)
    assert new_paper("ok-name_2", tmp_path, force=True).exists()
    assert new_paper(str(tmp_path / "via-path.py")).parent == tmp_path
    for bad in ("", "2start", "has space", "dots.in.it", "x" * 65, "../up"):
        with pytest.raises(ValueError, match="name: a paper's name"):
            new_paper(bad, tmp_path)
    with pytest.raises(FileNotFoundError, match="no such directory"):
        new_paper("fine", tmp_path / "missing")
    r = _cli("new-paper", "has space", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("error: name:")


def test_the_template_names_its_paper_through_the_placeholder_only():
    """Every mention of the paper's name goes through the placeholder, so the written file names only the
    paper given; a template that spelled a name out would leave it behind (a planted one is caught)."""
    def leftovers(written):                       # other spellings of the template's name, which no replace catches
        return [v for v in ("my_paper", "My-paper", "MY-PAPER", "mypaper", "My paper") if v in written]
    text = template()
    assert text.count(PLACEHOLDER) >= 4
    written = text.replace(PLACEHOLDER, "zz-top")
    assert PLACEHOLDER not in written and "Zhu" not in written and not leftovers(written)
    assert leftovers((text + "\n# my_paper\n").replace(PLACEHOLDER, "zz-top")) == ["my_paper"]


def test_the_template_is_a_file_of_the_package():
    path = Path(__file__).parents[1] / "rue_verify" / "scaffold" / "paper_template.py"
    assert path.read_text() == template()
