"""Proofs as derivations: a node's statement is a relation between two computed expressions (`Statement`,
its sides built by calling the formulas of a bounds module with sympy symbols), and its proof a chain
from one side to the other (`derive`), each link a relation `=`, `<=`, `<` (or `>=`, `>`) justified by
exactly one of

- `Decide`: the engine decides the link's relation (`statements.decide`: sympy, z3, arb) under the
  statement's domain;
- `Cite`: a classical result whose conclusion is a relation *schema* with named parameters (`Schema`),
  instantiated with the link's objects: the engine checks that the instance is the link (its sides the
  link's two expressions, its relation at least as strong) and decides every condition of the schema on
  those same objects, and each condition's negation (an empty domain decides nothing);
- `Rests`: another node of the proof graph, its statement instantiated with `bind` and matched to the
  link once the graph resolves (`verify.graph`), read at that node's proof status;
- `Fact`: a relation established earlier in the same proof (a sub-derivation, `derive(..., facts=)`),
  instantiated and matched the same way;
- a rule of the engine on sums and probabilities: `UnionBound` (Pr of a union over an index set at most
  the sum over exactly that set), `Termwise` (a sum against a sum over the same range, from the terms),
  `CountTimesMax` (a sum at most its count times a bound on its terms), `Telescope`.

The engine composes the links (transitivity; strict if one link is) and checks that the chain starts at
the statement's left side and ends at its right side. A link justified otherwise, or a chain whose ends
are not the statement's sides, leaves the proof `argued`, naming the link. A proof made this way carries
`proof["chain"]` (`closed`: the ends are the statement's sides; the statement's sides as text, LaTeX and
sympy `srepr`), which the graph reads to match the `Rests` that instantiate it.

Probabilities are objects: `Pr(event)`, an event a relation about random variables (`Normal(m, v, tag)`,
a variable of law N(m, v)) or a union `Cup(event, (k, lo, hi), ...)` over an index set.

Nothing here knows a paper."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field

import sympy

from .findings import Finding, made_by_engine, shorten
from .proofs import Rests, carry_finding, collected, settle_proof, sub_decisions
from .proofs import holds_row as _holds_row
from .statements import Z3_SECONDS, Holds, rel, tex

#: the relations a link or a statement may state, and the direction each goes
_UP = {"<=": "<=", "<": "<", "==": "=", "=": "="}
_DOWN = {">=": ">=", ">": ">", "==": "=", "=": "="}


# ------------------------------------------------------------------------------------- probability objects
def _power(tex: str, exp) -> str:
    """A function's LaTeX raised to a power, as sympy's printer asks for `f(x)**2`."""
    return tex if exp is None else rf"\left({tex}\right)^{{{exp}}}"


class Pr(sympy.Function):
    """The probability of an event (a relation about random variables, or a `Cup`): a number in [0, 1]."""

    nargs = 1
    is_real = True
    is_nonnegative = True
    #: the range of its values, a sound fact z3 reads of it (`statements._ToZ3.atom`)
    value_range = (0, 1)

    def _latex(self, printer, exp=None):
        return _power(r"\Pr\left(" + printer._print(self.args[0]) + r"\right)", exp)


class Cup(sympy.Function):
    """The union of a family of events over an index set: Cup(event, (k, lo, hi), ...), every integer k
    in [lo, hi] (several ranges: their product). The union bound's sum must run over exactly these."""

    def _latex(self, printer, exp=None):
        ranges = ", ".join(rf"{printer._print(r[0])} = {printer._print(r[1])}..{printer._print(r[2])}"
                           for r in self.args[1:])
        return _power(r"\bigcup_{" + ranges + "}" + printer._print(self.args[0]), exp)


class Normal(sympy.Function):
    """A random variable of law N(mean, variance), named by `tag` (a symbol): Normal(m, v, tag)."""

    nargs = 3
    is_real = True

    def _latex(self, printer, exp=None):
        m, v, tag = self.args
        # the law on an empty nucleus after the tag ({}_): a tag with its own subscript (rbar_0) would make a double
        # subscript, which TeX refuses even inside braces or \mathord
        return _power(rf"{printer._print(tag)}{{}}_{{\mathcal{{N}}({printer._print(m)}, {printer._print(v)})}}", exp)


class Ex(sympy.Function):
    """The expectation of a random quantity (an expression in random variables: `Normal`, `Mean`, or a
    symbol standing for one)."""

    nargs = 1
    is_real = True

    def _eval_is_nonnegative(self):           # the expectation of a nonnegative quantity (where it exists)
        return True if self.args[0].is_nonnegative else None

    def _eval_is_positive(self):              # of a positive one
        return True if self.args[0].is_positive else None

    def _latex(self, printer, exp=None):
        return _power(r"\mathbb{E}\left[" + printer._print(self.args[0]) + r"\right]", exp)


class Mean(sympy.Function):
    """The mean of the first `count` draws of iid N(mean, variance) rewards (a reward table's column),
    for a count fixed in advance: Mean(mean, variance, count, tag)."""

    nargs = 4
    is_real = True

    def _latex(self, printer, exp=None):
        m, v, T, tag = self.args
        return _power(rf"\bar{{{printer._print(tag)}}}_{{{printer._print(T)}}}", exp)


def event(name: str):
    """A named event family: event('A')(k, T) is the event A indexed by k and T (an undefined function)."""
    return sympy.Function(name)


def cup(ev, *ranges) -> Cup:
    """The union of `ev` over the index ranges (symbol, low, high), each checked to be a range."""
    if not ranges:
        raise ValueError("cup: give at least one index range (symbol, low, high)")
    out = []
    for r in ranges:
        if not (isinstance(r, (tuple, list, sympy.Tuple)) and len(r) == 3 and isinstance(r[0], sympy.Symbol)):
            raise ValueError(f"cup: an index range is (symbol, low, high), got {r!r}")
        out.append(sympy.Tuple(*r))
    return Cup(ev, *out)


# ----------------------------------------------------------------------------------------------- statements
@dataclass(frozen=True)
class Statement:
    """A node's statement: `lhs op rhs` for every value of its free symbols allowed by their assumptions
    and by `given` (the relations of its domain). Build the sides by calling the toolkit's formulas with
    sympy symbols, so that the statement is the code's formula, not a copy of it."""

    lhs: object
    op: str
    rhs: object
    given: tuple = ()
    name: str = ""

    def __post_init__(self) -> None:
        if self.op not in ("<=", "<", "==", ">=", ">"):
            raise ValueError(f"Statement.op is one of <=, <, ==, >=, >, got {self.op!r}")
        object.__setattr__(self, "lhs", sympy.sympify(self.lhs))
        object.__setattr__(self, "rhs", sympy.sympify(self.rhs))
        object.__setattr__(self, "given", tuple(self.given))

    def relation(self):
        return rel(self.lhs, self.op, self.rhs)

    def text(self) -> str:
        return Holds(self.relation(), self.given).text()

    def latex(self) -> str:
        return Holds(self.relation(), self.given).latex()

    def instance(self, bind: dict) -> "Statement":
        """The statement with its symbols replaced (`bind`: symbol -> expression)."""
        b = _bind(bind, _free(self.lhs, self.rhs, *self.given))
        return Statement(self.lhs.xreplace(b), self.op, self.rhs.xreplace(b),
                         tuple(sympy.sympify(g).xreplace(b) for g in self.given), self.name)

    def record(self) -> dict:
        """The statement as data: sides as text, LaTeX and srepr (what a `Rests` is matched against)."""
        return {"lhs": str(self.lhs), "op": self.op, "rhs": str(self.rhs), "text": self.text(),
                "latex": self.latex(), "srepr": {"lhs": sympy.srepr(self.lhs), "rhs": sympy.srepr(self.rhs),
                                                 "given": [sympy.srepr(g) for g in self.given]}}


def _bind(bind, free=None) -> dict:
    """A substitution from `bind` (symbol or symbol name -> expression): a name binds every symbol of that
    name among `free` (a statement's symbols keep their assumptions, which a bare name does not carry)."""
    out = {}
    for k, v in dict(bind or {}).items():
        v = sympy.sympify(v)
        if isinstance(k, str):
            hits = [s for s in (free or ()) if s.name == k]
            out.update({s: v for s in hits} or {sympy.Symbol(k): v})
        else:
            out[sympy.sympify(k)] = v
    return out


