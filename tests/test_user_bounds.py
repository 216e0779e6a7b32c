"""Your own bound, checked like the paper's (`rue-verify check-bound`): a wrong bound in a file
outside the package is refuted with witnesses that recompute, a true loose one holds with its
tightness and exponent in n, and a bound that cannot be judged is refused with one line naming the
file, the function and what is wrong."""

import json
import textwrap

import pytest

from rue_verify.cli import main
from rue_verify.ledger import Mode
from rue_verify.user_bounds import check_bound, recompute

SMALL = Mode("test", search_points=6, search_runs=100, confirm_runs=1000)

BOUNDS = '''
import math


def too_small(K, n, sigma0_sq, sigma_sq):
    return 0.01 * math.sqrt(K / n)


def loose(K, n, sigma0_sq, sigma_sq):
    return min(1.0, 3 * math.sqrt(K * math.log(n) / n))


def two_args(K, n):
    return 0.5


def negative(K, n, sigma0_sq, sigma_sq):
    return -1.0 if n > 500 else 0.5


def text(K, n, sigma0_sq, sigma_sq):
    return "small"
'''


@pytest.fixture(scope="module")
def bounds_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("mine") / "mybounds.py"
    path.write_text(textwrap.dedent(BOUNDS))
    return path


def test_a_wrong_bound_is_refuted_with_witnesses_that_recompute(bounds_file):
    r = check_bound(f"{bounds_file}:too_small", "failure", "rue", mode=SMALL)
    assert r.verdict == "refuted"
    refuted = [f for f in r.findings if f.verdict == "refuted" and f.kind == "computed"]
    assert len(refuted) == 2                                  # against the study's truth, and by the search
    for f in refuted:
        w = f.witness
        assert {"K", "n", "sigma0_sq", "sigma_sq"} <= set(w["params"])
        lhs, rhs = recompute(w)
        assert lhs == pytest.approx(w["lhs"], rel=1e-9) and rhs == pytest.approx(w["rhs"], rel=1e-9)
        assert lhs > rhs


def test_a_true_loose_bound_holds_with_its_tightness_and_exponent(bounds_file):
    r = check_bound(f"{bounds_file}:loose", "failure", "rue", mode=SMALL)
    assert r.verdict == "holds", [(f.verdict, f.detail) for f in r.findings]
    tight = next(f for f in r.findings if f.kind == "tightness")
    assert tight.witness["ratio"] > 1 and tight.witness["exponent"]["variable"] == "n"
    assert tight.witness["exponent"]["bound"] > tight.witness["exponent"]["measured"]     # it decays more slowly


def test_a_wrong_regret_bound_is_refuted_by_the_search_too(bounds_file):
    r = check_bound(f"{bounds_file}:too_small", "regret", "rue", mode=SMALL)
    searched = r.findings[-1]
    assert searched.verdict == "refuted" and searched.witness["params"]["quantity"] == "regret"
    lhs, rhs = recompute(searched.witness)
    assert lhs == pytest.approx(searched.witness["lhs"], rel=1e-9) and lhs > rhs


