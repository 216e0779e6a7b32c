"""Deciding a step on every history: an exhaustive search of an algorithm's pull sequences, each a
linear program over the rewards (and whatever else the model has as variables).

A proof step "on the event E" is a statement about every reward history on which E holds, however
unlikely. When the algorithm's choices, the event and the step are linear in the rewards once the
pull sequence is fixed, "is there a history on E that breaks the step?" is, for each pull sequence,
a linear program; the pull sequences form a tree, and a prefix whose program (the choices so far and
the event so far) is infeasible has no feasible extension, so its subtree is pruned. The search is
complete: it returns a history that breaks the step, with the largest margin of the violation, or
shows that none exists up to the model's budget.

This module knows no algorithm and no paper. A model (`simulate.proofs.linear.RUELinear` is one)
gives:

- `n_vars`, the number of variables; `n`, the length of a full history;
- `start()`, the forced prefix; `children(arms)`, the pulls to try next (symmetries already merged);
- `root_rows()` and `rows(arms)`, the rows (idx, coef, lo, hi) meaning lo <= coef . z[idx] <= hi that
  hold for every history, and that the last pull of `arms` adds.

A step is a function (model, arms) -> list of `Violation`s for a full history: rows that may use the
column `MARGIN`; the step is broken on that pull sequence when the largest margin m subject to the
history's rows and the violation's is > 0. Linear programs are solved by HiGHS (`highspy`, rows added
and removed as the depth-first search goes, warm-started); a witness is then moved into the interior
of every choice and event row (`interior`) so that it replays without ties.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

#: the column index a violation's rows use for the margin (replaced by the model's n_vars)
MARGIN = -1
#: the margin's cap: a violation reaching it is unbounded (any margin can be had)
CAP = 1e3
#: the largest margin a witness is shown with (an unbounded violation is shown at this size)
WITNESS_MARGIN = 1.0
#: HiGHS's rounding on these programs reaches about 1e-7 (on histories of 20-30 rounds): a largest
#: margin within this band of 0 is decided again exactly (`exact_violation`), not by its sign
BAND = 1e-6


@dataclass
class Violation:
    """One way a step can fail on a full history: `rows` (idx, coef, lo, hi) that may use `MARGIN`;
    `label` names it (the arm, the round, which side); `data`, anything the caller wants back."""

    label: str
    rows: list
    data: dict = field(default_factory=dict)


@dataclass
class Witness:
    """A history that breaks the step: the pulls, the variables, the margin and the violation."""

    arms: tuple[int, ...]
    z: np.ndarray
    margin: float
    violation: Violation
    interior: float          # the smallest slack of any choice or event row at z (> 0: no ties)


@dataclass
class Outcome:
    """What the search found: `witness` (None when the step held on every history), the number of
    pull sequences visited (tree nodes), the full histories reached (leaves), the prefixes pruned as
    infeasible, the linear programs solved and the seconds taken; `smallest` the least slack the step
    had over the leaves (its largest margin, negative when it held), with the label where."""

    witness: Witness | None
    visited: int
    leaves: int
    pruned: int
    programs: int
    seconds: float
    smallest: float = -math.inf
    where: str = ""
    #: leaves whose largest margin fell within `BAND` of 0: decided exactly (rational arithmetic) where
    #: `exact`, else counted as holding (HiGHS's rounding; a statement then needs another exact method)
    near_zero: int = 0
    exact: bool = True
    #: (pulls, margin, label) of a history where a positive margin exists exactly but only with a tie
    #: in some choice or event row (no strict history shows it): the step is then undecided there
    tie: tuple | None = None

    @property
    def holds(self) -> bool:
        return self.witness is None


_BANNER_SWALLOWED = [False]


def _highs():
    """A silent HiGHS instance (its banner, printed once per process at the first construction, goes
    to the null device rather than into a user's output)."""
    import highspy
    if not _BANNER_SWALLOWED[0]:
        fd = os.dup(1)
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 1)
            h = highspy.Highs()
        finally:
            os.dup2(fd, 1)
            os.close(fd)
            os.close(null)
        _BANNER_SWALLOWED[0] = True
    else:
        h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    return h


