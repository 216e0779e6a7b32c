"""rue_verify.decide (`rue-verify decide FILE.py:NAME`): a researcher's own step decided on every
reward history of RUE on E: a planted false step is broken by a history that the plain reference RUE
replays, a true one holds with the number of sequences searched, and bad input is refused in one line."""

import json
import textwrap

import pytest

from rue_verify.cli import main
from rue_verify.decide import Violation, decide, gap_at_least, gap_below

STEPS = '''
from rue_verify.decide import Violation, gap_at_least, gap_below


def rare(m, arms):
    """False only where the second arm, 0.6 worse than the best, is pulled 4 times or more by n = 9
    (a history the prior makes rare, but a history on E all the same)."""
    T = m.counts(arms)
    return [Violation("T_2 >= 4", [gap_at_least(m, 1, 0.6)], {"T_2": int(T[1])})] if T[1] >= 4 else []


def initialised(m, arms):
    """True: RUE pulls every arm twice first."""
    T = m.counts(arms)
    return [Violation(f"arm {k + 1} short", [gap_below(m, k, 1e3)], {}) for k in range(m.K) if T[k] < 2]
'''


@pytest.fixture(scope="module")
def steps(tmp_path_factory):
    path = tmp_path_factory.mktemp("steps") / "mysteps.py"
    path.write_text(textwrap.dedent(STEPS))
    return path


def test_a_planted_false_step_is_broken_by_a_history_that_replays(steps, capsys):
    assert main(["decide", f"{steps}:rare", "--K", "2", "--n", "9", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    w = res["witness"]
    assert not res["holds"] and w["pulls"].count(2) >= 4 and w["means"][0] - w["means"][1] > 0.6
    assert res["visited"] > 0 and res["params"]["E_rounds"] == [5, 9]


def test_a_true_step_holds_and_says_how_far_it_searched(steps, capsys):
    assert main(["decide", f"{steps}:initialised", "--K", "3", "--n", "9"]) == 0
    out = capsys.readouterr().out
    assert "holds: no history on E breaks it up to n = 9" in out and "pull sequences" in out


def test_decide_from_python_and_bad_input():
    def never(m, arms):
        return [Violation("x", [gap_at_least(m, 1, 1.0), gap_below(m, 1, 0.5)], {})]   # contradictory: never
    assert decide(never, 2, 7)["holds"]
    with pytest.raises(ValueError, match="n must be an integer in \\[5, 20\\]"):
        decide(never, 2, 4)
    with pytest.raises(ValueError, match="route"):
        decide(never, 2, 7, route="other")


def test_the_command_refuses_what_it_cannot_run(steps, capsys):
    for args, said in (([f"{steps}:missing"], "has no function missing"), (["nocolon"], "expected FILE.py:NAME"),
                       ([f"{steps.parent / 'none.py'}:rare"], "no file")):
        assert main(["decide", *args]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and said in err[0], err
