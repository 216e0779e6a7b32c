"""Compiled kernels shipped with the package: numba's on-disk cache of the simulator's kernels, as a fresh clone
would write it after its first runs, so that a first run on a host of the same CPU loads them instead of
compiling (compiling is most of a first run's simulation time: 8 s of the quick report's 60 s wall, about 350 s of
the test suite's durations, measured on an Intel Xeon host).

Nothing here changes what a kernel computes. numba keys each cached copy by the kernel's signature, the host's
CPU and features (its "magic tuple"), the function's bytecode, numba's version and a hash of its source file, and
loads a copy only when all of them match; `seed` only puts the shipped files where numba looks for them
(`numba.core.caching`'s locators, in numba's order: `NUMBA_CACHE_DIR`, beside the module, the user's cache).
Because numba's key holds only the kernel's own file (a kernel inlines functions of other files, which numba does
not track), the shipped files are used only while every source file of this package is the one they were built
from (`MANIFEST` holds the hash of each); any change to any of them leaves them unused, and numba compiles as it
would without them. On another CPU numba's key does not match, so it compiles as before and adds its own copies
beside the shipped ones.

`seed` never overwrites an index numba already keeps (its own compiles stay), writes each file whole (a temporary
file renamed; an index only where none exists, so processes seeding at once do not undo each other), and does
nothing with `RUE_VERIFY_SHIPPED_KERNELS=0` or where anything fails (a read-only install, an unknown numba).

`pack(cache_dirs)` builds the shipped files from a cache written from scratch by the current sources (a fresh
clone's test suite and first command, with `NUMBA_CACHE_DIR` new or the clone's own `__pycache__`): only the
indexes whose source hash is the current file's, with the data files they name."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: the shipped cache (index and data files, under each source file's path relative to this package) and its
#: manifest (numba's and Python's versions, the sha256 of every source file, the building host's CPU)
ARCHIVE = HERE / "data" / "kernels.tar.gz"
MANIFEST = HERE / "data" / "kernels.json"
ENV = "RUE_VERIFY_SHIPPED_KERNELS"

_DONE: list = []


def sources() -> dict[str, str]:
    """relative path -> sha256 of every Python source file of this package."""
    return {p.relative_to(HERE).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(HERE.rglob("*.py")) if "__pycache__" not in p.parts}


def _python_tag() -> str:
    return f"py{sys.version_info[0]}{sys.version_info[1]}"


def _codegen() -> dict:
    """numba's settings that change compiled code but not numba's cache key (a kernel compiled with bounds checks
    or without optimisation is cached under the same key as one without): the shipped files are used only under
    the settings they were built with, and with the same numpy."""
    import numpy
    from numba.core import config
    return {"numpy": numpy.__version__, "boundscheck": config.BOUNDSCHECK, "opt": int(config.OPT),
            "debuginfo": bool(config.DEBUGINFO_DEFAULT), "cpu_name": config.CPU_NAME,
            "cpu_features": config.CPU_FEATURES, "disable_jit": bool(config.DISABLE_JIT)}


def usable(manifest: dict) -> str:
    """'' when the shipped files were built from these sources with this numba, Python, numpy and numba's code
    generation settings, else why not."""
    import numba
    if manifest.get("numba") != numba.__version__:
        return f"built with numba {manifest.get('numba')}, this is {numba.__version__}"
    if manifest.get("python") != _python_tag():
        return f"built for {manifest.get('python')}, this is {_python_tag()}"
    now = _codegen()
    other = [f"{k} {manifest.get('codegen', {}).get(k)!r} (here {v!r})" for k, v in now.items()
             if manifest.get("codegen", {}).get(k) != v]
    if other:
        return "built with other settings: " + ", ".join(other)
    now = sources()
    changed = sorted(k for k in set(now) | set(manifest.get("sources", {})) if now.get(k) != manifest["sources"].get(k))
    more = ", ..." if len(changed) > 3 else ""
    return f"built from other sources ({', '.join(changed[:3])}{more})" if changed else ""


def cache_dir_for(py_file: Path) -> Path | None:
    """Where numba keeps the cached copies of the kernels of `py_file`: its first locator that takes the file
    (numba's own order), or None."""
    from numba.core import caching
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    for cls in impl._locator_classes:
        loc = cls.from_function(_placeholder, str(py_file))
        if loc is not None:
            return Path(loc.get_cache_path())
    return None


def _placeholder():                     # a locator reads only the function's first line number
    return None


def _write_new(path: Path, data: bytes, replace: bool) -> None:
    tmp = path.with_name(f"{path.name}.tmp.{os.getpid()}")
    tmp.write_bytes(data)
    try:
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)          # fails where an index exists: it is numba's (or another seeder's)
    except FileExistsError:
        pass
    finally:
        tmp.unlink(missing_ok=True)


