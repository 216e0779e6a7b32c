"""rue_verify.verify.parallel: claims and figures give the same results on one process or several (each
search seeds itself by name); the installed-wheel test compares the whole ledger run on every core
with the sequential in-process one."""

import json
import os
import time

import pytest

from rue_verify.ledger import Mode, run_ledger
from rue_verify.verify import parallel

#: claims with Monte Carlo searches (compiled RUE, proof-step simulations), results and the rate study
IDS = ["PF-E3K", "LEM-TK-LOW", "THM-GAP", "EXP-TWOSTAGE", "SEC2-UCBE-UPPER", "RATE-REGRET"]
SMALL = Mode("test", K_max=400, random_samples=300, sim_runs=60, seed=5, search_points=6, search_runs=50,
             confirm_runs=500)


def plain(results):
    out = [r.to_json() for r in results]
    for r in out:
        r.pop("seconds")
    return json.dumps(out, sort_keys=True)


def test_the_ledger_is_the_same_on_one_process_or_two():
    seen = []
    one = run_ledger(SMALL, IDS, workers=1)
    two = run_ledger(SMALL, IDS, workers=2, progress=seen.append)
    assert [r.id for r in two] == IDS and sorted(seen) == sorted(IDS)
    assert plain(one) == plain(two)


def test_tasks_come_back_by_key_and_errors_propagate():
    out = parallel.run([(k, pow, (k, 2)) for k in range(5)], workers=2)
    assert out == {k: k * k for k in range(5)}
    try:
        parallel.run([("bad", int, ("x",))], workers=2)
    except ValueError:
        pass
    else:
        raise AssertionError("a task's exception must reach the caller")


def test_the_ledger_is_the_same_with_one_numba_thread_or_two():
    """The Monte Carlo searches' kernels split runs over threads; the findings must not depend on how
    many (here one thread in a fresh process against this process's two)."""
    import os
    import subprocess
    import sys

    import numba
    if numba.config.NUMBA_NUM_THREADS < 2:
        import pytest
        pytest.skip("one core: nothing to compare")
    here = plain(run_ledger(SMALL, IDS, workers=1))
    code = ("import sys; from tests.test_parallel import SMALL, IDS, plain; from rue_verify.ledger import run_ledger; "
            "sys.stdout.write(plain(run_ledger(SMALL, IDS, workers=1)))")
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                           cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert there.stdout == here


def _note_pid_and_sleep(path: str) -> None:
    with open(path, "w") as f:
        f.write(str(os.getpid()))
    time.sleep(120)


def test_a_caller_that_stops_early_stops_the_workers_at_once(tmp_path):
    """Closing `completed` part-way (as a sweep does when a row cannot be written, or on Ctrl-C) ends
    the worker still busy with a long task, rather than leaving it to finish."""
    note = tmp_path / "pid"
    runs = parallel.completed([("slow", _note_pid_and_sleep, (str(note),)), ("quick", pow, (3, 2))], workers=2)
    assert next(runs) == ("quick", 9)
    deadline = time.time() + 60
    while not (note.exists() and note.read_text()) and time.time() < deadline:
        time.sleep(0.05)
    pid = int(note.read_text())
    t0 = time.time()
    runs.close()
    assert time.time() - t0 < 30
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_the_running_hook_names_the_tasks_in_progress_and_ticks_while_they_run():
    """A progress display learns which tasks are in progress (the first `workers` unfinished ones, in
    the order given) and is called again every `every` seconds while a long task runs."""
    seen = []
    tasks = [("slow", time.sleep, (4.0,)), ("a", pow, (2, 2)), ("b", pow, (3, 2)), ("c", pow, (4, 2))]
    finished = []
    for key, _ in parallel.completed(tasks, workers=2, running=lambda keys: seen.append(list(keys)), every=0.2):
        finished.append(key)
    assert sorted(finished) == sorted(k for k, _, _ in tasks) and finished[-1] == "slow"
    assert seen[0] == ["slow", "a"]
    assert all(len(keys) <= 2 and keys[0] == "slow" for keys in seen)
    assert sum(keys == ["slow"] for keys in seen) >= 3          # ticks while the slow task alone runs


def test_the_ledgers_units_run_longest_first_by_the_papers_measured_seconds(monkeypatch):
    """`runner.units` orders by `Paper.seconds` (the mode's, else the quick ones); an untimed unit keeps its place
    after the timed ones; a paper without timings keeps the registry's order. The shipped table times the whole
    quick ledger."""
    import dataclasses

    from rue_verify.ledger import PAPER
    from rue_verify.verify import papers, runner
    ids = ["PF-E3K", "THM-GAP", "SEC2-UCBE-UPPER", "RATE-REGRET"]
    assert set(PAPER.seconds["quick"]) >= set(runner.select(None))
    timed = dataclasses.replace(PAPER, seconds={"quick": {"THM-GAP": 1.0, "SEC2-UCBE-UPPER": 5.0, "PF-E3K": 0.5}})
    monkeypatch.setattr(papers, "paper_of", lambda spec: timed)
    assert [u for u, _, _ in runner.units(ids, SMALL)] == [("SEC2-UCBE-UPPER",), ("THM-GAP",), ("PF-E3K",),
                                                           ("RATE-REGRET",)]
    monkeypatch.setattr(papers, "paper_of", lambda spec: dataclasses.replace(PAPER, seconds={}))
    assert [u for u, _, _ in runner.units(ids, SMALL)] == [(i,) for i in ids]
