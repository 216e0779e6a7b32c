"""Farkas certificates: an exact history search's tree, checked in exact rational arithmetic with no LP solver.

The exact history search (`rue_verify.verify.histories`) walks a tree of pull sequences. At each node the pull
sequence so far fixes rows lo <= a . z <= hi over the variables z (the rewards, the means, and a margin m): the
algorithm's choices and the event. A node whose rows have no solution is pruned; at a full history (a leaf) each
way the step can fail (a violation: more rows, using m) has a largest margin m <= 0. HiGHS decides both in
floating point. This module turns the walk, recorded with `search_many(..., record=Tree())`, into a file, and
checks that file without HiGHS.

Each decision carries rational multipliers y over the rows of its path (the root's rows, then each node's rows
down to it; a leaf's check then its violation's rows), y_i > 0 taking row i's lower side (a_i . z >= lo_i, times
y_i) and y_i < 0 its upper side (a_i . z <= hi_i, times |y_i|). Summed, sum_i y_i a_i . z >= L, with L = sum_i
y_i (lo_i or hi_i, the side taken). Then:

- a pruned node ("infeasible"): sum_i y_i a_i = 0 on every column and L > 0 gives 0 >= L > 0: no z satisfies the
  rows (Farkas' lemma, the easy direction: the multipliers are a proof of infeasibility; the variables are all
  free, so no column bound enters);
- a leaf's violation ("bound"): sum_i y_i a_i = -e_m (minus the margin's column) and L >= 0 gives -m >= L >= 0:
  no z on the history has a margin m > 0, so the step holds on that violation. A certificate may state a
  `tolerance` tau (at most `MAX_TOLERANCE`, written in its statement): then L >= -tau suffices, which gives
  m <= tau: the step holds there up to tau. A step that holds with equality in the reals (a margin of 0 exactly,
  as where E's widths meet at a tie) can fail by an ulp in the doubles its bounds are (eta c_1 + eta c_J
  rounded apart from eta (c_1 + c_J)), so no multipliers give L >= 0 there; the check counts every decision that
  needed the tolerance and says so. (The LP duality bound of the
  margin, which HiGHS's row duals at the optimum give; a violation whose rows are infeasible on the history
  carries an "infeasible" certificate instead.)

A certificate of kind "farkas" holds, beside the common fields (`rue_verify.certify`):

- `n_vars` (columns 0..n_vars-1 the search's variables, column `n_vars` the margin), `n` (a full history's
  length), `step` (the step whose leaf checks it holds, or null: then it certifies the tree's pruning only);
- `values`: every number the rows use, once, as an exact rational "p/q" (each is the double the model computed,
  written exactly); a row is [columns, indices into `values`, lo's index or null for -inf, hi's or null for
  +inf];
- `root`: the forced prefix (`arms`), its rows (the model's root rows then each forced pull's), `status`,
  `branch`, and `y` where the root itself is pruned;
- `nodes`: every node after the root in depth-first order: `arms`, `rows` (the rows its last pull adds),
  `status` ("internal", "pruned", "leaf"), an internal node's `branch` (the pulls the search tried), a pruned
  node's `y`, a leaf's `checks` ([{label, rows, kind, y}] for each violation of `step`) and `z` (HiGHS's point
  of the history, floats: the history a reader can replay; not relied on);
- `branching` (optional): the rule the model's branching follows, re-computed here at every internal node:
  {"rule": "every", "K": K} (every arm 0..K-1) or {"rule": "relabel", "K": K, "after": s} (arm 0, every other
  arm pulled after position s, and the first arm never pulled after s: arms 1..K-1 are interchangeable);
- a multiplier set `y` is [[row, "p/q"], ...], `row` numbering the path's rows in order.

`check` verifies, in `fractions.Fraction` arithmetic:

1. the key is the sha256 of [statement, source]; the certificate names its step (a tree without one would certify
   its pruning only); the search that wrote it says its tree is complete; the branching rule is stated, over the
   model's K = n_vars - n arms; the root's forced prefix is RUE's initialisation (arms 1..K, twice);
2. the tree is complete: the root's arms are a prefix of every node's; each node's parent (its arms less the
   last) is an internal node that lists the last pull in its `branch`; each internal node has exactly one child
   per pull of its `branch`, no pull twice, and has fewer than `n` pulls; each leaf has exactly `n`; with
   `branching`, every internal node's branch is the rule's;
3. every pruned node's multipliers prove its path's rows infeasible, and (with `step`) every leaf's every
   violation's multipliers prove its margin <= 0 (or its rows infeasible).

4. the rows are the model's at the point the certificate names (`point`: K, n, sigma0^2, sigma^2, route;
   `_rebuilt`): the statement is the step's text at that point (`simulate.proofs.steps.stated`), the sizes,
   the forced prefix and the branching rule the model's, and the root's rows, every node's rows and every leaf's
   checks (every way the step can fail there, `simulate.proofs.steps.STEPS`) rebuilt from RUE's linear form
   (`simulate.proofs.linear.RUELinear`) and compared with the file's (a coefficient read as the search reads
   it, `_coefficient`; every number within `ROW_TOLERANCE`, 1e-12 relative, of the model's: a reader's libm may
   round a logarithm an ulp apart; the multipliers are then checked on the file's rows, exactly). So a file
   cannot choose its rows: a contradictory row, a leaf without its checks, another step's tree or another
   point's are refused.

It trusts, and does not check: that RUE's linear form and the step's translation are the algorithm's and the
step's (the doubles `RUELinear` computes: the statement is about that system of doubles taken exactly, not
about the real numbers they round; `simulate.proofs.steps` is code the checker imports, numpy and `bounds`
only, no search); that the `branching` rule loses nothing (arms 1..K-1 interchangeable in the
rows and the step); and that every history follows some pull sequence (the choice rows allow ties, so a history
satisfies the rows of the sequence the algorithm's tie rule makes). A node or check without multipliers is
counted as uncertified and the certificate is refused, saying how many. The bounds lo, hi are the model's doubles
(widths with square roots and logarithms, irrational): a decision whose L exceeds 1e-9 of sum_i |y_i side_i| (its
slack) survives any rounding of the bounds below that relative size; the detail counts the decisions that do not.

This module imports the standard library, and for the rebuild `simulate.proofs` (numpy, `bounds`): no LP solver, no
scipy.optimize, no z3, no search code."""

