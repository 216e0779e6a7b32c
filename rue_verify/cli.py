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

from simulate.environments import F_SETUPS, FIXED_BUDGETS, R_SETUPS

from . import __version__
from .args import Parser, algorithm_names, alias, integer, names, real, reals
from .files import write_text
from .parallel import cores

#: parameters set for every algorithm at once by a flag of their own (--H-convention also sets the budgets)
SHARED_PARAMS = ("H_convention",)
#: earlier spellings of generated algorithm flags (still accepted, not shown)
OLD_FLAGS = {"--q": "two-stage:q", "--sigma0-sq": "rue:sigma0_sq", "--sigma-sq": "rue:sigma_sq"}
BUDGET_LABELS = tuple(FIXED_BUDGETS)
MAX_RUNS = 10 ** 7
MAX_K = 10 ** 4
MAX_BUDGET = 10 ** 9


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _cannot_write(flag: str, value, err: OSError) -> int:
    """One line for a write that failed (read-only or full disk, a missing permission): the option,
    the file, and the system's reason."""
    return _fail(f"{flag} {value}: cannot write {err.filename or value} ({err.strerror or err})")


def _say_if_compiling(quiet: bool = False) -> None:
    """One line on stderr when the simulator's kernels are not compiled yet (the first run after an
    install), saying where numba keeps them."""
    from simulate.kernels import status
    ready, where = status()
    if not ready and not quiet:
        print(f"rue-verify: compiling the simulator's kernels (once per installation; numba keeps them in {where})",
              file=sys.stderr)


def _setup(text: str) -> str:
    t = text.strip()
    up = t.upper()
    if up in F_SETUPS + R_SETUPS:
        return up
    if t.lower() == "custom":
        return "custom"
    raise argparse.ArgumentTypeError(f"unknown setup {text!r}; choose from {', '.join(F_SETUPS + R_SETUPS)} "
                                     "(or give --means)")


def _budget(text: str) -> str | int:
    t = text.strip().upper()
    if t in BUDGET_LABELS:
        return t
    try:
        return integer(1, MAX_BUDGET)(text)
    except argparse.ArgumentTypeError as err:
        raise argparse.ArgumentTypeError(f"{err} (or one of {', '.join(BUDGET_LABELS)})") from None


def _budgets(text: str) -> list:
    items = [_budget(x) for x in text.split(",") if x.strip()]
    if not items:
        raise argparse.ArgumentTypeError("expected a comma-separated list of budgets")
    return items


def _dump(obj: Any) -> None:
    print(json.dumps(obj, indent=2, default=lambda x: x.item() if hasattr(x, "item") else str(x)))


# ---------------------------------------------------------------- claims
def _proofs(args: argparse.Namespace) -> int:
    """The proof graph: a node's relation at a point (--node, --at), or every node's status (runs the
    quick ledger)."""
    from .ledger import proof_graph
    if args.node or args.at:
        if not (args.node and args.at):
            return _fail("--node and --at go together: rue-verify proofs --node ID --at '{\"K\": 20, ...}'")
        try:
            at = json.loads(args.at)
            _dump(proof_graph.evaluate(args.node, at if isinstance(at, dict) else {}))
        except json.JSONDecodeError as err:
            return _fail(f"--at: not a JSON object ({err})")
        except (KeyError, ValueError, TypeError) as err:
            return _fail(f"--node {args.node} --at: {err}")
        return 0
    from .ledger import REGISTRY, Mode, run_ledger
    from .progress import bar, counter
    shown = bar(len(REGISTRY), "claims", "claim", not (args.quiet or args.json))
    results = run_ledger(Mode(), progress=counter(shown), workers=args.workers or cores())
    shown.close()
    g = proof_graph.resolve(results)
    if args.json:
        _dump(proof_graph.nodes_json(g))
    else:
        print("\n".join(proof_graph.trees(g)))
    return 0


def _claims(args: argparse.Namespace) -> int:
    from .ledger import LedgerInputs, Mode, run_ledger, select
    from .progress import bar, counter
    kw = {"inputs": LedgerInputs(args.results, args.rates), **({"seed": args.seed} if args.seed is not None else {})}
    mode = Mode.thorough(**kw) if args.thorough else Mode(**kw)
    try:
        ids = select([i.strip() for tok in (args.id or []) for i in tok.split(",") if i.strip()] or None)
    except ValueError as err:
        return _fail(f"--id: {err}")
    t0 = time.perf_counter()
    try:
        from .reproduction import load
        load(mode.inputs.results)                  # a bad --results is refused before any claim runs
    except ValueError as err:
        return _fail(str(err).replace("results:", "--results:", 1))
    try:
        from .rates import load as load_rates
        load_rates(mode.inputs.rates)              # and a bad --rates
    except ValueError as err:
        return _fail(str(err).replace("rates:", "--rates:", 1))
    shown = bar(len(ids), "claims", "claim", not args.quiet)
    try:
        results = run_ledger(mode, ids, progress=counter(shown), workers=args.workers or cores())
    except ValueError as err:               # results lacking a study a claim needs
        shown.close()
        return _fail(str(err).replace("results:", "--results:", 1))
    shown.close()
    total = time.perf_counter() - t0
    from . import render
    if args.markdown:
        document = render.markdown(results, "Claims ledger: Zhu & Qiu (TMLR 2024), RUE", ledger_intro(mode, total))
        try:
            write_text(args.markdown, document)
        except OSError as err:
            return _cannot_write("--markdown", args.markdown, err)
        print(f"wrote {args.markdown}", file=sys.stderr)
    if args.json:
        _dump([r.to_json() for r in results])
        return 0
    print(f"rue-verify {__version__} claims ledger ({total:.1f} s). Covered: {mode.coverage()}")
    print("\n".join(render.text(results, args.verbose)))
    print(f"verdicts: {render.counts(results)}; total {total:.1f} s")
    return 0


