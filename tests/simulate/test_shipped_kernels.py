"""The compiled kernels shipped with the package (`simulate.shipped_kernels`): put where numba looks only while
every source file is the one they were built from, never over an index numba keeps, and loaded, not compiled,
on a host of the building CPU."""

import json
import os
import subprocess
import sys

import numba
import pytest

from simulate import shipped_kernels as SK

MANIFEST = json.loads(SK.MANIFEST.read_text())


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A seeding as at a process's start, into a new NUMBA_CACHE_DIR."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setattr(SK, "_DONE", [])
    monkeypatch.delenv(SK.ENV, raising=False)
    return tmp_path / "numba"


def _manifest_with(tmp_path, monkeypatch, **changes) -> None:
    m = {**MANIFEST, **changes}
    path = tmp_path / "kernels.json"
    path.write_text(json.dumps(m))
    monkeypatch.setattr(SK, "MANIFEST", path)


def test_the_shipped_kernels_are_built_from_these_sources():
    """Otherwise every first run compiles them again (the CI's time): rebuild them from a fresh clone's run
    (`python -m simulate.shipped_kernels DIR`, the module docstring says how)."""
    assert SK.usable(MANIFEST) == "", SK.usable(MANIFEST)


def test_they_are_put_where_numba_looks_once(fresh):
    n = SK.seed()
    assert n == sum(map(len, MANIFEST["indexes"].values())) > 0
    uniform = SK.cache_dir_for(SK.HERE / "algorithms" / "uniform.py")
    assert uniform.is_relative_to(fresh) and any(p.name.startswith("uniform._run-") for p in uniform.glob("*.nbi"))
    SK._DONE.clear()
    assert SK.seed() == 0                          # all there: nothing written again


@pytest.mark.parametrize("plant", ["a source file changed", "another numba", "another python", "another numpy",
                                   "another llvmlite"])
def test_a_manifest_of_other_sources_or_versions_seeds_nothing(fresh, tmp_path, monkeypatch, plant):
    if plant == "a source file changed":
        _manifest_with(tmp_path, monkeypatch, sources={**MANIFEST["sources"], "algorithms/sources.py": "0" * 64})
    elif plant == "another numba":
        _manifest_with(tmp_path, monkeypatch, numba="0.0.1")
    elif plant == "another python":
        _manifest_with(tmp_path, monkeypatch, python="py27")
    else:
        _manifest_with(tmp_path, monkeypatch, codegen={**MANIFEST["codegen"], plant.split()[1]: "0.0.1"})
    assert SK.usable(json.loads(SK.MANIFEST.read_text()))
    assert SK.seed() == 0 and not any(fresh.rglob("*.nbi"))


@pytest.mark.parametrize("setting,value", [("BOUNDSCHECK", True), ("OPT", 0), ("LOOP_VECTORIZE", 0),
                                           ("SLP_VECTORIZE", 1), ("EXTEND_VARIABLE_LIFETIMES", 1),
                                           ("LLVM_REFPRUNE_PASS", 0), ("CPU_NAME", "generic")])
def test_a_code_generation_setting_numbas_key_does_not_tell_seeds_nothing(fresh, monkeypatch, setting, value):
    """NUMBA_BOUNDSCHECK=1 and the like change the compiled code but not numba's cache key (a reviewer's cases)."""
    monkeypatch.setattr(numba.config, setting, value)
    assert SK.usable(MANIFEST)
    assert SK.seed() == 0 and not any(fresh.rglob("*.nbi"))


@pytest.mark.parametrize("change", ["a source file", "bounds checks", "turned off"])
def test_indexes_seeded_before_a_change_are_removed_so_numba_compiles(fresh, monkeypatch, change):
    """Seeded once, the files stayed and numba's key (the kernel's own file) still took them after a change to a
    function they inline, or under bounds checks: a reviewer's case, which loaded the old code."""
    assert SK.seed() > 0
    shipped = {name for names in MANIFEST["indexes"].values() for name in names}
    assert shipped <= {p.name for p in fresh.rglob("*.nbi")}
    if change == "a source file":
        now = SK.sources()
        monkeypatch.setattr(SK, "sources", lambda: {**now, "algorithms/sources.py": "0" * 64})
    elif change == "bounds checks":
        monkeypatch.setattr(numba.config, "BOUNDSCHECK", True)
    else:                                          # RUE_VERIFY_SHIPPED_KERNELS=0: numba compiles for itself
        monkeypatch.setenv(SK.ENV, "0")
    SK._DONE.clear()
    assert SK.seed() == 0
    assert not shipped & {p.name for p in fresh.rglob("*.nbi")}
    monkeypatch.undo()                             # back as built: seeded again
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(fresh))
    monkeypatch.setattr(SK, "_DONE", [])
    monkeypatch.delenv(SK.ENV, raising=False)
    assert SK.seed() == len(shipped)


