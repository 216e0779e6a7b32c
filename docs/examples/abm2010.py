"""A second paper through the engine: UCB-E of Audibert, Bubeck & Munos (COLT 2010), as Section 2 of
Zhu & Qiu (TMLR 2024) states its results. A claims file of another paper, written only with the
engine's public names (`rue_verify.verify`), the simulator (`simulate`) and z3; it loads nothing of
Zhu & Qiu's ledger or formulas (`bounds`), so the few it shares with them (H, H_2, the H-order's steps)
are written here again, as another paper's author would. Run it as a user would:

    rue-verify claims --paper docs/examples/abm2010.py
    rue-verify report --paper docs/examples/abm2010.py --out abm-report
    rue-verify proofs --paper docs/examples/abm2010.py
    rue-verify proofs --paper docs/examples/abm2010.py --node ABM-H-ORDER --at '{"K": 3, "gap": 0.1, "spread": 1}'

What is stated where. Zhu & Qiu's Section 2 defines H = sum_k Delta_k^-2 (the best arm's Delta is the
smallest gap), and says that with the exploration degree taken appropriately UCB-E on rewards in
[0, 1] has e_n <= 2nK exp(-(n - K)/(18H)), and that H <= H_2 <= log(2K) H. The exploration
a = (25/36)(n - K)/H, the event xi of Hoeffding's inequality with radius sqrt(a/s)/5, and the
definition H_2 = max_i i Delta_(i)^-2 (gaps sorted increasingly, Delta_(1) = Delta_(2)) are not in
Zhu & Qiu's text: they are the usual ones of the fixed-budget literature, used here as this file's
reading, to be checked against Audibert et al. before you rely on them. UCB-E is the simulator's
(`simulate.algorithms.ucbe`: one pull per arm, then argmax of mean + sqrt(a/T), the largest mean
recommended).

The claims show each thing the engine does for a paper:
- bounds against the simulator, with how tight they are (ABM-UCBE-UPPER);
- a proof whose steps rest on the file's own claims (ABM-UCBE-UPPER's proof; the repair of ABM-H-ORDER);
- a refutation by Monte Carlo whose witness recomputes from its seed key (ABM-UCBE-ANY-A);
- a refutation in closed form, with a witness and a repair (ABM-H-ORDER).
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

from rue_verify.verify import (
    Cites,
    Holds,
    Paper,
    Repair,
    Rests,
    claim,
    corroborating,
    count_at,
    from_count,
    from_exact,
    from_proof,
    from_tightness,
    from_value,
    rel,
    repair,
    witness,
)
from rue_verify.verify.montecarlo import Point, rate_finding, rate_score, search
from rue_verify.verify.search import Dim, minimize_margin

PAPER = Paper(
    "abm-2010", "Audibert, Bubeck & Munos (COLT 2010), UCB-E, as Zhu & Qiu's Section 2 states it",
    short="Audibert, Bubeck & Munos (COLT 2010) as Zhu & Qiu state them",
    citation=("Jean-Yves Audibert, Sebastien Bubeck and Remi Munos. Best Arm Identification in Multi-Armed Bandits. "
              "COLT 2010 (its results as stated in Section 2 of Zhu & Qiu, TMLR 2024)"),
    theorems=("ABM-UCBE-UPPER", "ABM-H-ORDER"))

SECTION = "Section 2 of Zhu & Qiu"


# ---------------------------------------------------------------- instances and complexities
def means_of(p: dict) -> np.ndarray:
    """The instance at a point: arm 0 best at 0.5 + gap/2, arm j >= 1 at 0.5 + gap/2 - gap (1 + spread (j - 1)),
    cut at 0 (Bernoulli means)."""
    K, gap, spread = count_at(p, "K", 2), float(p["gap"]), float(p.get("spread", 0.0))
    top = min(0.5 + gap / 2, 1.0)
    return np.array([top] + [max(top - gap * (1 + spread * (j - 1)), 0.0) for j in range(1, K)])


def gaps(means: np.ndarray) -> np.ndarray:
    """Delta_k = mu_* - mu_k, the best arm's being the smallest other gap (Zhu & Qiu, Section 2)."""
    best = int(np.argmax(means))
    d = means[best] - means
    d[best] = np.min(np.delete(d, best))
    return d


