"""Setup 'prior': every run's means drawn from a user's prior, a Gaussian one per arm (prior_mean, prior_sd)
or a sampler, from the runner's SeedSequence means stream."""

import numpy as np
import pytest
from scipy import stats

import simulate
from simulate.environments import PRIOR, Environment, environment_for
from simulate.runner import simulate as run_many
from simulate.seeds import stream

M, S = (0.0, 0.5, -1.0), (1.0, 0.0, 2.0)


def test_the_gaussian_prior_draws_each_arm_from_its_own_normal_on_the_seeds_means_stream():
    """The means are numpy's N(m_k, s_k^2) draws from `SeedSequence(seed)` spawn key 0 (the stream every random
    setup's means come from), exactly; sd 0 fixes an arm's mean; one number is every arm's."""
    env = Environment(PRIOR, 3, "gaussian", prior_mean=M, prior_sd=S)
    mu, clipped = env.means_for_runs(5000, stream(9, 0))
    want = np.random.default_rng(np.random.SeedSequence(9, spawn_key=(0,))).normal(M, S, (5000, 3))
    assert clipped == 0 and np.array_equal(mu, want) and np.all(mu[:, 1] == 0.5)
    for k in (0, 2):
        assert stats.kstest((mu[:, k] - M[k]) / S[k], "norm").pvalue > 1e-6
    assert Environment(PRIOR, 4, "gaussian", prior_mean=0.2, prior_sd=1.0).prior_mean == (0.2,) * 4
    assert env.random and env.describe() == {"setup": PRIOR, "K": 3, "reward": "gaussian", "nu_sq": 0.25,
                                             "prior_mean": list(M), "prior_sd": list(S)}


def test_a_sampler_gets_the_generator_and_the_number_of_runs():
    seen = []

    def sampler(rng, runs):
        seen.append(runs)
        return rng.uniform(0.2, 0.8, (runs, 4))
    env = environment_for(PRIOR, 4, reward="bernoulli", prior_sampler=sampler)
    mu, _ = env.means_for_runs(300, stream(2, 0))
    assert seen == [300] and np.array_equal(mu, np.random.default_rng(np.random.SeedSequence(2, spawn_key=(0,)))
                                            .uniform(0.2, 0.8, (300, 4)))
    assert env.describe()["prior_sampler"].endswith("sampler")


def test_bernoulli_means_outside_the_unit_interval_follow_the_clip_policy():
    kw = dict(reward="bernoulli", prior_mean=(0.5, 0.9), prior_sd=(0.3, 0.3))
    redrawn, count = Environment(PRIOR, 2, **kw).means_for_runs(2000, stream(1, 0))
    assert count > 0 and redrawn.min() >= 0 and redrawn.max() <= 1
    clipped, count2 = Environment(PRIOR, 2, clip_policy="clip", **kw).means_for_runs(2000, stream(1, 0))
    assert count2 > 0 and clipped.max() == 1.0
    with pytest.raises(ValueError, match="outside"):
        Environment(PRIOR, 2, clip_policy="error", **kw).means_for_runs(2000, stream(1, 0))
    with pytest.raises(ValueError, match="clip_policy: after 1000 redraws"):
        Environment(PRIOR, 2, reward="bernoulli", prior_mean=5.0, prior_sd=0.1).means_for_runs(10, stream(1, 0))


@pytest.mark.parametrize("kw,said", [
    (dict(prior_mean=(0.0, 1.0)), "prior_mean and prior_sd: setup prior needs both"),
    (dict(prior_mean=(0.0, 1.0, 2.0), prior_sd=1.0), "prior_mean must be one number or K = 2"),
    (dict(prior_mean=0.0, prior_sd=(1.0, -1.0)), "prior_sd must be one number or K = 2 finite numbers >= 0"),
    (dict(prior_mean=0.0, prior_sd=1.0, prior_sampler=lambda r, n: None), "prior_sampler and prior_mean"),
    (dict(prior_sampler="normal"), "prior_sampler must be a function"),
])
def test_bad_priors_are_refused_naming_the_field(kw, said):
    with pytest.raises(ValueError, match=said):
        Environment(PRIOR, 2, "gaussian", **kw)
    with pytest.raises(ValueError, match="prior_mean: only setup 'prior'"):
        Environment("F1", 2, prior_mean=0.0)
    with pytest.raises(ValueError, match=r"prior_sampler .* must return \(3, 2\) finite means"):
        Environment(PRIOR, 2, "gaussian", prior_sampler=lambda rng, n: np.zeros((n, 3))).means_for_runs(3, stream(0, 0))


def test_simulate_run_draws_from_the_prior_by_its_seed():
    """simulate.run(prior=...) is the runner on setup prior: one seed, the same means and results; K from a
    per-arm prior; a budget relative to H needs fixed means; prior and means together are refused."""
    kw = dict(prior=(list(M), list(S)), gaussian=True, nu=[1.0, 2.0, 0.5], budget=30, runs=400)
    a, b = simulate.run("uniform", seed=3, **kw), simulate.run("uniform", seed=3, **kw)
    assert str(a) == str(b) and str(a) != str(simulate.run("uniform", seed=4, **kw))
    env = Environment(PRIOR, 3, "gaussian", (1.0, 4.0, 0.25), prior_mean=M, prior_sd=S)
    ref = run_many(env, ["uniform"], 30, 400, seed=3, progress=False).results[0]
    assert (a.error.estimate, a.regret.estimate) == (ref.error_rate, ref.simple_regret)
    f = simulate.run("uniform", prior=lambda rng, n: rng.uniform(0, 1, (n, 5)), K=5, budget=25, runs=50)
    assert f.mean_pulls == [5.0] * 5
    for extra, said in [(dict(means=[0.1, 0.2, 0.3]), "prior: .* not both"), (dict(prior=(1.0,)), "prior must be"),
                        (dict(budget="H"), "budgets relative to H need fixed means")]:
        with pytest.raises(ValueError, match=said):
            simulate.run("uniform", **{**kw, **extra})
    with pytest.raises(ValueError, match="K: setup prior needs K"):
        simulate.run("uniform", prior=(0.0, 1.0), budget=30, runs=10, gaussian=True, nu=1.0)
