"""rue_verify.cli: the command line parses, prints and turns errors into exit status 2."""

import json

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
    assert text.split("registry: ")[1].rstrip(")") == ", ".join(REGISTRY)
