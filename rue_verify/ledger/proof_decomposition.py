"""The proof of Theorem 5.1, first part: the decomposition of the error (eq. `regret-decomV`), the
condition on eta (eq. `prob-dk`), Lemma `TwoBoundOnC` (eqs. `Tk_up1`, `Tk_lowv2`), eqs. `prob-dk-v1`,
`eqn:T1n` and `prob-dk-v2`.

Each proof is a derivation (`verify.derive`): its statement's sides built by calling the formulas of
`bounds` with the sympy symbols of `proof_induction` (T_k, T_1, Delta_k, Delta_min, ...: the bounds'
parameter names, so that another proof's `Rests` binds them by name) and those of `model_points`, its chain
from one side to the other. A step about every history on E (an induction over RUE's states, z3, for
every budget n: `proof_induction`) is a `Found` premise of the link it gives, stated as the relation it
decided (`proof_induction.relation`), beside the lemmas that induction assumed at its states, each a premise
resting on its node (`proof_induction.lemma_premises`) and matched against that node's statement when the
graph resolves. Probabilities are `derivation.Pr` of events (relations of the history's objects), bounded
by the two schemas below."""

from __future__ import annotations

import mpmath
import numpy as np
import sympy

from bounds import estimation as es
from bounds import repaired as rp
from bounds import theorems as th

from ..verify import (
    Expect,
    Finding,
    Mode,
    NoRepair,
    Repair,
    about,
    claims_in,
    corroborating,
    fmt,
    from_count,
    from_exact,
    from_margin,
    from_value,
    reading,
    rel,
    repair,
    witness,
)
from ..verify.derivation import (
    Cite,
    Decide,
    Found,
    Pr,
    Schema,
    Statement,
    derive,
    from_derivation,
    link,
    rests,
)
from ..verify.search import Dim, minimize_margin
from . import proof_induction as pi
from .model_points import K_, d_, n_, s0_, s_, sym_ratio
from .proof_histories import history_finding
from .proof_induction import T_1, Delta_k, Delta_max, Delta_min, T_k, T_max, induction_finding
from .section4 import simplest_tau_witness, tau_sides, tau_sq_mse

#: the part of the paper these claims belong to (the report groups and filters by it)
SECTION = "Appendix: the proofs of Theorems 5.1 and 5.2"
claim = claims_in(SECTION)


# ---------------------------------------------------------------- probabilities of events
_A, _B, _C = sympy.symbols("A B C")          # events (relations of a history's objects)
_Y = sympy.Symbol("Y", real=True)

#: Pr(A) <= Pr(A and C) + Pr(not C): A is the disjoint union of A and C, A and not C, the second inside not C.
SPLIT = Schema(
    "splitting an event on another", (_A, _C), rel(Pr(_A), "<=", Pr(sympy.And(_A, _C)) + Pr(sympy.Not(_C))), (),
    "additivity and monotonicity of a probability (Kolmogorov's axioms; e.g. Durrett, Probability: Theory and "
    "Examples, Sec. 1.1)")

#: Pr(A) + Y <= Pr(B) + Y when every outcome of A is one of B (a term Y beside, on both sides).
MONOTONE = Schema(
    "monotonicity of a probability", (_A, _B, _Y), rel(Pr(_A) + _Y, "<=", Pr(_B) + _Y),
    (("every outcome of the first event is one of the second", sympy.Implies(_A, _B)),),
    "A inside B gives Pr(A) <= Pr(B) (e.g. Durrett, Probability: Theory and Examples, Sec. 1.1)")


def _split_then_include(st: Statement, A, C, B, split_text: str, include_text: str) -> list:
    """Pr(A) <= Pr(A and C) + Pr(not C) <= Pr(B) + Pr(not C), the inclusion (A and C inside B) decided."""
    return [link("<=", Pr(sympy.And(A, C)) + Pr(sympy.Not(C)), Cite(SPLIT, {"A": A, "C": C}), split_text),
            link("<=", Pr(B) + Pr(sympy.Not(C)), Cite(MONOTONE, {"A": sympy.And(A, C), "B": B, "Y": Pr(sympy.Not(C))}),
                 include_text)]


# ---------------------------------------------------------------- a history's domain
def _history_domain(*counts, pooled: bool = True) -> tuple:
    """K >= 2 arms, a budget n > 1 (log n > 0), each count >= 2 (every arm is pulled twice in RUE's
    initialisation) and (`pooled`) what Lemma sec:tau assumes of the state's pooled sum D (`pool_domain`), which
    holds at every state: the statements of the steps about RUE's states, whose premises rest on that lemma, or
    on a step that does."""
    return ((rel(K_, ">=", 2), rel(n_, ">", 1)) + tuple(rel(T, ">=", 2) for T in counts)
            + (pi.pool_domain() if pooled else ()))


def _eta_in_unit(route: str) -> tuple:
    """The route's eta lies in (0, 1), where the induction decided its steps (premises decided from the domain)."""
    e = pi.route_eta(route, K_, s0_, s_)
    return rel(e, ">", 0), rel(e, "<", 1)


#: E's rounds on each route, in words
_E_ROUNDS = {"paper": "rounds 2K+1..n, as printed, the paper's eta", "repaired": "rounds 2K..n, eta = eta_repaired"}


