"""The results the empirical claims are judged on: the paper-scale results shipped inside the
package (`data/paper`, read with `importlib.resources`, so a wheel install finds them), or a result
directory written by `rue-verify reproduce --out DIR`.

Loading never runs anything and never writes: results are an explicit input of the ledger.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import ParameterError
from ..store.result_store import read_rows
from .grid import paper_algorithms

#: what the ledger uses when it is given no result directory
SHIPPED = "shipped"


@dataclass(frozen=True)
class Results:
    """Result rows (as written in results.csv) and what produced them."""

    rows: tuple[dict, ...]
    source: str                      # SHIPPED, or the directory they were read from
    manifest: dict = field(default_factory=dict)

    @property
    def description(self) -> str:
        """One phrase naming the results, for the findings that use them."""
        m = self.manifest
        where = "shipped with the package" if self.source == SHIPPED else f"in {self.source}"
        return (f"{m.get('scale', 'unknown')}-scale results {where} (seed {m.get('seed', '?')}, conventions "
                f"{'/'.join(m.get('conventions', ['?']))}, rue-verify {m.get('version', '?')})")

    @property
    def studies(self) -> set[str]:
        return {r["study"] for r in self.rows}

    def lacks(self, *studies: str) -> str:
        """What these results lack for judging claims on `studies` (the studies, or the paper's
        algorithms in them), as a phrase; '' if nothing."""
        missing = sorted(set(studies) - self.studies)
        if missing:
            return f"hold no rows of the {', '.join(missing)} study"
        for study in studies:
            have = {r["algorithm"] for r in self.rows if r["study"] == study}
            algs = [a for a in paper_algorithms(study) if a not in have]
            if algs:
                return f"hold no rows of {', '.join(algs)} in the {study} study"
        return ""

    def require(self, *studies: str) -> list[dict]:
        """The rows, or a ValueError naming the studies (or the paper's algorithms) these results lack."""
        lack = self.lacks(*studies)
        if lack:
            raise ParameterError("results", f"{self.description} {lack}; run 'rue-verify reproduce' with every "
                                            "study and the paper's algorithms")
        return list(self.rows)


#: the shipped result directories: the paper's algorithms, and the prior-dependent peers the paper
#: cites (`rue-verify reproduce --paper --studies fixed,random,arms --algorithms bayes_elim,prior_alloc`;
#: same seed, so they ran on the paper rows' instances and reward streams)
SHIPPED_PARTS = ("paper", "peers")


def _shipped_dir(part: str = "paper"):
    return resources.files(__package__).joinpath("data", part)


def load(directory: str | Path | None = None) -> Results:
    """The shipped results (`directory` None or SHIPPED: every part of SHIPPED_PARTS), or those in
    `directory`; a ValueError if the directory holds no results.csv."""
    if directory in (None, SHIPPED):
        rows = []
        for part in SHIPPED_PARTS:
            with _shipped_dir(part).joinpath("results.csv").open(newline="") as f:
                rows += read_rows(f)
        return Results(tuple(rows), SHIPPED, json.loads(_shipped_dir().joinpath("manifest.json").read_text()))
    p = Path(directory)
    if not (p / "results.csv").is_file():
        raise ParameterError("results", f"{p} holds no results.csv (run 'rue-verify reproduce --out {p}')")
    from ..store.tables import checked_rows, manifest
    from .grid import COLUMNS, Row
    m = p / "manifest.json"
    man = manifest(m.read_text(), str(p), "results") if m.is_file() else {}
    kinds = {f: t for f, t in Row.__annotations__.items() if f in COLUMNS}
    rows = checked_rows((p / "results.csv").read_text(), str(p), COLUMNS, "results",
                        "a reproduction ('rue-verify reproduce')", exact=False, json_columns=("params",),
                        text_columns=[c for c, t in kinds.items() if t == "str" and c != "params"])
    return Results(rows, str(p), man)
