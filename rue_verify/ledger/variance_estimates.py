"""VAR-EST-COST, VAR-EST-METHODS and TOPTWO-REST of CLAIMS-BEYOND.md: what RUE's variance estimates cost,
whether the estimator Section 4 names matters, and whether the top-two balanced variant's gain outside
near ties holds on equal terms. Judged from the variance-estimator study (`rue_verify.rates.estimators`:
the paper-scale rows shipped with the package, or an `estimators` directory inside `Mode.inputs.rates`).

Every comparison is paired (the same instances, reward streams and, within an algorithm, seeds) over
blocks of runs, with Bonferroni-simultaneous t-intervals per claim (family-wise FAMILY_LEVEL). A part
holds where its interval lies inside the claim's band, is refuted where it lies wholly outside, and is
inconclusive otherwise; a claim's verdict is its most severe part's."""

from __future__ import annotations

import dataclasses
import functools
import itertools

from ..rates import estimators as E
from ..rates.cliff import paired_ratio
from ..verify import Mode, NoRepair, Repair, claims_in, from_parts, repair, witness
from .beyond import SECTION

claim = claims_in(SECTION)
#: the family-wise level of each claim's comparisons (Bonferroni over them)
FAMILY_LEVEL = 0.95
#: the paper's experiments' estimates (Section 6; the authors' code)
PAPERS = "authors"
#: the estimators Section 4 names: the method of moments (two forms: the authors' and the unbiased
#: ANOVA one), maximum likelihood and REML
NAMED = ("authors", "unbiased", "ml", "reml")
QUANTITY = {"failure": "Bayesian failure probability", "regret": "simple regret", "rest": "simple regret outside near "
            "ties (the rest part of the split)"}


@functools.lru_cache(maxsize=4)
def _load(directory: str | None):
    return E.load(directory)


def study(mode: Mode) -> E.EstimatorResults:
    return _load(E.ledger_source(mode.inputs.rates))


def band_verdict(iv, low: float, high: float) -> str:
    """holds where the interval lies inside [low, high], refuted where wholly outside, else inconclusive."""
    if low <= iv.low and iv.high <= high:
        return "holds"
    return "refuted" if iv.low > high or iv.high < low else "inconclusive"


def _compare(a: E.Cell, b: E.Cell, q: str, level: float):
    """(a's mean of q over b's, paired) with its interval, and the paired margin a - b."""
    return paired_ratio(a.block_means(q), b.block_means(q), a.counts, level, tolerance=1.0)


def _params(c: E.Cell) -> dict:
    return {"K": c.K, "n": c.n, "sigma0_sq": 1.0, "sigma_sq": 1.0, "variances": c.variances}


def _sides(res: E.EstimatorResults, p: dict) -> tuple[float, float]:
    """Both sides of a witness (`_witness`) from the study's rows: for a ratio outside its band, the
    interval's nearer end against the band's edge; for a difference claimed <= 0, its lower end against 0."""
    a = res.cell(p["K"], p["n"], p["algorithm"], p["variances"])
    b = res.cell(p["K"], p["n"], p["against_algorithm"], p["against"])
    if a is None or b is None:
        raise ValueError(f"the study {res.description} holds no cell {p}")
    r, d = _compare(a, b, p["quantity"], p["level"])
    if p["check"] == "difference":
        return d.low, 0.0
    lo, hi = p["band"]
    return (r.low, hi) if p["side"] == "above" else (lo, r.high)


def _witness(mode: Mode, a: E.Cell, b: E.Cell, q: str, level: float, *, band=None, side=None, **extra) -> dict:
    """A witness that recomputes (`recompute`): `a`'s quantity q against `b`'s at `level`, a ratio outside
    `band` on `side`, or (band None) a difference claimed <= 0."""
    params = {**_params(a), "algorithm": a.algorithm, "against": b.variances, "against_algorithm": b.algorithm,
              "quantity": q, "level": level, "check": "difference" if band is None else "ratio",
              "rates": mode.inputs.rates, **({} if band is None else {"band": list(band), "side": side})}
    lhs, rhs = _sides(study(mode), params)
    what = (f"the paired difference's lower end ({a.algorithm} less {b.algorithm}), against 0" if band is None else
            f"the ratio's lower end against the band's top {band[1]:g}" if side == "above" else
            f"the band's bottom {band[0]:.4g} against the ratio's upper end")
    return witness(params, lhs, rhs, "<=", what=what, quantity=QUANTITY[q], runs=a.runs, **extra)


def recompute(params: dict) -> tuple[float, float]:
    """Both sides of a witness of these claims, from the study the witness names (its `rates` directory,
    or the shipped study)."""
    return _sides(_load(E.ledger_source(params.get("rates"))), params)


def _studied(res: E.EstimatorResults, what: str) -> str:
    grid = res.grid()
    return (f"{what} on the model of Section 3 (sigma0^2 = sigma^2 = 1), (K, n) in "
            f"{', '.join(f'({K}, {n:,})' for K, n in grid)}, {res.at(*grid[0])[0].runs} near-tie-sampled runs per "
            f"cell, paired across estimators ({res.description})")


