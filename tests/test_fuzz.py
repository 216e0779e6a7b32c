"""Fuzzing the command line and the public Python functions with generated input: valid, boundary and
invalid values (negative, zero, NaN, inf, huge, empty, wrong type, unknown names).

The command line (in-process, as the console script calls it): exit status 0 or 2, never an
exception; on 2 exactly one line on stderr, naming a flag or a parameter; on 0 with --json, output
that parses. The Python API: a value, or a ValueError (UndefinedError included) that names a
parameter; never another exception, a NaN or a complex number.

Examples per test: RUE_FUZZ_EXAMPLES (default 12, a short run for CI; the long run uses thousands).
Subcommands that would run for minutes when valid (bench, reproduce, a full claims run) are given
at least one invalid value, so they stop at validation.
"""

import json
import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bounds import UndefinedError
from bounds.registry import REGISTRY as BOUNDS
from rue_verify.cli import main

EXAMPLES = int(os.environ.get("RUE_FUZZ_EXAMPLES", "12"))
fuzz = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

JUNK = ["", "nan", "inf", "-inf", "-1", "0", "1e400", "abc", "1,2", "0x10", "None", "[]", "1e-400", "-0"]


def values(*good):
    return st.sampled_from([str(g) for g in good] + JUNK)


SIMULATE = {
    "--setup": values("F1", "f2", "F6", "R1", "R3", "custom", "F9"),
    "--means": values("0.5,0.45,0.4", "0.9,0.1", "0.5", "0.5,0.5", "0.5,2", "0.3,0.2,0.1,0.05"),
    "--K": values(2, 3, 5, 20, "1e1", 1, 2.5, 100001),
    "--budget": values(60, 200, "H/2", "h", "2H", "1e2", "3H", 10 ** 10),
    "--algorithms": values("rue", "ucbe,sr", "sh,two-stage", "ttts", "uniform", "rue2", ","),
    "--runs": values(1, 2, 5, "1e0", 10 ** 8),
    "--seed": values(0, 7, 2 ** 63, -5),
    "--reward": values("bernoulli", "gaussian", "poisson"),
    "--nu-sq": values(0.25, 1, 1e7),
    "--nu_sq": values(1),
    "--normal-scale": values("variance", "sd", "var"),
    "--clip-policy": values("redraw", "clip", "error"),
    "--H-convention": values("suboptimal", "section2", "mine"),
    "--rue-variances": values("authors", "unbiased", "known", "anova"),
    "--sigma0-sq": values(0.1, 1),
    "--ucbe-c": values(2, 0.5, 1e7),
    "--ucbe-a-form": values("cn/H", "c", "n"),
    "--q": values(0.3, 0.9, 1),
    "--tie-rule": values("random", "lowest-index", "first"),
    "--workers": values(1, 2, 2000),
    "--level": values(0.95, 0.5, 1),
    "--crn": None, "--json": None, "--bogus": None,
}
TABLE = {"--setups": values("F1", "f2,F3", "F9", "R1"), "--budgets": values("60", "H/2", "1e2", "3H"),
         "--K": values(2, 5, 1), "--runs": values(1, 3), "--seed": values(0), "--json": None}
VACUITY = {"--K": values(2, 20, 40, 100, "1e2"), "--delta": values(0.01, 1, 2), "--sigma0-sq": values(1, 0.1),
           "--sigma_sq": values(0.1, 1), "--sigma-sq": values(1), "--n-max": values(1000, "1e12"),
           "--bound": values("theorem_5_1", "theorem_5_2"), "--map": None, "--json": None}
CLAIMS = {"--id": values("SEC2-THR-0223", "DISC-MK,EXP-K80", "NOPE", "SEC2-THR-0147,NOPE"), "--seed": values(3),
          "--json": None, "-v": None}
BOUND_FLAGS = sorted({"--" + p for e in BOUNDS.values() for p in e.params} |
                     {"--" + p.replace("_", "-") for e in BOUNDS.values() for p in e.params})
BOUND = {f: values(1, 2, 40, 100, "1e6", 0.01, "2,5,3", "0.5,0.4,0.3") for f in BOUND_FLAGS}
BOUND.update({"--json": None, "--symbolic": None, "--latex": None})
SLOW = {"bench": {"--algorithms": values("rue2", ""), "--repeats": values(0, -1, "x"),
                  "--reference-seconds": values(-1, "nan")},
        "reproduce": {"--conventions": values("mine", ""), "--studies": values("figure9", ""),
                      "--seed": values(-1, "x")}}


