"""The command line's commands: one table (`COMMANDS`: what each command is, whether it compiles
kernels, what an interrupted run leaves on disk) and the parser built from it, with the flags that
are generated (the algorithms' parameters from their registry) or parsed here (setups, budgets, a
formula's --PARAM VALUE pairs, custom means). `cli` only dispatches, calls and prints.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from simulate.environments import F_SETUPS, FIXED_BUDGETS, MODEL, R_SETUPS

from .. import __version__
from ..studies.command_timing import HOST_CLASS, WAITS
from ..verify.claims import Mode
from .args import Parser, algorithm_names, alias, integer, names, processes, real, reals

#: parameters set for every algorithm at once by a flag of their own (--H-convention also sets the budgets)
SHARED_PARAMS = ("H_convention",)
#: earlier spellings of generated algorithm flags (still accepted, not shown)
OLD_FLAGS = {"--q": "two-stage:q", "--sigma0-sq": "rue:sigma0_sq", "--sigma-sq": "rue:sigma_sq"}
BUDGET_LABELS = tuple(FIXED_BUDGETS)
MAX_RUNS = 10 ** 7
MAX_K = 10 ** 4
MAX_BUDGET = 10 ** 9


@dataclass(frozen=True)
class Command:
    """A subcommand: whether it may compile the simulator's kernels (it says so first), whether its
    flags come from the algorithm registry (which loads numba), and what an interrupted run keeps."""

    compiles: bool = False
    registry: bool = False
    kept: str = "nothing was written"


_RESUMES = "finished rows are kept (a rerun of the same command resumes)"
#: every subcommand; `build_parser` defines their flags, `cli.HANDLERS` their handlers
COMMANDS = {"claims": Command(compiles=True), "proofs": Command(), "bound": Command(), "vacuity": Command(),
            "simulate": Command(compiles=True, registry=True), "bench": Command(compiles=True, registry=True),
            "table": Command(compiles=True), "report": Command(compiles=True, kept="the previous report, if there "
                                                                                 "was one, is unchanged"),
            "rates": Command(compiles=True, kept=_RESUMES),
            "reproduce": Command(compiles=True, registry=True, kept=_RESUMES), "check-bound": Command(compiles=True),
            "erratum": Command(compiles=True), "decide": Command(), "new-paper": Command()}


def names_free(text: str) -> list[str]:
    """A comma-separated list of names of anything (files, modules), none empty."""
    items = [x.strip() for x in text.split(",") if x.strip()]
    if not items:
        raise argparse.ArgumentTypeError("expected a comma-separated list")
    return items


def your_bounds(text: str) -> list[tuple[str, str]]:
    """Comma-separated QUANTITY=FILE.py:NAME pairs (QUANTITY failure or regret)."""
    out = []
    for item in names_free(text):
        q, sep, spec = item.partition("=")
        if not sep or q not in ("failure", "regret") or ":" not in spec:
            raise argparse.ArgumentTypeError(f"expected failure=FILE.py:NAME or regret=FILE.py:NAME, got {item!r}")
        out.append((q, spec))
    return out


def setup_name(text: str) -> str:
    """A setup name in any case (F1..F6, R1..R3, custom)."""
    t = text.strip()
    up = t.upper()
    if up in F_SETUPS + R_SETUPS + (MODEL,):
        return up
    if t.lower() == "model":
        return MODEL
    if t.lower() == "custom":
        return "custom"
    raise argparse.ArgumentTypeError(f"unknown setup {text!r}; choose from {', '.join(F_SETUPS + R_SETUPS + (MODEL,))} "
                                     "(or give --means)")


def budget(text: str) -> str | int:
    """A budget: an integer (1e4 works) or a label of the fixed setups' budgets (H/2, H, 2H)."""
    t = text.strip().upper()
    if t in BUDGET_LABELS:
        return t
    try:
        return integer(1, MAX_BUDGET)(text)
    except argparse.ArgumentTypeError as err:
        raise argparse.ArgumentTypeError(f"{err} (or one of {', '.join(BUDGET_LABELS)})") from None


