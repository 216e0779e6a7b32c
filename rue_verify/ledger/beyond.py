"""Claims of CLAIMS-BEYOND.md: what a reader asks after the text, starting with the rates. RUE's
Bayesian failure probability and simple regret under the model of Section 3 (means iid N(mu0,
sigma0^2), Gaussian rewards of variance sigma^2, RUE told the variances), measured over n spanning
three decades with the conditional (Rao-Blackwell) estimators of `rue_verify.rates`, and their
exponents in n fitted with intervals on the large-n half."""

from __future__ import annotations

import numpy as np

from simulate.algorithms import get

from ..rates import fit_paired, log_slope, study
from ..rates.study import CLAIMED_EXPONENT as CLAIMED
from ..rates.study import SETTING
from ..reproduction import comparisons as C
from . import section6 as S6
from .core import Mode, claim, from_classes, from_rate, from_tightness, from_value, overall

#: the part of the paper these claims belong to (the report groups and filters by it)
SECTION = "Beyond the text: rates and tightness"

def curves(mode: Mode):
    """The truth at every budget (one set of runs, shared by RATE-FAIL and RATE-REGRET)."""
    return study.curves(mode.name == "thorough", mode.sim_runs, mode.seed)


def _rate(mode: Mode, quantity: str, attr: str):
    rows = curves(mode)
    ns = [r.n for r in rows]
    fit = fit_paired(ns, np.column_stack([getattr(r, attr + "_runs") for r in rows]), tail=0.5)
    lo, hi = fit.interval
    vr = np.median([getattr(r, "vr_" + attr) for r in rows])
    local = ", ".join(f"{m:.3g}: {b:.2f}" for m, b, _ in fit.local)
    detail = (f"measured exponent {fit.exponent:.3f} (95% interval [{lo:.3f}, {hi:.3f}]) on n in "
              f"{fit.n_range[0]}-{fit.n_range[1]}; the paper's rate is n^{CLAIMED}"
              + (f", so the claim's rate is loose by {CLAIMED - fit.exponent:.2f} in the exponent"
                 if hi <= CLAIMED else "") + "; "
              f"{'a power law fits' if fit.power_law else 'a power law does not fit (a log factor or a bend)'} "
              f"(local slopes against the line: chi2/df {fit.chi2_per_df:.2f}); local slopes by mid n: {local}; "
              f"conditional estimator, variance reduced {vr:.1f}x (median) against the plain one; {rows[0].runs} "
              "runs per budget, paired across budgets (jackknife intervals over runs)")
    witness = {"params": dict(SETTING), "quantity": quantity, "exponent_n": round(fit.exponent, 4),
               "interval": [round(lo, 4), round(hi, 4)], "n": list(fit.n_range), "claimed_exponent_n": CLAIMED}
    domain = f"RUE, {_setting_text()}, n in {ns[0]}-{ns[-1]}"
    finding = from_rate(fit.exponent, fit.interval, CLAIMED, domain, detail, witness=witness)
    fits = from_value(float(fit.power_law), "the fitted range", at_least=1, fail="inconclusive",
                      holds=f"the local slopes on the fitted range are consistent with one power (chi2/df "
                            f"{fit.chi2_per_df:.2f})",
                      fails=f"the local slopes on the fitted range reject one power (chi2/df {fit.chi2_per_df:.2f}): "
                            "the exponent summarises a curve that bends (a log factor?)")
    return f"{quantity}: exponent {fit.exponent:.2f} [{lo:.2f}, {hi:.2f}] against the claimed {CLAIMED}", \
        [finding, fits, _oracle_tightness(mode, attr)] + (_peer_tightness(mode) if attr == "failure" else [])


def _setting_text() -> str:
    return f"K = {SETTING['K']}, sigma0^2 = {SETTING['sigma0_sq']:g}, sigma^2 = {SETTING['sigma_sq']:g}"


