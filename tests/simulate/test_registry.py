"""simulate.algorithms: the registry, and what every algorithm in it must do (replay its reference
on a reward table, run the same live alone or in a batch, validate its parameters and budget, and
never read the true means)."""

import ast
import inspect

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rue_verify import testing
from simulate.algorithms import REGISTRY, get, rue
from simulate.algorithms.sources import TableSource
from simulate.environments import fixed_means
from tests.simulate.streams import reward_table


def variants():
    """(name, params): each algorithm at its defaults and at every choice of its named modes."""
    out = []
    for name, alg in REGISTRY.items():
        out.append((name, {}))
        for p in alg.params:
            out += [(name, {p.name: c}) for c in p.choices if c != p.default]
    return out


VARIANTS = variants()


def kernel_kwargs(name, params, mu, n, scalar=True):
    alg = get(name)
    kw = alg.kernel_kwargs(alg.resolve(params), mu[None], n)
    return {k: float(np.ravel(v)[0]) if scalar and isinstance(v, np.ndarray) else v for k, v in kw.items()}


def test_the_modes_the_paper_needs_are_registered():
    """RUE with known variances and UCB-E with Section 2's H are registry modes (so the contract
    tests below exercise them); `variants` itself is built from the registry."""
    assert ("rue", {"variances": "known"}) in VARIANTS and ("ucbe", {"H_convention": "section2"}) in VARIANTS


@pytest.mark.parametrize("name,params", VARIANTS, ids=[f"{n}-{'-'.join(map(str, p.values()))}" for n, p in VARIANTS])
@pytest.mark.parametrize("gaussian", [False, True])
@settings(max_examples=6)
@given(K=st.integers(2, 12), extra=st.integers(0, 400), seed=st.integers(0, 10 ** 6))
@example(K=7, extra=279, seed=0)     # SR: (n-K)/(logbar (K+1-k)) is an integer; found by Hypothesis
@example(K=12, extra=252, seed=330)  # UCB-E, a = 2, Bernoulli: indices equal exactly (fastmath broke them); Hypothesis
def test_kernel_replays_reference(name, params, gaussian, K, extra, seed):
    """On one reward table and one table of uniforms, the compiled run and the plain reference make
    the same pulls and the same recommendation."""
    alg = get(name)
    mu = np.random.default_rng(seed).uniform(0.1, 0.9, K)
    n = max(3 * K, alg.min_budget(K, alg.resolve(params))) + extra
    # TTTS reads every posterior uniform from the table: at most K + 2 vectors a round, each at most
    # K closed forms, Box-Muller pairs or Cheng pairs with rare rejections
    testing.assert_kernel_matches_reference(name, mu, n, gaussian, seed, params,
                                            uniforms_per_round=8 * K * (K + 2) if name == "ttts" else 40)


def test_replay_detects_a_changed_algorithm():
    """The comparison can fail: RUE with a different exploration constant is caught, and so is the
    top-two variant against RUE's own pick."""
    mu = fixed_means("F2", 20)
    table, ties = reward_table(mu, 3000, False, 1)
    a, T = rue.run(mu, 3000, table=table, ties=ties)
    b, T2 = rue.reference(TableSource(table, ties), 20, 3000, deg=8.0)
    assert not np.array_equal(T, T2)
    b, T3 = rue.reference(TableSource(table, ties), 20, 3000, top_two=True)
    assert not np.array_equal(T, T3)


