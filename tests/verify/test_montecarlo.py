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
