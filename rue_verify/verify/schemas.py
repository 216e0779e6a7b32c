"""Classical results as relation schemas (`derivation.Schema`), which a derivation's link cites with its
own objects (`derivation.Cite(schema, bind)`): the engine checks that the instantiated conclusion is the
link and decides every condition on the link's objects. Each says where it is stated.

- Gaussian: `GAUSSIAN_TAIL`, `GAUSSIAN_UPPER_TAIL` (Chernoff), `GAUSSIAN_UPPER_TAIL_EXACT` (erfc),
  `MEAN_OF_GAUSSIANS`; the Mills ratio: `MILLS_UPPER`, `MILLS_LOWER` (Gordon), `MILLS_LOWER_FELLER`;
- means of independent draws (`Avg(X, T)` of a law below: `Bounded`, `SubGaussian`, `BoundedDeviation`):
  `HOEFFDING` (values in [lo, hi]), its lower tail and both tails (`HOEFFDING_TWO_SIDED`), `SUB_GAUSSIAN_TAIL`,
  `SUB_GAUSSIAN_MEAN_TAIL`, its lower tail and both (`SUB_GAUSSIAN_MEAN_TWO_SIDED`), `BERNSTEIN` (|X - m| <= c,
  variance v); `CHERNOFF` (Markov on exp(l X)), `MARKOV`;
- `JENSEN` (convex), `JENSEN_CONCAVE`, `JENSEN_CONCAVE_NONNEGATIVE` (phi concave where Y lies, Y >= 0),
  `CAUCHY_SCHWARZ` (expectations);
- harmonic numbers (`HARMONIC`): H_n <= 1 + log n, log(n + 1) <= H_n, log n + gamma < H_n <= log n + gamma +
  1/(2n), the facts `sums.HarmonicBound` decides with.

An event is written as the schema writes it (`rel(X - m, ">=", x)` inside `Pr`); `sums.Inclusion` moves
between events one of which implies the other.

Nothing here knows a paper."""

from __future__ import annotations

import sympy

from .derivation import Continuous, Ex, Mean, Normal, Pr, Schema
from .statements import rel


# ------------------------------------------------------------------------------------------ random objects
class _Law(sympy.Function):
    """A random variable of a declared law (its arguments are its parameters, then a tag naming it)."""

    is_real = True

    def _latex(self, printer, exp=None):
        out = rf"{printer._print(self.args[-1])}_{{\mathrm{{{type(self).__name__}}}}}"
        return out if exp is None else rf"\left({out}\right)^{{{exp}}}"


class Bounded(_Law):
    """A random variable with values in [lo, hi] and mean `mean`: Bounded(mean, lo, hi, tag)."""

    nargs = 4


class SubGaussian(_Law):
    """A random variable with mean `mean`, sub-Gaussian with variance proxy s2 (E exp(l (X - mean)) <=
    exp(l^2 s2 / 2) for every real l): SubGaussian(mean, s2, tag)."""

    nargs = 3


class BoundedDeviation(_Law):
    """A random variable with mean `mean`, variance `variance` and |X - mean| <= c:
    BoundedDeviation(mean, variance, c, tag)."""

    nargs = 4


class Avg(sympy.Function):
    """The mean of T independent copies of the random variable X (a law object), T fixed in advance:
    Avg(X, T)."""

    nargs = 2
    is_real = True

    def _latex(self, printer, exp=None):
        out = rf"\bar{{{printer._print(self.args[0])}}}_{{{printer._print(self.args[1])}}}"
        return out if exp is None else rf"\left({out}\right)^{{{exp}}}"


_m, _x, _a = sympy.symbols("m x a", real=True)
_v, _w = sympy.symbols("v w", real=True)
_T = sympy.Symbol("T", real=True)
_X, _Y = sympy.symbols("X Y", real=True)
_y = sympy.Symbol("y", real=True)
_tag = sympy.Symbol("tag")
_phi = sympy.Function("phi")

