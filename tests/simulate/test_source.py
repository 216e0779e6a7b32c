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
