"""The runner: R replicate runs of one or more algorithms on one environment and budget.

Reproducibility: one integer seed. `SeedSequence(seed)` spawns a stream for the environment's means
(random setups) and, per algorithm, a stream whose `generate_state(R)` gives one 32-bit seed per
run; each run reseeds the compiled kernel's generator, so results do not depend on the number of
worker threads or on how runs are chunked. With `crn=True` every algorithm gets the same per-run
seeds (common random numbers). Results carry exact binomial intervals for the error rate and
t-intervals for the simple regret, plus the parameters, seed and package version.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Iterable

import numba
import numpy as np

from .algorithms import rue, sequential_halving, successive_rejects, ttts, two_stage, ucbe, uniform
from .environments import Environment, complexity_H, parse_budget
from .stats import Interval, binomial_interval, mean_interval

ALGORITHMS = ("rue", "ucbe", "sr", "sh", "ttts", "two-stage", "uniform")


@dataclass
class AlgorithmResult:
    algorithm: str
    runs: int
    failures: int
    error_rate: float
    ci_low: float
    ci_high: float
    simple_regret: float
    regret_ci_low: float
    regret_ci_high: float
    mean_pulls: list
    wall_seconds: float
    params: dict = field(default_factory=dict)


@dataclass
class SimulationResult:
    environment: dict
    budget: int
    seed: int
    runs: int
    level: float
    crn: bool
    version: str
    results: list
    clipped_means: int = 0

    def to_json(self) -> dict:
        d = asdict(self)
        return d


def _chunk_edges(runs: int, chunks: int, threads: int) -> np.ndarray:
    """Up to `chunks` chunks (progress updates), each a whole number of rue.BLOCK runs per thread
    except the last, so the interleaved RUE kernel runs full vector blocks on every thread instead
    of padding many small chunks."""
    quantum = rue.BLOCK * max(threads, 1)
    step = max(quantum, -(-runs // max(chunks, 1) // quantum) * quantum)
    return np.array(sorted(set(range(0, runs, step)) | {runs}), int)


def _kernel(name: str, params: dict, env: Environment, n: int, means: np.ndarray):
    gaussian = env.reward == "gaussian"
    nu = math.sqrt(env.nu_sq) if gaussian else 0.0
    if name == "rue":
        mode = rue.ESTIMATORS[params.get("variances", "authors")]
        s0, s = params.get("sigma0_sq", 1.0), params.get("sigma_sq", 1.0)
        return lambda m, seeds, lo: rue.batch(m, n, gaussian, nu, seeds, mode, s0, s)
    if name == "ucbe":
        c = params.get("c", 2.0)
        conv = params.get("H_convention", "suboptimal")
        if env.random:
            a_runs = np.array([c * n / complexity_H(row, conv) for row in means])
        else:
            params["a"] = c * n / complexity_H(env.fixed(), conv)
            a_runs = np.full(len(means), params["a"])
        return lambda m, seeds, lo: ucbe.batch(m, n, gaussian, nu, seeds, a_runs[lo:lo + len(seeds)])
    if name == "sr":
        return lambda m, seeds, lo: successive_rejects.batch(m, n, gaussian, nu, seeds)
    if name == "sh":
        return lambda m, seeds, lo: sequential_halving.batch(m, n, gaussian, nu, seeds)
    if name == "ttts":
        return lambda m, seeds, lo: ttts.batch(m, n, gaussian, nu, seeds)
    if name == "two-stage":
        q = params.get("q", 0.5)
        if not 0.0 < q < 1.0:
            raise ValueError(f"q (the two-stage algorithm's stage-1 fraction) must be in (0, 1), got {q}")
        return lambda m, seeds, lo: two_stage.batch(m, n, gaussian, nu, seeds, q)
    if name == "uniform":
        return lambda m, seeds, lo: uniform.batch(m, n, gaussian, nu, seeds)
    raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {name!r}")


def simulate(env: Environment, algorithms: Iterable[str | tuple[str, dict]], budget: int | str, runs: int = 1000,
             seed: int = 0, *, workers: int | None = None, crn: bool = False, level: float = 0.95,
             H_convention: str = "suboptimal", progress: bool = True, chunks: int = 20) -> SimulationResult:
    """Run every algorithm `runs` times on `env` with budget `budget` (an integer or 'H/2', 'H', '2H').

    Args:
        algorithms: names from ALGORITHMS, or (name, params) pairs, e.g. ('rue', {'variances':
            'unbiased'}), ('ucbe', {'c': 2}), ('two-stage', {'q': 0.3}).
        workers: threads for the compiled kernels (default: every core). Results do not depend on it.
        crn: common random numbers: the same per-run seeds for every algorithm.
    """
    from rue_verify import __version__
    if runs < 1:
        raise ValueError(f"runs must be >= 1, got {runs}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    n = parse_budget(budget, env, H_convention)
    algs = [(a, {}) if isinstance(a, str) else (a[0], dict(a[1])) for a in algorithms]
    for a, _ in algs:
        if a not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {a!r}")
    old = numba.get_num_threads()
    numba.set_num_threads(workers or numba.config.NUMBA_NUM_THREADS)
    root = np.random.SeedSequence(seed)
    env_ss, *alg_ss = root.spawn(1 + len(ALGORITHMS))
    means, clipped = env.means_for_runs(runs, np.random.default_rng(env_ss))
    best = means.argmax(axis=1)
    out = []
    try:
        from tqdm import tqdm
        for a, params in algs:
            ss = alg_ss[0] if crn else alg_ss[ALGORITHMS.index(a)]
            seeds = ss.generate_state(runs, dtype=np.uint32)
            params = dict(params)
            kern = _kernel(a, params, env, n, means)
            rec = np.empty(runs, np.int64)
            pulls = np.empty((runs, env.K))
            edges = _chunk_edges(runs, chunks, numba.get_num_threads())
            t0 = time.perf_counter()
            bar = tqdm(total=runs, desc=f"{a} n={n}", disable=not progress, leave=False, unit="run")
            for lo, hi in zip(edges[:-1], edges[1:]):
                rec[lo:hi], pulls[lo:hi] = kern(np.ascontiguousarray(means[lo:hi]), seeds[lo:hi], lo)
                bar.update(hi - lo)
            bar.close()
            wall = time.perf_counter() - t0
            fails = int(np.sum(rec != best))
            ci = binomial_interval(fails, runs, level)
            regret = means[np.arange(runs), best] - means[np.arange(runs), rec]
            rci = mean_interval(regret, level) if runs > 1 else Interval(float(regret[0]), float("nan"), float("nan"), level)
            out.append(AlgorithmResult(a, runs, fails, ci.estimate, ci.low, ci.high, rci.estimate, rci.low,
                                       rci.high, pulls.mean(axis=0).round(3).tolist(), round(wall, 4), params))
    finally:
        numba.set_num_threads(old)
    return SimulationResult(env.describe(), n, seed, runs, level, crn, __version__, out, clipped)