#: Pr(|X - m| >= x) <= 2 exp(-x^2/(2v)) for X ~ N(m, v): Chernoff's bound on each tail (Markov's inequality
#: applied to exp(l (X - m)), whose expectation is exp(l^2 v/2), at l = x/v), e.g. Vershynin, High-Dimensional
#: Probability (2018), Prop. 2.1.2 and Sec. 2.3; the paper's Fact 1 (Appendix A.5) in its sub-Gaussian form.
GAUSSIAN_TAIL = Schema(
    "the Gaussian tail (Chernoff, both tails)", (_m, _v, _x, _tag),
    rel(Pr(sympy.Ge(sympy.Abs(Normal(_m, _v, _tag) - _m), _x, evaluate=False)), "<=",
        2 * sympy.exp(-_x ** 2 / (2 * _v))),
    (("the variance is positive", rel(_v, ">", 0)), ("the threshold is nonnegative", rel(_x, ">=", 0))),
    "Chernoff's bound for N(m, v), each tail exp(-x^2/(2v)) (Vershynin 2018, Sec. 2.1-2.3)")

#: Pr(X - m >= x) <= exp(-x^2/(2v)) for X ~ N(m, v): the one tail of `GAUSSIAN_TAIL`.
GAUSSIAN_UPPER_TAIL = Schema(
    "the Gaussian upper tail (Chernoff)", (_m, _v, _x, _tag),
    rel(Pr(sympy.Ge(Normal(_m, _v, _tag) - _m, _x, evaluate=False)), "<=", sympy.exp(-_x ** 2 / (2 * _v))),
    (("the variance is positive", rel(_v, ">", 0)), ("the threshold is nonnegative", rel(_x, ">=", 0))),
    "Chernoff's bound for N(m, v) (Vershynin 2018, Sec. 2.1-2.3)")

#: The mean of the first T draws of iid N(m, w) rewards, T fixed in advance, is N(m, w/T): a sum of
#: independent Gaussians is Gaussian, its variance the sum of theirs.
MEAN_OF_GAUSSIANS = Schema(
    "the mean of iid Gaussian draws", (_m, _w, _T, _x, _tag),
    rel(Pr(sympy.Ge(sympy.Abs(Mean(_m, _w, _T, _tag) - _m), _x, evaluate=False)), "==",
        Pr(sympy.Ge(sympy.Abs(Normal(_m, _w / _T, _tag) - _m), _x, evaluate=False))),
    (("the count is at least one", rel(_T, ">=", 1)), ("the reward variance is positive", rel(_w, ">", 0))),
    "sums of independent Gaussians are Gaussian (any probability text)")

#: phi defined and continuous on the whole real line, where the convexity condition quantifies: phi'' is decided
#: only where it is defined, so 1/t^2 ('phi'' = 6/t^4 >= 0') would pass alone, and 1/E Y^2 <= E 1/Y^2 is false
#: for Y = -1 or 3 with probability 1/2 each
_DEFINED_ON_R = ("phi is defined and continuous on the whole real line", Continuous(_phi(_y), _y, -sympy.oo, sympy.oo))

#: phi(E Y) <= E phi(Y) for convex phi (Jensen's inequality).
JENSEN = Schema(
    "Jensen's inequality", (_phi, _Y),
    rel(_phi(Ex(_Y)), "<=", Ex(_phi(_Y))),
    (("phi is convex (second derivative >= 0)", rel(sympy.Derivative(_phi(_y), (_y, 2)), ">=", 0)),
     _DEFINED_ON_R),
    "Jensen (1906); e.g. Durrett, Probability: Theory and Examples, Thm 1.6.2")

#: E[X Y] <= sqrt(E X^2) sqrt(E Y^2) (Cauchy-Schwarz for expectations).
CAUCHY_SCHWARZ = Schema(
    "the Cauchy-Schwarz inequality", (_X, _Y),
    rel(Ex(_X * _Y), "<=", sympy.sqrt(Ex(_X ** 2)) * sympy.sqrt(Ex(_Y ** 2))), (),
    "e.g. Durrett, Probability: Theory and Examples, Thm 1.6.3")

