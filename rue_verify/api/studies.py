"""The commands that simulate: `simulate` (algorithms on one setting), `bench` (throughput), `table`
(fixed setups), `reproduce` (Section 6), `rates` (the rate study and its side studies) and `report`."""

from __future__ import annotations

import importlib
import math
from typing import Any, Callable

from .. import __version__
from ..errors import ParameterError
from ..outputs import text as lines
from .output import BadValue, Output, cannot_write, echo_to, only
from .params import command


def _means(means, means_file: str | None) -> list[float] | None:
    """Custom means: `means`, or read from `means_file` (separated by commas, spaces or newlines)."""
    if means is not None and means_file:
        raise ParameterError("means", "give one of means and means_file, not both")
    if not means_file:
        return means
    try:
        text = open(means_file).read()
    except OSError as err:
        raise ParameterError("means_file", f"cannot read {means_file} ({err.strerror})") from None
    try:
        values = [float(x) for x in text.replace(",", " ").split()]
    except ValueError as err:
        raise ParameterError("means_file", f"not a list of numbers ({err})") from None
    if not all(math.isfinite(v) for v in values):
        raise ParameterError("means_file", "every mean must be a finite number")
    if len(values) < 2:
        raise ParameterError("means_file", f"at least 2 means, got {len(values)}")
    return values


def algorithm_params(given: dict[str, Any], name: str) -> dict:
    """The parameters `given` sets for algorithm `name` ('ALG:PARAM' keys for one algorithm, '*:PARAM' for
    every algorithm that takes PARAM; None is not set); the rest keep their defaults."""
    from simulate.algorithms import get
    out = {}
    for p in get(name).params:
        for key in (f"{name}:{p.name}", f"*:{p.name}"):
            if given.get(key) is not None:
                out[p.name] = given[key]
                break
    return out


def unused_params(given: dict[str, Any], selected: list[str]) -> None:
    """A ParameterError for a parameter of `given` that would be ignored: one of an algorithm not among
    `selected`, or a '*:PARAM' that no selected algorithm takes. Nothing given is silently dropped."""
    from simulate.algorithms import get
    takes = {p.name for a in selected for p in get(a).params}
    for key, value in given.items():
        if value is None:
            continue
        alg, _, param = key.partition(":")
        flag = f"{alg}-{param.replace('_', '-')}" if alg != "*" else param
        if alg != "*" and alg not in selected:
            others = [a for a in selected if param in {p.name for p in get(a).params}]
            to = (f"give it to one of them that takes {param} (--{others[0]}-{param.replace('_', '-')}) or "
                  if others else "")
            raise ParameterError(flag, f"{alg} is not among the algorithms run ({', '.join(selected)}); {to}add "
                                       f"{alg} to --algorithms")
        if alg == "*" and param not in takes:
            raise ParameterError(flag, f"none of the algorithms run ({', '.join(selected)}) takes {param}")


@command('simulate')
def simulate(setup: str | None = None, K: int | None = None, means=None, means_file: str | None = None,
             budget: int | str = "H", runs: int = 1000, seed: int = 0, algorithms=None, params: dict | None = None,
             reward: str | None = None, nu_sq: float | None = None, normal_scale: str = "variance",
             clip_policy: str = "redraw", mean_var: float = 1.0, H_convention: str = "suboptimal",
             workers: int | None = None, crn: bool = False, level: float = 0.95, progress: bool = False,
             announce: Callable | None = None) -> Output:
    """`rue-verify simulate`: error rates and simple regret with intervals of `algorithms` (default every
    registered one) on a setup or your means. params: `'ALG:PARAM'` (or `'*:PARAM'`) -> value, as the
    generated flags set them."""
    from simulate.algorithms import REGISTRY
    from simulate.environments import environment_for
    from simulate.runner import simulate as run
    env = environment_for(setup, K, _means(means, means_file), reward=reward, nu_sq=nu_sq,
                          normal_scale=normal_scale, clip_policy=clip_policy, mean_var=mean_var)
    selected = list(algorithms or REGISTRY)
    given = dict(params or {})
    unused_params(given, selected)
    res = run(env, [(a, algorithm_params(given, a)) for a in selected], budget, runs, seed, workers=workers, crn=crn,
              level=level, H_convention=H_convention, progress=progress, announce=announce)
    return Output(res.to_json(), lines.simulation(res))


