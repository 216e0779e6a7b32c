"""Paired comparisons of two algorithms' result rows, as the empirical claims need them.

- Fixed means (one instance): both rows ran on the same reward streams (common random numbers),
  run r of one against run r of the other. The difference of error rates has a paired normal
  interval; the p-value is McNemar's exact test (a binomial test on the discordant runs).
- Random means (instances): the per-instance error rates are paired across instances (the same
  instances for both rows); the difference has a paired t interval and p-value.
- A relative reduction ("RUE's error is 23% smaller") is 1 - e_a / e_b with a paired bootstrap
  interval (resampling runs or instances with a fixed seed).
- A claim over many cells is judged with Holm's step-down correction (family-wise level ALPHA).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from .grid import failures_of, instance_errors

ALPHA = 0.05


@dataclass(frozen=True)
class Comparison:
    """e_a - e_b with its interval and two-sided p-value (a negative diff: a errs less)."""

    diff: float
    low: float
    high: float
    p: float
    unit: str                  # 'runs' or 'instances'
    n: int


def setting_of(row: dict) -> str:
    """The setting part of a row's key (what paired rows share)."""
    return row["key"].rsplit("|", 2)[0]


def _paired_units(a: dict, b: dict) -> tuple[np.ndarray, np.ndarray, str]:
    if int(a["instances"]) > 1:
        return instance_errors(a), instance_errors(b), "instances"
    return failures_of(a).astype(float), failures_of(b).astype(float), "runs"


def compare(a: dict, b: dict, level: float = 0.95, half: int | None = None) -> Comparison:
    """Row a against row b of the same setting. `half`: None for every paired unit, 0 for the first
    half of the paired runs or instances (the first m // 2 of m), 1 for the rest."""
    if setting_of(a) != setting_of(b):
        raise ValueError(f"compare: rows of different settings ({a['key']} and {b['key']})")
    x, y, unit = _paired_units(a, b)
    if half is not None:
        if half not in (0, 1):
            raise ValueError(f"compare: half is 0 (the first half of the units), 1 (the rest) or None, got {half!r}")
        cut = len(x) // 2
        x, y = (x[:cut], y[:cut]) if half == 0 else (x[cut:], y[cut:])
    d = x - y
    m = len(d)
    mean = float(d.mean())
    if unit == "runs":
        se = float(d.std(ddof=1) / np.sqrt(m)) if m > 1 else 0.0
        h = float(stats.norm.ppf(0.5 + level / 2)) * se
        b10, b01 = int(np.sum(d > 0)), int(np.sum(d < 0))
        p = 1.0 if b10 + b01 == 0 else float(stats.binomtest(b10, b10 + b01, 0.5).pvalue)
    else:
        return paired_t(x, y, unit, level)
    return Comparison(mean, mean - h, mean + h, p, unit, m)


def paired_t(x: np.ndarray, y: np.ndarray, unit: str, level: float = 0.95) -> Comparison:
    """mean(x - y) over paired units (instances, or runs of a continuous quantity) with a paired t
    interval and two-sided p-value."""
    d = np.asarray(x, float) - np.asarray(y, float)
    m, mean = len(d), float(d.mean())
    se = float(d.std(ddof=1) / np.sqrt(m))
    h = float(stats.t.ppf(0.5 + level / 2, m - 1)) * se
    p = 1.0 if se == 0 else float(2 * stats.t.sf(abs(mean) / se, m - 1))
    return Comparison(mean, mean - h, mean + h, p, unit, m)


def relative_reduction(a: dict, b: dict, level: float = 0.95, resamples: int = 4000,
                       seed: int = 0) -> tuple[float, float, float]:
    """1 - e_a / e_b with a paired percentile-bootstrap interval: (estimate, low, high)."""
    x, y, _ = _paired_units(a, b)
    est = 1 - x.mean() / y.mean() if y.mean() > 0 else float("nan")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(x), (resamples, len(x)))
    xb, yb = x[idx].mean(axis=1), y[idx].mean(axis=1)
    ok = yb > 0
    r = 1 - xb[ok] / yb[ok]
    lo, hi = np.quantile(r, [(1 - level) / 2, (1 + level) / 2])
    return float(est), float(lo), float(hi)


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control)."""
    p = np.asarray(pvalues, float)
    order = np.argsort(p)
    adj = np.empty_like(p)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        adj[i] = running
    return adj


def classify(comparisons: list[Comparison], alpha: float = ALPHA) -> list[str]:
    """'better' (a errs significantly less), 'worse' or 'undecided' for each comparison, with Holm's
    correction over the whole list."""
    adj = holm([c.p for c in comparisons]) if comparisons else []
    return ["undecided" if q >= alpha else ("better" if c.diff < 0 else "worse") for c, q in zip(comparisons, adj)]