def budgets(text: str) -> list:
    """A comma-separated list of budgets."""
    items = [budget(x) for x in text.split(",") if x.strip()]
    if not items:
        raise argparse.ArgumentTypeError("expected a comma-separated list of budgets")
    return items


def means_of(args: argparse.Namespace) -> list[float] | None:
    """The custom means of `simulate` (--means, or read from --means-file), None if neither is given."""
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


def formula_params(entry, extra: list[str]) -> dict:
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


# ---------------------------------------------------------------- the algorithms' flags
def registry():
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
    for alg in registry().values():
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
        p = next(p for p in registry()[name].params if p.name == param)
        alias(parser, old, dest, type=_param_type(p))


def algorithm_params(args: argparse.Namespace, name: str) -> dict:
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


def unused_algorithm_flags(args: argparse.Namespace, selected: list[str]) -> str | None:
    """Why an algorithm's flag given on the command line would be ignored (None: none is): a
    `--ALG-PARAM` of an algorithm not among `selected`, or a `--PARAM` that no selected algorithm takes.
    A flag that does nothing is refused, never silently dropped."""
    from simulate.algorithms import get
    takes = {p.name for a in selected for p in get(a).params}
    for key, value in vars(args).items():
        if value is None or ":" not in key:
            continue
        alg, _, param = key.partition(":")
        flag = f"--{alg}-{_flag(param)}" if alg != "*" else f"--{_flag(param)}"
        if alg != "*" and alg not in selected:
            return (f"{flag}: {alg} is not among the algorithms run ({', '.join(selected)}); give it to one of them "
                    f"(--{selected[0]}-{_flag(param)}) or add {alg} to --algorithms")
        if alg == "*" and param not in takes:
            return f"{flag}: none of the algorithms run ({', '.join(selected)}) takes {param}"
    return None


# ---------------------------------------------------------------- the parser
#: a seed: any non-negative 63-bit integer
SEED = integer(0, 2 ** 63 - 1)


