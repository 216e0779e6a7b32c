"""The `rue-verify` command line. Thin: every subcommand parses, calls the library and prints.

  rue-verify claims [--id ID,ID] [--thorough] [--seed N] [--results DIR] [--json | -v] [--markdown PATH]
  rue-verify bound NAME [--symbolic | --latex | --json] [--PARAM VALUE ...]      (rue-verify bound --list)
  rue-verify vacuity --K K --sigma0-sq S0 --sigma-sq S --delta D [--bound theorem_5_1] [--n-max N] [--map]
  rue-verify simulate [--setup F1..F6|R1..R3 | --means M,M,... | --means-file PATH] [--budget N|H/2|H|2H] ...
  rue-verify rates [--quick | --paper] [--out DIR] [--scheduler ADDR] [--seed N] [--show DIR|shipped]
  rue-verify table | bench | reproduce ...

Grammar (module `args`): hyphenated flags (old underscore spellings still work), comma-separated
lists, integers in any exact form (1e4), `--json` on every command. Bad input is one line on
stderr that names the flag or parameter, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from typing import Any, Sequence

from .. import __version__
from ..errors import ParameterError
from ..store.files import write_text
from ..verify.parallel import cores
from . import formatting
from .commands import (
    COMMANDS,
    algorithm_params,
    build_parser,
    formula_params,
    means_of,
    registry,
    unused_algorithm_flags,
)

#: the time limit of `decide --induct` as a whole (each solver case has its own, `verify.induction`)
INDUCT_SECONDS = 900.0
#: the time limit of one evaluation of a node at a point (`proofs --node --at`; --claim-seconds raises it)
AT_SECONDS = 60.0


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _status(results) -> int:
    """The exit status of a run of claims: 1 when some claim reads `error` (its check failed; one line on
    stderr names them), else 0. Refuted claims are results, not failures of the run."""
    bad = [r.id for r in results if r.verdict == "error"]
    if not bad:
        return 0
    print(f"error: {len(bad)} claim(s) could not be judged (their check failed): {', '.join(bad)}", file=sys.stderr)
    return 1


def _cannot_write(flag: str, value, err: OSError) -> int:
    """One line for a write that failed (read-only or full disk, a missing permission): the option,
    the file, and the system's reason."""
    return _fail(f"{flag} {value}: cannot write {err.filename or value} ({err.strerror or err})")


def _say_if_compiling(quiet: bool = False) -> None:
    """One line on stderr when a kernel of the package is actually being compiled (numba's compile
    event: a kernel loaded from numba's cache raises none), saying where numba keeps them; nothing on
    a run that compiles nothing (a check of the cache beforehand said 'compiling' whenever any
    kernel, used or not, had never been compiled)."""
    if quiet:
        return
    from numba.core import event

    class Said(event.Listener):
        done = False

        def on_start(self, ev):
            fn = getattr(ev.data.get("dispatcher"), "py_func", None)
            if not Said.done and getattr(fn, "__module__", "").split(".")[0] in ("simulate", "bounds", "rue_verify"):
                Said.done = True
                from simulate.kernels import status
                print("rue-verify: compiling the simulator's kernels (once per installation; numba keeps them in "
                      f"{status()[1]})", file=sys.stderr)

        def on_end(self, ev):
            pass
    event.register("numba:compile", Said())


def _dump(obj: Any) -> None:
    from ..verify.findings import dumps
    print(dumps(obj, indent=2))


# ---------------------------------------------------------------- claims
def _ids(args: argparse.Namespace) -> list[str] | None:
    return [i.strip() for tok in (getattr(args, "id", None) or []) for i in tok.split(",") if i.strip()] or None


def _load(args: argparse.Namespace):
    """The paper `--paper` names, loaded alone (only its claims are registered and active), and your
    claim files (`--claims`) added to it. A `ParameterError` naming the flag that failed."""
    from ..verify.papers import load_paper
    from ..verify.runner import load_claims
    paper = load_paper(args.paper)
    for spec in getattr(args, "claim_files", None) or ():
        load_claims(spec)
    return paper