def H1(p: dict) -> float:
    """H = sum_k Delta_k^-2 (Zhu & Qiu, Section 2)."""
    return float(np.sum(gaps(means_of(p)) ** -2.0))


def H2(p: dict) -> float:
    """H_2 = max_i i Delta_(i)^-2 over the gaps sorted increasingly (this file's reading; see the top)."""
    d = np.sort(gaps(means_of(p)))
    return float(np.max(np.arange(1, d.size + 1) * d ** -2.0))


def logbar(K: int) -> float:
    """1/2 + sum_{i=2}^K 1/i."""
    return 0.5 + sum(1.0 / i for i in range(2, int(K) + 1))


# ---------------------------------------------------------------- UCB-E on the simulator
def ucbe_point(p: dict, runs: int, rng: np.random.Generator, a: float | None = None) -> Point:
    """UCB-E's failures at a point: `runs` runs of the simulator's UCB-E with exploration `a` (default
    p['a']), on Bernoulli rewards, by one keyword call (`simulate.run`), its seed drawn from `rng` (so the
    point replays from it)."""
    import simulate
    r = simulate.run("ucbe", means=means_of(p), budget=count_at(p, "n", 1), runs=runs,
                     seed=int(rng.integers(2 ** 63 - 1)), c=float(p["a"] if a is None else a), a_form="c",
                     H_convention="section2")
    return Point(p, runs, int(round(r.error.estimate * runs)))


def tuned_a(p: dict) -> float:
    """a = (25/36)(n - K)/H, the exploration the bound is stated at (this file's reading)."""
    return 25 / 36 * (p["n"] - p["K"]) / H1(p)


def upper_bound(p: dict) -> float:
    """2nK exp(-(n - K)/(18H)) (Zhu & Qiu, Section 2)."""
    return 2 * p["n"] * p["K"] * math.exp(-(p["n"] - p["K"]) / (18 * H1(p)))


SPACE = {"K": Dim(2, 6, "lin", integer=True), "gap": Dim(0.3, 0.95, "lin"), "spread": Dim(0.0, 1.0, "lin"),
         "n": Dim(100, 3000, integer=True)}


@claim("ABM-UCBE-UPPER", "Zhu & Qiu, Section 2 (UCB-E of Audibert et al. 2010)",
       "UCB-E with a = (25/36)(n - K)/H on rewards in [0, 1] has e_n <= 2nK exp(-(n - K)/(18H))",
       bound=True, section=SECTION, uses=("ABM-UCBE-EVENT", "ABM-UCBE-EXPONENT", "ABM-UCBE-ON-EVENT"))
def ucbe_upper(mode):
    s = search("abm-ucbe-upper", SPACE, lambda p, runs, rng: ucbe_point(p, runs, rng, tuned_a(p)), rate_score, mode,
               bound=upper_bound)
    found = rate_finding(s, "UCB-E's failure probability", "2nK exp(-(n-K)/(18H))",
                         note=" Bernoulli instances: arm 0 best, gaps from the point's gap and spread.")
    # how far the bound is from the truth: bound over the 95% upper limit of the rate, a lower bound on
    # bound / truth at every confirmed point (a rate of zero gives its exact upper limit)
    ratios = [p.bound / p.interval(0.95).high for p in s.confirmed]
    tight = (from_tightness(ratios, [{**p.params, "runs": p.runs} for p in s.confirmed], s.covered(),
                            bound="2nK exp(-(n-K)/(18H)) over the 95% upper limit of the simulated rate")
             if ratios else None)
    proof = from_proof([
        ("Hoeffding's inequality and a union bound: the event xi, every arm's mean of its first s rewards within "
         "sqrt(a/s)/5 of its mean for s <= n, fails with probability at most 2nK exp(-2a/25)",
         Rests("ABM-UCBE-EVENT")),
        ("at a = (25/36)(n - K)/H, 2a/25 = (n - K)/(18H)", Rests("ABM-UCBE-EXPONENT")),
        ("on xi, UCB-E with this a recommends the best arm", Rests("ABM-UCBE-ON-EVENT")),
    ], "every K >= 2, n > K, Bernoulli rewards", "e_n <= 2nK exp(-(n - K)/(18H))")
    return "computed: the simulated rate against the bound, its tightness, and the proof from its steps", \
        [found] + ([tight] if tight else []) + [proof]


