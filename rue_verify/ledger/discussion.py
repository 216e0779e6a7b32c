"""Section 5.1: the discussion of Theorem 5.1 (delta, m K, rho, sigma0^2 of order 1/K, H_b, the
rate in n)."""

from __future__ import annotations

import math

import numpy as np
import sympy

from bounds import orders
from bounds import theorems as th

from ..verify import (
    Expect,
    Mode,
    NoRepair,
    Repair,
    claims_in,
    fmt,
    from_exact,
    from_margin,
    from_value,
    rel,
    repair,
    witness,
)
from ..verify.derivation import Decide, Statement, derive, from_derivation, link
from ..verify.search import Dim, minimize_margin
from .model_points import K_, d_, n_, s0_, s_

#: the part of the paper these claims belong to (the report groups and filters by it)
SECTION = "Section 5.1: the discussion of the theorems"
claim = claims_in(SECTION)


# ---------------------------------------------------------------- Section 5.1 discussion
@claim("DISC-DELTA", "Section 5.1",
       "If delta <= sigma^2 m/(2(2 sigma0^2 + sigma^2)) the last term is O~(K/n); is the condition satisfiable, and "
       "where?")
def check_disc_delta(mode: Mode):
    thr = th.delta_threshold(K_, s0_, s_)
    expo = sympy.simplify((s_ * th.m_exponent(K_, s0_, s_) / (d_ * (2 * s0_ + s_))).subs(d_, thr))
    space = {"K": Dim(2, 1e4, integer=True), "sigma0_sq": Dim(1e-3, 1e3), "sigma_sq": Dim(1e-3, 1e3)}
    res = minimize_margin(lambda p: -float(th.delta_threshold(p["K"], p["sigma0_sq"], p["sigma_sq"])), space, mode, 57)
    dmax = -res.margin
    f = [from_exact(expo == 2, "symbolic",
                    f"at the threshold the exponent sigma^2 m/(delta(2 sigma0^2 + sigma^2)) equals {expo}, so the last "
                    "term is 2K n^-1."),
         from_value(dmax, res.domain,
                    f"the threshold is positive but small: its largest value found is {fmt(dmax)} at {res.params}, so "
                    f"the condition asks for a likelihood variance sigma^2 >= {fmt(1 / dmax)} nu^2.",
                    at_least=0.0, strict=True)]
    return f"satisfiable, but only with sigma^2 >= {fmt(1 / dmax, 3)} times the true noise proxy", f


@claim("DISC-MK", "Section 5.1", "K n^(-mK+1) = O(K/n) when mK >= 2.")
def check_disc_mk(mode: Mode):
    a = sympy.symbols("a", positive=True)    # a = mK
    expr = sympy.simplify(K_ * n_ ** (1 - a) / (K_ / n_))
    ok = sympy.simplify(expr - n_ ** (2 - a)) == 0
    f = from_exact(bool(ok), "symbolic, n >= 1", f"K n^(1-mK) / (K/n) = n^(2-mK) <= 1 when mK >= 2 (sympy: {ok}).")
    return Expect("holds", "holds"), [f]


@claim("DISC-RHO", "Section 5.1", "When K >> sigma0^2, sigma^2: rho ~ 1 and m ~ sigma0^2 sigma^-2/25.",
       recompute=lambda p: (float(th.rho(p["K"], p["sigma0_sq"], p["sigma_sq"])), 1.0))
