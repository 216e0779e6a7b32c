"""RUE's exploration constant (claim EXPLORE-CLIFF): RUE's index is muhat_k + sqrt(DEG tau_k^2 log n)
with the paper's DEG = 2 (Algorithm 1, Section 4.2). This study runs RUE with DEG in `DEGS`, and its
top-two balanced variant (`simulate.algorithms.rue.TOP_TWO`) at the paper's DEG, under the model of
Section 3 (K = 10 and 30, sigma0^2 = sigma^2 = 1, RUE told both) at n = 1e4 and 1e5, on the rate
study's instances (near-tie sampling with its weights, `truth.instances`).

Every variant of a (K, n) cell runs on the same means and reward streams (the streams are named by
K, not by DEG), so run r, and block g of runs, is paired across DEG. A row keeps, per block of runs,
the sums and sums of squares of the conditional failure and regret (`truth`), of the indicator that
the run starved the best arm (pulled it at most `split.STARVED` times) and of the regret of those
runs: the paired comparisons of the claim are t-tests on block means (batch means), as ABS-SOTA's.

The study is data (`SCALES`), run by the rate study's sweep and store (`rue-verify rates --cliff`),
and its paper-scale rows ship inside the package (`data/cliff`), which the ledger reads unless the
rate-study directory it is given holds a `cliff` subdirectory.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
from scipy import stats

from simulate.stats import Interval, sums_interval
from simulate.version import package_version

from ..store.result_store import definition_hash as store_definition
from .efficiency import constants
from .grid import Setting, algorithm_params, block_counts, block_sums, run_study
from .split import STARVED
from .truth import runs_truth, simulated_runs, zero_share_bound

#: the exploration constants swept (the paper's is 2)
DEGS = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0)
PAPER_DEG = 2.0
#: the variant run beside RUE, at the paper's DEG
VARIANT = "rue-top-two"
CELLS = ((10, 10_000), (10, 100_000), (30, 10_000), (30, 100_000))
#: "within 10% of the best DEG's regret" (CLAIMS-BEYOND.md)
TOLERANCE = 1.10
QUANTITIES = ("failure", "regret", "starved", "starved_regret")


@dataclass(frozen=True)
class CliffTask:
    K: int
    n: int
    algorithm: str
    deg: float
    runs: int
    groups: int

    @property
    def setting(self) -> Setting:
        return Setting(f"K{self.K}", self.K, tilt=True)

    @property
    def key(self) -> str:
        return f"K={self.K}|n={self.n}|{self.algorithm}|deg={self.deg:g}|{self.runs}/{self.groups}"

    @property
    def cost(self) -> float:
        return self.runs * self.n * self.K

    @property
    def describe(self) -> str:
        return f"K={self.K} n={self.n} {self.algorithm} DEG={self.deg:g}"


@dataclass(frozen=True)
class CliffScale:
    name: str
    runs: int
    groups: int = 40


#: quick: a demonstration (about 2 minutes on 2 cores); paper: the study the package ships
SCALES = {"quick": CliffScale("quick", 400), "paper": CliffScale("paper", 4000)}


def tasks(scale: str | CliffScale = "quick", cells=CELLS) -> list[CliffTask]:
    """The tasks of a scale: every DEG and the variant on every (K, n) of `cells`."""
    sc = SCALES[scale] if isinstance(scale, str) else scale
    out = []
    for K, n in cells:
        out += [CliffTask(K, n, "rue", d, sc.runs, sc.groups) for d in DEGS]
        out.append(CliffTask(K, n, VARIANT, PAPER_DEG, sc.runs, sc.groups))
    return out


COLUMNS = ("key", "K", "n", "algorithm", "deg", "runs", "groups", *(f"{q}_{s}" for q in QUANTITIES
                                                                     for s in ("sums", "sumsq")),
           "seed", "version", "wall_seconds")


def execute(task: CliffTask, seed: int) -> dict:
    """Run one task; its row (a module-level function, so Dask workers can run it)."""
    import time
    t0 = time.perf_counter()
    s = task.setting
    params = {**algorithm_params("rue", s), "deg": task.deg}
    r = simulated_runs(task.algorithm, s.K, task.n, s.sigma0_sq, s.sigma_sq, task.runs, seed, params, True)
    tr = runs_truth(r, task.n, s.sigma0_sq, s.sigma_sq)
    best = r.means.argmax(axis=1)
    starved = r.weights * (r.pulls[np.arange(task.runs), best] <= STARVED)
    values = {"failure": tr.failure_runs, "regret": tr.regret_runs, "starved": starved,
              "starved_regret": tr.regret_runs * (starved > 0)}
    row = {"key": task.key, "K": task.K, "n": task.n, "algorithm": task.algorithm, "deg": task.deg,
           "runs": task.runs, "groups": task.groups}
    for q, v in values.items():
        sums, sumsq = block_sums(v, task.groups)
        row[f"{q}_sums"], row[f"{q}_sumsq"] = json.dumps(sums), json.dumps(sumsq)
    return {**row, "seed": seed, "version": package_version(), "wall_seconds": round(time.perf_counter() - t0, 3)}


def manifest(ts: list[CliffTask], seed: int, scale: str) -> dict:
    definition = store_definition([t.key for t in ts], seed)
    from .grid import variance_modes
    return {"tool": "rue-verify rates --cliff", "version": package_version(), "definition": definition,
            "scale": scale, "seed": seed, "tasks": len(ts),
            "variances": variance_modes(ts)}


def run(scale: str | CliffScale = "quick", out: str | Path | None = None, seed: int = 0,
        scheduler: str | None = None, progress: bool = True, wait: bool = False, cells=CELLS,
        workers: int | None = None) -> dict:
    """Run (or resume) the study at `scale` into `out`; the rows, the directory and the wall seconds
    (`workers`: local processes, default every core)."""
    if isinstance(scale, str) and scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(SCALES)}, got {scale!r}")
    ts = tasks(scale, cells)
    name = scale if isinstance(scale, str) else scale.name
    out = Path(out or f"cliff-{name}")
    rows, wall = run_study(ts, seed, out, manifest(ts, seed, name), COLUMNS, execute, "exploration constant",
                           scheduler=scheduler, progress=progress, wait=wait, workers=workers)
    return {"out": str(out), "rows": rows, "wall_seconds": wall, "tasks": len(ts), "scale": name, "seed": seed}


# ---------------------------------------------------------------- reading the rows back
@dataclass(frozen=True)
class Cell:
    """One variant on one (K, n): per quantity the blocks' sums `(G,)` and sums of squares."""

    K: int
    n: int
    algorithm: str
    deg: float
    counts: np.ndarray
    sums: dict
    sumsq: dict

    @property
    def runs(self) -> int:
        return int(self.counts.sum())

    @property
    def label(self) -> str:
        return f"DEG = {self.deg:g}" if self.algorithm == "rue" else f"{self.algorithm} (DEG = {self.deg:g})"

    def interval(self, q: str, level: float = 0.95) -> Interval:
        """The mean of quantity q with its t-interval over runs; for a share no run had (the starved
        share at 0), the exact upper bound instead (`truth.zero_share_bound`)."""
        s, qq, m = self.sums[q].sum(), self.sumsq[q].sum(), self.runs
        if q == "starved" and s == 0:
            return Interval(0.0, 0.0, zero_share_bound(m, level), level)
        return sums_interval(s, qq, m, level)

    def block_means(self, q: str) -> np.ndarray:
        return self.sums[q] / self.counts

    def efficiency(self, level: float = 0.95) -> Interval:
        """n sr_n over the limit's constant L_r (`bounds.limit`)."""
        f = self.n / constants(Setting("c", self.K)).regret
        iv = self.interval("regret", level)
        return Interval(iv.estimate * f, iv.low * f, iv.high * f, level)


