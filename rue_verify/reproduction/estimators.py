"""Section 6 with each variance estimator. The paper's experiments run RUE with "the estimates of the
variances" without saying which; the shipped reproduction runs the authors' code's (`variances='authors'`).
This part of the reproduction runs RUE's tasks of the same grid again with each other estimator of
`simulate.algorithms.variances` (the unbiased ANOVA moments, ML, REML), same seed: the same settings,
instances and reward streams as the shipped rows, so each estimator's rows pair with the baselines'
exactly as the authors' do. Its paper-scale rows ship inside the package (`data/estimators`); they are
not part of the shipped results the ledger reads (RUE would then have two rows per cell).

`substituted(base, rows, estimator)` gives the shipped rows with RUE's rows replaced by that estimator's,
under RUE's own key, label and parameters, so that Section 6's claims, unchanged, judge RUE run with
that estimator (`rue_verify.ledger.section6_estimators`)."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from pathlib import Path

from simulate.algorithms import variances as V

from .grid import PAPER, SCALES, Scale, grid
from .results import Results

#: the estimators run beside the shipped rows' ('authors')
ESTIMATORS = ("unbiased", "ml", "reml")
SHIPPED_ESTIMATOR = "authors"


def tasks(scale: Scale = PAPER, estimators=ESTIMATORS, conventions=("project", "authors"), studies=None) -> list:
    """RUE's tasks of the reproduction's grid, once per estimator (the parameter `variances` changed)."""
    bad = sorted(set(estimators) - set(V.ESTIMATORS) | ({"known"} & set(estimators)))
    if bad:
        raise ValueError(f"estimators must be among {', '.join(e for e in V.ESTIMATORS if e != 'known')}, got "
                         f"{', '.join(bad)}")
    kw = {"studies": tuple(studies)} if studies else {}
    base = [t for t in grid(scale, conventions=tuple(conventions), **kw) if t.algorithm == "rue"]
    return [dataclasses.replace(t, params=tuple(sorted({**dict(t.params), "variances": e}.items())))
            for e in estimators for t in base]


def run(scale: str | Scale = "quick", out: str | Path | None = None, seed: int = 0, estimators=ESTIMATORS,
        scheduler: str | None = None, progress: bool = True, wait: bool = False, workers: int | None = None,
        studies=None) -> dict:
    """Run (or resume) RUE's tasks with each estimator into `out` (a reproduction result directory)."""
    from . import open_store, run_sweep
    from .grid import manifest
    sc = SCALES[scale] if isinstance(scale, str) else scale
    ts = tasks(sc, estimators, studies=studies)
    out = Path(out or f"reproduction-estimators-{sc.name}")
    man = {**manifest(ts, seed, sc.name, ("project", "authors")), "tool": "rue-verify reproduce --rue-estimators",
           "estimators": list(estimators)}
    store = open_store(out, man)
    rows, wall = run_sweep(ts, seed, store, scheduler=scheduler, progress=progress, wait=wait, workers=workers)
    return {"out": str(out), "rows": rows, "wall_seconds": wall, "tasks": len(ts), "scale": sc.name, "seed": seed}


def load(directory: str | Path | None = None) -> Results:
    """The shipped rows (None) or those in `directory`."""
    from . import load as load_results
    if directory is None:
        d = resources.files(__package__).joinpath("data", "estimators")
        from ..store.result_store import read_rows
        with d.joinpath("results.csv").open(newline="") as f:
            rows = read_rows(f)
        return Results(tuple(rows), "shipped", json.loads(d.joinpath("manifest.json").read_text()))
    return load_results(directory)


def estimator_of(row: dict) -> str:
    """The variance estimator a RUE row ran with (from its key's parameters)."""
    return json.loads(row["key"].rsplit("|", 1)[1]).get("variances", "")


def _with(key: str, estimator: str) -> str:
    head, params = key.rsplit("|", 1)
    return head + "|" + json.dumps({**json.loads(params), "variances": estimator}, sort_keys=True)


def substituted(base: list[dict], rows: list[dict], estimator: str) -> list[dict]:
    """`base` (the shipped rows) with every RUE row replaced by `estimator`'s row of the same task, under
    the replaced row's key, label and parameters. A RUE row of `base` with no counterpart is an error
    (the claims would judge a mixture)."""
    mine = {r["key"]: r for r in rows if r["algorithm"] == "rue" and estimator_of(r) == estimator}
    out, missing = [], []
    for r in base:
        if r["algorithm"] != "rue" or estimator_of(r) != SHIPPED_ESTIMATOR:
            out.append(r)
            continue
        other = mine.get(_with(r["key"], estimator))
        if other is None:
            missing.append(r["key"])
            continue
        out.append({**other, "key": r["key"], "label": r["label"], "params": r["params"]})
    if missing:
        from ..errors import ParameterError
        raise ParameterError("estimators", f"{len(missing)} of RUE's rows have no {estimator} counterpart (e.g. "
                                           f"{missing[0]}); run 'rue-verify reproduce --rue-estimators' on the "
                                           "same grid and seed")
    return out
