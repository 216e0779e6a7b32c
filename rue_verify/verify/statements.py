"""What a proof step states, and how the engine decides it: a step that is to be certified carries its
statement as an object (`Holds`: a sympy relation over a domain), and the engine, not the caller,
decides it. The step's text and its typeset formula are rendered from the same object, so a check
cannot be written apart from what it checks.

A `Holds` says: for every value of its free symbols allowed by their sympy assumptions (positive,
nonnegative, integer, ...) and by its `given` relations, `claim` is true. The engine decides it by

- **sympy** (`method="sympy"`): the claim's sides are evaluated (`doit`: derivatives, limits,
  integrals), their difference simplified, and its sign read from sympy's assumptions; an equality is
  certified only when the difference simplifies to 0. Its `given` relations are read where they bound a
  symbol or define one (x >= c, 0 < x <= c, a <= y, x = e): each as a substitution whose range holds every
  point it allows (x = c + t, t >= 0), the claim decided on that range (`_given_cases`); a relation it cannot
  read is left out and named, never assumed;
- **z3** (`method="z3"`): real arithmetic (polynomials, quotients, square roots, |.|, max, min) with
  every transcendental function (exp, log, erf, erfc, ...) replaced by a fresh variable constrained only by
  facts true of the function (sign, monotonicity between its applications, its value at one point,
  exp(a) >= 1 + a; for erf and erfc their range, oddness, erfc(x) <= exp(-x^2) for x >= 0 and Gordon's
  Mills-ratio bounds for x > 0: `_ToZ3.erf_facts`, each with where it is stated). An `unsat` of the negation
  over that abstraction is a proof, since every real counterexample would be a model of it. floor, ceiling,
  frac and Mod are read exactly, through an integer variable and its defining inequalities (floor(x) = k with
  k <= x < k + 1), and an integer symbol is a z3 integer (its arithmetic on the reals). A model that z3 finds
  is a counterexample only after it is replayed on the statement itself (mpmath, 50 digits); otherwise the
  step is argued. Always under a time limit; `unknown` is argued, never refuted;
- **arb** (`method="arb"`, with a `box`): a branch-and-bound with arb balls on the box only
  (`intervals.certify`, at most `Holds.max_boxes` boxes a relation, `ARB_MAX_BOXES` by default), so the step is
  certified *on the box* (`partial`), never on a larger domain, unless the statement is claimed on the box
  alone (its `given` is `on_box(box)`). One side of the box may be unbounded ([a, oo)): the tail past a cut
  is proved first (the claim itself there, or its margin monotone toward the box) and the box covers the
  rest (`_decide_arb`). Margins are read in arb's exponent range, so a margin that a float would round to 0
  is reported as it is. A point the box finds false refutes only as a point of the domain (an integer
  symbol's at an integer);
- `method="auto"` tries sympy (without the given relations), then z3, then sympy on the given's range.

Witnesses give an integer symbol's value as an integer. `Phi` and `phi` write the standard normal's
distribution function and density as the engine reads them (through erf and exp).

A statement speaks of the points where its expressions are defined: a quotient's denominator is
nonzero there, a square root's argument nonnegative, a logarithm's argument positive.

A decision that neither certifies nor refutes is `argued`, with its reason: a solver that is missing,
a time limit, an expression no method can read; where a seeded point of the domain makes the statement
false (both sides to 50 digits, beyond rounding), it is refuted there instead. A statement that is True
as written, or whose two sides are one expression, cannot fail and is argued. Nothing here raises on a
user's expression; `decide_within` adds a wall-clock limit (sympy has none of its own).

Every certified step is also shown able to fail: `mutants` lists its negation and at most `MAX_MUTANTS`
in all, a spread of kinds: a relation's operator flipped, a numeric constant times 2, over 2 and moved
up and down by 1% (one occurrence at a time, taken in turn from each part of a conjunction), a `Sum`'s
or `Product`'s index range shifted by one, a term's sign flipped, a factor dropped, a premise dropped (a
`given` relation, a symbol's sign assumption); `verify.proofs` adds, for a cited lemma, each condition's
object swapped for one the lemma says violates it. They are decided by the same method, and a mutant
counts as refuted only when the method refutes it (a replayed witness), never when it is not decided. A
step whose negation is certified too is vacuous (its domain is empty, or the method decides nothing)
and is argued.

Nothing here knows a paper."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from dataclasses import dataclass

#: the time limit of one z3 decision, in seconds (a step may set its own)
Z3_SECONDS = 10.0
#: how many constant occurrences a statement's mutants move at most (each up and down; `mutants`)
MAX_CONSTANT_MUTANTS = 4
#: how many mutants a statement has at most, its negation included (`kinded_mutants`: a spread of kinds);
#: each is decided under `proofs.MUTANT_SECONDS`, so this bounds the time of `proofs --mutants` per step
MAX_MUTANTS = 16
#: how many terms of sums (signs flipped) and factors of products (dropped) are candidates at most
MAX_SITES = 6
#: how many boxes an arb decision evaluates at most by default (`Holds.max_boxes`), for each relation it decides
ARB_MAX_BOXES = 20_000


@dataclass(frozen=True)
class Holds:
    """A statement a proof step makes, decided by the engine (module docstring).

    Args:
        claim: a sympy relation (`Eq`, `Le`, `Lt`, `Ge`, `Gt`, `Ne`) or a boolean combination of relations
            (`And`, `Or`, `Implies`, `Not`), true for every value of its free symbols in the domain; build
            relations with `evaluate=False` (or `rel`), so that sympy does not decide them on construction.
        given: relations assumed, the domain beyond the symbols' own assumptions.
        method: 'sympy', 'z3', 'arb' or 'auto' (sympy, then z3).
        box: for 'arb': {symbol: (low, high)}, every free symbol of the claim bounded; one side may have an
            infinite end (sympy.oo or -oo), whose tail past a cut is proved otherwise (`_decide_arb`).
        note: what a formula cannot say (where the step comes from), shown beside it.
        seconds: the time limit of a z3 decision.
        max_boxes: for 'arb': the budget of boxes of the branch-and-bound for each relation
            (`ARB_MAX_BOXES` by default); a box with little slack needs more, and a decision that ran out says
            so (argued, never refuted): raise it.
        cut: for 'arb' with an unbounded side: {symbol: X}, where the box ends and the tail begins (by default
            the finite end plus 1, then plus 8, outward).
    """

    claim: object
    given: tuple = ()
    method: str = "auto"
    box: dict | None = None
    note: str = ""
    seconds: float = Z3_SECONDS
    max_boxes: int = ARB_MAX_BOXES
    cut: dict | None = None

    def __post_init__(self) -> None:
        if self.method not in ("sympy", "z3", "arb", "auto"):
            raise ValueError(f"Holds.method is one of sympy, z3, arb, auto, got {self.method!r}")
        if self.method == "arb" and not self.box:
            raise ValueError("Holds(method='arb') needs a box: {symbol: (low, high)} for every free symbol")
        if isinstance(self.max_boxes, bool) or not isinstance(self.max_boxes, int) or self.max_boxes < 1:
            raise ValueError(f"Holds.max_boxes is a positive integer (the arb budget of boxes), got {self.max_boxes!r}")
        object.__setattr__(self, "given", tuple(self.given))

    def __reduce__(self):
        # sympy pickles an expression as its class applied to its arguments, which evaluates it again: an
        # unevaluated relation could come back as True in another process. Keep the expressions as written.
        return (_rebuild, (_encode(self.claim), tuple(_encode(g) for g in self.given), self.method, self.box,
                           self.note, self.seconds, self.max_boxes, self.cut))

    def latex(self) -> str:
        """The statement typeset: the claim, and after a comma the domain's relations and assumptions."""
        import sympy
        parts = [tex(self.claim)]
        dom = [tex(g) for g in self.given] + [_assumption_tex(s) for s in _symbols(self)]
        dom = [d for d in dom if d]
        if self.box:
            dom += [rf"{tex(s)} \in [{tex(sympy.sympify(lo))}, {tex(sympy.sympify(hi))}]"
                    for s, (lo, hi) in self.box.items()]
        return parts[0] + (r" \quad \text{for } " + ", ".join(dom) if dom else "")

    def text(self) -> str:
        """The statement in plain text (sympy's printer), with its domain."""
        dom = [str(g) for g in self.given] + [a for a in (_assumption_text(s) for s in _symbols(self)) if a]
        if self.box:
            dom += [f"{s} in [{lo}, {hi}]" for s, (lo, hi) in self.box.items()]
        return str(self.claim) + (f" for {', '.join(dom)}" if dom else "")


_OPS = {"Equality": "==", "Unequality": "!=", "LessThan": "<=", "StrictLessThan": "<", "GreaterThan": ">=",
        "StrictGreaterThan": ">"}


def _encode(e):
    """The logical layer of a statement as plain data (relations with their sides, And, Or, Not, Implies),
    the sides pickled as sympy expressions: sympy would rebuild a relation by evaluating it."""
    import sympy
    if isinstance(e, sympy.Rel):
        return ("rel", _OPS[type(e).__name__], e.lhs, e.rhs)
    if isinstance(e, (sympy.And, sympy.Or, sympy.Not, sympy.Implies)):
        return (type(e).__name__, tuple(_encode(a) for a in e.args))
    return ("expr", e)


def _decode(d):
    import sympy
    if d[0] == "rel":
        return rel(d[2], d[1], d[3])
    if d[0] == "expr":
        return d[1]
    return getattr(sympy, d[0])(*(_decode(a) for a in d[1]), evaluate=False)


def _rebuild(claim, given, method, box, note, seconds, max_boxes=ARB_MAX_BOXES, cut=None) -> "Holds":
    return Holds(_decode(claim), tuple(_decode(g) for g in given), method, box, note, seconds, max_boxes, cut)


@dataclass(frozen=True)
class Condition:
    """A side condition of a cited lemma, as a statement about the objects the step uses (`holds`), with
    the object that the lemma says violates it (`violator`: the same condition on a swapped object),
    which a mutant of the step puts in its place."""

    text: str
    holds: Holds
    violator: object = None          # a Holds, or an Argued where the violating object has no law to state


@dataclass
class Decision:
    """What the engine decided of a statement: `status` 'certified', 'refuted' or 'argued'; `method`
    that decided it; `detail` in words; `witness` (a counterexample, replayed); `partial` (the part of
    the domain left out: an arb box)."""

    status: str
    method: str
    detail: str
    witness: dict | None = None
    partial: str | None = None
    #: a z3 certificate: the SMT-LIB 2 text of exactly the problem z3 found unsat (`smt2_problem`), each
    #: abstraction fact and hypothesis a named assertion under a comment saying what it is (`rue_verify.certify.smt`
    #: re-decides it with cvc5); None for every other decision
    smt2: str | None = None
    #: an arb certificate: the box covers the branch-and-bound accepted (`intervals.statement_cover`: every box's
    #: exact sides, its margin's enclosure, the margin's expression tree, the tail's proof where a side is
    #: unbounded; `rue_verify.certify.boxes` re-checks it with arb); None for every other decision
    cover: dict | None = None


def rel(lhs, op: str, rhs):
    """A sympy relation `lhs op rhs` left unevaluated (op: ==, !=, <=, <, >=, >)."""
    import sympy
    cls = {"==": sympy.Eq, "!=": sympy.Ne, "<=": sympy.Le, "<": sympy.Lt, ">=": sympy.Ge, ">": sympy.Gt}[op]
    return cls(sympy.sympify(lhs), sympy.sympify(rhs), evaluate=False)


def Phi(x):
    """The standard normal distribution function, (1 + erf(x/sqrt(2)))/2, as the engine reads it: 1 - Phi(x)
    is erfc(x/sqrt(2))/2, and z3 knows Gordon's bounds on it (`_ToZ3.erf_facts`)."""
    import sympy
    return (1 + sympy.erf(sympy.sympify(x) / sympy.sqrt(2))) / 2


def phi(x):
    """The standard normal density, exp(-x^2/2)/sqrt(2 pi)."""
    import sympy
    return sympy.exp(-sympy.sympify(x) ** 2 / 2) / sympy.sqrt(2 * sympy.pi)


# ----------------------------------------------------------------------------------------------- decide
def decide(st: Holds) -> Decision:
    """Decide `st` by its method (module docstring); never raises on the statement's content."""
    try:
        import sympy
    except ImportError:                       # pragma: no cover - sympy is a core dependency
        return Decision("argued", "none", "sympy is not installed")
    claim = st.claim
    if not isinstance(claim, sympy.Basic):
        return Decision("argued", "none", f"a statement is a sympy relation, got {type(claim).__name__}: a bare "
                                          "value certifies nothing")
    if claim in (sympy.true, sympy.false):
        return Decision("argued", "none", f"the statement is {claim} as written (sympy decided it on construction, "
                                          "before any domain): build it with evaluate=False, or state what it checks")
    same = [str(part) for part in _parts(claim) if isinstance(part, sympy.Rel) and part.lhs == part.rhs]
    if same:
        return Decision("argued", "none", f"both sides of {same[0]} are the same expression as written, so the check "
                                          "cannot fail: state what the step derives")
    moved = _misprinted_number(claim, *st.given)
    if moved:
        return Decision("argued", "none", f"the number {moved} in it prints as another number: its text would state "
                                          "another claim than the one decided (write it as an exact rational)")
    key = _cache_key(st)
    hit = _cache_get(key)
    if hit is not None:
        return hit
    try:
        d = _decide(st)
    except Exception as err:                   # an expression a method cannot read: argued, with why
        d = Decision("argued", st.method, f"the {st.method} decision failed: {type(err).__name__}: {str(err)[:200]}")
    if d.status == "argued":                   # not decided: a point where it is false refutes it all the same
        d = _sample_refutation(st) or d
    _cache_put(key, d, st=st)
    return d


def _misprinted_number(*exprs) -> str | None:
    """A Float of `exprs` that its printed text does not denote (0.1 + 0.2, the double 0.30000000000000004, prints
    as 0.3, so that '0.3 > 0.3' would read certified): its repr, or None. A double is read back from its text as a
    double (1.4 prints as 1.40000000000000, which reads back as the same double); another precision, as sympy reads
    a Float of that precision."""
    import sympy
    for e in exprs:
        for f in getattr(e, "atoms", lambda *_: ())(sympy.Float):
            text = str(f)
            same = (float(text) == float(f)) if f._prec == 53 else (sympy.Float(text, precision=f._prec) == f)
            if not same:
                return repr(f)
    return None