def _found(step: str, route: str) -> Found:
    """The induction that decided `step` on `route`, as a `Found`: the relation it states is `relation(step, route)`,
    tied by the induction's own case to what z3 decided (`proof_induction._reading`), never attached here."""
    d = pi.decided(step, route)[0]
    return Found(induction_finding(step, route),
                 states=f"{d.statement}, at every state of RUE on E ({_E_ROUNDS[route]}), for every budget n and every "
                        f"eta in (0, 1), read at the route's eta, given {', '.join(d.rests_on) or 'nothing'} at its "
                        "states (induction, z3)")


def _forwarded(step: str, route: str) -> tuple:
    """The premises of a link that an induction gives: its relation (`Found`), the lemmas it assumed (each
    resting on its node) and its eta's range."""
    return ((pi.relation(step, route), _found(step, route)),) + pi.lemma_premises(step, route) + _eta_in_unit(route)


# ---------------------------------------------------------------- eq. regret-decomV
def decomp_derivation() -> Finding:
    """Eq. regret-decomV: with J = J_n != 1 the recommended arm (muhat_J >= muhat_1 at the end), E at arms 1
    and J (|mu_k - muhat_k| <= eta c_k, c_k = `estimation.c_width`(tau_k^2, n), for every eta > 0: the paper's, or
    `repaired.eta_repaired` where the repaired Theorem 5.1 binds it), e_n =
    Pr(muhat_J >= muhat_1) <= Pr(Delta_J <= eta (c_1 + c_J), E) + Pr(not E): the event split on E, and on E an
    error forces Delta_J = mu_1 - mu_J <= eta (c_1 + c_J) (the identity Delta_J - eta(c_1 + c_J) =
    -(muhat_J - muhat_1) - [(mu_J - muhat_J) + eta c_J] - [(muhat_1 - mu_1) + eta c_1], whose brackets are
    >= 0 on E: the inclusion decided by the engine)."""
    m1, mJ, h1, hJ = sympy.symbols("mu_1 mu_J muhat_1 muhat_J", real=True)
    t1, tJ = sympy.symbols("tau_sq_1 tau_sq_J", positive=True)
    eta = sympy.Symbol("eta", positive=True)        # any eta > 0: the paper's (eq. eta), or eta_repaired bound to it
    c1, cJ = es.c_width(t1, n_), es.c_width(tJ, n_)
    error = rel(hJ, ">=", h1)
    E = sympy.And(rel(sympy.Abs(m1 - h1), "<=", eta * c1), rel(sympy.Abs(mJ - hJ), "<=", eta * cJ))
    gap = sympy.And(rel(m1 - mJ, "<=", eta * (c1 + cJ)), E)
    st = Statement(Pr(error), "<=", Pr(gap) + Pr(sympy.Not(E)), _history_domain(pooled=False),
                   "e_n <= Pr(Delta_J <= eta (c_1 + c_J), E) + Pr(not E)")
    links = _split_then_include(
        st, error, E, gap, "e_n = Pr(muhat_J >= muhat_1) (J = J_n != 1 recommended) split on E",
        "on E an error forces Delta_J <= eta (c_1 + c_J): the three brackets of the identity are >= 0 (the inclusion "
        "decided for every value, every budget n)")
    return from_derivation(derive(st, links), "every history, every n, every eta > 0 (the inclusion of events on E, "
                                              "decided for every value of the means, the posterior means and the "
                                              "widths)",
                           "e_n <= Pr(Delta_J <= eta(c_1 + c_J), E) + Pr(not E), which is at most Pr(Delta_J <= "
                           "eta(c_1 + c_J) | E) + Pr(not E)")


@claim("PF-DECOMP", "Proof of Theorem 5.1 (eq. regret-decomV)",
       "e_n <= Pr(Delta_{J_n} < eta (c_{1,n} + c_{J_n,n}) | E) + Pr(not E).",
       shares="tracked-runs")
def check_decomp(mode: Mode):
    sim = history_finding("regret-decomV", mode)
    text = reading("holds", "the text", "the paper writes '<'; the proof gives '<=', which changes nothing for "
                                        "continuous rewards (ties have probability 0).")
    return Expect("proved for every n (the event split on E, and the inclusion on E decided for every value); no "
                  "history on E breaks it (exhaustive search, corroborating)", "holds"), \
        [decomp_derivation(), corroborating(sim), text]


@claim("PF-ETA-COND", "Proof of Theorem 5.1 (eq. prob-dk)",
       "eta = 1/(1 + 4 rho) satisfies 2 eta (1 + eta) sqrt(beta/beta_1) + eta - 1 <= 0.",
       recompute=lambda p: (float(th.eta_condition(p["K"], p["sigma0_sq"], p["sigma_sq"])), 0.0))