@st.composite
def argv(draw, command, flags, must_fail=False):
    keys = draw(st.lists(st.sampled_from(sorted(flags)), max_size=5, unique=True))
    out = [command]
    if command == "bound":
        out.append(draw(st.sampled_from(sorted(BOUNDS) + ["nope", "--list"])))
    for k in keys:
        out.append(k)
        if flags[k] is not None:
            out.append(draw(flags[k]))
    if must_fail:
        k = draw(st.sampled_from(sorted(flags)))
        out += [k, draw(st.sampled_from(["-1", "nan", "x", "", "1e400"]))]
    if command == "claims" and "--id" not in keys:       # the whole ledger takes minutes: fuzz cheap claims
        out += ["--id", draw(st.sampled_from(["SEC2-THR-0223", "EXP-K80,DISC-MK", "NOPE"]))]
    if command in ("simulate", "table") and "--runs" not in keys:     # 1000 runs of every algorithm take minutes:
        out += ["--runs", draw(st.sampled_from(["1", "3"]))]           # the fuzz is about the arguments
    if command == "table" and "--setups" not in keys:       # every setup at its paper budgets takes a minute
        out += ["--setups", draw(st.sampled_from(["F1", "R1"]))]
    if command in ("simulate", "table", "claims", "bench", "reproduce"):
        out.append("-q")
    return out


def check(capsys, args):
    code = main(args)
    out, err = capsys.readouterr()
    assert code in (0, 2), (args, code, err[-500:])
    if code == 2:
        lines = [x for x in err.splitlines() if x.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, err[-800:])
        named = "--" in lines[0] or any(w in lines[0] for w in ("budget", "custom_means", "means", "setup", "K",
                                                               "nu_sq", "claim", "bound", "reward"))
        assert named, (args, lines[0])
    elif "--json" in args:
        strict_json(out)
    return code


def strict_json(text: str):
    """`text` parsed as strict JSON: NaN, Infinity and -Infinity (which Python's json reads by default)
    are refused."""
    def refuse(name):
        raise ValueError(f"not strict JSON: {name}")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("command,flags", [("simulate", SIMULATE), ("table", TABLE), ("vacuity", VACUITY),
                                           ("claims", CLAIMS), ("bound", BOUND)])
@fuzz
@given(data=st.data())
def test_cli_exits_cleanly(capsys, command, flags, data):
    check(capsys, data.draw(argv(command, flags)))


@pytest.mark.parametrize("command", sorted(SLOW))
@fuzz
@given(data=st.data())
def test_slow_commands_refuse_bad_input_before_working(capsys, command, data):
    assert check(capsys, data.draw(argv(command, SLOW[command], must_fail=True))) == 2


# ---------------------------------------------------------------- the Python API
NUMBERS = st.one_of(st.sampled_from([0, 1, 2, -1, 40, 1e6, 0.5, float("nan"), float("inf"), -float("inf"), 1e308,
                                     1e-308, True, "1", None, [1, 2], [2.0, 3.0, 4.0], []]),
                    st.floats(allow_nan=True, allow_infinity=True), st.integers(-10, 10 ** 7))


def _finite(v) -> bool:
    if isinstance(v, dict):
        return all(_finite(x) for x in v.values())
    if hasattr(v, "_fields"):
        return all(_finite(getattr(v, f)) for f in v._fields)
    a = np.asarray(v)
    return a.dtype.kind in "fiub" and bool(np.all(np.isfinite(a)))


@pytest.mark.parametrize("name", sorted(BOUNDS))
@fuzz
@given(data=st.data())
def test_every_bound_returns_a_finite_value_or_a_named_error(name, data):
    e = BOUNDS[name]
    kwargs = {p: data.draw(NUMBERS, label=p) for p in e.params}
    try:
        v = e.fn(**kwargs)
    except UndefinedError:
        return
    except ValueError as err:
        assert any(p in str(err) for p in e.params) or "must" in str(err), (name, kwargs, err)
        return
    assert _finite(v), (name, kwargs, v)


@fuzz
@given(setup=st.sampled_from(["F1", "R2", "custom", "X"]), K=NUMBERS, nu_sq=NUMBERS,
       means=st.one_of(st.none(), st.lists(st.floats(-1, 2), max_size=4)), runs=NUMBERS, budget=NUMBERS,
       alg=st.sampled_from(["rue", "sh", "two-stage", "nope"]), q=NUMBERS)
def test_simulate_api_validates_before_running(setup, K, nu_sq, means, runs, budget, alg, q):
    from simulate.environments import Environment
    from simulate.runner import simulate
    try:
        env = Environment(setup, K, None, nu_sq if nu_sq is not None else None, custom_means=means)
        small = isinstance(runs, int) and not isinstance(runs, bool) and runs <= 5 and \
            isinstance(budget, int) and not isinstance(budget, bool) and budget <= 2000
        if not small:        # valid large runs would simply take long: only small ones may reach the kernels
            budget = "not a budget"
        r = simulate(env, [(alg, {"q": q} if alg == "two-stage" else {})], budget, runs, progress=False)
    except ValueError:
        return
    assert all(0 <= x.error_rate <= 1 and math.isfinite(x.simple_regret) for x in r.results)
