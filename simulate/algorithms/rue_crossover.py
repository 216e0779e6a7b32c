"""Where RUE's argmax with known variances turns from the lazy pass (`rue_lazy`) to the tournament trees
(`rue_heap`) on this host: measured once (about a second of one thread, half of it loading both kernels) and
kept beside numba's compiled kernels.

Why a measurement. The lazy pass costs about a + b K a round (two passes of multiply-adds over the arms,
vectorised across a block of runs); the trees cost about the same whatever K (a serial chain: a few index
evaluations and walks up log2 K levels, one run at a time). Where the two meet depends on the core: K = 160 on
the AMD EPYC (znver5) host for runs of 50,000 rounds; on the Intel Xeon host about 90 for runs of 100,000
rounds, 150 for 20,000 and 260-300 for 2,000 (docs/bench.txt, `python -m simulate.bench --crossover`). So it
depends on the budget too: the trees' cost a round falls as a run goes on (fewer arms evaluated once the top
settles: at K = 100 on the Intel host 210 ns a round of CPU over 2,000 rounds, 76 over 100,000), the lazy
pass's less (119 to 81). The paths make the same pulls and recommendations to the bit
(tests/simulate/test_rue_heap.py, test_rue_lazy.py, test_rue_crossover.py), so the crossover decides speed
only: a calibration taken under load, a stale or missing cache or a forced value can never change a result.

The calibration (`measure`): one thread, each run's means drawn from the model of Section 3 (as the bench's
"model" setup: N(1/2, 0.01) means, Gaussian rewards of sd 1/2, known variances), at K = 64 and 192: the lazy
path on one block of runs (`rue.block_for(K)` runs, `LAZY_ROUNDS` rounds past the initial passes), the trees on
`HEAP_RUNS` runs of `HEAP_ROUNDS` rounds and on `SHORT_RUNS` of `SHORT_ROUNDS`, best of `REPEATS` interleaved
timings of CPU time, not wall time (`cpu_seconds`: on the shared Intel host, under a load of 4 on 2 cores, the
wall time of one call varied by 30-50% and its CPU time by 1-3%). The lazy cost is fitted as a + b K through its
two points; the trees' as linear in log K above the first point and flat below it (at K = 24-64 they cost the
same on the Intel host, 85-100 ns a round), and linear in the log of the run's rounds between the two budgets
(flat outside them: longer runs are charged as HEAP_ROUNDS, a little against the trees). The lazy pass is timed
over LAZY_ROUNDS only, and its cost falls too in longer runs (20-30% from 2,000 to 100,000 rounds on the Intel
host: fewer rounds rescan the arms), so for runs of 20,000-100,000 rounds the crossover comes out below where
the two paths meet (75-90 against 90-150 there), where the trees cost up to about 20% more; timing the lazy pass
over long runs would triple the calibration. A call's crossover (`crossover`) is the smallest K in [HEAP_MIN,
HEAP_MAX] where the trees cost no more at its budget, HEAP_MAX where they do not meet. Outside that window no
host measured differs: the lazy pass below HEAP_MIN (the trees 1.5-3x slower at K = 20-40 on both), the trees
from HEAP_MAX (2-3x faster at K = 320 on both).

The cache: `rue_argmax-<key>.json` in the directory numba keeps `rue_heap`'s compiled kernels in (beside the
module, or the user's cache directory where that is read-only, or under NUMBA_CACHE_DIR where set: numba's own
choice), keyed by the CPU (its model, the LLVM target and features numba compiles for), numba's version and the
source of the kernels timed (this module's included, so a change to the sizes measures again). It is written
whole (a temporary file renamed over it); a file that cannot be read or parsed, or holds another key or
timings that are not finite and positive, is ignored and measured afresh.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

#: below HEAP_MIN arms the lazy pass is taken, from HEAP_MAX the trees, on every host (no calibration)
HEAP_MIN = 32
HEAP_MAX = 320
#: a call of fewer arm-rounds (runs x n x K) than this does not wait for a calibration: it takes the crossover
#: already known on this host (in this process or in the cache), else the fixed `rue.HEAP_FROM`. About 2-3 s of
#: the lazy path at K = 100 on one core of either host: past it a calibration (about a second of one thread, half
#: of it loading both kernels; once per host and kernel source) pays for itself near the crossover, below it a
#: wrong side costs less than measuring
CALIBRATE_WORK = 2e9
#: the calibration's points and sizes (module docstring)
POINTS = (64, 192)
LAZY_ROUNDS = 2000
HEAP_ROUNDS, HEAP_RUNS = 40000, 8
SHORT_ROUNDS, SHORT_RUNS = 2000, 48      # short runs' cost varies most from one draw of the means to another
REPEATS = 2
SIGMA0_SQ, SIGMA_SQ = 0.01, 0.25
#: the timings `measure` returns, each {str(K): ns a round} over POINTS: the lazy pass, the trees over HEAP_ROUNDS
#: and over SHORT_ROUNDS
TIMINGS = ("lazy", "heap", "heap_short")
#: the files whose code the timings measure: a change to any of them measures again
SOURCES = ("rue_crossover.py", "rue_lazy.py", "rue_heap.py", "rue_index.py", "rue_recommend.py", "sources.py")
PREFIX = "rue_argmax-"

_lock = threading.Lock()
_known: dict[str, dict | None] = {}     # key -> timings, this process (None: its measurement failed)
_key: list[str] = []


def host_key() -> str:
    """The cache's key: the CPU (model name, the LLVM target and features numba compiles for), numba's
    version and the kernels' source (read once a process: the kernels running are the ones loaded)."""
    if not _key:
        _key.append(_host_key())
    return _key[0]


