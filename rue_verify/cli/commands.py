"""The command line's parser, built from the commands' declared parameters (`rue_verify.api.params`:
each flag's kind, range, default and help, declared once for the command line and the Python API), with
the flags that are generated (the algorithms' parameters from their registry) and the kinds only text
has, parsed here (setups, budgets, your bounds, a formula's --PARAM VALUE pairs). `cli` only
dispatches, calls and prints.
"""

from __future__ import annotations

import argparse
from typing import Any

from simulate.environments import F_SETUPS, FIXED_BUDGETS, MODEL, R_SETUPS

from .. import __version__
from ..api.params import COMMANDS, MAX_SEED
from .args import Parser, algorithm_names, alias, integer, names, processes, real, reals

#: parameters set for every algorithm at once by a flag of their own (--H-convention also sets the budgets)
SHARED_PARAMS = ("H_convention",)
#: earlier spellings of generated algorithm flags (still accepted, not shown)
OLD_FLAGS = {"--q": "two-stage:q", "--sigma0-sq": "rue:sigma0_sq", "--sigma-sq": "rue:sigma_sq"}
BUDGET_LABELS = tuple(FIXED_BUDGETS)
MAX_BUDGET = 10 ** 9


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
    one = real(p.low, p.high, p.open_low, p.open_high)
    if getattr(p, "per_arm", False):                 # one number per arm, comma-separated ('' for none)
        def each(text: str) -> tuple:
            return tuple(one(x) for x in str(text).split(",") if x.strip())
        each.__name__ = "numbers, one per arm"
        return each
    return one


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


# ---------------------------------------------------------------- the parser
def _type(p, algs: tuple):
    """The argparse type of a declared parameter (`api.params`): its kind and range as a parser of text."""
    kinds = {"int": lambda: integer(p.low, p.high), "real": lambda: real(p.low, p.high, p.open_low, p.open_high),
             "seed": lambda: integer(0, MAX_SEED), "processes": lambda: processes, "files": lambda: names_free,
             "bounds": lambda: your_bounds, "setup": lambda: setup_name, "budget": lambda: budget,
             "budgets": lambda: budgets, "means": lambda: reals(min_items=2),
             "names": lambda: names(p.choices, str.upper if p.upper else str),
             "algorithms": lambda: algorithm_names(algs),
             "bench": lambda: names(("rue", "rue-known") + tuple(a for a in algs if a != "rue")
                                    + ("rue-known-plain", "rue-known-lazy"))}
    return kinds[p.kind]() if p.kind in kinds else None


def _add(parser, p, algs: tuple, groups: dict) -> None:
    """Parameter `p` as an argument of `parser` (in its group of exclusive flags, if it has one)."""
    kw: dict[str, Any] = {"help": p.help.replace("{algorithms}", ", ".join(algs)) if p.help else None}
    if p.kind == "switch":
        kw["action"] = "store_true"
    else:
        kw.update({k: v for k, v in (("type", _type(p, algs)), ("default", p.default), ("metavar", p.metavar),
                                     ("nargs", p.nargs), ("choices", p.choices if p.kind == "choice" else None))
                   if v is not None})
    if p.required:
        kw["required"] = True
    if p.group and p.group not in groups:
        groups[p.group] = parser.add_mutually_exclusive_group()
    target = groups[p.group] if p.group else parser
    names = p.names
    if names[0].startswith("-"):
        target.add_argument(*names, dest=p.name, **kw)
    else:
        target.add_argument(p.name, metavar=p.metavar or None, **{k: v for k, v in kw.items() if k != "metavar"})
    for old in p.aliases:
        alias(parser, old, p.name, type=kw.get("type"))


def build_parser(full: bool = True) -> argparse.ArgumentParser:
    """The parser, built from every command's declared parameters (`api.params.COMMANDS`); with `full`
    False the registry-derived flags (of the commands whose entry says `registry`) are left out, so
    --help and --version do not load numba."""
    algs = tuple(registry()) if full else ()
    p = Parser(prog="rue-verify",
               description="Check the quantitative claims of a paper: by default Zhu & Qiu (TMLR 2024), 'UCB "
                           "Exploration for Fixed-Budget Bayesian Best Arm Identification' (RUE); your own with "
                           "--paper FILE.py after the command (claims, proofs, report, erratum), a file that "
                           "'rue-verify new-paper NAME' starts for you.",
               epilog="Every verdict is computed (a search, an integral, a proof or a simulation); nothing is typed "
                      "in. Lists are comma-separated; integers may be written as 1e4. Every command is also a Python "
                      "function taking its flags as keyword arguments: rue_verify.api.claims(paper=..., ids=[...]), "
                      "rue_verify.api.simulate(setup='F1', runs=1000), ...")
    p.add_argument("--version", action="version", version=f"rue-verify {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    for name, command in COMMANDS.items():
        c = sub.add_parser(name, help=command.help, description=command.description)
        groups: dict = {}
        for param in command.params:
            _add(c, param, algs, groups)
        if name == "simulate" and algs:       # the registry-derived flags (build_parser(full=True))
            algorithm_flags(c)
    return p
