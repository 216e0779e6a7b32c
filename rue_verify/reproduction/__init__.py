"""Section 6 and its appendix rerun, as data flowing one way:

grid (the paper's experiments as `Task`s, `execute` runs one) -> sweep (runs the tasks not yet
stored, locally or on Dask) -> store (a resumable result directory) -> results (rows with what
produced them; the paper-scale run ships inside the package) -> comparisons (paired statistics that
the ledger's empirical claims use).

Nothing here imports the ledger, the figures or the report.
"""

from __future__ import annotations

from pathlib import Path

from ..store.result_store import ResultStore, read_rows
from ..studies import sweep
from .grid import COLUMNS, SCALES, STUDIES, Scale, Task, execute, grid, manifest
from .results import SHIPPED, Results, load

__all__ = ["SCALES", "STUDIES", "SHIPPED", "Scale", "Task", "Results", "ResultStore", "grid", "load", "manifest",
           "open_store", "read_rows", "reproduce", "run_sweep"]


def open_store(directory: str | Path, manifest: dict) -> ResultStore:
    """The reproduction's result directory (`result_store.ResultStore` with the grid's columns)."""
    return ResultStore(directory, manifest, COLUMNS)


def run_sweep(tasks: list[Task], seed: int, store: ResultStore, **kw) -> tuple[list[dict], float]:
    """Run the reproduction's tasks not yet in `store` (`sweep.run_sweep`: local or Dask, resumable,
    one writer); `kw`: its scheduler, client, progress, on_row, wait and workers."""
    return sweep.run_sweep(tasks, seed, store, execute=execute, desc="reproduce", **kw)


def reproduce(scale: str | Scale = "quick", out: str | Path | None = None, conventions=("project", "authors"),
              seed: int = 0, scheduler: str | None = None, studies=None, progress: bool = True, client=None,
              on_row=None, algorithms=None, wait: bool = False, workers: int | None = None) -> dict:
    """Run (or resume) the grid at `scale` into the result directory `out`; returns the rows, the
    directory, the number of tasks and the wall seconds this call spent simulating (`workers`: local
    processes, default every core; the rows do not depend on it)."""
    if isinstance(scale, Scale):
        scale_ = scale
        scale = scale.name
    elif scale in SCALES:
        scale_ = SCALES[scale]
    else:
        raise ValueError(f"scale must be one of {', '.join(SCALES)}, got {scale!r}")
    out = Path(out or f"reproduction-{scale}")
    kw = {"studies": tuple(studies)} if studies else {}
    if algorithms:
        kw["algorithms"] = tuple(algorithms)
    tasks = grid(scale_, conventions=tuple(conventions), **kw)
    store = open_store(out, manifest(tasks, seed, scale, tuple(conventions)))
    rows, wall = run_sweep(tasks, seed, store, scheduler=scheduler, client=client, progress=progress, on_row=on_row,
                           wait=wait, workers=workers)
    return {"out": str(out), "rows": rows, "wall_seconds": wall, "tasks": len(tasks), "scale": scale, "seed": seed}