_ASSUMED = {"positive": ">", "nonnegative": ">=", "negative": "<", "nonpositive": "<="}


def assumptions_hold(bind: dict, free, here: tuple) -> str | None:
    """Why a symbol's assumptions (real, nonzero, positive, nonnegative, negative, nonpositive, integer) do not
    hold of the expression bound to it on the domain `here` (decided), or None: a statement proved for positive x
    says nothing at x = -1."""
    for sym, v in _bind(bind, free).items():
        if not isinstance(sym, sympy.Symbol):
            continue
        v = sympy.sympify(v)
        if sym.is_integer and v.is_integer is not True:
            return f"{sym} is an integer in the statement, but it is bound to {shorten(str(v), 60)}"
        if sym.is_real and v.is_real is not True:         # a real symbol bound to I*y: the statement says nothing
            return f"{sym} is real in the statement, but {shorten(str(v), 60)} is not known to be real"
        if sym.assumptions0.get("nonzero") and not (sym.is_positive or sym.is_negative) and v.is_zero is not False:
            sub = _holds_row({}, Holds(sympy.Ne(v, 0, evaluate=False), tuple(here)), describe=False)
            if sub["status"] != "certified":
                return (f"{sym} is nonzero in the statement, but {shorten(str(v), 60)} != 0 is not established "
                        f"({sub['status']})")
        for name, op in _ASSUMED.items():
            if sym.assumptions0.get(name) and not (name == "nonnegative" and sym.is_positive) \
                    and not (name == "nonpositive" and sym.is_negative):
                sub = _holds_row({}, Holds(rel(v, op, 0), tuple(here)), describe=False)
                if sub["status"] != "certified":
                    return (f"{sym} is {name} in the statement, but {shorten(str(v), 60)} {op} 0 is not established "
                            f"({sub['status']})")
    return None


def _is_function(p) -> bool:
    return isinstance(p, sympy.core.function.UndefinedFunction)


def _mentions(e) -> set:
    """The symbols and undefined functions an expression mentions."""
    e = sympy.sympify(e)
    return set(e.free_symbols) | {a.func for a in e.atoms(sympy.core.function.AppliedUndef)}


def _free(*exprs) -> set:
    out = set()
    for e in exprs:
        out |= sympy.sympify(e).free_symbols
    return out


class Continuous(sympy.Function):
    """A schema's condition on a function parameter: Continuous(phi(y), y, lo, hi), phi defined and continuous at
    every y in [lo, hi] (an infinite end: unbounded that way; y's own assumptions restrict it too). A condition
    about phi'' or phi' is decided where they are defined, so a phi with a pole (1/t^2 'convex') or a logarithm
    of a number that may be 0 would pass it: this one is decided by `_undefined_between` (each pole, root and
    logarithm shown away from its bad set, every other function known continuous)."""

    nargs = 4


# --------------------------------------------------------------------------------------------------- schemas
@dataclass(frozen=True)
class Schema:
    """A cited result as a relation schema: `conclusion` a relation in the symbols `params`, true
    whenever every relation of `conditions` ((text, relation) pairs in the same symbols) is. Every
    condition must mention a parameter that the conclusion mentions: a condition about nothing the
    conclusion speaks of could not decide whether the result applies. `source`: where it is stated."""

    name: str
    params: tuple
    conclusion: object
    conditions: tuple = ()
    source: str = ""

    def __post_init__(self) -> None:
        params = tuple(p if _is_function(p) else sympy.sympify(p) for p in self.params)
        object.__setattr__(self, "params", params)
        if not all(isinstance(p, sympy.Symbol) or _is_function(p) for p in params):
            raise ValueError(f"Schema {self.name!r}: params are sympy symbols or undefined functions "
                             f"(sympy.Function('phi')), got {self.params!r}")
        if not isinstance(self.conclusion, sympy.Rel) or isinstance(self.conclusion, sympy.Ne):
            raise ValueError(f"Schema {self.name!r}: the conclusion is a relation (=, <=, <, >=, >), got "
                             f"{self.conclusion!r}")
        spoken = _mentions(self.conclusion) & set(params)
        if not spoken:
            raise ValueError(f"Schema {self.name!r}: the conclusion mentions none of its parameters")
        conds = []
        for c in self.conditions:
            if not (isinstance(c, tuple) and len(c) == 2 and isinstance(c[1], sympy.Basic)
                    and not isinstance(c[1], sympy.logic.boolalg.BooleanAtom)):
                raise ValueError(f"Schema {self.name!r}: a condition is (text, sympy relation), got {c!r}")
            if not (_mentions(c[1]) & spoken):
                raise ValueError(f"Schema {self.name!r}: the condition {c[0]!r} mentions no parameter of the "
                                 "conclusion, so it says nothing of where the result applies")
            conds.append((c[0], c[1]))
        object.__setattr__(self, "conditions", tuple(conds))

    def instance(self, bind: dict):
        """(the conclusion, [(text, condition)]) with the parameters bound; every parameter of the conclusion
        must be bound."""
        funcs = {p for p in self.params if _is_function(p)}
        fb = {p: v for p in funcs for k, v in dict(bind or {}).items() if k == p or k == p.__name__}
        b = _bind({k: v for k, v in dict(bind or {}).items()
                   if not any(k == p or k == p.__name__ for p in funcs)}, [p for p in self.params if p not in funcs])
        unknown = set(b) - set(self.params)
        if unknown:
            raise ValueError(f"Schema {self.name!r} has no parameter {sorted(map(str, unknown))}")
        missing = [p for p in self.params if p in _mentions(self.conclusion) and p not in b and p not in fb]
        if missing:
            raise ValueError(f"Schema {self.name!r}: bind every parameter of its conclusion; missing {missing}")
        for p, v in fb.items():
            if not isinstance(v, sympy.Lambda):
                raise ValueError(f"Schema {self.name!r}: the function parameter {p} is bound to a sympy.Lambda, "
                                 f"got {v!r}")

        def inst(e):
            e = e.xreplace(b)
            for p, v in fb.items():
                e = e.replace(p, v)
            return e

        def own(c):                          # a condition's own variables (Jensen's y) fresh, before the binding:
            mine = c.free_symbols - set(self.params)      # no statement's domain may restrict them
            return inst(c.xreplace({q: sympy.Dummy(q.name, **q.assumptions0) for q in mine}))
        return inst(self.conclusion), [(t, own(c)) for t, c in self.conditions]

    def text(self) -> str:
        conds = "; ".join(f"{c}" for _, c in self.conditions)
        return f"{self.conclusion}" + (f" when {conds}" if conds else "")


# ------------------------------------------------------------------------------------------- justifications
@dataclass(frozen=True)
class Decide:
    """The link's relation decided by the engine (`statements.decide`) on the statement's domain and
    `given` (relations the link adds, each itself part of the statement's domain or a fact's consequence;
    they are listed with the link)."""

    method: str = "auto"
    given: tuple = ()
    box: dict | None = None
    seconds: float = Z3_SECONDS


@dataclass(frozen=True)
class Cite:
    """A cited result (`Schema`) instantiated with the link's objects (`bind`: parameter -> expression)."""

    schema: Schema
    bind: dict = field(default_factory=dict)
    given: tuple = ()


@dataclass(frozen=True)
class Fact:
    """A relation established earlier in the same proof: the sub-derivation named `name` in `derive`'s
    `facts`, its statement instantiated with `bind`."""

    name: str
    bind: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Found:
    """The link's relation decided by a method that is not a single relation's decision: an induction over
    states, an exhaustive search, an interval certificate (`finding`, certified, exhausted or sampled). The
    link reads as the finding was decided; the finding must have been computed for this link's relation
    (`states`: the relation it decided, in words, shown beside the link)."""

    finding: Finding
    states: str = ""
    #: what the finding's method assumed (an induction's lemmas): premises as for Decide, each justified
    given: tuple = ()


@dataclass(frozen=True)
class UnionBound:
    """Pr(Cup(A, ranges)) <= Sum(Pr(A), ranges), the sum over exactly the union's index set."""


@dataclass(frozen=True)
class Termwise:
    """Sum(a, R) op Sum(b, R) from a op b for every index of the range R (the same range on both sides),
    the terms' relation decided with the index in its range."""

    method: str = "auto"
    given: tuple = ()


