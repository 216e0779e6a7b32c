"""The rate study as data: settings of the model of Section 3 (K, sigma0^2, sigma^2, and how far the
arms' prior variances differ), the algorithms each runs and over which budgets, at a named scale.
A task is one algorithm at one budget on one setting; `execute` runs it and returns a row of group
statistics (sums and sums of squares of the per-run conditional values over fixed blocks of runs),
which is all the fits, intervals and paired comparisons need (`results.Curve`), and small enough to ship.

Every task of a setting runs on the same means and reward streams (common random numbers across
budgets and algorithms), so run r, and hence block g, is paired across the whole setting. The rows
go into a `result_store.ResultStore` (resumable, one writer) through `rue_verify.studies.sweep` (local, or a
Dask scheduler), as the reproduction's do."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from simulate.algorithms import get
from simulate.environments import prior_variances
from simulate.version import package_version

from ..store.result_store import definition_hash as store_definition
from .truth import bayes_truth, oracle_truth

#: the full-information oracle (`bounds.lower`): not an algorithm, a lower bound every algorithm meets
ORACLE = "oracle"
#: how the oracle's rows are computed, in their keys: a study resumed from rows of another method
#: recomputes them (the oracle used to be simulated with its noise shared across budgets)
ORACLE_METHOD = "quadrature"
#: the variance mode of every algorithm of the study that takes one (`algorithm_params`): told the variances
VARIANCES = "known"
#: the prior-dependent methods the paper's related work cites
PEER_NAMES = ("bayes_elim", "prior_alloc")
#: rules run to see whether the limit is reached (LIMIT-TIGHT): the top pair, written for it
LIMIT_RULES = ("top-pair",)
#: Section 6's prior-free baselines, compared under the model for ABS-SOTA (budgets to `wide`)
PRIOR_FREE = ("sr", "sh", "ucbe", "uniform")
#: Section 6's Bayesian baseline, exact and slow (budgets to 1e4 only)
TTTS = "ttts"


@dataclass(frozen=True)
class Setting:
    """Means drawn from N(0, sigma0_k^2) (sigma0_k^2 spread geometrically around sigma0^2 by
    `prior_ratio`, `simulate.environments.prior_variances`; 1: Section 3's common prior), rewards
    N(mu, sigma^2); RUE is told sigma0^2 (the geometric mean) and sigma^2, the peers the per-arm prior.
    tilt: near-tie sampling (`truth.instances`), exact importance sampling of the instances."""

    name: str
    K: int
    sigma0_sq: float = 1.0
    sigma_sq: float = 1.0
    prior_ratio: float = 1.0
    tilt: bool = False

    def prior_vars(self):
        """sigma0^2 (a float) for a common prior, else the per-arm prior variances."""
        return self.sigma0_sq if self.prior_ratio == 1 else prior_variances(self.K, self.sigma0_sq, self.prior_ratio)

    @property
    def params(self) -> dict:
        """The setting as a witness's params (CLAIMS-BEYOND.md's format)."""
        p = {"K": self.K, "sigma0_sq": self.sigma0_sq, "sigma_sq": self.sigma_sq, "variances": "known"}
        return p if self.prior_ratio == 1 else {**p, "prior_ratio": self.prior_ratio}

    @property
    def text(self) -> str:
        t = f"K = {self.K}, sigma0^2 = {self.sigma0_sq:g}, sigma^2 = {self.sigma_sq:g}"
        return t if self.prior_ratio == 1 else t + f", per-arm prior variances spread {self.prior_ratio:g}-fold"


@dataclass(frozen=True)
class Plan:
    """Which algorithms run on a setting, over which budgets (an algorithm's `top` caps its budgets)."""

    setting: Setting
    algorithms: tuple[str, ...]
    low: int
    high: int
    runs: int
    top: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Scale:
    name: str
    plans: tuple[Plan, ...]
    groups: int = 40          # blocks of runs whose statistics a row keeps (the jackknife and the batch-means
    #                           paired tests work on them)
    oracle_draws: int = 0     # prior draws of the oracle's rows on a common prior (0: the plan's runs). Its
    #                           error given the means is exact quadrature and cheap, so only the prior is
    #                           sampled and the oracle is pinned far more tightly than an algorithm
    oracle_draws_per_arm: int = 0   # the same under per-arm priors, where its failure is a posterior
    #                                 integral per draw (`truth.oracle_truth`), 15x the cost

    def runs(self, plan: Plan, algorithm: str) -> int:
        """The runs of `algorithm`'s rows on `plan`: the plan's, or the oracle's prior draws."""
        if algorithm != ORACLE:
            return plan.runs
        draws = self.oracle_draws if plan.setting.prior_ratio == 1 else self.oracle_draws_per_arm
        return max(draws, plan.runs)


def algorithm_params(name: str, setting: Setting) -> dict:
    """What each algorithm is told: every algorithm that takes a variance mode (RUE and its top-two
    variant) the same one, the study's ('known': the two variances, sigma0^2 the prior's geometric
    mean), never its own default (the authors' estimates), so that a comparison is on equal terms; the
    peers the prior (mean 0, the per-arm variances) and the reward variance; the prior-free baselines
    nothing."""
    from simulate.algorithms import get
    if name != ORACLE and "variances" in {p.name for p in get(name).params}:
        return {"variances": VARIANCES, "sigma0_sq": setting.sigma0_sq, "sigma_sq": setting.sigma_sq}
    if name in PEER_NAMES:
        return {"prior_mean": 0.0, "prior_var": setting.sigma0_sq, "noise_var": setting.sigma_sq,
                **({"prior_ratio": setting.prior_ratio} if setting.prior_ratio != 1 else {})}
    return {}


def budgets(low: int, high: int) -> list[int]:
    """The budgets of the study between low and high: 13 per three decades from 100 (100, 215, 464,
    1000, ...), so that every setting's budgets are common points of the others'."""
    grid = sorted({int(round(x)) for x in np.geomspace(100, 10 ** 7, 16)})
    return [n for n in grid if low <= n <= high]


#: the base setting of RATE-FAIL and RATE-REGRET (RUE told the variances)
BASE = Setting("base", 10, tilt=True)
PAPER_ALGS = ("rue",) + PEER_NAMES + LIMIT_RULES + (ORACLE,)


def _scale(name: str, runs: int, wide: int, top: int, oracle: int = 0, oracle_per_arm: int = 0) -> Scale:
    """`runs` on the base setting (budgets to `top`), half as many on the other settings and a quarter
    at K = 100 (budgets to `wide`); the prior-free baselines to `wide` and TTTS (exact, slow) to 1e4,
    for ABS-SOTA's comparison under the model; the oracle over `oracle` prior draws (`oracle_per_arm`
    under per-arm priors)."""
    half, quarter = max(runs // 2, 40), max(runs // 4, 40)
    k_low = 1000
    return Scale(name, (
        Plan(BASE, PAPER_ALGS + PRIOR_FREE + (TTTS,), 100, top, runs,
             ((TTTS, 10_000), *((b, wide) for b in PRIOR_FREE))),
        Plan(Setting("K30", 30, tilt=True), PAPER_ALGS, k_low, wide, half),
        Plan(Setting("K100", 100, tilt=True), PAPER_ALGS, k_low, wide, quarter),
        Plan(Setting("tight prior", 10, sigma0_sq=0.25, tilt=True), PAPER_ALGS, k_low, wide, half),
        Plan(Setting("noisy", 10, sigma_sq=4.0, tilt=True), PAPER_ALGS, k_low, wide, half),
        Plan(Setting("differing priors", 10, prior_ratio=100.0, tilt=True), PAPER_ALGS + ("uniform",), 100, wide,
             half),
    ), oracle_draws=oracle, oracle_draws_per_arm=oracle_per_arm)


#: quick: a demonstration (about 20 s); paper: the study the package ships (`results`, about 8 minutes on 2 cores). The
#: paper scale's oracle averages its exact error over 800 000 prior draws on a common prior, so that its constant's
#: interval is within 1% of itself on every setting (ORACLE_FACTOR's check, `ledger.beyond`; 300 000 left the base
#: setting at 1.5%), and 100 000 under per-arm priors, where its failure is a posterior integral per draw (about 2%)
SCALES = {"quick": _scale("quick", 400, 10_000, 100_000, 20_000, 2_000),
          "paper": _scale("paper", 4000, 100_000, 1_000_000, 800_000, 100_000)}


@dataclass(frozen=True)
class RateTask:
    setting: Setting
    algorithm: str
    n: int
    runs: int
    groups: int

    @property
    def key(self) -> str:
        setting = json.dumps(asdict(self.setting), sort_keys=True)
        alg = f"{ORACLE}:{ORACLE_METHOD}" if self.algorithm == ORACLE else self.algorithm
        return f"{setting}|{alg}|n={self.n}|{self.runs}/{self.groups}"

    @property
    def cost(self) -> float:
        """The progress bar's weight, in RUE's arm-rounds: an algorithm's cost per arm-round times its
        arm-rounds (`Algorithm.arm_rounds`, rewards Gaussian), plus the posterior integrals of its runs,
        about 1500 per run and arm; the oracle's rows (quadrature per instance, whatever n) about 50 per
        instance and arm, 15 times that under per-arm priors. Read off the paper scale's row times
        (docs/bench.txt; the integrals off the phase algorithms' rows, which draw little else)."""
        K = self.setting.K
        if self.algorithm == ORACLE:
            return 50.0 * (15 if self.setting.prior_ratio != 1 else 1) * self.runs * K
        alg = get(self.algorithm)
        return self.runs * (alg.cost * alg.arm_rounds(self.n, K, True) + 1500.0 * K)

    @property
    def describe(self) -> str:
        return f"{self.setting.name} K={self.setting.K} n={self.n} {self.algorithm}"


def tasks(scale: str | Scale = "quick", algorithms=None) -> list[RateTask]:
    """The tasks of a scale (`algorithms`: only these, where a plan has them)."""
    sc = SCALES[scale] if isinstance(scale, str) else scale
    out = []
    for p in sc.plans:
        cap = dict(p.top)
        for alg in p.algorithms:
            if algorithms is None or alg in algorithms:
                top = min(p.high, cap.get(alg, p.high))
                out += [RateTask(p.setting, alg, n, sc.runs(p, alg), sc.groups) for n in budgets(p.low, top)]
    return out


def definition_hash(ts: list[RateTask], seed: int) -> str:
    return store_definition([t.key for t in ts], seed)


def variance_modes(ts) -> dict:
    """The variance mode each algorithm that takes one is told, per setting: {'alg@setting': mode} over
    tasks with an `algorithm` and a `setting` (what a study's manifest records: equal terms, visible)."""
    pairs = sorted({(t.algorithm, t.setting) for t in ts}, key=lambda p: (p[1].name, p[0]))
    return {f"{a}@{s.name}": algorithm_params(a, s)["variances"] for a, s in pairs
            if "variances" in algorithm_params(a, s)}


def manifest(ts: list[RateTask], seed: int, scale: str) -> dict:
    return {"tool": "rue-verify rates", "version": package_version(), "definition": definition_hash(ts, seed),
            "scale": scale, "seed": seed, "tasks": len(ts),
            "variances": variance_modes(ts)}


COLUMNS = ("key", "setting", "K", "sigma0_sq", "sigma_sq", "prior_ratio", "tilt", "algorithm", "params", "n",
           "runs", "groups", "failure_sums", "failure_sumsq", "regret_sums", "regret_sumsq", "failure_plain_sum",
           "failure_plain_sumsq", "regret_plain_sum", "regret_plain_sumsq", "vr_failure", "vr_regret", "seed",
           "version", "wall_seconds")


def block_counts(runs: int, groups: int) -> np.ndarray:
    """The runs in each of `groups` consecutive blocks (as `block_sums` splits them), as floats."""
    return np.array([len(p) for p in np.array_split(np.arange(runs), groups)], float)


def run_study(ts: list, seed: int, out: Path, manifest: dict, columns: tuple, execute, desc: str, *,
              scheduler: str | None = None, progress: bool = True, wait: bool = False,
              workers: int | None = None) -> tuple[list[dict], float]:
    """Run (or resume) a side study's tasks `ts` into the result directory `out` with its `manifest`
    and `columns` (`studies.sweep.run_sweep`: local or Dask, one writer); its rows and wall seconds."""
    from ..store.result_store import ResultStore
    from ..studies.sweep import run_sweep
    store = ResultStore(out, manifest, columns)
    return run_sweep(ts, seed, store, scheduler=scheduler, progress=progress, wait=wait, execute=execute, desc=desc,
                     workers=workers)


def block_sums(values: np.ndarray, groups: int) -> tuple[list[float], list[float]]:
    """The sums and sums of squares of `values` over `groups` consecutive blocks (what a row keeps)."""
    parts = np.array_split(np.asarray(values, float), groups)
    return [float(p.sum()) for p in parts], [float((p ** 2).sum()) for p in parts]


def execute(task: RateTask, seed: int) -> dict:
    """Run one task; its row (a module-level function, so Dask workers can run it)."""
    import time
    t0 = time.perf_counter()
    s = task.setting
    if task.algorithm == ORACLE:
        tr = oracle_truth(s.K, task.n, s.prior_vars(), s.sigma_sq, task.runs, seed, tilt=s.tilt)
        params = {}
    else:
        params = algorithm_params(task.algorithm, s)
        tr = bayes_truth(task.algorithm, s.K, task.n, s.prior_vars(), s.sigma_sq, task.runs, seed, params,
                         tilt=s.tilt)
    fs, fq = block_sums(tr.failure_runs, task.groups)
    rs, rq = block_sums(tr.regret_runs, task.groups)
    return {"key": task.key, "setting": s.name, "K": s.K, "sigma0_sq": s.sigma0_sq, "sigma_sq": s.sigma_sq,
            "prior_ratio": s.prior_ratio, "tilt": int(s.tilt), "algorithm": task.algorithm,
            "params": json.dumps(params, sort_keys=True),
            "n": task.n, "runs": task.runs, "groups": task.groups,
            "failure_sums": json.dumps(fs), "failure_sumsq": json.dumps(fq), "regret_sums": json.dumps(rs),
            "regret_sumsq": json.dumps(rq), "failure_plain_sum": tr.plain_failure[0],
            "failure_plain_sumsq": tr.plain_failure[1], "regret_plain_sum": tr.plain_regret[0],
            "regret_plain_sumsq": tr.plain_regret[1], "vr_failure": tr.vr_failure, "vr_regret": tr.vr_regret,
            "seed": seed, "version": package_version(), "wall_seconds": round(time.perf_counter() - t0, 3)}
