"""simulate.algorithms.rue_heap: RUE's argmax over tournament trees makes the same pulls and
recommendations as the plain kernel, tie-breaking included; its pieces (the trees, the hash of states,
the double-double sums) do what they say; the modes where its bound does not hold never take it."""

import math

import numpy as np
import pytest

from rue_verify import testing
from simulate.algorithms import rue
from simulate.algorithms import rue_heap as H
from simulate.algorithms.sources import TableSource
from tests.simulate.streams import reward_table

KNOWN = {"variances": "known", "sigma0_sq": 1.0, "sigma_sq": 1.0}
BERNOULLI = {"variances": "known", "sigma0_sq": 0.01, "sigma_sq": 0.25}


def _seeds(R, seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 2 ** 63, R).astype(np.uint64) for _ in range(2)]


def _both(means, n, gaussian, params, seed=0):
    seeds, rewards = _seeds(means.shape[0], seed)
    plain = rue.batch(means, n, seeds, rewards, gaussian=gaussian, nu=1.0, path="plain", **params)
    stats = np.zeros((means.shape[0], 3))
    heap = rue.batch(means, n, seeds, rewards, gaussian=gaussian, nu=1.0, path="heap", stats=stats, **params)
    return plain, heap, stats


@pytest.mark.parametrize("gaussian", [True, False])
def test_the_same_pulls_and_recommendations_at_every_k(gaussian):
    """Prior draws (Gaussian rewards) or uniform means (Bernoulli rewards, where states share indices),
    four runs per K, 300 rounds past the initial passes: every K to 130, then a spread to 1000."""
    params = KNOWN if gaussian else BERNOULLI
    for K in list(range(2, 131)) + [200, 257, 511, 512, 513, 1000]:
        rng = np.random.default_rng(K)
        means = rng.normal(0, 1, (4, K)) if gaussian else rng.uniform(0.2, 0.8, (4, K))
        (a, Ta), (b, Tb), stats = _both(means, 2 * K + 300, gaussian, params, K)
        assert np.array_equal(a, b) and np.array_equal(Ta, Tb), K
        assert stats[:, H.EVALUATIONS].mean() <= 4 * 300, K     # a few evaluations a round, never K


@pytest.mark.parametrize("K", [3, 70, 257])
def test_near_ties_and_exact_ties_break_alike(K):
    """Hand-made ties: every mean equal with Bernoulli rewards (states, and so indices, tie exactly:
    the tie uniforms decide among dozens), and two arms within 1e-12 under Gaussian rewards (inside
    the slack: decided by the plain kernel's sums); many seeds."""
    equal = np.full((32, K), 0.5)
    for seed in range(3):
        (a, Ta), (b, Tb), _ = _both(equal, 2 * K + 400, False, BERNOULLI, seed)
        assert np.array_equal(a, b) and np.array_equal(Ta, Tb)
    close = np.random.default_rng(1).normal(0, 1, (32, K))
    close[:, 1] = close[:, 0] + 1e-12
    (a, Ta), (b, Tb), _ = _both(close, 2 * K + 300, True, KNOWN)
    assert np.array_equal(a, b) and np.array_equal(Ta, Tb)


def test_different_states_within_the_slack_take_the_plain_sums():
    """Gaussian arms whose indices come within the slack: the kernel counts rounds decided by the plain
    kernel's sums, and still matches it (the counter is not always zero: the path is exercised)."""
    K, R = 400, 16
    means = np.tile(np.random.default_rng(2).normal(0.5, 0.1, K), (R, 1))
    (a, Ta), (b, Tb), stats = _both(means, 12000, True, {**KNOWN, "sigma0_sq": 0.01, "sigma_sq": 0.25}, 5)
    assert np.array_equal(a, b) and np.array_equal(Ta, Tb)
    assert stats[:, H.PLAIN_ROUNDS].sum() > 0


def test_the_heap_run_replays_the_reference_on_a_reward_table():
    """The plain numpy reference, recomputing every index every round, and the tree kernel on one
    table, with Gaussian and with Bernoulli rewards (forced; from `rue.HEAP_MAX` the tree path is the default on
    every host, below it from the host's measured crossover: `test_rue_crossover.py`)."""
    for K, gaussian in ((90, True), (300, False)):
        mu = np.random.default_rng(3).uniform(0.2, 0.8, K)
        table, ties = reward_table(mu, 2 * K + 300, gaussian, 4)
        a, T = rue.run(mu, 2 * K + 300, gaussian=gaussian, nu=1.0, table=table, ties=ties, path="heap", **KNOWN)
        b, T2 = rue.reference(TableSource(table, ties), K, 2 * K + 300, gaussian=gaussian, nu=1.0, **KNOWN)
        assert a == b and np.array_equal(T, T2)
    assert rue.argmax_path(rue.HEAP_MAX, "known", False) == "heap"
    testing.assert_kernel_matches_reference("rue", mu, 2 * K + 300, False, 4, KNOWN)


