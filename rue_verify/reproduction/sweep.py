"""The reproduction's sweep: its manifest, and `sweep.run_sweep` with the reproduction's tasks."""

from __future__ import annotations

from simulate.runner import package_version

from .. import sweep
from .grid import Task, definition_hash, execute


def manifest(tasks: list[Task], seed: int, scale: str, conventions: tuple[str, ...]) -> dict:
    return {"tool": "rue-verify reproduce", "version": package_version(), "definition": definition_hash(tasks, seed),
            "scale": scale, "seed": seed, "conventions": list(conventions), "tasks": len(tasks)}


def run_sweep(tasks: list[Task], seed: int, store, **kw) -> tuple[list[dict], float]:
    """`sweep.run_sweep` (local or Dask, resumable, one writer) with the reproduction's `execute`."""
    return sweep.run_sweep(tasks, seed, store, execute=execute, desc="reproduce", **kw)
