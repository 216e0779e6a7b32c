"""simulate.algorithms.rue_crossover: where RUE (known variances) turns from the lazy pass to the trees is
measured per host and kept beside numba's kernels; whatever it says, every run makes the same pulls. No
timing is asserted here (the bench measures speed): these tests check the results, the choice and the cache."""

import json
from pathlib import Path

import numpy as np
import pytest

from simulate.algorithms import rue
from simulate.algorithms import rue_crossover as C
from simulate.algorithms import rue_heap as H

KNOWN = {"variances": "known", "sigma0_sq": 0.01, "sigma_sq": 0.25}
#: timings `measure` might return (ns a round): the trees level with the lazy pass at K = 128 in long runs, at
#: K = 192 in short ones
LEVEL_AT_128 = {"lazy": {"64": 50.0, "192": 150.0}, "heap": {"64": 100.0, "192": 100.0},
                "heap_short": {"64": 150.0, "192": 150.0}}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache directory of the test's own, nothing known in this process, and `measure` replaced by a
    counter returning LEVEL_AT_128 (the real one is exercised in `test_a_real_calibration_...`)."""
    monkeypatch.setattr(C, "cache_dir", lambda: tmp_path)
    monkeypatch.setattr(C, "_known", {})
    calls = []

    def fake(batch, block_for):
        calls.append(1)
        return json.loads(json.dumps(LEVEL_AT_128))
    monkeypatch.setattr(C, "measure", fake)
    return tmp_path, calls


def _seeds(R, seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 2 ** 63, R).astype(np.uint64) for _ in range(2)]


@pytest.mark.parametrize("K,gaussian", [(40, True), (100, False), (200, True), (319, False)])
def test_the_crossover_never_changes_results(K, gaussian, monkeypatch):
    """One seeded problem in the calibrated window, run with each path forced and by default with the
    crossover at either end of the window (so the default takes the trees, then the lazy pass): the same
    recommendations and pulls every time; `stats` shows which kernel ran (only the trees count)."""
    rng = np.random.default_rng(K)
    means = rng.normal(0.5, 0.1, (8, K)) if gaussian else rng.uniform(0.2, 0.8, (8, K))
    seeds, rewards = _seeds(8, K)
    n = 2 * K + 400

    def go(**kw):
        stats = np.zeros((8, 3))
        rec, pulls = rue.batch(means, n, seeds, rewards, gaussian=gaussian, nu=0.5, stats=stats, **KNOWN, **kw)
        return rec, pulls, stats[:, H.REKEYS].sum() > 0
    ref, ref_pulls, _ = go(path="plain")
    for path in ("lazy", "heap"):
        rec, pulls, _ = go(path=path)
        assert np.array_equal(rec, ref) and np.array_equal(pulls, ref_pulls), path
    for crossover, trees in ((C.HEAP_MIN, True), (C.HEAP_MAX, False)):
        monkeypatch.setattr(rue, "heap_from", lambda calibrate=True, n=None, K=0, at=crossover: at)
        assert rue.argmax_path(K, "known", False) == ("heap" if trees else "lazy")
        rec, pulls, heap_ran = go()
        assert heap_ran == trees
        assert np.array_equal(rec, ref) and np.array_equal(pulls, ref_pulls), crossover


def test_the_window_is_fixed_and_a_forced_path_wins(monkeypatch):
    """Below HEAP_MIN the lazy pass and from HEAP_MAX the trees, whatever the host measured; `path`
    overrides the measurement either way; estimated variances and the top-two pick stay plain."""
    monkeypatch.setattr(rue, "heap_from", lambda *a, **kw: pytest.fail("no calibration outside the window"))
    assert rue.argmax_path(C.HEAP_MIN - 1, "known", False) == "lazy"
    assert rue.argmax_path(C.HEAP_MAX, "known", False) == "heap"
    assert rue.argmax_path(100, "known", False, path="lazy") == "lazy"
    assert rue.argmax_path(100, "known", False, path="heap") == "heap"
    assert rue.argmax_path(100, "authors", False) == "plain" and rue.argmax_path(100, "known", True) == "plain"


def test_the_calibration_is_kept_and_read_on_a_second_call(cache):
    where, calls = cache
    assert rue.heap_from() == 128 and len(calls) == 1
    (f,) = where.glob(f"{C.PREFIX}*.json")
    kept = json.loads(f.read_text())
    assert kept["heap_from"] == 128 and kept["key"] == C.host_key() and kept["ns_per_round"] == LEVEL_AT_128
    assert kept["heap_from_short"] == 192
    assert rue.heap_from() == 128 and len(calls) == 1           # this process's value
    C.forget()                                                  # as a new process would: the file, not a measurement
    assert rue.heap_from() == 128 and len(calls) == 1
    assert [p.name for p in where.iterdir()] == [f.name]        # written whole: no temporary left beside it


BAD_TIMINGS = json.dumps({**LEVEL_AT_128, "heap": {"64": -1.0, "192": 100.0}})


@pytest.mark.parametrize("text", ["", "{not json", "[]", '{"key": "KEY", "heap_from": 128}',
                                  '{"key": "KEY", "ns_per_round": {"lazy": {"64": 1}}}',
                                  '{"key": "KEY", "ns_per_round": "fast"}', '{"key": "KEY", "ns_per_round": BAD}',
                                  '{"key": "another", "ns_per_round": GOOD}', '{"key": "KEY"}', "\x00\xff"])
def test_a_corrupt_cache_file_is_measured_again(cache, text):
    """An unreadable file, another layout, another key or a value outside the window: measured afresh and
    written over, never a crash and never the file's value."""
    where, calls = cache
    f = C.cache_file()
    f.write_text(text.replace("KEY", C.host_key()).replace("BAD", BAD_TIMINGS)
                 .replace("GOOD", json.dumps({k: {x: 1.0 for x in d} for k, d in LEVEL_AT_128.items()})))
    assert rue.heap_from() == 128 and len(calls) == 1
    assert json.loads(f.read_text())["heap_from"] == 128
    C.forget()
    assert rue.heap_from() == 128 and len(calls) == 1


