"""Fuzzing what a user brings: Hypothesis writes small paper files from a menu of claims, valid and broken
(a claim that holds, one refuted, one that raises, returns None or the wrong thing, exits, runs past its
time limit, rests on a name that is nothing, a bound without its tightness) and of whole files that fail
as they load (a syntax error, an exception or sys.exit at import, a PAPER of the wrong type, a typo in
uses=, no claim), and runs them through claims, proofs, report and erratum. For every case: exit status
0, 1 (a claim errored: stderr names it, and so does the output) or 2 (the file was refused: one line);
never a traceback; --json that a strict parser reads; no directory half-written.

Examples: RUE_FUZZ_EXAMPLES (default 12; CI's short run)."""

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rue_verify.cli import main

EXAMPLES = int(os.environ.get("RUE_FUZZ_EXAMPLES", "12"))
fuzz = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

HEAD = '''import sys
import time

import sympy as sp

from rue_verify.verify import Holds, Paper, Rests, claim, from_proof, from_value, rel

x = sp.Symbol("x", positive=True)
'''

#: claim bodies: (kind, body with {i} the claim's index); 'ok' claims are judged, 'bad' ones read error
CLAIMS = {
    "holds": ("ok", 'return "x^2 >= 0", [from_proof([("x^2 >= 0", Holds(rel(x**2, ">=", 0)))], "x > 0", "it")]'),
    "refuted": ("ok", 'return "3 <= 2", [from_value(3.0, "one point", "ok", at_most=2.0)]'),
    "rests": ("ok", 'return "by C0", [from_proof([("by C0", Rests("C0"))], "all", "it")]'),
    "raises": ("bad", "return 1 / 0"),
    "none": ("bad", "return None"),
    "wrong": ("bad", 'return "s", ["not a finding"]'),
    "exits": ("bad", "sys.exit(0)"),
    "slow": ("bad", 'time.sleep(5)\n    return "s", []'),
    "rests-nothing": ("bad", 'name = "C" + "99"\n    return "s", [from_proof([("by", Rests(name))], "all", "it")]'),
}
#: whole files that are refused as they load (exit 2, one line)
REFUSED = {
    "syntax": "def (:\n",
    "raises at import": "raise RuntimeError('planted')\n",
    "exits at import": "sys.exit(3)\n",
    "PAPER not a Paper": 'PAPER = "mine"\n',
    "modules a str": 'PAPER = Paper("m", "m", modules="abc")\n',
    "no claim": 'PAPER = Paper("{name}", "nothing")\n',
    "uses typo": '@claim("C0", "eq", "s", uses=("C9",))\ndef c(mode):\n'
                 '    return "s", [from_value(1.0, "d", "ok", at_most=2.0)]\n',
    "Rests typo": '@claim("C0", "eq", "s")\ndef c(mode):\n'
                  '    return "s", [from_proof([("b", Rests("CX"))], "a", "i")]\n',
    "theorem typo": 'PAPER = Paper("{name}", "t", theorems=("C7",))\n@claim("C0", "eq", "s")\ndef c(mode):\n'
                    '    return "s", [from_value(1.0, "d", "ok", at_most=2.0)]\n',
}
COUNTER = iter(range(10 ** 9))


@pytest.fixture(autouse=True)
def active_paper_restored():
    """Each run loads its paper and makes it the registry's active one: the active paper before the test
    is restored after it (other tests in this worker read the default paper's claims)."""
    from rue_verify.verify import REGISTRY
    before = REGISTRY.active
    yield
    if before is not None:
        REGISTRY.activate(before)
    else:                               # no paper was active: the next one declared becomes it again
        REGISTRY.active = None
        dict.clear(REGISTRY)


def paper_file(tmp, kinds: list[str]) -> tuple:
    """A paper whose claim C0 holds and Ci (i >= 1) is of kind kinds[i - 1]: (path, bad claim IDs)."""
    name = f"fz{next(COUNTER)}"
    body = [HEAD, f'PAPER = Paper("{name}", "fuzzed paper {name}")', ""]
    kinds = ["holds"] + kinds
    for i, k in enumerate(kinds):
        body += [f'@claim("C{i}", "eq {i}", "{k}")', f"def c{i}(mode):", f"    {CLAIMS[k][1]}", ""]
    path = tmp / f"{name}.py"
    path.write_text("\n".join(body))
    return path, [f"C{i}" for i, k in enumerate(kinds) if CLAIMS[k][0] == "bad"]