@dataclass(frozen=True)
class CliffResults:
    rows: tuple
    source: str
    manifest: dict

    @property
    def description(self) -> str:
        m = self.manifest
        where = "shipped with the package" if self.source == "shipped" else f"in {self.source}"
        return (f"the {m.get('scale', '?')}-scale exploration-constant study {where} (seed {m.get('seed', '?')}, "
                f"rue-verify {m.get('version', '?')})")

    def cells(self) -> list[Cell]:
        out = []
        for r in self.rows:
            G = int(r["groups"])
            counts = block_counts(int(r["runs"]), G)
            out.append(Cell(int(r["K"]), int(r["n"]), r["algorithm"], float(r["deg"]), counts,
                            {q: np.array(json.loads(r[f"{q}_sums"]), float) for q in QUANTITIES},
                            {q: np.array(json.loads(r[f"{q}_sumsq"]), float) for q in QUANTITIES}))
        return out

    def grid(self) -> list[tuple[int, int]]:
        return sorted({(c.K, c.n) for c in self.cells()})

    def at(self, K: int, n: int) -> list[Cell]:
        return sorted((c for c in self.cells() if (c.K, c.n) == (K, n)), key=lambda c: (c.algorithm != "rue", c.deg))


def load(directory: str | Path | None = None) -> CliffResults:
    """The shipped study (None or 'shipped') or the one in `directory`."""
    from ..store.tables import read_study
    rows, source, man = read_study(directory, resources.files(__package__).joinpath("data", "cliff"), COLUMNS, "cliff",
                                   "the exploration-constant study", "rue-verify rates --cliff",
                                   text_columns=("key", "algorithm", "version"),
                                   json_columns=[c for c in COLUMNS if c.endswith(("_sums", "_sumsq"))])
    return CliffResults(rows, source, man)


