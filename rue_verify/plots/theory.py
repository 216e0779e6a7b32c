"""The paper's bounds drawn against the exact truth and against simulation.

Simulations of RUE follow the model the theorems assume: arm means drawn from N(0, sigma0^2),
Gaussian rewards with noise variance nu^2 = delta sigma^2, RUE with the known variances (sigma0^2,
sigma^2). Rates carry exact binomial intervals, means t intervals; every figure's caption names its
parameters and seed.

Each family is a pair: `NAME_table(...)` computes its tidy table (`table.Table`, every drawn point
with the parameters that produced it) and `draw_NAME(table, ax=None)` only draws it; `NAME(...)`
does both. `plots.registry` declares the families the report and the reproduction draw.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from bounds import UndefinedError, gap, repaired, section2, theorems
from bounds.estimation import posterior_variance_formula, tau_sq_lower, tau_sq_tilde, tau_sq_upper
from bounds.vacuity import smallest_informative_n
from simulate import runner
from simulate.runner import run_seeds
from simulate.seeds import stream
from simulate.stats import binomial_interval, mean_interval

from .common import caption, new_axes
from .table import Table, figure

COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")


_rng = stream        # the named stream `key` under `seed`


def rue_under_the_model(K: int, n: int, sigma0_sq: float, sigma_sq: float, delta: float, runs: int, seed: int):
    """(failed, regret, pulls) of `runs` RUE runs on means ~ N(0, sigma0^2), rewards N(mu, delta sigma^2);
    copies of a cached run, so Theorems 5.1 and 5.2's figures (`Family.shares`) simulate it once."""
    return tuple(a.copy() for a in _rue_under_the_model(K, n, sigma0_sq, sigma_sq, delta, runs, seed))


@lru_cache(maxsize=16)
def _rue_under_the_model(K: int, n: int, sigma0_sq: float, sigma_sq: float, delta: float, runs: int, seed: int):
    means = _rng(seed, f"means:{K}:{sigma0_sq}").normal(0.0, math.sqrt(sigma0_sq), (runs, K))
    key = f"{K}:{n}:{sigma0_sq}:{sigma_sq}:{delta}"
    rec, pulls = runner.rue_under_the_model(means, n, sigma0_sq, sigma_sq, math.sqrt(delta * sigma_sq),
                                            run_seeds(seed, "rue:" + key, runs), run_seeds(seed, "rw:" + key, runs))
    failed, regret = runner.outcomes(means, rec)
    return failed, regret, pulls


def _undefined_note(ax, text: str, y: float) -> None:
    ax.text(0.02, y, text, transform=ax.transAxes, fontsize=7, color="0.25", va="top", wrap=True,
            bbox={"facecolor": "white", "edgecolor": "0.7", "alpha": 0.9, "pad": 2})


def _simulated(ax, x, y, low, high, floor: float, color: str, label: str) -> None:
    """Simulated estimates with their intervals on a log axis that starts at `floor`: a positive
    estimate as a point with its bar (cut at the floor), a zero one as the interval's upper limit."""
    x, y, low, high = (np.asarray(v, float) for v in (x, y, low, high))
    seen = y > 0
    ax.errorbar(x[seen], y[seen], yerr=[np.clip(y - np.maximum(low, floor), 0, None)[seen], (high - y)[seen]],
                fmt="o", color=color, ms=4, capsize=3, label=label)
    if (~seen).any():
        top = np.maximum(high[~seen], floor)
        ax.errorbar(x[~seen], top, yerr=[top - floor, 0 * top], fmt="v", color=color, ms=5, capsize=3, alpha=0.7,
                    label="none observed: 99% upper limit")


def _xy(rows, x="x", y="y"):
    return np.array([r[x] for r in rows], float), np.array([r[y] for r in rows], float)