def check_eta_cond(mode: Mode):
    r = sympy.symbols("r", positive=True)
    e = 1 / (1 + 4 * r)
    ideal = sympy.simplify(2 * e * (1 + e) * r + e - 1 + 8 * r ** 2 / (1 + 4 * r) ** 2) == 0
    gap_sq = sympy.factor(sympy.together(th.rho(K_, s0_, s_) ** 2 - th.beta(K_, s0_, s_) / th.beta_1(K_, s0_, s_)))
    space = {"K": Dim(2, 1e4, integer=True), "sigma0_sq": Dim(1e-3, 1e3), "sigma_sq": Dim(1e-3, 1e3)}
    res = minimize_margin(lambda p: -float(th.eta_condition(p["K"], p["sigma0_sq"], p["sigma_sq"])), space, mode, 52)
    findings = [from_exact(bool(ideal), "symbolic, rho := sqrt(beta/beta_1)",
                           "with rho = sqrt(beta/beta_1) the expression equals -8 rho^2/(1+4 rho)^2 <= 0 (sympy: "
                           f"{ideal}). But rho^2 - beta/beta_1 = {gap_sq}, zero only when sigma0^2 + sigma^2 = 1.",
                           fail="inconsistent")]
    p = res.params
    findings.append(from_value(
        res.margin, res.domain,
        f"with the paper's rho the condition fails at {res.violations} of {res.evaluated} points; worst value "
        f"{fmt(-res.margin)} (> 0 violates).",
        witness=lambda: witness(p, float(th.eta_condition(p["K"], p["sigma0_sq"], p["sigma_sq"])), 0.0), at_least=0))
    return Expect("holds for rho = sqrt(beta/beta_1); with the paper's rho it fails (the two agree only when "
                  "sigma0^2 + sigma^2 = 1)", "refuted" if ideal else "-"), findings


# ---------------------------------------------------------------- the eta condition
def eta_cond_derivation() -> Finding:
    """The repaired eta condition: `repaired.eta_condition_repaired` (2 eta (1+eta) sqrt(beta) + eta - 1 at eta =
    `eta_repaired` = 1/(1 + 4 rho), rho = sqrt(beta), beta_1 = 1) equals -8 rho^2/(1 + 4 rho)^2, which is < 0."""
    st = Statement(rp.eta_condition_repaired(K_, s0_, s_), "<", 0, (rel(K_, ">=", 2),),
                   "2 eta (1 + eta) sqrt(beta) + eta - 1 < 0 at eta_repaired")
    return from_derivation(derive(st, [
        link("<", 0, Decide(), "with eta = 1/(1 + 4 rho) and rho = sqrt(beta), 2 eta (1 + eta) rho + eta - 1 = "
                               "-8 rho^2/(1 + 4 rho)^2 (sympy simplifies it so), which is negative: rho > 0")]),
        "every K >= 2, sigma0^2, sigma^2 > 0", "the condition of eq. prob-dk holds at eta_repaired (strictly)")


@repair("PF-ETA-COND", recompute=lambda p: (float(rp.eta_condition_repaired(p["K"], p["sigma0_sq"], p["sigma_sq"])),
                                            0.0))
def repair_eta(mode: Mode) -> Repair:
    space = {"K": Dim(2, 1e4, integer=True), "sigma0_sq": Dim(1e-3, 1e3), "sigma_sq": Dim(1e-3, 1e3)}
    res = minimize_margin(lambda p: -float(rp.eta_condition_repaired(p["K"], p["sigma0_sq"], p["sigma_sq"])), space,
                          mode, "repair-eta")
    search = from_margin(res.margin, res.domain, holds=f"the condition is negative at all {res.evaluated} points",
                         fails="the condition is positive somewhere", tol=1e-12, tol_reason="rounding")
    return Repair("eta = 1/(1 + 4 rho) with rho = sqrt(beta/beta_1) (beta_1 = 1 once Lemma sec:tau's lower side is "
                  "repaired) satisfies 2 eta (1 + eta) sqrt(beta/beta_1) + eta - 1 <= 0 (strictly: < 0)",
                  "eta_repaired", [eta_cond_derivation(), corroborating(search)])


# ---------------------------------------------------------------- Lemma TwoBoundOnC: eq. Tk_up1
def tk_up_derivation(route: str) -> Finding:
    """Eq. Tk_up1 on `route` ('paper': E from round 2K+1, the paper's eta; 'repaired': E from round 2K, eta =
    eta_repaired): T_k <= `theorems.Tk_upper` (or `repaired.Tk_upper_repaired`)(Delta_k, K, n, sigma0^2, sigma^2)
    on E, for k != 1. One link: the induction over RUE's states keeps (T_k - 2) Delta_k^2 <= 2 (1+eta)^2 beta
    sigma^2 log n at every state on E (the index rule at the state that decided arm k's last pull, on E:
    Delta_k <= (1+eta) c_k, and c_k^2 = 2 tau_k^2 log n with Lemma sec:tau's upper side), and dividing by
    Delta_k^2 > 0 gives the statement (decided)."""
    upper = pi.tk_upper(route)(Delta_k, K_, n_, s0_, s_)
    st = Statement(T_k, "<=", upper, _history_domain(T_k, T_1),
                   f"eq. Tk_up1 on E ({_E_ROUNDS[route]}), arm k != 1 of gap Delta_k > 0")
    return from_derivation(derive(st, [link("<=", upper, Decide(given=_forwarded("Tk_up1", route)),
        "at every state on E, (T_k - 2) Delta_k^2 <= 2 (1+eta)^2 beta sigma^2 log n (the induction over RUE's states, "
        "z3, every budget n, given Lemma sec:tau's upper side at arms 1 and k), divided by Delta_k^2 > 0")]),
        f"every history on E ({_E_ROUNDS[route]}), every n, K >= 2, sigma0^2, sigma^2 > 0",
        "T_k <= 2 + 2(1+eta)^2 beta sigma^2 log n / Delta_k^2 on E")


