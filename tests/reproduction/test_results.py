"""rue_verify.reproduction.results: the shipped results are found through the package (not the source
tree), say what produced them, and a directory without results is refused."""

import shutil

import pytest

from rue_verify.reproduction import SHIPPED, load
from rue_verify.reproduction.grid import PAPER, grid


def test_the_shipped_results_are_the_paper_grid():
    res = load()
    assert res.source == SHIPPED and res.manifest["scale"] == "paper"
    keys = [r["key"] for r in res.rows]
    conventions = tuple(res.manifest["conventions"])
    peers = grid(PAPER, ("fixed", "random", "arms"), conventions, algorithms=("bayes_elim", "prior_alloc"))
    assert len(keys) == len(set(keys))          # the two shipped parts do not overlap
    assert set(keys) == {t.key for t in grid(PAPER, conventions=conventions)} | {t.key for t in peers}
    assert "paper-scale results shipped with the package" in res.description


def test_a_directory_gives_the_same_rows_and_names_itself(tmp_path):
    from importlib import resources
    src = resources.files("rue_verify.reproduction").joinpath("data", "paper")
    for name in ("results.csv", "manifest.json"):
        with resources.as_file(src.joinpath(name)) as f:
            shutil.copy(f, tmp_path / name)
    res = load(tmp_path)
    assert res.rows == tuple(r for r in load().rows if r["algorithm"] not in ("bayes_elim", "prior_alloc"))
    assert str(tmp_path) in res.description


def test_missing_studies_and_missing_results_are_errors(tmp_path):
    with pytest.raises(ValueError, match="holds no results.csv"):
        load(tmp_path)
    res = load()
    with pytest.raises(ValueError, match="hold no rows of the nonexistent study"):
        res.require("fixed", "nonexistent")
