"""Interval certificates (kind "boxes"): a box cover, each box's margin re-evaluated with arb (python-flint).

An arb decision (`statements.Holds(method="arb")`) proves `margin(x) > 0` (or `>= 0`) on a box by bisecting it
until the margin's arb ball on every piece clears 0. Its certificate keeps the pieces, so a reader checks the
proof without searching again, and without this package's search code: this module imports python-flint and
the standard library only (`tests/certify/test_boxes.py` holds it to that).

The kind's own fields (beside `kind`, `key`, `statement`, `source`, `what`, see `rue_verify.certify`):

- `box`: the statement's box, {name: [low, high]}, every end an exact rational ('p/q' or 'p') or 'oo' / '-oo';
- `covers`: one per relation of the statement's claim (a conjunction has several), each with `names` (the
  sides' order), `domain` {name: [low, high]} (the box it covers, exact), `relation` ('>' or '>=': the margin's
  relation to 0), `prec` (arb's working precision, bits), `margin` (the expression, a JSON tree: `evaluate`
  lists its nodes) and `boxes`, one [[[low, high], ... one per side], lower] per box, `lower` the lower end of
  the margin's ball that the search computed (informative: the check computes its own);
- `tail`: None, or where one side of `box` is unbounded, what the part past the covered box rests on
  ({symbol, cut, toward, decided_by}): a proof by sympy or z3 that this certificate does not hold, so the
  check passes it on as `partial` (and a reader looks for that proof's own certificate);
- `relations`: the text of each relation of the claim, in the covers' order: the check requires one cover per
  relation and the statement's claim to be their conjunction (a relation without a cover is refused; that each
  cover's margin is its relation's, right side minus left, the writer's `expression_tree`, is trusted);
- `on_its_box`: whether the box is the statement's whole domain (else the statement is certified on the box
  only, and the decision says so);
- `partial` (present only when there is something to say): the tail's proof and the box-only scope, in words,
  which `check` repeats after "partial:" in its detail.

`check(cert)` verifies, in this order:

1. the key: `key` = sha256 of the JSON array [statement, source];
2. each cover's domain is the statement's box (its unbounded side ending at the tail's cut), and the boxes
   partition the domain exactly, in exact rationals (`partition`: recursive splitting, each region cut where no
   box straddles the cut, until each region is one box; the method and why it is sound are in its docstring);
3. on each box, the margin evaluated with arb on the ball of that box (built from the exact ends as the search
   built it: midpoint, plus the half width as error) clears 0 as `relation` says.

What the check does not establish, and a reader trusts instead: that `margin` is the statement's
right side minus its left (`rue_verify.verify.intervals.expression_tree` wrote it from the sympy relation;
`statement` and each tree's text are side by side in the file), arb's own rigour, and the tail's proof.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

KIND = "boxes"
#: what a reader trusts of a passing certificate of this kind (the checker prints it beside the counts)
TRUSTS = ("that the margin is the statement's right side minus its left and the box its domain (side by side in the "
          "file), arb's rigour, and a tail's own proof")

#: functions a margin's tree may apply: the node name -> how an arb ball computes it
_UNARY = {"exp": lambda a: a.exp(), "log": lambda a: a.log(), "erf": lambda a: a.erf(), "erfc": lambda a: a.erfc(),
          "sin": lambda a: a.sin(), "cos": lambda a: a.cos(), "abs": lambda a: abs(a), "sqrt": lambda a: a.sqrt(),
          "rsqrt": lambda a: 1 / a.sqrt()}


def key(statement: str, source: str) -> str:
    """The certificate's key: the sha256 (hex) of the JSON array [statement, source] (UTF-8), so that no two
    (statement, source) pairs share one (a plain concatenation would let a statement's tail be the source's head)."""
    import json
    return hashlib.sha256(json.dumps([statement, source]).encode("utf-8")).hexdigest()


def certificate(cover: dict, statement: str, source: str, what: str, relations: list | None = None) -> dict:
    """The certificate (a JSON-ready dict) of an arb decision.

    Args:
        cover: the decision's `cover` (`statements.Decision.cover`, `intervals.statement_cover`'s form).
        statement: the link's relation as text.
        source: the hash of the code it was built from.
        what: one line naming the node and link it certifies.
        relations: the text of each relation of the claim, in the covers' order (a conjunction has several; by
            default the statement's text before " for " is the one relation).
    """
    if relations is None:                      # read from the statement: sympy prints a conjunction (a) & (b)
        claim = statement.split(" for ", 1)[0]
        several = len(cover["covers"]) > 1 and claim.startswith("(") and claim.endswith(")")
        relations = claim[1:-1].split(") & (") if several else [claim]
    cert = {"kind": KIND, "key": key(statement, source), "statement": statement, "source": source, "what": what,
            "box": cover["box"], "covers": cover["covers"], "tail": _tail(cover.get("tail")),
            "on_its_box": bool(cover.get("on_its_box")), "relations": list(relations)}
    said = _partial(cert)
    if said:
        cert["partial"] = said
    return cert


def _tail(tail: dict | None) -> dict | None:
    """The tail as the certificate keeps it: its z3 problems are certificates of their own (`certify.collect`), so
    the box's certificate names how many there are, not their text."""
    if not tail:
        return tail
    out = {k: v for k, v in tail.items() if k != "problems"}
    from .smt import hollow
    kept = [t for t in tail.get("problems") or () if isinstance(t.get("smt2"), str) and not hollow(t["smt2"])]
    if kept:
        out["decided_by"] = f"{out.get('decided_by', '')} [{len(kept)} SMT-LIB certificate(s) of its own]"
    return out