def test_the_command_prints_a_claim_and_refuses_what_it_cannot_judge(bounds_file, capsys):
    assert main(["check-bound", f"{bounds_file}:loose", "--quantity", "regret", "--json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "holds" and {"findings", "repairs", "statement"} <= set(out)
    for name, said in (("two_args", "must take exactly (K, n, sigma0_sq, sigma_sq)"), ("negative", "returned -1.0 at"),
                       ("text", "not a number"), ("missing", "has no function missing")):
        assert main(["check-bound", f"{bounds_file}:{name}", "-q"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(bounds_file) in err[0] and said in err[0], err
    assert sorted(p.name for p in bounds_file.parent.iterdir()) == ["mybounds.py"]      # nothing written beside it


def test_the_landscape_draws_your_bound_beside_the_papers(bounds_file, tmp_path):
    from rue_verify.plots.rates import landscape_table
    from rue_verify.plots.registry import FAMILIES, save
    t = landscape_table(None, (("failure", f"{bounds_file}:loose"),))
    mine = t.where(series="your bound loose")
    assert mine and {r["kind"] for r in mine} == {"bound"} and len({r["K"] for r in mine}) >= 2
    assert len({r["quantity"] for r in mine}) == 1                   # drawn on the failure panels only
    paths, _ = save(FAMILIES["landscape"], t, tmp_path / "landscape")
    assert all((tmp_path / f"landscape.{e}").stat().st_size > 1000 for e in ("png", "svg", "csv"))
    assert "your bound loose" in (tmp_path / "landscape.csv").read_text()


def test_the_headline_witness_is_the_largest_ratio_and_tightness_skips_capped_points(bounds_file):
    """The refuted bound's witness is the point where the truth's lower confidence limit is the
    largest multiple of the bound (not the largest absolute excess, always the smallest n for a
    regret bound), with the excess beside it; the tightness of a probability bound is not measured
    where the bound is capped at 1; the domain gives each setting its own budgets."""
    from rue_verify.user_bounds import LEVEL, _truth_points, evaluate, load_bound
    r = check_bound(f"{bounds_file}:too_small", "regret", "rue", mode=SMALL, search_runs=False)
    w = next(f for f in r.findings if f.verdict == "refuted").witness
    fn = load_bound(f"{bounds_file}:too_small")
    _, curves = _truth_points("regret", "rue", None)
    ratios = [c.interval("regret", j, LEVEL).low / evaluate(fn, "x", s.K, int(n), s.sigma0_sq, s.sigma_sq)
              for _, s, c in curves for j, n in enumerate(c.n)]
    assert w["ratio"] == pytest.approx(max(ratios)) and w["excess"] == pytest.approx(w["lhs"] - w["rhs"])
    assert w["params"]["n"] != min(int(c.n.min()) for _, _, c in curves)          # not the smallest budget
    loose = check_bound(f"{bounds_file}:loose", "failure", "rue", mode=SMALL, search_runs=False)
    tight = next(f for f in loose.findings if f.kind == "tightness").witness
    p = tight["params"]
    assert evaluate(load_bound(f"{bounds_file}:loose"), "x", p["K"], p["n"], p["sigma0_sq"], p["sigma_sq"]) < 1
    for name, s, c in curves:
        assert f"{name} (K = {s.K}, sigma0^2 = {s.sigma0_sq:g}, sigma^2 = {s.sigma_sq:g}, n in {int(c.n.min())}-" \
               f"{int(c.n.max())})" in loose.findings[0].domain


def test_the_landscape_marks_broken_points_and_stops_probabilities_at_one(bounds_file):
    """A bound the truth is significantly above is marked at every such budget; a true one nowhere;
    the failure panels stop at 1 (a bound above 1 is drawn clipped and says so); every legend sits
    under its panel, where it hides no curve."""
    import matplotlib
    matplotlib.use("Agg")
    from rue_verify.plots.rates import draw_landscape, landscape_table
    t = landscape_table(None, (("failure", f"{bounds_file}:too_small"), ("failure", f"{bounds_file}:loose")))
    assert all(r["broken"] for r in t.where(series="your bound too_small"))
    assert not any(r["broken"] for r in t.where(series="your bound loose"))
    fig = draw_landscape(t)
    failure_panels = [a for a in fig.axes if a.get_title().startswith("failure probability, K")]
    assert failure_panels and all(a.get_ylim()[1] <= 1.5 for a in failure_panels)
    labels = [txt.get_text() for a in failure_panels for txt in a.get_legend().get_texts()]
    assert any("clipped at 1" in s for s in labels) and any("your bound too_small: broken" in s for s in labels)
    fig.canvas.draw()
    for a in fig.axes:
        assert a.get_legend().get_window_extent().y1 <= a.get_window_extent().y0      # under the panel
