"""Throughput of the compiled kernels next to the plain numpy references: arm-rounds per second
(runs x budget x K / wall seconds), on the issue's standard configurations. First-call compile time
is reported separately (kernels are cached on disk after the first run). A host check before and
after the timings measures the core's vectorised division and square-root rates, which bound RUE and
which a shared virtual machine does not always deliver in full."""

from __future__ import annotations

import math
import time

import numba
import numpy as np
from numba import njit

from .algorithms import REGISTRY, get, rue
from .algorithms.sources import LiveSource
from .environments import fixed_means

CONFIGS = (("F2", 20, 7000, 1000), ("F4", 80, 50000, 100))
#: `bench --large-k`: RUE with known variances, the plain pass over every arm against the lazy argmax
#: (`rue_lazy`) and the tournament trees (`rue_heap`), at K from 20 to 1000 (`rue.LAZY_FROM` and the fixed
#: `rue.HEAP_FROM` were read off these rows; the trees' crossover is now measured per host, `rue.heap_from`,
#: and the bench names it and the default path's cost before and after), on F4's clustered means with
#: Bernoulli and with Gaussian rewards, and on means drawn from the model of Section 3 ("model": N(0, sigma0^2)
#: means, Gaussian rewards)
#: "F4:gaussian": F4's means with Gaussian rewards of sd 1/2 (a Bernoulli(1/2)'s). With Bernoulli rewards
#: arms pulled as often with as many successes have the same index to the bit: at K = 1000 dozens of them
#: tie at the top and the lazy path must evaluate them all (the plain kernel's tie rule counts them);
#: with Gaussian rewards no two indices tie.
#: The "model" rows at K = 40-160 straddle the window where the crossover is measured per host (`rue.heap_from`).
LARGE_K = (("F4", 20, 20000, 256), ("F4", 40, 20000, 256), ("F4", 80, 50000, 128), ("F4", 160, 50000, 64),
           ("F4", 320, 50000, 32), ("F4", 1000, 50000, 128), ("F4:gaussian", 20, 20000, 256),
           ("F4:gaussian", 320, 50000, 32), ("F4:gaussian", 1000, 50000, 128), ("model", 40, 50000, 128),
           ("model", 80, 50000, 128), ("model", 120, 50000, 128), ("model", 160, 50000, 64),
           ("model", 320, 50000, 32), ("model", 1000, 50000, 128))
GAUSSIAN_NU = 0.5
LARGE_K_NAMES = ("rue-known-plain", "rue-known-lazy", "rue-known-heap")

#: what the bench times: a label, the registry name and its parameters (every algorithm at its
#: defaults, and RUE with known variances too)
KNOWN = {"variances": "known", "sigma0_sq": 0.01, "sigma_sq": 0.25}
VARIANTS = {"rue": ("rue", {}), "rue-known": ("rue", KNOWN),
            **{name: (name, {}) for name in REGISTRY if name != "rue"}}
NAMES = tuple(VARIANTS)
#: RUE's argmax paths, forced (the kernel's `path`; not registry parameters)
PATHS = {f"rue-known-{p}": p for p in rue.PATHS}
VARIANTS.update({name: ("rue", KNOWN) for name in PATHS})


def _kernel_kwargs(label: str, mu: np.ndarray, n: int, gaussian: bool = False) -> dict:
    alg = get(VARIANTS[label][0])
    kw = alg.kernel_kwargs(alg.resolve(VARIANTS[label][1]), mu[None], n)
    return {**kw, "gaussian": True, "nu": GAUSSIAN_NU} if gaussian else kw


def _setup(setup: str) -> tuple[str, bool]:
    """A configuration's setup: the means' name (`fixed_means`, or "model") and whether rewards are
    Gaussian ("F4:gaussian", "model"; Bernoulli otherwise)."""
    name, _, rewards = setup.partition(":")
    if rewards not in ("", "gaussian"):
        raise ValueError(f"setup: the reward model after ':' must be 'gaussian', got {setup!r}")
    return name, rewards == "gaussian" or name == "model"