def _partial(cert: dict) -> str:
    """What the certificate leaves to others: the tail's proof, and the rest of the domain when the box is not the
    statement's whole domain ('' when neither)."""
    out = []
    if cert.get("tail"):
        t = cert["tail"]
        out.append(f"the tail {t['symbol']} {'>=' if t['toward'] == 'oo' else '<='} {t['cut']} is decided by another "
                   f"proof, not checked here ({t['decided_by']})")
    if not cert.get("on_its_box"):
        out.append("the statement is certified on the box " +
                   ", ".join(f"{k} in [{lo}, {hi}]" for k, (lo, hi) in cert["box"].items()) + " only")
    return "; ".join(out)


# ------------------------------------------------------------------------------------------------ evaluate
def compile_tree(node):
    """A margin's tree as a function of `env` (name -> arb ball) that computes what `evaluate` does, node for
    node and in the same order (the tree read once, not once a box)."""
    if not isinstance(node, list) or not node or not isinstance(node[0], str):
        raise ValueError(f"not a node: {str(node)[:80]}")
    op, args = node[0], node[1:]
    if op == "var":
        name = args[0]
        return lambda env: env[name]
    if op in ("q", "dec", "pi", "e"):
        value = evaluate(node, {})
        return lambda env: value
    if op in ("add", "mul"):
        first, rest = compile_tree(args[0]), [compile_tree(a) for a in args[1:]]
        if op == "add":
            def add(env):
                out = first(env)
                for f in rest:
                    out = out + f(env)
                return out
            return add

        def mul(env):
            out = first(env)
            for f in rest:
                out = out * f(env)
            return out
        return mul
    if op == "pow":
        if isinstance(args[1], bool) or not isinstance(args[1], int):
            raise ValueError(f"pow's exponent is an integer, got {args[1]!r}")
        b, n = compile_tree(args[0]), args[1]
        return lambda env: b(env) ** n
    if op == "rpow":
        b, x = compile_tree(args[0]), compile_tree(args[1])
        return lambda env: b(env) ** x(env)
    if op in _UNARY and len(args) == 1:
        f, a = _UNARY[op], compile_tree(args[0])
        return lambda env: f(a(env))
    raise ValueError(f"unknown node {op!r}")


