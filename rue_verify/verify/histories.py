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

With `record=Tree()` the walk also keeps what it explored and a certificate of each HiGHS decision (issue 79):
exact rational Farkas multipliers of every pruned node (from HiGHS's dual ray) and of every leaf violation's
largest margin (from its row duals, or a ray where the violation is infeasible), solved exactly on HiGHS's basis
(`exact_multipliers`) and verified in rational arithmetic; a decision with none is counted as uncertified.
`rue_verify.certify.farkas` writes the tree as a file and checks it with no LP solver. Recording changes no
decision: the search's own program is never re-solved for a certificate (a second try is `_fresh`'s own instance).
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Sequence

import numpy as np

#: the column index a violation's rows use for the margin (replaced by the model's n_vars); a model's own steps
#: use the same (`simulate.proofs.linear.MARGIN`, which a test holds equal: the engine imports no simulator)
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
    `label` names it (the arm, the round, which side); `data`, anything the caller wants back. (A model's steps
    may build their own with these attributes: `simulate.proofs.linear.Violation` is one.)"""

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
        #: recording mode (`Tree`): after each decision, `last` holds what HiGHS gave for a certificate:
        #: ("ray", y) for an infeasible program (its dual ray), ("dual", y) for an optimal one (its row duals)
        self.record = False
        self.last: tuple | None = None

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
        st = self._run()
        if self.record:
            self.last = self._ray() if st == self.status.kInfeasible else None
        return st != self.status.kInfeasible

    def max_margin(self) -> tuple[float, np.ndarray | None]:
        self.h.changeColCost(self.n, -1.0)           # minimise -m
        st = self._run()
        if self.record:
            # (not getDualRay here: after a program with a cost it moves HiGHS's later warm starts, so
            # that recording would change the search's rounding; an infeasible violation is certified
            # from a program of its own, `_fresh`)
            self.last = (("dual", np.array(self.h.getSolution().row_dual), self._tight())
                         if st == self.status.kOptimal else None)
        self.h.changeColCost(self.n, 0.0)
        if st == self.status.kInfeasible:
            return -math.inf, None
        if st != self.status.kOptimal:
            raise RuntimeError(f"HiGHS ended with {self.h.modelStatusToString(st)}")
        z = np.array(self.h.getSolution().col_value)
        return float(z[self.n]), z

    def _ray(self, again: bool = False) -> tuple | None:
        """The dual ray of an infeasible program (HiGHS's `getDualRay`: row multipliers y, y_i > 0 taking
        row i's lower side and y_i < 0 its upper, whose combination of the rows has every column 0 and a
        positive right side: Farkas' lemma). Where HiGHS keeps none (after presolve, or IPM) and `again`,
        the program is solved again by simplex without presolve, which leaves one (HiGHS's documentation of
        `getDualRay`: a ray exists after the simplex solver proves infeasibility); the search's own program
        is never solved again for a certificate (`_fresh` is, in an instance of its own), so recording does
        not move its warm starts."""
        _, has, ray = self.h.getDualRay()
        if not has and again:
            self.h.setOptionValue("presolve", "off")
            self.h.setOptionValue("solver", "simplex")
            self.h.clearSolver()
            self.h.run()
            _, has, ray = self.h.getDualRay()
            self.h.setOptionValue("presolve", "choose")
            self.h.setOptionValue("solver", "choose")
        return ("ray", np.array(ray), self._tight()) if has else None

    def _tight(self) -> np.ndarray:
        """The rows nonbasic in HiGHS's last basis (at a bound): where exact multipliers are sought."""
        import highspy
        basic = highspy.HighsBasisStatus.kBasic
        b = self.h.getBasis()
        if not b.valid:
            return np.zeros(0, int)
        return np.array([i for i, st in enumerate(b.row_status) if st != basic], int)

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


#: a certificate's multipliers: the support is HiGHS's entries above this fraction of the largest
SUPPORT = 1e-9


#: a coefficient is read as the rational of smallest denominator (at most `DENOMINATOR`) within `NEAR` of its
#: double (`rational`)
NEAR = 1e-12
DENOMINATOR = 10 ** 6
_RATIONAL: dict = {}


def rational(x: float):
    """The coefficient a double stands for: the fraction of smallest denominator q <= `DENOMINATOR` within
    `NEAR` of x (found among the continued fraction's convergents and semiconvergents,
    `Fraction.limit_denominator` at q = 10, 100, ...), else the double itself, exactly.

    Why: a model's coefficients are often rationals its doubles round (a Gaussian posterior's weights with
    rational variances are rational functions of the counts), and the linear programs' infeasibility rests on
    identities between them (the weights of one arm's rewards cancelling across rows) that hold in the
    rationals and fail by a few ulps in the doubles. With free variables a Farkas certificate must cancel every
    column exactly, so it exists for the rational rows and in general not for the doubles. Two fractions of
    denominator <= 10^5 differ by more than 1e-10 > 2 `NEAR`, so below that the fraction found is the only one
    that near; the certificate states the rows it holds (`certify.farkas`), and that these are the model's real
    coefficients is what it trusts."""
    from fractions import Fraction
    x = float(x)
    r = _RATIONAL.get(x)
    if r is None:
        r = Fraction(x)
        q = 10
        while q <= DENOMINATOR:
            f = r.limit_denominator(q)
            if abs(f - r) <= NEAR:
                r = f
                break
            q *= 10
        if len(_RATIONAL) < 10 ** 6:
            _RATIONAL[x] = r
    return r


def _plain(rows: Sequence, n_vars: int) -> list:
    """Rows as (column list, coefficient list, lo, hi): the coefficients exact rationals (`rational`), the
    bounds the doubles the model gave (taken exactly where a certificate is checked), the margin's column
    `n_vars`."""
    out = []
    for idx, coef, lo, hi in rows:
        idx = np.where(np.asarray(idx) == MARGIN, n_vars, np.asarray(idx))
        out.append(([int(i) for i in idx], [rational(c) for c in np.asarray(coef, float)], float(lo), float(hi)))
    return out


def exact_multipliers(rows: list, y: np.ndarray, target: dict, strict: bool, tight=(),
                      tolerance=0) -> dict | None:
    """Exact rational multipliers {row: Fraction} near HiGHS's floating ones `y` (y_i > 0 takes row i's
    lower side lo_i <= a_i z, y_i < 0 its upper side a_i z <= hi_i), such that sum_i y_i a_i equals
    `target` ({column: Fraction}, every other column 0: the variables are free) and L = sum_i y_i
    (lo_i or hi_i, the side taken) is > 0 (`strict`: then 0 >= L > 0, Farkas' lemma for an infeasible
    system) or >= -`tolerance` (with target -e_m: -m >= L, so the margin m <= -L <= tolerance). None where none
    is found.

    The coefficients are the exact rationals their doubles are. Rounding HiGHS's y to nearby fractions
    (`Fraction.limit_denominator`) does not make sum_i y_i a_i vanish exactly when the a_i are arbitrary
    doubles, so the multipliers are solved for exactly instead, on HiGHS's support (entries above
    `SUPPORT` of the largest): the system sum_i y_i a_i = target in rational arithmetic (python-flint's
    fmpq_mat, reduced row echelon form); its free unknowns are set to HiGHS's values (rounded to
    fractions of denominator at most 10^6) and the pivots solved from them. A multiplier of the wrong
    sign for its row (a side the row does not have) drops the row from the support and the system is
    solved again, at most 4 times. The result is checked by `certify.farkas.verify_multipliers`."""
    from fractions import Fraction

    import flint

    from ..certify.farkas import verify_multipliers
    y = np.asarray(y, float)
    top = float(np.max(np.abs(y))) if y.size else 0.0
    if not top > 0 or not math.isfinite(top):
        return None
    if not target:
        y = y / top                          # a ray's scale is free
    support = sorted({int(i) for i in np.flatnonzero(np.abs(y) > SUPPORT * top)} | {int(i) for i in tight})
    for _ in range(4):
        if not support:
            return None
        cols = sorted({c for i in support for c in rows[i][0]} | set(target))
        at = {c: k for k, c in enumerate(cols)}
        B = flint.fmpq_mat(len(cols), len(support) + 1)
        for j, i in enumerate(support):
            acc: dict[int, Fraction] = {}
            for c, a in zip(rows[i][0], rows[i][1]):
                acc[c] = acc.get(c, Fraction(0)) + a
            for c, a in acc.items():
                B[at[c], j] = flint.fmpq(a.numerator, a.denominator)
        for c, v in target.items():
            B[at[c], len(support)] = flint.fmpq(v.numerator, v.denominator)
        R, rank = B.rref()
        pivots = []
        for r in range(rank):
            pivots.append(next(j for j in range(len(support) + 1) if R[r, j] != 0))
        if pivots and pivots[-1] == len(support):
            return None                      # the target is not a combination of these rows
        free = [j for j in range(len(support)) if j not in pivots]
        val = {j: flint.fmpq(*Fraction(float(y[support[j]])).limit_denominator(10 ** 6).as_integer_ratio())
               for j in free}
        for r, j in enumerate(pivots):
            v = R[r, len(support)]
            for f in free:
                if R[r, f] != 0:
                    v -= R[r, f] * val[f]
            val[j] = v
        wrong = [support[j] for j, v in val.items()
                 if (v > 0 and not math.isfinite(rows[support[j]][2]))
                 or (v < 0 and not math.isfinite(rows[support[j]][3]))]
        if wrong:
            support = [i for i in support if i not in wrong]
            continue
        out = {support[j]: Fraction(int(v.p), int(v.q)) for j, v in val.items() if v != 0}
        exact = [(r[0], r[1],
                  Fraction(r[2]) if math.isfinite(r[2]) else None, Fraction(r[3]) if math.isfinite(r[3]) else None)
                 for r in rows]
        ok, _ = verify_multipliers(exact, out, target, strict, tolerance=Fraction(tolerance))
        return out if ok else None
    return None


@dataclass
class Tree:
    """What a recording search (`search_many(..., record=Tree())`) explored, for a certificate
    (`certify.farkas.certificate`): the root (the forced prefix `start` with its rows: the model's root
    rows, then each forced pull's), and every node after it in depth-first order, each a dict with

    - `arms` (the pulls), `rows` (the rows its last pull adds, `_plain` form, the margin's column
      `n_vars`), `status` ("internal", "pruned" or "leaf"), `branch` (an internal node's
      `model.children(arms)`: the pulls the search tried);
    - a pruned node's `y`: exact Farkas multipliers {i: Fraction} over its path's rows (the root's, then
      each node's down to it, numbered in that order), or None (uncertified: HiGHS gave no ray, or no
      exact multipliers were found near it);
    - a leaf's `checks`: step name -> [{label, rows, margin, kind, y}] for each violation the step gave:
      `kind` "bound" (HiGHS's largest margin was finite: `y` over the path's rows then the violation's,
      combining them into -m >= L with L >= 0, or L >= -`certify.farkas.MAX_TOLERANCE` with `within` True)
      or "infeasible" (a Farkas ray of the path and the
      violation); `y` None where uncertified; and `z`, a point of the leaf's rows (HiGHS's, floats; the
      history the leaf replays, not relied on).

    `complete` is False where the walk stopped at a witness of every step (the tree is then cut short).
    `seconds` is the time spent on certificates (exact multipliers)."""

    n_vars: int = 0
    n: int = 0
    start: tuple = ()
    root: list = field(default_factory=list)
    root_status: str = "internal"
    root_y: dict | None = None
    root_branch: list = field(default_factory=list)
    root_checks: dict = field(default_factory=dict)
    nodes: list = field(default_factory=list)
    complete: bool = True
    seconds: float = 0.0
    #: decisions whose first try gave no exact multipliers, solved again (`_fresh`), and how many then had them
    retried: int = 0
    retried_certified: int = 0

    def counts(self) -> dict:
        """Pruned nodes (and how many have exact multipliers), leaves, and the leaves' violations decided
        (and how many have exact multipliers), by step."""
        pruned = [nd for nd in self.nodes if nd["status"] == "pruned"] + (
            [{"y": self.root_y}] if self.root_status == "pruned" else [])
        out = {"pruned": len(pruned), "pruned_certified": sum(nd["y"] is not None for nd in pruned),
               "leaves": sum(nd["status"] == "leaf" for nd in self.nodes), "checks": {}}
        for nd in self.nodes:
            for name, vs in nd.get("checks", {}).items():
                c = out["checks"].setdefault(name, [0, 0])
                c[0] += len(vs)
                c[1] += sum(v["y"] is not None for v in vs)
        return out


def _fresh(rows: list, n_vars: int, target: dict) -> tuple | None:
    """The program of `rows` solved again from scratch, in a HiGHS instance of its own: the coefficients the
    rationals of the certificate (as doubles), simplex without presolve, feasibility and optimality tolerances
    1e-10 (HiGHS's defaults are 1e-7); minimising -m where `target` is -e_m, else only feasibility. Its dual ray
    or row duals and basis, as `_Program.last`: a second try where the search's own warm-started answer gave no
    exact multipliers (its support was not the exact program's)."""
    import highspy
    h = _highs()
    inf = highspy.kHighsInf
    nc = n_vars + 1
    h.setOptionValue("presolve", "off")
    h.setOptionValue("solver", "simplex")
    h.setOptionValue("primal_feasibility_tolerance", 1e-10)
    h.setOptionValue("dual_feasibility_tolerance", 1e-10)
    h.addVars(nc, np.full(nc, -inf), np.append(np.full(n_vars, inf), CAP))
    for cols, coef, lo, hi in rows:
        h.addRow(lo if math.isfinite(lo) else -inf, hi if math.isfinite(hi) else inf, len(cols),
                 np.asarray(cols, np.int32), np.array([float(a) for a in coef]))
    for c, v in target.items():
        h.changeColCost(c, float(v))
    h.run()
    st = h.getModelStatus()
    p = _Program.__new__(_Program)
    p.h = h
    if st == highspy.HighsModelStatus.kInfeasible:
        return p._ray(again=True)
    if st == highspy.HighsModelStatus.kOptimal:
        return ("dual", np.array(h.getSolution().row_dual), p._tight())
    return None


def _tolerance():
    from ..certify.farkas import MAX_TOLERANCE
    return MAX_TOLERANCE


def below_zero(rows: list, y: dict) -> bool:
    """Whether multipliers `y` of a margin bound give L < 0 (the bound m <= -L needs the tolerance)."""
    from fractions import Fraction
    L = Fraction(0)
    for i, v in y.items():
        L += v * Fraction(rows[i][2] if v > 0 else rows[i][3])
    return L < 0


def solved_multipliers(rows: list, target: dict, strict: bool, tolerance=0, seconds: float = 20.0) -> dict | None:
    """Exact multipliers for `rows` (`_plain` form) found by solving for them, with no floating-point answer to
    start from: the system sum_i y_i a_i = `target`, each y_i of its row's sign (y_i = p_i - q_i, p_i >= 0 on a
    row with a lower side, q_i >= 0 on one with an upper side) and sum_i (p_i lo_i - q_i hi_i) >= 1 (`strict`, a
    ray's scale being free) or >= -`tolerance`, decided by z3's exact simplex over the rationals (QF_LRA). Its model
    is exact, so multipliers are found whenever they exist (netting p_i - q_i only raises L, hi_i >= lo_i). The
    last resort of `_certify`, where HiGHS's duals or ray, rounded, sit on the wrong support (a degenerate optimum);
    the result is checked by `certify.farkas.verify_multipliers`. None where none exist (z3: unsat) or z3 gives up."""
    from fractions import Fraction

    from ..certify.farkas import verify_multipliers
    from .induction import z3
    Z = z3()
    s = Z.SolverFor("QF_LRA")
    s.set("timeout", int(seconds * 1000))

    def q(x) -> object:
        f = Fraction(x)
        return Z.RealVal(f"{f.numerator}/{f.denominator}")

    cols: dict[int, list] = {}
    L = []
    ys = {}
    for i, (idx, coef, lo, hi) in enumerate(rows):
        parts = []
        if math.isfinite(lo):
            v = Z.Real(f"p{i}")
            s.add(v >= 0)
            parts.append(v)
            L.append(q(lo) * v)
        if math.isfinite(hi):
            v = Z.Real(f"q{i}")
            s.add(v >= 0)
            parts.append(-v)
            L.append(-q(hi) * v)
        if not parts:
            continue
        ys[i] = Z.Sum(parts) if len(parts) > 1 else parts[0]
        acc: dict[int, Fraction] = {}
        for c, a in zip(idx, coef):
            acc[c] = acc.get(c, Fraction(0)) + Fraction(a)
        for c, a in acc.items():
            if a:
                cols.setdefault(c, []).append(q(a) * ys[i])
    for c in set(cols) | set(target):
        s.add(Z.Sum(cols.get(c, [])) == q(target.get(c, 0)) if cols.get(c) else q(target.get(c, 0)) == 0)
    s.push()
    s.add(Z.Sum(L) >= (1 if strict else 0) if L else Z.BoolVal(False))     # exact multipliers first: L >= 0
    if s.check() != Z.sat:
        s.pop()
        if strict or not tolerance:
            return None
        s.add(Z.Sum(L) >= -q(tolerance) if L else Z.BoolVal(False))      # then within the tolerance
        if s.check() != Z.sat:
            return None
    m = s.model()
    out = {}
    for i, e in ys.items():
        f = m.eval(e, model_completion=True).as_fraction()
        if f:
            out[i] = Fraction(f.numerator, f.denominator)
    exact = [(r[0], r[1], Fraction(r[2]) if math.isfinite(r[2]) else None,
              Fraction(r[3]) if math.isfinite(r[3]) else None) for r in rows]
    ok, _ = verify_multipliers(exact, out, target, strict, tolerance=Fraction(tolerance))
    return out if ok else None


def _certify(tree: Tree, rows: list, last: tuple | None, target: dict, strict: bool) -> dict | None:
    """Exact multipliers for one decision (`exact_multipliers`) from the search's HiGHS answer `last`, else
    from the program solved again from scratch with tighter tolerances (`_fresh`), else solved for exactly
    (`solved_multipliers`); None where none gives them (the decision is then uncertified, and counted so)."""
    t0 = time.perf_counter()
    try:
        tol = 0 if strict else _tolerance()
        y = exact_multipliers(rows, last[1], target, strict, last[2], tol) if last is not None else None
        if y is None:
            again = _fresh(rows, tree.n_vars, target)
            if again is not None and (again[0] == "ray") == strict:
                y = exact_multipliers(rows, again[1], target, strict, again[2], tol)
            if y is None:
                y = solved_multipliers(rows, target, strict, tol)
            tree.retried += 1
            tree.retried_certified += y is not None
        return y
    finally:
        tree.seconds += time.perf_counter() - t0


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
           progress: Callable[[int], None] | None = None, exact: bool = True, record: Tree | None = None) -> Outcome:
    """Decide `step` on every history of `model` (`search_many` with one step)."""
    return search_many(model, {"step": step}, tol=tol, progress=progress, exact=exact, record=record)["step"]