@dataclass(frozen=True)
class CountTimesMax:
    """Sum(a, (k, lo, hi)) <= (hi - lo + 1) * bound, from a <= bound for every k in [lo, hi]."""

    bound: object
    method: str = "auto"
    given: tuple = ()


@dataclass(frozen=True)
class Telescope:
    """Sum(f(k + 1) - f(k), (k, lo, hi)) = f(hi + 1) - f(lo), for the expression `f` in the index `k`."""

    f: object
    k: object


@dataclass(frozen=True)
class Monotone:
    """f(a) op f(b) from the premise a op b (Mathlib's `gcongr`): the link's two sides are `f` with `var`
    replaced by a and by b, and f is nondecreasing in `var` between them (its derivative decided >= 0 there;
    > 0 for a strict link from a strict premise). `premise` is a relation a <= b (or <, =) that follows from the
    statement's domain, or a pair (relation, `Rests` | `Fact` | `Found`), as a link's premises are."""

    f: object
    var: object
    premise: object
    method: str = "auto"


class Rule:
    """A rule of the engine defined outside this module (sums, harmonic numbers, integral comparison, ...):
    `justify(row, statement, prev, op, to, premises)` sets the row's `status` ('certified' only when the rule
    applies to exactly this link and every relation it needs is decided) and `detail`, and returns the
    `statements.Holds` it decided (mutated by `proofs --mutants`) or None. `premises` are the relations the
    link's `given` added (each justified, as for Decide). `name` names it in the proof. Decide through
    `proofs.holds_row` (or return the `Holds` decided): z3's problems are then kept and read by cvc5 with the link;
    a relation a rule decides by calling `statements.decide` itself is the rule's word alone."""

    name = "rule"
    given: tuple = ()

    def justify(self, row: dict, st: "Statement", prev, op: str, to, premises: tuple):   # pragma: no cover
        raise NotImplementedError


@dataclass(frozen=True)
class Link:
    """One link of a chain: the relation `op` from the previous expression to `to`, justified by `by`."""

    op: str
    to: object
    by: object
    text: str = ""


def link(op: str, to, by, text: str = "") -> Link:
    """A link of a derivation (`derive`): `op` one of =, <=, <, >=, >."""
    if op not in ("=", "==", "<=", "<", ">=", ">"):
        raise ValueError(f"a link's relation is one of =, <=, <, >=, >, got {op!r}")
    return Link("==" if op == "=" else op, sympy.sympify(to), by, text)


@dataclass(frozen=True)
class Derivation:
    """A statement and the chain of links from its left side to its right side (`derive`)."""

    statement: Statement
    links: tuple
    facts: dict = field(default_factory=dict)


def derive(statement: Statement, links, facts: dict | None = None) -> Derivation:
    """A derivation of `statement`: `links` (`link(op, expression, justification, text)`) from its left
    side to its right side; `facts`: sub-derivations by name, usable in the chain by `Fact(name)`."""
    if not isinstance(statement, Statement):
        raise TypeError(f"derive: the statement is a verify.Statement, got {type(statement).__name__}")
    links = tuple(links)
    if not links:
        raise ValueError("derive: a derivation has at least one link")
    for i, lk in enumerate(links, 1):
        if not isinstance(lk, Link):
            raise TypeError(f"derive: link {i} is made by verify.link(op, expression, justification), got {lk!r}")
    for name, d in (facts or {}).items():
        if not isinstance(d, Derivation):
            raise TypeError(f"derive: fact {name!r} is a Derivation, got {type(d).__name__}")
    return Derivation(statement, links, dict(facts or {}))


# ---------------------------------------------------------------------------------------------- the engine
def same(a, b) -> bool:
    """Whether two expressions are equal: identical, or their difference simplifies to 0."""
    a, b = sympy.sympify(a), sympy.sympify(b)
    if a == b:
        return True
    if isinstance(a, sympy.logic.boolalg.Boolean) or isinstance(b, sympy.logic.boolalg.Boolean):
        return False
    try:
        d = sympy.simplify(a - b)
        return d == 0
    except Exception:
        return False


def implies(have: str, want: str) -> bool:
    """Whether a relation `have` between the same two sides gives the relation `want`."""
    have, want = ("==" if have == "=" else have), ("==" if want == "=" else want)
    if have == want or have == "==" and want in ("<=", ">="):
        return True
    return (have, want) in (("<", "<="), (">", ">="))


def _flip(op: str) -> str:
    return {"<=": ">=", "<": ">", ">=": "<=", ">": "<", "==": "=="}[op]


def matches(rel_lhs, rel_op, rel_rhs, prev, op, to) -> str | None:
    """None when the relation (rel_lhs rel_op rel_rhs) gives the link (prev op to), read either way
    round; otherwise why not."""
    if same(rel_lhs, prev) and same(rel_rhs, to):
        return None if implies(rel_op, op) else f"it states {rel_op}, the link needs {op}"
    if same(rel_lhs, to) and same(rel_rhs, prev):
        return None if implies(_flip(rel_op), op) else f"it states {rel_op} the other way round, the link needs {op}"
    return f"its sides are {shorten(str(rel_lhs), 80)} and {shorten(str(rel_rhs), 80)}, not the link's"


def compose(ops) -> str | None:
    """The relation a chain of links gives from its first expression to its last: None when the links go
    both ways (no relation follows)."""
    ops = ["==" if o == "=" else o for o in ops]
    up = all(o in _UP for o in ops)
    down = all(o in _DOWN for o in ops)
    if not (up or down):
        return None
    if all(o == "==" for o in ops):
        return "=="
    strict = any(o in ("<", ">") for o in ops)
    return ("<" if strict else "<=") if up else (">" if strict else ">=")


def _row(i: int, text: str, prev, op: str, to) -> dict:
    r = rel(prev, op, to) if op != "==" or prev != to else None
    return {"step": i, "text": text or f"{shorten(str(prev), 60)} {op} {shorten(str(to), 60)}", "status": None,
            "detail": "", "uses": None, "link": {"from": str(prev), "op": op, "to": str(to),
                                                 "latex": tex(r) if r is not None else ""}}


def _argue(row: dict, why: str) -> dict:
    row.update(status="argued", detail=why)
    return row


def _decide_link(row: dict, st: Statement, prev, op, to, by: Decide, extra: tuple = ()):
    if prev == to and op in ("==", "<=", ">="):          # one expression as sympy writes both: a restatement
        row.update(status="certified", justification="identity", detail="the two expressions are one as sympy "
                   "writes them (a restatement: nothing to decide, nothing to mutate)")
        return None
    h = Holds(rel(prev, op, to), st.given + extra, by.method, by.box, seconds=by.seconds)
    _holds_row(row, h)
    row["justification"] = f"decided ({row.get('method', by.method)})"
    return h


def _condition_rows(conds, given) -> tuple[list[dict], list]:
    """Each instantiated condition decided (certified only when its negation is not: an empty domain
    decides nothing); (their rows, their Holds)."""
    rows, checks = [], []
    for text, c in conds:
        if isinstance(c, sympy.logic.boolalg.BooleanAtom):
            rows.append({"text": text, "state": "holds" if c else "fails", "statement": str(c),
                         "detail": "true as instantiated" if c else "false as instantiated"})
            checks.append(None)
            continue
        if isinstance(c, Continuous):
            rows.append(_continuous_row(text, c, given))
            checks.append(None)
            continue
        h = Holds(c, tuple(given))
        sub = _holds_row({}, h)
        state = {"certified": "holds", "refuted": "fails"}.get(sub["status"], "unchecked")
        rows.append({"text": text, "state": state, "statement": h.text(), "latex": h.latex(),
                     "detail": sub.get("detail", ""), **({"smt2": sub["smt2"]} if "smt2" in sub else {})})
        checks.append(h)
    return rows, checks


def _continuous_row(text: str, c: Continuous, given) -> dict:
    """A `Continuous` condition decided: its function defined and continuous on its range, under `given`."""
    f, y, lo, hi = c.args
    between = tuple(given) + tuple(rel(y, op, end) for op, end in ((">=", lo), ("<=", hi))
                                   if end.is_infinite is not True)
    why = _undefined_between(f, y, between)
    return {"text": text, "state": "holds" if why is None else "unchecked",
            "statement": f"{f} defined and continuous for {lo} <= {y} <= {hi}",
            "detail": "each pole, root and logarithm decided away from its bad set, every other function continuous"
            if why is None else why}


