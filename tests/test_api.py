"""The commands as Python functions (`rue_verify.api`) and their declared parameters
(`rue_verify.api.params`): every flag reaches its function, and a bad value is refused the same way from
Python as from the command line, naming the parameter."""

import inspect
import math

import pytest

from rue_verify import api
from rue_verify.api.params import COMMANDS, P, check
from rue_verify.cli import main
from rue_verify.errors import ParameterError

#: flags that only shape what the command line prints, or that it turns into another argument (the size
#: flags into `scale`, bound's three forms into `name` and `form`, --quiet into `progress`)
PRINTING = {"json", "quiet"}
TURNED = {"report": {"quick", "full"}, "reproduce": {"quick", "paper"}, "rates": {"quick", "paper"},
          "bound": {"list", "symbolic", "latex"}}


def test_every_command_is_one_function_and_every_flag_one_of_its_parameters():
    """A declared flag whose function has no such parameter would be dropped without a word; a planted
    one is caught the same way."""
    assert set(api.COMMANDS) == set(COMMANDS)

    def dropped(name, params):
        takes = inspect.signature(api.COMMANDS[name]).parameters
        return {p.name for p in params} - set(takes) - PRINTING - TURNED.get(name, set())
    for name, command in COMMANDS.items():
        assert not dropped(name, command.params), name
    assert dropped("claims", COMMANDS["claims"].params + (P("--seeds", "int"),)) == {"seeds"}


def _outside(p: P):
    """A value just outside a parameter's range (None where it has none)."""
    if p.kind == "seed":
        return -1
    if p.kind == "choice":
        return "no-such-" + p.name
    if p.kind == "switch":
        return "yes"
    if p.kind not in ("int", "real"):
        return None
    if p.low is not None:
        return p.low if p.open_low else (p.low - 1 if p.kind == "int" else p.low - 1e-9 * max(1, abs(p.low)))
    if p.high is not None:
        return p.high + 1
    return math.nan


RANGED = [(name, p) for name, c in COMMANDS.items() for p in c.params
          if _outside(p) is not None and p.name not in PRINTING | TURNED.get(name, set())]


def test_every_ranged_parameter_is_declared():
    assert len(RANGED) > 40


@pytest.mark.parametrize("name,p", RANGED, ids=[f"{n}-{p.name}" for n, p in RANGED])
def test_a_value_outside_a_declared_range_is_refused_from_python_naming_the_parameter(name, p):
    """Refused before the command does anything (only that argument is given)."""
    with pytest.raises(ParameterError) as err:
        api.COMMANDS[name](**{p.name: _outside(p)})
    assert err.value.param == p.name
    check(name, {p.name: p.default})                     # the default passes


NUMBERS = [(n, p) for n, p in RANGED if p.kind in ("int", "real")][::3]


@pytest.mark.parametrize("name,p", NUMBERS, ids=[f"{n}-{p.name}" for n, p in NUMBERS])
def test_the_command_line_refuses_it_with_the_same_words(name, p, capsys):
    value = _outside(p)
    with pytest.raises(ParameterError) as err:
        check(name, {p.name: value})
    text = f"{value:g}" if isinstance(value, float) else str(value)
    assert main([name, f"{p.names[-1]}={text}"]) == 2
    said = capsys.readouterr().err
    assert err.value.reason.rsplit(", got", 1)[0] in said and p.names[-1] in said, said


def test_a_wrong_type_is_refused_not_run():
    with pytest.raises(ParameterError, match="runs"):
        api.simulate(runs=2.5)
    with pytest.raises(ParameterError, match="crn"):
        api.simulate(crn="no")
    with pytest.raises(ParameterError, match="seed"):
        api.table(seed=True)


def test_a_command_returns_what_its_command_line_prints(capsys):
    out = api.vacuity(K=100, sigma0_sq=1.0, sigma_sq=0.1, delta=0.01)
    assert main(["vacuity", "--K", "100", "--sigma0-sq", "1", "--sigma-sq", "0.1", "--delta", "0.01"]) == 0
    assert capsys.readouterr().out.strip() == "\n".join(out.text)
    assert out.status == 0 and out.data["K"] == 100
    assert "K:" in api.vacuity.__doc__ and "delta = nu^2 / sigma^2" in api.vacuity.__doc__


