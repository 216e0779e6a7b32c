"""rue_verify.ledger.beyond: the rate claims meet the ledger's contract (tests.ledger.contract) in a
small mode with another seed than the pinned quick run, and their witnesses have the format
CLAIMS-BEYOND.md gives."""

from rue_verify.ledger import REGISTRY
from rue_verify.ledger.core import Mode
from tests.ledger.contract import check_module


def test_the_claims_meet_the_contract():
    assert check_module("beyond")


def test_a_rate_witness_has_the_stated_format():
    summary, findings = REGISTRY["RATE-REGRET"].check(Mode("test", sim_runs=200, seed=3))
    rate = next(f for f in findings if f.kind == "rate")
    w = rate.witness
    assert set(w) == {"params", "quantity", "exponent_n", "interval", "n", "claimed_exponent_n"}
    assert w["interval"][0] <= w["exponent_n"] <= w["interval"][1] and w["n"][0] < w["n"][1]
    assert w["claimed_exponent_n"] == -0.5 and w["quantity"] == "simple regret"


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
    planted = _paper_settings(Mode("test", sim_runs=100, seed=3, results=str(tmp_path)))
    assert planted[0].verdict == "refuted" and "bayes_elim (better 0" in planted[0].detail
