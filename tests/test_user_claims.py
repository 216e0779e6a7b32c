"""Your own claims, judged like the paper's without editing the package (`claims --claims FILE`):
declared with the same `claim` decorator and finding constructors in a file outside the package,
run beside the paper's (also in worker processes), shown in their own section, their witnesses
recomputed; a file that cannot be loaded or declares nothing is refused with one line."""

import json
import textwrap
from pathlib import Path

import pytest

from rue_verify.cli import main

CLAIMS = '''
import math

import bounds
from rue_verify.verify import claim, from_value, witness


def _ck_sides(p):
    return float(bounds.c_K(p["K"])), 5.0


@claim("MY-CK-SMALL", "my note, remark 1", "c_K <= 5 for every K in 36..200", recompute=_ck_sides)
def check_ck_small(mode):
    worst = max(range(36, 201), key=lambda K: float(bounds.c_K(K)))
    v = float(bounds.c_K(worst))
    return "c_K against 5", [from_value(v, "K in 36-200", at_most=5.0, holds=f"max c_K = {v:.4g}",
                                        fails=f"c_K = {v:.4g} > 5 at K = {worst}",
                                        witness=lambda: witness({"K": worst}, v, 5.0))]


def my_bound(K, n, sigma0_sq, sigma_sq):
    return min(1.0, 3 * math.sqrt(K * math.log(n) / n))


@claim("MY-RUE-BOUND", "my note, theorem 1", "my_bound bounds RUE's Bayesian failure probability")
def check_my_bound(mode):
    from rue_verify.user_bounds import check_bound
    r = check_bound(my_bound, "failure", "rue", mode=mode, search_runs=False)
    return r.summary, r.findings


@claim("MY-GAP-BOUND", "my note, remark 2", "e*(0.1) <= 1.2 at K = 50, sigma0^2 = 1")
def check_gap(mode):
    v = float(bounds.e_star(0.1, 50, 1.0))
    return "e* against 1.2", [from_value(v, "K = 50, alpha = 0.1", at_most=1.2, detail=f"e* = {v:.4g}")]
'''


@pytest.fixture(scope="module")
def claims_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("mine") / "myclaims.py"
    path.write_text(textwrap.dedent(CLAIMS))
    return path


@pytest.mark.parametrize("workers", ["1", "2"])
def test_your_claims_run_beside_the_papers_and_their_witnesses_recompute(claims_file, capsys, workers):
    assert main(["claims", "--claims", str(claims_file), "--id", "MY-CK-SMALL,MY-GAP-BOUND,FACT-1-3", "--json", "-q",
                 "--workers", workers]) == 0
    got = {c["id"]: c for c in json.loads(capsys.readouterr().out)}
    assert got["MY-CK-SMALL"]["verdict"] == "refuted" and got["MY-GAP-BOUND"]["verdict"] == "holds"
    pinned = json.loads((Path(__file__).parent / "ledger" / "verdicts.json").read_text())
    assert got["FACT-1-3"]["verdict"] == pinned["FACT-1-3"]["verdict"]          # the paper's, as always
    from rue_verify.ledger import REGISTRY
    from rue_verify.verify.witnesses import recompute_witness
    w = got["MY-CK-SMALL"]["findings"][0]["witness"]
    assert recompute_witness(REGISTRY["MY-CK-SMALL"], w) == pytest.approx((w["lhs"], w["rhs"]))
    from rue_verify.outputs.render import section
    assert REGISTRY["MY-CK-SMALL"].origin == "yours" and section("MY-CK-SMALL") == "Your claims"
    assert REGISTRY["FACT-1-3"].origin == "paper" and section("FACT-1-3") == REGISTRY["FACT-1-3"].section


def test_your_bound_runs_through_your_claims(claims_file, capsys):
    """A bound of yours, judged by check_bound inside a claim of yours (`claims --claims`)."""
    assert main(["claims", "--claims", str(claims_file), "--id", "MY-RUE-BOUND", "--json", "-q"]) == 0
    got = json.loads(capsys.readouterr().out)[0]
    assert got["verdict"] == "holds" and any(f["kind"] == "tightness" for f in got["findings"])


def test_a_claims_file_that_cannot_be_used_is_refused_in_one_line(tmp_path, capsys):
    empty = tmp_path / "nothing.py"
    empty.write_text("x = 1\n")
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('no')\n")
    for path, said in ((empty, "declares no claim"), (broken, "RuntimeError"), (tmp_path / "none.py", "no file")):
        assert main(["claims", "--claims", str(path), "-q"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error: --claims") and said in err[0], err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.py", "nothing.py"]      # nothing written


def test_a_claims_file_imports_the_modules_beside_it(tmp_path, capsys):
    """As a script would: `from mybounds import ...` in a claims file finds mybounds.py next to it,
    also in a worker process, with no PYTHONPATH set (it used to fail with ModuleNotFoundError)."""
    here = tmp_path / "beside"
    here.mkdir()
    (here / "mybounds_beside.py").write_text("def limit():\n    return 5.0\n")
    (here / "claims_beside.py").write_text(textwrap.dedent('''
        from mybounds_beside import limit
        from rue_verify.ledger.core import claim, from_value


        @claim("MY-BESIDE", "my note", "2 <= limit()")
        def check(mode):
            return "against my limit", [from_value(2.0, "one point", at_most=limit(), detail="2 against 5")]
        '''))
    for workers in ("1", "2"):
        assert main(["claims", "--claims", str(here / "claims_beside.py"), "--id", "MY-BESIDE", "--json", "-q",
                     "--workers", workers]) == 0
        assert json.loads(capsys.readouterr().out)[0]["verdict"] == "holds"
