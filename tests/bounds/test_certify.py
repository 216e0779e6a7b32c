"""bounds.certify: arb interval certificates and sympy proofs."""

from bounds import certify, gap


def test_arb_upper_bound_is_above_the_float_value():
    for K in (2, 37, 500, 10_000):
        assert certify.p0_upper(K, 0.05) >= gap.gap_constant_tightest(K)
    c = certify.certify_theorem_3_1(37)
    assert c.certified and c.upper <= c.lower
    assert not certify.certify_theorem_3_1(36).certified
    assert certify.c_K_certainly_undefined(35) and not certify.c_K_certainly_undefined(36)


def test_sympy_proof_of_tau_upper_checks_every_step():
    assert all(ok for _, ok in certify.prove_tau_upper())


def test_z3_proves_every_step_of_the_repaired_h_order_and_refutes_a_wrong_one():
    """H_2 <= H <= (1/2 + sum_{i=2}^K 1/i) H_2, step by step: z3 proves each for every real value, and the
    same checker finds a counterexample where a step is stated without its hypothesis or one term off."""
    import z3
    for steps in (certify.prove_h2_le_h(), certify.prove_h_le_harmonic_h2()):
        assert steps and all(ok is True for _, ok in steps), steps
    assert certify.valid_for_all_reals(lambda a, b: z3.Implies(a <= b, 1 / (a * a) >= 1 / (b * b)), "a b") is False
    assert certify.valid_for_all_reals(lambda S, y, M, L, t: z3.Implies(
        z3.And(t >= 2, S <= M * L, y <= M / (t + 1)), S + y <= M * (L + 1 / (t + 2))), "S y M L t") is False