#: Pr(X >= a) <= E X / a for X >= 0 and a > 0 (Markov's inequality).
MARKOV = Schema(
    "Markov's inequality", (_X, _a),
    rel(Pr(sympy.Ge(_X, _a, evaluate=False)), "<=", Ex(_X) / _a),
    (("the variable is nonnegative", rel(_X, ">=", 0)), ("the level is positive", rel(_a, ">", 0))),
    "e.g. Durrett, Probability: Theory and Examples, Thm 1.6.4")

#: E phi(Y) <= phi(E Y) for concave phi (Jensen's inequality, the concave side).
JENSEN_CONCAVE = Schema(
    "Jensen's inequality (concave)", (_phi, _Y),
    rel(Ex(_phi(_Y)), "<=", _phi(Ex(_Y))),
    (("phi is concave (second derivative <= 0)", rel(sympy.Derivative(_phi(_y), (_y, 2)), "<=", 0)),
     _DEFINED_ON_R),
    "Jensen (1906), applied to -phi; e.g. Durrett, Probability: Theory and Examples, Thm 1.6.2")

_yp = sympy.Symbol("y", positive=True)

#: E phi(Y) <= phi(E Y) for a nonnegative Y and phi concave on [0, oo) (sqrt, log(1 + y), y^a for 0 < a < 1).
JENSEN_CONCAVE_NONNEGATIVE = Schema(
    "Jensen's inequality (concave on [0, oo), Y >= 0)", (_phi, _Y),
    rel(Ex(_phi(_Y)), "<=", _phi(Ex(_Y))),
    (("Y is nonnegative", rel(_Y, ">=", 0)),
     ("phi is concave on (0, oo) (second derivative <= 0 there)", rel(sympy.Derivative(_phi(_yp), (_yp, 2)), "<=", 0)),
     ("phi is defined and continuous on (0, oo)", Continuous(_phi(_yp), _yp, 0, sympy.oo)),
     ("phi(0) is at most its limit from the right (so phi is concave on [0, oo))",
      rel(_phi(0), "<=", sympy.Limit(_phi(_yp), _yp, 0, "+")))),
    "Jensen (1906) on the convex set [0, oo) where Y lies; e.g. Durrett, Probability: Theory and Examples, Thm 1.6.2")


# ------------------------------------------------------------------------------ concentration of means
_mu, _lo, _hi, _c = sympy.symbols("mu lo hi c", real=True)
_s2, _l = sympy.symbols("s2 l", real=True)
_t = sympy.Symbol("t", real=True)


def _upper_event(X, m, x):
    return Pr(rel(X - m, ">=", x))


def _lower_event(X, m, x):
    return Pr(rel(m - X, ">=", x))


#: Pr(mean of T independent draws in [lo, hi] - mu >= x) <= exp(-2 T x^2/(hi - lo)^2) (Hoeffding's inequality for
#: the mean: the sum's deviation T x over sum_t (hi - lo)^2 = T (hi - lo)^2).
HOEFFDING = Schema(
    "Hoeffding's inequality (upper tail of a mean)", (_mu, _lo, _hi, _T, _x, _tag),
    rel(_upper_event(Avg(Bounded(_mu, _lo, _hi, _tag), _T), _mu, _x), "<=",
        sympy.exp(-2 * _T * _x ** 2 / (_hi - _lo) ** 2)),
    (("the range is an interval", rel(_lo, "<", _hi)), ("the mean lies in the range", rel(_lo, "<=", _mu)),
     ("the mean lies in the range", rel(_mu, "<=", _hi)), ("at least one draw", rel(_T, ">=", 1)),
     ("the deviation is nonnegative", rel(_x, ">=", 0))),
    "Hoeffding (1963), J. Amer. Statist. Assoc. 58, 13-30 (the sum of independent variables in [a_k, b_k]: "
    "exp(-2 eps^2 / sum (b_k - a_k)^2)); e.g. Lattimore & Szepesvari, Bandit Algorithms (2020), Ch. 5, eq. (5.8)")

