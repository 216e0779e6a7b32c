"""The steps of Section 5's proofs about RUE's histories, proved for every budget n by induction over
RUE's states (`rue_verify.verify.induction`, z3), their counterexamples made concrete by the exact
history search (`proof_histories`).

RUE's abstract state, for the best arm 1 and one other arm k (the lemmas remove every other arm, so K
stays symbolic, a real >= 2): the counts T_1, T_k (reals >= 2), the posterior means muhat_1, muhat_k,
the widths c_j with c_j^2 = 2 tau_j^2 log n (Algorithm 1, `estimation.c_width`), ctilde_j with ctilde_j^2 =
2 ttau^2(T_j) log n (eq. `tilde_c`), the true means mu_1 >= mu_k; the parameters sigma0^2, sigma^2 > 0,
L = log n > 0 and eta in (0, 1). The formulas (beta, ttau^2, eq. Tk_up1's right side, Lemma sec:tau's
sides) are `bounds`' own, translated by `induction.from_sympy`. A round pulls arm k (then
U_k >= U_1 at the state before it: the index rule of Algorithm 1, `alg:bai`), arm 1 (U_1 >= U_k),
or another arm (T_1, T_k unchanged). E (proof of Theorem 5.1): |mu_j - muhat_j| <= eta c_j; the paper's
covers the states after rounds 2K+1..n, one round after the base state (after round 2K), the
repaired route's from the base state.

Each step names the lemmas it rests on (graph nodes), each lemma's formula at a state built from the
same `bounds` function as the node's statement (`LEMMAS`); a derivation that uses a step takes the
relation it decided (`relation`) as a `Found` premise and the lemmas it assumed as premises resting on
their nodes (`lemma_premises`), each matched against that node's statement, so the step is proved only
as far as they are. The decisions are cached by step, route and the very `bounds` functions they read
(`decided`): a formula replaced (a planted wrong one) is decided afresh.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Callable

import sympy

from bounds import estimation as es
from bounds import repaired as rp
from bounds import theorems as th
from simulate.proofs.linear import replay

from ..verify import Finding, witness
from ..verify import induction as ind
from ..verify.derivation import rests
from ..verify.histories import CAP, search
from ..verify.statements import rel
from . import section4 as s4
from .proof_histories import POINTS, STEPS, Params, check_replays, sides

_K, _n, _s0, _s, _T, _D, _e, _L = sympy.symbols("K n sigma0_sq sigma_sq T Delta eta L", positive=True)
_tau = sympy.Symbol("tau_sq", positive=True)

#: E's first state counted from the base state (after round 2K): the paper's E starts at round 2K+1
EVENT_FROM = {"paper": 1, "repaired": 0}

#: the objects of a history step as the derivations name them (the `bounds` functions' parameter names, so
#: that a `Rests` binds them by name): arm k's and arm 1's counts, the recommended arm J's, the largest other
#: count; the gaps mu_1 - mu_k
T_k, T_1, T_J, T_max = sympy.symbols("T_k T_1 T_J T_max", positive=True)
Delta_k, Delta_J, Delta_min, Delta_max = sympy.symbols("Delta_k Delta_J Delta_min Delta_max", positive=True)
#: the state's pooled sum D of eq. MSE (Lemma sec:tau's own symbol)
D_pool = s4.D_POOL


def route_eta(route: str, K=_K, s0=_s0, s=_s):
    """E's width fraction on `route`: the paper's eta (Theorem 5.1) or `eta_repaired`."""
    return th.eta(K, s0, s) if route == "paper" else rp.eta_repaired(K, s0, s)


def tk_upper(route: str):
    """Eq. Tk_up1's right side on `route` (`theorems.Tk_upper`, or `repaired.Tk_upper_repaired`), looked up now."""
    return th.Tk_upper if route == "paper" else rp.Tk_upper_repaired


def _z(expr, env):
    """A sympy formula of `bounds` as z3 (log n read as L), with the side constraints of its roots."""
    return ind.from_sympy(sympy.sympify(expr).subs(sympy.log(_n), _L), env)


