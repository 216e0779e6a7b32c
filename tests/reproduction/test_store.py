"""rue_verify.reproduction.open_store: rows are appended as tasks finish, a cut-off last line is dropped on
reopening, `finalize` puts the rows in the grid's order, and a directory of another definition is
refused before any work."""

import pytest

from rue_verify.reproduction import open_store, read_rows
from rue_verify.reproduction.grid import COLUMNS

MANIFEST = {"tool": "test", "version": "0.1.0", "definition": "abcd1234"}


def row(key: str) -> dict:
    r = {c: "1" for c in COLUMNS}
    r["key"] = key
    return r


def test_rows_append_survive_a_cut_line_and_finalize_in_order(tmp_path):
    st = open_store(tmp_path, MANIFEST)
    for k in ("b", "a"):
        st.append(row(k))
    with open(tmp_path / "results.csv", "a") as f:
        f.write("c,1,1")                                  # a write cut off by a kill
    st = open_store(tmp_path, MANIFEST)
    assert set(st.done()) == {"a", "b"}
    assert [r["key"] for r in st.finalize(["a", "b", "c"])] == ["a", "b"]
    assert [r["key"] for r in read_rows(tmp_path)] == ["a", "b"]


def test_a_directory_of_another_definition_is_refused(tmp_path):
    open_store(tmp_path, MANIFEST)
    with pytest.raises(ValueError, match="another definition"):
        open_store(tmp_path, {**MANIFEST, "definition": "ffff0000"})
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(ValueError, match="not a manifest"):
        open_store(tmp_path, MANIFEST)


def test_a_directory_of_other_random_streams_is_refused(tmp_path, monkeypatch):
    """A sweep's definition includes the simulator's streams (`sources.STREAMS`): once they change (a
    seed draws other rewards), a directory of the old rows is refused rather than resumed into."""
    import importlib

    import simulate.algorithms.sources as sources
    grid = importlib.import_module("rue_verify.reproduction.grid")     # the package exports a function of that name

    tasks = grid.grid(grid.QUICK, studies=("random",), algorithms=("rue",))
    before = grid.manifest(tasks, 0, "quick", ("project",))
    open_store(tmp_path, before)
    monkeypatch.setattr(sources, "STREAMS", sources.STREAMS + "; Gaussian rewards by another sampler")
    after = grid.manifest(tasks, 0, "quick", ("project",))
    assert after["definition"] != before["definition"]
    with pytest.raises(ValueError, match="another definition"):
        open_store(tmp_path, after)


HOLD = """
import sys, time
from rue_verify.reproduction import open_store
st = open_store(sys.argv[1], {"tool": "test", "version": "0.1.0", "definition": "abcd1234"})
with st.writer():
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def test_a_second_writer_is_refused_with_the_holder_named_and_the_os_frees_a_dead_holder(tmp_path):
    import subprocess
    import sys
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path), "60"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        st = open_store(tmp_path, MANIFEST)
        with pytest.raises(ValueError, match=rf"being written by another run \(pid {holder.pid} on .*--wait"):
            with st.writer():
                pass
        holder.kill()                                     # a dead holder: the OS releases its lock
        holder.wait(timeout=30)
        with st.writer():
            st.append(row("after"))
        assert "after" in st.done()
    finally:
        holder.kill()
