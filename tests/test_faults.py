"""Faults a run meets, produced for real: an interrupted reproduction or report (SIGINT to a real
process) ends with exit 130, one line, and a consistent store or the previous report; a read-only
or full disk (a tmpfs mounted in a private mount namespace) and a place that cannot hold the file are
one line and exit 2, with nothing half-written, and the sweep resumes once there is room."""

import errno
import os
import signal
import subprocess
import sys
import time

import pytest

from rue_verify.cli import main
from rue_verify.reproduction import read_rows
from rue_verify.reproduction.grid import COLUMNS

CLI = f"{sys.executable} -m rue_verify.cli"
SWEEP = "reproduce --quick --studies fixed --algorithms uniform -q"      # 36 fast rows


def in_a_small_disk(tmp_path, script: str) -> str:
    """Run the shell `script` in a private mount namespace (`unshare -rm`, no privileges needed) where
    $D is a fresh tmpfs the script mounts; returns its stdout. Skips where namespaces are not allowed."""
    d = tmp_path / "disk"
    d.mkdir()
    probe = subprocess.run(["unshare", "-rm", "mount", "-t", "tmpfs", "tmpfs", str(d)], capture_output=True)
    if probe.returncode:
        pytest.skip(f"no private mount namespace here: {probe.stderr.decode().strip()}")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", f"set -u; D={d}; {script}"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_read_only_disk_is_one_line_and_exit_2_and_nothing_is_written(tmp_path):
    out = in_a_small_disk(tmp_path, f"""
mount -t tmpfs -o ro,size=1m tmpfs $D
{CLI} {SWEEP} --out $D/run 2>&1; echo "rc=$?"
{CLI} claims --id EXP-K80 -q --markdown $D/claims.md 2>&1; echo "rc=$?"
echo "left: $(ls -A $D)"
""")
    lines = out.strip().splitlines()
    assert len(lines) == 5, lines
    for line, path in ((lines[0], "run"), (lines[2], "claims.md")):
        assert line.startswith("error: ") and line.count(f"disk/{path}") == 2 and "Read-only file system" in line, line
    assert lines[1] == lines[3] == "rc=2"
    assert lines[4].strip() == "left:"


def test_a_disk_that_fills_mid_sweep_keeps_whole_rows_and_the_rerun_finishes(tmp_path):
    """The tmpfs is filled but for three pages (the manifest, the lock's owner, the first page of
    rows): the sweep stops at the first row that does not fit, with one line and exit 2; every stored
    row is whole; once the filler is gone the same command finishes with the uninterrupted run's rows."""
    whole = tmp_path / "uninterrupted"
    assert main([*SWEEP.split()[:-1], "--out", str(whole), "-q"]) == 0
    out = in_a_small_disk(tmp_path, f"""
mount -t tmpfs -o size=2m tmpfs $D
dd if=/dev/zero of=$D/filler bs=4096 count=$(( $(df --output=avail -B4096 $D | tail -1) - 3 )) 2>/dev/null
{CLI} {SWEEP} --out $D/run 2>&1; echo "rc=$?"
cp $D/run/results.csv {tmp_path}/full.csv
echo "left: $(ls -A $D/run | tr '\n' ' ')"
rm $D/filler
{CLI} {SWEEP} --out $D/run 2>&1; echo "rc=$?"
cp $D/run/results.csv {tmp_path}/after.csv
""")
    lines = out.strip().splitlines()
    assert lines[0].startswith("error: --out ") and "disk/run/results.csv" in lines[0], lines
    assert "No space left on device" in lines[0] and lines[1] == "rc=2", lines
    assert lines[2].split() == ["left:", ".lock", "manifest.json", "results.csv"], lines[2]
    cut = read_rows(tmp_path / "full.csv")
    assert 1 <= len(cut) < 36 and all(None not in r.values() and len(r) == len(COLUMNS) for r in cut)
    assert (tmp_path / "full.csv").read_bytes().endswith(b"\n")
    assert lines[-1] == "rc=0", lines

    def rows(path):
        return [{k: v for k, v in r.items() if k != "wall_seconds"} for r in read_rows(path)]
    assert rows(tmp_path / "after.csv") == rows(whole)