def system(route: str) -> ind.System:
    """RUE's abstract states on `route` ('paper': E from round 2K+1; 'repaired': from round 2K)."""
    Z = ind.z3()

    def params():
        p = {k: Z.Real(k) for k in ("sigma0_sq", "sigma_sq", "L", "eta", "K", "mu_1", "mu_k")}
        env = {_s0: p["sigma0_sq"], _s: p["sigma_sq"], _K: p["K"], _L: p["L"], _e: p["eta"]}
        beta, side = _z(th.beta(_K, _s0, _s), env)
        beta_1, side1 = _z(th.beta_1(_K, _s0, _s), env)
        sb, sb1 = Z.Real("sqrt_beta"), Z.Real("sqrt_beta_1")
        p.update(beta=beta, sqrt_beta=sb, sqrt_beta_1=sb1, env=env, Delta=p["mu_1"] - p["mu_k"])
        cons = [p["sigma0_sq"] > 0, p["sigma_sq"] > 0, p["L"] > 0, p["eta"] > 0, p["eta"] < 1, p["K"] >= 2,
                p["mu_1"] >= p["mu_k"], sb > 0, sb * sb == beta] + side
        return p, cons, {"sqrt_beta_1": [sb1 > 0, sb1 * sb1 == beta_1] + side1}

    def state(p, tag):
        Z_ = Z
        v = {f"{k}": Z_.Real(f"{k}@{tag}") for k in ("T_1", "T_k", "muhat_1", "muhat_k", "c_1", "c_k", "tau_1",
                                                      "tau_k", "ct_1", "ct_k", "ct_1m")}
        cons = [v["T_1"] >= 2, v["T_k"] >= 2]
        for j in ("1", "k"):
            # Algorithm 1's width, `estimation.c_width` (a root: c_j >= 0 with c_j^2 its argument), at tau_j
            sq, side = _z(es.c_width(_tau, _n) ** 2, {**p["env"], _tau: v[f"tau_{j}"]})
            cons += [v[f"c_{j}"] >= 0, v[f"tau_{j}"] > 0, v[f"c_{j}"] * v[f"c_{j}"] == sq] + side
        for name, T in (("ct_1", v["T_1"]), ("ct_k", v["T_k"]), ("ct_1m", v["T_1"] - 1)):
            sq, side = _z(es.c_tilde(_T, _n, _s0, _s) ** 2, {**p["env"], _T: T})
            cons += [v[name] > 0, v[name] * v[name] == sq] + side
        v["ttau_1"], _ = _z(es.tau_sq_tilde(_T, _s0, _s), {**p["env"], _T: v["T_1"]})
        v["ttau_k"], _ = _z(es.tau_sq_tilde(_T, _s0, _s), {**p["env"], _T: v["T_k"]})
        return v, cons

    def base(p, s):
        return [s["T_1"] == 2, s["T_k"] == 2]

    def rounds(p, s, s2):
        keep1, keepk = s2["T_1"] == s["T_1"], s2["T_k"] == s["T_k"]
        Uk, U1 = s["muhat_k"] + s["c_k"], s["muhat_1"] + s["c_1"]
        return [("arm k pulled (U_k >= U_1)", Z.And(Uk >= U1, s2["T_k"] == s["T_k"] + 1, keep1)),
                ("arm 1 pulled (U_1 >= U_k)", Z.And(U1 >= Uk, s2["T_1"] == s["T_1"] + 1, keepk)),
                ("another arm pulled", Z.And(keep1, keepk))]

    def event(p, s):
        e = p["eta"]
        return Z.And(*[Z.And(p[f"mu_{j}"] - s[f"muhat_{j}"] <= e * s[f"c_{j}"],
                             s[f"muhat_{j}"] - p[f"mu_{j}"] <= e * s[f"c_{j}"]) for j in ("1", "k")])

    E = "2K+1..n (as printed)" if route == "paper" else "2K..n"
    return ind.System(params, state, base, rounds, event, EVENT_FROM[route],
                      f"RUE with known variances, E on the states after rounds {E}: every K >= 2, sigma0^2, "
                      "sigma^2 > 0, eta in (0, 1), every count >= 2 (reals: a relaxation, sound for a proof)")


# ---------------------------------------------------------------- the lemmas the steps rest on
def _tau_side(side: str) -> Callable:
    """Lemma sec:tau's side at a state, for arms 1 and k, its formula the node's own (looked up when the
    step is decided): 'upper', tau^2 <= `estimation.tau_sq_upper` (LEM-TAU-UPPER, certified), 'lower',
    tau^2 >= `repaired.tau_sq_lower_repaired` (the repaired lower side, which gives tau^2 >= ttau^2)."""
    def at(p, s):
        Z = ind.z3()
        f = es.tau_sq_upper if side == "upper" else rp.tau_sq_lower_repaired
        out = []
        for j in ("1", "k"):
            x, cons = _z(f(_T, _K, _s0, _s), {**p["env"], _T: s[f"T_{j}"]})
            out += cons + [s[f"tau_{j}"] <= x if side == "upper" else s[f"tau_{j}"] >= x]
        return Z.And(*out)
    return at


TAU_UPPER = ind.Lemma("sec:tau/upper", "tau_k^2 <= ttau_k^2 (1 + sigma^2/(K sigma0^2)) (Lemma sec:tau's upper side)",
                      _tau_side("upper"))