@claim("ABM-UCBE-EVENT", "Proof of the UCB-E bound (this file's reading)",
       "Pr(not xi) <= 2nK exp(-2a/25), xi: |mean of arm i's first s rewards - mu_i| < sqrt(a/s)/5 for every "
       "arm i and s <= n", section=SECTION)
def ucbe_event(mode):
    a, s, n, K = sp.symbols("a s n K", positive=True)
    i, r = sp.symbols("i r", real=True)
    eps = sp.sqrt(a / s) / 5
    e = sp.Symbol("epsilon", positive=True)              # Hoeffding's exponent at this radius
    exponent = Holds(rel(sp.Subs(2 * s * e ** 2, e, eps), "==", 2 * a / 25), method="sympy")
    union = Holds(rel(sp.Sum(2 * sp.exp(-2 * a / 25), (i, 1, n * K)), "==", 2 * n * K * sp.exp(-2 * a / 25)),
                  method="sympy")
    # the instances' means, 0.5 + gap/2 at most, lie in [0, 1]: the searched gaps' range, decided as a statement
    bounded = Holds(sp.And(rel(0, "<=", sp.Rational(1, 2) + r / 2), rel(sp.Rational(1, 2) + r / 2, "<=", 1)),
                    (rel(r, ">=", 0), rel(r, "<=", sp.nsimplify(SPACE["gap"].high))), "z3")
    return "proved from Hoeffding's inequality, its conditions checked", [from_proof([
        ("for one arm and one s: Pr(|mean - mu| >= eps) <= 2 exp(-2 s eps^2) = 2 exp(-2a/25) at eps = sqrt(a/s)/5",
         Cites("Hoeffding's inequality", "Pr(|mean of s iid variables in [0, 1] - mu| >= eps) <= 2 exp(-2 s eps^2)",
               (("the rewards lie in [0, 1] (Bernoulli, means 0.5 + gap/2 <= 1 on the searched space)", bounded),
                ("2 s eps^2 = 2a/25 at eps = sqrt(a/s)/5", exponent)))),
        ("a union bound over the K arms and s = 1..n: nK events of probability at most 2 exp(-2a/25)", union),
    ], "every a > 0, n, K", "Pr(not xi) <= 2nK exp(-2a/25)")]


@claim("ABM-UCBE-EXPONENT", "Proof of the UCB-E bound (this file's reading)",
       "at a = (25/36)(n - K)/H, 2a/25 = (n - K)/(18H)", section=SECTION)
def ucbe_exponent(mode):
    n, K, H = sp.symbols("n K H", positive=True)
    ok = sp.simplify(2 * (sp.Rational(25, 36) * (n - K) / H) / 25 - (n - K) / (18 * H)) == 0
    return "an identity, by sympy", [from_exact(ok, "symbolic: every n, K, H > 0",
                                                "sympy reduces 2a/25 - (n - K)/(18H) to 0 at a = (25/36)(n - K)/H")]


