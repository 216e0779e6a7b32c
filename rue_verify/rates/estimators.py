"""What RUE's variance estimates cost (claims VAR-EST-COST, VAR-EST-METHODS and TOPTWO-REST). The paper's
analysis gives RUE the true sigma0^2 and sigma^2; its experiments give it estimates (Section 6), and
Section 4 names the method of moments, maximum likelihood and REML as ways to get them. This study
runs RUE and its top-two balanced variant (`simulate.algorithms.rue.TOP_TWO`) with every estimator of
`simulate.algorithms.variances` (the variances given, the authors' moment estimate, the unbiased
ANOVA moment estimate, ML, REML) under the model of Section 3 (sigma0^2 = sigma^2 = 1, Gaussian
rewards) at K = 10 and 30, n = 1e4 and 1e5, on the rate study's near-tie-sampled instances with their
weights (`truth.instances`).

**Paired.** Every estimator of a (K, n) cell runs on the same means and reward streams, and an
algorithm on the same algorithm seeds (named by the algorithm and K, not the estimator), so run r, and
block g of runs, is paired across estimators: the comparisons are t-intervals on paired block means
(batch means), with Bonferroni-simultaneous levels chosen by the claims.

A row keeps, per block of runs, the sums and sums of squares of each run's weighted
- conditional failure and simple regret (`truth`: exact posterior integrals under the true model,
  whatever the algorithm was told);
- the two parts of the regret of `split`: near ties (top two means within `split.WIDTH` sigma /
  sqrt(n)), by posterior draws common to every estimator of the cell, and the rest;
- the end-of-run estimates of sigma0^2 and sigma^2 under the run's own estimator, recomputed from its
  pulls and its replayed rewards (`sources.replayed_squares`) with the plain form of the estimator
  (`variances.estimate`), not read from the kernel;
and the weighted quantiles `QUANTILES` of the two estimates over the runs (their distribution under
the prior, against the truth 1).

The study is data (`SCALES`), run by the rate study's sweep and store (`rue-verify rates
--estimators`), and its paper-scale rows ship inside the package (`data/estimators`), which the ledger
reads unless the rate-study directory it is given holds an `estimators` subdirectory.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from simulate.algorithms import variances as V
from simulate.algorithms.sources import replayed_squares
from simulate.seeds import stream
from simulate.stats import Interval, sums_interval
from simulate.version import package_version

from ..store.result_store import definition_hash as store_definition
from .efficiency import constants
from .grid import Setting, block_counts, block_sums, run_study
from .split import WIDTH, posterior_near_part
from .truth import instances, known_mean_posterior, runs_truth, simulated_runs

#: the estimators compared, the variances given first (the analysis's RUE)
ESTIMATORS = ("known", "authors", "unbiased", "ml", "reml")
#: what each is, for tables and figures (Section 4 names the moments, ML and REML)
NAMES = {"known": "told the variances", "authors": "moments (authors' code)", "unbiased": "moments (unbiased ANOVA)",
         "ml": "maximum likelihood", "reml": "REML"}
ALGORITHMS = ("rue", "rue-top-two")
CELLS = ((10, 10_000), (10, 100_000), (30, 10_000), (30, 100_000))
#: "within 10%" (CLAIMS-BEYOND.md)
TOLERANCE = 1.10
QUANTITIES = ("failure", "regret", "near", "rest", "sigma0_est", "sigma_est", "weight")
#: the weighted quantiles of the end-of-run estimates a row keeps
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


@dataclass(frozen=True)
class EstimatorTask:
    K: int
    n: int
    algorithm: str
    variances: str
    runs: int
    groups: int

    @property
    def setting(self) -> Setting:
        return Setting(f"K{self.K}", self.K, tilt=True)

    @property
    def key(self) -> str:
        return f"K={self.K}|n={self.n}|{self.algorithm}|variances={self.variances}|{self.runs}/{self.groups}"

    @property
    def cost(self) -> float:
        """RUE's arm-rounds, and for ML and REML their fits (`variances.REFIT_GROWTH`): about 540 rounds
        each (docs/bench.txt)."""
        fits = math.log(self.n / (2 * self.K)) / math.log1p(V.REFIT_GROWTH) if self.variances in V.LIKELIHOOD else 0
        return self.runs * (self.n + 540 * fits) * self.K

    @property
    def describe(self) -> str:
        return f"K={self.K} n={self.n} {self.algorithm} variances={self.variances}"


@dataclass(frozen=True)
class EstimatorScale:
    name: str
    runs: int
    groups: int = 40


#: quick: a demonstration; paper: the study the package ships (docs/bench.txt has its time)
SCALES = {"quick": EstimatorScale("quick", 400), "paper": EstimatorScale("paper", 4000)}


def tasks(scale: str | EstimatorScale = "quick", cells=CELLS, algorithms=ALGORITHMS,
          estimators=ESTIMATORS) -> list[EstimatorTask]:
    """Every algorithm with every estimator on every (K, n) of `cells`."""
    sc = SCALES[scale] if isinstance(scale, str) else scale
    return [EstimatorTask(K, n, a, e, sc.runs, sc.groups) for K, n in cells for a in algorithms for e in estimators]


COLUMNS = ("key", "K", "n", "algorithm", "variances", "runs", "groups",
           *(f"{q}_{s}" for q in QUANTITIES for s in ("sums", "sumsq")), "sigma0_quantiles", "sigma_quantiles",
           "seed", "version", "wall_seconds")


def weighted_quantiles(x: np.ndarray, w: np.ndarray, qs=QUANTILES) -> list[float]:
    """The weighted quantiles of x (the smallest value whose cumulative weight share reaches q)."""
    order = np.argsort(x, kind="stable")
    cum = np.cumsum(w[order]) / np.sum(w)
    return [float(x[order][min(int(np.searchsorted(cum, q)), x.size - 1)]) for q in qs]


def end_estimates(r, task: EstimatorTask, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Each run's end-of-run (sigma0^2, sigma^2) under its estimator, from its pulls, its kernel-kept
    reward sums and its replayed squares. The replayed sums must equal the kernel's (else the replay is
    not of these runs: an error, not a wrong estimate)."""
    from simulate.algorithms.sources import replayed_sums
    s = task.setting
    means, reward_seeds, _ = instances(s.K, s.sigma0_sq, s.sigma_sq, task.runs, seed, True)
    nu = math.sqrt(s.sigma_sq)
    S = replayed_sums(means, r.pulls, reward_seeds, True, nu)
    if not np.allclose(S, r.sums, rtol=1e-9, atol=1e-6):
        raise RuntimeError(f"{task.describe}: the replayed reward sums differ from the kernel's; the end-of-run "
                           "estimates would not be these runs'")
    Q = replayed_squares(means, r.pulls, reward_seeds, True, nu)
    s0, s1 = V.estimate(r.pulls, r.sums, Q, task.variances, s.sigma0_sq, s.sigma_sq)
    return s0[:, 0], s1[:, 0]


