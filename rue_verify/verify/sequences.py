"""Sequences a statement speaks of: a function of an integer index with declared facts (`sequence`), each a
parameter of the statements that use it (they hold for every sequence with those facts). The registry maps each
declared function to its facts; the function also carries them in its own keyword arguments, so that a process
that unpickled a statement (a worker) reads them without the registry (`facts_of`). Nothing here knows a paper or
imports another module of the engine."""

from __future__ import annotations

from dataclasses import dataclass

import sympy


@dataclass(frozen=True)
class SequenceFacts:
    """What a sequence is declared to be (`sequence`): its order in the index, and bounds on every term."""

    name: str
    order: str | None = None
    lower: object = None
    upper: object = None


#: every sequence declared in this process: the function -> its facts
REGISTRY: dict = {}
ORDERS = ("nondecreasing", "increasing", "nonincreasing", "decreasing")


def sequence(name: str, *, positive: bool = False, nonnegative: bool = False, integer: bool = False,
             order: str | None = None, lower=None, upper=None):
    """A sequence given as a function of its index (`Delta(k)`), with its stated properties: its sign
    (`positive`, `nonnegative`: sympy assumptions of every term), `integer` terms, its `order` in the index
    ('nondecreasing', 'increasing', 'nonincreasing', 'decreasing') and bounds `lower` <= term <= `upper`
    (expressions, e.g. a symbol Delta_min). The rules use them as facts of every term they decide; they are
    the statement's hypotheses, listed with the decision."""
    if order is not None and order not in ORDERS:
        raise ValueError(f"sequence {name!r}: order is one of {', '.join(ORDERS)}, got {order!r}")
    assume = {"real": True}
    if positive:
        assume["positive"] = True
    if nonnegative:
        assume["nonnegative"] = True
    if integer:
        assume["integer"] = True
    facts = SequenceFacts(name, order, None if lower is None else sympy.sympify(lower),
                          None if upper is None else sympy.sympify(upper))
    # the facts are part of the function itself (sympy compares undefined functions by name and keyword
    # arguments): a sequence of this name declared with other facts is another object, so a second declaration
    # never changes what a statement about the first means
    f = sympy.Function(name, **assume, facts=f"{order}|{facts.lower}|{facts.upper}")
    REGISTRY[f] = facts
    return f


def facts_of(f) -> tuple[SequenceFacts | None, bool]:
    """(the declared facts of the sequence `f`, whether read back from text), or (None, False) for a function that is
    not one: from the registry of this process, else from the function itself ("order|lower|upper", whose bounds
    are then text, not the statement's objects)."""
    got = REGISTRY.get(f)
    if got is not None:
        return got, False
    said = getattr(f, "_kwargs", {}).get("facts")
    if isinstance(said, str) and said.count("|") == 2:
        order, lo, hi = said.split("|")
        if order in ("None",) + ORDERS:
            return SequenceFacts(getattr(f, "__name__", str(f)), None if order == "None" else order,
                                 None if lo == "None" else lo, None if hi == "None" else hi), True
    return None, False
