"""Claims of CLAIMS-BEYOND.md: what a reader asks after the text, starting with the rates. Every
algorithm's Bayesian failure probability and simple regret under the model of Section 3 (means
N(0, sigma0^2), Gaussian rewards of variance sigma^2; RUE told the variances, the peers the prior),
from the rate study (`rue_verify.rates`: the paper-scale study shipped with the package, or
`Mode.inputs.rates`), with exponents in n fitted with jackknife intervals on the large-n half of each
curve, and in K across the settings that differ only in K."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from bounds import limit
from simulate.algorithms import get
from simulate.environments import F_SETUPS, FIXED_BUDGETS, PAPER_BASELINES, PAPER_K, R_SETUPS, RANDOM_BUDGETS

from .. import rates
from ..rates import efficiency, log_slope, study
from ..rates.study import CLAIMED_EXPONENT as CLAIMED
from ..rates.study import CLAIMED_EXPONENT_K as CLAIMED_K
from ..rates.summary import fit_in_K
from ..reproduction import comparisons as C
from ..verify import (
    Mode,
    NoRepair,
    claims_in,
    from_classes,
    from_count,
    from_rate,
    from_tightness,
    from_value,
    overall,
)
from . import section6_cells as S6

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


def _constant(curve, q: str):
    """The constant sqrt(n) e_n (or n sr_n) of `curve` over its largest budgets against the limit's
    (`rates.efficiency`): holds when it does not grow significantly over the fitted range (the drift's
    interval reaches 0 or lies below), so that y <= C n^(limit exponent) with C the largest upper end
    measured; inconclusive when it grows (a slowly varying factor, or a slower power)."""
    e = efficiency.efficiency(curve, q)
    c, lo, hi = e.constant
    f, flo, fhi = e.efficiency
    d, dlo, dhi = e.drift
    scale = "sqrt(n) e_n" if q == "failure" else "n sr_n"
    cmax = float(np.nanmax(e.scaled[:, 2]))
    by_n = ", ".join(f"{int(n)}: {y:.3g}" for n, y in zip(e.n, e.scaled[:, 0]))
    text = (f"{scale} over the largest budgets ({', '.join(str(n) for n in e.top)}): {c:.4g} [{lo:.4g}, {hi:.4g}]; the "
            f"limit's constant {e.limit:.4g} (bounds.limit, every algorithm at least this in the limit), so the "
            f"efficiency is {f:.3f} [{flo:.3f}, {fhi:.3f}]; "
            + (f"drift of {scale} in n on {e.drift_range[0]}-{e.drift_range[1]}: n^{d:+.3f} [{dlo:+.3f}, {dhi:+.3f}]"
               if e.drift_range else "no drift (fewer than three budgets, or a zero estimate)")
            + f"; {scale} by budget: {by_n}")
    holds = text + (f"; it does not grow significantly, so at every budget measured {scale} <= {cmax:.4g} (the "
                    "largest upper end of its 95% intervals): a bound of the claimed form, with the limit below it")
    fails = text + "; it grows significantly: a slowly varying factor (allowed by O~) or a slower power, not settled"
    who = "RUE" if curve.algorithm == "rue" else curve.algorithm
    f = from_value(dlo, f"{who}, {curve.setting.text}, n in {e.n[0]}-{e.n[-1]} ({curve.runs} runs per budget; 95% "
                        "batch-means interval over blocks of runs)",
                   holds=holds, fails=fails, at_most=0.0, fail="inconclusive", kind="rate")
    return e, dataclasses.replace(f, witness=e.witness())        # kept whatever the verdict, as a rate's is


def _settled(rate_finding, constant_finding):
    """An exponent that cannot be told from the claimed one is settled by a constant that converges."""
    if rate_finding.verdict != "inconclusive" or constant_finding.verdict != "holds":
        return rate_finding
    w = constant_finding.witness or {}
    return dataclasses.replace(
        rate_finding, verdict="holds",
        detail=rate_finding.detail + f"; settled by the constant: it does not drift significantly (over the "
                                     f"largest budgets {w.get('constant')}, efficiency {w.get('efficiency')} "
                                     "against the limit), so the claimed power holds with a constant on the "
                                     "measured budgets")


def _limit_checks(mode: Mode, q: str) -> list:
    """The limit's own checks on the study: every algorithm with budget n meets the finite-n bound at
    every budget (the truth's interval reaching the bound or above), and the oracle sits below the
    limit by the factor the derivation predicts (its constant over the limit's interval holding
    ORACLE_FACTOR). Each family at 99.9% family-wise (`efficiency.family_level`, Bonferroni). A
    failure makes the yardstick, not the claim, doubtful: inconclusive."""
    res = study_results(mode)
    family = 0.999
    bad, worst = [], None
    off, checked = [], []
    points, oracles = [], []
    for name, setting in res.settings().items():
        for alg in res.algorithms(name):
            c = res.curve(name, alg)
            if alg == rates.grid.ORACLE:
                oracles.append((name, setting, c))
            elif setting.prior_ratio == 1:
                points += [(name, setting, alg, c, j, int(n)) for j, n in enumerate(c.n)]
    total = len(points)
    level = efficiency.family_level(total, family)
    for name, setting, alg, c, j, n in points:
        b = efficiency.finite_bound(setting, q, n)
        r = c.interval(q, j, level).high / b
        if worst is None or r < worst[0]:
            worst = (r, name, alg, n)
        if r < 1:
            bad.append({"params": {**setting.params, "algorithm": alg, "n": n}, "ratio": round(r, 4)})
    oracle_level = efficiency.family_level(len(oracles), family)
    for name, setting, c in oracles:
        e = efficiency.efficiency(c, q, level=oracle_level)
        lo, hi = e.efficiency[1], e.efficiency[2]
        want = limit.ORACLE_FACTOR[q]
        checked.append(f"{name} {e.efficiency[0]:.3f} [{lo:.3f}, {hi:.3f}]")
        if not lo <= want <= hi:
            off.append({"params": setting.params, "efficiency": [round(lo, 4), round(hi, 4)],
                        "predicted": round(want, 4)})
    what = "e_n" if q == "failure" else "sr_n"
    meets = from_count(len(bad), f"every algorithm of the study on its common-prior settings, {total} (setting, "
                                 "algorithm, budget) points",
                       holds=f"every algorithm's {what} meets the finite-n limit (bounds.limit) at every budget: the "
                             "smallest truth over bound (upper end of its interval, 99.9% family-wise over "
                             f"the {total} points) is "
                             f"{worst[0]:.3f} ({worst[2]} on {worst[1]}, n = {worst[3]})",
                       fails=f"{len(bad)} points fall below the finite-n limit, which every algorithm must meet: the "
                             "derivation or the study is wrong there", fail="inconclusive",
                       witness=lambda: bad[0])
    oracle = from_count(len(off), "the full-information oracle on every setting of the study",
                        holds="the oracle's constant over the limit's holds the predicted "
                              f"{limit.ORACLE_FACTOR[q]:.4g} (intervals 99.9% family-wise over the settings): "
                              + "; ".join(checked),
                        fails=f"the oracle's constant over the limit's misses the predicted "
                              f"{limit.ORACLE_FACTOR[q]:.4g} on {len(off)} settings: " + "; ".join(checked),
                        fail="inconclusive", witness=lambda: off[0])
    return [meets, oracle]


def _limit_tightness(mode: Mode, q: str):
    """RUE's truth over the finite-n limit on the base setting (the upper end of its 95% interval)."""
    c = base_curve(mode)
    e = efficiency.efficiency(c, q)
    fit = c.fit(q)
    bounds_n = np.array([efficiency.finite_bound(c.setting, q, int(n)) for n in c.n])
    return from_tightness(e.finite_ratio[:, 2], [{**c.setting.params, "n": int(n)} for n in c.n],
                          f"RUE against the limit (every algorithm with budget n), {c.setting.text}, n in "
                          f"{c.n[0]}-{c.n[-1]}, {c.runs} runs per budget", bound="the limit (bounds.limit, derived "
                          "here)", lower=True,
                          exponent={"variable": "n", "bound": log_slope(c.n[c.n >= fit.n_range[0]].astype(float),
                                                                        bounds_n[c.n >= fit.n_range[0]]),
                                    "measured": fit.exponent, "interval": list(fit.interval),
                                    "range": list(fit.n_range)})


def _rate(mode: Mode, quantity: str, q: str):
    res = study_results(mode)
    fit, finding = _rate_in_n(base_curve(mode), quantity, q)
    _, const = _constant(base_curve(mode), q)
    finding = _settled(finding, const)
    lo, hi = fit.interval
    fits = from_value(float(fit.power_law), "the fitted range", at_least=1, fail="inconclusive",
                      holds=f"the local slopes on the fitted range are consistent with one power (chi2/df "
                            f"{fit.chi2_per_df:.2f})",
                      fails=f"the local slopes on the fitted range reject one power (chi2/df {fit.chi2_per_df:.2f}): "
                            "the exponent summarises a curve that bends (a log factor?)")
    elsewhere = []
    for name in res.settings():
        if name != BASE and res.has(name, "rue") and res.curve(name, "rue").n.size >= 3:
            c = res.curve(name, "rue")
            other_const = _constant(c, q)[1]
            elsewhere += [_settled(_rate_in_n(c, quantity, q)[1], other_const), other_const]
    e = efficiency.efficiency(base_curve(mode), q)
    return f"{quantity}: exponent {fit.exponent:.2f} [{lo:.2f}, {hi:.2f}] against the claimed {CLAIMED}; " \
           f"efficiency against the limit {e.efficiency[0]:.2f} [{e.efficiency[1]:.2f}, {e.efficiency[2]:.2f}] " \
           f"({res.description})", \
        [finding, const, fits] + elsewhere + _rate_in_K(mode, quantity, q) + _limit_checks(mode, q) \
        + [_limit_tightness(mode, q), _oracle_tightness(mode, q)] + (_peer_tightness(mode) if q == "failure" else [])


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
                          f"n in {ns[0]}-{ns[-1]}, {rue.runs} runs per budget (the oracle's exact error over "
                          f"{orc.runs} prior draws)", bound="full-information oracle", lower=True,
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


# ---------------------------------------------------------------- LIMIT-TIGHT: is the limit reached?
#: the family-wise error rate of LIMIT-TIGHT's intervals, Bonferroni-corrected over every interval it scans
LIMIT_FAMILY_LEVEL = 0.95


def _scanned(res) -> list[tuple]:
    """Every (quantity, setting name, algorithm) whose efficiency LIMIT-TIGHT scans: the study's
    common-prior settings, every algorithm with at least TOP budgets (the oracle is not an algorithm)."""
    out = []
    for q in ("failure", "regret"):
        for name, setting in res.settings().items():
            if setting.prior_ratio != 1:
                continue
            for alg in res.algorithms(name):
                if alg != rates.grid.ORACLE and res.curve(name, alg).n.size >= efficiency.TOP:
                    out.append((q, name, alg))
    return out


def _closest(res, K: int, q: str, level: float) -> list[tuple]:
    """Every scanned algorithm's efficiency (estimate, low, high at `level`) on the study's common-prior
    settings with K arms, the estimate closest to 1 first: [(efficiency, setting, algorithm)]."""
    out = [(efficiency.efficiency(res.curve(name, alg), q, level=level).efficiency, name, alg)
           for qq, name, alg in _scanned(res) if qq == q and res.settings()[name].K == K]
    return sorted(out, key=lambda x: abs(x[0][0] - 1))


@claim("LIMIT-TIGHT", "bounds.limit (derived here; CLAIMS-BEYOND.md)",
       "The limit of bounds.limit is reached: on the model of Section 3 some algorithm's constant is at the "
       "limit, within its interval, at every K of the rate study.",
       no_repair=NoRepair("a question about the limit, answered by measurement", "finding:rate"))
def check_limit_tight(mode: Mode):
    """For each K of the study and each quantity, every algorithm's efficiency (constant over the
    limit's, over the largest budgets, `rates.efficiency`) on its common-prior settings, with
    simultaneous intervals: Bonferroni over every (setting, algorithm, quantity) scanned, family-wise
    LIMIT_FAMILY_LEVEL. The limit is reached at K where some interval reaches 1. Finite budgets cannot
    settle an asymptotic limit: "holds" says that at the budgets measured some algorithm cannot be told
    from the limit. An interval entirely above 1 for every algorithm leaves the question open (another
    algorithm, or larger budgets, may do better): inconclusive, never refuted (an interval below 1 would
    break the limit itself, which RATE-FAIL's limit checks judge)."""
    res = study_results(mode)
    Ks = sorted({s.K for s in res.settings().values() if s.prior_ratio == 1})
    m = len(_scanned(res))
    level = 1 - (1 - LIMIT_FAMILY_LEVEL) / m
    findings, best = [], {}
    for q, quantity in (("failure", "sqrt(n) e_n"), ("regret", "n sr_n")):
        short = []
        for K in Ks:
            ranked = _closest(res, K, q, level)
            (e, lo, hi), name, alg = ranked[0]
            best[(q, K)] = (alg, name, e, lo, hi)
            if all(v[1] > 1 for v, _, _ in ranked):
                short.append({"params": {**res.settings()[name].params, "algorithm": alg}, "quantity": quantity,
                              "efficiency": [round(e, 3), round(lo, 3), round(hi, 3)], "level": level,
                              "intervals": m, "others": {f"{a} ({s})": round(v[0], 3) for v, s, a in ranked[1:]}})
        text = "; ".join(f"K = {K}: {best[(q, K)][0]} on {best[(q, K)][1]} {best[(q, K)][2]:.3f} "
                         f"[{best[(q, K)][3]:.3f}, {best[(q, K)][4]:.3f}], {100 * (best[(q, K)][2] - 1):+.1f}% from "
                         "the limit" for K in Ks)
        dom = (f"{quantity}, every algorithm of the study on its common-prior settings, K = {', '.join(map(str, Ks))}, "
               f"over each curve's largest {efficiency.TOP} budgets ({res.description}); {m} intervals, each at "
               f"{level:.5f} (Bonferroni, family-wise {LIMIT_FAMILY_LEVEL:g}); finite budgets cannot settle an "
               "asymptotic limit")
        findings.append(from_count(len(short), dom,
                                   holds=f"at every K some algorithm cannot be told from the limit at the budgets "
                                         f"measured (the closest, with simultaneous intervals: {text})",
                                   fails=f"at K = {', '.join(str(w['params']['K']) for w in short)} no algorithm's "
                                         f"simultaneous interval reaches the limit (the closest: {text}); the limit "
                                         "may still be reachable at larger budgets or by a rule the study does not "
                                         "run", fail="inconclusive", witness=lambda s=short: s[0]))
    pair = [(name, q, efficiency.efficiency(res.curve(name, "top-pair"), q))
            for name, s in res.settings().items() if res.has(name, "top-pair") for q in ("failure", "regret")]
    if pair:
        rows = "; ".join(f"{name} {q} {e.efficiency[0]:.2f} (drift n^{e.drift[0]:+.3f} [{e.drift[1]:+.3f}, "
                         f"{e.drift[2]:+.3f}])" for name, q, e in pair)
        stuck = [{"setting": name, "quantity": q, "efficiency": [round(x, 3) for x in e.efficiency],
                  "drift": [round(x, 4) for x in e.drift]} for name, q, e in pair
                 if e.efficiency[1] > 1 and e.drift[2] >= 0]
        findings.append(from_count(len(stuck), "the top pair (simulate.algorithms.top_pair, written to reach the "
                                               "limit) on every setting of the study",
                                   holds=f"wherever the top pair is significantly above the limit its constant falls "
                                         f"significantly with n, towards the limit: {rows}",
                                   fails=f"on {len(stuck)} of {len(pair)} the top pair is above the limit and not "
                                         f"seen approaching it (drift interval reaching 0 or above): {rows}",
                                   fail="inconclusive", witness=lambda: stuck[0], kind="rate"))
    v = overall(findings)
    closest = ", ".join(f"K = {K}: {alg} {e:.2f} [{lo:.2f}, {hi:.2f}]"
                        for K in Ks for alg, _, e, lo, hi in [best[("regret", K)]])
    return (f"{v}: the closest efficiency in simple regret (simultaneous intervals over {m}) at {closest}; finite "
            "budgets cannot settle an asymptotic limit"), findings
