"""The rate study's results: the paper-scale study shipped inside the package (`data/paper`, read with
`importlib.resources`, so a wheel install finds it) or a directory written by `rue-verify rates --out
DIR`. Rows become curves: one algorithm on one setting over its budgets, as block statistics of the
per-run conditional values (`grid.execute`), from which intervals, fits and paired comparisons follow.

Loading never runs anything and never writes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np
from scipy import stats

from simulate.stats import Interval, binomial_interval, sums_interval

from ..errors import ParameterError
from .fit import Fit, fit_groups
from .grid import COLUMNS, Setting, block_counts

#: what the ledger uses when it is given no rate-study directory
SHIPPED = "shipped"
QUANTITIES = {"failure": "failure probability", "regret": "simple regret"}


@dataclass(frozen=True)
class Curve:
    """One algorithm on one setting over budgets `n`: for each quantity ('failure', 'regret') the
    blocks' sums and sums of squares `(G, B)` of the conditional per-run values (weighted under
    near-tie sampling), the blocks' sizes, the plain estimators' totals `(B, 2)` (sum and sum of
    squares) and the variance-reduction factors against plain Monte Carlo under the prior."""

    setting: Setting
    algorithm: str
    n: np.ndarray
    counts: np.ndarray
    sums: dict
    sumsq: dict
    plain_sums: dict
    vr: dict

    @property
    def runs(self) -> int:
        return int(self.counts.sum())

    def mean(self, q: str) -> np.ndarray:
        return self.sums[q].sum(axis=0) / self.runs

    def se(self, q: str) -> np.ndarray:
        s, qq, m = self.sums[q].sum(axis=0), self.sumsq[q].sum(axis=0), self.runs
        return np.sqrt(np.maximum(qq - s * s / m, 0.0) / (m - 1) / m)

    def interval(self, q: str, j: int, level: float = 0.95) -> Interval:
        """The conditional estimate at budget index j with its t-interval over runs."""
        m, h = self.mean(q)[j], stats.t.ppf(0.5 + level / 2, self.runs - 1) * self.se(q)[j]
        return Interval(float(m), float(m - h), float(m + h), level)

    def intervals(self, q: str, level: float = 0.95) -> list[Interval]:
        return [self.interval(q, j, level) for j in range(self.n.size)]

    def plain(self, q: str, j: int, level: float = 0.95) -> Interval:
        """The plain estimate at budget index j (exact binomial for the failure rate of prior draws)."""
        if q == "failure" and not self.setting.tilt:
            return binomial_interval(int(round(self.plain_sums[q][j, 0])), self.runs, level)
        return sums_interval(*self.plain_sums[q][j], self.runs, level)

    def block_means(self, q: str) -> np.ndarray:
        """`(G, B)`: the mean of each block of runs (paired across algorithms of the setting)."""
        return self.sums[q] / self.counts[:, None]

    def fit(self, q: str, tail: float = 0.5) -> Fit:
        return fit_groups(self.n, self.sums[q], self.sumsq[q], self.counts, tail)

    def index(self, n: int) -> int:
        return int(np.flatnonzero(self.n == n)[0])


@dataclass(frozen=True)
class RateResults:
    rows: tuple[dict, ...]
    source: str
    manifest: dict = field(default_factory=dict)

    @property
    def description(self) -> str:
        m = self.manifest
        where = "shipped with the package" if self.source == SHIPPED else f"in {self.source}"
        return f"the {m.get('scale', '?')}-scale rate study {where} (seed {m.get('seed', '?')}, rue-verify " \
               f"{m.get('version', '?')})"

    def settings(self) -> dict[str, Setting]:
        out = {}
        for r in self.rows:
            out.setdefault(r["setting"], Setting(r["setting"], int(r["K"]), float(r["sigma0_sq"]), float(r["sigma_sq"]),
                                                 float(r["prior_ratio"]), bool(int(r["tilt"]))))
        return out

    def algorithms(self, setting: str) -> list[str]:
        return list(dict.fromkeys(r["algorithm"] for r in self.rows if r["setting"] == setting))

    def has(self, setting: str, algorithm: str) -> bool:
        return any(r["setting"] == setting and r["algorithm"] == algorithm for r in self.rows)

    def curve(self, setting: str, algorithm: str) -> Curve:
        rows = sorted((r for r in self.rows if r["setting"] == setting and r["algorithm"] == algorithm),
                      key=lambda r: int(r["n"]))
        if not rows:
            raise ParameterError("rates", f"{self.description} hold no rows of {algorithm} on the {setting!r} "
                                          "setting; run 'rue-verify rates' with it")
        runs = {int(r["runs"]) for r in rows}
        if len(runs) != 1:
            raise ParameterError("rates", f"{algorithm} on {setting!r} has rows of different run counts {sorted(runs)}")
        G = int(rows[0]["groups"])
        counts = block_counts(runs.pop(), G)

        def mat(col):
            return np.array([json.loads(r[col]) for r in rows], float).T
        return Curve(self.settings()[setting], algorithm, np.array([int(r["n"]) for r in rows]), counts,
                     {q: mat(q + "_sums") for q in QUANTITIES}, {q: mat(q + "_sumsq") for q in QUANTITIES},
                     {q: np.array([[float(r[q + "_plain_sum"]), float(r[q + "_plain_sumsq"])] for r in rows])
                      for q in QUANTITIES},
                     {q: np.array([float(r["vr_" + q]) for r in rows]) for q in QUANTITIES})


def _shipped_dir():
    return resources.files(__package__).joinpath("data", "paper")


def load(directory: str | Path | None = None) -> RateResults:
    """The shipped rate study (`directory` None or SHIPPED), or the one in `directory`; a ValueError
    if it holds no results.csv."""
    from ..store.tables import read_study
    json_columns = [c for c in COLUMNS if c == "params" or c.endswith(("_sums", "_sumsq"))]
    rows, source, man = read_study(None if directory in (None, SHIPPED) else directory, _shipped_dir(), COLUMNS,
                                   "rates", "a rate study", "rue-verify rates",
                                   text_columns=("key", "setting", "algorithm", "version"), json_columns=json_columns)
    return RateResults(rows, SHIPPED if source == "shipped" else source, man)
