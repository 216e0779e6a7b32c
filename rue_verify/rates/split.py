"""Where an algorithm's simple regret comes from: at budget n, the part from near-tie instances,
whose top two means are within `width` sigma / sqrt(n) (where the limit's constant comes from,
`bounds.limit`), and the rest, instances with a clear top pair, whose regret means the pair itself
was missed or the allocation left it unresolved.

**The estimator.** A run's part is the posterior expectation, given its data (pulls and reward
sums), of its regret times the class indicator: E[(max mu - mu_J) 1{near(mu)} | data], by Monte
Carlo over the posterior N(m, v) of the means (`POSTERIOR_DRAWS` draws per run). The rest is the
run's exact conditional regret (`truth.conditional_regret`, the study's estimator) less that, so the
two parts add up to the study's sr_n. Weighted by the run's importance weight under near-tie
sampling, each is unbiased for its part under the prior: E_q[w(mu) g(data)] = E_p[g(data)] for any
function g of the data.

What it replaces multiplied the run's conditional regret by the class indicator of the true means,
E[regret | data] 1{near(mu)}. Its two parts still add up to sr_n, but each is E[E[regret | data]
Pr(near | data)], not E[regret 1{near}]: regret and the class are correlated given the data (a
wrong recommendation goes with a close pair), so it moved regret from the near ties into the rest.
`tests/rates/test_split.py` plants a rule whose regret is almost all (98%) in the near ties and checks that this
estimator says so and that the replaced one does not.

**Beside it.** The same split of the realised regret (max mu - mu_J) 1{near(mu)}, unbiased too, with
more variance: an independent check. The limit's own split at the same n (`bounds.limit.
regret_near_ties`), and each part's excess over it. The full-information oracle's split on the same
instances (its regret given the means is exact quadrature, `bounds.lower`). Where the best arm went:
the share of runs that starved it (at most `STARVED` pulls), the top pair's share of the budget in
near ties and the best arm's share of the pair's pulls there.

Every part is n times the quantity over the limit's constant L_r, with a t-interval over runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bounds import limit
from simulate.seeds import stream
from simulate.stats import Interval, mean_interval

from .efficiency import constants
from .grid import ORACLE, Setting, algorithm_params
from .truth import (
    conditional_regret,
    instances,
    known_mean_posterior,
    oracle_given_means,
    simulated_runs,
    zero_share_bound,
)

#: the near-tie window, in units of sigma / sqrt(n): the pair problem's error Phi(-Delta sqrt(n) / (2 sigma))
#: is below 0.7% outside it
WIDTH = 5.0
#: posterior draws per run for the near-tie part (its Monte Carlo error is part of the run's value, so the
#: t-interval over runs covers it)
POSTERIOR_DRAWS = 256
#: a run starves the best arm when it pulls it at most this often
STARVED = 10


@dataclass(frozen=True)
class Split:
    setting: Setting
    algorithm: str
    n: int
    runs: int
    near: Interval             # n x the near-tie part of sr_n over L_r (posterior expectation)
    rest: Interval             # n x the rest over L_r
    near_realised: Interval    # the same parts of the realised regret (the independent check)
    rest_realised: Interval
    limit_near: float          # the finite-n limit's own parts (bounds.limit.regret_near_ties), over L_r
    limit_rest: float
    near_share: float          # the prior probability of a near tie
    starved: Interval | None = None      # the share of runs that pull the best arm at most STARVED times
    pair_share: float | None = None      # in near ties: the top pair's share of the budget (weighted mean)
    best_of_pair: tuple | None = None    # in near ties: the best arm's share of the pair's pulls (mean, sd)
    width: float = WIDTH

    @property
    def excess_near(self) -> Interval:
        """The near-tie part less the limit's own (a difference, not a bound per part)."""
        return Interval(*(x - self.limit_near for x in self.near[:3]), self.near.level)

    @property
    def excess_rest(self) -> Interval:
        return Interval(*(x - self.limit_rest for x in self.rest[:3]), self.rest.level)


def near_classes(mu: np.ndarray, window: float) -> np.ndarray:
    """Per row of means `(..., K)`: whether the top two are within `window`."""
    top = np.partition(mu, -2, axis=-1)
    return (top[..., -1] - top[..., -2]) < window


