"""Closed-form inequalities proved over a whole box by interval arithmetic: a branch-and-bound with
arb balls (python-flint, rigorous error bounds on every operation).

`certify(margin, box)` decides `margin(x) >= 0` (or `> 0` with `strict`) for every x in the box: the
margin is evaluated on a box of arb intervals; a box whose margin's lower end clears 0 is proved, a
box whose margin at its centre (a point, so a thin ball) lies wholly below 0 is a counterexample, and
any other box is bisected along its widest side (in the scale of each side: log for a side with
'log' scale) until every box is decided or the budget of boxes (`max_boxes`, `MAX_BOXES` by default) is
spent. The answer says which: `proved` (every box decided, and how many), `refuted` (a point and its
margin), or `open` (the boxes left, the budget, the smallest margin bound found). An unbounded side is not a
box: prove the bounded part here and the tail another way (monotonicity, a substitution; `Holds` with
`method="arb"` does this for a side with an infinite end), and say where each proof stops.

Margins are read in arb's own exponent range, never through a float: a margin of 1e-400 is reported as
1e-400 (`Certificate.smallest_text`), not as the 0 a float underflows to, and `Certificate.smallest` is then
the smallest positive float, still a lower bound of it.

The proof is kept, not only its verdict: a proved `Certificate` holds its cover (`cover`: every box accepted,
with the lower end of the margin's arb ball on it), and `Certificate.record(tree)` writes it as plain data (each
side's ends and each lower end as exact rationals, the margin as `expression_tree`'s JSON tree) for
`rue_verify.certify.boxes`, which re-checks it box by box without this module (`statement_cover` adds what a
statement's unbounded side rests on).

Nothing here knows a paper: the margin is the caller's.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

#: how many boxes `certify` evaluates at most by default before it answers 'open' (its `max_boxes`)
MAX_BOXES = 200_000


def arb():
    """python-flint's arb type (imported on first use)."""
    from flint import arb as _arb
    return _arb


@dataclass(frozen=True)
class Side:
    """One side of a box: `low`..`high` (finite), bisected at its midpoint on a 'lin' scale or its
    geometric midpoint on a 'log' scale (both ends > 0)."""

    low: float
    high: float
    scale: str = "lin"

    def __post_init__(self) -> None:
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.high):
            raise ValueError(f"a side is a finite interval low <= high, got [{self.low}, {self.high}]")
        if self.scale not in ("lin", "log"):
            raise ValueError(f"scale must be 'lin' or 'log', got {self.scale!r}")
        if self.scale == "log" and self.low <= 0:
            raise ValueError(f"a 'log' side needs low > 0, got {self.low}")