def build_parser(full: bool = True) -> argparse.ArgumentParser:
    """The parser; with `full` False the registry-derived flags (of the commands whose `COMMANDS` entry
    says `registry`) are left out, so --help and --version do not load numba."""
    algs = tuple(registry()) if full else ()
    p = Parser(prog="rue-verify",
               description="Check the quantitative claims of a paper: by default Zhu & Qiu (TMLR 2024), 'UCB "
                           "Exploration for Fixed-Budget Bayesian Best Arm Identification' (RUE); your own with "
                           "--paper FILE.py after the command (claims, proofs, report, erratum), a file that "
                           "'rue-verify new-paper NAME' starts for you.",
               epilog="Every verdict is computed (a search, an integral, a proof or a simulation); nothing is typed "
                      "in. Lists are comma-separated; integers may be written as 1e4.")
    p.add_argument("--version", action="version", version=f"rue-verify {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    _claims_command(sub)
    _erratum_command(sub)
    _decide_command(sub)
    _proofs_command(sub)
    _bound_command(sub)
    _check_bound_command(sub)
    _vacuity_command(sub)
    _simulate_command(sub, algs)
    _bench_command(sub, algs)
    _table_command(sub)
    _report_command(sub)
    _rates_command(sub)
    _reproduce_command(sub, algs)
    _new_paper_command(sub)
    return p


def _new_paper_command(sub) -> None:
    """The `new-paper` command and its flags."""
    np_ = sub.add_parser("new-paper", help="write NAME.py, a paper file of your own that runs as it stands",
                         description="Write NAME.py: a paper plug-in with one claim of each kind the engine "
                                     "decides (a closed form proved by sympy or z3, a false one refuted with a "
                                     "witness, a bound against the simulator with its tightness, a Monte Carlo "
                                     "refutation whose witness recomputes, a proof resting on claims, a repair), "
                                     "each part to change commented. Then: rue-verify claims --paper NAME.py.")
    np_.add_argument("name", metavar="NAME", help="the paper's name (a letter, then letters, digits, '-' or '_'), "
                                                  "or a path ending in NAME.py")
    np_.add_argument("--dir", default=".", help="the directory to write NAME.py in (default: here)")
    np_.add_argument("--force", action="store_true", help="replace an existing NAME.py")


def _claims_command(sub) -> None:
    """The `claims` command and its flags."""
    c = sub.add_parser("claims", help="compute a verdict for every claim of CLAIMS.md",
                       description="Run the claims ledger (theory and, from the reproduction's results, the "
                                   f"empirical claims). The quick default takes {WAITS['claims']} on {HOST_CLASS}.")
    c.add_argument("--json", action="store_true", help="print the JSON list that CLAIMS.md specifies")
    c.add_argument("--id", nargs="+", metavar="ID", help="only these claim IDs, comma-separated (e.g. "
                                                         "THM-GAP,LEM-TAU-LOWER)")
    _ledger_flags(c, "the claims")
    c.add_argument("--seed", type=SEED, help=f"seed for every search and simulation (default {Mode().seed})")
    c.add_argument("-v", "--verbose", action="store_true", help="print every finding and witness")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    c.add_argument("--markdown", metavar="PATH", help="also write a Markdown report (e.g. docs/claims.md)")


def _erratum_command(sub) -> None:
    """The `erratum` command and its flags."""
    er = sub.add_parser("erratum", help="a LaTeX erratum: every refuted, undefined or inconsistent claim with its "
                                         "witness and its repair, typeset from the checked expressions",
                        description="Run the quick ledger and write DIR/erratum.tex, a standalone LaTeX document: a "
                                    "summary table, then every claim judged refuted, undefined or inconsistent (the "
                                    "statement as printed and where, the verdict, the witness as numbers, the repaired "
                                    "statement with its formula typeset by sympy from the expression the ledger "
                                    "evaluated, and the repair's checks and proof), grouped by theorem, Theorems 3.1, "
                                    "5.1 and 5.2 first, then the provenance and how to cite.")
    er.add_argument("--out", default="erratum", help="directory to write erratum.tex into (default: erratum)")
    er.add_argument("--id", nargs="+", metavar="ID",
                    help="only these claims (comma-separated IDs, as claims --id); the whole ledger still runs, "
                         "since repairs rest on each other")
    er.add_argument("--pdf", action="store_true", help="also run latexmk (or pdflatex) to make erratum.pdf, where one "
                                                      "is on PATH")
    er.add_argument("--seed", type=SEED, help=f"seed for every search and simulation (default {Mode().seed})")
    _paper_flag(er)
    er.add_argument("--claims", dest="claim_files", type=names_free, metavar="FILE",
                    help="files of your own claims, comma-separated, judged beside the paper's (as claims --claims)")
    er.add_argument("--workers", type=processes, help="processes the claims run in (default: every core)")
    er.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _decide_command(sub) -> None:
    """The `decide` command and its flags."""
    dc = sub.add_parser("decide", help="decide a step of your own about RUE's histories: every history up to n "
                                       "(exact search), or every n (induction, --induct)",
                        description=('Without --induct: search every pull sequence of RUE with known '
                                     'variances, each a linear program over the rewards and the means, at '
                                     'every budget from 2K+1 to n, for a history on E that breaks STEP, a '
                                     'function step(m, arms) -> list of Violation in your file '
                                     '(rue_verify.decide says how to write one). Prints the history (pulls, '
                                     'rewards, means; replayed through the plain reference RUE) and its '
                                     "budget, or that none exists at any budget up to n ('holds "
                                     "(exhausted)'), or 'undecided' where a violation exists only on a tie. "
                                     "Margins within the solver's rounding are decided exactly. With "
                                     '--induct: STEP is an Induct(holds, ...) object (a z3 formula over '
                                     "RUE's abstract state), proved for every n by induction, or refuted "
                                     'with a history (give Induct(step=...) its linear form), or open.'))
    dc.add_argument("step", metavar="FILE.py:NAME", help="your step: a .py file (or module) and a name in it")
    dc.add_argument("--K", type=integer(2, 6), default=2, help="arms (2-6; default 2)")
    dc.add_argument("--n", type=integer(5, 20), default=10,
                    help="largest budget (at least 2K + 1, at most 20; default 10); every budget from 2K+1 is searched")
    dc.add_argument("--sigma0-sq", type=real(0, 1e6), default=1.0, help="prior variance RUE is told (default 1)")
    dc.add_argument("--sigma-sq", type=real(0, 1e6), default=1.0, help="reward variance RUE is told (default 1)")
    dc.add_argument("--route", choices=("paper", "repaired"), default="paper",
                    help="paper: Theorem 5.1's eta, E on rounds 2K+1..n; repaired: eta_repaired, E on 2K..n")
    dc.add_argument("--symmetric", action="store_true",
                    help="the step is symmetric in arms 2..K: search one order of them (checked on every history); "
                         "without it every arm is tried")
    dc.add_argument("--at-budget", action="store_true", help="search the budget n only, not every budget up to n")
    dc.add_argument("--max-seconds", type=real(0, 1e6), default=120.0,
                    help="refuse to start when the estimated run time is longer (default 120)")
    dc.add_argument("--induct", action="store_true",
                    help="STEP is an Induct object: prove it for every n by induction over RUE's states (z3)")
    dc.add_argument("--json", action="store_true", help="print the result as JSON")
    dc.add_argument("--paper", default="zhu-qiu", metavar="NAME|FILE.py",
                    help="the paper whose algorithm's histories are searched: only zhu-qiu (RUE) supplies an "
                         "algorithm's linear form and abstract states today; another paper is refused")


def _proofs_command(sub) -> None:
    """The `proofs` command and its flags."""
    pf = sub.add_parser("proofs", help="the proofs as a graph: each step's status, where each theorem's proof breaks, "
                                       "and the repaired routes",
                        description="Print each theorem's proof as a tree of the steps it uses, "
                                    "each with the status the "
                                    "ledger computed and the method behind it (certified, exhausted, sampled; "
                                    "refuted, undefined, inconsistent, conditional; vacuous, untested, read, argued, "
                                    "error, inconclusive; definition), where "
                                    "the proof breaks, and the repaired route (runs the quick ledger, "
                                    f"{WAITS['proofs']} on {HOST_CLASS}). With --node ID --at JSON, evaluate one "
                                    "node's relation "
                                    "at a point instead, e.g. --node THM-GAP --at '{\"K\": 36, \"alpha\": 0.12, "
                                    "\"sigma0_sq\": 1}' (a witness's params, or the whole witness; a step about a "
                                    "reward history, such as Tk_lowv2, takes a history witness as claims -v prints "
                                    "it, and repair:ID evaluates the repaired statement).")
    pf.add_argument("--json", action="store_true", help="print the nodes as JSON: id, label, location, statement, "
                                                       "status, uses (what its checks used), cites (what the text's "
                                                       "proof cites), witness, and proof and broken_at")
    pf.add_argument("--mutants", action="store_true",
                    help="for every certified step, decide its mutants with the same method (its negation, each "
                         "constant moved by 1%%, each premise dropped, each cited condition on its violator) and print "
                         "how many it rejected: a check that rejects none cannot fail")
    pf.add_argument("--node", metavar="ID", help="a node's id or LaTeX label (or a claim ID)")
    pf.add_argument("--at", metavar="JSON", help="the point: K, n, sigma0_sq, sigma_sq, delta or nu_sq, T, means, k")
    _paper_flag(pf)
    pf.add_argument("--claims", dest="claim_files", type=names_free, metavar="FILE",
                    help="files of your own claims, comma-separated: their nodes (claim(..., node=, uses=)) join the "
                         "graph, and --node can name them")
    pf.add_argument("--workers", type=processes, help="processes the claims run in (default: every core)")
    pf.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _bound_command(sub) -> None:
    """The `bound` command and its flags."""
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


def _check_bound_command(sub) -> None:
    """The `check-bound` command and its flags."""
    cb = sub.add_parser("check-bound", help="check your own bound on an algorithm's Bayesian failure probability or "
                                            "simple regret, as the ledger checks the paper's",
                        description="Judge a function (K, n, sigma0_sq, sigma_sq) -> float in your own file, claimed "
                                    "to bound an algorithm's Bayesian failure probability or simple regret under the "
                                    "paper's model: against the rate study's measured truth (a refutation names K, n, "
                                    "sigma0_sq and sigma_sq), its tightness and exponent in n, where it is "
                                    "informative, and (failure) an adversarial Monte Carlo search. Prints a claim as "
                                    "'claims' does; writes nothing.")
    cb.add_argument("bound", metavar="FILE.py:NAME", help="your function, as path/to/file.py:NAME or module:NAME")
    cb.add_argument("--quantity", choices=["failure", "regret"], default="failure",
                    help="what it bounds (default failure)")
    cb.add_argument("--algorithm", default="rue", help="the algorithm it bounds (a registry name; default rue)")
    cb.add_argument("--space", metavar="JSON", help='the search space, e.g. \'{"K": [2, 10], "n": [50, 500]}\' '
                                                   "(K, n, sigma0_sq, sigma_sq; default K 2-30, n 20-3000, variances "
                                                   "0.1-10)")
    cb.add_argument("--rates", metavar="DIR", help="a rate study's directory (default: the study shipped)")
    cb.add_argument("--json", action="store_true", help="print the claim as JSON (as claims --json)")
    cb.add_argument("-v", "--verbose", action="store_true", help="print every finding and witness")
    cb.add_argument("-q", "--quiet", action="store_true", help="no progress lines")


def _vacuity_command(sub) -> None:
    """The `vacuity` command and its flags."""
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


def _simulate_command(sub, algs: tuple) -> None:
    """The `simulate` command and its flags."""
    sm = sub.add_parser("simulate", help="run RUE and its baselines on a benchmark environment",
                        description="Monte Carlo error rates (exact binomial intervals) and simple regret of the "
                                    "algorithms on setup F1-F6 (fixed means), R1-R3 (random means) or your own means.")
    sm.add_argument("--setup", type=setup_name, help="F1..F6, R1..R3, or M: the model of Section 3 (every run's "
                                                     "means from N(0, --mean-var), Gaussian rewards of variance "
                                                     "--nu-sq, default 1) (default F1; case does not matter)")
    sm.add_argument("--mean-var", type=real(0, 1e6, open_low=True), default=1.0,
                    help="setup M: the variance sigma0^2 of the arm means' prior N(0, sigma0^2) (default 1)")
    sm.add_argument("--means", type=reals(min_items=2), help="custom arm means, comma-separated (K is their number; "
                                                             "Bernoulli means must lie in [0, 1])")
    sm.add_argument("--means-file", metavar="PATH", help="a file of custom means (separated by commas, spaces or "
                                                         "newlines)")
    sm.add_argument("--K", type=integer(2, MAX_K), help="number of arms (default 20; taken from --means if given)")
    sm.add_argument("--budget", type=budget, default="H", help="an integer (1e4 works), or H/2, H, 2H (fixed or "
                                                                "custom means; default H)")
    sm.add_argument("--algorithms", type=algorithm_names(algs),
                    help="comma-separated names (default: every algorithm in the registry: " + ", ".join(algs) + "); "
                         "an algorithm of your own as module:NAME or path/to/file.py:NAME (see "
                         "simulate.algorithms.external), or an installed entry point")
    sm.add_argument("--runs", type=integer(1, MAX_RUNS), default=1000, help="runs per algorithm (default 1000)")
    sm.add_argument("--seed", type=SEED, default=0, help="master seed (default 0)")
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
    if algs:                  # the registry-derived flags (build_parser(full=True))
        algorithm_flags(sm)
    sm.add_argument("--workers", type=integer(1, 1024), help="threads (default: all cores; results do not depend "
                                                             "on it)")
    sm.add_argument("--crn", action="store_true", help="common random numbers: every algorithm sees the same "
                                                      "reward stream of each arm")
    sm.add_argument("--level", type=real(0, 1, open_low=True, open_high=True), default=0.95,
                    help="interval level, in (0, 1) (default 0.95)")
    sm.add_argument("--json", action="store_true", help="print every parameter and result as JSON")
    sm.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _bench_command(sub, algs: tuple) -> None:
    """The `bench` command and its flags."""
    bn = sub.add_parser("bench", help="throughput of the compiled kernels and the numpy references")
    bn.add_argument("--algorithms", type=names(("rue", "rue-known") + tuple(a for a in algs if a != "rue")
                                              + ("rue-known-plain", "rue-known-lazy")),
                    help="comma-separated subset (default: all; rue-known-plain and rue-known-lazy force RUE's two "
                         "argmax paths)")
    bn.add_argument("--large-k", action="store_true",
                    help="instead: RUE with known variances at K = 20-1000, the plain pass over every arm against "
                         "the lazy argmax (indices evaluated per round, arm-rounds per second, share of the "
                         "division + square-root ceiling); the crossover K is read off it")
    bn.add_argument("--refit", action="store_true",
                    help="instead: RUE's ML and REML variance estimates refitted every round against the kernels' "
                         "schedule (as the pulls grow by 1/16), on the same 400 runs at K = 10, n = 1e4: the share "
                         "of identical runs, the simple regret's ratio (95%%) and both wall times")
    bn.add_argument("--reference-seconds", type=real(0, 3600), default=3.0, help="time budget per numpy reference")
    bn.add_argument("--repeats", type=integer(1, 100), default=3,
                    help="timings per compiled kernel, interleaved across kernels; the best is reported, the "
                         "slowest in brackets (default 3)")
    bn.add_argument("--json", action="store_true", help="every row (timings, host checks) as JSON on stdout; the "
                                                        "table goes to stderr")
    bn.add_argument("--commands", action="store_true",
                    help="time the README's commands instead (claims, report --quick; cold and warm numba cache; wall "
                         "time and CPU utilisation), each in a fresh process")
    bn.add_argument("--histories", action="store_true",
                    help="instead: the exact history search's speed and reach, per route and step (sequences "
                         "visited per second, the largest n at each K; the quick ledger's grid, or --thorough's), then "
                         "the induction's solver times per step")
    bn.add_argument("--thorough", action="store_true", help="with --commands: also time claims --thorough; with "
                                                            "--histories: the thorough ledger's grid")
    bn.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _table_command(sub) -> None:
    """The `table` command and its flags."""
    tb = sub.add_parser("table", help="error table of every algorithm on fixed setups (Section 6.2's design)")
    tb.add_argument("--setups", type=names(F_SETUPS, str.upper), default=["F1", "F2", "F3"],
                    help="comma-separated fixed setups (default F1,F2,F3)")
    tb.add_argument("--budgets", type=budgets, default=list(BUDGET_LABELS),
                    help=f"comma-separated budgets: integers or {', '.join(BUDGET_LABELS)} (default all)")
    tb.add_argument("--K", type=integer(2, MAX_K), default=20, help="number of arms (default 20)")
    tb.add_argument("--runs", type=integer(1, MAX_RUNS), default=1000, help="runs per cell (default 1000)")
    tb.add_argument("--seed", type=SEED, default=0, help="master seed (default 0)")
    tb.add_argument("--out", help="directory for fixed-setups.md and fixed-setups.json (e.g. docs)")
    tb.add_argument("--json", action="store_true", help="print the table as JSON")
    tb.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _report_command(sub) -> None:
    """The `report` command and its flags."""
    rr = sub.add_parser("report", help="the ledger and every figure in one page (index.html, report.md, figures)",
                        description="Run the claims ledger and draw every figure family (the paper's bounds against "
                                    "the exact truth and simulation, the reproduction of Section 6) into a static "
                                    "HTML page that works from the file system, with the same content in Markdown.")
    rsize = rr.add_mutually_exclusive_group()
    rsize.add_argument("--quick", action="store_true", help="fewer simulated runs (the default; about 2 minutes)")
    rsize.add_argument("--full", action="store_true", help="10x the simulated runs (about 10 minutes)")
    rr.add_argument("--out", default="report", help="output directory (default ./report)")
    _ledger_flags(rr, "the claims and figures")
    rr.add_argument("--seed", type=SEED, default=0, help="seed of the figures' simulations (default 0)")
    rr.add_argument("--bounds", type=your_bounds, metavar="Q=FILE.py:NAME",
                    help="your bounds to draw in the landscape, comma-separated: failure=mybounds.py:NAME or "
                         "regret=mybounds.py:NAME (functions of K, n, sigma0_sq, sigma_sq; see check-bound)")
    rr.add_argument("--id", nargs="+", metavar="ID", help="only these claims (comma-separated IDs, as claims --id)")
    rr.add_argument("--section", nargs="+", metavar="SECTION",
                    help="only the claims of these sections of the paper (as the report's filter names them; "
                         "an unknown one is listed against the paper's)")
    rr.add_argument("--json", action="store_true", help="print what was written as JSON")
    rr.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _rates_command(sub) -> None:
    """The `rates` command and its flags."""
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
    rsize.add_argument("--quick", action="store_true", help="400 runs, budgets to 1e5 (the default; about 20 s on "
                                                            "2 cores)")
    rsize.add_argument("--paper", action="store_true", help="the shipped study: 4000 runs, budgets to 1e6, K to 100 "
                                                            "(about 8 minutes on 2 cores)")
    rt.add_argument("--out", help="result directory (default rates-quick or rates-paper); rerunning resumes")
    rt.add_argument("--show", metavar="DIR", help="print the exponents, constants and efficiencies against the limit "
                                                  "of a stored study (a directory, or 'shipped') without simulating")
    rt.add_argument("--split", action="store_true",
                    help="instead: split RUE's, the top pair's and the oracle's simple regret at each common-prior "
                         "setting's largest budget into the near-tie part (top two within 5 sigma/sqrt(n), where the "
                         "limit's constant comes from) and the rest, each as n sr_n over the limit's constant (runs "
                         "the scale's simulations again: a minute with --quick, several with --paper)")
    rt.add_argument("--cliff", action="store_true",
                    help="instead: the exploration-constant study (claim EXPLORE-CLIFF): RUE with DEG in 0.5, 1, 1.5, "
                         "2, 3, 4 and its top-two balanced variant at K = 10 and 30, n = 1e4 and 1e5, into --out "
                         "(default cliff-quick or cliff-paper; with --show DIR, a stored one); prints each variant's "
                         "n sr_n over the limit's constant, e_n and the share of runs starving the best arm "
                         "(--quick: 400 runs per point, about 2 minutes; --paper: 4000, the shipped study, about 5 "
                         "minutes)")
    rt.add_argument("--estimators", action="store_true",
                    help="instead: the variance-estimator study (claims VAR-EST-COST, VAR-EST-METHODS, TOPTWO-REST): "
                         "RUE and its top-two variant told the variances or estimating them (the authors' moments, "
                         "unbiased moments, ML, REML) at K = 10 and 30, n = 1e4 and 1e5, paired across estimators, "
                         "into --out (default estimators-quick or estimators-paper; with --show DIR, a stored one); "
                         "prints n sr_n over the limit's constant, its near-tie and rest parts, e_n and the mean "
                         "end-of-run estimates (--quick: 400 runs per point; --paper: 4000, the shipped study)")
    _sweep_flags(rt, "print the exponents, constants and efficiencies as JSON")


def _reproduce_command(sub, algs: tuple) -> None:
    """The `reproduce` command and its flags."""
    rp = sub.add_parser("reproduce", help="rerun Section 6 and its appendix; figures, tables and the empirical claims",
                        description="Run the experimental section of the paper (Figures 2-5) into a result directory "
                                    "(results.csv, PNG/SVG figures, summary.md with the empirical claims' verdicts). "
                                    "A killed run resumes where it stopped when the same command is run again.")
    size = rp.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="fewer runs and instances (the default; about 2 minutes)")
    size.add_argument("--paper", action="store_true", help="the paper's scale (about 19 minutes on 2 cores)")
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
    rp.add_argument("--rue-estimators", action="store_true",
                    help="instead: rerun RUE's tasks of the grid with each other variance estimator (unbiased "
                         "moments, ML, REML; the shipped rows use the authors' estimates) into --out (default "
                         "reproduction-estimators-quick or -paper), same seed, so each pairs with the baselines; "
                         "the report judges Section 6's claims with each (the section6-estimators figure)")
    _sweep_flags(rp, "print what was written as JSON")


