"""The z3 problems a proof row carries, walked in one place: its own (`smt2` with its `statement`), its conditions'
and what its link decided on the way (`hypotheses`), each a dict with both, and an induction's unsat cases
(`smt2_cases`). `verify.second` asks cvc5 each; `verify.proofs` carries a finding's on the row it justifies. Apart
from both so that neither imports the other."""

from __future__ import annotations


def hollow(text: str) -> bool:
    """Whether z3 was given the problem already true (`certify.smt.hollow`: sympy decided the relation)."""
    from ..certify.smt import hollow as _hollow
    return _hollow(text)


def problems(obj, out: list | None = None) -> list[tuple[dict, str, str]]:
    """(the dict that carries it, statement, SMT-LIB text) of every z3 problem inside `obj` (a row: its own, its
    conditions', what its link decided on the way, its induction's cases), hollow ones left out
    (`certify.smt.hollow`)."""
    out = [] if out is None else out
    if isinstance(obj, dict):
        if isinstance(obj.get("smt2"), str) and isinstance(obj.get("statement"), str) and not hollow(obj["smt2"]):
            out.append((obj, obj["statement"], obj["smt2"]))
        out += [(obj, statement, text) for statement, text in cases(obj)]
        for k, v in obj.items():
            if k not in ("smt2", "smt2_cases"):
                problems(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            problems(v, out)
    return out


def cases(d: dict) -> list[tuple[str, str]]:
    """(statement, SMT-LIB text) of the unsat cases of an induction that decided the link `d` carries
    (`smt2_cases`: [statement, what, text] each, written by `verify.derivation` from `induction.finding`), hollow
    ones left out: the link holds only where every case does, so each is a problem of its own for cvc5."""
    out = []
    for case in d.get("smt2_cases") or ():
        if isinstance(case, (list, tuple)) and len(case) == 3 and all(isinstance(x, str) for x in case) \
                and not hollow(case[2]):
            out.append((case[0], case[2]))
    return out