def _mode(args: argparse.Namespace, paper, thorough: bool = False, **inputs):
    """The mode of a run of `paper`'s claims: its inputs (`--results`, `--rates` for a paper that reads
    them), your claim files and the seed."""
    from ..verify import LedgerInputs, Mode
    given = {"results": getattr(args, "results", None), "rates": getattr(args, "rates", None)}
    if paper.check_inputs is None:
        extra = [k for k, v in given.items() if v]
        if extra:
            raise ParameterError(extra[0], f"paper {paper.name} reads no {extra[0]} (only its claims run)")
    kw = {"inputs": LedgerInputs(**given, claims=tuple(getattr(args, "claim_files", None) or ()), paper=args.paper,
                                 **inputs),
          **({"seed": args.seed} if getattr(args, "seed", None) is not None else {}),
          **({"seconds": args.claim_seconds or None} if getattr(args, "claim_seconds", None) is not None else {})}
    return Mode.thorough(**kw) if thorough else Mode(**kw)


def _run(args: argparse.Namespace, mode, ids: list[str], quiet: bool):
    """The paper's claims `ids` run on every core (or `--workers`), with a progress bar, and its graph."""
    from ..studies.progress import bar, counter
    from ..verify.runner import run_ledger
    shown = bar(len(ids), "claims", "claim", not quiet)
    try:
        return run_ledger(mode, ids, progress=counter(shown), workers=args.workers or cores())
    finally:
        shown.close()


def _proofs(args: argparse.Namespace) -> int:
    """The proof graph: a node's relation at a point (--node, --at), or every node's status (runs the
    paper's quick ledger)."""
    from ..verify import graph
    try:
        paper = _load(args)
    except ParameterError as err:
        return _fail(f"--{err.param}: {err.reason}")
    if args.node or args.at:
        if not (args.node and args.at):
            return _fail("--node and --at go together: rue-verify proofs --node ID --at '{\"K\": 20, ...}'")
        from ..verify.faults import OutOfMemory, TimeLimit, memory_limit, time_limit
        try:
            at = json.loads(args.at)
            limit = AT_SECONDS if args.claim_seconds is None else args.claim_seconds     # 0: none
            with memory_limit(f"--node {args.node} at this point"), \
                    time_limit(limit, f"--node {args.node} at this point", "raise it with --claim-seconds"):
                _dump(graph.evaluate(paper, args.node, at))
        except json.JSONDecodeError as err:
            return _fail(f"--at: not a JSON object ({err})")
        except (KeyError, ValueError, TypeError, OutOfMemory, TimeLimit) as err:
            return _fail(f"--node {args.node} --at: {str(err).strip(chr(34))}")
        return 0
    from ..verify.runner import select
    try:
        results = _run(args, _mode(args, paper), select(None), args.quiet or args.json)
    except ParameterError as err:
        return _fail(f"--{err.param}: {err.reason}")
    g = results.graph
    if getattr(args, "mutants", False):
        from ..verify.proofs import mutants_summary, proof_mutants
        rows = proof_mutants(results)
        if args.json:
            _dump({"summary": mutants_summary(rows), "steps": rows})
        else:
            print("\n".join(formatting.mutants(rows, mutants_summary(rows))))
        return _status(results)
    if args.json:
        _dump(graph.nodes_json(g))
    else:
        print("\n".join(graph.trees(g, paper.theorems or graph.roots(g))))
    return _status(results)


def _claims(args: argparse.Namespace) -> int:
    from ..verify.runner import select
    try:
        paper = _load(args)
        mode = _mode(args, paper, args.thorough)
        ids = select(_ids(args))
    except ParameterError as err:
        return _fail(f"--{err.param}: {err.reason}")
    except ValueError as err:
        return _fail(f"--id: {err}")
    t0 = time.perf_counter()
    try:
        if paper.check_inputs is not None:   # a bad --results or --rates is refused before any claim runs
            paper.check_inputs(mode.inputs)
        results = _run(args, mode, ids, args.quiet)
    except ParameterError as err:             # also results that lack a study a claim needs
        return _fail(f"--{err.param}: {err.reason}")
    total = time.perf_counter() - t0
    from ..outputs import render
    if args.markdown:
        title = f"Claims ledger: {paper.title}"
        document = render.markdown(results, title, formatting.ledger_intro(mode, total))
        try:
            write_text(args.markdown, document)
        except OSError as err:
            return _cannot_write("--markdown", args.markdown, err)
        print(f"wrote {args.markdown}", file=sys.stderr)
    if args.json:
        _dump([r.to_json() for r in results])
        return _status(results)
    print(f"rue-verify {__version__} claims ledger of {paper.title} ({total:.1f} s). Covered: {mode.coverage()}")
    print("\n".join(render.text(results, args.verbose)))
    print(f"verdicts: {render.counts(results)}; total {total:.1f} s")
    return _status(results)


