"""The adversarial searches of Section 5's proof: the parameter spaces, and simulators of each event
the proof bounds, drawn from the model the paper assumes (mu_k ~ N(0, sigma0^2), Gaussian rewards
of variance nu^2 = delta sigma^2, RUE with the known sigma0^2 and sigma^2).

Spaces are scale-aware: e_n and the event E do not change when sigma0^2, sigma^2 and nu^2 are all
multiplied by one constant, but the paper's bounds do, so sigma0^2 is searched as well as the ratio
sigma^2 / sigma0^2. delta ranges over (0, 1] (the theorems' hypothesis); a separate search covers
the misspecified delta > 1.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import special

from bounds import theorems as th
from bounds.estimation import shrinkage
from simulate.proofs.tracked import RUEResult, tracked_rue_runs
from simulate.runner import rue_under_the_model

from ..verify import Finding, Mode, from_count, from_value, witness
from ..verify.montecarlo import Point, Search, rate_score, search
from ..verify.search import Dim
from ..verify.witnesses import register_replay

#: the tracked simulator's runs per point, in multiples of the mode's: it is compiled
#: (`simulate.proofs.tracked_kernel`), about ten times the numpy loop's speed, so it screens and confirms five times
#: the runs of the other searches at about half their cost per run
TRACKED_RUNS = 5

#: the tracked simulator's space (every round checked, so n stays moderate)
TRACKED = {"K": Dim(2, 40, integer=True), "n": Dim(40, 1200, integer=True), "sigma0_sq": Dim(1e-2, 1e2),
           "ratio": Dim(1e-4, 10.0), "delta": Dim(1e-4, 1.0, scale="log")}
MISSPECIFIED = {**TRACKED, "delta": Dim(1.0, 20.0)}


def model(p: dict) -> tuple[int, int, float, float, float]:
    """(K, n, sigma0^2, sigma^2, nu^2) of a search point."""
    s0 = p["sigma0_sq"]
    s = s0 * p["ratio"]
    return p["K"], p["n"], s0, s, p["delta"] * s


def _key(rng: np.random.Generator) -> tuple:
    ss = rng.bit_generator.seed_seq
    return (ss.entropy, tuple(ss.spawn_key))


@lru_cache(maxsize=512)
def _tracked(K: int, n: int, s0: float, s: float, nu: float, runs: int, key: tuple) -> RUEResult:
    rng = np.random.default_rng(np.random.SeedSequence(key[0], spawn_key=key[1]))     # the stream `_key` named
    means = rng.normal(0.0, math.sqrt(s0), (runs, K))
    return tracked_rue_runs(means, n, rng, sigma0_sq=s0, sigma_sq=s, reward="gaussian", nu_sq=nu,
                            track_proof=True)


def tracked(p: dict, runs: int, rng: np.random.Generator) -> RUEResult:
    """RUE with the proof's bookkeeping at a search point (cached: several claims screen the same
    points with the same streams)."""
    return _tracked(*model(p), runs, _key(rng))


def feasible(p: dict) -> bool:
    return p["n"] > 4 * (p["K"] - 1) and p["n"] >= 2 * p["K"] + 1


#: the repaired route's inclusions: which -> (the premise, the conclusion that must follow), from a
#: run's `route` record (`simulate.proofs.tracked.RUEResult.route`)
ROUTE = {"up-rep": (lambda r: r.route["E_rep"], lambda r: ~r.route["tk_up_rep"]),
         "low-shift": (lambda r: r.route["E_rep"], lambda r: ~r.route["tk_low_shift"]),
         "gap": (lambda r: r.route["E_rep"] & r.errors, lambda r: ~r.route["gap"]),
         "E-prime": (lambda r: r.route["E_prime"], lambda r: r.route["E_rep"])}


def inclusion_point(p: dict, runs: int, rng: np.random.Generator, which: str) -> Point:
    """An inclusion on E: `observed` runs had the premise, `events` of them broke the conclusion."""
    r = tracked(p, runs, rng)
    E = r.event_E
    if which in ROUTE:
        prem, concl = (f(r) for f in ROUTE[which])
        return Point(p, runs, int((prem & ~concl).sum()), observed=int(prem.sum()))
    if which == "decomp":
        prem = E & r.errors
        bad = prem & ~r.decomp_covered
    else:
        prem = E
        bad = E & (r.tk_up_violated if which == "up" else r.tk_low_violated)
        worst = r.tk_up_worst if which == "up" else r.tk_low_worst
        on = E & np.isfinite(worst[:, 0])
        margin = float(np.max(worst[on, 0] / np.abs(worst[on, 2]))) if on.any() else None
        return Point(p, runs, int(bad.sum()), observed=int(prem.sum()), margin=margin)
    return Point(p, runs, int(bad.sum()), observed=int(prem.sum()))


def inclusion_score(pt: Point) -> float:
    """Larger nearer a counterexample: failures first, then the closest call on E (where tracked),
    then how often the premise held."""
    near = 0.0 if pt.margin is None else 1e3 * (1 + math.tanh(10 * pt.margin))
    return pt.events * 1e6 + near + pt.observed / pt.runs


def inclusion_search(which: str, mode: Mode, space: dict | None = None) -> Search:
    """Search for a run where the premise (E, or an error on E) held and the inclusion failed;
    among points without one, prefer the closest call, then those where the premise held most often."""
    name = "tracked" if space is None else "tracked-misspecified"
    return search(name, space or TRACKED, lambda p, R, g: inclusion_point(p, R, g, which),
                  inclusion_score, mode, constraint=feasible,
                  screen_runs=TRACKED_RUNS * mode.search_runs,
                  confirm_runs=TRACKED_RUNS * max(mode.search_runs, mode.confirm_runs // 4), candidates=2)


def inclusion_finding(s: Search, premise: str, conclusion: str, proven: bool, mode: Mode,
                       which: str | None = None) -> Finding:
    """The verdict of an inclusion search: a run where the premise held and the conclusion failed is a
    counterexample (no statistics needed); without one, 'holds' rests on the runs where the premise
    held, and without any such run the simulation cannot speak (unless a proof already does). For
    Lemma TwoBoundOnC's inequalities (`which` 'up'/'low') the witness names the run, the round and
    both sides."""
    pts = s.points + s.confirmed
    runs, seen, bad = sum(p.runs for p in pts), sum(p.observed for p in pts), [p for p in pts if p.events]
    if bad:
        p = max(bad, key=lambda q: q.events)
        w = witness({**p.params, "runs": p.runs, "seed_key": list(p.key)}, p.events, 0,
                    what=f"runs with {premise} and not {conclusion}")
        if which in ("up", "low"):
            r = tracked(p.params, p.runs, mode.rng(*p.key[1:]))
            viol = r.tk_up_violated if which == "up" else r.tk_low_violated
            worst = r.tk_up_worst if which == "up" else r.tk_low_worst
            i = int(np.flatnonzero(r.event_E & viol)[0])
            w = witness({**p.params, "runs": p.runs, "seed_key": list(p.key), "run": i, "round": int(worst[i, 3])},
                        float(worst[i, 1]), float(worst[i, 2]))
        return from_count(sum(q.events for q in bad), s.covered(),
                          f"{conclusion} failed in {sum(q.events for q in bad)} runs where {premise} held ({seen} such "
                          f"runs of {runs}).", witness=w)
    # evidence: runs where the premise occurred, or a proof
    return from_value(seen + int(proven), s.covered(), at_least=1, fail="inconclusive",
                      holds=f"{premise} held in {seen} of {runs} simulated runs and {conclusion} held in every one"
                      + ("" if seen else " (the premise never occurred, so the simulation is no evidence; the verdict "
                                         "rests on the proof)"),
                      fails=f"{premise} never held in {runs} simulated runs and there is no proof: no evidence")


def not_E_point(p: dict, runs: int, rng: np.random.Generator) -> Point:
    r = tracked(p, runs, rng)
    return Point(p, runs, int((~r.event_E).sum()))


def ebar_bound(p: dict) -> float:
    K, n, s0, s, _ = model(p)
    return float(sum(th.ebar_terms(K, n, s0, s, min(p["delta"], 1.0)).values()))


def not_E_search(mode: Mode) -> Search:
    """Pr(not E) against eq. decomk-v3 where that bound is below 1."""
    return search("tracked", TRACKED, not_E_point, rate_score, mode,
                  bound=ebar_bound, constraint=feasible, screen_runs=TRACKED_RUNS * mode.search_runs,
                  confirm_runs=TRACKED_RUNS * max(mode.search_runs, mode.confirm_runs // 4), candidates=8)


# ---------------------------------------------------------------- the failure rate of RUE (compiled)
THEOREM = {"K": Dim(36, 80, integer=True), "n": Dim(150, 20_000, integer=True), "sigma0_sq": Dim(1e-3, 1e3),
           "ratio": Dim(1e-6, 1.0), "delta": Dim(1e-4, 1.0)}


def rue_batch(K: int, n: int, s0: float, s: float, nu: float, runs: int, rng: np.random.Generator
              ) -> tuple[np.ndarray, np.ndarray]:
    """(means, recommended arms) of `runs` compiled RUE runs with known variances, means drawn from the
    prior N(0, sigma0^2), Gaussian rewards of variance nu^2, every stream drawn from `rng`."""
    means = rng.normal(0.0, math.sqrt(s0), (runs, K))
    seeds = rng.integers(0, 2 ** 63, (2, runs), dtype=np.uint64)
    return means, rue_under_the_model(means, n, s0, s, math.sqrt(nu), seeds[0], seeds[1])[0]


def failure_point(p: dict, runs: int, rng: np.random.Generator) -> Point:
    """RUE's failure count at a point (`rue_batch`)."""
    means, rec = rue_batch(*model(p), runs, rng)
    from simulate.runner import outcomes
    return Point(p, runs, int(outcomes(means, rec)[0].sum()))


