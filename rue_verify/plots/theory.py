"""The paper's bounds drawn against the exact truth and against simulation.

Simulations of RUE follow the model the theorems assume: arm means drawn from N(0, sigma0^2),
Gaussian rewards with noise variance nu^2 = delta sigma^2, RUE with the known variances (sigma0^2,
sigma^2). Rates carry exact binomial intervals, means t intervals; every figure's caption names its
parameters and seed.
"""

from __future__ import annotations

import math
import zlib

import numpy as np

from bounds import UndefinedError, gap, repaired, section2, theorems
from bounds.estimation import posterior_variance_formula, tau_sq_lower, tau_sq_tilde, tau_sq_upper
from bounds.vacuity import smallest_informative_n
from simulate.runner import run_algorithm, run_seeds
from simulate.stats import binomial_interval, mean_interval

from .common import caption, new_axes

COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")


def _rng(seed: int, key: str) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(zlib.crc32(key.encode()),)))


def rue_under_the_model(K: int, n: int, sigma0_sq: float, sigma_sq: float, delta: float, runs: int, seed: int):
    """(failed, regret, pulls) of `runs` RUE runs on means ~ N(0, sigma0^2), rewards N(mu, delta sigma^2)."""
    means = _rng(seed, f"means:{K}:{sigma0_sq}").normal(0.0, math.sqrt(sigma0_sq), (runs, K))
    key = f"{K}:{n}:{sigma0_sq}:{sigma_sq}:{delta}"
    rec, pulls, _, _ = run_algorithm("rue", {"variances": "known", "sigma0_sq": sigma0_sq, "sigma_sq": sigma_sq},
                                     means, n, run_seeds(seed, "rue:" + key, runs), run_seeds(seed, "rw:" + key, runs),
                                     True, math.sqrt(delta * sigma_sq))
    best = means.argmax(axis=1)
    idx = np.arange(runs)
    return rec != best, means[idx, best] - means[idx, rec], pulls


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


