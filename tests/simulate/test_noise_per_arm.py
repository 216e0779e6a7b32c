"""A Gaussian noise sd per arm (`nu` a sequence, `Environment.nu_sq` a tuple): the compiled reward draws and
the plain source's, every algorithm against its reference on per-arm tables, the refusals where a
definition has one sigma, and one sd given per arm changing nothing against the same sd given once."""

import numpy as np
import pytest
from numba import njit

import simulate
from simulate.algorithms import REGISTRY, get
from simulate.algorithms import sources as C
from simulate.algorithms._rng import normal, seed_states
from simulate.environments import Environment
from simulate.runner import simulate as run_many

MU = np.array([0.3, 0.1, 0.5, 0.2])
SD = np.array([0.5, 2.0, 1.0, 0.7])

#: the entries that refuse a per-arm nu with their defaults (one sigma^2 read from the reward law), and the
#: parameter that lets them run on it
ONE_NU = {name: {"noise_var": 0.5} for name in ("bayes_elim", "prior_alloc", "prior_alloc_authors")}


@njit(cache=True)
def _draws(means, nu, reward_seeds, k, lengths, phase):
    """Run 0's arm k: consecutive rewards (`reward`) or phase sums of the given lengths (`phase_sum`)."""
    src = C.live_source(means, True, nu, reward_seeds, reward_seeds, None)
    out = np.empty(lengths.shape[0])
    for p in range(lengths.shape[0]):
        out[p] = C.phase_sum(src, 0, k, lengths[p]) if phase else C.reward(src, 0, k)
    return out


@njit(cache=True)
def _normals(reward_seeds, K, k, count):
    """The first `count` standard normals of run 0's arm k stream (row k of the splitmix64-seeded states)."""
    rw = seed_states(reward_seeds, 4 * K).reshape(K, 4)
    out = np.empty(count)
    for j in range(count):
        out[j] = normal(rw, k)
    return out


@pytest.mark.parametrize("seed", [0, 7, 2 ** 63 + 1])
def test_live_draws_are_each_arms_mean_plus_its_sd_times_its_streams_normals(seed):
    """For the same reward seed, arm k's j-th reward is mu_k + nu_k z_kj exactly, z_kj the j-th normal of
    the arm's own stream (`_rng.normal`, held to the ziggurat written out with Python integers in
    test_rng.py); a phase of m pulls is m mu_k + nu_k sqrt(m) z; the per-arm sd changes no normal."""
    rs = np.array([seed], np.uint64)
    means = MU[None]
    lengths = np.array([1, 5, 1, 30, 2])
    for k in range(MU.size):
        z = _normals(rs, MU.size, k, lengths.size)
        assert np.array_equal(_draws(means, SD, rs, k, np.ones(5, np.int64), False), MU[k] + SD[k] * z)
        assert np.array_equal(_draws(means, SD, rs, k, lengths, True), lengths * MU[k] + SD[k] * np.sqrt(lengths) * z)
        assert np.array_equal(_draws(means, float(SD[k]), rs, k, lengths, True),
                              _draws(means, np.full(MU.size, SD[k]), rs, k, lengths, True))


