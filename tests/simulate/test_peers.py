"""The prior-dependent peers the paper cites (Bayesian elimination, prior-informed allocation): where
the paper's homogeneous priors make them coincide with an existing algorithm, shown on shared
rewards; where priors differ, shown to differ; and their bounds against simulation."""

import math

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from bounds import atsidakou2022, lower, nguyen2024
from rue_verify.testing import assert_rate_below
from simulate.algorithms import get
from simulate.environments import fixed_means, prior_variances
from simulate.runner import run_algorithm
from simulate.seeds import run_seeds, stream


def _pair(a: str, pa: dict, b: str, pb: dict, means, n, gaussian, seed=1):
    """Both algorithms on the same reward streams and the same algorithm streams."""
    R = means.shape[0]
    seeds, rseeds = run_seeds(seed, "alg", R), run_seeds(seed, "rewards", R)
    ra, Ta, _, _ = run_algorithm(a, get(a).resolve(pa), means, n, seeds, rseeds, gaussian, 1.0 if gaussian else 0.0)
    rb, Tb, _, _ = run_algorithm(b, get(b).resolve(pb), means, n, seeds, rseeds, gaussian, 1.0 if gaussian else 0.0)
    return ra, Ta, rb, Tb


@pytest.mark.parametrize("gaussian", [False, True])
def test_bayesian_elimination_on_all_data_is_sequential_halving_under_a_homogeneous_prior(gaussian):
    rng = stream(3, "peers")
    means = rng.normal(0.5, 0.3, (300, 12)) if gaussian else np.tile(fixed_means("F1", 12), (300, 1))
    for n in (48, 500, 3001):
        ra, Ta, rb, Tb = _pair("bayes_elim", {"data": "all"}, "sh", {}, means, n, gaussian)
        assert np.array_equal(Ta, Tb) and np.array_equal(ra, rb)


def test_bayesian_elimination_by_stages_is_not_sequential_halving():
    """The default reading (each stage's posterior from that stage) makes other decisions."""
    means = np.tile(fixed_means("F2", 12), (300, 1))
    ra, Ta, rb, Tb = _pair("bayes_elim", {}, "sh", {}, means, 1000, False)
    assert not np.array_equal(Ta, Tb) and np.mean(ra != rb) > 0.01


@pytest.mark.parametrize("K,n", [(10, 1000), (7, 1003)])
def test_prior_allocation_under_a_homogeneous_prior_pulls_as_uniform(K, n):
    """Identical pulls on shared streams; identical recommendations when K divides n."""
    means = stream(4, "peers").normal(0.0, 1.0, (400, K))
    ra, Ta, rb, Tb = _pair("prior_alloc", {"prior_mean": 0.0, "prior_var": 1.0}, "uniform", {}, means, n, True)
    assert np.array_equal(Ta, Tb)
    if n % K == 0:
        assert np.array_equal(ra, rb)


def test_prior_allocation_under_differing_priors_is_not_uniform():
    K, n = 10, 2000
    means = stream(5, "peers").normal(0.0, 1.0, (50, K))
    _, Ta, _, Tb = _pair("prior_alloc", {"prior_mean": 0.0, "prior_var": 1.0, "prior_ratio": 100.0}, "uniform", {},
                         means, n, True)
    assert np.all(Ta.sum(axis=1) == n) and np.ptp(Ta[0]) > 10 and not np.array_equal(Ta, Tb)


def test_bivariate_normal_probabilities_match_scipy():
    rng = np.random.default_rng(1)
    h, k, r = rng.normal(0, 2, 40), rng.normal(0, 2, 40), rng.uniform(-0.95, 0.95, 40)
    h[:3], k[3:6] = 0.0, 0.0
    h[6], k[6] = 0.0, 0.0
    got = nguyen2024.phi2(h, k, r)
    ref = [multivariate_normal(mean=[0, 0], cov=[[1, c], [c, 1]]).cdf([a, b]) for a, b, c in zip(h, k, r)]
    assert np.max(np.abs(got - ref)) < 1e-6


def _model_failures(name, params, K, n, prior_var, runs, seed):
    rng = stream(seed, "peers-model")
    means = rng.normal(0.0, 1.0, (runs, K)) * np.sqrt(prior_var)
    rec, _, _, _ = run_algorithm(name, get(name).resolve(params), means, n, run_seeds(seed, "a", runs),
                                 run_seeds(seed, "r", runs), True, 1.0)
    return int(np.sum(rec != means.argmax(axis=1)))


@pytest.mark.parametrize("ratio", [1.0, 30.0])
def test_pairwise_bound_holds_for_prior_allocation(ratio):
    K, n, runs = 6, 300, 4000
    pv = prior_variances(K, 1.0, ratio)
    bound = nguyen2024.pairwise_bound(np.zeros(K), pv, n * nguyen2024.optimal_allocation(np.zeros(K), pv, n, 1.0), 1.0)
    told = {"prior_mean": 0.0, "prior_var": 1.0, "prior_ratio": ratio, "noise_var": 1.0}
    fails = _model_failures("prior_alloc", told, K, n, pv, runs, 7)
    assert_rate_below(fails, runs, min(bound, 1.0))


