"""Confidence intervals for Monte Carlo results: exact (Clopper-Pearson) binomial intervals for
error rates, and t-intervals for means such as the simple regret."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy import stats

#: the level of every statistical check that must not fail by chance (fixed seeds, exact or t intervals):
#: at 1 - 1e-6 a failure is a real difference. Defined here once; the engine's Monte Carlo searches, the
#: testing helpers, the user bounds' checks and the ledger's simulations read it
STRICT_LEVEL = 1 - 1e-6


class Interval(NamedTuple):
    """A point estimate with a two-sided interval at `level`."""

    estimate: float
    low: float
    high: float
    level: float


def binomial_interval(successes: int, trials: int, level: float = 0.95) -> Interval:
    """Exact Clopper-Pearson interval for a proportion (scipy's `binomtest(...).proportion_ci`)."""
    if trials <= 0:
        raise ValueError(f"trials must be >= 1, got {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be in [0, trials={trials}], got {successes}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    ci = stats.binomtest(int(successes), int(trials)).proportion_ci(confidence_level=level,
                                                                   method="exact")
    return Interval(successes / trials, float(ci.low), float(ci.high), level)


def mean_interval(values: np.ndarray, level: float = 0.95) -> Interval:
    """Mean with a Student-t interval (for bounded or light-tailed per-run values)."""
    v = np.asarray(values, dtype=float)
    if v.size < 2:
        raise ValueError(f"values must hold >= 2 numbers, got {v.size}")
    m = float(v.mean())
    se = float(v.std(ddof=1) / np.sqrt(v.size))
    h = float(stats.t.ppf(0.5 + level / 2, v.size - 1) * se)
    return Interval(m, m - h, m + h, level)


def sums_interval(total: float, total_sq: float, count: int, level: float = 0.95) -> Interval:
    """`mean_interval` of `count` values known only by their sum and sum of squares (what a result
    store keeps of a row's runs)."""
    if count < 2:
        raise ValueError(f"count must be >= 2, got {count}")
    mean = total / count
    se = math.sqrt(max(total_sq - total * total / count, 0.0) / (count - 1) / count)
    h = float(stats.t.ppf(0.5 + level / 2, count - 1)) * se
    return Interval(float(mean), float(mean - h), float(mean + h), level)