class _Program:
    """The search's one linear program: the model's variables and the margin, rows pushed and popped
    as the depth-first search goes."""

    def __init__(self, n_vars: int):
        import highspy
        self.h = _highs()
        self.inf = highspy.kHighsInf
        self.n = n_vars
        self.h.addVars(n_vars + 1, np.full(n_vars + 1, -self.inf), np.append(np.full(n_vars, self.inf), CAP))
        self.depth: list[int] = []
        self.solved = 0
        self.status = highspy.HighsModelStatus

    def push(self, rows: Sequence) -> None:
        for idx, coef, lo, hi in rows:
            idx = np.where(np.asarray(idx) == MARGIN, self.n, np.asarray(idx)).astype(np.int32)
            self.h.addRow(lo if math.isfinite(lo) else -self.inf, hi if math.isfinite(hi) else self.inf,
                          len(idx), idx, np.asarray(coef, float))
        self.depth.append(len(rows))

    def pop(self) -> None:
        k = self.depth.pop()
        if k:
            m = self.h.getNumRow()
            self.h.deleteRows(k, np.arange(m - k, m, dtype=np.int32))

    def feasible(self) -> bool:
        self.h.changeColCost(self.n, 0.0)
        return self._run() != self.status.kInfeasible

    def max_margin(self) -> tuple[float, np.ndarray | None]:
        self.h.changeColCost(self.n, -1.0)           # minimise -m
        st = self._run()
        self.h.changeColCost(self.n, 0.0)
        if st == self.status.kInfeasible:
            return -math.inf, None
        if st != self.status.kOptimal:
            raise RuntimeError(f"HiGHS ended with {self.h.modelStatusToString(st)}")
        z = np.array(self.h.getSolution().col_value)
        return float(z[self.n]), z

    def _run(self):
        self.solved += 1
        self.h.run()
        st = self.h.getModelStatus()
        for solver in ("simplex", "ipm"):       # a warm start gone numerically astray: from scratch, then IPM
            if st in (self.status.kOptimal, self.status.kInfeasible):
                break
            self.h.clearSolver()
            self.h.setOptionValue("solver", solver)
            self.h.run()
            self.h.setOptionValue("solver", "choose")
            st = self.h.getModelStatus()
        if st not in (self.status.kOptimal, self.status.kInfeasible):
            raise RuntimeError(f"HiGHS ended with {self.h.modelStatusToString(st)} on a program of "
                               f"{self.h.getNumRow()} rows")
        return st


def _rows_of(model: Any, arms: tuple[int, ...]) -> list:
    rows = list(model.root_rows())
    for t in range(1, len(arms) + 1):
        rows += model.rows(arms[:t])
    return rows


def exact_violation(model: Any, arms: tuple[int, ...], violation: Violation) -> np.ndarray | None:
    """Whether the violation has a margin > 0 on the history's rows, decided exactly: every coefficient
    taken as the exact rational its float is, and the linear program's feasibility decided in rational
    arithmetic (z3's simplex over the reals). A point of it (z with the margin last) where it does; None
    where no positive margin exists, exactly. For a largest margin HiGHS puts within its rounding of 0."""
    from fractions import Fraction

    from .induction import z3
    Z = z3()
    nv = model.n_vars
    z = [Z.Real(f"z{i}") for i in range(nv + 1)]
    s = Z.SolverFor("QF_LRA")

    def q(x: float):
        f = Fraction(float(x))
        return Z.RealVal(f"{f.numerator}/{f.denominator}")

    for idx, coef, lo, hi in _rows_of(model, arms) + list(violation.rows):
        idx = np.where(np.asarray(idx) == MARGIN, nv, np.asarray(idx))
        terms = [q(c) * z[int(i)] for i, c in zip(idx, np.asarray(coef, float)) if c != 0]
        e = Z.Sum(terms) if terms else Z.RealVal(0)
        if math.isfinite(lo):
            s.add(e >= q(lo))
        if math.isfinite(hi):
            s.add(e <= q(hi))
    s.add(z[nv] > 0, z[nv] <= CAP)
    if s.check() != Z.sat:
        return None
    m = s.model()

    def val(v):
        r = m.eval(v, model_completion=True)
        f = r.as_fraction()
        return float(f.numerator) / float(f.denominator)
    return np.array([val(v) for v in z])


def search(model: Any, step: Callable[[Any, tuple[int, ...]], list[Violation]], *, tol: float = BAND,
           progress: Callable[[int], None] | None = None, exact: bool = True) -> Outcome:
    """Decide `step` on every history of `model` (`search_many` with one step)."""
    return search_many(model, {"step": step}, tol=tol, progress=progress, exact=exact)["step"]


