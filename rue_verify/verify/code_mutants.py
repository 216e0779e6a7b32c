"""Mutation testing of the proofs against the code: for each formula (a function of the paper's formula
modules, `Paper.formulas`) that a proved node's statement is built from, a mutant of that formula (its
value moved by 1%, a term of its sum dropped) installed while the node's claim runs again, and the graph
resolved with that claim's new results: a proof that still reads `proved` under the mutant does not depend
on the formula it claims to be about.

Which formulas a claim builds its statements from is traced, not declared: its check runs once with every
function of the formula modules wrapped, and a call with a sympy argument is a symbolic use. A mutant
replaces the function everywhere it is bound (every loaded module that imported it), in the process that
runs the claim, and is removed afterwards.

Nothing here knows a paper: the modules come from the paper's plug-in."""

from __future__ import annotations

import copy
import importlib
import inspect
import sys
from contextlib import contextmanager

#: the mutants of a formula: its value times 101/100 ('moved') and times 99/100 ('moved down', the direction that
#: tightens an upper bound: the move up of one loosens it, and a looser bound is still true), and its sum less its
#: last term ('term dropped', where its value is a sum or a dict of terms); `proofs --mutants` runs these. A 1% move
#: of a definition (beta, eta) changes a statement and its proof alike, and a 1% move of a bound with slack leaves
#: it true: a sound engine proves either, so `LARGE` moves (times 2, times 1/2) are there to ask whether a proof
#: depends on its formula at all (`code_mutants(kinds=...)`)
KINDS = ("moved", "moved down", "term dropped")
LARGE = ("doubled", "halved")


def functions(modules) -> dict[str, object]:
    """'module.name' -> function, for every public function defined in `modules` (names or modules)."""
    out = {}
    for m in modules:
        if isinstance(m, str):
            # a paper file's own module is loaded under its name (sys.modules), not importable by it
            mod = sys.modules.get(m)
            if mod is None:
                try:
                    mod = importlib.import_module(m)
                except ImportError:
                    continue                # a module this process cannot load has no formula to mutate here
        else:
            mod = m
        for name, fn in vars(mod).items():
            if inspect.isfunction(fn) and not name.startswith("_") and fn.__module__ == mod.__name__:
                out[f"{mod.__name__}.{name}"] = fn
    return out


@contextmanager
def _installed(replace: dict):
    """Every binding of each function in `replace` (original -> replacement) in every loaded module set to
    its replacement, and restored on exit."""
    undo = []
    for mod in list(sys.modules.values()):
        d = getattr(mod, "__dict__", None)
        if not isinstance(d, dict):
            continue
        for k, v in list(d.items()):
            try:
                hit = v in replace if callable(v) else False
            except TypeError:
                hit = False
            if hit:
                undo.append((d, k, v))
                d[k] = replace[v]
    try:
        yield
    finally:
        for d, k, v in reversed(undo):
            d[k] = v


def _symbolic(args, kwargs) -> bool:
    import sympy
    return any(isinstance(a, sympy.Basic) for a in (*args, *kwargs.values()))


def traced(cids: tuple[str, ...], mode, modules) -> dict[str, list[str]]:
    """Claim id -> the formulas (of `modules`) its check and repairs called with a sympy argument (a worker
    task: it runs the claims in this process)."""
    from .runner import check
    fns = functions(modules)
    out = {}
    for cid in cids:
        seen: set[str] = set()

        def recorder(name, fn):
            def wrapped(*a, **k):
                if _symbolic(a, k):
                    seen.add(name)
                return fn(*a, **k)
            wrapped.__wrapped__ = fn
            return wrapped
        with _installed({fn: recorder(name, fn) for name, fn in fns.items()}):
            check((cid,), mode)
        out[cid] = sorted(seen)
    return out


