"""The exact history search (`rue_verify.verify.histories`) over RUE's linear form
(`simulate.proofs.linear`): complete (it agrees with a brute force that solves one linear program per
full pull sequence, with no pruning and no symmetry), able to find a false step whose only violating
histories are far too rare for any simulation, and its witnesses replay through the plain reference
and the compiled proof tracker."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import linprog

from bounds import theorems as th
from bounds.estimation import posterior
from rue_verify.verify.histories import MARGIN, Violation, search
from simulate.proofs.linear import Row, RUELinear, mean_matrix, replay
from simulate.proofs.tracked import tracked_rue_runs


@given(st.lists(st.integers(1, 30), min_size=2, max_size=6), st.floats(0.01, 100), st.floats(0.01, 100),
       st.integers(0, 2 ** 31))
def test_the_linear_form_is_the_posterior_of_eq_blup(T, s0, s, seed):
    """muhat = A(T) S for any sums S: the matrix against the plain formula (bounds.estimation.posterior)."""
    S = np.random.default_rng(seed).normal(0, 3, len(T)) * np.array(T)
    np.testing.assert_allclose(mean_matrix(np.array(T, float), s0, s) @ S, posterior(T, S, s0, s).mean,
                               rtol=1e-9, atol=1e-9)


def far_arm_pulled(gap: float):
    """A planted step: on E, an arm whose gap is at least `gap` is never pulled after the initialisation.
    Broken only by a history whose suboptimal arm is at least `gap` below the best."""
    def step(m, arms):
        T = m.counts(arms)
        return [Violation(f"arm {k + 1}", [Row(np.array([m.mu(0), m.mu(k), MARGIN]), np.array([1.0, -1.0, -1.0]),
                                               gap, math.inf)], {"k": k}) for k in range(1, m.K) if T[k] > 2]
    return step


def test_a_false_step_whose_histories_have_probability_below_1e_9_is_found():
    """Under the prior N(0, 1) per arm, a gap of 12 between two arms has probability below 1e-17 (the
    difference is N(0, 2)), so no simulation sees it; the search finds the history and it replays."""
    gap = 12.0
    assert math.erfc(gap / 2) < 1e-9                      # Pr(|N(0, 2)| >= gap)
    K, n, s0, s = 2, 6, 1.0, 1.0
    m = RUELinear(K, n, s0, s, float(th.eta(K, s0, s)))
    out = search(m, far_arm_pulled(gap))
    assert not out.holds
    w = out.witness
    x, mu = w.z[:n], w.z[n:]
    assert mu[0] - mu[1] > gap and w.interior > 0
    r = replay(m, w.arms, x, mu)
    assert r["same_pulls"] and not r["tie"] and r["event_slack"] > 0
    # the compiled proof tracker, given the same rewards as noise, makes the same pulls and sees E
    noise = np.array([(xi - mu[a]) for xi, a in zip(x, w.arms)])[None, :]
    res = tracked_rue_runs(mu[None, :], n, np.random.default_rng(0), sigma0_sq=s0, sigma_sq=s, nu_sq=1.0,
                           noise=noise, track_proof=True)
    assert np.array_equal(res.pulls[0], np.bincount(w.arms, minlength=K))


def test_a_true_step_is_exhausted_not_assumed():
    """A gap far beyond what E allows for an arm pulled from a state on E: with E from round 2K (every
    pull after the initialisation made on E), no history breaks it, and the search says how much it
    visited."""
    K, n, s0, s = 2, 9, 1.0, 1.0
    m = RUELinear(K, n, s0, s, float(th.eta(K, s0, s)), event_from=2 * K)
    out = search(m, far_arm_pulled(12.0))
    assert out.holds and out.leaves > 0 and out.visited >= out.leaves


def _brute_force(m: RUELinear, step) -> bool:
    """Whether some full pull sequence breaks `step`: every sequence of arms after the initialisation,
    one linear program each over all of its rows (scipy's HiGHS), no pruning, no symmetry."""
    nv = m.n_vars
    for tail in itertools.product(range(m.K), repeat=m.n - 2 * m.K):
        arms = m.start() + tail
        rows = list(m.root_rows())
        for t in range(1, len(arms) + 1):
            rows += m.rows(arms[:t])
        for v in step(m, arms):
            A, b = [], []
            for idx, coef, lo, hi in rows + v.rows:
                r = np.zeros(nv + 1)
                np.add.at(r, np.where(np.asarray(idx) == MARGIN, nv, idx), coef)
                if math.isfinite(lo):
                    A.append(-r)
                    b.append(-lo)
                if math.isfinite(hi):
                    A.append(r)
                    b.append(hi)
            c = np.zeros(nv + 1)
            c[nv] = -1
            res = linprog(c, A_ub=np.array(A), b_ub=np.array(b), bounds=[(None, None)] * nv + [(None, 1e3)],
                          method="highs")
            if res.status == 0 and res.x[nv] > 1e-9:
                return True
    return False


@pytest.mark.parametrize("K,n,gap,start", [(2, 8, 1.5, 5), (2, 8, 1.5, 4), (3, 9, 2.0, 7), (3, 9, 2.0, 6),
                                           (2, 9, 3.0, 4)])
def test_the_search_agrees_with_a_brute_force(K, n, gap, start):
    """Pruning and the merging of interchangeable arms lose nothing: the verdict is the brute force's."""
    m = RUELinear(K, n, 1.0, 0.5, float(th.eta(K, 1.0, 0.5)), event_from=start)
    assert search(m, far_arm_pulled(gap)).holds == (not _brute_force(m, far_arm_pulled(gap)))


def test_bad_model_parameters_are_refused_by_name():
    with pytest.raises(ValueError, match="n must be"):
        RUELinear(3, 6, 1.0, 1.0, 0.2)
    with pytest.raises(ValueError, match="eta"):
        RUELinear(2, 5, 1.0, 1.0, -1.0)


def pulled_often(gap: float, most: int):
    """A planted step: on E, an arm at least `gap` below the best is pulled at most `most` times; its
    margin on a prefix (T_k - most) grows with the arm's count, so a best-first search can follow it."""
    def step(m, arms):
        T = m.counts(arms)
        return [Violation(f"arm {k + 1}", [Row(np.array([m.mu(0), m.mu(k)]), np.array([1.0, -1.0]), gap, math.inf),
                                           Row(np.array([MARGIN]), np.array([1.0]), -math.inf, T[k] - most)],
                          {"k": k}) for k in range(1, m.K)]
    return step


def test_best_first_finds_a_violation_deeper_than_an_exhaustive_search_reaches():
    """An arm half a unit below the best is pulled at most 6 times in 14 rounds on E (every history of
    length 14, exhausted), but 10 times in 30: the best-first search finds such a history of length 30
    (about 1e8 sequences exhaustively) within a few thousand programs, and the plain reference RUE
    replays it."""
    from rue_verify.verify.histories import search_best_first
    s0 = s = 1.0
    eta = float(th.eta(2, s0, s))
    short = search(RUELinear(2, 14, s0, s, eta), pulled_often(0.5, 6))
    assert short.holds and short.leaves > 100
    m = RUELinear(2, 30, s0, s, eta)
    out = search_best_first(m, pulled_often(0.5, 9), max_programs=4000)
    assert not out.holds and out.programs <= 4001
    w = out.witness
    assert np.bincount(w.arms, minlength=2)[1] >= 10 and w.z[30] - w.z[31] >= 0.5 - 1e-9
    r = replay(m, w.arms, w.z[:30], w.z[30:])
    assert r["same_pulls"] and not r["tie"] and r["event_slack"] > 0


def test_best_first_says_what_it_decided_when_it_finds_nothing():
    """A true step searched best-first reports the full histories it decided and its best margin, and
    no witness: a sample of the tree, which the caller names as such."""
    from rue_verify.verify.histories import search_best_first
    m = RUELinear(2, 24, 1.0, 1.0, float(th.eta(2, 1.0, 1.0)))
    out = search_best_first(m, pulled_often(0.5, 20), max_programs=800)
    assert out.holds and out.leaves > 0 and out.smallest < 0


def test_the_search_and_the_linear_form_name_the_margin_alike():
    """The engine imports no simulator, so the margin's column is named in both (`verify.histories.MARGIN`, the
    search's; `simulate.proofs.linear.MARGIN`, the steps' rows): a step built from the linear form's vocabulary is
    read by the search with its margin where the search looks for it. A planted other value would make every margin
    a model variable and every step vacuous."""
    from simulate.proofs import linear
    from simulate.proofs.steps import STEPS, Params
    assert MARGIN == linear.MARGIN
    p = Params(2, 5, 1.0, 1.0, "paper")
    vs = STEPS["regret-decomV"][0](p)(p.model(), (0, 1, 0, 1, 1))
    assert vs and all(any(MARGIN in list(r[0]) for r in v.rows) for v in vs)
