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