@dataclass
class Certificate:
    """What `certify` found on the box: `status` 'proved', 'refuted' or 'open'; `boxes` decided (the
    number of leaves of the bisection tree), `smallest` the smallest lower bound of the margin over
    the proved boxes (how far from 0 the proof stayed; a positive bound below the floats' range is the
    smallest positive float), `smallest_text` that bound in arb's exponent range (never underflowed),
    `witness` the point and margin of a counterexample (its `margin_text` likewise), `left` the number of
    boxes not decided when the budget `max_boxes` ran out."""

    status: str
    box: dict[str, tuple[float, float]]
    boxes: int
    smallest: float
    witness: dict | None = None
    left: int = 0
    deepest: int = 0
    notes: list[str] = field(default_factory=list)
    smallest_text: str = ""
    max_boxes: int = 0
    #: the accepted boxes, (cell, the lower end of the margin's arb ball) each, a cell one (low, high) per side in
    #: the box's order: for a proved certificate, a partition of the box (the bisection tree's leaves); see `record`
    cover: list = field(default_factory=list, repr=False)
    strict: bool = False
    prec: int = 53

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    def domain(self) -> str:
        """The box, as a finding's domain says it."""
        return ", ".join(f"{k} in [{lo:g}, {hi:g}]" for k, (lo, hi) in self.box.items())

    def record(self, margin=None) -> dict:
        """The cover as plain data (JSON): `names` (the sides' order), `domain` {name: [low, high]}, `relation`
        ('>' with `strict`, else '>='; the margin's relation to 0), `prec` (arb's working precision in bits),
        `margin` (the expression evaluated, `expression_tree`'s form, or None) and `boxes`: one
        [[[low, high], ...one per side], lower] per accepted box, every end an exact rational ('p/q' or 'p')
        and `lower` the lower end of the margin's arb ball on that box, exact too (above 0, or at 0 for '>=')."""
        said: dict = {}

        def text(x) -> str:                      # the sides share their ends: each written once
            t = said.get(x)
            if t is None:
                t = said[x] = exact(x)
            return t
        return {"names": list(self.box), "domain": {k: [exact(lo), exact(hi)] for k, (lo, hi) in self.box.items()},
                "relation": ">" if self.strict else ">=", "prec": self.prec, "margin": margin,
                "boxes": [[[[text(lo), text(hi)] for lo, hi in cell], _arb_exact(low)] for cell, low in self.cover]}

    def text(self) -> str:
        """One line: what was decided, on how many boxes, and how close to 0 it came."""
        if self.status == "proved":
            return (f"certified by arb interval arithmetic on {self.domain()}: {self.boxes} boxes, every one with "
                    f"the margin's lower bound above 0 (smallest {self.smallest_text or f'{self.smallest:.3g}'}; "
                    f"bisection depth {self.deepest})")
        if self.status == "refuted":
            m = self.witness.get("margin_text") or f"{self.witness['margin']:.6g}"
            return f"refuted at {self.witness['point']}: the margin there is {m} (an arb ball)"
        if self.notes:
            return (f"not decided on {self.domain()}: {self.left} boxes left undecided after {self.boxes} were "
                    f"decided; a box reached the smallest width before its margin cleared 0 ({self.notes[0]})")
        return (f"not decided on {self.domain()}: {self.left} boxes left undecided after {self.boxes} were decided "
                f"(the budget of boxes, max_boxes = {self.max_boxes}, ran out: raise it)")


def exact(x) -> str:
    """A float (or an int, a Fraction) as the exact rational it is: 'p/q' in lowest terms, or 'p'."""
    p, q = x.as_integer_ratio()
    return str(p) if q == 1 else f"{p}/{q}"


def _arb_exact(x) -> str:
    """An exact arb number (radius 0, such as a ball's `lower()`) as the rational it is, 'p/q' or 'p'."""
    man, e = x.man_exp()
    man, e = int(man), int(e)
    if e >= 0 or man == 0:
        return str(man << e if man else 0)
    shift = min((man & -man).bit_length() - 1, -e)        # lowest terms: the denominator is a power of 2
    man, e = man >> shift, e + shift
    return str(man) if e == 0 else f"{man}/{1 << -e}"


#: sympy's functions the margin's tree names (`expression_tree`; as `statements._arb_fn` evaluates them)
_TREE_FUNCTIONS = ("exp", "log", "erf", "erfc", "sin", "cos", "Abs")