def execute(task: EstimatorTask, seed: int) -> dict:
    """Run one task; its row (a module-level function, so Dask workers can run it)."""
    import time
    t0 = time.perf_counter()
    s = task.setting
    params = {"variances": task.variances, "sigma0_sq": s.sigma0_sq, "sigma_sq": s.sigma_sq}
    r = simulated_runs(task.algorithm, s.K, task.n, s.sigma0_sq, s.sigma_sq, task.runs, seed, params, True)
    tr = runs_truth(r, task.n, s.sigma0_sq, s.sigma_sq)
    m, v = known_mean_posterior(r.pulls, r.sums, s.sigma0_sq, s.sigma_sq)
    window = WIDTH * math.sqrt(s.sigma_sq / task.n)
    rng = stream(seed, f"rates:estimators:split:{task.K}:{task.n}")      # common to every estimator: paired
    near = r.weights * posterior_near_part(m, v, r.rec, window, rng)
    e0, e1 = end_estimates(r, task, seed)
    values = {"failure": tr.failure_runs, "regret": tr.regret_runs, "near": near, "rest": tr.regret_runs - near,
              "sigma0_est": r.weights * e0, "sigma_est": r.weights * e1, "weight": r.weights}
    row = {"key": task.key, "K": task.K, "n": task.n, "algorithm": task.algorithm, "variances": task.variances,
           "runs": task.runs, "groups": task.groups}
    for q, x in values.items():
        sums, sumsq = block_sums(x, task.groups)
        row[f"{q}_sums"], row[f"{q}_sumsq"] = json.dumps(sums), json.dumps(sumsq)
    row["sigma0_quantiles"] = json.dumps(weighted_quantiles(e0, r.weights))
    row["sigma_quantiles"] = json.dumps(weighted_quantiles(e1, r.weights))
    return {**row, "seed": seed, "version": package_version(), "wall_seconds": round(time.perf_counter() - t0, 3)}