def ucbe_on_event(p: dict, runs: int, rng: np.random.Generator) -> tuple[int, int]:
    """UCB-E with a = (25/36)(n - K)/H on a table of n Bernoulli rewards per arm per run (arm i's s-th pull
    gets row s), so xi is read on all n rewards of every arm: (runs on xi, of them the runs whose
    recommendation is not arm 0)."""
    mu = means_of(p)
    K, n, a = mu.size, count_at(p, "n", 1), tuned_a(p)
    table = (rng.random((runs, n, K)) < mu).astype(float)
    s = np.arange(1, n + 1)[None, :, None]
    on_xi = np.all(np.abs(np.cumsum(table, axis=1) / s - mu) < np.sqrt(a / s) / 5, axis=(1, 2))
    T = np.zeros((runs, K), int)
    S = np.zeros((runs, K))
    rows = np.arange(runs)
    for t in range(n):
        if t < K:
            k = np.full(runs, t)
        else:
            k = np.argmax(S / T + np.sqrt(a / T), axis=1)
        S[rows, k] += table[rows, T[rows, k], k]
        T[rows, k] += 1
    wrong = np.argmax(S / T, axis=1) != 0
    return int(on_xi.sum()), int(np.sum(on_xi & wrong))


@claim("ABM-UCBE-ON-EVENT", "Proof of the UCB-E bound (this file's reading)",
       "on xi, UCB-E with a = (25/36)(n - K)/H recommends the best arm", section=SECTION)
def on_event(mode):
    rng = mode.rng("abm-on-event")
    points = [{"K": K, "gap": g, "spread": r, "n": n} for K in (2, 3, 4) for g in (0.6, 0.9) for r in (0.0, 1.0)
              for n in (60, 200)]
    seen = bad = 0
    worst = None
    for p in points:
        on, wrong = ucbe_on_event(p, mode.sim_runs, rng)
        seen += on
        bad += wrong
        worst = worst or (p if wrong else None)
    domain = f"{len(points)} points (K 2-4, gap 0.6 and 0.9, spread 0 and 1, n 60 and 200) x {mode.sim_runs} runs"
    check = from_count(bad, domain, holds=f"no run on xi ({seen} of {len(points) * mode.sim_runs}) recommended a "
                                         "worse arm", fails=f"{bad} runs on xi recommended a worse arm",
                       witness=lambda: {"params": worst})
    return "sampled on simulated runs", [check]


# ---------------------------------------------------------------- a Monte Carlo refutation
ANY_A = {"K": Dim(2, 6, "lin", integer=True), "gap": Dim(0.02, 0.5), "n": Dim(20, 400, integer=True),
         "a": Dim(50, 3000)}


def any_a_bound(p: dict) -> float:
    return 2 * p["n"] * p["K"] * math.exp(-2 * p["a"] / 25)


@claim("ABM-UCBE-ANY-A", "a reading of Zhu & Qiu, Section 2 that drops the condition on the exploration",
       "UCB-E has e_n <= 2nK exp(-2a/25) for every exploration a > 0", section=SECTION)
def any_a(mode):
    s = search("abm-ucbe-any-a", ANY_A, ucbe_point, rate_score, mode, bound=any_a_bound)
    return "computed by an adversarial search of (K, gap, n, a)", [rate_finding(
        s, "UCB-E's failure probability", "2nK exp(-2a/25)",
        note=" Large a makes UCB-E pull the arms evenly, and even pulls fail at a rate that does not shrink with a.")]


@repair("ABM-UCBE-ANY-A")
def any_a_repair(mode):
    return Repair("e_n <= 2nK exp(-2a/25) at the exploration the bound is stated for, a = (25/36)(n - K)/H", None,
                  [from_proof([("the bound at a = (25/36)(n - K)/H, where 2a/25 = (n - K)/(18H)",
                                Rests("ABM-UCBE-UPPER"))], "every K >= 2, n > K", "the bound at that a")])