def _oracle_tightness(mode: Mode, attr: str):
    """RUE's truth over the full-information oracle's (`bounds.lower`, a lower bound on every
    algorithm): the truth at the upper end of its 95% interval over the oracle at the lower end of its
    own, so a ratio below 1 would be a significant violation; and the two exponents in n."""
    thorough = mode.name == "thorough"
    rue, orc = curves(mode), study.oracle_curves(thorough, mode.sim_runs, mode.seed)
    ns = [r.n for r in rue]
    ratio = [getattr(a, attr).high / getattr(b, attr).low if getattr(b, attr).low > 0 else np.nan
             for a, b in zip(rue, orc)]          # nan: the oracle's interval reaches 0 (no evidence either way)
    fit = fit_paired(ns, np.column_stack([getattr(r, attr + "_runs") for r in rue]), tail=0.5)
    ofit = fit_paired(ns, np.column_stack([getattr(r, attr + "_runs") for r in orc]), tail=0.5)
    return from_tightness(ratio, [{**SETTING, "n": n} for n in ns],
                          f"RUE against the full-information oracle (n observations of every arm), {_setting_text()}, "
                          f"n in {ns[0]}-{ns[-1]}, {rue[0].runs} runs per budget on the same "
                          "instances", bound="full-information oracle", lower=True,
                          exponent={"variable": "n", "bound": ofit.exponent, "measured": fit.exponent,
                                    "interval": list(fit.interval), "range": list(fit.n_range)})


def _peer_tightness(mode: Mode) -> list:
    """Each peer's bound on its own failure probability (`rates.study.peer_bounds`) against its
    simulated truth (lower end of the 95% interval), with the exponents in n."""
    out = []
    for name in study.PEER_NAMES:
        rows = study.curves(mode.name == "thorough", mode.sim_runs, mode.seed, name)
        ns = np.array([r.n for r in rows], float)
        bound = np.array([study.peer_bounds(int(n))[name] for n in ns])
        low = np.array([max(r.failure.low, 1e-300) for r in rows])
        fit = fit_paired(ns, np.column_stack([r.failure_runs for r in rows]), tail=0.5)
        top = ns >= fit.n_range[0]
        out.append(from_tightness(bound / low, [{**SETTING, "algorithm": name, "n": int(n)} for n in ns],
                                  f"{get(name).title}, told the prior N(0, {SETTING['sigma0_sq']:g}) and sigma^2 = "
                                  f"{SETTING['sigma_sq']:g}, K = {SETTING['K']}, n in "
                                  f"{int(ns[0])}-{int(ns[-1])} ({rows[0].runs} runs per budget)",
                                  bound=study.PEER_BOUNDS[name],
                                  exponent={"variable": "n", "bound": log_slope(ns[top], bound[top]),
                                            "measured": fit.exponent, "interval": list(fit.interval),
                                            "range": list(fit.n_range)}))
    return out


@claim("RATE-FAIL", "Abstract and Section 5 (O~(sqrt(K/n)))",
       "Under the model of Section 3, RUE's Bayesian failure probability e_n decays like O~(sqrt(K/n)).",
       shares="rate-curves", no_repair="a rate finding: the measured exponent is the answer")
def check_rate_fail(mode: Mode):
    return _rate(mode, "failure probability", "failure")


@claim("RATE-REGRET", "Abstract and Section 5 (O~(sqrt(K/n)))",
       "Under the model of Section 3, RUE's Bayesian simple regret sr_n decays like O~(sqrt(K/n)).",
       shares="rate-curves", no_repair="a rate finding: the measured exponent is the answer")
def check_rate_regret(mode: Mode):
    return _rate(mode, "simple regret", "regret")


# ---------------------------------------------------------------- ABS-SOTA: the state of the art
#: the competitors: the paper's baselines, then the prior-dependent methods its related work cites
PAPER_BASELINES = ("ucbe", "sr", "sh", "ttts")
PEERS = study.PEER_NAMES