def test_a_data_file_numba_wrote_is_never_replaced(fresh):
    """The shipped data files have names numba never picks: a file numba wrote under its own name stays (a
    reviewer's race: a seeder replaced it after numba had indexed it for another signature)."""
    rel, names = next(iter(MANIFEST["indexes"].items()))
    where = SK.cache_dir_for(SK.HERE / rel)
    where.mkdir(parents=True, exist_ok=True)
    own = where / names[0].replace(".nbi", ".1.nbc")
    own.write_bytes(b"numba's own")
    assert SK.seed() > 0
    assert own.read_bytes() == b"numba's own"
    assert all(".shipped-" in n for ns in MANIFEST["data"].values() for n in ns)


def test_turned_off_it_seeds_nothing(fresh, monkeypatch):
    monkeypatch.setenv(SK.ENV, "0")
    assert SK.seed() == 0 and not any(fresh.rglob("*.nb?"))


def test_an_index_numba_keeps_is_never_overwritten(fresh):
    rel, names = next(iter(MANIFEST["indexes"].items()))
    where = SK.cache_dir_for(SK.HERE / rel)
    where.mkdir(parents=True, exist_ok=True)
    (where / names[0]).write_bytes(b"numba's own")
    assert SK.seed() == sum(map(len, MANIFEST["indexes"].values())) - 1
    assert (where / names[0]).read_bytes() == b"numba's own"


def test_a_pack_takes_only_a_directory_build_filled_from_these_sources(fresh, tmp_path):
    """A used cache may hold kernels compiled against older versions of what they inline (a reviewer packed one,
    and its manifest read usable): pack refuses a directory without build's mark, or with another digest's; and
    from a built one it leaves out an index whose source hash is not the current file's."""
    import pickle
    SK.seed()
    with pytest.raises(ValueError, match="not a directory `build` filled"):
        SK.pack(fresh, out=tmp_path / "k.tar.gz", manifest_out=tmp_path / "k.json")
    (fresh / SK.BUILT).write_text(json.dumps({"digest": "0" * 16}))
    with pytest.raises(ValueError, match="other sources or settings"):
        SK.pack(fresh, out=tmp_path / "k.tar.gz", manifest_out=tmp_path / "k.json")
    (fresh / SK.BUILT).write_text(json.dumps({"digest": SK.digest(SK.sources(), SK._codegen())}))
    stale = next(fresh.rglob("uniform._run-*.nbi"))
    version, stamp, overloads = SK._read_index(stale)
    assert stamp == bytes.fromhex(MANIFEST["sources"]["algorithms/uniform.py"])
    with open(stale, "wb") as f:                   # the same index as an older uniform.py would have left it
        pickle.dump(version, f)
        f.write(pickle.dumps((b"\0" * 32, overloads)))
    m = SK.pack(fresh, out=tmp_path / "k.tar.gz", manifest_out=tmp_path / "k.json")
    assert stale.name not in m["indexes"].get("algorithms/uniform.py", [])
    assert sum(map(len, m["indexes"].values())) == sum(map(len, MANIFEST["indexes"].values())) - 1


SCRIPT = """
import json, numpy as np
from simulate.algorithms import uniform
uniform.batch(np.full((2, 3), 0.5), 30, [0, 1], [0, 1])
print(json.dumps([sum(uniform._batch._cache_misses.values()), sum(uniform._batch._cache_hits.values())]))
"""


def test_on_the_building_cpu_a_first_run_loads_the_kernels_instead_of_compiling(tmp_path):
    from numba.core.registry import cpu_target
    if list(cpu_target.target_context.codegen().magic_tuple()[:2]) != MANIFEST["cpu"]:
        pytest.skip(f"built on {MANIFEST['cpu']}, this host is another CPU: numba compiles as without them")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    env.pop(SK.ENV, None)
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0, 1], out.stderr[-2000:]
    env[SK.ENV] = "0"                              # the same run without them compiles: the check can fail
    out = subprocess.run([sys.executable, "-c", SCRIPT], env={**env, "NUMBA_CACHE_DIR": str(tmp_path / "off")},
                         capture_output=True, text=True, timeout=600)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [1, 0], out.stderr[-2000:]
