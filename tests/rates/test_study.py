"""rue_verify.rates' sweep: a study is data (settings, algorithms, budgets), its rows keep block
statistics from which the curves, intervals and fits equal those computed from the per-run values, a
killed study resumes to the uninterrupted one's rows, one local process, two, and a Dask cluster give
the same rows, and the full-information oracle stays below every algorithm, also under per-arm priors."""

import json
import math

import numpy as np
import pytest

from rue_verify import rates
from rue_verify.rates import grid
from rue_verify.rates.truth import bayes_truth, oracle_truth

# one worker builds the module's fixture once (xdist would otherwise build it in each worker)
pytestmark = pytest.mark.xdist_group("rate_study")

TINY = grid.Scale("tiny", (
    grid.Plan(grid.BASE, ("rue", "bayes_elim", "oracle", "sr"), 100, 464, 60, (("sr", 215),)),
    grid.Plan(grid.Setting("K4", 4), ("rue", "oracle"), 100, 464, 60),
    grid.Plan(grid.Setting("K20", 20), ("rue", "oracle"), 100, 464, 60),
    grid.Plan(grid.Setting("differing priors", 6, prior_ratio=100.0), ("rue", "prior_alloc", "oracle"), 100, 464, 60),
), groups=6)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    grid.SCALES["tiny"] = TINY
    d = tmp_path_factory.mktemp("rates") / "tiny"
    out = rates.run("tiny", d, seed=5, progress=False)        # little work: in this process, which compiles
    yield d, out
    grid.SCALES.pop("tiny", None)


def _strip(rows):
    return [{k: v for k, v in r.items() if k != "wall_seconds"} for r in rows]


def test_the_rows_are_the_grid_and_the_blocks_give_the_per_run_statistics(tiny):
    d, out = tiny
    res = rates.load(d)
    assert [r["key"] for r in res.rows] == [t.key for t in grid.tasks(TINY)]
    assert res.manifest["definition"] == grid.definition_hash(grid.tasks(TINY), 5)
    c = res.curve("base", "rue")
    assert list(c.n) == grid.budgets(100, 464) and c.runs == 60
    params = grid.algorithm_params("rue", grid.BASE)
    for j, n in enumerate(c.n):
        t = bayes_truth("rue", 10, int(n), 1.0, 1.0, 60, 5, params, tilt=grid.BASE.tilt)
        for q in ("failure", "regret"):
            direct, stored = getattr(t, q), c.interval(q, j)
            assert np.allclose(direct[:3], stored[:3], rtol=1e-9, atol=1e-15)
        assert np.allclose(t.failure_plain[:3], c.plain("failure", j)[:3], rtol=1e-9, atol=1e-15)
    per_run = np.column_stack([bayes_truth("rue", 10, int(n), 1.0, 1.0, 60, 5, params, tilt=True).regret_runs
                               for n in c.n])
    a, b = c.fit("regret", tail=0.5), rates.fit_paired(c.n, per_run, tail=0.5, groups=6)
    assert np.isclose(a.exponent, b.exponent) and np.allclose(a.interval, b.interval)


def test_a_killed_study_resumes_to_the_same_rows(tiny, tmp_path):
    d, _ = tiny
    grid.SCALES["tiny"] = TINY

    class Stop(Exception):
        pass

    seen = []

    def stop_after_three(row):
        seen.append(row["key"])
        if len(seen) == 3:
            raise Stop
    with pytest.raises(Stop):
        rates.run("tiny", tmp_path / "r", seed=5, progress=False, on_row=stop_after_three)
    assert len(rates.load(tmp_path / "r").rows) == 3
    again = rates.run("tiny", tmp_path / "r", seed=5, progress=False)
    assert again["arm_rounds"] < rates.run("tiny", tmp_path / "fresh", seed=6, progress=False)["arm_rounds"]
    assert _strip(rates.load(tmp_path / "r").rows) == _strip(rates.load(d).rows)


def test_two_processes_give_the_rows_of_one(tiny, tmp_path):
    """A local sweep runs its tasks on as many processes as cores, costliest first, each kernel on its
    share of the threads; the rows must not depend on how many, nor on the order they finish in (the
    processes load the kernels the fixture's run compiled)."""
    d, _ = tiny
    grid.SCALES["tiny"] = TINY
    rates.run("tiny", tmp_path / "two", seed=5, progress=False, workers=2)
    assert _strip(rates.load(tmp_path / "two").rows) == _strip(rates.load(d).rows)


def test_a_dask_cluster_gives_the_local_rows(tiny, tmp_path):
    distributed = pytest.importorskip("distributed")
    d, _ = tiny
    grid.SCALES["tiny"] = TINY
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
            distributed.Client(cl) as client:
        rates.run("tiny", tmp_path / "dask", seed=5, progress=False, client=client)
    assert _strip(rates.load(tmp_path / "dask").rows) == _strip(rates.load(d).rows)