def _cite_link(row: dict, st: Statement, prev, op, to, by: Cite, extra: tuple = ()):
    try:
        concl, conds = by.schema.instance(by.bind)
    except ValueError as err:
        return _argue(row, str(err)), None
    if not isinstance(concl, sympy.Rel):     # numbers bound: sympy evaluated the instance (to False, or True)
        return _argue(row, f"cites {by.schema.name}, whose conclusion as instantiated is {concl} (sympy evaluated it),"
                           " not a relation between this link's sides"), None
    row.update(cites=by.schema.name, justification=f"cites {by.schema.name}",
               statement=f"{by.schema.name}: {concl}", latex=tex(concl))
    why = matches(concl.lhs, _OPS_OF[type(concl).__name__], concl.rhs, prev, op, to)
    if why:
        return _argue(row, f"cites {by.schema.name}, whose instance {shorten(str(concl), 120)} is not this link: "
                           f"{why}"), None
    rows, checks = _condition_rows(conds, st.given + extra)
    row["conditions"] = rows
    said = "; ".join(f"{r['text']}: {r['state']}" + ("" if r["state"] == "holds" else f" ({shorten(r['detail'], 80)})")
                     for r in rows)
    if all(r["state"] == "holds" for r in rows):
        row.update(status="certified", detail=f"proved (cites {by.schema.name}, its conclusion instantiated to this "
                                              f"link" + (f"; every condition decided on its objects: {said}"
                                                         if rows else "; it has no condition") + ")")
    else:
        row.update(status="argued", detail=f"cites {by.schema.name}, but a condition is not established on the "
                                           f"link's objects, so it may not apply: {said}")
    return row, CitedLink(by.schema.name, concl, tuple(zip([t for t, _ in conds], checks)))


@dataclass(frozen=True)
class CitedLink:
    """What a certified cited link rests on (`proof_mutants` mutates its conditions)."""

    schema: str
    conclusion: object
    conditions: tuple


_OPS_OF = {"Equality": "==", "LessThan": "<=", "StrictLessThan": "<", "GreaterThan": ">=", "StrictGreaterThan": ">"}


def _ranges(e) -> tuple:
    return tuple(tuple(r) for r in e.limits) if isinstance(e, sympy.Sum) else tuple(tuple(r) for r in e.args[1:])


def _same_ranges(a, b) -> str | None:
    if len(a) != len(b):
        return f"{len(a)} index ranges against {len(b)}"
    for (ka, la, ha), (kb, lb, hb) in zip(a, b):
        if ka != kb:
            return f"the index {ka} against {kb}"
        if not same(la, lb) or not same(ha, hb):
            return f"{ka} runs over [{la}, {ha}] on one side and [{lb}, {hb}] on the other"
    return None


def _reversed_range(ranges, given) -> str | None:
    """Why a range of a sum may run backwards on the domain (sympy reads sum_{k=a}^{b} with b < a - 1 as minus
    a sum over (b, a), Karr's convention, so a termwise argument says nothing of it), or None: hi >= lo - 1
    decided for every range."""
    for k, lo, hi in ranges:
        d = _holds_row({}, Holds(rel(hi, ">=", lo - 1), tuple(given)), describe=False)
        if d["status"] != "certified":
            return (f"the range {k} = {lo}..{hi} is not shown to run forwards on the domain (hi >= lo - 1: "
                    f"{d['status']}); a reversed range is a negative sum")
    return None


def _in_range(ranges) -> tuple:
    out = []
    for k, lo, hi in ranges:
        out += [rel(k, ">=", lo), rel(k, "<=", hi)]
    return tuple(out)


def _rule_link(row: dict, st: Statement, prev, op, to, by, extra: tuple = ()):
    name = type(by).__name__
    row["justification"] = f"rule: {name}"
    if isinstance(by, UnionBound):
        if not (isinstance(prev, Pr) and isinstance(prev.args[0], Cup)):
            return _argue(row, "the union bound starts from Pr(a union over an index set), not "
                               f"{shorten(str(prev), 80)}")
        if not isinstance(to, sympy.Sum):
            return _argue(row, "the union bound ends at a sum of the events' probabilities, not "
                               f"{shorten(str(to), 80)}")
        u = prev.args[0]
        if not same(to.function, Pr(u.args[0])):
            return _argue(row, f"the sum's terms are {to.function}, not Pr({u.args[0]})")
        why = _same_ranges(_ranges(u), _ranges(to))
        if why:
            return _argue(row, f"the sum does not run over the union's index set: {why}")
        if not implies("<=", op):
            return _argue(row, f"the union bound gives <=, the link states {op}")
        backwards = _reversed_range(_ranges(u), st.given + extra)
        if backwards:
            return _argue(row, f"the union bound: {backwards}")
        count = sympy.simplify(sympy.Mul(*[hi - lo + 1 for _, lo, hi in _ranges(u)]))
        row.update(status="certified", statement=f"Pr({u}) <= {to}",
                   detail=f"the union bound, the sum over exactly the union's index set ({count} events where every "
                          "range is nonempty)")
        return row
    if isinstance(by, (Termwise, CountTimesMax)):
        if not isinstance(prev, sympy.Sum):
            return _argue(row, f"{name} starts from a sum, not {shorten(str(prev), 80)}")
        R = _ranges(prev)
        if isinstance(by, Termwise):
            if not isinstance(to, sympy.Sum):
                return _argue(row, f"Termwise compares a sum with a sum, not {shorten(str(to), 80)}")
            why = _same_ranges(R, _ranges(to))
            if why:
                return _argue(row, f"the two sums do not run over the same range: {why}")
            a, b, terms_op = prev.function, to.function, op
        else:
            if op not in ("<=", "<"):
                return _argue(row, f"CountTimesMax gives <=, the link states {op}")
            count = sympy.Mul(*[hi - lo + 1 for _, lo, hi in R])
            bound = sympy.sympify(by.bound)
            if not same(to, count * bound):
                return _argue(row, f"the count times the bound is {count * bound}, not {shorten(str(to), 80)}")
            a, b, terms_op = prev.function, bound, "<="
        backwards = _reversed_range(R, st.given + extra)
        if backwards:
            return _argue(row, f"{name}: {backwards}")
        idx = [r[0] for r in R]
        if isinstance(by, CountTimesMax) and set(idx) & sympy.sympify(by.bound).free_symbols:
            return _argue(row, f"CountTimesMax: the bound {by.bound} mentions the index {idx}")
        # the index ranges over R, nothing else: an integer, its range given below (not its symbol's own sign)
        fresh = {k: sympy.Dummy(k.name, integer=True) for k in idx}
        a, b = sympy.sympify(a).xreplace(fresh), sympy.sympify(b).xreplace(fresh)
        R = tuple((fresh[k], lo, hi) for k, lo, hi in R)
        h = Holds(rel(a, terms_op, b), st.given + extra + _in_range(R), by.method)
        sub = _holds_row({}, h)
        # terms that fail somewhere do not make the sums' relation false: the rule does not apply (argued)
        row.update(status="certified" if sub["status"] == "certified" else "argued",
                   statement=f"for every index in range: {h.text()}", latex=h.latex(),
                   detail=f"{name}: the terms' relation on the range ({sub['status']}): {sub['detail']}",
                   **({"smt2": sub["smt2"]} if "smt2" in sub else {}))
        if isinstance(by, CountTimesMax) and row["status"] == "certified":
            nonneg = Holds(rel(count, ">=", 0), st.given + extra)
            if _holds_row({}, nonneg)["status"] != "certified":
                row.update(status="argued", detail=f"the count {count} is not shown nonnegative on the domain")
        return row, h
    if isinstance(by, Telescope):
        if not isinstance(prev, sympy.Sum) or len(prev.limits) != 1:
            return _argue(row, "Telescope starts from a sum over one range")
        k, lo, hi = prev.limits[0]
        if k != by.k:
            return _argue(row, f"the sum's index is {k}, the rule's {by.k}")
        f = sympy.sympify(by.f)
        if not same(prev.function, f.subs(k, k + 1) - f):
            return _argue(row, f"the summand is not f(k+1) - f(k) for f = {f}")
        backwards = _reversed_range(((k, lo, hi),), st.given + extra)
        if backwards:
            return _argue(row, f"telescoping: {backwards}")
        if not implies("==", op) or not same(to, f.subs(k, hi + 1) - f.subs(k, lo)):
            return _argue(row, f"the telescoped sum is {f.subs(k, hi + 1) - f.subs(k, lo)}, not {shorten(str(to), 80)}")
        row.update(status="certified", detail=f"telescoping: the summand is f({k}+1) - f({k}) with f = {f}")
        return row
    raise TypeError(f"not a rule: {by!r}")


