"""The runner: R replicate runs of one or more algorithms on one environment and budget.

Reproducibility: one integer seed. `SeedSequence(seed)` derives, by spawn keys named after what they
seed, a stream for the environment's means (random setups), and per algorithm (keyed by its name,
so adding an algorithm changes no other's results) one 64-bit algorithm seed and one reward seed
per run (`simulate.algorithms.sources`). With `crn=True` every algorithm gets the same reward seeds:
run r's j-th pull of arm k has the same reward under every algorithm that draws its rewards one at a
time (common random numbers; the phase algorithms draw a Gaussian phase's sum at once,
`sources.phase_sum`, so they share rewards with each other only where their phases match).
Results do not depend on the number of threads or on how runs are chunked. They carry exact
binomial intervals for the error rate and t-intervals for the simple regret, plus the parameters,
seed and package version.
"""

from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterable

import numba
import numpy as np

from . import seeds as named_streams
from .algorithms import REGISTRY, get, rue
from .cost import Cost, check_memory, estimate
from .environments import Environment, parse_budget
from .stats import Interval, binomial_interval, mean_interval
from .version import package_version

ALGORITHMS = tuple(REGISTRY)


run_seeds = named_streams.run_seeds        # `runs` 64-bit seeds named `key` under `seed`


def outcomes(means: np.ndarray, recommended: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What a batch of runs got: per run, whether the recommended arm is not a best arm (its mean is
    below the largest: with tied best arms, recommending any of them is a success) and its simple
    regret, mu* - mu_J (so a run fails exactly when its regret is positive).

    Args:
        means: the runs' true means, `(R, K)`.
        recommended: each run's recommended arm, `(R,)` integers in [0, K).

    Returns:
        A pair of `(R,)` arrays: booleans (the run failed) and floats (its simple regret).
    """
    means = np.asarray(means, float)
    rows = np.arange(means.shape[0])
    regret = means.max(axis=1) - means[rows, recommended]
    return regret > 0, regret          # with tied best arms, any of them is right (and has no regret)


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
    budget_label: str = ""          # 'H/2', 'H' or '2H' when the budget was given relative to H
    H_convention: str = "suboptimal"

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


def _check_int(name: str, value, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer in [{low}, {high}], got {value!r}")


def run_algorithm(name: str, params: dict, means: np.ndarray, n: int, seeds: np.ndarray, reward_seeds: np.ndarray,
                  gaussian: bool, nu: float, *, chunks: int = 20, progress: bool = False,
                  sums: np.ndarray | None = None):
    """Runs r = 0..R-1 of an algorithm on means[r], each with its own seeds, in chunks of whole
    interleaved blocks (a progress bar moves per chunk).

    Args:
        name: the algorithm's registry name (or an outside algorithm's spec, `module:NAME`).
        params: its resolved parameters.
        means: the runs' true means, `(R, K)`.
        n: the budget, at least the algorithm's smallest.
        seeds: each run's 64-bit algorithm seed, `(R,)`.
        reward_seeds: each run's 64-bit reward seed, `(R,)` (the same across algorithms for common
            random numbers).
        gaussian: Gaussian rewards (True, of standard deviation `nu`) or Bernoulli (False).
        nu: the Gaussian rewards' standard deviation, one number or a `(K,)` array of one per arm (where the
            algorithm allows it: `Algorithm.one_nu`); ignored for Bernoulli.
        chunks: how many pieces the runs are split into (for progress and interruption).
        progress: show a progress bar.
        sums: an `(R, K)` float array to fill with each run's reward sums per arm (what a posterior
            needs beside the pulls), kept by the kernel as it draws them where the entry
            `collects_sums`, else replayed (`spec`); None: not wanted.

    Returns:
        (recommended arms `(R,)`, pulls `(R, K)`, the parameters as run, wall seconds); the parameters
        include what the kernel was told where it is one number (UCB-E's a).
    """
    from tqdm import tqdm
    alg = get(name)
    runs, K = means.shape
    kw = alg.kernel_kwargs(params, means, n)
    rec = np.empty(runs, np.int64)
    pulls = np.empty((runs, K))
    edges = _chunk_edges(runs, chunks, numba.get_num_threads())
    t0 = time.perf_counter()
    bar = tqdm(total=runs, desc=f"{name} n={n}", disable=not progress, leave=False, unit="run")
    threads = numba.get_num_threads()

    if sums is not None and not (isinstance(sums, np.ndarray) and sums.shape == (runs, K)):
        raise ValueError(f"sums must be an array of shape ({runs}, {K}) (runs, K), got "
                         f"{getattr(sums, 'shape', type(sums).__name__)}")

    def chunk(lo, hi):
        numba.set_num_threads(threads)          # numba's thread count is per calling thread
        part = {k: v[lo:hi] if isinstance(v, np.ndarray) and v.shape[:1] == (runs,) else v for k, v in kw.items()}
        if sums is not None:
            part["sums"] = sums[lo:hi]          # rows of a C-contiguous array: a C-contiguous view
        return alg.batch(np.ascontiguousarray(means[lo:hi]), n, seeds[lo:hi], reward_seeds[lo:hi], gaussian=gaussian,
                         nu=nu, **part)
    for lo, hi in zip(edges[:-1], edges[1:]):
        rec[lo:hi], pulls[lo:hi] = interruptible(chunk, lo, hi)
        bar.update(hi - lo)
    bar.close()
    shown = dict(params)
    for k, v in kw.items():
        if k not in shown and np.unique(v).size == 1:
            shown[k] = float(np.ravel(v)[0])
    return rec, pulls, shown, time.perf_counter() - t0


_RUNNING: set[threading.Thread] = set()


def interruptible(fn, *args):
    """Run `fn(*args)` in a helper thread while this one waits, so that Ctrl-C (delivered to the main
    thread) interrupts a compiled kernel that runs for hours (the kernels release the GIL). On an
    interrupt the helper is left running; `kernel_running()` tells a caller that exits whether one is.

    Args:
        fn: the function to run (a compiled kernel's driver).
        *args: its positional arguments.

    Returns:
        What `fn` returns.
    """
    box: dict = {}

    def target():
        try:
            box["value"] = fn(*args)
        except BaseException as err:    # noqa: BLE001 -- handed to the waiting thread
            box["error"] = err
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    t = threading.Thread(target=target, name="rue-verify kernel", daemon=True)
    _RUNNING.add(t)
    t.start()
    while t.is_alive():
        t.join(0.2)
    _RUNNING.discard(t)
    if "error" in box:
        raise box["error"]
    return box["value"]


def kernel_running() -> bool:
    """Whether a kernel started by `interruptible` is still running (after an interrupt)."""
    return any(t.is_alive() for t in _RUNNING)


def rue_under_the_model(means: np.ndarray, n: int, sigma0_sq: float, sigma_sq: float, nu: float,
                        seeds: np.ndarray, reward_seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """RUE as Theorems 5.1 and 5.2 run it: told the variances, on Gaussian rewards.

    Args:
        means: the runs' true means, `(R, K)`.
        n: the budget, an integer >= 2K.
        sigma0_sq: the prior variance RUE is told, > 0.
        sigma_sq: the reward variance RUE is told, > 0.
        nu: the rewards' true standard deviation, > 0 (nu^2 = delta sigma^2 under the theorems).
        seeds: each run's 64-bit algorithm seed, `(R,)` (its ties).
        reward_seeds: each run's 64-bit reward seed, `(R,)`.

    Returns:
        (recommended arms `(R,)`, pulls `(R, K)`).
    """
    rec, pulls, _, _ = run_algorithm("rue", {"variances": "known", "sigma0_sq": sigma0_sq, "sigma_sq": sigma_sq},
                                     means, n, seeds, reward_seeds, True, nu)
    return rec, pulls


def ucbe_with_exploration(means: np.ndarray, n: int, a: float, seed: int, key: str) -> np.ndarray:
    """UCB-E (Audibert et al. 2010, as Section 2 states it) at the exploration `a` given directly, on
    Bernoulli rewards: the compiled kernel of `simulate.algorithms.ucbe` (the one UCB-E of the project,
    which Section 2's claim and its figure both run).

    Args:
        means: the runs' true means, `(R, K)` in [0, 1].
        n: the budget, an integer >= K.
        a: the exploration parameter, > 0.
        seed: the root seed.
        key: the simulation's name under it (the runs' algorithm and reward seeds are spawned from it).

    Returns:
        The recommended arms, `(R,)`.
    """
    runs = means.shape[0]
    rec, _, _, _ = run_algorithm("ucbe", {"c": float(a), "a_form": "c", "H_convention": "section2"}, means, n,
                                 named_streams.run_seeds(seed, f"ucbe:{key}", runs),
                                 named_streams.run_seeds(seed, f"rw:{key}", runs), False, 0.0)
    return rec


def simulate(env: Environment, algorithms: Iterable[str | tuple[str, dict]], budget: int | str, runs: int = 1000,
             seed: int = 0, *, workers: int | None = None, crn: bool = False, level: float = 0.95,
             H_convention: str = "suboptimal", progress: bool = True, chunks: int = 20,
             announce: Callable[[Cost], None] | None = None) -> SimulationResult:
    """Run every algorithm `runs` times on `env` with budget `budget` (an integer or 'H/2', 'H', '2H').

    Args:
        algorithms: names from ALGORITHMS, or (name, params) pairs, e.g. ('rue', {'variances':
            'unbiased'}), ('ucbe', {'c': 2}), ('two-stage', {'q': 0.3}).
        workers: threads for the compiled kernels (default: every core). Results do not depend on it.
        crn: common random numbers: the same reward seeds for every algorithm.
        H_convention: the H of relative budgets, and of UCB-E's a unless its parameters say.
        announce: called before any run with the request's `cost.Cost` (its wall time measured by a
            pilot when the request is large); runs whose arrays would not fit in memory are refused.
    """
    _check_int("runs", runs, 1, 10 ** 8)
    _check_int("seed", seed, 0, 2 ** 63 - 1)
    _check_int("chunks", chunks, 1, 10 ** 6)
    if workers is not None:
        _check_int("workers", workers, 1, 1024)
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ValueError(f"level must be a number in (0, 1), got {level!r}")
    if not isinstance(env, Environment):
        raise ValueError(f"env must be an Environment, got {type(env).__name__}")
    n = parse_budget(budget, env, H_convention)
    plan = []
    for a in algorithms:
        name, params = (a, {}) if isinstance(a, str) else (a[0], dict(a[1]))
        alg = get(name)
        if any(p.name == "H_convention" for p in alg.params):
            params.setdefault("H_convention", H_convention)
        params = alg.resolve(params)
        alg.check_budget(n, env.K, params)
        if env.reward == "gaussian" and env.per_arm_noise:       # refused before any algorithm runs
            alg.per_arm_nu(env.noise_sd(), env.K, True, params)
        plan.append((alg, params))
    check_memory(runs, env.K)
    gaussian = env.reward == "gaussian"
    old = numba.get_num_threads()
    numba.set_num_threads(workers or numba.config.NUMBA_NUM_THREADS)
    if announce:
        try:
            announce(estimate([(alg.name, params, env.K, n, runs) for alg, params in plan],
                              lambda name, params, K, n: pilot_rate(name, params, K, n, gaussian),
                              work=lambda name, K, n: get(name).arm_rounds(n, K, gaussian)))
        except BaseException:
            numba.set_num_threads(old)
            raise
    means, clipped = env.means_for_runs(runs, named_streams.stream(seed, 0))
    nu = env.noise_sd() if gaussian else 0.0         # one sd, or one per arm (an array)
    out = []
    try:
        for alg, params in plan:
            seeds = run_seeds(seed, "algorithm:" + alg.name, runs)
            reward_seeds = run_seeds(seed, "rewards" if crn else "rewards:" + alg.name, runs)
            rec, pulls, shown, wall = run_algorithm(alg.name, params, means, n, seeds, reward_seeds, gaussian, nu,
                                                    chunks=chunks, progress=progress)
            failed, regret = outcomes(means, rec)
            fails = int(failed.sum())
            ci = binomial_interval(fails, runs, level)
            rci = mean_interval(regret, level) if runs > 1 else Interval(float(regret[0]), float("nan"),
                                                                           float("nan"), level)
            out.append(AlgorithmResult(alg.name, runs, fails, ci.estimate, ci.low, ci.high, rci.estimate, rci.low,
                                       rci.high, pulls.mean(axis=0).round(3).tolist(), round(wall, 4), shown))
    finally:
        numba.set_num_threads(old)
    label = budget if isinstance(budget, str) and not str(budget).isdigit() else ""
    return SimulationResult(env.describe(), n, seed, runs, level, crn, package_version(), out, clipped, label,
                            H_convention)


def pilot_rate(name: str, params: dict, K: int, n: int, gaussian: bool = True) -> float:
    """Work per second of an algorithm on K arms, measured now: a warm-up call (loading the compiled
    kernel), then 16 runs at a budget of about 2e7 / (16 K) rounds (at most n), on the request's reward
    law (the phase algorithms draw a Gaussian phase's sum at once, a Bernoulli one reward by reward).

    Args:
        name: the algorithm's registry name.
        params: its resolved parameters (`Algorithm.resolve`).
        K: the number of arms.
        n: the request's budget (the pilot's is at most this).
        gaussian: Gaussian rewards (else Bernoulli).

    Returns:
        Work units per second (runs x `Algorithm.arm_rounds` / wall seconds; arm-rounds, runs x
        rounds x K, for every algorithm that draws its rewards one at a time).
    """
    alg = get(name)
    runs = 16
    n_pilot = int(min(n, max(alg.min_budget(K, params), 100 * K, 2e7 // (runs * K))))
    means = np.tile(np.linspace(0.0, 1.0, K), (runs, 1))
    seeds = run_seeds(0, "pilot", runs)
    nu = 1.0 if gaussian else 0.0
    run_algorithm(name, params, means[:1], n_pilot, seeds[:1], seeds[:1], gaussian, nu)
    t0 = time.perf_counter()
    run_algorithm(name, params, means, n_pilot, seeds, seeds, gaussian, nu)
    return runs * alg.arm_rounds(n_pilot, K, gaussian) / max(time.perf_counter() - t0, 1e-9)