def manifest(ts: list[EstimatorTask], seed: int, scale: str) -> dict:
    definition = store_definition([t.key for t in ts], seed)
    return {"tool": "rue-verify rates --estimators", "version": package_version(), "definition": definition,
            "scale": scale, "seed": seed, "tasks": len(ts), "refit_growth": V.REFIT_GROWTH,
            "variances": {f"{t.algorithm}@K={t.K},n={t.n}": sorted({u.variances for u in ts if
                                                                    (u.algorithm, u.K, u.n) == (t.algorithm, t.K, t.n)})
                          for t in ts}}


def run(scale: str | EstimatorScale = "quick", out: str | Path | None = None, seed: int = 0,
        scheduler: str | None = None, progress: bool = True, wait: bool = False, cells=CELLS,
        workers: int | None = None) -> dict:
    """Run (or resume) the study at `scale` into `out`; the rows, the directory and the wall seconds
    (`workers`: local processes, default every core)."""
    if isinstance(scale, str) and scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(SCALES)}, got {scale!r}")
    ts = tasks(scale, cells)
    name = scale if isinstance(scale, str) else scale.name
    out = Path(out or f"estimators-{name}")
    rows, wall = run_study(ts, seed, out, manifest(ts, seed, name), COLUMNS, execute, "variance estimators",
                           scheduler=scheduler, progress=progress, wait=wait, workers=workers)
    return {"out": str(out), "rows": rows, "wall_seconds": wall, "tasks": len(ts), "scale": name, "seed": seed}


# ---------------------------------------------------------------- reading the rows back
@dataclass(frozen=True)
class Cell:
    """One algorithm with one estimator on one (K, n): per quantity the blocks' sums `(G,)` and sums of
    squares, and the estimates' weighted quantiles."""

    K: int
    n: int
    algorithm: str
    variances: str
    counts: np.ndarray
    sums: dict
    sumsq: dict
    quantiles: dict

    @property
    def runs(self) -> int:
        return int(self.counts.sum())

    @property
    def label(self) -> str:
        return f"{self.algorithm} ({NAMES.get(self.variances, self.variances)})"

    def interval(self, q: str, level: float = 0.95) -> Interval:
        return sums_interval(self.sums[q].sum(), self.sumsq[q].sum(), self.runs, level)

    def block_means(self, q: str) -> np.ndarray:
        return self.sums[q] / self.counts

    def estimate(self, q: str, level: float = 0.95) -> Interval:
        """The mean end-of-run estimate (q 'sigma0_est' or 'sigma_est') under the prior: the self-normalised
        importance-weighted mean sum w e / sum w, with a delta-method interval over blocks."""
        from .cliff import paired_ratio
        return paired_ratio(self.block_means(q), self.block_means("weight"), self.counts, level)[0]

    def efficiency(self, level: float = 0.95, q: str = "regret") -> Interval:
        """n sr_n (q 'regret', or a part of it) over the limit's constant L_r (`bounds.limit`)."""
        f = self.n / constants(Setting("c", self.K)).regret
        iv = self.interval(q, level)
        return Interval(iv.estimate * f, iv.low * f, iv.high * f, level)


