"""Compiled kernels shared between processes: `one_compiler_at_a_time` lets one process at a time compile a
numba kernel that keeps its compiled copies on disk (cache=True), so that processes started together (the report's
workers, the test suite's) compile each kernel once between them instead of once each."""

from __future__ import annotations

import os

from .shipped_kernels import seed

seed()      # the shipped compiled kernels where numba looks, before any kernel of this package compiles

#: this process's side of `one_compiler_at_a_time` (numba's own compiler lock serializes threads too)
_LOCAL: list = []


def one_compiler_at_a_time(kernel):
    """Make `kernel` (a numba dispatcher with cache=True) compile in one process at a time: its compile step takes
    an exclusive lock on a file beside its cached copies (`<name>.compile.lock`), so that a second process
    wanting the same signature meanwhile (the report's two workers, the test suite's) waits, then loads the copy
    the first wrote instead of compiling it again (numba looks in its cache inside the lock). A kernel already
    compiled in this process does not touch the lock. Where there is no cache directory or no `fcntl`
    (Windows), the kernel is left as it is. Returns the kernel."""
    import threading
    try:
        import fcntl
        where = kernel._cache._cache_path
        name = f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__}.compile.lock"
    except (ImportError, AttributeError):
        return kernel
    if getattr(kernel, "_one_compiler", False):
        return kernel
    if not _LOCAL:
        _LOCAL.append(threading.RLock())
    compile_here = kernel.compile

    def compile(sig):
        with _LOCAL[0]:
            try:
                os.makedirs(where, exist_ok=True)
                fd = os.open(os.path.join(where, name), os.O_RDWR | os.O_CREAT, 0o644)
            except OSError:                      # a read-only cache: compile as numba would
                return compile_here(sig)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                return compile_here(sig)
            finally:
                os.close(fd)                     # closing releases the lock
    kernel.compile = compile
    kernel._one_compiler = True
    return kernel

