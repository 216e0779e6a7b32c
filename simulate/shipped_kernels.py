"""Compiled kernels shipped with the package: numba's on-disk cache of the simulator's kernels, as a fresh clone
would write it after its first runs, so that a first run on a host of the same CPU loads them instead of
compiling (compiling is most of a first run's simulation time: 8 s of the quick report's 60 s wall, about 350 s of
the test suite's durations, measured on an Intel Xeon host).

Nothing here changes what a kernel computes. numba keys each cached copy by the kernel's signature, the host's
CPU and features (its "magic tuple"), the function's bytecode, numba's version and a hash of its source file, and
loads a copy only when all of them match; `seed` only puts the shipped files where numba looks for them
(`numba.core.caching`'s locators, in numba's order: `NUMBA_CACHE_DIR`, beside the module, the user's cache).
numba's key misses what a kernel inlines from other files, numpy's and llvmlite's versions, and settings that
change code generation (bounds checks, optimisation, vectorisation: `CODEGEN`). So the shipped files are used
only while all of those are what they were built with (`digest`); and because files seeded once would otherwise
stay and be loaded after a change, each directory seeded holds a mark of the digest it was seeded under, and a
later process of another digest removes those indexes (numba then compiles). On another CPU numba's key does not
match: it compiles as before and adds its own copies beside the shipped ones.

`seed` never overwrites an index numba already keeps (its own compiles stay); the shipped data files have names
numba never picks (`<base>.shipped-<digest>-<n>.nbc`), so seeding never replaces a file numba wrote; each file is
written whole (a temporary file renamed; an index only where none exists). It does nothing with
`RUE_VERIFY_SHIPPED_KERNELS=0` or where anything fails (a read-only install, an unknown numba).

`build(commands, EMPTY_DIR)` runs a workload (the test suite's simulator tests and the quick report) with numba's
cache in an empty directory and packs what it compiled (`pack` refuses a directory `build` did not fill from
these sources: a used cache may hold kernels compiled against older versions of what they inline).
Found by a review in a copy: each of these was a way old code loaded (tests/simulate/test_shipped_kernels.py)."""

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
    """relative path -> sha256 of every Python source file of this package but this one (which compiles nothing)."""
    me = Path(__file__).resolve()
    return {p.relative_to(HERE).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(HERE.rglob("*.py")) if "__pycache__" not in p.parts and p.resolve() != me}


def _python_tag() -> str:
    return f"py{sys.version_info[0]}{sys.version_info[1]}"


#: numba's settings that change compiled code but not numba's cache key
CODEGEN = ("BOUNDSCHECK", "OPT", "DEBUGINFO_DEFAULT", "CPU_NAME", "CPU_FEATURES", "DISABLE_JIT", "LOOP_VECTORIZE",
           "SLP_VECTORIZE", "EXTEND_VARIABLE_LIFETIMES", "LLVM_REFPRUNE_PASS", "ENABLE_AVX", "DISABLE_INTEL_SVML")


def _codegen() -> dict:
    """numba's settings that change compiled code but not numba's cache key (a kernel compiled with bounds checks
    or without optimisation is cached under the same key as one without), and numpy's and llvmlite's versions:
    the shipped files are used only under the ones they were built with."""
    import llvmlite
    import numpy
    from numba.core import config

    def plain(v):
        return v if v is None or isinstance(v, (bool, str)) else int(v) if not isinstance(v, float) else v
    return {"numpy": numpy.__version__, "llvmlite": llvmlite.__version__,
            **{k.lower(): plain(getattr(config, k, None)) for k in CODEGEN}}


def digest(sources_: dict, codegen: dict) -> str:
    """One hash of what the shipped files must match (sources, settings, numba, Python): it names their data files
    and marks the directories they were put in (`seed`)."""
    import numba
    blob = json.dumps([numba.__version__, _python_tag(), sorted(sources_.items()), sorted(codegen.items())])
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


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


def _write_new(path: Path, data: bytes, replace: bool) -> bool:
    """Write `path` whole (a temporary file renamed); where `replace` is False, only where no file is (an index:
    numba's own, or another seeder's, stays). Whether this call wrote it."""
    tmp = path.with_name(f"{path.name}.tmp.{os.getpid()}")
    tmp.write_bytes(data)
    try:
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)
        return True
    except FileExistsError:
        return False
    finally:
        tmp.unlink(missing_ok=True)