def expression_tree(expr) -> list:
    """A sympy expression as a JSON tree that arb evaluates without sympy, node by node in the order
    `statements._arb_fn` does (so that the balls are the same): ['var', name], ['q', 'p/q'] (a rational, arb(p)/q),
    ['dec', text] (a sympy Float, arb(text)), ['pi'], ['e'], ['add', a, b, ...] and ['mul', a, b, ...] (folded
    left), ['pow', b, n] (an integer power), ['sqrt', b], ['rsqrt', b] (1/sqrt(b)), ['rpow', b, x] (b ** x),
    and [f, a] for f in exp, log, erf, erfc, sin, cos, abs. Raises ValueError on anything else."""
    import sympy

    def tree(e):
        if isinstance(e, sympy.Symbol):
            return ["var", str(e)]
        if isinstance(e, sympy.Rational):
            return ["q", str(e.p) if e.q == 1 else f"{e.p}/{e.q}"]
        if isinstance(e, sympy.Float):
            return ["dec", str(e)]
        if e is sympy.pi:
            return ["pi"]
        if e is sympy.E:
            return ["e"]
        if isinstance(e, (sympy.Add, sympy.Mul)):
            return ["add" if isinstance(e, sympy.Add) else "mul"] + [tree(a) for a in e.args]
        if isinstance(e, sympy.Pow):
            b, x = e.args
            if x.is_Integer:
                return ["pow", tree(b), int(x)]
            if x == sympy.Rational(1, 2):
                return ["sqrt", tree(b)]
            if x == -sympy.Rational(1, 2):
                return ["rsqrt", tree(b)]
            return ["rpow", tree(b), tree(x)]
        for name in _TREE_FUNCTIONS:
            if isinstance(e, getattr(sympy, name)):
                return ["abs" if name == "Abs" else name, tree(e.args[0])]
        raise ValueError(f"no tree for {type(e).__name__}")
    return tree(sympy.sympify(expr))


def _split(side: Side, lo: float, hi: float) -> float:
    return math.sqrt(lo * hi) if side.scale == "log" else (lo + hi) / 2


def _width(side: Side, lo: float, hi: float) -> float:
    return math.log(hi / lo) if side.scale == "log" else hi - lo


def number_text(x, digits: int = 3) -> str:
    """An arb ball's midpoint (or a number) in decimal with its own exponent, so that 1e-400 reads 1e-400
    where a float would read 0."""
    if hasattr(x, "mid") and hasattr(x, "str"):
        return x.mid().str(digits, radius=False)
    return f"{float(x):.{digits}g}"


def _floor_float(x) -> float:
    """A float no larger than the exact arb number `x` and of its sign: a positive number below the floats'
    range is the smallest positive float (not 0), a huge one the largest float or inf."""
    v = float(x)
    if v == 0 and bool(x > 0):
        return math.ulp(0.0)
    if v > 0 and bool(arb()(v) > x):
        v = math.nextafter(v, -math.inf)
    return v


def certify(margin: Callable[..., object], box: dict[str, Side], *, strict: bool = False, max_boxes: int = MAX_BOXES,
            min_width: float = 1e-12) -> Certificate:
    """Decide `margin(**x) >= 0` (`> 0` with `strict`) for every x in `box`.

    Args:
        margin: keyword arguments (arb balls, one per side of the box) -> an arb ball holding the
            margin on that box (rhs - lhs of the inequality), computed with arb's operations only.
        box: name -> `Side`.
        strict: prove a strict inequality (the lower end of the margin > 0, rather than >= 0).
        max_boxes: how many boxes may be evaluated before the answer is 'open' (`MAX_BOXES` by default): a box
            with little slack needs more; the open answer says how many were decided and how many were left.
        min_width: a box narrower than this on every side (relative, in each side's scale) is not
            split further; if it is still undecided the answer is 'open' there.

    Returns:
        A `Certificate`.
    """
    A = arb()
    names = list(box)
    start = tuple((s.low, s.high) for s in box.values())

    def ball(lo: float, hi: float):
        return A(lo, 0) if lo == hi else A((A(lo) + A(hi)) / 2, (A(hi) - A(lo)) / 2)

    def at(cell) -> object:
        return margin(**{k: ball(lo, hi) for k, (lo, hi) in zip(names, cell)})

    def clear(m) -> bool:
        return bool(m > 0) if strict else bool(m >= 0)

    heap: list = [(0.0, 0, 0, start)]          # (lower bound of the margin, tie, depth, box): worst first
    tie, done, deepest = 1, 0, 0
    low = None                                 # the smallest lower bound of the margin, an exact arb number
    cover: list = []                           # the accepted boxes and their margins (`Certificate.cover`)

    def found(status: str, **kw) -> Certificate:
        smallest = math.inf if low is None else _floor_float(low)
        from flint import ctx
        return Certificate(status, dict(zip(names, start)), done, smallest,
                           smallest_text="" if low is None else number_text(low), max_boxes=max_boxes,
                           cover=cover if status == "proved" else [], strict=strict, prec=ctx.prec, **kw)
    while heap:
        if done + len(heap) > max_boxes:
            return found("open", left=len(heap), deepest=deepest)
        _, _, depth, cell = heapq.heappop(heap)
        m = at(cell)
        if clear(m):
            done += 1
            lower = m.lower()
            cover.append((cell, lower))
            low = lower if low is None or bool(lower < low) else low
            deepest = max(deepest, depth)
            continue
        centre = tuple(_split(s, lo, hi) for s, (lo, hi) in zip(box.values(), cell))
        mc = margin(**{k: A(c) for k, c in zip(names, centre)})
        if bool(mc <= 0) if strict else bool(mc < 0):       # certainly below (or at 0, for a strict claim)
            return found("refuted", deepest=depth,
                         witness={"point": dict(zip(names, centre)), "margin": float(mc.mid()),
                                  "margin_text": number_text(mc, 6)})
        widths = [_width(s, lo, hi) / max(_width(s, s.low, s.high), 1e-300)
                  for s, (lo, hi) in zip(box.values(), cell)]
        i = max(range(len(widths)), key=widths.__getitem__)
        if widths[i] < min_width:
            return found("open", left=len(heap) + 1, deepest=depth,
                         notes=[f"undecided at {dict(zip(names, cell))}: the margin is {m}"])
        lo, hi = cell[i]
        mid = _split(list(box.values())[i], lo, hi)
        for part in ((lo, mid), (mid, hi)):
            child = cell[:i] + (part,) + cell[i + 1:]
            heapq.heappush(heap, (float(m.lower()), tie, depth + 1, child))
            tie += 1
    return found("proved", deepest=deepest)