def test_elimination_bound_holds_for_bayesian_elimination():
    K, n, runs = 8, 2000, 4000
    bound = atsidakou2022.elimination_bound(K, n, 1.0, 1.0)
    assert bound < 1
    fails = _model_failures("bayes_elim", {"prior_mean": 0.0, "prior_var": 1.0, "noise_var": 1.0}, K, n, 1.0, runs, 8)
    assert_rate_below(fails, runs, bound)


def test_the_elimination_integral_matches_sampling():
    rng = np.random.default_rng(2)
    K, c = 5, 0.7
    x = rng.normal(size=(400_000, K))
    best = x.max(axis=1, keepdims=True)
    from scipy.special import ndtr
    mc = np.sum(ndtr(-c * (best - x)), axis=1) - 0.5          # the best arm's own term is Phi_bar(0) = 1/2
    assert abs(atsidakou2022.expected_pair_sum(K, c) - mc.mean()) < 5 * mc.std() / math.sqrt(mc.size)


def test_the_two_armed_oracle_is_below_every_algorithm():
    """The full-information oracle's closed form lies under uniform allocation's simulated rate, and
    is what the oracle itself attains (n observations of both arms, largest sample mean)."""
    n, runs = 50, 200_000
    rng = np.random.default_rng(9)
    mu = rng.normal(size=(runs, 2))
    xbar = mu + rng.normal(size=(runs, 2)) / math.sqrt(n)
    rate = np.mean(xbar.argmax(1) != mu.argmax(1))
    lb = lower.oracle_two_arms(n, 1.0, 1.0)
    assert abs(rate - lb) < 5 * math.sqrt(lb * (1 - lb) / runs)
    fails = _model_failures("uniform", {}, 2, n, 1.0, 20000, 10)
    assert fails / 20000 > lb


@pytest.mark.parametrize("K, n, prior_var, noise_var", [(3, 100, 1.0, 1.0), (5, 1000, 0.1, 0.25), (10, 500, 2.0, 4.0)])
def test_the_equal_prior_optimum_is_one_over_K_by_computation(K, n, prior_var, noise_var):
    """With every arm's weight free, the optimiser lands on 1/K (within its tolerance), and no
    allocation it found is below 1/K's bound: the grouped shortcut w = 1/K is the optimum."""
    from bounds import nguyen2024
    nu, v = np.zeros(K), np.full(K, prior_var)
    free = nguyen2024.optimal_allocation(nu, v, n, noise_var, grouped=False)
    assert np.abs(free - 1 / K).max() < 1e-4
    at_uniform = nguyen2024.pairwise_bound(nu, v, np.full(K, n / K), noise_var)
    assert at_uniform <= nguyen2024.pairwise_bound(nu, v, n * free, noise_var) + 1e-9
    assert np.array_equal(nguyen2024.optimal_allocation(nu, v, n, noise_var), np.full(K, 1 / K))



def test_the_published_bound_bounds_each_pair_and_is_above_the_exact_pairwise_sum():
    """The authors' bound (from their code) against this package's exact pairwise sum, on equal and
    differing priors: each of its pair terms is at least the exact pair probability, so the whole is
    at least `pairwise_bound`, and a simulated PoE of the fixed allocation lies below both."""
    from bounds import nguyen2024
    rng = np.random.default_rng(4)
    for K, n, nu, v0, s2 in ((2, 50, [0.0, 0.0], [1.0, 1.0], 1.0), (5, 200, np.zeros(5), np.full(5, 0.5), 0.25),
                             (4, 100, [0.0, 0.3, -0.2, 0.1], [1.0, 0.5, 2.0, 0.3], 1.0)):
        nu, v0 = np.asarray(nu, float), np.asarray(v0, float)
        w = np.full(K, 1 / K)
        pub = nguyen2024.published_bound(nu, v0, w, n, s2)
        exact = nguyen2024.pairwise_bound(nu, v0, n * w, s2)
        assert pub >= exact - 1e-12, (K, pub, exact)
        runs = 200_000
        mu = nu + np.sqrt(v0) * rng.standard_normal((runs, K))
        T = n * w
        xbar = mu + np.sqrt(s2 / T) * rng.standard_normal((runs, K))
        post = (nu / v0 + T * xbar / s2) / (1 / v0 + T / s2)
        poe = np.mean(post.argmax(1) != mu.argmax(1))
        assert poe <= exact + 5 * np.sqrt(poe * (1 - poe) / runs), (K, poe, exact)
    for _ in range(300):                 # pair by pair, at random priors, allocations and budgets
        K, n, s2 = int(rng.integers(2, 6)), int(rng.integers(2, 2000)), float(np.exp(rng.uniform(-3, 3)))
        nu, v0, w = rng.normal(0, 1, K), np.exp(rng.uniform(-3, 2, K)), rng.dirichlet(np.ones(K))
        terms = nguyen2024.published_terms(nu, v0, w, n, s2)
        pv = nguyen2024.posterior_var(v0, n * w, s2)
        for i in range(K):
            for j in range(K):
                if i != j:
                    assert terms[i, j] >= nguyen2024.pair_error(nu[j] - nu[i], v0[i], v0[j], pv[i], pv[j]) - 1e-12