def _monotone_link(row: dict, st: Statement, prev, op, to, by: Monotone, extra: tuple):
    row["justification"] = f"monotone in {by.var}"
    g = extra[0] if extra else None
    if g is None:
        return _argue(row, "Monotone needs its premise a <= b")
    pop = _OPS_OF[type(g).__name__]
    a, b = (g.lhs, g.rhs) if pop in ("<=", "<", "==") else (g.rhs, g.lhs)
    pop = {">=": "<=", ">": "<"}.get(pop, pop)
    f, x0 = sympy.sympify(by.f), sympy.sympify(by.var)
    x = sympy.Dummy(x0.name, real=True)      # the variable ranges over [a, b] only: not its symbol's own sign
    f = f.xreplace({x0: x})
    if not (same(prev, f.xreplace({x: a})) and same(to, f.xreplace({x: b}))):
        return _argue(row, f"the link's sides are not {f} at {x} = {shorten(str(a), 60)} and at {x} = "
                           f"{shorten(str(b), 60)}")
    if pop == "==":
        want = "=="
    else:
        want = "<" if pop == "<" and op == "<" else "<="
    if not implies(want, op):
        return _argue(row, f"a monotone step from {pop} gives {want}, the link states {op}")
    if pop == "==":
        row.update(status="certified", detail=f"equal arguments ({a} = {b}) give equal values")
        return None
    between = st.given + extra + (rel(x, ">=", a), rel(x, "<=", b))
    undefined = _undefined_between(f, x, between)
    if undefined:
        return _argue(row, f"the rule does not apply: {f} is not shown defined and continuous between "
                           f"{x0} = {shorten(str(a), 40)} and {shorten(str(b), 40)} ({undefined})")
    # the mean value theorem: f continuous on [a, b] (above) with f' >= 0 (> 0) inside, a < x < b, gives f(a) <= f(b)
    # (f(a) < f(b) for a < b); f' need not exist at the ends (sqrt at 0)
    d = sympy.Derivative(f, x)
    inside = st.given + extra + (rel(x, ">", a), rel(x, "<", b))
    h = Holds(rel(d, ">" if want == "<" else ">=", 0), inside, by.method)
    sub = _holds_row({}, h)
    # a function that is not monotone there does not make the link false: the rule does not apply (argued)
    row.update(status="certified" if sub["status"] == "certified" else "argued",
               statement=f"d/d{x} {f} {'>' if want == '<' else '>='} 0 strictly between a and b", latex=h.latex(),
               detail=("monotone: " if sub["status"] == "certified" else f"the rule does not apply, {f} is not "
                       f"shown nondecreasing in {x} there ({sub['status']}): ") + sub["detail"])
    return h if sub["status"] == "certified" else None


#: functions continuous wherever their arguments are (a monotone step may pass through them)
_CONTINUOUS = (sympy.exp, sympy.erf, sympy.erfc, sympy.Abs, sympy.sin, sympy.cos, sympy.Max, sympy.Min)


def _undefined_between(f, x, between: tuple) -> str | None:
    """Why f may be undefined or discontinuous somewhere `between` (a pole, a logarithm or a root of a
    nonpositive number, a function not known continuous), or None: each such place decided safe."""
    for what, cond, here in _defined_conditions(f, x):
        status = _defined_status(cond, tuple(between) + here)
        if status != "certified":
            return f"{what} is not established there ({status})"
    for e in sympy.preorder_traversal(f):
        if isinstance(e, sympy.Function) and not isinstance(e, (*_CONTINUOUS, sympy.log)) \
                and x in getattr(e, "free_symbols", set()):
            return f"{type(e).__name__} is not known continuous"
    return None


#: the objects whose arguments after the first are index ranges (k, lo, hi) binding k (and `sums.MaxOver`)
_RANGED = (sympy.concrete.expr_with_limits.ExprWithLimits, Cup)


def _defined_conditions(f, x=None) -> list:
    """Where the expression f is defined, as (what, relation, ranges) triples: each denominator (a power of
    negative integer exponent) nonzero, each root's radicand (a power of non-integer exponent) >= 0 and > 0 under
    a negative or symbolic exponent, each logarithm's argument > 0; `ranges` the relations that put the indices of
    the sums (products, integrals, unions) around it in their ranges. A condition sympy's assumptions make true
    (a positive symbol's reciprocal) is left out; with `x`, only the places that mention x are listed."""
    out, seen = [], set()

    def put(what, cond, here):
        if (cond, here) not in seen:
            seen.add((cond, here))
            out.append((what, cond, here))

    def walk(e, here):
        if not isinstance(e, sympy.Basic) or isinstance(e, sympy.Lambda) or e.is_Atom:
            return
        if x is None or x in e.free_symbols:
            if isinstance(e, sympy.Pow):
                b, p = e.base, e.exp
                if p.is_integer and p.is_nonnegative:
                    pass
                elif p.is_integer:
                    if _known_signs(b, roots=x is None).is_zero is not False:
                        put(f"the denominator {shorten(str(b), 60)} is nonzero", rel(b, "!=", 0), here)
                elif p.is_nonnegative:
                    if _known_signs(b, roots=x is None).is_nonnegative is not True:
                        put(f"the radicand {shorten(str(b), 60)} of {shorten(str(e), 60)} is >= 0", rel(b, ">=", 0),
                            here)
                elif _known_signs(b, roots=x is None).is_positive is not True:
                    put(f"the base {shorten(str(b), 60)} of {shorten(str(e), 60)} is > 0", rel(b, ">", 0), here)
            elif isinstance(e, sympy.log) and _known_signs(e.args[0], roots=x is None).is_positive is not True:
                put(f"the argument of {shorten(str(e), 60)} is > 0", rel(e.args[0], ">", 0), here)
        ranges = [a for a in e.args[1:] if isinstance(a, sympy.Tuple) and len(a) == 3 and isinstance(a[0], sympy.Symbol)
                  ] if isinstance(e, _RANGED) or type(e).__name__ == "MaxOver" else []
        inner = here
        for k, lo, hi in ranges:
            walk(lo, here)
            walk(hi, here)
            inner += tuple(rel(k, op, end) for op, end in ((">=", lo), ("<=", hi)) if end.is_infinite is not True)
        for a in e.args:
            walk(a, inner if ranges and a is e.args[0] else here)

    walk(sympy.sympify(f), ())
    return out


def _known_signs(e, memo: dict | None = None, roots: bool = False):
    """e with each expectation of a positive (nonnegative) quantity, and each erfc of a real argument, replaced by
    a positive (nonnegative) symbol: what sympy's assumptions do not know of them, so that a square root of E X^2 or
    K erfc(x) needs no decision. Read with the other conditions of `_defined_conditions` (an argument of real
    symbols is real where its own roots and logarithms are defined, each a condition of its own); with `roots`
    (every place of the whole expression listed, not only those of one variable), each root b^p (p not an integer)
    too, nonnegative (positive for p < 0 or symbolic), since b >= 0 (b > 0) is a condition of its own. `memo`: one
    symbol for one object across the expressions that share it."""
    memo = {} if memo is None else memo

    def fresh(name, **sign):             # named by its place, not a Dummy: the decisions are kept between runs
        return sympy.Symbol(f"_{name}_sign{len(memo)}", real=True, **sign)

    def sign(n):
        if n not in memo:
            a = n.args[0]
            if isinstance(n, sympy.Pow):
                got = fresh("root", nonnegative=True) if n.exp.is_nonnegative else fresh("root", positive=True)
            elif isinstance(n, sympy.erfc):
                # real where its argument is defined: the argument's roots and logarithms are conditions of their own
                real = a.is_extended_real or all(q.is_extended_real for q in a.free_symbols)
                got = fresh("erfc", positive=True) if real else n
            else:
                got = (fresh("E", positive=True) if a.is_positive else fresh("E", nonnegative=True)
                       if a.is_nonnegative else n)
            memo[n] = got
        return memo[n]

    def known(n):                       # a root only with `roots`, or where another expression replaced it already
        return isinstance(n, (Ex, sympy.erfc)) or (isinstance(n, sympy.Pow) and (n in memo or roots and (
            n.exp.is_integer is not True and n.base.is_positive is not True)))
    return e.replace(known, sign) if e.has(Ex, sympy.erfc, sympy.Pow) else e