def outward(lo, hi) -> tuple[float, float]:
    """Floats low <= lo and high >= hi (sympy numbers, finite), each the nearest such: a side that holds the exact
    interval [lo, hi], where float(lo) alone may round above lo (1/10) and leave a sliver of it uncovered."""
    import sympy
    lo, hi = sympy.sympify(lo), sympy.sympify(hi)
    a, b = float(lo), float(hi)
    try:
        if bool(sympy.Rational(a) > lo):
            a = math.nextafter(a, -math.inf)
        if bool(sympy.Rational(b) < hi):
            b = math.nextafter(b, math.inf)
    except TypeError:                       # an end sympy cannot compare: the floats as they are (the cover says so)
        pass
    return a, b


def _end_text(v) -> str:
    """A box's end as the statement gives it: 'oo' or '-oo', an exact rational ('p/q', 'p'; a sympy Float as the
    binary number it is), else its sympy text (an end that is not rational, which no cover matches exactly)."""
    import sympy
    v = sympy.sympify(v)
    if v in (sympy.oo, -sympy.oo):
        return "oo" if v == sympy.oo else "-oo"
    if v.is_Rational or v.is_Float:
        return exact(Fraction(sympy.Rational(v).p, sympy.Rational(v).q))
    return str(v)


def statement_cover(ends: dict, covers: list, finite: dict, tail_said: str = "", on_its_box: bool = False) -> dict:
    """What a statement decided on a box rests on, as plain data (`statements.Decision.cover`, for
    `rue_verify.certify.boxes`): `box`, the statement's box {name: [low, high]} (exact ends, 'oo' for an
    infinite one); `covers`, one `Certificate.record` per relation of its claim (each margin's tree by
    `expression_tree`; None where it has none); `tail`, where a side is unbounded, what the part past the cut rests
    on ({symbol, cut, toward, decided_by}: not a box cover, proved by sympy or z3, `statements._arb_tail`), else
    None; `on_its_box`, whether the box is the statement's whole domain.

    Args:
        ends: symbol -> (low, high), the statement's box (sympy numbers, maybe infinite).
        covers: (proved `Certificate`, its margin as a sympy expression) per relation.
        finite: symbol -> (low, high), the box the covers are of (the unbounded side cut).
        tail_said: the tail's proof, in words.
        on_its_box: the statement is claimed on its box alone.

    Returns:
        The dict, or None where it cannot be written (never an exception: the decision stands without it).
    """
    try:
        return _statement_cover(ends, covers, finite, tail_said, on_its_box)
    except Exception:
        return None


