"""simulate.run: one algorithm by name and keyword, the runner's result for the same arguments, its
parameters checked by name."""

import pytest

import simulate
from simulate.environments import Environment
from simulate.runner import simulate as run_many


def test_run_is_the_runners_result_with_its_seed_and_parameters():
    means = [0.5, 0.45, 0.4, 0.3]
    r = simulate.run("sh", means=means, budget=400, runs=300, seed=7, tie_rule="lowest-index")
    ref = run_many(Environment("custom", 4, reward="bernoulli", custom_means=tuple(means)),
                   [("sh", {"tie_rule": "lowest-index"})], 400, 300, 7, progress=False).results[0]
    assert r.error.estimate == ref.error_rate and (r.error.low, r.error.high) == (ref.ci_low, ref.ci_high)
    assert r.regret.estimate == ref.simple_regret and r.seed == 7 and r.budget == 400
    assert r.params["tie_rule"] == "lowest-index" and "seed 7" in str(r)
    other = simulate.run("sh", means=means, budget=400, runs=300, seed=8, tie_rule="lowest-index")
    assert other.error.estimate != r.error.estimate or other.regret.estimate != r.regret.estimate


def test_gaussian_rewards_a_paper_setup_and_bad_input_named():
    g = simulate.run("rue", means=[0.0, -1.0, -1.0], budget=200, runs=50, gaussian=True, nu=1.0, variances="reml")
    assert g.params["variances"] == "reml" and 0 <= g.error.low <= g.error.high <= 1
    f = simulate.run("uniform", setup="F4", K=8, budget="H", runs=20)
    assert f.budget > 0
    for kw, said in (({"tie_rul": "random"}, "unknown parameter tie_rul"), ({"nu": -1.0, "gaussian": True}, "nu must"),
                     ({"gaussian": "yes"}, "gaussian must be True or False")):
        with pytest.raises(ValueError, match=said):
            simulate.run("sh", means=[0.5, 0.4], budget=100, runs=10, **kw)
    assert "tie_rule = 'random'" in simulate.describe("sh") and "Karnin" in simulate.describe("sh")