TAU_LOWER = ind.Lemma("repair:LEM-TAU-LOWER", "tau_k^2 >= ttau_k^2 (1 + sigma^2/(K (T_k sigma0^2 + sigma^2))) "
                      "(Lemma sec:tau's lower side, repaired; it gives tau_k^2 >= ttau_k^2)", _tau_side("lower"))
#: what guides the search for a history behind a counterexample in place of TAU_LOWER (`_decided`): its
#: consequence tau^2 >= ttau^2, which z3 decides at concrete values in a tenth of the time (the guide only picks
#: the points searched: a refutation is the history found, replayed, whatever guided the search to it)
_TAU_LOWER_GUIDE = ind.Lemma(TAU_LOWER.node, "tau_k^2 >= ttau_k^2 (a consequence of the repaired lower side)",
                             lambda p, s: ind.z3().And(*[s[f"tau_{j}"] >= s[f"ttau_{j}"] for j in ("1", "k")]))


def _tau_relation(side: str, T):
    """Lemma sec:tau's side as the derivations state it, at a state: arm j's posterior variance (eq. MSE,
    `section4.tau_sq_mse`, at its count T and the state's pooled sum D) against the side's formula."""
    tau = s4.tau_sq_mse(T, D_pool, _s0, _s)
    if side == "upper":
        return rel(tau, "<=", es.tau_sq_upper(T, _K, _s0, _s))
    return rel(tau, ">=", rp.tau_sq_lower_repaired(T, _K, _s0, _s))


def _tau_premises(node: str, side: str, counts) -> tuple:
    """(relation, rests(node, ...)) at each count of `counts` (arms 1 and k): the lemma at each arm of the state,
    its tau_sq bound to that arm's posterior variance, so its definition (eq. MSE) holds as instantiated."""
    return tuple((_tau_relation(side, T), rests(node, tau_sq=s4.tau_sq_mse(T, D_pool, _s0, _s), T_k=T, D=D_pool, K=_K,
                                                 sigma0_sq=_s0, sigma_sq=_s)) for T in counts)


def pool_domain() -> tuple:
    """What Lemma sec:tau's sides assume of the state's pooled sum D = sum_j T_j sigma^2/(T_j sigma0^2 + sigma^2)
    (their statements' relations in D alone: D >= K (1 - w(1)), every arm pulled, and D < K sigma^2/sigma0^2), true
    at every state of RUE; a derivation whose premises rest on those sides states it in its domain."""
    out = []
    for st in (s4.tau_upper_statement(), s4.tau_lower_repaired_statement()):
        out += [g for g in st.given if D_pool in g.free_symbols and g.free_symbols <= {D_pool, _K, _s0, _s}]
    return tuple(dict.fromkeys(out))


def _eta_free(expr, route: str):
    """`expr` with the route's eta (`route_eta`) read as the system's free eta in (0, 1)."""
    return expr.subs(route_eta(route), _e)


def tk_up_room(route: str, free: bool = False):
    """X of eq. Tk_up1 on `route` (T_k <= 2 + X/Delta^2, `tk_upper`), in the symbols Delta, K, n, sigma0_sq,
    sigma_sq, with the route's eta, or (`free`) with eta the system's free eta, as the induction reads it."""
    upper = tk_upper(route)(_D, _K, _n, _s0, _s)
    return sympy.expand(((_eta_free(upper, route) if free else upper) - 2) * _D ** 2)


def _tk_up_holds(route: str):
    # eq. Tk_up1: T_k <= 2 + X/Delta^2, written as (T_k - 2) Delta^2 <= X (Delta = 0 allowed)
    X = tk_up_room(route, free=True)

    def holds(p, s):
        x, _ = _z(X, {**p["env"], _D: p["Delta"]})      # no root in it: the right side is polynomial
        return (s["T_k"] - 2) * p["Delta"] * p["Delta"] <= x
    return holds


def _tk_low_holds(shifted: bool, unit_beta_1: bool = False):
    def holds(p, s):
        """eq. Tk_lowv2 ((1-eta) sqrt(beta_1) ctilde_k <= (1+eta) sqrt(beta) ctilde_1 + Delta_k), with
        beta_1 = 1 (`unit_beta_1`), or its repair (beta_1 = 1, ctilde_1 at arm 1's count one lower)."""
        e = p["eta"]
        if shifted:
            return (1 - e) * s["ct_k"] <= (1 + e) * p["sqrt_beta"] * s["ct_1m"] + p["Delta"]
        if unit_beta_1:
            return (1 - e) * s["ct_k"] <= (1 + e) * p["sqrt_beta"] * s["ct_1"] + p["Delta"]
        return (1 - e) * p["sqrt_beta_1"] * s["ct_k"] <= (1 + e) * p["sqrt_beta"] * s["ct_1"] + p["Delta"]
    return holds


def _recommends_k(p, s):
    return [s["muhat_k"] >= s["muhat_1"]]


