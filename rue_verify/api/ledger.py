"""The commands that run a paper's claims (claims, proofs, erratum), decide a step of your own (decide),
judge your bound (check-bound) and start your paper (new-paper)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any, Callable

from .. import __version__
from ..errors import ParameterError
from ..outputs import text as lines
from .output import Output, cannot_write, ids_of
from .params import command

#: the time limit of `decide --induct` as a whole (each solver case has its own, `verify.induction`)
INDUCT_SECONDS = 900.0
#: the time limit of one evaluation of a node at a point (`proofs --node --at`; claim_seconds raises it)
AT_SECONDS = 60.0


def _paper(paper: str, claim_files) -> Any:
    """The paper `paper` names, loaded alone (only its claims are registered and active), and your claim
    files added to it."""
    from ..verify.papers import load_paper
    from ..verify.runner import load_claims
    the_paper = load_paper(paper)
    for spec in claim_files or ():
        load_claims(spec)
    return the_paper


def _mode(paper: str, the_paper, thorough: bool = False, results=None, rates=None, claim_files=(), seed=None,
          claim_seconds=None):
    """The mode of a run of the paper's claims: its inputs (results and rates, for a paper that reads them),
    your claim files, the seed and the time limit of one claim (0: none)."""
    from ..verify import LedgerInputs, Mode
    given = {"results": results, "rates": rates}
    if the_paper.check_inputs is None:
        extra = [k for k, v in given.items() if v]
        if extra:
            raise ParameterError(extra[0], f"paper {the_paper.name} reads no {extra[0]} (only its claims run)")
    kw = {"inputs": LedgerInputs(**given, claims=tuple(claim_files or ()), paper=paper),
          **({"seed": seed} if seed is not None else {}),
          **({"seconds": claim_seconds or None} if claim_seconds is not None else {})}
    return Mode.thorough(**kw) if thorough else Mode(**kw)


def _select(ids) -> list[str]:
    from ..verify.runner import select
    try:
        return select(ids_of(ids))
    except ValueError as err:
        raise ParameterError("ids", str(err)) from None


def _run(mode, ids: list[str], workers: int | None, progress: bool):
    """The claims `ids` run on `workers` processes (None: every core), with a progress bar, and the graph."""
    from ..studies.progress import bar, counter
    from ..verify.parallel import cores
    from ..verify.runner import run_ledger
    shown = bar(len(ids), "claims", "claim", progress)
    try:
        return run_ledger(mode, ids, progress=counter(shown), workers=workers or cores())
    finally:
        shown.close()


def _errored(results) -> tuple[list[str], int]:
    """The note and exit status of a run: 1 when some claim reads `error` (its check failed), else 0.
    Refuted claims are results, not failures of the run."""
    bad = [r.id for r in results if r.verdict == "error"]
    if not bad:
        return [], 0
    return [f"error: {len(bad)} claim(s) could not be judged (their check failed): {', '.join(bad)}"], 1


@command('claims')
def claims(paper: str = "zhu-qiu", ids=None, thorough: bool = False, seed: int | None = None, results=None,
           rates=None, claim_files=(), claim_seconds: float | None = None, workers: int | None = None,
           markdown: str | None = None, verbose: bool = False, progress: bool = False, recheck: bool = False
           ) -> Output:
    """`rue-verify claims`: the paper's claims (all, or `ids`) judged; data is the JSON list CLAIMS.md
    specifies. markdown: also write the ledger as Markdown there."""
    from ..outputs import render
    the_paper = _paper(paper, claim_files)
    mode = _mode(paper, the_paper, thorough, results, rates, claim_files, seed, claim_seconds)
    wanted = _select(ids)
    t0 = time.perf_counter()
    if the_paper.check_inputs is not None:     # a bad results or rates is refused before any claim runs
        the_paper.check_inputs(mode.inputs)
    checked = _run(mode, wanted, workers, progress)
    total = time.perf_counter() - t0
    notes, status = _errored(checked)
    if markdown:
        document = render.markdown(checked, f"Claims ledger: {the_paper.title}", lines.ledger_intro(mode, total))
        from ..store.files import write_text
        try:
            write_text(markdown, document)
        except OSError as err:
            raise cannot_write("markdown", markdown, err) from None
        notes.insert(0, f"wrote {markdown}")
    text = ([f"rue-verify {__version__} claims ledger of {the_paper.title} ({total:.1f} s). Covered: "
             f"{mode.coverage()}"] + render.text(checked, verbose)
            + [f"verdicts: {render.counts(checked)}; total {total:.1f} s"])
    return Output([r.to_json() for r in checked], text, notes, status)


@command('proofs')
def proofs(paper: str = "zhu-qiu", node: str | None = None, at: dict | str | None = None, mutants: bool = False,
           claim_files=(), claim_seconds: float | None = None, workers: int | None = None,
           progress: bool = False, trust: str | None = None, recheck: bool = False) -> Output:
    """`rue-verify proofs`: every node's status (the paper's quick ledger run), or with `mutants` every
    certified step's mutants decided, or with `node` and `at` (a dict, or its JSON) one node's relation at
    that point, or with `trust` (a node) what that node's proof rests on, link by link (`verify.trust`)."""
    from ..verify import graph
    the_paper = _paper(paper, claim_files)
    if at is not None:
        return _at(the_paper, node, at, claim_seconds)
    checked = _run(_mode(paper, the_paper, claim_files=claim_files, claim_seconds=claim_seconds), _select(None),
                   workers, progress)
    notes, status = _errored(checked)
    g = checked.graph
    if node:
        try:
            n = g.node(node)
        except KeyError as err:
            raise ParameterError("node", str(err).strip(chr(34))) from None
        data = graph.derivation_json(n)
        return Output(data, lines.derivation(data), notes, status)
    if trust:
        from ..certify import answers
        from ..verify.trust import trust as rests_on

        def cvc5(statement: str, text: str):          # the second solver on each z3 problem of the node's links:
            return answers.answer(text, statement)    # the answers the graph read (`verify.second`)
        try:
            data = rests_on(g, trust, recheck=cvc5)
        except KeyError as err:
            raise ParameterError("trust", str(err).strip(chr(34))) from None
        return Output(data, lines.trust(data), notes, status)
    if mutants:
        from ..verify.proofs import mutants_summary, proof_mutants
        rows = proof_mutants(checked)
        summary = mutants_summary(rows)
        text = lines.mutants(rows, summary)
        data = {"summary": summary, "steps": rows}
        if the_paper.formulas:             # the code: each formula a proved statement is built from, mutated
            from ..verify import code_mutants
            code = code_mutants.code_mutants(checked, g, the_paper.formulas,
                                             _mode(paper, the_paper, claim_files=claim_files,
                                                   claim_seconds=claim_seconds), _resolver(the_paper), workers)
            data.update(code=code, code_summary=code_mutants.summary(code))
            text += lines.code_mutants(code, data["code_summary"])
        return Output(data, text, notes, status)
    return Output(graph.nodes_json(g), graph.trees(g, the_paper.theorems or graph.roots(g)), notes, status)


