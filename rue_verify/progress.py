"""Progress bars on stderr for the long commands (tqdm), counted in the units the user waits for."""

from __future__ import annotations

import sys
from typing import Callable


def stepper(bar) -> Callable[[str], None]:
    """The callback to call before each step (a claim, a figure): the bar counts finished steps and
    shows the one running."""
    started = []

    def before(name: str) -> None:
        if started:
            bar.update(1)
        started.append(name)
        bar.set_postfix_str(name)
    return before


def claims_bar(ids: list[str], desc: str = "claims", enabled: bool = True) -> tuple[object, Callable[[str], None]]:
    """A bar over the ledger's claims and the callback `run_ledger` calls before each claim."""
    from tqdm import tqdm
    bar = tqdm(total=len(ids), desc=desc, unit="claim", file=sys.stderr, disable=None if enabled else True,
               leave=False)
    return bar, stepper(bar)