def _statement_cover(ends: dict, covers: list, finite: dict, tail_said: str, on_its_box: bool) -> dict:
    parts = []
    for cert, expr in covers:
        try:
            tree = expression_tree(expr)
        except Exception:                       # an expression the tree cannot write: the cover has no margin
            tree = None
        parts.append(cert.record(tree))
    tail = None
    for k, (lo, hi) in ends.items():
        if _end_text(lo) != _end_text(finite[k][0]) or _end_text(hi) != _end_text(finite[k][1]):
            up = _end_text(hi) == "oo"
            tail = {"symbol": str(k), "cut": _end_text(finite[k][1] if up else finite[k][0]),
                    "toward": "oo" if up else "-oo", "decided_by": tail_said.removeprefix("; ")}
    return {"box": {str(k): [_end_text(lo), _end_text(hi)] for k, (lo, hi) in ends.items()}, "covers": parts,
            "tail": tail, "on_its_box": bool(on_its_box)}


def as_finding(cert: Certificate, *, what: str, node: str | None = None):
    """The finding a certificate makes: certified 'holds' when proved (on the box it names),
    'refuted' with the point when a counterexample was found, 'inconclusive' when the bisection did
    not close (not a counterexample).

    Args:
        cert: the certificate.
        what: the inequality, for the text.
        node: the proof graph's node it decides (`findings.about`).
    """
    from .findings import Finding, witness
    if cert.status == "refuted":
        w = witness(cert.witness["point"], -cert.witness["margin"], 0.0, "<=", margin=cert.witness["margin"])
        f = Finding("refuted", cert.domain(), f"{what}: {cert.text()}", w)
    else:
        f = Finding("holds" if cert.proved else "inconclusive", cert.domain(), f"{what}: {cert.text()}",
                    certified=cert.proved)
    f.node = node
    return f


def enclose_integral(func: Callable, a: float, b: float, *, tail: float = 0.0, dps: int = 30):
    """A rigorous enclosure (an arb ball) of int_a^b func(x) dx, widened by `tail` (the caller's proved
    bound on what lies outside [a, b] for an integral over a longer range): python-flint's
    `acb.integral`, whose error bounds are rigorous for an integrand analytic on the path (`func` maps
    an acb ball to an acb ball; an entire function, such as those built from exp and erf, needs no
    check of analyticity). Floating quadrature is not this: its error is estimated, not bounded."""
    from flint import acb, ctx
    old = ctx.dps
    ctx.dps = dps
    try:
        val = acb.integral(lambda x, analytic: func(x), a, b).real
        if tail:
            val = val + arb()(0, tail)
        return val
    finally:
        ctx.dps = old


def within(value: float, enclosure, tol: float, what: str, domain: str):
    """A finding: 'holds', certified, when the floating `value` lies within `tol` of the rigorous
    `enclosure` (so the value is certified to that accuracy); 'refuted' when it does not (a quadrature
    off by more than `tol`), with both in the witness."""
    from .findings import Finding
    mid, rad = float(enclosure.mid()), float(enclosure.rad())
    err = abs(value - mid)
    ok = err <= rad + tol
    text = (f"{what}: the floating value {value!r} lies within {tol:g} of the rigorous enclosure [{mid - rad!r}, "
            f"{mid + rad!r}] (arb integration)" if ok else
            f"{what}: the floating value {value!r} is {err:.3g} from the rigorous enclosure [{mid - rad!r}, "
            f"{mid + rad!r}], more than the tolerance {tol:g}")
    w = None if ok else {"params": {"what": what}, "lhs": err, "rhs": rad + tol, "relation": "<="}
    return Finding("holds" if ok else "refuted", domain, text, w, certified=ok)
