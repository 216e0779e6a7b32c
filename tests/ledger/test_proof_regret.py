"""rue_verify.ledger.proof_regret: its claims meet the ledger's contract (tests.ledger.contract) in a small
mode with another seed than the pinned quick run."""

from tests.ledger.contract import check_module


def test_the_claims_meet_the_contract():
    assert check_module("proof_regret")
