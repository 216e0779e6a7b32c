"""simulate.kernels: every algorithm's batch kernel is found, and the cache status follows the files
numba writes."""

import os

from simulate.algorithms import REGISTRY
from simulate.kernels import _entry_points, status


def test_every_registered_algorithm_has_a_cached_entry_point(tmp_path, monkeypatch):
    kernels = _entry_points()
    assert len(kernels) == len(REGISTRY)
    index = kernels[0]._cache._cache_file._index_path
    ready, where = status()
    assert where == os.path.dirname(index)
    if ready:                                  # pretend one index is missing: no longer ready
        real = os.path.exists
        monkeypatch.setattr(os.path, "exists", lambda p: False if p == index else real(p))
        assert status()[0] is False


KERNEL = '''
import json, os, sys, time
from numba import njit, prange
from simulate.compiling import one_compiler_at_a_time


@njit(cache=True, parallel=True)
def kernel(x):
    out = 0.0
    for i in prange(x.shape[0]):
        for j in range(x.shape[1]):
            out += x[i, j] * x[i, j] - x[i, j] / (1.0 + abs(x[i, j]))
    return out


if sys.argv[1] == "shared":
    one_compiler_at_a_time(kernel)
import numpy as np
start = sys.argv[2]
while not os.path.exists(start):               # both processes call at once
    time.sleep(0.001)
kernel(np.ones((3, 3)))
print(json.dumps([sum(kernel._cache_misses.values()), sum(kernel._cache_hits.values())]))
'''


def test_two_processes_wanting_one_kernel_at_once_compile_it_once(tmp_path):
    """With `one_compiler_at_a_time`, two processes calling a kernel numba has not cached yet, at the same moment,
    compile it once between them: the second waits and loads the first one's copy."""
    import json
    import subprocess
    import sys
    import time
    (tmp_path / "shared_kernel.py").write_text(KERNEL)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    start = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, str(tmp_path / "shared_kernel.py"), "shared", str(start)], env=env,
                              stdout=subprocess.PIPE, text=True) for _ in range(2)]
    time.sleep(3)                              # both imported and waiting (the lock is taken at the call)
    start.write_text("")
    got = [json.loads(p.communicate(timeout=300)[0].strip().splitlines()[-1]) for p in procs]
    assert sum(m for m, _ in got) == 1 and sum(h for _, h in got) == 1, got
    locks = list((tmp_path / "cache").rglob("*.compile.lock"))
    assert len(locks) == 1 and "kernel" in locks[0].name


def test_a_read_only_or_strided_means_array_runs_on_the_writable_ones_compiled_kernel():
    """A batch's means reach its kernel as one type (C-contiguous, writable) whatever was passed: numba compiles
    once per argument type, so a read-only array (a rate study's cached draws) or a Fortran-ordered one would
    otherwise compile the kernel again. Same runs, same results, no new signature."""
    import numpy as np
    alg = REGISTRY["uniform"]
    kernel = next(k for k in _entry_points() if k.py_func.__module__ == alg.raw_batch.__module__)
    means = np.array([[0.5, 0.4, 0.3], [0.6, 0.2, 0.1]])
    seeds = np.arange(2, dtype=np.uint64)
    first = alg.batch(means, 30, seeds, seeds + 7)
    before = len(kernel.signatures)
    frozen = means.copy()
    frozen.setflags(write=False)
    for given in (frozen, np.asfortranarray(means)):
        again = alg.batch(given, 30, seeds, seeds + 7)
        assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert len(kernel.signatures) == before, kernel.signatures[before:]