def search_many(model: Any, steps: dict[str, Callable[[Any, tuple[int, ...]], list[Violation]]], *,
                tol: float = BAND, progress: Callable[[int], None] | None = None,
                exact: bool = True) -> dict[str, Outcome]:
    """Decide each of `steps` on every history of `model` in one walk of the tree: depth-first over the
    pull sequences from `model.start()`, pruning infeasible prefixes; at each full history, the largest
    margin of each violation of every step not yet broken. A margin above `tol` breaks the step: its
    first such history is its witness, moved into the interior of the history's rows (`interior`).
    The walk stops when every step is broken.

    Args:
        model: the algorithm's linear form (module docstring).
        steps: name -> (model, full pull sequence) -> its violations.
        tol: the band around 0 within which a margin is decided exactly (the LP's rounding).
        exact: decide the band exactly (about 50 ms a history); False counts those histories as holding
            and says how many (`Outcome.near_zero`), for a search beside an exact proof of the step.
        progress: called with the number of nodes visited, every 1000.

    Returns:
        name -> `Outcome` (the tree's counts are the shared walk's).
    """
    t0 = time.perf_counter()
    lp = _Program(model.n_vars)
    lp.push(model.root_rows())
    start = tuple(model.start())
    for t in range(1, len(start) + 1):
        lp.push(model.rows(start[:t]))
    stats = {"visited": 0, "leaves": 0, "pruned": 0}
    found: dict[str, tuple] = {}
    best = {name: (-math.inf, "") for name in steps}
    near_zero = {name: 0 for name in steps}
    ties: dict[str, tuple] = {}           # a positive margin exactly, but only on a tie (no strict history)

    def leaf(arms: tuple[int, ...]) -> bool:
        stats["leaves"] += 1
        for name, step in steps.items():
            if name in found:
                continue
            near = []
            for v in step(model, arms):
                lp.push(v.rows)
                m, z = lp.max_margin()
                lp.pop()
                if m > best[name][0]:
                    best[name] = (m, v.label)
                if m > tol:
                    found[name] = (arms, z, m, v)
                    break
                if m > -tol:
                    near.append(v)
            else:
                near_zero[name] += bool(near)
                for v in near if exact else ():     # within the rounding: decided exactly
                    ze = exact_violation(model, arms, v)
                    if ze is None:
                        continue
                    zi, slack = interior(model, arms, v, float(ze[-1]))
                    if zi is not None:            # a positive margin with room for a strict history
                        found[name] = (arms, ze, float(ze[-1]), v)
                        break
                    ties.setdefault(name, (arms, float(ze[-1]), v.label))
        return len(found) == len(steps)

    def visit(arms: tuple[int, ...]) -> bool:
        stats["visited"] += 1
        if progress and stats["visited"] % 1000 == 0:
            progress(stats["visited"])
        if len(arms) >= model.n:
            return leaf(arms)
        for a in model.children(arms):
            nxt = arms + (a,)
            lp.push(model.rows(nxt))
            try:
                if not lp.feasible():
                    stats["pruned"] += 1
                    continue
                if visit(nxt):
                    return True
            finally:
                lp.pop()
        return False

    if lp.feasible():
        visit(start)
    seconds = round(time.perf_counter() - t0, 3)
    out = {}
    for name in steps:
        wit = None
        if name in found:
            arms, z, m, v = found[name]
            zi, slack = interior(model, arms, v, m)
            wit = Witness(arms, zi if zi is not None else z[:model.n_vars], m, v, slack)
        out[name] = Outcome(wit, stats["visited"], stats["leaves"], stats["pruned"], lp.solved, seconds, *best[name],
                            near_zero=near_zero[name], exact=exact, tie=ties.get(name))
    return out


