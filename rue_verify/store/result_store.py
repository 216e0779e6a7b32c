"""The result store of a sweep (the reproduction's, the rate study's): a directory with `results.csv`
(one row per task, written as each task finishes, flushed to disk) and `manifest.json` (the package
version and the fingerprint of the grid and seed that the rows belong to).

A directory belongs to one definition: opening it with another version or another grid is refused
before any work starts, so results are never mixed. A sweep that is killed loses at most the task
that was running (a last line without its newline is dropped on reopening); an append that fails
(a full disk) is cut back to the last whole row before the error propagates; rerunning the same
command skips every task already in the file. `finalize` rewrites the file in the grid's order
(atomically, like the manifest), so a resumed sweep ends with the same file as an uninterrupted one
(wall seconds aside).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import socket
import time
from pathlib import Path

from ..verify.findings import dumps
from .files import write_text


def definition_hash(keys: list[str], seed: int) -> str:
    """The fingerprint of a sweep's definition, which a result directory belongs to: its tasks' keys,
    its seed and the simulator's random streams (`simulate.algorithms.sources.STREAMS`), so rows drawn
    from other streams are never resumed into it."""
    import zlib

    from simulate.algorithms.sources import STREAMS
    return f"{zlib.crc32(json.dumps([STREAMS, seed] + list(keys)).encode()):08x}"


class ResultStore:
    """`columns`: the CSV's columns (each sweep's grid declares its own)."""

    def __init__(self, directory: str | Path, manifest: dict, columns: tuple[str, ...]):
        self.columns = tuple(columns)
        self.dir = Path(directory)
        if self.dir.exists() and not self.dir.is_dir():
            raise ValueError(f"--out: {self.dir} exists and is not a directory")
        self.dir.mkdir(parents=True, exist_ok=True)
        self.csv = self.dir / "results.csv"
        mpath = self.dir / "manifest.json"
        if mpath.exists():
            try:
                old = json.loads(mpath.read_text())
            except json.JSONDecodeError as err:
                raise ValueError(f"--out: {mpath} is not a manifest this tool wrote ({err})") from None
            for k in ("version", "definition"):
                if old.get(k) != manifest[k]:
                    raise ValueError(f"--out: {self.dir} holds results of another {k} ({old.get(k)} against "
                                     f"{manifest[k]}); choose another directory or delete it")
        elif self.csv.exists():
            raise ValueError(f"--out: {self.csv} exists without a manifest; choose another directory")
        else:
            write_text(mpath, dumps(manifest, indent=1) + "\n")
        self.manifest = manifest

    @contextlib.contextmanager
    def writer(self, wait: bool = False):
        """Hold the directory's write lock (an OS file lock, released by the OS if the holder dies):
        a second writer is refused with a ValueError naming the holder, or, with `wait`, waits."""
        from filelock import FileLock, Timeout
        lock = FileLock(self.dir / ".lock")
        owner = self.dir / ".lock.owner"
        try:
            lock.acquire(timeout=-1 if wait else 0)
        except Timeout:
            try:
                who = json.loads(owner.read_text())
                holder = f"pid {who['pid']} on {who['host']}, since {who['since']}"
            except (OSError, ValueError, KeyError):
                holder = "another process"
            raise ValueError(f"--out: {self.dir} is being written by another run ({holder}); wait for it to end or "
                             "pass --wait") from None
        try:
            owner.write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                         "since": time.strftime("%Y-%m-%d %H:%M:%S")}))
            yield self
        finally:
            owner.unlink(missing_ok=True)
            lock.release()

    def done(self) -> dict[str, dict]:
        """The rows on disk, by task key; a last line without its newline (a killed write) is dropped."""
        if not self.csv.exists():
            return {}
        text = self.csv.read_text()
        whole = text[:text.rfind("\n") + 1]
        rows = list(csv.DictReader(io.StringIO(whole, newline="")))
        good = [r for r in rows if None not in r.values() and None not in r and len(r) == len(self.columns)
                and r.get("wall_seconds") not in (None, "")]
        if len(good) != len(rows) or whole != text:
            self._write(good)
        return {r["key"]: r for r in good}

    def append(self, row: dict) -> None:
        """Add one row, flushed to disk; if the write fails (a full disk), the file is cut back to its
        last whole row and the OSError, naming the file, propagates."""
        buf = io.StringIO(newline="")
        w = csv.DictWriter(buf, self.columns)
        if not self.csv.exists():
            w.writeheader()
        w.writerow(row)
        data = buf.getvalue().encode()
        fd = os.open(self.csv, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            size = os.fstat(fd).st_size
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            except OSError as err:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, size)
                raise OSError(err.errno, err.strerror, str(self.csv)) from None
        finally:
            os.close(fd)

    def finalize(self, order: list[str]) -> list[dict]:
        """Rewrite the file in the grid's order; returns the rows in that order."""
        done = self.done()
        rows = [done[k] for k in order if k in done]
        self._write(rows)
        return rows

    def _write(self, rows: list[dict]) -> None:
        buf = io.StringIO(newline="")
        w = csv.DictWriter(buf, self.columns)
        w.writeheader()
        w.writerows(rows)
        write_text(self.csv, buf.getvalue())


def read_rows(source) -> list[dict]:
    """The rows of a results.csv (a path to it or to its directory, or an open text file), values as
    written."""
    if hasattr(source, "read"):
        return list(csv.DictReader(source))
    p = Path(source)
    p = p / "results.csv" if p.is_dir() else p
    with p.open(newline="") as f:
        return list(csv.DictReader(f))