def mutant(fn, kind: str):
    """`fn` with its value mutated (`KINDS`); numbers, arrays, sympy expressions and dicts of them."""
    import sympy

    def moved(v):
        if isinstance(v, dict):
            return {k: moved(x) for k, x in v.items()}
        if isinstance(v, sympy.Basic):
            return v * sympy.Rational(101, 100)
        try:
            return v * 1.01
        except TypeError:
            return v

    def dropped(v):
        if isinstance(v, dict) and v:
            last = list(v)[-1]
            return {**v, last: 0 * v[last]}
        if isinstance(v, sympy.Add) and len(v.args) > 1:
            return sympy.Add(*v.args[:-1])
        return v

    def scaled(factor):
        def go(v):
            if isinstance(v, dict):
                return {k: go(x) for k, x in v.items()}
            if isinstance(v, sympy.Basic):
                return v * factor
            try:
                return v * float(factor)
            except TypeError:
                return v
        return go

    change = {"moved": moved, "moved down": scaled(sympy.Rational(99, 100)), "term dropped": dropped,
              "doubled": scaled(sympy.Integer(2)), "halved": scaled(sympy.Rational(1, 2))}[kind]

    def wrapped(*a, **k):
        return change(fn(*a, **k))
    wrapped.__wrapped__ = fn
    return wrapped


def applies(fn, kind: str, sample) -> bool:
    """Whether mutant `kind` changes anything of a value like `sample` (a sum to drop a term from)."""
    import sympy
    if kind in ("moved", "moved down", "doubled", "halved"):
        return True
    return (isinstance(sample, dict) and len(sample) > 1) or (isinstance(sample, sympy.Add) and len(sample.args) > 1)


def run_mutated(cids: tuple[str, ...], mode, modules, name: str, kind: str):
    """The claims `cids` run with formula `name` replaced by its mutant `kind` (a worker task)."""
    from .runner import check
    fn = functions(modules)[name]
    with _installed({fn: mutant(fn, kind)}):
        return check(cids, mode)


def _sample(modules, name: str):
    """The formula's value at symbols (named as its parameters), to see whether it is a sum."""
    import sympy
    fn = functions(modules)[name]
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        return fn(*[sympy.Symbol(p.name, positive=True) for p in params])
    except Exception:
        return None


def code_mutants(results, graph, modules, mode, resolve, workers: int | None = None, kinds: tuple = KINDS,
                 formulas: tuple | None = None) -> list[dict]:
    """For each formula of `modules` that the claim of a proved node (a derivation whose chain closes)
    builds its statements from, and each of its mutants: the claims that use it run again with the mutant,
    the graph resolved again (`resolve`, on a copy of `results` with those claims' new results), and each
    proved node of those claims read. One row per (formula, mutant): {"formula", "mutant", "claims",
    "nodes": {node: its proof under the mutant}, "broke": every such node is no longer proved}.

    Every proved node of a claim that calls the formula is read, and those whose computed statement the mutant
    changed must break (`mutant_row`: a node of the same claim whose statement is not built from the formula is
    not asked to). A node built on it may also stay proved rightly: a 1% move of a definition changes its
    statement and proof alike, a looser bound is still true, and a formula held as a hypothesis gives a true
    implication under any mutant (`LARGE` asks with times 2 and 1/2)."""
    from .parallel import run
    proved = {k: n for k, n in graph.nodes.items() if n.get("proof") == "proved"}
    claims = sorted({n["claim"] for n in proved.values() if n.get("claim")})
    if not claims:
        return []
    uses: dict[str, list[str]] = {}
    for part in run([((cid,), traced, ((cid,), mode, modules)) for cid in claims], workers).values():
        uses.update(part)
    by_formula: dict[str, list[str]] = {}
    for cid, names in uses.items():
        for name in names:
            by_formula.setdefault(name, []).append(cid)
    tasks, keys = [], []
    for name, cids in sorted(by_formula.items()):
        sample = _sample(modules, name)
        if formulas is not None and name not in formulas:
            continue
        for kind in kinds:
            if applies(None, kind, sample):
                keys.append((name, kind, tuple(cids)))
                tasks.append(((name, kind), run_mutated, (tuple(cids), mode, modules, name, kind)))
    got = run(tasks, workers)
    rows = []
    for name, kind, cids in keys:
        fresh = {r.id: r for r in got[(name, kind)]}
        again = [fresh.get(r.id) or copy.deepcopy(r) for r in results]
        rows.append(mutant_row(name, kind, cids, proved, resolve(again)))
    return rows


