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
