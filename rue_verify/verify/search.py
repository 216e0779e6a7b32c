"""The deterministic searches of the ledger's checks: a parameter space (`Dim` per parameter, a point
of the unit cube mapped onto it by `unit_point`) and `minimize_margin`, which screens a grid and seeded
random points and refines the smallest margins (a margin below 0 is a counterexample). The Monte
Carlo searches (`montecarlo`) share the spaces."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import optimize

from .claims import Mode


@dataclass(frozen=True)
class Dim:
    """One search dimension: `low`..`high`, on a 'log' or 'lin' scale, optionally integer."""

    low: float
    high: float
    scale: str = "log"
    integer: bool = False

    def from_unit(self, u: np.ndarray) -> np.ndarray:
        u = np.clip(u, 0.0, 1.0)
        if self.scale == "log":
            v = np.exp(np.log(self.low) + u * (np.log(self.high) - np.log(self.low)))
        else:
            v = self.low + u * (self.high - self.low)
        return np.round(v) if self.integer else v


def unit_point(space: dict[str, Dim], u: np.ndarray) -> dict:
    """The parameter point at `u` in the unit cube of `space` (integers where a Dim says so)."""
    return {k: (int(d.from_unit(np.array(x))) if d.integer else float(d.from_unit(np.array(x))))
            for (k, d), x in zip(space.items(), u)}


@dataclass
class SearchResult:
    """The worst point found: `margin` = rhs - lhs (< 0 means the claim is violated there)."""

    params: dict
    margin: float
    evaluated: int
    violations: int
    domain: str
    #: points where the margin could not be computed (an error or a NaN): never counted as passing; the
    #: domain says how many, and `undefined_at` names the first
    undefined: int = 0
    undefined_at: dict | None = None


#: what a search minimised, in its domain's words
MARGIN_TEXT = {"absolute": "minimising the margin as the check defines it (not divided by the sides' size)",
               "relative": "minimising the relative margin (rhs - lhs) / max(|lhs|, |rhs|)"}


def minimize_margin(margin: Callable[[dict], float], space: dict[str, Dim], mode: Mode,
                    salt: int, grid_per_dim: int = 5, random: int | None = None,
                    constraint: Callable[[dict], bool] | None = None, kind: str = "absolute") -> SearchResult:
    """Grid, then seeded random sampling, then Nelder-Mead from the worst point found.

    `margin(params)` returns rhs - lhs of the claimed `lhs <= rhs` (or any quantity that the claim
    says is >= 0), minimised as given: where the two sides are small, an absolute margin is small too,
    so its smallest point need not be where the claim is tightest (`minimize_relative` divides by the
    sides' size). Points where `constraint` is False (outside the claim's hypotheses) are skipped.
    The result's domain says which margin was minimised (`kind`).
    """
    if kind not in MARGIN_TEXT:
        raise ValueError(f"kind: the margin minimised is one of {', '.join(MARGIN_TEXT)}, got {kind!r}")
    names = list(space)
    rng = mode.rng(salt)
    units = [np.array(p) for p in np.array(np.meshgrid(*[np.linspace(0, 1, grid_per_dim)] * len(
        names))).reshape(len(names), -1).T]
    units += list(rng.random((random if random is not None else mode.random_samples, len(names))))

    def point(u: np.ndarray) -> dict:
        return unit_point(space, u)

    best_u, best_m, count, bad, undefined, undefined_at = None, math.inf, 0, 0, 0, None
    for u in units:
        p = point(u)
        if constraint is not None and not constraint(p):
            continue
        m = _safe(margin, p)
        count += 1
        if math.isnan(m):
            undefined += 1
            undefined_at = undefined_at or p
            continue
        bad += m < 0
        if m < best_m:
            best_u, best_m = u, m

    if best_u is not None and math.isfinite(best_m):
        def obj(u: np.ndarray) -> float:
            p = point(u)
            if constraint is not None and not constraint(p):
                return math.inf
            m = _safe(margin, p)
            return math.inf if math.isnan(m) else m        # the refinement steers away; the screen counted them
        res = optimize.minimize(obj, best_u, method="Nelder-Mead",
                                options={"maxiter": 400, "xatol": 1e-6, "fatol": 1e-14})
        count += int(res.nfev)
        if res.fun < best_m:
            best_u, best_m = np.clip(res.x, 0, 1), float(res.fun)
    dom = "; ".join(f"{k} in [{space[k].low:g}, {space[k].high:g}]" + (" (integer)" if space[k].integer else "")
                    for k in names) + f"; {MARGIN_TEXT[kind]}"
    if undefined:
        dom += (f"; the margin was undefined (an error or NaN) at {undefined} of {count} points, first at "
                f"{undefined_at}: not counted as passing")
    return SearchResult(point(best_u) if best_u is not None else {}, float(best_m) if best_u is not None else math.nan,
                        count, int(bad), dom, undefined, undefined_at)


def minimize_relative(lhs: Callable[[dict], float], rhs: Callable[[dict], float], space: dict[str, Dim],
                      mode: Mode, salt: int, **kw) -> SearchResult:
    """`minimize_margin` of the claimed `lhs <= rhs` on the relative margin ``(rhs - lhs) / max(|lhs|, |rhs|)``
    (0 where both sides are 0): the point where the claim is tightest in proportion, whatever the sides'
    scale. The result's margin is that relative margin, < 0 exactly where lhs > rhs.

    The sides are read as mpmath numbers, so sides that `lhs` and `rhs` return as mpmath values (or sympy numbers)
    keep their size where a float would underflow to 0 (two sides of 1e-400 and 2e-400 have relative margin 1/2,
    not 0): return them so where they can be that small."""
    import mpmath

    def margin(p: dict) -> float:
        a, b = _mp(lhs(p)), _mp(rhs(p))
        if mpmath.isnan(a) or mpmath.isnan(b):
            return math.nan                     # undefined, never a pass (a NaN scale would read as 0)
        scale = max(abs(a), abs(b))
        return float((b - a) / scale) if scale > 0 else 0.0
    return minimize_margin(margin, space, mode, salt, kind="relative", **kw)


def _mp(x):
    """A side as an mpmath number (a float, an mpmath or a sympy number, a numpy scalar)."""
    import mpmath
    try:
        return mpmath.mpf(x)
    except (TypeError, ValueError):
        return mpmath.mpf(float(x))


def _safe(fn: Callable[[dict], float], p: dict) -> float:
    """The margin at `p`, NaN where it cannot be computed (an arithmetic error or a NaN): the caller counts
    such a point as undefined, never as a pass."""
    try:
        return float(fn(p))
    except (ValueError, ZeroDivisionError, OverflowError, FloatingPointError):
        return math.nan
