"""simulate.algorithms.ttts: live runs (lazy sampler) against the plain reference and the plain sampler."""

import numpy as np
import pytest
from scipy import stats

from simulate.algorithms import ttts
from simulate.environments import Environment, fixed_means, parse_budget
from simulate.runner import simulate
from tests.simulate.streams import TINY, live_kernel_vs_reference


@pytest.mark.statistical
def test_ttts_kernel_matches_reference_in_distribution():
    assert live_kernel_vs_reference("ttts", "F1", 6, 300, 1500, 5) > TINY


@pytest.mark.slow
def test_ttts_lazy_sampler_matches_plain_sampler_at_paper_scale():
    """Live runs (lazy grid sampler) against the compiled plain sampler (Cheng's BB on table
    streams) on F1, K = 20, n = H/2: 3000 runs each, 70-90 s here. The plain sampler reads its
    uniforms in sequence, 68-75 a round in three runs checked against the Python reference (which
    counts them): a table of 400 a round leaves a margin of five."""
    mu = fixed_means("F1", 20)
    n = parse_budget("H/2", Environment("F1", 20))
    R = 3000
    lazy = simulate(Environment("F1", 20), ["ttts"], n, R, seed=31, progress=False).results[0].failures
    plain = 0
    for r in range(R):
        rng = np.random.default_rng([31, r])
        table = (rng.random((20, n)) < mu[:, None]).astype(float)
        plain += ttts.run(mu, n, table=table, ties=rng.random(400 * n))[0] != 0
    assert stats.fisher_exact([[lazy, R - lazy], [plain, R - plain]]).pvalue > TINY