def _eta_cond_repaired(p, s):
    """The eta-condition with beta_1 = 1, strict (repair:PF-ETA-COND: it equals -8 rho^2/(1+4 rho)^2), from
    `repaired.eta_condition_repaired` with its eta read as the system's free eta."""
    x, side = _z(_eta_free(rp.eta_condition_repaired(_K, _s0, _s), "repaired"), p["env"])
    return ind.z3().And(*side, x < 0)


def _gap_repaired_given(p, s):
    """An error (J_n = k) with Delta_min >= (1+eta) sqrt(beta) ctilde(T_1 - 1) (the negation of the
    repaired inclusion; Delta_min <= Delta_k, so Delta_k is at least the threshold too)."""
    return _recommends_k(p, s) + [p["Delta"] >= (1 + p["eta"]) * p["sqrt_beta"] * s["ct_1m"]]


def _t1n(route: str):
    """eq. eqn:T1n at a state: arm 1's count against the sum of the other K-1 counts, each bounded by
    eq. Tk_up1 at Delta_min (Delta_k >= Delta_min > 0)."""
    X = tk_up_room(route, free=True)

    def given(p, s):
        Z = ind.z3()
        n, S, Tmax, Dmin, Dmax = (Z.Real(k) for k in ("n", "S_others", "T_max", "Delta_min", "Delta_argmax"))
        x, side = _z(X, p["env"])
        # n = T_1 + S, S the K-1 other counts' sum, at most K-1 times their largest, T_max, whose arm has
        # gap Delta_argmax >= Delta_min > 0 and meets eq. Tk_up1 (the lemma)
        return side + [n == s["T_1"] + S, S <= (p["K"] - 1) * Tmax, Tmax >= 2, Dmin > 0, Dmax >= Dmin,
                       (Tmax - 2) * Dmax * Dmax <= x]

    def then(p, s):
        Z = ind.z3()
        n, Dmin = Z.Real("n"), Z.Real("Delta_min")         # the hypotheses' variables (z3 names them)
        x, _ = _z(X, p["env"])
        # T_1 >= n - 2(K-1) - (K-1) X / Delta_min^2, times Delta_min^2 > 0
        return s["T_1"] * Dmin * Dmin >= (n - 2 * (p["K"] - 1)) * Dmin * Dmin - (p["K"] - 1) * x
    return given, then


# ---------------------------------------------------------------- the rounds' arguments in pieces
#: the hypotheses a cut keeps, by the start of their descriptions (`induction.decide`'s words)
_PARAMS, _BEFORE, _AFTER = ("the system's parameters", "the state before the round: its constraints",
                            "the state after the round: its constraints")
_E_BEFORE, _ROUND, _CUT = "the event E at the state before", "the round:", "a cut, proved"
_PULL_K, _PULL_1 = "arm k pulled (U_k >= U_1)", "arm 1 pulled (U_1 >= U_k)"


def _tk_up_cuts(route: str) -> tuple:
    """Eq. Tk_up1's round that pulls arm k, in pieces (the proof of Lemma Tk_up's own order): on E the index rule
    U_k >= U_1 gives Delta_k <= (1+eta) c_k - (1-eta) c_1 <= (1+eta) c_k, so Delta_k^2 <= (1+eta)^2 c_k^2; Lemma
    sec:tau's upper side bounds c_k^2; the count's step closes it (the last piece, from the others). Whole, the case
    is beyond cvc5 (unknown in each of its configurations); in pieces it is not."""
    def gap(p, s, s2):
        e = p["eta"]
        sq, _ = _z(es.c_width(_tau, _n) ** 2, {**p["env"], _tau: s["tau_k"]})     # c_k^2, no root in it
        return p["Delta"] * p["Delta"] <= (1 + e) * (1 + e) * sq

    def upper(p, s, s2):
        e = p["eta"]
        sq, side = _z(es.c_width(es.tau_sq_upper(_T, _K, _s0, _s), _n) ** 2, {**p["env"], _T: s["T_k"]})
        return ind.z3().And(*side, p["Delta"] * p["Delta"] <= (1 + e) * (1 + e) * sq)
    return (ind.Cut("Delta_k^2 <= (1+eta)^2 c_k^2, c_k^2 = 2 tau_k^2 log n (E and the index rule U_k >= U_1)",
                    _PULL_K, gap, (_PARAMS, _BEFORE, _E_BEFORE, _ROUND)),
            ind.Cut("Delta_k^2 <= (1+eta)^2 times the width at Lemma sec:tau's upper side, squared", _PULL_K, upper,
                    (_PARAMS, _BEFORE, f"the lemma {TAU_UPPER.node} at the state before", _CUT)),
            ind.Cut("eq. Tk_up1 after the round, from the pieces above and the count's step", _PULL_K,
                    lambda p, s, s2: _tk_up_holds(route)(p, s2), (_PARAMS, _BEFORE, _ROUND, _CUT)))


