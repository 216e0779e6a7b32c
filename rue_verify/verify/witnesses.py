"""A witness computed again from scratch: through the recomputation its claim declares
(`claims.claim`'s `recompute`), or, for a witness that carries what a search ran (a Monte Carlo
search's seed key, an exact search's reward history), by the replay the module owning that search
registers (`register_replay`). The engine imports no search of a paper: the owners register."""

from __future__ import annotations

from typing import Callable

from .claims import Claim

#: a witness's params key -> the replay of witnesses that carry it (`register_replay`), in the order
#: registered (the first key a witness carries decides)
REPLAYS: dict[str, Callable[[dict], tuple[float, float]]] = {}


def register_replay(key: str, replay: Callable[[dict], tuple[float, float]]) -> None:
    """Declare how witnesses whose params carry `key` are computed again: `replay(witness)` ->
    (lhs, rhs). Called by the module that owns the search that makes such witnesses.

    Args:
        key: the params key that marks such a witness ('seed_key', 'history').
        replay: the whole witness -> its two sides, computed again.
    """
    if key in REPLAYS and REPLAYS[key] is not replay:
        raise ValueError(f"a replay of witnesses carrying {key!r} is registered already ({REPLAYS[key].__module__})")
    REPLAYS[key] = replay


def recompute_witness(claim: Claim, w: dict) -> tuple[float, float]:
    """Both sides (lhs, rhs) of witness `w` (`findings.witness`: its `params`, and what its search
    adds) of `claim`, computed again."""
    key = next((k for k in REPLAYS if k in w["params"]), None)
    if key is not None:
        return REPLAYS[key](w)
    if claim.recompute is None:
        raise ValueError(f"{claim.id}: no recomputation is declared for its witness {w}")
    return claim.recompute(w["params"])
