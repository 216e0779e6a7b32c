"""EXPLORE-CLIFF judged on planted copies of the shipped exploration-constant study: DEG = 2 made
1.5 times worse than DEG = 3 is refuted with that cell as witness; every other DEG made twice as bad
holds; and the shipped study's verdict is one of the three with a cell-by-cell text."""

import csv
import io
import json

from rue_verify.ledger import REGISTRY
from rue_verify.rates import cliff
from rue_verify.verify import LedgerInputs, Mode


def _planted(tmp_path, change):
    shipped = cliff.load()
    rows = [dict(r) for r in shipped.rows]
    for r in rows:
        change(r)
    d = tmp_path / "cliff"
    d.mkdir(parents=True)
    buf = io.StringIO()
    w = csv.DictWriter(buf, cliff.COLUMNS)
    w.writeheader()
    w.writerows(rows)
    (d / "results.csv").write_text(buf.getvalue())
    (d / "manifest.json").write_text(json.dumps(shipped.manifest))
    return Mode("test", seed=3, inputs=LedgerInputs(rates=str(tmp_path)))


def _scale(r, f):
    for col, p in (("regret_sums", 1), ("regret_sumsq", 2)):
        r[col] = json.dumps([x * f ** p for x in json.loads(r[col])])


def test_a_worse_paper_constant_is_refuted_and_a_better_one_holds(tmp_path):
    def worse(r):
        if r["algorithm"] == "rue" and float(r["deg"]) == 2 and (r["K"], r["n"]) == ("30", "10000"):
            _scale(r, 1.5)

    def better(r):
        if float(r["deg"]) != 2:
            _scale(r, 2.0)
    _, f = REGISTRY["EXPLORE-CLIFF"].check(_planted(tmp_path / "worse", worse))
    assert f[0].verdict == "refuted" and f[0].witness["params"]["K"] == 30 and f[0].witness["params"]["n"] == 10_000
    assert f[0].witness["ratio"][1] > cliff.TOLERANCE
    _, f = REGISTRY["EXPLORE-CLIFF"].check(_planted(tmp_path / "better", better))
    assert f[0].verdict == "holds" and f[0].detail.count("(holds)") == len(cliff.CELLS)


def test_the_shipped_study_is_judged_cell_by_cell_against_the_limit():
    summary, f = REGISTRY["EXPLORE-CLIFF"].check(Mode("test", seed=3))
    assert f[0].verdict in ("holds", "refuted", "inconclusive")
    assert all(f"n = {n:,}" in f[0].detail for _, n in cliff.CELLS) and "Bonferroni" in f[0].domain
    assert f[1].verdict == "holds" and "finite-n limit" in f[1].detail and "top-two" in summary
