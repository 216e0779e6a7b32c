"""Testing helpers for bandit code, in the spirit of `numpy.testing` and `hypothesis.extra.numpy`:
Hypothesis strategies shaped like the paper's domain, and assertions that fail only on a real
difference (exact intervals at a tiny level, fixed seeds). The project's own tests use them.

Strategies: `bandit_instances`, `priors`, `pull_counts`, `histories`, `budgets`, `paper_settings`,
and the scalar ranges `K_any`, `K_defined`, `alpha`, `variance`, `delta`.

Assertions:

- `assert_rate_below(failures, runs, bound)`: a Monte Carlo rate is not significantly above a bound
  (Clopper-Pearson interval at level 1 - 1e-6 by default);
- `assert_simulated_rate_below(algorithm, env, budget, bound, runs, seed)`: the same, simulating;
- `assert_posterior_variance_bounds(T, sigma0_sq, sigma_sq)`: the posterior variances of Section 4
  (eq. `MSE`) lie between Lemma `sec:tau`'s repaired lower side and its upper side;
- `assert_kernel_matches_reference(algorithm, mu, n)`: an algorithm's compiled run and its plain
  reference make the same pulls and recommendation on one shared reward table;
- `assert_spends_budget(algorithm, mu, n)`: every run pulls exactly n times and recommends an arm.

Example: property tests for your own algorithm (a function `(source, K, n) -> arm`, see
`simulate.algorithms.external`)::

    from hypothesis import given, settings
    from rue_verify import testing
    from simulate.environments import Environment

    @settings(max_examples=20, deadline=None)
    @given(mu=testing.bandit_instances(max_K=8), seed=testing.seeds)
    def test_my_algorithm_spends_its_budget(mu, seed):
        testing.assert_spends_budget("my_module:my_algorithm", mu, n=10 * mu.size, seed=seed)

    def test_my_algorithm_beats_the_uniform_bound():
        env = Environment("F2", 20)
        testing.assert_simulated_rate_below("my_module:my_algorithm", env, "2H", bound=0.6, runs=2000, seed=1)
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from simulate.stats import STRICT_LEVEL

#: every statistical assertion's default level: a failure at fixed seeds is a real difference
LEVEL = STRICT_LEVEL

# ---------------------------------------------------------------- strategies
K_any = st.integers(min_value=2, max_value=3000)
K_defined = st.integers(min_value=36, max_value=10_000)          # c_K real (the ledger: K >= 36)
alpha = st.floats(min_value=1e-4, max_value=5.0)                 # a gap threshold (Theorem 3.1)
variance = st.floats(min_value=1e-3, max_value=1e3)
delta = st.floats(min_value=1e-3, max_value=1.0)
seeds = st.integers(min_value=0, max_value=2 ** 32 - 1)


@st.composite
def bandit_instances(draw, min_K: int = 2, max_K: int = 25, reward: str = "bernoulli", distinct: bool = True):
    """A Hypothesis strategy of arm means `(K,)`: in [0.01, 0.99] for Bernoulli rewards, in [-3, 3] for
    Gaussian ones.

    Args:
        min_K: the fewest arms, >= 2.
        max_K: the most arms.
        reward: 'bernoulli' or 'gaussian'.
        distinct: the best arm is unique (a failure is then well defined).
    """
    K = draw(st.integers(min_K, max_K))
    lo, hi = (0.01, 0.99) if reward == "bernoulli" else (-3.0, 3.0)
    mu = np.array(draw(st.lists(st.floats(lo, hi), min_size=K, max_size=K,
                                unique=distinct)))
    if distinct and np.sum(mu == mu.max()) > 1:                 # unique floats can still tie after rounding
        mu[np.argmax(mu)] = min(hi, mu.max() + 1e-3)
    return mu


@st.composite
def priors(draw):
    """(mu0, sigma0_sq, sigma_sq): Section 3's Gaussian prior N(mu0, sigma0^2) and reward variance."""
    return draw(st.floats(-2, 2)), draw(variance), draw(variance)


@st.composite
def pull_counts(draw, min_pulls: int = 0, max_K: int = 25, max_T: int = 500):
    """A Hypothesis strategy of pull-count vectors `(K,)` with at least one pulled arm.

    Args:
        min_pulls: the fewest pulls of each arm.
        max_K: the most arms.
        max_T: the most pulls of one arm.
    """
    K = draw(st.integers(2, max_K))
    T = draw(st.lists(st.integers(min_pulls, max_T), min_size=K, max_size=K))
    if sum(T) == 0:
        T[0] = 1
    return T