COMMANDS = st.sampled_from(["claims", "proofs", "report", "erratum"])


def run(capsys, tmp, command, path, as_json):
    out_dir = tmp / f"out-{next(COUNTER)}"
    args = [command, "--paper", str(path), "--workers", "1", "--claim-seconds", "1", "-q"]
    args += ["--out", str(out_dir)] if command in ("report", "erratum") else []
    args += ["--json"] if as_json and command != "erratum" else []
    code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, (args, err[-800:])
    assert code in (0, 1, 2), (args, code, err[-500:])
    if "--json" in args and code != 2:
        json.loads(out, parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
    # nothing half-written: a report's directory is whole (COMPLETE.json) or absent, and no staging is left
    assert not [p for p in tmp.iterdir() if ".partial-" in p.name], list(tmp.iterdir())
    if command == "report" and out_dir.exists():
        assert (out_dir / "COMPLETE.json").is_file()
    if command == "erratum" and (out_dir / "erratum.tex").exists():
        assert (out_dir / "erratum.tex").read_text().rstrip().endswith(r"\end{document}")
    return code, out, err


@fuzz
@given(kinds=st.lists(st.sampled_from(sorted(CLAIMS)), min_size=1, max_size=4), command=COMMANDS,
       as_json=st.booleans())
def test_a_paper_with_failing_claims_gives_every_other_verdict(tmp_path_factory, capsys, kinds, command, as_json):
    tmp = tmp_path_factory.mktemp("fuzz")
    path, bad = paper_file(tmp, kinds)
    code, out, err = run(capsys, tmp, command, path, as_json)
    assert code == (1 if bad else 0), (kinds, command, code, err[-500:])
    if bad:
        last = err.strip().splitlines()[-1]
        assert last.startswith("error: ") and all(b in last for b in bad), (kinds, err[-500:])
    if command == "claims":
        said = {r["id"]: r["verdict"] for r in json.loads(out)} if as_json else None
        if said is not None:
            assert {c for c, v in said.items() if v == "error"} == set(bad) and len(said) == len(kinds) + 1


@fuzz
@given(what=st.sampled_from(sorted(REFUSED)), command=COMMANDS, as_json=st.booleans())
def test_a_paper_refused_as_it_loads_is_one_line(tmp_path_factory, capsys, what, command, as_json):
    tmp = tmp_path_factory.mktemp("fuzz")
    name = f"fz{next(COUNTER)}"
    path = tmp / f"{name}.py"
    path.write_text(HEAD + REFUSED[what].replace("{name}", name))
    code, out, err = run(capsys, tmp, command, path, as_json)
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: --paper"), (what, code, err[-500:])
    assert not list(tmp.glob("out-*")), "a refused paper wrote something"


def test_one_failing_claim_among_five_in_every_output(tmp_path, capsys):
    """The issue's case: five claims, one raising; claims, proofs, report and erratum each give four
    verdicts and one error, and say so in their exit status."""
    path, bad = paper_file(tmp_path, ["refuted", "raises", "holds", "rests"])
    assert bad == ["C2"]
    code, out, _ = run(capsys, tmp_path, "claims", path, True)
    said = {r["id"]: r["verdict"] for r in json.loads(out)}
    assert code == 1 and said == {"C0": "holds", "C1": "refuted", "C2": "error", "C3": "holds", "C4": "holds"}
    assert "ZeroDivisionError" in next(r["summary"] for r in json.loads(out) if r["id"] == "C2")
    code, out, _ = run(capsys, tmp_path, "proofs", path, True)
    assert code == 1 and {n["id"] for n in json.loads(out)} >= {"C0", "C2", "C4"}
    code, out, _ = run(capsys, tmp_path, "report", path, True)
    page = (tmp_path / json.loads(out)["out"]).joinpath("report.md").read_text()
    assert code == 1 and json.loads(out)["errored"] == ["C2"] and "ZeroDivisionError" in page
    code, out, _ = run(capsys, tmp_path, "erratum", path, False)
    tex = next(tmp_path.glob("out-*/erratum.tex")).read_text()
    assert code == 1 and "Claims not judged" in tex and "C2" in tex and "C1" in tex