#: Pr(mu - mean of T independent draws in [lo, hi] >= x) <= exp(-2 T x^2/(hi - lo)^2): the lower tail.
HOEFFDING_LOWER = Schema(
    "Hoeffding's inequality (lower tail of a mean)", (_mu, _lo, _hi, _T, _x, _tag),
    rel(_lower_event(Avg(Bounded(_mu, _lo, _hi, _tag), _T), _mu, _x), "<=",
        sympy.exp(-2 * _T * _x ** 2 / (_hi - _lo) ** 2)),
    HOEFFDING.conditions, HOEFFDING.source + " (applied to -X)")

#: Pr(|mean of T independent draws in [lo, hi] - mu| >= x) <= 2 exp(-2 T x^2/(hi - lo)^2): both tails, a union.
HOEFFDING_TWO_SIDED = Schema(
    "Hoeffding's inequality (both tails of a mean)", (_mu, _lo, _hi, _T, _x, _tag),
    rel(Pr(rel(sympy.Abs(Avg(Bounded(_mu, _lo, _hi, _tag), _T) - _mu), ">=", _x)), "<=",
        2 * sympy.exp(-2 * _T * _x ** 2 / (_hi - _lo) ** 2)),
    HOEFFDING.conditions, HOEFFDING.source + " (each tail, and the union bound)")

#: Pr(X - m >= x) <= exp(-x^2/(2 s2)) for X - m sub-Gaussian with variance proxy s2.
SUB_GAUSSIAN_TAIL = Schema(
    "the sub-Gaussian tail", (_m, _s2, _x, _tag),
    rel(_upper_event(SubGaussian(_m, _s2, _tag), _m, _x), "<=", sympy.exp(-_x ** 2 / (2 * _s2))),
    (("the variance proxy is positive", rel(_s2, ">", 0)), ("the deviation is nonnegative", rel(_x, ">=", 0))),
    "the Cramer-Chernoff method; Lattimore & Szepesvari, Bandit Algorithms (2020), Thm 5.3")

#: Pr(mean of T independent sub-Gaussian draws - m >= x) <= exp(-T x^2/(2 s2)).
SUB_GAUSSIAN_MEAN_TAIL = Schema(
    "the sub-Gaussian tail of a mean", (_m, _s2, _T, _x, _tag),
    rel(_upper_event(Avg(SubGaussian(_m, _s2, _tag), _T), _m, _x), "<=", sympy.exp(-_T * _x ** 2 / (2 * _s2))),
    (("the variance proxy is positive", rel(_s2, ">", 0)), ("at least one draw", rel(_T, ">=", 1)),
     ("the deviation is nonnegative", rel(_x, ">=", 0))),
    "Lattimore & Szepesvari, Bandit Algorithms (2020), Cor. 5.5")

#: Pr(m - mean of T independent sub-Gaussian draws >= x) <= exp(-T x^2/(2 s2)): the lower tail.
SUB_GAUSSIAN_MEAN_LOWER_TAIL = Schema(
    "the sub-Gaussian lower tail of a mean", (_m, _s2, _T, _x, _tag),
    rel(_lower_event(Avg(SubGaussian(_m, _s2, _tag), _T), _m, _x), "<=", sympy.exp(-_T * _x ** 2 / (2 * _s2))),
    SUB_GAUSSIAN_MEAN_TAIL.conditions, SUB_GAUSSIAN_MEAN_TAIL.source)

#: Pr(|mean of T independent sub-Gaussian draws - m| >= x) <= 2 exp(-T x^2/(2 s2)): both tails, a union.
SUB_GAUSSIAN_MEAN_TWO_SIDED = Schema(
    "the sub-Gaussian tails of a mean (both)", (_m, _s2, _T, _x, _tag),
    rel(Pr(rel(sympy.Abs(Avg(SubGaussian(_m, _s2, _tag), _T) - _m), ">=", _x)), "<=",
        2 * sympy.exp(-_T * _x ** 2 / (2 * _s2))),
    SUB_GAUSSIAN_MEAN_TAIL.conditions, SUB_GAUSSIAN_MEAN_TAIL.source + " (each tail, and the union bound)")