def _sh_by_stages(source, K: int, n: int):
    """Sequential halving whose every stage ranks the survivors by that stage's sample means only
    (the schedule of Karnin et al. with the earlier stages discarded): (recommendation, pulls)."""
    from simulate.algorithms.sequential_halving import rounds
    L, T, alive = rounds(K), np.zeros(K), list(range(K))
    for _ in range(L):
        if len(alive) == 1:
            break
        m = n // (len(alive) * L)
        stage = {j: source.phase(j, m) / m for j in alive}
        for j in alive:
            T[j] += m
        alive = sorted(alive, key=lambda j: -stage[j])[:(len(alive) + 1) // 2]
    return alive[0], T


@pytest.mark.parametrize("K, n", [(12, 1000), (7, 333), (16, 4096)])
def test_bayesian_elimination_by_stages_is_sequential_halving_by_stages(K, n):
    """Under a homogeneous prior the default per-stage variant makes the decisions of sequential
    halving that ranks by each stage's means alone, pull for pull, on shared (Gaussian) rewards."""
    from rue_verify.testing import reward_table
    from simulate.algorithms import bayes_elim
    from simulate.algorithms.sources import TableSource
    rng = np.random.default_rng([K, n])
    for _ in range(40):
        mu = rng.normal(0.0, 1.0, K)
        table, ties = reward_table(mu, n, True, int(rng.integers(2 ** 31)))
        rec, T = bayes_elim.run(mu, n, gaussian=True, nu=1.0, table=table, ties=ties, prior_mean=0.0, prior_var=1.0)
        ref_rec, ref_T = _sh_by_stages(TableSource(table, ties), K, n)
        assert rec == ref_rec and np.array_equal(T, ref_T)


def test_the_authors_allocation_mixes_as_their_code_does():
    """bounds.nguyen2024.authors_allocation (MAB.ipynb's compute_w_opt): alpha = 0 is the prior-weighted
    vector alone (v0 / sum v0 when the prior means are equal and positive); alpha = 1 minimises their
    published bound, so no other allocation tried beats it; a homogeneous prior gives 1/K; prior means
    all 0 make the prior-weighted vector 0/0, reported as undefined, also by the algorithm."""
    from bounds import UndefinedError, nguyen2024
    from simulate.runner import run_algorithm
    from simulate.seeds import run_seeds
    pm, pv = np.full(6, 0.5), np.linspace(0.1, 0.5, 6) ** 2
    assert np.allclose(nguyen2024.authors_allocation(pm, pv, 200, 1.0, alpha=0.0), pv / pv.sum())
    w = nguyen2024.authors_allocation(pm, pv, 200, 1.0, alpha=1.0)
    best = nguyen2024.published_bound(pm, pv, w, 200, 1.0)
    for other in (np.full(6, 1 / 6), nguyen2024.optimal_allocation(pm, pv, 200, 1.0), pv / pv.sum()):
        assert best <= nguyen2024.published_bound(pm, pv, other, 200, 1.0) + 1e-9
    assert np.allclose(nguyen2024.authors_allocation(np.full(5, 0.5), np.full(5, 0.1), 100, 1.0), 0.2, atol=1e-4)
    with pytest.raises(UndefinedError, match="0/0"):
        nguyen2024.authors_allocation(np.zeros(4), np.ones(4), 100, 1.0)
    alg = get("prior_alloc_authors")
    p = alg.resolve({"prior_mean": 0.0, "prior_var": 1.0})
    with pytest.raises(ValueError, match="0/0"):
        run_algorithm("prior_alloc_authors", p, np.zeros((3, 4)), 40, run_seeds(0, "a", 3), run_seeds(0, "b", 3),
                      True, 1.0)


def test_the_authors_rounding_draws_a_multinomial():
    """Every run's pulls sum to n, and over many runs each arm's mean count is n w_k (the multinomial's
    mean) within 5 standard errors."""
    from bounds import nguyen2024
    from simulate.runner import run_algorithm
    from simulate.seeds import run_seeds
    K, n, R = 5, 60, 4000
    pm = np.full(K, 0.5)
    alg = get("prior_alloc_authors")
    p = alg.resolve({"prior_mean": 0.5, "prior_var": 0.1, "prior_ratio": 8.0, "noise_var": 1.0})
    means = np.random.default_rng(1).normal(0.5, 0.3, (R, K))
    _, pulls, _, _ = run_algorithm("prior_alloc_authors", p, means, n, run_seeds(0, "a", R), run_seeds(0, "b", R),
                                   True, 1.0)
    assert np.all(pulls.sum(axis=1) == n)
    from simulate.environments import prior_variances
    w = nguyen2024.authors_allocation(pm, prior_variances(K, 0.1, 8.0), n, 1.0)
    se = np.sqrt(n * w * (1 - w) / R)
    assert np.all(np.abs(pulls.mean(axis=0) - n * w) <= 5 * se + 1e-12)
