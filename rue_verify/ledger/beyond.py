"""Claims of CLAIMS-BEYOND.md: what a reader asks after the text, starting with the rates. Every
algorithm's Bayesian failure probability and simple regret under the model of Section 3 (means
N(0, sigma0^2), Gaussian rewards of variance sigma^2; RUE told the variances, the peers the prior),
from the rate study (`rue_verify.rates`: the paper-scale study shipped with the package, or
`Mode.rates`), with exponents in n fitted with jackknife intervals on the large-n half of each
curve, and in K across the settings that differ only in K."""

from __future__ import annotations

import functools

import numpy as np

from simulate.algorithms import get
from simulate.environments import F_SETUPS, FIXED_BUDGETS, PAPER_BASELINES, PAPER_K, R_SETUPS, RANDOM_BUDGETS

from .. import rates
from ..rates import log_slope, study
from ..rates.study import CLAIMED_EXPONENT as CLAIMED
from ..rates.study import CLAIMED_EXPONENT_K as CLAIMED_K
from ..rates.summary import fit_in_K
from ..reproduction import comparisons as C
from . import section6_cells as S6
from .core import Mode, NoRepair, claims_in, from_classes, from_rate, from_tightness, from_value, overall

#: the part of the paper these claims belong to (the report groups and filters by it)
SECTION = "Beyond the text: rates and tightness"
claim = claims_in(SECTION)
#: the setting RATE-FAIL and RATE-REGRET report first, and the tightness findings use
BASE = "base"


@functools.lru_cache(maxsize=4)
def _load(directory: str | None):
    return rates.load(directory)


def study_results(mode: Mode):
    """The rate study the claims read (shipped unless `mode.inputs.rates` names a directory)."""
    return _load(mode.inputs.rates)


def base_curve(mode: Mode, algorithm: str = "rue"):
    return study_results(mode).curve(BASE, algorithm)


def _rate_in_n(curve, quantity: str, q: str):
    fit = curve.fit(q)
    lo, hi = fit.interval
    vr = np.median(curve.vr[q])
    local = ", ".join(f"{m:.3g}: {b:.2f}" for m, b, _ in fit.local)
    ns = curve.n
    detail = (f"measured exponent {fit.exponent:.3f} (95% interval [{lo:.3f}, {hi:.3f}]) on n in "
              f"{fit.n_range[0]}-{fit.n_range[1]}; the paper's rate is n^{CLAIMED}"
              + (f", so the claim's rate is loose by {CLAIMED - fit.exponent:.2f} in the exponent"
                 if hi <= CLAIMED else "") + "; "
              f"{'a power law fits' if fit.power_law else 'a power law does not fit (a log factor or a bend)'} "
              f"(local slopes against the line: chi2/df {fit.chi2_per_df:.2f}); local slopes by mid n: {local}; "
              f"conditional estimator{' with near-tie importance sampling' if curve.setting.tilt else ''}, variance "
              f"{vr:.1f}x (median over budgets) below plain Monte Carlo under the prior; {curve.runs} runs per budget, "
              "paired across budgets (jackknife intervals over blocks of runs)")
    witness = {"params": curve.setting.params, "quantity": quantity, "exponent_n": round(float(fit.exponent), 4),
               "interval": [round(float(lo), 4), round(float(hi), 4)], "n": [int(x) for x in fit.n_range],
               "claimed_exponent_n": CLAIMED}
    domain = f"RUE, {curve.setting.text}, n in {ns[0]}-{ns[-1]}"
    return fit, from_rate(fit.exponent, fit.interval, CLAIMED, domain, detail, witness=witness)