# ---------------------------------------------------------------- decide
def _decide(args: argparse.Namespace) -> int:
    from ..decide import decide, describe, induct
    from ..store.userfiles import load_module
    from ..verify.faults import TimeLimit
    from ..verify.induction import SolverMissing
    if args.paper != "zhu-qiu":
        return _fail(f"--paper {args.paper}: decide searches RUE's histories (the algorithm of zhu-qiu); no other "
                     "paper supplies an algorithm's linear form and abstract states yet")
    where, _, name = args.step.rpartition(":")
    if not where or not name:
        return _fail(f"step: expected FILE.py:NAME or module:NAME, got {args.step!r}")
    try:
        obj = getattr(load_module(where, "step"), name, None)
        if obj is None:
            return _fail(f"step: {where} has no function {name}")
        if args.induct:
            from ..verify.faults import time_limit
            with time_limit(INDUCT_SECONDS, "the induction", "its solver's cases have limits of their own; a step "
                            "whose holds takes this long to build is looping"):
                res = induct(obj, args.route)
        elif not callable(obj):
            return _fail(f"step: {where} has no function {name}")
        else:
            res = decide(obj, args.K, args.n, args.sigma0_sq, args.sigma_sq, args.route,
                         symmetric=True if args.symmetric else None, every_budget=not args.at_budget,
                         max_seconds=args.max_seconds)
    except ParameterError as err:
        return _fail(f"{err.param}: {err.reason}")
    except (ValueError, SolverMissing, TimeLimit) as err:
        return _fail(str(err))
    if args.json:
        _dump({"step": args.step, **res})
        return 0
    print("\n".join(describe(res, args.step)))
    return 0


# ---------------------------------------------------------------- erratum
def _erratum(args: argparse.Namespace) -> int:
    from ..outputs import erratum
    from ..verify.runner import select
    try:
        paper = _load(args)
        mode = _mode(args, paper)
        wanted = select(_ids(args))
    except ParameterError as err:
        return _fail(f"--{err.param}: {err.reason}")
    except ValueError as err:
        return _fail(f"--id: {err}")
    results = _run(args, mode, select(None), args.quiet)
    try:
        tex, listed = erratum.write(paper, mode, results, args.out, set(wanted) if args.id else None)
    except OSError as err:
        return _cannot_write("--out", args.out, err)
    print(f"wrote {tex}: {listed} claims refuted, undefined or inconsistent, with their witnesses and repairs")
    if args.pdf:
        pdf, why = erratum.compile_pdf(str(tex))
        print(f"wrote {pdf}" if pdf else why)
        if not (pdf or "PATH" in why):
            return 1
    return _status(results)


# ---------------------------------------------------------------- bound
def _bound(args: argparse.Namespace, extra: list[str]) -> int:
    from bounds.registry import REGISTRY, evaluate_record, symbolic
    if args.list or not args.name:
        if args.json:
            _dump([{"name": k, "label": e.label, "params": list(e.params)} for k, e in REGISTRY.items()])
            return 0
        for k, e in REGISTRY.items():
            print(f"{k:<26} {e.label:<44} params: {', '.join(e.params)}")
        return 0
    if args.name not in REGISTRY:
        return _fail(f"unknown bound {args.name!r}; run 'rue-verify bound --list'")
    entry = REGISTRY[args.name]
    if args.symbolic or args.latex:
        import sympy
        try:
            expr = symbolic(args.name)
        except ValueError as err:
            return _fail(f"--symbolic/--latex: {err}")
        items = expr.items() if isinstance(expr, dict) else [(args.name, expr)]
        out = {k: (sympy.latex(e) if args.latex else str(e)) for k, e in items}
        if args.json:
            _dump(out)
        else:
            for k, e in out.items():
                print(f"{k}: {e}")
        return 0
    try:
        record = evaluate_record(args.name, **formula_params(entry, extra))
    except (ValueError, TypeError) as err:
        return _fail(f"{args.name}: {err}")
    if args.json:
        _dump(record)
    else:
        print("\n".join(formatting.bound(record)))
    return 0


