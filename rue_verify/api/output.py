"""What a command returns (`Output`), and the helpers every command shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..errors import ParameterError


@dataclass
class Output:
    """A command's result. data: its JSON record (what `--json` prints, through
    `verify.findings.dumps`); text: the lines it prints for a person; notes: lines for stderr (what
    was written, what could not be judged); status: the exit status (0; 1 when part of the work could
    not be done, the reason in `notes`)."""

    data: Any
    text: list[str]
    notes: list[str] = field(default_factory=list)
    status: int = 0


def ids_of(ids: Iterable[str] | str | None) -> list[str] | None:
    """Claim IDs given as a list, comma-separated strings or both (None or empty: every claim)."""
    if ids is None:
        return None
    toks = [ids] if isinstance(ids, str) else list(ids)
    return [i.strip() for tok in toks for i in str(tok).split(",") if i.strip()] or None


class BadValue(ParameterError):
    """What went wrong with the value given for a parameter (a directory that cannot be written, a
    scheduler that went away): the parameter, the value, the reason."""

    def __init__(self, param: str, value: Any, reason: str):
        super().__init__(param, reason)
        self.value = value

    def __reduce__(self):
        return (type(self), (self.param, self.value, self.reason))


def cannot_write(param: str, value: Any, err: OSError) -> BadValue:
    """The error of a write to `value` (parameter `param`) that failed with `err`."""
    return BadValue(param, value, f"cannot write {err.filename or value} ({err.strerror or err})")


def only(command: str, takes: str, **given: Any) -> None:
    """A ParameterError for the first of `given` (name -> value) that is set: `command` takes only `takes`
    (a flag that would be ignored is refused, never silently dropped)."""
    for name, value in given.items():
        if value:
            raise ParameterError(name, f"{command} {takes}")


def echo_to(out: Callable[[str], None] | None) -> tuple[Callable[[str], None], list[str]]:
    """Where a command's running lines go (a table printed as it is measured), and the list that becomes
    its `text`: to `out` as they come (the text then stays empty: they were shown), or without `out`
    into the text (a notebook gets them when the command returns)."""
    kept: list[str] = []
    return (out or kept.append), kept
