"""The lemmas a proof step cites, as statements about the step's own objects, and a small probability
vocabulary: what `verify.Cites` applies, with conditions the engine decides (`statements.Holds`) and,
for each condition, the object the lemma says violates it (a mutant puts it in its place).

- Conditions: `convex`, `concave` (Jensen), `bounded` (the integral of a bounded function),
  `nonnegative` (Tonelli, a monotone integral), `dominated` and `integrable` (differentiation under the
  integral sign).
- Probability: `Gaussian` (a law the model declares, with whether it is built from counts fixed in
  advance), `sample_mean`, `gaussian_tail` (Chernoff's bound, or the exact tail, with its conditions
  decided on the law's own density) and `union_bound` (over an index set the engine counts: one range
  (i, 1, K) or several, anything else refused in one line naming the argument, `ranges`).
- `held`: steps from (text, relation, assumed relations) triples, e.g. those a bounds module writes
  without knowing the engine.

Nothing here knows a paper."""

from __future__ import annotations

from dataclasses import dataclass

from .proofs import Argued, Cites
from .statements import Condition, Holds, rel


def convex(f, x, given=()) -> Condition:
    """Jensen's condition: f is convex in x on the domain (f'' >= 0, decided on the domain itself); a
    mutant puts -f (concave where f is strictly convex) in its place."""
    import sympy
    return Condition(f"{f} is convex in {x} (second derivative >= 0)",
                     Holds(rel(sympy.Derivative(f, (x, 2)), ">=", 0), tuple(given)),
                     Holds(rel(sympy.Derivative(-f, (x, 2)), ">=", 0), tuple(given)))


def concave(f, x, given=()) -> Condition:
    """f is concave in x on the domain (f'' <= 0); a mutant puts -f in its place."""
    import sympy
    return Condition(f"{f} is concave in {x} (second derivative <= 0)",
                     Holds(rel(sympy.Derivative(f, (x, 2)), "<=", 0), tuple(given)),
                     Holds(rel(sympy.Derivative(-f, (x, 2)), "<=", 0), tuple(given)))


def bounded(g, low, high, given=(), method: str = "auto") -> Condition:
    """low <= g <= high on the domain (the bounded-integrand lemma's condition); a mutant puts
    g + (high - low) + 1 in its place, which exceeds high wherever g >= low."""
    import sympy
    swapped = g + (high - low) + 1
    return Condition(f"{low} <= {g} <= {high}",
                     Holds(sympy.And(rel(low, "<=", g), rel(g, "<=", high)), tuple(given), method),
                     Holds(sympy.And(rel(low, "<=", swapped), rel(swapped, "<=", high)), tuple(given), method))


def nonnegative(f, given=(), method: str = "auto") -> Condition:
    """f >= 0 on the domain; a mutant puts -1 - f (negative wherever f >= 0) in its place."""
    return Condition(f"{f} >= 0", Holds(rel(f, ">=", 0), tuple(given), method),
                     Holds(rel(-1 - f, ">=", 0), tuple(given), method))


def dominated(f, a, g, given=(), method: str = "z3") -> Condition:
    """Differentiation under the integral sign: abs(d f/d a) <= g on the domain (g a function of the
    integration variable only); `integrable(g, ...)` is the other condition. A mutant puts
    f exp(a^2) (whose derivative outgrows any g) in f's place."""
    import sympy
    grown = f * sympy.exp(a ** 2 + 1)
    return Condition(f"|d/d{a} {f}| <= {g}",
                     Holds(rel(sympy.Abs(sympy.Derivative(f, a)), "<=", g), tuple(given), method),
                     Holds(rel(sympy.Abs(sympy.Derivative(grown, a)), "<=", g), tuple(given), method))


def integrable(g, x, low, high) -> Condition:
    """int_low^high g dx is finite (sympy integrates it); a mutant puts g exp(x^2/2 + x) in its place
    (not integrable at an infinite end where g decays like a Gaussian or slower)."""
    import sympy
    return Condition(f"int_{low}^{high} {g} d{x} < oo",
                     Holds(rel(sympy.Integral(g, (x, low, high)), "<", sympy.oo), method="sympy"),
                     Holds(rel(sympy.Integral(g * sympy.exp(x ** 2 / 2 + x), (x, low, high)), "<", sympy.oo),
                           method="sympy"))