# ----------------------------------------------------------------------------------------------- the decision cache
#: where decisions are kept between runs (`RUE_VERIFY_CACHE`: a directory, or 0 / off for none); a decision is a
#: pure function of its statement and of the engine's code, so it is kept under a key of both (`_cache_key`)
CACHE_ENV = "RUE_VERIFY_CACHE"
_ENGINE: list = []


def _cache_dir():
    import os
    from pathlib import Path
    where = os.environ.get(CACHE_ENV, "")
    if where.lower() in ("0", "off", "no", "false"):
        return None
    base = Path(where) if where else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rue-verify"
    return base / "decisions"


def _engine_hash() -> str:
    """The hash of the code a decision depends on (this module and `intervals`; `derivation` and `sums`, whose
    objects' signs the decisions read; the versions of sympy, z3, python-flint and mpmath): a changed engine decides
    afresh."""
    if not _ENGINE:
        import hashlib
        from importlib import metadata
        from pathlib import Path
        h = hashlib.sha256()
        for name in ("statements.py", "intervals.py", "derivation.py", "sums.py"):
            h.update((Path(__file__).with_name(name)).read_bytes())
        for dist in ("sympy", "z3-solver", "python-flint", "mpmath"):
            try:
                h.update(f"{dist}={metadata.version(dist)}".encode())
            except metadata.PackageNotFoundError:
                h.update(dist.encode())
        _ENGINE.append(h.hexdigest()[:16])
    return _ENGINE[0]


def _cache_key(st: Holds) -> str | None:
    """A statement's key: its claim, given relations, method and limits written out (sympy's srepr, every Dummy
    renamed by its order of creation, so the same statement built again has the same key), with the engine's hash.
    None where it cannot be written."""
    import hashlib

    import sympy
    try:
        parts = [st.claim, *st.given]
        dummies = sorted({d for p in parts for d in sympy.sympify(p).atoms(sympy.Dummy)}, key=lambda d: d.dummy_index)
        order = {d.dummy_index: i for i, d in enumerate(dummies)}       # renamed in the text: a substitution would
        text = re.sub(r"dummy_index=(\d+)", lambda m: f"dummy_index=#{order.get(int(m.group(1)), m.group(1))}",
                      "|".join(sympy.srepr(p) for p in parts))           # let sympy evaluate the relation
        box = sorted((str(k), str(v)) for k, v in (st.box or {}).items())
        text += f"|{st.method}|{st.seconds}|{st.max_boxes}|{box}|{st.cut}"
        # sympy's srepr omits an undefined function's assumptions (and a sequence's declared facts): two functions
        # of one name with other assumptions are other statements, so their assumptions are part of the key
        funcs = sorted({type(a) for p in parts for a in sympy.sympify(p).atoms(sympy.core.function.AppliedUndef)},
                       key=str)
        text += "|" + ";".join(f"{f}:{sorted((k, str(v)) for k, v in getattr(f, '_kwargs', {}).items())}"
                               for f in funcs)
    except Exception:
        return None
    return _engine_hash() + "-" + hashlib.sha256(text.encode()).hexdigest()


def _cache_get(key: str | None) -> Decision | None:
    """The kept decision of `key`: this machine's cache first, then the decisions shipped with the package
    (`shipped_decisions`: the paper's statements decided by this very engine, matched only under its hash)."""
    import json
    where = _cache_dir()
    if key is None or where is None:
        return None
    try:
        data = json.loads((where / f"{key}.json").read_text())
        return Decision(**data["decision"])
    except Exception:                      # absent, unreadable or from another layout: the shipped ones, or afresh
        pass
    data = shipped_decisions().get(key)
    try:
        return None if data is None else Decision(**data["decision"])
    except Exception:
        return None


def kept_statement(entry: dict) -> "Holds | None":
    """The statement a kept decision (`shipped_decisions()[key]`) decided, rebuilt (so it can be decided afresh and
    compared); None where it cannot be."""
    import base64
    import pickle
    try:
        return pickle.loads(base64.b64decode(entry["holds"]))
    except Exception:
        return None


#: the decisions shipped with the package, read once (`shipped_decisions`)
_SHIPPED: dict = {}
#: where they are, in the package (`rue_verify/data`), and how they are built (`pack_decisions`)
SHIPPED_FILE = "decisions.json.gz"


def shipped_decisions() -> dict:
    """{key: decision} shipped in `rue_verify/data/decisions.json.gz`: the decisions a run of the test suite's
    ledger made, under this engine's hash only (a changed engine finds none and decides afresh). Empty where the
    file is absent or unreadable. The suite re-decides a sample of them afresh and compares (tests/verify)."""
    if "all" not in _SHIPPED:
        import gzip
        import json
        from importlib import resources
        try:
            raw = resources.files("rue_verify").joinpath("data", SHIPPED_FILE).read_bytes()
            pack = json.loads(gzip.decompress(raw))
            _SHIPPED["all"] = pack["decisions"] if pack.get("engine") == _engine_hash() else {}
        except Exception:
            _SHIPPED["all"] = {}
    return _SHIPPED["all"]


def pack_decisions(cache_dir, out) -> int:
    """Write `out` (gzip JSON) from the decisions kept in `cache_dir` under this engine's hash; how many."""
    import gzip
    import json
    from pathlib import Path
    engine = _engine_hash()
    got = {}
    for f in sorted(Path(cache_dir).glob(f"{engine}-*.json")):
        try:
            got[f.stem] = json.loads(f.read_text())
        except Exception:
            continue
    data = json.dumps({"engine": engine, "decisions": got}, sort_keys=True).encode()
    Path(out).write_bytes(gzip.compress(data, 9, mtime=0))
    return len(got)


def _cache_put(key: str | None, d: Decision, keep_timed: bool = False, st: "Holds | None" = None) -> None:
    """Keep `d` (not a decision a time limit cut short, which another run may finish, unless `keep_timed`), written
    whole or not at all (a temporary file renamed into place, so a reader never sees half of it)."""
    import dataclasses
    import json
    import os
    import tempfile
    where = _cache_dir()
    if key is None or where is None or (d.status == "argued" and not keep_timed and any(w in d.detail for w in _TIMED)):
        return
    try:
        entry = {"decision": dataclasses.asdict(d)}
        if st is not None:                 # the statement itself, so that a kept decision can be re-decided
            import base64
            import pickle
            try:
                entry["holds"] = base64.b64encode(pickle.dumps(st)).decode()
            except Exception:
                pass
        text = json.dumps(entry)
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, where / f"{key}.json")
    except Exception:                      # a full disk, a read-only home: the decision stands, only not kept
        try:
            os.unlink(tmp)
        except Exception:
            pass


#: words of a decision a time limit cut short (never kept: another run, less loaded, may finish it)
_TIMED = ("within", "timeout", "canceled", "time limit", "interrupted")


def _honest_indices(e):
    """`e` with each sum's and product's index, and each definite integral's variable, replaced by a fresh symbol
    whose assumptions are what its range shows (an integer index from a lower limit >= 1 positive, >= 0
    nonnegative, an upper limit <= -1 negative...; a variable of integration the same from its limits, real):
    an index declared negative over 1..n would otherwise decide a sum's sign. Outermost first, so an inner range
    reads its outer indices honestly too."""
    import sympy
    if not isinstance(e, sympy.Basic) or not e.has(sympy.Sum, sympy.Product, sympy.Integral):
        return e
    if isinstance(e, (sympy.Sum, sympy.Product, sympy.Integral)) and all(len(lim) == 3 for lim in e.limits):
        f, limits = e.function, []
        for v, lo, hi in e.limits:
            lo, hi = _honest_indices(lo), _honest_indices(hi)
            a = {"integer": True} if not isinstance(e, sympy.Integral) else {"real": True}
            if lo.is_positive or (a.get("integer") and (lo - 1).is_nonnegative):
                a["positive"] = True
            elif lo.is_nonnegative:
                a["nonnegative"] = True
            elif hi.is_negative or (a.get("integer") and (hi + 1).is_nonpositive):
                a["negative"] = True
            elif hi.is_nonpositive:
                a["nonpositive"] = True
            said = {w for w in ("positive", "nonnegative", "negative", "nonpositive", "nonzero", "integer")
                    if v._assumptions_orig.get(w)}
            implied = set(a) | ({"nonnegative", "nonzero"} if "positive" in a else set()) | (
                {"nonpositive", "nonzero"} if "negative" in a else set())
            if said <= implied:             # what it is declared, its range shows: kept (the same statement)
                limits.append((v, lo, hi))
                continue
            j = sympy.Symbol(v.name, **a)   # one symbol per name and range, so two sums over one range stay one
            f = f.xreplace({v: j})
            limits.append((j, lo, hi))
        return e.func(_honest_indices(f), *limits)
    args = [_honest_indices(a) for a in e.args]
    return e.func(*args, evaluate=False) if isinstance(e, (sympy.Add, sympy.Mul, sympy.Pow, sympy.Rel)) \
        else e.func(*args)


def _decide(st: Holds) -> Decision:
    import sympy
    if any(x.has(sympy.Sum, sympy.Product, sympy.Integral) for x in (st.claim, *st.given)
           if isinstance(x, sympy.Basic)):
        st = dataclasses.replace(st, claim=_honest_indices(st.claim),
                                 given=tuple(_honest_indices(g) for g in st.given))
    if st.method == "arb":
        return _decide_arb(st)
    if st.method in ("sympy", "auto"):
        d = _decide_sympy(st, read_given=st.method == "sympy")
        if d.status != "argued" or st.method == "sympy":
            return d
    d = _decide_z3(st)
    if st.method == "auto" and st.given and d.status == "argued":      # z3 could not: sympy on the given's range
        s = _decide_sympy(st)
        if s.status == "certified":
            return s
    return d


def decide_within(st: Holds, seconds: float) -> Decision:
    """`decide` under a wall-clock limit: in a forked process, stopped past `seconds` (sympy has no time
    limit of its own); a decision that did not finish is argued, with that reason. A point where the
    statement is false refutes it first (`_sample_refutation`), inside the same limit."""
    import multiprocessing as mp
    try:
        ctx = mp.get_context("fork")
    except ValueError:                         # no fork on this platform: no limit
        return _sample_refutation(st) or decide(st)
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_decide_into, args=(st, send), daemon=True)
    proc.start()
    send.close()
    try:
        if recv.poll(seconds):
            return recv.recv()
        return Decision("argued", st.method, f"not decided within {seconds:g} s")
    except EOFError:
        return Decision("argued", st.method, "the decision's process ended without an answer")
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()


def _decide_into(st: Holds, send) -> None:
    send.send(_sample_refutation(st) or decide(st))
    send.close()


def _symbols(st: Holds) -> list:
    import sympy
    out = set(getattr(st.claim, "free_symbols", set()))
    for g in st.given:
        out |= sympy.sympify(g).free_symbols
    return sorted(out, key=str)


_SIGNS = ("positive", "nonnegative", "negative", "nonpositive", "nonzero", "integer")


def _assumption_text(s) -> str:
    said = [a for a in _SIGNS if s.assumptions0.get(a) and not (a == "nonnegative" and s.is_positive)
            and not (a == "nonzero" and (s.is_positive or s.is_negative))]
    return f"{s} {' '.join(said)}" if said else ""


def _assumption_tex(s) -> str:
    t = _assumption_text(s)
    return rf"{tex(s)}\ \text{{{t[len(str(s)) + 1:]}}}" if t else ""


def tex(e) -> str:
    """sympy's LaTeX of `e`, kept per expression in this process: a derivation's links share its domain, which
    every link's statement typesets again (about 7 s of the quick report's CPU before; sympy's printer depends on
    the expression alone, and equal expressions, assumptions included, print alike)."""
    try:
        return _tex(e)
    except TypeError:                   # not hashable: typeset as it is
        import sympy
        return sympy.latex(e)


@functools.lru_cache(maxsize=16_384)
def _tex(e) -> str:
    import sympy
    return sympy.latex(e)


def _parts(claim):
    """The relations of a conjunction (a claim `And(a, b)` holds when each part does)."""
    import sympy
    return list(claim.args) if isinstance(claim, sympy.And) else [claim]


def _decide_sympy(st: Holds, read_given: bool = True) -> Decision:
    """sympy's decision (module docstring). With `given` relations: true for every value is true on the domain;
    else each given relation that bounds a symbol (x >= c, x < c, x = e, a <= y, ...) is read as a substitution
    whose range holds every point it allows (`_given_cases`), and the claim is decided on that range, every
    case of it; a relation it cannot read is left out (a larger domain, so a certificate stays sound) and named.
    `read_given` False: the claim without its given relations only (`auto` reads them by z3 first)."""
    if not st.given:
        return _sympy_parts(st.claim, [{}])
    bare = _sympy_parts(st.claim, [{}], everywhere=True)
    if bare.status == "certified":
        return dataclasses.replace(bare, detail=bare.detail + "; true without the given relations, so on their domain")
    if bare.status == "refuted":
        return _false_on_domain(st, bare)
    if not read_given:
        return Decision("argued", "sympy", f"without the given relations: {bare.detail}")
    cases, said, unread = _given_cases(st)
    skipped = f"; the given {', '.join(map(str, unread))} not read (sympy reads bounds on a symbol and equations " \
              "for one)" if unread else ""
    if not said:
        return Decision("argued", "sympy", "sympy could not read the given relations as bounds or equations"
                        f"{skipped}, and without them: {bare.detail}")
    d = _sympy_parts(st.claim, cases, refute=False)
    how = f"under the given relations read as {'; '.join(said)}"
    if d.status == "certified":
        return dataclasses.replace(d, detail=f"{d.detail}, {how}{skipped}")
    return Decision("argued", "sympy", f"{how}{skipped}: {d.detail}")


def _false_on_domain(st: Holds, bare: Decision) -> Decision:
    """A claim sympy finds false at every value its symbols' assumptions allow (`_sympy_parts(everywhere=True)`)
    is false on the statement's domain once that domain holds a point: refuted with a point where every given
    relation and assumption holds (50 digits), found by the sampler or, for given equations, by solving them
    (`domain_points`), the claim itself not evaluated there (it may hold functions no point evaluates). With no
    such point found, the domain may be empty (a statement about nothing is true): argued."""
    point = _domain_point(st)
    if point is None:
        return Decision("argued", "sympy", f"{bare.detail}; no point of its domain (the given relations) was found, "
                                           "and a claim false everywhere holds on an empty domain")
    params = _params(point)
    return Decision("refuted", "sympy", f"{bare.detail}; its domain holds {params} (the given relations and the "
                                        "assumptions decided there exactly)",
                    witness={"params": params, "difference": bare.witness.get("difference", "")})


