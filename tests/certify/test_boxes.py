"""Interval certificates (`rue_verify.certify.boxes`): an arb decision's box cover re-checked box by box with arb;
planted corruptions (a box removed, a box stretched, a margin altered so it is negative on some box whatever the
recorded enclosures say, a key that does not match its statement, a domain that leaves part of the box out) are
rejected, each saying why; a tail proved otherwise passes as partial; the checker loads no search."""

import json
import subprocess
import sys
from fractions import Fraction

import pytest
import sympy

from rue_verify.certify import boxes
from rue_verify.verify.intervals import expression_tree
from rue_verify.verify.statements import Holds, Phi, _arb_fn, decide, on_box, rel

x = sympy.Symbol("x", real=True)
y = sympy.Symbol("y", positive=True)
#: log(xy) = log x + log y on a box whose low end 1/10 no float holds (the cover must still start at 1/10), and
#: erf(x) < 1 + y/10 there: a conjunction, so two covers
TWO = Holds(sympy.And(rel(sympy.log(x * y) - sympy.log(x) - sympy.log(y) + sympy.Rational(1, 5), ">", 0),
                      rel(sympy.erf(x), "<", 1 + y / 10)),
            on_box({x: (sympy.Rational(1, 10), 10), y: (1, 5)}), "arb", {x: (sympy.Rational(1, 10), 10), y: (1, 5)})
#: Fact 1 at sigma = 1 for every alpha >= 0: the box [0, cut] by arb, the tail past the cut by z3
TAIL = Holds(rel(1 - Phi(x), "<", sympy.exp(-x ** 2 / 2)), method="arb", box={x: (0, sympy.oo)})


@pytest.fixture(scope="module")
def two() -> dict:
    d = decide(TWO)
    assert d.status == "certified" and d.method == "arb" and d.cover and not d.partial
    return boxes.certificate(d.cover, str(TWO.claim), "source-hash", "test: log(xy) and erf on a box")


def fresh(cert: dict) -> dict:
    return json.loads(json.dumps(cert))


def test_a_certified_arb_statement_s_cover_checks(two):
    assert len(two["covers"]) == 2 and two["on_its_box"] and two["tail"] is None
    assert two["box"] == {"x": ["1/10", "10"], "y": ["1", "5"]}
    ok, detail = boxes.check(fresh(two))
    assert ok, detail
    assert "2 cover(s)" in detail and "partial" not in detail
    n = sum(len(c["boxes"]) for c in two["covers"])
    assert n > 50 and f"{n} boxes" in detail


def test_the_cover_starts_at_the_statement_s_exact_end(two):
    """float(1/10) lies above 1/10: the search's box starts at the float below it, so that no sliver is left out."""
    for c in two["covers"]:
        assert Fraction(c["domain"]["x"][0]) <= Fraction(1, 10) < Fraction(c["domain"]["x"][0]) + Fraction(1, 10 ** 15)