def ledger_intro(mode, seconds: float) -> str:
    return (f"Generated by `rue-verify claims --markdown` (rue-verify {__version__}; {mode.coverage()}; "
            f"{seconds:.0f} s). Every verdict below is computed. Findings marked *reading* judge the paper's text; "
            "*charitable* marks the reading that makes a statement true where the literal one is not. Under a claim, "
            "**repaired** gives the nearest correct statement, verified the same way.")


# ---------------------------------------------------------------- bound
def _bound_params(entry, extra: list[str]) -> dict:
    """--PARAM VALUE pairs (hyphens or underscores), numbers or comma-separated lists, checked against
    the formula's parameters; a ValueError names the flag."""
    params: dict[str, Any] = {}
    it = iter(extra)
    for tok in it:
        if not tok.startswith("--") or len(tok) < 3:
            raise ValueError(f"expected --PARAM VALUE, got {tok!r}")
        name = tok[2:].replace("-", "_")
        if name not in entry.params:
            raise ValueError(f"{tok}: not a parameter of this formula (it takes "
                             f"{', '.join('--' + p.replace('_', '-') for p in entry.params)})")
        value = next(it, None)
        if value is None:
            raise ValueError(f"{tok} needs a value")
        try:
            if name in entry.list_params:
                params[name] = reals()(value)
            elif "," in value:
                raise ValueError(f"{tok} takes one number, got the list {value!r}")
            elif name in entry.int_params:
                params[name] = integer()(value)
            else:
                params[name] = real()(value)
        except argparse.ArgumentTypeError as err:
            raise ValueError(f"{tok}: {err}") from None
    return params


def _bound(args: argparse.Namespace, extra: list[str]) -> int:
    from bounds import UndefinedError
    from bounds.registry import REGISTRY, evaluate, symbolic
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
        params = _bound_params(entry, extra)
        val = evaluate(args.name, **params)
    except UndefinedError as err:
        if args.json:
            _dump({"name": args.name, "label": entry.label, "params": params, "undefined": err.reason})
        else:
            print(f"{args.name} ({entry.label}) at {params}: undefined: {err.reason}")
        return 0
    except (ValueError, TypeError) as err:
        return _fail(f"{args.name}: {err}")
    if isinstance(val, dict):
        terms = {k: float(v) for k, v in val.items()}
        out = {"terms": terms, "total": float(sum(terms.values()))}
    elif hasattr(val, "_fields"):
        out = {k: _plain(getattr(val, k)) for k in val._fields}
    else:
        out = {"value": _plain(val)}
    if args.json:
        _dump({"name": args.name, "label": entry.label, "params": params, **out})
        return 0
    print(f"{args.name} ({entry.label}) at {params}:")
    if "terms" in out:
        for k, v in out["terms"].items():
            print(f"  {k:<14} {v:.10g}")
        print(f"  {'total':<14} {out['total']:.10g}")
    elif "value" in out:
        v = out["value"]
        print(f"  {v:.10g}" if isinstance(v, float) else f"  {v}")
    else:
        for k, v in out.items():
            print(f"  {k}: {v}")
    return 0


def _plain(v: Any) -> Any:
    import numpy as np
    a = np.asarray(v, dtype=float) if not isinstance(v, (str, dict)) else None
    if a is None:
        return v
    return float(a) if a.ndim == 0 else a.tolist()


