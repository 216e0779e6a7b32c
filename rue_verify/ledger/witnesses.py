"""A witness computed again from scratch: through the recomputation its claim declares (`core.claim`'s
`recompute`, from `bounds`), or, for a Monte Carlo witness that carries its seed key, by rerunning
the search's simulation from that key (`proof_search.recompute`)."""

from __future__ import annotations

from .core import Claim
from .proof_histories import recompute as replay_history
from .proof_search import recompute as rerun


def recompute_witness(claim: Claim, w: dict) -> tuple[float, float]:
    """Both sides (lhs, rhs) of witness `w` (`core.witness`: its `params`, and for a seed-keyed
    Monte Carlo witness `events` and `level`) of `claim`, computed again."""
    if "seed_key" in w["params"]:
        return rerun(w)
    if "history" in w["params"]:            # a history of the exact search, replayed by the plain reference RUE
        return replay_history(w)
    if claim.recompute is None:
        raise ValueError(f"{claim.id}: no recomputation is declared for its witness {w}")
    return claim.recompute(w["params"])