def search_many(model: Any, steps: dict[str, Callable[[Any, tuple[int, ...]], list[Violation]]], *,
                tol: float = BAND, progress: Callable[[int], None] | None = None,
                exact: bool = True, record: Tree | None = None) -> dict[str, Outcome]:
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
        record: an empty `Tree`, filled with what the walk explored and a certificate of each decision
            HiGHS made: exact Farkas multipliers of every pruned node, and of every violation's largest
            margin at every leaf (`Tree`). The decisions and the results are the same as without it;
            the certificates cost their own time (`Tree.seconds`).

    Returns:
        name -> `Outcome` (the tree's counts are the shared walk's).
    """
    t0 = time.perf_counter()
    lp = _Program(model.n_vars)
    lp.push(model.root_rows())
    start = tuple(model.start())
    for t in range(1, len(start) + 1):
        lp.push(model.rows(start[:t]))
    rec = record
    path: list[list] = []                 # recording: the rows of each level of the current path
    if rec is not None:
        lp.record = True
        nv = model.n_vars
        rec.n_vars, rec.n, rec.start = nv, model.n, start
        rec.root = _plain(list(model.root_rows()) + [r for t in range(1, len(start) + 1)
                                                     for r in model.rows(start[:t])], nv)
        path.append(rec.root)
        here: dict[tuple, dict] = {}
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
                if rec is not None:
                    _check(arms, name, v, m, z)
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

    def _check(arms: tuple[int, ...], name: str, v: Violation, m: float, z) -> None:
        rows = [r for level in path for r in level]
        vr = _plain(v.rows, nv)
        kind = "infeasible" if m == -math.inf else "bound"
        if kind == "bound" and lp.last is not None and lp.last[0] == "ray":
            kind = "infeasible"
        target = {} if kind == "infeasible" else {nv: Fraction(-1)}
        y = _certify(rec, rows + vr, lp.last, target, kind == "infeasible")
        nd = here[arms]
        nd.setdefault("checks", {}).setdefault(name, []).append(
            {"label": v.label, "rows": vr, "margin": float(m), "kind": kind, "y": y,
             "within": kind == "bound" and y is not None and below_zero(rows + vr, y)})
        if z is not None and "z" not in nd:
            nd["z"] = [float(x) for x in z[:nv]]

    def visit(arms: tuple[int, ...]) -> bool:
        stats["visited"] += 1
        if progress and stats["visited"] % 1000 == 0:
            progress(stats["visited"])
        if len(arms) >= model.n:
            if rec is not None:
                here[arms]["status"] = "leaf"
            return leaf(arms)
        kids = model.children(arms)
        if rec is not None:
            here[arms]["branch"] = list(kids)
        for a in kids:
            nxt = arms + (a,)
            rows = model.rows(nxt)
            lp.push(rows)
            if rec is not None:
                nd = {"arms": nxt, "rows": _plain(rows, nv), "status": "internal"}
                rec.nodes.append(nd)
                here[nxt] = nd
                path.append(nd["rows"])
            try:
                if not lp.feasible():
                    stats["pruned"] += 1
                    if rec is not None:
                        nd["status"] = "pruned"
                        nd["y"] = _certify(rec, [r for level in path for r in level], lp.last, {}, True)
                    continue
                if visit(nxt):
                    return True
            finally:
                lp.pop()
                if rec is not None:
                    path.pop()
                    here.pop(nxt, None)
        return False

    if rec is not None:
        here[start] = {"arms": start, "rows": rec.root, "status": "internal"}
    if lp.feasible():
        if visit(start) and rec is not None:
            rec.complete = False
    elif rec is not None:
        rec.root_status = "pruned"
        rec.root_y = _certify(rec, rec.root, lp.last, {}, True)
    if rec is not None:
        root = here.get(start, {})
        rec.root_branch = root.get("branch", [])
        rec.root_checks = root.get("checks", {})
        rec.root_status = root.get("status", rec.root_status) if rec.root_status != "pruned" else "pruned"
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