def _iv(x) -> str:
    return f"{x.estimate:.3f} [{x.low:.3f}, {x.high:.3f}]"


def _against_known(mode: Mode, res: E.EstimatorResults, estimators: tuple[str, ...], what: str):
    """RUE with each of `estimators` over RUE told the variances, per (K, n) and quantity, paired, against
    the band [0.9, 1.1] (Bonferroni over every ratio): one finding, and its parts' texts."""
    grid = res.grid()
    m = 2 * len(grid) * len(estimators)
    level = 1 - (1 - FAMILY_LEVEL) / m
    verdicts, parts, witnesses = [], [], []
    for K, n in grid:
        known = res.cell(K, n, "rue", "known")
        for est in estimators:
            cell = res.cell(K, n, "rue", est)
            for q in ("failure", "regret"):
                r, _ = _compare(cell, known, q, level)
                verdicts.append(band_verdict(r, 0.9, 1.1))
                parts.append(f"K = {K}, n = {n:,}, {est}, {QUANTITY[q]}: {_iv(r)} ({verdicts[-1]})")
                witnesses.append((cell, known, q, r))
    dom = (_studied(res, f"RUE with {what} against RUE told the variances") +
           f"; {m} ratios at {level:.4f} each (Bonferroni, family-wise {FAMILY_LEVEL:g}), band [0.9, 1.1]")
    return from_parts(verdicts, dom, "; ".join(parts), witness=lambda i: _band_witness(mode, level, (0.9, 1.1),
                                                                                       *witnesses[i])), parts


def _band_witness(mode, level, band, a, b, q, r) -> dict:
    side = "above" if r.low > band[1] else "below"
    return _witness(mode, a, b, q, level, band=band, side=side, ratio=[round(x, 4) for x in r[:3]])


@claim("VAR-EST-COST", "Section 6 (\"we use the estimates of the variances\") and Section 4 (CLAIMS-BEYOND.md)",
       "On the model of Section 3, RUE with the variance estimates of the paper's experiments has a Bayesian failure "
       "probability and simple regret within 10% of RUE given the true variances, at K = 10 and 30, n = 1e4 and 1e5.",
       recompute=recompute)
def check_var_est_cost(mode: Mode):
    """Per (K, n) and quantity: RUE with the authors' estimates over RUE told the variances, paired,
    against the band [0.9, 1.1]. Beside it (not judged): the other estimators' ratios and each
    estimator's mean end-of-run sigma0^2 against the truth 1."""
    res = study(mode)
    f, parts = _against_known(mode, res, (PAPERS,), "the authors' estimates (the paper's experiments')")
    beside = []
    for K, n in res.grid():
        known = res.cell(K, n, "rue", "known")
        others = "; ".join(f"{v} {_compare(res.cell(K, n, 'rue', v), known, 'regret', 0.95)[0].estimate:.3f}"
                           for v in E.ESTIMATORS if v not in ("known", PAPERS) and res.cell(K, n, "rue", v))
        s0 = "; ".join(f"{c.variances} {_iv(c.estimate('sigma0_est'))}" for c in res.at(K, n, "rue")
                       if c.variances != "known")
        beside.append(f"K = {K}, n = {n:,}: simple regret over known with the other estimators {others}; mean "
                      f"end-of-run sigma0^2 (truth 1, 95%): {s0}")
    f = dataclasses.replace(f, detail=f.detail + ". Beside it (not judged): " + " | ".join(beside))
    return f"{f.verdict}: the authors' estimates over the true variances: {'; '.join(parts)}", [f]


@repair("VAR-EST-COST")
def repair_var_est_cost(mode: Mode) -> Repair:
    """Section 4's own alternative: REML, judged by the same rule."""
    f, _ = _against_known(mode, study(mode), ("reml",), "REML estimates")
    return Repair("On the model of Section 3, RUE with REML estimates of the variances (one of the estimators "
                  "Section 4 names) has a Bayesian failure probability and simple regret within 10% of RUE given the "
                  "true variances, at K = 10 and 30, n = 1e4 and 1e5.", None, [f])


@claim("VAR-EST-METHODS", "Section 4 (Robinson 1991: moments, maximum likelihood, REML; CLAIMS-BEYOND.md)",
       "The choice of estimator does not matter: with each of the method of moments, maximum likelihood and REML, "
       "RUE's simple regret is within 10% of the others' at K = 10 and 30, n = 1e4 and 1e5.", recompute=recompute)
def check_var_est_methods(mode: Mode):
    """Per (K, n), every pair of NAMED estimators: RUE's simple regret with one over the other, paired,
    against the band [1/1.1, 1.1] (each within 10% of the other, both ways)."""
    f, summary = _pairwise(mode, study(mode), NAMED)
    return summary, [f]