@dataclass(frozen=True)
class EstimatorResults:
    rows: tuple
    source: str
    manifest: dict

    @property
    def description(self) -> str:
        m = self.manifest
        where = "shipped with the package" if self.source == "shipped" else f"in {self.source}"
        return (f"the {m.get('scale', '?')}-scale variance-estimator study {where} (seed {m.get('seed', '?')}, "
                f"rue-verify {m.get('version', '?')}; ML and REML refitted as the pulls grow by "
                f"{m.get('refit_growth', V.REFIT_GROWTH):.4g})")

    def cells(self) -> list[Cell]:
        out = []
        for r in self.rows:
            G = int(r["groups"])
            counts = block_counts(int(r["runs"]), G)
            out.append(Cell(int(r["K"]), int(r["n"]), r["algorithm"], r["variances"], counts,
                            {q: np.array(json.loads(r[f"{q}_sums"]), float) for q in QUANTITIES},
                            {q: np.array(json.loads(r[f"{q}_sumsq"]), float) for q in QUANTITIES},
                            {q: json.loads(r[f"{q}_quantiles"]) for q in ("sigma0", "sigma")}))
        return out

    def grid(self) -> list[tuple[int, int]]:
        return sorted({(c.K, c.n) for c in self.cells()})

    def cell(self, K: int, n: int, algorithm: str, variances: str) -> Cell | None:
        return next((c for c in self.cells() if (c.K, c.n, c.algorithm, c.variances) == (K, n, algorithm, variances)),
                    None)

    def at(self, K: int, n: int, algorithm: str | None = None) -> list[Cell]:
        order = {e: i for i, e in enumerate(ESTIMATORS)}
        return sorted((c for c in self.cells() if (c.K, c.n) == (K, n) and algorithm in (None, c.algorithm)),
                      key=lambda c: (c.algorithm, order.get(c.variances, len(order))))


def load(directory: str | Path | None = None) -> EstimatorResults:
    """The shipped study (None or 'shipped') or the one in `directory`."""
    from ..store.tables import read_study
    rows, source, man = read_study(directory, resources.files(__package__).joinpath("data", "estimators"), COLUMNS,
                                   "estimators", "the variance-estimator study", "rue-verify rates --estimators",
                                   text_columns=("key", "algorithm", "variances", "version"),
                                   json_columns=[c for c in COLUMNS if c.endswith(("_sums", "_sumsq", "_quantiles"))])
    unknown = sorted({r["variances"] for r in rows} - set(V.ESTIMATORS))
    if unknown:
        from ..errors import ParameterError
        raise ParameterError("estimators", f"{source}/results.csv names estimators this version does not have: "
                                           f"{', '.join(unknown)}")
    return EstimatorResults(rows, source, man)


def ledger_source(rates_dir: str | None) -> str | None:
    """Where the ledger reads the study: `rates_dir`/estimators where a rate-study directory holds one,
    else the shipped study."""
    if rates_dir not in (None, "shipped") and (Path(rates_dir) / "estimators" / "results.csv").is_file():
        return str(Path(rates_dir) / "estimators")
    return None


def table(res: EstimatorResults) -> list[dict]:
    """One row per (K, n, algorithm, estimator): n sr_n over the limit's constant, its two parts, e_n and
    the mean end-of-run estimates, each with its 95% interval, and the estimates' quantiles."""
    rows = []
    for K, n in res.grid():
        for c in res.at(K, n):
            rows.append({"K": K, "n": n, "algorithm": c.algorithm, "variances": c.variances, "runs": c.runs,
                         "efficiency": list(c.efficiency()[:3]), "near": list(c.efficiency(q="near")[:3]),
                         "rest": list(c.efficiency(q="rest")[:3]), "failure": list(c.interval("failure")[:3]),
                         "sigma0_est": list(c.estimate("sigma0_est")[:3]),
                         "sigma_est": list(c.estimate("sigma_est")[:3]),
                         "sigma0_quantiles": c.quantiles["sigma0"], "sigma_quantiles": c.quantiles["sigma"]})
    return rows