def seed() -> int:
    """Put the shipped cached kernels where numba looks for them (module docstring); the number of index files
    written (0 when they are unusable, already there, or turned off). Runs once per process."""
    if _DONE:
        return 0
    _DONE.append(True)
    if os.environ.get(ENV, "").strip().lower() in ("0", "off", "no", "false") or not ARCHIVE.exists():
        return 0
    try:
        manifest = json.loads(MANIFEST.read_text())
        if usable(manifest):
            return 0
        targets = {rel: cache_dir_for(HERE / rel) for rel in manifest["indexes"]}
        if all(d is not None and all((d / name).exists() for name in names)
               for rel, names in manifest["indexes"].items() for d in [targets[rel]]):
            return 0
        written = 0
        with tarfile.open(ARCHIVE, "r:gz") as tar:
            blobs = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}      # one pass (about 25 MB)
        for rel, names in manifest["indexes"].items():
            d = targets[rel]
            if d is None:
                continue
            d.mkdir(parents=True, exist_ok=True)
            for index in names:
                if (d / index).exists():
                    continue
                for data in manifest["data"][f"{rel}/{index}"]:         # the data first, then the index
                    _write_new(d / data, blobs[f"{rel}/{data}"], replace=True)
                _write_new(d / index, blobs[f"{rel}/{index}"], replace=False)
                written += 1
        return written
    except Exception:                    # an optimisation only: numba compiles as it would without it
        return 0


def _read_index(path: Path):
    with open(path, "rb") as f:
        version = pickle.load(f)
        stamp, overloads = pickle.loads(f.read())
    return version, stamp, overloads


def pack(cache_dirs: list[Path], out: Path = ARCHIVE, manifest_out: Path = MANIFEST) -> dict:
    """Build the shipped files from numba cache directories written from scratch by the current sources
    (module docstring). Returns the manifest."""
    import numba
    from numba.core.registry import cpu_target
    by_hash: dict[bytes, list[str]] = {}
    for rel in sources():
        by_hash.setdefault(hashlib.sha256((HERE / rel).read_bytes()).digest(), []).append(rel)
    indexes: dict[str, list[str]] = {}
    data: dict[str, list[str]] = {}
    files: dict[str, Path] = {}
    for d in map(Path, cache_dirs):
        for idx in sorted(d.rglob("*.nbi")):
            try:
                version, stamp, overloads = _read_index(idx)
            except Exception:
                continue
            modname = idx.name.split(".")[0]
            rels = [r for r in by_hash.get(stamp, []) if Path(r).stem == modname] if version == numba.__version__ \
                else []
            if len(rels) != 1 or not all((idx.parent / n).exists() for n in overloads.values()):
                continue
            rel = rels[0]
            key = f"{rel}/{idx.name}"
            if key in data:
                continue
            indexes.setdefault(rel, []).append(idx.name)
            data[key] = sorted(overloads.values())
            files[key] = idx
            for n in overloads.values():
                files[f"{rel}/{n}"] = idx.parent / n
    import gzip
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name in sorted(files):
            blob = files[name].read_bytes()
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(blob), 0, 0o644        # byte-stable: no clock, no owner
            tar.addfile(info, io.BytesIO(blob))
    manifest = {"numba": numba.__version__, "python": _python_tag(), "codegen": _codegen(), "sources": sources(),
                "cpu": list(cpu_target.target_context.codegen().magic_tuple()[:2]),
                "indexes": {k: sorted(v) for k, v in sorted(indexes.items())}, "data": dict(sorted(data.items()))}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(gzip.compress(buf.getvalue(), 9, mtime=0))            # byte-stable: a rebuild of the same files
    manifest_out.write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


if __name__ == "__main__":          # python -m simulate.shipped_kernels CACHE_DIR [CACHE_DIR ...]
    if len(sys.argv) < 2:
        sys.exit("usage: python -m simulate.shipped_kernels CACHE_DIR [...]: numba cache directories a fresh "
                 "clone's test suite and first command wrote (NUMBA_CACHE_DIR, or its simulate/**/__pycache__)")
    m = pack([Path(a) for a in sys.argv[1:]])
    print(f"{sum(map(len, m['indexes'].values()))} kernels' indexes, {sum(map(len, m['data'].values()))} compiled "
          f"signatures, {ARCHIVE.stat().st_size / 1e6:.1f} MB -> {ARCHIVE}")