@repair("VAR-EST-METHODS")
def repair_var_est_methods(mode: Mode) -> Repair:
    """The likelihood estimators and the true variances, by the same rule."""
    f, _ = _pairwise(mode, study(mode), ("known", "ml", "reml"))
    return Repair("The likelihood estimators Section 4 names are interchangeable with each other and with the truth: "
                  "with ML, with REML and with the true variances RUE's simple regret is within 10% of the others' "
                  "at K = 10 and 30, n = 1e4 and 1e5 (the moment estimators are not: see the claim).", None, [f])


def _pairwise(mode: Mode, res: E.EstimatorResults, named: tuple[str, ...]):
    """Every pair of `named`, per (K, n): one finding (band [1/1.1, 1.1], Bonferroni) and a summary."""
    grid = res.grid()
    pairs = list(itertools.combinations(named, 2))
    m = len(pairs) * len(grid)
    level = 1 - (1 - FAMILY_LEVEL) / m
    verdicts, parts, witnesses = [], [], []
    for K, n in grid:
        ratios, texts = [], []
        for a, b in pairs:
            ca, cb = res.cell(K, n, "rue", a), res.cell(K, n, "rue", b)
            r, _ = _compare(ca, cb, "regret", level)
            v = band_verdict(r, 1 / 1.1, 1.1)
            verdicts.append(v)
            ratios.append(r.estimate)
            witnesses.append((ca, cb, "regret", r))
            texts.append(f"{a}/{b} {_iv(r)}")
        worst = max(range(len(pairs)), key=lambda i: abs(ratios[i] - 1))
        parts.append(f"K = {K}, n = {n:,}: the farthest pair {texts[worst]}; all: {', '.join(texts)}")
    dom = (_studied(res, f"RUE with each of {', '.join(named)}") +
           f"; {m} pairwise ratios at {level:.4f} each (Bonferroni, family-wise {FAMILY_LEVEL:g}), band [1/1.1, 1.1]")
    f = from_parts(verdicts, dom, "; ".join(parts),
                   witness=lambda i: _band_witness(mode, level, (1 / 1.1, 1.1), *witnesses[i]))
    refuted = [w for w, v in zip(witnesses, verdicts) if v == "refuted"]
    within = sum(v == "holds" for v in verdicts)
    head = (f"{len(refuted)} of {m} pairs differ by more than 10% with simultaneous intervals" if refuted else
            f"no pair differs significantly by more than 10% ({within} of {m} shown within)")
    return f, f"{f.verdict}: {head}; " + "; ".join(parts)


@claim("TOPTWO-REST", "simulate.algorithms.rue.TOP_TWO (issue 51's variant; CLAIMS-BEYOND.md)",
       "A top-two RUE run with the same variances as RUE has a smaller regret outside near ties than RUE and a total "
       "simple regret no larger, at K = 10 and 30.", recompute=recompute,
       no_repair=NoRepair("a comparison of two rules, answered by measurement", "finding:computed"))
def check_toptwo_rest(mode: Mode):
    """Per (K, n) and variance mode (each algorithm given the same one, `rates.estimators`), two paired
    differences, top-two less RUE: the rest part (holds where significantly below 0, refuted where
    significantly above, else inconclusive) and the total simple regret (refuted where significantly
    above 0, holds where significantly below, else inconclusive: 'no larger' is not shown by an
    interval that straddles 0)."""
    res = study(mode)
    grid = res.grid()
    modes = [v for v in E.ESTIMATORS if all(res.cell(K, n, a, v) for K, n in grid for a in E.ALGORITHMS)]
    m = 2 * len(grid) * len(modes)
    level = 1 - (1 - FAMILY_LEVEL) / m
    findings = []
    for q in ("rest", "regret"):
        verdicts, parts, witnesses = [], [], []
        for v in modes:
            row = []
            for K, n in grid:
                tt, rue = res.cell(K, n, "rue-top-two", v), res.cell(K, n, "rue", v)
                r, d = _compare(tt, rue, q, level)
                verdicts.append("holds" if d.high < 0 else "refuted" if d.low > 0 else "inconclusive")
                row.append(f"K = {K}, n = {n:,} {_iv(r)} ({verdicts[-1]})")
                witnesses.append((tt, rue, q, r, d))
            parts.append(f"variances {v}: " + "; ".join(row))
        claim_text = "smaller than RUE's" if q == "rest" else "no larger than RUE's"
        dom = (_studied(res, f"the top-two variant's {QUANTITY[q]} against RUE's, each with the same variance mode "
                             f"({', '.join(modes)})")
               + f"; {m} paired differences at {level:.4f} each (Bonferroni, family-wise {FAMILY_LEVEL:g})")
        findings.append(from_parts(verdicts, dom, f"top-two over RUE, {QUANTITY[q]} ({claim_text} claimed): "
                                   + " | ".join(parts),
                                   witness=lambda i, w=witnesses, lv=level: _witness(
                                       mode, *w[i][:3], lv, ratio=[round(x, 4) for x in w[i][3][:3]],
                                       difference=[round(x, 6) for x in w[i][4][:3]])))
    v = [f.verdict for f in findings]
    return (f"rest part: {v[0]}, total simple regret: {v[1]} (top-two over RUE, each with the same variances, "
            f"{len(modes)} modes x {len(grid)} cells)"), findings
