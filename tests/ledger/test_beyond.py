"""rue_verify.ledger.beyond (its contract is in test_contract.py): the rate claims' witnesses have the format
CLAIMS-BEYOND.md gives (in n, and in K across the settings that differ only in K), and ABS-SOTA's
comparisons can go against RUE on the paper's settings and under the model."""

from rue_verify.ledger import REGISTRY
from rue_verify.verify import LedgerInputs, Mode


def test_a_rate_witness_has_the_stated_format():
    summary, findings = REGISTRY["RATE-REGRET"].check(Mode("test", sim_runs=200, seed=3))
    rate = next(f for f in findings if f.kind == "rate")
    w = rate.witness
    assert set(w) == {"params", "quantity", "exponent_n", "interval", "n", "claimed_exponent_n"}
    assert w["interval"][0] <= w["exponent_n"] <= w["interval"][1] and w["n"][0] < w["n"][1]
    assert w["claimed_exponent_n"] == -0.5 and w["quantity"] == "simple regret"
    k = [f for f in findings if f.kind == "rate" and "exponent_K" in f.witness]
    assert len(k) == 1
    wk = k[0].witness
    assert wk["K"][0] < wk["K"][1] and wk["interval"][0] <= wk["exponent_K"] <= wk["interval"][1]
    assert wk["claimed_exponent_K"] == 0.5 and "K" not in wk["params"]
    # one rate finding in n per setting of the study that ran RUE
    from rue_verify.rates import load
    settings = [s for s in load().settings() if load().has(s, "rue")]
    assert sum(1 for f in findings if f.kind == "rate" and "exponent_n" in f.witness) == len(settings)


def test_abs_sota_under_the_model_compares_every_algorithm_and_can_be_refuted(tmp_path):
    """Under the model ABS-SOTA compares RUE with every other algorithm of the rate study on every
    setting; a planted bayes_elim that never fails (its block sums zeroed in a copy of the shipped
    study) is significantly better somewhere, and the failure finding says refuted."""
    import json

    from rue_verify.ledger.beyond import _model
    honest = _model(Mode("test", seed=3))
    for x in ("bayes_elim", "prior_alloc", "sr", "sh", "ucbe", "uniform", "ttts"):
        assert f"{x} (better" in honest[0].detail, x
    assert honest[0].verdict != "refuted"

    def never_fails(r):
        if r["algorithm"] == "bayes_elim":
            zeros = json.dumps([0.0] * int(r["groups"]))
            r.update(failure_sums=zeros, failure_sumsq=zeros, failure_plain_sum="0", failure_plain_sumsq="0")
    planted = _model(_planted(tmp_path, never_fails))
    assert planted[0].verdict == "refuted" and "bayes_elim (better 0" in planted[0].detail


