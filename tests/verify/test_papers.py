"""A paper as a plug-in of the engine (`verify.papers`), tried on the shipped example of another paper
(`docs/examples/abm2010.py`: UCB-E of Audibert, Bubeck & Munos as Zhu & Qiu's Section 2 states it) and
on toy papers declared here. None of these tests loads Zhu & Qiu's ledger."""

import itertools
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from rue_verify.verify import REGISTRY, LedgerInputs, Mode, Rests, claim, from_proof, from_value, run_claim
from rue_verify.verify.graph import paper_graph
from rue_verify.verify.papers import Paper, declaring, register

EXAMPLE = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "abm2010.py")
_TOYS = itertools.count()


@pytest.fixture
def toy():
    """A fresh toy paper's name; the registry's active paper is restored after the test."""
    before = REGISTRY.active
    n = next(_TOYS)
    name = f"toy-{n}"
    register(Paper(name, f"A toy paper {n}"))
    yield name
    if before is not None:
        REGISTRY.activate(before)


def _run_alone(code: str) -> dict:
    """`code` run in a fresh interpreter (it prints one JSON object as its last line), with the modules it
    loaded of the ledger, the bounds and the simulator beside."""
    tail = ("\nimport sys as _s, json as _j\nprint(_j.dumps({**OUT, 'loaded': sorted(k for k in _s.modules if "
            "k.startswith(('rue_verify.ledger', 'rue_verify.reproduction', 'rue_verify.rates', 'bounds')))}))\n")
    out = subprocess.run([sys.executable, "-c", code + tail], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_example_paper_runs_alone_and_its_rests_and_witnesses_resolve():
    """The example's claims run without Zhu & Qiu's ledger, its bounds or its studies; every step that
    rests on another of its claims reads that claim's node status, never 'argued' or 'rests'; its
    Monte Carlo and closed-form refutations recompute to their witnesses' numbers in the same process
    that found them (the engine's replay registered by the search)."""
    got = _run_alone(f"""
from rue_verify.verify import LedgerInputs, Mode, REGISTRY
from rue_verify.verify.papers import load_paper
from rue_verify.verify.runner import run_ledger
from rue_verify.verify.witnesses import recompute_witness
paper = load_paper({EXAMPLE!r})
res = run_ledger(Mode(inputs=LedgerInputs(paper={EXAMPLE!r})))
g = res.graph
steps = []
for r in res:
    for f in r.findings + [f for x in r.repairs for f in x.findings]:
        if f.proof:
            steps += [(s['uses'], s['status']) for s in f.proof['steps'] if s['uses']]
again = []
for r in res:
    for f in r.findings:
        if f.verdict == 'refuted' and f.witness:
            lhs, rhs = recompute_witness(REGISTRY[r.id], f.witness)
            again.append((r.id, f.witness['lhs'], f.witness['rhs'], lhs, rhs, 'seed_key' in f.witness['params']))
OUT = {{'paper': paper.name, 'active': REGISTRY.active, 'verdicts': {{r.id: r.verdict for r in res}},
        'steps': steps, 'nodes': {{k: n['status'] for k, n in g.nodes.items()}}, 'again': again}}
""")
    assert got["loaded"] == [] and got["paper"] == got["active"] == "abm-2010"
    assert got["steps"], "the example's proofs rest on its own claims"
    for uses, status in got["steps"]:
        assert status == got["nodes"][uses] or (got["nodes"][uses] == "definition" and status == "certified"), \
            (uses, status, got["nodes"][uses])
        assert status not in ("argued", "rests"), (uses, status)
    kinds = {mc for *_, mc in got["again"]}
    assert kinds == {True, False}, "a Monte Carlo and a closed-form refutation"
    for cid, lhs, rhs, lhs2, rhs2, _ in got["again"]:
        assert (lhs2, rhs2) == pytest.approx((lhs, rhs), rel=1e-12), cid
        assert lhs2 > rhs2, cid


def test_the_example_through_the_command_line(tmp_path):
    """claims, proofs --node --at and report with --paper FILE.py, as a user runs them from another
    directory: the report is titled by the example's paper, and a node evaluates at a point."""
    def cli(*args):
        out = subprocess.run([sys.executable, "-m", "rue_verify.cli", *args], capture_output=True, text=True,
                             cwd=tmp_path, timeout=600)
        assert out.returncode == 0, out.stderr[-3000:]
        return out.stdout
    at = cli("proofs", "--paper", EXAMPLE, "--node", "ABM-H-ORDER", "--at", '{"K": 3, "gap": 0.1, "spread": 1}')
    got = json.loads(at)
    # means 0.55, 0.45, 0.35: gaps 0.1 (the best arm's, the smallest other), 0.1, 0.2
    assert got["lhs"] == pytest.approx(1 / 0.01 + 1 / 0.01 + 1 / 0.04)        # H
    assert got["rhs"] == pytest.approx(max(1 / 0.01, 2 / 0.01, 3 / 0.04))     # H_2
    assert got["holds"] is False
    cli("report", "--paper", EXAMPLE, "--out", "rep", "-q")
    page = (tmp_path / "rep" / "index.html").read_text()
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "Audibert, Bubeck &amp; Munos" in page.split("<h1>")[1].split("</h1>")[0]
    assert md.startswith("# Which statements of Audibert, Bubeck & Munos") and "Zhu & Qiu (TMLR 2024) hold" not in md
    assert "ABM-H-ORDER" in md and "THM-GAP" not in md
    proofs = md.split("## Proofs")[1].split("## Evidence")[0]          # the paper's own proofs, with their status
    assert "ABM-H2-LE-H [certified" in proofs and "ABM-UCBE-UPPER" in proofs and '<h2 id="proofs">' in page
    meta = json.loads((tmp_path / "rep" / "COMPLETE.json").read_text())
    assert meta["claims"] == 9 and meta["figures"] == []
    cli("erratum", "--paper", EXAMPLE, "--out", "err", "-q")
    tex = (tmp_path / "err" / "erratum.tex").read_text()
    assert r"\title{Erratum: Audibert, Bubeck \& Munos" in tex and "ABM-H-ORDER" in tex and "THM-GAP" not in tex
    bad = subprocess.run([sys.executable, "-m", "rue_verify.cli", "report", "--paper", EXAMPLE, "--out", "rep2",
                          "--section", "Section 9"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert bad.returncode == 2 and "Section 2 of Zhu & Qiu" in bad.stderr


def test_an_unknown_paper_and_an_unknown_id_are_named():
    out = subprocess.run([sys.executable, "-m", "rue_verify.cli", "claims", "--paper", "no-such-paper"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "no paper named 'no-such-paper'" in out.stderr and "zhu-qiu" in out.stderr
    out = subprocess.run([sys.executable, "-m", "rue_verify.cli", "claims", "--paper", EXAMPLE, "--id", "THM-GAP"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "abm-2010" in out.stderr and "ABM-H-ORDER" in out.stderr


def test_rests_resolve_to_the_status_of_what_they_rest_on_in_any_order(toy):
    """A chain declared in the reverse of the order it must settle in: TOP's proof rests on MID, whose
    own proof rests on LEAF (decided). Both proofs end proved; a Rests on a name that is neither a
    node nor a claim is an error, not 'argued'."""
    import sympy

    from rue_verify.verify import Decide, Statement, derive, from_derivation, link, rel, rests
    x = sympy.Symbol("x", positive=True)
    small = (rel(x, "<=", 1),)
    with declaring(toy, "paper"):
        @claim("TOP", "toy", "top")
        def top(mode):      # x <= 4 where x <= 1: from MID's x <= 3, then 3 <= 4
            return "x", [from_derivation(derive(Statement(x, "<=", 4, small), [link("<=", 3, rests("MID", x=x)),
                                                                                link("<=", 4, Decide())]), "all")]

        @claim("MID", "toy", "mid")
        def mid(mode):      # x <= 3 where x <= 1: from LEAF's x <= 2
            return "x", [from_derivation(derive(Statement(x, "<=", 3, small), [link("<=", 2, rests("LEAF", x=x)),
                                                                                link("<=", 3, Decide())]), "all")]

        @claim("LEAF", "toy", "leaf")
        def leaf(mode):     # x <= 2 where x <= 1, decided by the engine
            return "x", [from_derivation(derive(Statement(x, "<=", 2, small), [link("<=", 2, Decide())]), "all")]

        @claim("TYPO", "toy", "a step on a name that does not exist")
        def typo(mode):
            return "x", [from_proof([("nothing", Rests("LEAFF"))], "all", "typo")]
    mode = Mode(inputs=LedgerInputs(paper=toy))
    results = [run_claim(REGISTRY.of(toy)[c], mode) for c in ("TOP", "MID", "LEAF")]
    paper = Paper(toy, "toy")
    g = paper_graph(paper, results)
    assert [r.verdict for r in results] == ["holds", "holds", "holds"]
    assert g.nodes["TOP"]["own"]["status"] == "proved" and g.nodes["MID"]["own"]["status"] == "proved"
    assert g.nodes["TOP"]["own"]["steps"][0]["status"] == "certified"
    typo = run_claim(REGISTRY.of(toy)["TYPO"], mode)      # refused as the claim runs: it reads error, with the name
    assert typo.verdict == "error" and "LEAFF" in typo.summary and "test_papers.py" in typo.summary
    assert paper_graph(paper, results + [typo]).nodes["TOP"]["own"]["status"] == "proved"


def test_ids_are_namespaced_by_paper_and_a_clash_within_one_is_named(toy):
    with declaring(toy, "paper"):
        @claim("SAME", "toy", "one")
        def one(mode):
            return "x", [from_value(0.0, "d", "z", at_most=1.0)]
        with pytest.raises(ValueError, match=f"registered twice in paper '{toy}'"):
            @claim("SAME", "toy", "two")
            def two(mode):
                return "x", []
    other = toy + "-other"
    register(Paper(other, "another toy"))
    with declaring(other, "paper"):
        @claim("SAME", "toy", "the other paper's")
        def three(mode):
            return "x", [from_value(0.0, "d", "z", at_most=1.0)]
    assert REGISTRY.of(toy)["SAME"].statement == "one" and REGISTRY.of(other)["SAME"].statement == "the other paper's"


def test_a_bound_without_a_tightness_finding_is_refused(toy):
    with declaring(toy, "paper"):
        @claim("LOOSE", "toy", "a bound", bound=True)
        def loose(mode):
            return "x", [from_value(0.0, "d", "z", at_most=1.0)]
    r = run_claim(REGISTRY.of(toy)["LOOSE"], Mode())
    assert r.verdict == "error" and "LOOSE is declared a bound" in r.summary


def test_a_papers_settings_read_as_the_modes_attributes(toy):
    register(Paper(toy + "-set", "settings", settings={"quick": {"grid": 3}, "thorough": {"grid": 9}}))
    inputs = LedgerInputs(paper=toy + "-set")
    assert Mode(inputs=inputs).grid == 3 and Mode.thorough(inputs=inputs).grid == 9
    assert Mode("test", inputs=inputs).grid == 3 and Mode(inputs=inputs, settings=(("grid", 5),)).grid == 5
    with pytest.raises(AttributeError, match="no setting 'nothing'"):
        Mode(inputs=inputs).nothing


def test_the_guides_check_your_own_paper_runs_as_written(tmp_path):
    """The how-to (docs/guide.md), run as written from an empty directory: its file, then its four commands."""
    readme = (Path(__file__).resolve().parents[2] / "docs" / "guide.md").read_text()
    howto = readme[readme.index("## Check your own paper"):]
    block = howto[howto.index("```bash\n") + 8:howto.index("```\n", howto.index("```bash\n"))]
    body = block[block.index("<<'PY'\n") + 7:block.index("\nPY\n") + 1]
    (tmp_path / "mine.py").write_text(body)
    commands = [line.split("#")[0].split() for line in block[block.index("\nPY\n") + 4:].splitlines() if line.strip()]
    outs = []
    for cmd in commands:
        assert cmd[0] == "rue-verify", cmd
        args = [a.strip("'") for a in cmd[1:]]
        if "--at" in args:                   # the JSON point, split by the whitespace above: joined again
            i = args.index("--at")
            args = args[:i + 1] + [" ".join(args[i + 1:])]
        out = subprocess.run([sys.executable, "-m", "rue_verify.cli", *args, "-q"], capture_output=True, text=True,
                             cwd=tmp_path, timeout=300)
        assert out.returncode == 0, (cmd, out.stderr[-2000:])
        outs.append(out.stdout)
    assert "LOG-BOUND" in outs[0] and "refuted" in outs[0] and "repaired (holds)" in outs[0]
    assert "HALF [sampled]" in outs[1]                      # the repair's step reads the status HALF computed
    chain = outs[[i for i, c in enumerate(commands) if "--node" in c and "--at" not in c][0]]
    assert "rests on HALF" in chain and "ends at its right side" in chain and "[sampled; rests on HALF]" in chain, chain
    at = json.loads(outs[[i for i, c in enumerate(commands) if "--at" in c][0]])
    assert at["holds"] is False and at["lhs"] == 2 and at["rhs"] == pytest.approx(math.log(3))
    assert (tmp_path / "report" / "report.md").read_text().startswith("# Which statements of Doe & Roe (2025)")


def test_the_example_papers_certified_steps_refute_their_negation_or_read_undecided():
    """`proofs --mutants --paper docs/examples/abm2010.py`, in a process of its own: the example's steps are
    statements the engine decides; no certified one has its negation certified, most have it refuted and
    can fail, and one whose negation is not decided (z3's model on the boundary of a strict relation,
    which a replay to 50 digits cannot call false) reads undecided, never refuted."""
    got = _run_alone(f"""
from rue_verify.verify import LedgerInputs, Mode
from rue_verify.verify.papers import load_paper
from rue_verify.verify.proofs import mutants_summary, proof_mutants
from rue_verify.verify.runner import run_ledger
load_paper({EXAMPLE!r})
OUT = mutants_summary(proof_mutants(run_ledger(Mode(inputs=LedgerInputs(paper={EXAMPLE!r})))))
""")
    assert got["statements"] >= 8 and got["cannot_fail"] == got["negation_certified"] == 0, got
    assert got["negation_refuted"] >= 0.75 * got["statements"] and got["can_fail"] >= 0.5 * got["statements"], got
    assert got["undecided"] == got["negation_undecided"] == got["statements"] - got["negation_refuted"], got


def test_a_monte_carlo_witness_replays_at_its_level_with_its_events(tmp_path):
    """proofs --node ID --at WITNESS on a seed-keyed witness reruns its stream: the same left side, and the runs,
    events and level it replayed at printed; a witness whose event count was altered is refused, naming both
    counts."""
    out = subprocess.run([sys.executable, "-m", "rue_verify.cli", "claims", "--paper", EXAMPLE, "--id",
                          "ABM-UCBE-ANY-A", "--json"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    w = next(f["witness"] for f in json.loads(out.stdout)[0]["findings"] if f.get("witness"))
    got = subprocess.run([sys.executable, "-m", "rue_verify.cli", "proofs", "--paper", EXAMPLE, "--node",
                          "ABM-UCBE-ANY-A", "--at", json.dumps(w)], capture_output=True, text=True, cwd=tmp_path,
                         timeout=600)
    data = json.loads(got.stdout)
    assert data["lhs"] == pytest.approx(w["lhs"], rel=1e-12) and data["holds"] is False
    assert data["replayed"]["events"] == w["events"] and data["replayed"]["level"] == w["level"]
    bad = subprocess.run([sys.executable, "-m", "rue_verify.cli", "proofs", "--paper", EXAMPLE, "--node",
                          "ABM-UCBE-ANY-A", "--at", json.dumps({**w, "events": w["events"] + 1})],
                         capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert bad.returncode == 2 and f"counted {w['events']} events" in bad.stderr, bad.stderr