@claim("LEM-TK-UP", "Lemma TwoBoundOnC (eq. Tk_up1)", "On E, for k != 1: T_{k,t} <= 2 + 2 Delta_k^-2 (1+eta)^2 beta "
                                                      "sigma^2 log n.",
       shares="tracked-runs")
def check_tk_up(mode: Mode):
    exact = history_finding("Tk_up1", mode)
    return Expect("a history on E breaks it: E starts at round 2K+1, so the pull at round 2K+1 is made from a "
                  "state E does not constrain (the induction's base 'obviously true at t = 2K+1' is false)",
                  "refuted"), [tk_up_derivation("paper"), exact]


@repair("LEM-TK-UP")
def repair_tk_up(mode: Mode) -> Repair:
    """Eq. Tk_up1 on E from round 2K (the state after the initialisation included), with eta_repaired:
    every pull after the initialisation is then made from a state on E, so the induction has its base.
    The repaired Pr(not E) (`bounds.repaired.not_E_bound_repaired`) already covers every count from 2,
    that is the state after round 2K, at no cost."""
    exact = history_finding("Tk_up1", mode, "repaired")
    return Repair("On E with its rounds from 2K (the state after the initialisation) to n and eta = eta_repaired, "
                  "for k != 1: T_{k,t} <= 2 + 2 Delta_k^-2 (1+eta)^2 beta sigma^2 log n", "Tk_upper_repaired",
                  [tk_up_derivation("repaired"), corroborating(exact)])


# ---------------------------------------------------------------- Lemma TwoBoundOnC: eq. Tk_lowv2
def _ct(T):
    return es.c_tilde(T, n_, s0_, s_)


def tk_low_derivation(route: str) -> Finding:
    """Eq. Tk_lowv2 on `route`. 'paper': (1-eta) sqrt(beta_1) ctilde_k <= (1+eta) sqrt(beta) ctilde_1 +
    Delta_k, the paper's eta, E from round 2K+1: the index rule at the state that pulls arm 1, carried to
    the next round (the induction, with the true sides of Lemma sec:tau, and again with beta_1 = 1), and
    Lemma sec:tau's lower side as printed. 'repaired': arm 1's count one pull lower, ctilde(T_1 - 1),
    beta_1 = 1, eta_repaired, E from round 2K: the induction with Lemma sec:tau's upper side and its repaired
    lower side at both arms."""
    step = "Tk_lowv2" if route == "paper" else "Tk_lowv2-shifted"
    lhs, rhs = pi.relation(step, route).lhs, pi.relation(step, route).rhs
    given = _forwarded(step, route)
    if route == "paper":
        tau_k = tau_sq_mse(T_k, pi.D_pool, s0_, s_)
        given = ((pi.relation(step, route), _found(step, route)),
                 (pi.relation("Tk_lowv2-beta1", route), _found("Tk_lowv2-beta1", route))) + given[1:] + (
            (rel(tau_k, ">=", es.tau_sq_lower(T_k, K_, s0_, s_)),
             rests("LEM-TAU-LOWER", tau_sq=tau_k, T_k=T_k, D=pi.D_pool, K=K_, sigma0_sq=s0_, sigma_sq=s_)),)
        text = ("if round t+1 pulls arm 1, U_k <= U_1 at state t and E give (1-eta) c_{k,t} <= (1+eta) c_{1,t} + "
                "Delta_k, with c_k >= sqrt(beta_1) ctilde_k (Lemma sec:tau's lower side as printed) and c_1 <= "
                "sqrt(beta) ctilde_1; carried to state t+1 (the induction over RUE's states, z3, every budget n, given "
                "the true sides of Lemma sec:tau; and the same with beta_1 = 1)")
    else:
        text = ("at every state on E, (1-eta) ctilde_k <= (1+eta) sqrt(beta) ctilde(T_1 - 1) + Delta_k: at the last "
                "round s + 1 that pulled arm 1, U_k <= U_1 at state s and E give (1-eta) c_k(s) <= (1+eta) c_1(s) + "
                "Delta_k, with c_k >= ctilde_k, c_1 <= sqrt(beta) ctilde_1 (Lemma sec:tau's sides) and ctilde falling "
                "with the count (the induction over RUE's states, z3, every budget n, given Lemma sec:tau's upper side "
                "and its repaired lower side at arms 1 and k)")
    st = Statement(lhs, "<=", rhs, _history_domain(T_k, T_1),
                   f"eq. Tk_lowv2{'' if route == 'paper' else ', shifted'} on E ({_E_ROUNDS[route]}), arm k != 1")
    return from_derivation(derive(st, [link("<=", rhs, Decide(given=given), text)]),
                           f"every history on E ({_E_ROUNDS[route]}), every n, K >= 2, sigma0^2, sigma^2 > 0",
                           "eq. Tk_lowv2 on E" if route == "paper" else
                           "(1-eta) ctilde_{k,t} <= (1+eta) sqrt(beta) ctilde(T_{1,t} - 1) + Delta_k on E")


