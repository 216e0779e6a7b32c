"""The checker a reader runs: every certificate file of a directory verified by its kind's checker (`smt`: cvc5
re-decides the SMT-LIB problem; `farkas`: exact rationals; `boxes`: arb; `rewrite`: sympy re-decides a step sympy
decided), each module imported only when a file of its kind is met. It imports no search: no z3, no HiGHS, no
scipy.optimize, no `rue_verify.verify` module."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

#: the kind of a certificate -> the module (in this package) whose `check(cert)` verifies it
CHECKERS = {"smt2": "smt", "farkas": "farkas", "boxes": "boxes", "sympy": "rewrite"}


def check_directory(path) -> list[tuple[str, str, bool, str]]:
    """(file, kind, ok, detail) for every file under `path` (sorted by name), each `*.json` verified by its kind's
    checker; a file that is not a certificate, of a kind no checker reads, with another name (a renamed `.JSON`,
    `.json.bak`, ...: a certificate put out of the check's sight) or a symbolic link (a directory linked in is
    not walked) is not ok and says why."""
    out = []
    for p in sorted(Path(path).rglob("*")):
        if p.is_symlink():
            out.append((str(p), "", False, "a symbolic link: certificates are files of the directory itself"))
        elif p.is_dir():
            continue
        elif p.suffix != ".json":
            out.append((str(p), "", False, "not a certificate file (*.json): a certificate renamed out of the "
                                           "check's sight fails it"))
        else:
            out.append(check_file(p))
    return out


def _unique(pairs):
    """A JSON object's pairs as a dict, refusing a key given twice (another reader would read the other)."""
    d = {}
    for k, v in pairs:
        if k in d:
            raise ValueError(f"the key {k!r} appears twice in one object")
        d[k] = v
    return d


def check_file(path) -> tuple[str, str, bool, str]:
    """(file, kind, ok, detail) of one certificate file."""
    p = Path(path)
    try:
        cert = json.loads(p.read_text(encoding="utf-8"), object_pairs_hook=_unique)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
        return str(p), "", False, f"not a certificate: {type(err).__name__}: {str(err)[:300]}"
    if not isinstance(cert, dict) or not isinstance(cert.get("kind"), str):
        return str(p), "", False, "not a certificate: no kind"
    kind = cert["kind"]
    checker = _checker(kind)
    if checker is None:
        return str(p), kind, False, f"no checker for kind {kind!r}"
    try:
        ok, detail = checker(cert)
    except Exception as err:                 # a malformed certificate fails; it never passes by a crash
        return str(p), kind, False, f"the {kind} checker failed on it: {type(err).__name__}: {str(err)[:300]}"
    return str(p), kind, bool(ok), detail


def _checker(kind: str):
    """The `check` function of `kind`'s module, or None when there is none (an unknown kind, a module missing)."""
    name = CHECKERS.get(kind)
    if name is None:
        return None
    try:
        module = importlib.import_module(f"{__package__}.{name}")
    except ImportError:
        return None
    return getattr(module, "check", None)
