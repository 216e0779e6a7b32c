"""A witness computed again from scratch: through the recomputation its claim declares
(`claims.claim`'s `recompute`), or, for a witness that carries what a search ran (a Monte Carlo
search's seed key, an exact search's reward history), by a replay. Replays are namespaced by paper: a
Monte Carlo search (`montecarlo.search`) registers its own replay under its name and the paper of the
claim running it, when it runs (`register_search`), so a seed-keyed witness of any paper recomputes;
a paper may register a replay for its own claims' witnesses carrying a key (`register_replay`),
which never applies to claims of yours added to it.
The engine imports no search of a paper: the owners register."""

from __future__ import annotations

from typing import Callable

from .claims import REGISTRY, Claim, LedgerInputs, Mode, run_claim, running

Replay = Callable[[dict], tuple[float, float]]
#: (paper, a witness's params key) -> the replay of that paper's witnesses that carry it
#: (`register_replay`), in the order registered (the first key a witness carries decides)
REPLAYS: dict[tuple[str, str], Replay] = {}
#: (paper, search name) -> the replay of that search's seed-keyed witnesses (`register_search`)
SEARCHES: dict[tuple[str, str], Replay] = {}


def _paper() -> str:
    from .papers import declarer
    c = running()
    return c.paper if c is not None else (declarer()[0] or REGISTRY.active or "claims")


def register_replay(key: str, replay: Replay, paper: str | None = None) -> None:
    """Declare how a paper's witnesses whose params carry `key` are computed again: `replay(witness)` ->
    (lhs, rhs). Called by the module that owns the search that makes such witnesses.

    Args:
        key: the params key that marks such a witness ('seed_key', 'history').
        replay: the whole witness -> its two sides, computed again.
        paper: the paper whose witnesses it replays (default: the paper being declared).
    """
    at = (paper or _paper(), key)
    if at in REPLAYS and REPLAYS[at] is not replay:
        raise ValueError(f"paper {at[0]!r} has a replay of witnesses carrying {key!r} already "
                         f"({REPLAYS[at].__module__})")
    REPLAYS[at] = replay


def register_search(name: str, replay: Replay) -> None:
    """Declare how the seed-keyed witnesses of the search `name` are computed again (a search does this
    when it runs, under the paper of the claim running it; the same name again replaces it)."""
    SEARCHES[(_paper(), name)] = replay


def recompute_witness(claim: Claim, w: dict) -> tuple[float, float]:
    """Both sides (lhs, rhs) of witness `w` (`findings.witness`: its `params`, and what its search
    adds) of `claim`, computed again: for a claim of the paper's own, by the paper's replay of a key
    the witness carries (the paper's searches made it); else by the claim's own `recompute` (a claim
    of yours is never replayed by the paper's replays); else, for a seed-keyed witness of a Monte
    Carlo search, by that search's replay (its claim is run once, in a mode of the witness's seed,
    where the search has not run in this process). A ValueError where none applies."""
    params = w["params"]
    key = next((k for (p, k) in REPLAYS if p == claim.paper and k in params), None)
    if key is not None and claim.origin == "paper":
        return REPLAYS[(claim.paper, key)](w)
    if claim.recompute is not None:
        return claim.recompute(params)
    if "seed_key" in params:
        name = params["seed_key"][1]
        if (claim.paper, name) not in SEARCHES:       # its search registers its replay when it runs
            run_claim(claim, Mode(seed=params["seed_key"][0], inputs=LedgerInputs(paper=claim.paper)))
        if (claim.paper, name) in SEARCHES:
            return SEARCHES[(claim.paper, name)](w)
        raise ValueError(f"{claim.id}: no search named {name!r} ran in its check, so its witness cannot be replayed")
    raise ValueError(f"{claim.id}: no recomputation is declared for its witness {w}")