def held(steps, method: str = "auto", note: str = "") -> list[tuple[str, Holds]]:
    """Proof steps from statements given as (text, sympy relation, the relations assumed) triples, e.g.
    those a bounds module writes without knowing the engine: each a `Holds` the engine decides."""
    return [(text, Holds(relation, tuple(given), method, note=note)) for text, relation, given in steps]


# ------------------------------------------------------------------------------- a probability vocabulary
@dataclass(frozen=True)
class Gaussian:
    """A random variable's law as the model declares it: N(mean, variance), with why (`because`) and
    whether what it is built from is fixed in advance (`fixed`). In a reward-table model the first T
    rewards of an arm are T iid draws whatever the algorithm does, so their mean is Gaussian for a count T
    fixed in advance; at a count the algorithm chooses from the rewards it is not, and a tail bound there
    needs the union over every count first (`union_bound`)."""

    mean: object
    variance: object
    because: str
    fixed: bool = True


def sample_mean(mean, reward_variance, count, *, count_fixed: bool) -> Gaussian:
    """The mean of the first `count` rewards of iid N(mean, reward_variance) draws: N(mean,
    reward_variance/count) when `count` is fixed in advance (`count_fixed`); a count chosen by the
    algorithm makes the law undeclared (`Gaussian.fixed` False)."""
    return Gaussian(mean, reward_variance / count, f"the mean of {count} iid N({mean}, {reward_variance}) rewards",
                    count_fixed)


def _law_condition(law: Gaussian):
    """The condition that `law` is declared (a count fixed in advance) with a positive variance; its
    violator is the same law at a count the algorithm chooses."""
    adaptive = Argued("its count is chosen by the algorithm from the rewards, so it is not Gaussian: take the union "
                      "over every count first (union_bound), then the tail at each count fixed in advance")
    if law.fixed:
        return Condition(f"the law is declared: {law.because} is Gaussian, with a positive variance",
                         Holds(rel(law.variance, ">", 0), method="auto"), adaptive)
    return (f"the law is declared: {law.because}", adaptive)


def gaussian_tail(law: Gaussian, x, bound, *, two_sided: bool = True, exact: bool = False, given=()):
    """The step Pr(abs(X - m) >= x) <= bound (one-sided: Pr(X - m >= x)) for X of the declared Gaussian `law`,
    as a cited result whose conditions the engine decides on the law's own objects: the law is declared
    (its count fixed in advance) with a positive variance, the moment generating function E exp(l (X - m)) =
    exp(l^2 v/2) (sympy integrates the density), Chernoff's bound at l = x/v gives exp(-x^2/(2v)) (sympy),
    and `bound` is at least that (twice, two-sided) for every x >= 0 and the relations `given` (z3). With
    `exact`, the tail itself: Pr(X - m >= x) = erfc(x/sqrt(2v))/2 (sympy integrates the density), and
    `bound` at least it (twice)."""
    import sympy

    m, v = sympy.sympify(law.mean), sympy.sympify(law.variance)
    y = sympy.Dummy("y", real=True)
    lam = sympy.Dummy("l", positive=True)
    density = sympy.exp(-(y - m) ** 2 / (2 * v)) / sympy.sqrt(2 * sympy.pi * v)
    sides = 2 if two_sided else 1
    dom = (rel(x, ">=", 0), *given)
    if exact:
        tail = sympy.erfc(x / sympy.sqrt(2 * v)) / 2
        z = sympy.Dummy("z", real=True)
        at = sides * sympy.Subs(sympy.erfc(z / sympy.sqrt(2 * v)) / 2, z, x)      # the tail at x, as a function of x
        conds = (_law_condition(law),
                 ("the tail of the declared law", Holds(rel(sympy.Integral(density, (y, m + x, sympy.oo)), "==", tail),
                                                        method="sympy")),
                 Condition(f"the bound is at least {sides} times that tail",
                           Holds(rel(at, "<=", bound), dom, "auto"),
                           Holds(rel(at, "<=", bound / 2), dom, "auto")))
        what = "|X - m|" if two_sided else "X - m"
        return Cites("the Gaussian tail", f"Pr({what} >= x) = {sides} erfc(x/sqrt(2 v))/2 for X ~ N(m, v)", conds)
    xx = x                               # the step's threshold; Chernoff's form is written in a variable of its own
    x = sympy.Dummy("x", positive=True)
    chernoff = sympy.exp(-x ** 2 / (2 * v))
    conds = (_law_condition(law),
             ("the declared law's moment generating function",
              Holds(rel(sympy.Integral(sympy.exp(lam * (y - m)) * density, (y, -sympy.oo, sympy.oo)), "==",
                        sympy.exp(lam ** 2 * v / 2)), method="sympy")),
             ("Chernoff's bound exp(l^2 v/2 - l x) at l = x/v is exp(-x^2/(2 v))",
              Holds(rel(sympy.Subs(sympy.exp(lam ** 2 * v / 2 - lam * x), lam, x / v), "==", chernoff),
                    method="sympy")),
             Condition(f"the bound is at least {sides} exp(-x^2/(2 v))",
                       Holds(rel(sides * sympy.Subs(chernoff, x, xx), "<=", bound), dom, "auto"),
                       Holds(rel(sides * sympy.Subs(chernoff, x, xx), "<=", bound / 2), dom, "auto")))
    return Cites("Chernoff's bound for a Gaussian", f"Pr(X - m >= x) <= E exp(l (X - m)) exp(-l x) for l > 0 (Markov), "
                 f"minimised at l = x/v{'; twice for both tails' if two_sided else ''}", conds)


