"""Progress bars on stderr for the long commands (tqdm), counted in the units the user waits for."""

from __future__ import annotations

import sys
from typing import Callable


def counter(bar) -> Callable[[str], None]:
    """The callback to call as each step (a claim, a figure) finishes: the bar counts it and names it."""
    def after(name) -> None:
        bar.update(1)
        bar.set_postfix_str(name if isinstance(name, str) else " ".join(map(str, name)))
    return after


def bar(total: int, desc: str, unit: str, enabled: bool = True):
    from tqdm import tqdm
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=None if enabled else True, leave=False)
