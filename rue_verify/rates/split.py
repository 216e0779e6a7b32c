"""Where an algorithm's simple regret comes from (issue 41): at budget n, the part from near-tie
instances, whose top two means are within `width` sigma / sqrt(n) (where the limit's constant comes
from, `bounds.limit`), and the rest, instances with a clear top pair whose regret means the pair
itself was missed or the allocation left it unresolved. Each part is a mean over the runs of the
study's instances (near-tie sampling and its weights, `truth.instances`) of the run's conditional
regret times the indicator of its class, so the two parts sum to `bayes_truth`'s sr_n; each with a
t-interval. Over the limit's constant L_r, n times each part says which of the two carries an
algorithm's distance from the limit."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulate.stats import Interval, mean_interval

from .efficiency import constants
from .grid import ORACLE, Setting, algorithm_params
from .truth import bayes_truth, instances, oracle_truth

#: the near-tie window, in units of sigma / sqrt(n): the pair problem's error Phi(-Delta sqrt(n) / (2 sigma))
#: is below 0.7% outside it
WIDTH = 5.0


@dataclass(frozen=True)
class Split:
    setting: Setting
    algorithm: str
    n: int
    runs: int
    near: Interval             # n x the near-tie part of sr_n, over the limit's constant L_r
    rest: Interval             # n x the rest, over L_r
    near_share: float          # the prior probability of a near tie (weighted share of instances)


def regret_split(setting: Setting, algorithm: str, n: int, runs: int, seed: int = 0, width: float = WIDTH,
                 level: float = 0.95) -> Split:
    """The split of `algorithm`'s simple regret at budget n on `setting` (the study's instances and
    seed, so the same runs as its row)."""
    s = setting
    if algorithm == ORACLE:
        t = oracle_truth(s.K, n, s.prior_vars(), s.sigma_sq, runs, seed, tilt=s.tilt)
    else:
        t = bayes_truth(algorithm, s.K, n, s.prior_vars(), s.sigma_sq, runs, seed, algorithm_params(algorithm, s),
                        tilt=s.tilt)
    mu, _, w = instances(s.K, s.prior_vars(), s.sigma_sq, runs, seed, s.tilt)
    top = np.sort(mu, axis=1)
    near = (top[:, -1] - top[:, -2]) < width * math.sqrt(s.sigma_sq / n)
    scale = n / constants(s).regret
    parts = [mean_interval(t.regret_runs * mask * scale, level) for mask in (near, ~near)]
    return Split(s, algorithm, n, runs, parts[0], parts[1], float(np.mean(w * near)))


#: the algorithms `splits` runs by default: RUE, the rule written to reach the limit, and the oracle
SPLIT_ALGORITHMS = ("rue", "top-pair", ORACLE)


def splits(scale: str = "quick", algorithms=SPLIT_ALGORITHMS, seed: int = 0, progress=None) -> list[Split]:
    """`regret_split` at the largest budget of every common-prior setting of the study at `scale`, for
    each of `algorithms` the setting runs (the study's runs and seed: the same runs as its rows)."""
    from .grid import SCALES, budgets
    out = []
    for p in SCALES[scale].plans:
        if p.setting.prior_ratio != 1:
            continue
        top = dict(p.top)
        for alg in algorithms:
            if alg in p.algorithms:
                n = budgets(p.low, min(p.high, top.get(alg, p.high)))[-1]
                out.append(regret_split(p.setting, alg, n, p.runs, seed))
                if progress:
                    progress(out[-1])
    return out


def split_line(s: Split) -> str:
    return (f"{s.setting.name:<12} {s.algorithm:<9} n = {s.n:<8} near ties {s.near.estimate:6.3f} "
            f"[{s.near.low:.3f}, {s.near.high:.3f}]  rest {s.rest.estimate:6.3f} [{s.rest.low:.3f}, {s.rest.high:.3f}]"
            f"  (near-tie instances: {s.near_share:.1%} of the prior, {s.runs} runs)")
