"""Points of a statement's domain where its given equations hold: a counterexample search for statements whose
domain a random point almost never meets (`statements._sample_refutation` draws every symbol by its assumptions and
skips the points outside the given relations, so a given equation, `Eq(a_2, <an expression of K and n>)`, is met
with probability zero), and whose z3 model is no point of the domain (a non-integer K, a given equation met only in
z3's abstraction).

`solved_refutation` solves the given equations for one symbol each (sympy's `solve`, a real symbol first, an
integer one only where no real one is left, its value then required to be an integer), draws the other symbols as
the sampler does, computes the solved ones, and keeps a point only where every symbol's assumptions, every given
relation and the negated claim hold when evaluated to 50 digits (`statements._truth`, whose tolerance never lets
rounding refute). It refutes with the point as a witness, or finds nothing and decides nothing.

Nothing here knows a paper."""

from __future__ import annotations

#: the points tried (seeded by the statement, so the same statement gets the same points)
TRIES = 48


def solved_refutation(st, tries: int = TRIES):
    """A `statements.Decision` refuting `st` (a `Holds`) at a point of its domain where its given equations hold,
    with the point as its witness (module docstring), or None."""
    import random

    import sympy

    from . import statements as S
    givens = [sympy.sympify(g) for g in st.given]
    eqs = [g for g in givens if isinstance(g, sympy.Eq)]
    if not eqs:
        return None
    rels = [st.claim, *givens]
    if any(r.atoms(sympy.Indexed) for r in rels):         # a sequence's terms: the sampler's own business
        return None
    symbols = sorted({s for r in rels for s in r.free_symbols if isinstance(s, sympy.Symbol)}, key=str)
    solved = S.solved_for(eqs, symbols)
    if not solved:
        return None
    rng = random.Random("solved:" + sympy.srepr(st.claim)[:200])
    drawn = [s for s in symbols if s not in solved]
    for _ in range(tries):
        point = {s: S._draw(rng, s, st.box.get(s) if st.box else None) for s in drawn}
        try:
            for s, expr in solved.items():
                v = sympy.N(expr.xreplace(point), 50)
                if not v.is_real:
                    raise ValueError("not real")
                if s.is_integer:
                    r = sympy.Integer(round(v))
                    if abs(v - r) > 1e-30:
                        raise ValueError("not an integer")
                    v = r
                point[s] = v
            if not all(S._admits(s, v) for s, v in point.items()):
                continue
            if any(S._truth(g, point) is not True for g in givens) or S._truth(st.claim, point) is not False:
                continue
        except Exception:                                 # a point where a side is undefined: the next
            continue
        params = S._params(point)
        return S.Decision("refuted", "sampled counterexample",
                          f"false at {params} (its given equations solved for {', '.join(map(str, solved))}), "
                          "replayed to 50 digits", witness={"params": params})
    return None