def test_ctrl_c_ends_cleanly_and_keeps_whole_rows(tmp_path):
    out = tmp_path / "run"
    # uniform and RUE (72 rows, about 10 s of simulation): Ctrl-C lands mid-sweep, without the half-minute the
    # costliest tasks of every algorithm take before any row is stored
    p = subprocess.Popen([sys.executable, "-m", "rue_verify.cli", "reproduce", "--quick", "--studies", "fixed",
                          "--algorithms", "uniform,rue", "--out", str(out), "-q"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
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
    assert 3 <= len(rows) < 72 and all(r["wall_seconds"] not in (None, "") for r in rows)   # stopped mid-sweep
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


def test_ctrl_c_during_the_parallel_report_leaves_the_previous_report_whole(tmp_path):
    """The report runs claims and figures on two worker processes and writes into a hidden sibling
    directory; Ctrl-C stops the workers (they print nothing), exits 130 with one line and leaves the
    previous report untouched and no partial directory behind."""
    out = tmp_path / "report"
    out.mkdir()
    (out / "index.html").write_text("the previous complete report")
    p = subprocess.Popen([sys.executable, "-m", "rue_verify.cli", "report", "--quick", "--out", str(out), "-q",
                          "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    partial = []
    while time.time() < deadline and not partial:
        partial = list(tmp_path.glob(".report.partial-*"))
        time.sleep(0.2)
    assert partial, "the report never started writing"
    time.sleep(8)               # the workers are busy with the claims and the figures by now
    assert p.poll() is None, "the report ended before it could be interrupted"
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130, err[-1000:]
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted"), lines
    assert sorted(os.listdir(tmp_path)) == ["report"]
    assert os.listdir(out) == ["index.html"] and (out / "index.html").read_text() == "the previous complete report"


def test_a_dask_scheduler_that_disappears_ends_with_one_line_and_the_rerun_resumes(tmp_path):
    """A real scheduler and worker (`dask scheduler`, `dask worker`); the scheduler is killed after the
    first rows: the sweep ends with one line naming it, the stored rows are whole, and the same
    command run locally finishes with the uninterrupted run's rows."""
    import socket
    pytest.importorskip("distributed")
    sweep = [*SWEEP.split()[:-1], "--algorithms", "uniform,rue"]
    whole = tmp_path / "uninterrupted"
    assert main([*sweep, "--out", str(whole), "-q"]) == 0
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    addr = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    scheduler = subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                 stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr, "--nthreads", "1",
                               "--no-dashboard"], stderr=subprocess.DEVNULL)
    out = tmp_path / "run"
    try:
        p = subprocess.Popen([sys.executable, "-m", "rue_verify.cli", *sweep, "--out", str(out), "-q",
                              "--scheduler", addr], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 300
        while time.time() < deadline and p.poll() is None and not (
                (out / "results.csv").exists() and len((out / "results.csv").read_text().splitlines()) > 1):
            time.sleep(0.05)
        scheduler.kill()
        _, err = p.communicate(timeout=300)
    finally:
        scheduler.kill()
        worker.kill()
    lines = err.strip().splitlines()
    assert p.returncode == 2 and len(lines) == 1, err[-2000:]
    assert lines[0].startswith(f"error: --scheduler {addr}: the scheduler went away after "), lines
    cut = read_rows(out)
    assert 1 <= len(cut) < 72 and all(None not in r.values() for r in cut)
    assert main([*sweep, "--out", str(out), "-q"]) == 0

    def rows(path):
        return [{k: v for k, v in r.items() if k != "wall_seconds"} for r in read_rows(path)]
    assert rows(out) == rows(whole)


def test_the_report_never_replaces_a_directory_holding_other_files(tmp_path, capsys):
    """A report replaces its whole directory when complete, so it refuses one that holds anything
    a report does not write (a user's `--out .` or `--out docs`), before any work."""
    (tmp_path / "notes.txt").write_text("mine")
    code = main(["report", "--quick", "--out", str(tmp_path), "-q"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "notes.txt" in err[0] and "holds files a report does not write" in err[0]
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]