def theorem_bound(p: dict) -> float:
    K, n, s0, s, _ = model(p)
    return float(th.theorem_5_1_bound(K, n, s0, s, p["delta"]))


def failure_search(mode: Mode, bound=theorem_bound, name: str = "theorem-5.1", space: dict | None = None) -> Search:
    """RUE's simulated e_n against a bound, where the bound is below 1."""
    return search(name, space or THEOREM, failure_point, rate_score,
                  mode, bound=bound, constraint=lambda p: p["n"] > 4 * (p["K"] - 1), candidates=60)


# ---------------------------------------------------------------- the per-round tail events, directly
TAIL = {"K": Dim(2, 1000, integer=True), "n": Dim(10, 1e6, integer=True), "sigma0_sq": Dim(1e-2, 1e2),
        "ratio": Dim(1e-3, 10.0), "delta": Dim(1e-3, 1.0), "T": Dim(2, 1000, integer=True)}
POOLED = {**TAIL, "K": Dim(2, 60, integer=True), "T_other": Dim(2, 1000, integer=True)}


def e3k_threshold(p: dict) -> float:
    """The deviation of rbar_k the event E_3k excludes, at a search point (`bounds.theorems.e3k_threshold`)."""
    K, n, s0, s, _ = model(p)
    return float(th.e3k_threshold(p["T"], K, n, s0, s))


