"""simulate.bench: a smoke run (no timing is asserted) and the interleaving of its repeats."""

import numpy as np
import pytest


# ---------------------------------------------------------------- bench (a smoke run: no timing is asserted)
def test_bench_reports_best_and_slowest_of_its_repeats():
    from simulate.bench import bench
    lines = []
    rows = bench(["uniform", "ttts"], configs=(("F1", 6, 300, 8),), reference_seconds=0.0, threads=(1,),
                 out=lines.append, repeats=2)
    fast = [r for r in rows if r["impl"] == "numba"]
    assert [r["algorithm"] for r in fast] == ["uniform", "ttts"]
    assert all(r["repeats"] == 2 and r["arm_rounds_per_s"] >= r["slowest_arm_rounds_per_s"] > 0 for r in fast)
    assert len(lines) == 6 and "best of 2" in lines[0]
    host = [r for r in rows if r["impl"] == "host"]      # the CPU the figures belong to
    assert len(host) == 1 and host[0]["cpu"] and host[0]["llvm_target"] in lines[1] and host[0]["cpu"] in lines[1]
    checks = [r for r in rows if r["impl"] == "host-check"]
    assert [r["when"] for r in checks] == ["before", "after"] and [lines[2][:19], lines[-1][:18]] == \
        ["host check (before)", "host check (after)"]
    for r in checks:     # the ceiling is the harmonic combination of the two rates it names
        assert r["rue_ceiling_per_s"] == pytest.approx(1 / (1 / r["divisions_per_s"] + 1 / r["square_roots_per_s"]))
    assert all("ceiling" not in line for line in lines[2:-1])    # only RUE's rows are read against it
    rue = bench(["rue"], configs=(("F1", 6, 300, 8),), reference_seconds=0.0, threads=(1,), out=lines.append,
                repeats=1)
    (row,) = [r for r in rue if r["impl"] == "numba"]
    ceiling = next(r for r in rue if r.get("when") == "before")["rue_ceiling_per_s"]
    assert row["ceiling_share"] == pytest.approx(row["arm_rounds_per_s"] / ceiling)
    assert f"{row['ceiling_share']:.0%} of the ceiling" in lines[-2]
    with pytest.raises(ValueError, match="repeats"):
        bench(["uniform"], repeats=0)
    with pytest.raises(ValueError, match="algorithms: unknown unifrm"):     # it used to time `uniform`
        bench(["unifrm"])


def test_bench_interleaves_its_repeats(monkeypatch):
    """Each repeat round times every kernel once (a spell of outside load then slows one timing of
    many kernels, not every timing of one): after the compile and probe calls, the timed calls
    cycle through the kernels."""
    from simulate import bench as bench_module
    calls = []
    fast = bench_module._fast

    def recording(name, means, n, seeds, reward_seeds, kw):
        calls.append((name, len(seeds)))
        return fast(name, means, n, seeds, reward_seeds, kw)
    monkeypatch.setattr(bench_module, "_fast", recording)
    bench_module.bench(["uniform", "sh"], configs=(("F1", 6, 300, 160),), reference_seconds=0.0, threads=(1,),
                       out=lambda line: None, repeats=3)
    timed = [name for name, runs in calls if runs == 160]      # the probe call times rue.BLOCK (128)
    assert timed == ["uniform", "sh"] * 3


@pytest.fixture
def crossover_at_64(monkeypatch):
    """This host's crossover said to be K = 64 whatever the budget (no calibration runs in the bench's tests)."""
    from simulate.algorithms import rue
    from simulate.algorithms import rue_crossover as C
    monkeypatch.setattr(rue, "heap_from", lambda calibrate=True, n=None, K=0: 64)
    monkeypatch.setattr(C, "timings", lambda batch, block_for, calibrate=True: None)


