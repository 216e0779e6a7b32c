"""rue_verify.parallel: claims and figures give the same results on one process or several (each
search seeds itself by name); the installed-wheel test compares the whole ledger run on every core
with the sequential in-process one."""

import json

from rue_verify import parallel
from rue_verify.ledger import Mode, run_ledger

#: claims with Monte Carlo searches (compiled RUE, proof-step simulations) and results
IDS = ["PF-E3K", "LEM-TK-LOW", "THM-GAP", "EXP-TWOSTAGE", "SEC2-UCBE-UPPER"]
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