def test_another_study_is_refused_in_the_same_directory(tiny):
    d, _ = tiny
    grid.SCALES["tiny"] = TINY
    with pytest.raises(ValueError, match="another definition"):
        rates.run("tiny", d, seed=6, progress=False)


def test_the_oracle_is_below_every_algorithm_also_under_per_arm_priors(tiny):
    """A lower bound that could fail: no algorithm's truth is significantly below the oracle's
    (upper end of the algorithm's 95% interval against the oracle's lower end), on every setting."""
    res = rates.load(tiny[0])
    for name in res.settings():
        orc = res.curve(name, "oracle")
        for alg in res.algorithms(name):
            c = res.curve(name, alg)
            for q in ("failure", "regret"):
                for j, n in enumerate(c.n):
                    assert c.interval(q, j).high >= orc.interval(q, orc.index(n)).low, (name, alg, q, n)


def test_under_per_arm_priors_the_oracle_takes_the_arm_most_probably_best():
    """With per-arm priors and equal counts the largest posterior mean is not always the arm most
    probably best; the oracle's failure probability uses the latter and is never above the former's."""
    pv = grid.Setting("d", 6, prior_ratio=100.0).prior_vars()
    t = oracle_truth(6, 2, pv, 1.0, 400, 3)
    from rue_verify.rates.truth import conditional_failure, instances, known_mean_posterior
    from simulate.seeds import stream
    means, _, _ = instances(6, pv, 1.0, 400, 3)
    noise = stream(3, f"rates:oracle:6:{'[' + ','.join(f'{x:.12g}' for x in pv) + ']'}:1.0:n=2").standard_normal(
        (400, 6))
    m, v = known_mean_posterior(np.full((400, 6), 2.0), 2 * means + np.sqrt(2) * noise, pv, 1.0)
    by_mean = conditional_failure(m, v, m.argmax(axis=1))
    assert np.all(t.failure_runs <= by_mean + 1e-12) and t.failure_runs.mean() < by_mean.mean()