# ---------------------------------------------------------------- vacuity
def _below_one(v: float) -> str:
    """A value that is below 1 never prints as '1'."""
    s = f"{v:.6g}"
    return s if not (v < 1 and s == "1") else f"1 - {1 - v:.3g}"


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
        print(f"{args.bound}: smallest n with bound < 1 (K={args.K}, delta={args.delta:g}, n <= {args.n_max:g}; "
              "'-' where no n up to n_max gives a value below 1, or the bound is undefined)")
        print("sigma0_sq \\ sigma_sq " + "".join(f"{x:>11.3g}" for x in g))
        for i, s0 in enumerate(g0):
            print(f"{s0:>20.3g} " + "".join(f"{('-' if v < 0 else str(int(v))):>11}" for v in m[i]))
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
    where = f"K={r.K}, sigma0_sq={r.sigma0_sq:g}, sigma_sq={r.sigma_sq:g}, delta={r.delta:g}"
    if r.n_first is not None:
        print(f"{r.bound} at {where}: first below 1 at n = {r.n_first} (value {_below_one(r.value_at_n_first)}); "
              f"stays below 1 up to n_max = {r.n_max:g}: {r.stays_below}")
    elif r.reason.startswith("undefined"):
        print(f"{r.bound} at {where}: {r.reason} (it has no value to compare with 1)")
    else:
        print(f"{r.bound} at {where}: not below 1 for any n <= {r.n_max:g} ({r.reason})")
    return 0


# ---------------------------------------------------------------- simulate
def _means_of(args: argparse.Namespace) -> list[float] | None:
    if args.means is not None and args.means_file:
        raise ValueError("--means and --means-file: give one of them")
    if args.means_file:
        try:
            text = open(args.means_file).read()
        except OSError as err:
            raise ValueError(f"--means-file: cannot read {args.means_file} ({err.strerror})") from None
        try:
            return reals(min_items=2)(",".join(text.replace(",", " ").split()))
        except argparse.ArgumentTypeError as err:
            raise ValueError(f"--means-file: {err}") from None
    return args.means


def _simulate(args: argparse.Namespace) -> int:
    from simulate.environments import Environment
    from simulate.runner import simulate
    try:
        means = _means_of(args)
        setup, K = args.setup, args.K
        if means is not None:
            if setup not in (None, "custom"):
                raise ValueError(f"--setup {setup} and --means: custom means replace the setup; give one of them")
            if K is not None and K != len(means):
                raise ValueError(f"--K {K}: the means give K = {len(means)}")
            setup, K = "custom", len(means)
        elif setup == "custom":
            raise ValueError("--setup custom needs --means or --means-file")
        setup = setup or "F1"
        K = K or 20
        algs = [(a, _algorithm_params(args, a)) for a in (args.algorithms or list(_registry()))]
        env = Environment(setup, K, args.reward, args.nu_sq, args.normal_scale, args.clip_policy,
                          tuple(means) if means is not None else None)
        res = simulate(env, algs, args.budget, args.runs, args.seed, workers=args.workers, crn=args.crn,
                       level=args.level, H_convention=args.H_convention, progress=not args.quiet,
                       announce=_announce)
    except ValueError as err:
        return _fail(str(err))
    if args.json:
        _dump(res.to_json())
        return 0
    print(f"rue-verify {res.version} simulate: {res.environment}, n = {res.budget}"
          f"{f' ({res.budget_label}, H {res.H_convention})' if res.budget_label else ''}, runs = {res.runs}, "
          f"seed = {res.seed}, crn = {res.crn}, {res.level:.4g} intervals"
          + (f", {res.clipped_means} means redrawn/clipped" if res.clipped_means else ""))
    w = max(10, *(len(r.algorithm) for r in res.results))
    print(f"{'algorithm':<{w}} {'error rate':>10}  {'interval':<19} {'simple regret':>13}  {'interval':<21} "
          f"{'wall s':>7}  parameters")
    for r in res.results:
        print(f"{r.algorithm:<{w}} {r.error_rate:>10.4f}  [{r.ci_low:.4f}, {r.ci_high:.4f}]  {r.simple_regret:>13.5f}  "
              f"[{r.regret_ci_low:.5f}, {r.regret_ci_high:.5f}] {r.wall_seconds:>7.2f}  "
              + ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in r.params.items()))
    return 0


def _announce(cost) -> None:
    """Before a long request (over a minute at the throughput measured now): its size and duration."""
    if cost.seconds is not None and cost.seconds > 60:
        print(f"rue-verify: {cost.sentence()}.", file=sys.stderr)


def _registry():
    from simulate.algorithms import REGISTRY
    return REGISTRY


def _flag(name: str) -> str:
    return name.replace("_", "-")


def _param_type(p):
    """The argparse type of a registry parameter: its choices, or a number in its range."""
    if p.choices:
        def choice(text: str) -> str:
            if text in p.choices:
                return text
            raise argparse.ArgumentTypeError(f"expected one of {', '.join(map(str, p.choices))}, got {text!r}")
        choice.__name__ = "choice"
        return choice
    return real(p.low, p.high, p.open_low, p.open_high)