from __future__ import annotations

import functools
import hashlib
import math
from fractions import Fraction

#: what a reader trusts of a passing certificate of this kind (the checker prints it beside the counts)
TRUSTS = ("that RUE's linear form and the steps' translation (simulate.proofs, from which the check rebuilds every "
          "row: RUE's choices, the event and the step's violations, as doubles) are the algorithm's and the paper's "
          "steps, and that the branching rule loses nothing")


def key(statement: str, source: str) -> str:
    """The certificate's key: the sha256 (hex) of the JSON array [statement, source] (UTF-8), so that no two
    (statement, source) pairs share one (a plain concatenation would let a statement's tail be the source's head)."""
    import json
    return hashlib.sha256(json.dumps([statement, source]).encode("utf-8")).hexdigest()


def _q(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


#: a decision whose L is below this fraction of sum_i |y_i| |side_i| rests on the bounds' doubles exactly
TIGHT = Fraction(1, 10 ** 9)
#: the largest `tolerance` a certificate may state: a margin bound m <= tau accepted for a step (the doubles'
#: rounding of its bounds; the search itself counts margins up to 1e-6 as holding)
MAX_TOLERANCE = Fraction(1, 10 ** 12)


def verify_multipliers(rows: list, y: dict, target: dict, strict: bool, stats: dict | None = None,
                       tolerance: Fraction = Fraction(0)) -> tuple[bool, str]:
    """Whether multipliers `y` ({row: Fraction}) prove what the module docstring says: each y_i > 0 on a row with a
    lower side and y_i < 0 on one with an upper side; sum_i y_i a_i equal to `target` ({column: Fraction}, every
    other column 0); L = sum_i y_i (side taken) > 0 (`strict`, infeasibility) or >= 0 (a margin bound). `rows`
    are (columns, coefficients, lo or None, hi or None), in Fractions. With `stats`, a verified decision whose L
    is below `TIGHT` times sum_i |y_i side_i| counts in stats["tight"]: moving each bound by that fraction could
    undo it, so it holds of the bounds as written (doubles) and says nothing of bounds they round. A margin
    bound (not `strict`) accepts L >= -`tolerance` (m <= tolerance), counted in stats["within"] when L < 0."""
    acc: dict[int, Fraction] = {}
    L = Fraction(0)
    size = Fraction(0)
    for i, v in y.items():
        if not isinstance(i, int) or not 0 <= i < len(rows):
            return False, f"a multiplier names row {i!r}, which the path does not have"
        cols, coef, lo, hi = rows[i]
        if v == 0:
            continue
        side = lo if v > 0 else hi
        if side is None:
            return False, f"the multiplier of row {i} takes its {'lower' if v > 0 else 'upper'} side, which it has not"
        L += v * side
        size += abs(v * side)
        for c, a in zip(cols, coef):
            acc[c] = acc.get(c, Fraction(0)) + v * a
    for c in set(acc) | set(target):
        if acc.get(c, Fraction(0)) != target.get(c, Fraction(0)):
            return False, f"the rows combined leave column {c} at {acc.get(c, Fraction(0))}, not {target.get(c, 0)}"
    if strict and not L > 0:
        return False, f"the rows combined give 0 >= {L}, no contradiction"
    if not strict and not L >= -tolerance:
        return False, f"the rows combined bound the margin by {-L} > {tolerance}, not by {tolerance}"
    if stats is not None and not strict and L < 0:
        stats["within"] = stats.get("within", 0) + 1
    if stats is not None and L <= TIGHT * size:
        stats["tight"] = stats.get("tight", 0) + 1
    return True, ""


def tolerance_text(tol: Fraction) -> str:
    """The words naming a tolerance `tol` (`tolerance_suffix` ends a statement with them)."""
    return f"up to a margin of {_q(Fraction(tol))}"


def tolerance_suffix(tol: Fraction) -> str:
    """How a certificate's statement ends when it accepts margins up to `tol`: `check` requires exactly this
    ending, and the phrase once (a statement naming a smaller tolerance, or denying it, fails)."""
    return f", {tolerance_text(tol)} (the doubles' rounding of a bound it meets with equality)"


# ---------------------------------------------------------------- writing
def certificate(tree, statement: str, source: str, what: str, step: str | None = None,
                branching: dict | None = None, tolerance: Fraction = Fraction(0), point: dict | None = None) -> dict:
    """A certificate of kind "farkas" (module docstring) from a recorded walk (`verify.histories.Tree`, read by
    its attributes): `step` names the step whose leaf checks it holds (None: the pruning only); `branching`
    the model's branching rule, if it is one `check` knows; `tolerance` the margin bound m <= tau its leaf checks
    accept (written in the file only when not 0, and then the statement must say it: `check` holds it to that)."""
    values: dict[Fraction, int] = {}

    def vid(x: float):
        if not math.isfinite(x):
            return None
        f = Fraction(x)
        if f not in values:
            values[f] = len(values)
        return values[f]

    def rows(rs):
        return [[list(c), [vid(a) for a in co], vid(lo) if lo > -math.inf else None,
                 vid(hi) if hi < math.inf else None] for c, co, lo, hi in rs]

    def ys(y):
        return None if y is None else [[int(i), _q(v)] for i, v in sorted(y.items())]

    def checks(nd_checks):
        return [{"label": c["label"], "rows": rows(c["rows"]), "kind": c["kind"], "y": ys(c["y"])}
                for c in nd_checks.get(step, [])]

    root = {"arms": list(tree.start), "rows": rows(tree.root), "status": tree.root_status,
            "branch": list(tree.root_branch), "y": ys(tree.root_y)}
    if step is not None and tree.root_status == "leaf":
        root["checks"] = checks(tree.root_checks)
    nodes = []
    for nd in tree.nodes:
        out = {"arms": list(nd["arms"]), "rows": rows(nd["rows"]), "status": nd["status"]}
        if nd["status"] == "internal":
            out["branch"] = list(nd.get("branch", []))
        elif nd["status"] == "pruned":
            out["y"] = ys(nd.get("y"))
        else:
            if step is not None:
                out["checks"] = checks(nd.get("checks", {}))
            if "z" in nd:
                out["z"] = nd["z"]
        nodes.append(out)
    cert = {"kind": "farkas", "key": key(statement, source), "statement": statement, "source": source,
            "what": what, "n_vars": tree.n_vars, "n": tree.n, "step": step, "complete": bool(tree.complete),
            "values": [_q(v) for v in values], "root": root, "nodes": nodes}
    if branching is not None:
        cert["branching"] = dict(branching)
    if tolerance:
        cert["tolerance"] = _q(Fraction(tolerance))
    if point is not None:
        cert["point"] = dict(point)
    return cert


# ---------------------------------------------------------------- the rows rebuilt from the model
#: a coefficient is the rational of smallest denominator (at most `DENOMINATOR`, tried at q = 10, 100, ...) within
#: `NEAR` of the model's double, else that double exactly: the search's reading (`verify.histories.rational`),
#: written again here so that the checker imports no search code; the check compares the file's rows with it
NEAR = Fraction(1, 10 ** 12)
DENOMINATOR = 10 ** 6


def _coefficient(x: float) -> Fraction:
    return _coefficient_of(float(x))


@functools.lru_cache(maxsize=1 << 16)
def _coefficient_of(x: float) -> Fraction:
    """`_coefficient` of a double, kept: the rows repeat a few coefficients many times (a Fraction is immutable)."""
    r = Fraction(x)
    q = 10
    while q <= DENOMINATOR:
        f = r.limit_denominator(q)
        if abs(f - r) <= NEAR:
            return f
        q *= 10
    return r


def _plain_rows(rows, nv: int, margin: int) -> list:
    """The model's rows (idx, coef, lo, hi) as the check reads a file's: columns (the margin's `margin` written
    `nv`), coefficients (`_coefficient`), the bounds' doubles exactly (None where infinite)."""
    out = []
    for idx, coef, lo, hi in rows:
        cols = [nv if int(i) == margin else int(i) for i in idx]
        out.append((cols, [_coefficient(c) for c in coef], None if float(lo) == -math.inf else Fraction(float(lo)),
                    None if float(hi) == math.inf else Fraction(float(hi))))
    return out


#: how far a file's number may lie from the model's as the checker computes it (relative): a reader's numpy and libm
#: may round a width or a logarithm an ulp apart from the writer's; the multipliers are checked on the file's rows,
#: exactly, and these are the model's to this size
ROW_TOLERANCE = Fraction(1, 10 ** 12)


def _same_rows(have: list, want: list) -> bool:
    """Whether a file's rows are the model's: the same columns, and every coefficient and bound within
    `ROW_TOLERANCE` (relative) of the model's (infinite bounds alike)."""
    def near(a, b) -> bool:
        if a is None or b is None:
            return a is None and b is None
        return a == b or abs(a - b) <= ROW_TOLERANCE * max(abs(a), abs(b), Fraction(1))
    return len(have) == len(want) and all(
        hc == wc and len(hco) == len(wco) and all(near(x, y) for x, y in zip(hco, wco)) and near(hl, wl)
        and near(hh, wh) for (hc, hco, hl, hh), (wc, wco, wl, wh) in zip(have, want))


def _rebuilt(cert: dict, nodes: dict, start: tuple, read) -> list[str]:
    """Where the file's rows are not the model's at the point it names: its statement, its sizes and branching, the
    root's rows, every node's rows and every leaf's checks of its step rebuilt from RUE's linear form and the step's
    translation (`simulate.proofs.steps`, numpy and `bounds` only) at `point`, and compared with the file's (`read`
    reads a file's rows; `_same_rows`: the columns and labels alike, every number within `ROW_TOLERANCE`). Empty
    when they are the model's: the multipliers then prove the statement about the model's own rows (to that size),
    not about rows a file chose."""
    point = cert.get("point")
    if not isinstance(point, dict) or set(point) != {"K", "n", "sigma0_sq", "sigma_sq", "route"}:
        return ["the certificate names no point {K, n, sigma0_sq, sigma_sq, route} to rebuild its rows at: its rows "
                "would be the file's, not the model's"]
    from simulate.proofs.linear import MARGIN
    from simulate.proofs.steps import STEPS, Params, stated
    step = cert["step"]
    if step not in STEPS:
        return [f"the step {step!r} is none of the translated steps ({', '.join(STEPS)})"]
    try:
        p = Params(int(point["K"]), int(point["n"]), float(point["sigma0_sq"]), float(point["sigma_sq"]),
                   str(point["route"]))
        m = p.model()
    except (TypeError, ValueError) as err:
        return [f"the point {point} is no model's: {err}"]
    tol = Fraction(cert.get("tolerance", "0"))
    said = stated(step, p) + (tolerance_suffix(tol) if tol else "")
    if cert["statement"] != said:
        return [f"the statement is not the step's at its point: it should read {said[:160]!r}"]
    nv = m.n_vars
    if (cert["n_vars"], cert["n"]) != (nv, m.n) or tuple(start) != tuple(m.start()):
        return [f"the sizes or the forced prefix are not the model's at {point}"]
    rule = {"rule": "relabel", "K": p.K, "after": 2 * p.K} if m.relabel else {"rule": "every", "K": p.K}
    if cert.get("branching") != rule:
        return [f"the branching rule is not the model's ({rule})"]
    root = list(m.root_rows()) + [r for t in range(1, len(start) + 1) for r in m.rows(start[:t])]
    if not _same_rows(read(cert["root"]["rows"], margin=False), _plain_rows(root, nv, MARGIN)):
        return ["the root's rows are not the model's root rows and forced pulls' rows"]
    fails = STEPS[step][0](p)
    for a, nd in nodes.items():
        if a != tuple(start) and not _same_rows(read(nd["rows"], margin=False), _plain_rows(m.rows(a), nv, MARGIN)):
            return [f"the node {list(a)}'s rows are not the model's rows of its last pull"]
        if nd["status"] == "leaf":
            want = [(v.label, _plain_rows(v.rows, nv, MARGIN)) for v in fails(m, a)]
            have = [(c["label"], read(c["rows"])) for c in nd.get("checks", [])]
            if len(have) != len(want) or not all(hl == wl and _same_rows(hr, wr)
                                                 for (hl, hr), (wl, wr) in zip(have, want)):
                return [f"the leaf {list(a)}'s checks are not every way {step} can fail there ({len(want)} "
                        f"violations rebuilt, {len(have)} in the file, or their rows differ)"]
    return []


# ---------------------------------------------------------------- checking
def _int(x) -> bool:
    """An integer as JSON gives one (not a bool, a float or a string)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _branch(rule: dict, arms: tuple) -> list | None:
    if rule.get("rule") == "every":
        return list(range(int(rule["K"])))
    if rule.get("rule") == "relabel":
        K, s = int(rule["K"]), int(rule["after"])
        seen = set(arms[s:])
        fresh = [k for k in range(1, K) if k not in seen]
        return [0] + sorted(k for k in seen if k) + fresh[:1]
    return None


def check(cert: dict) -> tuple[bool, str]:
    """(ok, detail): ok only when the key matches, the tree is complete and every pruned node's and every leaf
    check's multipliers verify in exact rationals (module docstring); the detail counts what was checked."""
    try:
        return _check(cert)
    except (KeyError, TypeError, ValueError, ZeroDivisionError, IndexError, AttributeError) as err:
        return False, f"the certificate cannot be read: {type(err).__name__}: {err}"


def _check(cert: dict) -> tuple[bool, str]:
    for f in ("kind", "key", "statement", "source"):
        if not isinstance(cert.get(f), str):
            return False, f"the certificate has no {f} (a string)"
    if cert["kind"] != "farkas":
        return False, f"a certificate of kind {cert['kind']!r}, not 'farkas'"
    if cert["key"] != key(cert["statement"], cert["source"]):
        return False, "its key is not the sha256 of its statement and source: it certifies another link"
    nv, n, step, rule = cert.get("n_vars"), cert.get("n"), cert.get("step"), cert.get("branching")
    if not (_int(nv) and _int(n) and nv > n >= 1):
        return False, "n_vars and n must be integers, n_vars > n >= 1 (the rewards, then the means)"
    if not isinstance(step, str) or not step:
        return False, "the certificate names no step: it would certify the tree's pruning and no step of it"
    if not cert["statement"].startswith(f"{step}: "):
        return False, f"its statement is not about its step {step!r} (it starts {cert['statement'][:40]!r})"
    if cert.get("complete") is not True:
        return False, "the search that wrote it says its tree is not complete"
    K = nv - n                                           # the columns: n rewards, then the K arms' means
    if not (isinstance(rule, dict) and rule.get("rule") in ("every", "relabel") and _int(rule.get("K"))
            and rule["K"] == K >= 2 and (rule["rule"] == "every" or rule.get("after") == 2 * K)):
        return False, (f"the branching rule must be stated, over the model's K = n_vars - n = {K} >= 2 arms "
                       "('every', or 'relabel' after the initialisation's 2K pulls)")
    tol = Fraction(cert.get("tolerance", "0"))
    if not 0 <= tol <= MAX_TOLERANCE:
        return False, f"its tolerance {tol} is outside [0, {MAX_TOLERANCE}]"
    if tol and not (cert["statement"].endswith(tolerance_suffix(tol))
                    and cert["statement"].count("up to a margin of") == 1):
        return False, (f"its tolerance {tol} is not what its statement ends with ({tolerance_suffix(tol)!r}): the "
                       "step would read exact, or tighter")
    values = [Fraction(v) for v in cert["values"]]

    def rows(rs, margin: bool = True):
        out = []
        for cols, co, lo, hi in rs:
            if not margin and nv in cols:
                raise ValueError("a row of the tree uses the margin's column: only a leaf's checks may bound it")
            if len(cols) != len(co) or not all(_int(c) and 0 <= c <= nv for c in cols) \
                    or not all(_int(i) for i in co) or not all(x is None or _int(x) for x in (lo, hi)):
                raise ValueError(f"a row whose columns and coefficients do not pair up: {cols}, {co}")
            out.append((list(cols), [values[i] for i in co], None if lo is None else values[lo],
                        None if hi is None else values[hi]))
        return out

    def ys(y):
        if y is None:
            return None
        if not all(_int(i) for i, _ in y):
            raise ValueError("a multiplier's row is not an integer")
        return {i: Fraction(v) for i, v in y}

    root = cert["root"]
    start = tuple(root["arms"])
    if list(start) != list(range(K)) * 2:
        return False, (f"the root's forced prefix {list(start)} is not the initialisation (arms 1..K, twice): the "
                       "tree would be a subtree")
    nodes: dict[tuple, dict] = {start: root}
    for nd in cert["nodes"]:
        a = tuple(nd["arms"])
        if a in nodes:
            return False, f"the pull sequence {list(a)} appears twice"
        if len(a) <= len(start) or a[:len(start)] != start:
            return False, f"the node {list(a)} does not extend the root's prefix {list(start)}"
        nodes[a] = nd
    kids: dict[tuple, list] = {}
    for a in nodes:
        if a != start:
            kids.setdefault(a[:-1], []).append(a[-1])
    counts = {"internal": 0, "pruned": 0, "leaf": 0, "checks": 0, "uncertified": 0, "tight": 0}
    for a, nd in nodes.items():
        st = nd["status"]
        if st not in counts:
            return False, f"the node {list(a)} has status {st!r}"
        counts[st] += 1
        if a != start:
            parent = nodes.get(a[:-1])
            if parent is None or parent["status"] != "internal" or a[-1] not in parent.get("branch", []):
                return False, f"the node {list(a)} is no branch of an internal node"
        if st == "internal":
            br = list(nd.get("branch", []))
            if not br:
                return False, f"the internal node {list(a)} branches on nothing: the tree below it is missing"
            if len(a) >= n:
                return False, f"the node {list(a)} has {len(a)} pulls (a full history) but is not a leaf"
            if len(set(br)) != len(br) or sorted(kids.get(a, [])) != sorted(br):
                return False, (f"the node {list(a)}'s children {sorted(kids.get(a, []))} do not cover its branching "
                               f"{br}: the tree is incomplete")
            if rule is not None and _branch(rule, a) != br:
                return False, f"the node {list(a)} branches on {br}, not on {_branch(rule, a)} (the stated rule)"
        elif a in kids:
            return False, f"the {st} node {list(a)} has children"
        if st == "leaf" and len(a) != n:
            return False, f"the leaf {list(a)} has {len(a)} pulls, not n = {n}"
        if st == "pruned" and len(a) > n:
            return False, f"the pruned node {list(a)} is longer than n = {n}"

    # the multipliers, along each path (depth first from the root)
    path: list = []
    bad: list[str] = []

    def walk(a: tuple) -> None:
        nd = nodes[a]
        k = len(path)
        path.extend(rows(nd["rows"], margin=False))
        st = nd["status"]
        if st == "pruned":
            y = ys(nd.get("y"))
            if y is None:
                counts["uncertified"] += 1
            else:
                ok, why = verify_multipliers(path, y, {}, True, counts)
                if not ok:
                    bad.append(f"the pruned node {list(a)}: {why}")
        elif st == "leaf" and step is not None:
            if "checks" not in nd:
                bad.append(f"the leaf {list(a)} holds no check of {step}")
            for c in nd.get("checks", []):
                counts["checks"] += 1
                y = ys(c.get("y"))
                if y is None:
                    counts["uncertified"] += 1
                    continue
                strict = c["kind"] == "infeasible"
                if c["kind"] not in ("infeasible", "bound"):
                    bad.append(f"the leaf {list(a)}'s check {c['label']!r} is of kind {c['kind']!r}")
                    continue
                ok, why = verify_multipliers(path + rows(c["rows"]), y, {} if strict else {nv: Fraction(-1)}, strict,
                                             counts, tol)
                if not ok:
                    bad.append(f"the leaf {list(a)}, {c['label']}: {why}")
        elif st == "internal":
            for b in nd.get("branch", []):
                walk(a + (b,))
        del path[k:]

    walk(start)
    rebuilt = _rebuilt(cert, nodes, start, rows)
    what = (f"{counts['internal']} internal nodes, {counts['pruned']} pruned, {counts['leaf']} leaves"
            + (f", {counts['checks']} leaf checks of {step}" if step is not None else ""))
    if rebuilt:
        return False, f"its rows are not the model's at the point it names: {rebuilt[0]} ({what})"
    if bad:
        return False, f"{len(bad)} multiplier sets do not verify ({what}); the first: {bad[0]}"
    if counts["uncertified"]:
        return False, f"{counts['uncertified']} decisions have no multipliers (uncertified) ({what})"
    tight = (f"; {counts['tight']} of them with a slack under 1e-9 of their bounds' size (they hold of the bounds' "
             "doubles as written)") if counts["tight"] else ""
    if counts.get("within"):
        tight += (f"; {counts['within']} leaf checks bound the margin by at most {tol} ({float(tol):.3g}), not by 0: "
                  "the step holds there up to that tolerance")
    return True, f"every decision verified in exact rationals: {what}{tight}"
