"""The proofs of Theorems 3.1, 5.1 and 5.2 as dependency graphs: the paper's route beside the repaired
one, every node coloured by its computed status and linked to its claim's evidence in the report.

`proof_graph_table(results)` lays the graphs out from the ledger's results (`ledger.proof_graph`):
one row per drawn node with its panel, route, status, place, the nodes its checks used and those the
text's proof cites (`graph.below`: both lead down, a cited edge drawn dashed); a repair's steps
that are not nodes of their own (a sympy certificate, a search) are its leaves. `draw_proof_graph`
only draws that table. In the SVG each node is a link (`#claim-ID`, the report's evidence anchors).
"""

from __future__ import annotations

from ..verify.graph import below
from ..verify.proofs import PROOF_WORDS
from .common import caption
from .table import Table, figure

#: the theorems drawn, in the paper's order
DRAWN = ("lemma-true", "them-R", "them-R-Bayes")

#: the colour of each node status (`ledger.proof_graph.STATUS`; a repair's pending step is 'rests')
STATUS_COLOURS = {"certified": "#145a32", "exhausted": "#1e8449", "sampled": "#58d68d", "definition": "#d5d8dc",
                  "argued": "#95a5a6", "read": "#aab7b8", "vacuous": "#bfc9ca", "untested": "#ccd1d1",
                  "inconclusive": "#7f8c8d",
                  "refuted": "#c0392b", "undefined": "#8e44ad", "inconsistent": "#d35400",
                  "conditional": "#b7950b", "rests": "#95a5a6", "error": "#17202a"}
_LIGHT = ("definition",)


def _subtree(g, root: str, steps: bool, stop: tuple[str, ...] = (), changes: dict | None = None) -> list[dict]:
    """The nodes below `root` (itself included), each with its depth (the longest path from `root`, so
    every edge points down) and the panel's nodes it uses; a repair's steps that are not nodes, one leaf
    per status ("5 sampled steps"); the nodes in `stop` (drawn in a panel of their own) not expanded."""
    nodes, order, queue = {}, [], [root]
    while queue:
        key = queue.pop(0)
        if key in nodes:
            continue
        n = g.nodes[key]
        expand = key == root or key not in stop
        uses = list(dict.fromkeys(n["uses"])) if expand else []
        cites = [u for u in below(n) if u not in uses] if expand else []
        leaves = []
        if expand and steps and n["route"] == "repair":
            own = [s for s in n["proof_steps"] if s["uses"] is None]
            for status in dict.fromkeys(s["status"] for s in own):
                mine = [s for s in own if s["status"] == status]
                leaf = f"{key}/{status}"
                leaves.append({"node": leaf, "text": f"{len(mine)} {status} step{'s' * (len(mine) > 1)}",
                               "status": status, "uses": [], "cites": [], "claim": n["claim"], "proof": "",
                               "broken_at": "",
                               "statement": "; ".join(s["text"] for s in mine)})
                uses.append(leaf)
        nodes[key] = {"node": key, "text": _short(g, key, changes or {}) + ("" if expand else "\n(its own panel)"),
                      "status": n["status"], "uses": uses, "cites": cites, "claim": n["claim"],
                      "statement": n["statement"],
                      "proof": n.get("proof") or "", "broken_at": ", ".join(n.get("broken_at") or [])}
        order.append(key)
        for leaf in leaves:
            nodes[leaf["node"]] = leaf
            order.append(leaf["node"])
        queue.extend(u for u in (below(n) if expand else ()) if u not in nodes)
    depth = {root: 0}
    for _ in range(len(order)):                    # longest path in a DAG: relax until nothing moves
        moved = False
        for key in order:
            for u in nodes[key]["uses"] + nodes[key]["cites"]:
                if key in depth and depth.get(u, -1) < depth[key] + 1 and depth[key] + 1 < len(order):
                    depth[u] = depth[key] + 1
                    moved = True
        if not moved:
            break
    for key in order:
        nodes[key]["depth"] = depth.get(key, 0)
    return [nodes[k] for k in order]


def _short(g, key: str, changes: dict) -> str:
    """A node's label: the paper's label; a repair, as the paper's node it replaces and what it changes."""
    import textwrap
    n = g.nodes[key]
    if n["route"] != "repair":
        return key
    change = changes.get(key, (None, ""))[1]
    return f"{n['repairs']}, repaired" + ("\n" + "\n".join(textwrap.wrap(change, 26)) if change else "")


def _place(rows: list[dict]) -> None:
    """x in [0, 1] within each depth, ordered by the mean x of the nodes that use them (fewer crossings)."""
    xs: dict[str, float] = {}
    for d in sorted({r["depth"] for r in rows}):
        level = [r for r in rows if r["depth"] == d]
        def parents_x(r):
            px = [xs[p["node"]] for p in rows if r["node"] in p["uses"] + p["cites"] and p["node"] in xs]
            return sum(px) / len(px) if px else 0.5
        level.sort(key=parents_x)
        for i, r in enumerate(level):
            xs[r["node"]] = r["x"] = (i + 0.5) / len(level)
            r["y"] = -d - (0.35 if len(level) > 5 and i % 2 else 0.0)     # a crowded row staggers


