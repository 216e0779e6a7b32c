"""Adversarial Monte Carlo search: where in parameter space does a simulated event break a claim?

A claim about a probability (`Pr(A) <= bound`) or an inclusion (`on E, X holds`) is tested where it
is most likely to fail, not at two hand-picked points:

1. screen a coarse grid and seeded random points of the space (skipping points outside the claim's
   hypotheses, and for a bound the points where it is >= 1, which it cannot fail);
2. refine: perturb the worst points found (in the unit cube of the space) and simulate again;
3. confirm: simulate the best points afresh with many runs (the screening's selection cannot bias
   the confirmation) and decide with exact binomial intervals at a tiny level, Bonferroni-corrected
   over the confirmed points.

Every simulation gets its own stream spawned from the mode's seed under (search name, stage, index),
so a point's result can be recomputed alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from simulate.stats import STRICT_LEVEL, binomial_interval

from .claims import Mode
from .findings import Finding, fmt, from_tightness, witness
from .search import Dim, unit_point

LEVEL = STRICT_LEVEL
#: a simulated rate whose exact upper confidence limit is this many times below its bound at every
#: confirmed point could not have been found above it: the search measured how loose the bound is
#: there, and is not a test of it (`rate_finding`)
LOOSE = 10.0
TINY = 1e-300


def rate_score(pt: "Point") -> float:
    """How close a point came to breaking `rate <= bound`: points where the event happened rank by
    log(rate / bound); points without one rank below them, by log(bound) (a bound near 1 is the one
    a finite simulation can test)."""
    b = max(pt.bound, TINY)
    if pt.events:
        return 1e3 + math.log(pt.rate / b)
    return math.log(b)


@dataclass
class Point:
    """One simulated parameter point: `events` runs of `runs` had the event; `observed` runs had the
    premise (for an inclusion on an event E); `bound` the claimed bound there (None for inclusions);
    `margin` how close the inclusion came to failing, (lhs - rhs) / abs(rhs) at its worst run and round on
    E (negative while it holds; None where not tracked)."""

    params: dict
    runs: int
    events: int
    bound: float | None = None
    observed: int | None = None
    key: tuple = ()
    margin: float | None = None            # an inclusion's closest call: the largest relative excess on E

    @property
    def rate(self) -> float:
        return self.events / self.runs

    def interval(self, level: float = LEVEL):
        return binomial_interval(self.events, self.runs, level)


@dataclass
class Search:
    """Everything a search evaluated, and the points it confirmed."""

    name: str
    space: dict
    screened: int = 0                      # points simulated in screening and refinement
    skipped: int = 0                       # points outside the hypotheses or where the bound is >= 1
    points: list[Point] = field(default_factory=list)
    confirmed: list[Point] = field(default_factory=list)
    level: float = LEVEL

    def covered(self) -> str:
        dims = "; ".join(f"{k} in [{d.low:g}, {d.high:g}]" + (" (integer)" if d.integer else "")
                         for k, d in self.space.items())
        return (f"{dims}: {self.screened} points simulated (grid, seeded random, local refinement), "
                f"{self.skipped} skipped (outside the hypotheses or bound >= 1), {len(self.confirmed)} confirmed")

    # ---- rate searches (Pr(event) <= bound)
    def worst_ratio(self) -> tuple[Point | None, float]:
        """The confirmed point with the largest (simulated rate / bound), and that ratio."""
        best, r = None, -math.inf
        for p in self.confirmed:
            v = p.rate / max(p.bound, TINY)
            if v > r or best is None:
                best, r = p, v
        return best, r

    def violation(self) -> Point | None:
        """A confirmed point whose event rate is certainly above the bound (lower limit > bound)."""
        bad = [p for p in self.confirmed if p.interval(self.level).low > p.bound]
        return max(bad, key=lambda p: p.interval(self.level).low / p.bound) if bad else None


def screen_units(space: dict, grid_per_dim: int, random: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The points a search screens, in the unit cube of `space`: a grid of `grid_per_dim` per
    dimension, then `random` seeded random points."""
    d = len(space)
    g = np.linspace(0.0, 1.0, grid_per_dim) if grid_per_dim > 1 else np.array([0.5])
    grid = np.array(np.meshgrid(*[g] * d)).reshape(d, -1).T
    return list(grid) + list(rng.random((random, d)))


