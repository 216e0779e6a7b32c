"""rue_verify.reproduction.grid: the grid holds every setting of Section 6 and its appendix, under every
reading, and nothing that is not an experiment of the paper; bad definitions are refused."""

import math

import numpy as np
import pytest

from rue_verify.reproduction.grid import PAPER, QUICK, Scale, execute, fixed_budgets, grid, instance_means
from simulate.environments import complexity_H, fixed_means


def test_paper_grid_is_the_papers_design():
    tasks = grid(PAPER)
    fixed = [t for t in tasks if t.study == "fixed"]
    assert {t.setup for t in fixed} == {"F1", "F2", "F3", "F4", "F5", "F6"} and {t.K for t in fixed} == {20}
    assert {t.algorithm for t in fixed} == {"rue", "ucbe", "sr", "sh", "ttts"}
    assert all(t.runs == 1000 for t in fixed)
    for t in fixed:                                  # ceil(H/2), ceil(H), 2 ceil(H) of that reading's H
        Hc = math.ceil(complexity_H(fixed_means(t.setup, 20), t.H_convention))
        assert t.n == {"H/2": math.ceil(Hc / 2), "H": Hc, "2H": 2 * Hc}[t.budget]
    rnd = [t for t in tasks if t.study == "random"]
    assert {(t.setup, t.budget, t.n) for t in rnd} >= {("R1", "N/4", 1250), ("R2", "N", 5000), ("R3", "N/2", 6000)}
    assert all(t.instances == 50 for t in rnd)
    assert {t.normal_scale for t in rnd if t.setup != "R3"} == {"variance", "sd"}
    arms = [t for t in tasks if t.study == "arms"]
    assert {t.K for t in arms} == {40, 80} and max(t.n for t in arms) == 400_000
    two = [t for t in tasks if t.algorithm == "two-stage"]
    assert {dict(t.params)["q"] for t in two} == {round(0.1 * i, 1) for i in range(1, 10)}
    assert {t.setup for t in two} == {"F4", "R2"}


def test_readings_and_conventions_become_parameters():
    tasks = grid(QUICK, conventions=("authors",))
    assert {dict(t.params)["tie_rule"] for t in tasks if t.algorithm == "sh"} == {"lowest-index"}
    assert {dict(t.params)["a_form"] for t in tasks if t.algorithm == "ucbe" and t.study == "random"} == {"cn/H", "c"}
    assert {t.label for t in tasks if t.algorithm == "ucbe"} == {"ucbe", "ucbe [a = 2]"}


@pytest.mark.parametrize("kw,match", [({"studies": ("fixed", "figure9")}, "studies must be"),
                                      ({"studies": ()}, "studies must be"),
                                      ({"conventions": ("mine",)}, "conventions must be"),
                                      ({"conventions": ()}, "conventions must be")])
def test_bad_definitions_are_refused(kw, match):
    with pytest.raises(ValueError, match=match):
        grid(QUICK, **kw)


def test_a_budget_below_an_algorithms_minimum_is_refused():
    from rue_verify.reproduction.grid import _task
    with pytest.raises(ValueError, match="budget: rue needs n >= 40"):
        _task("fixed", "F1", 20, "H", 30, "rue", {}, 1, 10)


def test_instances_are_shared_across_budgets_and_algorithms_and_differ_by_reading():
    tasks = [t for t in grid(QUICK, studies=("random",)) if t.setup == "R1"]
    a = instance_means(tasks[0], 4)
    assert all(np.array_equal(instance_means(t, 4), a) for t in tasks if t.normal_scale == tasks[0].normal_scale)
    other = next(t for t in tasks if t.normal_scale != tasks[0].normal_scale)
    assert not np.array_equal(instance_means(other, 4), a)


def test_a_task_gives_the_same_row_every_time():
    t = grid(Scale("t", 10, 2, 3, 2, 4, 2), studies=("fixed",))[7]
    a, b = execute(t, 9), execute(t, 9)
    a.pop("wall_seconds"), b.pop("wall_seconds")
    assert a == b and a["seed"] == 9


def test_fixed_budgets_cap():
    b = fixed_budgets("F4", 80, "suboptimal", 400_000)
    assert b["2H"] == 400_000 and b["H"] < 400_000


def test_the_cheapest_shipped_row_of_every_algorithm_recomputes_to_the_bit():
    """The shipped paper-scale rows are what this tree computes: for each algorithm, its cheapest shipped
    row run again gives the same failures, per-run failure bits and simple regret. (A change to RUE's
    kernel in issue 51 moved 12 of its rows by a failure or two, unseen until the grid was rerun.)"""
    import csv
    from importlib import resources
    path = resources.files("rue_verify.reproduction").joinpath("data/paper/results.csv")
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    tasks = {t.key: t for t in grid(PAPER)}
    cheapest = {}
    for r in rows:
        if r["algorithm"] not in cheapest or float(r["wall_seconds"]) < float(cheapest[r["algorithm"]]["wall_seconds"]):
            cheapest[r["algorithm"]] = r
    assert {"rue", "ucbe", "sr", "sh", "ttts"} <= set(cheapest)
    for alg, r in cheapest.items():
        got = execute(tasks[r["key"]], int(r["seed"]))
        for col in ("failures", "failure_bits", "simple_regret"):
            assert str(got[col]) == r[col] or float(got[col]) == float(r[col]), (alg, r["key"], col)