def cpu_model() -> str:
    """The CPU's model name (/proc/cpuinfo's, where there is one; else what the platform says)."""
    import platform
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    return model


def _host_key() -> str:
    import llvmlite.binding as llvm
    import numba
    model = cpu_model()
    h = hashlib.sha256()
    for part in (model, numba.config.CPU_NAME or llvm.get_host_cpu_name(),
                 numba.config.CPU_FEATURES or llvm.get_host_cpu_features().flatten(), numba.__version__):
        h.update(str(part).encode() + b"\0")
    here = Path(__file__).parent
    for name in SOURCES:
        h.update((here / name).read_bytes())
    return h.hexdigest()[:20]


def cache_dir() -> Path | None:
    """Where numba keeps `rue_heap`'s compiled kernels (its locator's choice, NUMBA_CACHE_DIR first), or None."""
    try:
        from . import rue_heap
        return Path(rue_heap._batch._cache.cache_path)
    except Exception:                      # no cache locator (say, a read-only tree and no home): this process only
        return None


def cache_file(key: str | None = None) -> Path | None:
    where = cache_dir()
    return None if where is None else where / f"{PREFIX}{key or host_key()}.json"


def read_record(path: Path | None) -> dict | None:
    """The record kept in `path` (its key, crossover, timings), or None where it is absent or cannot be read as one."""
    if path is None:
        return None
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else None
    except Exception:                      # unreadable, not UTF-8, not JSON: as if absent
        return None


def read(path: Path | None, key: str) -> dict | None:
    """The timings kept in `path` under `key`, or None (absent, unreadable, corrupt, another key, a timing that
    is not finite and positive)."""
    data = read_record(path) or {}
    ns = data.get("ns_per_round")
    if data.get("key") != key:
        return None
    try:
        crossover(ns)
    except Exception:
        return None
    return ns


