"""Faults a run meets, produced for real: an interrupted reproduction (SIGINT to a real process) ends
with exit 130, one line, and a consistent store; a write into a place that cannot hold the file is one
line and exit 2, with nothing half-written."""

import errno
import os
import signal
import subprocess
import sys
import time

from rue_verify.cli import main
from rue_verify.reproduction.store import read_rows


def test_ctrl_c_ends_cleanly_and_keeps_whole_rows(tmp_path):
    out = tmp_path / "run"
    p = subprocess.Popen([sys.executable, "-m", "rue_verify.cli", "reproduce", "--quick", "--studies", "fixed",
                          "--out", str(out), "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while time.time() < deadline and not ((out / "results.csv").exists() and
                                          len((out / "results.csv").read_text().splitlines()) > 3):
        time.sleep(0.2)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130, err[-1000:]
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted"), lines
    rows = read_rows(out)
    assert len(rows) >= 3 and all(r["wall_seconds"] not in (None, "") for r in rows)
    assert not [f for f in os.listdir(out) if f.endswith((".tmp", ".part"))]


def test_an_unwritable_place_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    code = main(["claims", "--id", "EXP-K80", "-q", "--markdown", str(blocker / "claims.md")])   # not a directory
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and str(blocker / "claims.md") in err[0] and err[0].startswith("error: ")

    def full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "replace", full)                                # a disk that fills at the rename
    target = tmp_path / "claims.md"
    code = main(["claims", "--id", "EXP-K80", "-q", "--markdown", str(target)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "No space left" in err[0]
    assert sorted(os.listdir(tmp_path)) == ["a-file"]                       # nothing half-written
