"""A proof step that cites a classical result (`verify.Cites`) is certified only when every side
condition is checked by machine and holds: a concave function under Jensen's 'convex' leaves the step
argued, and so does a condition nothing checks."""

import pytest
import sympy

from rue_verify.verify import Cites, Finding, from_proof


def _second_derivative_nonnegative(f, x) -> bool:
    return bool(sympy.diff(f, x, 2).is_nonnegative)


def test_a_cited_lemma_holds_only_with_every_side_condition_checked():
    x = sympy.symbols("x", real=True)
    jensen = "phi(E Y) <= E phi(Y) for convex phi and integrable Y, phi(Y)"
    good = Cites("Jensen's inequality", jensen, (("exp is convex", _second_derivative_nonnegative(sympy.exp(x), x)),
                                                  ("integrable", True)))
    p = from_proof([("exp(E Y) <= E exp(Y)", good)], "d", "c")
    assert p.verdict == "holds" and p.proof["status"] == "proved" and "cites: Jensen's inequality" in p.detail
    # a concave function under 'convex': the check fails, so the step is argued, never proved
    concave = Cites("Jensen's inequality", jensen,
                    (("-x^2 is convex", _second_derivative_nonnegative(-x ** 2, x)), ("integrable", True)))
    q = from_proof([("-(E Y)^2 <= E(-Y^2)", concave)], "d", "c")
    assert q.verdict == "inconclusive" and q.proof["status"] == "argued" and "fails" in q.detail
    unchecked = Cites("Jensen's inequality", jensen, (("convex", None),))
    assert from_proof([("s", unchecked)], "d", "c").proof["status"] == "argued"
    sampled = Cites("Jensen's inequality", jensen, (("convex", Finding("holds", "a grid", "no violation")),))
    assert from_proof([("s", sampled)], "d", "c").proof["status"] == "argued"     # a sample does not establish it
    with pytest.raises(TypeError, match="no side condition"):
        from_proof([("s", Cites("Jensen's inequality", jensen, ()))], "d", "c")