def _tk_low_cuts() -> tuple:
    """The shifted eq. Tk_lowv2's rounds in pieces (its repair's proof): arm 1 pulled, E and the index rule give
    (1-eta) c_k <= (1+eta) c_1 + Delta_k, Lemma sec:tau's sides give ctilde_k <= c_k and c_1 <= sqrt(beta) ctilde_1,
    and arm 1's count one lower after the round is its count before; arm k pulled, ctilde_k falls as its count
    grows and arm 1's count stays. The last piece of the first round puts the others together, from them and the
    parameters alone. Whole, each case is beyond cvc5; in pieces it is not."""
    def rule(p, s, s2):
        e = p["eta"]
        return (1 - e) * s["c_k"] <= (1 + e) * s["c_1"] + p["Delta"]

    def lower(p, s, s2):
        return s["ct_k"] <= s["c_k"]

    def upper(p, s, s2):
        return s["c_1"] <= p["sqrt_beta"] * s["ct_1"]

    def shift(p, s, s2):
        return s2["ct_1m"] == s["ct_1"]

    def same_k(p, s, s2):
        return s2["ct_k"] == s["ct_k"]

    def falls(p, s, s2):
        return s2["ct_k"] <= s["ct_k"]

    def same_1m(p, s, s2):
        return s2["ct_1m"] == s["ct_1m"]

    def chain(p, s, s2):          # the round's conclusion from the pieces above alone
        e = p["eta"]
        return (1 - e) * s2["ct_k"] <= (1 + e) * p["sqrt_beta"] * s2["ct_1m"] + p["Delta"]
    lemma = "the lemma {} at the state before"
    counts = (_PARAMS, _BEFORE, _AFTER, _ROUND)
    return (ind.Cut("(1-eta) c_k <= (1+eta) c_1 + Delta_k (E and the index rule U_1 >= U_k)", _PULL_1, rule,
                    (_PARAMS, _BEFORE, _E_BEFORE, _ROUND)),
            ind.Cut("ctilde_k <= c_k (Lemma sec:tau's lower side, repaired)", _PULL_1, lower,
                    (_PARAMS, _BEFORE, lemma.format(TAU_LOWER.node))),
            ind.Cut("c_1 <= sqrt(beta) ctilde_1 (Lemma sec:tau's upper side)", _PULL_1, upper,
                    (_PARAMS, _BEFORE, lemma.format(TAU_UPPER.node))),
            ind.Cut("ctilde(T_1 - 1) after the round = ctilde(T_1) before it (arm 1 pulled)", _PULL_1, shift, counts),
            ind.Cut("ctilde_k after the round = ctilde_k before it (arm 1 pulled)", _PULL_1, same_k, counts),
            ind.Cut("the shifted eq. Tk_lowv2 after the round, from the five pieces above (eta in (0, 1))", _PULL_1,
                    chain, (_PARAMS, _CUT)),
            ind.Cut("ctilde_k after the round <= ctilde_k before it (arm k pulled)", _PULL_K, falls, counts),
            ind.Cut("ctilde(T_1 - 1) after the round = ctilde(T_1 - 1) before it (arm k pulled)", _PULL_K, same_1m,
                    counts))


def _reading(step: str, route: str, given: Callable | None = None) -> ind.Reading:
    """The relation `relation(step, route)` as the derivations read it, tied to the step's z3 formula by a case of
    the induction (`induction.Reading`): its symbols are the state's (the counts T_k, T_1, the gap Delta_k, the
    parameters, log n as L) and the route's eta is the system's free eta (tied by an equation, so the relation is
    read at that eta only; the derivations give its range as premises, `_eta_in_unit`). `given`: conditions the
    relation is read under (the recommended arm)."""
    eta = route_eta(route)

    def objects(p, s):
        return {T_k: s["T_k"], T_1: s["T_1"], Delta_k: p["Delta"], _K: p["K"], _s0: p["sigma0_sq"],
                _s: p["sigma_sq"], sympy.log(_n): p["L"], eta: p["eta"]}

    def ties(p, s):
        e, side = _z(eta, p["env"])
        return side + [p["eta"] == e] + (given(p, s) if given else [])
    return ind.Reading(relation(step, route), objects, ties)