def solved_for(givens: list, symbols: list) -> dict | None:
    """symbol -> its expression in the others, one per given equation (each later equation with the earlier
    solutions substituted), or None where an equation cannot be solved for any of its symbols."""
    import sympy
    out: dict = {}
    for eq in givens:
        e = eq.lhs - eq.rhs
        e = e.xreplace(out) if out else e
        free = [s for s in symbols if s in e.free_symbols and s not in out]
        order = [s for s in free if not s.is_integer] + [s for s in free if s.is_integer]
        for s in order:
            try:
                roots = [r for r in sympy.solve(e, s) if not r.has(sympy.I)]
            except (NotImplementedError, ValueError, TypeError):
                continue
            if roots:
                out = {k: v.xreplace({s: roots[0]}) for k, v in out.items()}
                out[s] = roots[0]
                break
        else:
            return None
    return out


def _domain_point(st: Holds, tries: int = 32) -> dict | None:
    """A point where every given relation of `st` and every symbol's assumptions hold, decided exactly (the
    symbols drawn as exact rationals, `_draw`; a given equation solved for one of its symbols and that symbol's
    value kept exact, `solved_for`; each relation then evaluated by sympy on exact numbers, no
    tolerance), or None. Givens holding functions or sequences are not evaluated: None."""
    import random

    import sympy
    from sympy.core.function import AppliedUndef

    given = [sympy.sympify(g) for g in st.given]
    if any(g.atoms(sympy.Indexed, AppliedUndef) for g in given):
        return None
    syms = sorted({x for g in given for x in g.free_symbols if isinstance(x, sympy.Symbol)}, key=str)
    solved = solved_for([g for g in given if isinstance(g, sympy.Eq)], syms) or {}
    rng = random.Random("domain:" + sympy.srepr(st.claim)[:200])
    for _ in range(tries):
        point = {x: _draw(rng, x, st.box.get(x) if st.box else None) for x in syms if x not in solved}
        try:
            for x, expr in solved.items():
                v = expr.xreplace(point)
                if v.free_symbols or v.is_real is not True or (x.is_integer and v.is_integer is not True):
                    raise ValueError("not a value of its symbol")
                point[x] = v
            if not all(_admits(x, v) for x, v in point.items()):
                continue
            if all(g.xreplace(point) is sympy.true for g in given):
                return point
        except (ValueError, TypeError, ZeroDivisionError):
            continue
    return None


def _sympy_parts(claim, cases: list, refute: bool = True, everywhere: bool = False) -> Decision:
    """Each relation of the claim decided by sympy in every case (a substitution: `_given_cases`): the
    difference of its sides simplified, its sign read from the symbols' assumptions. A relation false at every
    value refutes the claim where the difference is a number (`refute`); with `everywhere` also where it holds
    symbols whose assumptions make it false at each of their values (the caller then shows the domain has a point,
    `_false_on_domain`)."""
    import sympy
    verdicts = []
    for part in _parts(claim):
        if isinstance(part, sympy.Not) and isinstance(part.args[0], sympy.Rel):
            part = part.args[0].negated
        if not isinstance(part, sympy.Rel):
            return Decision("argued", "sympy", f"sympy decides relations, not {type(part).__name__}")
        for sub in cases:
            lhs, rhs = _doit(part.lhs), _doit(part.rhs)
            if sub:
                lhs, rhs = lhs.subs(sub), rhs.subs(sub)
            # a sum whose range may run backwards is read as empty by the engine, as Karr's negative by sympy's
            # simplify: it stays an unknown through the simplification (`_doit`)
            back = {sympy.Dummy("unevaluated_sum"): x for x in (lhs.atoms(sympy.Sum) | rhs.atoms(sympy.Sum))
                    if not _forward(x)}
            if back and any(x.free_symbols & (_calculus_variables(lhs) | _calculus_variables(rhs))
                            for x in back.values()):
                return Decision("argued", "sympy", f"{part}: a sum whose range may run backwards under a derivative "
                                                   "or an integral in its variable (sympy's convention and the "
                                                   "engine's differ there)")
            if back:
                keep = {v: k for k, v in back.items()}
                lhs, rhs = lhs.xreplace(keep), rhs.xreplace(keep)
            infinite = lhs.has(sympy.oo, -sympy.oo) or rhs.has(sympy.oo, -sympy.oo)
            if infinite and not isinstance(part, (sympy.Eq, sympy.Ne)):
                direct = part.func(lhs, rhs)               # sympy compares with an infinity itself (finite < oo)
                if direct is sympy.true:
                    continue
                return Decision("argued", "sympy", f"sympy could not decide {part} (it reads {_short(direct)})")
            d = sympy.factor_terms(lhs - rhs)                        # factor_terms: constants out of sums
            large = bool(sub) and sympy.count_ops(d) > MAX_SUBSTITUTED_OPS
            if not large:               # a substituted difference too large to simplify in good time is read as is
                d = sympy.simplify(d)
                if d != 0 and d.has(sympy.erfc):
                    d = sympy.simplify(d.rewrite(sympy.erf))             # erfc = 1 - erf
            ok, bad = _sign_verdict(part, d)
            if not ok and sub and not large:                         # a substituted difference: its factored form
                ok, bad = _sign_verdict(part, sympy.factor(sympy.together(d)))
            if bad and refute and (not d.free_symbols or (everywhere and not sub)):
                said = "" if not d.free_symbols else " at every value its symbols' assumptions allow"
                return Decision("refuted", "sympy", f"{part} is false{said}: the sides differ by {_short(d)}",
                                witness={"params": {}, "difference": str(d)})
            if not ok:
                return Decision("argued", "sympy", f"sympy could not decide {part} (the sides differ by "
                                                   f"{_short(d.xreplace(back) if back else d)})")
        verdicts.append(str(part))
    return Decision("certified", "sympy", "sympy: " + "; ".join(verdicts) + " (difference simplified, sign read "
                                                                           "from the symbols' assumptions)")


def _sign_verdict(part, d) -> tuple[bool, bool]:
    """(certainly true, certainly false) of the relation `part` whose sides differ by `d` (lhs - rhs)."""
    import sympy
    if isinstance(part, sympy.Eq):
        return d == 0 or d.is_zero is True, d.is_zero is False
    if isinstance(part, sympy.Ne):
        return d.is_zero is False, d == 0
    diff = d if isinstance(part, (sympy.Ge, sympy.Gt)) else -d       # want diff >= 0 (or > 0)
    if isinstance(part, (sympy.Gt, sympy.Lt)):
        return diff.is_positive is True, diff.is_nonpositive is True
    return diff.is_nonnegative is True, diff.is_negative is True


#: how many cases (substitutions) a statement's given relations may make (`_given_cases`)
MAX_GIVEN_CASES = 8
#: the size (sympy's count_ops) above which a difference under a substitution is not simplified (sympy has no
#: time limit of its own; its sign is then read as it stands)
MAX_SUBSTITUTED_OPS = 300


def _given_cases(st: Holds) -> tuple[list[dict], list[str], list]:
    """The given relations of `st` as substitutions whose range contains every point they allow (so a claim
    true on the range is true on the domain): (cases, what was read, the relations not read).

    - constant bounds on a symbol (with its own sign assumption): x >= c as x = c + t (t >= 0; t > 0 for
      x > c), x <= c as x = c - t; both, c <= x <= d, as x = c + (d - c) t/(1 + t) (t >= 0), which covers
      [c, d), and a second case x = d (not when x < d);
    - an equation x = e (e free of x) as x = e;
    - then, in order, any relation between a symbol and an expression free of it (a <= y: y = a + t), on the
      symbols' substituted values.

    An integer symbol bounded by an integer keeps an integer t. A relation read neither way is left out."""
    import sympy
    given = [sympy.sympify(g) for g in st.given]
    lows: dict = {}
    highs: dict = {}
    used: set = set()
    for i, g in enumerate(given):            # constant bounds on a symbol
        b = _bound(g)
        if b and b[2].is_number and b[2].is_real and b[1] != "==":
            s, op, c = b
            side = lows if op in (">", ">=") else highs
            old = side.get(s)
            tighter = old is None or (c > old[0] if side is lows else c < old[0]) or (c == old[0] and op in ("<", ">"))
            if tighter:
                side[s] = (c, op in ("<", ">"))
            used.add(i)
    for s in list(lows) + list(highs):        # a symbol's own sign, where the given has no bound on that side
        if s.is_positive or s.is_nonnegative:
            lows.setdefault(s, (sympy.Integer(0), bool(s.is_positive)))
        if s.is_negative or s.is_nonpositive:
            highs.setdefault(s, (sympy.Integer(0), bool(s.is_negative)))
    cases: list[dict] = [{}]
    said = []
    for s in sorted(set(lows) | set(highs), key=str):
        lo, hi = lows.get(s), highs.get(s)
        if lo and hi:
            t = sympy.Dummy(f"t_{s}", positive=True) if lo[1] else sympy.Dummy(f"t_{s}", nonnegative=True)
            inside = lo[0] + (hi[0] - lo[0]) * t / (1 + t)
            here = [{**c, s: inside} for c in cases] + ([{**c, s: hi[0]} for c in cases] if not hi[1] else [])
            said.append(f"{s} = {_plain(inside)} with {t.name} {'>' if lo[1] else '>='} 0"
                        + ("" if hi[1] else f", and {s} = {hi[0]}"))
            cases = here
        else:
            c, strict = lo or hi
            integer = bool(s.is_integer and c.is_integer)
            t = sympy.Dummy(f"t_{s}", **({"positive": True} if strict else {"nonnegative": True}),
                            **({"integer": True} if integer else {}))
            value = c + t if lo else c - t
            cases = [{**cc, s: value} for cc in cases]
            said.append(f"{s} = {_plain(value)} with {t.name} {'>' if strict else '>='} 0"
                        + (" an integer" if integer else ""))
        if len(cases) > MAX_GIVEN_CASES:
            return [{}], [], list(st.given)
    unread = []
    for i, g in enumerate(given):             # equations and relations between symbols, in order, in every case
        if i in used:
            continue
        nows = [g.subs(c) if c else g for c in cases]
        if all(now is sympy.true or (not getattr(now, "free_symbols", True) and _truth(now, {}) is True)
               for now in nows):
            continue                              # implied by what was read, or true of numbers (1 <= 2)
        bs = [_bound(now) if isinstance(now, sympy.Rel) else None for now in nows]
        if not all(bs) or len({(b[0], b[1]) for b in bs}) != 1 or any(bs[0][0] in c for c in cases):
            unread.append(st.given[i])
            continue
        s, op, _ = bs[0]
        strict = op in ("<", ">")
        t = sympy.Dummy(f"t_{s}", **({"positive": True} if strict else {"nonnegative": True}))
        values = [b[2] if op == "==" else (b[2] + t if op in (">", ">=") else b[2] - t) for b in bs]
        what = (f"{s} = {_plain(values[0])}" + ("" if op == "==" else f" with {t.name} {'>' if strict else '>='} 0")
                + (" (in the first case; each case its own)" if len(set(values)) > 1 else ""))
        cases = [{**{k: v.subs(s, value) for k, v in c.items()}, s: value} for c, value in zip(cases, values)]
        said.append(what)
    return cases, said, unread


def _plain(e):
    """An expression with its substitution variables (sympy Dummy symbols, printed _t) printed by name."""
    import sympy
    return sympy.sympify(e).xreplace({d: sympy.Symbol(d.name) for d in sympy.sympify(e).atoms(sympy.Dummy)})


def _bound(g):
    """A relation read as (symbol, op, expression free of the symbol), the symbol on the left: x >= c, c < x
    (as x > c), ...; None otherwise. A symbol of the statement is read before a substitution's own variable."""
    import sympy
    if not isinstance(g, sympy.Rel) or isinstance(g, sympy.Ne):
        return None
    flip = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "=="}
    op = _OPS[type(g).__name__]
    reads = []
    if isinstance(g.lhs, sympy.Symbol) and g.lhs not in g.rhs.free_symbols:
        reads.append((g.lhs, op, g.rhs))
    if isinstance(g.rhs, sympy.Symbol) and g.rhs not in g.lhs.free_symbols:
        reads.append((g.rhs, flip[op], g.lhs))
    reads.sort(key=lambda r: isinstance(r[0], sympy.Dummy))
    return reads[0] if reads else None


def _short(e, n: int = 120) -> str:
    s = str(e)
    return s if len(s) <= n else s[:n] + "..."


# --------------------------------------------------------------------------------------------------- z3
class _Untranslatable(Exception):
    pass


def _atom_kind(e) -> str | None:
    """'term' for a term of an undefined sequence or function (f(k)), 'range' for a sum or a maximum over a
    range (`verify.sums.MaxOver`, by name: this module knows no rule), None otherwise."""
    import sympy
    if isinstance(e, sympy.core.function.AppliedUndef):
        return "term"
    if isinstance(e, sympy.Sum) or type(e).__name__ == "MaxOver":
        return "range"
    return None


def _range_sign(e) -> str | None:
    """The sign of a sum or a maximum over a range, from its terms' at every index of the range: each index written
    lo + j, j a nonnegative integer (the index symbol's own assumptions are not used). A sum of nonnegative terms
    is >= 0 (an empty range sums to 0); a maximum (over a nonempty range) of positive terms is > 0."""
    import sympy
    if isinstance(e, sympy.Sum):
        f, limits, is_max = e.function, list(e.limits), False
    else:
        f, (k, lo, hi) = e.args
        limits, is_max = [(k, lo, hi)], True
        if (hi - lo).is_nonnegative is not True:          # a maximum over a range not shown nonempty: no sign
            return None
        if lo.is_integer is not True or hi.is_integer is not True:
            return None      # a maximum over the range's integers: lo + j runs over them only when lo is an integer
            # (a sum runs lo, lo + 1, ... as sympy sums it, integer ends or not)
    for k, lo, _ in limits:
        f = f.xreplace({k: lo + sympy.Dummy("j", integer=True, nonnegative=True)})
    if f.is_positive:
        return "positive" if is_max else "nonnegative"
    if f.is_nonnegative:
        return "nonnegative"
    if f.is_negative:
        return "negative" if is_max else "nonpositive"
    if f.is_nonpositive:
        return "nonpositive"
    return None