def test_the_cli_prints_the_exponents_of_a_stored_study(tiny, capsys):
    from rue_verify.cli import main
    assert main(["rates", "--show", str(tiny[0]), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = out["exponents"]
    assert {(r["setting"], r["algorithm"]) for r in rows if r["variable"] == "n"} >= {("base", "rue"), ("K20", "rue")}
    k = [r for r in rows if r["variable"] == "K" and r["algorithm"] == "rue"]
    assert k and all(r["low"] <= r["exponent"] <= r["high"] and r["range"] == [4, 20] for r in k)
    assert main(["rates", "--show", str(tiny[0] / "nothing")]) == 2
    assert "--show:" in capsys.readouterr().err


def test_a_study_of_another_form_is_refused_with_one_line(tmp_path, capsys):
    from rue_verify.cli import main
    (tmp_path / "results.csv").write_text("key,setting,n\nx,base,100\n")
    assert main(["rates", "--show", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not the results of" in err and err.count("\n") == 1


def _set_field(text: str, column: str, value: str) -> str:
    """`text` (a results.csv) with `column` of its first row set to `value`."""
    import csv
    import io
    rows = list(csv.reader(io.StringIO(text)))
    rows[1][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


@pytest.mark.parametrize("edit,said", [
    (lambda text, man: (text[:text.index("\n", text.index("\n") + 1) + 40], man), "fewer fields than the header"),
    (lambda text, man: (_set_field(text, "K", "abc"), man), "K = 'abc' is not a number"),
    (lambda text, man: (_set_field(text, "failure_sums", "[1, 2"), man), "failure_sums = '[1, 2' is not JSON"),
    (lambda text, man: (text.rstrip("\n") + "\n" + "garbage," * 3 + "\n", man), "line"),
    (lambda text, man: (text, man[: len(man) // 2]), "manifest.json is not JSON"),
])
def test_a_study_cut_short_or_edited_is_one_line_naming_the_file_and_line(tiny, tmp_path, capsys, edit, said):
    """A row cut short, a value that is not a number, a garbage row, a manifest cut in half: one line
    naming the file (and the line), never a traceback from whatever reads the value later."""
    import shutil

    from rue_verify.cli import main
    d = tmp_path / "study"
    shutil.copytree(tiny[0], d)
    text, man = edit((d / "results.csv").read_text(), (d / "manifest.json").read_text())
    (d / "results.csv").write_text(text)
    (d / "manifest.json").write_text(man)
    assert main(["rates", "--show", str(d)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --show:") and str(d) in err[0], err
    assert said is None or said in err[0], err


def test_the_shipped_study_is_the_paper_grid_found_through_the_package():
    """The study the ledger reads by default is the paper scale's grid and seed, read with
    importlib.resources (so a wheel finds it), and says what produced it."""
    res = rates.load()
    seed = res.manifest["seed"]
    assert res.source == rates.SHIPPED and res.manifest["scale"] == "paper"
    assert [r["key"] for r in res.rows] == [t.key for t in grid.tasks("paper")]
    assert res.manifest["definition"] == grid.definition_hash(grid.tasks("paper"), seed)
    assert "paper-scale rate study shipped with the package" in res.description


def test_the_oracle_is_computed_given_the_means_not_simulated():
    """The oracle's values per run are its exact error given the run's means (quadrature), so no
    noise is shared across budgets: at every budget they equal `oracle_given_means` of the same
    instances, and under a common prior the failure and regret of K = 2 are the closed forms
    Phi(-|d| / (s sqrt 2)) and |d| times it, run by run."""
    from scipy.stats import norm

    from bounds.lower import oracle_given_means
    from rue_verify.rates.truth import instances
    for n in (100, 1000, 10_000):
        t = oracle_truth(4, n, 0.5, 2.0, 300, 9, tilt=True)
        means, _, w = instances(4, 0.5, 2.0, 300, 9, tilt=True)
        f, r = oracle_given_means(means, n, 2.0)
        assert np.allclose(t.failure_runs, w * f, rtol=1e-12, atol=0) and \
            np.allclose(t.regret_runs, w * r, rtol=1e-12, atol=0)
        two, _, _ = instances(2, 1.0, 1.0, 300, 9)
        t2 = oracle_truth(2, n, 1.0, 1.0, 300, 9)
        d = np.abs(two[:, 0] - two[:, 1])
        closed = norm.cdf(-d / np.sqrt(2.0 / n))
        assert np.allclose(t2.failure_runs, closed, rtol=1e-11, atol=1e-16)     # arms left out: below 1e-17
        assert np.allclose(t2.regret_runs, d * closed, rtol=1e-11, atol=1e-16)


def test_the_oracle_sits_at_the_predicted_share_of_the_limit():
    """At a large budget the oracle's constants are the limit's over sqrt(2) (failure) and over 2
    (regret) (`bounds.limit.ORACLE_FACTOR`, derived there, not measured): sqrt(n) e_n / L_e and
    n sr_n / L_r, estimated over near-tie-sampled instances, hold those shares in their intervals
    at level 1 - 1e-6."""
    from bounds import limit
    n, K, s0, s2 = 10 ** 6, 10, 1.0, 1.0
    t = oracle_truth(K, n, s0, s2, 600_000, 11, level=1 - 1e-6, tilt=True)
    L = limit.limit_constants(K, s0, s2)
    for q, iv, scale in (("failure", t.failure, math.sqrt(n) / L.failure), ("regret", t.regret, n / L.regret)):
        low, high = iv.low * scale, iv.high * scale
        assert low <= limit.ORACLE_FACTOR[q] <= high, (q, low, high)
        assert high - low < 0.1 * limit.ORACLE_FACTOR[q]        # an interval that could have missed


def test_the_oracle_estimate_is_the_two_armed_closed_form():
    """`oracle_truth` (exact conditioning, K arms) at K = 2 against `bounds.lower.oracle_two_arms`:
    the closed form lies in the estimate's interval at level 1 - 1e-6, at several budgets and
    variances."""
    from bounds import lower
    for n, s0, nu in ((10, 1.0, 1.0), (200, 0.5, 2.0), (5000, 2.0, 0.5)):
        t = oracle_truth(2, n, s0, nu, 20_000, 5, level=1 - 1e-6)
        exact = lower.oracle_two_arms(n, s0, nu)
        assert t.failure.low <= exact <= t.failure.high, (n, s0, nu, exact, t.failure)



def test_a_sweep_of_little_work_runs_in_this_process_unless_told(tmp_path, monkeypatch):
    """Below `sweep.POOL_FROM` the default is this process (starting a process per core costs more than
    such a sweep); an explicit `workers` is kept."""
    from rue_verify.studies import sweep
    from rue_verify.verify import parallel
    grid.SCALES["tiny"] = TINY
    assert sum(t.cost for t in grid.tasks(TINY)) < sweep.POOL_FROM
    asked, real = [], parallel.completed

    def spy(tasks, workers=None, *args, **kw):
        asked.append(workers)
        return real(tasks, 1, *args, **kw)
    monkeypatch.setattr(parallel, "completed", spy)
    rates.run("tiny", tmp_path / "default", seed=5, progress=False)
    rates.run("tiny", tmp_path / "two", seed=5, progress=False, workers=2)
    assert asked == [1, 2]