def _rate_in_K(mode: Mode, quantity: str, q: str):
    """The exponent in K at the largest budget the settings differing only in K share."""
    fits = fit_in_K(study_results(mode), "rue", q, BASE)
    if not fits:
        return []
    n, fit, pts = fits[-1]
    lo, hi = fit.interval
    others = "; at smaller budgets: " + ", ".join(f"n = {m}: {f.exponent:.2f}" for m, f, _ in fits[:-1]) \
        if len(fits) > 1 else ""
    detail = (f"measured exponent in K {fit.exponent:.3f} (95% interval [{lo:.3f}, {hi:.3f}]) at n = {n} over K in "
              + ", ".join(f"{K} ({y:.3g})" for K, y, _ in pts) + f"; the paper's rate grows like K^{CLAIMED_K}"
              + (f", so its K-dependence is loose by {CLAIMED_K - fit.exponent:.2f}" if hi <= CLAIMED_K else "")
              + f"{others}; independent settings, normal interval from the estimates' standard errors")
    params = {k: v for k, v in study_results(mode).settings()[BASE].params.items() if k != "K"}
    witness = {"params": params, "quantity": quantity, "exponent_K": round(float(fit.exponent), 4),
               "interval": [round(float(lo), 4), round(float(hi), 4)], "K": [int(pts[0][0]), int(pts[-1][0])],
               "n": int(n), "claimed_exponent_K": CLAIMED_K}
    return [from_rate(fit.exponent, fit.interval, CLAIMED_K, f"RUE, K in {', '.join(str(int(p[0])) for p in pts)}, "
                      f"n = {n}, the base setting's variances", detail, witness=witness)]


def _rate(mode: Mode, quantity: str, q: str):
    res = study_results(mode)
    fit, finding = _rate_in_n(base_curve(mode), quantity, q)
    lo, hi = fit.interval
    fits = from_value(float(fit.power_law), "the fitted range", at_least=1, fail="inconclusive",
                      holds=f"the local slopes on the fitted range are consistent with one power (chi2/df "
                            f"{fit.chi2_per_df:.2f})",
                      fails=f"the local slopes on the fitted range reject one power (chi2/df {fit.chi2_per_df:.2f}): "
                            "the exponent summarises a curve that bends (a log factor?)")
    elsewhere = [_rate_in_n(res.curve(name, "rue"), quantity, q)[1] for name in res.settings()
                 if name != BASE and res.has(name, "rue") and res.curve(name, "rue").n.size >= 3]
    return f"{quantity}: exponent {fit.exponent:.2f} [{lo:.2f}, {hi:.2f}] against the claimed {CLAIMED} " \
           f"({res.description})", \
        [finding, fits] + elsewhere + _rate_in_K(mode, quantity, q) + [_oracle_tightness(mode, q)] \
        + (_peer_tightness(mode) if q == "failure" else [])


def _oracle_tightness(mode: Mode, q: str):
    """RUE's truth over the full-information oracle's (`bounds.lower`, a lower bound on every
    algorithm): the truth at the upper end of its 95% interval over the oracle at the lower end of its
    own, so a ratio below 1 would be a significant violation; and the two exponents in n."""
    rue, orc = base_curve(mode), base_curve(mode, "oracle")
    ns = rue.n
    ratio = [a.high / b.low if b.low > 0 else np.nan        # nan: the oracle's interval reaches 0 (no evidence)
             for a, b in zip(rue.intervals(q), orc.intervals(q))]
    fit, ofit = rue.fit(q), orc.fit(q)
    return from_tightness(ratio, [{**rue.setting.params, "n": int(n)} for n in ns],
                          f"RUE against the full-information oracle (n observations of every arm), {rue.setting.text}, "
                          f"n in {ns[0]}-{ns[-1]}, {rue.runs} runs per budget on the same "
                          "instances", bound="full-information oracle", lower=True,
                          exponent={"variable": "n", "bound": ofit.exponent, "measured": fit.exponent,
                                    "interval": list(fit.interval), "range": list(fit.n_range)})