# ---------------------------------------------------------------- vacuity
def _vacuity(args: argparse.Namespace) -> int:
    from bounds.vacuity import smallest_informative_n, vacuity_map
    if args.map:
        import numpy as np
        g0 = np.geomspace(1e-3, 1e2, 6)
        g = np.geomspace(1e-3, 1e2, 6)
        try:
            m = vacuity_map(args.K, args.delta, g0, g, args.bound, args.n_max)
        except ValueError as err:
            return _fail(str(err))
        if args.json:
            _dump({"bound": args.bound, "K": args.K, "delta": args.delta, "n_max": args.n_max,
                   "sigma0_sq": g0.tolist(), "sigma_sq": g.tolist(),
                   "smallest_n": [[None if v < 0 else int(v) for v in row] for row in m]})
            return 0
        print("\n".join(formatting.vacuity_map(args.bound, args.K, args.delta, args.n_max, g0, g, m)))
        return 0
    if args.sigma0_sq is None or args.sigma_sq is None:
        return _fail("--sigma0-sq and --sigma-sq are required without --map")
    try:
        r = smallest_informative_n(args.K, args.sigma0_sq, args.sigma_sq, args.delta, args.bound, args.n_max)
    except ValueError as err:
        return _fail(str(err))
    if args.json:
        from dataclasses import asdict
        _dump(asdict(r))
        return 0
    print(formatting.vacuity(r))
    return 0


# ---------------------------------------------------------------- simulate
def _simulate(args: argparse.Namespace) -> int:
    from simulate.environments import environment_for
    from simulate.runner import simulate
    try:
        means = means_of(args)
        env = environment_for(args.setup, args.K, means, reward=args.reward, nu_sq=args.nu_sq,
                              normal_scale=args.normal_scale, clip_policy=args.clip_policy, mean_var=args.mean_var)
        selected = list(args.algorithms or registry())
        unused = unused_algorithm_flags(args, selected)
        if unused:
            return _fail(unused)
        algs = [(a, algorithm_params(args, a)) for a in selected]
        res = simulate(env, algs, args.budget, args.runs, args.seed, workers=args.workers, crn=args.crn,
                       level=args.level, H_convention=args.H_convention, progress=not args.quiet,
                       announce=_announce)
    except ValueError as err:
        return _fail(str(err))
    if args.json:
        _dump(res.to_json())
        return 0
    print("\n".join(formatting.simulation(res)))
    return 0


def _announce(cost) -> None:
    """Before a long request (over a minute at the throughput measured now): its size and duration."""
    if cost.seconds is not None and cost.seconds > 60:
        print(f"rue-verify: {cost.sentence()}.", file=sys.stderr)


