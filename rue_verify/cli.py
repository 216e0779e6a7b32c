"""The `rue-verify` command line. Thin: every subcommand is a library call.

  rue-verify claims [--json] [--id ID ...] [--thorough] [--seed N]
  rue-verify bound NAME [--symbolic | --latex] [--PARAM VALUE ...]      (rue-verify bound --list)
  rue-verify vacuity --K K --sigma0_sq S0 --sigma_sq S --delta D [--bound theorem_5_1] [--n-max N]
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from typing import Any, Sequence

from . import __version__


def _claims(args: argparse.Namespace) -> int:
    from .ledger import Mode, run_ledger
    mode = Mode.thorough() if args.thorough else Mode()
    if args.seed is not None:
        mode.seed = args.seed
    mode.results = args.results
    from tqdm import tqdm

    from .ledger import REGISTRY
    t0 = time.perf_counter()
    ids = args.id or list(REGISTRY)
    bar = tqdm(total=len(ids), desc="claims", file=sys.stderr, disable=True if args.quiet else None,
               leave=False)

    def progress(cid: str) -> None:      # called before each claim
        if bar.n or cid != ids[0]:
            bar.update(1)
        bar.set_postfix_str(cid)
    try:
        results = run_ledger(mode, ids, progress=progress)
    except ValueError as err:
        bar.close()
        print(f"error: {err}", file=sys.stderr)
        return 2
    bar.close()
    total = time.perf_counter() - t0
    if args.markdown:
        from .reports import claims_markdown
        claims_markdown(results, mode, total, args.markdown)
        print(f"wrote {args.markdown}", file=sys.stderr)
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=2))
        return 0
    print(f"rue-verify {__version__} claims ledger: mode={mode.name}, seed={mode.seed}, "
          f"K up to {mode.K_max}, {mode.random_samples} random samples per search, "
          f"{mode.sim_runs} simulated runs per point; {total:.1f} s")
    w = max(len(r.id) for r in results)
    for r in results:
        line = f"{r.id:<{w}}  {r.verdict:<12}  "
        body = textwrap.wrap(r.summary, 100 - len(line)) or [""]
        print(line + body[0])
        for b in body[1:]:
            print(" " * len(line) + b)
        if args.verbose:
            for f in r.findings:
                print(" " * 4 + f"- [{f.verdict}{', certified' if f.certified else ''}] {f.domain}: {f.detail}")
                if f.witness:
                    print(" " * 6 + "witness: " + json.dumps(f.witness))
    counts: dict[str, int] = {}
    for r in results:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
    print("verdicts: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + f"; total {total:.1f} s")
    return 0


def _parse_value(v: str) -> Any:
    if "," in v:
        return [float(x) for x in v.split(",")]
    f = float(v)
    return int(f) if f.is_integer() and "." not in v and "e" not in v.lower() else f


def _bound(args: argparse.Namespace, extra: list[str]) -> int:
    from bounds import UndefinedError
    from bounds.registry import REGISTRY, evaluate, symbolic
    if args.list or not args.name:
        for k, e in REGISTRY.items():
            print(f"{k:<26} {e.label:<44} params: {', '.join(e.params)}")
        return 0
    if args.name not in REGISTRY:
        print(f"error: unknown bound {args.name!r}; run 'rue-verify bound --list'", file=sys.stderr)
        return 2
    if args.symbolic or args.latex:
        import sympy
        try:
            expr = symbolic(args.name)
        except ValueError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        items = expr.items() if isinstance(expr, dict) else [(args.name, expr)]
        for k, e in items:
            print(f"{k}: " + (sympy.latex(e) if args.latex else str(e)))
        return 0
    params: dict[str, Any] = {}
    it = iter(extra)
    for tok in it:
        if not tok.startswith("--"):
            print(f"error: expected --PARAM VALUE, got {tok!r}", file=sys.stderr)
            return 2
        try:
            params[tok[2:]] = _parse_value(next(it))
        except StopIteration:
            print(f"error: {tok} needs a value", file=sys.stderr)
            return 2
        except ValueError:
            print(f"error: {tok} needs a number (or comma-separated numbers)", file=sys.stderr)
            return 2
    entry = REGISTRY[args.name]
    unknown = [p for p in params if p not in entry.params]
    if unknown:
        print(f"error: {args.name} takes {', '.join('--' + p for p in entry.params)}; unknown {unknown}",
              file=sys.stderr)
        return 2
    try:
        val = evaluate(args.name, **params)
    except UndefinedError as err:
        print(f"{args.name} ({entry.label}) at {params}: undefined: {err.reason}")
        return 0
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"{args.name} ({entry.label}) at {params}:")
    if isinstance(val, dict):
        for k, v in val.items():
            print(f"  {k:<14} {float(v):.10g}")
        print(f"  {'total':<14} {float(sum(val.values())):.10g}")
    elif hasattr(val, "_fields"):
        for k in val._fields:
            print(f"  {k}: {getattr(val, k)}")
    else:
        print(f"  {float(val):.10g}" if not hasattr(val, "__len__") else f"  {val}")
    return 0


def _vacuity(args: argparse.Namespace) -> int:
    from bounds.vacuity import smallest_informative_n, vacuity_map
    if args.map:
        import numpy as np
        g0 = np.geomspace(1e-3, 1e2, 6)
        g = np.geomspace(1e-3, 1e2, 6)
        try:
            m = vacuity_map(args.K, args.delta, g0, g, args.bound, args.n_max)
        except ValueError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        print(f"{args.bound}: smallest n with bound < 1 (K={args.K}, delta={args.delta:g}, n <= {args.n_max:g}; "
              "'never' where it stays >= 1 or is undefined)")
        print("sigma0_sq \\ sigma_sq " + "".join(f"{x:>11.3g}" for x in g))
        for i, s0 in enumerate(g0):
            print(f"{s0:>20.3g} " + "".join(f"{('never' if v < 0 else str(int(v))):>11}" for v in m[i]))
        return 0
    if args.sigma0_sq is None or args.sigma_sq is None:
        print("error: --sigma0_sq and --sigma_sq are required without --map", file=sys.stderr)
        return 2
    try:
        r = smallest_informative_n(args.K, args.sigma0_sq, args.sigma_sq, args.delta, args.bound, args.n_max)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    where = f"K={r.K}, sigma0_sq={r.sigma0_sq:g}, sigma_sq={r.sigma_sq:g}, delta={r.delta:g}"
    if r.n_first is None:
        print(f"{r.bound} at {where}: never below 1 for n <= {r.n_max:g} ({r.reason})")
    else:
        print(f"{r.bound} at {where}: first below 1 at n = {r.n_first} (value {r.value_at_n_first:.6g}); "
              f"stays below 1 up to n_max = {r.n_max:g}: {r.stays_below}")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from simulate.algorithms import REGISTRY
    from simulate.environments import Environment
    from simulate.runner import simulate
    algs = []
    for a in (args.algorithms.split(",") if args.algorithms else REGISTRY):
        params: dict[str, Any] = {}
        if a == "rue" and args.rue_variances:
            params["variances"] = args.rue_variances
        if a == "ucbe":
            params["c"] = args.ucbe_c
        if a == "two-stage":
            params["q"] = args.q
        algs.append((a.strip(), params))
    try:
        env = Environment(args.setup, args.K, args.reward, args.nu_sq, args.normal_scale, args.clip_policy)
        res = simulate(env, algs, args.budget, args.runs, args.seed, workers=args.workers, crn=args.crn,
                       level=args.level, H_convention=args.H_convention, progress=not args.quiet)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(res.to_json(), indent=2))
        return 0
    print(f"rue-verify {res.version} simulate: {res.environment}, n = {res.budget}, runs = {res.runs}, "
          f"seed = {res.seed}, crn = {res.crn}, {int(res.level * 100)}% intervals"
          + (f", {res.clipped_means} means redrawn/clipped" if res.clipped_means else ""))
    print(f"{'algorithm':<10} {'error rate':>10}  {'interval':<19} {'simple regret':>13}  {'interval':<21} "
          f"{'wall s':>7}")
    for r in res.results:
        print(f"{r.algorithm:<10} {r.error_rate:>10.4f}  [{r.ci_low:.4f}, {r.ci_high:.4f}]  {r.simple_regret:>13.5f}  "
              f"[{r.regret_ci_low:.5f}, {r.regret_ci_high:.5f}] {r.wall_seconds:>7.2f}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from simulate.bench import NAMES, bench
    names = args.algorithms.split(",") if args.algorithms else NAMES
    try:
        rows = bench(names, reference_seconds=args.reference_seconds, repeats=args.repeats,
                     progress=not args.quiet)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


def _reproduce(args: argparse.Namespace) -> int:
    from .reproduce import reproduce
    scale = "paper" if args.paper else "quick"
    try:
        res = reproduce(scale, args.out, args.conventions.split(","), args.seed, args.scheduler,
                        args.studies.split(",") if args.studies else None, progress=not args.quiet)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({k: res[k] for k in ("out", "tasks", "wall_seconds", "figures", "summary")}, indent=2))
        return 0
    print(f"rue-verify {__version__} reproduce: {res['tasks']} tasks at {scale} scale, seed {args.seed}, conventions "
          f"{args.conventions}; simulation {res['wall_seconds']:.0f} s. Wrote {res['out']}/results.csv, "
          f"{res['summary']} and {len(res['figures'])} figure files.")
    return 0


def _table(args: argparse.Namespace) -> int:
    from .reports import fixed_setup_table
    out = fixed_setup_table(args.setups.split(","), args.budgets.split(","), args.K, args.runs, args.seed,
                            out_dir=args.out, progress=not args.quiet)
    for r in out["rows"]:
        print(f"{r['setup']} {r['budget']:>3} n={r['n']:<6} {r['algorithm']:<10} {r['error_rate']:.4f} "
              f"[{r['ci_low']:.4f}, {r['ci_high']:.4f}]  {r['wall_seconds']:.1f} s")
    print(f"runs={args.runs} seed={args.seed} K={args.K}; total wall time {out['wall_seconds']:.1f} s"
          + (f"; written to {args.out}" if args.out else ""))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rue-verify",
        description="Check the quantitative claims of Zhu & Qiu (TMLR 2024), 'UCB Exploration for "
                    "Fixed-Budget Bayesian Best Arm Identification' (RUE).",
        epilog="Every verdict is computed (a search, an integral, a proof or a simulation); nothing is typed in.")
    p.add_argument("--version", action="version", version=f"rue-verify {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("claims", help="compute a verdict for every theory claim of CLAIMS.md",
                       description="Run the claims ledger. The quick default takes a few minutes on 2 cores.")
    c.add_argument("--json", action="store_true", help="print the JSON list that CLAIMS.md specifies")
    c.add_argument("--id", nargs="+", metavar="ID", help="only these claim IDs (e.g. THM-GAP LEM-TAU-LOWER)")
    c.add_argument("--thorough", action="store_true", help="10x more random samples and simulated runs")
    c.add_argument("--seed", type=int, help="seed for every search and simulation (default 20241001)")
    c.add_argument("-v", "--verbose", action="store_true", help="print every finding and witness")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    c.add_argument("--results", metavar="DIR", help="a reproduction's result directory for the empirical claims "
                                                    "(default: docs/reproduction, else the quick grid)")
    c.add_argument("--markdown", metavar="PATH", help="also write a Markdown report (e.g. docs/claims.md)")
    b = sub.add_parser("bound", help="evaluate a bound of the paper, with its terms",
                       description="Evaluate a named bound: rue-verify bound theorem_5_1 --K 100 --n 1e6 "
                                   "--sigma0_sq 1 --sigma_sq 0.1 --delta 0.01. Lists use commas: --means 0.5,0.45.")
    b.add_argument("name", nargs="?", help="bound name (see --list)")
    b.add_argument("--list", action="store_true", help="list every bound with its paper label and parameters")
    b.add_argument("--symbolic", action="store_true", help="print the sympy expression")
    b.add_argument("--latex", action="store_true", help="print the LaTeX of the expression")
    sm = sub.add_parser("simulate", help="run RUE and its baselines on a benchmark environment",
                        description="Monte Carlo error rates (exact binomial intervals) and simple regret of the "
                                    "algorithms on setup F1-F6 (fixed means) or R1-R3 (random means).")
    sm.add_argument("--setup", default="F1", help="F1..F6 or R1..R3 (default F1)")
    sm.add_argument("--K", type=int, default=20, help="number of arms (default 20)")
    sm.add_argument("--budget", default="H", help="an integer, or H/2, H, 2H (fixed setups; default H)")
    sm.add_argument("--algorithms", help="comma-separated names (default: every algorithm in the registry: rue, "
                                         "ucbe, sr, sh, ttts, two-stage, uniform)")
    sm.add_argument("--runs", type=int, default=1000)
    sm.add_argument("--seed", type=int, default=0)
    sm.add_argument("--reward", default=None, choices=["bernoulli", "gaussian"],
                    help="reward law (default: the setup's own, Gaussian for R1 and Bernoulli otherwise)")
    sm.add_argument("--nu_sq", type=float, default=1.0, help="Gaussian reward noise variance (default 1)")
    sm.add_argument("--normal-scale", default="variance", choices=["variance", "sd"],
                    help="reading of N(0.5, 0.1) in R1/R2: variance 0.1 or standard deviation 0.1")
    sm.add_argument("--clip-policy", default="redraw", choices=["redraw", "clip", "error"],
                    help="Bernoulli means drawn outside [0, 1] (R2): redraw, clip, or stop")
    sm.add_argument("--H-convention", default="suboptimal", choices=["suboptimal", "section2"],
                    help="H for budgets and UCB-E: over suboptimal arms (authors' code) or Section 2's")
    sm.add_argument("--rue-variances", choices=["authors", "unbiased"], help="RUE's sigma0^2 estimator")
    sm.add_argument("--ucbe-c", type=float, default=2.0, help="UCB-E's a = c n / H (default 2)")
    sm.add_argument("--q", type=float, default=0.5, help="two-stage algorithm's first-stage fraction")
    sm.add_argument("--workers", type=int, help="threads (default: all cores; results do not depend on it)")
    sm.add_argument("--crn", action="store_true", help="common random numbers across algorithms")
    sm.add_argument("--level", type=float, default=0.95, help="interval level (default 0.95)")
    sm.add_argument("--json", action="store_true")
    sm.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    bn = sub.add_parser("bench", help="throughput of the compiled kernels and the numpy references")
    bn.add_argument("--algorithms", help="comma-separated subset (default: all; an unknown name is an error that "
                                         "lists the choices)")
    bn.add_argument("--reference-seconds", type=float, default=3.0, help="time budget per numpy reference")
    bn.add_argument("--repeats", type=int, default=3,
                    help="timings per compiled kernel, interleaved across kernels; the best is reported, the "
                         "slowest in brackets (default 3)")
    bn.add_argument("--json", action="store_true", help="after the table, every row (timings, host checks) as JSON")
    bn.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    rp = sub.add_parser("reproduce", help="rerun Section 6 and its appendix; figures, tables and the empirical claims",
                        description="Run the experimental section of the paper (Figures 2-5) into a result directory "
                                    "(results.csv, PNG/SVG figures, summary.md with the empirical claims' verdicts). "
                                    "A killed run resumes where it stopped when the same command is run again.")
    size = rp.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="fewer runs and instances (the default; about 2 minutes)")
    size.add_argument("--paper", action="store_true", help="the paper's scale (about 15-20 minutes on 2 cores)")
    rp.add_argument("--out", help="result directory (default reproduction-quick or reproduction-paper)")
    rp.add_argument("--conventions", default="project,authors",
                    help="index-tie conventions to run, comma-separated: project (random ties) and/or authors "
                         "(lowest index in SH and two-stage, as the authors' code); default both")
    rp.add_argument("--studies", help="comma-separated subset of fixed, random, arms, two-stage (default all)")
    rp.add_argument("--scheduler", metavar="ADDR", help="a Dask scheduler address (tcp://host:8786): run the tasks "
                                                        "on that cluster; results are identical to a local run")
    rp.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    rp.add_argument("--json", action="store_true", help="print what was written as JSON")
    rp.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    tb = sub.add_parser("table", help="error table of every algorithm on fixed setups (Section 6.2's design)")
    tb.add_argument("--setups", default="F1,F2,F3")
    tb.add_argument("--budgets", default="H/2,H,2H")
    tb.add_argument("--K", type=int, default=20)
    tb.add_argument("--runs", type=int, default=1000)
    tb.add_argument("--seed", type=int, default=0)
    tb.add_argument("--out", help="directory for fixed-setups.md and fixed-setups.json (e.g. docs)")
    tb.add_argument("-q", "--quiet", action="store_true")
    v = sub.add_parser("vacuity", help="smallest n at which Theorem 5.1 or 5.2 falls below 1")
    v.add_argument("--K", type=int, required=True)
    v.add_argument("--sigma0_sq", type=float)
    v.add_argument("--sigma_sq", type=float)
    v.add_argument("--map", action="store_true", help="the smallest n over a grid of sigma0_sq x sigma_sq")
    v.add_argument("--delta", type=float, required=True)
    v.add_argument("--bound", default="theorem_5_1", choices=["theorem_5_1", "theorem_5_2"])
    v.add_argument("--n-max", type=int, default=10 ** 12)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:                 # e.g. `rue-verify bound --list | head`
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.cmd != "bound" and extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.cmd == "claims":
        return _claims(args)
    if args.cmd == "bound":
        return _bound(args, extra)
    if args.cmd == "simulate":
        return _simulate(args)
    if args.cmd == "bench":
        return _bench(args)
    if args.cmd == "table":
        return _table(args)
    if args.cmd == "reproduce":
        return _reproduce(args)
    return _vacuity(args)


if __name__ == "__main__":
    raise SystemExit(main())
