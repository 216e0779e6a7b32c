"""Sums, harmonic numbers, floors and ceilings, expectations and maxima over a finite index set: the everyday
links of a bandit analysis as rules of the engine (`derivation.Rule`), each certifying a link only when it
applies to exactly that link: its sides matched structurally (the sum's own range, the bound's own form),
and every relation it needs (a range nonempty, a summand monotone, a coefficient nonnegative) decided.

The rules (each `link(op, to, Rule(...))` in a `derivation.derive` chain):

- `ClosedForm`: sums (and integrals) that sympy writes in closed form, replaced by it; the link decided.
  Each range's ends are checked (hi >= lo - 1), since sympy reads a reversed range as a negative sum
  where a paper reads an empty one;
- `HarmonicBound`: a link about harmonic numbers (H_n = `sympy.harmonic(n)`, or a sum of 1/k that sympy
  writes as one), decided with the standard bounds of `schemas.HARMONIC` as facts;
- `FloorCeiling`: a link with floors and ceilings, decided with x - 1 < floor(x) <= x <= ceiling(x) < x + 1;
- `SplitOff` (the first or last terms of a sum), `Split` (a sum cut at an index), `Reindex` (a shift k = j + c
  or a reflection k = c - j of the index): equalities, the ranges checked;
- `TermByTerm`: sums against sums over the same ranges inside the same linear context, from the terms'
  relation (decided, or a cited schema instantiated at every index), and the rest of both sides compared;
- `Widen`: a sum of nonnegative terms at most the same sum over wider ranges;
- `IntegralComparison`: sum_{k=a}^{b} f(k) against f(a) + int_a^b f (and the other seven forms), the
  monotonicity of f decided on the interval the form needs, the limits read from the sum itself;
- `CauchySchwarzSum`: sum a_k b_k <= sqrt(sum a_k^2) sqrt(sum b_k^2) (or its square);
- `Linearity`: expectations and sums taken apart linearly (constants out, sums of sums, the mean of a
  declared law), both sides compared;
- `MaxOverFinite`: the maximum over a finite index set (`max_over`): a term at most it, it at most a bound
  on every term, at most the sum of nonnegative terms, a sum at most the count times it, and the event that
  it exceeds a level as the union of the terms' events;
- `Inclusion`: Pr(A) <= Pr(B) where the event A implies B (decided for every value of the random
  quantities), Pr(A) = Pr(B) where each implies the other.

Random objects beside `derivation`'s (`Normal`, `Mean`), defined in `schemas` and named here too:
`Bounded(mean, lo, hi, tag)` (values in [lo, hi]), `SubGaussian(mean, s2, tag)`, `BoundedDeviation(mean,
variance, c, tag)` (|X - mean| <= c), and `Avg(X, T)`, the mean of T independent copies of X; the maximum
over a finite index set (`max_over`); sequences declared with their properties (`sequence`).

Every decision a rule needs goes through `decide_with_facts`: the engine's decision (`statements.Holds`,
sympy then z3, its negation decided too) on the relation with each object z3 cannot read replaced by a
variable and the facts true of that object (a floor's, a ceiling's, a harmonic number's cited bounds, a
declared sequence's sign, order and bounds, a transcendental constant's enclosure). A counterexample of that
abstraction is replayed on the relation itself (50 digits) before it refutes anything; a link a rule does not
certify is refuted where a seeded point of its domain makes it false, and otherwise argued with why.

Nothing here knows a paper."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy

from .derivation import Cite, Cup, Ex, Mean, Normal, Pr, Rule, Statement, implies, matches
from .findings import shorten
from .proofs import holds_row as _holds_row
from .schemas import HARMONIC, Avg, Bounded, BoundedDeviation, SubGaussian
from .sequences import REGISTRY, SequenceFacts, sequence  # noqa: F401  (sequence: this module's API)
from .statements import Holds, rel
from .statements import sample_refutation as _sample_refutation
from .statements import truth as _truth

#: the z3 time limit of one decision a rule makes, in seconds
SECONDS = 5.0
_OPS_OF = {"Equality": "==", "LessThan": "<=", "StrictLessThan": "<", "GreaterThan": ">=", "StrictGreaterThan": ">"}


# ------------------------------------------------------------------------------------------- random objects
#: the most indices a maximum over a range with integer ends is written out to (`MaxOver.doit`)
EXPANDED_MAX = 2000


class MaxOver(sympy.Function):
    """The largest of f(k) for the integers k in [lo, hi] (a finite, nonempty index set): MaxOver(f, (k, lo, hi)).
    Build it with `max_over`. The index is bound: it is not a free symbol of the expression."""

    nargs = 2
    is_real = True

    def _eval_is_positive(self):
        return True if _sign_of_terms(self) == "positive" else None

    def _eval_is_nonnegative(self):
        return True if _sign_of_terms(self) in ("positive", "nonnegative") else None

    def _eval_is_negative(self):
        return True if _sign_of_terms(self) == "negative" else None

    def _eval_derivative(self, s):            # sympy's simplify asks; a maximum has no derivative in general
        return None if s not in self.free_symbols else sympy.Derivative(self, s)

    def _eval_subs(self, old, new):
        """Substitution that respects the bound index: never into the index itself (the body keeps it), and the index
        renamed first where `new` would be captured by it."""
        f, (k, lo, hi) = self.args
        if old == k:
            return MaxOver(f, sympy.Tuple(k, lo._subs(old, new), hi._subs(old, new)))
        if k in getattr(new, "free_symbols", ()):
            d = sympy.Dummy(k.name, **k.assumptions0)
            return MaxOver(f.xreplace({k: d})._subs(old, new), sympy.Tuple(d, lo._subs(old, new), hi._subs(old, new)))
        return None

    def doit(self, **hints):
        """Over a range with integer ends (at most `EXPANDED_MAX` indices, nonempty), the largest of its terms written
        out (sympy's Max); otherwise itself, its arguments done."""
        f, (k, lo, hi) = self.args
        lo, hi = sympy.sympify(lo).doit(**hints), sympy.sympify(hi).doit(**hints)
        if lo.is_Integer and hi.is_Integer and 0 <= hi - lo < EXPANDED_MAX:
            # subs, not xreplace: an inner sum or maximum over an index of the same name keeps its own
            return sympy.Max(*[f.subs(k, sympy.Integer(i)).doit(**hints) for i in range(int(lo), int(hi) + 1)])
        return MaxOver(f.doit(**hints) if hints.get("deep", True) else f, sympy.Tuple(k, lo, hi))

    @property
    def free_symbols(self):
        f, (k, lo, hi) = self.args
        return (f.free_symbols - {k}) | lo.free_symbols | hi.free_symbols

    def _latex(self, printer, exp=None):
        f, (k, lo, hi) = self.args
        out = (rf"\max_{{{printer._print(k)} = {printer._print(lo)}}}^{{{printer._print(hi)}}} "
               + printer._print(f))
        return out if exp is None else rf"\left({out}\right)^{{{exp}}}"


def _sign_of_terms(m) -> str | None:
    """The sign of a maximum over its nonempty range from its terms' at every index of it (`statements._range_sign`)."""
    from .statements import range_sign as _range_sign
    return _range_sign(m)


def max_over(f, index_range) -> MaxOver:
    """max_{k = lo}^{hi} f, index_range = (k, lo, hi) with k a symbol."""
    k, lo, hi = index_range
    if not isinstance(k, sympy.Symbol):
        raise ValueError(f"max_over: the index is a sympy symbol, got {k!r}")
    return MaxOver(sympy.sympify(f), sympy.Tuple(k, lo, hi))


_LAWS = (Normal, Mean, Bounded, SubGaussian, BoundedDeviation)


def _mean_of(law):
    """The mean of a declared law (its first argument; a `Normal`'s, a `Mean`'s too)."""
    return law.args[0]


# ------------------------------------------------------------------------------------------------ sequences
# declared in `verify.sequences` (a module of its own, so that `statements` reads them without importing this one)
_SEQUENCES = REGISTRY


def _said_of(f) -> str:
    s = _SEQUENCES.get(f)
    said = [a for a in ("positive", "nonnegative", "integer") if getattr(f, f"is_{a}", None) is True]
    if s is not None:
        said += [s.order] if s.order else []
        said += [f">= {s.lower}"] if s.lower is not None else []
        said += [f"<= {s.upper}"] if s.upper is not None else []
    return f"{f} " + (", ".join(said) if said else "(no property declared)")


# ----------------------------------------------------------------------------------------- the abstraction
_OPAQUE = (sympy.Sum, sympy.Integral, sympy.Product, MaxOver, Pr, Ex, Avg, Cup) + _LAWS
_TRANSCENDENTAL = (sympy.exp, sympy.log, sympy.erf, sympy.erfc, sympy.harmonic, sympy.zeta, sympy.gamma)


def _canon(e, depth: int = 0):
    """`e` with the bound index of every sum, integral, product, maximum and union renamed canonically, by its
    depth of nesting and its place, so that two expressions that differ only in the names of their indices are one
    expression, and an inner index never takes an outer one's name (which would capture it)."""
    e = sympy.sympify(e)
    if not getattr(e, "args", ()):
        return e
    if isinstance(e, (sympy.Sum, sympy.Integral, sympy.Product)):
        body = e.function
        limits = []
        for j, lim in enumerate(e.limits):
            var = lim[0]
            new = sympy.Symbol(f"_i{depth}_{j}_{len(e.limits)}", integer=bool(var.is_integer), real=True)
            body = body.xreplace({var: new})
            limits = [tuple(sympy.sympify(x).xreplace({var: new}) for x in lm) for lm in limits]
            limits.append((new,) + tuple(_canon(x, depth + 1) for x in lim[1:]))
        return e.func(_canon(body, depth + 1), *limits)
    if isinstance(e, MaxOver):
        f, (k, lo, hi) = e.args
        new = sympy.Symbol(f"_m{depth}", integer=True)
        return MaxOver(_canon(f.xreplace({k: new}), depth + 1),
                       sympy.Tuple(new, _canon(lo, depth + 1), _canon(hi, depth + 1)))
    if isinstance(e, Cup):
        body, ranges = e.args[0], list(e.args[1:])
        out = []
        for j, (k, lo, hi) in enumerate(ranges):
            new = sympy.Symbol(f"_c{depth}_{j}", integer=True)
            body = body.xreplace({k: new})
            out.append(sympy.Tuple(new, lo, hi))
        return Cup(_canon(body, depth + 1), *out)
    try:
        return e.func(*[_canon(a, depth) for a in e.args])
    except Exception:
        return e


class _Abstraction:
    """Objects z3 cannot read replaced by fresh variables, with the facts true of each (module docstring).
    `closed`: sums and integrals replaced by their closed forms where sympy has one (each range's ends then
    checked); `constants`: every transcendental constant (log 2, pi^2/6, Euler's gamma) replaced by a variable
    enclosed to 30 digits (for z3, which reads none of them)."""

    def __init__(self, closed: bool = False, constants: bool = False):
        self.closed = closed
        self.constants = constants
        self.seen: dict = {}
        self.facts: list = []
        self.notes: list = []
        self.ranges: list = []            # (what a closed form needs, the in-range relations it is needed under)
        self.closed_any = False
        self.harmonic_any = False
        self.floor_any = False
        self.apps: dict = {}              # sequence -> [(argument, variable)]
        self.count = itertools.count()

    def fresh(self, kind: str, **assume):
        return sympy.Symbol(f"_{kind}{next(self.count)}", **assume)

    def __call__(self, e, inside: tuple = ()):
        e = sympy.sympify(e)
        if isinstance(e, (sympy.Symbol, sympy.Rational)) or e in (sympy.oo, -sympy.oo):
            return e
        if isinstance(e, sympy.Rel):
            return rel(self(e.lhs, inside), _OPS_OF.get(type(e).__name__, "=="), self(e.rhs, inside)) \
                if not isinstance(e, sympy.Ne) else sympy.Ne(self(e.lhs, inside), self(e.rhs, inside), evaluate=False)
        if isinstance(e, sympy.logic.boolalg.BooleanAtom):
            return e
        if self.constants and e.is_number and not e.is_Rational and e.has(sympy.pi, sympy.E, sympy.EulerGamma,
                                                                          *_TRANSCENDENTAL):
            return self.constant(e)
        key = _canon(e)
        if key in self.seen:
            return self.seen[key]
        if isinstance(e, (sympy.floor, sympy.ceiling)):
            inner = self(e.args[0], inside)
            v = self.fresh("floor" if isinstance(e, sympy.floor) else "ceil", integer=True)
            self.floor_any = True
            if isinstance(e, sympy.floor):
                self.facts += [rel(inner - 1, "<", v), rel(v, "<=", inner)]
            else:
                self.facts += [rel(inner, "<=", v), rel(v, "<", inner + 1)]
            self.seen[key] = v
            return v
        if isinstance(e, sympy.harmonic) and (len(e.args) == 1 or e.args[1] == 1) and e.args[0].is_integer:
            m = self(e.args[0], inside)
            v = self.fresh("H", real=True)
            self.harmonic_any = True
            self.facts += _harmonic_facts(m, v)
            self.seen[key] = v
            return v
        if self.closed and isinstance(e, (sympy.Sum, sympy.Integral)) and _closable(e):
            got = _closed_when(e)
            if got is not None:
                done, cond = got
                self.closed_any = True
                if isinstance(e, sympy.Sum):
                    for j, (_, lo, hi) in enumerate(e.limits):       # each range, its outer indices in theirs
                        self.ranges.append((rel(hi, ">=", lo - 1), inside + _in_range(e.limits[j + 1:])))
                if cond is not None:                                 # the case sympy's closed form holds in
                    self.ranges.append((cond, inside))
                out = self(done, inside)
                self.seen[key] = out
                return out
        if isinstance(e, _OPAQUE):
            v = self.fresh(type(e).__name__, real=True)
            if isinstance(e, Pr):
                self.facts += [rel(v, ">=", 0), rel(v, "<=", 1)]
            elif isinstance(e, (sympy.Sum, MaxOver)):
                self.facts += _sign_facts(e, v)
            self.seen[key] = v
            return v
        if isinstance(e, sympy.core.function.AppliedUndef):
            args = [self(a, inside) for a in e.args]
            f = e.func
            assume = {a: True for a in ("positive", "nonnegative", "integer", "negative", "nonpositive")
                      if getattr(e, f"is_{a}", None)}
            v = self.fresh(f.__name__, real=True, **assume)
            self.seen[key] = v
            s = _SEQUENCES.get(f)
            if s is not None:
                if s.lower is not None:
                    self.facts.append(rel(self(s.lower, inside), "<=", v))
                if s.upper is not None:
                    self.facts.append(rel(v, "<=", self(s.upper, inside)))
                if s.order and len(args) == 1:
                    for a, w in self.apps.get(f, []):
                        self.facts += _order_facts(s.order, a, w, args[0], v)
            if len(args) == 1:
                self.apps.setdefault(f, []).append((args[0], v))
            if f not in [n for n, _ in self.notes if isinstance(n, sympy.core.function.UndefinedFunction)]:
                self.notes.append((f, _said_of(f)))
            return v
        if not e.args:
            return e
        try:
            return e.func(*[self(a, inside) for a in e.args])
        except Exception:
            return e

    def constant(self, c):
        key = ("const", c)
        if key in self.seen:
            return self.seen[key]
        try:
            val = sympy.Rational(str(sympy.N(c, 40)))
        except Exception:
            return c
        if not val.is_finite:
            return c
        eps = sympy.Rational(1, 10 ** 30) * max(1, abs(val))
        v = self.fresh("c", real=True)
        self.facts += [rel(val - eps, "<", v), rel(v, "<", val + eps)]
        self.seen[key] = v
        return v


def _sign_facts(e, v) -> list:
    """The sign of a sum or a maximum over a range (`v` its variable) read from its terms' sign at every index of
    the range: each index written lo + j, j a nonnegative integer (so an index symbol's own assumptions are not
    used, only the range's lower end's), the term's sign from sympy's assumptions. A sum of nonnegative terms is
    >= 0 (an empty range sums to 0); the maximum of positive (nonnegative) terms over its nonempty range is > 0
    (>= 0)."""
    if isinstance(e, MaxOver):
        f, (k, lo, hi) = e.args
        limits = [(k, lo, hi)]
    else:
        f, limits = e.function, list(e.limits)
    for k, lo, _ in limits:
        f = f.xreplace({k: lo + sympy.Dummy("j", integer=True, nonnegative=True)})
    if f.is_positive:
        return [rel(v, ">", 0)] if isinstance(e, MaxOver) else [rel(v, ">=", 0)]
    if f.is_nonnegative:
        return [rel(v, ">=", 0)]
    return []


def _order_facts(order: str, a, u, b, v) -> list:
    """The order of two terms u = f(a), v = f(b) of a sequence, as implications on their indices."""
    up = order in ("nondecreasing", "increasing")
    strict = order in ("increasing", "decreasing")
    out = []
    for (i, x), (j, y) in (((a, u), (b, v)), ((b, v), (a, u))):
        rel_x_y = rel(x, "<" if strict else "<=", y) if up else rel(x, ">" if strict else ">=", y)
        out.append(sympy.Implies(rel(i, "<", j) if strict else rel(i, "<=", j), rel_x_y, evaluate=False))
    return out


def _harmonic_facts(m, v) -> list:
    """The cited bounds of H_m (`schemas.HARMONIC`) as facts of the variable v standing for it, each under
    its conditions (m a whole number is known: sympy says the argument is an integer); H_0 = 0."""
    out = [sympy.Implies(rel(m, "==", 0), rel(v, "==", 0), evaluate=False)]
    for schema in HARMONIC:
        concl, conds = schema.instance({"n": m})
        concl = concl.xreplace({sympy.harmonic(m): v})
        conds = [c for _, c in conds if c is not sympy.true]
        if any(c is sympy.false for c in conds):
            continue
        out.append(sympy.Implies(sympy.And(*conds), concl, evaluate=False) if conds else concl)
    return out


def _closable(e) -> bool:
    """Whether sympy is asked for a closed form of e: not where its summand reads a floor, a ceiling, a
    sequence or a random object of its index (sympy has none, and may search long for one)."""
    idx = {lim[0] for lim in e.limits}
    hard = [x for x in sympy.preorder_traversal(e.function)
            if isinstance(x, (sympy.floor, sympy.ceiling, Pr, Ex, MaxOver, sympy.core.function.AppliedUndef) + _LAWS)]
    return not any(x.free_symbols & idx for x in hard)


def _closed(e):
    """The closed form sympy gives a sum or an integral, or None (no closed form, or not a finite number). Where
    sympy answers by cases and only the first case is closed (a series that converges for |r| < 1), that case,
    its condition then an obligation (`_closed_when`)."""
    got = _closed_when(e)
    return None if got is None else got[0]


def _closed_when(e):
    """(closed form, the condition under which it is e's value, or None) of `_closed`."""
    try:
        done = e.doit()
    except Exception:
        return None
    cond = None
    if isinstance(done, sympy.Piecewise) and done.has(sympy.Sum, sympy.Integral, sympy.Product):
        first, cond = done.args[0]
        if cond is sympy.false:
            return None
        done, cond = first, (None if cond is sympy.true else cond)
    if done.has(sympy.Sum, sympy.Integral, sympy.Product) or done.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
        return None
    return done, cond


def _expand_logs(e):
    try:
        return sympy.expand_log(e, force=False)
    except Exception:
        return e


# ------------------------------------------------------------------------------------------------ decisions
@dataclass
class Decided:
    """What `decide_with_facts` found: `status` (certified, refuted, argued), `detail`, the relation as
    decided (`holds`, the abstraction's `statements.Holds`), a replayed `witness`, and the facts it used."""

    status: str
    detail: str
    holds: object = None
    witness: dict | None = None
    statement: str = ""
    latex: str = ""
    facts: tuple = ()
    notes: tuple = ()
    closed_any: bool = False
    harmonic_any: bool = False
    floor_any: bool = False
    exact: bool = False


def decide_with_facts(relation, given=(), *, closed: bool = False, seconds: float = SECONDS,
                      refute: bool = True) -> Decided:
    """Decide `relation` on the domain `given` (module docstring): the objects z3 cannot read replaced by
    variables carrying their facts (`closed`: sums and integrals by their closed forms first), decided by the
    engine (sympy, then z3; the negation decided too); a counterexample replayed on `relation` itself; where
    not decided (and `refute`), a seeded point of the domain where `relation` is false refutes it."""
    relation = relation if isinstance(relation, sympy.Basic) else sympy.sympify(relation)
    given = tuple(sympy.sympify(g) for g in given)
    ab = _Abstraction(closed=closed)
    claim = ab(_expand_logs(relation))
    dom = tuple(ab(_expand_logs(g)) for g in given)
    facts = tuple(_expand_logs(f) for f in ab.facts)
    for need, inside in ab.ranges:     # a range not reversed (sympy reads one as a negative sum); a case's condition
        r = decide_with_facts(need, given + inside, seconds=seconds, refute=False)
        if r.status != "certified":
            return Decided("argued", f"a closed form needs {need}, which is not established on the domain "
                                     f"({r.status}): sympy reads a reversed range as a negative sum, and a closed "
                                     "form by cases holds in its case only", closed_any=True)
    out = _decide_abstract(claim, dom, facts, seconds)
    out.notes = tuple(t for _, t in ab.notes)
    out.closed_any, out.harmonic_any, out.floor_any = ab.closed_any, ab.harmonic_any, ab.floor_any
    if out.status == "refuted":
        out = _replayed(out, relation, given)
    if out.status == "argued" and refute:
        found = refutation(relation, given)
        if found is not None:
            out.status, out.witness = "refuted", found
            out.detail = (f"false at {found['params']} (replayed to 50 digits); the decision had not established "
                          f"it: {shorten(out.detail, 160)}")
    return out


def _settled(claim):
    """The claim with each part that sympy evaluates to true on its own dropped (1 <= 1, 0 < 2, a <= a):
    true when nothing is left."""
    parts = list(claim.args) if isinstance(claim, sympy.And) else [claim]
    left = []
    for p in parts:
        if isinstance(p, sympy.Rel) and not isinstance(p, sympy.Ne):
            op = _OPS_OF.get(type(p).__name__)
            if p.lhs == p.rhs and op in ("==", "<=", ">="):
                continue
            try:
                if type(p)(p.lhs, p.rhs) is sympy.true:
                    continue
            except TypeError:
                pass
        left.append(p)
    if not left:
        return sympy.true
    return left[0] if len(left) == 1 else sympy.And(*left, evaluate=False)


def _decide_abstract(claim, dom, facts, seconds) -> Decided:
    """The abstraction decided: an identity once written so; else sympy with its constants exact; else the
    engine (sympy, z3) with every transcendental constant enclosed."""
    claim = _settled(claim)
    if isinstance(claim, sympy.logic.boolalg.BooleanAtom):
        return Decided("certified" if claim is sympy.true else "refuted", "the relation is true as written out, "
                       "each side one expression or sympy's own evaluation" if claim is sympy.true else
                       "the relation is false as written out", witness=None if claim is sympy.true else {"params": {}})
    h = Holds(claim, dom + facts, "sympy", seconds=seconds)
    sub = _holds_row({}, h)
    if sub["status"] == "certified":
        return Decided("certified", sub.get("detail", ""), h, None, sub.get("statement", ""), sub.get("latex", ""),
                       facts)
    if sub["status"] == "refuted" and not claim.free_symbols:      # exact: its sides differ by a number
        return Decided("refuted", sub.get("detail", ""), None, {"params": {}}, sub.get("statement", ""),
                       sub.get("latex", ""), facts, exact=True)
    ab = _Abstraction(constants=True)
    claim2 = ab(claim)
    rest = tuple(ab(x) for x in dom + facts)
    h = Holds(claim2, rest + tuple(ab.facts), "auto", seconds=seconds)
    sub = _holds_row({}, h)
    return Decided(sub["status"], sub.get("detail", ""), h if sub["status"] == "certified" else None,
                   sub.get("witness"), sub.get("statement", ""), sub.get("latex", ""), facts)


def _replayed(out: Decided, relation, given) -> Decided:
    """A counterexample of the abstraction refutes only if the relation itself fails at its point (a relation
    without symbols, refuted exactly once its sums are closed, is refuted as it stands)."""
    if out.exact:
        return out
    params = (out.witness or {}).get("params", {})
    names = {str(s): s for s in relation.free_symbols | set().union(*[sympy.sympify(g).free_symbols for g in given])}
    if not names:
        if _truth(relation, {}) is False:
            return out
        out.status, out.detail = "argued", f"the abstraction's counterexample is none of the relation: {out.detail}"
        return out
    if not set(names) <= set(params):
        out.status, out.witness = "argued", None
        out.detail = f"the abstraction's counterexample does not give every symbol a value: {shorten(out.detail, 160)}"
        return out
    point = {names[k]: sympy.Integer(int(v)) if names[k].is_integer and float(v).is_integer() else
             sympy.Rational(str(v)) for k, v in params.items() if k in names}
    try:
        ok_given = all(_truth(g, point) is True for g in given)
        fails = _truth(relation, point) is False
    except Exception:
        ok_given, fails = False, False
    if ok_given and fails:
        out.witness = {"params": {k: params[k] for k in names}}
        return out
    out.status, out.witness = "argued", None
    out.detail = (f"the abstraction has a counterexample ({shorten(str(params), 120)}) that is not one of the "
                  "relation itself, so it decides nothing")
    return out


def _evaluable(e):
    """`e` with every infinite sum replaced by its closed form; None where one has none (its value to 50
    digits could take long)."""
    infinite = [x for x in sympy.preorder_traversal(e) if isinstance(x, sympy.Sum)
                and any(b.has(sympy.oo, -sympy.oo) for lim in x.limits for b in lim[1:])]
    if not infinite:
        return e
    done = {S: _closed(S) for S in infinite}
    if any(v is None for v in done.values()):
        return None
    return e.xreplace(done)


def refutation(relation, given=()) -> dict | None:
    """A witness {'params': ...} where `relation` is false at a seeded point of the domain `given` (each side
    to 50 digits, sums and integrals evaluated there), or None."""
    relation = _evaluable(relation)
    if relation is None:
        return None
    if isinstance(relation, sympy.logic.boolalg.BooleanAtom) or not relation.free_symbols:
        try:
            return {"params": {}} if _truth(relation, {}) is False else None
        except Exception:
            return None
    try:
        d = _sample_refutation(Holds(relation, tuple(given)))
    except Exception:
        return None
    return d.witness if d is not None and d.status == "refuted" else None


# ------------------------------------------------------------------------------------------------- helpers
def _eq(a, b) -> bool:
    """Whether two expressions are one: identical up to the names of bound indices, or their difference
    simplifies to 0 with every sum, integral, expectation and probability read as an opaque atom."""
    a, b = sympy.sympify(a), sympy.sympify(b)
    if a == b:
        return True
    ca, cb = _canon(a), _canon(b)
    if ca == cb:
        return True
    if isinstance(a, sympy.logic.boolalg.Boolean) or isinstance(b, sympy.logic.boolalg.Boolean):
        return False
    atoms: dict = {}

    def opaque(e):
        if isinstance(e, sympy.Sum):          # a summand as one rational function: 1/(k(k-1)) is 1/(k-1) - 1/k
            try:
                e = sympy.Sum(sympy.cancel(sympy.together(e.function)), *e.limits)
            except Exception:
                pass
        if isinstance(e, _OPAQUE + (sympy.floor, sympy.ceiling, sympy.harmonic,
                                    sympy.core.function.AppliedUndef)):
            return atoms.setdefault(e, sympy.Symbol(f"_a{len(atoms)}", real=True))
        if not getattr(e, "args", ()) or isinstance(e, sympy.Symbol):
            return e
        try:
            return e.func(*[opaque(x) for x in e.args])
        except Exception:
            return e
    try:
        return sympy.simplify(opaque(ca) - opaque(cb)) == 0
    except Exception:
        return False


def _sums(e) -> list:
    """The sums of `e` not inside another sum, in order."""
    out = []

    def visit(x):
        if isinstance(x, sympy.Sum):
            if x not in out:
                out.append(x)
            return
        for a in getattr(x, "args", ()):
            if isinstance(a, sympy.Basic):
                visit(a)
    visit(sympy.sympify(e))
    return out


def _linear(e, atom):
    """(a, b) with e = a + b * atom, a and b free of atom; None where e is not linear in it."""
    s = sympy.Dummy("s")
    f = sympy.sympify(e).xreplace({atom: s})
    if f.has(atom):
        return None
    b = sympy.diff(f, s)
    if b.has(s):
        return None
    a = sympy.expand(f - b * s)
    if a.has(s):
        a = sympy.simplify(a)
        if a.has(s):
            return None
    return a, b


def _in_range(limits) -> tuple:
    out = []
    for var, lo, hi in limits:
        out += [rel(var, ">=", lo), rel(var, "<=", hi)]
    return tuple(out)


def _int_index(S):
    """The sum S with every index a fresh integer symbol and nothing more: an index ranges over its limits, so its
    symbol's own assumptions (a sign) must not be read as facts of the terms (a positive index summed from -3)."""
    return S.xreplace(_index_renaming(S))


def _index_renaming(S) -> dict:
    """{index: a fresh integer symbol} for every index of the sum S (`_int_index`)."""
    return {var: sympy.Dummy(var.name, integer=True) for var, _, _ in S.limits}


class SumRule(Rule):
    """The rules of this module: `given` (premises the link adds, as for `Decide`) and `seconds` (each z3
    decision's limit). `justify` certifies the link only when the rule applies to exactly it; a link it does
    not certify is refuted where a seeded point of the domain makes it false, and otherwise argued with why."""

    name = "sum rule"
    given: tuple = ()
    seconds: float = SECONDS

    def justify(self, row, st: Statement, prev, op, to, premises):
        dom = tuple(st.given) + tuple(premises)
        got = self.apply(sympy.sympify(prev), op, sympy.sympify(to), dom)
        status, detail = got[0], got[1]
        check = got[2] if len(got) > 2 else None
        row["justification"] = f"rule: {self.name}"
        if status == "certified":
            row.update(status="certified", detail=f"{self.name}: {detail}")
            if check is not None and getattr(check, "claim", None) is not None:
                row.update(statement=check.text(), latex=check.latex())
            return check
        if status == "refuted" and isinstance(check, dict):          # the rule's own decision refuted it
            row.update(status="refuted", witness=check, detail=f"{self.name}: {detail}")
            return None
        link_rel = rel(prev, op, to)
        witness = refutation(link_rel, dom)
        if witness is not None:
            row.update(status="refuted", witness=witness,
                       detail=f"the link is false at {witness['params']} (replayed to 50 digits); {self.name} "
                              f"does not apply: {detail}")
        else:
            row.update(status="argued", detail=f"{self.name} does not apply: {detail}")
        return None

    def apply(self, prev, op, to, dom) -> tuple:          # pragma: no cover - each rule defines it
        raise NotImplementedError

    def decide(self, relation, dom, **kw) -> Decided:
        return decide_with_facts(relation, dom, seconds=self.seconds, refute=False, **kw)


def _all(checks: list, dom, rule: SumRule) -> tuple[bool, str, object]:
    """Each (text, relation) decided on `dom` with facts: (all certified, what was decided, the last Holds)."""
    said, last = [], None
    for text, r, extra in checks:
        d = rule.decide(r, tuple(dom) + tuple(extra))
        if d.status != "certified":
            more = f" [{'; '.join(d.notes)}]" if d.notes else ""
            return False, f"{text}: not established ({d.status}: {shorten(d.detail, 160)}){more}", None
        said.append(text)
        last = d.holds or last
    return True, "; ".join(said), last


# ------------------------------------------------------------------------------------------ decided links
@dataclass(frozen=True)
class ClosedForm(SumRule):
    """The link decided with every sum and integral sympy writes in closed form replaced by it (a sum's range
    checked: hi >= lo - 1 on the domain), with the facts of `decide_with_facts`. At least one sum or integral
    of the link must have a closed form."""

    given: tuple = ()
    seconds: float = SECONDS
    name = "closed form"

    def apply(self, prev, op, to, dom):
        if not (prev.has(sympy.Sum, sympy.Integral) or to.has(sympy.Sum, sympy.Integral)):
            return "argued", "the link has no sum or integral to write in closed form"
        d = decide_with_facts(rel(prev, op, to), dom, closed=True, seconds=self.seconds, refute=False)
        if not d.closed_any:
            return "argued", "sympy gives none of the link's sums or integrals a closed form"
        if d.status == "certified":
            return "certified", f"the sums written in closed form, then decided: {d.detail}", d.holds
        return d.status, f"once the sums are written in closed form: {d.detail}", d.witness


@dataclass(frozen=True)
class HarmonicBound(SumRule):
    """A link about harmonic numbers H_n (`sympy.harmonic(n)`, n an integer expression; a sum of 1/(k + c)
    that sympy writes with them), decided with the bounds of `schemas.HARMONIC` as facts of every H_n:
    log(n + 1) <= H_n <= 1 + log n, log n + gamma < H_n <= log n + gamma + 1/(2n) for n >= 1, H_0 = 0."""

    given: tuple = ()
    seconds: float = SECONDS
    name = "harmonic bounds"

    def apply(self, prev, op, to, dom):
        d = decide_with_facts(rel(prev, op, to), dom, closed=True, seconds=self.seconds, refute=False)
        if not d.harmonic_any:
            return "argued", "the link has no harmonic number (nor a sum that sympy writes as one)"
        if d.status == "certified":
            cited = "; ".join(f"{s.name} ({s.source})" for s in HARMONIC)
            return "certified", f"decided with the harmonic numbers' bounds as facts ({cited}): {d.detail}", d.holds
        return d.status, f"with the harmonic numbers' bounds as facts: {d.detail}", d.witness


@dataclass(frozen=True)
class FloorCeiling(SumRule):
    """A link with floors and ceilings, decided with x - 1 < floor(x) <= x and x <= ceiling(x) < x + 1 (each an
    integer) as facts."""

    given: tuple = ()
    seconds: float = SECONDS
    name = "floors and ceilings"

    def apply(self, prev, op, to, dom):
        d = decide_with_facts(rel(prev, op, to), dom, closed=True, seconds=self.seconds, refute=False)
        if not d.floor_any:
            return "argued", "the link has no floor or ceiling"
        if d.status == "certified":
            return "certified", ("decided with floor(x) <= x < floor(x) + 1, ceiling(x) - 1 < x <= ceiling(x): "
                                 f"{d.detail}"), d.holds
        return d.status, f"with the floors' and ceilings' facts: {d.detail}", d.witness


@dataclass(frozen=True)
class AsAtoms(SumRule):
    """The link decided with every sum, integral, product, expectation, probability, maximum and term of a
    sequence read as an unknown number (the same object one number wherever it stands), so that the
    domain's relations about them (a budget sum_i T_i = n, a declared sequence's properties) are the only
    facts; floors, ceilings and harmonic numbers with their facts. Where `Decide` cannot read a link only
    because of such an object."""

    given: tuple = ()
    seconds: float = SECONDS
    name = "decided with sums as atoms"

    def apply(self, prev, op, to, dom):
        d = decide_with_facts(rel(prev, op, to), dom, seconds=self.seconds, refute=False)
        if d.status == "certified":
            facts = f" [{'; '.join(d.notes)}]" if d.notes else ""
            return "certified", f"{d.detail}{facts}", d.holds
        return d.status, d.detail, d.witness


# ---------------------------------------------------------------------------------------- sum identities
def _replace_one(prev, S, new):
    return sympy.sympify(prev).xreplace({S: new})


@dataclass(frozen=True)
class SplitOff(SumRule):
    """Sum(f, (k, lo, hi)) = f(lo) + ... + f(lo + count - 1) + Sum(f, (k, lo + count, hi)) (`end='first'`), or
    the last `count` terms (`end='last'`), inside the link's left side (or, read the other way, its right side);
    the range must hold at least `count` terms (decided)."""

    count: int = 1
    end: str = "first"
    given: tuple = ()
    seconds: float = SECONDS
    name = "split off terms"

    def apply(self, prev, op, to, dom):
        if op != "==":
            return "argued", f"splitting off terms is an equality, the link states {op}"
        if self.end not in ("first", "last"):
            return "argued", f"end is 'first' or 'last', got {self.end!r}"
        c = int(self.count)
        tried = []
        for a, b in ((prev, to), (to, prev)):
            for S in _sums(a):
                if len(S.limits) != 1:
                    continue
                var, lo, hi = S.limits[0]
                f = S.function
                if self.end == "first":
                    new = sum((f.xreplace({var: lo + j}) for j in range(c)), sympy.Integer(0)) + \
                        sympy.Sum(f, (var, lo + c, hi))
                else:
                    new = sympy.Sum(f, (var, lo, hi - c)) + sum((f.xreplace({var: hi - j}) for j in range(c)),
                                                               sympy.Integer(0))
                tried.append(str(new))
                if _eq(_replace_one(a, S, new), b):
                    ok, said, h = _all([(f"the range [{lo}, {hi}] holds at least {c} term(s)",
                                         rel(hi - lo + 1, ">=", c), ())], dom, self)
                    if ok:
                        return "certified", f"{S} = {new} ({said})", h
                    return "argued", said
        return "argued", ("no sum of the link, its " + ("first" if self.end == "first" else "last") +
                          f" {c} term(s) split off, gives the other side (tried {shorten('; '.join(tried), 200)})")


@dataclass(frozen=True)
class Split(SumRule):
    """Sum(f, (k, lo, hi)) = Sum(f, (k, lo, at)) + Sum(f, (k, at + 1, hi)) for lo - 1 <= at <= hi (decided),
    inside the link's sides (either way round)."""

    at: object = None
    given: tuple = ()
    seconds: float = SECONDS
    name = "split a sum"

    def apply(self, prev, op, to, dom):
        if op != "==":
            return "argued", f"splitting a sum is an equality, the link states {op}"
        at = sympy.sympify(self.at)
        for a, b in ((prev, to), (to, prev)):
            for S in _sums(a):
                if len(S.limits) != 1:
                    continue
                var, lo, hi = S.limits[0]
                new = sympy.Sum(S.function, (var, lo, at)) + sympy.Sum(S.function, (var, at + 1, hi))
                if _eq(_replace_one(a, S, new), b):
                    cut = sympy.And(rel(lo - 1, "<=", at), rel(at, "<=", hi))
                    ok, said, h = _all([(f"{lo} - 1 <= {at} <= {hi}", cut, ())], dom, self)
                    return ("certified", f"{S} = {new} ({said})", h) if ok else ("argued", said)
        return "argued", f"no sum of the link, cut at {at}, gives the other side"


@dataclass(frozen=True)
class Reindex(SumRule):
    """A sum of the link's left side written over another index: k = j + c (a shift) or k = c - j (a
    reflection, the order reversed), found from the two sums' ranges; the summands must agree under it and the
    rest of the two sides be one expression."""

    given: tuple = ()
    seconds: float = SECONDS
    name = "reindex"

    def apply(self, prev, op, to, dom):
        if op != "==":
            return "argued", f"reindexing is an equality, the link states {op}"
        ours = _sums(prev)
        for S in ours:
            if len(S.limits) != 1:
                continue
            k, a, b = S.limits[0]
            # the sum it becomes: one the right side writes, or one of the left side's other sums (sympy may
            # have evaluated the right side on construction, once the two were one)
            for T in _sums(to) + [x for x in ours if x != S]:
                if len(T.limits) != 1:
                    continue
                j, a2, b2 = T.limits[0]
                jj = sympy.Symbol("_j_reindex", integer=True)
                g = T.function.xreplace({j: jj})
                for kind, sub, ok_range in (
                        ("shift", a - a2, lambda c: _eq(b - c, b2)),
                        ("reflection", a + b2, lambda c: _eq(c - a2, b))):
                    c = sympy.simplify(sub)
                    image = jj + c if kind == "shift" else c - jj
                    if not ok_range(c) or not _eq(S.function.xreplace({k: image}), g):
                        continue
                    if _eq(_replace_one(prev, S, T), to):
                        said = f"k = j + {c}" if kind == "shift" else f"k = {c} - j"
                        return "certified", f"{S} = {T} ({kind}: {said}, the range [{a}, {b}] onto [{a2}, {b2}])"
        return "argued", "no sum of the left side is a sum of the right side under a shift or a reflection of its index"


# ------------------------------------------------------------------------------------- sums compared
def _pair(prev, to):
    """The sums that differ between the two sides, paired by equal ranges: ([(S, T)], None) or (None, why)."""
    left = [S for S in _sums(prev) if not any(_canon(S) == _canon(T) for T in _sums(to))]
    right = [T for T in _sums(to) if not any(_canon(T) == _canon(S) for S in _sums(prev))]
    pairs, free = [], list(right)
    for S in left:
        hit = None
        for T in free:
            if len(S.limits) == len(T.limits) and all(
                    _eq(lo, lo2) and _eq(hi, hi2) for (_, lo, hi), (_, lo2, hi2) in zip(S.limits, T.limits)):
                hit = T
                break
        if hit is None:
            return None, f"the sum {shorten(str(S), 80)} has no sum over the same range on the other side"
        free.remove(hit)
        pairs.append((S, hit))
    if free:
        return None, f"the sum {shorten(str(free[0]), 80)} has no sum over the same range on the left side"
    if not pairs:
        return None, "the two sides have no sums that differ"
    return pairs, None


@dataclass(frozen=True)
class TermByTerm(SumRule):
    """Sums compared term by term inside the same linear context: the left side is A + sum_i c_i S_i and the
    right side B + sum_i c_i T_i, each S_i and T_i over the same ranges, each c_i >= 0 (decided; any sign for
    =); then the terms of S_i stand in the link's relation to those of T_i at every index of the range
    (decided with the index in its range, or, with `cite`, a schema instantiated there whose conditions are
    decided at every index) and A to B (decided). Every range must not be reversed (hi >= lo - 1, decided):
    sympy reads a reversed range as a negative sum, where the terms' order would flip."""

    cite: Cite | None = None
    given: tuple = ()
    seconds: float = SECONDS
    name = "term by term"

    def apply(self, prev, op, to, dom):
        if op not in ("<=", "<", "==", ">=", ">"):
            return "argued", f"not a relation: {op}"
        pairs, why = _pair(prev, to)
        if pairs is None:
            return "argued", why
        s = [sympy.Dummy(f"s{i}") for i in range(len(pairs))]
        lhs, rhs = prev, to
        for (S, T), si in zip(pairs, s):
            lhs, rhs = lhs.xreplace({S: si}), rhs.xreplace({T: si})
        if any(lhs.has(S) for S, _ in pairs) or any(rhs.has(T) for _, T in pairs):
            return "argued", "a sum to compare also stands elsewhere in the link"
        checks = []
        for (S, T), si in zip(pairs, s):
            cl, cr = sympy.diff(lhs, si), sympy.diff(rhs, si)
            if cl.has(*s) or cr.has(*s):
                return "argued", f"the link is not linear in the sum {shorten(str(S), 60)}"
            if not _eq(cl, cr):
                return "argued", f"the sum {shorten(str(S), 60)} has the factor {cl} on the left, {cr} on the right"
            if op != "==" and not (cl.is_number and cl >= 0):
                checks.append((f"its factor {cl} >= 0", rel(cl, ">=", 0), ()))
        rest_l = sympy.expand(lhs - sum(sympy.diff(lhs, si) * si for si in s))
        rest_r = sympy.expand(rhs - sum(sympy.diff(rhs, si) * si for si in s))
        if rest_l.has(*s) or rest_r.has(*s):
            return "argued", "the link is not linear in the sums it compares"
        weak = {"<": "<=", ">": ">="}.get(op, op)
        said_terms = []
        for S, T in pairs:
            ren = _index_renaming(S)
            S, T = S.xreplace(ren), _int_index(T)
            g = T.function
            for (k, _, _), (j, _, _) in zip(S.limits, T.limits):
                g = g.xreplace({j: k})
            inside = _in_range(S.limits)
            checks += [(f"[{lo}, {hi}] not reversed", rel(hi, ">=", lo - 1), _in_range(S.limits[j + 1:]))
                       for j, (_, lo, hi) in enumerate(S.limits)]
            if self.cite is None:
                checks.append((f"the terms: {S.function} {weak} {g} for {', '.join(str(x) for x in inside)}",
                               rel(S.function, weak, g), inside))
            else:
                got = self._cited(S.function, weak, g, inside, dom, ren)
                if got is not None:
                    return "argued", got
                said_terms.append(f"every term by {self.cite.schema.name} ({self.cite.schema.source})")
        if not (rest_l == rest_r):
            checks.append((f"the rest: {rest_l} {op} {rest_r}", rel(rest_l, op, rest_r), ()))
        elif op in ("<", ">"):
            return "argued", f"the rest of both sides is {rest_l}: a strict link needs a strict part"
        ok, said, h = _all(checks, dom, self)
        if ok:
            return "certified", "; ".join(said_terms + [said]), h
        return "argued", said

    def _cited(self, a, op, b, inside, dom, ren: dict | None = None) -> str | None:
        """`self.cite` instantiated at every index: its bind's objects read with the sum's indices renamed as the
        terms were (`ren`), so a bind that names the index names the same fresh one."""
        bind = {k: (sympy.sympify(v).xreplace(ren) if ren and isinstance(v, sympy.Basic) else v)
                for k, v in dict(self.cite.bind or {}).items()}
        try:
            concl, conds = self.cite.schema.instance(bind)
        except ValueError as err:
            return str(err)
        why = matches(concl.lhs, _OPS_OF[type(concl).__name__], concl.rhs, a, op, b)
        if why:
            return f"the terms are not {self.cite.schema.name}'s instance {shorten(str(concl), 100)}: {why}"
        for text, c in conds:
            if c is sympy.true:
                continue
            if c is sympy.false:
                return f"{self.cite.schema.name}'s condition '{text}' is false as instantiated"
            d = self.decide(c, tuple(dom) + tuple(inside))
            if d.status != "certified":
                return f"{self.cite.schema.name}'s condition '{text}' is not established at every index ({d.status}: " \
                       f"{shorten(d.detail, 120)})"
            neg = self.decide(c.negated if isinstance(c, sympy.Rel) else sympy.Not(c), tuple(dom) + tuple(inside))
            if neg.status == "certified":
                return f"{self.cite.schema.name}'s condition '{text}': its negation is certified too (an empty domain)"
        return None


@dataclass(frozen=True)
class Widen(SumRule):
    """Sum(f, R) <= Sum(f, R') for nonnegative f: every range of R inside the same range of R' (its ends
    decided, the outer indices in their ranges), each range of R not reversed (hi >= lo - 1), and f >= 0 at
    every index of R'. Inside the same linear context on both sides (its factor >= 0)."""

    given: tuple = ()
    seconds: float = SECONDS
    name = "widen the range"

    def apply(self, prev, op, to, dom):
        if op not in ("<=", ">="):
            return "argued", f"widening a range gives <= (or >= read the other way), the link states {op}"
        small_side, big_side = (prev, to) if op == "<=" else (to, prev)
        left = [S for S in _sums(small_side) if not any(_canon(S) == _canon(T) for T in _sums(big_side))]
        right = [T for T in _sums(big_side) if not any(_canon(T) == _canon(S) for S in _sums(small_side))]
        if len(left) != 1 or len(right) != 1:
            return "argued", "the two sides must differ in one sum each"
        S, T = _int_index(left[0]), _int_index(right[0])
        if len(S.limits) != len(T.limits):
            return "argued", "the two sums have different numbers of ranges"
        rename = {j: k for (k, _, _), (j, _, _) in zip(S.limits, T.limits)}
        Tf = T.function.xreplace(rename)
        Tl = [(k, lo.xreplace(rename), hi.xreplace(rename)) for (k, _, _), (_, lo, hi) in zip(S.limits, T.limits)]
        if not _eq(S.function, Tf):
            return "argued", f"the summands differ: {S.function} and {Tf}"
        lin_s, lin_t = _linear(small_side, left[0]), _linear(big_side, right[0])
        if lin_s is None or lin_t is None or not _eq(lin_s[0], lin_t[0]) or not _eq(lin_s[1], lin_t[1]):
            return "argued", "the rest of the two sides is not the same linear context of the two sums"
        checks = [] if lin_s[1].is_number and lin_s[1] >= 0 else [(f"the factor {lin_s[1]} >= 0",
                                                                    rel(lin_s[1], ">=", 0), ())]
        limits = list(S.limits)
        for idx in range(len(limits)):
            k, lo, hi = limits[idx]
            _, lo2, hi2 = Tl[idx]
            outer = _in_range(limits[idx + 1:])
            inside = sympy.And(rel(lo2, "<=", lo), rel(hi, "<=", hi2))
            checks += [(f"[{lo}, {hi}] inside [{lo2}, {hi2}]", inside, outer),
                       (f"[{lo}, {hi}] not reversed", rel(hi, ">=", lo - 1), outer)]
        checks.append((f"{S.function} >= 0 on the wider ranges", rel(S.function, ">=", 0), _in_range(Tl)))
        ok, said, h = _all(checks, dom, self)
        return ("certified", said, h) if ok else ("argued", said)


@dataclass(frozen=True)
class CountTimesBound(SumRule):
    """Sum(f, R) <= (its count) * bound, from f <= bound at every index of R (decided with the index in its
    range and the facts of `decide_with_facts`: a sorted sequence's order, a floor's bounds), R not reversed;
    inside the same linear context (its factor >= 0). The count is read from the ranges: prod (hi - lo + 1)."""

    bound: object = None
    given: tuple = ()
    seconds: float = SECONDS
    name = "count times a bound"

    def apply(self, prev, op, to, dom):
        if op not in ("<=", "<"):
            return "argued", f"a sum at most its count times a bound on its terms gives <=, the link states {op}"
        bound = sympy.sympify(self.bound)
        for S in _sums(prev):
            lin = _linear(prev, S)
            if lin is None:
                continue
            a0, c = lin
            S2 = _int_index(S)
            count = sympy.Mul(*[hi - lo + 1 for _, lo, hi in S2.limits])
            if not _eq(to, a0 + c * count * bound):
                continue
            inside = _in_range(S2.limits)
            checks = [(f"every term {S2.function} <= {bound}", rel(S2.function, "<=", bound), inside)]
            checks += [(f"[{lo}, {hi}] not reversed", rel(hi, ">=", lo - 1), _in_range(S2.limits[j + 1:]))
                       for j, (_, lo, hi) in enumerate(S2.limits)]
            if not (c.is_number and c >= 0):
                checks.append((f"its factor {c} >= 0", rel(c, ">=", 0), ()))
            ok, said, h = _all(checks, dom, self)
            if op == "<" and ok:
                return "argued", "a bound on every term gives <=, the link states <"
            return ("certified", f"{count} terms, each at most {bound}: {said}", h) if ok else ("argued", said)
        return "argued", f"the right side is not the count of a sum's range times {bound} in the left side's context"


# ---------------------------------------------------------------------------------- integral comparison
#: (name, the bound, the sum's relation to it, f's monotonicity, the interval it is needed on)
_FORMS = (
    ("f(a) + int_a^b f", lambda f, integ, a, b: f(a) + integ(a, b), "<=", "nonincreasing", lambda a, b: (a, b)),
    ("int_{a-1}^b f", lambda f, integ, a, b: integ(a - 1, b), "<=", "nonincreasing", lambda a, b: (a - 1, b)),
    ("int_a^{b+1} f", lambda f, integ, a, b: integ(a, b + 1), ">=", "nonincreasing", lambda a, b: (a, b + 1)),
    ("f(b) + int_a^b f", lambda f, integ, a, b: f(b) + integ(a, b), ">=", "nonincreasing", lambda a, b: (a, b)),
    ("int_a^{b+1} f", lambda f, integ, a, b: integ(a, b + 1), "<=", "nondecreasing", lambda a, b: (a, b + 1)),
    ("f(b) + int_a^b f", lambda f, integ, a, b: f(b) + integ(a, b), "<=", "nondecreasing", lambda a, b: (a, b)),
    ("int_{a-1}^b f", lambda f, integ, a, b: integ(a - 1, b), ">=", "nondecreasing", lambda a, b: (a - 1, b)),
    ("f(a) + int_a^b f", lambda f, integ, a, b: f(a) + integ(a, b), ">=", "nondecreasing", lambda a, b: (a, b)),
)


@dataclass(frozen=True)
class IntegralComparison(SumRule):
    """A sum over one range (k, a, b), a <= b, compared with an integral of its summand f:

    - f nonincreasing: sum <= f(a) + int_a^b f, sum <= int_{a-1}^b f, sum >= int_a^{b+1} f, sum >= f(b) + int_a^b f;
    - f nondecreasing: the same four mirrored (sum <= int_a^{b+1} f, sum <= f(b) + int_a^b f, ...).

    The limits come from the sum itself and the link's other side must be exactly one of these bounds (the
    integral written or evaluated), inside the same linear context (its factor >= 0); f's monotonicity is
    decided on the interval the form needs (its derivative's sign; the interval's left end open where the
    form integrates from a - 1), and a <= b. An off-by-one (int_a^b f alone, int_a^{b+1} f as an upper bound
    for a nonincreasing f) is no form and is not certified."""

    given: tuple = ()
    seconds: float = SECONDS
    name = "integral comparison"

    def apply(self, prev, op, to, dom):
        if op not in ("<=", ">="):
            return "argued", f"a comparison with an integral gives <= or >=, the link states {op}"
        tried = []
        for S in _sums(prev):
            if len(S.limits) != 1:
                continue
            lin = _linear(prev, S)
            if lin is None:
                continue
            a0, c = lin
            S = _int_index(S)
            k, a, b = S.limits[0]
            x = sympy.Symbol("_x_int", real=True)
            fx = S.function.xreplace({k: x})

            def f(at, fx=fx, x=x):
                return fx.xreplace({x: at})

            def integral(lo, hi, fx=fx, x=x):
                return sympy.Integral(fx, (x, lo, hi))
            for name, bound, sum_op, mono, interval in _FORMS:
                if sum_op != op:
                    continue
                B = bound(f, integral, a, b)
                cands = [a0 + c * B]
                done = B.doit() if B.has(sympy.Integral) else B
                if not done.has(sympy.Integral):
                    cands.append(a0 + c * done)
                tried.append(f"{name} = {shorten(str(cands[-1]), 60)}")
                if not any(_eq(to, cand) for cand in cands):
                    continue
                lo, hi = interval(a, b)
                left = rel(x, ">", lo) if name.startswith("int_{a-1}") else rel(x, ">=", lo)
                d = sympy.diff(fx, x)
                checks = [(f"f = {fx} {mono} on [{lo}, {hi}] (f' {'<=' if mono == 'nonincreasing' else '>='} 0)",
                           rel(d, "<=" if mono == "nonincreasing" else ">=", 0), (left, rel(x, "<=", hi))),
                          (f"the range is nonempty ({a} <= {b})", rel(a, "<=", b), ())]
                if not c.is_number:
                    checks.append((f"its factor {c} >= 0", rel(c, ">=", 0), ()))
                elif c < 0:
                    continue
                ok, said, h = _all(checks, dom, self)
                if ok:
                    return "certified", f"sum_{{{k}={a}}}^{{{b}}} {S.function} {op} {name}: {said}", h
                return "argued", f"the form {name} needs: {said}"
        if not tried:
            return "argued", "the left side is not linear in a sum over one range"
        return "argued", ("the other side is none of the integral comparison's bounds for this sum's own range "
                          f"(tried {shorten('; '.join(tried), 300)})")


# ------------------------------------------------------------------------------------------- Cauchy-Schwarz
@dataclass(frozen=True)
class CauchySchwarzSum(SumRule):
    """Cauchy-Schwarz for a finite sum: Sum(a b, R) <= sqrt(Sum(a^2, R)) sqrt(Sum(b^2, R)) (the link's right
    side that, or sqrt of the product, with sums sympy writes in closed form written so; inside the same linear
    context, its factor >= 0), or Sum(a b, R)^2 <= Sum(a^2, R) Sum(b^2, R). `a` and `b` are the two factors of
    the summand (in the sum's own index), each real (sympy's assumptions of its symbols and sequences)."""

    a: object = None
    b: object = None
    given: tuple = ()
    seconds: float = SECONDS
    name = "Cauchy-Schwarz for sums"

    def apply(self, prev, op, to, dom):
        if op not in ("<=",):
            return "argued", f"Cauchy-Schwarz gives <=, the link states {op}"
        a, b = sympy.sympify(self.a), sympy.sympify(self.b)
        squared = isinstance(prev, sympy.Pow) and prev.exp == 2 and isinstance(prev.base, sympy.Sum)
        sums = [prev.base] if squared else _sums(prev)
        for S in sums:
            if not _eq(S.function, a * b):
                continue
            R = S.limits
            k = [lim[0] for lim in R]
            for part, what in ((a, "a"), (b, "b")):
                real = part.xreplace({v: sympy.Symbol(f"_{v}_r", integer=True) for v in k}).is_extended_real
                if real is not True:
                    return "argued", (f"the factor {what} = {part} is not known real (declare its symbols real, its "
                                      "sequences with `sequence`)")
            Sa, Sb = sympy.Sum(a ** 2, *R), sympy.Sum(b ** 2, *R)
            forms = []
            for A in {Sa, _closed(Sa) or Sa}:
                for B in {Sb, _closed(Sb) or Sb}:
                    forms += [A * B] if squared else [sympy.sqrt(A) * sympy.sqrt(B), sympy.sqrt(A * B)]
            if squared:
                if any(_eq(to, F) for F in forms):
                    return self._ranges(S, dom, f"({S})^2 <= {Sa} {Sb}")
                continue
            lin = _linear(prev, S)
            if lin is None:
                continue
            a0, c = lin
            if any(_eq(to, a0 + c * F) for F in forms):
                if not c.is_number or c < 0:
                    d = self.decide(rel(c, ">=", 0), dom)
                    if d.status != "certified":
                        return "argued", f"its factor {c} is not shown >= 0 ({d.status})"
                return self._ranges(S, dom, f"{S} <= sqrt({Sa}) sqrt({Sb})")
        return "argued", (f"no sum of the left side has the summand a*b = {a * b} with the right side "
                          "sqrt(sum a^2) sqrt(sum b^2) over the same range")

    def _ranges(self, S, dom, said):
        closed = [(lo, hi) for _, lo, hi in S.limits]
        ok, why, h = _all([(f"[{lo}, {hi}] not reversed", rel(hi, ">=", lo - 1), ()) for lo, hi in closed], dom, self)
        return ("certified", f"{said} ({why})", h) if ok else ("argued", why)


# ------------------------------------------------------------------------------------------------ linearity
@dataclass(frozen=True)
class Linearity(SumRule):
    """Expectations and sums taken apart linearly on both sides, which must then be one expression: E[a X + b Y
    + c] = a E[X] + b E[Y] + c, E[Sum(X_k, R)] = Sum(E[X_k], R), the mean of a declared law (E[Normal(m, ...)] =
    m, E[Avg(X, T)] = E[X], ...); Sum(c f + g, R) = c Sum(f, R) + Sum(g, R) for c free of the index, Sum(c, (k,
    lo, hi)) = (hi - lo + 1) c (the range not reversed, decided). Inside E every symbol and function is random
    except those named in `constant` and the parameters of the declared laws the link mentions (a law's mean
    is a number): declare what else is deterministic (a range's ends too, else E does not pass the sum)."""

    constant: tuple = ()
    given: tuple = ()
    seconds: float = SECONDS
    name = "linearity"

    def apply(self, prev, op, to, dom):
        if op != "==":
            return "argued", f"linearity is an equality, the link states {op}"
        consts = set(self.constant)
        for side in (prev, to):
            for law in [x for x in sympy.preorder_traversal(side) if isinstance(x, _LAWS)]:
                for p in law.args[:-1]:
                    consts |= p.free_symbols | {a.func for a in p.atoms(sympy.core.function.AppliedUndef)}
        ranges: list = []
        lp, lt = _Linear(consts, ranges).norm(prev), _Linear(consts, ranges).norm(to)
        if not _eq(lp, lt):
            if _eq(prev, to):
                return "certified", "the two sides are one expression (each summand as one rational function)"
            return "argued", f"taken apart, the two sides are {shorten(str(lp), 120)} and {shorten(str(lt), 120)}"
        ok, said, h = _all([(f"[{lo}, {hi}] not reversed", rel(hi, ">=", lo - 1), ()) for lo, hi in ranges], dom, self)
        if ok:
            return "certified", f"both sides are {shorten(str(lp), 160)}" + (f" ({said})" if said else ""), h
        return "argued", said


def _distribute(f):
    """A product with a sum among its factors (not a denominator's) written as a sum of products, one level."""
    if isinstance(f, sympy.Mul):
        for j, a in enumerate(f.args):
            if isinstance(a, sympy.Add):
                rest = f.args[:j] + f.args[j + 1:]
                return sympy.Add(*[sympy.Mul(term, *rest) for term in a.args])
    return f


class _Linear:
    """The normal form of `Linearity` (constants `consts`; each constant summand's range kept in `ranges`)."""

    def __init__(self, consts: set, ranges: list):
        self.consts, self.ranges, self.bound = consts, ranges, set()

    def constant(self, e) -> bool:
        if any(isinstance(x, _LAWS + (Avg,)) for x in sympy.preorder_traversal(e)):
            return False
        if any(s not in self.consts and s not in self.bound for s in e.free_symbols):
            return False
        return all(app.func in self.consts or app in self.consts
                   for app in e.atoms(sympy.core.function.AppliedUndef))

    def E(self, e):
        e = sympy.sympify(e)
        if self.constant(e):
            return e
        if isinstance(e, _LAWS):
            return _mean_of(e)
        if isinstance(e, Avg):
            return self.E(e.args[0])
        if isinstance(e, sympy.Add):
            return sympy.Add(*[self.E(a) for a in e.args])
        if isinstance(e, sympy.Mul):
            const = [a for a in e.args if self.constant(a)]
            rand = [a for a in e.args if not self.constant(a)]
            if const:
                return sympy.Mul(*const) * self.E(sympy.Mul(*rand))
            return Ex(e)
        if isinstance(e, sympy.Sum) and all(self.constant(lo) and self.constant(hi) for _, lo, hi in e.limits):
            idx = {lim[0] for lim in e.limits}
            self.bound |= idx
            try:
                return self.S(sympy.Sum(self.E(e.function), *e.limits))
            finally:
                self.bound -= idx
        return Ex(e)

    def S(self, e):
        """A sum taken apart (constants out, sums of sums, a constant summand counted)."""
        if not isinstance(e, sympy.Sum):
            return e
        f, limits = e.function, e.limits
        if len(limits) != 1:
            return e
        k, lo, hi = limits[0]
        f = _distribute(f)
        if isinstance(f, sympy.Add):
            return sympy.Add(*[self.S(sympy.Sum(t, (k, lo, hi))) for t in f.args])
        if not f.has(k):
            self.ranges.append((lo, hi))
            return (hi - lo + 1) * f
        out, keep = f.as_independent(k, as_Add=False)
        if out != 1:
            return out * self.S(sympy.Sum(keep, (k, lo, hi)))
        return sympy.Sum(f, (k, lo, hi))

    def norm(self, e):
        def walk(x):
            if isinstance(x, Ex):
                return self.E(walk(x.args[0]))
            if isinstance(x, sympy.Sum):
                return self.S(sympy.Sum(walk(x.function), *x.limits))
            if not getattr(x, "args", ()) or isinstance(x, (sympy.Symbol, Pr)):
                return x
            try:
                return x.func(*[walk(a) for a in x.args])
            except Exception:
                return x
        return walk(sympy.sympify(e))


# ---------------------------------------------------------------------------------------------- maxima
@dataclass(frozen=True)
class MaxOverFinite(SumRule):
    """The maximum over a finite index set (`max_over(f, (k, lo, hi))`, lo <= hi decided), its link read from
    the sides:

    - f(j) <= max_k f (`at=j`, lo <= j <= hi decided);
    - max_k f <= B, from f <= B at every k of the range (decided);
    - max_k f <= Sum(f, same range), for f >= 0 at every k (decided);
    - Sum(f, same range) <= (hi - lo + 1) max_k f;
    - Pr(max_k f >= t) = Pr(the union over k of f >= t) (`Cup`; also with >): the maximum reaches t exactly when
      one term does."""

    at: object = None
    given: tuple = ()
    seconds: float = SECONDS
    name = "maximum over a finite set"

    def apply(self, prev, op, to, dom):
        if isinstance(prev, Pr) and isinstance(to, Pr):
            return self._event(prev, op, to, dom)
        if isinstance(to, MaxOver) and op in ("<=", "<") and not isinstance(prev, sympy.Sum):
            return self._term(prev, op, to, dom)
        if isinstance(prev, MaxOver) and op in ("<=", "<"):
            f, (k, lo, hi) = prev.args
            k2 = sympy.Symbol(f"_{k}_max", integer=True)
            fk = f.xreplace({k: k2})
            inside = (rel(k2, ">=", lo), rel(k2, "<=", hi))
            if isinstance(to, sympy.Sum) and len(to.limits) == 1 and _eq(to.limits[0][1], lo) \
                    and _eq(to.limits[0][2], hi) and _eq(to.function.xreplace({to.limits[0][0]: k2}), fk):
                if op != "<=":
                    return "argued", "the maximum is at most the sum (<=), the link states <"
                ok, said, h = _all([("the range is nonempty", rel(lo, "<=", hi), ()),
                                    (f"{fk} >= 0 on the range", rel(fk, ">=", 0), inside)], dom, self)
                return ("certified", f"the largest of nonnegative terms is at most their sum: {said}", h) if ok \
                    else ("argued", said)
            weak = "<=" if op == "<=" else "<"
            ok, said, h = _all([("the range is nonempty", rel(lo, "<=", hi), ()),
                                (f"every term {fk} {weak} {to}", rel(fk, weak, to), inside)], dom, self)
            return ("certified", f"every term is at most the bound: {said}", h) if ok else ("argued", said)
        if isinstance(prev, sympy.Sum) and op == "<=":
            lin = _linear(to, next(iter(to.atoms(MaxOver)), sympy.Integer(0))) if to.has(MaxOver) else None
            if lin is None or len(prev.limits) != 1:
                return "argued", "a sum at most its count times the maximum: the right side is (count) * max_over(...)"
            M = next(iter(to.atoms(MaxOver)))
            f, (k, lo, hi) = M.args
            j, lo2, hi2 = prev.limits[0]
            if not (_eq(lin[0], 0) and _eq(lo, lo2) and _eq(hi, hi2) and _eq(prev.function.xreplace({j: k}), f)):
                return "argued", "the sum and the maximum are not over the same terms and range"
            if not _eq(lin[1], hi - lo + 1):
                return "argued", f"the count of [{lo}, {hi}] is {hi - lo + 1}, not {lin[1]}"
            ok, said, h = _all([("the range is nonempty", rel(lo, "<=", hi), ())], dom, self)
            if not ok:
                return "argued", said
            return "certified", f"a sum at most its count times its largest term ({said})", h
        return "argued", "the link is none of the maximum's forms (term, bound, sum, count, event)"

    def _term(self, prev, op, to, dom):
        f, (k, lo, hi) = to.args
        if self.at is None:
            return "argued", "a term at most the maximum: give its index (`at=`)"
        j = sympy.sympify(self.at)
        if not _eq(prev, f.xreplace({k: j})):
            return "argued", f"the left side is not the term at {k} = {j}, {f.xreplace({k: j})}"
        if op != "<=":
            return "argued", "a term is at most the maximum (<=), the link states <"
        ok, said, h = _all([(f"{lo} <= {j} <= {hi}", sympy.And(rel(lo, "<=", j), rel(j, "<=", hi)), ())], dom, self)
        return ("certified", f"the term at {j} is one of the maximum's: {said}", h) if ok else ("argued", said)

    def _event(self, prev, op, to, dom):
        ev, other = prev.args[0], to.args[0]
        if not isinstance(ev, sympy.Rel) or not isinstance(ev.lhs, MaxOver) or not isinstance(other, Cup):
            return "argued", "the event form is Pr(max_over(f, R) >= t) = Pr(cup(f >= t, R))"
        if not implies("==", op):
            return "argued", f"the two events are one, the link states {op}"
        evop = _OPS_OF.get(type(ev).__name__)
        if evop not in (">=", ">"):
            return "argued", f"the maximum's event is max >= t (or >), not {evop}"
        f, (k, lo, hi) = ev.lhs.args
        body, ranges = other.args[0], other.args[1:]
        if len(ranges) != 1:
            return "argued", "the union runs over one index range"
        j, lo2, hi2 = ranges[0]
        if not (_eq(lo, lo2) and _eq(hi, hi2)):
            return "argued", f"the union runs over [{lo2}, {hi2}], the maximum over [{lo}, {hi}]"
        want = rel(f.xreplace({k: j}), evop, ev.rhs)
        if not (isinstance(body, sympy.Rel) and _OPS_OF.get(type(body).__name__) == evop and _eq(body.lhs, want.lhs)
                and _eq(body.rhs, want.rhs)):
            return "argued", f"the union's event is {body}, not {want}"
        ok, said, h = _all([("the range is nonempty", rel(lo, "<=", hi), ())], dom, self)
        return ("certified", f"the maximum reaches the level exactly when one term does ({said})", h) if ok \
            else ("argued", said)


# ------------------------------------------------------------------------------------------------ inclusion
@dataclass(frozen=True)
class Inclusion(SumRule):
    """Pr(A) <= Pr(B) where the event A implies B, and Pr(A) = Pr(B) where each implies the other: the
    implication decided for every value of the random quantities (each a free variable) on the domain."""

    given: tuple = ()
    seconds: float = SECONDS
    name = "inclusion of events"

    def apply(self, prev, op, to, dom):
        if not (isinstance(prev, Pr) and isinstance(to, Pr)):
            return "argued", "the link compares two probabilities Pr(A) and Pr(B)"
        A, B = prev.args[0], to.args[0]
        if isinstance(A, Cup) or isinstance(B, Cup):
            return "argued", "inclusion reads events that are relations (a union: use the union bound)"
        if op in ("<=", "<"):
            if op == "<":
                return "argued", "an inclusion gives <=, the link states <"
            dirs = [("A implies B", A, B)]
        elif op in (">=", ">"):
            if op == ">":
                return "argued", "an inclusion gives >=, the link states >"
            dirs = [("B implies A", B, A)]
        else:
            dirs = [("A implies B", A, B), ("B implies A", B, A)]
        checks = [(f"{t}: {shorten(str(x), 80)} implies {shorten(str(y), 80)}",
                   sympy.Implies(x, y, evaluate=False), ()) for t, x, y in dirs]
        ok, said, h = _all(checks, dom, self)
        return ("certified", said, h) if ok else ("argued", said)
