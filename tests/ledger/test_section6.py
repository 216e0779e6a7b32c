"""rue_verify.ledger.section6: the empirical claims read the results they are given, say which, and
refuse results that lack a study they need."""

import pytest

from rue_verify.ledger import REGISTRY, LedgerInputs, Mode, run_ledger
from rue_verify.reproduction import manifest, open_store, run_sweep
from rue_verify.reproduction.grid import Scale, grid


@pytest.fixture(scope="module")
def partial(tmp_path_factory):
    """A result directory with two-stage rows only (R2 at N/4, tiny)."""
    tasks = [t for t in grid(Scale("t", 8, 3, 2, 2, 8, 2), studies=("two-stage",)) if t.setup == "R2"]
    d = tmp_path_factory.mktemp("partial")
    run_sweep(tasks, 2, open_store(d, manifest(tasks, 2, "t", ("project", "authors"))), progress=False)
    return d


def test_claims_on_results_lacking_a_study_are_refused(partial):
    with pytest.raises(ValueError, match="hold no rows of the fixed study"):
        run_ledger(Mode(inputs=LedgerInputs(str(partial))), ["EXP-F-CLAIMS"])


def test_results_without_a_csv_are_refused(tmp_path):
    with pytest.raises(ValueError, match="holds no results.csv"):
        run_ledger(Mode(inputs=LedgerInputs(str(tmp_path))), ["EXP-SE"])


def test_every_empirical_claim_is_judged_on_the_shipped_results():
    empirical = [c.id for c in REGISTRY.values() if c.check.__module__.endswith("section6")]
    assert len(empirical) == 9
    out = run_ledger(Mode(), empirical)
    assert [r.id for r in out] == empirical
    for r in out:
        assert r.findings
        if REGISTRY[r.id].needs:                 # a claim that reads results names them
            assert any("paper-scale results shipped with the package" in f.domain for f in r.findings), r.id


def test_the_claims_meet_the_contract():
    from tests.ledger.contract import check_module
    results = {r.id: r for r in check_module("section6")}
    for cid in ("EXP-F-CLAIMS", "EXP-R-CLAIMS"):                 # literal reading first, the rest charitable
        kinds = [f.kind for f in results[cid].findings]
        assert kinds[0] == "computed" and "charitable" in kinds and kinds.index("charitable") > 0