@claim("LEM-TK-LOW", "Lemma TwoBoundOnC (eq. Tk_lowv2)",
       "On E, for k != 1: (1-eta) sqrt(beta_1) ctilde_{k,t} <= (1+eta) sqrt(beta) ctilde_{1,t} + Delta_k.",
       recompute=tau_sides, shares="tracked-runs")
def check_tk_low(mode: Mode):
    f = [history_finding("Tk_lowv2", mode)]
    # the paper's induction (Appendix A.4): the index rule at the state that pulls arm 1, Lemma sec:tau's
    # sides, carried to the next round; with the true lower side (beta_1 = 1) it fails too: the one-pull gap
    f.append(tk_low_derivation("paper"))
    w = simplest_tau_witness("lower")
    step = "the induction uses c_{k,t} >= sqrt(beta_1) ctilde_{k,t}, i.e. Lemma sec:tau's lower side, "
    f.append(from_count(int(w is not None), "the proof", fail="conditional", witness=w,
                        holds=step + "which holds on the search",
                        fails=step + "which is false (LEM-TAU-LOWER; the witness is a pull vector where it fails), and "
                                     "derives the inequality at round t after pulling arm 1 at t+1"))
    return Expect("the search found runs on E where it fails, and its proof rests on the refuted lower side of "
                  "Lemma sec:tau", "refuted"), f


@repair("LEM-TK-LOW")
def repair_tk_low(mode: Mode) -> Repair:
    """Eq. Tk_lowv2 shifted by one pull of arm 1: what the index rule gives at the last round arm 1
    was pulled holds at every later round, with arm 1's count as it was before that pull."""
    sim = history_finding("Tk_lowv2-shifted", mode, "repaired")
    return Repair("On E (rounds 2K..n, eta = eta_repaired), for k != 1 and every round t: (1-eta) ctilde_{k,t} <= "
                  "(1+eta) sqrt(beta) ctilde(T_{1,t} - 1) + Delta_k (arm 1's count one pull lower; beta_1 = 1)", None,
                  [tk_low_derivation("repaired"), corroborating(sim)])


# ---------------------------------------------------------------- eqs. prob-dk, prob-dk-v1
def prob_dk_derivation() -> Finding:
    """Eq. prob-dk: with E_1 = {ctilde_1 <= Delta_min/(sqrt(beta)(1+eta))} (written (1+eta) sqrt(beta) ctilde_1 <=
    Delta_min, the same event) and Delta_min <= Delta_k,
    Pr(Delta_k < eta sqrt(beta)(ctilde_1 + ctilde_k)) <= Pr(Delta_k < eta (1+eta) sqrt(beta) ctilde_k) + Pr(not E_1):
    the event split on E_1, and on E_1 the first inside the second (Delta_k < eta sqrt(beta)(ctilde_1 + ctilde_k) <=
    eta Delta_min/(1+eta) + eta sqrt(beta) ctilde_k, and Delta_min <= Delta_k); the paper's eta and beta, ctilde
    = `estimation.c_tilde`."""
    e, sb = th.eta(K_, s0_, s_), sympy.sqrt(th.beta(K_, s0_, s_))
    first = rel(Delta_k, "<", e * sb * (_ct(T_1) + _ct(T_k)))
    E1 = rel((1 + e) * sb * _ct(T_1), "<=", Delta_min)
    second = rel(Delta_k, "<", e * (1 + e) * sb * _ct(T_k))
    st = Statement(Pr(first), "<=", Pr(second) + Pr(sympy.Not(E1)),
                   _history_domain(T_1, T_k, pooled=False) + (rel(Delta_min, "<=", Delta_k),),
                   "eq. prob-dk: Pr(Delta_k < eta sqrt(beta)(ctilde_1 + ctilde_k)) <= Pr(Delta_k < eta (1+eta) "
                   "sqrt(beta) ctilde_k) + Pr(not E_1)")
    return from_derivation(derive(st, _split_then_include(
        st, first, E1, second, "the first line's event split on E_1",
        "on E_1, with Delta_min <= Delta_k: Delta_k < eta sqrt(beta)(ctilde_1 + ctilde_k) <= eta Delta_k/(1+eta) + eta "
        "sqrt(beta) ctilde_k, i.e. Delta_k < eta (1+eta) sqrt(beta) ctilde_k (the inclusion decided for every value)")),
        "every Delta_k >= Delta_min > 0 and counts >= 2, K >= 2, n > 1, the paper's eta and beta",
        "eq. prob-dk's two lines")


@claim("PF-E1", "Proof of Theorem 5.1 (eqs. prob-dk, prob-dk-v1)", "eqs. prob-dk and prob-dk-v1.",
       shares="tracked-runs")
