"""Decide a step of your own on every reward history of RUE (`rue-verify decide FILE.py:NAME`, or
`decide(step, ...)` from a claims file): the exact history search that decides the paper's steps on E
(`verify.histories`, RUE's linear form `simulate.proofs.linear.RUELinear`), applied to a condition you
write. The answer is a history on E that breaks the step, replayed through the plain reference RUE,
or "no history up to n".

A step is a function `step(m, arms) -> list[Violation]`, called on every full pull sequence `arms`
(0-based arms, arm 0 the best): `m` is the model (counts `m.counts(arms)`, widths `m.width(arms)`,
ctilde `m.ctilde(T)`, eta `m.eta`, the column of arm k's mean `m.mu(k)`), and each `Violation` is a set
of linear rows (`Row(idx, coef, lo, hi)`: lo <= coef . z[idx] <= hi over the rewards and the means,
`MARGIN` the column of the violation's margin) that together say "the step fails here". The helpers
`gap_at_least(m, k, x)` and `gap_below(m, k, x)` write Delta_k > x and Delta_k < x with the margin.
"""

from __future__ import annotations

import math
from typing import Callable

from simulate.proofs.linear import Row

from .ledger.proof_histories import Params, check_replays, gap_at_least, gap_below
from .verify.histories import MARGIN, Violation, search

ROUTES = ("paper", "repaired")

__all__ = ["MARGIN", "ROUTES", "Row", "Violation", "decide", "gap_at_least", "gap_below"]


def decide(step: Callable, K: int, n: int, sigma0_sq: float = 1.0, sigma_sq: float = 1.0,
           route: str = "paper") -> dict:
    """Search every history of RUE with known variances on E for one that breaks `step`.

    Args:
        step: (model, arms) -> list of `Violation` (module docstring).
        K: arms, an integer in [2, 6] (the tree grows like K^n).
        n: the budget, an integer in [2K + 1, 20].
        sigma0_sq, sigma_sq: the prior and reward variances RUE is told, > 0.
        route: 'paper' (Theorem 5.1's eta, E on rounds 2K+1..n) or 'repaired' (eta_repaired, rounds 2K..n).

    Returns:
        {params, holds, visited, leaves, pruned, programs, seconds} and, where the step breaks, the
        witness: the pulls (1-based), rewards in order, means, the violation's label and data, its margin.
    """
    for name, v, lo, hi in (("K", K, 2, 6), ("n", n, 2 * K + 1 if isinstance(K, int) else 5, 20)):
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {v!r}")
    for name, v in (("sigma0_sq", sigma0_sq), ("sigma_sq", sigma_sq)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
    if route not in ROUTES:
        raise ValueError(f"route must be one of {', '.join(ROUTES)}, got {route!r}")
    p = Params(K, n, float(sigma0_sq), float(sigma_sq), route)
    out = search(p.model(), step)
    res = {"params": p.as_dict(), "holds": out.holds, "visited": out.visited, "leaves": out.leaves,
           "pruned": out.pruned, "programs": out.programs, "seconds": round(out.seconds, 3)}
    if out.witness is not None:
        check_replays(p, out)             # a witness that does not replay is a bug, not a finding
        w, m = out.witness, p.model()
        res["witness"] = {"pulls": [a + 1 for a in w.arms], "rewards": w.z[:m.n].tolist(),
                          "means": w.z[m.n:m.n + K].tolist(), "where": w.violation.label,
                          "data": dict(w.violation.data), "margin": float(w.margin)}
    return res