@st.composite
def histories(draw, min_pulls: int = 0):
    """A Hypothesis strategy of histories: (pull counts `(K,)`, reward sums `(K,)`) consistent with
    each other (each arm's sum is its count times a mean in [-3, 3]).

    Args:
        min_pulls: the fewest pulls of each arm.
    """
    T = draw(pull_counts(min_pulls))
    means = draw(st.lists(st.floats(-3, 3), min_size=len(T), max_size=len(T)))
    return T, [m * t for m, t in zip(means, T)]


history = histories        # the name the project's tests first used


def budgets(K: int, max_multiple: int = 200):
    """A Hypothesis strategy of budgets n in [K, max_multiple K] (every arm can be pulled once).

    Args:
        K: the number of arms.
        max_multiple: the largest budget in multiples of K.
    """
    return st.integers(K, max_multiple * K)


def paper_settings():
    """(setup, K, budget) of Section 6: the fixed setups F1-F6 at K = 20 (and F4 at 40, 80) with
    budgets H/2, H, 2H; the random setups R1-R3 at K = 20 with N/4, N/2, N."""
    from simulate.environments import ARMS_K, F_SETUPS, FIXED_BUDGETS, PAPER_K, R_SETUPS, RANDOM_BUDGETS
    fixed = st.tuples(st.sampled_from(F_SETUPS), st.just(PAPER_K), st.sampled_from(tuple(FIXED_BUDGETS)))
    arms = st.tuples(st.just("F4"), st.sampled_from(ARMS_K), st.sampled_from(tuple(FIXED_BUDGETS)))
    rand = st.tuples(st.sampled_from(R_SETUPS), st.just(PAPER_K), st.sampled_from(tuple(RANDOM_BUDGETS)))
    return st.one_of(fixed, arms, rand)


# ---------------------------------------------------------------- reward tables
def reward_table(mu, n: int, gaussian: bool, seed: int, nu: float = 1.0, uniforms_per_round: int = 40):
    """The shared input of a kernel and its reference: n rewards per arm and enough uniforms for an
    algorithm's own choices.

    Args:
        mu: the arm means, `(K,)`.
        n: the budget (rewards per arm).
        gaussian: Gaussian rewards of standard deviation `nu` (True) or Bernoulli (False).
        seed: the seed of both tables.
        nu: the Gaussian rewards' standard deviation.
        uniforms_per_round: uniforms per round.

    Returns:
        (table `(K, n)`, a flat array of uniforms `(uniforms_per_round n + 100,)`).
    """
    mu = np.asarray(mu, float)
    rng = np.random.default_rng(seed)
    K = mu.size
    table = mu[:, None] + nu * rng.standard_normal((K, n)) if gaussian else \
        (rng.random((K, n)) < mu[:, None]).astype(float)
    return table, rng.random(uniforms_per_round * n + 100)


# ---------------------------------------------------------------- assertions
def assert_rate_below(failures: int, runs: int, bound: float, level: float = LEVEL, what: str = "rate"):
    """Fails if `failures` in `runs` is significantly above `bound`: the exact (Clopper-Pearson)
    interval at `level` lies wholly above it. Never flakes at the default level.

    Args:
        failures: the number of failed runs, 0 <= failures <= runs.
        runs: the number of runs, > 0.
        bound: the claimed bound on the failure probability.
        level: the interval's confidence level, in (0, 1).
        what: what the rate is, for the failure message.

    Returns:
        The interval (`simulate.stats.Interval`).
    """
    from simulate.stats import binomial_interval
    ci = binomial_interval(int(failures), int(runs), level)
    if ci.low > bound:
        raise AssertionError(f"{what} {failures}/{runs} = {ci.estimate:.4g}, exact {level:.6g} interval "
                             f"[{ci.low:.4g}, {ci.high:.4g}], is above the bound {bound:.4g}")
    return ci


def assert_simulated_rate_below(algorithm: str, env, budget, bound: float, runs: int, seed: int,
                                level: float = LEVEL, params: dict | None = None):
    """Simulate `algorithm` `runs` times on `env` with `budget` and assert its failure rate is not
    significantly above `bound` (`assert_rate_below`).

    Args:
        algorithm: a registry name or an outside algorithm (`module:NAME`, `file.py:NAME`).
        env: a `simulate.environments.Environment`.
        budget: an integer, or a budget label of the fixed setups (H/2, H, 2H).
        bound: the claimed bound on the failure probability.
        runs: the number of runs, > 0.
        seed: the master seed.
        level: the interval's confidence level.
        params: the algorithm's parameters (its defaults otherwise).

    Returns:
        The interval (`simulate.stats.Interval`).
    """
    from simulate.runner import simulate
    res = simulate(env, [(algorithm, params or {})], budget, runs, seed, progress=False).results[0]
    return assert_rate_below(res.failures, runs, bound, level, f"{algorithm}'s failure rate on {env.describe()}")


