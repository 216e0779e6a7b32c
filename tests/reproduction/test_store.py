"""rue_verify.reproduction.store: rows are appended as tasks finish, a cut-off last line is dropped on
reopening, `finalize` puts the rows in the grid's order, and a directory of another definition is
refused before any work."""

import pytest

from rue_verify.reproduction.grid import COLUMNS
from rue_verify.reproduction.store import ResultStore, read_rows

MANIFEST = {"tool": "test", "version": "0.1.0", "definition": "abcd1234"}


def row(key: str) -> dict:
    r = {c: "1" for c in COLUMNS}
    r["key"] = key
    return r


def test_rows_append_survive_a_cut_line_and_finalize_in_order(tmp_path):
    st = ResultStore(tmp_path, MANIFEST)
    for k in ("b", "a"):
        st.append(row(k))
    with open(tmp_path / "results.csv", "a") as f:
        f.write("c,1,1")                                  # a write cut off by a kill
    st = ResultStore(tmp_path, MANIFEST)
    assert set(st.done()) == {"a", "b"}
    assert [r["key"] for r in st.finalize(["a", "b", "c"])] == ["a", "b"]
    assert [r["key"] for r in read_rows(tmp_path)] == ["a", "b"]


def test_a_directory_of_another_definition_is_refused(tmp_path):
    ResultStore(tmp_path, MANIFEST)
    with pytest.raises(ValueError, match="another definition"):
        ResultStore(tmp_path, {**MANIFEST, "definition": "ffff0000"})
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(ValueError, match="not a manifest"):
        ResultStore(tmp_path, MANIFEST)