def test_a_box_removed_is_rejected(two):
    for j in (0, len(two["covers"][0]["boxes"]) // 2, -1):
        bad = fresh(two)
        del bad["covers"][0]["boxes"][j]
        ok, detail = boxes.check(bad)
        assert not ok and "do not partition" in detail, detail


def test_a_box_stretched_over_its_neighbour_or_out_of_the_domain_is_rejected(two):
    bad = fresh(two)
    b = bad["covers"][1]["boxes"][0][0]
    b[0][1] = bad["covers"][1]["domain"]["x"][1]          # x's side stretched to the domain's end: overlaps
    assert not boxes.check(bad)[0]
    bad = fresh(two)
    bad["covers"][1]["boxes"][-1][0][1][1] = "6"           # y beyond the domain
    ok, detail = boxes.check(bad)
    assert not ok and "do not partition" in detail


def test_a_margin_altered_to_be_negative_on_a_box_is_rejected_whatever_the_recorded_enclosures_say(two):
    """The check computes each box's enclosure itself: a margin lowered by 1/2 is negative on some box though every
    recorded lower bound is left positive."""
    bad = fresh(two)
    cover = bad["covers"][0]
    cover["margin"] = ["add", cover["margin"], ["q", "-1/2"]]
    assert all(Fraction(b[1]) > 0 for b in cover["boxes"])
    ok, detail = boxes.check(bad)
    assert not ok and "is not > 0" in detail, detail
    bad = fresh(two)
    bad["covers"][1]["relation"] = ">="
    bad["covers"][1]["margin"] = ["add", bad["covers"][1]["margin"], ["q", "-1"]]
    assert not boxes.check(bad)[0]


def test_an_altered_recorded_enclosure_is_not_relied_on(two):
    bad = fresh(two)
    for b in bad["covers"][0]["boxes"]:
        b[1] = "1000"
    ok, detail = boxes.check(bad)
    assert ok and "recorded lower bounds differ" in detail


def test_a_key_that_does_not_match_its_statement_is_rejected(two):
    bad = fresh(two)
    bad["statement"] = bad["statement"].replace("log", "exp", 1)
    ok, detail = boxes.check(bad)
    assert not ok and "key" in detail
    bad = fresh(two)
    bad["source"] = "another-source"
    assert not boxes.check(bad)[0]


def test_a_cover_of_less_than_the_statement_s_box_is_rejected(two):
    bad = fresh(two)
    bad["box"]["x"][1] = "11"                              # the statement claims more than the cover covers
    ok, detail = boxes.check(bad)
    assert not ok and "does not contain" in detail
    bad = fresh(two)
    bad["box"]["y"] = ["1", "oo"]                          # an unbounded side no tail speaks for
    assert not boxes.check(bad)[0]


def test_a_malformed_certificate_fails_and_never_raises(two):
    for mutate in (lambda c: c["covers"][0].pop("margin"),
                   lambda c: c["covers"][0].update(margin=["gamma", ["var", "x"]]),
                   lambda c: c["covers"][0]["boxes"][0][0].pop(), lambda c: c.update(kind="farkas"),
                   lambda c: c["covers"][0].update(relation="<"), lambda c: c["covers"][0].update(prec=10 ** 9)):
        bad = fresh(two)
        mutate(bad)
        ok, detail = boxes.check(bad)
        assert not ok and detail


def test_a_tail_proved_otherwise_passes_as_partial():
    d = decide(TAIL)
    assert d.status == "certified" and d.cover and d.cover["tail"]
    cert = boxes.certificate(d.cover, str(TAIL.claim), "source-hash", "test: Fact 1")
    t = cert["tail"]
    assert t["symbol"] == "x" and t["toward"] == "oo" and "z3" in t["decided_by"] and cert["partial"]
    ok, detail = boxes.check(fresh(cert))
    assert ok and f"partial: the tail x >= {t['cut']}" in detail, detail
    bad = fresh(cert)
    bad["covers"][0]["domain"]["x"][1] = bad["covers"][0]["boxes"][-1][0][0][1] = str(Fraction(t["cut"]) - 1)
    assert not boxes.check(bad)[0]                          # the cover stops short of the tail's cut


def test_a_box_that_is_not_the_statement_s_whole_domain_passes_as_partial():
    st = Holds(rel(1 - sympy.erf(x), ">", 0), method="arb", box={x: (0, 3)})           # x real: the box is a part
    d = decide(st)
    assert d.status == "certified" and d.partial and not d.cover["on_its_box"]
    cert = boxes.certificate(d.cover, str(st.claim), "source-hash", "test: erf on a part of its domain")
    ok, detail = boxes.check(fresh(cert))
    assert ok and "partial: the statement is certified on the box x in [0, 3] only" in detail, detail
    assert cert["partial"] in detail


def test_partition_exact_covers_and_what_it_refuses():
    q = Fraction
    dom = [(q(0), q(2)), (q(0), q(2))]
    grid = [[(q(i), q(i + 1)), (q(j), q(j + 1))] for i in (0, 1) for j in (0, 1)]
    assert boxes.partition(dom, grid) is None
    assert "not covered" in boxes.partition(dom, grid[:3]) or "no box" in boxes.partition(dom, grid[:3])
    assert boxes.partition(dom, grid + [grid[0]])                                      # a box twice
    assert boxes.partition([(q(0), q(2))], [[(q(0), q(3, 2))], [(q(1), q(2))]])       # overlapping
    assert boxes.partition([(q(0), q(2))], [[(q(0), q(1))], [(q(3, 2), q(2))]])        # a gap
    # a pinwheel covers [0,3]^2 exactly but admits no cut: reported as not checked, never accepted
    pin = [[(q(0), q(2)), (q(0), q(1))], [(q(2), q(3)), (q(0), q(2))], [(q(1), q(3)), (q(2), q(3))],
           [(q(0), q(1)), (q(1), q(3))], [(q(1), q(2)), (q(1), q(2))]]
    assert "not checked" in boxes.partition([(q(0), q(3)), (q(0), q(3))], pin)
    assert boxes.partition([("0", "1")], [[("0", "1/2")], [("2/4", "1")]]) is None    # texts, read exactly


def test_the_checker_s_evaluation_is_the_search_s():
    """The tree `expression_tree` writes, evaluated by the checker, gives the very ball `_arb_fn` gives, on every
    node kind the search reads."""
    from flint import arb
    z = sympy.Symbol("z", positive=True)
    expr = (sympy.exp(-x ** 2 / 2) / sympy.sqrt(2 * sympy.pi) + sympy.log(z) * sympy.erfc(x) - z ** sympy.Rational(1, 3)
            + 1 / sympy.sqrt(z) + sympy.sqrt(z + 1) + sympy.Abs(x - 1) * sympy.sin(x) * sympy.cos(z) + sympy.E
            + sympy.Float("0.125") * z ** -2 + sympy.erf(x) ** 3)
    tree = json.loads(json.dumps(expression_tree(expr)))
    fn = _arb_fn(expr, ["x", "z"])
    for env in ({"x": arb(0.3, 0.01), "z": arb(2.5, 0.25)}, {"x": arb(-1.7), "z": arb(0.1, 1e-3)}):
        a, b = fn(**env), boxes.evaluate(tree, env)
        assert a.mid() == b.mid() and a.rad() == b.rad()
        c = boxes.compile_tree(tree)(env)
        assert c.mid() == b.mid() and c.rad() == b.rad()
    with pytest.raises(ValueError):
        expression_tree(sympy.gamma(x))


FORBIDDEN = ("z3", "highspy", "scipy.optimize", "sympy")


def test_the_checker_loads_no_search(tmp_path, two):
    """Importing the checker, and checking a boxes certificate with it, in a fresh interpreter loads no solver, no
    scipy.optimize, no module of rue_verify.verify (not even sympy)."""
    (tmp_path / "c.json").write_text(json.dumps(two, sort_keys=True))
    code = ("import json, sys\nimport rue_verify.certify.boxes as b\n"
            f"ok, detail = b.check(json.load(open({str(tmp_path / 'c.json')!r})))\n"
            f"print(ok, sorted(m for m in sys.modules if m in {FORBIDDEN!r} or m.startswith('rue_verify.verify')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "True []", out.stdout


def test_a_reversed_side_a_tail_on_a_bounded_end_and_a_key_given_twice_are_rejected(two, tmp_path):
    """Holes a reviewer found: a reversed box side (checked at one point), a 'tail' toward a bounded end (handing
    the side to an unchecked proof), a JSON object giving 'statement' twice (one reader sees the other value)."""
    from rue_verify.certify import check
    c = fresh(two)
    name = next(iter(c["box"]))
    c["box"][name] = list(reversed(c["box"][name]))
    ok, detail = boxes.check(c)
    assert not ok and "reversed" in detail
    c = fresh(two)
    c["tail"] = {"symbol": name, "cut": c["box"][name][0], "toward": c["box"][name][1], "decided_by": "z3"}
    ok, detail = boxes.check(c)
    assert not ok and "unbounded end" in detail
    text = json.dumps(two)
    (tmp_path / "twice.json").write_text(text[:-1] + ', "statement": "exp(x) < 0"}')
    f, kind, ok, detail = check.check_file(tmp_path / "twice.json")
    assert not ok and "twice" in detail


def test_a_certificate_put_out_of_sight_fails_the_directory(two, tmp_path):
    """A file renamed away from *.json, and a directory linked in, are failures of the directory's check, never
    skipped; a partial certificate is counted apart."""
    import os

    from rue_verify.certify import check
    (tmp_path / "a.json").write_text(json.dumps(two))
    (tmp_path / "b.json.bak").write_text(json.dumps(two))
    other = tmp_path.parent / (tmp_path.name + "-other")
    other.mkdir()
    os.symlink(other, tmp_path / "linked")
    rows = {os.path.basename(f): (ok, d) for f, _, ok, d in check.check_directory(tmp_path)}
    assert rows["a.json"][0] and not rows["b.json.bak"][0] and not rows["linked"][0]


def test_a_tail_z3_decided_carries_its_problems_for_cvc5_as_certificates_of_their_own():
    """Review H4: the tail past an arb box, where z3 decided it, keeps its SMT-LIB problems: on the decision's cover,
    on the row a derivation's link writes (so cvc5 reads them with the link, `carried.problems`) and as certificates
    of their own beside the box's, which names how many. cvc5 re-decides each; one with its claim's negation
    dropped is no certificate."""
    from rue_verify.certify import collect, smt
    from rue_verify.verify.carried import problems
    from rue_verify.verify.proofs import holds_row
    d = decide(TAIL)
    tail = d.cover["tail"]["problems"]
    assert tail and all("(check-sat)" in t["smt2"] and t["statement"] for t in tail), d.cover["tail"]
    row = holds_row({}, TAIL)
    assert row["status"] == "certified" and [(s_, t) for _, s_, t in problems(row)] == \
        [(t["statement"], t["smt2"]) for t in tail]
    certs = collect._step_certificates(TAIL, "test: the tail", "source-hash", [])
    kinds = [c["kind"] for c in certs]
    assert kinds == [boxes.KIND] + ["smt2"] * len(tail), kinds
    assert f"{len(tail)} SMT-LIB certificate(s) of its own" in certs[0]["tail"]["decided_by"]
    assert boxes.check(fresh(certs[0]))[0]
    pytest.importorskip("cvc5")
    for c in certs[1:]:
        ok, said = smt.check(c)
        assert ok, said
    bad = dict(certs[1])
    bad["smt2"] = "\n".join(line for line in bad["smt2"].splitlines() if ":named negated_claim" not in line)
    assert not smt.check(bad)[0]
