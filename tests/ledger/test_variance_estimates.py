"""VAR-EST-COST, VAR-EST-METHODS and TOPTWO-REST judged on planted copies of a small variance-estimator
study: an estimator made 1.5 times worse in one cell is refuted with that cell as witness, estimators made
identical hold, and the top-two variant's rest part planted above RUE's is refuted, below it holds."""

import csv
import io
import json

import numpy as np
import pytest

from rue_verify.ledger import REGISTRY
from rue_verify.ledger.variance_estimates import band_verdict
from rue_verify.rates import estimators as E
from rue_verify.verify import LedgerInputs, Mode
from simulate.stats import Interval

# one worker builds the module's fixture once (xdist would otherwise build it in each worker)
pytestmark = pytest.mark.xdist_group("variance_study")

TINY = E.EstimatorScale("tiny", 80, 8)
CELLS = ((4, 300), (5, 400))


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    d = tmp_path_factory.mktemp("study")
    E.run(TINY, d, seed=4, progress=False, cells=CELLS)
    return E.load(d)


def _planted(tmp_path, study, change):
    rows = [dict(r) for r in study.rows]
    by = {(r["K"], r["n"], r["algorithm"], r["variances"]): r for r in rows}
    for r in rows:
        change(r, by)
    d = tmp_path / "estimators"
    d.mkdir(parents=True)
    buf = io.StringIO()
    w = csv.DictWriter(buf, E.COLUMNS)
    w.writeheader()
    w.writerows(rows)
    (d / "results.csv").write_text(buf.getvalue())
    (d / "manifest.json").write_text(json.dumps(study.manifest))
    return Mode("test", seed=3, inputs=LedgerInputs(rates=str(tmp_path)))


def _set(r, q, blocks, sq=None):
    r[f"{q}_sums"] = json.dumps(list(blocks))
    r[f"{q}_sumsq"] = json.dumps(list(sq if sq is not None else np.asarray(blocks) ** 2))


def _copy(r, src, qs=("failure", "regret", "near", "rest")):
    for q in qs:
        r[f"{q}_sums"], r[f"{q}_sumsq"] = src[f"{q}_sums"], src[f"{q}_sumsq"]


def _scale(r, q, f):
    _set(r, q, [x * f for x in json.loads(r[f"{q}_sums"])], [x * f * f for x in json.loads(r[f"{q}_sumsq"])])


def test_the_band_rule():
    assert band_verdict(Interval(1.0, 0.95, 1.05, 0.95), 0.9, 1.1) == "holds"
    assert band_verdict(Interval(1.3, 1.2, 1.4, 0.95), 0.9, 1.1) == "refuted"
    assert band_verdict(Interval(0.7, 0.6, 0.8, 0.95), 0.9, 1.1) == "refuted"
    assert band_verdict(Interval(1.1, 1.0, 1.2, 0.95), 0.9, 1.1) == "inconclusive"


def test_the_papers_estimates_made_worse_are_refuted_and_made_equal_hold(tmp_path, study):
    def worse(r, by):
        _copy(r, by[(r["K"], r["n"], "rue", "known")]) if r["algorithm"] == "rue" else None
        if (r["algorithm"], r["variances"], r["K"]) == ("rue", "authors", "5"):
            _scale(r, "regret", 1.5)

    def equal(r, by):
        if r["algorithm"] == "rue":
            _copy(r, by[(r["K"], r["n"], "rue", "known")])
    _, f = REGISTRY["VAR-EST-COST"].check(_planted(tmp_path / "worse", study, worse))
    assert f[0].verdict == "refuted" and f[0].witness["params"]["K"] == 5
    assert f[0].witness["quantity"] == "simple regret" and f[0].witness["ratio"][1] > 1.1
    assert REGISTRY["VAR-EST-COST"].recompute(f[0].witness["params"]) == (f[0].witness["lhs"], f[0].witness["rhs"])
    _, f = REGISTRY["VAR-EST-COST"].check(_planted(tmp_path / "equal", study, equal))
    assert f[0].verdict == "holds" and f[0].detail.count("(holds)") == 2 * len(CELLS)


def test_estimators_made_identical_hold_and_one_made_worse_is_refuted(tmp_path, study):
    def same(r, by):
        if r["algorithm"] == "rue":
            _copy(r, by[(r["K"], r["n"], "rue", "ml")])

    def one_worse(r, by):
        same(r, by)
        if (r["algorithm"], r["variances"], r["K"]) == ("rue", "unbiased", "4"):
            _scale(r, "regret", 1.5)
    _, f = REGISTRY["VAR-EST-METHODS"].check(_planted(tmp_path / "same", study, same))
    assert f[0].verdict == "holds"
    summary, f = REGISTRY["VAR-EST-METHODS"].check(_planted(tmp_path / "worse", study, one_worse))
    assert f[0].verdict == "refuted" and f[0].witness["params"]["K"] == 4
    assert "unbiased" in (f[0].witness["params"]["variances"], f[0].witness["params"]["against"])
    assert f[0].witness["lhs"] > f[0].witness["rhs"]
    assert summary.startswith("refuted: 3 of 12 pairs")


def test_the_top_two_rest_part_planted_above_rues_is_refuted_and_below_holds(tmp_path, study):
    def shift(c):
        def change(r, by):
            if r["algorithm"] == "rue-top-two":
                rue = by[(r["K"], r["n"], "rue", r["variances"])]
                for q in ("rest", "regret"):
                    _set(r, q, [x + c for x in json.loads(rue[f"{q}_sums"])])
        return change
    _, f = REGISTRY["TOPTWO-REST"].check(_planted(tmp_path / "below", study, shift(-1e-3)))
    assert [x.verdict for x in f] == ["holds", "holds"]
    _, f = REGISTRY["TOPTWO-REST"].check(_planted(tmp_path / "above", study, shift(+1e-3)))
    assert [x.verdict for x in f] == ["refuted", "refuted"]
    assert f[0].witness["params"]["algorithm"] == "rue-top-two" and f[0].witness["difference"][1] > 0
    w = f[0].witness
    assert w["lhs"] == pytest.approx(w["difference"][1]) and w["lhs"] > 0 == w["rhs"]