def _peer_tightness(mode: Mode) -> list:
    """Each peer's bound on its own failure probability (`rates.study.peer_bounds`) against its
    simulated truth (lower end of the 95% interval), with the exponents in n."""
    out = []
    for name in study.PEER_NAMES:
        c = base_curve(mode, name)
        ns = c.n.astype(float)
        low = np.array([max(iv.low, 1e-300) for iv in c.intervals("failure")])
        fit = c.fit("failure")
        top = ns >= fit.n_range[0]
        for label, values in ((study.PEER_BOUNDS[name], study.peer_bounds),
                              (study.PUBLISHED_BOUNDS.get(name), study.published_bounds)):
            if label is None:
                continue
            bound = np.array([values(int(n), c.setting)[name] for n in ns])
            out.append(from_tightness(bound / low, [{**c.setting.params, "algorithm": name, "n": int(n)} for n in ns],
                                      f"{get(name).title}, told the prior N(0, {c.setting.sigma0_sq:g}) and sigma^2 "
                                      f"= {c.setting.sigma_sq:g}, K = {c.setting.K}, n in "
                                      f"{int(ns[0])}-{int(ns[-1])} ({c.runs} runs per budget)", bound=label,
                                      exponent={"variable": "n", "bound": log_slope(ns[top], bound[top]),
                                                "measured": fit.exponent, "interval": list(fit.interval),
                                                "range": list(fit.n_range)}))
    return out


@claim("RATE-FAIL", "Abstract and Section 5 (O~(sqrt(K/n)))",
       "Under the model of Section 3, RUE's Bayesian failure probability e_n decays like O~(sqrt(K/n)).",
       no_repair=NoRepair("a rate finding: the measured exponent is the answer", "finding:rate"))
def check_rate_fail(mode: Mode):
    return _rate(mode, "failure probability", "failure")


@claim("RATE-REGRET", "Abstract and Section 5 (O~(sqrt(K/n)))",
       "Under the model of Section 3, RUE's Bayesian simple regret sr_n decays like O~(sqrt(K/n)).",
       no_repair=NoRepair("a rate finding: the measured exponent is the answer", "finding:rate"))
def check_rate_regret(mode: Mode):
    return _rate(mode, "simple regret", "regret")


# ---------------------------------------------------------------- ABS-SOTA: the state of the art
#: the competitors: the paper's baselines, then the prior-dependent methods its related work cites
PEERS = study.PEER_NAMES


def _paper_settings(mode: Mode) -> list:
    """One finding per reading of Section 6's settings: RUE against every competitor with rows, in
    every cell of the fixed, random and arms studies (paired: common random numbers / instances)."""
    rows, where = S6.results(mode, "ABS-SOTA")
    have = {r["algorithm"] for r in rows}
    rivals = [a for a in PAPER_BASELINES + PEERS if a in have]
    absent = [a for a in PAPER_BASELINES + PEERS if a not in have]
    findings = []
    # the literal reading (section6_cells.LITERAL), then the authors' code's (their H, ties and a = 2n/H)
    readings = [("section2", "project", "c"), ("suboptimal", "authors", "cn/H")]
    for h, conv, form in readings:
        lab = {**S6.row_labels(conv, form), **{p: get(p).label() for p in PEERS}}
        cells = []
        F = S6.table(rows, study="fixed", H_convention=h)
        cells += [(F, (s, PAPER_K, b), f"{s} {b}") for s in F_SETUPS for b in FIXED_BUDGETS]
        R = S6.random_cells(rows, S6.LITERAL["normal_scale"])          # both readings' random study: variance 0.1
        cells += [(R, (s, PAPER_K, b), f"{s} {b}") for s in R_SETUPS for b in RANDOM_BUDGETS]
        A = S6.table(rows, study="arms")
        cells += [(A, (s, K, b), f"{s} K={K} {b}") for (s, K, b, _) in sorted(A) if _ == "rue"]
        comps, names = [], []
        for T, (s, K, b), name in cells:
            for x in rivals:
                key = (s, K, b, lab[x] if x != "ucbe" or s.startswith("R") else S6.row_labels(conv)["ucbe"])
                if key in T and (s, K, b, "rue") in T:
                    comps.append(C.compare(T[(s, K, b, "rue")], T[key]))
                    names.append(f"{name} vs {x}")
        cls = C.classify(comps)
        by = {x: [k for nm, k in zip(names, cls) if nm.endswith(" vs " + x)] for x in rivals}
        text = ("RUE against " + ", ".join(f"{x} (better {v.count('better')}, worse {v.count('worse')}, undecided "
                                           f"{v.count('undecided')})" for x, v in by.items())
                + f" over {len(comps)} paired cells (Holm, family-wise 0.05)"
                + S6.cells_text(names, comps, cls, limit=8))
        dom = (f"Section 6's settings (fixed: H {'of Section 2' if h == 'section2' else 'over the suboptimal arms'}; "
               f"random: N(0.5, 0.1) as a variance; UCB-E's a = {'2' if form == 'c' else '2n/H'}; {conv}'s ties); "
               f"{where}" + (f"; no rows of {', '.join(absent)}" if absent else ""))
        kind = "computed" if (h, conv, form) == ("section2", "project", "c") else "charitable"
        findings.append(from_classes(cls, dom, text, kind=kind))
    return findings


