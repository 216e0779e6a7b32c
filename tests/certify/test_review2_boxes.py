"""A second review of the certificates (interval certificates, `rue_verify.certify.boxes`), which failed before its
fix: a FALSE statement (a conjunction whose second relation fails on its box, which the engine refutes) passed
`boxes.check` with the second relation's cover dropped.

"""

import json

import sympy

from rue_verify.certify import boxes
from rue_verify.verify.statements import Holds, decide, rel

x = sympy.Symbol("x", real=True)
BOX = {x: (0, 1)}
TRUE = Holds(sympy.And(rel(sympy.exp(x), ">=", x + sympy.Rational(1, 2)),
                       rel(x ** 2, "<=", 2 * x + sympy.Rational(1, 2))),
             method="arb", box=BOX)
#: the second relation false on (1/2, 1]: x**2 <= x/2
FALSE = Holds(sympy.And(rel(sympy.exp(x), ">=", x + sympy.Rational(1, 2)), rel(x ** 2, "<=", x / 2)),
              method="arb", box=BOX)


def test_a_conjunction_with_one_relation_s_cover_dropped_is_refused():
    """HOLE: a certificate holds one cover per relation of its claim, but the checker never counts them against
    the statement: the covers present are checked, a missing one is not missed. The true conjunction's certificate
    with its first cover only, filed under the false conjunction (key recomputed), passes."""
    assert decide(FALSE).status == "refuted"
    d = decide(TRUE)
    assert d.status == "certified" and len(d.cover["covers"]) == 2
    rels = [str(r) for r in FALSE.claim.args]
    c = json.loads(json.dumps(boxes.certificate(d.cover, FALSE.text(), "source-hash", "review", relations=rels)))
    c["covers"] = c["covers"][:1]
    ok, detail = boxes.check(c)
    assert not ok and "1 cover(s) for 2 relation(s)" in detail, f"'{FALSE.text()}' certified: {detail}"
    c["relations"] = rels[:1]                          # one relation listed: the statement names two
    ok, detail = boxes.check(c)
    assert not ok and "conjunction" in detail, detail
    honest = json.loads(json.dumps(boxes.certificate(d.cover, TRUE.text(), "source-hash", "review",
                                                     relations=[str(r) for r in TRUE.claim.args])))
    assert boxes.check(honest)[0]