#: Pr(mean of T independent draws - m >= x) <= exp(-T x^2/(2 v + 2 c x/3)) for |X - m| <= c and variance v.
BERNSTEIN = Schema(
    "Bernstein's inequality (upper tail of a mean)", (_m, _v, _c, _T, _x, _tag),
    rel(_upper_event(Avg(BoundedDeviation(_m, _v, _c, _tag), _T), _m, _x), "<=",
        sympy.exp(-_T * _x ** 2 / (2 * _v + 2 * _c * _x / 3))),
    (("the variance is positive", rel(_v, ">", 0)), ("the deviation bound is positive", rel(_c, ">", 0)),
     ("at least one draw", rel(_T, ">=", 1)), ("the deviation is nonnegative", rel(_x, ">=", 0))),
    "Bernstein (1924); for independent zero-mean |X_i| <= M: Pr(sum X_i >= t) <= exp(-(t^2/2)/(sum E X_i^2 + M t/3)), "
    "e.g. as stated in Wikipedia, 'Bernstein inequalities (probability theory)', inequality 1 (t = T x)")

#: Pr(X >= a) <= exp(-l a) E exp(l X) for l > 0 (Markov's inequality applied to exp(l X): Chernoff's method).
CHERNOFF = Schema(
    "Chernoff's bound (Markov's inequality on exp(l X))", (_X, _a, _l),
    rel(Pr(sympy.Ge(_X, _a, evaluate=False)), "<=", sympy.exp(-_l * _a) * Ex(sympy.exp(_l * _X))),
    (("the exponent's factor is positive", rel(_l, ">", 0)),),
    "the Cramer-Chernoff method; e.g. Lattimore & Szepesvari, Bandit Algorithms (2020), Sec. 5.3")

# --------------------------------------------------------------------------------- Gaussian tails, Mills
#: Pr(X - m >= x) = erfc(x / sqrt(2 v)) / 2 for X ~ N(m, v): the law's upper tail, exactly.
GAUSSIAN_UPPER_TAIL_EXACT = Schema(
    "the Gaussian upper tail (exact)", (_m, _v, _x, _tag),
    rel(Pr(sympy.Ge(Normal(_m, _v, _tag) - _m, _x, evaluate=False)), "==", sympy.erfc(_x / sympy.sqrt(2 * _v)) / 2),
    (("the variance is positive", rel(_v, ">", 0)),),
    "the law N(m, v): 1 - Phi(z) = erfc(z / sqrt 2) / 2 (e.g. DLMF 7.2, 7.18)")

_phi0 = sympy.exp(-_t ** 2 / 2) / sympy.sqrt(2 * sympy.pi)

#: 1 - Phi(t) <= phi(t) / t for t > 0 (the Mills ratio at most 1/t).
MILLS_UPPER = Schema(
    "the Mills ratio's upper bound", (_t,),
    rel(sympy.erfc(_t / sympy.sqrt(2)) / 2, "<=", _phi0 / _t),
    (("the point is positive", rel(_t, ">", 0)),),
    "Gordon (1941): x/(x^2 + 1) <= (1 - Phi(x))/phi(x) <= 1/x for x > 0, as quoted by Yang & Chu, J. Inequal. "
    "Appl. 2015:273")

#: t/(t^2 + 1) phi(t) <= 1 - Phi(t) for t > 0 (Gordon's lower bound of the Mills ratio).
MILLS_LOWER = Schema(
    "the Mills ratio's lower bound (Gordon)", (_t,),
    rel(_t / (_t ** 2 + 1) * _phi0, "<=", sympy.erfc(_t / sympy.sqrt(2)) / 2),
    (("the point is positive", rel(_t, ">", 0)),), MILLS_UPPER.source)