def _paper_settings(mode: Mode) -> list:
    """One finding per reading of Section 6's settings: RUE against every competitor with rows, in
    every cell of the fixed, random and arms studies (paired: common random numbers / instances)."""
    rows, where = S6.results(mode, "ABS-SOTA")
    have = {r["algorithm"] for r in rows}
    rivals = [a for a in PAPER_BASELINES + PEERS if a in have]
    absent = [a for a in PAPER_BASELINES + PEERS if a not in have]
    findings = []
    # the literal reading (section6.LITERAL), then the authors' code's (their H, ties and a = 2n/H)
    readings = [("section2", "project", "c"), ("suboptimal", "authors", "cn/H")]
    for h, conv, form in readings:
        lab = {**S6._labels(conv, form), **{p: get(p).label() for p in PEERS}}
        cells = []
        F = S6.table(rows, study="fixed", H_convention=h)
        cells += [(F, ("F" + str(i), 20, b), f"F{i} {b}") for i in range(1, 7) for b in ("H/2", "H", "2H")]
        R = S6._R(rows, S6.LITERAL["normal_scale"])          # both readings' random study: variance 0.1
        cells += [(R, (s, 20, b), f"{s} {b}") for s in ("R1", "R2", "R3") for b in ("N/4", "N/2", "N")]
        A = S6.table(rows, study="arms")
        cells += [(A, (s, K, b), f"{s} K={K} {b}") for (s, K, b, _) in sorted(A) if _ == "rue"]
        comps, names = [], []
        for T, (s, K, b), name in cells:
            for x in rivals:
                key = (s, K, b, lab[x] if x != "ucbe" or s.startswith("R") else S6._labels(conv)["ucbe"])
                if key in T and (s, K, b, "rue") in T:
                    comps.append(C.compare(T[(s, K, b, "rue")], T[key]))
                    names.append(f"{name} vs {x}")
        cls = C.classify(comps)
        by = {x: [k for nm, k in zip(names, cls) if nm.endswith(" vs " + x)] for x in rivals}
        text = ("RUE against " + ", ".join(f"{x} (better {v.count('better')}, worse {v.count('worse')}, undecided "
                                           f"{v.count('undecided')})" for x, v in by.items())
                + f" over {len(comps)} paired cells (Holm, family-wise 0.05)"
                + S6._cells_text(names, comps, cls, limit=8))
        dom = (f"Section 6's settings (fixed: H {'of Section 2' if h == 'section2' else 'over the suboptimal arms'}; "
               f"random: N(0.5, 0.1) as a variance; UCB-E's a = {'2' if form == 'c' else '2n/H'}; {conv}'s ties); "
               f"{where}" + (f"; no rows of {', '.join(absent)}" if absent else ""))
        kind = "computed" if (h, conv, form) == ("section2", "project", "c") else "charitable"
        findings.append(from_classes(cls, dom, text, kind=kind))
    return findings


def _model(mode: Mode) -> list:
    """RUE against the peers under the model of Section 3, paired run by
    run (same means and reward streams), on the conditional failure probability and simple regret."""
    rue = curves(mode)
    findings = []
    for attr, what in (("failure", "failure probability"), ("regret", "simple regret")):
        comps, names = [], []
        for x in study.ALGORITHMS[1:]:
            for a, b in zip(rue, study.curves(mode.name == "thorough", mode.sim_runs, mode.seed, x)):
                comps.append(C.paired_t(getattr(a, attr + "_runs"), getattr(b, attr + "_runs"), "runs"))
                names.append(f"n={a.n} vs {x}")
        cls = C.classify(comps)
        by = {x: [k for nm, k in zip(names, cls) if nm.endswith(" vs " + x)] for x in study.ALGORITHMS[1:]}
        text = (f"Bayesian {what}, RUE against " + ", ".join(
            f"{x} (better {v.count('better')}, worse {v.count('worse')}, undecided {v.count('undecided')})"
            for x, v in by.items()) + f" at {len(rue)} budgets {rue[0].n}-{rue[-1].n}, {rue[0].runs} runs paired "
            "(Holm over every cell)" + S6._cells_text(names, comps, cls))
        dom = (f"the model of Section 3, {_setting_text()}, every algorithm told what it "
               "assumes (RUE the variances, the peers the prior); the prior-free baselines are compared on Section 6's "
               "settings only")
        findings.append(from_classes(cls, dom, text))
    return findings


@claim("ABS-SOTA", "Abstract; Section 1",
       "RUE consistently outperforms state-of-the-art baselines, including (beyond the paper's comparison) the "
       "prior-dependent methods its related work cites: Bayesian elimination and prior-informed allocation.",
       needs=("fixed", "random", "arms"), no_repair="a comparison: the paired cells list where RUE wins and loses")
def check_abs_sota(mode: Mode):
    findings = _paper_settings(mode) + _model(mode)
    v = overall(findings)
    worst = next(f for f in findings if f.verdict == v)
    return f"{v} in {sum(f.verdict == v for f in findings)} of {len(findings)} findings; most severe: " \
           f"{worst.detail.split(';')[0]}", findings
