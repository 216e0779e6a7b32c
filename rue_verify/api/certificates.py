"""`rue-verify certificates`: the proofs' certificates written from a ledger run, or a directory of them verified by
the small checker (`rue_verify.certify`) in a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys

from ..errors import ParameterError
from .ledger import _errored, _mode, _paper, _run, _select
from .output import Output, cannot_write
from .params import command


@command('certificates')
def certificates(check: str | None = None, write: str | None = None, paper: str = "zhu-qiu",
                 claim_seconds: float | None = None, workers: int | None = None, progress: bool = False) -> Output:
    """`rue-verify certificates --write DIR` (the quick ledger run, each certified z3 link's certificate written) or
    `--check DIR` (every certificate under DIR verified by `python -m rue_verify.certify`, which imports no search)."""
    if (check is None) == (write is None):
        raise ParameterError("check", "give one of --check DIR (verify) and --write DIR (write the paper's)")
    if check is not None:
        return _check(check)
    from ..certify.collect import write_certificates
    the_paper = _paper(paper, ())
    checked = _run(_mode(paper, the_paper, claim_seconds=claim_seconds), _select(None), workers, progress)
    notes, status = _errored(checked)
    try:
        paths = write_certificates([checked, checked.graph], write)
    except OSError as err:
        raise cannot_write("write", write, err) from None
    text = [f"wrote {len(paths)} certificates (SMT-LIB 2 problems of the certified z3 links) into {write}; check "
            f"them with: rue-verify certificates --check {write}"]
    return Output({"written": len(paths), "directory": str(write)}, text, notes, status)


def _check(directory: str) -> Output:
    """The checker in a process of its own (so nothing of the search this process may have loaded is used)."""
    from pathlib import Path
    if not Path(directory).is_dir():
        raise ParameterError("check", f"{directory} is not a directory")
    got = subprocess.run([sys.executable, "-m", "rue_verify.certify", str(directory), "--json"], capture_output=True,
                         text=True)
    try:
        data = json.loads(got.stdout)
    except json.JSONDecodeError:
        raise ParameterError("check", f"the checker did not answer: {got.stderr.strip()[-500:]}") from None
    text = [f"{kind}: {n['checked']} checked, {n['failed']} failed" for kind, n in sorted(data["kinds"].items())]
    text += [f"FAILED {f['file']} ({f['kind']}): {f['why']}" for f in data["failed"]]
    text.append(f"checked in a process that imports no search; the checker is "
                f"{sum(data['checker_lines'].values())} lines ({', '.join(data['checker_lines'])})")
    if not data["files"]:
        text.append(f"no certificate files under {directory}")
    return Output(data, text, [], 0 if data["files"] and not data["failed"] else 1)
