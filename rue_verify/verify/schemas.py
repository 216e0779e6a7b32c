"""Classical results as relation schemas (`derivation.Schema`), which a derivation's link cites with its
own objects (`derivation.Cite(schema, bind)`): the engine checks that the instantiated conclusion is the
link and decides every condition on the link's objects. Each says where it is stated.

Nothing here knows a paper."""

from __future__ import annotations

import sympy

from .derivation import Ex, Mean, Normal, Pr, Schema
from .statements import rel

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

#: phi(E Y) <= E phi(Y) for convex phi (Jensen's inequality).
JENSEN = Schema(
    "Jensen's inequality", (_phi, _Y),
    rel(_phi(Ex(_Y)), "<=", Ex(_phi(_Y))),
    (("phi is convex (second derivative >= 0)", rel(sympy.Derivative(_phi(_y), (_y, 2)), ">=", 0)),),
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

ALL = (GAUSSIAN_TAIL, GAUSSIAN_UPPER_TAIL, MEAN_OF_GAUSSIANS, JENSEN, CAUCHY_SCHWARZ, MARKOV)