def interior(model: Any, arms: tuple[int, ...], violation: Violation, margin: float) -> tuple[np.ndarray | None, float]:
    """A point of the broken history that keeps half the margin and has the largest smallest slack
    over every choice and event row (so a replay makes the same pulls, with no ties): (z, that slack),
    or (None, 0.0) where no row can be left strictly (the violation needs a tie)."""
    from scipy.optimize import linprog
    nv = model.n_vars
    rows = list(model.root_rows())
    for t in range(1, len(arms) + 1):
        rows += model.rows(arms[:t])
    # variables: z (nv), margin, e (the common slack); maximise e
    A, b = [], []

    def add(idx, coef, bound, sign, with_e):       # sign * (coef . z) + with_e * e <= sign * bound
        r = np.zeros(nv + 2)
        idx = np.where(np.asarray(idx) == MARGIN, nv, np.asarray(idx))
        np.add.at(r, idx, sign * np.asarray(coef, float))
        r[nv + 1] = with_e
        A.append(r)
        b.append(sign * bound)

    for idx, coef, lo, hi in rows:
        if math.isfinite(lo):
            add(idx, coef, lo, -1.0, 1.0)
        if math.isfinite(hi):
            add(idx, coef, hi, 1.0, 1.0)
    for idx, coef, lo, hi in violation.rows:
        if math.isfinite(lo):
            add(idx, coef, lo, -1.0, 0.0)
        if math.isfinite(hi):
            add(idx, coef, hi, 1.0, 0.0)
    c = np.zeros(nv + 2)
    c[nv + 1] = -1.0
    # half the margin, at most WITNESS_MARGIN (an unbounded violation is shown at a readable size)
    bounds = [(None, None)] * nv + [(min(margin / 2, WITNESS_MARGIN), CAP), (None, 1.0)]
    res = linprog(c, A_ub=np.array(A), b_ub=np.array(b), bounds=bounds, method="highs")
    if res.status != 0 or res.x[nv + 1] <= 0:
        return None, 0.0
    return res.x[:nv], float(res.x[nv + 1])


def search_best_first(model: Any, step: Callable[[Any, tuple[int, ...]], list[Violation]], *,
                      max_programs: int = 4000, tol: float = 1e-6) -> Outcome:
    """Search `step` beyond an exhaustive search's reach, adversarially: prefixes are expanded most
    nearly broken first, by the step's largest margin on the prefix taken as a history (a step about
    every round, like eq. Tk_up1, is defined there; a step that is not gives no violation on a prefix,
    and its prefixes go deepest first). Only a full history can break the step, since the event must
    hold on every round up to `model.n`. A part of the tree, chosen to find a violation: a witness is a
    counterexample, and none found is a sample, not a proof (`Outcome.leaves` says how many full
    histories were decided).

    Args:
        model: the algorithm's linear form (module docstring).
        step: (model, pull sequence) -> its violations.
        max_programs: the linear programs it may solve.
        tol: margins at or below it count as no violation (larger than the exhaustive search's: on
            histories of 20-30 rounds HiGHS's rounding reaches 1e-7, and a 'violation' of that size
            does not replay).

    Returns:
        An `Outcome` (its `visited` the prefixes expanded).
    """
    import heapq
    t0 = time.perf_counter()
    lp = _Program(model.n_vars)
    lp.push(model.root_rows())
    start = tuple(model.start())

    def load(arms: tuple[int, ...]) -> None:          # the program of this prefix, from the root's rows
        while len(lp.depth) > 1:
            lp.pop()
        for t in range(1, len(arms) + 1):
            lp.push(model.rows(arms[:t]))

    def margin(arms: tuple[int, ...]) -> tuple[float, Violation | None, np.ndarray | None]:
        top, which, at = -math.inf, None, None
        for v in step(model, arms):
            lp.push(v.rows)
            m, z = lp.max_margin()
            lp.pop()
            if m > top:
                top, which, at = m, v, z
        return top, which, at

    stats = {"visited": 0, "leaves": 0, "pruned": 0}
    best, where, found = -math.inf, "", None
    load(start)
    heap = [(0.0, -len(start), 0, start)] if lp.feasible() else []
    tie = 1
    while heap and lp.solved < max_programs and found is None:
        _, _, _, arms = heapq.heappop(heap)
        stats["visited"] += 1
        for a in model.children(arms):
            nxt = arms + (a,)
            load(nxt)
            if not lp.feasible():
                stats["pruned"] += 1
                continue
            m, v, z = margin(nxt)
            if len(nxt) >= model.n:
                stats["leaves"] += 1
                if m > best:
                    best, where = m, v.label if v else ""
                if m > tol:
                    found = (nxt, z, m, v)
                    break
                continue
            heapq.heappush(heap, (-m if math.isfinite(m) else math.inf, -len(nxt), tie, nxt))
            tie += 1
    wit = None
    if found:
        arms, z, m, v = found
        zi, slack = interior(model, arms, v, m)
        wit = Witness(arms, zi if zi is not None else z[:model.n_vars], m, v, slack)
    return Outcome(wit, stats["visited"], stats["leaves"], stats["pruned"], lp.solved,
                   round(time.perf_counter() - t0, 3), best, where)