def test_a_formulas_value_carries_exactly_the_parameters_given(capsys):
    """The command line passes a formula its --PARAM VALUE pairs and nothing else (a parameter of the call
    itself once leaked into the record as 'params': {})."""
    import json
    given = {"K": 100, "n": 10 ** 6, "sigma0_sq": 1.0, "sigma_sq": 0.1, "delta": 0.01}
    assert main(["bound", "theorem_5_1", "--json", *[w for k, v in given.items() for w in (f"--{k}", str(v))]]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["params"] == given
    assert record == json.loads(json.dumps(api.bound("theorem_5_1", **given).data))


def test_an_algorithms_parameter_that_would_be_ignored_is_refused_before_any_run():
    """A parameter of an algorithm that is not run, or a shared one that no algorithm run takes, is refused
    naming its flag; one that an algorithm run takes reaches it (its result's parameters say so)."""
    with pytest.raises(ParameterError) as err:
        api.simulate(setup="F1", runs=10, algorithms=["ucbe"], params={"rue:variances": "known"})
    assert err.value.param == "rue-variances" and "add rue to --algorithms" in err.value.reason
    with pytest.raises(ParameterError) as err:
        api.simulate(setup="F1", runs=10, algorithms=["two-stage"], params={"sh:tie_rule": "random"})
    assert "--two-stage-tie-rule" in err.value.reason          # the selected algorithm that takes it
    with pytest.raises(ParameterError) as err:
        api.simulate(setup="F1", runs=10, algorithms=["uniform"], params={"*:tie_rule": "lowest-index"})
    assert err.value.param == "tie_rule"
    out = api.simulate(setup="F1", runs=10, algorithms=["ucbe"], params={"ucbe:c": 3.0})
    assert out.data["results"][0]["params"]["c"] == 3.0


def test_the_modules_example_runs():
    import doctest
    result = doctest.testmod(api)
    assert result.attempted >= 3 and result.failed == 0


def test_numpy_numbers_are_numbers_and_numpy_booleans_are_not():
    import numpy as np
    check("simulate", {"runs": np.int64(10), "K": np.int32(5), "level": np.float64(0.9)})
    for bad in (np.bool_(True), np.float64(np.nan), np.int64(0)):
        with pytest.raises(ParameterError, match="runs"):
            check("simulate", {"runs": bad})


def test_a_numpy_number_reaches_the_command_as_the_number_it_holds():
    import numpy as np
    out = api.simulate(setup="F1", K=np.int64(5), runs=np.int64(20), seed=np.int64(3), budget=100, algorithms=["ucbe"])
    assert type(out.data["runs"]) is int and out.data["runs"] == 20 and "np.int64" not in out.text[0]


def test_a_commands_running_lines_come_back_as_its_text_or_go_where_it_is_told():
    """A table printed as it is measured (bench's, rates --split's): without `echo` the lines are the
    returned text; with it they go there as they come and are not returned a second time."""
    kw = {"algorithms": ["uniform"], "repeats": 1, "reference_seconds": 0.0}
    out = api.bench(**kw)
    assert out.text and out.text[0].startswith("machine:") and out.data
    shown = []
    again = api.bench(**kw, echo=shown.append)
    assert again.text == [] and shown[0].startswith("machine:") and len(shown) == len(out.text)


@pytest.mark.parametrize("name", ["claims", "proofs", "erratum", "report"])
def test_recheck_runs_the_command_with_no_kept_decision_and_no_shipped_figure_then_restores(name, monkeypatch):
    """`--recheck` (every ledger command): while the command runs, the decision cache and the shipped decisions are
    off and figures are drawn (the environment its worker pools inherit); after it, the environment is as it was."""
    import os

    from rue_verify.api import ledger, studies
    from rue_verify.api.params import RECHECK_ENV
    seen = {}

    class Stop(Exception):
        pass

    def spy(*a, **k):
        seen.update({key: os.environ.get(key) for key in RECHECK_ENV})
        raise Stop
    monkeypatch.setattr(ledger, "_run", spy)
    monkeypatch.setattr(studies, "_report_paper", spy, raising=False)
    import rue_verify.outputs.report as rep
    monkeypatch.setattr(rep, "report", spy)
    monkeypatch.setenv("RUE_VERIFY_CACHE", "/somewhere")
    monkeypatch.delenv("RUE_VERIFY_REDRAW", raising=False)
    with pytest.raises(Stop):
        getattr(api, name)(recheck=True)
    assert seen == RECHECK_ENV
    assert os.environ["RUE_VERIFY_CACHE"] == "/somewhere" and "RUE_VERIFY_REDRAW" not in os.environ
    seen.clear()
    with pytest.raises(Stop):
        getattr(api, name)()
    assert seen == {"RUE_VERIFY_CACHE": "/somewhere", "RUE_VERIFY_REDRAW": None}
