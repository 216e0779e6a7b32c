"""The command line's grammar: one parser class and the argument types every subcommand uses.

- Numbers: an integer may be written in any exact form (`10000`, `1e4`, `1_000`); a real number must
  be finite; both are checked against their range. Lists are comma-separated.
- Flags are hyphenated (`--nu-sq`); the older underscore spellings still work as hidden aliases.
- Bad input is one line on stderr naming the flag, and exit status 2 (`Parser.error`).
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Callable, Iterable


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line ('error: argument --runs: ...') and status 2."""

    def error(self, message: str):
        print(f"error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)


def _fail(text: str):
    raise argparse.ArgumentTypeError(text)


def _number(text: str) -> float:
    try:
        return float(str(text).replace("_", ""))
    except ValueError:
        _fail(f"expected a number, got {text!r}")


def _range_text(low, high, open_low=False, open_high=False) -> str:
    lo = "-inf" if low is None else f"{low:g}"
    hi = "inf" if high is None else f"{high:g}"
    return f"{'(' if open_low or low is None else '['}{lo}, {hi}{')' if open_high or high is None else ']'}"


def integer(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An integer in [low, high], written in any exact form ('1e4' is 10000; '2.5' is refused)."""
    def parse(text: str) -> int:
        v = _number(text)
        if not math.isfinite(v) or v != math.floor(v) or abs(v) > 2 ** 53:
            _fail(f"expected an integer, got {text!r}")
        v = int(v)
        if (low is not None and v < low) or (high is not None and v > high):
            _fail(f"must be an integer in {_range_text(low, high)}, got {text}")
        return v
    parse.__name__ = "integer"
    return parse


#: the memory one worker process needs (Python, numpy, numba and a task's arrays; measured 0.2-0.3 GiB
#: resident on the Intel host for a ledger or sweep worker, taken with room)
WORKER_BYTES = 0.5 * 2 ** 30


def processes(text: str) -> int:
    """A number of worker processes: an integer from 1 up to the cores this process may use and the
    worker processes the free memory holds (`WORKER_BYTES` each); past either, refused naming both."""
    from simulate.cost import available_memory

    from ..verify.parallel import cores
    v = integer(1, None)(text)
    free = available_memory()
    cap = max(1, min(cores(), int(free // WORKER_BYTES)))
    if v > cap:
        _fail(f"at most {cap} worker processes here ({cores()} cores, {free / 2 ** 30:.1f} GiB free at about "
              f"{WORKER_BYTES / 2 ** 30:.1f} GiB a process), got {v}")
    return v


def real(low: float | None = None, high: float | None = None, open_low: bool = False,
         open_high: bool = False) -> Callable[[str], float]:
    """A finite real number in the given range."""
    def parse(text: str) -> float:
        v = _number(text)
        if not math.isfinite(v):
            _fail(f"expected a finite number, got {text!r}")
        if (low is not None and (v < low or (open_low and v == low))) or \
                (high is not None and (v > high or (open_high and v == high))):
            _fail(f"must be a number in {_range_text(low, high, open_low, open_high)}, got {text}")
        return v
    parse.__name__ = "number"
    return parse


def names(choices: Iterable[str], fold: Callable[[str], str] = str) -> Callable[[str], list[str]]:
    """A non-empty comma-separated list of names from `choices` (compared after `fold`)."""
    choices = list(choices)

    def parse(text: str) -> list[str]:
        items = [fold(x.strip()) for x in str(text).split(",") if x.strip()]
        if not items:
            _fail(f"expected a comma-separated list of {', '.join(choices)}")
        bad = [x for x in items if x not in choices]
        if bad:
            _fail(f"unknown {', '.join(bad)}; choose from {', '.join(choices)}")
        return items
    parse.__name__ = "list"
    return parse


def algorithm_names(choices: Iterable[str]) -> Callable[[str], list[str]]:
    """A non-empty comma-separated list of algorithms: registry names from `choices`, or outside
    algorithms (module:NAME, path/to/file.py:NAME, an installed entry point), each loaded here so a
    bad one is one line before any work."""
    choices = list(choices)

    def parse(text: str) -> list[str]:
        items = [x.strip() for x in str(text).split(",") if x.strip()]
        if not items:
            _fail(f"expected a comma-separated list of {', '.join(choices)} or module:NAME / file.py:NAME")
        for x in items:
            if x not in choices:
                from simulate.algorithms import get
                try:
                    get(x)
                except ValueError as err:
                    _fail(str(err))
        return items
    parse.__name__ = "list"
    return parse


def reals(low: float | None = None, high: float | None = None, min_items: int = 1) -> Callable[[str], list[float]]:
    """A comma-separated list of finite numbers in [low, high]."""
    one = real(low, high)

    def parse(text: str) -> list[float]:
        items = [x for x in str(text).split(",") if x.strip()]
        if len(items) < min_items:
            _fail(f"expected at least {min_items} comma-separated numbers")
        return [one(x) for x in items]
    parse.__name__ = "numbers"
    return parse


def alias(parser: argparse.ArgumentParser, old: str, dest: str, **kw) -> None:
    """An old spelling of a flag that still works and is not shown in --help."""
    parser.add_argument(old, dest=dest, help=argparse.SUPPRESS, **kw)
