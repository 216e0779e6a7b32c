"""simulate.algorithms.rue: the interleaved batch kernel against single runs, in every mode."""

import numpy as np
import pytest

from simulate.algorithms import rue


@pytest.mark.parametrize("gaussian,variances", [(False, "authors"), (False, "unbiased"), (True, "unbiased"),
                                                (True, "known")])
def test_interleaved_batch_equals_single_runs(gaussian, variances):
    """Blocks of interleaved runs (vector code) against one run at a time (scalar remainder)."""
    R, K, n = 70, 9, 700       # 70 runs: padded to 72 (UNIT 4); on 2 threads blocks of 36 and 36 (MIN_BLOCK 32)
    rng = np.random.default_rng(8)
    means = rng.normal(0.5, 0.2, (R, K)) if gaussian else rng.uniform(0.2, 0.8, (R, K))
    seeds = np.arange(R, dtype=np.uint64) * 7 + 1
    kw = dict(gaussian=gaussian, nu=1.0, variances=variances, sigma0_sq=0.05, sigma_sq=0.3)
    rec, pulls = rue.batch(means, n, seeds, seeds + 1000, **kw)
    for i in range(R):
        a, T = rue.run(means[i], n, seed=int(seeds[i]), reward_seed=int(seeds[i]) + 1000, **kw)
        assert a == rec[i] and np.array_equal(T, pulls[i])
