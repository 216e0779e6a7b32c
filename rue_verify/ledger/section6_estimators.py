"""Section 6's empirical claims judged again with RUE run by each variance estimator: the paper does not say
which estimates its experiments use (the shipped reproduction runs the authors' code's), so a verdict that
moves with the estimator depends on a choice the paper leaves open, and the report says so (the
`section6-estimators` figure). Not a claim: the same claims, unchanged, on the shipped rows with RUE's
rows replaced by those of the same tasks run with another estimator (`reproduction.estimators`, same seed,
so paired with the baselines exactly as the shipped rows)."""

from __future__ import annotations

import csv
import dataclasses
import json
import tempfile
from pathlib import Path

from ..reproduction import estimators as E
from ..reproduction import load
from ..reproduction.grid import COLUMNS
from ..verify import REGISTRY, Mode, run_claim
from .section6 import SECTION


def section6_claims() -> list[str]:
    """The claims of Section 6 whose judgement reads the reproduction's rows (those that declare studies)."""
    return [cid for cid, c in REGISTRY.items() if c.section == SECTION and c.needs]


def _write(rows: list[dict], manifest: dict, d: Path) -> None:
    with (d / "results.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    (d / "manifest.json").write_text(json.dumps(manifest))


def by_estimator(mode: Mode, estimators=E.ESTIMATORS, source: str | None = None, ids=None) -> list[dict]:
    """One row per (claim, estimator): its verdict and summary with RUE's rows from that estimator (the
    shipped estimator, 'authors', first: the rows as given). `source`: a directory of
    `reproduction.estimators.run` (None: the shipped one); `mode.inputs.results`: the base rows."""
    base = load(mode.inputs.results)
    est = E.load(source).rows
    ids = list(ids or section6_claims())
    out = []
    for e in (E.SHIPPED_ESTIMATOR,) + tuple(estimators):
        with tempfile.TemporaryDirectory(prefix=f"rue-verify-{e}-") as tmp:
            if e == E.SHIPPED_ESTIMATOR:
                m = mode
            else:
                _write(E.substituted(list(base.rows), list(est), e),
                       {**base.manifest, "scale": base.manifest.get("scale", "?"),
                        "rue_variances": e}, Path(tmp))
                m = dataclasses.replace(mode, inputs=dataclasses.replace(mode.inputs, results=tmp))
            for cid in ids:
                r = run_claim(REGISTRY[cid], m)
                out.append({"claim": cid, "estimator": e, "verdict": r.verdict, "summary": r.summary})
    return out


def depends(rows: list[dict]) -> dict[str, dict[str, str]]:
    """The claims whose verdict differs across estimators: claim -> {estimator: verdict}."""
    seen: dict[str, dict[str, str]] = {}
    for r in rows:
        seen.setdefault(r["claim"], {})[r["estimator"]] = r["verdict"]
    return {c: v for c, v in seen.items() if len(set(v.values())) > 1}