def statement_text(node: dict | None) -> str | None:
    """A graph node's statement as its derivation computed it from the formulas (None without a chain)."""
    node = node or {}
    chain = node.get("chain") or (node.get("own") or {}).get("chain")
    st = (chain or {}).get("statement")
    return st.get("text") if isinstance(st, dict) else None


def mutant_row(name: str, kind: str, cids, proved: dict, after_graph) -> dict:
    """One code mutant's row: each proved node of the claims `cids` read in the graph resolved under the mutant
    (`nodes`), the nodes whose computed statement the mutant changed (`built_on`: their statements are built from
    the formula), and `broke`: there is such a node and none of them is still proved. A node of the same claims whose
    statement the mutant left as it was is not built on the formula, and is not asked to break.

    Each node built on the formula that the mutant leaves proved is told apart (`survivors`, `survivor`): its
    mutated statement false somewhere and still read proved, a hole in the proof (`holes`), or no counterexample
    found by sampling (likely nothing to catch, not shown)."""
    watched = {k: n for k, n in proved.items() if n.get("claim") in cids}
    after = {k: after_graph.nodes[k].get("proof") if k in after_graph.nodes else "absent" for k in watched}
    built = sorted(k for k in watched if k not in after_graph.nodes
                   or statement_text(after_graph.nodes[k]) != statement_text(watched[k]))
    survivors = {k: survivor(after_graph.nodes[k], watched[k]) for k in built if after[k] == "proved"}
    return {"formula": name, "mutant": kind, "claims": list(cids), "nodes": after, "built_on": built,
            "broke": bool(built) and all(after[k] != "proved" for k in built), "survivors": survivors,
            "holes": sorted(k for k, v in survivors.items() if v["kind"] == "false but proved")}


#: the points of its domain a survivor's mutated statement is evaluated at (`survivor`)
SURVIVOR_POINTS = 64


def statement_object(node: dict | None):
    """A graph node's computed statement (`derivation.Statement`) rebuilt from its record's srepr, or None."""
    import sympy

    from .derivation import Statement
    chain = (node or {}).get("chain") or ((node or {}).get("own") or {}).get("chain")
    rec = (chain or {}).get("statement")
    if not isinstance(rec, dict) or not isinstance(rec.get("srepr"), dict):
        return None
    names = {**vars(sympy), **_toolkit_classes()}
    try:
        read = {k: eval(rec["srepr"][k], names) for k in ("lhs", "rhs")}      # srepr: sympy's own constructors
        given = tuple(eval(g, names) for g in rec["srepr"].get("given", ()))
        return Statement(read["lhs"], rec["op"], read["rhs"], given)
    except Exception:                           # a function class of the paper's own that srepr cannot name
        return None


def _toolkit_classes() -> dict:
    """The engine's own sympy classes by name (Pr, MaxOver, Cup, Ex, ...), which a statement's srepr names."""
    import sympy

    from . import derivation, schemas, sums
    return {k: v for m in (derivation, schemas, sums) for k, v in vars(m).items()
            if isinstance(v, type) and issubclass(v, sympy.Basic) and not k.startswith("_")}


#: the time the engine is given to decide a survivor's mutated statement itself (`survivor`)
SURVIVOR_SECONDS = 20.0


