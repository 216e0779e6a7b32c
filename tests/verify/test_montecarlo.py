"""rue_verify.verify.montecarlo: the adversarial Monte Carlo search finds a violation planted in a
corner, and invents none where there is none."""

from rue_verify.verify import Mode
from rue_verify.verify.montecarlo import Point, rate_score, search
from rue_verify.verify.search import Dim


def test_monte_carlo_search_finds_a_planted_corner():
    """Pr(event) = 0.05 everywhere; the 'bound' is 0.2 except in the corner x, y > 0.9 (1% of the
    square), where it is 0.01: the search must confirm a violation there."""
    space = {"x": Dim(0.0, 1.0, "lin"), "y": Dim(0.0, 1.0, "lin")}

    def bound(p):
        return 0.01 if p["x"] > 0.9 and p["y"] > 0.9 else 0.2

    def sim(p, runs, rng):
        return Point(p, runs, int(rng.binomial(runs, 0.05)))
    s = search("planted", space, sim, rate_score, Mode(seed=7), bound=bound, grid_per_dim=5)
    bad = s.violation()
    assert bad is not None and bad.params["x"] > 0.9 and bad.params["y"] > 0.9


def test_monte_carlo_search_does_not_invent_violations():
    space = {"x": Dim(0.0, 1.0, "lin")}
    s = search("planted-null", space, lambda p, R, g: Point(p, R, int(g.binomial(R, 0.05))), rate_score,
               Mode(seed=8), bound=lambda p: 0.06)
    assert s.violation() is None and s.confirmed


def test_a_bound_no_simulation_of_the_size_run_could_refute_reads_untested_not_holds():
    """At every confirmed point the bound is far above the rate's exact upper limit: the search could not
    have failed, so the finding is 'untested'; the claim reads so unless another finding decides it."""
    from rue_verify.verify import Finding, overall
    from rue_verify.verify.montecarlo import Point, Search, rate_finding
    from rue_verify.verify.search import Dim
    s = Search("toy", {"x": Dim(1.0, 2.0)}, screened=3)
    s.confirmed = [Point({"x": 1.0}, 10_000, 0, bound=0.9, key=(1,))]     # upper limit ~1e-3, bound 0.9
    loose = rate_finding(s, "the rate", "the bound")
    assert loose.verdict == "untested" and "not a test" in loose.detail
    assert overall([loose]) == "untested"
    assert overall([loose, Finding("holds", "d", "a proof", certified=True)]) == "holds"
    assert overall([loose, Finding("refuted", "d", "x")]) == "refuted"
    s.confirmed = [Point({"x": 1.0}, 10_000, 0, bound=2e-3, key=(1,))]    # tight enough to have failed
    assert rate_finding(s, "the rate", "the bound").verdict == "holds"