# ---------------------------------------------------------------- a closed-form refutation
ORDER = {"K": Dim(2, 30, "lin", integer=True), "gap": Dim(0.01, 0.5), "spread": Dim(0.0, 3.0, "lin")}


@claim("ABM-H-ORDER", "Zhu & Qiu, Section 2", "H <= H_2 <= log(2K) H",
       recompute=lambda p: (H1(p), H2(p)), section=SECTION)
def h_order(mode):
    left = minimize_margin(lambda p: H2(p) - H1(p), ORDER, mode, salt=1, random=400)
    right = minimize_margin(lambda p: math.log(2 * p["K"]) * H1(p) - H2(p), ORDER, mode, salt=2, random=400)
    at = left.params
    return "computed by a search of gap profiles", [
        from_value(left.margin, f"{left.domain}: {left.evaluated} points", at_least=0.0,
                   holds=f"H <= H_2 at every point (smallest margin {left.margin:.4g})",
                   fails=f"H > H_2 at {at}: H = {H1(at):.6g}, H_2 = {H2(at):.6g}",
                   witness=lambda: witness(at, H1(at), H2(at))),
        from_value(right.margin, f"{right.domain}: {right.evaluated} points", at_least=0.0,
                   holds=f"H_2 <= log(2K) H at every point (smallest margin {right.margin:.4g})",
                   fails=f"H_2 > log(2K) H at {right.params}"),
    ]


def h2_le_h_steps() -> list:
    """H_2 <= H: with y_j = Delta_(j)^-2 (gaps sorted increasingly) and S_t = y_1 + ... + y_t, S_i >= i y_i
    by induction on t (y_j >= y_i for j <= i), and S_i <= H. Each step a statement (`Holds`: a relation and
    what it assumes) that the engine decides by z3 for every real value."""
    a, b, S, y, m, t, R = sp.symbols("a b S y m t R", real=True)
    return [
        ("0 < a <= b gives a^-2 >= b^-2, so Delta_(j)^-2 >= Delta_(i)^-2 for j <= i",
         Holds(rel(1 / a ** 2, ">=", 1 / b ** 2), (rel(a, ">", 0), rel(a, "<=", b)), "z3")),
        ("induction on t: S_1 = y_1 >= m = Delta_(i)^-2, and S_t >= t m with y_(t+1) >= m gives S_(t+1) >= (t+1) m; "
         "so S_i >= i Delta_(i)^-2",
         Holds(rel(S + y, ">=", (t + 1) * m), (rel(t, ">=", 1), rel(S, ">=", t * m), rel(y, ">=", m)), "z3")),
        ("S_i <= H, the other terms being positive; so i Delta_(i)^-2 <= H for every i",
         Holds(rel(S, "<=", S + R), (rel(R, ">=", 0),), "z3")),
    ]


def h_le_logbar_steps() -> list:
    """H <= logbar(K) H_2: y_i <= H_2/i, and by induction on t >= 2, S_t <= logbar(t) H_2, its base from
    Delta_(1) = Delta_(2); each step decided by z3 for every real value."""
    i, y, M, y1, y2, S, L, t = sp.symbols("i y M y1 y2 S L t", real=True)
    return [
        ("i Delta_(i)^-2 <= H_2 gives Delta_(i)^-2 <= H_2/i for every i >= 1",
         Holds(rel(y, "<=", M / i), (rel(i, ">=", 1), rel(i * y, "<=", M)), "z3")),
        ("induction on t >= 2, base: Delta_(1) = Delta_(2) gives S_2 = 2 Delta_(2)^-2 <= H_2 = logbar(2) H_2",
         Holds(rel(y1 + y2, "<=", M), (rel(y1, "==", y2), rel(y2, "<=", M / 2)), "z3")),
        ("induction on t, step: S_t <= logbar(t) H_2 and Delta_(t+1)^-2 <= H_2/(t+1) give S_(t+1) <= logbar(t+1) "
         "H_2 for t >= 2; so H = S_K <= logbar(K) H_2",
         Holds(rel(S + y, "<=", M * (L + 1 / (t + 1))),
               (rel(t, ">=", 2), rel(S, "<=", M * L), rel(y, "<=", M / (t + 1))), "z3")),
    ]


