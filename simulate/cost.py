"""What a request will cost before it starts: its arm-rounds (runs x budget x arms), the memory its
arrays take, and its wall time at the throughput this machine reaches now, measured by a short
pilot of each algorithm (the compiled kernel on a few runs at a small budget, with as many threads
as the request will use).

The pilot measures; nothing here is a constant calibrated elsewhere. Its throughput at a small
budget stands in for the request's, which for these algorithms (constant work per round, or
logarithmic in K) makes the estimate good to a small factor: enough to tell seconds from days.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

#: below this many arm-rounds a request is not worth a pilot: it finishes in seconds
PILOT_ABOVE = 2e9
#: arrays of (runs, K) float64 a run holds at once (means, pulls, the kernel's per-run inputs, a chunk's
#: outputs) and per-run 8-byte vectors (recommendations, two seeds, regrets, best arms, failures)
_RK_ARRAYS, _R_VECTORS = 4, 6


@dataclass(frozen=True)
class Cost:
    arm_rounds: float
    memory_bytes: float
    seconds: float | None = None            # None: not measured (a small request)
    rates: tuple[tuple[str, float], ...] = ()   # (algorithm, measured arm-rounds per second at the request's n)

    def sentence(self) -> str:
        """One line for the user: the size, the measured rate and the time it implies."""
        rates = ", ".join(f"{a} {r:.2g}" for a, r in self.rates)
        return (f"this request is {self.arm_rounds:.2g} arm-rounds (runs x budget x arms); at the arm-rounds/s "
                f"measured here just now ({rates}) it will take about {duration(self.seconds)}. Starting; Ctrl-C "
                "stops it")


def duration(seconds: float) -> str:
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.0f} s"


def available_memory() -> float:
    """Bytes this machine can give a new process now (MemAvailable on Linux, else free pages)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return float(line.split()[1]) * 1024
    except OSError:
        pass
    return float(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))


def memory_bytes(runs: int, K: int) -> float:
    """The arrays one algorithm's `runs` runs on K arms hold at once (the runner keeps one algorithm's)."""
    return 8.0 * runs * (_RK_ARRAYS * K + _R_VECTORS)


def check_memory(runs: int, K: int) -> None:
    """A ValueError, before any work, if the runs' arrays would not fit in the memory available."""
    need, have = memory_bytes(runs, K), available_memory()
    if need > 0.8 * have:
        raise ValueError(f"runs: {runs} runs on K = {K} arms need about {need / 2 ** 30:.1f} GiB of memory and this "
                         f"machine has {have / 2 ** 30:.1f} GiB available; use fewer runs (several seeds, "
                         "combined, give the same precision)")


def estimate(items: list[tuple[str, dict, int, int, int]], pilot: Callable[[str, dict, int, int], float] | None = None,
             pilot_above: float = PILOT_ABOVE, work: Callable[[str, int, int], float] | None = None) -> Cost:
    """The cost of runs given as (algorithm, resolved params, K, budget n, runs) items: arm-rounds,
    the largest item's memory, and, above `pilot_above` arm-rounds, the seconds at each algorithm's
    pilot throughput, `pilot(name, params, K, n)` in work units per second (one pilot per algorithm
    and K; `runner.pilot_rate` measures it; None: no time estimate). work(name, K, n): one run's work
    units (default n K arm-rounds; `Algorithm.arm_rounds` for a phase algorithm on Gaussian rewards,
    whose time hardly grows with n)."""
    work = work or (lambda name, K, n: float(n * K))
    total = float(sum(runs * n * K for _, _, K, n, runs in items))
    memory = max((memory_bytes(runs, K) for _, _, K, _, runs in items), default=0.0)
    if total < pilot_above or pilot is None:
        return Cost(total, memory)
    rates: dict[tuple[str, int], float] = {}
    effective: dict[tuple[str, int], float] = {}          # shown: arm-rounds per second at the request's n
    seconds = 0.0
    for name, params, K, n, runs in items:
        key = (name, K)
        if key not in rates:
            rates[key] = pilot(name, params, K, n)
            effective[key] = rates[key] * n * K / work(name, K, n)
        seconds += runs * work(name, K, n) / rates[key]
    shown = tuple((f"{a}" + (f" K={K}" if len({k for _, k in rates}) > 1 else ""), r)
                  for (a, K), r in effective.items())
    return Cost(total, memory, seconds, shown)
