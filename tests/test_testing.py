"""rue_verify.testing, the public helpers: the strategies draw what they promise, and every
assertion passes on correct code and fails on a planted fault (each can fail)."""

import textwrap

import numpy as np
import pytest
from hypothesis import given, settings

from rue_verify import testing
from simulate.environments import Environment


@settings(max_examples=50)
@given(mu=testing.bandit_instances(max_K=10), g=testing.bandit_instances(reward="gaussian"), p=testing.priors(),
       s=testing.paper_settings())
def test_strategies_draw_what_they_promise(mu, g, p, s):
    assert 2 <= mu.size <= 10 and np.all((mu >= 0.01) & (mu <= 0.99)) and np.sum(mu == mu.max()) == 1
    assert np.all(np.abs(g) <= 3) and np.sum(g == g.max()) == 1
    assert p[1] > 0 and p[2] > 0
    setup, K, budget = s
    assert (setup[0] == "F") == (budget in ("H/2", "H", "2H")) and K in (20, 40, 80)


def test_a_rate_above_its_bound_fails_and_one_below_passes():
    assert testing.assert_rate_below(10, 1000, 0.02).high > 0.01
    with pytest.raises(AssertionError, match=r"300/1000 = 0.3, exact .* is above the bound 0.2"):
        testing.assert_rate_below(300, 1000, 0.2)
    ci = testing.assert_simulated_rate_below("uniform", Environment("F2", 20), "2H", bound=0.5, runs=400, seed=1)
    with pytest.raises(AssertionError, match="uniform's failure rate"):
        testing.assert_simulated_rate_below("uniform", Environment("F2", 20), "2H", bound=ci.low / 3, runs=400,
                                            seed=1)


def test_a_kernel_that_differs_from_its_reference_is_caught():
    from simulate.algorithms import get
    mu = np.array([0.2, 0.5, 0.45, 0.3])
    testing.assert_kernel_matches_reference("sh", mu, 64, seed=3)
    alg = get("sh")
    real = alg.reference

    def off_by_one(source, K, n, **kw):
        arm, T = real(source, K, n, **kw)
        return (arm + 1) % K, T
    object.__setattr__(alg, "reference", off_by_one)       # the entry is frozen: plant the fault by hand
    try:
        with pytest.raises(AssertionError, match="sh: the run recommends"):
            testing.assert_kernel_matches_reference("sh", mu, 64, seed=3)
    finally:
        object.__setattr__(alg, "reference", real)


def test_the_documented_example_for_your_own_algorithm(tmp_path, monkeypatch):
    (tmp_path / "my_module.py").write_text(textwrap.dedent('''
        def my_algorithm(source, K, n):
            totals = [0.0] * K
            for t in range(n):
                totals[t % K] += source.reward(t % K)
            return source.argmax(totals)

        def lazy_algorithm(source, K, n):
            return source.argmax([source.reward(k) for k in range(K)])
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))

    @settings(max_examples=10, deadline=None)
    @given(mu=testing.bandit_instances(max_K=8), seed=testing.seeds)
    def spends(mu, seed):
        testing.assert_spends_budget("my_module:my_algorithm", mu, n=10 * mu.size, seed=seed)
    spends()
    with pytest.raises(AssertionError, match="pulls per run"):
        testing.assert_spends_budget("my_module:lazy_algorithm", np.array([0.2, 0.8]), n=20)
    testing.assert_simulated_rate_below("my_module:my_algorithm", Environment("F2", 20), "2H", bound=0.6, runs=300,
                                        seed=1)
