"""The ledger's second pass: every witness of every claim recomputed from `bounds` and simulation,
each claim's quick-mode verdict pinned, the search machinery tested on planted problems, and every
repaired statement checked over Hypothesis-drawn parameters."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bounds import gap
from bounds import repaired as rp
from bounds import section2 as s2
from bounds import theorems as th
from bounds.estimation import posterior_variance_formula
from rue_verify.ledger import REGISTRY, Mode, run_ledger
from rue_verify.ledger.core import Dim, minimize_margin
from rue_verify.ledger.montecarlo import Point, rate_score, search

PINNED = Path(__file__).with_name("verdicts.json")


@pytest.fixture(scope="module")
def ledger(quick_ledger):
    return {r.id: r for r in quick_ledger}          # on the shipped paper-scale results


def test_quick_mode_verdicts_are_pinned(ledger):
    """A change that moves any claim's verdict (or a repair's) shows up here; regenerate the file with
    `python3 -m tests.ledger.test_second_pass` after checking the move is intended."""
    got = {cid: {"verdict": r.verdict, "repairs": [x.verdict for x in r.repairs]} for cid, r in ledger.items()}
    assert got == json.loads(PINNED.read_text())


def test_every_witness_recomputes(ledger):
    """Both sides of every witness with numeric sides, computed again from scratch by the recomputation
    its claim declares (from `bounds`, or by rerunning its simulation from its seed key)."""
    seen = set()
    for cid, r in ledger.items():
        for f in r.findings + [e for x in r.repairs for e in x.findings]:
            w = f.witness
            if not w or not all(isinstance(w.get(s), (int, float)) for s in ("lhs", "rhs")):
                continue
            lhs, rhs = REGISTRY[cid].recompute_witness(w)
            assert lhs == pytest.approx(w["lhs"], rel=1e-6, abs=1e-300), (cid, w)
            assert rhs == pytest.approx(w["rhs"], rel=1e-6, abs=1e-300), (cid, w)
            if f.verdict in ("refuted", "conditional") and w["relation"] == "<=":
                assert lhs > rhs, (cid, w)
            elif f.verdict in ("refuted", "conditional") and w["relation"] == ">=":
                assert lhs < rhs, (cid, w)
            seen.add(cid)
    assert len(seen) >= 18      # a guard against this test silently skipping every witness


def test_every_refuted_undefined_or_inconsistent_claim_has_a_repair_or_says_why(ledger):
    """What a claim's declaration says: repairs, or a reason for having none (and never both)."""
    for cid, r in ledger.items():
        c = REGISTRY[cid]
        assert not (c.repairs and c.no_repair), cid
        if r.verdict in ("refuted", "undefined", "inconsistent"):
            assert r.repairs or c.no_repair, cid


def test_repairs_hold_in_quick_mode(ledger):
    for cid, r in ledger.items():
        for x in r.repairs:
            assert x.verdict == "holds", (cid, x.statement, [f.detail for f in x.findings])


# ---------------------------------------------------------------- planted problems
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


def test_margin_search_finds_a_planted_corner():
    space = {"a": Dim(1e-3, 1e3), "b": Dim(1e-3, 1e3)}
    r = minimize_margin(lambda p: -1.0 if p["a"] > 700 and p["b"] < 2e-3 else 1.0, space, Mode(seed=9), "planted",
                        random=3000)
    assert r.margin < 0 and r.params["a"] > 700


# ---------------------------------------------------------------- the repairs, over drawn parameters
@given(st.integers(2, 3000), st.floats(1e-4, 8.0))
def test_repaired_gap_constant_bounds_e_star(K, alpha):
    assert gap.e_star(alpha, K) <= float(rp.theorem_3_1_repaired(alpha, K)) * (1 + 1e-9)


@given(st.lists(st.integers(1, 5000), min_size=2, max_size=25), st.floats(1e-3, 1e3), st.floats(1e-3, 1e3))
def test_repaired_tau_lower_side(T, s0, s):
    T = np.asarray(T, float)
    tau = np.asarray(posterior_variance_formula(T, s0, s), float)
    assert np.all(rp.tau_sq_lower_repaired(T, T.size, s0, s) <= tau * (1 + 1e-12))