@pytest.mark.parametrize("name,params", VARIANTS, ids=[f"{n}-{'-'.join(map(str, p.values()))}" for n, p in VARIANTS])
@pytest.mark.parametrize("gaussian", [False, True])
def test_runs_do_not_depend_on_their_batch(name, params, gaussian):
    """Per-run streams: run r gives the same result alone (`run` with its seeds), in a batch of
    all runs, or in a batch of a different subset in another order."""
    alg = get(name)
    R, K, n = 37, 6, 300
    rng = np.random.default_rng(5)
    means = rng.normal(0.5, 0.2, (R, K)) if gaussian else rng.uniform(0.2, 0.8, (R, K))
    seeds = rng.integers(0, 2 ** 63, R).astype(np.uint64)
    reward_seeds = rng.integers(0, 2 ** 63, R).astype(np.uint64)
    kw = kernel_kwargs(name, params, means[0], n, scalar=False)
    kw = {k: np.full(R, v[0]) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    rec, pulls = alg.batch(means, n, seeds, reward_seeds, gaussian=gaussian, nu=1.0, **kw)
    part = np.arange(R)[::-3]
    sub = {k: v[part] if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    rec2, pulls2 = alg.batch(means[part], n, seeds[part], reward_seeds[part], gaussian=gaussian, nu=1.0, **sub)
    assert np.array_equal(rec[part], rec2) and np.array_equal(pulls[part], pulls2)
    one = {k: float(v[0]) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    for i in (0, 17, R - 1):
        a, T = alg.run(means[i], n, gaussian=gaussian, nu=1.0, seed=int(seeds[i]), reward_seed=int(reward_seeds[i]),
                       **one)
        assert a == rec[i] and np.array_equal(T, pulls[i])


@pytest.mark.parametrize("name", sorted(REGISTRY))
@settings(max_examples=15)
@given(K=st.integers(2, 40), q=st.floats(0.05, 0.95), seed=st.integers(0, 2 ** 32))
def test_the_minimum_budget_is_enough_and_below_it_is_refused(name, K, q, seed):
    """At n = min_budget every arm gets pulled and no more than n pulls are made; one less is a
    ValueError that names the budget."""
    alg = get(name)
    if name == "prior_alloc_authors":      # its allocation is 32 SLSQP starts (5 s at K = 40, one per K): K <= 12
        K = 2 + K % 11
    params = alg.resolve({"q": q} if any(p.name == "q" for p in alg.params) else {})
    n = alg.min_budget(K, params)
    mu = np.random.default_rng(seed).uniform(0.1, 0.9, K)
    kw = {k: float(np.ravel(v)[0]) if isinstance(v, np.ndarray) else v
          for k, v in alg.kernel_kwargs(params, mu[None], n).items()}
    _, T = alg.run(mu, n, seed=seed, reward_seed=seed + 1, **kw)
    assert (T.min() >= 1 or not alg.pulls_every_arm) and T.sum() <= n
    alg.check_budget(n, K, params)
    with pytest.raises(ValueError, match=rf"budget: {name} needs n >= {n} with K = {K}"):
        alg.check_budget(n - 1, K, params)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_parameters_are_checked_against_their_ranges(name):
    alg = get(name)
    with pytest.raises(ValueError, match=f"{name}: unknown parameter bogus"):
        alg.resolve({"bogus": 1})
    for p in alg.params:
        bad = ["nope", 1] if p.choices else [float("nan"), float("inf"), "1", True, None] + \
            [v for v in (p.low, p.high) if v is not None and (p.open_low if v == p.low else p.open_high)] + \
            ([p.low - 1] if p.low is not None else []) + ([p.high + 1] if p.high is not None else [])
        for v in bad:
            with pytest.raises(ValueError, match=f"{name}: {p.name} must be"):
                alg.resolve({p.name: v})
        assert alg.resolve()[p.name] == p.default


def test_get_lists_the_names():
    with pytest.raises(ValueError, match="rue, ucbe, sr, sh, ttts, two-stage, uniform.*'rue2'"):
        get("rue2")


KERNELS = ("_run", "_block", "_rounds", "_sample")


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_algorithms_never_read_the_true_means(name):
    """The kernels see rewards through the source only: no name `mu` or `means`, and no element 0
    (the means) of the source, in any kernel function of the module."""
    module = inspect.getmodule(get(name).raw_batch)
    tree = ast.parse(inspect.getsource(module))
    found = 0
    for fn in (f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name in KERNELS):
        found += 1
        for node in ast.walk(fn):
            assert not (isinstance(node, ast.Name) and node.id in ("mu", "means")), (name, fn.name, node.id)
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "src":
                assert not (isinstance(node.slice, ast.Constant) and node.slice.value == 0), (name, fn.name)
    assert found >= 1


@pytest.mark.parametrize("name", sorted(REGISTRY))
@pytest.mark.parametrize("gaussian", [False, True])
def test_the_kept_sums_are_the_rewards_each_run_drew(name, gaussian):
    """`batch(sums=)` fills each run's reward sums per arm and changes neither its pulls nor its
    recommendation; the sums are those of the run's reward streams replayed to its pull counts:
    exactly for Bernoulli rewards, and within 1e-12 for Gaussian ones (a kernel compiled with fused
    multiply-adds draws mu + nu z in one rounding, the replay in two). An algorithm that declares
    `phase_sums` draws a Gaussian phase's sum at once: its sums are not the replay (the declaration is
    true) and are checked in law in tests/simulate/test_source.py (`phase_sum`)."""
    from simulate.algorithms.sources import replayed_sums
    alg = get(name)
    R, K, n = 37, 6, 300                        # 37: RUE pads its runs to whole vector units
    rng = np.random.default_rng(9)
    means = rng.normal(0.0, 1.0, (R, K)) if gaussian else rng.uniform(0.2, 0.8, (R, K))
    seeds, reward_seeds = (rng.integers(0, 2 ** 63, R).astype(np.uint64) for _ in range(2))
    kw = alg.kernel_kwargs(alg.resolve({}), means, n)
    nu = 0.7 if gaussian else 0.0
    sums = np.full((R, K), np.nan)
    rec, pulls = alg.batch(means, n, seeds, reward_seeds, gaussian=gaussian, nu=nu, sums=sums, **kw)
    rec0, pulls0 = alg.batch(means, n, seeds, reward_seeds, gaussian=gaussian, nu=nu, **kw)
    assert np.array_equal(rec, rec0) and np.array_equal(pulls, pulls0)
    replayed = replayed_sums(means, pulls, reward_seeds, gaussian, nu)
    if gaussian and alg.phase_sums:
        assert not np.allclose(sums, replayed, rtol=0, atol=1e-6)
    else:
        assert np.allclose(sums, replayed, rtol=0, atol=1e-12 if gaussian else 0.0)
    assert np.all(sums[pulls == 0] == 0) and np.any(sums != 0)


def test_sums_of_the_wrong_shape_are_refused():
    means = np.zeros((4, 3))
    with pytest.raises(ValueError, match=r"sums must be .* shape \(4, 3\)"):
        get("uniform").batch(means, 30, np.arange(4), np.arange(4), gaussian=True, nu=1.0, sums=np.zeros((3, 4)))


def test_an_entry_that_draws_phase_sums_must_keep_its_sums():
    """A kernel that draws a Gaussian phase's sum at once has sums no one-at-a-time replay gives, so its
    entry must collect them (`collects_sums`); declaring one without the other is refused."""
    from simulate.algorithms.spec import Algorithm
    base = get("uniform")
    fields = dict(name="mine", title="t", batch=base.raw_batch, run=base.raw_run, reference=base.reference,
                  min_budget=base.min_budget, budget_rule="r")
    with pytest.raises(ValueError, match="mine: phase_sums needs collects_sums"):
        Algorithm(**fields, phase_sums=True)
    assert Algorithm(**fields, phase_sums=True, collects_sums=True).arm_rounds(10 ** 6, 20, True) == 400
    assert Algorithm(**fields, phase_sums=True, collects_sums=True).arm_rounds(10 ** 6, 20, False) == 2e7