def algorithm_flags(parser: argparse.ArgumentParser) -> None:
    """The algorithms' flags, generated from their registry parameters: --ALG-PARAM sets one
    algorithm's parameter; --PARAM, for a parameter that several algorithms take, sets it for every
    selected one that takes it."""
    owners: dict[str, list] = {}
    for alg in _registry().values():
        for p in alg.params:
            if p.name in SHARED_PARAMS:
                continue
            owners.setdefault(p.name, []).append((alg, p))
            parser.add_argument(f"--{alg.name}-{_flag(p.name)}", dest=f"{alg.name}:{p.name}", type=_param_type(p),
                                metavar="VALUE", help=f"{alg.name}: {p.help} ({p.allowed()}; default {p.default})")
    for name, pairs in owners.items():
        if len(pairs) > 1:
            parser.add_argument(f"--{_flag(name)}", dest=f"*:{name}", type=_param_type(pairs[0][1]), metavar="VALUE",
                                help=f"{name} of every selected algorithm that takes it ("
                                     f"{', '.join(a.name for a, _ in pairs)}); --ALG-{_flag(name)} overrides it")
    for old, dest in OLD_FLAGS.items():
        if old[2:].replace("-", "_") in owners and len(owners[old[2:].replace("-", "_")]) > 1:
            continue                    # a parameter several algorithms now share: --PARAM is generated above
        name, param = dest.split(":")
        p = next(p for p in _registry()[name].params if p.name == param)
        alias(parser, old, dest, type=_param_type(p))


def _algorithm_params(args: argparse.Namespace, name: str) -> dict:
    """The parameters the command line gives algorithm `name` (the rest keep their defaults)."""
    given = vars(args)
    out = {}
    from simulate.algorithms import get
    for p in get(name).params:
        for key in (f"{name}:{p.name}", f"*:{p.name}"):
            if given.get(key) is not None:
                out[p.name] = given[key]
                break
    return out


# ---------------------------------------------------------------- bench, table, reproduce
def _bench(args: argparse.Namespace) -> int:
    if args.commands:
        from .timing import COMMANDS, time_commands
        names = [n for n in COMMANDS if n != "claims-thorough" or args.thorough]
        rows = time_commands(names, out=(lambda line: print(line, file=sys.stderr)) if args.json else print)
        if args.json:
            _dump(rows)
        return 0
    from simulate.bench import NAMES, bench
    try:
        rows = bench(args.algorithms or NAMES, reference_seconds=args.reference_seconds, repeats=args.repeats,
                     progress=not args.quiet, out=(lambda line: print(line, file=sys.stderr)) if args.json else print)
    except ValueError as err:
        return _fail(str(err))
    if args.json:
        _dump(rows)
    return 0


def _table(args: argparse.Namespace) -> int:
    from .fixed_table import fixed_setup_table
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
    for r in out["rows"]:
        print(f"{r['setup']} {r['budget']:>3} n={r['n']:<6} {r['algorithm']:<10} {r['error_rate']:.4f} "
              f"[{r['ci_low']:.4f}, {r['ci_high']:.4f}]  {r['wall_seconds']:.1f} s")
    print(f"runs={args.runs} seed={args.seed} K={args.K}; total wall time {out['wall_seconds']:.1f} s"
          + (f"; written to {args.out}" if args.out else ""))
    return 0


def _reproduce(args: argparse.Namespace) -> int:
    from .report import redraw_reproduction, write_reproduction
    from .reproduction import reproduce
    scale = "paper" if args.paper else "quick"
    try:
        if args.redraw:
            if not args.out and not args.results:
                return _fail("--redraw needs --out DIR (its results.csv) or --results DIR|shipped")
            res = redraw_reproduction(args.out or args.results, args.results)
        else:
            res = write_reproduction(reproduce(scale, args.out, args.conventions, args.seed, args.scheduler,
                                               args.studies, progress=not args.quiet, algorithms=args.algorithms,
                                               wait=args.wait))
    except ValueError as err:
        return _fail(str(err))
    except OSError as err:
        if args.scheduler and not err.filename:
            return _fail(f"--scheduler {args.scheduler}: {err}")
        return _cannot_write("--out", args.out or f"reproduction-{scale}", err)
    if args.json:
        _dump({k: res[k] for k in ("out", "tasks", "wall_seconds", "figures", "summary")})
        return 0
    if args.redraw:
        print(f"rue-verify {__version__} reproduce --redraw: {res['tasks']} rows ({res['scale']} scale, seed "
              f"{res['seed']}); wrote {res['summary']} and {len(res['figures'])} figure files.")
        return 0
    print(f"rue-verify {__version__} reproduce: {res['tasks']} tasks at {scale} scale, seed {args.seed}, conventions "
          f"{','.join(args.conventions)}; simulation {res['wall_seconds']:.0f} s. Wrote {res['out']}/results.csv, "
          f"{res['summary']} and {len(res['figures'])} figure files.")
    return 0


