"""The claims ledger of Zhu & Qiu's paper: one computed verdict, with evidence, per claim of
`shared/CLAIMS.md` and `shared/CLAIMS-BEYOND.md`.

Importing this package registers every claim, in the paper's order: the theory of Sections 2-5 and
the appendix, the empirical claims of Section 6 (judged on the reproduction's results) and those
beyond the paper. Each claim is declared once (`rue_verify.verify.claim`): its statement and
location, its check, the results it needs, how to recompute its witnesses, and its repairs
(`rue_verify.verify.repair`, beside it) or why it has none. The engine (`rue_verify.verify`) runs
them. This package is the paper's plug-in (`PAPER`, a `verify.Paper`, found by the name `zhu-qiu`
through the entry-point group `rue_verify.papers`): its claim modules, its proof graph's node table
(`proof_graph`), its settings (the exact history search's grid) and its inputs (the reproduction's
results and the rate study). It imports nothing of the outputs at load; its hooks for the report's
formulas and the paper's LaTeX (`_formula`, `_statement_tex`) import them when a renderer calls them.
"""

from __future__ import annotations

import importlib
from typing import Callable, Iterable

from ..verify import REGISTRY, SEVERITY, ClaimResult, Finding, LedgerInputs, Mode, run_claim
from ..verify import runner as _runner
from ..verify.papers import Paper, declaring, register
from ..verify.runner import Checked, batches, load_claims, select

__all__ = ["REGISTRY", "SEVERITY", "ClaimResult", "Finding", "LedgerInputs", "Mode", "run_claim", "run_ledger",
           "check_inputs", "load_claims", "select", "units", "collect", "batches", "check", "Checked", "PAPER"]

#: the paper's name, the namespace of its claim IDs and `--paper`'s default
NAME = "zhu-qiu"
#: the paper's reference (its title page, and the camera-ready month and OpenReview link it declares;
#: CITATION.cff says the same, a test holds them together)
CITATION = ("Rong J.B. Zhu and Yanqi Qiu. UCB Exploration for Fixed-Budget Bayesian Best Arm Identification. "
            "Transactions on Machine Learning Research, October 2024. https://openreview.net/forum?id=BqSi73krYd")


#: the ledger's modules in the paper's order; importing one registers its claims (the registry's
#: order, and so every output's, is this order, then each module's order of declaration)
MODULES = ("section2", "section3", "section4", "theorem5", "proof_decomposition", "proof_event", "proof_regret",
           "discussion", "section6", "beyond", "explore", "variance_estimates")
with declaring(NAME, "paper"):
    for _m in MODULES:
        importlib.import_module(f"{__name__}.{_m}")

from . import proof_graph  # noqa: E402  (after the claims it reads are registered)


def check(cids: tuple[str, ...], mode: Mode) -> list[ClaimResult]:
    """A unit of the paper's claims run in one process (`verify.runner.check`); a worker process that
    unpickles this function imports this package, and so registers the paper's claims."""
    REGISTRY.activate(NAME)
    return _runner.check(cids, mode)


def units(ids: list[str], mode: Mode) -> list[tuple]:
    """The paper's ledger as tasks for `rue_verify.verify.parallel.run` (`verify.runner.units`, run by `check`)."""
    return _runner.units(ids, mode, check)


def check_inputs(inputs: LedgerInputs) -> None:
    """Load the result directories `inputs` names, so that a bad one is refused (an
    `errors.ParameterError` naming 'results' or 'rates') before any claim runs."""
    from ..rates import load as load_rates
    from ..reproduction import load
    load(inputs.results)
    load_rates(inputs.rates)


def inputs_text(inputs: LedgerInputs) -> str:
    """Where the empirical claims read from, in words (the report's head)."""
    from ..rates import load as load_rates
    from ..reproduction import load
    return (f"Section 6 figures and empirical claims from {load(inputs.results).description}, rates and tightness "
            f"from {load_rates(inputs.rates).description}")