def _model(mode: Mode) -> list:
    """RUE against every other algorithm of the rate study under the model of Section 3, on every
    setting and budget both ran, paired by blocks of runs (the same means and reward streams): a
    paired t-test on the block means (batch means), Holm's correction over every cell of a quantity."""
    res = study_results(mode)
    findings = []
    for q, what in (("failure", "failure probability"), ("regret", "simple regret")):
        comps, names, rivals = [], [], []
        for name in res.settings():
            if not res.has(name, "rue"):
                continue
            rue = res.curve(name, "rue")
            for x in res.algorithms(name):
                if x in ("rue", rates.grid.ORACLE):
                    continue
                rivals.append(x)
                c = res.curve(name, x)
                for j, n in enumerate(c.n):
                    if n in rue.n:
                        comps.append(C.paired_t(rue.block_means(q)[:, rue.index(n)], c.block_means(q)[:, j],
                                                "blocks of runs"))
                        names.append(f"{name} n={n} vs {x}")
        cls = C.classify(comps)
        by = {x: [k for nm, k in zip(names, cls) if nm.endswith(" vs " + x)] for x in dict.fromkeys(rivals)}
        text = (f"Bayesian {what}, RUE against " + ", ".join(
            f"{x} (better {v.count('better')}, worse {v.count('worse')}, undecided {v.count('undecided')})"
            for x, v in by.items()) + f" over {len(comps)} paired cells on {len(res.settings())} settings "
            f"(paired t on {res.curve(BASE, 'rue').counts.size} blocks of runs, Holm over every cell)"
            + S6.cells_text(names, comps, cls))
        dom = (f"the model of Section 3 ({res.description}): settings " + "; ".join(
            f"{s.name}: {s.text}" for s in res.settings().values()) + "; every algorithm told what it assumes "
            "(RUE the variances, the peers the prior, the prior-free baselines nothing)")
        findings.append(from_classes(cls, dom, text))
    return findings


@claim("ABS-SOTA", "Abstract; Section 1",
       "RUE consistently outperforms state-of-the-art baselines, including (beyond the paper's comparison) the "
       "prior-dependent methods its related work cites: Bayesian elimination and prior-informed allocation.",
       needs=("fixed", "random", "arms"),
       no_repair=NoRepair("a comparison: the paired cells list where RUE wins and loses", "finding:computed"))
def check_abs_sota(mode: Mode):
    findings = _paper_settings(mode) + _model(mode)
    v = overall(findings)
    worst = next(f for f in findings if f.verdict == v)
    return f"{v} in {sum(f.verdict == v for f in findings)} of {len(findings)} findings; most severe: " \
           f"{worst.detail.split(';')[0]}", findings