def e3k_bound(p: dict) -> float:
    K, n, s0, s, _ = model(p)
    return 2 * math.exp(-float(th.e3k_exponents(p["T"], K, n, s0, s, p["delta"])["paper_first"]))


def e3k_point(p: dict, runs: int, rng: np.random.Generator) -> Point:
    """|rbar_k - mu_k| >= x for the mean of T Gaussian rewards of variance nu^2 (drawn reward by reward)."""
    _, _, _, _, nu = model(p)
    T = p["T"]
    dev = np.zeros(runs)
    for _ in range(T):
        dev += rng.standard_normal(runs)
    dev *= math.sqrt(nu) / T
    return Point(p, runs, int((np.abs(dev) >= e3k_threshold(p)).sum()))


def e3k_exact(p: dict) -> float:
    """The same probability in closed form: 2 Phi(-x sqrt(T) / nu)."""
    return float(2 * special.ndtr(-e3k_threshold(p) * math.sqrt(p["T"] / model(p)[4])))


def e31_threshold(p: dict) -> float:
    """Eq. e31's deviation of rbar_0 at a search point (`bounds.theorems.e31_threshold`)."""
    K, n, s0, s, _ = model(p)
    return float(th.e31_threshold(p["T"], K, n, s0, s))


def e31_bound(p: dict) -> float:
    K, n, s0, s, nu = model(p)
    return 2 * math.exp(-float(th.e31_exponents(p["T"], K, n, s0, s, nu)["paper_first"]))


