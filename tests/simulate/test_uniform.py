"""simulate.algorithms.uniform: the exact error probability of uniform allocation."""

import math

import numpy as np
import pytest
from scipy import integrate, stats

from simulate.environments import Environment
from simulate.runner import simulate
from tests.simulate.streams import TINY


@pytest.mark.statistical
def test_uniform_gaussian_matches_exact_error():
    mu = np.array([0.5, 0.4, 0.35, 0.3, 0.1])
    n, nu_sq = 100, 1.0
    sd = math.sqrt(nu_sq / (n // 5))
    # P(correct) = int phi((x - mu_1)/sd)/sd prod_k Phi((x - mu_k)/sd) dx
    pc, _ = integrate.quad(lambda x: stats.norm.pdf(x, mu[0], sd) * np.prod(stats.norm.cdf((x - mu[1:]) / sd)),
                           -10, 10, limit=200)
    env = Environment("custom", 5, "gaussian", nu_sq, custom_means=tuple(mu))
    r = simulate(env, ["uniform"], n, 100_000, seed=3, level=1 - TINY, progress=False).results[0]
    assert r.ci_low <= 1 - pc <= r.ci_high
