"""simulate.algorithms.ucbe: the exploration a = c n / H is computed from each run's true gaps in the
chosen H convention (or is c itself), UCB-E's index picks what Audibert et al. define, and its label
and readings say which a it ran with."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from bounds.section2 import H_complexity
from simulate.algorithms import get
from simulate.runner import run_seeds


@given(gaps=st.lists(st.floats(0.01, 0.5), min_size=1, max_size=8), c=st.floats(0.1, 10), n=st.integers(20, 10 ** 6))
def test_a_is_c_n_over_H_of_each_runs_gaps(gaps, c, n):
    ucbe = get("ucbe")
    mu = np.r_[0.9, 0.9 - np.asarray(gaps)]
    two = np.stack([mu, mu[::-1]])                     # the same gaps, the best arm elsewhere
    for conv, best in (("suboptimal", False), ("section2", True)):
        kw = ucbe.kernel_kwargs(ucbe.resolve({"c": c, "H_convention": conv}), two, n)
        assert np.allclose(kw["a"], c * n / H_complexity(mu, include_best=best), rtol=1e-12)
    kw = ucbe.kernel_kwargs(ucbe.resolve({"c": c, "a_form": "c"}), two, n)
    assert np.array_equal(kw["a"], [c, c])


def test_label_and_readings_name_the_exploration():
    ucbe = get("ucbe")
    assert ucbe.label() == "ucbe" and ucbe.label({"a_form": "c", "c": 2.0}) == "ucbe [a = 2]"
    assert ucbe.variants("R2") == [{}, {"a_form": "c"}] and ucbe.variants("F4") == [{}]


def test_far_apart_arms_are_found_and_a_tiny_a_is_near_greedy():
    ucbe = get("ucbe")
    mu = np.array([0.9, 0.1, 0.1, 0.1])
    means = np.tile(mu, (200, 1))
    s, r = run_seeds(1, "ucbe-test", 200), run_seeds(1, "ucbe-test-rewards", 200)
    kw = ucbe.kernel_kwargs(ucbe.resolve({}), means, 400)
    rec, pulls = ucbe.batch(means, 400, s, r, **kw)
    assert np.all(rec == 0) and np.all(pulls.sum(axis=1) == 400)
    greedy = ucbe.kernel_kwargs(ucbe.resolve({"a_form": "c", "c": 1e-9}), means, 400)
    _, gp = ucbe.batch(means, 400, s, r, **greedy)
    assert gp[:, 0].mean() > pulls[:, 0].mean()         # less exploration: more pulls of the arm ahead
