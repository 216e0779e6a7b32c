"""rue_verify.reproduction.estimators and ledger.section6_estimators: RUE's tasks rerun with another variance
estimator replace exactly RUE's rows (under RUE's key, label and parameters), a missing counterpart is refused
rather than judged as a mixture, and a verdict that moves with the estimator is reported."""

import json

import pytest

from rue_verify.errors import ParameterError
from rue_verify.ledger.section6_estimators import depends, section6_claims
from rue_verify.reproduction import estimators as E
from rue_verify.reproduction.grid import QUICK, grid


def _row(key, alg, failures, label=None):
    return {"key": key, "algorithm": alg, "label": label or alg, "params": "{}", "failures": str(failures)}


def _key(est):
    return "fixed|F1|K=20|H|n=100|-|suboptimal|1x10|rue|" + json.dumps({"deg": 2.0, "variances": est}, sort_keys=True)


def test_the_tasks_are_rues_with_the_estimator_changed_and_nothing_else():
    base = [t for t in grid(QUICK) if t.algorithm == "rue"]
    ts = E.tasks(QUICK, ("ml",))
    assert len(ts) == len(base)
    for a, b in zip(base, ts):
        assert dict(b.params) == {**dict(a.params), "variances": "ml"} and b.setting == a.setting
    with pytest.raises(ValueError, match="estimators must be among .* got known"):
        E.tasks(QUICK, ("known",))


def test_rues_rows_are_replaced_under_their_own_key_and_the_others_kept():
    base = [_row(_key("authors"), "rue", 5), _row("fixed|F1|...|ucbe|{}", "ucbe", 7)]
    mine = [_row(_key("ml"), "rue", 3, label="rue [ml]"), _row(_key("reml"), "rue", 4)]
    out = E.substituted(base, mine, "ml")
    assert out[0]["key"] == _key("authors") and out[0]["failures"] == "3" and out[0]["label"] == "rue"
    assert out[1] is base[1]
    assert E.substituted(base, mine, "reml")[0]["failures"] == "4"
    with pytest.raises(ParameterError, match="1 of RUE's rows have no unbiased counterpart"):
        E.substituted(base, mine, "unbiased")


def test_a_verdict_that_moves_is_reported_and_one_that_does_not_is_not():
    rows = [{"claim": "A", "estimator": e, "verdict": v} for e, v in (("authors", "holds"), ("ml", "refuted"))]
    rows += [{"claim": "B", "estimator": e, "verdict": "holds"} for e in ("authors", "ml")]
    assert depends(rows) == {"A": {"authors": "holds", "ml": "refuted"}}
    assert "EXP-F-CLAIMS" in section6_claims() and "EXP-SE" in section6_claims()


def test_the_shipped_rows_judge_every_section6_claim_with_every_estimator():
    """On the shipped rows: every claim under every estimator, the shipped estimator's verdicts those of
    the ledger itself, and the figure's 'moves' exactly the claims whose verdicts differ."""
    from rue_verify.ledger import REGISTRY
    from rue_verify.plots.estimators import section6_estimators_table
    from rue_verify.verify import Mode, run_claim
    t = section6_estimators_table()
    assert len(t.rows) == len(section6_claims()) * (1 + len(E.ESTIMATORS))
    for r in t.where(estimator="authors"):
        assert r["verdict"] == run_claim(REGISTRY[r["claim"]], Mode()).verdict
    moved = {c for c in section6_claims() if len({r["verdict"] for r in t.where(claim=c)}) > 1}
    assert set(t.meta["depends"]) == moved