def _defined_status(cond, given: tuple, roots: bool = False) -> str:
    """The status of one condition of `_defined_conditions` decided on `given` (certified only when its negation
    is not: an empty domain decides nothing), each expectation and erfc (`roots`: and root) read with its sign
    (`_known_signs`). Kept in this process (`_defined_decided`), with the decisions it made, which go to the open
    collection (`proofs.sub_decisions`) on every call: a link keeps them whether or not another decided them first."""
    status, subs = _defined_decided(cond, tuple(given), roots)
    collected(subs)
    return status


@functools.lru_cache(maxsize=4096)
def _defined_decided(cond, given: tuple, roots: bool = False) -> tuple[str, tuple]:
    with sub_decisions() as got:
        status = _defined_once(cond, given, roots)
    return status, tuple(got)


def _defined_once(cond, given: tuple, roots: bool) -> str:
    memo: dict = {}
    cond = _known_signs(cond, memo, roots)               # the domain's roots read as the condition reads them
    given = tuple(_known_signs(sympy.sympify(g), memo) for g in given)
    if isinstance(cond, (sympy.Ge, sympy.Gt)) and cond.rhs == 0 and _by_parts(cond.lhs, _OPS_OF[type(cond).__name__],
                                                                            given):
        return "certified"
    return _holds_row({}, Holds(cond, given), describe=False)["status"]


def _by_parts(b, op: str, given: tuple, depth: int = 0) -> bool:
    """b >= 0 (`op` '>=') or b > 0 ('>') read from its parts: a sum's terms all >= 0 (one > 0 for '>'), a product's
    factors all >= 0 (> 0), each part by sympy's assumptions or decided alone on `given` (a large sum of roots and
    erfcs, decided whole, can take z3 and sympy most of a minute; its terms take moments). False: not seen so."""
    if (b.is_positive if op == ">" else b.is_nonnegative):
        return True
    if depth < 4 and isinstance(b, sympy.Add) and all(_by_parts(t, ">=", given, depth + 1) for t in b.args) and (
            op == ">=" or any(_by_parts(t, ">", given, depth + 1) for t in b.args)):
        return True
    if depth < 4 and isinstance(b, sympy.Mul) and all(_by_parts(f, op, given, depth + 1) for f in b.args):
        return True
    return depth > 0 and bool(b.free_symbols) and _defined_status(rel(b, op, 0), given, True) == "certified"


def _undefined_rows(to, given: tuple) -> list[dict]:
    """The conditions under which the chain's intermediate expression `to` is defined (`_defined_conditions`),
    each decided on the statement's domain `given`: [{text, statement, state}]."""
    rows = []
    for what, cond, here in _defined_conditions(to):
        status = _defined_status(cond, tuple(given) + here, True)
        rows.append({"text": what, "statement": str(cond) + (f" where {', '.join(map(str, here))}" if here else ""),
                     "state": "holds" if status == "certified" else "unchecked", "status": status})
    return rows


def _intermediate_undefined(row: dict, to, given: tuple) -> bool:
    """Whether the chain's intermediate expression `to` is not shown defined on the statement's whole domain
    `given`; if so the link `row` is argued, naming each condition: a link speaks only where its expressions are
    defined, so a chain through (y^3 + y)/(y + 1/y) = y^2 would prove y^2 > 0 at y = 0 too."""
    conds = _undefined_rows(to, given)
    if conds:
        row["defined"] = conds
    bad = [c for c in conds if c["state"] != "holds"]
    if not bad:
        return False
    why = (f"the chain passes through {shorten(str(to), 80)}, which is not shown defined on the statement's whole "
           f"domain (" + "; ".join(f"{c['text']}: {c['status']}" for c in bad) + "): a link speaks only where its "
           "expressions are defined, so the chain would prove the statement only where this one is")
    if row.get("status") == "refuted":
        return True
    if row.get("uses"):                  # a link resting on a node: the graph would read it at the node's status
        row["rests_on"], row["uses"] = row["uses"], None
    row.update(status="argued", detail=why + (f"; the link itself: {row['detail']}" if row.get("detail") else ""))
    return True


def _carry(row: dict, subs: list) -> None:
    """Keep on the link's row (`hypotheses`) the problem of each relation z3 established while the link was checked
    (a finding's or a fact's hypothesis, a premise from the statement's domain, a definedness condition, a count's
    sign) that the row does not carry already: each is a problem cvc5 re-decides before the link is certified
    (`verify.second`), and a certificate of the link. A problem z3 was given already true (sympy's) is left out."""
    from .second import hollow, problems
    have = {(st, text) for _, st, text in problems(row)}
    kept = list(row.get("hypotheses") or ())
    for st, sub in subs:
        if sub is row or sub.get("status") != "certified" or not isinstance(sub.get("smt2"), str) \
                or hollow(sub["smt2"]):
            continue
        text = st.text()
        if (text, sub["smt2"]) in have:
            continue
        have.add((text, sub["smt2"]))
        kept.append({"text": text, "statement": text, "smt2": sub["smt2"], "state": "holds"})
    if kept:
        row["hypotheses"] = kept


def _rests_link(row: dict, st: Statement, prev, op, to, by: Rests):
    bind = by.bind or {}
    row.update(status="rests", uses=by.node, detail=f"rests on {by.node}", justification=f"rests on {by.node}",
               _objects=(dict(bind), prev, op, to, tuple(st.given)),
               instance={"node": by.node, "bind": {str(k): sympy.srepr(sympy.sympify(v)) for k, v in bind.items()},
                         "from": sympy.srepr(prev), "op": op, "to": sympy.srepr(to),
                         "given": [sympy.srepr(g) for g in st.given]})
    return row


def _rested(given) -> set:
    """The nodes the premises `given` (of one link) rest on."""
    return {g[1].node for g in given if isinstance(g, tuple) and len(g) == 2 and isinstance(g[1], Rests)}


def _found_link(row: dict, by: Found, prev=None, op=None, to=None, here: tuple = (), rested: set = frozenset()
                ) -> dict:
    f = by.finding
    if not isinstance(f, Finding):
        return _argue(row, f"Found takes a Finding, got {type(f).__name__}")
    missing = [node for node in getattr(f, "rests_on", ()) or () if node not in rested]
    if f.verdict == "holds" and missing:
        # an induction proved its step given lemmas (each assumed at its states): the link must rest on each, so the
        # graph reads the step at their proof status
        return _argue(row, f"the finding was proved given {', '.join(missing)}, which no premise of this link rests "
                           "on (give each as (relation, rests(node, ...)) among the link's premises)")
    row["justification"] = "found by " + (f.decided_by if f.verdict == "holds" else "a check that did not pass")
    target = getattr(f, "statement_object", None)
    if f.verdict == "holds" and not getattr(f, "engine_method", None):
        return _argue(row, "the finding was not made by one of the engine's methods (an induction decided by z3, a "
                           "derivation): a Finding built by hand, or from the caller's own computation"
                           + (" (it is marked trusted)" if f.trusted else "") + ", certifies nothing in a derivation")
    if f.verdict == "holds" and prev is not None:
        # the finding must say which relation it decided (`restate`), and that relation must be this link
        if not isinstance(target, Statement):
            unread = getattr(f, "unread", "")
            return _argue(row, "the finding states no relation" + (f" ({unread})" if unread else
                               " (attach the Statement its method decided with verify.restate)")
                          + ", so nothing ties it to this link")
        # the statement object must be the one its method recorded (a derivation's chain, a tied reading's record)
        kept = ((f.proof or {}).get("chain") or {}).get("statement") if getattr(f, "engine_method", None) == \
            "a derivation" else getattr(f, "proof_statement", None)
        stated_by = getattr(f, "statement_tied", False) or getattr(f, "restated", False) or \
            getattr(f, "engine_method", None) == "a derivation"
        if not stated_by or not isinstance(kept, dict) or kept.get("srepr") != target.record()["srepr"]:
            return _argue(row, "the finding's statement is not the one its method recorded (replaced after it was "
                               "made)")
        why = matches(target.lhs, target.op, target.rhs, prev, op, to)
        if why:
            return _argue(row, f"the finding decided {shorten(target.text(), 100)}, not this link: {why}")
        for g in target.given:
            if g in here:
                continue
            sub = _holds_row({}, Holds(g, tuple(here)), describe=False)
            if sub["status"] != "certified":
                return _argue(row, f"the finding's hypothesis {shorten(str(g), 80)} is not established on the link's "
                                   f"domain ({sub['status']})")
    if f.verdict == "holds":
        row.update(status=f.decided_by, detail=shorten(f.detail, 240), witness=f.witness)
        if getattr(f, "reading_scope", None):
            # an induction's relation holds at its system's states, its symbols those states' objects: said on the row
            row["scope"] = f.reading_scope
        if getattr(f, "restated", False):
            # the statement the link was matched against is the caller's (`restate`), not tied by the engine
            row["restated"] = target.text() if isinstance(target, Statement) else True
            row["detail"] = ("its statement attached by the caller (restate), not tied by the engine to what the "
                             "method decided; " + row["detail"])
        if f.partial:
            row["partial"] = f.partial
        # an induction's unsat cases, and the z3 problems of the finding's own proof: each asked of cvc5 with this row
        carry_finding(row, f)
        if by.states or f.statement:
            row.update(statement=by.states or f.statement, latex=f.latex)
    elif f.verdict == "refuted":
        row.update(status="refuted", detail=shorten(f.detail, 240), witness=f.witness)
    else:
        _argue(row, f"the check did not establish it ({f.verdict}): {shorten(f.detail, 200)}")
    return row


