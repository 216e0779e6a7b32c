"""rue_verify.cli: the command line parses, prints and turns errors into exit status 2."""

import json

import pytest

from rue_verify.cli import main
from rue_verify.ledger import SEVERITY


def test_json_schema(capsys):
    assert main(["claims", "--id", "SEC2-THR-0223", "DISC-MK", "--json", "-q"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["id"] for d in data] == ["SEC2-THR-0223", "DISC-MK"]
    for d in data:
        assert {"id", "location", "statement", "verdict", "summary", "findings"} <= set(d)
        assert d["verdict"] in SEVERITY
        for f in d["findings"]:
            assert {"verdict", "domain", "detail", "witness", "certified"} <= set(f)


def test_cli_bound_and_errors(capsys):
    assert main(["bound", "c_K", "--K", "20"]) == 0
    assert "undefined" in capsys.readouterr().out
    assert main(["bound", "theorem_5_1", "--K", "100", "--n", "1e6", "--sigma0_sq", "1", "--sigma_sq", "0.1",
                 "--delta", "0.01"]) == 0
    assert "total" in capsys.readouterr().out
    assert main(["bound", "theorem_5_1", "--K", "100", "--n", "10", "--sigma0_sq", "1", "--sigma_sq", "1",
                 "--delta", "1"]) == 2
    assert "n must be >= 4(K-1)" in capsys.readouterr().err
    assert main(["bound", "c_K", "--latex"]) == 0
    assert "\\log" in capsys.readouterr().out
    assert main(["claims", "--id", "NOPE", "-q"]) == 2


def test_simulate_help_names_every_registered_algorithm():
    from rue_verify.cli import build_parser
    from simulate.algorithms import REGISTRY
    sub = build_parser()._subparsers._group_actions[0].choices["simulate"]
    text = next(a.help for a in sub._actions if "--algorithms" in a.option_strings)
    assert text.split("registry: ")[1].split(")")[0] == ", ".join(REGISTRY)
    assert "path/to/file.py:NAME" in text                    # and how to bring one's own


@pytest.mark.parametrize("argv,flag", [
    (["simulate", "--setup", "F2", "--ucbe-c", "-1", "--runs", "10", "--algorithms", "ucbe"], "--ucbe-c"),
    (["simulate", "--setup", "F2", "--K", "20", "--budget", "10", "--runs", "3"], "budget"),
    (["simulate", "--setup", "custom"], "setup custom"),
    (["simulate", "--means", "0.5,1.2", "--budget", "100"], "custom_means"),
    (["simulate", "--setup", "F2", "--means", "0.5,0.4"], "setup F2 and means"),
    (["simulate", "--means", "0.5,0.4", "--K", "3"], "K 3"),
    (["table", "--setups", "f9"], "--setups"), (["table", "--runs", "-5"], "--runs"),
    (["table", "--budgets", "3H"], "--budgets"),
    (["bound", "theorem_5_1", "--K", "100,200", "--n", "1e6", "--sigma0-sq", "1", "--sigma-sq", "0.1",
      "--delta", "0.01"], "--K"),
    (["bound", "c_K", "--K", "2.5"], "--K"), (["bound", "c_K", "--alpha", "1"], "--alpha"),
    (["vacuity", "--K", "20", "--delta", "0.5"], "--sigma0-sq"),
    (["claims", "--id", "NOPE", "-q"], "--id"), (["simulate", "--runs", "1e12"], "--runs"),
    (["nonsense"], "argument cmd"),
    # more processes than the cores (or the free memory) hold: refused naming both
    (["claims", "--workers", "256", "-q"], "--workers"), (["report", "--workers", "4096"], "--workers"),
    # a flag the mode or the algorithms run do not use is refused, never dropped
    (["simulate", "--algorithms", "rue-top-two", "--rue-deg", "0.5", "--runs", "3"], "--rue-deg"),
    (["simulate", "--algorithms", "ttts", "--deg", "0.5", "--runs", "3"], "--deg"),
    (["rates", "--split", "--show", "shipped"], "--show"), (["rates", "--split", "--cliff"], "--cliff"),
    (["rates", "--split", "--out", "somewhere"], "--out"),
])
def test_bad_input_is_one_line_naming_the_flag(capsys, argv, flag):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and flag in err[0], err


def test_custom_means_run_end_to_end_and_rerun_from_their_json(capsys, tmp_path):
    f = tmp_path / "means.txt"
    f.write_text("0.5 0.45\n0.4, 0.3\n")
    assert main(["simulate", "--means-file", str(f), "--budget", "1e3", "--runs", "40", "--algorithms", "rue,sh",
                 "--tie-rule", "lowest-index", "--json", "-q"]) == 0
    first = json.loads(capsys.readouterr().out)
    env = first["environment"]
    assert env["means"] == [0.5, 0.45, 0.4, 0.3] and env["K"] == 4 and first["budget"] == 1000
    assert first["results"][1]["params"]["tie_rule"] == "lowest-index"
    again = ["simulate", "--means", ",".join(map(str, env["means"])), "--budget", str(first["budget"]),
             "--runs", str(first["runs"]), "--seed", str(first["seed"]), "--algorithms", "rue,sh",
             "--tie-rule", first["results"][1]["params"]["tie_rule"], "--json", "-q"]
    assert main(again) == 0
    second = json.loads(capsys.readouterr().out)
    assert [r["failures"] for r in second["results"]] == [r["failures"] for r in first["results"]]


def test_old_underscore_spellings_still_work_and_are_hidden(capsys):
    assert main(["vacuity", "--K", "100", "--sigma0_sq", "1", "--sigma_sq", "0.1", "--delta", "0.01", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["n_first"] > 0
    assert main(["vacuity", "--help"]) == 0
    assert "--sigma0_sq" not in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["bound", "--list", "--json"], ["bound", "c_K", "--K", "20", "--json"],
                                  ["bound", "gamma", "--latex", "--json"],
                                  ["vacuity", "--K", "40", "--delta", "0.1", "--map", "--n-max", "1e9", "--json"],
                                  ["claims", "--id", "EXP-K80", "--json", "-q"],
                                  ["table", "--setups", "f1", "--budgets", "200", "--K", "4", "--runs", "5", "--json",
                                   "-q"]])
def test_every_command_has_json(capsys, argv):
    assert main(argv) == 0
    json.loads(capsys.readouterr().out)


def test_a_value_below_one_is_never_printed_as_one():
    from rue_verify.outputs.text import below_one
    assert below_one(1 - 2.5e-7) == "1 - 2.5e-07" and below_one(0.5) == "0.5" and below_one(1.0) == "1"


def test_the_compile_line_appears_only_when_something_compiles(tmp_path):
    """With an empty numba cache the first run says it compiles; the same run again compiles nothing
    and says nothing (it used to print the line whenever any kernel of the registry, used or not, had
    never been compiled)."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "RUE_VERIFY_SHIPPED_KERNELS": "0"}  # compiled
    cmd = [sys.executable, "-m", "rue_verify.cli", "simulate", "--means", "0.5,0.45,0.3", "--budget", "100",
           "--runs", "4", "--algorithms", "uniform"]
    said = [subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True).stderr for _ in range(2)]
    assert said[0].count("compiling the simulator's kernels") == 1, said[0]
    assert "compiling" not in said[1], said[1]


def test_the_estimator_modes_refuse_flags_they_do_not_use(capsys):
    from rue_verify.cli import main
    assert main(["bench", "--refit", "--large-k"]) == 2
    assert "--large-k: bench --refit" in capsys.readouterr().err
    assert main(["reproduce", "--rue-estimators", "--conventions", "project"]) == 2
    assert "--conventions: reproduce --rue-estimators" in capsys.readouterr().err


def test_fixed_share_takes_its_shares_as_a_list(capsys):
    """--fixed-share-shares is one number per arm, comma-separated (issue 78: it read 'expected a number'); a share
    out of (0, 1] is named with the flag, and K shares for another K are refused naming K."""
    assert main(["simulate", "--setup", "F1", "--K", "4", "--algorithms", "fixed-share", "--fixed-share-shares",
                 "0.4,0.3,0.2,0.1", "--budget", "40", "--runs", "20", "--json"]) == 0
    out = capsys.readouterr().out
    assert "0.4" in out and "0.1" in out
    assert main(["simulate", "--setup", "F1", "--K", "4", "--algorithms", "fixed-share", "--fixed-share-shares",
                 "0.4,0.3,0.2,1.5", "--budget", "40", "--runs", "20"]) == 2
    assert "--fixed-share-shares" in capsys.readouterr().err
    assert main(["simulate", "--setup", "F1", "--K", "4", "--algorithms", "fixed-share", "--fixed-share-shares",
                 "0.5,0.5", "--budget", "40", "--runs", "20"]) == 2
    assert "K = 4" in capsys.readouterr().err