def _means(name: str, K: int) -> np.ndarray:
    """The means of a bench setup: F1..F6 (`fixed_means`), or "model": one draw (seed 0) from the
    model of Section 3 with the bench's known variances, mu_k ~ N(1/2, sigma0^2)."""
    if name == "model":
        rng = np.random.default_rng(np.random.SeedSequence(0))
        return 0.5 + math.sqrt(KNOWN["sigma0_sq"]) * rng.standard_normal(K)
    return fixed_means(name, K)


def _fast(label: str, means: np.ndarray, n: int, seeds: np.ndarray, reward_seeds: np.ndarray, kw: dict):
    kw = {k: float(np.ravel(v)[0]) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    if label in PATHS:
        return rue.batch(means, n, seeds, reward_seeds, path=PATHS[label], **kw)
    return get(VARIANTS[label][0]).batch(means, n, seeds, reward_seeds, **kw)


def evaluations_per_round(label: str, means: np.ndarray, n: int, seeds: np.ndarray, reward_seeds: np.ndarray,
                          kw: dict) -> dict:
    """RUE's work per round after the initial passes: exact index evaluations (K on the plain path),
    and on the tree path the re-keys (each a walk up both trees) and the share of rounds decided by
    the plain kernel's sums (near ties between different states)."""
    kw = {k: float(np.ravel(v)[0]) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    R, K = means.shape
    ev, st = np.zeros(R), np.zeros((R, 3))
    rue.batch(means, n, seeds, reward_seeds, path=PATHS.get(label), evaluated=ev, stats=st, **kw)
    rounds = max(n - 2 * K, 1)
    out = {"evaluations_per_round": float(ev.mean() / rounds)}
    if PATHS.get(label) == "heap":
        from .algorithms import rue_heap
        out["rekeys_per_round"] = float(st[:, rue_heap.REKEYS].mean() / rounds)
        out["plain_rounds_share"] = float(st[:, rue_heap.PLAIN_ROUNDS].mean() / rounds)
    return out


def _reference(label: str, mu: np.ndarray, n: int, rng: np.random.Generator, kw: dict):
    kw = {k: float(np.ravel(v)[0]) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    source = LiveSource(mu, rng, "gaussian", kw["nu"] ** 2) if kw.get("gaussian") else LiveSource(mu, rng)
    return get(VARIANTS[label][0]).reference(source, mu.size, n, **kw)


@njit(cache=True, error_model="numpy")
def _divide(x, y, reps):
    for r in range(reps):
        c = 1.0 + r * 1e-9
        for i in range(x.shape[0]):
            y[i] = c / x[i]
    return y[7]


@njit(cache=True, error_model="numpy")
def _square_root(x, y, reps):
    for r in range(reps):
        c = 1.0 + r * 1e-9
        for i in range(x.shape[0]):
            y[i] = math.sqrt(x[i] + c)
    return y[7]


def host_check(repeats: int = 5) -> dict:
    """The core's vectorised double-precision division and square-root throughput (values per
    second, best of `repeats`). RUE's per-arm work each round is one of each (the weight and the
    width), so 1 / (1/div + 1/sqrt) is a ceiling on its arm-rounds per second per core. On a shared
    virtual machine these rates vary between runs; the bench prints them before and after its
    timings so its figures can be read against the hardware they got."""
    x = np.linspace(1.0, 2.0, 256)
    y = np.empty_like(x)
    rates = {}
    for key, kernel in (("divisions_per_s", _divide), ("square_roots_per_s", _square_root)):
        kernel(x, y, 1)
        reps = 100000                  # about 20 ms a timing
        rates[key] = max(x.size * reps / _timed(kernel, x, y, reps) for _ in range(repeats))
    rates["rue_ceiling_per_s"] = 1.0 / (1.0 / rates["divisions_per_s"] + 1.0 / rates["square_roots_per_s"])
    return rates


def host_info() -> dict:
    """The CPU the figures were measured on: its model (from /proc/cpuinfo where there is one), the
    vector extensions that decide how wide the kernels' loops run, and the target LLVM compiled
    them for (numba's default: the host's own CPU)."""
    import llvmlite.binding as llvm

    from .algorithms.rue_crossover import cpu_model
    model = cpu_model()
    features = llvm.get_host_cpu_features()
    vector = [x for x in ("sse4.2", "avx", "avx2", "fma", "avx512f", "avx512vl") if features.get(x)]
    return {"cpu": model, "vector_extensions": vector, "llvm_target": numba.config.CPU_NAME or llvm.get_host_cpu_name()}


def host_info_line(info: dict) -> str:
    return (f"host: {info['cpu']}; vector extensions {' '.join(info['vector_extensions']) or 'none'}; "
            f"kernels compiled for {info['llvm_target']}")


def _timed(f, *args) -> float:
    t0 = time.perf_counter()
    f(*args)
    return time.perf_counter() - t0


def host_line(when: str, h: dict) -> str:
    return (f"host check ({when}): vectorised division {h['divisions_per_s'] / 1e6:.0f} M/s, square root "
            f"{h['square_roots_per_s'] / 1e6:.0f} M/s per core: RUE (one of each per arm-round) cannot exceed "
            f"{h['rue_ceiling_per_s'] / 1e6:.0f} M arm-rounds/s per core")


def _padding(name: str, runs: int) -> str:
    """RUE computes whole units of interleaved runs; say so where the timed work exceeds the runs."""
    padded = rue.padded_runs(runs)
    if name.startswith("rue") and padded != runs:
        return f" padded to {padded}"
    return ""


def bench(algorithms=NAMES, configs=CONFIGS, reference_seconds: float = 3.0, threads=(1, None),
          out=print, max_seconds: float = 20.0, repeats: int = 3, progress: bool = False) -> list[dict]:
    """Print and return one row per (configuration, algorithm, threads). Each compiled kernel is
    timed `repeats` times on the same runs; the row gives the best (other load on the machine can
    only slow a run down) and the slowest. The repeats are interleaved: each round times every
    kernel once, so a spell of outside load slows one timing of many kernels rather than every
    timing of one (the shared virtual machine behind docs/bench.txt has half-speed spells of 30-60 s).
    A slow kernel runs fewer than the configured runs, enough for about `max_seconds`; the row says
    how many. `progress` shows a bar (on stderr) over the timings."""
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    unknown = sorted(set(algorithms) - set(VARIANTS))
    if unknown:
        raise ValueError(f"algorithms: unknown {', '.join(unknown)}; choose from {', '.join(VARIANTS)}")
    rows = []
    cores = numba.config.NUMBA_NUM_THREADS
    out(f"machine: {cores} cores; numba {numba.__version__}; arm-rounds/s = runs x n x K / wall seconds; "
        f"compiled kernels: best of {repeats} interleaved timings (slowest in brackets)")
    info = host_info()
    out(host_info_line(info))
    rows.append({"impl": "host", **info, "cores": cores, "numba": numba.__version__})
    if any(name in PATHS for name in algorithms):     # RUE's paths forced: where this host's default turns
        rows.append(crossover_row())
        out(crossover_line(rows[-1]))
    before = host_check()
    out(host_line("before", before))
    rows.append({"impl": "host-check", "when": "before", **before})
    plan = []                             # (setup, K, n, mu, kw, means, seeds, name, runs, first-call seconds)
    for setup, K, n, R in configs:
        means_name, gaussian = _setup(setup)
        mu = _means(means_name, K)
        means = np.tile(mu, (R, 1))
        seeds = np.random.SeedSequence(0).generate_state(2 * R, dtype=np.uint64).reshape(2, R)   # algorithm, rewards
        for name in algorithms:
            kw = _kernel_kwargs(name, mu, n, gaussian)
            t0 = time.perf_counter()
            _fast(name, means[:1], n, seeds[0][:1], seeds[1][:1], kw)          # compile or load from cache
            compile_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            probe = min(R, rue.BLOCK)     # RUE interleaves runs in blocks: fewer would time a slow path
            _fast(name, means[:probe], n, seeds[0][:probe], seeds[1][:probe], kw)
            per_run = (time.perf_counter() - t0) / probe
            runs = int(min(R, max(probe, max_seconds / max(per_run, 1e-9))))
            if runs < R:                      # whole units, so no padded (uncounted) runs are timed
                runs = max(probe, runs - runs % rue.UNIT)
            plan.append((setup, K, n, mu, kw, means, seeds, name, runs, compile_s))
    walls = [{th: [] for th in threads} for _ in plan]
    from tqdm import tqdm
    with tqdm(total=repeats * len(plan) * len(threads), desc="bench timings", disable=not progress,
              leave=False, unit="timing") as bar:
        for _ in range(repeats):
            for (setup, K, n, mu, kw, means, seeds, name, runs, _), w in zip(plan, walls):
                for th in threads:
                    numba.set_num_threads(th or cores)
                    t0 = time.perf_counter()
                    _fast(name, means[:runs], n, seeds[0][:runs], seeds[1][:runs], kw)
                    w[th].append(time.perf_counter() - t0)
                    bar.update()
    numba.set_num_threads(cores)
    for (setup, K, n, mu, kw, means, seeds, name, runs, compile_s), w in zip(plan, walls):
        fast = [{"setup": setup, "K": K, "n": n, "runs": runs, "algorithm": name, "impl": "numba",
                 "threads": th or cores, "wall_s": min(w[th]), "arm_rounds_per_s": runs * n * K / min(w[th]),
                 "slowest_arm_rounds_per_s": runs * n * K / max(w[th]), "repeats": repeats,
                 "ns_per_round": min(w[th]) * 1e9 / (runs * n), "first_call_s": compile_s} for th in threads]
        rows.extend(fast)
        rng = np.random.default_rng(0)
        t0, done = time.perf_counter(), 0
        while done == 0 or time.perf_counter() - t0 < reference_seconds and done < len(means):
            _reference(name, mu, n, rng, kw)
            done += 1
        wall = time.perf_counter() - t0
        rows.append({"setup": setup, "K": K, "n": n, "runs": done, "algorithm": name, "impl": "numpy-reference",
                     "threads": 1, "wall_s": wall, "arm_rounds_per_s": done * n * K / wall, "first_call_s": 0.0})
        share = ""
        if VARIANTS[name][0] == "rue":        # the plain path: one division and one square root per arm-round
            probe = min(runs, rue.BLOCK)
            work = evaluations_per_round(name, means[:probe], n, seeds[0][:probe], seeds[1][:probe], kw) \
                if VARIANTS[name][1].get("variances") == "known" else {"evaluations_per_round": float(K)}
            for r in fast:
                r["ceiling_share"] = r["arm_rounds_per_s"] / (r["threads"] * before["rue_ceiling_per_s"])
                r.update(work)
            share = (f"  x1 at {fast[0]['ceiling_share']:.0%} of the ceiling, "
                     f"{work['evaluations_per_round']:.2f} indices evaluated a round")
            if "rekeys_per_round" in work:
                share += (f", {work['rekeys_per_round']:.2f} re-keys a round, "
                          f"{work['plain_rounds_share']:.1e} of rounds by the plain sums")
        out(f"{setup} K={K} n={n} {name:<10} " + "  ".join(
            f"numba x{r['threads']}: {r['arm_rounds_per_s'] / 1e6:8.1f} M/s "
            f"({r['slowest_arm_rounds_per_s'] / 1e6:.0f})" for r in fast)
            + f"  numpy reference: {rows[-1]['arm_rounds_per_s'] / 1e6:7.3f} M/s"
            + f"  (runs {runs}{_padding(name, runs)}, first call {compile_s:.2f} s)" + share)
    after = host_check()
    out(host_line("after", after))
    rows.append({"impl": "host-check", "when": "after", **after})
    for line in crossover_table(rows):
        out(line)
    return rows


def crossover_row() -> dict:
    """Where RUE's known-variance runs take the trees on this host (`rue.heap_from`), for long runs and for
    short ones, and the timings it was read off (measured here now, or read from their cache beside numba's
    kernels)."""
    from .algorithms import rue_crossover as C
    t0 = time.perf_counter()
    ns = C.timings(rue.batch, rue.block_for)
    seconds = time.perf_counter() - t0
    return {"impl": "crossover", "heap_from": rue.heap_from(), "heap_from_short": rue.heap_from(n=C.SHORT_ROUNDS),
            "rounds": [C.HEAP_ROUNDS, C.SHORT_ROUNDS], "fixed_heap_from": rue.HEAP_FROM,
            "window": [rue.HEAP_MIN, rue.HEAP_MAX], "seconds": seconds, "ns_per_round": ns}


def crossover_line(row: dict) -> str:
    ns = row["ns_per_round"]
    ks = sorted(next(iter(ns.values())), key=int) if ns else []
    order = sorted(ns or {}, key=lambda what: what != "lazy")            # the lazy pass first, then the trees
    timed = "" if not ns else f"; its timings (ns a round, one thread, K = {' / '.join(ks)}): " + ", ".join(
        f"{what} {' / '.join(f'{ns[what][k]:.0f}' for k in ks)}" for what in order)
    long, short = row["rounds"]
    low, high = row["window"]
    return (f"RUE's trees on this host from K = {row['heap_from']} for runs of {long:,} rounds, "
            f"{row['heap_from_short']} for runs of {short:,} (timed, or read from the cache beside numba's kernels, "
            f"in {row['seconds']:.2f} s; lazy below K = {low}, trees from {high} on every host; before: trees from "
            f"HEAP_FROM = {row['fixed_heap_from']}){timed}")


def crossover_table(rows: list[dict]) -> list[str]:
    """Where the bench timed all three of RUE's paths at one (setup, K, n): ns a round of each (one thread), and
    the path the default takes before (the fixed HEAP_FROM) and after (this host's crossover for the row's
    budget) with its cost."""
    one = {}
    for r in rows:
        if r.get("impl") == "numba" and r["algorithm"] in PATHS and r["threads"] == 1:
            one.setdefault((r["setup"], r["K"], r["n"]), {})[PATHS[r["algorithm"]]] = r["ns_per_round"]
    timed = {key: ns for key, ns in one.items() if len(ns) == len(rue.PATHS)}
    if not timed or not any(r.get("impl") == "crossover" for r in rows):
        return []
    out = [f"ns a round, one thread (plain / lazy / trees); the default path before (trees from K = {rue.HEAP_FROM}) "
           f"and after (trees from this host's crossover at the row's budget, K = its value):"]
    for (setup, K, n), ns in timed.items():
        old = "plain" if K < rue.LAZY_FROM else "lazy" if K < rue.HEAP_FROM else "heap"
        new = rue.argmax_path(K, "known", False, n=n)
        cross = rue.heap_from(n=n, K=K)
        out.append(f"  {setup:<12} K = {K:<5} n = {n:<6} {ns['plain']:8.1f} / {ns['lazy']:7.1f} / {ns['heap']:6.1f}"
                   f"   before {old:<5} {ns[old]:7.1f}   after {new:<5} {ns[new]:7.1f}  (K = {cross})"
                   + ("" if new == old else f"   {ns[old] / ns[new]:.2f}x"))
    return out


#: `python -m simulate.bench --crossover`: K and budgets (rounds past the initial passes) of the grid
GRID_K = (32, 64, 100, 150, 200, 256, 320, 1000)
GRID_ROUNDS = (2000, 5000, 20000, 100000)


def crossover_grid(ks=GRID_K, budgets=GRID_ROUNDS, out=print, max_work: float = 4e9) -> list[dict]:
    """ns a round (CPU time of one thread, best of 2-3; `rue_crossover.cpu_seconds`) of RUE's three paths with
    known variances, per K and budget, each run's means drawn from the model of Section 3 (the calibration's
    setup), and the path the default takes before (the fixed HEAP_FROM) and after (this host's crossover for the
    budget). The plain and lazy paths run one block of runs (`rue.block_for(K)`), the trees enough runs for about
    400,000 rounds (4-64); a path whose timing would exceed `max_work` arm-rounds is left out ("-")."""
    from .algorithms import rue_crossover as C
    numba_threads = numba.get_num_threads()
    kw = {"gaussian": True, "nu": math.sqrt(C.SIGMA_SQ), "variances": "known", "sigma0_sq": C.SIGMA0_SQ,
          "sigma_sq": C.SIGMA_SQ}
    info = host_info()
    out(host_info_line(info))
    row = crossover_row()
    out(crossover_line(row))
    out("ns a round (CPU time, one thread): plain / lazy / trees; the default before (trees from K = "
        f"{rue.HEAP_FROM}) and after (this host's crossover at the budget)")
    rows = [{"impl": "host", **info}, row]
    try:
        numba.set_num_threads(1)
        for K in ks:
            for rounds in budgets:
                ns = {}
                for path in rue.PATHS:
                    runs = rue.block_for(K) if path != "heap" else max(4, min(64, int(4e5 // rounds)) // 4 * 4)
                    if K * runs * rounds > max_work:
                        continue
                    rng = np.random.default_rng(np.random.SeedSequence([K, rounds]))
                    means = 0.5 + math.sqrt(C.SIGMA0_SQ) * rng.standard_normal((runs, K))
                    seeds = rng.integers(0, 2 ** 63, (2, runs)).astype(np.uint64)
                    rue.batch(means[:1], 2 * K + 10, seeds[0][:1], seeds[1][:1], path=path, **kw)
                    best = math.inf
                    for _ in range(2 if path == "plain" else 3):
                        t = C.clocks()
                        rue.batch(means, 2 * K + rounds, seeds[0], seeds[1], path=path, **kw)
                        best = min(best, C.cpu_seconds(t, C.clocks()) * 1e9 / (runs * rounds))
                    ns[path] = best
                old = "plain" if K < rue.LAZY_FROM else "lazy" if K < rue.HEAP_FROM else "heap"
                new = rue.argmax_path(K, "known", False, n=2 * K + rounds)
                rows.append({"impl": "grid", "K": K, "rounds": rounds, "ns_per_round": ns, "before": old, "after": new,
                             "crossover": rue.heap_from(n=2 * K + rounds, K=K)})
                cell = " / ".join(f"{ns[p]:7.1f}" if p in ns else f"{'-':>7}" for p in rue.PATHS)
                change = ""
                if old in ns and new in ns:
                    change = f"   before {old:<5} {ns[old]:7.1f}   after {new:<5} {ns[new]:7.1f}"
                    change += f"   {ns[old] / ns[new]:.2f}x" if new != old else ""
                out(f"  K = {K:<5} rounds = {rounds:<6} {cell}{change}  (crossover {rows[-1]['crossover']})")
    finally:
        numba.set_num_threads(numba_threads)
    return rows


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(prog="python -m simulate.bench", description="RUE's argmax paths against K and "
                                     "the budget, and where this host's default turns (`crossover_grid`)")
    parser.add_argument("--crossover", action="store_true", required=True)
    parser.add_argument("--k", type=lambda x: [int(v) for v in x.split(",")], default=list(GRID_K))
    parser.add_argument("--rounds", type=lambda x: [int(float(v)) for v in x.split(",")], default=list(GRID_ROUNDS))
    args = parser.parse_args()
    crossover_grid(args.k, args.rounds)