def _fact_link(row: dict, prev, op, to, by: Fact, facts: dict, proved: dict, here: tuple = ()):
    d = facts.get(by.name)
    row["justification"] = f"fact {by.name}"
    if d is None:
        return _argue(row, f"no fact {by.name!r} was established earlier in this proof")
    inst = d.statement.instance(by.bind)
    why = matches(inst.lhs, inst.op, inst.rhs, prev, op, to)
    if why:
        return _argue(row, f"the fact {by.name} ({shorten(inst.text(), 100)}) is not this link: {why}")
    bad = assumptions_hold(by.bind, _free(d.statement.lhs, d.statement.rhs, *d.statement.given), here)
    if bad:
        return _argue(row, f"the fact {by.name} cannot be used here: {bad}")
    for g in inst.given:                  # the fact's hypotheses, instantiated, hold where it is used
        if g in here or g is sympy.true:
            continue
        sub = _holds_row({}, Holds(g, tuple(here)), describe=False)
        if sub["status"] != "certified":
            return _argue(row, f"the fact {by.name}'s hypothesis {shorten(str(g), 80)}, instantiated, is not "
                               f"established where it is used ({sub['status']})")
    ok = proved.get(by.name)
    row.update(status="certified" if ok else "argued", statement=inst.text(), latex=inst.latex(),
               detail=f"the fact {by.name}, established above" + ("" if ok else " (but its own chain is not closed "
                                                                              "or not every link is established)"))
    return row


def _premise_rows(given, st: Statement, i: int, prefix: str, facts: dict, proved: dict) -> tuple[list, tuple]:
    """The premises a link adds to the statement's domain (`given` of Decide, Cite and the sum rules): a
    relation that follows from the statement's domain (decided), or a pair (relation, its justification:
    `Rests`, `Fact` or `Found`), each then a row of the proof. A relation that is neither leaves a row argued:
    a link may assume nothing its proof does not establish. Returns (rows, the relations)."""
    rows, rels = [], []
    for g in given:
        just = None
        if isinstance(g, tuple) and len(g) == 2 and not isinstance(g, sympy.Basic):
            g, just = g
        g = sympy.sympify(g)
        if not isinstance(g, sympy.Rel) or isinstance(g, sympy.Ne):
            raise TypeError("a link's premise is a relation (=, <=, <, >=, >), or (relation, justification); "
                            f"got {g!r}")
        op = _OPS_OF[type(g).__name__]
        text = prefix + f"premise of the next link: {shorten(str(g), 100)}"
        if just is None:
            if g in st.given:
                rels.append(g)
                continue
            sub = _holds_row({}, Holds(g, st.given), describe=False)
            rels.append(g)
            if sub["status"] == "certified":
                continue
            row = _row(i + len(rows), text, g.lhs, op, g.rhs)
            rows.append(_argue(row, f"the link assumes {g}, which neither follows from the statement's domain "
                                    f"({sub['status']}: {shorten(sub.get('detail', ''), 100)}) nor is justified (give "
                                    "it as (relation, Rests(...) | Fact(...) | Found(...)))"))
            continue
        row = _row(i + len(rows), text, g.lhs, op, g.rhs)
        if isinstance(just, Rests):
            _rests_link(row, st, g.lhs, op, g.rhs, just)
        elif isinstance(just, Fact):
            _fact_link(row, g.lhs, op, g.rhs, just, facts, proved, st.given)
        elif isinstance(just, Found):
            if id(just.finding) in proved.setdefault("_found", {}):
                _argue(row, f"the same finding already justifies step {proved['_found'][id(just.finding)]}: one "
                            "finding decides one relation")
            else:
                proved["_found"][id(just.finding)] = i + len(rows)
                _found_link(row, just, g.lhs, op, g.rhs, st.given + tuple(rels), _rested(given))
        else:
            _argue(row, f"a premise is justified by Rests, Fact or Found, not {type(just).__name__}")
        row["premise"] = True
        rows.append(row)
        rels.append(g)
    return rows, tuple(rels)


def _chain_rows(d: Derivation, start: int, prefix: str, facts: dict, proved: dict):
    """The rows of one chain (its links, then its closure), and {step: check} for the mutants."""
    st, rows, checks = d.statement, [], {}
    prev = st.lhs
    i = start
    for lk in d.links:
        with sub_decisions() as subs:        # what the link decided on the way, read by cvc5 with it
            by = lk.by
            prem, extra = _premise_rows(getattr(by, "given", ()), st, i, prefix, facts, proved)
            rows += prem
            i += len(prem)
            row = _row(i, prefix + (lk.text or ""), prev, lk.op, lk.to)
            check = None
            if isinstance(by, Decide):
                check = _decide_link(row, st, prev, lk.op, lk.to, by, extra)
                if row["status"] != "certified":
                    check = None
            elif isinstance(by, Cite):
                row, check = _cite_link(row, st, prev, lk.op, lk.to, by, extra)
            elif isinstance(by, Rests):
                _rests_link(row, st, prev, lk.op, lk.to, by)
            elif isinstance(by, Fact):
                _fact_link(row, prev, lk.op, lk.to, by, facts, proved, st.given + extra)
            elif isinstance(by, Found):
                if id(by.finding) in proved.setdefault("_found", {}):
                    _argue(row, f"the same finding already justifies step {proved['_found'][id(by.finding)]}: one "
                                "finding decides one link's relation")
                else:
                    proved["_found"][id(by.finding)] = i
                    _found_link(row, by, prev, lk.op, lk.to, st.given + extra, _rested(getattr(by, "given", ())))
            elif isinstance(by, Monotone):
                prem, extra = _premise_rows((by.premise,), st, i, prefix, facts, proved)
                rows += prem
                i += len(prem)
                row["step"] = i
                check = _monotone_link(row, st, prev, lk.op, lk.to, by, extra)
            elif isinstance(by, (UnionBound, Termwise, CountTimesMax, Telescope)):
                got = _rule_link(row, st, prev, lk.op, lk.to, by, extra)
                if isinstance(got, tuple):
                    row, check = got
                    check = check if row["status"] == "certified" else None
            elif isinstance(by, Rule):
                row["justification"] = f"rule: {by.name}"
                try:
                    check = by.justify(row, st, prev, lk.op, lk.to, extra)
                except Exception as err:            # a rule that cannot read its link establishes nothing
                    check = None
                    _argue(row, f"the rule {by.name} could not be applied: {type(err).__name__}: "
                                f"{shorten(str(err), 160)}")
                if row.get("status") not in ("certified", "argued", "refuted", "exhausted", "sampled"):
                    _argue(row, f"the rule {by.name} gave no status")
                check = check if row["status"] == "certified" else None
            else:
                _argue(row, f"a link is justified by Decide, Cite, Rests, Fact or a rule of the engine, not "
                            f"{type(by).__name__}: it establishes nothing")
            if not row["text"].strip() or row["text"] == prefix:
                row["text"] = prefix + f"{shorten(str(prev), 60)} {lk.op} {shorten(str(lk.to), 60)}"
            if lk is not d.links[-1] and _intermediate_undefined(row, lk.to, st.given):
                check = None
        _carry(row, subs)
        rows.append(row)
        if check is not None:
            checks[i] = check
        prev = lk.to
        i += 1
    composed = compose([lk.op for lk in d.links])
    closure = {"step": i, "text": prefix + "the chain's ends are the statement's sides", "status": None,
               "detail": "", "uses": None, "closure": True}
    problems = []
    if not same(d.links[-1].to, st.rhs):
        problems.append(f"it ends at {shorten(str(d.links[-1].to), 100)}, not the statement's right side "
                        f"{shorten(str(st.rhs), 100)}")
    if composed is None:
        problems.append("its links go both ways, so no relation follows")
    elif not implies(composed, st.op):
        problems.append(f"its links compose to {composed}, the statement states {st.op}")
    closed = not problems
    closure.update(status="certified" if closed else "argued",
                   detail=("the chain starts at the statement's left side and ends at its right side; its links "
                           f"compose to {composed}") if closed else "the chain does not prove the statement: "
                                                                    + "; ".join(problems))
    rows.append(closure)
    return rows, checks, closed