def test_estimated_variances_never_take_the_tree_path():
    """With sigma0^2 and sigma^2 re-estimated every round the bound does not hold: asking for it is an
    error naming the parameter, and the default sends such runs to the plain kernel whatever K."""
    assert rue.argmax_path(5000, "authors", False) == "plain" and rue.argmax_path(5000, "known", True) == "plain"
    assert rue.argmax_path(H.MAX_K, "known", False) == "plain"
    with pytest.raises(ValueError, match="path: the heap argmax needs variances='known'"):
        rue.batch(np.zeros((1, 80)), 400, [1], [2], variances="ml", path="heap")
    with pytest.raises(ValueError, match="path: RUE's argmax path must be one of plain, lazy, heap"):
        rue.batch(np.zeros((1, 80)), 400, [1], [2], path="tree")
    with pytest.raises(ValueError, match="path and lazy: give one of them"):
        rue.batch(np.zeros((1, 80)), 400, [1], [2], path="heap", lazy=True)


def test_the_comparison_can_fail():
    """A tree kernel told another exploration constant than the plain one is caught."""
    means = np.random.default_rng(0).normal(0, 1, (4, 80))
    seeds, rewards = _seeds(4, 0)
    _, Ta = rue.batch(means, 400, seeds, rewards, gaussian=True, nu=1.0, path="plain", **KNOWN)
    _, Tb = rue.batch(means, 400, seeds, rewards, gaussian=True, nu=1.0, path="heap", deg=2.5, **KNOWN)
    assert not np.array_equal(Ta, Tb)


# ---------------------------------------------------------------- the pieces

def _tree(keys):
    P = 1
    while P < len(keys):
        P *= 2
    W = np.full((2 * P, 4), -np.inf)
    for j, (a, b) in enumerate(keys):
        W[P + j, 0], W[P + j, 1] = a, b
    H._build(W, P)
    return W, P


def test_the_trees_give_the_largest_bound_after_any_updates():
    """Random re-keys (some to -inf, some to equal values): the root's leaf has the largest bound
    max(A, B + R) and `_others` the largest over the rest, as a scan finds; a tree with a stale node
    (a planted wrong key in an inner row) is caught by the same scan."""
    rng = np.random.default_rng(0)
    for K in (1, 2, 3, 7, 64, 100):
        keys = rng.normal(size=(K, 2))
        W, P = _tree(keys)
        for _ in range(300):
            j = int(rng.integers(K))
            a = float(rng.choice([rng.normal(), -np.inf, keys[0, 0]]))
            keys[j] = a, a - 0.25
            H._set(W, j, a, a - 0.25, P)
            R = float(rng.normal())
            bound = np.maximum(keys[:, 0], keys[:, 1] + R)
            assert bound[H._top(W, R)] == bound.max()
            if K > 1:
                best, arm = H._others(W, j, R, P)
                rest = np.delete(bound, j)
                assert best == rest.max()
                assert (arm == -1) if best == -np.inf else (bound[arm] == best and arm != j)
    W, P = _tree(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]))
    bound = np.array([0.0, 1.0, 2.0])
    assert bound[H._top(W, 0.0)] == bound.max()
    W[1, 2] = W[1, 3] = 0.0                          # planted: the root names the wrong leaf
    assert bound[H._top(W, 0.0)] != bound.max()


def test_the_state_table_finds_inserts_and_deletes():
    """Linear probing with Knuth's deletion, against a dict, under collisions (a table of 8 slots)."""
    rng = np.random.default_rng(1)
    C = np.zeros((64, 6))
    Htab = np.full(8, -1, np.int64)
    live = {}
    free = list(range(6))
    for _ in range(2000):
        T, S = float(rng.integers(1, 4)), float(rng.integers(0, 4))
        s = H._find(Htab, C, T, S)
        assert s == live.get((T, S), -1)
        if s >= 0 and rng.random() < 0.5:
            H._delete(Htab, C, s)
            del live[(T, S)]
            free.append(s)
        elif s < 0 and free:
            s = free.pop()
            C[s, H.CT], C[s, H.CS] = T, S
            H._insert(Htab, C, s)
            live[(T, S)] = s


def test_the_double_double_sums_hold_an_exact_total():
    """Adding and removing 10^5 rounded products leaves the sum of those still in, to the last place
    (math.fsum); the plain float sum drifts."""
    rng = np.random.default_rng(2)
    vals = rng.normal(size=1000) * 10.0 ** rng.integers(-8, 8, 1000)
    h = lo = naive = 0.0
    inside = np.zeros(1000, bool)
    for _ in range(100000):
        j = int(rng.integers(1000))
        x = -vals[j] if inside[j] else vals[j]
        inside[j] = not inside[j]
        h, lo = H._add(h, lo, x)
        naive += x
    exact = math.fsum(vals[inside])
    assert abs((h + lo) - exact) <= 1e-15 * max(abs(exact), 1e-300) * 4
    assert naive != exact
