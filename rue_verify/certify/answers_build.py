"""`python -m rue_verify.certify.answers_build [--afresh] [OUT]`: cvc5's answers shipped with the package
(`rue_verify/data/cvc5-answers.json.gz`, `certify.answers`), built (the answers it holds already kept, unless
`--afresh`).

The problems: every certified decision with an SMT-LIB problem in the shipped decision pack
(`rue_verify/data/decisions.json.gz`, its statement rebuilt from the pack), and every z3 problem of the quick
ledger's proofs (the paper's claims, run as the test suite's `quick_ledger` runs them, read by z3 alone:
`verify.second.z3_alone`; their problems as `second.results_problems` finds them), hollow ones left out
(`smt.hollow`), each once. A problem whose answer the shipped file already holds under the same key (the same
problem, statement, cvc5 version and configurations: `answers.key`) keeps that answer; `--afresh` decides every
problem again. Each other problem is decided by cvc5 afresh (`answers.decide`: no kept answer read), the
ledger's first, this process and its children at the lowest priority (nice 19), one line of progress each on
stderr; an answer the clock's backstop cut short (a starved process: the limits are of CPU) is decided once more
at the end. The file is written whole (a temporary file renamed into place), with the counts: problems, decided,
not decided, the quick ledger's among them, seconds.
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from . import answers, smt

#: where the build writes by default: the package's data
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "data" / answers.SHIPPED_FILE


def pack_problems() -> dict[str, dict]:
    """{answers key: {"smt2", "statement", "what"}} of the shipped decision pack's certified z3 problems (its file
    read whatever the engine's hash: these are problems, decided here by cvc5)."""
    from importlib import resources

    from ..verify import statements
    raw = resources.files("rue_verify").joinpath("data", statements.SHIPPED_FILE).read_bytes()
    out = {}
    for k, entry in sorted(json.loads(gzip.decompress(raw))["decisions"].items()):
        d = entry.get("decision") or {}
        if d.get("status") != "certified" or not isinstance(d.get("smt2"), str) or smt.hollow(d["smt2"]):
            continue
        st = statements.kept_statement(entry)
        if st is None:
            continue
        statement = st.text()
        out.setdefault(answers.key(d["smt2"], statement),
                       {"smt2": d["smt2"], "statement": statement, "what": f"shipped decision {k[:30]}"})
    return out


def ledger_problems(results) -> dict[str, dict]:
    """{answers key: {"smt2", "statement", "what"}} of every z3 problem of a run's results (`second.results_problems`:
    the rows' own and their conditions', and the kept decisions of the rows that carry none)."""
    from ..verify.second import results_problems
    out = {}
    for where, _, _, statement, text in results_problems(results):
        out.setdefault(answers.key(text, statement), {"smt2": text, "statement": statement, "what": where})
    return out


def quick_ledger():
    """The quick ledger's results (the paper's claims, quick mode, as the test suite's `quick_ledger`), read by z3
    alone."""
    from ..ledger import REGISTRY, Mode, run_ledger
    from ..verify.parallel import cores
    from ..verify.second import z3_alone
    with z3_alone():
        paper = [cid for cid, c in REGISTRY.items() if c.origin == "paper"]
        return run_ledger(Mode(), paper, workers=cores())


def _cut_short(detail: str) -> bool:
    return "of the clock" in detail


def build(out: Path = DEFAULT_OUT, say=lambda line: print(line, file=sys.stderr, flush=True), results=None,
          afresh: bool = False) -> dict:
    """Decide every problem (module docstring) and write `out`; the summary written in it. `results`: the quick
    ledger's, read by z3 alone, where the caller ran it already (`quick_ledger`); `afresh`: decide the problems the
    shipped answers hold too."""
    try:
        os.nice(19 - os.nice(0))
    except OSError:
        pass
    start = time.perf_counter()
    say("collecting the problems: the shipped decisions, then the quick ledger's proofs (z3 alone) ...")
    problems = pack_problems()
    in_ledger = ledger_problems(quick_ledger() if results is None else results)
    for k, p in in_ledger.items():
        problems[k] = {**problems.get(k, {}), **p}
    say(f"{len(problems)} problems ({len(in_ledger)} in the quick ledger's proofs); cvc5 {answers.cvc5_version()} "
        f"decides each")
    got: dict[str, dict] = {}
    held = {} if afresh else answers.shipped()
    for k, p in problems.items():
        a = held.get(k)
        if isinstance(a, dict) and isinstance(a.get("ok"), bool) and isinstance(a.get("detail"), str) \
                and not _cut_short(a["detail"]):
            got[k] = {**a, "what": p["what"], "ledger": k in in_ledger}
    if got:
        say(f"{len(got)} answered already in the shipped answers (the same key); deciding the other "
            f"{len(problems) - len(got)}")
    order = sorted(((k, p) for k, p in problems.items() if k not in got),
                   key=lambda kv: (kv[0] not in in_ledger, kv[1]["what"]))               # the ledger's first
    for i, (k, p) in enumerate(order, 1):
        ok, detail, seconds = answers.decide(p["smt2"], p["statement"])
        got[k] = {"ok": ok, "detail": detail, "seconds": round(seconds, 2), "what": p["what"], "ledger": k in in_ledger}
        say(f"[{i}/{len(order)}] {'unsat' if ok else 'NOT re-decided'} in {seconds:.1f} s: {p['what']}")
    again = [k for k, a in got.items() if not a["ok"] and _cut_short(a["detail"])]
    for k in again:
        ok, detail, seconds = answers.decide(problems[k]["smt2"], problems[k]["statement"])
        got[k].update(ok=ok, detail=detail, seconds=round(seconds, 2))
        say(f"[again] {'unsat' if ok else 'NOT re-decided'} in {seconds:.1f} s: {problems[k]['what']}")
    summary = {"problems": len(got), "decided": sum(a["ok"] for a in got.values()),
               "not_decided": sum(not a["ok"] for a in got.values()),
               "ledger_problems": len(in_ledger), "ledger_not_decided": sum(not got[k]["ok"] for k in in_ledger),
               "ledger_not_decided_at": sorted(got[k]["what"] for k in in_ledger if not got[k]["ok"]),
               "cvc5_seconds": round(sum(a["seconds"] for a in got.values()), 1),
               "seconds": round(time.perf_counter() - start, 1)}
    data = {"cvc5": answers.cvc5_version(), "configs": smt.CONFIGS, "consistency_seconds": smt.CONSISTENCY_SECONDS,
            "summary": summary, "answers": dict(sorted(got.items()))}
    out = Path(out)
    fd, tmp = tempfile.mkstemp(dir=out.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(gzip.compress(json.dumps(data, sort_keys=True, indent=0).encode("utf-8"), 9, mtime=0))
        os.chmod(tmp, 0o644)                      # package data: readable by all (a temporary file is the owner's)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    say(f"wrote {out}: {json.dumps(summary)}")
    return summary


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--afresh"]
    build(Path(args[0]) if args else DEFAULT_OUT, afresh="--afresh" in sys.argv[1:])