def ledger_source(rates_dir: str | None) -> str | None:
    """Where the ledger reads the study: `rates_dir`/cliff where a rate-study directory holds one,
    else the shipped study."""
    if rates_dir not in (None, "shipped") and (Path(rates_dir) / "cliff" / "results.csv").is_file():
        return str(Path(rates_dir) / "cliff")
    return None


# ---------------------------------------------------------------- the comparison
@dataclass(frozen=True)
class Ratio:
    """The paper's DEG's regret over another variant's, paired over blocks of runs."""

    other: Cell
    ratio: Interval
    margin: Interval    # mean over blocks of sr(paper) - TOLERANCE sr(other): below 0 where the paper's is within


def ratio(paper, other, level: float, q: str = "regret", tolerance: float = TOLERANCE) -> Ratio:
    """sr(paper) / sr(other) with a delta-method interval over the blocks, and the paired margin
    sr(paper) - tolerance sr(other) with its t-interval over blocks (`paired_ratio`); the blocks are
    paired (the same runs). Any quantity `q` the cells keep (the estimator study's too: its cells have
    the same `counts` and `block_means`)."""
    return Ratio(other, *paired_ratio(paper.block_means(q), other.block_means(q), paper.counts, level, tolerance))


def paired_ratio(a: np.ndarray, b: np.ndarray, counts: np.ndarray, level: float,
                 tolerance: float = TOLERANCE) -> tuple[Interval, Interval]:
    """(mean a / mean b, mean of a - tolerance b) from paired block means a, b `(G,)` over blocks of
    `counts` runs: the ratio of means with a delta-method t-interval (linearised: z_g = a_g - r b_g),
    the margin with its t-interval over blocks, both at `level`."""
    w = counts / counts.sum()
    G = a.size
    t = float(stats.t.ppf(0.5 + level / 2, G - 1))
    A, B = float(np.sum(w * a)), float(np.sum(w * b))
    r = A / B

    def iv(z, center, scale=1.0):
        zbar = float(np.sum(w * z))
        se = math.sqrt(float(np.sum(w ** 2 * (z - zbar) ** 2)) * G / (G - 1)) / scale
        return Interval(center, center - t * se, center + t * se, level)
    return iv(a - r * b, r, B), iv(a - tolerance * b, A - tolerance * B)


def comparisons(res: CliffResults, level: float) -> dict:
    """Per (K, n): the paper's DEG against every other DEG and the variant, with the best DEG (least
    regret estimate)."""
    out = {}
    for K, n in res.grid():
        cells = res.at(K, n)
        paper = next(c for c in cells if c.algorithm == "rue" and c.deg == PAPER_DEG)
        rue = [c for c in cells if c.algorithm == "rue"]
        best = min(rue, key=lambda c: c.interval("regret").estimate)
        out[(K, n)] = {"paper": paper, "best": best, "cells": cells,
                       "ratios": [ratio(paper, c, level) for c in cells if c is not paper]}
    return out


def table(res: CliffResults) -> list[dict]:
    """One row per (K, n, variant): n sr_n over the limit's constant, e_n and the starved share, each
    with its 95% interval, and the regret over DEG = 2's (paired, 95%)."""
    rows = []
    for (K, n), c in comparisons(res, 0.95).items():
        ratios = {(r.other.algorithm, r.other.deg): r.ratio for r in c["ratios"]}
        for x in c["cells"]:
            r = ratios.get((x.algorithm, x.deg))
            rows.append({"K": K, "n": n, "algorithm": x.algorithm, "deg": x.deg, "runs": x.runs,
                         "efficiency": list(x.efficiency()[:3]), "failure": list(x.interval("failure")[:3]),
                         "starved": list(x.interval("starved")[:3]),
                         "paper_over_this": None if r is None else list(r[:3])})
    return rows