class _ToZ3:
    """sympy -> z3 over the reals, transcendental functions abstracted by sound facts (module docstring)."""

    def __init__(self, z3):
        self.z3 = z3
        self.vars: dict = {}
        self.reals: dict = {}
        self.side: list = []
        self.why: list[str] = []              # what each fact of `side` is, and where it comes from (its comment)
        self.apps: dict[str, list] = {}       # function name -> [(z3 argument, z3 value)]
        self.fresh = itertools.count()

    def fact(self, *pairs) -> None:
        """Facts of the abstraction, each (z3 condition, what it is and where it comes from)."""
        for c, why in pairs:
            self.side.append(c)
            self.why.append(why)

    def guarded(self, guard, e):
        """`e` translated, the facts its translation adds holding only under `guard` (a Piecewise branch where it is
        taken, an implication's consequent where its premise holds): what defines a part of the formula (a
        denominator nonzero, a root's square) must not constrain the points where that part is not evaluated."""
        z3 = self.z3
        n = len(self.side)
        out = self(e)
        new, why = self.side[n:], self.why[n:]
        del self.side[n:], self.why[n:]
        self.fact(*[(z3.Implies(guard, f), f"{w} (where this part is evaluated)") for f, w in zip(new, why)])
        return out

    def unique(self, name: str) -> str:
        """`name`, or `name__k` when a variable of this problem has it already: z3 identifies a variable by its
        name, so two sympy symbols of one name (a real t and a positive t, two Dummies) must not become one."""
        used = self.__dict__.setdefault("names", set())
        out, k = name, 0
        while out in used:
            k += 1
            out = f"{name}__{k}"
        used.add(out)
        return out

    def var(self, s):
        z3 = self.z3
        if s not in self.vars:
            name = self.unique(str(s))
            v = z3.Int(name) if s.is_integer else z3.Real(name)
            self.vars[s] = v
            if s.is_integer:                  # arithmetic on the reals (z3's Int division is integer division)
                self.reals[s] = z3.ToReal(v)
            for a, c, op in (("positive", v > 0, ">"), ("nonnegative", v >= 0, ">="), ("negative", v < 0, "<"),
                             ("nonpositive", v <= 0, "<="), ("nonzero", v != 0, "!=")):
                if s.assumptions0.get(a):
                    self.fact((c, f"{s} {op} 0: the symbol's sympy assumption {a}"))
        return self.reals.get(s, self.vars[s])

    def new(self, name: str):
        return self.z3.Real(self.unique(f"_{name}{next(self.fresh)}"))

    def app(self, name: str, arg):
        for a, v in self.apps.setdefault(name, []):
            if a.eq(arg):
                return v
        v = self.new(name)
        self.apps[name].append((arg, v))
        return v

    def integer_part(self, name: str, arg):
        """floor (or ceiling) of `arg` as an integer variable k read through its defining inequalities,
        k <= arg < k + 1 (k - 1 < arg <= k): not an abstraction, the integer they define is the value."""
        z3 = self.z3
        for a, v in self.apps.setdefault(name, []):
            if a.eq(arg):
                return v
        k = z3.ToReal(z3.Int(self.unique(f"_{name}{next(self.fresh)}")))
        self.apps[name].append((arg, k))
        if name == "floor":
            self.fact((k <= arg, f"{k} <= x: floor's defining inequality, x = its argument"),
                      (arg < k + 1, f"x < {k} + 1: floor's defining inequality"))
        else:
            self.fact((k - 1 < arg, f"{k} - 1 < x: ceiling's defining inequality, x = its argument"),
                      (arg <= k, f"x <= {k}: ceiling's defining inequality"))
        return k

    def erf_facts(self, s, a, v) -> None:
        """Facts true of v = erf(a), a = s translated (each where it is stated):

        - -1 < erf < 1, erf(0) = 0, its sign that of a; odd and increasing between applications (`monotone`):
          all from its definition, 2/sqrt(pi) times the integral of exp(-t^2) from 0 to a;
        - erfc(s) = 1 - erf(s) <= exp(-s^2) for s >= 0: A&S 7.1.13's upper bound,
          e^{s^2} int_s^oo e^{-t^2} dt <= 1/(s + sqrt(s^2 + 4/pi)), at its weakest (the denominator is at
          least 2/sqrt(pi));
        - Gordon's Mills-ratio bounds (Gordon 1941, Ann. Math. Statist. 12, 364): x/(x^2 + 1) phi(x) <= 1 - Phi(x)
          <= phi(x)/x for x > 0, written at x = sqrt(2) s (1 - Phi(x) = erfc(s)/2, phi(x) = exp(-s^2)/sqrt(2 pi)):
          2 s exp(-s^2) <= sqrt(pi) (2 s^2 + 1) erfc(s) and sqrt(pi) s erfc(s) <= exp(-s^2) for s > 0.

        The exponential is the one the statement would write (exp(-s^2), sympy's form), so a statement about
        exp(-x^2/2) and erf(x/sqrt(2)) meets the facts on the same application."""
        import sympy
        z3 = self.z3
        tail = 1 - v                                          # erfc(s)
        e = self(sympy.exp(-s ** 2))
        rp = self(sympy.sqrt(sympy.pi))
        defn = f"{v} = erf(s), from erf's definition, 2/sqrt(pi) times the integral of exp(-t^2) from 0 to s"
        self.fact((v > -1, f"erf(s) > -1: {defn}"), (v < 1, f"erf(s) < 1: {defn}"),
                  (z3.Implies(a == 0, v == 0), f"erf(0) = 0: {defn}"),
                  (z3.Implies(a > 0, v > 0), f"erf(s) > 0 for s > 0: {defn}"),
                  (z3.Implies(a < 0, v < 0), f"erf(s) < 0 for s < 0: {defn}"),
                  (z3.Implies(a >= 0, tail <= e), "erfc(s) <= exp(-s^2) for s >= 0: Abramowitz & Stegun 7.1.13's "
                                                  "upper bound at its weakest"),
                  (z3.Implies(a > 0, 2 * a * e <= rp * (2 * a * a + 1) * tail),
                   "2 s exp(-s^2) <= sqrt(pi) (2 s^2 + 1) erfc(s) for s > 0: Gordon's Mills-ratio lower bound "
                   "(Ann. Math. Statist. 12, 1941) at x = sqrt(2) s"),
                  (z3.Implies(a > 0, rp * a * tail <= e),
                   "sqrt(pi) s erfc(s) <= exp(-s^2) for s > 0: Gordon's Mills-ratio upper bound at x = sqrt(2) s"))

    def __call__(self, e):
        import sympy
        z3 = self.z3
        if isinstance(e, sympy.Symbol):
            return self.var(e)
        if e is sympy.true:
            return z3.BoolVal(True)
        if e is sympy.false:
            return z3.BoolVal(False)
        if isinstance(e, sympy.Rational):
            return z3.RealVal(f"{e.p}/{e.q}")
        if isinstance(e, sympy.Float):
            return z3.RealVal(str(sympy.Rational(e)))
        if e is sympy.pi:
            v = self.app("pi", z3.RealVal(0))
            self.fact((v > z3.RealVal("314159/100000"), "pi > 3.14159: pi's decimal expansion"),
                      (v < z3.RealVal("314160/100000"), "pi < 3.14160: pi's decimal expansion"))
            return v
        if e is sympy.E:
            v = self.app("e", z3.RealVal(0))
            self.fact((v > z3.RealVal("271828/100000"), "e > 2.71828: e's decimal expansion"),
                      (v < z3.RealVal("271829/100000"), "e < 2.71829: e's decimal expansion"))
            return v
        if isinstance(e, sympy.Add):
            return z3.Sum([self(a) for a in e.args])
        if isinstance(e, sympy.Mul):
            out = self(e.args[0])
            for a in e.args[1:]:
                out = out * self(a)
            return out
        if isinstance(e, sympy.Pow):
            b, x = e.args
            if x.is_Integer:
                n = int(x)
                zb = self(b)
                if n == 0:
                    return z3.RealVal(1)
                p = zb
                for _ in range(abs(n) - 1):
                    p = p * zb
                if n < 0:                     # a statement speaks of the points where it is defined
                    self.fact((p != 0, f"({_short(b, 80)})^{abs(n)} != 0: the statement speaks of the points "
                                       "where its negative power is defined"))
                return p if n > 0 else z3.RealVal(1) / p
            if x.is_Rational and x.q == 2:          # square roots: r >= 0, r^2 = b (points where b < 0 excluded)
                r = self.app("sqrt", self(b))
                self.fact((r >= 0, f"{r} >= 0: the square root of {_short(b, 80)} is nonnegative"),
                          (r * r == self(b), f"{r}^2 = {_short(b, 80)}: the square root's definition (the statement "
                                             "speaks of the points where it is defined)"))
                return _pow(z3, r, int(x.p))
            if b is sympy.E:
                return self(sympy.exp(x))
            if b.is_positive:                        # b^x = exp(x log b) for b > 0
                return self(sympy.exp(x * sympy.log(b)))
            raise _Untranslatable(f"the power {e}")
        if isinstance(e, sympy.Abs):
            a = self(e.args[0])
            return z3.If(a >= 0, a, -a)
        if isinstance(e, (sympy.Max, sympy.Min)):
            args = [self(a) for a in e.args]
            out = args[0]
            for a in args[1:]:
                out = z3.If(a > out, a, out) if isinstance(e, sympy.Max) else z3.If(a < out, a, out)
            return out
        if isinstance(e, sympy.exp):
            a = self(e.args[0])
            v = self.app("exp", a)
            self.fact((v > 0, f"{v}: exp(a) > 0: the exponential is positive"),
                      (v >= 1 + a, f"{v}: exp(a) >= 1 + a: the exponential's tangent at 0 (it is convex)"),
                      (z3.Implies(a == 0, v == 1), f"{v}: exp(0) = 1"),
                      (z3.Implies(a > 0, v > 1), f"{v}: exp(a) > 1 for a > 0"),
                      (z3.Implies(a < 0, v < 1), f"{v}: exp(a) < 1 for a < 0"))
            return v
        if isinstance(e, sympy.log):
            a = self(e.args[0])
            v = self.app("log", a)
            self.fact((z3.Implies(a > 0, v <= a - 1), f"{v}: log(a) <= a - 1 for a > 0: the logarithm's tangent at 1 "
                                                      "(it is concave)"),
                      (z3.Implies(a == 1, v == 0), f"{v}: log(1) = 0"),
                      (z3.Implies(a > 1, v > 0), f"{v}: log(a) > 0 for a > 1"),
                      (z3.Implies(z3.And(a > 0, a < 1), v < 0), f"{v}: log(a) < 0 for 0 < a < 1"))
            return v
        if isinstance(e, sympy.erf):
            a = self(e.args[0])
            known = any(x.eq(a) for x, _ in self.apps.get("erf", []))
            v = self.app("erf", a)
            if not known:
                self.erf_facts(e.args[0], a, v)
            return v
        if isinstance(e, sympy.harmonic) and len(e.args) == 1 and e.args[0].is_integer:
            # H_m = sum_{i=1}^m 1/i: 0 at m = 0, at least 1 and at most m for m >= 1 (its terms are in (0, 1])
            m = self(e.args[0])
            v = self.app("harmonic", m)
            self.fact((z3.Implies(m == 0, v == 0), f"{v}: the harmonic number H_0 is 0"),
                      (z3.Implies(m >= 1, v >= 1), f"{v}: H_m >= 1 for m >= 1 (its first term is 1)"),
                      (z3.Implies(m >= 1, v <= m), f"{v}: H_m <= m for m >= 1 (its terms are at most 1)"))
            return v
        if isinstance(e, sympy.erfc):
            return 1 - self(sympy.erf(e.args[0]))
        if isinstance(e, (sympy.floor, sympy.ceiling)):
            return self.integer_part(type(e).__name__, self(e.args[0]))
        if isinstance(e, sympy.frac):                     # x - floor(x)
            a = self(e.args[0])
            return a - self.integer_part("floor", a)
        if isinstance(e, sympy.Mod):                      # p mod q = p - q floor(p/q), q != 0 (sympy's sign of q)
            p, q = self(e.args[0]), self(e.args[1])
            self.fact((q != 0, f"{_short(e.args[1], 80)} != 0: Mod is defined where its modulus is nonzero"))
            return p - q * self.integer_part("floor", p / q)
        if isinstance(e, sympy.Rel):
            lhs, rhs = self(e.lhs), self(e.rhs)
            return {sympy.Eq: lambda: lhs == rhs, sympy.Ne: lambda: lhs != rhs, sympy.Le: lambda: lhs <= rhs,
                    sympy.Lt: lambda: lhs < rhs, sympy.Ge: lambda: lhs >= rhs, sympy.Gt: lambda: lhs > rhs}[type(e)]()
        if isinstance(e, sympy.And):
            return z3.And([self(a) for a in e.args])
        if isinstance(e, sympy.Or):
            return z3.Or([self(a) for a in e.args])
        if isinstance(e, sympy.Not):
            return z3.Not(self(e.args[0]))
        if isinstance(e, sympy.Implies):
            a = self(e.args[0])
            return z3.Implies(a, self.guarded(a, e.args[1]))
        if isinstance(e, sympy.Piecewise):
            taken, branches = [], []
            for expr, cond in e.args:
                c = self(cond)
                # a branch is defined where it is taken: its facts (a denominator nonzero, a root's radicand) hold there
                branches.append((self.guarded(z3.And(c, *[z3.Not(t) for t in taken]), expr), c))
                taken.append(c)
            out = None
            for v, c in reversed(branches):
                out = v if out is None else z3.If(c, v, out)
            return out
        if _atom_kind(e) or (isinstance(e, sympy.Function) and e.is_real is True):
            return self.atom(e)             # a real-valued object of no function above: one unknown, with its sign
        raise _Untranslatable(f"{type(e).__name__} ({_short(e, 60)})")

    def atom(self, e):
        """An object z3 cannot read whose value is one real number (a sequence's term, a sum, a maximum over a
        range): a fresh variable, the same one wherever the same object stands, with the sign sympy gives it (for
        a sum or a maximum, its terms' sign at every index of its range: `_range_sign`). Sound: what is unsat for
        every value of the variable is unsat for the object's."""
        import sympy
        for a, v in self.apps.setdefault("atom", []):
            if a == e:
                return v
        v = self.new("atom")
        self.apps["atom"].append((e, v))
        sign = _range_sign(e) if _atom_kind(e) == "range" else ("positive" if e.is_positive else "nonnegative"
                                                               if e.is_nonnegative else "negative" if e.is_negative
                                                               else "nonpositive" if e.is_nonpositive else None)
        where = "its terms' sign at every index of its range" if _atom_kind(e) == "range" else "sympy's assumptions"
        self.fact(*[(c, f"{v} {op} 0: the sign of {_short(e, 80)}, from {where}")
                    for c, op in {"positive": [(v > 0, ">")], "nonnegative": [(v >= 0, ">=")],
                                  "negative": [(v < 0, "<")], "nonpositive": [(v <= 0, "<=")]}.get(sign, [])])
        # a function class that states its values' range (`value_range`: a probability's [0, 1]) gives it as a fact
        span = getattr(type(e), "value_range", None)
        if isinstance(span, tuple) and len(span) == 2:
            lo, hi = (sympy.Rational(b) for b in span)
            self.fact((v >= self(lo), f"{v} >= {lo}: {type(e).__name__}'s values lie in [{lo}, {hi}] "
                                      f"({_short(e, 80)})"),
                      (v <= self(hi), f"{v} <= {hi}: {type(e).__name__}'s values lie in [{lo}, {hi}] "
                                      f"({_short(e, 80)})"))
        return v

    def monotone(self) -> None:
        """Between two applications of one increasing function, the order of the arguments is the
        order of the values (exp, log where defined, erf, square root where defined)."""
        z3 = self.z3
        for name in ("exp", "log", "erf", "sqrt", "floor", "ceiling"):
            apps = self.apps.get(name, [])
            for (a, u), (b, v) in itertools.permutations(apps, 2):
                pre = [a > 0, b > 0] if name == "log" else [a >= 0, b >= 0] if name == "sqrt" else []
                dom = {"log": " where both are positive", "sqrt": " where both are nonnegative"}.get(name, "")
                self.fact((z3.Implies(z3.And(*pre, a <= b), u <= v), f"{name} is nondecreasing{dom}: {u} <= {v} "
                                                                       "where their arguments are so ordered"))
                if name not in ("floor", "ceiling"):      # strictly increasing; floor and ceiling are not
                    self.fact((z3.Implies(z3.And(*pre, a < b), u < v), f"{name} is increasing{dom}: {u} < {v} "
                                                                         "where their arguments are so ordered"))
                if name == "erf":                          # odd
                    self.fact((z3.Implies(a == -b, u == -v), f"erf is odd: {u} = -{v} where their arguments are "
                                                             "opposite"))


