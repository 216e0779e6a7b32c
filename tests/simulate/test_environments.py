"""simulate.environments: the setups of Section 6, budgets, and bad input."""

import numpy as np
import pytest

from simulate.environments import RANDOM_SETUPS, Environment, complexity_H, fixed_means, parse_budget, random_means
from simulate.runner import simulate


def test_environments():
    for s in ("F1", "F2", "F3", "F4", "F5", "F6"):
        mu = fixed_means(s, 20)
        assert mu.argmax() == 0 and np.sum(mu == mu.max()) == 1 and mu.size == 20
    mu = fixed_means("F4", 40)
    assert mu[1] == pytest.approx(0.5 - 1 / 200) and mu[-1] == pytest.approx(0.25)
    assert np.allclose(np.diff(mu[1:]), np.diff(mu[1:])[0])
    d = 0.5 - fixed_means("F5", 20)[1:]
    assert np.allclose(d[1:] / d[:-1], d[1] / d[0])
    env = Environment("F1", 20)
    assert parse_budget("H", env) == 7601 and parse_budget("H/2", env) == 3801 and parse_budget("2H", env) == 15202
    assert complexity_H(fixed_means("F1", 20), "section2") > complexity_H(fixed_means("F1", 20))
    rng = np.random.default_rng(0)
    m, c = random_means("R2", 20, rng, 500, "variance", "redraw")
    assert c > 0 and m.min() >= 0 and m.max() <= 1
    m2, c2 = random_means("R2", 20, rng, 500, "sd", "clip")
    assert m2.std() < m.std()
    with pytest.raises(ValueError, match="outside"):
        random_means("R2", 20, rng, 500, "variance", "error")


@pytest.mark.parametrize("kwargs,match", [
    (dict(setup="F9", K=20), "setup"), (dict(setup="F1", K=20, reward="poisson"), "reward"),
    (dict(setup="F1", K=20, nu_sq=0.0), "nu_sq"),
    (dict(setup="R1", K=20, reward="bernoulli"), "R1 has Gaussian rewards.*setup R2"),
    (dict(setup="custom", K=3, custom_means=(0.5, 1.2, 0.1)), r"custom_means: .*\[0, 1\], got 0.1..1.2")])
def test_environment_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Environment(**kwargs)


def test_r1_takes_its_own_reward_law_and_phase_algorithms_run_on_it():
    """R1 is Gaussian with noise variance 1 (Section 6.1) unless told otherwise. Before, an
    environment defaulted to Bernoulli rewards, so R1's means outside [0, 1] reached numba's
    binomial draws and the phase algorithms returned garbage arm indices."""
    env = Environment("R1", 10)
    assert (env.reward, env.nu_sq) == ("gaussian", RANDOM_SETUPS["R1"].nu_sq)
    assert Environment("R2", 10).reward == "bernoulli" and Environment("F1", 10).nu_sq == 0.25
    res = simulate(env, ["sr", "sh", "two-stage", "uniform"], 2000, 40, seed=3, progress=False)
    for r in res.results:
        assert 0 <= r.failures <= 40 and np.isfinite(r.simple_regret) and r.simple_regret >= 0
