"""Helpers shared by the simulate tests: a live-versus-reference law test (reward tables and the
kernel-versus-reference assertion are public: `rue_verify.testing`)."""

import numpy as np
from scipy import stats

from rue_verify.testing import reward_table  # noqa: F401 -- re-exported for the simulate tests
from simulate.algorithms import get
from simulate.algorithms.sources import LiveSource
from simulate.environments import Environment, fixed_means
from simulate.runner import simulate

TINY = 1e-6        # level of every statistical pass rule (fixed seeds: a failure is a real difference)


def live_kernel_vs_reference(name, setup, K, n, R, seed):
    """Failures of R live kernel runs (through the runner) against R runs of the plain reference on
    its own live stream: Fisher's exact test p-value (the best arm is arm 0 in the fixed setups)."""
    mu = fixed_means(setup, K)
    fast = simulate(Environment("custom", K, custom_means=tuple(mu)), [name], n, R, seed=seed,
                    progress=False).results[0]
    alg = get(name)
    kw = alg.kernel_kwargs(alg.resolve(), mu[None], n)
    kw = {k: float(np.ravel(v)[0]) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    rng = np.random.default_rng(seed)
    slow = sum(alg.reference(LiveSource(mu, rng), K, n, **kw)[0] != 0 for _ in range(R))
    return stats.fisher_exact([[fast.failures, R - fast.failures], [slow, R - slow]]).pvalue