def _pow(z3, r, p: int):
    out = z3.RealVal(1)
    for _ in range(abs(p)):
        out = out * r
    return out if p >= 0 else z3.RealVal(1) / out


def _decide_z3(st: Holds) -> Decision:
    import sympy
    try:
        import z3
    except ImportError:
        return Decision("argued", "z3", "z3 is not installed (pip install z3-solver)")
    claim = _doit(st.claim) if hasattr(st.claim, "doit") else st.claim
    given = [_doit(sympy.sympify(g)) for g in st.given]
    tr = _ToZ3(z3)
    try:
        goal = tr(claim)
        hyps = [tr(g) for g in given]
        for s in _symbols(st):
            tr.var(s)
    except _Untranslatable as err:
        return Decision("argued", "z3", f"z3 cannot read {err}")
    tr.monotone()
    solver = z3.Solver()
    solver.set("timeout", int(st.seconds * 1000))
    solver.add(*tr.side, *hyps, z3.Not(goal))
    answer = solver.check()
    if answer == z3.unsat:
        read = sorted(set(tr.apps) & {"floor", "ceiling"})
        facts = set(tr.apps) - {"floor", "ceiling"}
        core = (" (every transcendental function read only through sound facts of it)" if facts else "") + \
            (f" ({' and '.join(read)} read through {'its' if len(read) == 1 else 'their'} defining inequalities on "
             "an integer)" if read else "")
        return Decision("certified", "z3", f"z3: the negation is unsatisfiable over the reals{core}",
                        smt2=_z3_smt2(tr, given, hyps, claim, goal))
    if answer == z3.unknown:
        return Decision("argued", "z3", f"z3 could not decide it within {st.seconds:g} s ({solver.reason_unknown()})")
    model = solver.model()
    point = {}
    for s, v in tr.vars.items():
        val = model.eval(v, model_completion=True)
        point[s] = _z3_number(val)
    # the model's values of the terms of declared sequences (`sums.sequence`: parameters of the statement, which a
    # counterexample may choose), for `_replay`
    terms = {e: _z3_number(model.eval(v, model_completion=True)) for e, v in tr.apps.get("atom", [])
             if isinstance(e, sympy.core.function.AppliedUndef) and _sequence_facts(e.func) is not None}
    return _replay(st, point, terms)


def _sequence_facts(f, with_source: bool = False):
    """The declared facts of the sequence `f` (`verify.sequences`), or None for a function that is not one;
    `with_source`: (facts, whether read back from the function's own text: then its bounds are text, not the
    statement's objects)."""
    from .sequences import facts_of
    got, from_text = facts_of(f)
    return (got, from_text) if with_source else got


def _z3_smt2(tr: _ToZ3, given: list, hyps: list, claim, goal) -> str:
    """The SMT-LIB 2 text of the problem `_decide_z3` found unsat: the abstraction's facts (`tr.side`, each
    with what it is: `tr.why`), the statement's given relations, the negated claim, in the order z3 had them."""
    z3 = tr.z3
    facts = [(f"fact_{i}", why, c) for i, (c, why) in enumerate(zip(tr.side, tr.why))]
    hyp = [(f"given_{i}", f"given: {g}", h) for i, (g, h) in enumerate(zip(given, hyps))]
    stands = {str(v): f"a symbol of the statement{' (an integer)' if s.is_integer else ''}" for s, v in tr.vars.items()}
    for name, apps in tr.apps.items():
        for arg, v in apps:
            what = (f"the term {_short(arg, 200)}" if name == "atom" else name if name in ("pi", "e")
                    else f"{name}({arg.sexpr()})")
            stands[str(v.arg(0) if z3.is_to_real(v) else v)] = f"stands for {what}"
    return smt2_problem(facts + hyp + [("negated_claim", f"the claim negated: not ({claim})", z3.Not(goal))],
                        [f"z3 found these assertions unsatisfiable: for every value of the symbols allowed by "
                         f"{'the given relations and ' if given else ''}their assumptions, {claim}.",
                         "Each transcendental function's value is a fresh constant, constrained only by the facts "
                         "stated of it."], stands)


def smt2_problem(named: list, header: list[str], stands: dict[str, str] | None = None) -> str:
    """An SMT-LIB 2 problem from z3 formulas `named` [(name, what it is, formula)]: `header` as comment lines, the
    logic (QF_NRA, QF_NIRA with an integer constant), every constant declared (under its comment from `stands`:
    constant name -> what it is), each formula a named assertion under its comment, then (check-sat). z3's own
    printer writes the terms (standard SMT-LIB: to_real, ite, =>, let); a Python bool (z3's solver takes one) is
    written as true or false."""
    import z3
    named = [(n, what, f if z3.is_expr(f) else z3.BoolVal(bool(f))) for n, what, f in named]
    consts = _constants_of([f for _, _, f in named])
    logic = "QF_NIRA" if any(c.sort().name() == "Int" for c in consts) else "QF_NRA"
    out = [f"; {_one_line(h)}" for h in header] + [f"(set-logic {logic})"]
    for c in consts:
        out += [f"; {c}: {_one_line((stands or {}).get(str(c), 'a constant'))}", c.decl().sexpr()]
    for name, what, f in named:
        out += [f"; {_one_line(what)}", f"(assert (! {f.sexpr()} :named {name}))"]
    return "\n".join(out + ["(check-sat)", ""])


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _constants_of(formulas: list) -> list:
    """The uninterpreted constants of z3 formulas, in the order they first occur (each shared term walked once)."""
    import z3
    seen, out, stack = set(), {}, list(reversed(formulas))
    while stack:
        e = stack.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.setdefault(str(e), e)
        stack.extend(reversed(e.children()))
    return list(out.values())


def _z3_number(val):
    import sympy
    try:
        if hasattr(val, "numerator_as_long"):
            return sympy.Rational(val.numerator_as_long(), val.denominator_as_long())
        if hasattr(val, "as_long"):
            return sympy.Integer(val.as_long())
        return sympy.Float(val.approx(30).as_decimal(30).rstrip("?"), 30)
    except Exception:
        return sympy.nan


#: the most terms a sum with numeric limits is written out to (`_expand_sums`) before it is evaluated
MAX_EXPANDED_TERMS = 2000


def _expand_sums(e):
    """`e` with every Sum whose limits are integers (at most `MAX_EXPANDED_TERMS` terms) written out as its terms,
    innermost first and again while new ones appear: sympy evaluates such a sum numerically by Euler-Maclaurin,
    seconds a sum where its terms take microseconds."""
    import sympy
    for _ in range(8):
        found = [s for s in e.atoms(sympy.Sum) if all(lim[1].is_Integer and lim[2].is_Integer for lim in s.limits)
                 and _count(s) <= MAX_EXPANDED_TERMS]
        if not found:
            return e
        e = e.xreplace({s: _written_out(s) for s in found})
    return e


def _count(s) -> int:
    n = 1
    for _, a, b in s.limits:
        n *= max(0, int(b) - int(a) + 1)
    return n


def _written_out(s):
    import sympy
    (i, a, b), rest = s.limits[0], s.limits[1:]
    terms = [s.function.xreplace({i: sympy.Integer(j)}) for j in range(int(a), int(b) + 1)]
    body = sympy.Add(*terms)
    return sympy.Sum(body, *rest) if rest else body


def _doit(e):
    """`e.doit()` where sympy does it in good time and as the engine reads sums: every sum whose summand is not a
    rational function of its index (a sum of exponentials, of an undefined sequence's terms, ...) is kept as it is,
    since sympy's symbolic summation of those can take minutes and gives nothing the methods read; so is every sum
    whose range is not shown to run forwards (`_forward`): sympy sums a reversed range by Karr's convention (the
    negative of the range between), the engine reads it as empty (0: the sampler, a sum's sign, the sum rules), so
    such a sum is evaluated by neither. Its other parts evaluated."""
    import sympy
    if not isinstance(e, sympy.Basic):
        return e
    slow = [s for s in e.atoms(sympy.Sum) if not all(s.function.is_rational_function(lim[0]) for lim in s.limits)
            or not _forward(s)]
    if not slow:
        return e.doit()
    moving = _calculus_variables(e)
    if any(s.free_symbols & moving for s in slow):
        return e            # kept, it would be a constant under d/dx or an integral over x: nothing evaluated
    keep = {s: sympy.Dummy("kept_sum") for s in slow}
    back = {v: k for k, v in keep.items()}
    try:
        return e.xreplace(keep).doit().xreplace(back)
    except Exception:
        return e


def _calculus_variables(e) -> set:
    """The variables `e` differentiates or integrates in (a sum depending on one is no constant there)."""
    import sympy
    out = set()
    for d in e.atoms(sympy.Derivative):
        out |= {v for v in d.variables}
    for i in e.atoms(sympy.Integral):
        out |= {lim[0] for lim in i.limits}
    return out


def _forward(s) -> bool:
    """Whether every range of the sum `s` is shown to run forwards (hi >= lo - 1: empty or not, never reversed) from
    the symbols' assumptions alone, outermost first, an outer index written lo + j (j a nonnegative integer: the
    index symbol's own assumptions are not used)."""
    import sympy
    sub: dict = {}
    for k, lo, hi in reversed(s.limits):
        lo, hi = lo.xreplace(sub), hi.xreplace(sub)
        if (hi - lo + 1).is_nonnegative is not True:
            return False
        sub[k] = lo + sympy.Dummy("j", integer=True, nonnegative=True)
    return True


def _mp_value(e):
    """A closed expression's value by mpmath at 50 digits, node by node (numbers, +, *, powers, exp, log, square
    roots, erf, erfc, |.|, max, min, floor, ceiling): sympy's evalf of a large sum of numbers spends seconds on
    assumptions. None where a node is not one of those or the value is not a finite real number."""
    import mpmath
    import sympy
    fns = {sympy.exp: mpmath.exp, sympy.log: mpmath.log, sympy.erf: mpmath.erf, sympy.erfc: mpmath.erfc,
           sympy.Abs: abs, sympy.floor: mpmath.floor, sympy.ceiling: mpmath.ceil}
    memo: dict = {}

    def ev(x):
        if x in memo:
            return memo[x]
        if x.is_Rational:
            out = mpmath.mpf(x.p) / x.q
        elif x.is_Float:
            out = mpmath.mpf(x)
        elif x is sympy.pi:
            out = +mpmath.pi
        elif x is sympy.E:
            out = +mpmath.e
        elif x.is_Add:
            out = mpmath.fsum(ev(a) for a in x.args)
        elif x.is_Mul:
            out = mpmath.fprod(ev(a) for a in x.args)
        elif x.is_Pow:
            b, p = ev(x.base), ev(x.exp)
            if b < 0 and not (x.exp.is_Integer):
                raise ValueError("a negative base to a fractional power")
            out = mpmath.power(b, p)
        elif x.func in fns and len(x.args) == 1:
            out = fns[x.func](ev(x.args[0]))
        elif x.func in (sympy.Max, sympy.Min):
            vals = [ev(a) for a in x.args]
            out = max(vals) if x.func is sympy.Max else min(vals)
        else:
            raise ValueError(f"no fast value for {x.func}")
        if not isinstance(out, mpmath.mpf) or not mpmath.isfinite(out):
            raise ValueError("not a finite real number")
        memo[x] = out
        return out

    with mpmath.workdps(60):
        try:
            return ev(e)
        except (ValueError, ZeroDivisionError, TypeError, OverflowError):
            return None


def _value(x, sub: dict):
    """A side at a point, to 50 digits (substituted first, so an integral or a sum is evaluated numerically);
    None where it is not a real number there."""
    import sympy
    # numbers as 50-digit floats (an integer symbol's as an integer): exact rationals make sympy expand powers
    sub = {k: (v if k.is_integer or not isinstance(v, sympy.Rational) else sympy.Float(v, 50)) for k, v in sub.items()}
    at = _expand_sums(sympy.sympify(x).subs(sub))
    if at.free_symbols:                       # a symbol the point does not give (a sequence's terms): no value
        at = _doit(at)
        if at.free_symbols:
            return None
    fast = _mp_value(at)
    if fast is not None:
        return sympy.Float(fast, 50)
    v = at.evalf(50)
    if not v.is_number:
        v = _doit(at).evalf(50)
    return v if v.is_number and v.is_real and v.is_finite else None