def _coverage(mode: Mode) -> str:
    """What the paper's own settings cover: the exact history search's grid."""
    return ("every reward history (the exact history search) for "
            + ", ".join(f"K = {K} up to n = {n}" for K, n in mode.history_n)
            + ("; best-first beyond, " + ", ".join(f"K = {K} at n = {n}" for K, n in mode.history_beyond)
               + f" ({mode.history_programs} programs each)" if mode.history_beyond else ""))


#: the paper's settings in each mode: the exact history search's grid (`proof_histories`). history_n:
#: (K, the largest n) pairs it covers, every history of every length from the theorems' smallest n
#: up to it; history_beyond: (K, n) pairs searched best-first beyond (a sample of the tree, at the
#: parameter point where the exhaustive search came nearest to breaking the step); history_programs:
#: the linear programs each best-first search may solve
SETTINGS = {"quick": {"history_n": ((2, 12), (3, 12), (4, 13)), "history_beyond": (), "history_programs": 3000},
            "thorough": {"history_n": ((2, 14), (3, 13), (4, 14)), "history_beyond": ((2, 30), (3, 24)),
                         "history_programs": 3000}}


def _evaluate(key: str, w: dict) -> dict | None:
    return proof_graph.evaluate_history(key, w)


def _formula(name: str) -> list | None:
    from ..outputs.typeset import formula
    return formula(name)


def _statement_tex(location: str) -> str | None:
    from ..outputs.paper_latex import statement_tex
    return statement_tex(location)


def _certificates(mode, uncovered: list | None = None):
    """The exact history search's Farkas certificates at the mode's grid (`proof_histories.farkas_certificates`)."""
    from .proof_histories import farkas_certificates
    return farkas_certificates(mode, uncovered)


def _seconds() -> dict:
    """Each mode's measured seconds of the claims (`rue_verify/data/seconds.json`, written from a quick run's
    `claims --json`; `Paper.seconds`): the ledger's units run longest first. Empty where the file is unreadable."""
    import json
    from importlib import resources
    try:
        data = json.loads(resources.files("rue_verify").joinpath("data", "seconds.json").read_text())["claims"]
        return {mode: data[mode] for mode in ("quick", "thorough") if mode in data}
    except Exception:
        return {}


PAPER = register(Paper(
    NAME, "Zhu & Qiu (TMLR 2024), RUE", short="Zhu & Qiu (TMLR 2024)",
    citation=CITATION,
    modules=tuple(f"{__name__}.{m}" for m in MODULES), nodes=proof_graph.PAPER,
    replaces={k: node for k, (node, _) in proof_graph.REPAIRS.items()}, theorems=proof_graph.THEOREMS,
    settings=SETTINGS, coverage=_coverage, check_inputs=check_inputs, evaluate=_evaluate, inputs_text=inputs_text,
    statement_tex=_statement_tex, figures=True, formula=_formula, formula_command="rue-verify bound {name}",
    formulas=("bounds.theorems", "bounds.repaired", "bounds.estimation", "bounds.gap", "bounds.section2",
              "bounds.lower", "bounds.limit"),
    certificates=_certificates, seconds=_seconds()))


def collect(ids: list[str], parts: Iterable[list[ClaimResult]]) -> Checked:
    """The units' results in the order of `ids`, with the paper's proof graph resolved once
    (`results.graph`) and each reason for a missing repair checked (`verify.runner.collect`)."""
    REGISTRY.activate(NAME)
    return _runner.collect(ids, parts, proof_graph.resolve)


def run_ledger(mode: Mode | None = None, ids: Iterable[str] | None = None,
               progress: Callable[[str], None] | None = None, workers: int = 1) -> Checked:
    """Run the paper's checks (all, or `ids`), with your own claim files (`mode.inputs.claims`), and
    return their results in that order with the proof graph (`verify.runner.run_ledger`). The one
    entry point of `claims`, the report (which interleaves `units` with its figures) and the
    reproduction's summary."""
    REGISTRY.activate(NAME)
    return _runner.run_ledger(mode, ids, progress, workers, proof_graph.resolve, check)
