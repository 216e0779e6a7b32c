"""my-paper: a paper file written by `rue-verify new-paper`. It runs as it stands:

    rue-verify claims --paper my-paper.py          # the verdicts (about a minute on 2 cores)
    rue-verify claims --paper my-paper.py -v       # every finding and witness
    rue-verify proofs --paper my-paper.py          # the proofs as trees of steps
    rue-verify report --paper my-paper.py --out my-paper-report
    rue-verify erratum --paper my-paper.py

Its claims are about a toy paper on uniform allocation (every arm pulled floor(n/K) times, the best
empirical mean recommended), chosen so that there is one claim of each kind the engine decides:

  EXPONENT         a closed-form identity, proved by sympy;
  UNIFORM-UPPER    a bound against the simulator, with its tightness, and a proof resting on EXPONENT
                   (a `Cites` of Hoeffding's inequality with its conditions decided by z3);
  UNIFORM-NO-K     a deliberately false bound, refuted by an adversarial Monte Carlo search; its witness
                   recomputes from its seed key; repaired by UNIFORM-UPPER;
  HARMONIC         a deliberately false closed-form inequality, refuted with a witness; its repair's proof
                   rests on the claim LOG-STEP.

Every `# CHANGE:` comment says what to replace with your paper's own. Keep what you need, delete the
rest; a claim is one `@claim` on a function `mode -> (summary, findings)`.

The mathematics (for reading the claims): with m = floor(n/K) pulls of each arm and rewards in [0, 1],
Hoeffding's inequality for the difference of two arms' means (2m variables, each of range 1/m) gives
Pr(mean_k >= mean_1) <= exp(-2 Delta_k^2 / (2/m)) = exp(-m Delta_k^2), and a union over the K - 1 other
arms gives e_n <= (K - 1) exp(-floor(n/K) Delta^2), Delta the smallest gap.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

import simulate
from rue_verify.verify import (
    Cites,
    Holds,
    Paper,
    Repair,
    Rests,
    claim,
    corroborating,
    count_at,
    from_proof,
    from_tightness,
    from_value,
    rel,
    repair,
    witness,
)
from rue_verify.verify.montecarlo import Point, rate_finding, rate_score, search
from rue_verify.verify.search import Dim, minimize_relative

# CHANGE: your paper's name (the namespace of its IDs and what --paper names), title, reference and theorems
# (the roots `rue-verify proofs` prints).
PAPER = Paper(
    "my-paper", "my-paper: uniform allocation's error bound (a scaffold)",
    short="my-paper",
    citation="my-paper: the full reference of your paper goes here",
    theorems=("UNIFORM-UPPER", "HARMONIC"))

# CHANGE: the part of your paper the claims below come from (the report groups claims by section).
SECTION = "Section 1"


# ---------------------------------------------------------------- instances
def means_of(p: dict) -> np.ndarray:
    """The instance at a point: arm 0 at 0.5 + gap/2, every other arm at 0.5 - gap/2 (Bernoulli means).
    CHANGE: your paper's instances."""
    K, gap = count_at(p, "K", 2), float(p["gap"])
    return np.array([0.5 + gap / 2] + [0.5 - gap / 2] * (K - 1))


def failures(p: dict, runs: int, rng: np.random.Generator) -> Point:
    """`runs` runs of the simulator's uniform allocation at a point: one keyword call (`simulate.run`; any
    registered algorithm by name, `simulate.describe(name)` lists its parameters), its seed drawn from
    `rng`, so the point replays from the search's seed key. CHANGE: your algorithm and its parameters."""
    r = simulate.run("uniform", means=means_of(p), budget=count_at(p, "n", 1), runs=runs,
                     seed=int(rng.integers(2 ** 63 - 1)))
    return Point(p, runs, int(round(r.error.estimate * runs)))


