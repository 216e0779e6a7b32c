"""Algorithms from outside the package (simulate.algorithms.external): a plain function in a file or
a module, or an installed entry point, runs through the runner with the built-ins' seeds and reward
streams (common random numbers: its j-th pull of an arm reads the j-th reward of the arm's stream, as
the kernels that draw one reward at a time do; a copy of `uniform` makes its choices at one pull per arm),
through the reproduction and the report; breaking the protocol is a ValueError that names the run."""

import importlib.metadata
import textwrap

import numpy as np
import pytest

from simulate.algorithms import get
from simulate.environments import Environment
from simulate.runner import simulate

ALGORITHMS = '''
import numpy as np

def round_robin(source, K, n):
    """Round robin, then the largest empirical mean: `uniform` when K divides n."""
    sums = np.zeros(K)
    for t in range(n):
        sums[t % K] += source.reward(t % K)
    return source.argmax(sums / (n // K))

def explore_then_commit(source, K, n):
    """Half the budget uniformly, the rest on the two leaders."""
    sums, counts = np.zeros(K), np.zeros(K)
    for t in range(n):
        k = t % K if t < n // 2 else int(np.argsort(-sums / np.maximum(counts, 1))[t % 2])
        sums[k] += source.reward(k)
        counts[k] += 1
    return source.argmax(sums / np.maximum(counts, 1))
explore_then_commit.min_budget = lambda K: 2 * K

def ghost_arm(source, K, n):
    source.reward(K)
    return 0

def greedy_budget(source, K, n):
    for _ in range(n + 1):
        source.reward(0)
    return 0

def silent(source, K, n):
    source.reward(0)

def crashes(source, K, n):
    return 1 / 0

not_an_algorithm = 3.0
'''


@pytest.fixture(scope="module")
def algfile(tmp_path_factory):
    d = tmp_path_factory.mktemp("mine")
    (d / "my_algorithms.py").write_text(textwrap.dedent(ALGORITHMS))
    return d / "my_algorithms.py"


def test_a_function_in_a_file_gets_the_kernels_reward_streams(algfile):
    """End to end at n = K, one pull per arm: `uniform` draws a Gaussian phase's sum at once
    (`sources.phase_sum`), which for a phase of one pull is the very reward a one-at-a-time pull reads
    (`test_the_source_reads_the_kernels_streams_reward_by_reward` checks longer streams)."""
    n = 20
    env = Environment("F2", 20, "gaussian")
    res = simulate(env, ["uniform", f"{algfile}:round_robin"], n, 60, seed=3, crn=True, progress=False)
    builtin, mine = res.results
    assert mine.algorithm == f"{algfile}:round_robin"
    assert mine.failures == builtin.failures and mine.mean_pulls == builtin.mean_pulls
    assert mine.simple_regret == builtin.simple_regret                # the same arm in every run
    # and the seed matters (with crn the reward seeds do not depend on the algorithm's name, which holds
    # the file's path: without it, two paths draw other rewards and a coincidence could hide the seed)
    other = simulate(env, [f"{algfile}:round_robin"], n, 60, seed=4, crn=True, progress=False).results[0]
    assert (other.failures, other.simple_regret) != (mine.failures, mine.simple_regret)


def test_the_source_reads_the_kernels_streams_reward_by_reward():
    """An outside algorithm's j-th pull of arm k reads the j-th reward of the arm's stream, the one the
    one-at-a-time kernels read (`sources.replayed_sums`), past the source's 256-reward buffer."""
    from simulate.algorithms.external import StreamSource
    from simulate.algorithms.sources import replayed_sums
    K, n = 3, 1200
    m = np.array([0.1, 0.6, 0.9])
    for gaussian, nu in ((True, 0.8), (False, 0.0)):
        src = StreamSource(m, n, gaussian, nu, seed=5, reward_seed=77, name="t", run=0)
        pulls = np.array([700, 100, 400])
        sums = np.array([sum(src.reward(k) for _ in range(int(pulls[k]))) for k in range(K)])
        want = replayed_sums(m[None], pulls[None].astype(float), np.array([77], np.uint64), gaussian, nu)[0]
        assert np.allclose(sums, want, rtol=1e-13, atol=1e-9) and np.all(sums != 0)


def test_breaking_the_protocol_is_one_clear_error(algfile):
    env = Environment("F1", 5)
    for name, says in (("ghost_arm", r"run 0 \(seed \d+, reward seed \d+\) pulled arm 5, which does not exist"),
                       ("greedy_budget", "pulled more than its budget n = 50"),
                       ("silent", "returned None, not a recommended arm in 0..4"),
                       ("crashes", "raised ZeroDivisionError: division by zero")):
        with pytest.raises(ValueError, match=says):
            simulate(env, [f"{algfile}:{name}"], 50, 3, progress=False)
    with pytest.raises(ValueError, match="is neither a function nor an Algorithm"):
        get(f"{algfile}:not_an_algorithm")
    with pytest.raises(ValueError, match="defines no nothing_here"):
        get(f"{algfile}:nothing_here")
    with pytest.raises(ValueError, match="budget: .* needs n >= 10"):
        simulate(env, [f"{algfile}:explore_then_commit"], 9, 3, progress=False)


