"""How fast the truth decays: the Bayesian failure probability and simple regret of every algorithm
under the paper's model (Section 3: means N(0, sigma0^2), Gaussian rewards), as data flowing one way:

grid (settings, algorithms and budgets as data; `execute` runs one task with the exact variance
reduction of `truth`) -> the sweep and its store (`rue_verify.studies.sweep`, `rue_verify.store.result_store`,
shared with the reproduction: resumable, one writer, local or Dask) -> results
(block statistics read back as curves; the paper-scale study ships inside the package) -> fit
(exponents with jackknife intervals, local slopes, a power-law check). The ledger's rate claims
(RATE-FAIL, RATE-REGRET, ABS-SOTA of CLAIMS-BEYOND.md) and the figures read the results.
"""

from __future__ import annotations

from pathlib import Path

from .fit import Fit, fit_exponent, fit_groups, fit_paired, log_slope
from .grid import SCALES, RateTask, Setting, tasks
from .results import SHIPPED, Curve, RateResults, load
from .truth import Truth, bayes_truth, conditional_failure, conditional_regret, known_mean_posterior

__all__ = ["SCALES", "SHIPPED", "Curve", "Fit", "RateResults", "RateTask", "Setting", "Truth", "bayes_truth",
           "conditional_failure", "conditional_regret", "fit_exponent", "fit_groups", "fit_paired",
           "known_mean_posterior", "load", "log_slope", "run", "tasks"]


def run(scale: str = "quick", out: str | Path | None = None, seed: int = 0, scheduler: str | None = None,
        client=None, progress: bool = True, algorithms=None, wait: bool = False, on_row=None,
        workers: int | None = None) -> dict:
    """Run (or resume) the rate study at `scale` into the result directory `out`; returns the rows,
    the directory, the number of tasks, the wall seconds this call spent and the arm-rounds it ran
    (`workers`: local processes, default every core; the rows do not depend on it)."""
    from ..store.result_store import ResultStore
    from ..studies.sweep import run_sweep
    from . import grid
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {', '.join(SCALES)}, got {scale!r}")
    ts = tasks(scale, algorithms)
    if not ts:
        raise ValueError(f"algorithms: none of {', '.join(algorithms)} is in the {scale} rate study")
    out = Path(out or f"rates-{scale}")
    store = ResultStore(out, grid.manifest(ts, seed, scale), grid.COLUMNS)
    todo = [t for t in ts if t.key not in store.done()]
    rows, wall = run_sweep(ts, seed, store, scheduler=scheduler, client=client, progress=progress, on_row=on_row,
                           wait=wait, execute=grid.execute, desc="rates", workers=workers)
    return {"out": str(out), "rows": rows, "wall_seconds": wall, "tasks": len(ts), "scale": scale, "seed": seed,
            "arm_rounds": sum(t.runs * t.n * t.setting.K for t in todo if t.algorithm != grid.ORACLE)}
