"""A proof step that cites a classical result (`verify.Cites`) is certified only when every side
condition is a statement about the step's own objects that the engine decides true: a concave function
under Jensen's 'convex' leaves the step argued, and so do a literal (True, 1, a numpy bool), a condition
nothing checks and a sample."""

import numpy as np
import pytest
import sympy

from rue_verify.verify import Cites, Finding, Holds, convex, from_proof, rel

JENSEN = "phi(E Y) <= E phi(Y) for convex phi and integrable Y, phi(Y)"


def test_a_cited_lemma_holds_only_with_every_side_condition_decided_on_its_object():
    x = sympy.symbols("x", real=True)
    integrable = ("the Gaussian's moment generating function is finite",
                  Holds(rel(sympy.Integral(sympy.exp(x - x ** 2 / 2), (x, -sympy.oo, sympy.oo)), "<", sympy.oo),
                        method="sympy"))
    good = Cites("Jensen's inequality", JENSEN, (convex(sympy.exp(x), x), integrable))
    p = from_proof([("exp(E Y) <= E exp(Y)", good)], "d", "c")
    # the step is certified; a list of steps is not a derivation of a statement, so the proof is checked only
    assert p.proof["steps"][0]["status"] == "certified" and "cites: Jensen's inequality" in p.detail
    assert p.verdict == "holds" and p.proof["status"] == "checked"
    # a concave function under 'convex': the condition on that function fails, so the step is argued
    q = from_proof([("-(E Y)^2 <= E(-Y^2)", Cites("Jensen's inequality", JENSEN, (convex(-x ** 2, x), integrable)))],
                   "d", "c")
    assert q.verdict == "inconclusive" and q.proof["status"] == "argued" and "fails" in q.detail


@pytest.mark.parametrize("literal", [True, 1, 1.0, np.True_, np.bool_(True)])
def test_a_literal_is_refused_as_a_condition(literal):
    step = Cites("Jensen's inequality", JENSEN, (("convex", literal),))
    p = from_proof([("s", step)], "d", "c")
    assert p.proof["status"] == "argued" and "refused" in p.detail


def test_an_unchecked_or_sampled_condition_leaves_the_step_argued():
    assert from_proof([("s", Cites("Jensen's inequality", JENSEN, (("convex", None),)))], "d", "c").proof["status"] \
        == "argued"
    sampled = Cites("Jensen's inequality", JENSEN, (("convex", Finding("holds", "a grid", "no violation")),))
    assert from_proof([("s", sampled)], "d", "c").proof["status"] == "argued"     # a sample does not establish it
    certified = Cites("Jensen's inequality", JENSEN, (("convex", Finding("holds", "all", "x", certified=True)),))
    p = from_proof([("s", certified)], "d", "c")        # a hand-built finding is no condition either
    assert p.proof["status"] == "argued" and "a finding is not a condition" in p.detail


def test_a_condition_whose_domain_is_empty_decides_nothing():
    x = sympy.symbols("x", real=True)
    empty = ("x is nonnegative", Holds(rel(x, ">=", 0), (rel(x, "<", 0), rel(x, ">", 1))))
    p = from_proof([("s", Cites("a lemma", "its statement", (empty,)))], "d", "c")
    assert p.proof["status"] == "argued" and "domain is empty" in p.detail
    with pytest.raises(TypeError, match="no side condition"):
        from_proof([("s", Cites("Jensen's inequality", JENSEN, ()))], "d", "c")