def steps(route: str) -> dict[str, ind.Invariant | ind.AtState]:
    """The steps of `route` in their inductive or at-state form, by the history steps' names
    (`proof_histories.STEPS`); each step a derivation reads carries the relation it reads (`_reading`)."""
    tk_up_node = "Tk_up1" if route == "paper" else "repair:LEM-TK-UP"
    given, then = _t1n(route)
    out = {
        "Tk_up1": ind.Invariant("Tk_up1", "on E, T_k <= 2 + 2 Delta_k^-2 (1+eta)^2 beta sigma^2 log n",
                                _tk_up_holds(route), (TAU_UPPER,), cuts=_tk_up_cuts(route),
                                reading=_reading("Tk_up1", route)),
        "regret-decomV": ind.AtState("regret-decomV", "on E, J_n = k != 1 forces Delta_k <= eta (c_1 + c_k)",
                                     _recommends_k, lambda p, s: p["Delta"] <= p["eta"] * (s["c_1"] + s["c_k"])),
        "eqn:T1n": ind.AtState("eqn:T1n", "on E, T_1 >= n - 2(K-1)(1+eta)^2 Delta_min^-2 beta sigma^2 log n - 2(K-1)",
                               given, then, (ind.Lemma(tk_up_node, "eq. Tk_up1 at the arm of the largest other count",
                                                       lambda p, s: True),)),
    }
    if route == "paper":
        out["Tk_lowv2"] = ind.Invariant("Tk_lowv2", "on E, (1-eta) sqrt(beta_1) ctilde_k <= (1+eta) sqrt(beta) "
                                        "ctilde_1 + Delta_k", _tk_low_holds(False), (TAU_UPPER, TAU_LOWER),
                                        defs=("sqrt_beta_1",), reading=_reading("Tk_lowv2", route))
        out["Tk_lowv2-beta1"] = ind.Invariant("Tk_lowv2-beta1", "on E, (1-eta) ctilde_k <= (1+eta) sqrt(beta) ctilde_1 "
                                              "+ Delta_k (beta_1 = 1)", _tk_low_holds(False, True),
                                              (TAU_UPPER, TAU_LOWER), reading=_reading("Tk_lowv2-beta1", route))
    else:
        out["Tk_lowv2-shifted"] = ind.Invariant(
            "Tk_lowv2-shifted", "on E, (1-eta) ctilde_k <= (1+eta) sqrt(beta) ctilde(T_1 - 1) + Delta_k",
            _tk_low_holds(True), (TAU_UPPER, TAU_LOWER), cuts=_tk_low_cuts(),
            reading=_reading("Tk_lowv2-shifted", route))
        shifted = ind.Lemma("repair:LEM-TK-LOW", "eq. Tk_lowv2 shifted (arm 1's count one lower)",
                            _tk_low_holds(True))
        cond = ind.Lemma("repair:PF-ETA-COND", "2 eta (1+eta) sqrt(beta) + eta - 1 < 0", _eta_cond_repaired)
        out["gap-repaired"] = ind.AtState(
            "gap-repaired", "on E, J_n = k != 1 forces Delta_min < (1+eta) sqrt(beta) ctilde(T_1 - 1)",
            _gap_repaired_given, lambda p, s: ind.z3().BoolVal(False), (TAU_UPPER, shifted, cond),
            reading=_reading("gap-repaired", route, _recommends_k))
    return out


# ---------------------------------------------------------------- the steps as relations, for derivations
def relation(step: str, route: str):
    """The relation the step decides at every state E covers (the statement of its invariant, or of its
    at-state conclusion), as a sympy relation of the history's objects (`T_k`, `T_1`, `Delta_k`, K, n,
    sigma0_sq, sigma_sq) at the route's eta (`route_eta`, inside (0, 1); the induction decides it for every eta
    there), built from the same `bounds` functions as the induction's formula. A derivation takes it as a
    `Found` premise (`derivation.Found`) with `lemma_premises`."""
    e, b = route_eta(route), th.beta(_K, _s0, _s)

    def ct(T):
        return es.c_tilde(T, _n, _s0, _s)
    if step == "Tk_up1":
        # the induction's (T_k - 2) Delta^2 <= X, X = (Tk_upper - 2) Delta^2 as sympy writes it (unexpanded)
        return rel((T_k - 2) * Delta_k ** 2, "<=", (tk_upper(route)(Delta_k, _K, _n, _s0, _s) - 2) * Delta_k ** 2)
    if step == "Tk_lowv2":
        return rel((1 - e) * sympy.sqrt(th.beta_1(_K, _s0, _s)) * ct(T_k), "<=", (1 + e) * sympy.sqrt(b) * ct(T_1)
                   + Delta_k)
    if step == "Tk_lowv2-beta1":
        return rel((1 - e) * ct(T_k), "<=", (1 + e) * sympy.sqrt(b) * ct(T_1) + Delta_k)
    if step == "Tk_lowv2-shifted":
        return rel((1 - e) * ct(T_k), "<=", (1 + e) * sympy.sqrt(b) * ct(T_1 - 1) + Delta_k)
    if step == "gap-repaired":          # arm k is the recommended one: J_n = k != 1
        return rel(Delta_k, "<", (1 + e) * sympy.sqrt(b) * ct(T_1 - 1))
    raise KeyError(f"no relation for the step {step!r} ({route} route)")