def ranges(arg, name: str, function: str) -> tuple:
    """A single index range (symbol, low, high) or several, as a tuple of ranges; anything else a ValueError in
    one line naming the function and the argument (`union_bound`'s index)."""
    import sympy

    def one(r) -> bool:
        return isinstance(r, (tuple, list)) and len(r) == 3 and isinstance(r[0], sympy.Symbol)
    if one(arg):
        arg = (arg,)
    if not isinstance(arg, (tuple, list)) or not arg or not any(isinstance(r, (tuple, list)) for r in arg):
        raise ValueError(f"{function}: {name} is a range (symbol, low, high) or several, got {arg!r}")
    out = []
    for r in arg:
        if not one(r):
            raise ValueError(f"{function}: {name} is a range (symbol, low, high) or several; {r!r} is not one "
                             "(a sympy Symbol, then its lowest and highest values)")
        i, lo, hi = r
        try:
            lo, hi = sympy.sympify(lo), sympy.sympify(hi)
        except (sympy.SympifyError, TypeError) as err:
            raise ValueError(f"{function}: {name}: the range of {i} has an end sympy cannot read ({err})") from None
        if i in lo.free_symbols | hi.free_symbols:
            raise ValueError(f"{function}: {name}: the range of {i} has {i} in its own ends ({lo}, {hi})")
        out.append((i, lo, hi))
    if len({r[0] for r in out}) < len(out):
        raise ValueError(f"{function}: {name}: an index appears in two ranges ({[str(r[0]) for r in out]})")
    return tuple(out)


def union_bound(index, each, total):
    """The step Pr(some A_i, i in I) <= #I each <= total: a union over the index set `index` (a sympy range
    (symbol, low, high), or several, one per factor of the product), each event of probability at most `each`.
    The engine counts #I, the size of I (sympy sums 1 over the ranges), and decides #I each <= total where
    every range is nonempty (z3, or sympy). A malformed `index` is a ValueError naming it."""
    import sympy

    index = ranges(index, "index", "union_bound")
    count = sympy.Sum(1, *index).doit()
    nonempty = tuple(rel(lo, "<=", hi) for _, lo, hi in index)
    summed = sympy.Sum(each, *index)                 # the union's sum over I, which the engine evaluates
    over = ", ".join(f"{i} = {lo}..{hi}" for i, lo, hi in index)
    return Cites("the union bound", f"Pr(union over {over}) <= sum of their probabilities; |I| = {count}",
                 (Condition(f"the sum over I of {each} ({count} terms) <= {total}",
                            Holds(rel(summed, "<=", total), nonempty, "auto"),
                            Holds(rel(summed, "<=", total / 2), nonempty, "auto")),))