@given(st.integers(2, 10 ** 6), st.floats(1e-4, 1e4), st.floats(1e-4, 1e4))
def test_repaired_eta_condition(K, s0, s):
    assert float(rp.eta_condition_repaired(K, s0, s)) <= 0


@given(st.lists(st.integers(2, 10 ** 4), min_size=2, max_size=30), st.floats(1e-3, 1e3), st.floats(1e-3, 1e3),
       st.floats(1e-3, 1.0))
def test_repaired_nu_t(T, s0, s, frac):
    nu = s * frac
    assert float(th.nu_t([float(t) for t in T], s0, s, nu)) <= float(rp.nu_t_upper_repaired(s0, nu)) * (1 + 1e-12)


@given(st.lists(st.floats(1e-3, 1.0), min_size=1, max_size=40))
def test_repaired_h2_chain(gaps):
    mu = np.r_[1.0, 1.0 - np.asarray(gaps)]
    H, H2 = s2.H_complexity(mu), s2.H_2(mu)
    K = mu.size
    assert H2 <= H * (1 + 1e-12) and H <= rp.harmonic_log_bound_repaired(K) * H2 * (1 + 1e-12)
    assert rp.harmonic_log_bound_repaired(K) <= math.log(2 * K)


@given(st.integers(10, 10 ** 7), st.integers(2, 40), st.floats(1e-3, 1.0), st.lists(st.floats(1e-3, 1.0),
                                                                                       min_size=39, max_size=39))
def test_repaired_lower_chain(n, K, frac, rest):
    p = 0.2
    d = float(rp.ucbe_lower_chain_threshold_repaired(n, K, p)) * frac
    mu = np.r_[1.0, 1.0 - np.maximum(np.asarray(rest[:K - 1]), d)]
    mu[1] = 1.0 - d
    H, H2 = s2.H_complexity(mu), s2.H_2(mu)
    first, middle = -5 * n / (p * (1 - p) * H2), -5 * math.log(2 * K) * n / (p * (1 - p) * H)
    assert first >= middle * (1 + 1e-12) and middle >= -0.5 * math.log(n) * (1 + 1e-12)


@given(st.integers(3, 10 ** 8), st.floats(1e-3, 1e2), st.floats(0.0, 1.0))
def test_repaired_full_alpha(n, s, u):
    L = math.log(n)
    lo = math.sqrt(3) * s / L
    if lo > s:
        return
    alpha = lo + u * (s - lo)
    lhs, rhs = s2.feller_small_gap_form(n, alpha, s), s2.full_alpha_rhs(n)
    assert lhs >= rhs - 1e-12 * abs(rhs)


@given(st.integers(2, 200), st.floats(1e-3, 1e3), st.floats(1e-6, 1.0), st.floats(1e-4, 1.0), st.floats(1e-2, 1e2))
def test_repaired_theorem_is_scale_free_and_defined(K, s0, ratio, d, c):
    n = 4 * K + 1
    a = float(rp.theorem_5_1_repaired(K, n, s0, ratio * s0, d))
    b = float(rp.theorem_5_1_repaired(K, n, c * s0, c * ratio * s0, d))
    assert math.isfinite(a) and a == pytest.approx(b, rel=1e-9)


@given(st.integers(2, 1000), st.floats(1e-3, 10.0), st.floats(1e-3, 10.0))
def test_repaired_tail_e3k_bounds_the_exact_tail(T, x, nu):
    from scipy import special
    assert 2 * special.ndtr(-x * math.sqrt(T / nu)) <= float(rp.e3k_bound_repaired(T, x, nu)) * (1 + 1e-12)


if __name__ == "__main__":        # regenerate the pinned verdicts
    out = {r.id: {"verdict": r.verdict, "repairs": [x.verdict for x in r.repairs]} for r in run_ledger(Mode())}
    PINNED.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {PINNED}")