def _lemma_relations(node: str) -> tuple:
    """The premises (relation, rests(node, ...)) that say what lemma `node` gives at the states of a case: Lemma
    sec:tau's sides at arms 1 and k; the shifted eq. Tk_lowv2 and the eta condition as their repairs state them."""
    arms = (T_1, T_k)
    if node == "sec:tau/upper":
        return _tau_premises(node, "upper", arms)
    if node == "repair:LEM-TAU-LOWER":
        return _tau_premises(node, "lower", arms)
    if node == "repair:LEM-TK-LOW":
        return ((relation("Tk_lowv2-shifted", "repaired"), rests(node, T_k=T_k, T_1=T_1, Delta_k=Delta_k, K=_K, n=_n,
                                                                   sigma0_sq=_s0, sigma_sq=_s)),)
    if node == "repair:PF-ETA-COND":
        return ((rel(rp.eta_condition_repaired(_K, _s0, _s), "<", 0), rests(node, K=_K, sigma0_sq=_s0, sigma_sq=_s)),)
    raise KeyError(f"no relation for the lemma {node!r}")


def lemma_premises(step: str, route: str) -> tuple:
    """Every lemma the step's induction assumed at its states (`Decision.rests_on`), as premises of the link
    that uses the step: (relation, rests(node, ...)), matched against the node's statement when the graph
    resolves. The induction's `Found` carries no premises of its own, so the link that forwards it lists them."""
    out = ()
    for lem in steps(route)[step].lemmas:
        out += _lemma_relations(lem.node)
    return out


# ---------------------------------------------------------------- counterexamples made concrete
#: the exact search's reach when it looks for a history behind an abstract counterexample: K -> largest n
CONCRETE_N = {2: 10, 3: 9}


def concretize(step: str, route: str, d: ind.Decision, reach: dict | None = None, *,
               spec: ind.Invariant | ind.AtState | None = None,
               history_step: Callable | None = None) -> tuple[dict | None, str]:
    """A history behind the decision's abstract counterexample. The failing cases are asked again at a
    concrete point: K (2, then 3), (sigma0^2, sigma^2) (the counterexample's own, then the history
    grid's `POINTS`) and E's eta the route's own there (with eta free, a case may fail only at an eta
    the route never uses). Where a case still fails, the exact history search runs at that point from
    the first budget the case's state can reach (the round after it) up to `reach` (`CONCRETE_N`).
    `spec` and `history_step` (Params -> the step's linear form for the history search) give a step
    that is not one of the paper's (`rue-verify decide --induct`); by default both are `step`'s.
    Returns (the witness, replayed, or None; what was asked and searched)."""
    spec = spec or steps(route)[step]
    if d.failing is None:
        return None, ""
    reach = reach or CONCRETE_N
    m0 = d.failing.model or {}
    failing = [c.label for c in d.cases if c.answer == "sat" and not c.cut]
    own = (m0.get("sigma0_sq"), m0.get("sigma_sq"))
    points = ([own] if all(isinstance(v, float) and 0 < v < 1e6 for v in own) else []) + list(POINTS)
    tried = []
    for K, n_max in reach.items():
        for s0, s in points:
            s0, s = float(f"{s0:.3g}"), float(f"{s:.3g}")     # short rationals: the solver is faster on them
            eta = float(th.eta(K, s0, s) if route == "paper" else rp.eta_repaired(K, s0, s))
            # the query only guides the search (which runs at the exact eta): eta to 6 digits there
            fix = {"K": K, "sigma0_sq": s0, "sigma_sq": s, "eta": float(f"{eta:.6g}")}
            # only the cases that failed with every value free can fail at these values
            asked = [ind.decide(system(route), spec, fix=fix, only=label) for label in failing]
            bad = next((a.failing for a in asked if a.failing is not None), None)
            if bad is None:
                unknown = any(a.status == "unknown" for a in asked)
                tried.append(f"K = {K} at ({s0:.4g}, {s:.4g}): no case fails" + (" (some unknown)" if unknown else ""))
                continue
            # the state after round t decides round t+1's pull: the base state's case needs the budget 2K+1,
            # a later state's one more; the search covers every count its budgets reach
            start = 2 * K + 1 if bad.offset == 0 else 2 * K + 2
            ns = range(max(start, 4 * (K - 1) + 1, 2 * K + 1), n_max + 1)
            for n in ns:
                p = Params(K, n, s0, s, route)
                out = search(p.model(), (STEPS[step][0] if history_step is None else history_step)(p))
                if out.witness is not None and _replays(p, out):     # a witness that does not replay is skipped
                    return _witness(step, p, out), (f"case '{bad.label}' at K = {K}, (sigma0^2, sigma^2) = "
                                                    f"({s0:.4g}, {s:.4g}); a history on E found at n = {n}")
            tried.append(f"K = {K} at ({s0:.4g}, {s:.4g}): case '{bad.label}' fails; no history on E for "
                         f"n = {ns.start}..{ns.stop - 1}")
    return None, "; ".join(tried)


