"""The steps of Section 5's proofs that quantify over histories, decided on every history
(`rue_verify.verify.histories`, over RUE's linear form `simulate.proofs.linear.RUELinear`); the steps' rows are
`simulate.proofs.steps`'s (which the Farkas checker rebuilds a certificate from).

Each step below is written as the paper prints it (or as its repair states it): for a full history
of n rounds (arm 1, index 0 here, the best arm), the ways it can fail, each a set of linear rows in
the rewards, the means and a margin m; the step is broken on a history when m > 0 is feasible with
RUE's choices and the event E. E is |mu_k - muhat_{k,t}| <= eta c_{k,t} for t in {2K+1, ..., n}
(proof of Theorem 5.1, as printed) or, on the repaired route, for t in {2K, ..., n}.

The thresholds are the paper's formulas from `bounds` (eq. `Tk_up1`: `theorems.Tk_upper`; eq.
`tilde_c`: `estimation.c_tilde`; eq. `eqn:T1n`: `theorems.T1_lower`), evaluated at the counts the
pull sequence fixes.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable

import numpy as np

from bounds import repaired as rp
from bounds import theorems as th
from simulate.proofs.linear import replay
from simulate.proofs.steps import (  # noqa: F401
    STEPS,
    Params,
    Violation,
    decomp,
    gap_at_least,
    gap_below,
    gap_repaired,
    point,
    prob_dk_v1,
    stated,
    t1n,  # re-exported: the ledger's and users' names for them
    tk_low,
    tk_up,
)

from ..verify import Finding, from_exhaustive, witness
from ..verify.histories import BAND, CAP, Outcome, search, search_best_first, search_many
from ..verify.witnesses import register_replay
from . import proof_history_record as history_record


# ---------------------------------------------------------------- both sides of a step on a replayed history
def sides(step: str, p: Params, r: dict, mu: np.ndarray, data: dict) -> tuple[float, float, str]:
    """(lhs, rhs, relation) of the step as the paper states it, on a history replayed by the plain
    reference RUE (`replay`: counts after every round, the last posterior); the step holds when
    lhs relation rhs."""
    m = p.model()
    Delta = mu[0] - mu
    T = r["T"]
    if step in ("Tk_up1", "eqn:T1n"):
        upper = th.Tk_upper if p.route == "paper" else rp.Tk_upper_repaired
        if step == "Tk_up1":
            k = data["k"]
            return float(T[-1, k]), float(upper(Delta[k], p.K, p.n, p.sigma0_sq, p.sigma_sq)), "<="
        dmin = float(Delta[1:].min())
        lower = p.n - (p.K - 1) * float(upper(dmin, p.K, p.n, p.sigma0_sq, p.sigma_sq))   # eq. eqn:T1n's right side
        return lower, float(T[-1, 0]), "<="
    if step.startswith("Tk_lowv2"):
        k, t = data["k"], data["round"]
        ct = m.ctilde(T[t - 1])
        ct1 = float(m.ctilde(T[t - 1, 0] - 1)) if step.endswith("shifted") else float(ct[0])
        b1 = 1.0 if step.endswith("beta1") else p.beta_1
        return (float((1 - p.eta) * math.sqrt(b1) * ct[k]),
                float((1 + p.eta) * math.sqrt(p.beta) * ct1 + Delta[k]), "<=")
    c = np.sqrt(2 * r["var"] * math.log(p.n))
    ct = m.ctilde(T[-1])
    if step == "regret-decomV":
        J = data["J"]
        return float(Delta[J]), float(p.eta * (c[0] + c[J])), "<="
    if step == "prob-dk-v1":
        k = data["k"]
        return float(Delta[k]), float(p.eta * math.sqrt(p.beta) * (ct[0] + ct[k])), ">="
    if step == "gap-repaired":
        return float(Delta[1:].min()), float((1 + p.eta) * math.sqrt(p.beta) * float(m.ctilde(T[-1, 0] - 1))), "<"
    raise KeyError(step)


#: (sigma0^2, sigma^2) of the searches: the scale of the means against the noise both ways
POINTS = ((1.0, 1.0), (1.0, 0.1), (0.1, 1.0), (10.0, 1.0))


def grid(mode, route: str) -> list[Params]:
    """The parameter points a mode searches: every K and n of `mode.history_n` (n from the theorems'
    smallest, n > 4(K-1) and n >= 2K + 1) at every (sigma0^2, sigma^2) of `POINTS`."""
    return _grid(tuple(mode.history_n), route)


def _grid(history_n: tuple, route: str) -> list[Params]:
    return [Params(K, n, s0, s, route) for K, n_max in history_n
            for n in range(max(2 * K + 1, 4 * (K - 1) + 1), n_max + 1) for s0, s in POINTS]


def _domain(points: list[Params], route: str) -> str:
    Ks = sorted({p.K for p in points})
    ns = ", ".join(f"K = {K}: n <= {max(p.n for p in points if p.K == K)}" for K in Ks)
    E = "rounds 2K..n, eta_repaired" if route == "repaired" else (
        "rounds 2K+1..n, eta_repaired" if route == "repaired-2K+1" else "rounds 2K+1..n as printed, the paper's eta")
    return (f"every reward history on E ({E}) for {ns}; (sigma0^2, sigma^2) in "
            + ", ".join(f"({a:g}, {b:g})" for a, b in POINTS))


#: the steps each route decides in one walk of its tree: the paper's as printed, the repaired route's
ROUTE_STEPS = {"paper": ("Tk_up1", "Tk_lowv2", "regret-decomV", "prob-dk-v1", "eqn:T1n"),
               "repaired": ("Tk_up1", "Tk_lowv2-shifted", "gap-repaired", "eqn:T1n")}


@lru_cache(maxsize=8)
def _walks(route: str, history_n: tuple) -> dict[str, list]:
    """Every step of `ROUTE_STEPS[route]` at every point of the grid, one tree walk a point (cached: the
    claims that read them run in one worker process; a point's outcomes shipped for this same code are read
    instead of walked, `proof_history_record`): step -> [(Params, Outcome)], up to its first witness."""
    steps = ROUTE_STEPS[route]
    out: dict[str, list] = {s: [] for s in steps}
    broken: set[str] = set()
    for p in _grid(history_n, route):
        todo = {s: STEPS[s][0](p) for s in steps if s not in broken}
        if not todo:
            break
        got = history_record.lookup(p, todo, walk_code())
        if got is None:
            got = search_many(p.model(), todo, exact=False)
            history_record.record(p, todo, walk_code(), got)
        for s, o in got.items():
            if o.witness is not None:
                check_replays(p, o)
                broken.add(s)
            out[s].append((p, o))
    return out


@lru_cache(maxsize=32)
def _beyond(step: str, route: str, history_n: tuple, beyond: tuple, programs: int) -> list:
    """The step searched best-first at each (K, n) of `beyond` (`verify.histories.search_best_first`),
    at the (sigma0^2, sigma^2) where the exhaustive search of that K came nearest to breaking it (its
    largest margin at its largest n): [(Params, Outcome)], up to the first witness (which replays)."""
    runs = _walks(route, history_n)[step]
    out = []
    for K, n in beyond:
        mine = [(p, o) for p, o in runs if p.K == K]
        if not mine:
            continue
        top = max(p.n for p, _ in mine)
        near, _ = max(((p, o) for p, o in mine if p.n == top), key=lambda po: po[1].smallest)
        p = Params(K, n, near.sigma0_sq, near.sigma_sq, route)
        o = search_best_first(p.model(), STEPS[step][0](p), max_programs=programs)
        if o.witness is not None:
            check_replays(p, o)
        out.append((p, o))
        if o.witness is not None:
            break
    return out


def source_hash() -> str:
    """The hash of the code a history certificate's rows are built from: this module, the search and RUE's linear
    form (read as files)."""
    import hashlib
    import inspect
    from pathlib import Path

    from simulate.proofs import linear, steps

    from ..verify import histories
    h = hashlib.sha256()
    for mod in (linear, steps, histories):
        h.update(Path(inspect.getfile(mod)).read_bytes())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()


_WALK_CODE: list = []


def walk_code() -> str:
    """The hash of the code a walk's outcome depends on (`proof_history_record.code_hash`): this module, the search
    and what it imports (the Farkas check, the induction's z3 for margins near 0), RUE's linear form and `bounds`."""
    if not _WALK_CODE:
        import sys

        from simulate.proofs import linear, steps

        from ..certify import farkas
        from ..verify import histories, induction
        _WALK_CODE.append(history_record.code_hash([linear, steps, histories, farkas, induction,
                                                    sys.modules[__name__]]))
    return _WALK_CODE[0]


def build_record(out, modes=None) -> int:
    """Walk every route over the grids of `modes` (default: every mode of `SETTINGS`) afresh and write the outcomes
    to `out` (`proof_history_record`); how many points."""
    from . import SETTINGS

    def walk():
        for mode in modes or SETTINGS:
            for route in ROUTE_STEPS:
                _walks.__wrapped__(route, tuple(SETTINGS[mode]["history_n"]))
    return history_record.recording(walk, out, walk_code())


def farkas_certificates(mode, uncovered: list | None = None, progress: Callable[[str], None] | None = None):
    """A Farkas certificate (`rue_verify.certify.farkas`) of every step of each route that no history of the mode's
    grid breaks, one per parameter point: the walk at that point recorded (`search_many(record=Tree())`: every
    pruned node's multipliers and every leaf's margin bounds), so that a reader checks in exact rationals, with no
    LP solver, that no history at that point breaks the step. A step some point breaks is refuted, and certifies
    nothing here. A history whose largest margin is within HiGHS's rounding of 0 (`Outcome.near_zero`) is
    certified like any other: its multipliers, solved for exactly, give -m >= L. Where the step holds with equality
    in the reals, its bounds' doubles can leave L an ulp below 0 (the margin bounded by 2^-55, not by 0): such a
    certificate states the tolerance `farkas.MAX_TOLERANCE` in its statement, and the checker counts the decisions
    that needed it. A point where some decision got no exact multipliers
    is appended to `uncovered` ({"what", "method", "why"}) instead of yielding a certificate that would not check."""
    from ..certify import farkas
    from ..verify.histories import Tree
    source = source_hash()
    for route, steps in ROUTE_STEPS.items():
        runs = _walks(route, tuple(mode.history_n))
        holding = [s for s in steps if all(o.witness is None for _, o in runs[s])]
        for p in grid(mode, route) if holding else []:
            tree = Tree()
            search_many(p.model(), {s: STEPS[s][0](p) for s in holding}, exact=False, record=tree)
            m = p.model()
            rule = {"rule": "relabel", "K": p.K, "after": 2 * p.K} if m.relabel else {"rule": "every", "K": p.K}
            counts = tree.counts()
            for s in holding:
                what = (f"history step {s} ({route} route) at K = {p.K}, n = {p.n}, sigma0^2 = {p.sigma0_sq:g}, "
                        f"sigma^2 = {p.sigma_sq:g}")
                if progress:
                    progress(what)
                checks, certified = counts["checks"].get(s, (0, 0))
                missing = (counts["pruned"] - counts["pruned_certified"]) + (checks - certified)
                if missing:
                    if uncovered is not None:
                        uncovered.append({"what": what, "method": "exact history search", "why": (
                            f"{missing} of its decisions got no exact multipliers (HiGHS's answer was not near an "
                            "exact one): no Farkas certificate")})
                    continue
                within = any(c.get("within") for nd in tree.nodes for c in nd.get("checks", {}).get(s, []))
                tol = farkas.MAX_TOLERANCE if within else 0
                statement = stated(s, p) + (farkas.tolerance_suffix(tol) if tol else "")
                yield farkas.certificate(tree, statement, source, what, step=s, branching=rule, tolerance=tol,
                                         point=point(p))


def history_finding(step: str, mode, route: str = "paper", node: str | None = None) -> Finding:
    """The step decided on every history of the mode's grid (`grid`): exhausted when no history on E
    breaks it, refuted with the first history that does (smallest K, n), which replays. Where it holds
    there and the mode searches beyond (`Mode.history_beyond`), a best-first search at longer histories
    follows: a history it finds refutes the step; none found is said as the sample it is."""
    runs = _walks(route, tuple(mode.history_n))[step]
    far = (_beyond(step, route, tuple(mode.history_n), tuple(mode.history_beyond), mode.history_programs)
           if mode.history_beyond and runs[-1][1].witness is None else [])
    if far and far[-1][1].witness is not None:
        runs = runs + far[-1:]
    visited = sum(o.visited for _, o in runs)
    programs = sum(o.programs for _, o in runs)
    points = grid(mode, route)
    p, out = runs[-1]
    domain = _domain(points, route)
    read = sum((q.route, q.K, q.n, q.sigma0_sq, q.sigma_sq) in history_record.reused for q, _ in runs)
    shipped = (f" The walks at {read} of these {len(runs)} points were read from the outcomes shipped for this same "
               "code (`proof_history_record`; --recheck walks them again)." if read else "")
    if out.witness is None:
        near = sum(o.near_zero for _, o in runs)
        sampled = (f" {near} histories had a largest margin within {BAND:g} of 0 (HiGHS's rounding) and count as "
                   "holding here; an exact method decides the step." if near else "") + "".join(
            f" Beyond it, best-first at K = {q.K}, n = {q.n}, (sigma0^2, sigma^2) = ({q.sigma0_sq:g}, {q.sigma_sq:g}) "
            f"(where the exhaustive search came nearest): no history found in {o.programs} programs, {o.leaves} full "
            f"histories decided (a sample of the tree; largest margin {o.smallest:.3g})." for q, o in far)
        return from_exhaustive(None, domain, node=node, fails="", holds=(
            f"{STEPS[step][1]}: no history on E breaks it; the exact search visited {visited} pull sequences at "
            f"{len(runs)} parameter points ({programs} linear programs, shared with the route's other steps)."
            + sampled + shipped))
    w = out.witness
    m = p.model()
    hist = {"pulls": [a + 1 for a in w.arms], "rewards": w.z[:m.n].tolist(), "means": w.z[m.n:].tolist()}
    params = {**p.as_dict(), "step": step, "violation": dict(w.violation.data), "history": hist}
    lhs, rhs, rel = sides(step, p, replay(m, w.arms, w.z[:m.n], w.z[m.n:]), w.z[m.n:], w.violation.data)
    unbounded = bool(w.margin >= 0.999 * CAP)
    wit = witness(params, lhs, rhs, rel, margin=w.margin, unbounded=unbounded, where=w.violation.label)
    return from_exhaustive(wit, domain, node=node, holds="", fails=(
        f"{STEPS[step][1]}: broken by a history on E at K = {p.K}, n = {p.n}, sigma0^2 = {p.sigma0_sq:g}, "
        f"sigma^2 = {p.sigma_sq:g} ({w.violation.label}; pulls {''.join(map(str, hist['pulls']))}; margin "
        + ("unbounded" if unbounded else f"{w.margin:.4g}")
        + f"; {lhs:.6g} {rel} {rhs:.6g} is false), found after {visited} pull sequences." + shipped))


def recompute(w: dict) -> tuple[float, float]:
    """Both sides of a history witness, from scratch: the history replayed by the plain reference RUE
    (it must make the same pulls, without ties, with E on every round of its range) and the step's
    sides evaluated on it."""
    q = w["params"]
    check_history(q)
    p = Params(q["K"], q["n"], q["sigma0_sq"], q["sigma_sq"], q["route"])
    h = q["history"]
    arms = tuple(a - 1 for a in h["pulls"])
    mu = np.asarray(h["means"], float)
    r = replay(p.model(), arms, np.asarray(h["rewards"], float), mu)
    if not (r["same_pulls"] and not r["tie"] and r["event_slack"] >= 0):
        why = ("RUE makes other pulls on these rewards" if not r["same_pulls"] else
               "RUE's choice ties somewhere" if r["tie"] else
               f"E fails on it (its smallest slack is {r['event_slack']:.3g} < 0)")
        raise ValueError(f"the history is not one the step is about: {why} (K = {p.K}, n = {p.n}, {p.route} route); "
                         "a history step is evaluated on a history on E that the plain reference RUE replays")
    lhs, rhs, _ = sides(q["step"], p, r, mu, q["violation"])
    return lhs, rhs


def check_history(q: dict) -> None:
    """Refuse a history witness's params that are not one (a ValueError naming the field): K and n
    integers (K >= 2, n >= 2K + 1, n at most 10^6), the variances finite and > 0, a known route and
    step, and a history whose pulls (n arms, each in 1..K), rewards (n finite numbers) and means (K
    finite numbers) agree in length: a history cut short is no history of the budget."""
    def integer(name, lo, hi):
        v = q.get(name)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v) or not lo <= v <= hi:
            raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {v!r}")
        return int(v)
    K = integer("K", 2, 10 ** 4)
    n = integer("n", 2 * K + 1, 10 ** 6)
    for name in ("sigma0_sq", "sigma_sq"):
        v = q.get(name)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not (math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
    if q.get("route") not in ("paper", "repaired"):
        raise ValueError(f"route must be 'paper' or 'repaired', got {q.get('route')!r}")
    if q.get("step") not in STEPS:
        raise ValueError(f"step must be one of {', '.join(STEPS)}, got {q.get('step')!r}")
    if not isinstance(q.get("violation", {}), dict):
        raise ValueError("violation must be a JSON object (as the witness gives it)")
    h = q.get("history")
    if not isinstance(h, dict):
        raise ValueError("history must be a JSON object with pulls, rewards and means")
    for name, length in (("pulls", n), ("rewards", n), ("means", K)):
        v = h.get(name)
        if not isinstance(v, list) or len(v) != length:
            raise ValueError(f"history.{name} must be a list of {length} values ({'n' if length == n else 'K'} = "
                             f"{length}), got {len(v) if isinstance(v, list) else type(v).__name__}")
        for i, x in enumerate(v):
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
                raise ValueError(f"history.{name}[{i}] must be a finite number, got {x!r}")
            if name == "pulls" and (x != int(x) or not 1 <= x <= K):
                raise ValueError(f"history.pulls[{i}] must be an arm in 1..{K}, got {x!r}")


def decide(step: str, p: Params) -> Outcome:
    """Search every history at `p` for one that breaks `step`; a witness must replay (`check_replays`)."""
    out = search(p.model(), STEPS[step][0](p))
    if out.witness is not None:
        check_replays(p, out)
    return out


def check_replays(p: Params, out: Outcome) -> dict:
    """Replay a witness through the plain reference RUE: the same pulls, no tie, E on every round of its
    range. A witness that does not replay is a bug, not a finding."""
    w = out.witness
    m = p.model()
    r = replay(m, w.arms, w.z[:m.n], w.z[m.n:])
    if not (r["same_pulls"] and not r["tie"] and r["event_slack"] >= 0):
        raise AssertionError(f"a witness of the history search does not replay at {p}: {r}")
    return r


def benchmark(history_n: tuple, out=print) -> list[dict]:
    """The exact search's speed and reach (`rue-verify bench --histories`): for each route and each
    step, the pull sequences visited and linear programs solved over the grid, the seconds, sequences
    per second, and the largest n reached at each K (where a step breaks, the search of it stops at
    its first witness). Runs the walks afresh (the cache is bypassed)."""
    import time
    rows = []
    for route in ("paper", "repaired"):
        t0 = time.perf_counter()
        walks = _walks.__wrapped__(route, tuple(history_n))
        wall = time.perf_counter() - t0
        for step, runs in walks.items():
            visited = sum(o.visited for _, o in runs)
            seconds = sum(o.seconds for _, o in runs)
            depth = {K: max(p.n for p, _ in runs if p.K == K) for K in sorted({p.K for p, _ in runs})}
            broken = runs[-1][1].witness is not None
            rows.append({"route": route, "step": step, "visited": visited,
                         "programs": sum(o.programs for _, o in runs), "seconds": round(seconds, 2),
                         "sequences_per_s": round(visited / seconds) if seconds > 0 else None,
                         "depth": depth, "broken": broken})
            out(f"{route:<9} {step:<17} {'broken' if broken else 'exhausted':<9} "
                + ", ".join(f"K = {K}: n <= {n}" for K, n in depth.items())
                + f"; {visited} sequences, {rows[-1]['programs']} programs, {seconds:.1f} s "
                  f"({rows[-1]['sequences_per_s']} sequences/s; one walk serves the route's steps)")
        out(f"{route:<9} one walk of every point: {wall:.1f} s")
    return rows


register_replay("history", recompute)

