"""Progress bars on stderr for the long commands (tqdm), counted in the units the user waits for."""

from __future__ import annotations

import sys
from typing import Callable


def claims_bar(ids: list[str], desc: str = "claims", enabled: bool = True) -> tuple[object, Callable[[str], None]]:
    """A bar over the ledger's claims and the callback `run_ledger` calls before each claim: the bar
    counts finished claims and shows the one running."""
    from tqdm import tqdm
    bar = tqdm(total=len(ids), desc=desc, unit="claim", file=sys.stderr, disable=None if enabled else True,
               leave=False)
    started = []

    def before(cid: str) -> None:
        if started:
            bar.update(1)
        started.append(cid)
        bar.set_postfix_str(cid)
    return bar, before
