"""A second review of the certificates (smt2 certificates). Each test failed before its fix: it shows a certificate that
should be rejected being accepted by `rue_verify.certify.smt.check`.

"""

import pytest

from rue_verify.certify import smt

pytest.importorskip("cvc5")

#: x*x < 0 for every real x: FALSE (its negation, x*x >= 0, is satisfiable: any x)
FALSE_STATEMENT = "x**2 < 0"
PROBLEM = """(set-logic QF_NRA)
(declare-fun x () Real)
; the claim negated: not (x**2 < 0)
(assert (! (not (< (* x x) 0.0)) :named negated_claim))
{extra}(check-sat)
"""


def _cert(extra: str = "") -> dict:
    return smt.certificate(PROBLEM.format(extra=extra), FALSE_STATEMENT, "source-hash", "review: a false claim")


def test_the_honest_problem_of_the_false_claim_is_rejected():
    # control: cvc5 finds a model (x = 0) and the certificate is refused
    ok, detail = smt.check(_cert())
    assert not ok and "sat" in detail


def test_a_contradiction_named_case_in_a_certificate_that_is_no_induction_certifies_a_false_claim():
    """HOLE: an assertion whose name starts with `case_` is left out of the facts' consistency check (meant for an
    induction's cases), but the checker accepts `case_` assertions in ANY certificate, not only an induction's
    ("... [case: ...]" statements). One `(assert (! false :named case_0))` makes every problem unsat for a reason
    unrelated to its claim, and the consistency check never sees it: the false claim x**2 < 0 is certified."""
    ok, detail = smt.check(_cert("; an induction case (it is none)\n(assert (! false :named case_0))\n"))
    assert not ok, f"a false claim certified by a contradictory case_ assertion: {detail}"


def test_case_formulas_that_contradict_one_another_certify_a_false_claim():
    """The same hole with two harmless-looking case formulas that contradict each other (x > 1 and x < 0)."""
    ok, detail = smt.check(_cert("(assert (! (> x 1.0) :named case_0))\n(assert (! (< x 0.0) :named case_1))\n"))
    assert not ok, f"a false claim certified by case_ formulas that contradict one another: {detail}"


def test_a_negated_claim_unsat_by_itself_certifies_any_statement():
    """HOLE (next to the documented trust that the negated claim translates the statement): the checker refuses
    `(not true)` but not a negated claim that is unsat on its own for another reason, e.g. (not (or true C)):
    unsat with no fact at all, so the file certifies whatever its statement says (here the false x**2 < 0). A cheap
    guard: the negated claim alone (with the declarations) must not be unsat, as the facts alone must not be."""
    text = ("(set-logic QF_NRA)\n(declare-fun x () Real)\n"
            "(assert (! (not (or true (< (* x x) 0.0))) :named negated_claim))\n(check-sat)\n")
    ok, detail = smt.check(smt.certificate(text, FALSE_STATEMENT, "source-hash", "review"))
    assert not ok, f"a tautology's negation certifies '{FALSE_STATEMENT}': {detail}"
