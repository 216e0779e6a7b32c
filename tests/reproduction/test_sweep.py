"""rue_verify.reproduction.run_sweep and open_store: a killed sweep resumes to the same file, the Dask path
gives the local rows, and a result directory of another definition or version is refused."""

import csv
import json

import pytest

from rue_verify.reproduction import manifest, open_store, read_rows, run_sweep
from rue_verify.reproduction.grid import Scale, grid

TINY = Scale("tiny", fixed_runs=16, random_instances=3, random_runs=4, arms_runs=4, two_stage_runs=8,
             two_stage_random_runs=2)


def tiny_tasks():
    """A small slice of the real grid: two fixed setups and R2's two-stage settings."""
    tasks = grid(TINY, studies=("fixed", "two-stage"))
    keep = [t for t in tasks if (t.study == "fixed" and t.setup in ("F2", "F6") and t.H_convention == "suboptimal")
            or (t.study == "two-stage" and t.setup == "R2" and t.budget == "N/4")]
    return keep


def comparable(rows):
    return [{k: v for k, v in r.items() if k != "wall_seconds"} for r in rows]


class Stop(Exception):
    pass


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    tasks = tiny_tasks()
    d = tmp_path_factory.mktemp("full")
    rows, _ = run_sweep(tasks, 5, open_store(d, manifest(tasks, 5, "tiny", ("project",))), progress=False)
    return tasks, rows, d


def test_a_killed_sweep_resumes_to_the_same_file(uninterrupted, tmp_path):
    tasks, full, _ = uninterrupted
    m = manifest(tasks, 5, "tiny", ("project",))
    seen = []

    def stop_after_seven(row):
        seen.append(row["key"])
        if len(seen) == 7:
            raise Stop
    with pytest.raises(Stop):
        run_sweep(tasks, 5, open_store(tmp_path, m), progress=False, on_row=stop_after_seven)
    assert len(read_rows(tmp_path)) == 7                    # every finished task is on disk
    with open(tmp_path / "results.csv", "a") as f:         # and a write that was cut off
        f.write(full[9]["key"] + ",fixed,F2,20")
    ran = []
    rows, _ = run_sweep(tasks, 5, open_store(tmp_path, m), progress=False, on_row=lambda r: ran.append(r["key"]))
    assert len(ran) == len(tasks) - 7                      # nothing that finished is run again
    assert comparable(rows) == comparable(full)
    assert comparable(read_rows(tmp_path)) == comparable(full)


def test_dask_cluster_gives_the_local_rows(uninterrupted, tmp_path):
    distributed = pytest.importorskip("distributed")
    tasks, full, _ = uninterrupted
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as lc, \
            distributed.Client(lc) as client:
        rows, _ = run_sweep(tasks, 5, open_store(tmp_path, manifest(tasks, 5, "tiny", ("project",))),
                            client=client, progress=False)
    assert comparable(rows) == comparable(full)


def test_a_directory_of_another_definition_or_version_is_refused(uninterrupted, tmp_path):
    tasks, _, d = uninterrupted
    with pytest.raises(ValueError, match="--out: .* holds results of another definition"):
        open_store(d, manifest(tasks[:-1], 5, "tiny", ("project",)))
    with pytest.raises(ValueError, match="another definition"):
        open_store(d, manifest(tasks, 6, "tiny", ("project",)))          # another seed
    m = json.loads((d / "manifest.json").read_text())
    with pytest.raises(ValueError, match="holds results of another version"):
        open_store(d, {**m, "version": "0.0.1"})
    (tmp_path / "results.csv").write_text("x\n")
    with pytest.raises(ValueError, match="without a manifest"):
        open_store(tmp_path, m)


def test_rows_say_what_produced_them(uninterrupted):
    _, rows, d = uninterrupted
    with open(d / "results.csv", newline="") as f:
        header = next(csv.reader(f))
    for col in ("setup", "K", "budget", "n", "normal_scale", "H_convention", "algorithm", "params", "total_runs",
                "failures", "error_rate", "ci_low", "ci_high", "simple_regret", "regret_ci_low", "regret_ci_high",
                "seed", "version", "wall_seconds"):
        assert col in header
    r = rows[0]
    assert 0 <= float(r["ci_low"]) <= float(r["error_rate"]) <= float(r["ci_high"]) <= 1
    assert int(r["failures"]) == sum(map(int, r["per_instance_failures"].split(";")))


SWEEP = """
import sys
from rue_verify.reproduction import open_store
from rue_verify.reproduction import manifest, run_sweep
from tests.reproduction.test_sweep import tiny_tasks
tasks = tiny_tasks()
run_sweep(tasks, 5, open_store(sys.argv[1], manifest(tasks, 5, "tiny", ("project",))), progress=False,
          wait=sys.argv[2] == "wait")
print("done", flush=True)
"""


def test_two_real_sweeps_on_one_directory_lose_and_duplicate_nothing(uninterrupted, tmp_path):
    """Two processes started together on the same directory with --wait: the second runs after the
    first and finds nothing left. The file holds every row once, as an uninterrupted run writes it
    (a second writer without --wait is refused: test_store)."""
    import pathlib
    import subprocess
    import sys
    tasks, full, _ = uninterrupted
    root = pathlib.Path(__file__).resolve().parents[2]
    procs = [subprocess.Popen([sys.executable, "-c", SWEEP, str(tmp_path), "wait"], cwd=root, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-800:] for o in outs]
    rows = read_rows(tmp_path)
    assert sorted(r["key"] for r in rows) == sorted(t.key for t in tasks)        # each once
    assert comparable(rows) == comparable(full)


def test_a_dask_worker_killed_mid_sweep_ends_with_the_same_rows(uninterrupted, tmp_path):
    """A LocalCluster of two worker processes; after the first row one worker is killed (SIGKILL). The
    scheduler gives its tasks to the other, and the sweep ends with the uninterrupted run's rows."""
    import os
    import signal
    distributed = pytest.importorskip("distributed")
    tasks, full, _ = uninterrupted
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            distributed.Client(lc) as client:
        killed = []

        def kill_one(row):
            if not killed:
                pid = next(iter(client.run(os.getpid).values()))
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
        rows, _ = run_sweep(tasks, 5, open_store(tmp_path, manifest(tasks, 5, "tiny", ("project",))), client=client,
                            progress=False, on_row=kill_one)
    assert killed and comparable(rows) == comparable(full)
    assert comparable(read_rows(tmp_path)) == comparable(full)