def _rates(args: argparse.Namespace) -> int:
    from .rates import load, run
    from .rates.summary import exponents
    scale = "paper" if args.paper else "quick"
    try:
        if args.show:
            res, wall, arm_rounds = load(args.show), None, 0
        else:
            out = run(scale, args.out, args.seed, args.scheduler, progress=not args.quiet, wait=args.wait)
            res, wall, arm_rounds = load(out["out"]), out["wall_seconds"], out["arm_rounds"]
    except ValueError as err:
        return _fail(str(err).replace("rates:", "--show:" if args.show else "--out:", 1))
    except OSError as err:
        if args.scheduler and not err.filename:
            return _fail(f"--scheduler {args.scheduler}: {err}")
        return _cannot_write("--out", args.out or f"rates-{scale}", err)
    table = exponents(res)
    if args.json:
        _dump({"source": res.description, "wall_seconds": wall, "arm_rounds": arm_rounds, "exponents": table})
        return 0
    print(f"rue-verify {__version__} rates: {res.description}")
    for r in table:
        print(f"{r['setting']:<17} {r['algorithm']:<11} {r['quantity']:<20} exponent in {r['variable']} "
              f"{r['exponent']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}] on {r['range'][0]}-{r['range'][1]}"
              + ("" if r["power_law"] else "  (a power law does not fit)"))
    if wall is not None:
        print(f"simulated {arm_rounds:.3g} arm-rounds in {wall:.0f} s"
              + (f" ({arm_rounds / wall:.3g} arm-rounds/s)" if wall > 0 and arm_rounds else "")
              + f"; wrote {out['out']}/results.csv")
    return 0


def _report(args: argparse.Namespace) -> int:
    from .report import report
    try:
        res = report("full" if args.full else "quick", args.out, thorough=args.thorough, results_dir=args.results,
                     rates_dir=args.rates,
                     seed=args.seed, progress=not args.quiet, workers=args.workers or cores())
    except ValueError as err:
        return _fail(str(err))
    except OSError as err:
        return _cannot_write("--out", args.out, err)
    if args.json:
        _dump(res)
        return 0
    print(f"rue-verify {__version__} report ({res['scale']}): {res['claims']} claims, "
          f"{len(res['figures']) // 2} figures in {res['seconds']:.0f} s. Open {res['out']}/index.html "
          f"(also {res['out']}/report.md).")
    return 0


# ---------------------------------------------------------------- the parser
#: the subcommands whose flags come from the algorithm registry (importing it loads numba, so the
#: other commands, --help and --version do not build them)
REGISTRY_COMMANDS = ("simulate", "bench", "reproduce")