def assert_posterior_variance_bounds(T, sigma0_sq: float, sigma_sq: float, rtol: float = 1e-12):
    """The posterior variances tau_k^2 (eq. `MSE`) of pull counts T lie in [the repaired lower side,
    the upper side] of Lemma `sec:tau` for every arm pulled at least once.

    Args:
        T: pull counts, `(K,)`, integers >= 0, at least one positive.
        sigma0_sq: the prior variance, > 0.
        sigma_sq: the reward variance, > 0.
        rtol: the relative tolerance of each comparison (rounding).
    """
    from bounds.estimation import posterior_variance_formula, tau_sq_upper
    from bounds.repaired import tau_sq_lower_repaired
    T = np.asarray(T, float)
    K = T.size
    tau = np.asarray(posterior_variance_formula(T, sigma0_sq, sigma_sq), float)
    up = np.asarray(tau_sq_upper(T, K, sigma0_sq, sigma_sq), float)
    low = np.asarray(tau_sq_lower_repaired(T, K, sigma0_sq, sigma_sq), float)
    pulled = T > 0
    above = pulled & (tau > up * (1 + rtol))
    below = pulled & (tau < low * (1 - rtol))
    if above.any() or below.any():
        k = int(np.flatnonzero(above | below)[0])
        raise AssertionError(f"tau_{k}^2 = {tau[k]:.6g} outside [{low[k]:.6g}, {up[k]:.6g}] for T = {T.tolist()}, "
                             f"sigma0^2 = {sigma0_sq}, sigma^2 = {sigma_sq}")


def assert_kernel_matches_reference(algorithm: str, mu, n: int, gaussian: bool = False, seed: int = 0,
                                    params: dict | None = None, uniforms_per_round: int = 40):
    """On one reward table and one table of uniforms, `algorithm`'s `run` (the compiled kernel for
    the registry's entries) and its plain `reference` make the same pulls and recommendation.

    Args:
        algorithm: a registry name or an outside algorithm (`module:NAME`, `file.py:NAME`).
        mu: the arm means, `(K,)` (in [0, 1] for Bernoulli rewards).
        n: the budget.
        gaussian: Gaussian rewards of standard deviation 1 (True) or Bernoulli (False).
        seed: the seed of the reward table and the uniforms.
        params: the algorithm's parameters (its defaults otherwise).
        uniforms_per_round: uniforms the table holds per round for the algorithm's own choices.
    """
    from simulate.algorithms import get
    from simulate.algorithms.sources import TableSource
    alg = get(algorithm)
    mu = np.asarray(mu, float)
    table, ties = reward_table(mu, n, gaussian, seed, uniforms_per_round=uniforms_per_round)
    kw = alg.kernel_kwargs(alg.resolve(params or {}), mu[None], n)
    kw = {k: float(np.ravel(v)[0]) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    a, T = alg.run(mu, n, gaussian=gaussian, nu=1.0, table=table, ties=ties, **kw)
    b, T2 = alg.reference(TableSource(table, ties), mu.size, n, gaussian=gaussian, nu=1.0, **kw)
    if a != b or not np.array_equal(T, T2):
        raise AssertionError(f"{algorithm}: the run recommends {a} with pulls {np.asarray(T).tolist()}, the reference "
                             f"{b} with {np.asarray(T2).tolist()} (mu = {mu.tolist()}, n = {n}, seed = {seed})")


def assert_spends_budget(algorithm: str, mu, n: int, seed: int = 0, runs: int = 4, gaussian: bool = False):
    """Each of `runs` live runs of `algorithm` pulls exactly n times and recommends an arm in range.

    Args:
        algorithm: a registry name or an outside algorithm.
        mu: the arm means, `(K,)`.
        n: the budget.
        seed: the master seed.
        runs: how many runs to check.
        gaussian: Gaussian rewards (True) or Bernoulli (False).
    """
    from simulate.algorithms import get
    from simulate.seeds import run_seeds
    alg = get(algorithm)
    mu = np.asarray(mu, float)
    means = np.tile(mu, (runs, 1))
    rec, pulls = alg.batch(means, n, run_seeds(seed, "algorithm", runs), run_seeds(seed, "rewards", runs),
                           gaussian=gaussian, nu=1.0 if gaussian else 0.0,
                           **alg.kernel_kwargs(alg.resolve({}), means, n))
    spent = np.asarray(pulls).sum(axis=1)
    if not np.all(spent == n) or not np.all((0 <= rec) & (rec < mu.size)):
        raise AssertionError(f"{algorithm}: pulls per run {spent.tolist()} (budget {n}), recommendations "
                             f"{np.asarray(rec).tolist()} (arms 0..{mu.size - 1})")
