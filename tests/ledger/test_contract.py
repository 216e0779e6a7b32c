"""Every module of the ledger (`rue_verify.ledger.MODULES`) meets the ledger's contract
(`tests.ledger.contract`) on its own claims, in a small mode with another seed than the pinned quick
run. Section 6's claims are held to it in `test_section6.py`, with what its readings owe besides."""

import pytest

from rue_verify.ledger import MODULES
from tests.ledger.contract import check_module


@pytest.mark.parametrize("module", [m for m in MODULES if m != "section6"])
def test_the_claims_meet_the_contract(module):
    assert check_module(module)


def test_every_claim_belongs_to_a_declared_module():
    """A claim declared in a module outside `MODULES` would escape the contract above."""
    from rue_verify.ledger import REGISTRY
    outside = {c.id: c.check.__module__ for c in REGISTRY.values() if c.origin == "paper"
               and c.check.__module__.removeprefix("rue_verify.ledger.") not in MODULES}
    assert not outside, outside
