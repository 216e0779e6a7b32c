"""How far each algorithm is from the limit (`bounds.limit`): the constants sqrt(n) e_n and n sr_n with
their intervals at every budget (their drift across budgets shows a slowly varying factor), the
constant estimated from the largest budgets, and the efficiency, constant over the limit's constant
(at least 1 in the limit for every algorithm; 1 is the best possible). Under a common prior the
finite-n bound also holds at every budget, so the truth over the bound (`finite_ratio`) is a check
of the derivation that could fail.

Intervals: a curve's runs fall in blocks (`grid.execute`), disjoint and independent, each paired across
budgets; the constant over the largest budgets is a per-block average, so its interval is a t-interval
over the blocks (batch means). The drift is the curve's fitted exponent less the limit's (-1/2 for
e_n, -1 for sr_n), with its jackknife interval (`Curve.fit`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from bounds import limit

from .grid import Setting
from .results import QUANTITIES, Curve, RateResults

#: the budgets the constant is estimated from: the largest TOP of a curve (about half a decade)
TOP = 3
#: the limit's exponent of each quantity in n: the constant is y n^-(this)
LIMIT_EXPONENT = {"failure": -0.5, "regret": -1.0}


def constants(setting: Setting) -> limit.Constants:
    """The limit's constants on `setting` (per-arm priors: zero prior means, `Setting.prior_vars`)."""
    return limit.limit_constants(setting.K, setting.prior_vars(), setting.sigma_sq)


@functools.lru_cache(maxsize=4096)
def finite_bound(setting: Setting, q: str, n: int) -> float | None:
    """The finite-n bound at budget n, or None where there is none (per-arm priors); cached, since the
    ledger, the figures and `table` ask for the same budgets of the same settings."""
    if setting.prior_ratio != 1:
        return None
    return limit.lower_bound(q, n, setting.K, setting.sigma0_sq, setting.sigma_sq)


@dataclass(frozen=True)
class Efficiency:
    """One algorithm, one setting, one quantity ('failure' or 'regret')."""

    setting: Setting
    algorithm: str
    quantity: str
    n: np.ndarray              # every budget
    scaled: np.ndarray         # (B, 3): sqrt(n) e_n (or n sr_n) with its 95% interval at each budget
    limit: float               # the limit's constant
    constant: tuple            # (estimate, low, high) over the largest TOP budgets
    top: list                  # those budgets
    drift: tuple               # (exponent less the limit's, low, high) on the fitted range
    drift_range: tuple
    finite_ratio: np.ndarray | None   # (B, 3): the truth over the finite-n bound, or None (per-arm priors)

    @property
    def efficiency(self) -> tuple:
        """constant / limit with its interval."""
        return tuple(float(x) / self.limit for x in self.constant)

    def witness(self) -> dict:
        """The constant finding's witness (`ledger.beyond`)."""
        return {"params": {**self.setting.params, "algorithm": self.algorithm}, "quantity": QUANTITIES[self.quantity],
                "constant": round(self.constant[0], 6), "interval": [round(self.constant[1], 6),
                                                                     round(self.constant[2], 6)],
                "limit": round(self.limit, 6), "efficiency": round(self.efficiency[0], 4),
                "efficiency_interval": [round(self.efficiency[1], 4), round(self.efficiency[2], 4)],
                "n": [int(x) for x in self.top],
                "drift": [round(float(x), 4) for x in self.drift]}


def family_level(tests: int, family: float = 0.999) -> float:
    """Each of `tests` intervals' level so that all of them hold together with probability at least
    `family` (Bonferroni): a check of the finite-n bound at every point of a study (hundreds of points)
    at `family` each would find one below a bound that holds in a fair share of studies."""
    return 1.0 - (1.0 - family) / max(1, tests)


def _scale(q: str, n: np.ndarray) -> np.ndarray:
    return np.asarray(n, float) ** -LIMIT_EXPONENT[q]


def efficiency(curve: Curve, q: str, top: int = TOP, level: float = 0.95) -> Efficiency:
    """`curve`'s constant and efficiency for quantity `q`."""
    if q not in QUANTITIES:
        raise ValueError(f"q must be one of {', '.join(QUANTITIES)}, got {q!r}")
    scale = _scale(q, curve.n)
    ivs = curve.intervals(q, level)
    scaled = np.array([[iv.estimate, iv.low, iv.high] for iv in ivs]) * scale[:, None]
    k = min(top, curve.n.size)
    blocks = curve.block_means(q)[:, -k:] * scale[-k:]          # (G, k): per block, the scaled means
    per_block = blocks.mean(axis=1)
    w = curve.counts / curve.counts.sum()
    est = float(np.sum(w * per_block))
    G = per_block.size
    se = math.sqrt(float(np.sum(w ** 2 * (per_block - est) ** 2)) * G / (G - 1))
    h = float(stats.t.ppf(0.5 + level / 2, G - 1)) * se
    L = getattr(constants(curve.setting), q)
    drift, rng = (math.nan, math.nan, math.nan), ()
    if curve.n.size >= 3:                    # a fit needs three budgets (`summary.exponents` skips fewer too)
        try:
            fit = curve.fit(q)
            off = LIMIT_EXPONENT[q]
            drift = (float(fit.exponent) - off, float(fit.interval[0]) - off, float(fit.interval[1]) - off)
            rng = tuple(int(x) for x in fit.n_range)
        except ValueError:                   # a zero estimate somewhere: no logarithm, no drift
            pass
    ratio = None
    if curve.setting.prior_ratio == 1:
        b = np.array([finite_bound(curve.setting, q, int(n)) for n in curve.n])
        ratio = np.array([[iv.estimate, iv.low, iv.high] for iv in ivs]) / b[:, None]
    return Efficiency(curve.setting, curve.algorithm, q, curve.n, scaled, L, (est, est - h, est + h),
                      [int(x) for x in curve.n[-k:]], drift, rng, ratio)


def table(res: RateResults) -> list[dict]:
    """One row per (setting, algorithm, quantity) of the study: the constant, the limit, the efficiency
    (each with its interval), the budgets used, the drift and the smallest truth-over-bound ratio."""
    rows = []
    for name in res.settings():
        for alg in res.algorithms(name):
            c = res.curve(name, alg)
            for q in QUANTITIES:
                e = efficiency(c, q)
                r = e.finite_ratio
                rows.append({"setting": name, "algorithm": alg, "quantity": QUANTITIES[q],
                             "constant": e.constant, "limit": e.limit, "efficiency": e.efficiency,
                             "n": e.top, "drift": e.drift,
                             "least_ratio": None if r is None else tuple(r[int(np.argmin(r[:, 2]))]),
                             "runs": c.runs})
    return rows
