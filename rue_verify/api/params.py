"""Every command's parameters, declared once: each one's flag, kind and range, default and help. The
command line builds its parser from them (`rue_verify.cli.commands`), and the functions of `rue_verify.api`
check the keyword arguments a notebook gives them against the same ranges (`check`), with the same
message, so a value is refused the same way wherever it enters.

Kinds: 'switch' (on or off), 'int' and 'real' in [low, high] (open ends marked), 'seed' (an integer in
[0, 2^63 - 1]), 'choice' (one of `choices`), 'names' (a list from `choices`), 'text'; and kinds only text
has, parsed by the command line: 'processes', 'files', 'bounds', 'setup', 'budget', 'budgets', 'means',
'algorithms', 'bench'.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import numbers
import os
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from simulate.environments import F_SETUPS, FIXED_BUDGETS

from ..errors import ParameterError
from ..studies.command_timing import HOST_CLASS, WAITS
from ..verify.claims import Mode

MAX_RUNS = 10 ** 7
MAX_K = 10 ** 4
MAX_SEED = 2 ** 63 - 1
_QUICK, _THOROUGH = Mode(), Mode.thorough()


@dataclass(frozen=True)
class P:
    """One parameter: `flags` (a flag, its spellings, or a positional's name), its kind (module docstring),
    its range or choices, default, help; `dest` its name in Python (default: the last flag's, '-' as '_');
    `aliases` old spellings still read; `group` a set of flags of which at most one is given."""

    flags: str | tuple[str, ...]
    kind: str = "text"
    low: float | None = None
    high: float | None = None
    open_low: bool = False
    open_high: bool = False
    choices: tuple = ()
    upper: bool = False
    default: Any = None
    metavar: str | None = None
    nargs: str | None = None
    required: bool = False
    group: str | None = None
    aliases: tuple[str, ...] = ()
    dest: str | None = None
    help: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return (self.flags,) if isinstance(self.flags, str) else self.flags

    @property
    def name(self) -> str:
        return self.dest or self.names[-1].lstrip("-").replace("-", "_")

    def range_text(self) -> str:
        lo = "-inf" if self.low is None else f"{self.low:g}"
        hi = "inf" if self.high is None else f"{self.high:g}"
        return (f"{'(' if self.open_low or self.low is None else '['}{lo}, {hi}"
                f"{')' if self.open_high or self.high is None else ']'}")

    def check(self, value: Any) -> None:
        """A ParameterError naming this parameter when a value given from Python is outside its kind or range
        (a kind only text has is left to the function it reaches)."""
        if value is None or self.kind not in ("int", "real", "seed", "switch", "choice"):
            return
        if self.kind == "switch":
            if not isinstance(value, bool):
                raise ParameterError(self.name, f"True or False, got {value!r}")
            return
        if self.kind == "choice":
            if value not in self.choices:
                raise ParameterError(self.name, f"one of {', '.join(map(str, self.choices))}, got {value!r}")
            return
        whole = self.kind in ("int", "seed")
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not math.isfinite(value) \
                or (whole and value != int(value)):
            raise ParameterError(self.name, f"expected {'an integer' if whole else 'a finite number'}, got {value!r}")
        p = P("-", low=0, high=MAX_SEED) if self.kind == "seed" else self
        if (p.low is not None and (value < p.low or (p.open_low and value == p.low))) or \
                (p.high is not None and (value > p.high or (p.open_high and value == p.high))):
            raise ParameterError(self.name, f"must be {'an integer' if whole else 'a number'} in {p.range_text()}, "
                                            f"got {value!r}")


@dataclass(frozen=True)
class Command:
    """A command: its one-line help, its description, its parameters; whether it may compile the
    simulator's kernels (it says so first), whether its flags come from the algorithm registry (which
    loads numba), and what an interrupted run keeps."""

    help: str
    description: str | None
    params: tuple[P, ...]
    compiles: bool = False
    registry: bool = False
    kept: str = "nothing was written"


def check(command: str, given: dict[str, Any]) -> None:
    """Every keyword argument of `given` that `command` declares, checked against its kind and range."""
    params = {p.name: p for p in COMMANDS[command].params}
    for name, value in given.items():
        if name in params:
            params[name].check(value)


def _plain(command: str, given: dict[str, Any]) -> dict[str, Any]:
    """The declared numbers of `given` as Python's own int and float (a numpy scalar from a notebook
    becomes the number it holds; checked first by `check`)."""
    kinds = {p.name: p.kind for p in COMMANDS[command].params}
    out = dict(given)
    for k, v in given.items():
        if v is not None and kinds.get(k) in ("int", "seed"):
            out[k] = int(v)
        elif v is not None and kinds.get(k) == "real":
            out[k] = float(v)
    return out


@contextlib.contextmanager
def _rechecking(on: bool):
    """`RECHECK_ENV` set while the block runs (the pools it starts inherit it), the environment restored after."""
    if not on:
        yield
        return
    before = {k: os.environ.get(k) for k in RECHECK_ENV}
    os.environ.update(RECHECK_ENV)
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def command(name: str) -> Callable:
    """The function that is command `name`: its arguments checked against the command's declared parameters
    before it runs (`check`), and its docstring ending with each parameter's help, as --help gives it."""
    def wrap(fn: Callable) -> Callable:
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def call(*args, **kwargs):
            given = {}
            for k, v in signature.bind_partial(*args, **kwargs).arguments.items():
                given.update(v if signature.parameters[k].kind == inspect.Parameter.VAR_KEYWORD else {k: v})
            check(name, given)
            with _rechecking(bool(given.get("recheck"))):
                return fn(**_plain(name, given))
        takes = [f"    {p.name}: {p.help.replace('%%', '%').replace('{algorithms}', 'simulate.algorithms.REGISTRY')}"
                 for p in COMMANDS[name].params if p.name in signature.parameters]
        call.__doc__ = f"{fn.__doc__}\n\n    Parameters, as `rue-verify {name}` takes them:\n" + "\n".join(takes)
        return call
    return wrap


