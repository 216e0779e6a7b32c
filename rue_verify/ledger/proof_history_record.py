"""The exact history search's outcomes shipped with the package, read instead of searching again where the code
matches.

The walk of `proof_histories._walks` at one parameter point is a pure function of the point, the steps it decides
and the code that builds and solves their rows: the ledger's history module, the search (`verify.histories`), RUE's
linear form (`simulate.proofs.linear`), the formulas of `bounds` the thresholds come from, numpy and scipy (HiGHS).
The package ships each point's outcomes (`rue_verify/data/histories.json.gz`) under a key of the point, the steps
and a hash of all that code (`code_hash`, of `proof_histories.walk_code`, with the versions of numpy, scipy and z3,
which decides the margins near 0): a changed formula or search finds no
outcome and walks again, so a shipped outcome is only ever this same code's answer, not a replacement for it. A
witness read back is replayed through the plain reference RUE all the same (`proof_histories.check_replays`), and
the finding says how many of its points were read (`reused`).

The file is JSON (`encode`, `decode`): an outcome, its witness and the witness's violation and rows are objects
tagged with their class, arrays with their dtype, infinities spelled out; reading it builds only those classes
(no pickle: reading package data runs no code of the file's), and a reader can open it with any JSON tool.

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
from pathlib import Path

#: the shipped outcomes, in the package's data (`rue_verify/data`)
SHIPPED_FILE = "histories.json.gz"

_SHIPPED: dict = {}
#: the points whose outcomes were read from the shipped file in this process: (route, K, n, sigma0^2, sigma^2)
reused: set = set()
#: where a build collects the outcomes it searched (None: not building)
_RECORDING: list = [None]


def code_hash(modules) -> str:
    """The hash of the code a walk's outcome depends on: the files of `modules` (the ledger's history module, the
    search, RUE's linear form; `proof_histories.walk_code`) and of every module of `bounds`, with numpy's and
    scipy's versions and z3's (the walk's exact check of a margin near 0 asks z3)."""
    from importlib import metadata

    import bounds
    h = hashlib.sha256()
    files = [Path(inspect.getfile(m)) for m in modules]
    files += sorted(Path(inspect.getfile(bounds)).parent.glob("*.py"))
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    for dist in ("numpy", "scipy", "z3-solver"):
        h.update(f"{dist}={metadata.version(dist)}".encode())
    return h.hexdigest()[:16]


def _classes() -> dict:
    """{tag: class} of the objects an outcome holds (`encode`, `decode`): the only classes reading builds."""
    from simulate.proofs import linear

    from ..verify import histories
    out = {c.__name__: c for c in (histories.Outcome, histories.Witness, linear.Row)}
    out["Violation"] = linear.Violation
    out["EngineViolation"] = histories.Violation
    return out


def encode(obj):
    """`obj` (outcomes: dicts, lists, tuples, numbers, strings, None, numpy arrays and the classes of `_classes`) as
    plain JSON values: a class's object as {"__class__": tag, field: value...}, a tuple {"__tuple__": [...]}, an
    array {"__array__": values, "dtype"}, an infinite or NaN float {"__float__": "inf" | "-inf" | "nan"}."""
    import dataclasses
    import math

    import numpy as np
    tags = {c: t for t, c in _classes().items()}
    if isinstance(obj, bool) or obj is None or isinstance(obj, (int, str)):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else {"__float__": repr(obj)}
    if isinstance(obj, np.ndarray):
        return {"__array__": [encode(x) for x in obj.tolist()], "dtype": str(obj.dtype)}
    if isinstance(obj, np.generic):
        return encode(obj.item())
    if type(obj) in tags:
        fields = obj._asdict() if hasattr(obj, "_asdict") else {f.name: getattr(obj, f.name)
                                                                  for f in dataclasses.fields(obj)}
        return {"__class__": tags[type(obj)], **{k: encode(v) for k, v in fields.items()}}
    if isinstance(obj, tuple):
        return {"__tuple__": [encode(x) for x in obj]}
    if isinstance(obj, list):
        return [encode(x) for x in obj]
    if isinstance(obj, dict) and all(isinstance(k, str) for k in obj):
        if any(k.startswith("__") for k in obj):
            raise ValueError(f"a dict key starting with '__' cannot be recorded: {sorted(obj)}")
        return {k: encode(v) for k, v in obj.items()}
    raise TypeError(f"the history record cannot hold a {type(obj).__name__}")


def decode(obj):
    """The inverse of `encode`; a tag outside `_classes` is an error (the file is not this code's)."""
    import numpy as np
    if isinstance(obj, list):
        return [decode(x) for x in obj]
    if not isinstance(obj, dict):
        return obj
    if "__float__" in obj:
        return float(obj["__float__"])
    if "__tuple__" in obj:
        return tuple(decode(x) for x in obj["__tuple__"])
    if "__array__" in obj:
        return np.array([decode(x) for x in obj["__array__"]], dtype=np.dtype(obj["dtype"]))
    if "__class__" in obj:
        cls = _classes().get(obj["__class__"])
        if cls is None:
            raise ValueError(f"the history record names an unknown class {obj['__class__']!r}")
        return cls(**{k: decode(v) for k, v in obj.items() if k != "__class__"})
    return {k: decode(v) for k, v in obj.items()}


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
            pack = json.loads(gzip.decompress(resources.files("rue_verify").joinpath("data", SHIPPED_FILE)
                                              .read_bytes()))
            _SHIPPED[code] = decode(pack["outcomes"]) if pack.get("code") == code else {}
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
    data = json.dumps({"code": code, "outcomes": encode(got)}, allow_nan=False).encode("utf-8")
    import os
    import tempfile
    fd, tmp = tempfile.mkstemp(dir=Path(out).parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(gzip.compress(data, 9, mtime=0))
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(got)
