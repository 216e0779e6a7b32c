"""my-paper: a paper file written by `rue-verify new-paper`. It runs as it stands:

    rue-verify claims --paper my-paper.py          # the verdicts (about a minute on 2 cores)
    rue-verify claims --paper my-paper.py -v       # every finding and witness
    rue-verify proofs --paper my-paper.py          # the proofs as trees of steps
    rue-verify proofs --paper my-paper.py --node UNIFORM-UPPER     # one proof's chain, link by link
    rue-verify report --paper my-paper.py --out my-paper-report
    rue-verify erratum --paper my-paper.py

Its claims are about a toy paper on uniform allocation (every arm pulled floor(n/K) times, the best
empirical mean recommended), chosen so that there is one claim of each kind the engine decides:

  EXPONENT         a closed-form identity (Hoeffding's exponent for two arms' means), proved;
  UNIFORM-UPPER    a bound against the simulator, with its tightness, and its proof as a derivation: a
                   union bound, Hoeffding's inequality cited term by term (a `Schema`, its conditions
                   decided), the exponent resting on EXPONENT, the sum bounded by its count times a term;
  UNIFORM-NO-K     a deliberately false bound, refuted by an adversarial Monte Carlo search; its witness
                   recomputes from its seed key; its repair's derivation rests on UNIFORM-UPPER;
  HARMONIC         a deliberately false closed-form inequality, refuted with a witness; its repair is
                   proved by comparing the sum with an integral, a search beside the proof.

Proofs are derivations (`rue_verify.verify.derivation`): a `Statement` whose two sides are computed by
calling this file's own formulas (`bound`, `hoeffding_exponent`, `harmonic`) with sympy symbols, and a
chain of links from its left side to its right side, each justified (`Decide`, `Cite`, `rests`, a rule
on sums). A proof reads "proved" only when the chain closes and every link is established; change a
formula and the statement changes with it, so a proof of the old formula no longer closes.

Every `# CHANGE:` comment says what to replace with your paper's own. Keep what you need, delete the
rest; a claim is one `@claim` on a function `mode -> (summary, findings)`.

The mathematics (for reading the claims): with m = floor(n/K) pulls of each arm and rewards in [0, 1],
mean_k - mean_1 is a sum of 2m independent variables (X_{k,t}/m and -X_{1,t}/m), each in an interval
of length 1/m, with mean -Delta_k. Hoeffding's inequality gives Pr(mean_k >= mean_1) <= exp(-2 Delta_k^2
/ sum_{i=1}^{2m} (1/m)^2) = exp(-m Delta_k^2), and a union over the K - 1 other arms gives
e_n <= (K - 1) exp(-floor(n/K) Delta^2), Delta the smallest gap.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

import simulate
from rue_verify.verify import (
    Cite,
    Decide,
    Paper,
    Pr,
    Repair,
    Schema,
    Statement,
    UnionBound,
    claim,
    corroborating,
    count_at,
    cup,
    derive,
    from_derivation,
    from_tightness,
    from_value,
    link,
    rel,
    repair,
    rests,
    witness,
)
from rue_verify.verify.montecarlo import Point, rate_finding, rate_score, search
from rue_verify.verify.search import Dim, minimize_relative
from rue_verify.verify.sums import CountTimesBound, IntegralComparison, TermByTerm, sequence

# CHANGE: your paper's name (the namespace of its IDs and what --paper names), title, reference and theorems
# (the roots `rue-verify proofs` prints).
PAPER = Paper(
    "my-paper", "my-paper: uniform allocation's error bound (a scaffold)",
    short="my-paper",
    citation="my-paper: the full reference of your paper goes here",
    theorems=("UNIFORM-UPPER", "HARMONIC"))

# CHANGE: the part of your paper the claims below come from (the report groups claims by section).
SECTION = "Section 1"


# ---------------------------------------------------------------- the paper's formulas, written once
# Each formula is one function, called with numbers by the numerical checks and with sympy symbols by the
# derivations, so that a proof's statement is the formula the checks evaluate, not a copy of it.
# CHANGE: your paper's formulas.
def _symbolic(*values) -> bool:
    """Whether a formula is called with sympy objects (a derivation's statement) rather than numbers."""
    return any(isinstance(v, sp.Basic) for v in values)


def pulls(n, K):
    """floor(n/K): each arm's pulls under uniform allocation."""
    return sp.floor(n / K) if _symbolic(n, K) else n // K


def bound(K, n, delta):
    """Theorem 1's bound: (K - 1) exp(-floor(n/K) Delta^2), Delta the smallest gap."""
    exp = sp.exp if _symbolic(K, n, delta) else math.exp
    return (K - 1) * exp(-pulls(n, K) * delta ** 2)


def misread_bound(K, n, delta):
    """(K - 1) exp(-n Delta^2): Theorem 1's bound with floor(n/K) misread as n (deliberately false)."""
    exp = sp.exp if _symbolic(K, n, delta) else math.exp
    return (K - 1) * exp(-n * delta ** 2)


def total(term, lo, hi):
    """sum_{i=lo}^{hi} term(i): a sympy Sum (left unevaluated) for symbols, math.fsum for numbers."""
    if _symbolic(lo, hi):
        i = sp.Symbol("i", integer=True, positive=True)
        return sp.Sum(term(i), (i, lo, hi))
    return math.fsum(term(i) for i in range(int(lo), int(hi) + 1))


def hoeffding_exponent(t, N, r):
    """2 t^2 / sum_{i=1}^N r^2: Hoeffding's exponent for a sum of N independent variables, each in an interval
    of length r, at the deviation t."""
    return 2 * t ** 2 / total(lambda i: r ** 2, 1, N)


def harmonic(K):
    """H_K = 1 + 1/2 + ... + 1/K."""
    return total(lambda i: 1 / i, 1, K)


# ---------------------------------------------------------------- the random objects and the cited result
# Random objects are sympy functions of their parameters (plain `sp.Function`s, so that a node's statement can
# be read back and matched by the proofs that rest on it). CHANGE: your paper's model.
SumOfIndependent = sp.Function("SumOfIndependent")   # SumOfIndependent(N, r, mean, tag): N independent variables,
#                                                      each in an interval of length r, summed; its mean `mean`
DELTA_MIN = sp.Symbol("Delta_min", positive=True)     # the smallest gap
# Delta(k) = mu_1 - mu_k, arm k's gap: a sequence declared with what holds of every term (positive, at least the
# smallest gap), so that every rule reads it at every index (a relation about Delta(k) in a statement's domain, with
# k a free symbol, says it of one k only)
Delta = sequence("Delta", positive=True, lower=DELTA_MIN)


def difference_of_means(k, m):
    """mean_k - mean_1 after m pulls of each arm, rewards in [0, 1]: the 2m independent variables X_{k,t}/m and
    -X_{1,t}/m, each in an interval of length 1/m, summed; its mean is -Delta_k."""
    return SumOfIndependent(2 * m, 1 / m, -Delta(k), k)


def looks_better(k, m):
    """The event mean_k >= mean_1 (arm k's mean at least the best arm's), as Hoeffding's inequality writes it: the
    sum minus its mean at least Delta_k."""
    return rel(difference_of_means(k, m) - (-Delta(k)), ">=", Delta(k))


_N = sp.Symbol("N", integer=True)
_r, _mu, _t = sp.symbols("r mu t", real=True)
_tag = sp.Symbol("tag")

#: Hoeffding's inequality for a sum, as a relation schema: the engine checks that its conclusion, instantiated with a
#: link's objects, is the link, and decides each condition on those objects. `rue_verify.verify.schemas` holds
#: others (Gaussian tails, Jensen, Markov; its HOEFFDING is the mean of T draws in one interval, which for
#: mean_k - mean_1 would give exp(-m Delta_k^2 / 2)). CHANGE: the results your proofs cite.
HOEFFDING = Schema(
    "Hoeffding's inequality", (_N, _r, _mu, _t, _tag),
    rel(Pr(rel(SumOfIndependent(_N, _r, _mu, _tag) - _mu, ">=", _t)), "<=", sp.exp(-hoeffding_exponent(_t, _N, _r))),
    (("at least one variable", rel(_N, ">=", 1)), ("each interval has a positive length", rel(_r, ">", 0)),
     ("the deviation is nonnegative", rel(_t, ">=", 0))),
    "Hoeffding (1963), J. Amer. Statist. Assoc. 58, Thm 2: Pr(S - E S >= t) <= exp(-2 t^2 / sum_i (b_i - a_i)^2) "
    "for a sum S of independent X_i in [a_i, b_i]")


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
    """Theorem 1's bound at a point of the search (every other arm one gap below the best)."""
    return bound(count_at(p, "K", 2), count_at(p, "n", 1), float(p["gap"]))


# CHANGE: the parameter space your bound is searched over (Dim(low, high, scale, integer=...)).
SPACE = {"K": Dim(2, 8, "lin", integer=True), "gap": Dim(0.05, 0.6), "n": Dim(20, 3000, integer=True)}


# ---------------------------------------------------------------- 1. a closed-form identity, proved
def exponent_derivation():
    """Hoeffding's exponent for two arms' means of m rewards each (2m variables of range 1/m) at t: m t^2. The
    statement's left side is `hoeffding_exponent` itself; `m >= 1` is stated so that a proof resting on this
    one with m bound to an expression (floor(n/K)) must establish it."""
    m = sp.Symbol("m", integer=True, positive=True)
    t = sp.Symbol("t", positive=True)
    st = Statement(hoeffding_exponent(t, 2 * m, 1 / m), "==", m * t ** 2, (rel(m, ">=", 1),))
    return derive(st, [link("=", m * t ** 2, Decide(), "sum_{i=1}^{2m} (1/m)^2 = 2/m, so 2 t^2 / (2/m) = m t^2")])


@claim("EXPONENT", "Section 1, the proof of Theorem 1", "Hoeffding's exponent for two arms' means of m rewards "
       "each at t: 2 t^2 / sum_{i=1}^{2m} (1/m)^2 = m t^2", section=SECTION)
def exponent(mode):
    return "proved (a derivation, decided)", [from_derivation(exponent_derivation(), "every m >= 1, t > 0")]


# ---------------------------------------------------------------- 2. a bound against the simulator, and its proof
def theorem_1():
    """Pr(some arm's mean >= the best arm's) <= bound(K, n, Delta), the error probability e_n at most the left
    side (ties broken either way): a union bound, Hoeffding's inequality for every term, each exponent m Delta_k^2
    (EXPONENT), and the K - 1 terms each at most the term at the smallest gap."""
    K, n = sp.symbols("K n", integer=True, positive=True)
    k = sp.Symbol("k", integer=True)
    d = DELTA_MIN
    m = pulls(n, K)
    domain = (rel(K, ">=", 2), rel(n, ">=", K))   # every gap at least the smallest: the sequence Delta says so
    st = Statement(Pr(cup(looks_better(k, m), (k, 2, K))), "<=", bound(K, n, d), domain)
    hoeffding_k = Cite(HOEFFDING, {"N": 2 * m, "r": 1 / m, "mu": -Delta(k), "t": Delta(k), "tag": k})
    each_exponent = (rel(hoeffding_exponent(Delta(k), 2 * m, 1 / m), "==", m * Delta(k) ** 2),
                     rests("EXPONENT", t=Delta(k), m=m))
    return derive(st, [
        link("<=", sp.Sum(Pr(looks_better(k, m)), (k, 2, K)), UnionBound(), "a union bound over the K - 1 other arms"),
        link("<=", sp.Sum(sp.exp(-hoeffding_exponent(Delta(k), 2 * m, 1 / m)), (k, 2, K)), TermByTerm(cite=hoeffding_k),
             "Hoeffding's inequality for each arm's mean_k - mean_1"),
        link("=", sp.Sum(sp.exp(-m * Delta(k) ** 2), (k, 2, K)), TermByTerm(given=(each_exponent,)),
             "each exponent is m Delta_k^2 (EXPONENT, with m = floor(n/K))"),
        link("<=", bound(K, n, d), CountTimesBound(bound=sp.exp(-m * d ** 2)),
             "K - 1 terms, each at most exp(-m Delta^2) since Delta_k >= Delta"),
    ])


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
    proof = from_derivation(theorem_1(), "every K >= 2, n >= K, rewards in [0, 1]")
    # the simulated rate corroborates the proof: it can refute the bound, and while it holds the node is decided
    # by its proof (a proof that does not close leaves the bound sampled, as far as the simulator checked it)
    return "computed: the proof, the simulated rate against the bound and its tightness", \
        [proof, corroborating(found)] + ([tight] if tight else [])


# ---------------------------------------------------------------- 3. a false bound, refuted by Monte Carlo
def no_k_bound(p: dict) -> float:
    """The misread bound at a point of the search."""
    return misread_bound(count_at(p, "K", 2), count_at(p, "n", 1), float(p["gap"]))


@claim("UNIFORM-NO-K", "a misreading of Section 1, Theorem 1 (deliberately false)",
       "uniform allocation has e_n <= (K - 1) exp(-n Delta^2)", section=SECTION)
def uniform_no_k(mode):
    s = search("my-paper-uniform-no-k", SPACE, failures, rate_score, mode, bound=no_k_bound)
    return "computed by an adversarial search of (K, gap, n)", [rate_finding(
        s, "uniform allocation's failure probability", "(K - 1) exp(-n Delta^2)",
        note=" Each arm gets only n/K of the budget, so the exponent cannot be n Delta^2.")]


@repair("UNIFORM-NO-K")
def uniform_no_k_repair(mode):
    """The repaired statement is Theorem 1's: one link, resting on UNIFORM-UPPER, whose statement (its derivation's)
    is matched against this link once the graph resolves, and read at that node's proof status."""
    K, n = sp.symbols("K n", integer=True, positive=True)
    k = sp.Symbol("k", integer=True)
    d = DELTA_MIN
    st = Statement(Pr(cup(looks_better(k, pulls(n, K)), (k, 2, K))), "<=", bound(K, n, d),
                   (rel(K, ">=", 2), rel(n, ">=", K)))
    proof = derive(st, [link("<=", bound(K, n, d), rests("UNIFORM-UPPER", K=K, n=n, Delta_min=d), "Theorem 1")])
    return Repair("e_n <= (K - 1) exp(-floor(n/K) Delta^2): the exponent counts one arm's pulls", None,
                  [from_derivation(proof, "every K >= 2, n >= K, rewards in [0, 1]")])


# ---------------------------------------------------------------- 4. a false closed form, refuted with a witness
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


@repair("HARMONIC", recompute=lambda p: (harmonic(count_at(p, "K", 1)), 1 + math.log(count_at(p, "K", 1))))
def harmonic_repair(mode):
    K = sp.Symbol("K", integer=True, positive=True)
    st = Statement(harmonic(K), "<=", 1 + sp.log(K), (rel(K, ">=", 1),))
    proof = derive(st, [link("<=", 1 + sp.log(K), IntegralComparison(),
                             "sum_{i=1}^K 1/i <= 1 + integral_1^K dx/x, 1/x decreasing")])
    # a search beside the proof: it can refute the statement, and when it holds it does not weaken the proof
    r = minimize_relative(lambda p: harmonic(p["K"]), lambda p: 1 + math.log(p["K"]), ORDER, mode, salt=2,
                          random=200)
    beside = from_value(r.margin, f"{r.domain}: {r.evaluated} points", at_least=0.0,
                        holds=f"as the proof says, at every point searched (smallest relative margin {r.margin:.4g})",
                        fails=f"false at {r.params}: the proof or this file's harmonic() is wrong")
    return Repair("H_K <= 1 + log K", None, [from_derivation(proof, "every K >= 1"), corroborating(beside)])