@claim("ABM-H2-LE-H", "the repair of ABM-H-ORDER, its first step", "H_2 <= H", section=SECTION)
def h2_le_h(mode):
    proof = from_proof(h2_le_h_steps(), "every gap profile (every K, any positive gaps)",
                       "i Delta_(i)^-2 <= H for every i, so H_2 <= H")
    r = minimize_margin(lambda p: H1(p) - H2(p), ORDER, mode, salt=3, random=400)
    search_ = from_value(
        r.margin, f"{r.domain}: {r.evaluated} points", at_least=-1e-9 * H1(r.params),
        holds=f"H_2 <= H at every point searched (smallest margin {r.margin:.4g}), as the proof says",
        fails=f"H_2 > H at {r.params}: the proof or this file's H_2 is wrong",
        witness=lambda: witness(r.params, H2(r.params), H1(r.params)))
    return "proved for every gap profile (z3), a search of gap profiles beside it", [proof, corroborating(search_)]


@claim("ABM-H-LE-LOGBAR-H2", "the repair of ABM-H-ORDER, its second step", "H <= logbar(K) H_2, "
       "logbar(K) = 1/2 + sum_{i=2}^K 1/i", section=SECTION)
def h_le_logbar(mode):
    proof = from_proof(h_le_logbar_steps(),
                       "every gap profile whose two smallest gaps are equal, as Section 2's definition of the best "
                       "arm's gap (the smallest other gap, `gaps`) makes them", "H <= logbar(K) H_2")
    r = minimize_margin(lambda p: logbar(p["K"]) * H2(p) - H1(p), ORDER, mode, salt=4, random=400)
    search_ = from_value(
        r.margin, f"{r.domain}: {r.evaluated} points", at_least=-1e-9 * H1(r.params),
        holds=f"H <= logbar(K) H_2 at every point searched (smallest margin {r.margin:.4g}), as the proof says",
        fails=f"H > logbar(K) H_2 at {r.params}: the proof or this file's H_2 is wrong")
    return "proved for every gap profile (z3), a search of gap profiles beside it", [proof, corroborating(search_)]


@claim("ABM-LOGBAR-LE-LOG2K", "the repair of ABM-H-ORDER, its third step", "logbar(K) <= log(2K) for every K >= 1",
       section=SECTION)
def logbar_le(mode):
    x = sp.Symbol("x", positive=True)
    return "proved for every K", [from_proof([
        ("sum_{i=2}^K 1/i <= integral_1^K dx/x = log K",
         Cites("the integral comparison of a decreasing function's sum", "sum_{i=2}^K f(i) <= integral_1^K f",
               (("f(x) = 1/x is decreasing for x > 0: f' < 0", Holds(rel(sp.Derivative(1 / x, x), "<", 0),
                                                                      method="sympy")),))),
        ("1/2 <= log 2", Holds(rel(sp.Rational(1, 2), "<=", sp.log(2)), method="sympy")),
    ], "every K >= 1", "logbar(K) <= log K + log 2 = log(2K)")]


@repair("ABM-H-ORDER", recompute=lambda p: (H2(p), H1(p)))
def h_order_repair(mode):
    return Repair("H_2 <= H <= log(2K) H_2 (the order reversed)", None, [from_proof([
        ("H_2 <= H", Rests("ABM-H2-LE-H")),
        ("H <= logbar(K) H_2", Rests("ABM-H-LE-LOGBAR-H2")),
        ("logbar(K) <= log(2K)", Rests("ABM-LOGBAR-LE-LOG2K")),
    ], "every gap profile", "H_2 <= H <= log(2K) H_2")])