def check_pf_e1(mode: Mode):
    n, T = sympy.symbols("n T_1", positive=True)
    e, b, b1 = th.eta(K_, s0_, s_), th.beta(K_, s0_, s_), th.beta_1(K_, s0_, s_)
    defined = (1 + e) * sympy.sqrt(b) * es.c_tilde(T, n, s0_, s_)
    printed = (1 + e) * sympy.sqrt(b * s0_ * s_ * sympy.log(n) / (T * s0_ + s_))
    ratio = sym_ratio(defined, printed)
    ident = ((1 - e) * sympy.sqrt(b1) / 2 - e * (1 + e) * sympy.sqrt(b)
             + sympy.sqrt(b1) / 2 * th.eta_condition(K_, s0_, s_))
    f_id = sympy.lambdify((K_, s0_, s_), ident, "mpmath")
    rng = mode.rng(58)
    with mpmath.workdps(40):
        step = all(abs(f_id(int(k), mpmath.mpf(a), mpmath.mpf(c))) < mpmath.mpf(10) ** -30
                   for k, a, c in zip(rng.integers(2, 10 ** 4, 200), np.exp(rng.uniform(-7, 7, 200)),
                                      np.exp(rng.uniform(-7, 7, 200))))
    # eq. prob-dk is an inclusion of events on E_1 (then Pr(A) <= Pr(A, E_1) + Pr(not E_1)): its two lines'
    # events, decided for every value
    findings = [about("prob-dk", prob_dk_derivation()),
                about("prob-dk-v1", from_exact(ratio == 1, "symbolic",
                      f"not-E_1 = {{Delta_min < (1+eta) sqrt(beta) ctilde_1}} but eq. prob-dk-v1 prints the "
                      f"threshold without the 2 of ctilde: ratio defined/printed = {ratio}; eq. prob-dk-v2 "
                      "restores it.", fail="inconsistent")),
                from_exact(bool(step), "symbolic", certified=False, detail=
                        "(1-eta) sqrt(beta_1)/2 - eta(1+eta) sqrt(beta) = -(sqrt(beta_1)/2) x (the eta-condition), "
                        "zero to "
                        f"1e-30 at 200 random points (mpmath, 40 digits): {step}; the step is valid where PF-ETA-COND "
                        "and LEM-TK-LOW hold.")]
    findings[-1] = about("prob-dk-v1", findings[-1])
    findings.append(history_finding("prob-dk-v1", mode, node="prob-dk-v1"))
    return f"the printed threshold in prob-dk-v1 is smaller by a factor {ratio} than the event it names", findings


def gap_threshold(route: str = "repaired"):
    """The repaired route's threshold on Delta_min: (1+eta) sqrt(beta) ctilde(T_1 - 1), at the route's eta."""
    return (1 + pi.route_eta(route, K_, s0_, s_)) * sympy.sqrt(th.beta(K_, s0_, s_)) * _ct(T_1 - 1)


def pf_e1_derivation() -> Finding:
    """Eqs. prob-dk and prob-dk-v1 on the repaired route: on E (rounds 2K..n, eta_repaired), an error J_n = k != 1
    forces Delta_min < (1+eta) sqrt(beta) ctilde(T_1 - 1). Delta_min <= Delta_k, and at every state E covers the
    induction finds no error with Delta_k at least the threshold, given Lemma sec:tau's upper side, the shifted
    eq. Tk_lowv2 (repair:LEM-TK-LOW) and the eta condition (repair:PF-ETA-COND): on E an error needs Delta_k <=
    eta (c_1 + c_k) <= eta sqrt(beta)(ctilde_1 + ctilde_k), and the shifted Tk_lowv2 with Delta_k at least the
    threshold gives 2 Delta_k >= (1-eta) ctilde_k, which the condition contradicts."""
    thr = gap_threshold()
    st = Statement(Delta_min, "<", thr, _history_domain(T_1, T_k) + (rel(Delta_min, "<=", Delta_k),),
                   "on E (rounds 2K..n, eta = eta_repaired), an error J_n = k != 1 of gap Delta_k")
    return from_derivation(derive(st, [
        link("<=", Delta_k, Decide(), "Delta_min is the least gap, at most the recommended arm k's"),
        link("<", thr, Decide(given=_forwarded("gap-repaired", "repaired")),
             "on E an error needs Delta_k <= eta (c_1 + c_k) <= eta sqrt(beta)(ctilde_1 + ctilde_k); with Delta_k at "
             "least (1+eta) sqrt(beta) ctilde(T_1 - 1) >= (1+eta) sqrt(beta) ctilde_1 the shifted Tk_lowv2 gives "
             "2 Delta_k >= (1-eta) ctilde_k, and the eta condition makes the two contradict (at every state E "
             "covers: z3, every budget n, given the lemmas: the premises)")]),
        "every history on E (rounds 2K..n, eta = eta_repaired), every n, K >= 2, sigma0^2, sigma^2 > 0",
        "on E an error implies Delta_min < (1+eta) sqrt(beta) ctilde(T_{1,n} - 1)")