def _truth(e, sub: dict):
    """The truth of a relation or boolean combination at a point, sides to 50 digits: False only where it is
    violated by more than 1e-25 of the sides' size (so rounding never refutes), None where a side is not a
    real number there or the sides are within that of each other where it matters."""
    import sympy
    if isinstance(e, sympy.Rel):
        lhs, rhs = _value(e.lhs, sub), _value(e.rhs, sub)
        if lhs is None or rhs is None:
            return None
        tol = sympy.Float("1e-25", 50) * max(1, abs(lhs), abs(rhs))
        d = lhs - rhs
        if isinstance(e, sympy.Eq):
            return True if abs(d) <= tol else False
        if isinstance(e, sympy.Ne):
            return True if abs(d) > tol else None
        if isinstance(e, (sympy.Le, sympy.Lt)):       # lhs <= rhs
            return True if d < -tol else False if d > tol else (True if isinstance(e, sympy.Le) else None)
        return True if d > tol else False if d < -tol else (True if isinstance(e, sympy.Ge) else None)
    if isinstance(e, (sympy.And, sympy.Or)):
        vals = [_truth(a, sub) for a in e.args]
        if isinstance(e, sympy.And):
            return False if False in vals else None if None in vals else True
        return True if True in vals else None if None in vals else False
    if isinstance(e, sympy.Not):
        v = _truth(e.args[0], sub)
        return None if v is None else not v
    if isinstance(e, sympy.Implies):
        a, b = _truth(e.args[0], sub), _truth(e.args[1], sub)
        return True if a is False or b is True else None if None in (a, b) else False
    if e in (sympy.true, sympy.false):
        return bool(e)
    return None


def _sample_refutation(st: Holds, tries: int = 8) -> Decision | None:
    """A counterexample found by evaluating the statement at seeded points of its domain (each symbol drawn
    by its assumptions; a sequence's terms T[1], T[2], ... each drawn by the sequence's assumptions once its sums
    are written out; points outside `given` or a box skipped), replayed to 50 digits: a refutation, or None. It
    decides nothing when it finds none."""
    import random

    import sympy
    rels = [st.claim, *(sympy.sympify(g) for g in st.given)]
    labels = {a.base.label for r in rels for a in r.atoms(sympy.Indexed)}
    syms = [s_ for s_ in _symbols(st) if s_ not in labels and not isinstance(s_, sympy.Indexed)]
    rels = [_rebound(r, set(syms)) for r in rels]         # a bound index that is also a free symbol: renamed
    if not syms and not labels:
        return None
    rng = random.Random(sympy.srepr(st.claim)[:200])       # the same points for the same statement
    for _ in range(tries):
        point = {s_: _draw(rng, s_, st.box.get(s_) if st.box else None) for s_ in syms}
        try:
            if not all(_admits(k, v) for k, v in point.items()):
                continue
            terms: dict = {}
            at = [_at_point(r, point, terms, rng) for r in rels]
            if any(a.atoms(sympy.Indexed) for a in at):        # a term whose index the point does not give
                continue
            if any(_truth(g, {}) is not True for g in at[1:]) or _truth(at[0], {}) is not False:
                continue
            if not all(_defined_at(r, point) for r in rels):
                continue                     # a point where the statement is not defined speaks of nothing
        except Exception:
            continue
        params = {**_params(point), **_params(terms)}
        return Decision("refuted", "sampled counterexample", f"false at {params}, replayed to 50 digits",
                        witness={"params": params})
    return None


def _at_point(rel, point: dict, terms: dict, rng):
    """The relation `rel` at `point`, its sums with integer limits written out, and each sequence term whose
    index is then a number drawn by its sequence's assumptions (kept in `terms`, so each is drawn once)."""
    import sympy
    sub = {k: (v if k.is_integer or not isinstance(v, sympy.Rational) else sympy.Float(v, 50))
           for k, v in point.items()}
    e = _sidewise(rel, lambda x: _expand_sums(x.subs(sub)))
    for a in sorted(e.atoms(sympy.Indexed), key=str):
        if a not in terms and all(i.is_Integer for i in a.indices):
            terms[a] = _draw(rng, a, None)
            if not _admits(a, terms[a]):
                raise ValueError("a drawn term outside its sequence's assumptions")
    values = {a: (v if a.is_integer else sympy.Float(v, 50)) for a, v in terms.items()}
    return _sidewise(e, lambda x: x.xreplace(values))


def _sidewise(e, f):
    """`e` with `f` applied to each side of each of its relations, the relations (and their boolean combinations)
    rebuilt unevaluated: sympy would otherwise compare two numeric sides itself, exactly, and read an identity
    whose sides differ in their last rounded digit as False (`_truth` compares them with a tolerance)."""
    import sympy
    if isinstance(e, sympy.Rel):
        return type(e)(f(e.lhs), f(e.rhs), evaluate=False)
    if isinstance(e, (sympy.And, sympy.Or, sympy.Not, sympy.Implies)):
        return type(e)(*(_sidewise(a, f) for a in e.args), evaluate=False)
    return f(e)


def _draw(rng, s, side):
    """A seeded value of the symbol `s`: in its box side when it has one, an integer for an integer symbol,
    of the sign its assumptions give it."""
    import math

    import sympy
    sign = -1 if (s.is_negative or s.is_nonpositive) else 1
    if side is not None:
        lo, hi = (float(sympy.sympify(b)) for b in side)
        lo, hi = max(lo, -1e6), min(hi, 1e6)                     # an unbounded side: its finite part
        if s.is_integer:
            if math.ceil(lo) > math.floor(hi):
                return sympy.Integer(math.floor(lo))             # no integer in the side: rejected by the domain
            return sympy.Integer(rng.randint(math.ceil(lo), math.floor(hi)))
        return sympy.Rational(rng.uniform(lo, hi)).limit_denominator(10 ** 6)
    if s.is_integer:
        if s.is_positive or s.is_negative:
            return sympy.Integer(sign * rng.randint(1, 40))
        if s.is_nonnegative or s.is_nonpositive:
            return sympy.Integer(sign * rng.randint(0, 40))
        return sympy.Integer(rng.randint(-20, 40))
    if s.is_positive or s.is_nonnegative or s.is_negative or s.is_nonpositive:
        return sign * sympy.Rational(round(10 ** rng.uniform(-1.5, 1.5), 6)).limit_denominator(10 ** 6)
    return sympy.Rational(round(rng.uniform(-4, 4), 6)).limit_denominator(10 ** 6)


def _admits(s, v) -> bool:
    """Whether the value `v` satisfies every assumption of the symbol `s` (sign, integer, nonzero, and every other
    one sympy keeps: noninteger, irrational, prime, even, ...), each read of the number itself by sympy; one sympy
    cannot tell of it (a float said rational) is not admitted."""
    import sympy
    checks = {"positive": lambda: v > 0, "nonnegative": lambda: v >= 0, "negative": lambda: v < 0,
              "nonpositive": lambda: v <= 0, "nonzero": lambda: v != 0, "zero": lambda: v == 0,
              "integer": lambda: bool(getattr(v, "is_integer", False))}
    if not all(bool(f()) for a, f in checks.items() if s.assumptions0.get(a)):
        return False
    x = sympy.sympify(v)
    for a, want in s.assumptions0.items():
        if a in checks and want:
            continue
        got = getattr(x, f"is_{a}", None)
        if got is not want:
            return False
    return True


def _params(point: dict) -> dict:
    """A point as a witness's parameters: an integer symbol's value as a Python int, a real's as a float
    (a value that is not a real number as its text)."""
    out = {}
    for s, v in point.items():
        if s.is_integer and getattr(v, "is_Integer", False):
            out[str(s)] = int(v)
        elif getattr(v, "is_number", False) and v.is_real:
            out[str(s)] = float(v)
        else:
            out[str(s)] = str(v)
    return out


def _rebound(e, keys):
    """`e` with the index of every sum, product, integral, maximum or union over a range that is also a symbol of
    `keys` renamed to a fresh one (a Dummy of its assumptions): a point that fixes a free k must not reach a bound k
    (sympy's subs and xreplace would write the point's value into the range's own index)."""
    import sympy

    def ranged(x):            # not a derivative: d/du f(u) at a point is f' there, its variable the point's own
        return isinstance(x, (sympy.Sum, sympy.Product, sympy.Integral, sympy.Limit)) or \
            type(x).__name__ in ("MaxOver", "Cup")

    def bound(x):
        if isinstance(x, sympy.Limit):
            return [x.args[1]]
        return [a[0] for a in x.args[1:] if isinstance(a, sympy.Tuple) and len(a) >= 1
                and isinstance(a[0], sympy.Symbol)]

    def clash(x):
        return ranged(x) and any(k in keys for k in bound(x))

    def rename(x):
        swap = {k: sympy.Dummy(k.name, **k.assumptions0) for k in bound(x) if k in keys}
        return x.func(*[a.xreplace(swap) for a in x.args])
    e = sympy.sympify(e)
    return e.replace(clash, rename) if any(clash(x) for x in sympy.preorder_traversal(e)) else e


def _replay(st: Holds, point: dict, terms: dict | None = None) -> Decision:
    """A model of the abstraction is a counterexample only if the statement itself fails there (50 digits).
    `terms`: the model's values of declared sequences' terms (`_sequence_point`)."""
    import sympy
    keys = set(point)
    st = dataclasses.replace(st, claim=_rebound(st.claim, keys), given=tuple(_rebound(g, keys) for g in st.given))
    try:
        ok_given = all(_truth(g, point) is True for g in st.given)
        holds_there = _truth(st.claim, point)
    except Exception:
        ok_given, holds_there = False, None
    params = _params(point)
    try:
        ok_given = ok_given and all(_admits(s, v) for s, v in point.items())
    except Exception:
        ok_given = False
    if ok_given and holds_there is False:
        try:                                 # a point where the statement is not defined speaks of nothing
            if not all(_defined_at(sympy.sympify(e), point) for e in (st.claim, *st.given)):
                ok_given = False
        except Exception:
            ok_given = False
    if ok_given and holds_there is False and _rounded_risk(st, point):
        # an irrational coordinate of z3's model, rounded: an equation given may hold only within the tolerance and a
        # step function (floor, ...) jump there, so the rounded point is no counterexample; asked exactly below
        holds_there = None
    if ok_given and holds_there is False:
        return Decision("refuted", "z3", f"a counterexample, replayed on the statement: {params}",
                        witness={"params": params})
    if holds_there is None or not ok_given:
        # a side the point cannot evaluate (a function the engine does not define: a probability, a maximum over a
        # range, a function the caller declared): z3 asked again with the point fixed, for every value of those
        from .faults import TimeLimit, time_limit
        try:
            with time_limit(4 * POINT_SECONDS, "the replay at the point"):
                said, chosen = _false_at_point(st, point), None
                if not said:
                    chosen = _sequence_point(st, point, terms or {})
        except TimeLimit:
            said, chosen = "", None
        if said:
            return Decision("refuted", "z3", f"a counterexample at {params}: {said}", witness={"params": params})
        # a declared sequence is a parameter: its terms chosen (the model's, the others by its facts) refute it
        if chosen is not None:
            return Decision("refuted", "z3", f"a counterexample at {params} with the sequence's terms {chosen} "
                                             "(each meeting the sequence's declared sign, order and bounds), "
                                             "replayed on the statement to 50 digits",
                            witness={"params": {**params, **chosen}})
    return Decision("argued", "z3", f"z3 found a model of its abstraction ({params}) that is not a counterexample "
                                    "of the statement itself, so it decides nothing")


def _defined_at(e, exact: dict) -> bool:
    """Whether every place of `e` whose symbols the point fixes is defined there, each decided on exact numbers:
    a denominator (a negative integer power) nonzero, a root's radicand >= 0 (> 0 under a negative exponent), a
    logarithm's argument > 0. A place sympy cannot evaluate to a number there (a probability's value) is not
    known defined: False. Places inside a sum's or a maximum's range (a bound index) are not read here."""
    import sympy
    keys = set(exact)

    def number(x):
        v = sympy.sympify(x).xreplace(exact)
        if not v.is_number or v.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
            return None
        try:
            return sympy.N(v, 50)
        except Exception:
            return None
    for sub in sympy.preorder_traversal(e):
        if not isinstance(sub, (sympy.Pow, sympy.log)) or not sub.free_symbols or not sub.free_symbols <= keys:
            continue
        if isinstance(sub, sympy.log):
            a = number(sub.args[0])
            if a is None or not (a.is_real and a > 0):
                return False
            continue
        b, p = sub.base, sub.exp
        if p.is_integer and p.is_nonnegative:
            continue
        v = number(b)
        if v is None or not v.is_real and p.is_integer is not True:
            return False
        if p.is_integer:
            if v == 0:
                return False
        elif (p.is_negative and not v > 0) or not v >= 0:
            return False
    return True