def test_a_module_on_the_path_and_an_entry_point(algfile, monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(algfile.parent))
    by_module = get("my_algorithms:explore_then_commit")
    assert by_module.min_budget(20, {}) == 40 and "Half the budget" in by_module.title
    dist = tmp_path / "my_bandits-1.0.dist-info"                          # an installed package's metadata
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-bandits\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[rue_verify.algorithms]\netc = my_algorithms:explore_then_commit\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "etc" in {ep.name for ep in importlib.metadata.entry_points(group="rue_verify.algorithms")}
    res = simulate(Environment("F2", 20), ["etc"], 400, 20, progress=False)
    assert res.results[0].algorithm == "etc" and sum(res.results[0].mean_pulls) == pytest.approx(400)


def test_the_command_line_runs_it_and_refuses_a_bad_one_in_one_line(algfile, capsys):
    from rue_verify.cli import main
    assert main(["simulate", "--setup", "F2", "--runs", "30", "--budget", "400", "--algorithms",
                 f"rue,{algfile}:explore_then_commit", "-q"]) == 0
    out = capsys.readouterr().out
    assert f"{algfile}:explore_then_commit" in out and "rue" in out
    assert main(["simulate", "--algorithms", f"{algfile}:nothing_here", "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "defines no nothing_here" in err[0]


def test_it_runs_through_the_reproduction_and_the_report(algfile, tmp_path):
    from rue_verify.outputs.report import report
    from rue_verify.reproduction import reproduce
    from rue_verify.reproduction.grid import Scale
    tiny = Scale("tiny", fixed_runs=2, random_instances=2, random_runs=2, arms_runs=4, two_stage_runs=4,
                 two_stage_random_runs=2)
    mine = f"{algfile}:explore_then_commit"
    res = reproduce(tiny, tmp_path / "run", studies=["fixed"], progress=False,
                    algorithms=("rue", mine))
    assert sum(r["algorithm"] == mine for r in res["rows"]) == 36        # 6 setups x 2 readings of H x 3 budgets
    out = report("quick", tmp_path / "report", results_dir=tmp_path / "run", progress=False,
                 claims=["EXP-F-CLAIMS", "EXP-R-CLAIMS"], workers=1)
    table = (tmp_path / "report" / "figures" / "figure3-fixed-H-suboptimal.csv").read_text()
    assert mine in table
    page = (tmp_path / "report" / "index.html").read_text()
    # the claims whose rows these results lack are judged on the shipped results, and say so
    assert "because" in page and "hold no rows of the random study" in page and "hold no rows of ucbe" in page
    assert out["claims"] == 2
    assert np.isfinite([float(r["error_rate"]) for r in res["rows"] if r["algorithm"] == mine]).all()


def test_replayed_sums_are_the_rewards_a_run_saw(algfile):
    """The sums replayed from the reward streams equal what an outside algorithm summed pull by pull."""
    from simulate.algorithms.external import StreamSource
    from simulate.algorithms.sources import replayed_sums
    mu = np.array([0.3, -0.2, 0.5, 0.1])
    src = StreamSource(mu, 37, True, 0.7, seed=5, reward_seed=11, name="t", run=0)
    seen = np.zeros(4)
    rng = np.random.default_rng(0)
    for _ in range(37):
        k = int(rng.integers(4))
        seen[k] += src.reward(k)
    sums = replayed_sums(mu[None], src.pulls[None], np.array([11], np.uint64), True, 0.7)[0]
    assert np.allclose(sums, seen, rtol=0, atol=1e-12)


def test_an_outside_algorithm_gets_its_sums_replayed():
    """An outside algorithm keeps no sums; through its entry `batch(sums=)` gives the sums of the
    rewards it was handed, replayed from its streams."""
    from simulate.algorithms.external import from_function
    seen = {}

    def lopsided(source, K, n):
        total = np.zeros(K)
        for t in range(n):
            k = 0 if t % 3 else t % K
            total[k] += source.reward(k)
        seen.setdefault(len(seen), total)
        return 0
    alg = from_function(lopsided, "lopsided")
    means = np.random.default_rng(2).normal(0, 1, (3, 4))
    sums = np.empty((3, 4))
    alg.batch(means, 40, np.arange(3), np.arange(10, 13), gaussian=True, nu=0.5, sums=sums)
    assert not alg.collects_sums and np.allclose(sums, np.array([seen[r] for r in range(3)]), rtol=0, atol=1e-12)