def _resolver(the_paper):
    """The paper's graph of a list of results (the engine's `paper_graph` on its plug-in)."""
    from ..verify.graph import paper_graph
    return lambda results: paper_graph(the_paper, results)


def _at(the_paper, node: str | None, at, claim_seconds: float | None) -> Output:
    from ..verify import graph
    from ..verify.faults import OutOfMemory, TimeLimit, memory_limit, time_limit
    from ..verify.findings import dumps
    if not (node and at):
        raise ParameterError("at" if node else "node", "--node and --at go together: rue-verify proofs --node ID "
                                                       "--at '{\"K\": 20, ...}'")
    if isinstance(at, str):
        try:
            at = json.loads(at)
        except json.JSONDecodeError as err:
            raise ParameterError("at", f"not a JSON object ({err})") from None
    limit = AT_SECONDS if claim_seconds is None else claim_seconds     # 0: none
    try:
        with memory_limit(f"--node {node} at this point"), \
                time_limit(limit, f"--node {node} at this point", "raise it with --claim-seconds"):
            data = graph.evaluate(the_paper, node, at)
    except (KeyError, ValueError, TypeError, OutOfMemory, TimeLimit) as err:
        raise ParameterError("node", f"{node} at this point: {str(err).strip(chr(34))}") from None
    if isinstance(data, dict) and "seed_key" in at.get("params", {}):      # a Monte Carlo witness, simulated again
        data = {**data, "replayed": _replayed_as(at)}
    return Output(data, [dumps(data, indent=2)])