def _sequence_point(st: Holds, point: dict, terms: dict) -> dict | None:
    """The terms of the declared sequences (`sums.sequence`, parameters of the statement: it speaks of every
    sequence with the declared facts) at which, with the point's symbols, the statement is false: each side of the
    claim and of the given relations written out at the point as the sampler writes it (`_at_point`: a sum over a
    range with integer ends term by term, an empty range 0; a maximum over one as the largest of its terms), each
    term of a sequence the model's value where z3 gave one, else its nearest given neighbour's (below, else above;
    a sequence with none takes its lower bound, else 1); kept only if every term meets the sequence's sign, integer
    kind, bounds and order, a strict order only for a sequence of reals whose terms lie strictly inside its bounds
    (and above 0 when nonnegative: the terms between and beyond can then be chosen), never for integer terms; then
    the given relations must hold and the claim be false, each side to 50 digits with `_truth`'s tolerance. A
    sequence whose bounds this process knows only as text (a worker that unpickled the statement) is not chosen.
    Returns {term's text: value} or None."""
    import sympy
    if any(not isinstance(k, sympy.Symbol) for k in point):
        return None                            # a term of an indexed sequence: its index may be a bound one
    try:
        sub = {k: _fifty(v) for k, v in point.items()}
        if not all(_admits(k, v) for k, v in sub.items()):
            return None
        if not all(_defined_at(sympy.sympify(e), sub) for e in (st.claim, *st.given)):
            return None

        def written(x):                 # a side at the point: sums and maxima over integer ranges written out
            x = _expand_sums(x.subs(sub))
            return x.replace(lambda a: type(a).__name__ == "MaxOver", lambda a: a.doit())
        # derivatives done first (a point must not reach a variable of differentiation), the relations kept whole
        rels = [_sidewise(_doit(sympy.sympify(e)), written) for e in (st.claim, *st.given)]
        apps = {a for r in rels for a in r.atoms(sympy.core.function.AppliedUndef) if _sequence_facts(a.func)}
        if not apps or any(not (len(a.args) == 1 and a.args[0].is_Integer) for a in apps):
            return None
        given = {}
        for e, v in terms.items():
            e2 = written(sympy.sympify(e))
            if e2 in apps and v is not sympy.nan and getattr(v, "is_number", False):
                given[e2] = v if getattr(v, "is_Rational", False) else _fifty(v)
        values = {}
        for f in {a.func for a in apps}:
            facts, from_text = _sequence_facts(f, with_source=True)
            if from_text and (facts.lower is not None or facts.upper is not None):
                return None                    # bounds read back from text: their symbols are not the statement's
            mine = sorted((a for a in apps if a.func == f), key=lambda a: int(a.args[0]))
            known = {int(a.args[0]): given[a] for a in mine if a in given}
            lo = None if facts.lower is None else sympy.sympify(facts.lower).subs(sub)
            hi = None if facts.upper is None else sympy.sympify(facts.upper).subs(sub)
            for a in mine:
                i = int(a.args[0])
                below = [j for j in known if j <= i]
                above = [j for j in known if j >= i]
                values[a] = (known[max(below)] if below else known[min(above)] if above else
                             lo if lo is not None and lo.is_number else sympy.Integer(1))
            chain = [values[a] for a in mine]
            kind = sympy.Dummy(**{k: w for k, w in getattr(f, "_kwargs", {"real": True}).items() if k != "facts"})
            ok = all(_admits(kind, v) for v in chain) and all(v.is_real for v in chain)
            ok = ok and (lo is None or all(bool(v >= lo) for v in chain)) and (hi is None or all(bool(v <= hi)
                                                                                                for v in chain))
            strict = facts.order in ("increasing", "decreasing")
            if strict:                         # the terms between and beyond must exist: reals strictly inside
                ok = ok and not kind.is_integer and (lo is None or all(bool(v > lo) for v in chain)) and (
                    hi is None or all(bool(v < hi) for v in chain)) and (not kind.is_nonnegative or
                                                                         all(v > 0 for v in chain))
            pairs = list(zip(chain, chain[1:]))
            ok = ok and {None: True, "nondecreasing": all(a <= b for a, b in pairs),
                         "increasing": all(a < b for a, b in pairs),
                         "nonincreasing": all(a >= b for a, b in pairs),
                         "decreasing": all(a > b for a, b in pairs)}[facts.order]
            if not ok:
                return None
        used = [terms[e] for e in terms if written(sympy.sympify(e)) in values]
        if _rounded_risk(st, {**point, **{i: v for i, v in enumerate(used)}}):
            return None                      # a rounded algebraic value where an equation or a step function reads it
        at = [_sidewise(r, lambda x: x.xreplace(values)) for r in rels]

        def truth(r):                   # `_truth`, and where its tolerance leaves a relation open, exact rationals
            t = _truth(r, {})
            if t is None and isinstance(r, sympy.Rel) and all(getattr(sympy.sympify(x), "is_Rational", False)
                                                               for x in (r.lhs, r.rhs)):
                return bool(type(r)(r.lhs, r.rhs))
            return t
        if any(truth(g) is not True for g in at[1:]) or truth(at[0]) is not False:
            return None
    except Exception:
        return None
    return {str(a): float(v) for a, v in sorted(values.items(), key=lambda x: str(x[0]))}


def _rounded_risk(st: Holds, point: dict) -> bool:
    """Whether a replay at `point` may be wrong by rounding: a coordinate is not an exact rational (z3's algebraic
    number, rounded to 30 digits) and the statement has an equation among its given relations or a function that
    jumps (floor, ceiling, frac, Mod, Piecewise, sign, Heaviside, a relation inside)."""
    import sympy
    if all(getattr(v, "is_Rational", False) for v in point.values()):
        return False
    jumps = (sympy.floor, sympy.ceiling, sympy.frac, sympy.Mod, sympy.Piecewise, sympy.sign, sympy.Heaviside)
    exprs = [sympy.sympify(e) for e in (st.claim, *st.given)]
    return any(isinstance(g, sympy.Eq) for g in exprs[1:]) or any(e.has(*jumps) for e in exprs)


def _fifty(v):
    """A point's value as the replays read it: an integer as itself, any other number a 50-digit float (exact
    powers of a large rational exponent could take sympy minutes)."""
    import sympy
    v = sympy.sympify(v)
    return v if v.is_Integer else sympy.Float(v, 50)


#: z3's time limit for each question `_false_at_point` asks, in seconds
POINT_SECONDS = 4.0


def _false_at_point(st: Holds, point: dict) -> str:
    """Why the statement is false at `point` for every value of what the point leaves unevaluated ('' when z3 does
    not show it): with every symbol fixed at the point's exact value (within its assumptions), z3 certifies each
    given relation there and the claim's negation there, reading the functions it cannot evaluate only through
    their sound facts, as it reads them in a proof. So the point is a counterexample of the statement for the
    functions as they are, whatever their values: a refutation as sound as a proof. A point with no symbol, or
    one whose claim keeps a free symbol, is not asked (no recursion: the closed statements have no model to
    replay)."""
    import sympy
    if not point:
        return ""
    if any(not isinstance(k, sympy.Symbol) for k in point):
        return ""                              # a term of an indexed sequence: its index may be a bound one
    try:
        exact = {k: v if getattr(v, "is_Rational", False) else sympy.Rational(v) for k, v in point.items()}
        if not all(_admits(k, v) for k, v in exact.items()):
            return ""
        if not all(_defined_at(sympy.sympify(e), exact) for e in (st.claim, *st.given)):
            return ""                          # a point where the statement is not defined speaks of nothing
        # exact numbers, left unevaluated (z3 reads them exactly; sympy would compute large exact powers)
        with sympy.evaluate(False):
            claim = _doit(sympy.sympify(st.claim)).xreplace(exact)
            given = [_doit(sympy.sympify(g)).xreplace(exact) for g in st.given]
        if claim.free_symbols or any(g.free_symbols for g in given):
            return ""
        for g in given:
            if g is sympy.true:
                continue
            if g is sympy.false or _decide_z3(Holds(g, (), "z3", seconds=POINT_SECONDS)).status != "certified":
                return ""
        neg = sympy.Not(claim, evaluate=False) if not isinstance(claim, sympy.Rel) else claim.negated
        if neg is sympy.true:
            return "the claim evaluates to false there"
        if neg is sympy.false:
            return ""
        d = _decide_z3(Holds(neg, (), "z3", seconds=POINT_SECONDS))
    except Exception:
        return ""
    if d.status != "certified":
        return ""
    return ("with the point fixed, z3 certifies the given relations there and the claim's negation there, for every "
            "value of the functions it reads only through their sound facts")


# -------------------------------------------------------------------------------------------------- arb
def _arb_fn(expr, names: list[str]):
    """expr as a function of arb balls (keyword arguments `names`), arb's rigorous operations only."""
    import sympy
    from flint import arb

    def ev(e, env):
        if isinstance(e, sympy.Symbol):
            return env[str(e)]
        if isinstance(e, sympy.Rational):
            return arb(e.p) / e.q
        if isinstance(e, sympy.Float):
            return arb(str(e))
        if e is sympy.pi:
            return arb.pi()
        if e is sympy.E:
            return arb(1).exp()
        if isinstance(e, sympy.Add):
            return sum((ev(a, env) for a in e.args[1:]), ev(e.args[0], env))
        if isinstance(e, sympy.Mul):
            out = ev(e.args[0], env)
            for a in e.args[1:]:
                out = out * ev(a, env)
            return out
        if isinstance(e, sympy.Pow):
            b, x = e.args
            if x.is_Integer:
                return ev(b, env) ** int(x)
            if x == sympy.Rational(1, 2):
                return ev(b, env).sqrt()
            if x == -sympy.Rational(1, 2):
                return 1 / ev(b, env).sqrt()
            return ev(b, env) ** ev(x, env)
        fns = {sympy.exp: "exp", sympy.log: "log", sympy.erf: "erf", sympy.erfc: "erfc", sympy.sin: "sin",
               sympy.cos: "cos", sympy.Abs: "__abs__"}
        for cls, m in fns.items():
            if isinstance(e, cls):
                return getattr(ev(e.args[0], env), m)()
        raise _Untranslatable(f"{type(e).__name__} ({_short(e, 60)})")
    return lambda **env: ev(expr, env)


def _decide_arb(st: Holds) -> Decision:
    """The arb branch-and-bound on the box (`intervals.certify`, at most `st.max_boxes` boxes a relation). A side
    with an infinite end (x in [a, oo)) is cut at X (`st.cut`, else a + 1, then a + 8): the tail x >= X is
    proved first, the claim itself there (`auto`: sympy, then z3 with its sound facts, e.g. Gordon's Mills-ratio
    bounds) or else each margin nondecreasing in x there (its derivative >= 0, `auto`), so that its value at X,
    which the box [a, X] covers, bounds it beyond; the box then covers the rest. A counterexample of an integer
    symbol is replayed at integer points near the box's, and refutes only there."""
    import sympy

    from .intervals import Side, certify, outward, statement_cover
    parts = _parts(st.claim)
    sides = {rel(k, ">=", lo) for k, (lo, _) in st.box.items()} | {rel(k, "<=", hi) for k, (_, hi) in st.box.items()}
    if st.given and set(st.given) != sides:
        return Decision("argued", "arb", "the arb box method reads no given relations but the box's own sides: "
                                         "state the domain as its box (`on_box`)")
    on_its_box = bool(st.given)          # the statement is claimed on the box alone: decided on its whole domain
    names = {str(s) for s in _symbols(st)}
    if names - {str(s) for s in st.box}:
        return Decision("argued", "arb", f"the box does not bound {sorted(names - {str(s) for s in st.box})}")
    for part in parts:
        if not isinstance(part, (sympy.Le, sympy.Lt, sympy.Ge, sympy.Gt)):
            return Decision("argued", "arb", f"the arb box method decides inequalities, not {type(part).__name__}")
    ends = {k: (sympy.sympify(lo), sympy.sympify(hi)) for k, (lo, hi) in st.box.items()}
    unbounded = [k for k, (lo, hi) in ends.items() if not (lo.is_finite and hi.is_finite)]
    if len(unbounded) > 1 or any(not (ends[k][0].is_finite or ends[k][1].is_finite) for k in unbounded):
        return Decision("argued", "arb", f"the box has more than one infinite end ({', '.join(map(str, unbounded))}): "
                                         "one tail at a time")
    finite, tail_said = dict(ends), ""
    if unbounded:
        k = unbounded[0]
        lo, hi = ends[k]
        up = not hi.is_finite
        end = lo if up else hi
        cuts = [sympy.sympify(st.cut[k])] if st.cut and k in st.cut else \
            [end + 1, end + 8] if up else [end - 1, end - 8]
        tried, tail_problems = [], []
        for cut in cuts:
            t, tail_problems = _arb_tail(st, parts, k, cut, up, ends)
            if t.status == "refuted":
                return t
            if t.status == "certified":
                finite[k] = (lo, cut) if up else (cut, hi)
                tail_said = f"; the tail {k} {'>=' if up else '<='} {cut}: {t.detail}"
                break
            tried.append(f"{k} {'>=' if up else '<='} {cut}: {t.detail}")
        else:
            return Decision("argued", "arb", "the tail past the box is not proved (" + "; ".join(tried)[:600] +
                            "): give Holds(cut={symbol: X}) where a bound of the tail holds, or state the tail "
                            "as a step of its own")
    box = {str(s): Side(*outward(lo, hi)) for s, (lo, hi) in finite.items()}     # floats holding the exact ends
    smallest, boxes = [], 0
    covers = []                          # each relation's cover, for its certificate (`Decision.cover`)
    for part in parts:
        margin = (part.rhs - part.lhs) if isinstance(part, (sympy.Le, sympy.Lt)) else (part.lhs - part.rhs)
        expr = margin.doit()
        try:
            fn = _arb_fn(expr, sorted(box))
        except _Untranslatable as err:
            return Decision("argued", "arb", f"arb cannot read {err}")
        cert = certify(fn, box, strict=isinstance(part, (sympy.Lt, sympy.Gt)), max_boxes=st.max_boxes)
        if cert.status == "refuted":
            return _arb_refuted(st, cert, fn, isinstance(part, (sympy.Lt, sympy.Gt)))
        if cert.status != "proved":
            return Decision("argued", "arb", cert.text())         # the budget, max_boxes, named: raise it
        smallest.append((cert.smallest, cert.smallest_text))
        boxes += cert.boxes
        covers.append((cert, expr))
    where = ", ".join(f"{s} in [{_end(lo)}, {_end(hi)}]" for s, (lo, hi) in ends.items())
    inside = ", ".join(f"{s} in [{v.low:g}, {v.high:g}]" for s, v in box.items())
    least = min(smallest, key=lambda m: m[0])[1]
    cover = statement_cover(ends, covers, finite, tail_said, on_its_box)
    if cover is not None and cover.get("tail") is not None and unbounded:
        # the tail's z3 problems (the claim there, or each margin's slope), each with its statement: cvc5 reads them
        # as it reads the link's own (`carried.problems` walks the row's `tail`; `certify.collect` writes them)
        cover["tail"]["problems"] = [{"statement": text, "smt2": smt2} for text, smt2 in tail_problems]
    return Decision("certified", "arb", f"arb interval arithmetic on {inside}: {boxes} boxes, every margin's lower "
                                        f"bound above 0 (smallest {least}){tail_said}",
                    partial=None if on_its_box else f"the box {where} only", cover=cover)


def _end(v) -> str:
    import sympy
    v = sympy.sympify(v)
    return str(v) if not v.is_finite else f"{float(v):g}"