@command('bench')
def bench(algorithms=None, large_k: bool = False, refit: bool = False, commands: bool = False,
          histories: bool = False, thorough: bool = False, repeats: int = 3, reference_seconds: float = 3.0,
          progress: bool = False, echo: Callable[[str], None] | None = None) -> Output:
    """`rue-verify bench`: the kernels' throughput (or, instead, `large_k`, `refit`, `commands` or
    `histories`); its table goes to `echo` line by line as it is measured, its rows are the data."""
    say, text = echo_to(echo)
    if histories:
        from ..ledger import Mode, proof_induction
        from ..ledger.proof_histories import benchmark
        rows = benchmark((Mode.thorough() if thorough else Mode()).history_n, out=say)
        say("the induction over RUE's states (every n; z3):")
        # the search's rows, then one row per induction step (kind "induction")
        return Output(rows + [{"kind": "induction", **r} for r in proof_induction.benchmark(out=say)], text)
    if refit:
        only("bench --refit", "measures RUE's ML/REML refit schedule only; it takes --json", large_k=large_k,
             commands=commands, algorithms=algorithms)
        from ..rates.estimators import refit_effects
        return Output(refit_effects(out=say), text)
    if commands:
        from ..studies.command_timing import COMMANDS, time_commands
        return Output(time_commands([n for n in COMMANDS if n != "claims-thorough" or thorough], out=say), text)
    from simulate.bench import CONFIGS, LARGE_K, LARGE_K_NAMES, NAMES
    from simulate.bench import bench as measure
    rows = measure(algorithms or (LARGE_K_NAMES if large_k else NAMES), configs=LARGE_K if large_k else CONFIGS,
                   reference_seconds=0.0 if large_k else reference_seconds, repeats=repeats, progress=progress,
                   out=say)
    return Output(rows, text)


@command('table')
def table(setups=("F1", "F2", "F3"), budgets=None, K: int = 20, runs: int = 1000, seed: int = 0,
          out: str | None = None, progress: bool = False) -> Output:
    """`rue-verify table`: every algorithm's error rate on fixed setups at each budget (Section 6.2's design),
    written to `out` as fixed-setups.md and .json when given."""
    from simulate.environments import FIXED_BUDGETS

    from ..studies.fixed_table import fixed_setup_table
    try:
        res = fixed_setup_table(list(setups), list(budgets or FIXED_BUDGETS), K, runs, seed, out_dir=out,
                                progress=progress)
    except OSError as err:
        raise cannot_write("out", out, err) from None
    return Output(res, lines.fixed_table(res, runs, seed, K, out))


def _sweep_errors(err: OSError, scheduler: str | None, out: str) -> BadValue:
    """An OSError of a sweep: the scheduler's (a connection, no file named) or the result directory's."""
    if scheduler and not err.filename:
        return BadValue("scheduler", scheduler, str(err))
    return cannot_write("out", out, err)


@command('reproduce')
def reproduce(scale: str = "quick", out: str | None = None, conventions=("project", "authors"), studies=None,
              algorithms=None, seed: int = 0, redraw: bool = False, results: str | None = None,
              rue_estimators: bool = False, scheduler: str | None = None, wait: bool = False,
              workers: int | None = None, progress: bool = False) -> Output:
    """`rue-verify reproduce`: Section 6 rerun (`scale` 'quick' or 'paper') into `out`; with `redraw`, its
    figures and summary from stored results; with `rue_estimators`, RUE's tasks with each other variance
    estimator."""
    from ..studies.summary import redraw_reproduction
    from ..studies.summary import reproduce as run
    if rue_estimators:
        return _rue_estimators(scale, out, conventions, studies, algorithms, seed, redraw, results, scheduler, wait,
                               workers, progress)
    if redraw and not out and not results:
        raise ParameterError("redraw", "needs --out DIR (its results.csv) or --results DIR|shipped")
    try:
        res = (redraw_reproduction(out or results, results) if redraw else
               run(scale, out, conventions=conventions, seed=seed, scheduler=scheduler, studies=studies,
                   progress=progress, algorithms=algorithms, wait=wait, workers=workers))
    except OSError as err:
        raise _sweep_errors(err, scheduler, out or f"reproduction-{scale}") from None
    return Output({k: res[k] for k in ("out", "tasks", "wall_seconds", "figures", "summary")},
                  [lines.reproduction(res, redraw, scale, seed, conventions)])


