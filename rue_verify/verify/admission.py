"""A paper checked where it enters, before any claim runs: every name its proof graph refers to (a
theorem, a claim's `uses=`, a `Rests("...")` written in its files, a repair's replaced node) names a
node or a claim of the paper, and a paper declares at least one claim. A name that names nothing is
one `ParameterError` naming 'paper', the file and the line, instead of a traceback after every claim
has run. Nothing here knows a paper."""

from __future__ import annotations

import ast
from pathlib import Path

from ..errors import ParameterError


def names(paper, space: dict) -> set[str]:
    """What a proof step or an edge may name in `paper` (its claims `space`): a node of its graph, a
    claim's ID, or 'repair:ID' for a claim ID (`graph.resolve` reads nothing else; the nodes are those
    of `graph.paper_table`: the paper's table, and the node each claim declares or is)."""
    table = paper.table() if paper is not None else ()
    return ({n.id for n in table} | {c.node or c.id for c in space.values()} | set(space)
            | {f"repair:{cid}" for cid in space})


def _rests_in(filename: str) -> list[tuple[str, int]]:
    """Every `Rests("NAME")` or `rests("NAME", ...)` (or `verify.Rests("NAME")`) with a literal name in the file:
    (name, line)."""
    try:
        tree = ast.parse(Path(filename).read_text(), filename)
    except (OSError, SyntaxError, ValueError):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            f = node.func
            if (isinstance(f, ast.Name) and f.id in ("Rests", "rests")) or (isinstance(f, ast.Attribute)
                                                                            and f.attr in ("Rests", "rests")):
                out.append((node.args[0].value, node.lineno))
    return out


def _at(fn) -> str:
    code = getattr(fn, "__code__", None)
    return f"{code.co_filename}:{code.co_firstlineno}" if code is not None else "?"


def check(paper, space: dict) -> None:
    """Refuse `paper` (a `papers.Paper`, its claims `space`: id -> Claim) when it declares no claim, or
    when a theorem, a `uses=`, a replaced node or a literal `Rests` in a file that declares its claims
    names nothing: a `ParameterError` naming 'paper', the name, the file and line, and the names it
    could be (the closest first)."""
    import difflib
    if not space:
        raise ParameterError("paper", f"paper {paper.name!r} declares no claim (declare them with "
                                      "rue_verify.verify.claim in the file or in PAPER.modules)")
    known = names(paper, space)

    def refuse(what: str, name: str, where: str) -> None:
        close = difflib.get_close_matches(name, sorted(known), n=3)
        hint = (f"; did you mean {', '.join(close)}?" if close
                else f"; its nodes and claims: {', '.join(sorted(known)[:12])}")
        raise ParameterError("paper", f"{where}: {what} {name!r} names no node or claim of paper {paper.name!r}{hint}")

    for t in paper.theorems:
        if t not in known:
            refuse("the theorem", t, "PAPER.theorems")
    for new, old in dict(paper.replaces).items():
        for name in (new, old):
            if name not in known:
                refuse("the replaced node", name, "PAPER.replaces")
    for c in space.values():
        for u in c.uses:
            if u not in known:
                refuse(f"claim {c.id}'s uses=", u, _at(c.check))
    files = dict.fromkeys(c.check.__code__.co_filename for c in space.values() if hasattr(c.check, "__code__"))
    for f in files:
        for name, line in _rests_in(f):
            if name not in known:
                refuse("Rests", name, f"{f}:{line}")
