"""The compiled kernels' on-disk cache (numba, `cache=True`): whether this installation has compiled
them yet, and where they are kept. numba writes beside the modules when it can and otherwise in the
user's cache directory (so a read-only site-packages works); NUMBA_CACHE_DIR overrides both."""

from __future__ import annotations

import os


def _entry_points() -> list:
    """The kernels that Python calls (each algorithm's batch dispatcher), compiled with cache=True."""
    import sys

    from numba.core.registry import CPUDispatcher

    from .algorithms import REGISTRY
    out = []
    for alg in REGISTRY.values():
        module = sys.modules[alg.raw_batch.__module__]
        out += [v for v in vars(module).values() if isinstance(v, CPUDispatcher) and v._cache is not None
                and v.__name__ == "_batch"]
    return out


def status() -> tuple[bool, str]:
    """(every entry-point kernel has a compiled copy on disk, the directory that holds them)."""
    kernels = _entry_points()
    paths = [k._cache._cache_file._index_path for k in kernels]
    where = os.path.dirname(paths[0]) if paths else ""
    return all(os.path.exists(p) for p in paths), where