def build_parser(full: bool = True) -> argparse.ArgumentParser:
    """The parser; with `full` False the registry-derived flags of REGISTRY_COMMANDS are left out."""
    algs = tuple(_registry()) if full else ()
    p = Parser(prog="rue-verify",
               description="Check the quantitative claims of Zhu & Qiu (TMLR 2024), 'UCB Exploration for "
                           "Fixed-Budget Bayesian Best Arm Identification' (RUE).",
               epilog="Every verdict is computed (a search, an integral, a proof or a simulation); nothing is typed "
                      "in. Lists are comma-separated; integers may be written as 1e4.")
    p.add_argument("--version", action="version", version=f"rue-verify {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    seed = integer(0, 2 ** 63 - 1)

    c = sub.add_parser("claims", help="compute a verdict for every claim of CLAIMS.md",
                       description="Run the claims ledger (theory and, from the reproduction's results, the "
                                   "empirical claims). The quick default takes a minute or two on 2 cores.")
    c.add_argument("--json", action="store_true", help="print the JSON list that CLAIMS.md specifies")
    c.add_argument("--id", nargs="+", metavar="ID", help="only these claim IDs, comma-separated (e.g. "
                                                         "THM-GAP,LEM-TAU-LOWER)")
    c.add_argument("--thorough", action="store_true",
                   help="larger searches: 10x the random points and runs, Monte Carlo searches over 160 points with "
                        "40000 confirmation runs (about 7 minutes on 2 cores; the default quick mode takes about 1)")
    c.add_argument("--seed", type=seed, help="seed for every search and simulation (default 20241001)")
    c.add_argument("--results", metavar="DIR", help="a reproduction's result directory for the empirical claims "
                                                    "(default: the paper-scale results shipped with the package)")
    c.add_argument("--rates", metavar="DIR", help="a rate study's directory (rue-verify rates --out DIR) for the rate "
                                                  "and tightness findings (default: the paper-scale study shipped)")
    c.add_argument("-v", "--verbose", action="store_true", help="print every finding and witness")
    c.add_argument("--workers", type=integer(1, 256), help="processes the claims run in (default: every core; the "
                                                           "results do not depend on it)")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    c.add_argument("--markdown", metavar="PATH", help="also write a Markdown report (e.g. docs/claims.md)")

    pf = sub.add_parser("proofs", help="the proofs as a graph: each step's status, where each theorem's proof breaks, "
                                       "and the repaired routes",
                        description="Print each theorem's proof as a tree of the steps it uses, "
                                    "each with the status the "
                                    "ledger computed (certified, checked, refuted, undefined, inconsistent, "
                                    "conditional, argued), where the proof breaks, and the repaired route (runs the "
                                    "quick ledger, about 40 s). With --node ID --at JSON, evaluate one node's relation "
                                    "at a point instead, e.g. --node Tk_lowv2 --at '{\"K\": 3, \"T\": [2, 9, 2], "
                                    "...}' (a witness's params, or the whole witness).")
    pf.add_argument("--json", action="store_true", help="print the nodes as JSON: id, label, location, statement, "
                                                       "status, uses, witness, and proof and broken_at")
    pf.add_argument("--node", metavar="ID", help="a node's id or LaTeX label (or a claim ID)")
    pf.add_argument("--at", metavar="JSON", help="the point: K, n, sigma0_sq, sigma_sq, delta or nu_sq, T, means, k")
    pf.add_argument("--workers", type=integer(1, 256), help="processes the claims run in (default: every core)")
    pf.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    b = sub.add_parser("bound", help="evaluate a bound of the paper, with its terms",
                       description="Evaluate a named formula: rue-verify bound theorem_5_1 --K 100 --n 1e6 "
                                   "--sigma0-sq 1 --sigma-sq 0.1 --delta 0.01. Parameters are --NAME VALUE (hyphens "
                                   "or underscores); list parameters take comma-separated numbers (--T 2,5,3).")
    b.add_argument("name", nargs="?", help="formula name (see --list)")
    b.add_argument("--list", action="store_true", help="list every formula with its paper label and parameters")
    b.add_argument("--symbolic", action="store_true", help="print the sympy expression")
    b.add_argument("--latex", action="store_true", help="print the LaTeX of the expression")
    b.add_argument("--json", action="store_true", help="print the value (or terms, or the reason it is undefined) "
                                                       "as JSON")

    v = sub.add_parser("vacuity", help="smallest n at which Theorem 5.1 or 5.2 falls below 1",
                       description="Search n for the first value at which a bound of Section 5 is below 1.")
    v.add_argument("--K", type=integer(2, MAX_K), required=True, help="number of arms (2..1e4)")
    v.add_argument("--sigma0-sq", type=real(0, None, open_low=True), help="prior variance sigma0^2 (> 0)")
    alias(v, "--sigma0_sq", "sigma0_sq", type=real(0, None, open_low=True))
    v.add_argument("--sigma-sq", type=real(0, None, open_low=True), help="likelihood variance sigma^2 (> 0)")
    alias(v, "--sigma_sq", "sigma_sq", type=real(0, None, open_low=True))
    v.add_argument("--map", action="store_true", help="the smallest n over a grid of sigma0_sq x sigma_sq")
    v.add_argument("--delta", type=real(0, 1, open_low=True), required=True, help="delta = nu^2 / sigma^2, in (0, 1]")
    v.add_argument("--bound", default="theorem_5_1", choices=["theorem_5_1", "theorem_5_2"], help="which bound")
    v.add_argument("--n-max", type=integer(2, 10 ** 15), default=10 ** 12, help="largest n searched (default 1e12)")
    v.add_argument("--json", action="store_true", help="print the result as JSON")

    sm = sub.add_parser("simulate", help="run RUE and its baselines on a benchmark environment",
                        description="Monte Carlo error rates (exact binomial intervals) and simple regret of the "
                                    "algorithms on setup F1-F6 (fixed means), R1-R3 (random means) or your own means.")
    sm.add_argument("--setup", type=_setup, help="F1..F6 or R1..R3 (default F1; case does not matter)")
    sm.add_argument("--means", type=reals(min_items=2), help="custom arm means, comma-separated (K is their number; "
                                                             "Bernoulli means must lie in [0, 1])")
    sm.add_argument("--means-file", metavar="PATH", help="a file of custom means (separated by commas, spaces or "
                                                         "newlines)")
    sm.add_argument("--K", type=integer(2, MAX_K), help="number of arms (default 20; taken from --means if given)")
    sm.add_argument("--budget", type=_budget, default="H", help="an integer (1e4 works), or H/2, H, 2H (fixed or "
                                                                "custom means; default H)")
    sm.add_argument("--algorithms", type=algorithm_names(algs),
                    help="comma-separated names (default: every algorithm in the registry: " + ", ".join(algs) + "); "
                         "an algorithm of your own as module:NAME or path/to/file.py:NAME (see "
                         "simulate.algorithms.external), or an installed entry point")
    sm.add_argument("--runs", type=integer(1, MAX_RUNS), default=1000, help="runs per algorithm (default 1000)")
    sm.add_argument("--seed", type=seed, default=0, help="master seed (default 0)")
    sm.add_argument("--reward", default=None, choices=["bernoulli", "gaussian"],
                    help="reward law (default: the setup's own, Gaussian for R1 and Bernoulli otherwise)")
    sm.add_argument("--nu-sq", type=real(0, 1e6, open_low=True), default=None,
                    help="Gaussian reward noise variance (default: the setup's own, 1 for R1, else 0.25)")
    alias(sm, "--nu_sq", "nu_sq", type=real(0, 1e6, open_low=True))
    sm.add_argument("--normal-scale", default="variance", choices=["variance", "sd"],
                    help="reading of N(0.5, 0.1) in R1/R2: variance 0.1 or standard deviation 0.1")
    sm.add_argument("--clip-policy", default="redraw", choices=["redraw", "clip", "error"],
                    help="Bernoulli means drawn outside [0, 1] (R2): redraw, clip, or stop")
    sm.add_argument("--H-convention", default="suboptimal", choices=["suboptimal", "section2"],
                    help="H for budgets and UCB-E: over suboptimal arms (authors' code) or Section 2's")
    if full:
        algorithm_flags(sm)
    sm.add_argument("--workers", type=integer(1, 1024), help="threads (default: all cores; results do not depend "
                                                             "on it)")
    sm.add_argument("--crn", action="store_true", help="common random numbers: every algorithm sees the same "
                                                      "reward stream of each arm")
    sm.add_argument("--level", type=real(0, 1, open_low=True, open_high=True), default=0.95,
                    help="interval level, in (0, 1) (default 0.95)")
    sm.add_argument("--json", action="store_true", help="print every parameter and result as JSON")
    sm.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    bn = sub.add_parser("bench", help="throughput of the compiled kernels and the numpy references")
    bn.add_argument("--algorithms", type=names(("rue", "rue-known") + algs[1:]),
                    help="comma-separated subset (default: all)")
    bn.add_argument("--reference-seconds", type=real(0, 3600), default=3.0, help="time budget per numpy reference")
    bn.add_argument("--repeats", type=integer(1, 100), default=3,
                    help="timings per compiled kernel, interleaved across kernels; the best is reported, the "
                         "slowest in brackets (default 3)")
    bn.add_argument("--json", action="store_true", help="every row (timings, host checks) as JSON on stdout; the "
                                                        "table goes to stderr")
    bn.add_argument("--commands", action="store_true",
                    help="time the README's commands instead (claims, report --quick; cold and warm numba cache; wall "
                         "time and CPU utilisation), each in a fresh process")
    bn.add_argument("--thorough", action="store_true", help="with --commands: also time claims --thorough")
    bn.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    tb = sub.add_parser("table", help="error table of every algorithm on fixed setups (Section 6.2's design)")
    tb.add_argument("--setups", type=names(F_SETUPS, str.upper), default=["F1", "F2", "F3"],
                    help="comma-separated fixed setups (default F1,F2,F3)")
    tb.add_argument("--budgets", type=_budgets, default=list(BUDGET_LABELS),
                    help=f"comma-separated budgets: integers or {', '.join(BUDGET_LABELS)} (default all)")
    tb.add_argument("--K", type=integer(2, MAX_K), default=20, help="number of arms (default 20)")
    tb.add_argument("--runs", type=integer(1, MAX_RUNS), default=1000, help="runs per cell (default 1000)")
    tb.add_argument("--seed", type=seed, default=0, help="master seed (default 0)")
    tb.add_argument("--out", help="directory for fixed-setups.md and fixed-setups.json (e.g. docs)")
    tb.add_argument("--json", action="store_true", help="print the table as JSON")
    tb.add_argument("-q", "--quiet", action="store_true", help="no progress bar")

    rr = sub.add_parser("report", help="the ledger and every figure in one page (index.html, report.md, figures)",
                        description="Run the claims ledger and draw every figure family (the paper's bounds against "
                                    "the exact truth and simulation, the reproduction of Section 6) into a static "
                                    "HTML page that works from the file system, with the same content in Markdown.")
    rsize = rr.add_mutually_exclusive_group()
    rsize.add_argument("--quick", action="store_true", help="fewer simulated runs (the default; about 2 minutes)")
    rsize.add_argument("--full", action="store_true", help="10x the simulated runs (about 10 minutes)")
    rr.add_argument("--out", default="report", help="output directory (default ./report)")
    rr.add_argument("--thorough", action="store_true", help="run the ledger in thorough mode")
    rr.add_argument("--results", metavar="DIR", help="a reproduction's result directory (default: the paper-scale "
                                                     "results shipped with the package)")
    rr.add_argument("--rates", metavar="DIR", help="a rate study's directory (default: the paper-scale study shipped "
                                                   "with the package)")
    rr.add_argument("--seed", type=seed, default=0, help="seed of the figures' simulations (default 0)")
    rr.add_argument("--workers", type=integer(1, 256), help="processes the claims and figures run in (default: every "
                                                            "core; the results do not depend on it)")
    rr.add_argument("--json", action="store_true", help="print what was written as JSON")
    rr.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    rt = sub.add_parser("rates", help="the rate study: Bayesian failure probability and simple regret under the model, "
                                      "and their exponents in n and K",
                        description="Estimate every algorithm's Bayesian failure probability and simple regret "
                                    "under the model of Section 3 (means from the Gaussian prior, Gaussian rewards) "
                                    "over budgets spanning decades and several (K, sigma0^2, sigma^2), with "
                                    "conditional (Rao-Blackwell) estimators on common random numbers, into a "
                                    "resumable result directory; print the fitted exponents. The ledger and the "
                                    "report read the paper-scale study shipped with the package unless given "
                                    "--rates DIR.")
    rsize = rt.add_mutually_exclusive_group()
    rsize.add_argument("--quick", action="store_true", help="400 runs, budgets to 1e5 (the default; about 1.5 minutes "
                                                            "on 2 cores)")
    rsize.add_argument("--paper", action="store_true", help="the shipped study: 4000 runs, budgets to 1e6, K to 100 "
                                                            "(about 33 minutes on 2 cores)")
    rt.add_argument("--out", help="result directory (default rates-quick or rates-paper); rerunning resumes")
    rt.add_argument("--show", metavar="DIR", help="print the exponents of a stored study (a directory, or 'shipped') "
                                                  "without simulating")
    _sweep_flags(rt, "print the exponents as JSON")
    rp = sub.add_parser("reproduce", help="rerun Section 6 and its appendix; figures, tables and the empirical claims",
                        description="Run the experimental section of the paper (Figures 2-5) into a result directory "
                                    "(results.csv, PNG/SVG figures, summary.md with the empirical claims' verdicts). "
                                    "A killed run resumes where it stopped when the same command is run again.")
    size = rp.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="fewer runs and instances (the default; about 2 minutes)")
    size.add_argument("--paper", action="store_true", help="the paper's scale (about 15-20 minutes on 2 cores)")
    rp.add_argument("--out", help="result directory (default reproduction-quick or reproduction-paper)")
    rp.add_argument("--conventions", type=names(("project", "authors")), default=["project", "authors"],
                    help="index-tie conventions to run: project (random ties) and/or authors (lowest index in SH and "
                         "two-stage, as the authors' code); default both")
    rp.add_argument("--studies", type=names(("fixed", "random", "arms", "two-stage")),
                    help="comma-separated subset of fixed, random, arms, two-stage (default all)")
    rp.add_argument("--algorithms", type=algorithm_names(algs),
                    help="comma-separated algorithms run on the fixed, random and arms studies (default the "
                         "paper's: rue, ucbe, sr, sh, ttts): registry names, module:NAME, path/to/file.py:NAME or "
                         "installed entry points")
    rp.add_argument("--redraw", action="store_true",
                    help="draw the figures and write summary.md from stored results without simulating (the results "
                         "in --out, or --results DIR, or --results shipped for the paper-scale run in the package)")
    rp.add_argument("--results", metavar="DIR", help="with --redraw: where the results are ('shipped' for the "
                                                     "package's)")
    _sweep_flags(rp, "print what was written as JSON")
    return p