def theorem_3_1(K=(5, 20, 200), sigma0_sq: float = 1.0, alphas=None, draws: int = 200_000, seed: int = 0, ax=None):
    """Theorem 3.1 (`lemma-true`): the exact gap probability e_*(alpha) (the proof's integral), the
    bound c_K alpha / sigma0 where c_K is real, and a Monte Carlo estimate with exact 99% intervals;
    log-log."""
    fig, ax = new_axes(ax)
    alphas = np.geomspace(1e-3, 3.0, 40) if alphas is None else np.asarray(alphas, float)
    mc_alphas = alphas[:: max(1, len(alphas) // 7)]
    notes = 0
    for c, k in zip(COLORS, K):
        ax.plot(alphas, gap.e_star(alphas, k, sigma0_sq), color=c, lw=1.8, label=f"K = {k}: exact e_*(alpha)")
        try:
            ax.plot(alphas, gap.theorem_3_1_bound(alphas, k, sigma0_sq), color=c, ls="--", lw=1.2,
                    label=f"K = {k}: bound c_K alpha / sigma0")
        except UndefinedError:
            ax.plot([], [], color=c, ls="--", label=f"K = {k}: bound undefined")
            _undefined_note(ax, f"K = {k}: no bound: c_K is not real (ln(K / (4 sqrt(2 pi) ln K)) < 0)",
                            0.97 - 0.07 * notes)
            notes += 1
        x = np.sort(_rng(seed, f"gap:{k}").normal(0.0, math.sqrt(sigma0_sq), (draws, k)), axis=1)
        g = x[:, -1] - x[:, -2]
        est = [binomial_interval(int(np.sum(g <= a)), draws, 0.99) for a in mc_alphas]
        y = np.array([e.estimate for e in est])
        ax.errorbar(mc_alphas, y, yerr=[y - [e.low for e in est], [e.high for e in est] - y], fmt="o", color=c,
                    ms=3, capsize=2, label=f"K = {k}: Monte Carlo")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(top=2)
    ax.axhline(1, color="0.5", lw=0.8)
    ax.set_xlabel("alpha (gap between the two best means)")
    ax.set_ylabel("probability")
    ax.set_title("Theorem 3.1: Pr(mu_(1) - mu_(2) <= alpha) and its bound", fontsize=10)
    ax.legend(fontsize=6, ncol=2, loc="lower right")
    caption(fig, f"sigma0^2 = {sigma0_sq:g}; Monte Carlo {draws} draws per K, exact 99% intervals; seed {seed}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def c_K_constant(K_max: int = 10_000, ax=None):
    """c_K of Theorem 3.1 and the repaired constant C_K (`bounds.repaired`) against the tightest
    constant sup_alpha e_*(alpha) / alpha (sigma0 = 1), K = 2 ... K_max, with the range where c_K is
    not real marked."""
    fig, ax = new_axes(ax)
    Ks = np.unique(np.r_[np.arange(2, 200), np.geomspace(200, K_max, 120).astype(int)])
    tight = np.array([gap.gap_constant_tightest(int(k)) for k in Ks])
    defined = np.array([bool(gap.c_K_is_defined(int(k))) for k in Ks])
    ax.plot(Ks, tight, color="tab:blue", lw=1.8, label="tightest constant sup_alpha e_*(alpha)/alpha")
    ax.plot(Ks[defined], [float(gap.c_K(int(k))) for k in Ks[defined]], color="tab:red", lw=1.5, ls="--",
            label="c_K (Theorem 3.1)")
    ax.plot(Ks, repaired.gap_constant_repaired(Ks.astype(float)), color="tab:green", lw=1.5, ls=":",
            label="C_K = 1.4 + sqrt(2 ln(K+1)) (repaired, every K >= 2)")
    first = int(Ks[defined][0])
    ax.axvspan(2, first - 0.5, color="0.85", label=f"c_K undefined (K < {first}: square root of a negative number)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("K (number of arms)")
    ax.set_ylabel("constant (probability per unit alpha / sigma0)")
    ax.set_title("Theorem 3.1's constant c_K against the tightest possible", fontsize=10)
    ax.legend(fontsize=7)
    caption(fig, f"K = 2 ... {K_max} ({len(Ks)} values); tightest constant from the exact integral.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


SETTINGS = ((100, 1.0, 0.1, 0.01), (40, 1.0, 1.0, 1.0))


def _theorem_5(kind: str, settings, ns, runs: int, seed: int, fig):
    import matplotlib.pyplot as plt
    fig = fig or plt.figure(figsize=(5.2 * len(settings), 4.2))
    axes = fig.subplots(1, len(settings), squeeze=False)[0]
    terms_fn = theorems.theorem_5_1_terms if kind == "failure" else theorems.theorem_5_2_terms
    for ax, (K, s0, s, d) in zip(axes, settings):
        grid = np.unique(np.geomspace(4 * (K - 1) + 2, 1e9, 60).astype(np.int64))
        try:
            terms = terms_fn(K, grid.astype(float), s0, s, d)
            for c, (name, v) in zip(COLORS, terms.items()):
                ax.plot(grid, np.asarray(v, float), color=c, lw=1, ls=":", label=name)
            total = sum(np.asarray(v, float) for v in terms.values())
            ax.plot(grid, total, color="k", lw=1.8, label="bound (sum)")
            top = float(np.nanmax(total))
        except UndefinedError as err:
            top = 1e3
            ax.plot([], [], color="k", label="bound undefined")
            _undefined_note(ax, f"the bound is undefined here: {err.reason}", 0.98)
        pts = [int(n) for n in (ns or (10 ** 3, 10 ** 4, 10 ** 5)) if n >= 2 * K]
        ys, los, his = [], [], []
        for n in pts:
            failed, regret, _ = rue_under_the_model(K, n, s0, s, d, runs, seed)
            iv = binomial_interval(int(failed.sum()), runs, 0.99) if kind == "failure" else mean_interval(regret, 0.99)
            ys.append(iv.estimate)
            los.append(iv.low)
            his.append(iv.high)
        floor = 1e-4
        _simulated(ax, pts, ys, los, his, floor, "tab:red", f"RUE simulated ({runs} runs, 99%)")
        ax.axhline(1, color="0.5", lw=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(floor, min(max(10 * top, 1e3), 1e30))
        ax.set_xlabel("n (budget)")
        ax.set_ylabel("probability" if kind == "failure" else "simple regret (units of the means)")
        ax.set_title(f"K = {K}, sigma0^2 = {s0:g}, sigma^2 = {s:g}, delta = {d:g}", fontsize=9)
        ax.legend(fontsize=6, loc="best")
    caption(fig, f"Theorem {'5.1' if kind == 'failure' else '5.2'}: its terms and their sum against RUE with known "
                 f"variances on means ~ N(0, sigma0^2), rewards N(mu, delta sigma^2); seed {seed}.")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def theorem_5_1(settings=SETTINGS, ns=None, runs: int = 200, seed: int = 0, fig=None):
    """Theorem 5.1 (`them-R`): each term and the sum over n, against RUE's simulated failure
    probability, one panel per (K, sigma0^2, sigma^2, delta)."""
    return _theorem_5("failure", settings, ns, runs, seed, fig)


def theorem_5_2(settings=SETTINGS, ns=None, runs: int = 200, seed: int = 0, fig=None):
    """Theorem 5.2 (`them-R-Bayes`): the same against RUE's simulated simple regret."""
    return _theorem_5("regret", settings, ns, runs, seed, fig)


def ucbe_bound(means=(0.6, 0.5, 0.45, 0.4), ns=None, runs: int = 2000, seed: int = 0, ax=None):
    """Section 2: UCB-E's upper bound 2nK exp(-(n-K)/(18H)) against simulated UCB-E at the largest
    exploration the bound allows, a = 25(n-K)/(36H), Bernoulli rewards."""
    fig, ax = new_axes(ax)
    mu = np.asarray(means, float)
    K, H = mu.size, section2.H_complexity(mu)
    grid = np.unique(np.geomspace(K + 1, 4000 * H, 80).astype(int))
    ax.plot(grid, section2.ucbe_upper_bound(grid.astype(float), K, H), color="k", lw=1.8,
            label="bound 2nK exp(-(n-K)/(18H))")
    pts = [int(n) for n in (ns or np.geomspace(2 * H, 400 * H, 6).astype(int))]
    ys, los, his = [], [], []
    for n in pts:
        a = float(section2.ucbe_parameter_limit(n, K, H))           # the exploration a, given directly
        rec, _, _, _ = run_algorithm("ucbe", {"c": a, "a_form": "c", "H_convention": "section2"},
                                     np.tile(mu, (runs, 1)), n, run_seeds(seed, f"ucbe:{n}", runs),
                                     run_seeds(seed, f"rw:{n}", runs), False, 0.0)
        iv = binomial_interval(int(np.sum(rec != mu.argmax())), runs, 0.99)
        ys.append(iv.estimate)
        los.append(iv.low)
        his.append(iv.high)
    floor = 1e-5
    _simulated(ax, pts, ys, los, his, floor, "tab:blue", f"UCB-E simulated ({runs} runs, exact 99%)")
    ax.axhline(1, color="0.5", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(floor, 1e4)
    ax.set_xlabel("n (budget)")
    ax.set_ylabel("probability of error")
    ax.set_title(f"Section 2: UCB-E's bound, means {', '.join(f'{m:g}' for m in mu)} (H = {H:.3g})", fontsize=9)
    ax.legend(fontsize=7)
    caption(fig, f"Bernoulli rewards; a = 25(n-K)/(36H) at each simulated n; H with the best arm's term "
                 f"(Section 2); seed {seed}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def full_information(n: int = 100, sigma_sq: float = 1.0, runs: int = 200_000, seed: int = 0, ax=None):
    """Section 2.1: the full-information error e_n* = Pr(mean_1 <= mean_2) against Feller's lower
    bound (eq. `full-e-lb`, defined where x = n Delta^2 / (2 sigma^2) > 0) and a Monte Carlo estimate."""
    fig, ax = new_axes(ax)
    D = np.geomspace(0.01, 1.5, 60)
    ax.plot(D, section2.full_info_error(n, D, sigma_sq), color="k", lw=1.8, label="exact e_n*")
    fb = section2.feller_bound(n, D, sigma_sq)
    pos = fb > 0
    ax.plot(D[pos], fb[pos], color="tab:red", ls="--", label="Feller's lower bound")
    if (~pos).any():
        ax.axvspan(D[0], D[~pos].max(), color="0.9", label="Feller's bound <= 0 (x <= 1): says nothing")
    mcD = D[::8]
    rng = _rng(seed, "full-info")
    est = []
    for d in mcD:
        m1 = rng.normal(0.0, math.sqrt(sigma_sq / n), runs)
        m2 = rng.normal(-d, math.sqrt(sigma_sq / n), runs)
        est.append(binomial_interval(int(np.sum(m1 <= m2)), runs, 0.99))
    y = np.array([e.estimate for e in est])
    ax.errorbar(mcD, y, yerr=[y - [e.low for e in est], [e.high for e in est] - y], fmt="o", ms=3, capsize=2,
                color="tab:blue", label=f"Monte Carlo ({runs} pairs, 99%)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(1e-12, 1)
    ax.set_xlabel("Delta (gap between the two arms)")
    ax.set_ylabel("probability of error")
    ax.set_title(f"Section 2.1: full information, n = {n}, sigma^2 = {sigma_sq:g}", fontsize=10)
    ax.legend(fontsize=7)
    caption(fig, f"Two Gaussian arms observed n times each; seed {seed}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def informative_region(K=(40, 100, 1000), delta: float = 0.01, ratios=None, n_max: int = 10 ** 12, ax=None):
    """Where Theorem 5.1 is informative: the smallest n at which it falls below 1, against
    sigma0^2 / nu^2 (nu^2 = 1, sigma^2 = nu^2 / delta), per K; above a curve the bound is < 1."""
    fig, ax = new_axes(ax)
    ratios = np.geomspace(1e-2, 1e5, 43) if ratios is None else np.asarray(ratios, float)
    s = 1.0 / delta
    for c, k in zip(COLORS, K):
        first = []
        for r in ratios:
            res = smallest_informative_n(k, r, s, delta, "theorem_5_1", n_max)
            first.append(res.n_first if res.n_first is not None and res.stays_below else np.nan)
        first = np.array(first, float)
        ax.plot(ratios, first, color=c, lw=1.6, label=f"K = {k}")
        ax.fill_between(ratios, first, n_max, color=c, alpha=0.08)
        if np.isnan(first).any():
            ax.plot(ratios[np.isnan(first)], np.full(int(np.isnan(first).sum()), n_max), "x", color=c, ms=4)
    ax.plot([], [], "x", color="k", label=f"never below 1 for n <= {n_max:.0e} (or undefined)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("sigma0^2 / nu^2 (prior spread relative to the reward noise)")
    ax.set_ylabel("smallest informative n (budget)")
    ax.set_title(f"Theorem 5.1 below 1: the shaded region (delta = {delta:g})", fontsize=10)
    ax.legend(fontsize=7)
    caption(fig, f"nu^2 = 1, sigma^2 = nu^2/delta = {s:g}; n searched up to {n_max:.0e} (bounds.vacuity).")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def tau_lemma(K: int = 20, sigma0_sq: float = 1.0, sigma_sq: float = 1.0, n: int = 4000, runs: int = 100,
              seed: int = 0, ax=None):
    """Lemma `sec:tau`: tau_k^2 relative to its per-arm term sigma0^2 sigma^2 / (T_k sigma0^2 + sigma^2)
    against T_k, over the allocations RUE produces, with the lemma's lower and upper sides."""
    fig, ax = new_axes(ax)
    _, _, pulls = rue_under_the_model(K, n, sigma0_sq, sigma_sq, 1.0, runs, seed)
    T = pulls.ravel()
    ratio = np.concatenate([np.asarray(posterior_variance_formula(p, sigma0_sq, sigma_sq))
                            / tau_sq_tilde(p, sigma0_sq, sigma_sq) for p in pulls])
    lower = float(tau_sq_lower(1.0, K, sigma0_sq, sigma_sq) / tau_sq_tilde(1.0, sigma0_sq, sigma_sq))
    upper = float(tau_sq_upper(1.0, K, sigma0_sq, sigma_sq) / tau_sq_tilde(1.0, sigma0_sq, sigma_sq))
    below = ratio < lower
    ax.scatter(T[~below], ratio[~below], s=4, color="tab:blue", alpha=0.4, label="RUE's allocations")
    ax.scatter(T[below], ratio[below], s=6, color="tab:red", alpha=0.7,
               label=f"below the lemma's lower side ({below.mean():.0%} of arms)")
    ax.axhline(lower, color="tab:red", ls="--", label="lower side 1 + sigma0^2/(K(sigma0^2+sigma^2))")
    ax.axhline(upper, color="tab:green", ls="--", label="upper side 1 + sigma^2/(K sigma0^2)")
    ax.set_xscale("log")
    ax.set_xlabel("T_k (pulls of arm k at the end of a run)")
    ax.set_ylabel("tau_k^2 / per-arm term")
    ax.set_title(f"Lemma sec:tau on RUE's allocations (K = {K}, n = {n})", fontsize=10)
    ax.legend(fontsize=7)
    caption(fig, f"per-arm term sigma0^2 sigma^2 / (T_k sigma0^2 + sigma^2); sigma0^2 = {sigma0_sq:g}, sigma^2 = "
                 f"{sigma_sq:g}, delta = 1; {runs} RUE runs (known variances); seed {seed}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def ledger_overview(results, ax=None):
    """The ledger at a glance: how many claims of each section of the paper got each verdict."""
    from ..ledger.core import PALETTE, SEVERITY
    fig, ax = new_axes(ax, (7.5, 4.0))
    sections = list(dict.fromkeys(r.location.split(",")[0].split(" (")[0] for r in results))
    counts = {v: [sum(1 for r in results if r.verdict == v and r.location.startswith(sec)) for sec in sections]
              for v in SEVERITY}
    left = np.zeros(len(sections))
    for v in SEVERITY:
        ax.barh(sections, counts[v], left=left, color=PALETTE[v], label=v)
        left += counts[v]
    ax.invert_yaxis()
    ax.set_xlabel("claims")
    ax.set_title("The claims ledger: verdicts by place in the paper", fontsize=10)
    ax.legend(fontsize=7, ncol=4, loc="lower right")
    ax.tick_params(axis="y", labelsize=7)
    caption(fig, f"{len(results)} claims; mode {results[0].mode}.")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig
