"""The `rue-verify` command line. Thin: every subcommand parses its flags, calls the one function of
`rue_verify.api` that is that command (a notebook calls the same), and prints the `Output` it returns:
its JSON record with --json, else its text; its notes on stderr; its status as the exit status.

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
import inspect
import os
import sys
import threading
from typing import Sequence

from ..api.output import BadValue
from ..api.params import COMMANDS as PARAMS
from ..errors import ParameterError
from .commands import build_parser, formula_params

#: the commands whose size is a flag: report --full, reproduce and rates --paper (else quick)
SCALES = {"report": "full", "reproduce": "paper", "rates": "paper"}


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _flag(command: str, param: str) -> str:
    """How the command line spells parameter `param` of `command`: its declared flag (a positional by its
    name), else '--' and hyphens for '_' (a generated flag)."""
    declared = {p.name: p.names[-1] for p in PARAMS[command].params}
    return declared.get(param, "--" + param.replace("_", "-"))


def _say_if_compiling(quiet: bool = False) -> None:
    """One line on stderr when a kernel of the package is actually being compiled (numba's compile
    event: a kernel loaded from numba's cache raises none), saying where numba keeps them; nothing on
    a run that compiles nothing."""
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


def _announce(cost) -> None:
    """Before a long simulation (over a minute at the throughput measured now): its size and duration."""
    if cost.seconds is not None and cost.seconds > 60:
        print(f"rue-verify: {cost.sentence()}.", file=sys.stderr)


def _stderr(line: str) -> None:
    print(line, file=sys.stderr)


def _kwargs(fn, args: argparse.Namespace, extra: list[str]) -> dict:
    """The API call of a parsed command line: each flag under its parameter's name, the size as `scale`,
    `quiet` as `progress`, the algorithms' generated flags as `params`, running lines to stdout (to stderr
    under --json, where stdout is the JSON)."""
    given = vars(args)
    wanted = {k for k, v in inspect.signature(fn).parameters.items() if v.kind != v.VAR_KEYWORD}
    quiet, as_json = given.get("quiet", False), given.get("json", False)
    kw = {k: v for k, v in given.items() if k in wanted}
    kw.update({k: v for k, v in (("progress", not quiet),
                                 ("echo", _stderr if as_json else print), ("announce", _announce)) if k in wanted})
    if args.cmd in SCALES:
        kw["scale"] = SCALES[args.cmd] if given[SCALES[args.cmd]] is True else "quick"
    if "params" in wanted:
        kw["params"] = {k: v for k, v in given.items() if ":" in k}
    if args.cmd == "check-bound":
        kw["progress"] = None if quiet else _stderr
    if args.cmd == "bound":
        kw.update(name=None if args.list else args.name, form="latex" if args.latex else
                  "symbolic" if args.symbolic else "value")
        if kw["name"] is not None and kw["form"] == "value":
            from bounds.registry import REGISTRY
            if args.name in REGISTRY:
                kw.update(formula_params(REGISTRY[args.name], extra))
    return kw


def _main(argv: Sequence[str] | None = None) -> int:
    from .. import api
    from ..verify.findings import dumps
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(full=any(w in PARAMS and PARAMS[w].registry for w in words))
    try:
        args, extra = parser.parse_known_args(argv)
    except SystemExit as exc:               # --help, --version (0) or a parse error (2, one line printed)
        return int(exc.code or 0)
    if args.cmd != "bound" and extra:
        return _fail(f"unrecognized arguments: {' '.join(extra)} (see 'rue-verify {args.cmd} --help')")
    if PARAMS[args.cmd].compiles and not getattr(args, "show", None):    # rates --show compiles nothing
        _say_if_compiling(getattr(args, "quiet", False) or getattr(args, "json", False))
    fn = api.COMMANDS[args.cmd]
    try:
        out = fn(**_kwargs(fn, args, extra))      # formula_params: a ValueError naming the flag
    except ParameterError as err:
        value = f" {err.value}" if isinstance(err, BadValue) else ""
        return _fail(f"{_flag(args.cmd, err.param)}{value}: {err.reason}")
    except (ValueError, OSError) as err:
        return _fail(str(err))
    if getattr(args, "json", False):
        print(dumps(out.data, indent=2))
    elif out.text:
        print("\n".join(out.text))
    for line in out.notes:
        print(line, file=sys.stderr)
    return out.status


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
    print(f"interrupted; {PARAMS[cmd].kept if cmd in PARAMS else 'nothing was written'}", file=sys.stderr)
    if threading.current_thread() is threading.main_thread() and argv is None:
        # the console command: leave now, as everything kept is already on disk (the stack has unwound, so every
        # file is whole or renamed away, and the worker pool is stopped): a compiled kernel still busy in its
        # helper thread would be waited for at interpreter exit, and a stopped process pool's exit handler
        # (concurrent.futures' _python_exit) can raise there and print a traceback after the one line
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    return 130
