"""The claims ledger of Zhu & Qiu's paper: one computed verdict, with evidence, per claim of
`shared/CLAIMS.md` and `shared/CLAIMS-BEYOND.md`.

Importing this package registers every claim, in the paper's order: the theory of Sections 2-5 and
the appendix, the empirical claims of Section 6 (judged on the reproduction's results) and those
beyond the paper. Each claim is declared once (`rue_verify.verify.claim`): its statement and
location, its check, the results it needs, how to recompute its witnesses, and its repairs
(`rue_verify.verify.repair`, beside it) or why it has none. The engine (`rue_verify.verify`) runs
them; this package adds the paper's proof graph (`proof_graph`) to every run.
"""

from __future__ import annotations

import importlib
from typing import Callable, Iterable

from ..verify import REGISTRY, SEVERITY, ClaimResult, Finding, LedgerInputs, Mode, run_claim
from ..verify import runner as _runner
from ..verify.runner import Checked, batches, load_claims, select

__all__ = ["REGISTRY", "SEVERITY", "ClaimResult", "Finding", "LedgerInputs", "Mode", "run_claim", "run_ledger",
           "check_inputs", "load_claims", "select", "units", "collect", "batches", "check", "Checked"]

#: the ledger's modules in the paper's order; importing one registers its claims (the registry's
#: order, and so every output's, is this order, then each module's order of declaration)
MODULES = ("section2", "section3", "section4", "theorem5", "proof_decomposition", "proof_event", "proof_regret",
           "discussion", "section6", "beyond", "explore")
for _m in MODULES:
    importlib.import_module(f"{__name__}.{_m}")

from . import proof_graph  # noqa: E402  (after the claims it reads are registered)


def check(cids: tuple[str, ...], mode: Mode) -> list[ClaimResult]:
    """A unit of the paper's claims run in one process (`verify.runner.check`); a worker process that
    unpickles this function imports this package, and so registers the paper's claims."""
    return _runner.check(cids, mode)


def units(ids: list[str], mode: Mode) -> list[tuple]:
    """The paper's ledger as tasks for `rue_verify.parallel.run` (`verify.runner.units`, run by `check`)."""
    return _runner.units(ids, mode, check)


def check_inputs(inputs: LedgerInputs) -> None:
    """Load the result directories `inputs` names, so that a bad one is refused (an
    `errors.ParameterError` naming 'results' or 'rates') before any claim runs."""
    from ..rates import load as load_rates
    from ..reproduction import load
    load(inputs.results)
    load_rates(inputs.rates)


def collect(ids: list[str], parts: Iterable[list[ClaimResult]]) -> Checked:
    """The units' results in the order of `ids`, with the paper's proof graph resolved once
    (`results.graph`) and each reason for a missing repair checked (`verify.runner.collect`)."""
    return _runner.collect(ids, parts, proof_graph.resolve)


def run_ledger(mode: Mode | None = None, ids: Iterable[str] | None = None,
               progress: Callable[[str], None] | None = None, workers: int = 1) -> Checked:
    """Run the paper's checks (all, or `ids`), with your own claim files (`mode.inputs.claims`), and
    return their results in that order with the proof graph (`verify.runner.run_ledger`). The one
    entry point of `claims`, the report (which interleaves `units` with its figures) and the
    reproduction's summary."""
    return _runner.run_ledger(mode, ids, progress, workers, proof_graph.resolve, check)
