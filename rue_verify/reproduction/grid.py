"""Section 6 and its appendix as data: every setting the paper runs, one `Task` per setting and
algorithm, and `execute`, which runs one task and returns its result row.

Studies (labels of `sec:experiments` and its appendix):
- "fixed" (Figure 3, `fig:SixSets`): F1-F6, K = 20, n in {ceil(H/2), ceil(H), 2 ceil(H)}.
- "random" (Figure 2, `fig:RandomSet`): R1-R3, K = 20, 50 sampled instances, n in {N/4, N/2, N},
  N = 5000 (R1, R2) or 12000 (R3).
- "arms" (`fig:MoreArms`): F4 with K = 40 and 80, budgets as "fixed", capped at 400000.
- "two-stage" (`fig:twostage`): the two-stage algorithm for q in {0.1, ..., 0.9} on F4 (K = 20) and
  R2, with RUE and uniform allocation in the same settings for comparison.
Algorithms: RUE (estimated variances), UCB-E, SR, SH, TTTS.

Where the paper is ambiguous a task names its reading, and the grid holds every reasonable one:
- "N(0.5, 0.1)" in R1/R2: `normal_scale` 'variance' or 'sd';
- H: `H_convention` 'suboptimal' (the authors' code) or 'section2' (Section 2's definition); it sets
  the fixed budgets and UCB-E's a. The "fixed" study runs both; the "arms" study runs the authors'
  only: TTTS at K = 80 and n up to 400000 costs about 7 minutes of the 20-minute budget per reading
  (late in a run its challenger search redraws up to K + 1 posterior argmaxes a round);
- UCB-E: a = 2n/H (Section 6) or a = 2 (Section 6.1): UCB-E's `a_form`;
- index ties: this project's (at random) or the authors' (lowest index, in SH and two-stage):
  `tie_rule`, chosen by the conventions.
Runs per instance in the random study are not stated in the paper. With r runs the variance of the
50-instance mean error is var_between / 50 + E[p(1-p)] / (50 r): the between-instance part does not
shrink with r, the within-instance part does. r = 100 makes the second small next to the first
(`variance_parts` measures both for every cell, and the reproduction's summary reports them) at a
cost the 20-minute budget allows.

Seeds: every random quantity comes from `SeedSequence(seed)` under a key named after what it seeds:
an R-instance's means from (setup, K, reading, instance), a setting's reward streams from the
setting (shared by every algorithm in it: paired comparisons on common random numbers), a task's
own streams from the task. A task's row is therefore the same whichever machine, worker or order
runs it.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field

import numpy as np

from simulate.algorithms import get
from simulate.algorithms.spec import TIES
from simulate.environments import (
    ARMS_K,
    F_SETUPS,
    FIXED_BUDGETS,
    PAPER_ALGORITHMS,
    PAPER_K,
    R_SETUPS,
    RANDOM_BUDGETS,
    RANDOM_N,
    Environment,
    budgets_from,
    complexity_H,
    fixed_means,
    random_means,
)
from simulate.runner import outcomes, run_algorithm, run_seeds
from simulate.seeds import stream
from simulate.stats import binomial_interval, mean_interval
from simulate.version import package_version

from ..store.result_store import definition_hash as store_definition

STUDIES = ("fixed", "random", "arms", "two-stage")
CONVENTIONS = tuple(TIES.variants)     # 'project' (ties at random), 'authors' (lowest index, in SH and two-stage)
TWO_STAGE_ALGORITHMS = ("rue", "uniform", "two-stage")   # Figure 4's


def paper_algorithms(study: str) -> tuple[str, ...]:
    """The algorithms the paper runs in `study` (what its claims on that study compare)."""
    return TWO_STAGE_ALGORITHMS if study == "two-stage" else PAPER_ALGORITHMS


K_CAP = 400_000                        # appendix: "N = 400000 as the maximal budget" for K = 80
Q_GRID = tuple(round(0.1 * i, 1) for i in range(1, 10))


@dataclass(frozen=True)
class Scale:
    """How many runs each study gets."""

    name: str
    fixed_runs: int
    random_instances: int
    random_runs: int                   # per instance
    arms_runs: int
    two_stage_runs: int                # fixed setting
    two_stage_random_runs: int         # per instance (R2)


PAPER = Scale("paper", fixed_runs=1000, random_instances=50, random_runs=100, arms_runs=1000, two_stage_runs=1000,
              two_stage_random_runs=20)
QUICK = Scale("quick", fixed_runs=200, random_instances=12, random_runs=25, arms_runs=100, two_stage_runs=200,
              two_stage_random_runs=10)
SCALES = {"paper": PAPER, "quick": QUICK}


@dataclass(frozen=True)
class Task:
    """One algorithm on one setting."""

    study: str
    setup: str
    K: int
    budget: str                        # a label of FIXED_BUDGETS or RANDOM_BUDGETS (simulate.environments)
    n: int
    algorithm: str
    params: tuple                      # resolved parameters, as sorted (name, value) pairs
    instances: int                     # 1 for fixed means
    runs: int                          # per instance
    normal_scale: str = "-"            # R1/R2 reading of N(0.5, 0.1)
    H_convention: str = "suboptimal"

    @property
    def setting(self) -> str:
        """What the algorithms of one comparison share (means and reward streams)."""
        return (f"{self.study}|{self.setup}|K={self.K}|{self.budget}|n={self.n}|{self.normal_scale}|"
                f"{self.H_convention}|{self.instances}x{self.runs}")

    @property
    def key(self) -> str:
        return f"{self.setting}|{self.algorithm}|{json.dumps(dict(self.params), sort_keys=True)}"

    @property
    def instance_key(self) -> str:
        return f"{self.setup}|K={self.K}|{self.normal_scale}"

    @property
    def label(self) -> str:
        return get(self.algorithm).label(dict(self.params))

    @property
    def cost(self) -> float:
        """Arm-rounds (`Algorithm.arm_rounds`), weighted by the kernel's speed (a progress bar's unit)."""
        gaussian = Environment(self.setup, self.K).reward == "gaussian"
        return get(self.algorithm).cost * self.instances * self.runs * get(self.algorithm).arm_rounds(
            self.n, self.K, gaussian)

    @property
    def describe(self) -> str:
        return f"{self.setup} K={self.K} n={self.n} {self.label}"


def _task(study, setup, K, budget, n, algorithm, params, instances, runs, normal_scale="-",
          H_convention="suboptimal") -> Task:
    alg = get(algorithm)
    if any(p.name == "H_convention" for p in alg.params):
        params = {**params, "H_convention": H_convention}
    resolved = alg.resolve(params)
    alg.check_budget(n, K, resolved)
    return Task(study, setup, K, budget, n, algorithm, tuple(sorted(alg.stored(resolved).items())), instances, runs,
                normal_scale, H_convention)


def fixed_budgets(setup: str, K: int, H_convention: str, cap: int | None = None) -> dict[str, int]:
    """The budgets of `FIXED_BUDGETS` (ceil(H/2), ceil(H), 2 ceil(H), Section 6.2), each capped at `cap`."""
    out = budgets_from(FIXED_BUDGETS, math.ceil(complexity_H(fixed_means(setup, K), H_convention)))
    return {k: min(v, cap) if cap else v for k, v in out.items()}


def grid(scale: Scale = PAPER, studies: tuple[str, ...] = STUDIES,
         conventions: tuple[str, ...] = ("project", "authors"),
         algorithms: tuple[str, ...] = PAPER_ALGORITHMS) -> list[Task]:
    """Every task of the reproduction at `scale`, in a fixed order: `algorithms` (registry names;
    default the paper's five) on every setting of the fixed, random and arms studies, under every
    reading that changes them."""
    for a in algorithms:
        get(a)                         # a ValueError that lists the registry's names
    unknown = sorted(set(studies) - set(STUDIES))
    if unknown or not studies:
        raise ValueError(f"studies must be a non-empty subset of {', '.join(STUDIES)}, got {', '.join(studies)}")
    bad = sorted(set(conventions) - set(CONVENTIONS))
    if bad or not conventions:
        raise ValueError(f"conventions must be a non-empty subset of {', '.join(CONVENTIONS)}, got "
                         f"{', '.join(conventions)}")
    tasks = []
    for study in studies:
        if study in ("fixed", "arms"):
            settings = [(s, PAPER_K) for s in F_SETUPS] if study == "fixed" else [("F4", K) for K in ARMS_K]
            runs = scale.fixed_runs if study == "fixed" else scale.arms_runs
            for setup, K in settings:
                for conv in (("suboptimal", "section2") if study == "fixed" else ("suboptimal",)):
                    for b, n in fixed_budgets(setup, K, conv, K_CAP if study == "arms" else None).items():
                        for a in algorithms:
                            for p in get(a).variants(setup, conventions):
                                tasks.append(_task(study, setup, K, b, n, a, p, 1, runs, H_convention=conv))
        elif study == "random":
            for setup in R_SETUPS:
                for scale_ in (("variance", "sd") if setup != "R3" else ("-",)):
                    for b, n in budgets_from(RANDOM_BUDGETS, RANDOM_N[setup]).items():
                        for a in algorithms:
                            for p in get(a).variants(setup, conventions):
                                tasks.append(_task(study, setup, PAPER_K, b, n, a, p, scale.random_instances,
                                                   scale.random_runs, normal_scale=scale_))
        else:
            for b, n in fixed_budgets("F4", PAPER_K, "suboptimal").items():
                for a, ps in (("rue", [{}]), ("uniform", [{}]),
                              ("two-stage", [{"q": q, **v} for q in Q_GRID
                                             for v in get("two-stage").variants("F4", conventions)])):
                    for p in ps:
                        tasks.append(_task(study, "F4", PAPER_K, b, n, a, p, 1, scale.two_stage_runs))
            for b, n in budgets_from(RANDOM_BUDGETS, RANDOM_N["R2"]).items():
                for a, ps in (("rue", [{}]), ("uniform", [{}]),
                              ("two-stage", [{"q": q, **v} for q in Q_GRID
                                             for v in get("two-stage").variants("R2", conventions)])):
                    for p in ps:
                        tasks.append(_task(study, "R2", PAPER_K, b, n, a, p, scale.random_instances,
                                           scale.two_stage_random_runs, normal_scale="variance"))
    keys = [t.key for t in tasks]
    if len(set(keys)) != len(keys):
        raise ValueError("the grid defines a task twice")
    return tasks


def manifest(tasks: list[Task], seed: int, scale: str, conventions: tuple[str, ...]) -> dict:
    """What a result directory of these tasks records about them (its `manifest.json`)."""
    return {"tool": "rue-verify reproduce", "version": package_version(), "definition": definition_hash(tasks, seed),
            "scale": scale, "seed": seed, "conventions": list(conventions), "tasks": len(tasks)}


def definition_hash(tasks: list[Task], seed: int) -> str:
    """A fingerprint of the grid and seed (a result directory belongs to one)."""
    return store_definition([t.key for t in tasks], seed)


def instance_means(task: Task, seed: int) -> np.ndarray:
    """The instances' means `(instances, K)`: R-instances drawn from the seed and the instance key,
    so every budget and algorithm of a reading sees the same instances; F-setups' fixed means."""
    if task.setup.startswith("F"):
        return fixed_means(task.setup, task.K)[None]
    normal_scale = task.normal_scale if task.normal_scale != "-" else "variance"
    means, _ = random_means(task.setup, task.K, stream(seed, "instances:" + task.instance_key), task.instances,
                            normal_scale, "redraw")
    return means


@dataclass
class Row:
    """One result: a task, what it found, and what produced it."""

    key: str
    study: str
    setup: str
    K: int
    budget: str
    n: int
    normal_scale: str
    H_convention: str
    algorithm: str
    label: str
    params: str                        # JSON of every parameter as run
    instances: int
    runs: int                          # per instance
    total_runs: int
    failures: int
    error_rate: float
    ci_low: float
    ci_high: float
    simple_regret: float
    regret_ci_low: float
    regret_ci_high: float
    per_instance_failures: str         # ';'-separated counts, instance order
    failure_bits: str                  # hex of numpy.packbits(failed), run order (instance-major)
    seed: int
    version: str
    wall_seconds: float
    extra: dict = field(default_factory=dict)

    def csv_row(self) -> dict:
        d = asdict(self)
        d.pop("extra")
        return d


COLUMNS = [f for f in Row.__dataclass_fields__ if f != "extra"]


def execute(task: Task, seed: int) -> dict:
    """Run one task; its CSV row as a dict (a module-level function, so Dask workers can run it)."""
    env = Environment(task.setup, task.K,
                      normal_scale=task.normal_scale if task.normal_scale != "-" else "variance")
    inst = instance_means(task, seed)
    means = np.repeat(inst, task.runs, axis=0)
    R = means.shape[0]
    gaussian = env.reward == "gaussian"
    nu = math.sqrt(env.nu_sq) if gaussian else 0.0
    seeds = run_seeds(seed, "algorithm:" + task.key, R)
    reward_seeds = run_seeds(seed, "rewards:" + task.setting, R)
    rec, _, shown, wall = run_algorithm(task.algorithm, dict(task.params), means, task.n, seeds, reward_seeds,
                                        gaussian, nu)
    failed, regret = outcomes(means, rec)
    ci = binomial_interval(int(failed.sum()), R, 0.95)
    rci = mean_interval(regret, 0.95)
    per_inst = failed.reshape(task.instances, task.runs).sum(axis=1)
    row = Row(task.key, task.study, task.setup, task.K, task.budget, task.n, task.normal_scale, task.H_convention,
              task.algorithm, task.label, json.dumps(shown, sort_keys=True), task.instances, task.runs, R,
              int(failed.sum()), ci.estimate, ci.low, ci.high, rci.estimate, rci.low, rci.high,
              ";".join(map(str, per_inst)), np.packbits(failed).tobytes().hex(), seed, package_version(),
              round(wall, 3))
    return row.csv_row()


def failures_of(row: dict) -> np.ndarray:
    """The per-run failure indicators of a row (run order)."""
    bits = np.unpackbits(np.frombuffer(bytes.fromhex(row["failure_bits"]), np.uint8))
    return bits[:int(row["total_runs"])].astype(bool)


def instance_errors(row: dict) -> np.ndarray:
    """Per-instance error rates of a row."""
    return np.array([int(x) for x in str(row["per_instance_failures"]).split(";")]) / int(row["runs"])


def variance_parts(row: dict) -> tuple[float, float]:
    """(between, within): the two parts of the variance of a random-study row's mean error over its
    instances, var_between / I and mean p(1 - p) / (I r), estimated from the per-instance rates
    (the within part unbiasedly, p(1 - p) r / (r - 1); the between part as the excess of the
    observed spread over it)."""
    p = instance_errors(row)
    inst, r = p.size, int(row["runs"])
    within = float(np.mean(p * (1 - p)) * r / (r - 1)) / (inst * r)
    total = float(p.var(ddof=1)) / inst
    return max(total - within, 0.0), within