def _rue_estimators(scale, out, conventions, studies, algorithms, seed, redraw, results, scheduler, wait, workers,
                    progress) -> Output:
    only("reproduce --rue-estimators", "reruns RUE's tasks only; it takes --quick or --paper, --out, --studies, "
         "--seed and the sweep flags", redraw=redraw, results=results, algorithms=algorithms,
         conventions=list(conventions) != ["project", "authors"])
    from ..reproduction import estimators
    try:
        res = estimators.run(scale, out, seed, scheduler=scheduler, progress=progress, wait=wait, workers=workers,
                             studies=studies)
    except OSError as err:
        raise cannot_write("out", out or f"reproduction-estimators-{scale}", err) from None
    return Output({k: res[k] for k in ("out", "tasks", "wall_seconds", "scale", "seed")},
                  [f"rue-verify {__version__} reproduce --rue-estimators: {res['tasks']} tasks of RUE with the "
                   f"estimators {', '.join(estimators.ESTIMATORS)} ({res['scale']} scale, seed {res['seed']}) in "
                   f"{res['out']}, {res['wall_seconds']:.0f} s"])


@command('rates')
def rates(scale: str = "quick", out: str | None = None, seed: int = 0, show: str | None = None, split: bool = False,
          cliff: bool = False, estimators: bool = False, scheduler: str | None = None, wait: bool = False,
          workers: int | None = None, progress: bool = False, echo: Callable[[str], None] | None = None) -> Output:
    """`rue-verify rates`: the rate study (`scale` 'quick' or 'paper') run into `out`, or a stored one
    shown (`show`: a directory or 'shipped'); instead, with `split`, `cliff` or `estimators`, that study."""
    if split:
        only("rates --split", "runs its own study in this process and keeps no directory; it takes only --quick "
             "or --paper, --seed and --json", show=show, cliff=cliff, estimators=estimators, out=out,
             scheduler=scheduler, wait=wait, workers=workers)
        from ..rates.split import as_dict, header, split_line, splits
        say, text = echo_to(echo)
        say(header(scale, seed))
        return Output([as_dict(s) for s in splits(scale, seed=seed, progress=lambda s: say(split_line(s)))], text)
    if cliff and estimators:
        raise ParameterError("cliff", "cliff and estimators are two studies: run one at a time")
    name = "cliff" if cliff else "estimators" if estimators else None
    study = importlib.import_module(f"..rates.{name}" if name else "..rates", __package__)
    try:
        if show:
            res, ran = study.load(show), None
        else:
            ran = study.run(scale, out, seed, scheduler, progress=progress, wait=wait, workers=workers)
            res = study.load(ran["out"])
    except ParameterError as err:
        raise ParameterError("show" if show else "out", err.reason) from None
    except OSError as err:
        raise _sweep_errors(err, scheduler, out or f"{name or 'rates'}-{scale}") from None
    wall = ran and ran["wall_seconds"]
    if name:
        rows = study.table(res)
        return Output({"source": res.description, "wall_seconds": wall, "rows": rows},
                      getattr(lines, name)(res.description, rows, wall))
    from ..rates import efficiency
    from ..rates.summary import exponents
    arm_rounds = ran["arm_rounds"] if ran else 0
    table, eff = exponents(res), efficiency.table(res)
    return Output({"source": res.description, "wall_seconds": wall, "arm_rounds": arm_rounds, "exponents": table,
                   "efficiency": eff},
                  lines.rates(res.description, table, wall, arm_rounds, ran and ran["out"]) + lines.efficiency(eff))


@command('report')
def report(scale: str = "quick", out: str = "report", thorough: bool = False, results: str | None = None,
           rates: str | None = None, claim_files=(), bounds=(), ids=None, section=None, seed: int = 0,
           workers: int | None = None, paper: str = "zhu-qiu", claim_seconds: float | None = None,
           progress: bool = False, redraw: bool = False, recheck: bool = False) -> Output:
    """`rue-verify report`: the ledger and every figure in one page (`outputs.report.report`); status 1, with
    a note, when a claim or figure could not be made."""
    from ..outputs.report import report as write
    from ..verify.parallel import cores
    from .output import ids_of
    try:
        res = write(scale, out, thorough=thorough, results_dir=results, rates_dir=rates,
                    claim_files=tuple(claim_files or ()), your_bounds=tuple(bounds or ()), claims=ids_of(ids),
                    sections=section, seed=seed, progress=progress, workers=workers or cores(), paper=paper,
                    claim_seconds=claim_seconds, redraw=redraw)
    except OSError as err:
        raise cannot_write("out", out, err) from None
    errored = (res.get("errored") or []) + [f"figure {n}" for n in res.get("figure_errors") or {}]
    notes = [f"error: {len(errored)} claim(s) or figure(s) could not be made (their check or drawing failed): "
             f"{', '.join(errored)}"] if errored else []
    return Output(res, [lines.report(res)], notes, 1 if errored else 0)