def e31_point(p: dict, runs: int, rng: np.random.Generator) -> Point:
    """|rbar_0 - mu0| >= x with mu_j ~ N(mu0, sigma0^2) and T_j Gaussian rewards per arm (arm k has T,
    the others T_other), rbar_0 the pooled mean of eq. blup."""
    K, _, s0, s, nu = model(p)
    T = np.array([p["T"]] + [p["T_other"]] * (K - 1), float)
    mu = rng.normal(0.0, math.sqrt(s0), (runs, K))
    rbar = mu + rng.standard_normal((runs, K)) * np.sqrt(nu / T)     # the mean of T_j rewards, exactly
    omw = shrinkage(T, s0, s)
    a = omw * T / np.sum(omw * T)
    return Point(p, runs, int((np.abs(rbar @ a) >= e31_threshold(p)).sum()))


def tail_search(which: str, mode: Mode) -> Search:
    if which == "e3k":
        return search("tail-e3k", TAIL, e3k_point, rate_score, mode,
                      bound=e3k_bound, candidates=8)
    return search("tail-e31", POOLED, e31_point, rate_score, mode,
                  bound=e31_bound, candidates=8)


def recompute(w: dict) -> tuple[float, float]:
    """Both sides of a seed-keyed Monte Carlo witness, by rerunning its simulation from the key: for a
    run of Lemma TwoBoundOnC, the two sides of eq. Tk_lowv2 in that run; for a rate, the lower end of
    the exact interval of the observed events and the bound (the event count must come out the same)."""
    from simulate.stats import binomial_interval

    from ..verify import Mode
    p, key = w["params"], w["params"]["seed_key"]
    rng = Mode(seed=key[0]).rng(*key[1:])
    if "run" in p:
        params = {k: v for k, v in p.items() if k not in ("runs", "seed_key", "run", "round")}
        r = tracked(params, p["runs"], rng)
        return float(r.tk_low_worst[p["run"], 1]), float(r.tk_low_worst[p["run"], 2])
    point, bound = {"tail-e3k": (e3k_point, e3k_bound), "tail-e31": (e31_point, e31_bound),
                    "tracked": (not_E_point, ebar_bound), "theorem-5.1": (failure_point, theorem_bound)}[key[1]]
    params = {k: v for k, v in p.items() if k not in ("runs", "seed_key")}
    pt = point(params, p["runs"], rng)
    if pt.events != w["events"]:
        raise AssertionError(f"rerun of {key} gave {pt.events} events, the witness says {w['events']}")
    return binomial_interval(pt.events, p["runs"], w["level"]).low, bound(params)


register_replay("seed_key", recompute)