def _replayed_as(w: dict) -> dict:
    """What a seed-keyed witness's replay reruns and compares (montecarlo.replay): the stream, the runs, the events
    the rerun must count again, and the level of the exact interval whose lower end is the left side."""
    p = w["params"]
    return {"seed_key": p["seed_key"], "runs": p.get("runs"), "events": w.get("events"), "level": w.get("level"),
            "lhs_is": w.get("what", "the exact lower confidence limit of the simulated rate, at that level")}


@command('erratum')
def erratum(paper: str = "zhu-qiu", out: str = "erratum", ids=None, pdf: bool = False, seed: int | None = None,
            claim_files=(), claim_seconds: float | None = None, workers: int | None = None,
            progress: bool = False, recheck: bool = False) -> Output:
    """`rue-verify erratum`: the whole quick ledger run, and `out`/erratum.tex written with every claim (of
    `ids`, if given) refuted, undefined or inconsistent; with `pdf`, compiled where LaTeX is on PATH."""
    from ..outputs import erratum as typeset
    the_paper = _paper(paper, claim_files)
    mode = _mode(paper, the_paper, claim_files=claim_files, seed=seed, claim_seconds=claim_seconds)
    wanted = _select(ids)
    checked = _run(mode, _select(None), workers, progress)
    notes, status = _errored(checked)
    try:
        tex, listed = typeset.write(the_paper, mode, checked, out, set(wanted) if ids_of(ids) else None)
    except OSError as err:
        raise cannot_write("out", out, err) from None
    text = [f"wrote {tex}: {listed} claims refuted, undefined or inconsistent, with their witnesses and repairs"]
    made = None
    if pdf:
        made, why = typeset.compile_pdf(str(tex))
        text.append(f"wrote {made}" if made else why)
        if not (made or "PATH" in why):
            status = 1
    return Output({"tex": str(tex), "listed": listed, "pdf": made and str(made)}, text, notes, status)


@command('decide')
def decide(step: str, K: int = 2, n: int = 10, sigma0_sq: float = 1.0, sigma_sq: float = 1.0, route: str = "paper",
           symmetric: bool = False, at_budget: bool = False, max_seconds: float = 120.0, induct: bool = False,
           paper: str = "zhu-qiu") -> Output:
    """`rue-verify decide`: your step (FILE.py:NAME or module:NAME) decided on every history of RUE up to
    n, or with `induct` (an Induct object) for every n."""
    from ..decide import decide as search
    from ..decide import describe
    from ..decide import induct as by_induction
    from ..store.userfiles import load_module
    from ..verify.faults import TimeLimit, time_limit
    from ..verify.induction import SolverMissing
    if paper != "zhu-qiu":
        raise ParameterError("paper", f"{paper}: decide searches RUE's histories (the algorithm of zhu-qiu); no "
                                      "other paper supplies an algorithm's linear form and abstract states yet")
    where, _, name = step.rpartition(":")
    if not where or not name:
        raise ParameterError("step", f"expected FILE.py:NAME or module:NAME, got {step!r}")
    obj = getattr(load_module(where, "step"), name, None)
    if obj is None or not (induct or callable(obj)):
        raise ParameterError("step", f"{where} has no function {name}")
    try:
        if induct:
            with time_limit(INDUCT_SECONDS, "the induction", "its solver's cases have limits of their own; a step "
                            "whose holds takes this long to build is looping"):
                res = by_induction(obj, route)
        else:
            res = search(obj, K, n, sigma0_sq, sigma_sq, route, symmetric=True if symmetric else None,
                         every_budget=not at_budget, max_seconds=max_seconds)
    except (SolverMissing, TimeLimit) as err:
        raise ValueError(str(err)) from None
    return Output({"step": step, **res}, describe(res, step))


@command('check-bound')
def check_bound(bound: str, quantity: str = "failure", algorithm: str = "rue", space: dict | str | None = None,
                rates=None, verbose: bool = False, progress: Callable[[str], None] | None = None) -> Output:
    """`rue-verify check-bound`: your bound judged as the ledger judges the paper's (`user_bounds.check_bound`);
    space: the search space (a dict, or its JSON)."""
    from ..outputs import render
    from ..user_bounds import check_bound as judge
    if isinstance(space, str):
        try:
            space = json.loads(space)
        except json.JSONDecodeError as err:
            raise ParameterError("space", f"not JSON ({err})") from None
    result = judge(bound, quantity, algorithm, space=space, rates_dir=rates, progress=progress)
    return Output(result.to_json(), render.text([result], verbose))