@repair("PF-E1")
def repair_pf_e1(mode: Mode) -> Repair:
    """Eqs. prob-dk and prob-dk-v1 on the repaired route: on E an error forces Delta_min below
    (1+eta) sqrt(beta) ctilde(T_1 - 1), with the shifted Tk_lowv2 in place of the refuted one."""
    sim = history_finding("gap-repaired", mode, "repaired")
    return Repair("On E (rounds 2K..n, eta = eta_repaired), an error J_n != 1 implies Delta_min < (1+eta) "
                  "sqrt(beta) ctilde(T_{1,n} - 1) "
                  "(eq. prob-dk-v1 with the threshold's 2 restored and arm 1's count one pull lower)", None,
                  [pf_e1_derivation(), corroborating(sim)])


# ---------------------------------------------------------------- eq. eqn:T1n and E_2
def e2_threshold(route: str = "repaired"):
    """E_2's threshold on Delta_min (`theorems.E2_threshold`) at the route's eta."""
    thr = th.E2_threshold(K_, n_, s0_, s_)
    return thr if route == "paper" else thr.xreplace({th.eta(K_, s0_, s_): rp.eta_repaired(K_, s0_, s_)})


def _t1n_domain() -> tuple:
    """A history of n rounds: T_1 and S, the other K-1 counts' sum, add up to n; T_max is the largest of those
    counts (so S <= (K-1) T_max), pulled at least twice, and its arm's gap Delta_max is at least the least gap."""
    S = sympy.Symbol("S_others", positive=True)
    return S, _history_domain(T_1, T_max) + (rel(T_1 + S, "==", n_), rel(S, "<=", (K_ - 1) * T_max),
                                             rel(Delta_max, ">=", Delta_min))


def _t1n_links(route: str, S) -> list:
    """T_1 = n - S >= n - (K-1) T_max >= n - (K-1) Tk_upper(Delta_max) >= n - (K-1) Tk_upper(Delta_min): eq. Tk_up1
    (the route's node) at the arm of the largest other count, and the bound falling with the gap. On the paper's
    route the last link ends at `theorems.T1_lower`(Delta_min), which that is (one link: an identity alone is a
    link whose negation no point refutes)."""
    up = pi.tk_upper(route)
    node = "LEM-TK-UP" if route == "paper" else "repair:LEM-TK-UP"
    tk_up = (rel(T_max, "<=", up(Delta_max, K_, n_, s0_, s_)),
             rests(node, T_k=T_max, Delta_k=Delta_max, T_1=T_1, K=K_, n=n_, sigma0_sq=s0_, sigma_sq=s_))
    return [link(">=", n_ - (K_ - 1) * T_max, Decide(), "a history of n rounds, for every budget n: T_1 = n - S, S "
                                                        "the other K-1 counts' sum, at most K-1 times their largest"),
            link(">=", n_ - (K_ - 1) * up(Delta_max, K_, n_, s0_, s_), Decide(given=(tk_up,)),
                 "eq. Tk_up1 at the arm of the largest count (its gap Delta_max)"),
            # the paper's eta (nested square roots) takes z3 about 15 s here
            link(">=", n_ - (K_ - 1) * up(Delta_min, K_, n_, s0_, s_) if route == "repaired" else
                 th.T1_lower(Delta_min, K_, n_, s0_, s_), Decide(seconds=40.0),
                 "eq. Tk_up1's bound falls as the gap grows, and Delta_max >= Delta_min" + (
                     "" if route == "repaired" else "; n - (K-1) Tk_upper(Delta_min) is eq. eqn:T1n's right side"))]


def t1n_derivation(route: str) -> Finding:
    """Eq. eqn:T1n on `route`: T_1 >= n - (K-1) Tk_upper(Delta_min) on E, which is `theorems.T1_lower` (the paper's
    eta; the chain ends there) or, on the repaired route, the same with `repaired.Tk_upper_repaired`."""
    S, dom = _t1n_domain()
    links = _t1n_links(route, S)
    rhs = th.T1_lower(Delta_min, K_, n_, s0_, s_) if route == "paper" else \
        n_ - (K_ - 1) * rp.Tk_upper_repaired(Delta_min, K_, n_, s0_, s_)
    st = Statement(T_1, ">=", rhs, dom, f"eq. eqn:T1n on E ({_E_ROUNDS[route]})")
    return from_derivation(derive(st, links), f"every history on E ({_E_ROUNDS[route]}), every n",
                           "T_1 >= n - 2(K-1)(1+eta)^2 Delta_min^-2 beta sigma^2 log n - 2(K-1) on E")


def t1n_e2_derivation(route: str = "repaired") -> Finding:
    """Eq. eqn:T1n's consequence on E and E_2 (Delta_min >= `e2_threshold`): T_1 >= n/2 - 2(K-1)."""
    S, dom = _t1n_domain()
    thr = e2_threshold(route)
    st = Statement(T_1, ">=", n_ / 2 - 2 * (K_ - 1), dom + (rel(Delta_min, ">=", thr),),
                   f"on E ({_E_ROUNDS[route]}) and E_2")
    links = _t1n_links(route, S) + [
        link(">=", n_ / 2 - 2 * (K_ - 1), Decide(), "on E_2, Delta_min is at least E_2's threshold, where the bound is "
                                                   "n/2 - 2(K-1)")]
    return from_derivation(derive(st, links), f"every history on E ({_E_ROUNDS[route]}) and E_2, every n",
                           "T_1 >= n/2 - 2(K-1) on E and E_2")