def evaluate(node, env: dict):
    """A margin's tree evaluated on arb balls (`env`: name -> ball), node by node:
    ['var', name]; ['q', 'p/q'] (arb(p) / q); ['dec', text] (arb(text)); ['pi']; ['e'] (exp(1));
    ['add', a, b, ...] and ['mul', a, b, ...] folded left; ['pow', b, n] (n an integer); ['rpow', b, x] (b ** x);
    [f, a] for f in exp, log, erf, erfc, sin, cos, abs, sqrt, rsqrt (1/sqrt). Raises ValueError on another node."""
    from flint import arb
    if not isinstance(node, list) or not node or not isinstance(node[0], str):
        raise ValueError(f"not a node: {str(node)[:80]}")
    op, args = node[0], node[1:]
    if op == "var":
        return env[args[0]]
    if op == "q":
        p, _, q = args[0].partition("/")
        return arb(int(p)) / int(q or 1)
    if op == "dec":
        return arb(str(args[0]))
    if op == "pi":
        return arb.pi()
    if op == "e":
        return arb(1).exp()
    if op in ("add", "mul"):
        out = evaluate(args[0], env)
        for a in args[1:]:
            out = out + evaluate(a, env) if op == "add" else out * evaluate(a, env)
        return out
    if op == "pow":
        if isinstance(args[1], bool) or not isinstance(args[1], int):
            raise ValueError(f"pow's exponent is an integer, got {args[1]!r}")
        return evaluate(args[0], env) ** args[1]
    if op == "rpow":
        return evaluate(args[0], env) ** evaluate(args[1], env)
    if op in _UNARY and len(args) == 1:
        return _UNARY[op](evaluate(args[0], env))
    raise ValueError(f"unknown node {op!r}")


def text(node) -> str:
    """A margin's tree as one line of text (for a reader to set beside the statement)."""
    op, args = node[0], node[1:]
    if op == "var":
        return args[0]
    if op in ("q", "dec"):
        return f"({args[0]})" if args[0].startswith("-") or "/" in args[0] else args[0]
    if op in ("pi", "e"):
        return op
    if op in ("add", "mul"):
        return "(" + (" + " if op == "add" else "*").join(text(a) for a in args) + ")"
    if op == "pow":
        return f"{text(args[0])}^{args[1]}"
    if op == "rpow":
        return f"{text(args[0])}^{text(args[1])}"
    return f"{op}({text(args[0])})"