@command('new-paper')
def new_paper(name: str, dir: str = ".", force: bool = False) -> Output:
    """`rue-verify new-paper`: NAME.py written in `dir`, a paper file that runs as it stands."""
    from ..scaffold import new_paper as write
    from ..scaffold import next_steps
    path = write(name, dir, force=force)
    return Output({"path": str(path), "next": next_steps(path)},
                  [f"wrote {path}; next:"] + [f"  {line}" for line in next_steps(path)])


# ---------------------------------------------------------------- certificates (issue 79)
@command('certificates')
def certificates(check: str | None = None, write: str | None = None, paper: str = "zhu-qiu",
                 claim_seconds: float | None = None, workers: int | None = None, progress: bool = False) -> Output:
    """`rue-verify certificates --write DIR` (the quick ledger run, each certified z3 link's certificate written) or
    `--check DIR` (every certificate under DIR verified by `python -m rue_verify.certify`, which imports no search)."""
    if (check is None) == (write is None):
        raise ParameterError("check", "give one of --check DIR (verify) and --write DIR (write the paper's)")
    if check is not None:
        return _check_certificates(check)
    from ..certify.collect import write_certificates
    the_paper = _paper(paper, ())
    checked = _run(_mode(paper, the_paper, claim_seconds=claim_seconds), _select(None), workers, progress)
    notes, status = _errored(checked)
    uncovered: list = []
    mode = _mode(paper, the_paper, claim_seconds=claim_seconds)
    extra = the_paper.certificates(mode, uncovered) if the_paper.certificates else ()
    from ..studies.progress import bar
    shown = bar(None, "certificates", "certificate", progress)     # a count and the last one written

    def wrote(what: str) -> None:
        shown.set_postfix_str(what[:60], refresh=False)
        shown.update(1)
    try:
        paths = write_certificates([checked, checked.graph], write, uncovered=uncovered, extra=extra, progress=wrote)
    except OSError as err:
        raise cannot_write("write", write, err) from None
    finally:
        shown.close()
    kinds: dict = {}
    for p in paths:
        kind = json.loads(p.read_text(encoding="utf-8")).get("kind")
        kinds[kind] = kinds.get(kind, 0) + 1
    text = [f"wrote {len(paths)} certificates into {write} ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}:"
            " SMT-LIB 2 problems of the certified z3 links and of the sympy steps z3 re-decides, the other sympy "
            "steps as sympy's own text (srepr) for sympy alone to re-decide, box covers of the arb steps, Farkas "
            "certificates of the exact history search's trees at each parameter point); check them "
            f"with: rue-verify certificates --check {write}"]
    if uncovered:
        text.append(f"{len(uncovered)} certified steps carry no certificate:")
        text += [f"  {u['what'][:120]} ({u['method']}): {u['why'][:160]}" for u in uncovered]
    return Output({"written": len(paths), "directory": str(write), "kinds": kinds, "uncovered": uncovered}, text,
                  notes, status)


def _check_certificates(directory: str) -> Output:
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
    text = [f"{kind}: {n['checked']} checked, {n['failed']} failed"
            + (f" ({n['partial']} of the checked hold in part only)" if n.get("partial") else "")
            for kind, n in sorted(data["kinds"].items())]
    text += [f"PARTIAL {f['file']} ({f['kind']}): leaves {f['leaves']}" for f in data.get("partial", [])]
    text += [f"{kind}, trusted and not checked: {why}" for kind, why in sorted(data.get("trusts", {}).items())]
    text += [f"FAILED {f['file']} ({f['kind']}): {f['why']}" for f in data["failed"]]
    text.append(f"checked in a process that imports no search; the checker is "
                f"{sum(data['checker_lines'].values())} lines ({', '.join(data['checker_lines'])})")
    if not data["files"]:
        text.append(f"no certificate files under {directory}")
    return Output(data, text, [], 0 if data["files"] and not data["failed"] else 1)
