"""simulate.algorithms.sources: rewards and uniforms as the algorithms see them."""

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numba import njit

from simulate.algorithms import sources as C


@settings(max_examples=200)
@given(u=st.floats(0.0, 1.0, exclude_max=True), p=st.floats(0.0, 1.0))
@example(u=0.25, p=0.25)      # u == p: reward 0 (the draw is u < p)
@example(u=0.0, p=0.0)
def test_branch_free_bernoulli_is_the_threshold_rule(u, p):
    """Live Bernoulli rewards (RUE, TTTS, UCB-E) go through `bernoulli`: reward 1 exactly when
    u < p, so a uniform u in [0, 1) gives reward 1 with probability p."""
    assert C.bernoulli(u, p) == (1.0 if u < p else 0.0)      # the compiled function


@njit
def _phases(means, nu, reward_seeds, k, lengths, one_at_a_time):
    """Run 0's arm k: the sums of consecutive phases of the given lengths (`phase_sum`), or with
    `one_at_a_time` one reward per phase (`reward`), from the same stream."""
    src = C.live_source(means, True, nu, reward_seeds, reward_seeds, None)
    out = np.empty(lengths.shape[0])
    for p in range(lengths.shape[0]):
        out[p] = C.reward(src, 0, k) if one_at_a_time else C.phase_sum(src, 0, k, lengths[p])
    return out


def test_a_gaussian_phase_sum_is_one_draw_of_the_sums_law():
    """`phase_sum` on live Gaussian rewards: a phase of m pulls is m mu + nu sqrt(m) z with z the normal a
    single pull would have read at that point of the arm's stream (so a phase of one is that very
    reward), and over many streams (S - m mu) / (nu sqrt m) is standard normal (Kolmogorov-Smirnov at
    level 1e-6, fixed seeds). A phase of 0 pulls is 0 and reads nothing."""
    from scipy import stats
    means, nu, k = np.array([[0.3, -1.2, 2.0]]), 0.7, 1
    lengths = np.array([1, 3, 0, 1000, 2, 1, 57])
    zs = []
    for seed in range(400):
        rs = np.array([seed], np.uint64)
        S = _phases(means, nu, rs, k, lengths, False)
        one = _phases(means, nu, rs, k, np.ones(lengths.size, np.int64), True)
        z_single = (one - means[0, k]) / nu                    # the normals single pulls read, in order
        drawn = lengths > 0
        assert np.all(S[~drawn] == 0.0)
        want = lengths[drawn] * means[0, k] + nu * np.sqrt(lengths[drawn]) * z_single[:drawn.sum()]
        assert np.allclose(S[drawn], want, rtol=1e-13, atol=1e-12)
        assert S[0] == one[0]                                  # a phase of one is the reward itself
        zs.append((S[drawn] - lengths[drawn] * means[0, k]) / (nu * np.sqrt(lengths[drawn])))
    assert stats.kstest(np.concatenate(zs), "norm").pvalue > 1e-6


@njit
def _draw_in_order(order, means, reward_seeds, seeds, gaussian):
    """Rewards of run 0 drawn arm by arm in `order`, interleaved with the algorithm's own uniforms;
    returns them grouped per arm (row k: arm k's rewards in the order they were drawn)."""
    src = C.live_source(means, gaussian, 1.0, reward_seeds, seeds, None)
    K = means.shape[1]
    out = np.zeros((K, order.shape[0]))
    count = np.zeros(K, np.int64)
    for k in order:
        C.uniform(src, 0)                          # the algorithm's uniforms do not move the rewards
        out[k, count[k]] = C.reward(src, 0, k)
        count[k] += 1
    return out, count


@given(seed=st.integers(0, 2 ** 63), gaussian=st.booleans(), order_seed=st.integers(0, 1000))
@settings(max_examples=30)
def test_each_arm_has_its_own_reward_stream(seed, gaussian, order_seed):
    """Common random numbers: the j-th reward of arm k depends only on the run's reward seed, k and j,
    not on which arms were pulled before nor on the algorithm's seed."""
    rng = np.random.default_rng(order_seed)
    K = 5
    means = rng.uniform(0.2, 0.8, (1, K))
    a = rng.integers(0, K, 200)
    b = rng.permutation(a)
    x, cx = _draw_in_order(a, means, np.array([seed], np.uint64), np.array([1], np.uint64), gaussian)
    y, cy = _draw_in_order(b, means, np.array([seed], np.uint64), np.array([2], np.uint64), gaussian)
    assert np.array_equal(cx, cy) and np.array_equal(x, y)
    z, _ = _draw_in_order(a, means, np.array([seed ^ 1], np.uint64), np.array([1], np.uint64), gaussian)
    assert not np.array_equal(x, z)


@njit
def _table_run_reads(table, ties):
    src = C.table_source(table.shape[0], table, ties)
    r = (C.reward(src, 0, 1), C.reward(src, 0, 1), C.reward(src, 0, 0))
    u = C.uniform(src, 0)
    k = C.argmax_random(np.array([1.0, 3.0, 3.0]), src, 0)     # a tie: reads the next uniform
    k2 = C.argmax_random(np.array([1.0, 3.0, 2.0]), src, 0)    # no tie: still consumes one
    return r, u, k, k2, C.uniform(src, 0)


def test_table_mode_reads_rewards_per_arm_and_one_uniform_per_decision():
    table = np.array([[10.0, 11.0], [20.0, 21.0]])
    ties = np.array([0.1, 0.7, 0.2, 0.9])
    r, u, k, k2, nxt = _table_run_reads(table, ties)
    assert r == (20.0, 21.0, 10.0) and u == 0.1 and k == 2 and k2 == 1 and nxt == 0.9
    src = C.TableSource(table, ties)
    assert (src.reward(1), src.reward(1), src.reward(0), src.uniform()) == (20.0, 21.0, 10.0, 0.1)
    assert src.argmax(np.array([1.0, 3.0, 3.0])) == 2 and src.argmax(np.array([1.0, 3.0, 2.0])) == 1
    assert src.uniform() == 0.9


def test_a_live_source_without_sums_has_a_table_sources_type():
    """So that an algorithm's run compiles once for live runs and for reward tables (numba compiles per type; the
    live source's empty table and ties were read-only module constants, another type, and every run compiled
    twice). A read-only table given to a replay is taken as the writable copy's type too."""
    import numba
    means = np.full((1, 3), 0.5)
    seeds = np.zeros(1, np.uint64)
    for gaussian, nu in ((False, 0.0), (True, 1.0), (True, np.array([1.0, 2.0, 0.5]))):
        live = C.live_source(means, gaussian, C.nu_argument(nu), seeds, seeds, None)
        table = np.zeros((3, 10))
        table.setflags(write=False)
        replay = C.replay_source(3, table, np.zeros(5), gaussian, nu)
        assert numba.typeof(live) == numba.typeof(replay), (numba.typeof(live), numba.typeof(replay))
    with_sums = C.live_source(means, False, 0.0, seeds, seeds, np.zeros((1, 3)))
    assert numba.typeof(with_sums) != numba.typeof(live)          # the check can tell two types apart