def proof_graph_table(results, graph) -> Table:
    """The laid-out graphs of Theorems 3.1, 5.1 and 5.2 (paper's route and repaired route) from the
    ledger's results and the graph the run resolved from them (`ledger.run_ledger(...).graph`)."""
    from ..ledger.proof_graph import REPAIRS as changes
    g = graph
    ran = {r.id for r in results}
    rows = []
    for theorem in DRAWN:
        n = g.nodes[theorem]
        routes = [("paper", theorem)]
        if f"repair:{n['claim']}" in g.nodes:
            routes.append(("repair", f"repair:{n['claim']}"))
        for route, root in routes:
            drawn = DRAWN + tuple(f"repair:{g.nodes[d]['claim']}" for d in DRAWN)
            part = _subtree(g, root, steps=route == "repair", stop=drawn, changes=changes)
            _place(part)
            for r in part:
                rows.append({"theorem": theorem, "title": f"{n['location']} ({theorem})", "route": route,
                             **{k: r[k] for k in ("node", "text", "status", "depth", "x", "y", "claim", "proof",
                                                  "broken_at")},
                             "uses": ";".join(r["uses"]), "cites": ";".join(r["cites"]),
                             "statement": r["statement"][:160],
                             "link": f"#claim-{r['claim']}" if r["claim"] in ran else None})
    return Table(rows, {"family": "proof-graph", "claims": len(results), "mode": results[0].mode if results else ""})


def draw_proof_graph(t: Table, ax=None):
    """Draw the table: a row of panels per theorem, the paper's route left, the repaired route right."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    theorems = t.values("theorem")
    heights = [max(r["depth"] for r in t.where(theorem=th)) + 1 for th in theorems]
    fig, axes = plt.subplots(len(theorems), 2, figsize=(15, 1.05 * sum(heights) + 2.2),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for row, th in zip(axes, theorems):
        for ax, route in zip(row, ("paper", "repair")):
            ax.set_axis_off()
            part = t.where(theorem=th, route=route)
            if not part:
                ax.text(0.5, 0.5, "no repair", ha="center", va="center", fontsize=9, color="0.4")
                continue
            top = part[0]
            at = (top["broken_at"] or "").split(", ")
            proof = (PROOF_WORDS.get(top["proof"], top["proof"]) if top["proof"] else "no proof") \
                + (f" at {', '.join(at[:3])}" if at[0] else "") \
                + (f" +{len(at) - 3} more" if len(at) > 3 else "")
            title = f"{top['title']}: " + ("the paper's proof" if route == "paper" else "repaired route") + \
                f" ({proof}); statement {top['status']}"
            ax.set_title(title, fontsize=8, loc="left")
            depth = max(r["depth"] for r in part) + 1
            where = {r["node"]: (r["x"], r["y"]) for r in part}
            boxes = {}
            for r in part:
                x, y = where[r["node"]]
                colour = STATUS_COLOURS.get(r["status"], "#95a5a6")
                text = ax.text(x, y, r["text"], ha="center", va="center", fontsize=6.5, zorder=3,
                               color="black" if r["status"] in _LIGHT else "white",
                               bbox={"boxstyle": "round,pad=0.3", "fc": colour, "ec": "black", "lw": 0.4})
                if r["link"]:
                    text.set_url(r["link"])
                text.set_gid(f"node-{th}-{route}-{r['node']}")
                boxes[r["node"]] = text
            for r in part:
                edges = [(u, "solid") for u in (r["uses"] or "").split(";")] + \
                    [(u, "dashed") for u in (r.get("cites") or "").split(";")]
                for u, style in edges:
                    if u in where:                   # an arrow from a step to the step that uses it, box to box
                        ax.annotate("", xy=where[r["node"]], xytext=where[u], zorder=1,
                                    arrowprops={"arrowstyle": "-|>", "color": "0.55", "lw": 0.7, "mutation_scale": 7,
                                                "linestyle": style,
                                                "patchA": boxes[u].get_bbox_patch(),
                                                "patchB": boxes[r["node"]].get_bbox_patch(),
                                                "shrinkA": 1, "shrinkB": 1})
            ax.set_xlim(-0.02, 1.02)
            ax.set_ylim(-depth + 0.3, 0.4)
    statuses = [s for s in STATUS_COLOURS if s != "rests" and any(r["status"] == s for r in t.rows)]
    fig.legend([Patch(fc=STATUS_COLOURS[s], ec="black", lw=0.4) for s in statuses], statuses, loc="upper center",
               ncol=len(statuses), fontsize=8, title_fontsize=8, frameon=False,
               title="node status (an arrow points from a step to the step whose proof uses it: solid where our "
                     "check used it, dashed where only the paper's text cites it; a repaired node is named by the "
                     "paper's node it replaces, with what it changes)")
    caption(fig, f"Computed from the ledger ({t.meta['claims']} claims, mode {t.meta['mode']}); a repair's "
                 "unnamed leaves are its own steps (sympy certificates and searches). Each node links to its "
                 "claim's evidence in the report's SVG.")
    fig.tight_layout(rect=(0, 0.02, 1, 0.95))
    return fig


proof_graphs = figure(proof_graph_table, draw_proof_graph)
