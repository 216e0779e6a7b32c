"""simulate.algorithms.rue: the interleaved batch kernel against single runs, in every mode."""

import numpy as np
import pytest

from simulate.algorithms import rue


@pytest.mark.parametrize("gaussian,variances", [(False, "authors"), (False, "unbiased"), (True, "unbiased"),
                                                (True, "known"), (True, "ml"), (False, "reml")])
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


@pytest.mark.parametrize("K", [1, 2, 9, 80, 128, 129, 160, 320, 1000, 5000])
def test_block_for_keeps_each_array_within_the_cache_cap(K):
    """Blocks are whole units, at least MIN_BLOCK and at most BLOCK runs, and K * block doubles stay
    within CACHE_DOUBLES wherever MIN_BLOCK allows it."""
    b = rue.block_for(K)
    assert b % rue.UNIT == 0 and rue.MIN_BLOCK <= b <= rue.BLOCK
    assert K * b <= rue.CACHE_DOUBLES or b == rue.MIN_BLOCK
    assert b == rue.BLOCK or K * (b + rue.UNIT) > rue.CACHE_DOUBLES      # the largest block that fits


def test_blocking_by_K_changes_no_run():
    """At large K the default blocks (capped by K: 4 of 40 runs) give the same runs as blocks of at
    least half the runs (2 of 80, or 1 of 160 on one thread)."""
    R, K, n = 160, 600, 1300
    means = np.tile(np.linspace(0.6, 0.4, K), (R, 1))
    seeds = np.arange(R, dtype=np.uint64) + 5
    kw = dict(gaussian=True, nu=0.5, variances="known", sigma0_sq=0.01, sigma_sq=0.25)
    assert 2 * rue.block_for(K) < R // 2
    for lazy in (False, True):
        a = rue.batch(means, n, seeds, seeds + 99, lazy=lazy, **kw)
        b = rue.batch(means, n, seeds, seeds + 99, lazy=lazy, block=R, **kw)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


@pytest.mark.parametrize("variances", ["ml", "reml"])
def test_the_likelihood_refit_schedule_is_the_references(variances):
    """ML and REML refitted every round (refit 0) and on the default schedule: the kernel replays the
    plain reference pull for pull under each, and the two schedules are different algorithms (the
    schedule is not a no-op the comparison could miss)."""
    from simulate.algorithms.sources import TableSource
    from tests.simulate.streams import reward_table
    K, n = 6, 900
    mu = np.linspace(0.0, 0.3, K)                  # close means: the allocation hangs on the estimates
    table, ties = reward_table(mu, n, True, 4, nu=1.0)
    got = {}
    for refit in (0.0, 1.0 / 16.0, 4.0):
        a, T = rue.run(mu, n, gaussian=True, nu=1.0, table=table, ties=ties, variances=variances, refit=refit)
        b, T2 = rue.reference(TableSource(table, ties), K, n, gaussian=True, nu=1.0, variances=variances, refit=refit)
        assert a == b and np.array_equal(T, T2), refit
        got[refit] = T
    assert not np.array_equal(got[0.0], got[4.0])
    with pytest.raises(ValueError, match="refit: .* >= 0"):
        rue.run(mu, n, gaussian=True, nu=1.0, variances=variances, refit=-1.0)