def from_derivation(d: Derivation, domain: str, conclusion: str | None = None) -> Finding:
    """A finding from a derivation (module docstring): one proof row per link (and per link of each fact,
    first), each with its justification, and a closing row that is certified only when the chain runs
    from the statement's left side to its right side with a relation that gives the statement's.
    `proof["chain"]` carries the statement and `closed`."""
    if not isinstance(d, Derivation):
        raise TypeError(f"from_derivation takes a verify.derive(...) result, got {type(d).__name__}")
    rows, checks, proved, i = [], {}, {}, 1
    for name, fd in d.facts.items():
        frows, fchecks, closed = _chain_rows(fd, i, f"[fact {name}] ", d.facts, proved)
        # a fact's rows stay in this proof: one resting on a node is settled with the proof, so the fact may be used
        proved[name] = closed and all(r["status"] in ("certified", "rests") for r in frows)
        rows += frows
        checks.update(fchecks)
        i += len(frows)
    mrows, mchecks, closed = _chain_rows(d, i, "", d.facts, proved)
    rows += mrows
    checks.update(mchecks)
    statement = d.statement.record()
    conclusion = conclusion or d.statement.text()
    f = Finding("inconclusive", domain, "", None, False, "computed",
                proof={"conclusion": conclusion, "steps": rows,
                       "chain": {"closed": closed, "statement": statement,
                                 "facts": {n: fd.statement.record() for n, fd in d.facts.items()}}})
    f.checks = checks
    # the objects themselves, beside their srepr: a Rests is matched on them where they survive the trip
    # from the worker (a custom function class, a function with assumptions, may not read back from srepr)
    f.instances = {r["step"]: r.pop("_objects") for r in rows if "_objects" in r}
    f.statement_object = d.statement
    f.statement, f.latex = statement["text"], statement["latex"]
    settle_proof(f)
    return made_by_engine(f, "a derivation")


def instance_of(record: dict, bind: dict):
    """A statement record (`Statement.record`) as sympy objects with `bind` applied: (lhs, op, rhs, given)."""
    ns = _namespace()
    s = record["srepr"]
    lhs, rhs = eval(s["lhs"], ns), eval(s["rhs"], ns)                         # our own srepr
    given = [eval(g, ns) for g in s.get("given", [])]
    b = _bind({k: eval(v, ns) for k, v in (bind or {}).items()}, _free(lhs, rhs, *given))
    return lhs.xreplace(b), record["op"], rhs.xreplace(b), [g.xreplace(b) for g in given]


def _namespace() -> dict:
    ns = dict(vars(sympy))
    ns.update(Pr=Pr, Cup=Cup, Normal=Normal, Ex=Ex, Mean=Mean)
    return ns


def check_instance(record: dict, inst: dict, target: "Statement | None" = None, objects: tuple | None = None
                   ) -> str | None:
    """None when the statement `record` (a node's, `Statement.record`), instantiated with the link's
    `bind`, gives the link (its sides the link's, its relation at least as strong) and its domain's
    relations hold on the link's own domain (decided); otherwise why not. Where the node's `Statement`
    (`target`) and the link's own objects (`objects`: bind, from, op, to, given) are at hand, they are used
    as they are; otherwise both are read back from their srepr."""
    ns = _namespace()
    try:
        if isinstance(target, Statement) and objects is not None:
            bind, prev, _, to, here = objects
            inst_st = target.instance(bind)
            lhs, op, rhs, given = inst_st.lhs, inst_st.op, inst_st.rhs, list(inst_st.given)
            here = tuple(here)
        else:
            lhs, op, rhs, given = instance_of(record, inst.get("bind"))
            prev, to = eval(inst["from"], ns), eval(inst["to"], ns)
            here = tuple(eval(g, ns) for g in inst.get("given", []))
    except Exception as err:  # pragma: no cover - our own srepr
        return f"the statement could not be read back ({type(err).__name__}: {err})"
    if isinstance(target, Statement) and objects is not None:
        names = {str(x) for x in _free(target.lhs, target.rhs, *target.given)}
        stray = sorted(str(k) for k in (objects[0] or {}) if str(k) not in names)
        if stray:
            return (f"the link binds {', '.join(stray)}, which the node's statement does not have as a symbol (its "
                    f"symbols: {', '.join(sorted(names)) or 'none'}): an object of a statement is not a variable")
    why = matches(lhs, op, rhs, prev, inst["op"], to)
    if why:
        return f"the node's statement, instantiated, is {shorten(str(lhs), 80)} {op} {shorten(str(rhs), 80)}: {why}"
    if isinstance(target, Statement) and objects is not None:
        bad = assumptions_hold(objects[0], _free(target.lhs, target.rhs, *target.given), here)
    else:
        s_ = record["srepr"]
        free = _free(eval(s_["lhs"], ns), eval(s_["rhs"], ns), *[eval(g, ns) for g in s_.get("given", [])])
        bad = assumptions_hold({k: eval(v, ns) for k, v in (inst.get("bind") or {}).items()}, free, here)
    if bad:
        return f"the node's statement does not apply to the link's objects: {bad}"
    for g in given:
        if g in here or g is sympy.true:
            continue
        d = _holds_row({}, Holds(g, here), describe=False)
        if d["status"] != "certified":
            return (f"the node's hypothesis {shorten(str(g), 80)} is not established on the link's domain "
                    f"({d['status']})")
    return None


def restate(f: Finding, statement: Statement) -> Finding:
    """A certified finding whose method states no relation of its own (an induction over a system given in
    sympy, read at its last state; an exhaustive search) with `statement` attached by the caller, so that a `Found`
    link can be matched against it. Nothing ties the attached statement to what the method decided: every link it
    justifies says so (`restated` on its row, `proofs --trust` lists it). A finding whose method states its relation
    itself (an induction with a `Reading`, a derivation) is refused: ValueError."""
    if getattr(f, "statement_tied", False) or getattr(f, "engine_method", None) == "a derivation":
        raise ValueError("restate: this finding's method states its own relation (tied to what it decided); it "
                         "cannot be replaced by another statement")
    f.proof_statement = statement.record()
    f.statement_object = statement
    f.restated = True
    return f


def rests(node: str, **bind) -> Rests:
    """`Rests(node)` in a derivation: the node's statement with its symbols bound, by name, to the link's
    objects (`rests("repair:LEM-TAU-LOWER", T_k=T)`)."""
    return Rests(node, bind=dict(bind))


def replaced(d: Derivation, **changes) -> Derivation:
    """`d` with fields replaced (a planted wrong link in a test)."""
    return dataclasses.replace(d, **changes)