@claim("PF-T1N-E2", "Proof of Theorem 5.1 (eq. eqn:T1n, event E_2)", "eq. eqn:T1n and its consequence on E_2.",
       shares="tracked-runs")
def check_t1n(mode: Mode):
    Dm = sympy.symbols("Delta_min", positive=True)
    lower = th.T1_lower(Dm, K_, n_, s0_, s_)
    summed = n_ - (K_ - 1) * th.Tk_upper(Dm, K_, n_, s0_, s_)
    ok1 = sympy.simplify(lower - summed) == 0
    at_E2 = sympy.simplify(lower.subs(Dm, th.E2_threshold(K_, n_, s0_, s_)) - (n_ / 2 - 2 * (K_ - 1))) == 0
    kk = sympy.symbols("k", positive=True)       # K = 1 + k, k > 0; log n > 0 for n > 1
    mono = sympy.simplify((sympy.diff(lower, Dm) / sympy.log(n_)).subs(K_, 1 + kk)).is_positive
    ok = ok1 and at_E2 and bool(mono)
    f = from_exact(bool(ok), "symbolic, all parameters", detail=
                f"summing eq. Tk_up1 over k != 1 with Delta_k >= Delta_min gives eqn:T1n exactly ({ok1}); at the E_2 "
                f"threshold the bound equals n/2 - 2(K-1) ({at_E2}); it increases in Delta_min for n > 1 ({mono}). So "
                "sigma0^2 T_1 + sigma^2 >= sigma0^2 n/2 - 2 sigma0^2 (K-1) + sigma^2 on E and E_2.")
    exact = history_finding("eqn:T1n", mode)
    return Expect("follows from Tk_up1 (its derivation rests on it), and so breaks where Tk_up1 does: a history on E "
                  "has T_1 below the bound", "refuted"), [t1n_derivation("paper"), f, exact]


@repair("PF-T1N-E2")
def repair_t1n(mode: Mode) -> Repair:
    """Eq. eqn:T1n on the repaired route: the repaired Tk_up1 (E from round 2K, eta_repaired) at the arm of
    the largest other count; and on E_2, T_1 >= n/2 - 2(K-1)."""
    return Repair("On E with rounds 2K..n and eta_repaired: T_{1,n} >= n - 2(K-1)(1+eta)^2 Delta_min^-2 beta sigma^2 "
                  "log n - 2(K-1), so T_{1,n} >= n/2 - 2(K-1) on E and E_2", None,
                  [t1n_derivation("repaired"), t1n_e2_derivation("repaired"),
                   corroborating(history_finding("eqn:T1n", mode, "repaired"))])


@claim("PF-DK-V2", "Proof of Theorem 5.1 (eq. prob-dk-v2)", "eq. prob-dk-v2 (appendix) against its main-text "
                                                            "counterpart.",
       no_repair=NoRepair("two places of the text disagree; the corrected form feeds the repaired Theorem 5.1",
                           "repair:THM-FAIL"))
def check_dk_v2(mode: Mode):
    out = th.outline_gap_terms(K_, n_, s0_, s_)
    app = th.appendix_gap_terms(K_, n_, s0_, s_)
    thm = th.theorem_5_1_terms(K_, n_, s0_, s_, d_)
    r1, r2 = sym_ratio(out["gap_term_E1"], app["gap_term_E1"]), sym_ratio(out["gap_term_E2"], app["gap_term_E2"])
    same2 = sym_ratio(app["gap_term_E2"], thm["gap_term_E2"])
    relax = sympy.lambdify((K_, n_, s0_, s_), thm["gap_term_E1"] ** 2 - app["gap_term_E1"] ** 2, "numpy")
    rng = mode.rng(53)
    k = rng.integers(36, 500, 200).astype(float)
    relax_ok = bool(np.all(relax(k, 4 * (k - 1) + 1 + np.exp(rng.uniform(0, 12, 200)),
                                 np.exp(rng.uniform(-5, 5, 200)), np.exp(rng.uniform(-5, 5, 200))) >= 0))
    findings = [
        from_exact(r1 == 1 and r2 == 1, "symbolic", fail="inconsistent", detail=
                f"main text / appendix: first term {r1}, second term {r2}. The main text applies Theorem 3.1 with its "
                "1/sigma0; the appendix applies Lemma A.1 (sigma0 = 1), and Theorem 5.1 follows the appendix."),
        from_exact(same2 == 1 and relax_ok, "symbolic and 200 random points", certified=False, detail=
                f"Theorem 5.1's terms relax the appendix's: second terms equal ({same2}); first term larger at every "
                f"sampled point ({relax_ok})."),
        reading("inconsistent", "text",
                "eq. prob-dk-v2 writes Pr(not E_2 | E) = Pr(Delta_min < (1+eta) sqrt(2a(K-1) beta sigma^2 log n/n)) "
                "with "
                "an undefined symbol a (a = 2 matches the event E_2) and drops the conditioning on E, which depends "
                "on the means.")]
    return Expect("the appendix (and Theorem 5.1) lose Theorem 3.1's 1/sigma0 that the main text keeps",
                  "inconsistent" if findings[0].verdict == "inconsistent" else "-"), findings