def test_an_unreadable_or_unwritable_cache_costs_only_speed(cache, monkeypatch):
    where, calls = cache
    f = C.cache_file()
    f.mkdir()                                                   # neither readable as a file nor replaceable
    assert rue.heap_from() == 128 and len(calls) == 1           # measured, kept in this process only
    assert [p.name for p in where.iterdir()] == [f.name] and f.is_dir()
    monkeypatch.setattr(C, "cache_dir", lambda: None)           # no cache location at all
    C.forget()
    assert rue.heap_from() == 128 and len(calls) == 2


def test_an_interrupted_write_leaves_the_previous_file(cache, monkeypatch):
    where, _ = cache
    f = C.cache_file()
    assert C.write(f, {"key": "k", "heap_from": 100})

    def cut(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(C.os, "replace", cut)
    assert not C.write(f, {"key": "k", "heap_from": 200})
    assert json.loads(f.read_text())["heap_from"] == 100 and [p.name for p in where.iterdir()] == [f.name]


def test_a_failed_measurement_falls_back_to_the_fixed_crossover(cache, monkeypatch):
    where, _ = cache
    calls = []

    def broken(batch, block_for):
        calls.append(1)
        return {**LEVEL_AT_128, "lazy": {"64": float("nan"), "192": 1.0}}
    monkeypatch.setattr(C, "measure", broken)
    assert rue.heap_from() == rue.HEAP_FROM and rue.heap_from() == rue.HEAP_FROM and len(calls) == 1
    assert not list(where.iterdir())                            # nothing kept: the next process tries again


def test_small_calls_do_not_wait_for_a_calibration(cache):
    """A call of fewer arm-rounds than CALIBRATE_WORK takes HEAP_FROM where nothing is known yet (here:
    K = 150 below it, so the lazy pass), and the measured crossover once it is known (the trees, for runs
    this long)."""
    _, calls = cache
    K, n = 150, 300 + C.HEAP_ROUNDS
    means = np.random.default_rng(0).normal(0.5, 0.1, (4, K))
    seeds, rewards = _seeds(4, 0)
    stats = np.zeros((4, 3))
    rue.batch(means, n, seeds, rewards, gaussian=True, nu=0.5, stats=stats, **KNOWN)
    assert not calls and stats.sum() == 0
    assert rue.argmax_path(K, "known", False, work=C.CALIBRATE_WORK) == "heap" and len(calls) == 1
    rue.batch(means, n, seeds, rewards, gaussian=True, nu=0.5, stats=stats, **KNOWN)
    assert stats[:, H.REKEYS].sum() > 0 and len(calls) == 1


def _timings(lazy, heap, short=None):
    return {"lazy": dict(zip(("64", "192"), lazy)), "heap": dict(zip(("64", "192"), heap)),
            "heap_short": dict(zip(("64", "192"), short or heap))}


def test_the_fit_finds_where_the_costs_meet():
    assert C.crossover(LEVEL_AT_128) == 128 and C.crossover(LEVEL_AT_128, C.HEAP_ROUNDS * 10) == 128
    assert C.crossover(LEVEL_AT_128, C.SHORT_ROUNDS) == 192 and C.crossover(LEVEL_AT_128, 10) == 192
    between = C.crossover(LEVEL_AT_128, (C.SHORT_ROUNDS * C.HEAP_ROUNDS) ** 0.5)     # the trees at 125 ns
    assert between == 160
    assert C.crossover(_timings((50, 60), (500, 600))) == C.HEAP_MAX
    assert C.crossover(_timings((50, 150), (10, 12))) == C.HEAP_MIN
    # the trees' cost is not extrapolated below the first point: level at 64 means 64, not lower
    assert C.crossover(_timings((100, 200), (100, 110))) == 64
    for bad in (_timings((0, 1), (1, 1)), _timings((1, 1), (1, float("inf"))), {"lazy": {}}, None, "fast"):
        with pytest.raises(ValueError, match="timings must"):
            C.crossover(bad)


def test_the_budget_moves_the_crossover(cache, monkeypatch):
    """Runs of few rounds take the trees from a higher K (their first rounds cost the trees more): the
    default follows the budget of the call."""
    rue.heap_from()
    assert rue.argmax_path(150, "known", False, n=300 + C.SHORT_ROUNDS) == "lazy"
    assert rue.argmax_path(150, "known", False, n=300 + C.HEAP_ROUNDS) == "heap"
    assert rue.argmax_path(150, "known", False) == "heap"


def test_a_real_calibration_writes_a_value_in_the_window(tmp_path, monkeypatch):
    """The measurement itself, shortened (no figure is asserted: the value depends on the host and its load)."""
    monkeypatch.setattr(C, "cache_dir", lambda: tmp_path)
    monkeypatch.setattr(C, "_known", {})
    monkeypatch.setattr(C, "LAZY_ROUNDS", 200)
    monkeypatch.setattr(C, "HEAP_ROUNDS", 1000)
    monkeypatch.setattr(C, "SHORT_ROUNDS", 300)
    monkeypatch.setattr(C, "REPEATS", 1)
    value = rue.heap_from()
    assert C.HEAP_MIN <= value <= C.HEAP_MAX
    kept = json.loads(C.cache_file().read_text())
    assert kept["heap_from"] == value and set(kept["ns_per_round"]) == set(C.TIMINGS)
    assert all(x > 0 for d in kept["ns_per_round"].values() for x in d.values())


def test_the_cache_sits_beside_numbas_kernels():
    """In the directory numba keeps rue_heap's compiled kernels in (NUMBA_CACHE_DIR where set), keyed by host."""
    assert C.cache_dir() == Path(H._batch._cache.cache_path)
    assert C.cache_file().name == f"{C.PREFIX}{C.host_key()}.json" and C.host_key() == C.host_key()
