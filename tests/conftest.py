"""Hypothesis profiles: `dev` (default) and `ci` (derandomized, no database), chosen by the
HYPOTHESIS_PROFILE environment variable."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def _quick_ledger():
    from rue_verify.ledger import REGISTRY, Mode, run_ledger
    paper = [cid for cid, c in REGISTRY.items() if c.origin == "paper"]   # not a claims file a test loaded
    return run_ledger(Mode(), paper)   # quick mode, on the paper-scale results shipped with the package


@pytest.fixture(scope="session")
def quick_ledger():
    """The whole quick ledger, run once per test session (about a minute): the pinned verdicts, the
    witness recomputation and the installed-wheel comparison all read it."""
    return _quick_ledger()