#: the file beside seeded indexes that says from which `digest` they were seeded
MARK = "rue-verify-shipped-kernels.json"


def _unseed(d: Path, names: list[str], now: str) -> None:
    """Remove the indexes seeded into `d` from files of another digest than `now` (a source file, numpy, a
    setting changed since, or another version installed over it): numba's key would still take them, as it takes
    only the kernel's own file, so numba compiles instead. numba's own additions to those indexes go with them."""
    mark = d / MARK
    try:
        seeded = json.loads(mark.read_text())
    except (OSError, ValueError):
        return
    if seeded.get("digest") == now:
        return
    for name in set(names) | set(seeded.get("indexes", [])):
        (d / name).unlink(missing_ok=True)
    mark.unlink(missing_ok=True)


def seed() -> int:
    """Put the shipped cached kernels where numba looks for them (module docstring); the number of index files
    this call wrote (0 when they are unusable, already there, or turned off). Runs once per process. Indexes it
    seeded before from another digest (sources, settings or versions since changed) are removed first."""
    if _DONE:
        return 0
    _DONE.append(True)
    off = os.environ.get(ENV, "").strip().lower() in ("0", "off", "no", "false")
    if not ARCHIVE.exists():
        return 0
    try:
        manifest = json.loads(MANIFEST.read_text())
        now = "off" if off else digest(sources(), _codegen())      # turned off: what was seeded goes too
        targets = {rel: cache_dir_for(HERE / rel) for rel in manifest["indexes"]}
        per_dir: dict[Path, list[str]] = {}          # the files of one package share numba's directory
        for rel, d in targets.items():
            if d is not None:
                per_dir.setdefault(d, []).extend(manifest["indexes"][rel])
        for d, names in per_dir.items():
            _unseed(d, names, now)
        if off or usable(manifest) or manifest.get("digest") != now:
            return 0
        if all((d / name).exists() for d, names in per_dir.items() for name in names):
            return 0
        written = 0
        with tarfile.open(ARCHIVE, "r:gz") as tar:
            blobs = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}      # one pass (about 25 MB)
        for d, names in per_dir.items():
            d.mkdir(parents=True, exist_ok=True)
            if any(not (d / index).exists() for index in names):
                # the mark first, naming every index of the directory: a process stopped halfway leaves them removable
                _write_new(d / MARK, json.dumps({"digest": now, "indexes": sorted(names)}).encode(), replace=True)
        for rel, names in manifest["indexes"].items():
            d = targets[rel]
            if d is None:
                continue
            for index in names:
                if (d / index).exists():
                    continue
                for data in manifest["data"][f"{rel}/{index}"]:   # the data first (names numba never picks)
                    _write_new(d / data, blobs[f"{rel}/{data}"], replace=True)
                written += _write_new(d / index, blobs[f"{rel}/{index}"], replace=False)
        return written
    except Exception:                    # an optimisation only: numba compiles as it would without it
        return 0


def _read_index(path: Path):
    with open(path, "rb") as f:
        version = pickle.load(f)
        stamp, overloads = pickle.loads(f.read())
    return version, stamp, overloads


#: the file `build` writes into the empty cache directory it runs its commands on: which sources filled it
BUILT = "rue-verify-built-from.json"


