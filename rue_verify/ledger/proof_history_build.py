"""Build the history search's shipped outcomes (`proof_history_record`): `python -m
rue_verify.ledger.proof_history_build [MODE ...]` walks every route over the grids of the modes given (default:
quick and thorough) afresh and writes `rue_verify/data/histories.json.gz`."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

from . import proof_history_record
from .proof_histories import build_record, walk_code


def main(argv: list[str]) -> None:
    target = Path(inspect.getfile(proof_history_record)).parent.parent / "data" / proof_history_record.SHIPPED_FILE
    n = build_record(target, argv or None)
    print(f"{n} points' outcomes written to {target} (code {walk_code()})")


if __name__ == "__main__":                      # pragma: no cover - run by hand
    main(sys.argv[1:])