#: (1/t - 1/t^3) phi(t) <= 1 - Phi(t) for t > 0 (the lower bound as in Feller).
MILLS_LOWER_FELLER = Schema(
    "the Mills ratio's lower bound (1/t - 1/t^3)", (_t,),
    rel((1 / _t - 1 / _t ** 3) * _phi0, "<=", sympy.erfc(_t / sympy.sqrt(2)) / 2),
    (("the point is positive", rel(_t, ">", 0)),),
    "e.g. Feller, An Introduction to Probability Theory and Its Applications, Vol. I, Ch. VII (it follows from "
    "Gordon's bound, since 1/t - 1/t^3 < t/(t^2 + 1))")

# --------------------------------------------------------------------------------------- harmonic numbers
_n = sympy.Symbol("n", real=True)
_WHOLE = ("n is a whole number", rel(sympy.floor(_n), "==", _n))
_AT_LEAST_1 = ("n >= 1", rel(_n, ">=", 1))
_HARMONIC_SOURCE = ("the comparison of 1/k with the integral of 1/x (e.g. Chvatal, 'Harmonic numbers', notes: "
                    "ln(n + 1) < H_n <= 1 + ln n and gamma < H_n - ln n <= 1)")

#: H_n <= 1 + log n for n >= 1.
HARMONIC_UPPER = Schema("H_n <= 1 + log n", (_n,), rel(sympy.harmonic(_n), "<=", 1 + sympy.log(_n)),
                        (_WHOLE, _AT_LEAST_1), _HARMONIC_SOURCE)
#: log(n + 1) <= H_n for n >= 1.
HARMONIC_LOWER = Schema("log(n + 1) <= H_n", (_n,), rel(sympy.log(_n + 1), "<=", sympy.harmonic(_n)),
                        (_WHOLE, _AT_LEAST_1), _HARMONIC_SOURCE)
#: log n + gamma < H_n for n >= 1 (H_n - log n decreases to Euler's gamma).
HARMONIC_GAMMA_LOWER = Schema("log n + gamma < H_n", (_n,), rel(sympy.log(_n) + sympy.EulerGamma, "<",
                                                                 sympy.harmonic(_n)),
                              (_WHOLE, _AT_LEAST_1), _HARMONIC_SOURCE)
#: H_n <= log n + gamma + 1/(2n) for n >= 1 (the asymptotic series' first terms, its error negative).
HARMONIC_GAMMA_UPPER = Schema(
    "H_n <= log n + gamma + 1/(2n)", (_n,),
    rel(sympy.harmonic(_n), "<=", sympy.log(_n) + sympy.EulerGamma + 1 / (2 * _n)),
    (_WHOLE, _AT_LEAST_1),
    "the asymptotic series H_n = ln n + gamma + 1/(2n) - 1/(12 n^2) + eps_n, 0 < eps_n < 1/(120 n^4) (e.g. Graham, "
    "Knuth & Patashnik, Concrete Mathematics, 2nd ed., Sec. 9.6)")

#: the harmonic numbers' bounds, the facts `sums.HarmonicBound` decides with
HARMONIC = (HARMONIC_UPPER, HARMONIC_LOWER, HARMONIC_GAMMA_LOWER, HARMONIC_GAMMA_UPPER)

ALL = (GAUSSIAN_TAIL, GAUSSIAN_UPPER_TAIL, MEAN_OF_GAUSSIANS, JENSEN, CAUCHY_SCHWARZ, MARKOV, JENSEN_CONCAVE,
       JENSEN_CONCAVE_NONNEGATIVE,
       HOEFFDING, HOEFFDING_LOWER, HOEFFDING_TWO_SIDED, SUB_GAUSSIAN_TAIL, SUB_GAUSSIAN_MEAN_TAIL,
       SUB_GAUSSIAN_MEAN_LOWER_TAIL, SUB_GAUSSIAN_MEAN_TWO_SIDED, BERNSTEIN,
       CHERNOFF, GAUSSIAN_UPPER_TAIL_EXACT, MILLS_UPPER, MILLS_LOWER, MILLS_LOWER_FELLER) + HARMONIC