def pack(cache_dir: Path, out: Path = ARCHIVE, manifest_out: Path = MANIFEST) -> dict:
    """Build the shipped files from a numba cache directory `build` filled from empty with the current sources
    and settings (its `BUILT` file says so; any other directory is refused: a cache numba filled earlier may hold
    kernels compiled against older versions of the functions they inline, which numba's key does not tell).
    Data files are renamed to names numba never picks (`<base>.shipped-<digest>-<n>.nbc`), so a seeded file
    never stands where numba writes its own. Returns the manifest."""
    import gzip

    import numba
    from numba.core.registry import cpu_target
    from numba.core.serialize import dumps
    cache_dir = Path(cache_dir)
    now = digest(sources(), _codegen())
    try:
        built = json.loads((cache_dir / BUILT).read_text())
    except (OSError, ValueError):
        raise ValueError(f"{cache_dir}: not a directory `build` filled (no {BUILT}): pack only what it compiled "
                         "from empty") from None
    if built.get("digest") != now:
        raise ValueError(f"{cache_dir}: filled from other sources or settings than these (digest "
                         f"{built.get('digest')}, these {now}): build again")
    by_hash: dict[bytes, list[str]] = {}
    for rel in sources():
        by_hash.setdefault(hashlib.sha256((HERE / rel).read_bytes()).digest(), []).append(rel)
    indexes: dict[str, list[str]] = {}
    data: dict[str, list[str]] = {}
    blobs: dict[str, bytes] = {}
    for idx in sorted(cache_dir.rglob("*.nbi")):
        try:
            version, stamp, overloads = _read_index(idx)
        except Exception:
            continue
        modname = idx.name.split(".")[0]
        rels = [r for r in by_hash.get(stamp, []) if Path(r).stem == modname] if version == numba.__version__ else []
        if len(rels) != 1 or not all((idx.parent / n).exists() for n in overloads.values()):
            continue
        rel = rels[0]
        key = f"{rel}/{idx.name}"
        base = idx.name[:-len(".nbi")]
        renamed = {}
        for i, (k, n) in enumerate(sorted(overloads.items(), key=lambda kv: kv[1]), 1):
            renamed[k] = f"{base}.shipped-{now}-{i}.nbc"
            blobs[f"{rel}/{renamed[k]}"] = (idx.parent / n).read_bytes()
        index = io.BytesIO()
        pickle.dump(version, index, protocol=-1)              # numba's index format: its version, then its data
        index.write(dumps((stamp, renamed)))
        blobs[key] = index.getvalue()
        indexes.setdefault(rel, []).append(idx.name)
        data[key] = sorted(renamed.values())
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name in sorted(blobs):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(blobs[name]), 0, 0o644        # byte-stable: no clock, no owner
            tar.addfile(info, io.BytesIO(blobs[name]))
    manifest = {"numba": numba.__version__, "python": _python_tag(), "codegen": _codegen(), "digest": now,
                "sources": sources(), "cpu": list(cpu_target.target_context.codegen().magic_tuple()[:2]),
                "indexes": {k: sorted(v) for k, v in sorted(indexes.items())}, "data": dict(sorted(data.items()))}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(gzip.compress(buf.getvalue(), 9, mtime=0))            # byte-stable: a rebuild of the same files
    manifest_out.write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def build(commands: list[list[str]], cache_dir: Path) -> dict:
    """Run `commands` (each an argv; the workload whose kernels should ship, e.g. the test suite and the quick
    report) with numba's cache in the empty directory `cache_dir` and the shipped files off, then `pack` it."""
    import subprocess
    cache_dir = Path(cache_dir)
    if cache_dir.exists() and any(cache_dir.iterdir()):
        raise ValueError(f"{cache_dir}: build fills an empty directory (a used cache may hold older code)")
    cache_dir.mkdir(parents=True, exist_ok=True)
    (cache_dir / BUILT).write_text(json.dumps({"digest": digest(sources(), _codegen())}))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir.resolve()), ENV: "0"}
    for cmd in commands:
        done = subprocess.run(cmd, env=env)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: nothing packed")
    if json.loads((cache_dir / BUILT).read_text()).get("digest") != digest(sources(), _codegen()):
        raise RuntimeError("the sources changed during the build: nothing packed")
    return pack(cache_dir)


if __name__ == "__main__":
    # python -m simulate.shipped_kernels EMPTY_DIR -- CMD [ARGS] [-- CMD [ARGS] ...]
    args = sys.argv[1:]
    if len(args) < 3 or args[1] != "--":
        sys.exit("usage: python -m simulate.shipped_kernels EMPTY_DIR -- CMD [ARGS] [-- CMD ...]: runs each command "
                 "with numba's cache in EMPTY_DIR, then ships what they compiled; e.g. from a clone: "
                 "python -m simulate.shipped_kernels /tmp/k -- python -m pytest -q -n 2 -m 'not slow' tests/simulate "
                 "-- python -m rue_verify.cli report --quick --out /tmp/r -q")
    cmds, cur = [], []
    for a in args[2:]:
        if a == "--":
            cmds.append(cur)
            cur = []
        else:
            cur.append(a)
    cmds.append(cur)
    m = build([c for c in cmds if c], Path(args[0]))
    print(f"{sum(map(len, m['indexes'].values()))} kernels' indexes, {sum(map(len, m['data'].values()))} compiled "
          f"signatures, {ARCHIVE.stat().st_size / 1e6:.1f} MB -> {ARCHIVE}")
