"""Independent work (the ledger's claims, the figure families) on every core: a pool of worker
processes, each with its numba kernels' threads sized so that workers x threads = the cores, neither
idle nor oversubscribed. Every task seeds itself by name, so results are identical whatever the
number of workers or the order they finish in (tested)."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, as_completed, wait
from typing import Any, Callable, Iterable, Iterator


def cores() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _context():
    """fork while this process has not started numba's threads (the workers then inherit the imported
    modules instead of importing them again), else spawn (forking running threads is unsafe)."""
    import numba.np.ufunc.parallel as numba_threads
    if "fork" in multiprocessing.get_all_start_methods() and not numba_threads._is_initialized:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _init(threads: int) -> None:
    import signal

    import numba
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's to handle: it stops the pool
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))


def grouped(items: Iterable[str], key: Callable[[str], str | None]) -> list[tuple[str, ...]]:
    """`items` as units of work: those whose `key` is the same (not None) together, first (they are the
    largest: they share a cached computation, which runs once in the worker process that runs the unit),
    in the order given, then every other item alone."""
    shared: dict[str, list[str]] = {}
    alone = []
    for item in items:
        k = key(item)
        (shared.setdefault(k, []) if k else alone).append(item)
    return [tuple(g) for g in shared.values()] + [(item,) for item in alone]


def run(tasks: Iterable[tuple[Any, Callable, tuple]], workers: int | None = None,
        before: Callable[[Any], None] | None = None) -> dict:
    """Run each task (key, function, args) and return key -> result (`completed`). `before(key)` is
    called as each task finishes (a progress bar's hook). A task's exception propagates."""
    out = {}
    with contextlib.closing(completed(tasks, workers)) as results:
        for key, result in results:
            out[key] = result
            if before:
                before(key)
    return out


def completed(tasks: Iterable[tuple[Any, Callable, tuple]], workers: int | None = None,
              running: Callable[[list], None] | None = None, every: float = 1.0) -> Iterator[tuple[Any, Any]]:
    """(key, result) of each task (key, function, args) as it finishes. With one worker the tasks run
    in this process, in order; otherwise in a pool of `workers` processes (forked while no numba thread
    has started here, else spawned), each with cores() // workers numba threads, started in the order
    given. A task's exception propagates. A caller that stops early (an exception or Ctrl-C) closes
    the iterator (`contextlib.closing`), which stops the workers at once rather than after their tasks.

    running: called with the keys of the tasks in progress, in the order given, as they change and
    every `every` seconds (a progress display's hook: its clock moves while long tasks run)."""
    tasks = list(tasks)
    workers = max(1, min(workers or cores(), len(tasks) or 1))
    if workers == 1:
        for key, fn, args in tasks:
            if running:
                running([key])
            yield key, fn(*args)
        return
    pool = ProcessPoolExecutor(workers, mp_context=_context(), initializer=_init,
                               initargs=(max(1, cores() // workers),))
    finished = False
    try:
        futures = {pool.submit(fn, *args): key for key, fn, args in tasks}
        if running is None:
            for fut in as_completed(futures):
                yield futures[fut], fut.result()
        else:
            pending = list(futures)         # in the order given, which is the order the workers take them
            while pending:
                # the first `workers` unfinished tasks are the ones the workers hold (they take them in order)
                running([futures[f] for f in pending[:workers]])
                done, _ = wait(pending, timeout=every, return_when=FIRST_COMPLETED)
                for fut in [f for f in pending if f in done]:
                    pending.remove(fut)
                    yield futures[fut], fut.result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:                               # stopped early: stop the workers now, not after their tasks
            workers_now = list(getattr(pool, "_processes", {}).values())   # no public API before Python 3.14
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in workers_now:
                proc.terminate()
            for proc in workers_now:
                proc.join(timeout=10)
