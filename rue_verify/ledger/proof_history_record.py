"""The exact history search's outcomes shipped with the package, read instead of searching again where the code
matches.

The walk of `proof_histories._walks` at one parameter point is a pure function of the point, the steps it decides
and the code that builds and solves their rows: the ledger's history module, the search (`verify.histories`), RUE's
linear form (`simulate.proofs.linear`), the formulas of `bounds` the thresholds come from, numpy and scipy (HiGHS).
The package ships each point's outcomes (`rue_verify/data/histories.pickle.gz`) under a key of the point, the steps
and a hash of all that code (`code_hash`, of `proof_histories.walk_code`): a changed formula or search finds no
outcome and walks again, so a shipped outcome is only ever this same code's answer, not a replacement for it. A
witness read back is replayed through the plain reference RUE all the same (`proof_histories.check_replays`), and
the finding says how many of its points were read (`reused`).

Nothing is read where the decision cache is off (`RUE_VERIFY_CACHE=off`, which `--recheck` sets): that run walks
every point. The suite walks shipped points afresh and compares (tests/ledger/test_history_record.py).

Build: `python -m rue_verify.ledger.proof_history_build` walks the grids of the quick and thorough modes afresh and
writes the file (about a minute; `proof_histories.build_record`); the suite fails while the shipped file's hash is
not this code's.
"""

from __future__ import annotations

import gzip
import hashlib
import inspect
import json
import pickle
from pathlib import Path

#: the shipped outcomes, in the package's data (`rue_verify/data`)
SHIPPED_FILE = "histories.pickle.gz"

_SHIPPED: dict = {}
#: the points whose outcomes were read from the shipped file in this process: (route, K, n, sigma0^2, sigma^2)
reused: set = set()
#: where a build collects the outcomes it searched (None: not building)
_RECORDING: list = [None]


def code_hash(modules) -> str:
    """The hash of the code a walk's outcome depends on: the files of `modules` (the ledger's history module, the
    search, RUE's linear form; `proof_histories.walk_code`) and of every module of `bounds`, with numpy's and
    scipy's versions."""
    from importlib import metadata

    import bounds
    h = hashlib.sha256()
    files = [Path(inspect.getfile(m)) for m in modules]
    files += sorted(Path(inspect.getfile(bounds)).parent.glob("*.py"))
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    for dist in ("numpy", "scipy"):
        h.update(f"{dist}={metadata.version(dist)}".encode())
    return h.hexdigest()[:16]


def key(p, steps, code: str) -> str:
    """One point's key: the point (`Params.as_dict`), the steps walked and the code's hash."""
    text = json.dumps([p.as_dict(), sorted(steps), code], sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def _enabled() -> bool:
    """Off where the decision cache is (`verify.statements`: RUE_VERIFY_CACHE set to 0, off, no or false)."""
    import os

    from ..verify.statements import CACHE_ENV
    return os.environ.get(CACHE_ENV, "").lower() not in ("0", "off", "no", "false")


def shipped(code: str) -> dict:
    """{key: {step: Outcome}} shipped under the hash `code` (empty where the file is absent, unreadable, or of
    other code)."""
    if code not in _SHIPPED:
        from importlib import resources
        try:
            pack = pickle.loads(gzip.decompress(resources.files("rue_verify").joinpath("data", SHIPPED_FILE)
                                                .read_bytes()))
            _SHIPPED[code] = pack["outcomes"] if pack.get("code") == code else {}
        except Exception:
            _SHIPPED[code] = {}
    return _SHIPPED[code]


def lookup(p, steps, code: str) -> dict | None:
    """The shipped outcomes of `steps` at point `p` ({step: Outcome}) under code `code`, or None (search)."""
    if not _enabled() or _RECORDING[0] is not None:
        return None
    got = shipped(code).get(key(p, steps, code))
    if got is None or set(got) != set(steps):
        return None
    reused.add((p.route, p.K, p.n, p.sigma0_sq, p.sigma_sq))
    return got


def record(p, steps, code: str, outcomes: dict) -> None:
    """Keep a searched point's outcomes while building (`recording`)."""
    if _RECORDING[0] is not None:
        _RECORDING[0][key(p, steps, code)] = outcomes


def recording(walk, out: Path, code: str) -> int:
    """Run `walk()` (walking afresh: nothing shipped is read meanwhile), keeping every point it searches, and write
    them to `out` under `code`, whole or not at all; how many points."""
    _RECORDING[0] = {}
    try:
        walk()
        got = _RECORDING[0]
    finally:
        _RECORDING[0] = None
    data = pickle.dumps({"code": code, "outcomes": got}, protocol=4)
    tmp = Path(out).with_suffix(".tmp")
    tmp.write_bytes(gzip.compress(data, 9, mtime=0))
    tmp.replace(out)
    return len(got)
