"""Run the tasks of a grid into a result store (`result_store`): locally (a process per core, each
task on one core, the costliest first; `verify.parallel`) or on a Dask distributed cluster given by
its scheduler address. Each task's seeds come from the task itself, so both backends, any number of
processes, any worker and any order give the same rows. The reproduction and the rate study run
through here with their own tasks and `execute`."""

from __future__ import annotations

import contextlib
import sys
import time
from concurrent.futures import CancelledError
from typing import Callable

from ..store.result_store import ResultStore

#: a local sweep of less work than this (the tasks' `cost`, weighted arm-rounds: a few seconds) runs in
#: this process unless given `workers`. Starting a process per core costs seconds: each imports the
#: package and loads its kernels, or compiles them where the cache lacks them (spawned, as they are
#: once this process has run a parallel kernel). `rates --quick` (3.5e9) takes 21 s on two processes
#: against 29 s on one; in a fresh clone's CI the tests' tiny sweeps took up to 56 s on two processes.
POOL_FROM = 1e9


def run_sweep(tasks: list, seed: int, store: ResultStore, *, execute: Callable, scheduler: str | None = None,
              client=None, progress: bool = True, on_row: Callable[[dict], None] | None = None,
              wait: bool = False, desc: str = "sweep", workers: int | None = None) -> tuple[list[dict], float]:
    """Run the tasks not yet in `store`; returns every row in grid order and the wall seconds spent.

    scheduler: a Dask scheduler address ('tcp://host:8786'); client: a `distributed.Client` (tests).
    on_row: called after each row is stored (a hook for progress reporting, or for tests that stop a
    sweep part-way). One sweep writes a directory at a time: a second one is refused (or, with
    `wait`, waits for the first and then runs only what is left). A scheduler that goes away ends the
    sweep with a ConnectionError saying how many rows were stored; rerunning resumes.

    workers: local processes (default every core; one, this process, for less work than `POOL_FROM`).
    Each runs a task at a time with cores / workers numba threads; the tasks start costliest first, so
    the longest ends early and the cores stay busy to the end (a task's kernels keep both cores only
    about 85% busy, its serial parts the rest). Only this process writes the store.

    execute: (task, seed) -> row, a module-level function (workers import it); the tasks have a
    `key`, a `cost` (weighted arm-rounds) and a `describe` (the progress bar's postfix)."""
    with store.writer(wait):
        return _sweep(tasks, seed, store, scheduler, client, progress, on_row, execute, desc, workers)


def _sweep(tasks, seed, store, scheduler, client, progress, on_row, execute, desc, workers):
    from tqdm import tqdm
    done = store.done()
    todo = [t for t in tasks if t.key not in done]
    done_tasks = [t for t in tasks if t.key in done]
    t0 = time.perf_counter()
    bar = tqdm(total=int(sum(t.cost for t in tasks) / 1e6), initial=int(sum(t.cost for t in done_tasks) / 1e6),
               unit="M arm-rounds", unit_scale=True, desc=desc, file=sys.stderr, disable=not progress,
               leave=False)
    by_key = {t.key: t for t in todo}

    def record(row: dict) -> None:
        store.append(row)
        t = by_key[row["key"]]
        bar.update(int(t.cost / 1e6))
        if on_row:
            on_row(row)

    def running(keys: list) -> None:        # the bar's postfix: the tasks in progress; its clock moves
        bar.set_postfix_str("running " + "; ".join(by_key[k].describe for k in keys))

    try:
        if scheduler or client:
            own = client is None
            if own:
                import logging

                from distributed import Client
                for name in ["distributed", *[n for n in logging.root.manager.loggerDict
                                              if n.startswith("distributed.")]]:
                    logging.getLogger(name).setLevel(logging.CRITICAL)     # our one line says what happened
                client = Client(scheduler)
            stored = 0
            try:
                from distributed import as_completed
                futures = [client.submit(execute, t, seed, key=f"rue-{abs(hash(t.key))}-{seed}", pure=False)
                           for t in todo]
                for fut in as_completed(futures):
                    row = fut.result()
                    record(row)
                    bar.set_postfix_str("done " + by_key[row["key"]].describe)
                    stored += 1
            except (CancelledError, OSError) as err:         # cancelled, or a closed comm (an OSError)
                if isinstance(err, OSError) and err.filename:     # a write failure is not the scheduler's
                    raise
                raise ConnectionError(
                    f"the scheduler went away after {stored} of {len(todo)} "
                    f"tasks; their rows are stored (rerun the same command to resume)") from None
            finally:
                if own:
                    with contextlib.suppress(Exception):
                        client.close(timeout=5)
        else:
            from ..verify.parallel import completed
            costliest = sorted(todo, key=lambda t: -t.cost)
            if workers is None and sum(t.cost for t in todo) < POOL_FROM:
                workers = 1
            with contextlib.closing(completed([(t.key, execute, (t, seed)) for t in costliest], workers,
                                              running if progress else None)) as rows:
                for _, row in rows:         # closing: a failed write or Ctrl-C here stops the workers at once
                    record(row)
    finally:
        bar.close()
    return store.finalize([t.key for t in tasks]), time.perf_counter() - t0