def _replays(p: Params, out) -> bool:
    w, m = out.witness, p.model()
    r = replay(m, w.arms, w.z[:m.n], w.z[m.n:])
    return bool(r["same_pulls"] and not r["tie"] and r["event_slack"] >= 0)


def _witness(step: str, p: Params, out) -> dict:
    w = out.witness
    m = p.model()
    r = check_replays(p, out)
    if step not in STEPS:                          # a user's step: the history and its margin, no sides
        hist = {"pulls": [a + 1 for a in w.arms], "rewards": w.z[:m.n].tolist(), "means": w.z[m.n:].tolist()}
        return {"params": {**p.as_dict(), "step": step, "history": hist, "violation": dict(w.violation.data)},
                "margin": float(w.margin), "where": w.violation.label}
    hist = {"pulls": [a + 1 for a in w.arms], "rewards": w.z[:m.n].tolist(), "means": w.z[m.n:].tolist()}
    params = {**p.as_dict(), "step": step, "violation": dict(w.violation.data), "history": hist}
    lhs, rhs, rel = sides(step, p, r, w.z[m.n:], w.violation.data)
    return witness(params, lhs, rhs, rel, margin=w.margin, unbounded=bool(w.margin >= 0.999 * CAP),
                   where=w.violation.label)


def _formulas() -> tuple:
    """The `bounds` functions the steps read, looked up now: `decided`'s cache is keyed by them, so a formula
    replaced (a planted wrong one, monkeypatched in a test) is decided afresh, never read from the cache."""
    return (th.Tk_upper, th.eta, th.beta, th.beta_1, rp.Tk_upper_repaired, rp.eta_repaired, rp.eta_condition_repaired,
            rp.tau_sq_lower_repaired, es.tau_sq_upper, es.tau_sq_tilde, es.c_tilde, es.c_width)


def decided(step: str, route: str) -> tuple[ind.Decision, dict | None, str]:
    """The step decided by induction on `route` (cached by step, route and the formulas it reads: several
    claims read it), with the concrete history behind a counterexample and what that search covered."""
    return _decided(step, route, _formulas())


@lru_cache(maxsize=32)
def _decided(step: str, route: str, formulas: tuple) -> tuple[ind.Decision, dict | None, str]:
    spec = steps(route)[step]
    d = ind.decide(system(route), spec)
    if d.failing is None:
        return d, None, ""
    wit, searched = concretize(step, route, d, spec=_guide(spec))
    return d, wit, searched


def _guide(spec):
    """`spec` with TAU_LOWER replaced by its consequence `_TAU_LOWER_GUIDE`, to guide the search for a history."""
    return dataclasses.replace(spec, lemmas=tuple(_TAU_LOWER_GUIDE if lem is TAU_LOWER else lem for lem in spec.lemmas))


def induction_finding(step: str, route: str = "paper", node: str | None = None) -> Finding:
    """The step proved for every n (certified), refuted with a replaying history, or open."""
    d, wit, searched = decided(step, route)
    return ind.finding(d, witness=wit, searched=searched, node=node)


def benchmark(out=print) -> list[dict]:
    """The induction's times (`rue-verify bench --histories`): for each route and step, the status,
    each case's solver seconds, and the seconds to make a counterexample a history (run afresh, the
    cache bypassed)."""
    import time
    rows = []
    for route in ("paper", "repaired"):
        for step in steps(route):
            t0 = time.perf_counter()
            d = ind.decide(system(route), steps(route)[step])
            solve = time.perf_counter() - t0
            wit, searched = (concretize(step, route, d, spec=_guide(steps(route)[step])) if d.failing is not None
                             else (None, ""))
            total = time.perf_counter() - t0
            status = "proved" if d.proved else "refuted" if wit else "open" if d.failing else d.status
            pulls = (wit or {}).get("params", {}).get("history", {}).get("pulls")
            rows.append({"route": route, "step": step, "status": status, "cases": len(d.cases),
                         "solver_seconds": round(solve, 3), "slowest_case": round(max(c.seconds for c in d.cases), 3),
                         "total_seconds": round(total, 3), "history": pulls})
            found = f", with the history search {total:.2f} s" if d.failing else ""
            out(f"{route:<9} {step:<17} {status:<8} {len(d.cases)} cases, solver {solve:.2f} s (slowest case "
                f"{rows[-1]['slowest_case']:.2f} s){found}")
    return rows


__all__ = ["benchmark", "induction_finding", "decided", "steps", "system", "concretize", "relation", "lemma_premises"]