def _errorbar(ax, rows, x="x", **kw):
    xs, ys = _xy(rows, x)
    lo, hi = _xy(rows, x, "low")[1], _xy(rows, x, "high")[1]
    ax.errorbar(xs, ys, yerr=[ys - lo, hi - ys], **kw)


# ---------------------------------------------------------------- Theorem 3.1
def theorem_3_1_table(K=(5, 20, 200), sigma0_sq: float = 1.0, alphas=None, draws: int = 200_000,
                      seed: int = 0) -> Table:
    """Theorem 3.1 (`lemma-true`): the exact gap probability e_*(alpha) (the proof's integral), the
    bound c_K alpha / sigma0 where c_K is real (a 'undefined' row with the reason where not), and a
    Monte Carlo estimate with exact 99% intervals."""
    alphas = np.geomspace(1e-3, 3.0, 40) if alphas is None else np.asarray(alphas, float)
    mc_alphas = alphas[:: max(1, len(alphas) // 7)]
    rows = []
    for k in K:
        rows += [{"K": k, "series": "exact", "x": a, "y": v} for a, v in zip(alphas, gap.e_star(alphas, k, sigma0_sq))]
        try:
            rows += [{"K": k, "series": "bound", "x": a, "y": v}
                     for a, v in zip(alphas, gap.theorem_3_1_bound(alphas, k, sigma0_sq))]
        except UndefinedError:
            rows.append({"K": k, "series": "undefined",
                         "note": f"K = {k}: no bound: c_K is not real (ln(K / (4 sqrt(2 pi) ln K)) < 0)"})
        x = np.sort(_rng(seed, f"gap:{k}").normal(0.0, math.sqrt(sigma0_sq), (draws, k)), axis=1)
        g = x[:, -1] - x[:, -2]
        for a in mc_alphas:
            iv = binomial_interval(int(np.sum(g <= a)), draws, 0.99)
            rows.append({"K": k, "series": "mc", "x": a, "y": iv.estimate, "low": iv.low, "high": iv.high})
    return Table(rows, {"family": "theorem-3-1", "sigma0_sq": sigma0_sq, "draws": draws, "seed": seed})


def draw_theorem_3_1(t: Table, ax=None):
    fig, ax = new_axes(ax)
    notes = 0
    for c, k in zip(COLORS, t.values("K")):
        ax.plot(*_xy(t.where(K=k, series="exact")), color=c, lw=1.8, label=f"K = {k}: exact e_*(alpha)")
        if t.where(K=k, series="bound"):
            ax.plot(*_xy(t.where(K=k, series="bound")), color=c, ls="--", lw=1.2,
                    label=f"K = {k}: bound c_K alpha / sigma0")
        for r in t.where(K=k, series="undefined"):
            ax.plot([], [], color=c, ls="--", label=f"K = {k}: bound undefined")
            _undefined_note(ax, r["note"], 0.97 - 0.07 * notes)
            notes += 1
        _errorbar(ax, t.where(K=k, series="mc"), fmt="o", color=c, ms=3, capsize=2, label=f"K = {k}: Monte Carlo")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(top=2)
    ax.axhline(1, color="0.5", lw=0.8)
    ax.set_xlabel("alpha (gap between the two best means)")
    ax.set_ylabel("probability")
    ax.set_title("Theorem 3.1: Pr(mu_(1) - mu_(2) <= alpha) and its bound", fontsize=10)
    ax.legend(fontsize=6, ncol=2, loc="lower right")
    m = t.meta
    caption(fig, f"sigma0^2 = {m['sigma0_sq']:g}; Monte Carlo {m['draws']} draws per K, exact 99% intervals; "
                 f"seed {m['seed']}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


# ---------------------------------------------------------------- c_K
def c_K_constant_table(K_max: int = 10_000) -> Table:
    """c_K of Theorem 3.1 (empty where it is not real) and the repaired constant C_K
    (`bounds.repaired`) against the tightest constant sup_alpha e_*(alpha) / alpha (sigma0 = 1),
    K = 2 ... K_max."""
    Ks = np.unique(np.r_[np.arange(2, 200), np.geomspace(200, K_max, 120).astype(int)])
    rows = []
    for k in Ks:
        k = int(k)
        rows.append({"K": k, "tightest": gap.gap_constant_tightest(k),
                     "c_K": float(gap.c_K(k)) if gap.c_K_is_defined(k) else None,
                     "C_K": float(repaired.gap_constant_repaired(float(k)))})
    return Table(rows, {"family": "c-K-constant", "K_max": K_max})


def draw_c_K_constant(t: Table, ax=None):
    fig, ax = new_axes(ax)
    K, tight = _xy(t.rows, "K", "tightest")
    ax.plot(K, tight, color="tab:blue", lw=1.8, label="tightest constant sup_alpha e_*(alpha)/alpha")
    real = [r for r in t.rows if r["c_K"] is not None]
    ax.plot(*_xy(real, "K", "c_K"), color="tab:red", lw=1.5, ls="--", label="c_K (Theorem 3.1)")
    ax.plot(*_xy(t.rows, "K", "C_K"), color="tab:green", lw=1.5, ls=":",
            label="C_K = 1.4 + sqrt(2 ln(K+1)) (repaired, every K >= 2)")
    first = int(real[0]["K"])
    ax.axvspan(2, first - 0.5, color="0.85", label=f"c_K undefined (K < {first}: square root of a negative number)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("K (number of arms)")
    ax.set_ylabel("constant (probability per unit alpha / sigma0)")
    ax.set_title("Theorem 3.1's constant c_K against the tightest possible", fontsize=10)
    ax.legend(fontsize=7)
    caption(fig, f"K = 2 ... {t.meta['K_max']} ({len(t.rows)} values); tightest constant from the exact integral.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


# ---------------------------------------------------------------- Theorems 5.1 and 5.2
SETTINGS = ((100, 1.0, 0.1, 0.01), (40, 1.0, 1.0, 1.0))


def _theorem_5_table(kind: str, settings, ns, runs: int, seed: int) -> Table:
    terms_fn = theorems.theorem_5_1_terms if kind == "failure" else theorems.theorem_5_2_terms
    rows = []
    for panel, (K, s0, s, d) in enumerate(settings):
        at = {"panel": panel, "K": K, "sigma0_sq": s0, "sigma_sq": s, "delta": d}
        grid = np.unique(np.geomspace(4 * (K - 1) + 2, 1e9, 60).astype(np.int64))
        try:
            terms = terms_fn(K, grid.astype(float), s0, s, d)
            for name, v in terms.items():
                rows += [{**at, "series": "term", "term": name, "x": n, "y": y}
                         for n, y in zip(grid, np.asarray(v, float))]
            total = sum(np.asarray(v, float) for v in terms.values())
            rows += [{**at, "series": "bound", "x": n, "y": y} for n, y in zip(grid, total)]
        except UndefinedError as err:
            rows.append({**at, "series": "undefined", "note": f"the bound is undefined here: {err.reason}"})
        for n in [int(n) for n in (ns or (10 ** 3, 10 ** 4, 10 ** 5)) if n >= 2 * K]:
            failed, regret, _ = rue_under_the_model(K, n, s0, s, d, runs, seed)
            iv = binomial_interval(int(failed.sum()), runs, 0.99) if kind == "failure" else mean_interval(regret, 0.99)
            rows.append({**at, "series": "simulated", "x": n, "y": iv.estimate, "low": iv.low, "high": iv.high})
    family = "theorem-5-1" if kind == "failure" else "theorem-5-2"
    return Table(rows, {"family": family, "kind": kind, "runs": runs, "seed": seed})


def draw_theorem_5(t: Table, ax=None):
    import matplotlib.pyplot as plt
    panels = t.values("panel")
    fig = ax or plt.figure(figsize=(5.2 * len(panels), 4.2))
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    kind, runs = t.meta["kind"], t.meta["runs"]
    for ax, panel in zip(axes, panels):
        at = t.where(panel=panel)[0]
        for c, name in zip(COLORS, t.values("term", panel=panel, series="term")):
            ax.plot(*_xy(t.where(panel=panel, series="term", term=name)), color=c, lw=1, ls=":", label=name)
        top = 1e3
        if t.where(panel=panel, series="bound"):
            x, total = _xy(t.where(panel=panel, series="bound"))
            ax.plot(x, total, color="k", lw=1.8, label="bound (sum)")
            top = float(np.nanmax(total))
        for r in t.where(panel=panel, series="undefined"):
            ax.plot([], [], color="k", label="bound undefined")
            _undefined_note(ax, r["note"], 0.98)
        sim = t.where(panel=panel, series="simulated")
        floor = 1e-4
        _simulated(ax, *(np.array([r[k] for r in sim], float) for k in ("x", "y", "low", "high")), floor, "tab:red",
                   f"RUE simulated ({runs} runs, 99%)")
        ax.axhline(1, color="0.5", lw=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(floor, min(max(10 * top, 1e3), 1e30))
        ax.set_xlabel("n (budget)")
        ax.set_ylabel("probability" if kind == "failure" else "simple regret (units of the means)")
        ax.set_title(f"K = {at['K']}, sigma0^2 = {at['sigma0_sq']:g}, sigma^2 = {at['sigma_sq']:g}, "
                     f"delta = {at['delta']:g}", fontsize=9)
        ax.legend(fontsize=6, loc="best")
    caption(fig, f"Theorem {'5.1' if kind == 'failure' else '5.2'}: its terms and their sum against RUE with known "
                 f"variances on means ~ N(0, sigma0^2), rewards N(mu, delta sigma^2); seed {t.meta['seed']}.")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def theorem_5_1_table(settings=SETTINGS, ns=None, runs: int = 200, seed: int = 0) -> Table:
    """Theorem 5.1 (`them-R`): each term and the sum over n, against RUE's simulated failure
    probability, one panel per (K, sigma0^2, sigma^2, delta)."""
    return _theorem_5_table("failure", settings, ns, runs, seed)


def theorem_5_2_table(settings=SETTINGS, ns=None, runs: int = 200, seed: int = 0) -> Table:
    """Theorem 5.2 (`them-R-Bayes`): the same against RUE's simulated simple regret."""
    return _theorem_5_table("regret", settings, ns, runs, seed)


# ---------------------------------------------------------------- Section 2
def ucbe_bound_table(means=(0.6, 0.5, 0.45, 0.4), ns=None, runs: int = 2000, seed: int = 0) -> Table:
    """Section 2: UCB-E's upper bound 2nK exp(-(n-K)/(18H)) against simulated UCB-E at the largest
    exploration the bound allows, a = 25(n-K)/(36H), Bernoulli rewards."""
    mu = np.asarray(means, float)
    K, H = mu.size, section2.H_complexity(mu)
    grid = np.unique(np.geomspace(K + 1, 4000 * H, 80).astype(int))
    rows = [{"series": "bound", "x": n, "y": y}
            for n, y in zip(grid, section2.ucbe_upper_bound(grid.astype(float), K, H))]
    for n in [int(n) for n in (ns or np.geomspace(2 * H, 400 * H, 6).astype(int))]:
        a = float(section2.ucbe_parameter_limit(n, K, H))           # the exploration a, given directly
        rec = runner.ucbe_with_exploration(np.tile(mu, (runs, 1)), n, a, seed, str(n))
        iv = binomial_interval(int(np.sum(rec != mu.argmax())), runs, 0.99)
        rows.append({"series": "simulated", "x": n, "y": iv.estimate, "low": iv.low, "high": iv.high})
    return Table(rows, {"family": "ucbe-bound", "means": [float(m) for m in mu], "H": float(H), "runs": runs,
                        "seed": seed})


def draw_ucbe_bound(t: Table, ax=None):
    fig, ax = new_axes(ax)
    ax.plot(*_xy(t.where(series="bound")), color="k", lw=1.8, label="bound 2nK exp(-(n-K)/(18H))")
    sim = t.where(series="simulated")
    floor = 1e-5
    _simulated(ax, *(np.array([r[k] for r in sim], float) for k in ("x", "y", "low", "high")), floor, "tab:blue",
               f"UCB-E simulated ({t.meta['runs']} runs, exact 99%)")
    ax.axhline(1, color="0.5", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(floor, 1e4)
    ax.set_xlabel("n (budget)")
    ax.set_ylabel("probability of error")
    ax.set_title(f"Section 2: UCB-E's bound, means {', '.join(f'{m:g}' for m in t.meta['means'])} "
                 f"(H = {t.meta['H']:.3g})", fontsize=9)
    ax.legend(fontsize=7)
    caption(fig, f"Bernoulli rewards; a = 25(n-K)/(36H) at each simulated n; H with the best arm's term "
                 f"(Section 2); seed {t.meta['seed']}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def full_information_table(n: int = 100, sigma_sq: float = 1.0, runs: int = 200_000, seed: int = 0) -> Table:
    """Section 2.1: the full-information error e_n* = Pr(mean_1 <= mean_2) against Feller's lower
    bound (eq. `full-e-lb`, drawn where it is positive, x = n Delta^2 / (2 sigma^2) > 1) and a Monte
    Carlo estimate."""
    D = np.geomspace(0.01, 1.5, 60)
    fb = section2.feller_bound(n, D, sigma_sq)
    rows = [{"series": "exact", "x": d, "y": y} for d, y in zip(D, section2.full_info_error(n, D, sigma_sq))]
    rows += [{"series": "feller", "x": d, "y": y} for d, y in zip(D, fb) if y > 0]
    rows += [{"series": "feller-says-nothing", "x": d} for d, y in zip(D, fb) if y <= 0]
    rng = _rng(seed, "full-info")
    for d in D[::8]:
        m1 = rng.normal(0.0, math.sqrt(sigma_sq / n), runs)
        m2 = rng.normal(-d, math.sqrt(sigma_sq / n), runs)
        iv = binomial_interval(int(np.sum(m1 <= m2)), runs, 0.99)
        rows.append({"series": "mc", "x": d, "y": iv.estimate, "low": iv.low, "high": iv.high})
    return Table(rows, {"family": "full-information", "n": n, "sigma_sq": sigma_sq, "runs": runs, "seed": seed})


def draw_full_information(t: Table, ax=None):
    fig, ax = new_axes(ax)
    ax.plot(*_xy(t.where(series="exact")), color="k", lw=1.8, label="exact e_n*")
    ax.plot(*_xy(t.where(series="feller")), color="tab:red", ls="--", label="Feller's lower bound")
    nothing = [r["x"] for r in t.where(series="feller-says-nothing")]
    if nothing:
        ax.axvspan(min(r["x"] for r in t.rows), max(nothing), color="0.9",
                   label="Feller's bound <= 0 (x <= 1): says nothing")
    _errorbar(ax, t.where(series="mc"), fmt="o", ms=3, capsize=2, color="tab:blue",
              label=f"Monte Carlo ({t.meta['runs']} pairs, 99%)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(1e-12, 1)
    ax.set_xlabel("Delta (gap between the two arms)")
    ax.set_ylabel("probability of error")
    ax.set_title(f"Section 2.1: full information, n = {t.meta['n']}, sigma^2 = {t.meta['sigma_sq']:g}", fontsize=10)
    ax.legend(fontsize=7)
    caption(fig, f"Two Gaussian arms observed n times each; seed {t.meta['seed']}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


# ---------------------------------------------------------------- where Theorem 5.1 is informative
def informative_region_table(K=(40, 100, 1000), delta: float = 0.01, ratios=None, n_max: int = 10 ** 12) -> Table:
    """Where Theorem 5.1 is informative: the smallest n at which it falls below 1 (empty where no n up
    to n_max gives that, or the bound is undefined), against sigma0^2 / nu^2 (nu^2 = 1, sigma^2 =
    nu^2 / delta), per K."""
    ratios = np.geomspace(1e-2, 1e5, 43) if ratios is None else np.asarray(ratios, float)
    rows = []
    for k in K:
        for r in ratios:
            res = smallest_informative_n(k, r, 1.0 / delta, delta, "theorem_5_1", n_max)
            rows.append({"K": k, "ratio": r,
                         "n_first": res.n_first if res.n_first is not None and res.stays_below else None})
    return Table(rows, {"family": "informative-region", "delta": delta, "n_max": n_max})


def draw_informative_region(t: Table, ax=None):
    fig, ax = new_axes(ax)
    n_max = t.meta["n_max"]
    for c, k in zip(COLORS, t.values("K")):
        here = t.where(K=k)
        ratios = np.array([r["ratio"] for r in here], float)
        first = np.array([np.nan if r["n_first"] is None else r["n_first"] for r in here], float)
        ax.plot(ratios, first, color=c, lw=1.6, label=f"K = {k}")
        ax.fill_between(ratios, first, n_max, color=c, alpha=0.08)
        if np.isnan(first).any():
            ax.plot(ratios[np.isnan(first)], np.full(int(np.isnan(first).sum()), n_max), "x", color=c, ms=4)
    ax.plot([], [], "x", color="k", label=f"never below 1 for n <= {n_max:.0e} (or undefined)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("sigma0^2 / nu^2 (prior spread relative to the reward noise)")
    ax.set_ylabel("smallest informative n (budget)")
    ax.set_title(f"Theorem 5.1 below 1: the shaded region (delta = {t.meta['delta']:g})", fontsize=10)
    ax.legend(fontsize=7)
    caption(fig, f"nu^2 = 1, sigma^2 = nu^2/delta = {1 / t.meta['delta']:g}; n searched up to {n_max:.0e} "
                 "(bounds.vacuity).")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


# ---------------------------------------------------------------- Lemma sec:tau
def tau_lemma_table(K: int = 20, sigma0_sq: float = 1.0, sigma_sq: float = 1.0, n: int = 4000, runs: int = 100,
                    seed: int = 0) -> Table:
    """Lemma `sec:tau`: tau_k^2 relative to its per-arm term sigma0^2 sigma^2 / (T_k sigma0^2 + sigma^2)
    against T_k, for every arm of the allocations RUE produces, with the lemma's lower and upper
    sides (in the parameters)."""
    _, _, pulls = rue_under_the_model(K, n, sigma0_sq, sigma_sq, 1.0, runs, seed)
    rows = []
    for run, p in enumerate(pulls):
        ratio = np.asarray(posterior_variance_formula(p, sigma0_sq, sigma_sq)) / tau_sq_tilde(p, sigma0_sq, sigma_sq)
        rows += [{"run": run, "arm": k, "T": int(p[k]), "ratio": float(ratio[k])} for k in range(K)]
    lower = float(tau_sq_lower(1.0, K, sigma0_sq, sigma_sq) / tau_sq_tilde(1.0, sigma0_sq, sigma_sq))
    upper = float(tau_sq_upper(1.0, K, sigma0_sq, sigma_sq) / tau_sq_tilde(1.0, sigma0_sq, sigma_sq))
    return Table(rows, {"family": "tau-lemma", "K": K, "sigma0_sq": sigma0_sq, "sigma_sq": sigma_sq, "n": n,
                        "runs": runs, "seed": seed, "lower": lower, "upper": upper})


def draw_tau_lemma(t: Table, ax=None):
    fig, ax = new_axes(ax)
    m = t.meta
    T, ratio = _xy(t.rows, "T", "ratio")
    below = ratio < m["lower"]
    ax.scatter(T[~below], ratio[~below], s=4, color="tab:blue", alpha=0.4, label="RUE's allocations")
    ax.scatter(T[below], ratio[below], s=6, color="tab:red", alpha=0.7,
               label=f"below the lemma's lower side ({below.mean():.0%} of arms)")
    ax.axhline(m["lower"], color="tab:red", ls="--", label="lower side 1 + sigma0^2/(K(sigma0^2+sigma^2))")
    ax.axhline(m["upper"], color="tab:green", ls="--", label="upper side 1 + sigma^2/(K sigma0^2)")
    ax.set_xscale("log")
    ax.set_xlabel("T_k (pulls of arm k at the end of a run)")
    ax.set_ylabel("tau_k^2 / per-arm term")
    ax.set_title(f"Lemma sec:tau on RUE's allocations (K = {m['K']}, n = {m['n']})", fontsize=10)
    ax.legend(fontsize=7)
    caption(fig, f"per-arm term sigma0^2 sigma^2 / (T_k sigma0^2 + sigma^2); sigma0^2 = {m['sigma0_sq']:g}, sigma^2 = "
                 f"{m['sigma_sq']:g}, delta = 1; {m['runs']} RUE runs (known variances); seed {m['seed']}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


# ---------------------------------------------------------------- the ledger
def ledger_overview_table(results) -> Table:
    """How many claims of each part of the paper (the claim's declared section, as the report's
    filter) got each verdict."""
    from ..ledger import REGISTRY
    from ..verify import SEVERITY
    part = {r.id: REGISTRY[r.id].section if r.id in REGISTRY else "Other" for r in results}
    sections = list(dict.fromkeys(part.values()))
    rows = [{"section": sec, "verdict": v, "claims": sum(1 for r in results if r.verdict == v and part[r.id] == sec)}
            for sec in sections for v in SEVERITY]
    return Table(rows, {"family": "ledger-overview", "claims": len(results), "mode": results[0].mode})


def draw_ledger_overview(t: Table, ax=None):
    from ..outputs.render import PALETTE
    from ..verify import SEVERITY
    fig, ax = new_axes(ax, (8.2, 4.4))
    sections = t.values("section")
    left = np.zeros(len(sections))
    for v in SEVERITY:
        counts = np.array([t.where(section=s, verdict=v)[0]["claims"] for s in sections], float)
        if v == "error" and not counts.any():      # a run in which every check ran: no legend entry for it
            continue
        ax.barh(sections, counts, left=left, color=PALETTE[v], label=v)
        left += counts
    ax.invert_yaxis()
    ax.set_xlabel("claims")
    ax.set_title("The claims ledger: verdicts by place in the paper", fontsize=10)
    fig.legend(*ax.get_legend_handles_labels(), fontsize=7, ncol=7, loc="lower center", bbox_to_anchor=(0.5, 0.04),
               frameon=False)
    ax.tick_params(axis="y", labelsize=7)
    caption(fig, f"{t.meta['claims']} claims; mode {t.meta['mode']}.")
    fig.tight_layout(rect=(0.01, 0.1, 1, 1))
    return fig


theorem_3_1 = figure(theorem_3_1_table, draw_theorem_3_1)
c_K_constant = figure(c_K_constant_table, draw_c_K_constant)
theorem_5_1 = figure(theorem_5_1_table, draw_theorem_5)
theorem_5_2 = figure(theorem_5_2_table, draw_theorem_5)
ucbe_bound = figure(ucbe_bound_table, draw_ucbe_bound)
full_information = figure(full_information_table, draw_full_information)
informative_region = figure(informative_region_table, draw_informative_region)
tau_lemma = figure(tau_lemma_table, draw_tau_lemma)
ledger_overview = figure(ledger_overview_table, draw_ledger_overview)