def test_the_plain_live_source_draws_each_arms_sd_from_the_same_normals():
    """`LiveSource` (the plain references' live rewards): arm k's reward is mu_k + sqrt(nu_sq_k) z with z the
    Generator's next standard normal, the same z a source of one variance would have scaled."""
    var = SD ** 2
    a = C.LiveSource(MU, np.random.default_rng(3), "gaussian", var)
    z = np.random.default_rng(3).standard_normal(40)
    arms = np.arange(40) % MU.size
    assert np.array_equal([a.reward(k) for k in arms], MU[arms] + np.sqrt(var)[arms] * z)
    one = C.LiveSource(MU, np.random.default_rng(3), "gaussian", 0.49)
    assert np.array_equal([one.reward(k) for k in arms], MU[arms] + 0.7 * z)
    with pytest.raises(ValueError, match=r"nu_sq must be one number or one per arm \(K = 4\)"):
        C.LiveSource(MU, np.random.default_rng(3), "gaussian", var[:3])


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_entry_replays_its_reference_on_a_table_with_a_sd_per_arm_or_says_why_not(name):
    """On a Gaussian table whose arm k has sd SD[k], every entry that takes a per-arm nu (with the parameter
    that lets it, for those whose definition reads one sigma^2) makes its reference's pulls and
    recommendation; the others refuse it, naming nu and why."""
    alg = get(name)
    K, n = MU.size, 60
    rng = np.random.default_rng(1)
    table = MU[:, None] + SD[:, None] * rng.standard_normal((K, n))
    ties = rng.random(8 * K * (K + 2) * n + 100)
    if name in ONE_NU:
        with pytest.raises(ValueError, match=f"{name}: nu per arm .* is refused: .*one reward variance.*noise_var"):
            alg.run(MU, n, gaussian=True, nu=SD, table=table, ties=ties)
    kw = alg.kernel_kwargs(alg.resolve(ONE_NU.get(name, {})), MU[None], n)
    kw = {k: float(np.ravel(v)[0]) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    a, T = alg.run(MU, n, gaussian=True, nu=SD, table=table, ties=ties, **kw)
    b, T2 = alg.reference(C.TableSource(table, ties), K, n, gaussian=True, nu=SD, **kw)
    assert a == b and np.array_equal(T, T2)


@pytest.mark.parametrize("name", ["ttts", "two-stage"])
def test_the_entries_that_read_the_noise_read_each_arms(name):
    """TTTS's posterior and two-stage's Gaussian bounds use arm k's own sd: the same table run with one sd
    for every arm (the per-arm sds' mean) takes other decisions, in the kernel as in the reference."""
    K, n = 6, 120
    mu = np.linspace(0.0, 3.0, K)
    sd = np.array([0.1, 3.0, 0.1, 3.0, 0.1, 3.0])
    differ = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        table = mu[:, None] + sd[:, None] * rng.standard_normal((K, n))
        ties = rng.random(8 * K * (K + 2) * n + 100)
        per_arm = get(name).run(mu, n, gaussian=True, nu=sd, table=table, ties=ties)
        one = get(name).run(mu, n, gaussian=True, nu=float(sd.mean()), table=table, ties=ties)
        differ += not np.array_equal(per_arm[1], one[1])
    assert differ >= 5


@pytest.mark.parametrize("name", ["uniform", "ucbe", "two-stage", "fixed-share", "sh"])
def test_one_sd_given_per_arm_is_the_same_sd_given_once_bit_for_bit(name):
    """A per-arm nu whose values are all the same number gives the runs, pulls and sums of that number given
    once (the scalar path, whose draws are the package's before per-arm noise existed)."""
    alg = get(name)
    R, K, n = 9, 5, 150
    rng = np.random.default_rng(4)
    means = rng.normal(0.0, 1.0, (R, K))
    seeds, reward_seeds = (rng.integers(0, 2 ** 63, R).astype(np.uint64) for _ in range(2))
    kw = alg.kernel_kwargs(alg.resolve({}), means, n)
    out = []
    for nu in (0.8, [0.8] * K):
        sums = np.zeros((R, K))
        rec, pulls = alg.batch(means, n, seeds, reward_seeds, gaussian=True, nu=nu, sums=sums, **kw)
        out.append((rec, pulls, sums))
    assert all(np.array_equal(x, y) for x, y in zip(*out))


def test_bad_per_arm_noise_is_refused_naming_nu():
    uniform = get("uniform")
    means = np.tile(MU, (3, 1))
    for nu in (SD[:3], [1.0, -1.0, 1.0, 1.0], [1.0, np.nan, 1.0, 1.0], [[1.0] * 4]):
        with pytest.raises(ValueError, match="uniform: nu per arm must be K = 4 finite numbers > 0"):
            uniform.batch(means, 20, np.arange(3), np.arange(3), gaussian=True, nu=nu)
    with pytest.raises(ValueError, match=r"uniform: nu per arm .* needs Gaussian rewards"):
        uniform.batch(means, 20, np.arange(3), np.arange(3), gaussian=False, nu=SD)
    from simulate.algorithms.spec import Algorithm
    outside = Algorithm(name="mine", title="t", batch=uniform.raw_batch, run=uniform.raw_run,
                        reference=uniform.reference, min_budget=uniform.min_budget, budget_rule="r")
    with pytest.raises(ValueError, match="mine: nu per arm .* is refused: it does not declare"):
        outside.batch(means, 20, np.arange(3), np.arange(3), gaussian=True, nu=SD)


def test_the_environment_and_simulate_run_take_a_variance_per_arm():
    """`Environment.nu_sq` per arm (Gaussian rewards only) is what the runner hands the kernels as sds;
    simulate.run's nu per arm is the same run; an entry that refuses it is refused before any runs."""
    env = Environment("custom", 4, "gaussian", tuple(SD ** 2), custom_means=tuple(MU))
    assert env.per_arm_noise and np.array_equal(env.noise_sd(), np.sqrt(SD ** 2))
    assert env.describe()["nu_sq"] == list(SD ** 2)
    res = run_many(env, ["uniform"], 40, 300, seed=5, progress=False).results[0]
    r = simulate.run("uniform", means=list(MU), gaussian=True, nu=list(SD), budget=40, runs=300, seed=5)
    assert (r.error.estimate, r.regret.estimate) == (res.error_rate, res.simple_regret)
    for kw, said in [(dict(nu_sq=(1.0, 2.0)), "nu_sq per arm must be K = 4"),
                     (dict(nu_sq=(1.0, 2.0, 0.0, 1.0)), "nu_sq per arm must be K = 4 finite numbers > 0"),
                     (dict(nu_sq=(1.0,) * 4, reward="bernoulli"), "nu_sq per arm .* needs Gaussian rewards")]:
        with pytest.raises(ValueError, match=said):
            Environment("custom", 4, **{"custom_means": tuple(MU), "reward": "gaussian", **kw})
    for kw, said in [(dict(nu=[1.0, 2.0]), "nu per arm must be K = 4 numbers"),
                     (dict(nu=[1.0, 2.0, 1.0, 1.0], gaussian=False), "nu per arm .* needs gaussian=True"),
                     (dict(nu=[1.0, "a", 1.0, 1.0]), "nu must be a finite number > 0 or one per arm")]:
        with pytest.raises(ValueError, match=said):
            simulate.run("uniform", means=list(MU), budget=40, runs=10, **{"gaussian": True, **kw})
    with pytest.raises(ValueError, match="bayes_elim: nu per arm .* is refused"):
        run_many(env, ["uniform", "bayes_elim"], 40, 10, progress=False)