# ---------------------------------------------------------------- bench, table, reproduce
def _bench(args: argparse.Namespace) -> int:
    if args.histories:
        from ..ledger import Mode, proof_induction
        from ..ledger.proof_histories import benchmark
        mode = Mode.thorough() if args.thorough else Mode()
        say = (lambda line: print(line, file=sys.stderr)) if args.json else print
        rows = benchmark(mode.history_n, out=say)
        say("the induction over RUE's states (every n; z3):")
        induction = proof_induction.benchmark(out=say)
        if args.json:              # the search's rows, then one row per induction step (kind "induction")
            _dump(rows + [{"kind": "induction", **r} for r in induction])
        return 0
    if args.refit:
        given = [f for f, v in (("--large-k", args.large_k), ("--commands", args.commands),
                                ("--histories", args.histories), ("--algorithms", args.algorithms)) if v]
        if given:
            return _fail(f"{given[0]}: bench --refit measures RUE's ML/REML refit schedule only; it takes --json")
        from ..rates.estimators import refit_effects
        rows = refit_effects(out=(lambda line: print(line, file=sys.stderr)) if args.json else print)
        if args.json:
            _dump(rows)
        return 0
    if args.commands:
        from ..studies.command_timing import COMMANDS, time_commands
        names = [n for n in COMMANDS if n != "claims-thorough" or args.thorough]
        rows = time_commands(names, out=(lambda line: print(line, file=sys.stderr)) if args.json else print)
        if args.json:
            _dump(rows)
        return 0
    from simulate.bench import CONFIGS, LARGE_K, LARGE_K_NAMES, NAMES, bench
    try:
        rows = bench(args.algorithms or (LARGE_K_NAMES if args.large_k else NAMES),
                     configs=LARGE_K if args.large_k else CONFIGS,
                     reference_seconds=0.0 if args.large_k else args.reference_seconds, repeats=args.repeats,
                     progress=not args.quiet, out=(lambda line: print(line, file=sys.stderr)) if args.json else print)
    except ValueError as err:
        return _fail(str(err))
    if args.json:
        _dump(rows)
    return 0


def _table(args: argparse.Namespace) -> int:
    from ..studies.fixed_table import fixed_setup_table
    try:
        out = fixed_setup_table(args.setups, args.budgets, args.K, args.runs, args.seed, out_dir=args.out,
                                progress=not args.quiet)
    except ValueError as err:
        return _fail(str(err))
    except OSError as err:
        return _cannot_write("--out", args.out, err)
    if args.json:
        _dump(out)
        return 0
    print("\n".join(formatting.fixed_table(out, args.runs, args.seed, args.K, args.out)))
    return 0


def _reproduce(args: argparse.Namespace) -> int:
    from ..studies.summary import redraw_reproduction, reproduce
    scale = "paper" if args.paper else "quick"
    if args.rue_estimators:
        return _rue_estimators(args, scale)
    try:
        if args.redraw:
            if not args.out and not args.results:
                return _fail("--redraw needs --out DIR (its results.csv) or --results DIR|shipped")
            res = redraw_reproduction(args.out or args.results, args.results)
        else:
            res = reproduce(scale, args.out, conventions=args.conventions, seed=args.seed, scheduler=args.scheduler,
                            studies=args.studies, progress=not args.quiet, algorithms=args.algorithms, wait=args.wait,
                            workers=args.workers)
    except ValueError as err:
        return _fail(str(err))
    except OSError as err:
        if args.scheduler and not err.filename:
            return _fail(f"--scheduler {args.scheduler}: {err}")
        return _cannot_write("--out", args.out or f"reproduction-{scale}", err)
    if args.json:
        _dump({k: res[k] for k in ("out", "tasks", "wall_seconds", "figures", "summary")})
        return 0
    print(formatting.reproduction(res, args.redraw, scale, args.seed, args.conventions))
    return 0


def _rue_estimators(args: argparse.Namespace, scale: str) -> int:
    """`reproduce --rue-estimators`: RUE's tasks rerun with each other variance estimator."""
    given = [f for f, v in (("--redraw", args.redraw), ("--results", args.results), ("--algorithms", args.algorithms),
                            ("--conventions", list(args.conventions) != ["project", "authors"])) if v]
    if given:
        return _fail(f"{given[0]}: reproduce --rue-estimators reruns RUE's tasks only; it takes --quick or --paper, "
                     "--out, --studies, --seed and the sweep flags")
    from ..reproduction import estimators
    try:
        res = estimators.run(scale, args.out, args.seed, scheduler=args.scheduler, progress=not args.quiet,
                             wait=args.wait, workers=args.workers, studies=args.studies)
    except ValueError as err:
        return _fail(str(err))
    except OSError as err:
        return _cannot_write("--out", args.out or f"reproduction-estimators-{scale}", err)
    if args.json:
        _dump({k: res[k] for k in ("out", "tasks", "wall_seconds", "scale", "seed")})
        return 0
    print(f"rue-verify {__version__} reproduce --rue-estimators: {res['tasks']} tasks of RUE with the estimators "
          f"{', '.join(estimators.ESTIMATORS)} ({res['scale']} scale, seed {res['seed']}) in {res['out']}, "
          f"{res['wall_seconds']:.0f} s")
    return 0