_RESUMES = "finished rows are kept (a rerun of the same command resumes)"

THOROUGH = P('--thorough', 'switch', help=
    f'larger searches: {_THOROUGH.random_samples // _QUICK.random_samples}x the random points and runs, Monte Carlo '
    f'searches over {_THOROUGH.search_points} points with {_THOROUGH.confirm_runs} confirmation runs, longer reward '
    f"histories ({WAITS['claims --thorough']} on {HOST_CLASS} for the ledger)")
PAPER = P('--paper', default='zhu-qiu', metavar='NAME|FILE.py', help=
    "the paper whose claims to run: a paper's name (an entry point of rue_verify.papers; default zhu-qiu, Zhu & "
    'Qiu TMLR 2024), a module, or a .py file that declares its claims (and a rue_verify.verify.Paper named '
    'PAPER); only that paper is loaded')
CLAIM_SECONDS = P('--claim-seconds', 'real', high=1e7, low=0, metavar='S', help=
    f"the time limit of one claim's check (default {_QUICK.seconds:g} s, none with --thorough; 0: none); a claim "
    "past it reads 'error' and the run goes on")
RESULTS = P('--results', metavar='DIR', help=
    "a reproduction's result directory for the empirical claims (default: the paper-scale results shipped with "
    'the package)')
RATES = P('--rates', metavar='DIR', help=
    "a rate study's directory (rue-verify rates --out DIR) for the rate and tightness findings (default: the "
    'paper-scale study shipped)')
CLAIM_FILES = P('--claims', 'files', dest='claim_files', metavar='FILE', help=
    'files of your own claims (path/to/file.py, module or entry point of rue_verify.claims, comma-separated), '
    "declared with rue_verify.verify.claim; judged beside the paper's")
LEDGER_SEED = P('--seed', 'seed', help=f'seed for every search and simulation (default {_QUICK.seed})')
VERBOSE = P(('-v', '--verbose'), 'switch', help='print every finding and witness')
QUIET = P(('-q', '--quiet'), 'switch', help='no progress bar')
CLAIM_WORKERS = P('--workers', 'processes', help='processes the claims run in (default: every core)')
JSON = P('--json', 'switch', help='print the result as JSON')
MASTER_SEED = P('--seed', 'seed', default=0, help='master seed (default 0)')
JSON_WRITTEN = P('--json', 'switch', help='print what was written as JSON')
SCHEDULER = P('--scheduler', metavar='ADDR', help=
    'a Dask scheduler address (tcp://host:8786): run the tasks on that cluster; results are identical to a local run')
WAIT = P('--wait', 'switch', help=
    'if another run is writing the same --out directory, wait for it to end and then run what is left (default: '
    'refuse)')
SWEEP_WORKERS = P('--workers', 'processes', help=
    'local processes the tasks run in, each on cores/workers of the cores, the costliest task first (default: '
    'every core; the rows do not depend on it)')

