"""rue_verify.store.files: a file is written whole or not at all; a failure part-way leaves the previous
file and no temporary beside it."""

import os

import pytest

from rue_verify.store.files import write_bytes, write_text


def test_a_write_creates_parents_and_replaces_whole(tmp_path):
    p = write_text(tmp_path / "a" / "b.md", "one")
    assert p.read_text() == "one"
    write_text(p, "two")
    assert p.read_text() == "two" and sorted(x.name for x in p.parent.iterdir()) == ["b.md"]


def test_an_interrupted_write_leaves_the_previous_file(tmp_path, monkeypatch):
    p = write_text(tmp_path / "page.html", "complete")

    def cut(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", cut)
    with pytest.raises(OSError, match="No space"):
        write_bytes(p, b"half")
    assert p.read_text() == "complete" and [x.name for x in tmp_path.iterdir()] == ["page.html"]


def test_a_written_file_has_the_permissions_a_plain_write_gives(tmp_path):
    """Not the temporary file's private 0600: a report served to others must be readable."""
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    ours = write_text(tmp_path / "ours.txt", "x")
    assert ours.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777