def _rates(args: argparse.Namespace) -> int:
    from ..rates import efficiency, load, run
    from ..rates.summary import exponents
    scale = "paper" if args.paper else "quick"
    if args.split:
        given = [f for f, v in (("--show", args.show), ("--cliff", args.cliff), ("--estimators", args.estimators),
                                ("--out", args.out),
                                ("--scheduler", args.scheduler), ("--wait", args.wait), ("--workers", args.workers))
                 if v]
        if given:
            return _fail(f"{given[0]}: rates --split runs its own study in this process and keeps no directory; it "
                         f"takes only --quick or --paper, --seed and --json (not {', '.join(given)})")
        from ..rates.split import as_dict, header, split_line, splits
        print(header(scale, args.seed), file=sys.stderr if args.json else sys.stdout)
        rows = splits(scale, seed=args.seed, progress=None if args.json else lambda s: print(split_line(s)))
        if args.json:
            _dump([as_dict(s) for s in rows])
        return 0
    if args.cliff and args.estimators:
        return _fail("--cliff and --estimators are two studies: run one at a time")
    if args.cliff or args.estimators:
        return _side_study(args, scale, "cliff" if args.cliff else "estimators")
    try:
        if args.show:
            res, wall, arm_rounds = load(args.show), None, 0
        else:
            out = run(scale, args.out, args.seed, args.scheduler, progress=not args.quiet, wait=args.wait,
                      workers=args.workers)
            res, wall, arm_rounds = load(out["out"]), out["wall_seconds"], out["arm_rounds"]
    except ParameterError as err:
        return _fail(f"{'--show' if args.show else '--out'}: {err.reason}")
    except ValueError as err:
        return _fail(str(err))
    except OSError as err:
        if args.scheduler and not err.filename:
            return _fail(f"--scheduler {args.scheduler}: {err}")
        return _cannot_write("--out", args.out or f"rates-{scale}", err)
    table, eff = exponents(res), efficiency.table(res)
    if args.json:
        _dump({"source": res.description, "wall_seconds": wall, "arm_rounds": arm_rounds, "exponents": table,
               "efficiency": eff})
        return 0
    print("\n".join(formatting.rates(res.description, table, wall, arm_rounds, None if args.show else out["out"])
                    + formatting.efficiency(eff)))
    return 0


def _side_study(args: argparse.Namespace, scale: str, name: str) -> int:
    """`rates --cliff` or `rates --estimators`: run (or show) that study and print its table."""
    import importlib
    study = importlib.import_module(f"..rates.{name}", __package__)
    try:
        if args.show:
            res, wall = study.load(args.show), None
        else:
            out = study.run(scale, args.out, args.seed, args.scheduler, progress=not args.quiet, wait=args.wait,
                            workers=args.workers)
            res, wall = study.load(out["out"]), out["wall_seconds"]
    except ParameterError as err:
        return _fail(f"{'--show' if args.show else '--out'}: {err.reason}")
    except ValueError as err:
        return _fail(str(err))
    except OSError as err:
        return _cannot_write("--out", args.out or f"{name}-{scale}", err)
    rows = study.table(res)
    if args.json:
        _dump({"source": res.description, "wall_seconds": wall, "rows": rows})
        return 0
    print("\n".join(getattr(formatting, name)(res.description, rows, wall)))
    return 0


def _report(args: argparse.Namespace) -> int:
    from ..outputs.report import report
    try:
        res = report("full" if args.full else "quick", args.out, thorough=args.thorough, results_dir=args.results,
                     rates_dir=args.rates, claim_files=tuple(args.claim_files or ()),
                     your_bounds=tuple(args.bounds or ()), claims=_ids(args), sections=args.section,
                     seed=args.seed, progress=not args.quiet, workers=args.workers or cores(), paper=args.paper,
                     claim_seconds=args.claim_seconds)
    except ParameterError as err:
        return _fail(f"--{err.param}: {err.reason}")
    except ValueError as err:
        return _fail(str(err))
    except OSError as err:
        return _cannot_write("--out", args.out, err)
    if args.json:
        _dump(res)
    else:
        print(formatting.report(res))
    errored = (res.get("errored") or []) + [f"figure {n}" for n in res.get("figure_errors") or {}]
    if errored:
        print(f"error: {len(errored)} claim(s) or figure(s) could not be made (their check or drawing failed): "
              f"{', '.join(errored)}", file=sys.stderr)
    return 1 if errored else 0