@pytest.mark.parametrize("setup", ["F4", "F4:gaussian"])
def test_large_k_rows_count_the_indices_each_path_evaluates(setup, crossover_at_64):
    """The plain path evaluates K indices a round, the lazy and tree ones far fewer (each row says how
    many; the tree row also its re-keys and the share of rounds the plain sums decided), with either
    reward model."""
    from simulate.bench import LARGE_K_NAMES, bench
    lines = []
    rows = bench(LARGE_K_NAMES, configs=((setup, 70, 600, 8),), reference_seconds=0.0, threads=(1,),
                 out=lines.append, repeats=1)
    plain, lazy, heap = (next(r for r in rows if r.get("algorithm") == name and r["impl"] == "numba")
                         for name in LARGE_K_NAMES)
    assert plain["evaluations_per_round"] == 70 and 1 <= lazy["evaluations_per_round"] < 10
    assert 1 <= heap["evaluations_per_round"] < 10 and heap["evaluations_per_round"] <= heap["rekeys_per_round"] < 20
    assert 0 <= heap["plain_rounds_share"] < 0.1 and "rekeys_per_round" not in lazy
    assert any("re-keys a round" in line and "rue-known-heap" in line for line in lines)


def test_large_k_names_the_crossover_and_the_default_path_before_and_after(crossover_at_64):
    """With RUE's three paths timed, the bench says from which K this host takes the trees, and per K the ns a
    round of each path and of the path the default takes with the fixed HEAP_FROM and with this host's value."""
    from simulate.algorithms import rue
    from simulate.algorithms import rue_crossover as C
    from simulate.bench import LARGE_K_NAMES, bench
    lines = []
    rows = bench(LARGE_K_NAMES, configs=(("model", 100, 600, 8), ("model", 20, 300, 8)), reference_seconds=0.0,
                 threads=(1,), out=lines.append, repeats=1)
    (cross,) = [r for r in rows if r["impl"] == "crossover"]
    assert cross["heap_from"] == cross["heap_from_short"] == 64 and cross["fixed_heap_from"] == rue.HEAP_FROM
    assert f"RUE's trees on this host from K = 64 for runs of {C.HEAP_ROUNDS:,} rounds" in lines[2]
    ns = {r["algorithm"]: r["ns_per_round"] for r in rows if r["impl"] == "numba" and r["K"] == 100}
    assert all(r["ns_per_round"] == pytest.approx(r["wall_s"] * 1e9 / (r["runs"] * r["n"]))
               for r in rows if r["impl"] == "numba")
    table = lines[lines.index(next(x for x in lines if x.startswith("ns a round"))):]
    assert "this host's crossover at the row's budget" in table[0] and len(table) == 3
    assert "K = 100" in table[1] and "before lazy" in table[1] and "after heap" in table[1] and "(K = 64)" in table[1]
    assert f"{ns['rue-known-heap']:.1f}" in table[1] and f"{ns['rue-known-lazy']:.1f}" in table[1]
    assert "before lazy" in table[2] and "after lazy" in table[2]      # K = 20: below the window on every host


def test_the_crossover_grid_times_every_path_and_names_the_default(crossover_at_64):
    from simulate.bench import crossover_grid
    lines = []
    rows = crossover_grid((40, 100), (300,), out=lines.append, max_work=2e6)
    grid = [r for r in rows if r["impl"] == "grid"]
    assert [(r["K"], r["before"], r["after"], r["crossover"]) for r in grid] == [(40, "lazy", "lazy", 64),
                                                                                (100, "lazy", "heap", 64)]
    assert set(grid[0]["ns_per_round"]) == {"plain", "lazy", "heap"}
    assert all(v > 0 for v in grid[0]["ns_per_round"].values())
    assert set(grid[1]["ns_per_round"]) == {"heap"}              # plain and lazy above max_work: left out
    assert "before lazy" in lines[-2] and "-" in lines[-1] and "before" not in lines[-1]


def test_a_setups_reward_model_is_gaussian_or_bernoulli():
    from simulate.bench import _kernel_kwargs, _setup
    assert _setup("F4") == ("F4", False) and _setup("F4:gaussian") == ("F4", True)
    assert _setup("model") == ("model", True)
    assert _kernel_kwargs("rue-known-lazy", np.full(3, 0.5), 100, gaussian=True)["gaussian"] is True
    with pytest.raises(ValueError, match="setup"):
        _setup("F4:poisson")