def search(name: str, space: dict[str, Dim], simulate: Callable[[dict, int, np.random.Generator], Point],
           score: Callable[[Point], float], mode: Mode, *, bound: Callable[[dict], float] | None = None,
           constraint: Callable[[dict], bool] | None = None, grid_per_dim: int = 2,
           refine_rounds: int = 2, refine_each: int = 3, top: int = 3, candidates: int = 4,
           confirm_runs: int | None = None, screen_runs: int | None = None) -> Search:
    """Screen, refine and confirm (module docstring). `simulate(params, runs, rng)` returns a Point;
    `score(point)` is larger where the claim is closer to failing; with `bound`, only points where
    bound(params) < 1 are simulated (elsewhere a probability bound cannot fail)."""
    out = Search(name, space)
    rng = mode.rng(name, "points")
    screen_runs = screen_runs or mode.search_runs
    confirm_runs = confirm_runs or mode.confirm_runs

    def admissible(p: dict) -> float | None:
        if constraint is not None and not constraint(p):
            return None
        if bound is None:
            return math.nan
        try:
            b = float(bound(p))
        except (ValueError, ZeroDivisionError, OverflowError):
            return None
        return max(b, 0.0) if math.isfinite(b) and b < 1 else None

    def run(u: np.ndarray, stage: str, i: int, runs: int) -> Point | None:
        p = unit_point(space, u)
        b = admissible(p)
        if b is None:
            out.skipped += 1
            return None
        key = (name, stage, i)
        pt = simulate(p, runs, mode.rng(*key))
        pt.bound, pt.key = (None if math.isnan(b) else b), (mode.seed, *key)
        return pt

    pool: list[tuple[float, np.ndarray, Point]] = []
    units = screen_units(space, grid_per_dim, candidates * mode.search_points, rng)
    order = rng.permutation(len(units))          # grid and random points interleaved
    for i in order:
        u = units[i]
        if len(pool) >= mode.search_points:
            break
        pt = run(u, "screen", int(i), screen_runs)
        if pt is not None:
            pool.append((score(pt), u, pt))
            out.screened += 1
    step = 0.15
    for r in range(refine_rounds):
        pool.sort(key=lambda x: -x[0])
        for j, (_, u0, _) in enumerate(pool[:refine_each]):
            for k in range(2):
                u = np.clip(u0 + rng.normal(0.0, step, u0.size), 0.0, 1.0)
                pt = run(u, f"refine{r}", 2 * j + k, screen_runs)
                if pt is not None:
                    pool.append((score(pt), u, pt))
                    out.screened += 1
        step /= 2
    pool.sort(key=lambda x: -x[0])
    out.points = [p for _, _, p in pool]
    out.level = 1 - (1 - LEVEL) / max(1, min(top, len(pool)))
    for j, (_, u, _) in enumerate(pool[:top]):
        pt = run(u, "confirm", j, confirm_runs)
        if pt is not None:
            out.confirmed.append(pt)
    if bound is not None:
        from .witnesses import register_search
        register_search(name, replay(simulate, bound))
    return out


def replay(simulate: Callable[[dict, int, np.random.Generator], Point],
           bound: Callable[[dict], float]) -> Callable[[dict], tuple[float, float]]:
    """The replay of a rate search's seed-keyed witnesses (`rate_finding`, `search_tightness`): the point
    simulated again on the stream its key names, the event count checked against the witness's, and
    (the lower end of the exact interval at the witness's level, the bound there)."""
    def again(w: dict) -> tuple[float, float]:
        p = w["params"]
        key = p["seed_key"]
        params = {k: v for k, v in p.items() if k not in ("runs", "seed_key")}
        pt = simulate(params, p["runs"], Mode(seed=key[0]).rng(*key[1:]))
        if "events" in w and pt.events != w["events"]:
            raise ValueError(f"the rerun of {tuple(key)} ({p['runs']} runs) counted {pt.events} events where the "
                             f"witness says {w['events']}: the witness is not this claim's, or the simulator changed")
        return binomial_interval(pt.events, p["runs"], w.get("level", LEVEL)).low, float(bound(params))
    return again


