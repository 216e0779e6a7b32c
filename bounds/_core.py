"""Shared machinery of `bounds`: errors, parameter checks, and the math namespaces.

Every formula of the paper is written once, as a function over a *namespace* of math functions
(`log`, `sqrt`, `exp`, `pi`, ...). Called with numbers or numpy arrays it evaluates in numpy; with
`mpmath.mpf` values in mpmath at the caller's precision; with sympy symbols it returns the sympy
expression. So the symbolic and numeric forms of a bound cannot drift apart.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable

import mpmath
import numpy as np
import sympy
from scipy import special


class UndefinedError(ValueError):
    """The mathematics is undefined at these parameters (e.g. a real square root of a negative).

    Raised instead of returning NaN or a complex number. `reason` says why, `params` where.
    """

    def __init__(self, reason: str, params: dict[str, Any] | None = None):
        self.reason = reason
        self.params = dict(params or {})
        where = ", ".join(f"{k}={_short(v)}" for k, v in self.params.items())
        super().__init__(f"undefined: {reason}" + (f" (at {where})" if where else ""))

    def __reduce__(self):
        # rebuilt from its fields (the default, from the message alone, would prefix "undefined: " twice), so
        # that it crosses a process boundary (a claim run in a worker) intact
        return (type(self), (self.reason, self.params))


def _short(v: Any) -> str:
    if isinstance(v, np.ndarray):
        return f"array{v.shape}"
    return repr(v) if not isinstance(v, float) else f"{v:.6g}"


@dataclass(frozen=True)
class Namespace:
    """The math functions one backend provides."""

    name: str
    log: Callable
    sqrt: Callable
    exp: Callable
    pi: Any
    ceil: Callable
    maximum: Callable
    erfc: Callable


NUMPY = Namespace("numpy", np.log, np.sqrt, np.exp, np.pi, np.ceil, np.maximum, special.erfc)
MPMATH = Namespace("mpmath", mpmath.log, mpmath.sqrt, mpmath.exp, mpmath.pi, mpmath.ceil, max, mpmath.erfc)
SYMPY = Namespace("sympy", sympy.log, sympy.sqrt, sympy.exp, sympy.pi, sympy.ceiling, sympy.Max, sympy.erfc)


def is_symbolic(*values: Any) -> bool:
    return any(isinstance(v, sympy.Basic) for v in values)


def is_arb(v: Any) -> bool:
    """Whether `v` is an arb ball (python-flint), without importing flint."""
    return type(v).__name__ == "arb" and type(v).__module__.startswith("flint")


@functools.lru_cache(maxsize=1)
def arb_namespace() -> Namespace:
    """arb interval arithmetic (python-flint): a formula evaluated on arb balls gives a ball that
    certainly holds its value on every point of the inputs' balls (`rue_verify.verify.intervals`)."""
    from flint import arb

    def maximum(a, b):
        return a if bool(a >= b) else b if bool(b >= a) else arb.union(a, b)  # a ball holding both maxima
    return Namespace("arb", lambda x: arb(x).log(), lambda x: arb(x).sqrt(), lambda x: arb(x).exp(), arb.pi(),
                     lambda x: arb(x).ceil(), maximum, lambda x: arb(x).erfc())


def namespace_for(*values: Any) -> Namespace:
    """sympy if any value is symbolic, mpmath if any is an mpmath number, else numpy."""
    if is_symbolic(*values):
        return SYMPY
    if any(is_arb(v) for v in values):
        return arb_namespace()
    if any(isinstance(v, (mpmath.mpf, mpmath.mpc)) for v in values):
        return MPMATH
    return NUMPY


def as_numeric(v: Any) -> Any:
    """Python/numpy scalars and sequences to float arrays or floats; mpmath and sympy untouched."""
    if isinstance(v, (mpmath.mpf, sympy.Basic)) or is_arb(v):
        return v
    if isinstance(v, (list, tuple, np.ndarray)):
        return np.asarray(v, dtype=float)
    return float(v)


# ---------------------------------------------------------------- parameter checks
def _values(v: Any) -> list[float]:
    if isinstance(v, np.ndarray):
        return [float(x) for x in v.ravel()]
    if isinstance(v, (list, tuple)):
        return [float(x) for x in np.asarray(v, dtype=float).ravel()]
    return [float(v)]


def check_int(name: str, value: Any, minimum: int) -> None:
    """`value` (scalar or array) must be an integer >= minimum. Symbols pass."""
    if is_symbolic(value):
        return
    for x in _values(value):
        if not math.isfinite(x) or x != math.floor(x) or x < minimum:
            raise ValueError(f"{name} must be an integer >= {minimum}, got {_fmt(value)}")


def check_positive(name: str, value: Any) -> None:
    """`value` must be a finite number > 0."""
    if is_symbolic(value):
        return
    for x in _values(value):
        if not (math.isfinite(x) and x > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {_fmt(value)}")


def check_range(name: str, value: Any, low: float, high: float, *, low_open: bool = False,
                high_open: bool = False) -> None:
    """`value` must lie in the interval between low and high (open or closed ends)."""
    if is_symbolic(value):
        return
    for x in _values(value):
        ok = math.isfinite(x) and (x > low if low_open else x >= low) and (
            x < high if high_open else x <= high)
        if not ok:
            lo = "(" if low_open else "["
            hi = ")" if high_open else "]"
            raise ValueError(f"{name} must be in {lo}{low:g}, {high:g}{hi}, got {_fmt(value)}")


def _fmt(v: Any) -> str:
    if isinstance(v, np.ndarray) and v.size > 4:
        return f"an array containing {v.ravel()[0]!r}..."
    return repr(v)


def require_nonnegative(name: str, value: Any, reason: str, params: dict[str, Any]) -> None:
    """Raise UndefinedError if a numeric `value` (a radicand or divisor) is negative/NaN."""
    if is_symbolic(value):
        return
    vals = _values(value) if not isinstance(value, mpmath.mpf) else [float(value)]
    for x in vals:
        if not x >= 0:
            raise UndefinedError(f"{reason}: {name} = {x:.6g} < 0", params)


def require_positive(name: str, value: Any, reason: str, params: dict[str, Any]) -> None:
    """Raise UndefinedError if a numeric `value` (a divisor, a log argument) is <= 0."""
    if is_symbolic(value):
        return
    vals = _values(value) if not isinstance(value, mpmath.mpf) else [float(value)]
    for x in vals:
        if not x > 0:
            raise UndefinedError(f"{reason}: {name} = {x:.6g} <= 0", params)