# what every command that runs the whole ledger with its inputs takes (claims, report): how hard it works,
# the paper, what the empirical claims read, your own claims
#: the environment `--recheck` sets while its command runs: no kept or shipped decision, no shipped figure
RECHECK_ENV = {"RUE_VERIFY_CACHE": "off", "RUE_VERIFY_REDRAW": "1"}
RECHECK = P('--recheck', 'switch', help=
    'decide every statement afresh and draw every figure: no decision kept in ~/.cache/rue-verify or shipped with '
    'the package is read, no shipped figure copied (RUE_VERIFY_CACHE=off and RUE_VERIFY_REDRAW=1 for this run); '
    'its verdicts and proof statuses must equal a run without it')
LEDGER = (THOROUGH, PAPER, CLAIM_SECONDS, RESULTS, RATES, CLAIM_FILES, RECHECK)
# what every sweep takes (reproduce, rates): where it runs, how it waits, its seed
SWEEP = (SCHEDULER, WAIT, SWEEP_WORKERS, MASTER_SEED)

COMMANDS = {
    'claims': Command(
        'compute a verdict for every claim of CLAIMS.md',
        "Run the claims ledger (theory and, from the reproduction's results, the empirical claims). The quick "
        f"default takes {WAITS['claims']} on {HOST_CLASS}.",
        (
            P('--json', 'switch', help='print the JSON list that CLAIMS.md specifies'),
            P('--id', dest='ids', metavar='ID', nargs='+', help=
                'only these claim IDs, comma-separated (e.g. THM-GAP,LEM-TAU-LOWER)'),
            *LEDGER,
            P('--workers', 'processes', help=
                'processes the claims run in (default: every core; the results do not depend on it)'),
            LEDGER_SEED,
            VERBOSE,
            QUIET,
            P('--markdown', metavar='PATH', help='also write a Markdown report (e.g. docs/claims.md)'),
        ), compiles=True),
    'erratum': Command(
        'a LaTeX erratum: every refuted, undefined or inconsistent claim with its witness and its repair, '
        'typeset from the checked expressions',
        'Run the quick ledger and write DIR/erratum.tex, a standalone LaTeX document: a summary table, then '
        'every claim judged refuted, undefined or inconsistent (the statement as printed and where, the '
        'verdict, the witness as numbers, the repaired statement with its formula typeset by sympy from the '
        "expression the ledger evaluated, and the repair's checks and proof), grouped by theorem, Theorems 3.1, "
        '5.1 and 5.2 first, then the provenance and how to cite.',
        (
            P('--out', default='erratum', help='directory to write erratum.tex into (default: erratum)'),
            P('--id', dest='ids', metavar='ID', nargs='+', help=
                'only these claims (comma-separated IDs, as claims --id); the whole ledger still runs, since '
                'repairs rest on each other'),
            P('--pdf', 'switch', help='also run latexmk (or pdflatex) to make erratum.pdf, where one is on PATH'),
            LEDGER_SEED,
            PAPER,
            CLAIM_SECONDS,
            RECHECK,
            P('--claims', 'files', dest='claim_files', metavar='FILE', help=
                "files of your own claims, comma-separated, judged beside the paper's (as claims --claims)"),
            CLAIM_WORKERS,
            QUIET,
        ), compiles=True),
    'decide': Command(
        "decide a step of your own about RUE's histories: every history up to n (exact search), or every n "
        '(induction, --induct)',
        'Without --induct: search every pull sequence of RUE with known variances, each a linear program over '
        'the rewards and the means, at every budget from 2K+1 to n, for a history on E that breaks STEP, a '
        'function step(m, arms) -> list of Violation in your file (rue_verify.decide says how to write one). '
        'Prints the history (pulls, rewards, means; replayed through the plain reference RUE) and its budget, '
        "or that none exists at any budget up to n ('holds (exhausted)'), or 'undecided' where a violation "
        "exists only on a tie. Margins within the solver's rounding are decided exactly. With --induct: STEP is "
        "an Induct(holds, ...) object (a z3 formula over RUE's abstract state), proved for every n by "
        'induction, or refuted with a history (give Induct(step=...) its linear form), or open.',
        (
            P('step', metavar='FILE.py:NAME', help='your step: a .py file (or module) and a name in it'),
            P('--K', 'int', low=2, high=6, default=2, help='arms (2-6; default 2)'),
            P('--n', 'int', low=5, high=20, default=10, help=
                'largest budget (at least 2K + 1, at most 20; default 10); every budget from 2K+1 is searched'),
            P('--sigma0-sq', 'real', low=0, high=1e6, default=1.0, help='prior variance RUE is told (default 1)'),
            P('--sigma-sq', 'real', low=0, high=1e6, default=1.0, help='reward variance RUE is told (default 1)'),
            P('--route', 'choice', choices=('paper', 'repaired'), default='paper', help=
                "paper: Theorem 5.1's eta, E on rounds 2K+1..n; repaired: eta_repaired, E on 2K..n"),
            P('--symmetric', 'switch', help=
                'the step is symmetric in arms 2..K: search one order of them (checked on every history); '
                'without it every arm is tried'),
            P('--at-budget', 'switch', help='search the budget n only, not every budget up to n'),
            P('--max-seconds', 'real', low=0, high=1e6, default=120.0, help=
                'refuse to start when the estimated run time is longer (default 120)'),
            P('--induct', 'switch', help=
                "STEP is an Induct object: prove it for every n by induction over RUE's states (z3)"),
            JSON,
            P('--paper', default='zhu-qiu', metavar='NAME|FILE.py', help=
                "the paper whose algorithm's histories are searched: only zhu-qiu (RUE) supplies an algorithm's "
                'linear form and abstract states today; another paper is refused'),
        )),
    'proofs': Command(
        "the proofs as a graph: each step's status, where each theorem's proof breaks, and the repaired routes",
        "Print each theorem's proof as a tree of the steps it uses, each with the status the ledger computed "
        'and the method behind it (certified, exhausted, sampled; refuted, undefined, inconsistent, '
        'conditional; vacuous, untested, read, argued, error, inconclusive; definition), where the proof '
        f"breaks, and the repaired route (runs the quick ledger, {WAITS['proofs']} on {HOST_CLASS}). A proof is "
        "proved only when it is a derivation: a chain from its statement's computed left side to its right side, "
        "every link justified (decided, a cited result instantiated, a node it rests on, a fact); --node ID "
        "prints that chain link by link. With --node "
        "ID --at JSON, evaluate one node's relation at a point instead: the point names the node's own parameters "
        "(those of a witness its claim printed, or the whole witness; repair:ID evaluates the repaired statement). "
        'For the default paper (Zhu & Qiu), e.g. --node THM-GAP --at \'{"K": 36, "alpha": 0.12, "sigma0_sq": 1}\'; '
        'a step about a reward history, such as Tk_lowv2, takes a history witness as claims -v prints it.',
        (
            P('--json', 'switch', help=
                'print the nodes as JSON: id, label, location, statement, status, uses (what its checks used), '
                "cites (what the text's proof cites), witness, and proof and broken_at"),
            P('--mutants', 'switch', help=
                'for every certified step, decide its mutants with the same method (its negation, a relation '
                'flipped, each constant times 2, over 2 and moved by 1%%, a sum\'s range shifted, a term\'s sign '
                'flipped, a factor or a premise dropped, each cited condition on its violator; at most 16 a step) '
                'and print how many were refuted, undecided (timed out included) and still true: a step can fail '
                'when its negation and another mutant are refuted'),
            P('--node', metavar='ID', help="a node's id or LaTeX label (or a claim ID): print its proof as a "
              "derivation, link by link with each link's justification (with --at: its relation at a point)"),
            P('--trust', metavar='ID', help="a node's id or label: list what its proof rests on, link by link through "
              "the nodes it rests on: each link decided by sympy, z3 (each of its SMT-LIB problems re-decided here by "
              "cvc5, a second solver, and every disagreement named) or arb, an engine rule, a citation, a fact, a "
              "finding (an induction, an exhaustive search), or argued"),
            P('--at', metavar='JSON', help="the point, as JSON: the node's parameters by name, as its claim's witness "
              "gives them (--paper's own; for Zhu & Qiu's: K, n, sigma0_sq, sigma_sq, delta or nu_sq, T, means, k)"),
            PAPER,
            CLAIM_SECONDS,
            RECHECK,
            P('--claims', 'files', dest='claim_files', metavar='FILE', help=
                'files of your own claims, comma-separated: their nodes (claim(..., node=, uses=)) join the '
                'graph, and --node can name them'),
            CLAIM_WORKERS,
            QUIET,
        )),
    'certificates': Command(
        "write the proofs' certificates, or check a directory of them with the small checker alone",
        "With --write DIR: run the paper's quick ledger and write one file per certified z3 link (its SMT-LIB 2 "
        'problem, every abstraction fact a named assertion, that cvc5 re-decides), keyed by a hash of the '
        "link's statement and of the engine's code. With --check DIR: verify every certificate under DIR in a "
        'process of its own that imports no search (no z3, no HiGHS, no scipy.optimize, no rue_verify.verify '
        'module): SMT-LIB files re-decided by cvc5, Farkas certificates of the history search checked in exact '
        "rationals, interval covers re-checked box by box with arb; prints what each kind checked and the "
        "checker's size, exit status 1 if any fails.",
        (
            P('--check', metavar='DIR', help='a directory of certificate files to verify (python -m '
              'rue_verify.certify DIR does the same)'),
            P('--write', metavar='DIR', help="the directory to write the paper's certificates into"),
            PAPER,
            CLAIM_SECONDS,
            CLAIM_WORKERS,
            JSON,
            QUIET,
        )),
    'bound': Command(
        'evaluate a bound of the paper, with its terms',
        'Evaluate a named formula: rue-verify bound theorem_5_1 --K 100 --n 1e6 --sigma0-sq 1 --sigma-sq 0.1 '
        '--delta 0.01. Parameters are --NAME VALUE (hyphens or underscores); list parameters take '
        'comma-separated numbers (--T 2,5,3).',
        (
            P('name', nargs='?', help='formula name (see --list)'),
            P('--list', 'switch', help='list every formula with its paper label and parameters'),
            P('--symbolic', 'switch', help='print the sympy expression'),
            P('--latex', 'switch', help='print the LaTeX of the expression'),
            P('--json', 'switch', help='print the value (or terms, or the reason it is undefined) as JSON'),
        )),
    'check-bound': Command(
        "check your own bound on an algorithm's Bayesian failure probability or simple regret, as the ledger "
        "checks the paper's",
        'Judge a function (K, n, sigma0_sq, sigma_sq) -> float in your own file, claimed to bound an '
        "algorithm's Bayesian failure probability or simple regret under the paper's model: against the rate "
        "study's measured truth (a refutation names K, n, sigma0_sq and sigma_sq), its tightness and exponent "
        'in n, where it is informative, and (failure) an adversarial Monte Carlo search. Prints a claim as '
        "'claims' does; writes nothing.",
        (
            P('bound', metavar='FILE.py:NAME', help='your function, as path/to/file.py:NAME or module:NAME'),
            P('--quantity', 'choice', choices=('failure', 'regret'), default='failure', help=
                'what it bounds (default failure)'),
            P('--algorithm', default='rue', help='the algorithm it bounds (a registry name; default rue)'),
            P('--space', metavar='JSON', help=
                'the search space, e.g. \'{"K": [2, 10], "n": [50, 500]}\' (K, n, sigma0_sq, sigma_sq; default '
                'K 2-30, n 20-3000, variances 0.1-10)'),
            P('--rates', metavar='DIR', help="a rate study's directory (default: the study shipped)"),
            P('--json', 'switch', help='print the claim as JSON (as claims --json)'),
            VERBOSE,
            P(('-q', '--quiet'), 'switch', help='no progress lines'),
        ), compiles=True),
    'vacuity': Command(
        'smallest n at which Theorem 5.1 or 5.2 falls below 1',
        'Search n for the first value at which a bound of Section 5 is below 1.',
        (
            P('--K', 'int', low=2, high=MAX_K, required=True, help='number of arms (2..1e4)'),
            P('--sigma0-sq', 'real', low=0, open_low=True, aliases=('--sigma0_sq',), help=
                'prior variance sigma0^2 (> 0)'),
            P('--sigma-sq', 'real', low=0, open_low=True, aliases=('--sigma_sq',), help=
                'likelihood variance sigma^2 (> 0)'),
            P('--map', 'switch', help='the smallest n over a grid of sigma0_sq x sigma_sq'),
            P('--delta', 'real', low=0, high=1, open_low=True, required=True, help='delta = nu^2 / sigma^2, in (0, 1]'),
            P('--bound', 'choice', choices=('theorem_5_1', 'theorem_5_2'), default='theorem_5_1', help='which bound'),
            P('--n-max', 'int', low=2, high=10 ** 15, default=10 ** 12, help=
                'largest n searched (default 1e12)'),
            JSON,
        )),
    'simulate': Command(
        'run RUE and its baselines on a benchmark environment',
        'Monte Carlo error rates (exact binomial intervals) and simple regret of the algorithms on setup F1-F6 '
        '(fixed means), R1-R3 (random means) or your own means.',
        (
            P('--setup', 'setup', help=
                "F1..F6, R1..R3, or M: the model of Section 3 (every run's means from N(0, --mean-var), "
                'Gaussian rewards of variance --nu-sq, default 1) (default F1; case does not matter)'),
            P('--mean-var', 'real', low=0, high=1e6, open_low=True, default=1.0, help=
                "setup M: the variance sigma0^2 of the arm means' prior N(0, sigma0^2) (default 1)"),
            P('--means', 'means', help=
                'custom arm means, comma-separated (K is their number; Bernoulli means must lie in [0, 1])'),
            P('--means-file', metavar='PATH', help='a file of custom means (separated by commas, spaces or newlines)'),
            P('--K', 'int', low=2, high=MAX_K, help='number of arms (default 20; taken from --means if given)'),
            P('--budget', 'budget', default='H', help=
                'an integer (1e4 works), or H/2, H, 2H (fixed or custom means; default H)'),
            P('--algorithms', 'algorithms', help=
                'comma-separated names (default: every algorithm in the registry: {algorithms}); an algorithm of '
                'your own as module:NAME or path/to/file.py:NAME (see simulate.algorithms.external), or an installed '
                'entry point'),
            P('--runs', 'int', low=1, high=MAX_RUNS, default=1000, help='runs per algorithm (default 1000)'),
            MASTER_SEED,
            P('--reward', 'choice', choices=('bernoulli', 'gaussian'), help=
                "reward law (default: the setup's own, Gaussian for R1 and Bernoulli otherwise)"),
            P('--nu-sq', 'real', low=0, high=1e6, open_low=True, aliases=('--nu_sq',), help=
                "Gaussian reward noise variance (default: the setup's own, 1 for R1, else 0.25)"),
            P('--normal-scale', 'choice', choices=('variance', 'sd'), default='variance', help=
                'reading of N(0.5, 0.1) in R1/R2: variance 0.1 or standard deviation 0.1'),
            P('--clip-policy', 'choice', choices=('redraw', 'clip', 'error'), default='redraw', help=
                'Bernoulli means drawn outside [0, 1] (R2): redraw, clip, or stop'),
            P('--H-convention', 'choice', choices=('suboptimal', 'section2'), default='suboptimal', help=
                "H for budgets and UCB-E: over suboptimal arms (authors' code) or Section 2's"),
            P('--workers', 'int', low=1, high=1024, help='threads (default: all cores; results do not depend on it)'),
            P('--crn', 'switch', help='common random numbers: every algorithm sees the same reward stream of each arm'),
            P('--level', 'real', low=0, high=1, open_low=True, open_high=True, default=0.95, help=
                'interval level, in (0, 1) (default 0.95)'),
            P('--json', 'switch', help='print every parameter and result as JSON'),
            QUIET,
        ), compiles=True, registry=True),
    'bench': Command(
        'throughput of the compiled kernels and the numpy references',
        None,
        (
            P('--algorithms', 'bench', help=
                "comma-separated subset (default: all; rue-known-plain and rue-known-lazy force RUE's two "
                'argmax paths)'),
            P('--large-k', 'switch', help=
                'instead: RUE with known variances at K = 20-1000, the plain pass over every arm against the '
                'lazy argmax (indices evaluated per round, arm-rounds per second, share of the division + '
                'square-root ceiling); the crossover K is read off it'),
            P('--refit', 'switch', help=
                "instead: RUE's ML and REML variance estimates refitted every round against the kernels' "
                'schedule (as the pulls grow by 1/16), on the same 400 runs at K = 10, n = 1e4: the share of '
                "identical runs, the simple regret's ratio (95%%) and both wall times"),
            P('--reference-seconds', 'real', low=0, high=3600, default=3.0, help='time budget per numpy reference'),
            P('--repeats', 'int', low=1, high=100, default=3, help=
                'timings per compiled kernel, interleaved across kernels; the best is reported, the slowest in '
                'brackets (default 3)'),
            P('--json', 'switch', help='every row (timings, host checks) as JSON on stdout; the table goes to stderr'),
            P('--commands', 'switch', help=
                "time the README's commands instead (claims, report --quick; cold and warm numba cache; wall "
                'time and CPU utilisation), each in a fresh process'),
            P('--histories', 'switch', help=
                "instead: the exact history search's speed and reach, per route and step (sequences visited per "
                "second, the largest n at each K; the quick ledger's grid, or --thorough's), then the "
                "induction's solver times per step"),
            P('--thorough', 'switch', help=
                "with --commands: also time claims --thorough; with --histories: the thorough ledger's grid"),
            QUIET,
        ), compiles=True, registry=True),
    'table': Command(
        "error table of every algorithm on fixed setups (Section 6.2's design)",
        None,
        (
            P('--setups', 'names', choices=F_SETUPS, upper=True, default=('F1', 'F2', 'F3'), help=
                'comma-separated fixed setups (default F1,F2,F3)'),
            P('--budgets', 'budgets', default=tuple(FIXED_BUDGETS), help=
                f"comma-separated budgets: integers or {', '.join(FIXED_BUDGETS)} (default all)"),
            P('--K', 'int', low=2, high=MAX_K, default=20, help='number of arms (default 20)'),
            P('--runs', 'int', low=1, high=MAX_RUNS, default=1000, help='runs per cell (default 1000)'),
            MASTER_SEED,
            P('--out', help='directory for fixed-setups.md and fixed-setups.json (e.g. docs)'),
            P('--json', 'switch', help='print the table as JSON'),
            QUIET,
        ), compiles=True),
    'report': Command(
        'the ledger and every figure in one page (index.html, report.md, figures)',
        "Run the claims ledger and draw every figure family (the paper's bounds against the exact truth and "
        'simulation, the reproduction of Section 6) into a static HTML page that works from the file system, '
        'with the same content in Markdown.',
        (
            P('--quick', 'switch', group='size', help='fewer simulated runs (the default; about 2 minutes)'),
            P('--full', 'switch', group='size', help='10x the simulated runs (about 10 minutes)'),
            P('--out', default='report', help='output directory (default ./report)'),
            *LEDGER,
            P('--workers', 'processes', help=
                'processes the claims and figures run in (default: every core; the results do not depend on it)'),
            P('--seed', 'seed', default=0, help="seed of the figures' simulations (default 0)"),
            P('--bounds', 'bounds', metavar='Q=FILE.py:NAME', help=
                'your bounds to draw in the landscape, comma-separated: failure=mybounds.py:NAME or '
                'regret=mybounds.py:NAME (functions of K, n, sigma0_sq, sigma_sq; see check-bound)'),
            P('--id', dest='ids', metavar='ID', nargs='+', help=
                'only these claims (comma-separated IDs, as claims --id)'),
            P('--section', metavar='SECTION', nargs='+', help=
                "only the claims of these sections of the paper (as the report's filter names them; an unknown "
                "one is listed against the paper's)"),
            P('--redraw', 'switch', help=
                "draw every figure, even one whose table equals that of the figure shipped with the package (by "
                "default its images are copied; RUE_VERIFY_REDRAW=1 does the same)"),
            JSON_WRITTEN,
            QUIET,
        ), compiles=True, kept="the previous report, if there was one, is unchanged"),
    'rates': Command(
        'the rate study: Bayesian failure probability and simple regret under the model, and their exponents in '
        'n and K',
        "Estimate every algorithm's Bayesian failure probability and simple regret under the model of Section 3 "
        '(means from the Gaussian prior, Gaussian rewards) over budgets spanning decades and several (K, '
        'sigma0^2, sigma^2), with conditional (Rao-Blackwell) estimators on common random numbers, into a '
        'resumable result directory; print the fitted exponents. The ledger and the report read the paper-scale '
        'study shipped with the package unless given --rates DIR.',
        (
            P('--quick', 'switch', group='size', help='400 runs, budgets to 1e5 (the default; about 20 s on 2 cores)'),
            P('--paper', 'switch', group='size', help=
                'the shipped study: 4000 runs, budgets to 1e6, K to 100 (about 8 minutes on 2 cores)'),
            P('--out', help='result directory (default rates-quick or rates-paper); rerunning resumes'),
            P('--show', metavar='DIR', help=
                'print the exponents, constants and efficiencies against the limit of a stored study (a '
                "directory, or 'shipped') without simulating"),
            P('--split', 'switch', help=
                "instead: split RUE's, the top pair's and the oracle's simple regret at each common-prior "
                "setting's largest budget into the near-tie part (top two within 5 sigma/sqrt(n), where the "
                "limit's constant comes from) and the rest, each as n sr_n over the limit's constant (runs the "
                "scale's simulations again: a minute with --quick, several with --paper)"),
            P('--cliff', 'switch', help=
                'instead: the exploration-constant study (claim EXPLORE-CLIFF): RUE with DEG in 0.5, 1, 1.5, 2, '
                '3, 4 and its top-two balanced variant at K = 10 and 30, n = 1e4 and 1e5, into --out (default '
                "cliff-quick or cliff-paper; with --show DIR, a stored one); prints each variant's n sr_n over "
                "the limit's constant, e_n and the share of runs starving the best arm (--quick: 400 runs per "
                'point, about 2 minutes; --paper: 4000, the shipped study, about 5 minutes)'),
            P('--estimators', 'switch', help=
                'instead: the variance-estimator study (claims VAR-EST-COST, VAR-EST-METHODS, TOPTWO-REST): RUE '
                "and its top-two variant told the variances or estimating them (the authors' moments, unbiased "
                'moments, ML, REML) at K = 10 and 30, n = 1e4 and 1e5, paired across estimators, into --out '
                '(default estimators-quick or estimators-paper; with --show DIR, a stored one); prints n sr_n '
                "over the limit's constant, its near-tie and rest parts, e_n and the mean end-of-run estimates "
                '(--quick: 400 runs per point; --paper: 4000, the shipped study)'),
            *SWEEP,
            P('--json', 'switch', help='print the exponents, constants and efficiencies as JSON'),
            QUIET,
        ), compiles=True, kept=_RESUMES),
    'reproduce': Command(
        'rerun Section 6 and its appendix; figures, tables and the empirical claims',
        'Run the experimental section of the paper (Figures 2-5) into a result directory (results.csv, PNG/SVG '
        "figures, summary.md with the empirical claims' verdicts). A killed run resumes where it stopped when "
        'the same command is run again.',
        (
            P('--quick', 'switch', group='size', help='fewer runs and instances (the default; about 2 minutes)'),
            P('--paper', 'switch', group='size',
              help="the paper's scale (about 9 minutes on 2 cores of an AMD EPYC, 19 of an Intel Xeon)"),
            P('--out', help='result directory (default reproduction-quick or reproduction-paper)'),
            P('--conventions', 'names', choices=('project', 'authors'), default=('project', 'authors'), help=
                'index-tie conventions to run: project (random ties) and/or authors (lowest index in SH and '
                "two-stage, as the authors' code); default both"),
            P('--studies', 'names', choices=('fixed', 'random', 'arms', 'two-stage'), help=
                'comma-separated subset of fixed, random, arms, two-stage (default all)'),
            P('--algorithms', 'algorithms', help=
                "comma-separated algorithms run on the fixed, random and arms studies (default the paper's: "
                'rue, ucbe, sr, sh, ttts): registry names, module:NAME, path/to/file.py:NAME or installed entry '
                'points'),
            P('--redraw', 'switch', help=
                'draw the figures and write summary.md from stored results without simulating (the results in '
                '--out, or --results DIR, or --results shipped for the paper-scale run in the package)'),
            P('--results', metavar='DIR', help="with --redraw: where the results are ('shipped' for the package's)"),
            P('--rue-estimators', 'switch', help=
                "instead: rerun RUE's tasks of the grid with each other variance estimator (unbiased moments, "
                "ML, REML; the shipped rows use the authors' estimates) into --out (default "
                'reproduction-estimators-quick or -paper), same seed, so each pairs with the baselines; the '
                "report judges Section 6's claims with each (the section6-estimators figure)"),
            *SWEEP,
            JSON_WRITTEN,
            QUIET,
        ), compiles=True, registry=True, kept=_RESUMES),
    'new-paper': Command(
        'write NAME.py, a paper file of your own that runs as it stands',
        'Write NAME.py: a paper plug-in with one claim of each kind the engine decides (a closed form proved by '
        'sympy or z3, a false one refuted with a witness, a bound against the simulator with its tightness, a '
        'Monte Carlo refutation whose witness recomputes, a proof resting on claims, a repair), each part to '
        'change commented. Then: rue-verify claims --paper NAME.py.',
        (
            P('name', metavar='NAME', help=
                "the paper's name (a letter, then letters, digits, '-' or '_'), or a path ending in NAME.py"),
            P('--dir', default='.', help='the directory to write NAME.py in (default: here)'),
            P('--force', 'switch', help='replace an existing NAME.py'),
        )),
}