def rate_text(s: Search, what: str) -> str:
    """One sentence on a rate search's worst point."""
    p, r = s.worst_ratio()
    if p is None:
        return f"no point of the space had {what}'s bound below 1"
    ci = p.interval(s.level)
    return (f"worst point {_short(p.params)}: simulated {what} {fmt(p.rate)} in [{fmt(ci.low)}, {fmt(ci.high)}] "
            f"({p.runs} runs, exact, level 1 - {1 - s.level:.2g}) against the bound {fmt(p.bound)} "
            f"(rate / bound {fmt(r)})")


def search_tightness(s: Search, bound_name: str) -> Finding | None:
    """How far a rate search's bound is from the simulated truth (kind `tightness`): bound / rate at
    every point the search simulated with at least five events (fewer say nothing), the rate at the
    lower end of its 95% interval, so that a ratio below 1 is significant. The search drives points
    toward the largest rate/bound, so its smallest ratio is where the bound is tightest on the domain
    it covered. None when no point had five events."""
    pts = [p for p in s.points + s.confirmed if p.bound is not None and p.events >= 5]
    if not pts:
        return None
    f = from_tightness([p.bound / p.interval(0.95).low for p in pts],
                       [{**p.params, "runs": p.runs, "seed_key": list(p.key)} for p in pts], s.covered(),
                       bound=bound_name)
    if f.verdict == "refuted":       # a ratio below 1 is a counterexample: both sides, rerun from the seed key
        p = next(q for q in pts if q.params.items() <= f.witness["params"].items() and list(q.key) ==
                 f.witness["params"]["seed_key"])
        f.witness.update(lhs=p.interval(0.95).low, rhs=p.bound, relation="<=", events=p.events, level=0.95,
                         what="the 95% lower confidence limit of the simulated rate, against the bound")
    return f


def _short(p: dict) -> str:
    return "{" + ", ".join(f"{k}={fmt(v) if isinstance(v, float) else v}" for k, v in p.items()) + "}"


def rate_finding(s: Search, what: str, bound_name: str, note: str = "") -> Finding:
    """The verdict of a rate search: refuted when a confirmed point's exact interval lies above the
    bound; vacuous when the bound was >= 1 everywhere searched; 'untested', a measure of tightness and not a
    test, when the bound is at least `LOOSE` times the rate's upper confidence limit at every confirmed point
    (the search could not have failed: the claim reads untested unless another finding decides it); else
    holds on what was covered. `note` ends the text, whatever
    the verdict (what was simulated, how)."""
    bad = s.violation()
    if not s.confirmed:
        return Finding("vacuous", s.covered(), f"{bound_name} was >= 1 at every point screened." + note)
    if bad:
        ci = bad.interval(s.level)
        return Finding("refuted", s.covered(),
                       f"{what} exceeds {bound_name}: at {bad.params} it is {fmt(bad.rate)} in [{fmt(ci.low)}, "
                       f"{fmt(ci.high)}] ({bad.runs} runs, exact, level 1 - {1 - s.level:.2g}) against "
                       f"{fmt(bad.bound)}." + note,
                       witness({**bad.params, "runs": bad.runs, "seed_key": list(bad.key)}, ci.low, bad.bound,
                               events=bad.events, level=s.level, what=f"exact lower confidence limit of {what}"))
    slack = min((p.bound / p.interval(s.level).high for p in s.confirmed if p.bound is not None), default=0.0)
    if slack >= LOOSE:               # the search could not have failed: it measured looseness, not validity
        return Finding("untested", s.covered(),
                       f"not a test of {bound_name}: at every confirmed point the bound is at least {fmt(slack, 3)} "
                       f"times the exact upper confidence limit of {what} (level 1 - {1 - s.level:.2g}), so no "
                       f"simulation of this size could find it false there; read as how loose it is. "
                       + rate_text(s, what) + "." + note, kind="tightness")
    return Finding("holds", s.covered(), f"no confirmed point above {bound_name}; " + rate_text(s, what) + "." + note)
