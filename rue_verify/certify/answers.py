"""cvc5's answers on z3's problems, shipped and kept: `answer(smt2, statement)` is `smt.check`'s (ok, detail) on the
certificate of that problem, read where it was decided before.

An answer is keyed by the sha256 (`key`) of the problem's SMT-LIB text, its statement, cvc5's configurations and the
facts' consistency limit (`smt.CONFIGS`, `smt.CONSISTENCY_SECONDS`), cvc5's version and the checker's source
(`certify.smt`): a changed problem, another configuration, another cvc5 or a changed checker finds no answer and
decides afresh. It is read

1. from the answers shipped with the package (`rue_verify/data/cvc5-answers.json.gz`, written by
   `python -m rue_verify.certify.answers_build`: every z3 problem of the shipped decisions and of the quick ledger's
   graph, so that a first run of the paper runs no cvc5);
2. else from the answers kept on this machine: one file per key in `cvc5-answers/`, beside the decision cache's
   `decisions/` (`verify.statements`, under `RUE_VERIFY_CACHE` or `~/.cache/rue-verify`), each written whole (a
   temporary file renamed into place) so that no reader sees half of one;
3. else by running `smt.check` now, the answer kept (an unknown too: its time limit is of CPU, so a loaded machine
   does not cut it short; cvc5 missing or its process dying is not kept).

`RUE_VERIFY_CACHE=off` (which `--recheck` sets) reads neither the shipped nor the kept answers and keeps none: cvc5
decides every problem afresh. What the answers decide is read by `verify.second` (a z3 link cvc5 does not
re-decide is not certified) and by `rue-verify proofs --trust`."""

from __future__ import annotations

import hashlib
import json

from . import smt

#: the shipped answers, in the package (`rue_verify/data`)
SHIPPED_FILE = "cvc5-answers.json.gz"
#: the kept answers' directory, beside the decision cache's
KEPT_DIR = "cvc5-answers"
#: a detail of an answer that says nothing of the problem (cvc5 absent, its process dead): never kept
NOT_KEPT = ("cvc5 is not installed", "process ended without an answer")

_SHIPPED: dict = {}


def cvc5_version() -> str:
    """The installed cvc5's version ("absent" where it is not installed)."""
    from importlib import metadata
    try:
        return metadata.version("cvc5")
    except metadata.PackageNotFoundError:
        return "absent"


_CHECKER: list = []


def checker_hash() -> str:
    """The sha256 (hex) of the checker's source (`certify.smt`: what a problem must be, how cvc5 is asked, what its
    answers mean): an answer given by another checker is not this one's."""
    if not _CHECKER:
        import inspect
        from pathlib import Path
        _CHECKER.append(hashlib.sha256(Path(inspect.getfile(smt)).read_bytes()).hexdigest())
    return _CHECKER[0]


def key(smt2: str, statement: str) -> str:
    """An answer's key (module docstring): the sha256 (hex) of the JSON of the problem, its statement, cvc5's
    configurations, the consistency limit, cvc5's version and the checker's source (`checker_hash`)."""
    text = json.dumps({"smt2": smt2, "statement": statement, "configs": smt.CONFIGS,
                       "consistency_seconds": smt.CONSISTENCY_SECONDS, "cvc5": cvc5_version(),
                       "checker": checker_hash()}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _kept_dir():
    """The kept answers' directory, None where the decision cache is off."""
    from ..verify import statements
    where = statements._cache_dir()
    return None if where is None else where.parent / KEPT_DIR


def shipped() -> dict:
    """{key: {"ok", "detail", ...}} shipped in `rue_verify/data/cvc5-answers.json.gz`, read once; empty where the file
    is absent or unreadable."""
    if "all" not in _SHIPPED:
        import gzip
        from importlib import resources
        try:
            raw = resources.files("rue_verify").joinpath("data", SHIPPED_FILE).read_bytes()
            _SHIPPED["all"] = dict(json.loads(gzip.decompress(raw))["answers"])
        except Exception:
            _SHIPPED["all"] = {}
    return _SHIPPED["all"]


def _read(entry) -> tuple[bool, str] | None:
    """(ok, detail) of a stored answer, None where it is not one."""
    if isinstance(entry, dict) and isinstance(entry.get("ok"), bool) and isinstance(entry.get("detail"), str):
        return entry["ok"], entry["detail"]
    return None


def kept(k: str) -> tuple[bool, str] | None:
    """The answer kept on this machine under key `k` (None: none, unreadable, or the cache is off)."""
    where = _kept_dir()
    if where is None:
        return None
    try:
        return _read(json.loads((where / f"{k}.json").read_text(encoding="utf-8")))
    except Exception:
        return None


def keep(k: str, ok: bool, detail: str, seconds: float | None = None) -> None:
    """Keep an answer under key `k`, whole or not at all (a temporary file renamed into place); nothing where the
    cache is off or the directory cannot be written (the answer stands, only not kept)."""
    import os
    import tempfile
    where = _kept_dir()
    if where is None or any(w in detail for w in NOT_KEPT):
        return
    tmp = None
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps({"ok": ok, "detail": detail, "seconds": seconds, "cvc5": cvc5_version()}))
        os.replace(tmp, where / f"{k}.json")
    except Exception:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def decide(smt2: str, statement: str) -> tuple[bool, str, float]:
    """cvc5 run now on the problem (`smt.check` on its certificate): (ok, detail, seconds of the clock)."""
    import time
    start = time.perf_counter()
    ok, detail = smt.check(smt.certificate(smt2, statement, "", ""))
    return ok, detail, time.perf_counter() - start


def answer(smt2: str, statement: str) -> tuple[bool, str]:
    """cvc5's (ok, detail) on z3's problem `smt2` of `statement`: shipped, else kept, else decided now and kept
    (module docstring)."""
    k = key(smt2, statement)
    if _kept_dir() is not None:
        got = _read(shipped().get(k)) or kept(k)
        if got is not None:
            return got
    ok, detail, seconds = decide(smt2, statement)
    keep(k, ok, detail, round(seconds, 2))
    return ok, detail
