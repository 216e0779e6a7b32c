"""Writing output files whole or not at all: each file is written to a temporary name in its own
directory and renamed over the target, so an interrupted command leaves the previous complete file
(or none), never a half-written one. The file gets the permissions a plain `open(path, "w")` would
give (0666 less the umask), not the temporary file's private 0600."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes(path: str | Path, data: bytes) -> Path:
    """Write `data` to `path` atomically (parent directories are created); an OSError names the cause."""
    p = Path(path)
    tmp = None
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".part", dir=p.parent)
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException as err:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError) and (not err.filename or str(err.filename).endswith(".part")):
            # a full disk names no file, a refused temporary names itself: name the target instead
            raise OSError(err.errno, err.strerror or str(err), str(p)) from None
        raise
    return p


def write_text(path: str | Path, text: str) -> Path:
    return write_bytes(path, text.encode("utf-8"))
