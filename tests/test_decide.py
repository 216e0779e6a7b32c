"""rue_verify.decide (`rue-verify decide FILE.py:NAME`): a researcher's own step decided on every
reward history of RUE on E at every budget up to n, or for every n by induction: a planted false step
is broken by a history that the plain reference RUE replays, at the first budget where it breaks; a
step that singles out one of arms 2..K is searched over every arm, and a false declaration of symmetry
is caught; a margin exactly 0 is decided exactly; an inductive step is proved for every n or refuted
with a history the solver's counterexample leads to; bad input is refused in one line."""

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


def third_arm(m, arms):
    """False: arm 3 alone (not arm 2), 0.5 worse than the best, pulled a third time by n = 8."""
    T = m.counts(arms)
    return [Violation("T_3 >= 3", [gap_at_least(m, 2, 0.5)], {})] if T[2] >= 3 else []


def third_arm_declared(m, arms):
    return third_arm(m, arms)


third_arm_declared.symmetric = True


def fourth_arm_declared(m, arms):
    """False, and unchanged by exchanging arms 2 and 3: arm 4 alone, pulled a third time. Declared
    symmetric, which only a check of the other relabellings of arms 2..4 can catch."""
    T = m.counts(arms)
    return [Violation("T_4 >= 3", [gap_at_least(m, 3, 0.5)], {})] if T[3] >= 3 else []


fourth_arm_declared.symmetric = True


def small_budgets(m, arms):
    """False at budgets 5-8 only (the step asks nothing at n >= 9)."""
    return [Violation("n <= 8", [gap_at_least(m, 1, 0.0)], {})] if m.n <= 8 and m.counts(arms)[1] >= 3 else []


def zero_margin(m, arms):
    """True with margin exactly 0: Delta_2 >= 0 (arm 1 is the best), tight at Delta_2 = 0."""
    return [Violation("Delta_2 < 0", [gap_below(m, 1, 0.0)], {})]
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
    assert res["visited"] > 0 and res["params"]["E_rounds"] == [5, res["budget"]] and res["budget"] == len(w["pulls"])


def test_a_true_step_holds_and_says_how_far_it_searched(steps, capsys):
    assert main(["decide", f"{steps}:initialised", "--K", "3", "--n", "9"]) == 0
    out = capsys.readouterr().out
    assert "holds (exhausted): no history on E breaks it at every budget n = 7..9" in out and "pull sequences" in out


def test_decide_from_python_and_bad_input():
    def never(m, arms):
        return [Violation("x", [gap_at_least(m, 1, 1.0), gap_below(m, 1, 0.5)], {})]   # contradictory: never
    assert decide(never, 2, 7)["holds"]
    with pytest.raises(ValueError, match="n must be an integer in \\[5, 20\\]"):
        decide(never, 2, 4)
    with pytest.raises(ValueError, match="max_seconds: .* K = 6 up to n = 20"):       # estimated before it starts
        decide(never, 6, 20)
    with pytest.raises(ValueError, match="route"):
        decide(never, 2, 7, route="other")


def test_the_command_refuses_what_it_cannot_run(steps, capsys):
    for args, said in (([f"{steps}:missing"], "has no function missing"), (["nocolon"], "expected FILE.py:NAME"),
                       ([f"{steps.parent / 'none.py'}:rare"], "no file")):
        assert main(["decide", *args]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and said in err[0], err


def test_a_step_that_singles_out_an_arm_is_searched_over_every_arm(steps, capsys):
    """Relabelling arms 2..K would try arm 2 only and call this false step true: every arm is tried
    unless the step declares symmetry, and a false declaration is caught on the histories visited."""
    assert main(["decide", f"{steps}:third_arm", "--K", "3", "--n", "10", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["status"] == "broken" and res["witness"]["pulls"].count(3) >= 3 and not res["symmetric"]
    assert main(["decide", f"{steps}:third_arm_declared", "--K", "3", "--n", "10"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "declared symmetric" in err[0]
    # a declaration that exchanging arms 2 and 3 alone does not expose (arm 4 singled out) is caught too
    assert main(["decide", f"{steps}:fourth_arm_declared", "--K", "4", "--n", "11"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "declared symmetric" in err[0], err
    # the paper's own steps are symmetric in arms 2..K: the declaration holds on every history visited
    from rue_verify.decide import _checked
    from rue_verify.ledger.proof_histories import STEPS, Params
    p = Params(3, 9, 1.0, 1.0, "paper")
    for name, (build, _) in STEPS.items():
        assert decide(_checked(build(p), 3), 3, 9, every_budget=False, symmetric=True)["status"] in ("holds", "broken")


def test_a_step_broken_at_small_budgets_is_reported_broken_with_its_budget(steps, capsys):
    assert main(["decide", f"{steps}:small_budgets", "--K", "2", "--n", "10", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["status"] == "broken" and res["budget"] <= 8 and res["budgets"] == [5, 10]
    assert main(["decide", f"{steps}:small_budgets", "--K", "2", "--n", "10", "--at-budget", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "holds"         # at n = 10 alone it asks nothing


def test_a_margin_exactly_zero_is_decided_without_a_traceback_at_any_variance(steps, capsys):
    for s0 in ("100", "1", "0.01"):
        assert main(["decide", f"{steps}:zero_margin", "--K", "3", "--n", "9", "--sigma0-sq", s0, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["status"] == "holds"
    # the paper's regret-decomV at the point where the old tolerance (1e-9) met HiGHS's rounding
    from rue_verify.ledger.proof_histories import STEPS, Params
    p = Params(3, 10, 100.0, 1.0, "paper")
    res = decide(STEPS["regret-decomV"][0](p), 3, 10, 100.0, 1.0, "paper", every_budget=False)
    # its margin is 0 in real arithmetic; on the search's floating-point coefficients it is 0 or a few 1e-22,
    # and then only on a tie: said as undecided with that margin, never a traceback (the induction proves it)
    assert res["status"] == "holds" or (res["status"] == "undecided" and "margin" in res["undecided"])


BROKEN = '''
from rue_verify.decide import Induct


def returns_none(m, arms):
    return None


def raises(m, arms):
    return 1 / 0


def one_argument(m):
    return []


HOLDS_NONE = Induct(lambda p, s: None)
HOLDS_RAISES = Induct(lambda p, s: p["no such parameter"])
'''


@pytest.mark.parametrize("name,flags,said", [
    ("returns_none", [], "must return a list of Violation"),
    ("raises", [], "ZeroDivisionError"),
    ("one_argument", [], "must take two arguments"),
    ("HOLDS_NONE", ["--induct"], "must return a z3 Boolean formula"),
    ("HOLDS_RAISES", ["--induct"], "KeyError"),
])
def test_a_step_that_fails_is_one_line_naming_what_it_did(tmp_path, capsys, name, flags, said):
    """A step or an induction's holds that returns the wrong thing, raises or has the wrong signature is
    one line on stderr (with the file and line where it raised) and exit 2, never a traceback."""
    path = tmp_path / "broken.py"
    path.write_text(BROKEN)
    assert main(["decide", f"{path}:{name}", "--K", "2", "--n", "6", *flags]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0] and "Traceback" not in err[0], err
    if name in ("raises", "HOLDS_RAISES"):
        assert "broken.py:" in err[0]