_SIGINT = []


def _on_sigint(signum, frame) -> None:
    _SIGINT.append(signum)
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    import signal
    import threading
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, _on_sigint)
    try:
        return _main(argv)
    except BrokenPipeError:                 # e.g. `rue-verify bound --list | head`
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return _interrupted(argv)
    except SystemError:                     # Ctrl-C inside a compiled kernel reaches Python as a SystemError
        if _SIGINT:
            return _interrupted(argv)
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _interrupted(argv) -> int:
    """Ctrl-C: one line saying what is on disk. Rows are appended whole, files and the report's
    directory renamed into place only when complete."""
    words = list(sys.argv[1:] if argv is None else argv)
    cmd = next((w for w in words if not w.startswith("-")), "")
    print(f"interrupted; {COMMANDS[cmd].kept if cmd in COMMANDS else 'nothing was written'}", file=sys.stderr)
    runner = sys.modules.get("simulate.runner")
    if runner is not None and runner.kernel_running() and threading.current_thread() is threading.main_thread() \
            and argv is None:
        # a compiled kernel is still busy in its helper thread: leave now (its result is not wanted and
        # everything kept is already on disk) instead of waiting for it at interpreter exit
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    return 130


def _main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(full=any(w in COMMANDS and COMMANDS[w].registry for w in words))
    try:
        args, extra = parser.parse_known_args(argv)
    except SystemExit as exc:               # --help, --version (0) or a parse error (2, one line printed)
        return int(exc.code or 0)
    if args.cmd != "bound" and extra:
        return _fail(f"unrecognized arguments: {' '.join(extra)} (see 'rue-verify {args.cmd} --help')")
    if COMMANDS[args.cmd].compiles and not getattr(args, "show", None):    # rates --show compiles nothing
        _say_if_compiling(getattr(args, "quiet", False) or getattr(args, "json", False))
    if args.cmd == "bound":
        return _bound(args, extra)
    return HANDLERS[args.cmd](args)


def _check_bound(args: argparse.Namespace) -> int:
    from ..outputs import render
    from ..user_bounds import check_bound
    try:
        space = json.loads(args.space) if args.space else None
        result = check_bound(args.bound, args.quantity, args.algorithm, space=space, rates_dir=args.rates,
                             progress=None if args.quiet else (lambda line: print(line, file=sys.stderr)))
    except json.JSONDecodeError as err:
        return _fail(f"--space: not JSON ({err})")
    except ParameterError as err:
        return _fail(f"--{err.param.replace('_', '-')}: {err.reason}" if err.param != "bound" else err.reason)
    except ValueError as err:
        return _fail(str(err))
    if args.json:
        _dump(result.to_json())
    else:
        print("\n".join(render.text([result], args.verbose)))
    return 0


def _new_paper(args: argparse.Namespace) -> int:
    from ..scaffold import new_paper, next_steps
    try:
        path = new_paper(args.name, args.dir, force=args.force)
    except (ValueError, OSError) as err:
        return _fail(str(err))
    print(f"wrote {path}; next:")
    print("\n".join(f"  {line}" for line in next_steps(path)))
    return 0


#: each command's handler (`commands.COMMANDS` says what each command is)
HANDLERS = {"claims": _claims, "proofs": _proofs, "simulate": _simulate, "bench": _bench, "table": _table,
            "reproduce": _reproduce, "vacuity": _vacuity, "report": _report, "rates": _rates, "erratum": _erratum,
            "decide": _decide, "check-bound": _check_bound, "new-paper": _new_paper}
assert set(HANDLERS) | {"bound"} == set(COMMANDS), "a command without a handler, or a handler without a command"

