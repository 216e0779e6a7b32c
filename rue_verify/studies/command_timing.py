"""`rue-verify bench --commands`: the wall time and CPU use of the README's commands, each run in a
fresh process from an empty directory, cold (an empty numba cache, so the kernels compile) and warm
(the same cache again). A benchmark to read, not a test: the numbers depend on the machine."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from ..verify.parallel import cores

#: what a user waits for, measured with `rue-verify bench --commands` (warm numba cache) on the host
#: class named; the help texts and the README quote these, docs/bench.txt has the runs behind them
HOST_CLASS = "2 cores (AMD EPYC)"
WAITS = {"claims": "about 30 s", "report": "about 40 s (55 s the first time, while the kernels compile)",
         "proofs": "about 30 s", "claims --thorough": "about 4 minutes"}

COMMANDS = {"claims": ["claims", "-q", "--json"], "report": ["report", "--quick", "-q", "--out", "report"],
            "claims-thorough": ["claims", "--thorough", "-q", "--json"]}
SLOWEST = 5     # claims named per ledger run, with their seconds


def slowest(stdout: str, count: int = SLOWEST) -> list[tuple[str, float]]:
    """The `count` claims that took longest, from `claims --json`'s output (each claim's own seconds,
    in whichever worker ran it)."""
    rows = json.loads(stdout)
    return sorted(((r["id"], r["seconds"]) for r in rows), key=lambda x: -x[1])[:count]


def run_once(args: list[str], cache: str) -> dict:
    """One run of `rue-verify ARGS` in a scratch directory with numba's cache in `cache`."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as where:
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "rue_verify.cli", *args], cwd=where, env=env,
                           capture_output=True, text=True)
        wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f"rue-verify {' '.join(args)} failed: {r.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    row = {"wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
           "utilisation": round(cpu / (wall * cores()), 2)}
    if "--json" in args:
        row["slowest_claims"] = slowest(r.stdout)
    return row


def time_commands(names=("claims", "report"), out=print) -> list[dict]:
    """Cold then warm runs of each command; prints a line per run and returns the rows."""
    from simulate.bench import host_check, host_info, host_info_line, host_line
    rows = []
    out(f"rue-verify bench --commands: {cores()} cores; cold = empty numba cache (kernels compile), warm = the "
        "same cache again; utilisation = CPU seconds / (wall seconds x cores)")
    out(host_info_line(host_info()))
    out(host_line("before", host_check()) + " (this host has slow spells: read the times with it)")
    for name in names:
        with tempfile.TemporaryDirectory() as cache:
            for state in ("cold", "warm"):
                r = {"command": "rue-verify " + " ".join(COMMANDS[name]), "state": state,
                     **run_once(COMMANDS[name], cache)}
                rows.append(r)
                out(f"{r['command']:<34} {state:<5} {r['wall_seconds']:>7.1f} s wall  {r['cpu_seconds']:>7.1f} s CPU  "
                    f"utilisation {r['utilisation']:.0%}")
                if "slowest_claims" in r:
                    out(" " * 4 + "slowest claims: " + ", ".join(f"{c} {t:.1f} s" for c, t in r["slowest_claims"]))
    out(host_line("after", host_check()))
    return rows