# ------------------------------------------------------------------------------------------------- cover
def partition(domain: list[tuple], boxes: list[list[tuple]]) -> str | None:
    """None when `boxes` partition `domain` exactly (their union is the domain, and no two overlap but on a
    face), else why not. Every end is an exact rational: a Fraction, or its text 'p/q' (read by `Fraction`).

    The method, recursive splitting: a region (the domain at first) with a single box is covered exactly when
    that box equals it. Otherwise, along some side i, sort the region's boxes by their low end on i and sweep: a
    value c strictly inside the region's side where every box before it ends (high <= c) and every box after
    it begins (low >= c) cuts the region into two, {x_i <= c} and {x_i >= c}, each box wholly in one; the two
    halves are checked the same way with their boxes. A gap in the sweep (a value of x_i no box reaches) means
    the region is not covered. Sound: by induction, each region is the union of its boxes (a leaf is its box;
    a region is the union of its halves), every box lies in exactly one leaf, and leaves do not overlap. The
    boxes of a bisection (the search's) always admit such cuts; a cover of another shape that admits none is
    reported as not checked rather than accepted. The ends are compared exactly once (each side's distinct
    ends sorted as rationals and replaced by their rank, equal values one rank), then as integers."""
    n, d = len(boxes), len(domain)
    if n == 0:
        return "the cover has no box"
    if any(len(b) != d for b in boxes):
        return f"a box has not {d} sides"
    ranks = []
    for i in range(d):
        raw = {e for b in boxes for e in b[i]} | set(domain[i])
        value = {e: e if isinstance(e, Fraction) else _rational(e) for e in raw}
        order = sorted(set(value.values()))
        at = {v: r for r, v in enumerate(order)}
        ranks.append({e: at[v] for e, v in value.items()})
    R = [tuple((ranks[i][b[i][0]], ranks[i][b[i][1]]) for i in range(d)) for b in boxes]
    for j, b in enumerate(R):
        if any(lo > hi for lo, hi in b):
            return f"box {j} has a side with low > high"
    stack = [(tuple((ranks[i][domain[i][0]], ranks[i][domain[i][1]]) for i in range(d)), list(range(n)))]

    def said(region) -> str:
        inv = [{r: str(v) for v, r in rk.items()} for rk in ranks]
        return "[" + ", ".join(f"[{inv[i][lo]}, {inv[i][hi]}]" for i, (lo, hi) in enumerate(region)) + "]"
    while stack:
        region, idx = stack.pop()
        if not idx:
            return f"the region {said(region)} has no box"
        if len(idx) == 1:
            if R[idx[0]] != region:
                return f"the region {said(region)} is not covered: its one box is {said(R[idx[0]])}"
            continue
        for i in range(d):
            lo, hi = region[i]
            order = sorted(idx, key=lambda j: R[j][i][0])
            if R[order[0]][i][0] != lo:
                return f"the region {said(region)} is not covered near its low end on side {i}"
            reach, cuts = R[order[0]][i][1], []
            for pos in range(1, len(order)):
                start = R[order[pos]][i][0]
                if start > reach:
                    return f"the region {said(region)} is not covered: a gap on side {i}"
                if start == reach and lo < start < hi:
                    cuts.append(pos)
                reach = max(reach, R[order[pos]][i][1])
            if reach != hi:
                return f"the region {said(region)} is not covered (or a box leaves it) near its high end on side {i}"
            if cuts:
                pos = min(cuts, key=lambda p: abs(2 * p - len(order)))
                c = R[order[pos]][i][0]
                stack.append((region[:i] + ((lo, c),) + region[i + 1:], order[:pos]))
                stack.append((region[:i] + ((c, hi),) + region[i + 1:], order[pos:]))
                break
        else:
            return (f"the region {said(region)} has {len(idx)} boxes and no cut along any side: not a partition of "
                    "the bisection's kind (not checked)")
    return None


def _rational(s, _read: dict = {}) -> Fraction:          # noqa: B006 - a memo: a cover's ends repeat
    r = _read.get(s)
    if r is None:
        if not isinstance(s, str):
            raise ValueError(f"an end is a string 'p/q', got {s!r}")
        r = Fraction(s)
        if len(_read) < 1_000_000:
            _read[s] = r
    return r


# ------------------------------------------------------------------------------------------------- check
def check(cert: dict) -> tuple[bool, str]:
    """(ok, detail): the certificate's key, each cover's partition of the statement's box, and every box's margin
    recomputed with arb (module docstring). A certificate with a tail, or whose box is not the statement's whole
    domain, passes with "partial: ..." in its detail, saying what it leaves to others."""
    try:
        return _check(cert)
    except Exception as err:                   # a malformed file: rejected, with why
        return False, f"malformed boxes certificate: {type(err).__name__}: {str(err)[:200]}"


