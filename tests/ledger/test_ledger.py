"""The claims ledger: schema, verdict logic, and every witness recomputed from scratch."""

import numpy as np
import pytest

from bounds import gap
from bounds import section2 as s2
from bounds import theorems as th
from bounds.estimation import posterior_variance_formula, tau_sq_lower, tau_sq_upper
from rue_verify.ledger import Finding, Mode, run_ledger
from rue_verify.ledger.core import overall

SMALL = Mode("test", K_max=400, random_samples=300, sim_runs=60, seed=3)


def test_overall_is_most_severe():
    fs = [Finding("holds", "a", "b"), Finding("vacuous", "a", "b"), Finding("undefined", "a", "b")]
    assert overall(fs) == "undefined"
    with pytest.raises(ValueError):
        Finding("maybe", "a", "b")


def _recompute(cid, w):
    """Both sides of a witness, recomputed from bounds' formulas (not from the ledger's numbers)."""
    p = w["params"]
    if cid in ("LEM-TAU-LOWER", "LEM-TAU-UPPER"):
        T = np.asarray(p["T"], float)
        tau = np.asarray(posterior_variance_formula(T, p["sigma0_sq"], p["sigma_sq"]))[p["k"]]
        if cid == "LEM-TAU-LOWER":
            return float(tau_sq_lower(T, p["K"], p["sigma0_sq"], p["sigma_sq"])[p["k"]]), float(tau)
        return float(tau), float(tau_sq_upper(T, p["K"], p["sigma0_sq"], p["sigma_sq"])[p["k"]])
    if cid == "THM-GAP":
        return float(gap.e_star_mp(p["alpha"], p["K"], p["sigma0_sq"])), float(gap.c_K(p["K"])) * p["alpha"]
    if cid == "SEC2-LOWER-H2":
        mu = np.r_[1.0, 1.0 - np.delete(np.asarray(p["Delta"]), 0)]
        return s2.H_complexity(mu), s2.H_2(mu)
    if cid == "SEC2-FULL-ALPHA":
        return (float(s2.feller_small_gap_form(p["n"], p["alpha"], p["sigma_sq"])),
                float(s2.full_alpha_rhs(p["n"])))
    if cid == "PF-ETA-COND":
        return float(th.eta_condition(p["K"], p["sigma0_sq"], p["sigma_sq"])), 0.0
    if cid == "PF-NU-T":
        return (float(th.nu_t([float(t) for t in p["T"]], p["sigma0_sq"], p["sigma_sq"], p["nu_sq"])),
                float(th.nu_t_claimed_lower(p["K"], p["sigma0_sq"], p["nu_sq"])))
    return None


CHECKED = ["LEM-TAU-LOWER", "LEM-TAU-UPPER", "THM-GAP", "SEC2-LOWER-H2", "SEC2-FULL-ALPHA", "PF-ETA-COND", "PF-NU-T"]


@pytest.fixture(scope="module")
def results():
    return {r.id: r for r in run_ledger(SMALL, CHECKED)}


@pytest.mark.parametrize("cid", CHECKED)
def test_witnesses_recompute(results, cid):
    r = results[cid]
    seen = 0
    for f in r.findings:
        w = f.witness
        if not w or f.verdict not in ("refuted", "conditional") or w.get("lhs") is None:
            continue
        got = _recompute(cid, w)
        if got is None:
            continue
        lhs, rhs = got
        assert lhs == pytest.approx(w["lhs"], rel=1e-6) and rhs == pytest.approx(w["rhs"], rel=1e-6)
        if w["relation"] == "<=":
            assert lhs > rhs
        elif w["relation"] == ">=":
            assert lhs < rhs
        seen += 1
    assert seen >= 1, f"{cid}: no recomputable witness"


def test_summary_prose_cannot_contradict_the_computed_verdict():
    from rue_verify.ledger.core import Claim, Expect, run_claim
    fs = [Finding("refuted", "K = 3", "found a witness")]
    kept = run_claim(Claim("X", "loc", "stmt", lambda m: (Expect("it holds", "refuted"), fs)), SMALL)
    assert kept.summary == "it holds"
    replaced = run_claim(Claim("X", "loc", "stmt", lambda m: (Expect("it holds", "holds"), fs)), SMALL)
    assert "it holds" not in replaced.summary and "refuted (K = 3)" in replaced.summary