def _arb_tail(st: Holds, parts: list, k, cut, up: bool, ends: dict) -> tuple[Decision, list]:
    """The claim on the tail k >= cut (k <= cut, not `up`), the other symbols in their sides of the box: the
    claim itself (`auto`), else every margin monotone toward the box there (its derivative in k, `auto`), so
    that the margin at the cut, which the box covers, bounds it on the tail. Returns (the decision, the z3
    problems it rests on as (statement, SMT-LIB text): each for cvc5, like a link's own)."""
    import sympy
    dom = tuple(g for s, (lo, hi) in ends.items() if s != k
                for g in (rel(s, ">=", lo), rel(s, "<=", hi))) + (rel(k, ">=" if up else "<=", cut),)
    on_tail = Holds(st.claim, dom, "auto", seconds=st.seconds)
    itself = decide(on_tail)
    if itself.status in ("certified", "refuted"):       # a refutation: a point of the tail, replayed (`decide`)
        return (dataclasses.replace(itself, detail=f"the claim itself there ({itself.detail})"),
                [(on_tail.text(), itself.smt2)] if itself.status == "certified" and itself.smt2 else [])
    slopes, problems = [], []
    for part in parts:
        margin = (part.rhs - part.lhs) if isinstance(part, (sympy.Le, sympy.Lt)) else (part.lhs - part.rhs)
        slope = sympy.diff(margin.doit(), k)
        falls = Holds(rel(slope, ">=" if up else "<=", 0), dom, "auto", seconds=st.seconds)
        d = decide(falls)
        if d.status != "certified":
            return Decision("argued", "arb", f"neither the claim ({_short(itself.detail, 160)}) nor the margin's "
                                             f"monotonicity toward the box ({_short(d.detail, 160)}) is proved "
                                             "there"), []
        slopes.append(d.method)
        problems += [(falls.text(), d.smt2)] if d.smt2 else []
    return Decision("certified", "arb", f"every margin is {'nondecreasing' if up else 'nonincreasing'} in {k} there "
                                        f"({', '.join(slopes)}: its derivative {'>=' if up else '<='} 0), so at least "
                                        f"its value at {k} = {cut}, which the box covers"), problems


def _arb_refuted(st: Holds, cert, fn, strict: bool) -> Decision:
    """A point where the arb box found the margin below 0, as a refutation of the statement: within the
    symbols' assumptions, and an integer symbol's coordinate taken at the integers on either side of it (in
    its side of the box), where the margin is evaluated again in arb. Argued where no such point is below 0."""
    import math

    import sympy
    from flint import arb
    by = {str(s): s for s in st.box}
    point = {by[n]: v for n, v in cert.witness["point"].items()}
    choices = []
    for s, v in point.items():
        if s.is_integer:
            lo, hi = (sympy.sympify(b) for b in st.box[s])
            choices.append([c for c in dict.fromkeys((math.floor(v), math.ceil(v))) if bool(lo <= c <= hi)])
        else:
            choices.append([v])
    margin = cert.witness.get("margin_text") or f"{cert.witness['margin']:.6g}"
    for values in itertools.product(*choices):
        at = dict(zip(point, values))
        try:
            exact = {s: sympy.Integer(x) if isinstance(x, int) else sympy.Rational(x) for s, x in at.items()}
            if not all(_admits(s, x) for s, x in exact.items()):
                continue
            m = fn(**{str(s): arb(x) for s, x in at.items()})
            below = bool(m <= 0) if strict else bool(m < 0)
        except Exception:
            below = False
        if below:
            params = {str(s): x if isinstance(x, int) else float(x) for s, x in at.items()}
            said = f"refuted at {params}: the margin there is {m.mid().str(6, radius=False)} (an arb ball)" + (
                "" if at == point else f"; the box found {margin} at {cert.witness['point']}, between integers")
            return Decision("refuted", "arb", said, witness={"params": params})
    return Decision("argued", "arb", f"the box found a margin of {margin} at {cert.witness['point']}, which is no "
                                     "point of the statement's domain (an integer symbol between integers where the "
                                     "integers beside it hold, or a point outside the symbols' assumptions)")


def on_box(box: dict) -> tuple:
    """The relations that make a box a statement's whole domain (`Holds(..., given=on_box(box), method="arb",
    box=box)`): the arb certificate then decides the statement everywhere it is claimed, not a part of it."""
    return tuple(rel(k, ">=", lo) for k, (lo, _) in box.items()) + tuple(rel(k, "<=", hi) for k, (_, hi) in box.items())


# ---------------------------------------------------------------------------------------------- mutants
def mutants(st: Holds) -> list[tuple[str, Holds]]:
    """The mutants of a statement, each a `Holds` decided by the same method and named by what it changes
    (`kinded_mutants`, which also says each one's kind): its negation first, then at most `MAX_MUTANTS` in
    all, a spread of kinds."""
    return [(name, m) for _, name, m in kinded_mutants(st)]


#: the kinds of mutant after the negation (`kinded_mutants`), in the order they take their turns
MUTANT_KINDS = ("operator", "constant x2", "range", "term", "factor", "premise", "assumption", "constant 1%")
#: the operator a relation's is flipped to (`kinded_mutants`)
_FLIPS = {"<=": ">=", "<": ">", ">=": "<=", ">": "<", "==": "!=", "!=": "=="}


def kinded_mutants(st: Holds) -> list[tuple[str, str, Holds]]:
    """(kind, name, mutant) of a statement: its negation ('negation'), then the candidates of each kind of
    `mutant_candidates` taken in turn, one of each kind per round (the order of `MUTANT_KINDS`), until
    `MAX_MUTANTS` in all; a candidate equal to the statement or to one taken already is skipped."""
    import sympy
    negation = dataclasses.replace(st, claim=sympy.Not(st.claim, evaluate=False)
                                   if not isinstance(st.claim, sympy.Rel) else st.claim.negated)
    out = [("negation", "negation", negation)]
    seen = {_mutant_key(st), _mutant_key(negation)}
    queues = [(kind, list(found)) for kind, found in mutant_candidates(st).items() if found]
    while queues and len(out) < MAX_MUTANTS:
        for kind, q in queues:
            while q and len(out) < MAX_MUTANTS:
                name, m = q.pop(0)
                key = _mutant_key(m)
                if key not in seen:
                    seen.add(key)
                    out.append((kind, name, m))
                    break
        queues = [(kind, q) for kind, q in queues if q]
    return out


def _mutant_key(m: Holds):
    return (m.claim, m.given, tuple(sorted((str(k), v) for k, v in m.box.items())) if m.box else None)


def mutant_candidates(st: Holds) -> dict[str, list[tuple[str, Holds]]]:
    """Every candidate mutant of a statement by kind (`MUTANT_KINDS`), each (name, Holds):

    - operator: each relation's operator flipped (`<=` to `>=`, `<` to `>`, `==` to `!=`, and back);
    - constant x2: each movable constant (`_constants`) times 2 and over 2;
    - range: each index range of a `Sum` or `Product` shifted by one (lower bound +1, upper bound -1, +1);
    - term: one term of a sum with its sign flipped;
    - factor: one (non-numeric) factor dropped from a product;
    - premise: a `given` relation dropped;
    - assumption: a symbol's sign assumption dropped;
    - constant 1%: each movable constant moved up and down by 1%.

    Constants are taken in turn from each part of a conjunction (at most `MAX_CONSTANT_MUTANTS`
    occurrences), terms and factors in turn from each sum and product (at most `MAX_SITES` of each kind)."""
    import sympy
    claim = st.claim
    found: dict[str, list] = {kind: [] for kind in MUTANT_KINDS}

    def put(kind, name, new_claim=None, **change):
        found[kind].append((name, dataclasses.replace(st, claim=claim if new_claim is None else new_claim, **change)))
    if not isinstance(claim, sympy.Basic) or claim in (sympy.true, sympy.false):
        return found
    for path, part in _sites(claim, lambda x: isinstance(x, sympy.Rel), logical=True):
        op = _OPS[type(part).__name__]
        put("operator", f"the relation {_short(part, 60)} with {op} flipped to {_FLIPS[op]}",
            _replace_at(claim, path, rel(part.lhs, _FLIPS[op], part.rhs)))
    consts = _constants(claim)
    for k in _spread(consts, MAX_CONSTANT_MUTANTS):
        c = consts[k][0]
        for factor, kind, said in ((2, "constant x2", "times 2"), (sympy.Rational(1, 2), "constant x2", "over 2"),
                                   (sympy.Rational(101, 100), "constant 1%", "moved by +1%"),
                                   (sympy.Rational(99, 100), "constant 1%", "moved by -1%")):
            moved = c * factor
            put(kind, f"the constant {c} (occurrence {k + 1}) {said} (to {moved})", _moved(claim, k, moved))
    for path, s in _sites(claim, lambda x: isinstance(x, (sympy.Sum, sympy.Product))):
        for j, (i, lo, hi) in enumerate(s.limits):
            for which, new in (("lower", (i, lo + 1, hi)), ("upper", (i, lo, hi - 1)), ("upper", (i, lo, hi + 1))):
                limits = list(s.limits)
                limits[j] = new
                shifted = s.func(s.function, *limits)
                bound = new[1] if which == "lower" else new[2]
                put("range", f"the range of {_short(s, 60)} shifted ({which} bound to {bound})",
                    _replace_at(claim, path, shifted))
    terms = [((path, t), g) for g, (path, add) in enumerate(_sites(claim, lambda x: isinstance(x, sympy.Add)))
             for t in range(len(add.args))]
    for k in _spread(terms, MAX_SITES):
        (path, t), _ = terms[k]
        add = _at(claim, path)
        flipped = sympy.Add(*[-a if j == t else a for j, a in enumerate(add.args)], evaluate=False)
        put("term", f"the sign of the term {_short(add.args[t], 40)} of {_short(add, 60)} flipped",
            _replace_at(claim, path, flipped))
    factors = [((path, f), g) for g, (path, mul) in enumerate(_sites(claim, lambda x: isinstance(x, sympy.Mul)))
               for f in range(len(mul.args)) if not mul.args[f].is_Number
               and not (len(mul.args) == 2 and mul.args[1 - f] == -1)]          # -y: a sign, not a factor
    for k in _spread(factors, MAX_SITES):
        (path, f), _ = factors[k]
        mul = _at(claim, path)
        rest = [a for j, a in enumerate(mul.args) if j != f]
        put("factor", f"the factor {_short(mul.args[f], 40)} dropped from {_short(mul, 60)}",
            _replace_at(claim, path, rest[0] if len(rest) == 1 else sympy.Mul(*rest, evaluate=False)))
    for i, g in enumerate(st.given):
        put("premise", f"the premise {g} dropped", given=st.given[:i] + st.given[i + 1:])
    for s in _symbols(st):
        said = [a for a in _SIGNS if s.assumptions0.get(a)]
        if said and not s.is_integer:
            plain = sympy.Symbol(s.name, real=True)
            put("assumption", f"the assumption {s} {' '.join(said)} dropped", claim.xreplace({s: plain}),
                given=tuple(sympy.sympify(g).xreplace({s: plain}) for g in st.given),
                box={plain if k == s else k: v for k, v in st.box.items()} if st.box else st.box)
    return found


def _sites(e, pick, logical: bool = False) -> list[tuple[tuple, object]]:
    """(path, node) of every node of `e` that `pick` accepts, in pre-order (a path: the argument indices
    from `e` down). `logical`: the relations' layer only (And, Or, Not, Implies), not their sides. A sum's,
    product's or derivative's range is structure, not searched."""
    import sympy
    out = []

    def visit(x, path):
        if pick(x):
            out.append((path, x))
        if logical and not isinstance(x, (sympy.And, sympy.Or, sympy.Not, sympy.Implies)):
            return
        if isinstance(x, (sympy.Symbol, sympy.Number)) or not getattr(x, "args", ()):
            return
        args = x.args[:1] if isinstance(x, (sympy.Sum, sympy.Product, sympy.Derivative)) else x.args
        for i, a in enumerate(args):
            visit(a, path + (i,))
    visit(e, ())
    return out


def _at(e, path: tuple):
    for i in path:
        e = e.args[i]
    return e


def _replace_at(e, path: tuple, new):
    """`e` with the node at `path` (`_sites`) replaced by `new`, the rest rebuilt as written (unevaluated)."""
    if not path:
        return new
    args = list(e.args)
    args[path[0]] = _replace_at(args[path[0]], path[1:], new)
    if type(e).__name__ in _OPS:
        return rel(args[0], _OPS[type(e).__name__], args[1])
    try:
        return e.func(*args, evaluate=False)
    except TypeError:
        return e.func(*args)


def _spread(consts: list, most: int) -> list[int]:
    """Up to `most` occurrence indices of `consts` ((number, part) pairs), taken in turn from each part."""
    parts: dict[int, list[int]] = {}
    for i, (_, part) in enumerate(consts):
        parts.setdefault(part, []).append(i)
    order, queues = [], [list(q) for q in parts.values()]
    while queues and len(order) < most:
        for q in queues:
            if q and len(order) < most:
                order.append(q.pop(0))
        queues = [q for q in queues if q]
    return sorted(order)


def _walk(e, visit):
    """Rebuild `e` bottom-up, calling `visit(number, movable)` on each number (its return replaces it): a
    number is movable unless it is 0, infinite, an integer exponent, or the sign -1 of a product."""
    import sympy

    def walk(x, exponent=False, in_mul=False):
        if isinstance(x, sympy.Number):
            movable = (x != 0 and bool(x.is_finite) and not (exponent and x.is_Integer)
                       and not (in_mul and x == -1))
            return visit(x, movable)
        if isinstance(x, sympy.Pow):
            return sympy.Pow(walk(x.args[0]), walk(x.args[1], exponent=True), evaluate=False)
        if not getattr(x, "args", ()) or isinstance(x, sympy.Symbol):
            return x
        if isinstance(x, (sympy.Derivative, sympy.Sum, sympy.Product)):   # an order, an integer range: structure
            return x.func(walk(x.args[0]), *x.args[1:])
        args = [walk(a, in_mul=isinstance(x, sympy.Mul)) for a in x.args]
        try:
            return x.func(*args, evaluate=False)
        except TypeError:
            return x.func(*args)
    return walk(e)


def _moved(e, k: int, to):
    """`e` with the k-th movable number (in `_constants`' order) replaced by `to`."""
    count = [-1]

    def visit(x, movable):
        if movable:
            count[0] += 1
            if count[0] == k:
                return to
        return x
    return _walk(e, visit)


def _constants(e) -> list[tuple]:
    """The movable numbers of an expression (`_walk`), in order, each with the part of a conjunction it
    lies in: [(number, part)]."""
    import sympy
    parts = list(e.args) if isinstance(e, sympy.And) else [e]
    found = []
    for i, part in enumerate(parts):
        def visit(x, movable, i=i):
            if movable:
                found.append((x, i))
            return x
        _walk(part, visit)
    return found


#: the engine's helpers its other modules use (verify.sums)
sample_refutation, truth, range_sign = _sample_refutation, _truth, _range_sign
