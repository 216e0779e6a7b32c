"""Code of yours that fails, said in one line: which exception, and where in your file (`one_line`);
the time limit your code runs under (`time_limit`). A claim whose check raises, returns something
that is not (summary, findings) or runs past its limit is a result that reads `error` (`claims.run_claim`),
not the end of the run: like pytest's errors, every other verdict of the run is kept. Nothing here
knows a paper."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import traceback
from pathlib import Path

#: the packages of this toolkit: a frame in them is the engine's, not your code
_OURS = tuple(str(Path(__file__).resolve().parents[2] / p) + os.sep for p in ("rue_verify", "simulate", "bounds"))


class TimeLimit(Exception):
    """Your code ran past its time limit (`time_limit`)."""


def _yours(filename: str) -> bool:
    """A frame of code that is neither this toolkit's nor Python's nor an installed library's."""
    f = str(Path(filename).resolve()) if not filename.startswith("<") else filename
    return not (f.startswith(_OURS) or f.startswith("<") or "site-packages" in f or "/lib/python3" in f)


def where(exc: BaseException, ours: bool = True) -> str:
    """Where `exc` was raised in your code: 'file.py:LINE in FUNCTION' of the last frame of the
    traceback that is yours (else, with `ours`, the last frame of this toolkit's); '' if none is."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    mine = [f for f in frames if _yours(f.filename)] or [f for f in frames if ours and f.filename.startswith(_OURS)]
    if not mine:
        return ""
    f = mine[-1]
    return f"{Path(f.filename).name}:{f.lineno} in {f.name}"


def one_line(exc: BaseException, ours: bool = True) -> str:
    """`exc` in one line: 'TYPE: message (file.py:LINE in FUNCTION)' (`where`)."""
    msg = " ".join(str(exc).split()) or "(no message)"
    if len(msg) > 300:
        msg = msg[:297] + "..."
    at = where(exc, ours)
    return f"{type(exc).__name__}: {msg}" + (f" ({at})" if at else "")


def declared_at(fn) -> str:
    """Where function `fn` is defined: 'file.py:LINE' ('' where Python does not know)."""
    code = getattr(fn, "__code__", None)
    return f"{Path(code.co_filename).name}:{code.co_firstlineno}" if code is not None else ""


@contextlib.contextmanager
def time_limit(seconds: float | None, what: str, raise_with: str = ""):
    """Run the block under a wall-clock limit of `seconds` (None or <= 0: none): past it, a `TimeLimit`
    saying that `what` ran past `seconds` s (and `raise_with`, how to raise the limit) is raised inside
    the block. A limit needs the main thread of a process with SIGALRM (elsewhere the block runs
    without one); code inside a compiled kernel is stopped when the kernel returns to Python. A limit
    already running outside is kept: the nearer of the two applies, and the outer one is restored."""
    if not seconds or seconds <= 0 or not hasattr(signal, "SIGALRM") \
            or threading.current_thread() is not threading.main_thread():
        yield
        return
    outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
    if outer_left and outer_left < seconds:        # an enclosing limit comes first: it stays in charge
        yield
        return

    def stop(signum, frame):
        raise TimeLimit(f"{what} ran past its time limit of {seconds:g} s" + (f" ({raise_with})" if raise_with else ""))

    previous = signal.signal(signal.SIGALRM, stop)
    import time
    t0 = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_left:                             # give the enclosing limit what it has left
            signal.setitimer(signal.ITIMER_REAL, max(outer_left - (time.monotonic() - t0), 1e-3))


class OutOfMemory(Exception):
    """Your code asked for more memory than the machine has free (`memory_limit`)."""


def _address_space() -> int:
    """Bytes of address space this process maps now (VmSize), 0 where unknown."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@contextlib.contextmanager
def memory_limit(what: str):
    """Run the block with this process's address space capped at what it maps now plus the memory the
    machine has free (`simulate.cost.available_memory`): an allocation past it is an `OutOfMemory`
    saying that `what` needs more than the machine has, instead of the machine swapping or the kernel
    killing the process. Where the limit cannot be set (no `resource`, no /proc) the block runs without one."""
    try:
        import resource
    except ImportError:
        yield
        return
    from simulate.cost import available_memory
    now = _address_space()
    if not now:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = int(now + available_memory())
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    if soft != resource.RLIM_INFINITY and soft < cap:         # a tighter limit is set already: keep it
        cap = soft
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    except MemoryError:
        raise OutOfMemory(f"{what} needs more memory than this machine has free ({available_memory() / 2 ** 30:.1f} "
                          "GiB); choose a smaller point") from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