def _paper_flag(p) -> None:
    """`--paper`: the paper whose claims a command runs (every command that runs a ledger takes it)."""
    p.add_argument("--paper", default="zhu-qiu", metavar="NAME|FILE.py",
                   help="the paper whose claims to run: a paper's name (an entry point of rue_verify.papers; "
                        "default zhu-qiu, Zhu & Qiu TMLR 2024), a module, or a .py file that declares its claims "
                        "(and a rue_verify.verify.Paper named PAPER); only that paper is loaded")
    p.add_argument("--claim-seconds", type=real(0, 1e7), metavar="S",
                   help=f"the time limit of one claim's check (default {Mode().seconds:g} s, none with --thorough; 0: "
                        "none); a claim past it reads 'error' and the run goes on")


def _ledger_flags(p, what: str) -> None:
    """The flags every command that runs the whole ledger with its inputs (claims, report) shares: how
    hard it works, what the empirical claims read, your own claims, and the processes."""
    quick, thorough = Mode(), Mode.thorough()
    p.add_argument("--thorough", action="store_true",
                   help=f"larger searches: {thorough.random_samples // quick.random_samples}x the random points and "
                        f"runs, Monte Carlo searches over {thorough.search_points} points with {thorough.confirm_runs} "
                        "confirmation runs, longer reward histories "
                        f"({WAITS['claims --thorough']} on {HOST_CLASS} for the ledger)")
    _paper_flag(p)
    p.add_argument("--results", metavar="DIR", help="a reproduction's result directory for the empirical claims "
                                                    "(default: the paper-scale results shipped with the package)")
    p.add_argument("--rates", metavar="DIR", help="a rate study's directory (rue-verify rates --out DIR) for the rate "
                                                  "and tightness findings (default: the paper-scale study shipped)")
    p.add_argument("--claims", dest="claim_files", type=names_free, metavar="FILE",
                   help="files of your own claims (path/to/file.py, module or entry point of rue_verify.claims, "
                        "comma-separated), declared with rue_verify.verify.claim; judged beside the paper's")
    p.add_argument("--workers", type=processes, help=f"processes {what} run in (default: every core; the "
                                                           "results do not depend on it)")


def _sweep_flags(p, json_help: str) -> None:
    """The flags every sweep command (reproduce, rates) shares: where it runs, how it waits, its seed
    and output."""
    p.add_argument("--scheduler", metavar="ADDR", help="a Dask scheduler address (tcp://host:8786): run the tasks on "
                                                       "that cluster; results are identical to a local run")
    p.add_argument("--wait", action="store_true", help="if another run is writing the same --out directory, wait "
                                                       "for it to end and then run what is left (default: refuse)")
    p.add_argument("--workers", type=processes,
                   help="local processes the tasks run in, each on cores/workers of the cores, the costliest task "
                        "first (default: every core; the rows do not depend on it)")
    p.add_argument("--seed", type=integer(0, 2 ** 63 - 1), default=0, help="master seed (default 0)")
    p.add_argument("--json", action="store_true", help=json_help)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
