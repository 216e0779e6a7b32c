"""The proof-graph figure: every drawn node carries the status the graph computed, every edge points
down (a node above the nodes it uses), the repaired route sits beside the paper's, and the SVG links
each node to its claim's evidence."""

import pytest

from rue_verify.plots.proofs import DRAWN, proof_graph_table
from rue_verify.plots.registry import FAMILIES, save

#: the session's quick ledger (a minute and a half) is built once: these modules share one xdist worker
pytestmark = pytest.mark.xdist_group("quick_ledger")


@pytest.fixture(scope="module")
def table(quick_ledger):
    return proof_graph_table(quick_ledger, quick_ledger.graph)


def test_every_drawn_node_has_its_computed_status_and_every_edge_points_down(table, quick_ledger):
    g = quick_ledger.graph
    assert {(r["theorem"], r["route"]) for r in table.rows} == {(t, rt) for t in DRAWN for rt in ("paper", "repair")}
    for r in table.rows:
        if r["node"] in g.nodes:
            assert r["status"] == g.nodes[r["node"]]["status"], r
        else:                              # a repair's own steps, grouped by status
            parent, status = r["node"].rsplit("/", 1)
            steps = [s for s in g.nodes[parent]["proof_steps"] if s["uses"] is None and s["status"] == status]
            assert r["status"] == status and r["text"].startswith(f"{len(steps)} {status} step")
    for th in DRAWN:
        for route in ("paper", "repair"):
            part = {r["node"]: r for r in table.where(theorem=th, route=route)}
            for r in part.values():
                for u in (r["uses"] or "").split(";"):
                    if u:
                        assert part[u]["depth"] > r["depth"], (th, route, r["node"], u)
    # the paper's route of Theorem 5.1 shows where it breaks, with the broken nodes drawn
    top = table.where(theorem="them-R", route="paper", depth=0)[0]
    assert top["proof"] == g.nodes["them-R"]["proof"]
    drawn = {r["node"] for r in table.where(route="paper")}     # here, or in Theorem 3.1's own panel
    # every broken node is drawn (a break inside a node's own proof is named by that node, which is drawn)
    assert {b.split(" (")[0] for b in g.nodes["them-R"]["broken_at"]} <= drawn


def test_the_svg_links_every_node_of_a_claim_to_its_evidence(table, tmp_path):
    paths, _ = save(FAMILIES["proof-graphs"], table, tmp_path / "g")
    svg = (tmp_path / "g.svg").read_text()
    links = {r["link"] for r in table.rows if r["link"]}
    assert links and all(f'xlink:href="{link}"' in svg for link in links)
    assert FAMILIES["proof-graphs"].inline


def test_a_repaired_node_is_named_by_the_node_it_replaces_with_what_changed(table, quick_ledger):
    """The repaired route names each repair by the paper's node it replaces (not by claim ID) and says
    what it changes, and that node is a node of the paper's graph."""
    from rue_verify.ledger.proof_graph import REPAIRS
    g = quick_ledger.graph
    drawn = {r["node"]: r for r in table.where(route="repair") if r["node"].startswith("repair:") and "/" not in
             r["node"]}
    assert drawn and set(drawn) <= set(REPAIRS), sorted(set(drawn) - set(REPAIRS))
    for key, r in drawn.items():
        replaced, change = REPAIRS[key]
        assert g.nodes[key]["repairs"] == replaced and g.nodes[replaced]["route"] == "paper"
        assert r["text"].startswith(f"{replaced}, repaired") and change.split()[0] in r["text"], (key, r["text"])
        assert "repair:" not in r["text"] and key.split(":", 1)[1] not in r["text"]