def test_abs_sota_compares_with_the_peers_and_can_be_refuted(tmp_path):
    """On the shipped results ABS-SOTA compares RUE with the peers too; a planted peer that never
    fails (its rows rewritten) is significantly better somewhere, and the verdict says refuted."""
    import csv

    from rue_verify.ledger.beyond import _paper_settings
    from rue_verify.reproduction.grid import COLUMNS
    from rue_verify.reproduction.results import load

    mode = Mode("test", sim_runs=100, seed=3)
    honest = _paper_settings(mode)
    assert all("bayes_elim" in f.detail and "prior_alloc" in f.detail for f in honest)
    assert all(f.verdict != "refuted" for f in honest)
    rows = [dict(r) for r in load().rows]
    for r in rows:
        if r["algorithm"] == "bayes_elim":
            r["failure_bits"] = "00" * ((int(r["total_runs"]) + 7) // 8)
            r["per_instance_failures"] = ";".join("0" for _ in str(r["per_instance_failures"]).split(";"))
            r["failures"] = "0"
    with open(tmp_path / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(rows)
    planted = _paper_settings(Mode("test", sim_runs=100, seed=3, inputs=LedgerInputs(str(tmp_path))))
    assert planted[0].verdict == "refuted" and "bayes_elim (better 0" in planted[0].detail


def _planted(tmp_path, change):
    """A copy of the shipped study with `change(row)` applied to every row."""
    import csv
    import io
    import json

    from rue_verify.rates import load
    from rue_verify.rates.grid import COLUMNS
    shipped = load()
    rows = [dict(r) for r in shipped.rows]
    for r in rows:
        change(r)
    buf = io.StringIO()
    w = csv.DictWriter(buf, COLUMNS)
    w.writeheader()
    w.writerows(rows)
    (tmp_path / "results.csv").write_text(buf.getvalue())
    (tmp_path / "manifest.json").write_text(json.dumps(shipped.manifest))
    return Mode("test", seed=3, inputs=LedgerInputs(rates=str(tmp_path)))


def test_constant_findings_carry_the_stated_witness_and_settle_the_exponent():
    from rue_verify.rates import load
    _, findings = REGISTRY["RATE-FAIL"].check(Mode("test", seed=3))
    const = [f for f in findings if f.kind == "rate" and "constant" in (f.witness or {})]
    settings = [s for s in load().settings() if load().has(s, "rue")]
    assert len(const) == len(settings)
    for f in const:
        w = f.witness
        assert {"params", "quantity", "constant", "interval", "limit", "efficiency", "n"} <= set(w)
        assert w["interval"][0] <= w["constant"] <= w["interval"][1]
        assert w["efficiency"] == __import__("pytest").approx(w["constant"] / w["limit"], rel=1e-3)


def test_a_growing_constant_is_not_settled_and_a_truth_below_the_limit_is_caught(tmp_path):
    """Planted: RUE's failure sums on the base setting multiplied by (n / 1e4)^0.3 above n = 1e4 (a
    constant that grows), and bayes_elim's divided by 5 (below the limit every algorithm meets)."""
    import json

    def change(r):
        if r["setting"] != "base":
            return
        if r["algorithm"] == "rue" and int(r["n"]) > 10_000:
            f = (int(r["n"]) / 1e4) ** 0.3
            for col, p in (("failure_sums", 1), ("failure_sumsq", 2)):
                r[col] = json.dumps([x * f ** p for x in json.loads(r[col])])
        if r["algorithm"] == "bayes_elim":
            for col, p in (("failure_sums", 1), ("failure_sumsq", 2)):
                r[col] = json.dumps([x / 5 ** p for x in json.loads(r[col])])
    mode = _planted(tmp_path, change)
    _, findings = REGISTRY["RATE-FAIL"].check(mode)
    base = findings[0]
    const = next(f for f in findings if "constant" in (f.witness or {}) and f.witness["params"]["K"] == 10
                 and "prior_ratio" not in f.witness["params"] and f.witness["params"].get("sigma_sq") == 1.0
                 and f.witness["params"]["sigma0_sq"] == 1.0)
    assert const.verdict == "inconclusive" and "grows significantly" in const.detail
    assert base.verdict != "holds" and "settled" not in base.detail
    meets = next(f for f in findings if "finite-n limit" in f.detail)
    assert meets.verdict == "inconclusive" and meets.witness["params"]["algorithm"] == "bayes_elim"


def test_limit_tight_is_reached_where_a_planted_rule_sits_at_the_limit_and_open_where_every_rule_is_far(tmp_path):
    """Planted: the top pair's sums on K = 30 divided by its measured efficiency, so its constant sits
    at the limit there; and every curve on K = 30 multiplied by 3, so none is near it. The first reads
    holds (at K = 30 the top pair at 1.000), the second inconclusive with K = 30 as its witness. The
    intervals are simultaneous: Bonferroni over every interval scanned, each wider than a 95% one."""
    import json

    from rue_verify.rates import efficiency, load
    res = load()
    factor = {q: efficiency.efficiency(res.curve("K30", "top-pair"), q).efficiency[0] for q in ("failure", "regret")}

    def at_limit(r):
        if r["setting"] == "K30" and r["algorithm"] == "top-pair":
            for q in ("failure", "regret"):
                for col, p in ((f"{q}_sums", 1), (f"{q}_sumsq", 2)):
                    r[col] = json.dumps([x / factor[q] ** p for x in json.loads(r[col])])

    def far(r):
        if r["setting"] == "K30":
            for q in ("failure", "regret"):
                for col, p in ((f"{q}_sums", 1), (f"{q}_sumsq", 2)):
                    r[col] = json.dumps([x * 3 ** p for x in json.loads(r[col])])
    (tmp_path / "at").mkdir()
    _, planted = REGISTRY["LIMIT-TIGHT"].check(_planted(tmp_path / "at", at_limit))
    assert [f.verdict for f in planted[:2]] == ["holds", "holds"]
    assert "K = 30: top-pair on K30 1.000" in planted[0].detail and "Bonferroni" in planted[0].domain
    (tmp_path / "far").mkdir()
    _, planted = REGISTRY["LIMIT-TIGHT"].check(_planted(tmp_path / "far", far))
    for f, q in zip(planted[:2], ("failure", "regret")):
        w = f.witness
        assert f.verdict == "inconclusive" and w["params"]["K"] == 30 and w["efficiency"][1] > 1
        assert w["level"] == 1 - 0.05 / w["intervals"] and w["intervals"] > 10
        plain = efficiency.efficiency(load(tmp_path / "far").curve("K30", w["params"]["algorithm"]), q).efficiency
        assert plain[2] - plain[1] < 0.8 * (w["efficiency"][2] - w["efficiency"][1])
