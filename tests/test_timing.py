"""rue_verify.studies.command_timing (`bench --commands`): a timed ledger run names its slowest claims, with the
seconds each claim's own results report."""

import json
import tempfile

from rue_verify.studies import command_timing as timing


def test_a_timed_ledger_run_names_its_slowest_claims():
    ids = ["DISC-MK", "LEM-TAU-LOWER"]
    with tempfile.TemporaryDirectory() as cache:
        row = timing.run_once(["claims", "--id", ",".join(ids), "-q", "--json"], cache)
    names = [c for c, _ in row["slowest_claims"]]
    assert sorted(names) == sorted(ids) and row["wall_seconds"] > 0
    seconds = [t for _, t in row["slowest_claims"]]
    assert seconds == sorted(seconds, reverse=True)


def test_slowest_orders_by_seconds_and_keeps_the_count():
    rows = [{"id": f"C{i}", "seconds": s} for i, s in enumerate([0.5, 3.0, 1.0, 9.0, 2.0, 0.1])]
    assert timing.slowest(json.dumps(rows), 3) == [("C3", 9.0), ("C1", 3.0), ("C4", 2.0)]
    assert len(timing.slowest(json.dumps(rows))) == timing.SLOWEST


def test_help_texts_quote_the_measured_waits_and_every_status():
    """The waits are stated once (timing.WAITS) and the proofs' help names every node status the
    graph can give (it used to offer `checked`, which no node has any more)."""
    from rue_verify.cli.commands import build_parser
    from rue_verify.ledger.proof_graph import STATUS
    sub = build_parser()._subparsers._group_actions[0].choices
    assert timing.WAITS["claims"] in sub["claims"].description
    described = sub["proofs"].description
    assert timing.WAITS["proofs"] in described and timing.HOST_CLASS in described
    for status in STATUS:
        assert status in described, status
    assert "checked" not in described


def test_the_history_benchmark_names_speed_and_reach_per_step(capsys):
    """bench --histories: per route and step, the sequences visited per second and the largest n at
    each K; a broken step stops at its first witness, an exhausted one reaches the grid's end."""
    from rue_verify.cli import main
    from rue_verify.ledger import Mode
    assert main(["bench", "--histories", "--json"]) == 0
    everything = json.loads(capsys.readouterr().out)
    rows = [r for r in everything if r.get("kind") != "induction"]
    induction = {(r["route"], r["step"]): r for r in everything if r.get("kind") == "induction"}
    # the induction's rows: the paper's Tk_up1 refuted with a history, the repaired one proved, each timed
    assert induction[("paper", "Tk_up1")]["status"] == "refuted" and induction[("paper", "Tk_up1")]["history"]
    assert induction[("repaired", "Tk_up1")]["status"] == "proved"
    assert all(r["solver_seconds"] > 0 for r in induction.values())
    grid = {K: n for K, n in Mode().history_n}
    assert {(r["route"], r["step"]) for r in rows} >= {("paper", "Tk_up1"), ("repaired", "Tk_up1")}
    for r in rows:
        depth = {int(K): n for K, n in r["depth"].items()}
        if r["broken"]:
            assert min(depth) == 2 and depth[2] <= grid[2]
        else:
            assert depth == grid and r["sequences_per_s"] > 0 and r["visited"] > 0
