"""bounds.certify: arb interval certificates and sympy proofs."""

from bounds import certify, gap


def test_arb_upper_bound_is_above_the_float_value():
    for K in (2, 37, 500, 10_000):
        assert certify.p0_upper(K, 0.05) >= gap.gap_constant_tightest(K)
    c = certify.certify_theorem_3_1(37)
    assert c.certified and c.upper <= c.lower
    assert not certify.certify_theorem_3_1(36).certified
    assert certify.c_K_certainly_undefined(35) and not certify.c_K_certainly_undefined(36)


def _decided(steps) -> list[str]:
    from rue_verify.verify.statements import Holds, decide
    return [decide(Holds(relation, given)).status for _, relation, given in steps]


def test_the_engine_certifies_every_step_of_the_tau_upper_proof_and_rejects_its_negations():
    from rue_verify.verify.statements import Holds, decide, mutants
    steps = certify.prove_tau_upper()
    assert _decided(steps) == ["certified"] * len(steps)
    for _, relation, given in steps:
        assert decide(mutants(Holds(relation, given))[0][1]).status != "certified"


def test_z3_proves_every_step_of_the_repaired_h_order_and_refutes_a_wrong_one():
    """H_2 <= H <= (1/2 + sum_{i=2}^K 1/i) H_2, step by step: z3 proves each for every real value, and the
    same checker finds a counterexample where a step is stated without its hypothesis or one term off."""
    for steps in (certify.prove_h2_le_h(), certify.prove_h_le_harmonic_h2()):
        assert steps and _decided(steps) == ["certified"] * len(steps), steps
    _, first, given = certify.prove_h2_le_h()[0]
    _, step, assumed = certify.prove_h_le_harmonic_h2()[2]
    t = next(s for s in step.free_symbols if s.name == "t")
    off = step.func(step.lhs, step.rhs.subs(1 / (t + 1), 1 / (t + 2)), evaluate=False)     # one term off
    assert off != step
    assert _decided([("without 0 < a", first, given[1:]), ("one term off", off, assumed)]) == ["refuted"] * 2
