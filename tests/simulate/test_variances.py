"""simulate.algorithms.variances: the kernel's O(1) form and the plain form of each estimator agree."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.algorithms import variances as V


@settings(max_examples=80)
@given(T=st.lists(st.integers(0, 300), min_size=2, max_size=15), seed=st.integers(0, 1000),
       variances=st.sampled_from(["authors", "unbiased"]))
def test_running_totals_give_the_plain_estimates(T, seed, variances):
    T = np.asarray(T, float)
    if T.sum() < 2:
        T[0] += 2
    rng = np.random.default_rng(seed)
    x = [rng.normal(rng.normal(), rng.uniform(0.1, 3.0), int(t)) for t in T]
    S = np.array([v.sum() for v in x])
    Q = np.array([(v * v).sum() for v in x])
    s02, s2 = V.estimate(T, S, Q, variances)
    pulled = T > 0
    A = float(np.sum(S[pulled] ** 2 / T[pulled]))
    k0, k = V.from_totals(T.sum(), S.sum(), Q.sum(), A, float(np.sum(T * T)), float(pulled.sum()),
                          V.mode_of(variances), 1.0, 1.0)
    assert s02[0] == pytest.approx(k0, rel=1e-9, abs=1e-12) and s2[0] == pytest.approx(k, rel=1e-9, abs=1e-12)


def test_the_plain_form_is_the_textbook_anova():
    """Within-arm variance pooled over arms, and the between-arm sum of squares, by hand."""
    x = [np.array([1.0, 2.0, 4.0]), np.array([0.0, 1.0]), np.array([5.0, 5.0, 6.0, 8.0])]
    T = np.array([len(v) for v in x], float)
    S = np.array([v.sum() for v in x])
    Q = np.array([(v * v).sum() for v in x])
    within = sum(((v - v.mean()) ** 2).sum() for v in x) / (T.sum() - 3)
    grand = np.concatenate(x).mean()
    ssb = sum(len(v) * (v.mean() - grand) ** 2 for v in x)
    den = T.sum() - (T ** 2).sum() / T.sum()
    s02, s2 = V.estimate(T, S, Q, "authors")
    assert s2[0] == pytest.approx(within) and s02[0] == pytest.approx(ssb / den)
    u02, _ = V.estimate(T, S, Q, "unbiased")
    assert u02[0] == pytest.approx((ssb - 2 * within) / den)
    assert V.estimate(T, S, Q, "known", 0.3, 2.0) == (pytest.approx([0.3]), pytest.approx([2.0]))


def test_estimates_are_floored_and_names_checked():
    s02, s2 = V.estimate([2, 2], [2.0, 2.0], [2.0, 2.0])        # identical Bernoulli rewards
    assert s02[0] == V.VAR_FLOOR and s2[0] == V.VAR_FLOOR
    with pytest.raises(ValueError, match="variances must be one of authors, unbiased, known, got 'anova'"):
        V.mode_of("anova")