def _check(cert: dict) -> tuple[bool, str]:
    from flint import arb, ctx
    if cert.get("kind") != KIND:
        return False, f"not a boxes certificate (kind {cert.get('kind')!r})"
    if cert.get("key") != key(cert["statement"], cert["source"]):
        return False, "the key is not the sha256 of [statement, source]: the certificate is not this statement's"
    box, tail, covers = cert["box"], cert.get("tail"), cert["covers"]
    if not covers:
        return False, "no cover"
    rel = cert.get("relations")
    if not (isinstance(rel, list) and rel and all(isinstance(r, str) and r for r in rel)):
        return False, "the certificate does not list its claim's relations (`relations`, one per cover)"
    if len(rel) != len(covers):
        return False, (f"{len(covers)} cover(s) for {len(rel)} relation(s): every relation of the claim needs its "
                       "own cover")
    claim = rel[0] if len(rel) == 1 else " & ".join(f"({r})" for r in rel)
    if not (cert["statement"] == claim or cert["statement"].startswith(claim + " for ")):
        return False, (f"the statement's claim is not its relations' conjunction ({claim[:80]!r}): a relation of it "
                       "would go without a cover")
    # the domain each cover must partition: the statement's box, the unbounded side cut where the tail begins
    want = {}
    for k, (lo, hi) in box.items():
        if tail and k == tail["symbol"]:
            if tail["toward"] not in ("oo", "-oo"):
                return False, f"a tail toward {tail['toward']!r}: a tail covers an unbounded end, toward oo or -oo"
            up = tail["toward"] == "oo"
            if (hi if up else lo) != tail["toward"]:
                return False, f"the tail toward {tail['toward']} is not an unbounded end of {k}'s side [{lo}, {hi}]"
            lo, hi = (lo, tail["cut"]) if up else (tail["cut"], hi)
        if "oo" in (lo, hi) or "-oo" in (lo, hi):
            return False, f"the side of {k} is unbounded ([{lo}, {hi}]) and no tail says what covers it"
        want[k] = (_rational(lo), _rational(hi))
        if want[k][0] > want[k][1]:
            return False, f"the side of {k} is reversed ([{lo}, {hi}])"
    total, missed = 0, 0
    for c, cover in enumerate(covers):
        names = cover["names"]
        if sorted(names) != sorted(want) or set(cover["domain"]) != set(want):
            return False, f"cover {c} is over {sorted(names)}, the statement's box over {sorted(want)}"
        domain = [(_rational(cover["domain"][k][0]), _rational(cover["domain"][k][1])) for k in names]
        for k, (lo, hi) in zip(names, domain):
            if not (lo <= want[k][0] and want[k][1] <= hi):
                return False, (f"cover {c}'s domain {k} in [{lo}, {hi}] does not contain the statement's "
                               f"[{want[k][0]}, {want[k][1]}]")
        boxes = [[(lo, hi) for lo, hi in b[0]] for b in cover["boxes"]]     # the ends' texts; ranked exactly
        why = partition([tuple(cover["domain"][k]) for k in names], boxes)
        if why:
            return False, f"cover {c}: the boxes do not partition its domain: {why}"
        if cover["relation"] not in (">", ">="):
            return False, f"cover {c}: relation {cover['relation']!r} is neither '>' nor '>='"
        strict = cover["relation"] == ">"
        tree = cover["margin"]
        if tree is None:
            return False, f"cover {c} has no margin expression to evaluate"
        prec = cover["prec"]
        if isinstance(prec, bool) or not isinstance(prec, int) or not 2 <= prec <= 4096:
            return False, f"cover {c}: prec {prec!r} is not a working precision in bits (2 to 4096)"
        old = ctx.prec
        ctx.prec = prec
        try:
            margin, balls = compile_tree(tree), {}

            def ball(lo: str, hi: str):
                # the box's side as the search built it: the midpoint, plus the half width as error (exact ends)
                lo, hi = _rational(lo), _rational(hi)
                a, z = arb(lo.numerator) / lo.denominator, arb(hi.numerator) / hi.denominator
                return a if lo == hi else arb((a + z) / 2, (z - a) / 2)
            for j, (b, (_, low)) in enumerate(zip(boxes, cover["boxes"])):
                env = {}
                for k, side in zip(names, b):
                    v = balls.get(side)
                    if v is None:
                        v = balls[side] = ball(*side)
                    env[k] = v
                m = margin(env)
                if not (bool(m > 0) if strict else bool(m >= 0)):
                    return False, (f"cover {c}, box {j} {[list(side) for side in b]}: the margin's arb "
                                   f"ball {m.str(6, more=True)} is not {cover['relation']} 0")
                if isinstance(low, str):
                    q = _rational(low)
                    missed += m.lower() != arb(q.numerator) / q.denominator
        finally:
            ctx.prec = old
        total += len(boxes)
    detail = (f"{len(covers)} cover(s), {total} boxes: each a partition of the box in exact rationals, every margin "
              f"recomputed with arb and {'/'.join(sorted({cv['relation'] for cv in covers}))} 0 on each")
    if missed:
        detail += f" ({missed} recorded lower bounds differ from the recomputed ones: not relied on)"
    said = _partial(cert)
    if said:
        detail += f"; partial: {said}"
    return True, detail
