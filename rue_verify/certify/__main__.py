"""`python -m rue_verify.certify DIR [--json]`: every certificate under DIR verified by the small checker alone
(`check.check_directory`), in a process that imports no search (no z3, no HiGHS, no scipy.optimize, no
`rue_verify.verify` module): the part of the toolkit a reader has to trust, with the engine's chain composition.
Exit status 0 when every certificate checks, 1 when one does not, 2 when DIR is not a directory."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .check import CHECKERS, check_directory


def _trusts(kind: str) -> str:
    """What a passing certificate of `kind` leaves to the reader (its module's TRUSTS)."""
    import importlib
    return getattr(importlib.import_module(f"{__package__}.{CHECKERS[kind]}"), "TRUSTS", "")


def checker_size() -> dict:
    """The checker's own size: the lines of each module a check runs (`check` and one module per kind)."""
    here = Path(__file__).resolve().parent
    files = ["check.py"] + [f"{m}.py" for m in CHECKERS.values()]
    return {f: len((here / f).read_text(encoding="utf-8").splitlines()) for f in files if (here / f).exists()}


def summary(rows: list) -> dict:
    """Counts by kind (checked, failed, and of the checked how many hold only in part: a box certificate whose tail
    or rest of the domain is left to another proof), the failures with why, and the partial ones with what they
    leave."""
    kinds: dict = {}
    for _, kind, ok, detail in rows:
        k = kinds.setdefault(kind or "unreadable", {"checked": 0, "failed": 0, "partial": 0})
        k["checked" if ok else "failed"] += 1
        k["partial"] += bool(ok and "partial:" in detail)
    return {"files": len(rows), "kinds": kinds, "failed": [{"file": f, "kind": k, "why": d} for f, k, ok, d in rows
                                                          if not ok],
            "partial": [{"file": f, "kind": k, "leaves": d.split("partial:", 1)[1].strip()}
                        for f, k, ok, d in rows if ok and "partial:" in d],
            "trusts": {k: _trusts(k) for k in kinds if k in CHECKERS}, "checker_lines": checker_size()}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args
    args = [a for a in args if a != "--json"]
    if len(args) != 1 or not Path(args[0]).is_dir():
        print("usage: python -m rue_verify.certify DIR [--json]   (DIR: a directory of certificate files)",
              file=sys.stderr)
        return 2
    out = summary(check_directory(args[0]))
    if as_json:
        print(json.dumps(out, indent=1, sort_keys=True))
    else:
        for kind, n in sorted(out["kinds"].items()):
            print(f"{kind}: {n['checked']} checked, {n['failed']} failed"
                  + (f" ({n['partial']} of the checked hold in part only)" if n["partial"] else ""))
        for f in out["partial"]:
            print(f"PARTIAL {f['file']} ({f['kind']}): leaves {f['leaves']}")
        for f in out["failed"]:
            print(f"FAILED {f['file']} ({f['kind']}): {f['why']}")
        for kind in sorted(k for k in out["kinds"] if k in CHECKERS):
            print(f"{kind}, trusted and not checked: {_trusts(kind)}")
        print(f"the checker: {sum(out['checker_lines'].values())} lines ({', '.join(out['checker_lines'])})")
    return 0 if not out["failed"] and out["files"] else 1


if __name__ == "__main__":
    sys.exit(main())