def upper_bound(p: dict) -> float:
    """(K - 1) exp(-floor(n/K) Delta^2). CHANGE: your paper's bound."""
    K, n = count_at(p, "K", 2), count_at(p, "n", 1)
    return (K - 1) * math.exp(-(n // K) * float(p["gap"]) ** 2)


# CHANGE: the parameter space your bound is searched over (Dim(low, high, scale, integer=...)).
SPACE = {"K": Dim(2, 8, "lin", integer=True), "gap": Dim(0.05, 0.6), "n": Dim(20, 3000, integer=True)}


# ---------------------------------------------------------------- 1. a closed-form identity, proved
@claim("EXPONENT", "Section 1, the proof of the bound", "Hoeffding's exponent for two arms' means of m "
       "rewards each at t = Delta: 2 t^2 / (m (1/m)^2 + m (1/m)^2) = m Delta^2", section=SECTION)
def exponent(mode):
    m, d = sp.symbols("m Delta", positive=True)
    i = sp.Symbol("i", integer=True)
    # the sum of squared ranges left unevaluated (a Sum), so that the check is the statement's arithmetic: a
    # relation sympy reduces on construction would compare an expression with itself, and the engine says so
    ranges = sp.Sum((1 / m) ** 2, (i, 1, 2 * m))
    identity = Holds(rel(2 * d ** 2 / ranges, "==", m * d ** 2), method="sympy")
    return "proved by sympy", [from_proof([("2m variables of range 1/m: 2 Delta^2 / sum_i (1/m)^2 = m Delta^2",
                                            identity)], "every m, Delta > 0", "2 Delta^2 / (2/m) = m Delta^2")]


# ---------------------------------------------------------------- 2. a bound against the simulator, and its proof
@claim("UNIFORM-UPPER", "Section 1, Theorem 1",
       "uniform allocation on rewards in [0, 1] has e_n <= (K - 1) exp(-floor(n/K) Delta^2)",
       bound=True, section=SECTION)
def uniform_upper(mode):
    s = search("my-paper-uniform-upper", SPACE, failures, rate_score, mode, bound=upper_bound)
    found = rate_finding(s, "uniform allocation's failure probability", "(K - 1) exp(-floor(n/K) Delta^2)",
                         note=" Bernoulli instances: arm 0 best, every other arm one gap below.")
    # how tight: the bound over the 95% upper limit of the simulated rate, at every confirmed point
    ratios = [p.bound / p.interval(0.95).high for p in s.confirmed]
    tight = (from_tightness(ratios, [{**p.params, "runs": p.runs} for p in s.confirmed], s.covered(),
                            bound="(K - 1) exp(-floor(n/K) Delta^2) over the 95% upper limit of the rate")
             if ratios else None)
    K, g, t = sp.symbols("K g t", real=True)
    # the instances' means lie in [0, 1] over the whole searched range of gaps: a statement z3 decides
    bounded = Holds(sp.And(rel(0, "<=", sp.Rational(1, 2) - g / 2), rel(sp.Rational(1, 2) + g / 2, "<=", 1)),
                    (rel(g, ">=", 0), rel(g, "<=", sp.nsimplify(SPACE["gap"].high))), "z3")
    m, d, dk = sp.symbols("m Delta Delta_k", positive=True)
    k = sp.Symbol("k", integer=True)
    proof = from_proof([
        ("Hoeffding's inequality for mean_k - mean_1, 2m variables of range 1/m each, at t = Delta_k: "
         "Pr(mean_k >= mean_1) <= exp(-2 Delta_k^2 / (2/m))",
         Cites("Hoeffding's inequality", "Pr(S - E S >= t) <= exp(-2 t^2 / sum_i (b_i - a_i)^2) for independent "
               "X_i in [a_i, b_i]", (("the rewards lie in [0, 1] (Bernoulli, on the searched gaps)", bounded),))),
        ("the exponent is m Delta_k^2", Rests("EXPONENT")),
        ("Delta_k >= Delta > 0 gives m Delta_k^2 >= m Delta^2, so each term is at most exp(-m Delta^2)",
         Holds(rel(m * dk ** 2, ">=", m * d ** 2), (rel(dk, ">=", d),), "z3")),
        ("a union bound over the K - 1 other arms",
         Holds(rel(sp.Sum(sp.exp(-m * d ** 2), (k, 2, K)), "==", (K - 1) * sp.exp(-m * d ** 2)), method="sympy")),
    ], "every K >= 2, n >= K, rewards in [0, 1]", "e_n <= (K - 1) exp(-floor(n/K) Delta^2)")
    return "computed: the simulated rate against the bound, its tightness, and the proof", \
        [found] + ([tight] if tight else []) + [proof]


# ---------------------------------------------------------------- 3. a false bound, refuted by Monte Carlo
def no_k_bound(p: dict) -> float:
    """(K - 1) exp(-n Delta^2): the bound with floor(n/K) misread as n."""
    return (count_at(p, "K", 2) - 1) * math.exp(-count_at(p, "n", 1) * float(p["gap"]) ** 2)


@claim("UNIFORM-NO-K", "a misreading of Section 1, Theorem 1 (deliberately false)",
       "uniform allocation has e_n <= (K - 1) exp(-n Delta^2)", section=SECTION)
def uniform_no_k(mode):
    s = search("my-paper-uniform-no-k", SPACE, failures, rate_score, mode, bound=no_k_bound)
    return "computed by an adversarial search of (K, gap, n)", [rate_finding(
        s, "uniform allocation's failure probability", "(K - 1) exp(-n Delta^2)",
        note=" Each arm gets only n/K of the budget, so the exponent cannot be n Delta^2.")]


@repair("UNIFORM-NO-K")
def uniform_no_k_repair(mode):
    return Repair("e_n <= (K - 1) exp(-floor(n/K) Delta^2): the exponent counts one arm's pulls", None,
                  [from_proof([("Theorem 1", Rests("UNIFORM-UPPER"))], "every K >= 2, n >= K",
                              "the repaired bound")])


# ---------------------------------------------------------------- 4. a false closed form, refuted with a witness
def harmonic(K: int) -> float:
    """H_K = 1 + 1/2 + ... + 1/K."""
    return math.fsum(1.0 / i for i in range(1, int(K) + 1))


ORDER = {"K": Dim(1, 10 ** 6, integer=True)}


@claim("HARMONIC", "Section 1, Lemma 2 (deliberately false)", "H_K = sum_{i=1}^K 1/i <= log K for every K >= 1",
       recompute=lambda p: (harmonic(count_at(p, "K", 1)), math.log(count_at(p, "K", 1))), section=SECTION)
def harmonic_claim(mode):
    # a relative margin (rhs - lhs) / max(|lhs|, |rhs|): the tightest point in relative terms, whatever the scale
    r = minimize_relative(lambda p: harmonic(p["K"]), lambda p: math.log(p["K"]), ORDER, mode, salt=1, random=200)
    at = r.params
    return "computed by a search of K", [from_value(
        r.margin, f"{r.domain}: {r.evaluated} points", at_least=0.0,
        holds=f"H_K <= log K at every point (smallest relative margin {r.margin:.4g})",
        fails=f"H_K > log K at {at}: H_K = {harmonic(at['K']):.6g}, log K = {math.log(at['K']):.6g}",
        witness=lambda: witness(at, harmonic(at["K"]), math.log(at["K"])))]


@claim("LOG-STEP", "the repair of Lemma 2", "sum_{i=2}^K 1/i <= log K for every K >= 1", section=SECTION)
def log_step(mode):
    x = sp.Symbol("x", positive=True)
    proof = from_proof([
        ("sum_{i=2}^K 1/i <= integral_1^K dx/x = log K",
         Cites("the integral comparison of a decreasing function's sum", "sum_{i=2}^K f(i) <= integral_1^K f",
               (("f(x) = 1/x is decreasing for x > 0: f' < 0",
                 Holds(rel(sp.Derivative(1 / x, x), "<", 0), method="sympy")),))),
    ], "every K >= 1", "sum_{i=2}^K 1/i <= log K")
    r = minimize_relative(lambda p: harmonic(p["K"]) - 1, lambda p: math.log(p["K"]), ORDER, mode, salt=2,
                          random=200)
    beside = from_value(r.margin, f"{r.domain}: {r.evaluated} points", at_least=0.0,
                        holds=f"as the proof says, at every point searched (smallest relative margin {r.margin:.4g})",
                        fails=f"false at {r.params}: the proof or this file's harmonic() is wrong")
    return "proved (an integral comparison), a search beside it", [proof, corroborating(beside)]


@repair("HARMONIC", recompute=lambda p: (harmonic(count_at(p, "K", 1)), 1 + math.log(count_at(p, "K", 1))))
def harmonic_repair(mode):
    i, K = sp.symbols("i K", integer=True, positive=True)
    return Repair("H_K <= 1 + log K", None, [from_proof([
        ("H_K = 1 + sum_{i=2}^K 1/i", Holds(rel(sp.Sum(1 / i, (i, 1, K)), "==", 1 + sp.Sum(1 / i, (i, 2, K))),
                                            method="sympy")),
        ("sum_{i=2}^K 1/i <= log K", Rests("LOG-STEP")),
    ], "every K >= 1", "H_K <= 1 + log K")])