def _sweep_flags(p, json_help: str) -> None:
    """The flags every sweep command (reproduce, rates) shares: where it runs, how it waits, its seed
    and output."""
    p.add_argument("--scheduler", metavar="ADDR", help="a Dask scheduler address (tcp://host:8786): run the tasks on "
                                                       "that cluster; results are identical to a local run")
    p.add_argument("--wait", action="store_true", help="if another run is writing the same --out directory, wait "
                                                       "for it to end and then run what is left (default: refuse)")
    p.add_argument("--seed", type=integer(0, 2 ** 63 - 1), default=0, help="master seed (default 0)")
    p.add_argument("--json", action="store_true", help=json_help)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


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


_KEPT = {"reproduce": "finished rows are kept (a rerun of the same command resumes)",
         "rates": "finished rows are kept (a rerun of the same command resumes)",
         "report": "the previous report, if there was one, is unchanged",
         "claims": "nothing was written", "table": "nothing was written"}


def _interrupted(argv) -> int:
    """Ctrl-C: one line saying what is on disk. Rows are appended whole, files and the report's
    directory renamed into place only when complete."""
    words = list(sys.argv[1:] if argv is None else argv)
    cmd = next((w for w in words if not w.startswith("-")), "")
    print(f"interrupted; {_KEPT.get(cmd, 'nothing was written')}", file=sys.stderr)
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
    parser = build_parser(full=any(w in REGISTRY_COMMANDS for w in words))
    try:
        args, extra = parser.parse_known_args(argv)
    except SystemExit as exc:               # --help, --version (0) or a parse error (2, one line printed)
        return int(exc.code or 0)
    if args.cmd != "bound" and extra:
        return _fail(f"unrecognized arguments: {' '.join(extra)} (see 'rue-verify {args.cmd} --help')")
    handler = {"claims": _claims, "proofs": _proofs, "simulate": _simulate, "bench": _bench, "table": _table,
               "reproduce": _reproduce, "vacuity": _vacuity, "report": _report, "rates": _rates}
    if args.cmd in ("claims", "simulate", "bench", "table", "reproduce", "report", "rates") and \
            not getattr(args, "show", None):            # rates --show reads a store and compiles nothing
        _say_if_compiling(getattr(args, "quiet", False) or getattr(args, "json", False))
    if args.cmd == "bound":
        return _bound(args, extra)
    return handler[args.cmd](args)


if __name__ == "__main__":
    raise SystemExit(main())

