"""bounds.theorems: Theorems 5.1 and 5.2 (labels `them-R`, `them-R-Bayes`) and the proof's quantities."""

import math

import pytest

import bounds
from bounds import theorems as th


def test_theorem_5_1_undefined_and_hypotheses():
    with pytest.raises(bounds.UndefinedError, match="c_K"):
        th.theorem_5_1_bound(20, 1000, 1.0, 1.0, 1.0)
    with pytest.raises(bounds.UndefinedError, match="n - 4"):
        th.theorem_5_1_bound(40, 156, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="n must be >= 4"):
        th.theorem_5_1_bound(40, 100, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="delta must be in"):
        th.theorem_5_1_bound(40, 1000, 1.0, 1.0, 1.5)
    with pytest.raises(ValueError, match="n must be > 4"):
        th.theorem_5_2_bound(40, 156, 1.0, 1.0, 1.0)


def test_theorem_5_2_equals_its_proof_only_when_sigma0_is_one():
    a = th.theorem_5_2_bound(100, 10 ** 6, 1.0, 0.1, 0.01)
    b = th.regret_bound_from_proof(100, 10 ** 6, 1.0, 0.1, 0.01)
    assert a == pytest.approx(b, rel=1e-12)
    a4 = th.theorem_5_2_bound(100, 10 ** 6, 4.0, 0.4, 0.01)
    b4 = th.regret_bound_from_proof(100, 10 ** 6, 4.0, 0.4, 0.01)
    assert not math.isclose(a4, b4, rel_tol=1e-3)


def test_eta_condition_holds_with_intended_rho_identity():
    # rho^2 = beta/beta_1 exactly when sigma0^2 + sigma^2 = 1
    for K, s0 in ((40, 0.3), (1000, 0.9)):
        assert float(th.rho(K, s0, 1 - s0)) ** 2 == pytest.approx(
            float(th.beta(K, s0, 1 - s0) / th.beta_1(K, s0, 1 - s0)), rel=1e-12)
        assert float(th.eta_condition(K, s0, 1 - s0)) <= 0