def posterior_near_part(m: np.ndarray, v: np.ndarray, rec: np.ndarray, window: float, rng: np.random.Generator,
                        draws: int = POSTERIOR_DRAWS) -> np.ndarray:
    """Per run, E[(max mu - mu_rec) 1{top two of mu within window} | posterior N(m, v)], by `draws`
    posterior draws (in chunks of runs, so memory stays small)."""
    R, K = m.shape
    out = np.empty(R)
    step = max(1, int(4e6 // (draws * K)))
    for i in range(0, R, step):
        mc, sc, rc = m[i:i + step], np.sqrt(v[i:i + step]), rec[i:i + step]
        mu = mc[:, None, :] + sc[:, None, :] * rng.standard_normal((mc.shape[0], draws, K))
        regret = mu.max(axis=2) - np.take_along_axis(mu, rc[:, None, None], 2)[:, :, 0]
        out[i:i + step] = np.mean(regret * near_classes(mu, window), axis=1)
    return out


def _starvation(means, pulls, w, near, level):
    """(starved share, the top pair's budget share in near ties, the best arm's share of the pair there)."""
    order = np.argsort(means, axis=1)
    best, second = order[:, -1], order[:, -2]
    idx = np.arange(means.shape[0])
    tb, ts = pulls[idx, best], pulls[idx, second]
    hit = tb <= STARVED
    starved = mean_interval(w * hit, level) if hit.any() else \
        Interval(0.0, 0.0, zero_share_bound(hit.size, level, tilt=bool(np.any(w != 1))), level)
    if not near.any():
        return starved, None, None
    wn = w[near] / w[near].sum()
    pair = (tb + ts)[near] / pulls[near].sum(axis=1)
    frac = tb[near] / (tb + ts)[near]
    mean = float(np.sum(wn * frac))
    return starved, float(np.sum(wn * pair)), (mean, float(math.sqrt(np.sum(wn * (frac - mean) ** 2))))


def regret_split(setting: Setting, algorithm: str, n: int, runs: int, seed: int = 0, width: float = WIDTH,
                 level: float = 0.95, params: dict | None = None) -> Split:
    """The split of `algorithm`'s simple regret at budget n on `setting` (the study's instances and
    seed, so the same runs as its row; `params` override the study's for the algorithm)."""
    s = setting
    window = width * math.sqrt(s.sigma_sq / n)
    scale = n / constants(s).regret
    if s.prior_ratio != 1:
        raise ValueError(f"setting: the split needs a common prior (the limit's split is for one), got {s.text}")
    near_lim = limit.regret_near_ties(n, s.K, s.sigma0_sq, s.sigma_sq, width) * scale
    total_lim = limit.regret_lower_bound(n, s.K, s.sigma0_sq, s.sigma_sq) * scale
    if algorithm == ORACLE:
        mu, _, w = instances(s.K, s.sigma0_sq, s.sigma_sq, runs, seed, s.tilt)
        near = near_classes(mu, window)
        regret = oracle_given_means(mu, n, s.sigma_sq, np.ones(s.K))[1]    # exact given the means
        parts = [mean_interval(w * regret * cls * scale, level) for cls in (near, ~near)]
        return Split(s, algorithm, n, runs, parts[0], parts[1], parts[0], parts[1], near_lim, total_lim - near_lim,
                     float(np.mean(w * near)), width=width)
    r = simulated_runs(algorithm, s.K, n, s.sigma0_sq, s.sigma_sq, runs, seed,
                       {**algorithm_params(algorithm, s), **(params or {})}, s.tilt)
    m, v = known_mean_posterior(r.pulls, r.sums, s.sigma0_sq, s.sigma_sq)
    total = conditional_regret(m, v, r.rec)
    rng = stream(seed, f"rates:split:{algorithm}:{s.K}:{n}:{width}")
    near_post = posterior_near_part(m, v, r.rec, window, rng)
    near = near_classes(r.means, window)
    realised = r.means.max(axis=1) - r.means[np.arange(runs), r.rec]
    w = r.weights
    starved, pair, best = _starvation(r.means, r.pulls, w, near, level)
    return Split(s, algorithm, n, runs, mean_interval(w * near_post * scale, level),
                 mean_interval(w * (total - near_post) * scale, level),
                 mean_interval(w * realised * near * scale, level), mean_interval(w * realised * ~near * scale, level),
                 near_lim, total_lim - near_lim, float(np.mean(w * near)), starved, pair, best, width)


#: the algorithms `splits` runs by default: RUE, its top-two balanced variant, the rule written to reach the
#: limit, and the oracle
SPLIT_ALGORITHMS = ("rue", "rue-top-two", "top-pair", ORACLE)


def header(scale: str, seed: int) -> str:
    """What `splits` computes, in words (the line `rates --split` prints first)."""
    return (f"simple regret at each setting's largest budget, n sr_n over the limit's constant L_r, split by the "
            f"instance: top two within {WIDTH:g} sigma/sqrt(n) (near ties) or not; each run's part is the "
            f"posterior expectation of regret x class given its data ({POSTERIOR_DRAWS} posterior draws per run), "
            f"95% intervals over runs; beside it the limit's own split at the same n and the realised regret's "
            f"split as a check ({scale} scale, seed {seed}):")


def splits(scale: str = "quick", algorithms=SPLIT_ALGORITHMS, seed: int = 0, progress=None) -> list[Split]:
    """`regret_split` at the largest budget of every common-prior setting of the study at `scale`, for
    each of `algorithms` the setting runs, or, for RUE's variant, where it runs RUE (the study's runs
    and seed: the same runs as its rows)."""
    from .grid import SCALES, budgets
    out = []
    for p in SCALES[scale].plans:
        if p.setting.prior_ratio != 1:
            continue
        top = dict(p.top)
        for alg in algorithms:
            if alg in p.algorithms or (alg == "rue-top-two" and "rue" in p.algorithms):
                n = budgets(p.low, min(p.high, top.get(alg, p.high)))[-1]
                out.append(regret_split(p.setting, alg, n, p.runs, seed))
                if progress:
                    progress(out[-1])
    return out


def _iv(x: Interval) -> str:
    return f"{x.estimate:6.3f} [{x.low:.3f}, {x.high:.3f}]"


def _realised(x: Interval) -> str:
    """A realised part: its interval, or that no run lost regret there (a t-interval of zeros says
    nothing about a rare event)."""
    return _iv(x) if x.high > 0 else "no run lost regret here"


def split_line(s: Split) -> str:
    """One split as text: the parts, the limit's, the excess, the check and where the best arm went."""
    head = f"{s.setting.name:<12} {s.algorithm:<12} n = {s.n:<8}"
    text = (f"{head} near ties {_iv(s.near)}  rest {_iv(s.rest)}\n{'':<36} limit's own: near {s.limit_near:.3f}, "
            f"rest {s.limit_rest:.3f}; excess: near {_iv(s.excess_near)}, rest {_iv(s.excess_rest)}")
    if s.algorithm != ORACLE:
        text += (f"\n{'':<36} realised regret (check): near {_realised(s.near_realised)}, rest "
                 f"{_realised(s.rest_realised)}"
                 f"\n{'':<36} best arm starved (<= {STARVED} pulls) in {s.starved.estimate:.2%} of runs "
                 f"[{max(s.starved.low, 0):.2%}, {s.starved.high:.2%}]")
        if s.pair_share is not None:
            text += (f"; in near ties the top pair takes {s.pair_share:.1%} of the budget, the best arm "
                     f"{s.best_of_pair[0]:.2f} +- {s.best_of_pair[1]:.2f} of the pair's pulls")
    return text + f"\n{'':<36} (near-tie instances: {s.near_share:.1%} of the prior, {s.runs} runs)"


def as_dict(s: Split) -> dict:
    """A split as JSON: every part with its interval, named with its parameters."""
    def iv(x):
        return None if x is None else [x.estimate, x.low, x.high]
    return {"setting": s.setting.name, "params": s.setting.params, "algorithm": s.algorithm, "n": s.n,
            "runs": s.runs, "width": s.width, "near": iv(s.near), "rest": iv(s.rest),
            "near_realised": iv(s.near_realised), "rest_realised": iv(s.rest_realised),
            "limit_near": s.limit_near, "limit_rest": s.limit_rest, "excess_near": iv(s.excess_near),
            "excess_rest": iv(s.excess_rest), "near_share": s.near_share, "starved": iv(s.starved),
            "starved_at_most": STARVED, "pair_share": s.pair_share, "best_of_pair": s.best_of_pair}