def write(path: Path | None, record: dict) -> bool:
    """Write `record` to `path` whole (a temporary file in the same directory renamed over it); False where
    it cannot be written (the value then lives in this process only)."""
    if path is None:
        return False
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "w") as f:
            json.dump(record, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return True
    except OSError:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
        return False


def measure(batch, block_for) -> dict:
    """ns a round (past the initial passes, per run) of the lazy path and the trees at each of POINTS (`TIMINGS`),
    one thread, best of REPEATS interleaved timings (module docstring). batch, block_for: `rue`'s."""
    import numba
    threads = numba.get_num_threads()
    jobs = []
    for K in POINTS:
        for i, (what, path, runs, rounds) in enumerate((("lazy", "lazy", block_for(K), LAZY_ROUNDS),
                                                        ("heap", "heap", HEAP_RUNS, HEAP_ROUNDS),
                                                        ("heap_short", "heap", SHORT_RUNS, SHORT_ROUNDS))):
            rng = np.random.default_rng(np.random.SeedSequence([7, K, i]))
            means = 0.5 + math.sqrt(SIGMA0_SQ) * rng.standard_normal((runs, K))       # a prior draw per run
            seeds = rng.integers(0, 2 ** 63, (2, runs)).astype(np.uint64)
            jobs.append((what, path, K, means, 2 * K + rounds, seeds))
    kw = {"gaussian": True, "nu": math.sqrt(SIGMA_SQ), "variances": "known", "sigma0_sq": SIGMA0_SQ,
          "sigma_sq": SIGMA_SQ}
    best = {}
    try:
        numba.set_num_threads(1)
        for _, path, K, means, n, seeds in jobs:   # compiled or loaded from numba's cache, before any timing
            batch(means[:1], 2 * K + 10, seeds[0][:1], seeds[1][:1], path=path, **kw)
        for _ in range(REPEATS):
            for what, path, K, means, n, seeds in jobs:
                t = clocks()
                batch(means, n, seeds[0], seeds[1], path=path, **kw)
                ns = cpu_seconds(t, clocks()) * 1e9 / (means.shape[0] * (n - 2 * K))
                best[what, K] = min(best.get((what, K), math.inf), ns)
    finally:
        numba.set_num_threads(threads)
    return {what: {str(K): best[what, K] for K in POINTS} for what in TIMINGS}


def clocks() -> tuple[float, float, float]:
    return time.perf_counter(), time.thread_time(), time.process_time()


def cpu_seconds(start, end) -> float:
    """The CPU seconds a one-thread kernel call took: this thread's (other processes' share of the core does
    not count, so a loaded host times its core, not its queue), or, where the threading layer ran the call on
    a worker thread (numba's workqueue does; omp and tbb run it on the caller), the process's, at most the
    wall time."""
    wall, thread, process = (b - a for a, b in zip(start, end))
    return thread if thread >= 0.25 * wall else min(process, wall)


def crossover(ns: dict, rounds: float | None = None) -> int:
    """The smallest K in [HEAP_MIN, HEAP_MAX] where the trees' fitted cost a round, for runs of `rounds` rounds
    past the initial passes (None: HEAP_ROUNDS), is at most the lazy pass's (HEAP_MAX where it never is), from
    `measure`'s timings."""
    k1, k2 = POINTS
    try:
        v = {(w, k): float(ns[w][str(k)]) for w in TIMINGS for k in POINTS}
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"the calibration's timings must hold {', '.join(TIMINGS)} at K = {k1} and {k2}, "
                         f"got {ns!r}") from None
    if not all(math.isfinite(x) and x > 0 for x in v.values()):
        raise ValueError(f"the calibration's timings must be finite and positive, got {ns!r}")
    r = HEAP_ROUNDS if rounds is None else min(max(float(rounds), SHORT_ROUNDS), HEAP_ROUNDS)
    s = math.log(HEAP_ROUNDS / r) / math.log(HEAP_ROUNDS / SHORT_ROUNDS)     # 0 at HEAP_ROUNDS, 1 at SHORT_ROUNDS
    h1, h2 = ((1 - s) * v["heap", k] + s * v["heap_short", k] for k in POINTS)
    l1, l2 = v["lazy", k1], v["lazy", k2]
    b = (l2 - l1) / (k2 - k1)
    for K in range(HEAP_MIN, HEAP_MAX):          # the trees' cost flat below k1 (measured: 85-100 ns at K = 24-64)
        if h1 + (h2 - h1) * max(math.log(K / k1), 0.0) / math.log(k2 / k1) <= l1 + b * (K - k1):
            return K
    return HEAP_MAX


def timings(batch, block_for, calibrate: bool = True) -> dict | None:
    """This host's timings (`measure`): this process's, else the cache's, else (`calibrate`) measured now and
    written to the cache; None where none is known and `calibrate` is False, where the measurement failed, or
    where numba does not compile (a calibration would time the Python fallback). batch, block_for: `rue`'s."""
    import numba
    if numba.config.DISABLE_JIT:
        return None
    key = host_key()
    with _lock:
        if key in _known:
            return _known[key]
        path = cache_file(key)
        ns = read(path, key)
        if ns is None and calibrate:
            t0 = time.perf_counter()
            try:
                ns = measure(batch, block_for)
                crossover(ns)
            except Exception:              # a failed measurement costs speed, never a run: the fixed value,
                _known[key] = None         # and no second try in this process
                return None
            write(path, {"key": key, "ns_per_round": ns, "points": list(POINTS),
                         "rounds": {"lazy": LAZY_ROUNDS, "heap": HEAP_ROUNDS, "heap_short": SHORT_ROUNDS},
                         "heap_from": crossover(ns), "heap_from_short": crossover(ns, SHORT_ROUNDS),
                         "seconds": round(time.perf_counter() - t0, 3),
                         "measured": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
        if ns is not None:
            _known[key] = ns
        return ns


def heap_from(batch, block_for, calibrate: bool = True, rounds: float | None = None) -> int | None:
    """This host's crossover for runs of `rounds` rounds past the initial passes (None: HEAP_ROUNDS), from
    `timings`; None where no timings are known."""
    ns = timings(batch, block_for, calibrate)
    return None if ns is None else crossover(ns, rounds)


def forget() -> None:
    """Drop this process's value (the cache file stays): the next `heap_from` reads the cache again."""
    with _lock:
        _known.clear()
