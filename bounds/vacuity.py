"""Where Theorems 5.1 (`them-R`) and 5.2 (`them-R-Bayes`) say something: the smallest budget n at
which the bound falls below 1, for given (K, sigma0^2, sigma^2, delta), and the map over a grid.

The bounds need not be monotone in n (a term K n^(1 - mK) grows with n when mK < 1), so the search
evaluates a dense geometric grid of integers from the smallest admissible n to `n_max`, takes the
first grid point below 1, and bisects down to the integer between it and the previous grid point.
`stays_below` says whether every later grid point is below 1 as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ._core import UndefinedError, check_int, check_positive, check_range
from .theorems import theorem_5_1_bound, theorem_5_2_bound

BOUNDS: dict[str, Callable] = {"theorem_5_1": theorem_5_1_bound, "theorem_5_2": theorem_5_2_bound}


@dataclass(frozen=True)
class VacuityResult:
    """`n_first`: the smallest n with bound < 1, or None if none up to `n_max` (`reason` says why)."""

    bound: str
    K: int
    sigma0_sq: float
    sigma_sq: float
    delta: float
    n_max: int
    n_first: int | None
    value_at_n_first: float | None
    stays_below: bool | None
    reason: str = ""


def _eval(fn: Callable, K: int, n: np.ndarray, s0: float, s: float, d: float) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(fn(K, n.astype(float), s0, s, d), dtype=float)


def smallest_informative_n(K: int, sigma0_sq: float, sigma_sq: float, delta: float,
                           bound: str = "theorem_5_1", n_max: int = 10 ** 12,
                           grid_points: int = 3000) -> VacuityResult:
    """The smallest integer n <= n_max at which `bound` < 1 (module docstring for the search)."""
    check_int("K", K, 2)
    check_positive("sigma0_sq", sigma0_sq)
    check_positive("sigma_sq", sigma_sq)
    check_range("delta", delta, 0.0, 1.0, low_open=True)
    if bound not in BOUNDS:
        raise ValueError(f"bound must be one of {sorted(BOUNDS)}, got {bound!r}")
    fn = BOUNDS[bound]
    n_min = 4 * (K - 1) + 1
    if n_max <= n_min:
        raise ValueError(f"n_max must be > 4(K-1)+1 = {n_min}, got {n_max}")
    args = (K, sigma0_sq, sigma_sq, delta)
    try:
        grid = np.unique(np.round(np.geomspace(n_min, n_max, grid_points)).astype(np.int64))
        vals = _eval(fn, K, grid, sigma0_sq, sigma_sq, delta)
    except UndefinedError as err:
        return VacuityResult(bound, *args, n_max, None, None, None, f"undefined: {err.reason}")
    below = np.flatnonzero(vals < 1)
    if below.size == 0:
        return VacuityResult(bound, *args, n_max, None, None, None,
                             f"bound >= 1 at every grid n up to {n_max} (min {np.nanmin(vals):.4g})")
    i = int(below[0])
    lo, hi = (int(grid[i - 1]), int(grid[i])) if i > 0 else (n_min - 1, int(grid[0]))
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _eval(fn, K, np.array([mid]), sigma0_sq, sigma_sq, delta)[0] < 1:
            hi = mid
        else:
            lo = mid
    val = float(_eval(fn, K, np.array([hi]), sigma0_sq, sigma_sq, delta)[0])
    return VacuityResult(bound, *args, n_max, hi, val, bool(np.all(vals[i:] < 1)))


def vacuity_map(K: int, delta: float, sigma0_sq_grid, sigma_sq_grid, bound: str = "theorem_5_1",
                n_max: int = 10 ** 12) -> np.ndarray:
    """Smallest informative n over a grid: array `(len(sigma0_sq_grid), len(sigma_sq_grid))`,
    -1 where the bound never falls below 1 up to `n_max`."""
    out = np.full((len(sigma0_sq_grid), len(sigma_sq_grid)), -1, dtype=np.int64)
    for i, s0 in enumerate(sigma0_sq_grid):
        for j, s in enumerate(sigma_sq_grid):
            r = smallest_informative_n(K, float(s0), float(s), delta, bound, n_max, grid_points=600)
            if r.n_first is not None:
                out[i, j] = r.n_first
    return out