def check_disc_rho(mode: Mode):
    rl, ml = orders.rho_limit_large_K(), orders.m_limit_large_K()
    target = s0_ / (25 * s_)
    ok = rl == 1 and sympy.simplify(ml - target) == 0
    Ks = np.unique(np.round(np.geomspace(2, 1e6, 400)).astype(int))
    need = []
    for s0 in (0.01, 1.0, 100.0):
        for s in (0.01, 1.0, 100.0):
            r = np.array([float(th.rho(int(K), s0, s)) for K in Ks])
            far = np.flatnonzero(np.abs(r - 1) > 0.05)
            if not far.size:
                need.append(int(Ks[0]))
            else:
                need.append(int(Ks[far[-1] + 1]) if far[-1] + 1 < Ks.size else None)
    charitable = from_exact(bool(ok), "K -> infinity at fixed sigma0^2, sigma^2 (sympy limits)",
                            f"lim rho = {rl}, lim m = {ml}. For rho within 5% of 1 over sigma0^2, sigma^2 in "
                         f"{{0.01, 1, 100}} K must reach {max(x for x in need if x is not None)} (worst case), since "
                            "rho^2 -> 1 only once K(sigma0^2 + sigma^2) >> sigma^2/sigma0^2.", kind="charitable")
    # literal: 'K >> sigma0^2, sigma^2' must give rho ~ 1 uniformly; search K = c max(sigma0^2, sigma^2)
    space = {"c": Dim(1e3, 1e4), "sigma0_sq": Dim(1e-8, 1e2), "sigma_sq": Dim(1e-4, 1e2)}

    def Kof(p: dict) -> int:
        return max(100, int(math.ceil(p["c"] * max(p["sigma0_sq"], p["sigma_sq"]))))
    res = minimize_margin(lambda p: 0.5 - abs(float(th.rho(Kof(p), p["sigma0_sq"], p["sigma_sq"])) - 1), space, mode,
                          "disc-rho", random=mode.random_samples // 4)
    p = res.params
    K = Kof(p) if p else 2
    literal = from_margin(res.margin, res.domain + "; K = max(100, ceil(c max(sigma0^2, sigma^2))): K at least 1000 "
                          "times both variances",
                          holds="rho stays within 0.5 of 1 wherever K >> sigma0^2, sigma^2",
                          fails=f"K >> sigma0^2, sigma^2 does not make rho ~ 1: rho - 1 = {fmt(0.5 - res.margin)} at "
                                f"K = {K}, which is {fmt(p.get('c', 0))} times the larger variance; rho^2 - 1 = "
                                "(sigma^2/sigma0^2 - sigma0^2)/(K(sigma0^2 + sigma^2) + sigma0^2) is large when "
                                "sigma0^2 "
                                "is small, however large K is against the variances",
                          witness=lambda: witness({"K": K, "sigma0_sq": p["sigma0_sq"], "sigma_sq": p["sigma_sq"]},
                                                  float(th.rho(K, p["sigma0_sq"], p["sigma_sq"])), 1.0, "~",
                                                  what="rho, claimed ~ 1", tol=0.5))
    return Expect("false as written (K >> the variances does not bound sigma^2/sigma0^2); true as K -> infinity at "
                  "fixed variances", "refuted"), [literal, charitable]


def rho_derivation():
    """DISC-RHO repaired, as a derivation (`verify.derivation`): |sigma^2/sigma0^2 - sigma0^2|/(K(sigma0^2 +
    sigma^2)) >= |rho - 1|, rho from `bounds.theorems.rho`: the bound is at least |sigma^2/sigma0^2 -
    sigma0^2|/(K(sigma0^2 + sigma^2) + sigma0^2), which is |rho^2 - 1| = |rho - 1| (rho + 1) >= |rho - 1|
    (rho > 0). Facts: m 25 sigma^2/sigma0^2 = 25 beta_1/(1 + 4 rho)^2 is within 25(beta_1 - 1) + 24|rho - 1| of
    1, and beta_1 - 1 < 1/K: so m -> sigma0^2 sigma^-2/25 as rho -> 1 and K grows."""
    rho, b1, m = th.rho(K_, s0_, s_), th.beta_1(K_, s0_, s_), th.m_exponent(K_, s0_, s_)
    gap = sympy.Abs(s_ / s0_ - s0_)
    beta_1 = derive(Statement(b1 - 1, "<", 1 / K_, (), "beta_1 - 1 < 1/K"), [
        link("<", 1 / K_, Decide(), "beta_1 - 1 = sigma0^2/(K(sigma0^2 + sigma^2)) < 1/K")])
    at_m = derive(Statement(sympy.Abs(25 * s_ * m / s0_ - 1), "<=", 25 * (b1 - 1) + 24 * sympy.Abs(rho - 1), (),
                            "m 25 sigma^2/sigma0^2 is near 1"), [
        link("=", sympy.Abs(25 * (b1 - 1) / (1 + 4 * rho) ** 2 + 4 * (1 - rho) * (6 + 4 * rho) / (1 + 4 * rho) ** 2),
             Decide(), "m 25 sigma^2/sigma0^2 - 1 = 25 beta_1/(1 + 4 rho)^2 - 1 = 25(beta_1 - 1)/(1 + 4 rho)^2 + "
                       "(5 - (1 + 4 rho))(5 + 1 + 4 rho)/(1 + 4 rho)^2"),
        link("<=", 25 * (b1 - 1) / (1 + 4 * rho) ** 2 + 4 * sympy.Abs(1 - rho) * (6 + 4 * rho) / (1 + 4 * rho) ** 2,
             Decide(), "the triangle inequality (beta_1 >= 1)"),
        link("<=", 25 * (b1 - 1) + 24 * sympy.Abs(rho - 1), Decide(),
             "(1 + 4 rho)^2 >= 1 and (6 + 4 rho)/(1 + 4 rho)^2 <= 6 for rho > 0")])
    st = Statement(gap / (K_ * (s0_ + s_)), ">=", sympy.Abs(rho - 1), (), "|rho - 1| <= |sigma^2/sigma0^2 - "
                   "sigma0^2|/(K(sigma0^2 + sigma^2))")
    return derive(st, [
        link(">=", gap / (K_ * (s0_ + s_) + s0_), Decide(), "a larger denominator (sigma0^2 > 0)"),
        link("=", sympy.Abs(rho ** 2 - 1), Decide(), "rho^2 - 1 = (sigma^2/sigma0^2 - sigma0^2)/(K(sigma0^2 + "
                                                      "sigma^2) + sigma0^2) (rho of Theorem 5.1)"),
        link(">=", sympy.Abs(rho - 1), Decide(), "|rho^2 - 1| = |rho - 1| (rho + 1) >= |rho - 1|, as rho + 1 >= 1")],
                  facts={"beta_1": beta_1, "m": at_m})


@repair("DISC-RHO")
def repair_disc_rho(mode: Mode) -> Repair:
    return Repair("rho ~ 1 (and m ~ sigma0^2 sigma^-2/25) when K(sigma0^2 + sigma^2) >> |sigma^2/sigma0^2 - sigma0^2|",
                  "rho", [from_derivation(rho_derivation(), "all K, sigma0^2, sigma^2 > 0", "|rho - 1| <= "
                                          "|sigma^2/sigma0^2 - sigma0^2|/(K(sigma0^2 + sigma^2)), and |m 25 sigma^2/"
                                          "sigma0^2 - 1| <= 25(beta_1 - 1) + 24|rho - 1| with beta_1 - 1 < 1/K")])


@claim("DISC-SIGMA0-1/K", "Section 5.1",
       "'mK >= 2 permits sigma0^2 = O(1/K)'; the bounds stay O~(sqrt(K/n)) for small sigma0^2.",
       no_repair=NoRepair("the remark is right that mK >= 2 permits sigma0^2 = c/K; what it gets wrong is the rate, "
                          "which the repaired Theorem 5.1 gives", "repair:THM-FAIL"))
def check_disc_sigma0(mode: Mode):
    c = orders.c
    lim = orders.mK_limit_sigma0_over_K()
    c_need = {}
    for s in (0.1, 1.0, 10.0):
        g = sympy.lambdify(c, lim.subs(s_, s) - 2)
        from scipy.optimize import brentq
        c_need[s] = brentq(g, 1e-6, 1e9)
    thm = orders.K_exponent_of_gap_terms("theorem", "1/K")
    out = orders.K_exponent_of_gap_terms("outline", "1/K")
    f = [from_value(max(c_need.values()), "sigma0^2 = c/K, K -> infinity",
                    f"lim mK = {lim}; mK >= 2 needs c >= "
                    + ", ".join(f"{v:.4g} (sigma^2 = {k:g})" for k, v in c_need.items())
                    + ": sigma0^2 = O(1/K) is permitted with a large enough constant.", at_most=math.inf, strict=True),
         from_value(max(out.values()),
                 "sigma0^2 = c/K, fixed n, K -> infinity",
                 f"order in K of the gap terms: theorem as printed {thm}; with Theorem 3.1's 1/sigma0 kept (main-text "
                 f"outline) {out}. The O~(sqrt(K/n)) claim for sigma0^2 = O(1/K) relies on the dropped 1/sigma0; "
                 "with it the bound is O~(K/sqrt(n)).", at_most=sympy.Rational(1, 2), fail="inconsistent")]
    return Expect("mK >= 2 does permit sigma0^2 = c/K, but then the corrected bound is O~(K/sqrt(n)), "
                  "not O~(sqrt(K/n))",
                  "inconsistent"), f


@claim("DISC-HB", "Section 5.1",
       "H_b = O(K) when sigma0^2 = O(1) or O(1/K), given sigma^2 = O(1); monotonicity of H_b.",
       recompute=lambda p: (float(th.H_b(p["K"], p["sigma0_sq"], p["sigma_sq"])), 2.0 * p["K"]))
def check_disc_hb(mode: Mode):
    e1, e2 = orders.H_b_K_exponent("constant"), orders.H_b_K_exponent("1/K")
    der = orders.H_b_derivatives()
    signs = {k: (v.is_positive, v.is_negative) for k, v in der.items()}
    ok = e1 == 1 and e2 == 1 and signs["K"][0] and signs["sigma_sq"][0] and signs["sigma0_sq"][1]
    charitable = from_exact(bool(ok), "sigma0^2 = Theta(1) or Theta(1/K), sigma^2 = Theta(1) (symbolic)",
                         f"order in K: {e1} (sigma0^2 constant), {e2} (sigma0^2 = c/K). dH_b/dK = {der['K']}, "
                         f"dH_b/dsigma^2 = {der['sigma_sq']}, dH_b/dsigma0^2 = {der['sigma0_sq']}: H_b grows with K "
                         "and "
                         "sigma^2 and falls as sigma0^2 grows (the text's 'the variability of the arms' means sigma^2 "
                         "decreases' means sigma0^2).", kind="charitable")
    # literal: O(1) and O(1/K) admit everything smaller, e.g. sigma0^2 = K^-2
    e3 = orders.growth_exponent(th.H_b(K_, 1 / K_ ** 2, s_), K_)
    literal = from_value(e3, "sigma0^2 = O(1/K) read literally (any sigma0^2 <= c/K)",
                      f"sigma0^2 = K^-2 is O(1) and O(1/K), and then H_b = (K + sigma^2 K^2) sigma^2 has order K^{e3}"
                      + (", not O(K)." if e3 > 1 else "."),
                      witness=witness({"K": 1000, "sigma0_sq": 1e-6, "sigma_sq": 1.0}, float(th.H_b(1000, 1e-6, 1.0)),
                              1000.0 * 2, "<=", what="H_b against 2K") if e3 > 1 else None, at_most=1)
    return Expect("false as written (O(1/K) admits sigma0^2 = K^-2, where H_b ~ K^2); true when sigma0^2 >= c/K",
                  "refuted"), [literal, charitable]


#: the constant c of DISC-HB's repair (sigma0^2 >= c/K)
C_ = sympy.Symbol("c", positive=True)


def hb_derivation():
    """DISC-HB repaired, as a derivation (`verify.derivation`): K sigma^2 (1 + sigma^2/c) >= H_b (from
    `bounds.theorems.H_b`) when sigma0^2 >= c/K, since sigma^2/sigma0^2 <= sigma^2 K/c; a fact: equality at
    sigma0^2 = c/K."""
    bound = K_ * s_ * (1 + s_ / C_)
    tight = derive(Statement(th.H_b(K_, C_ / K_, s_), "==", bound, (), "H_b at sigma0^2 = c/K"), [
        link("=", bound, Decide(), "at sigma0^2 = c/K, sigma^2/sigma0^2 = sigma^2 K/c")])
    st = Statement(bound, ">=", th.H_b(K_, s0_, s_), (rel(s0_, ">=", C_ / K_),), "H_b <= K sigma^2 (1 + sigma^2/c)")
    return derive(st, [
        link(">=", th.H_b(K_, s0_, s_), Decide(), "K sigma^2 (1 + sigma^2/c) = (K + sigma^2 K/c) sigma^2, and sigma0^2 "
                                                  ">= c/K gives sigma^2/sigma0^2 <= sigma^2 K/c, so it is >= (K + "
                                                  "sigma^2/sigma0^2) sigma^2 = H_b")],
                  facts={"equality at sigma0^2 = c/K": tight})


@repair("DISC-HB")
def repair_disc_hb(mode: Mode) -> Repair:
    return Repair("H_b = O(K) when sigma0^2 >= c/K for a constant c > 0 and sigma^2 = O(1)", "H_b",
                  [from_derivation(hb_derivation(), "sigma0^2 >= c/K, any sigma^2",
                                   "H_b <= K sigma^2 (1 + sigma^2/c), with equality at sigma0^2 = c/K")])


def _order_sides(p: dict) -> tuple[float, float]:
    """A DISC-ORDER witness: the noise term's exponent in n at the named point, against -1/2."""
    ex = orders.n_exponents()["noise_term"].subs({orders.K: p["K"], orders.s0: p["sigma0_sq"],
                                                  orders.s: p["sigma_sq"], orders.d: p["delta"]})
    return float(ex), -0.5


@claim("DISC-ORDER", "Abstract, Introduction, Section 5.1",
       "The failure probability and simple regret are O~(sqrt(K/n)).",
       recompute=_order_sides)
def check_disc_order(mode: Mode):
    ex = orders.n_exponents()
    kx = orders.K_exponent_of_gap_terms()
    cond = "mK >= 3/2 and sigma^2 m/(delta(2 sigma0^2 + sigma^2)) >= 3/2"
    # how often the condition holds at delta = 1
    K, s0, s = 100, 1.0, 1.0
    e_noise = float(ex["noise_term"].subs({K_: K, s0_: s0, s_: s, d_: 1.0}))
    e_mean = float(ex["mean_term"].subs({K_: K, s0_: s0, s_: s, d_: 1.0}))
    f = [from_exact(ex["gap_term_E2"] == ex["gap_term_E1"] == sympy.Rational(-1, 2),
                    "symbolic, fixed K, sigma's, delta",
                    f"order in n: gap terms {ex['gap_term_E2']}, {ex['gap_term_E1']}; order in K for fixed n: {kx}."),
         from_value(e_noise, "symbolic", at_most=-0.5, fail="conditional",
                    holds=f"the last two terms are n^(1 - mK) and n^(1 - sigma^2 m/(delta(2 sigma0^2 + sigma^2))); at "
                          f"K = {K}, sigma0^2 = sigma^2 = 1, delta = 1 their exponents are {fmt(e_mean)} and "
                          f"{fmt(e_noise)}, at most -1/2.",
                    fails="the last two terms are n^(1 - mK) and n^(1 - sigma^2 m/(delta(2 sigma0^2 + sigma^2))); the "
                          f"whole bound is O~(n^-1/2) only if {cond}, which the abstract does not state. At K = {K}, "
                          f"sigma0^2 = sigma^2 = 1, delta = 1 the exponents are {fmt(e_mean)} and {fmt(e_noise)}: the "
                          "last term grows with n.",
                 witness=witness({"K": K, "sigma0_sq": s0, "sigma_sq": s, "delta": 1.0}, e_noise, -0.5, "<=",
                                 what="exponent of n in the last term"))]
    return f"O~(sqrt(K/n)) only under {cond}; with delta = 1 the bound grows with n", f