def survivor(node: dict, clean: dict | None = None) -> dict:
    """What a node that a code mutant leaves proved is (`mutant_row`): {"kind", "detail"}, the kind one of
    "false but proved" (its mutated statement is false at a point of its domain, replayed to 50 digits, or the
    engine refutes it: a hole), "still true" (the engine decides the mutated statement itself, apart from its
    proof, certified on its whole domain: the mutant made another true statement, which a sound proof may prove),
    "no counterexample sampled" (false at none of `SURVIVOR_POINTS` seeded points and not decided within
    `SURVIVOR_SECONDS`: a sample, not a proof, and the points outside its given relations are skipped, so fewer may
    have been evaluated; a statement false only near a boundary reads here), or "not read" (its statement could
    not be rebuilt or evaluated, or, read alone, it is false under the clean code too).

    A statement about the states of an algorithm's histories ("on E, ...") holds only where its proof's setting
    does: its relation alone, over its symbols' domain, may be false at points no history reaches. So a refutation
    counts only where the clean node's statement (`clean`, the node before the mutant), read the same way, is not
    refuted too; otherwise the survivor is "not read" (found by the tenth session's run: the repaired Tk_lowv2 and
    its inclusion read as holes under a 1% wider width, their clean statements false alone as well)."""
    out = _survivor(node)
    if out["kind"] != "false but proved" or clean is None:
        return out
    before = _survivor(clean)
    if before["kind"] == "false but proved":
        return {"kind": "not read", "detail": "read alone, over its symbols' domain, its statement is false under the "
                                              "clean code too (" + before["detail"][:100] + "): it holds only in its "
                                              "proof's setting (the histories on E), so its mutant's refutation says "
                                              "nothing of the proof"}
    return out


def _survivor(node: dict) -> dict:
    # the sampler is private to statements.py, whose bytes key the shipped decisions: read through its module
    from . import statements
    st = statement_object(node)
    if st is None:
        return {"kind": "not read", "detail": "its computed statement could not be rebuilt from its record"}
    try:
        found = statements._sample_refutation(statements.Holds(st.relation(), st.given), tries=SURVIVOR_POINTS)
    except Exception as err:                    # an expression the sampler cannot evaluate
        return {"kind": "not read", "detail": f"sampling failed: {type(err).__name__}: {str(err)[:120]}"}
    if found is not None:
        return {"kind": "false but proved", "detail": found.detail}
    d = statements.decide_within(statements.Holds(st.relation(), st.given), SURVIVOR_SECONDS)
    if d.status == "certified":
        return {"kind": "still true", "detail": f"its mutated statement is certified on its whole domain by {d.method} "
                                                f"(decided alone, apart from its proof): {d.detail[:120]}"}
    if d.status == "refuted":
        return {"kind": "false but proved", "detail": f"the engine refutes its mutated statement: {d.detail[:160]}"}
    return {"kind": "no counterexample sampled", "detail": f"false at none of {SURVIVOR_POINTS} seeded points tried "
                                                           "(those outside its given relations skipped, not counted); "
                                                           f"not decided alone: {d.detail[:100]}"}


def summary(rows: list[dict]) -> dict:
    """How many code mutants were tried, how many broke every proof whose statement is built on their formula,
    which did not, and which changed no proved statement (the formula is called, but no proved statement is
    built from it)."""
    return {"code_mutants": len(rows), "broke": sum(r["broke"] for r in rows),
            "survived": [f"{r['formula']} ({r['mutant']})" for r in rows if not r["broke"] and r.get("built_on", 1)],
            "no_statement": [f"{r['formula']} ({r['mutant']})" for r in rows if r.get("built_on") == []],
            # a node left proved whose mutated statement is false somewhere: the proof has a hole
            "holes": [f"{r['formula']} ({r['mutant']}): {k}" for r in rows for k in r.get("holes", [])],
            "unrefuted_survivors": [f"{r['formula']} ({r['mutant']}): {k}" for r in rows
                                    for k, v in r.get("survivors", {}).items()
                                    if v["kind"] == "no counterexample sampled"],
            # a node left proved whose mutated statement the engine certifies alone: another true statement
            "true_survivors": [f"{r['formula']} ({r['mutant']}): {k}" for r in rows
                               for k, v in r.get("survivors", {}).items() if v["kind"] == "still true"],
            "unread_survivors": [f"{r['formula']} ({r['mutant']}): {k}" for r in rows
                                 for k, v in r.get("survivors", {}).items() if v["kind"] == "not read"]}