# ---------------------------------------------------------------- the refit schedule's effect
def refit_effect(K: int = 10, n: int = 10_000, runs: int = 400, seed: int = 0, variances: str = "ml",
                 algorithm: str = "rue", groups: int = 40) -> dict:
    """ML or REML refitted every round against the kernels' schedule (`variances.REFIT_GROWTH`) on the
    same instances, reward streams and algorithm seeds: the share of runs with the same pulls and
    recommendation, and the simple regret's ratio (schedule over every round) with a paired 95%
    interval over blocks of runs. A benchmark (`rue-verify bench --refit`), not a test: refitting every
    round costs about 540 RUE rounds a round at K = 10."""
    import time

    from simulate.algorithms import rue
    from simulate.seeds import run_seeds

    from .cliff import ratio
    from .truth import conditional_values
    if variances not in V.LIKELIHOOD:
        raise ValueError(f"variances must be one of {', '.join(V.LIKELIHOOD)} (the refitted estimators), got "
                         f"{variances!r}")
    s = Setting(f"K{K}", K, tilt=True)
    means, reward_seeds, w = instances(K, s.sigma0_sq, s.sigma_sq, runs, seed, True)
    seeds = run_seeds(seed, f"rates:alg:{algorithm}:{K}", runs)
    batch = rue.top_two_batch if algorithm == "rue-top-two" else rue.batch
    out, cells = {}, {}
    for refit in (0.0, V.REFIT_GROWTH):
        sums = np.empty(means.shape)
        t0 = time.perf_counter()
        rec, pulls = batch(means, n, seeds, reward_seeds, gaussian=True, nu=math.sqrt(s.sigma_sq), variances=variances,
                           sums=sums, refit=refit)
        wall = time.perf_counter() - t0
        m, v = known_mean_posterior(pulls, sums, s.sigma0_sq, s.sigma_sq)
        regret = w * conditional_values(m, v, rec)[1]
        sums_, sumsq_ = block_sums(regret, groups)
        counts = block_counts(runs, groups)
        cells[refit] = Cell(K, n, algorithm, variances, counts, {"regret": np.array(sums_)},
                            {"regret": np.array(sumsq_)}, {})
        out[refit] = (rec, pulls, wall)
    same = np.mean((out[0.0][0] == out[V.REFIT_GROWTH][0]) & np.all(out[0.0][1] == out[V.REFIT_GROWTH][1], axis=1))
    r = ratio(cells[V.REFIT_GROWTH], cells[0.0], 0.95).ratio
    return {"K": K, "n": n, "runs": runs, "seed": seed, "algorithm": algorithm, "variances": variances,
            "refit_growth": V.REFIT_GROWTH, "same_runs": float(same), "regret_ratio": list(r[:3]),
            "wall_every_round": out[0.0][2], "wall_schedule": out[V.REFIT_GROWTH][2]}


#: what `bench --refit` measures: (algorithm, estimator) pairs
REFIT_CASES = (("rue", "ml"), ("rue", "reml"), ("rue-top-two", "ml"))


def refit_line(r: dict) -> str:
    """One `refit_effect` result in words."""
    est, lo, hi = r["regret_ratio"]
    return (f"{r['algorithm']:<12} {r['variances']:<5} K = {r['K']} n = {r['n']} runs = {r['runs']} "
            f"seed = {r['seed']}: identical runs {r['same_runs']:.1%}; simple regret, schedule over every round "
            f"{est:.4f} [{lo:.4f}, {hi:.4f}]; wall {r['wall_every_round']:.1f} s every round, "
            f"{r['wall_schedule']:.2f} s on the schedule")


def refit_effects(out=print) -> list[dict]:
    """`refit_effect` for each of `REFIT_CASES`, each line given to `out` as it finishes."""
    rows = []
    for alg, est in REFIT_CASES:
        rows.append(refit_effect(algorithm=alg, variances=est))
        out(refit_line(rows[-1]))
    return rows
