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
