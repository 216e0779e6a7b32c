"""The paper's benchmark environments (Section 6): fixed means F1-F6 for any K, random means R1-R3,
and custom means. An environment owns the true means; algorithms never read them.

F-setups follow Section 6.2 literally (the best arm is arm 1 with mean 0.5; index ranges such as
"k = 2..8" are kept as written and clipped to K). R-setups follow Section 6.1; "N(0.5, 0.1)" is
ambiguous, so `normal_scale` chooses 'variance' (variance 0.1) or 'sd' (standard deviation 0.1).
Bernoulli means must lie in [0, 1]; `clip_policy` says what happens to a drawn mean outside:
'clip' (to [0, 1], counted and reported), 'redraw' (rejection sampling) or 'error'.
Each R-setup fixes its reward law (R1 Gaussian with noise variance 1; R2, R3 Bernoulli): an
environment takes it unless told otherwise, and Bernoulli rewards on R1's unbounded means are an
error (that combination, with a policy for the out-of-range means, is R2). Custom Bernoulli means
outside [0, 1] are an error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# ---------------------------------------------------------------- the paper's settings, declared once
#: the fixed-means setups of Section 6.2 and the random-means setups of Section 6.1
F_SETUPS = ("F1", "F2", "F3", "F4", "F5", "F6")
R_SETUPS = ("R1", "R2", "R3")
#: the model of Section 3 as a setup: every run's means drawn from N(0, sigma0^2), Gaussian rewards (not a
#: setup of the paper's experiments; claim EXPLORE-CLIFF's numbers can be recomputed on it)
MODEL = "M"
#: K of every setup in Figures 2-4; the appendix's Figure 5 runs F4 with `ARMS_K` arms
PAPER_K = 20
ARMS_K = (40, 80)
#: the budgets of the fixed setups (Section 6.2): label -> n from ceil(H)
FIXED_BUDGETS = {"H/2": lambda Hc: math.ceil(Hc / 2), "H": lambda Hc: Hc, "2H": lambda Hc: 2 * Hc}
#: the budgets of the random setups (Section 6.1): label -> n from the setup's N (`RANDOM_N`)
RANDOM_BUDGETS = {"N/4": lambda N: N // 4, "N/2": lambda N: N // 2, "N": lambda N: N}
RANDOM_N = {"R1": 5000, "R2": 5000, "R3": 12000}
#: the algorithms Section 6 runs (its legend's order; the reproduction's grid runs them in this
#: order) and the baselines among them
PAPER_ALGORITHMS = ("rue", "ucbe", "sr", "sh", "ttts")
PAPER_BASELINES = PAPER_ALGORITHMS[1:]


def budgets_from(label_table: dict, base: int) -> dict[str, int]:
    """Every label of `label_table` (`FIXED_BUDGETS` with base ceil(H), `RANDOM_BUDGETS` with base N)
    -> its budget."""
    return {label: int(f(base)) for label, f in label_table.items()}


def fixed_means(setup: str, K: int = 20) -> np.ndarray:
    """The means of setup F1..F6 (Section 6.2, `sec:experiments-fixed`) for K arms, best first."""
    if setup not in F_SETUPS:
        raise ValueError(f"setup must be one of {F_SETUPS}, got {setup!r}")
    if not (isinstance(K, (int, np.integer)) and K >= 2):
        raise ValueError(f"K must be an integer >= 2, got {K!r}")
    mu = np.empty(K)
    mu[0] = 0.5
    idx = np.arange(1, K + 1)           # paper's 1-based arm index k
    if setup == "F1":
        mu[1:] = 0.45
    elif setup == "F2":
        mu[1:] = np.where(idx[1:] <= 8, 0.45, 0.3)
    elif setup == "F3":
        mu[1:] = np.where(idx[1:] <= 5, 0.48, np.where(idx[1:] <= 13, 0.4, 0.3))
    elif setup == "F4":
        mu[1:] = np.linspace(0.5 - 1 / (5 * K), 0.25, K - 1)
    elif setup == "F5":
        d2, dK = 1 / (5 * K), 0.25
        mu[1:] = 0.5 - d2 * (dK / d2) ** (np.arange(K - 1) / max(K - 2, 1))
    else:  # F6
        mu[1:] = 0.45
        mu[1] = 0.5 - 1 / (10 * K)
    return mu


@dataclass(frozen=True)
class RandomSetup:
    """How R1-R3 draw their means and rewards (Section 6.1, `sec:experiments-random`)."""

    name: str
    reward: str          # 'gaussian' (noise variance 1) or 'bernoulli'
    prior: str           # 'normal' or 'uniform'
    nu_sq: float = 1.0


RANDOM_SETUPS = {"R1": RandomSetup("R1", "gaussian", "normal"),
                 "R2": RandomSetup("R2", "bernoulli", "normal"),
                 "R3": RandomSetup("R3", "bernoulli", "uniform"),
                 MODEL: RandomSetup(MODEL, "gaussian", "model")}


def random_means(setup: str, K: int, rng: np.random.Generator, size: int = 1,
                 normal_scale: str = "variance", clip_policy: str = "redraw", mean_var: float = 1.0
                 ) -> tuple[np.ndarray, int]:
    """Draw `size` instances of R1..R3 or of M (means N(0, mean_var)): means `(size, K)` and how many
    draws were clipped/redrawn."""
    if setup not in RANDOM_SETUPS:
        raise ValueError(f"setup must be one of {R_SETUPS + (MODEL,)}, got {setup!r}")
    if normal_scale not in ("variance", "sd"):
        raise ValueError(f"normal_scale must be 'variance' or 'sd', got {normal_scale!r}")
    if clip_policy not in ("clip", "redraw", "error"):
        raise ValueError(f"clip_policy must be 'clip', 'redraw' or 'error', got {clip_policy!r}")
    spec = RANDOM_SETUPS[setup]
    if spec.prior == "model":
        return rng.normal(0.0, math.sqrt(mean_var), (size, K)), 0
    if spec.prior == "uniform":
        return rng.uniform(0.0, 0.5, (size, K)), 0
    sd = np.sqrt(0.1) if normal_scale == "variance" else 0.1
    mu = rng.normal(0.5, sd, (size, K))
    if spec.reward != "bernoulli":
        return mu, 0
    bad = (mu < 0) | (mu > 1)
    count = int(bad.sum())
    if count and clip_policy == "error":
        raise ValueError(f"{count} Bernoulli means fell outside [0, 1] (policy 'error')")
    if clip_policy == "clip":
        return np.clip(mu, 0.0, 1.0), count
    while bad.any():
        mu[bad] = rng.normal(0.5, sd, int(bad.sum()))
        bad = (mu < 0) | (mu > 1)
    return mu, count


# ---------------------------------------------------------------- environment objects
def environment_for(setup: str | None = None, K: int | None = None, means=None, **kw) -> "Environment":
    """An environment from what a user gives: a setup (default F1) and K (default `PAPER_K`), or
    custom `means` (then the setup is 'custom' and K is their number). `kw`: the other fields of
    `Environment`. A ValueError naming the parameter when the two ways disagree."""
    if means is not None:
        if setup not in (None, "custom"):
            raise ValueError(f"setup {setup} and means: custom means replace the setup; give one of them")
        if K is not None and K != len(means):
            raise ValueError(f"K {K}: the means give K = {len(means)}")
        return Environment("custom", len(means), custom_means=tuple(means), **kw)
    if setup == "custom":
        raise ValueError("setup custom needs the means (custom arm means)")
    return Environment(setup or "F1", K or PAPER_K, **kw)



@dataclass(frozen=True)
class Environment:
    """A bandit environment: a setup name, K, the reward law, and how each run gets its means.

    Fixed setups give every run the same means; random setups draw one instance per run (or
    `instances` instances shared round-robin by the runs) from the runner's seed.
    """

    setup: str
    K: int
    reward: str | None = None       # None: the R-setup's own law, else Bernoulli
    nu_sq: float | None = None      # None: the R-setup's own noise variance, else 0.25
    normal_scale: str = "variance"
    clip_policy: str = "redraw"
    custom_means: tuple | None = None
    mean_var: float = 1.0           # setup M: the variance sigma0^2 of the means' prior N(0, sigma0^2)

    def __post_init__(self) -> None:
        if self.setup not in F_SETUPS + R_SETUPS + (MODEL, "custom"):
            raise ValueError(f"setup must be one of {', '.join(F_SETUPS + R_SETUPS + (MODEL, 'custom'))}, got "
                             f"{self.setup!r}")
        if isinstance(self.mean_var, bool) or not isinstance(self.mean_var, (int, float, np.floating)) or \
                not (0 < self.mean_var < float("inf")):
            raise ValueError(f"mean_var must be a finite number > 0, got {self.mean_var!r}")
        if isinstance(self.K, bool) or not isinstance(self.K, (int, np.integer)) or not 2 <= self.K <= 10 ** 5:
            raise ValueError(f"K must be an integer in [2, 100000], got {self.K!r}")
        if self.normal_scale not in ("variance", "sd"):
            raise ValueError(f"normal_scale must be 'variance' or 'sd', got {self.normal_scale!r}")
        if self.clip_policy not in ("clip", "redraw", "error"):
            raise ValueError(f"clip_policy must be 'clip', 'redraw' or 'error', got {self.clip_policy!r}")
        if self.setup == "custom":
            if self.custom_means is None:
                raise ValueError("custom_means: setup 'custom' needs the arm means")
            try:
                mu = np.asarray(self.custom_means, float)
            except (TypeError, ValueError):
                raise ValueError(f"custom_means must be numbers, got {self.custom_means!r}") from None
            if mu.ndim != 1 or mu.size != self.K or not np.all(np.isfinite(mu)):
                raise ValueError(f"custom_means must be K = {self.K} finite numbers, got {self.custom_means!r}")
            object.__setattr__(self, "custom_means", tuple(float(x) for x in mu))
        elif self.custom_means is not None:
            raise ValueError(f"custom_means: only setup 'custom' takes means, got setup {self.setup!r}")
        spec = RANDOM_SETUPS.get(self.setup)
        if self.reward is None:
            object.__setattr__(self, "reward", spec.reward if spec else "bernoulli")
        if self.nu_sq is None:
            object.__setattr__(self, "nu_sq", spec.nu_sq if spec and spec.reward == "gaussian" else 0.25)
        if self.reward not in ("bernoulli", "gaussian"):
            raise ValueError(f"reward must be 'bernoulli' or 'gaussian', got {self.reward!r}")
        if isinstance(self.nu_sq, bool) or not isinstance(self.nu_sq, (int, float, np.floating)) or \
                not (0 < self.nu_sq < float("inf")):
            raise ValueError(f"nu_sq must be a finite number > 0, got {self.nu_sq!r}")
        if spec and spec.reward == "gaussian" and self.reward == "bernoulli":
            raise ValueError(f"reward: {self.setup} has Gaussian rewards (Section 6.1) and means that can leave "
                             f"[0, 1]; Bernoulli rewards on the same means are setup R2")
        if self.setup == "custom" and self.reward == "bernoulli" and self.custom_means is not None:
            mu = np.asarray(self.custom_means, float)
            if ((mu < 0) | (mu > 1)).any():
                raise ValueError(f"custom_means: Bernoulli means must lie in [0, 1], got {mu.min():g}..{mu.max():g}")

    @property
    def random(self) -> bool:
        return self.setup in R_SETUPS + (MODEL,)

    def fixed(self) -> np.ndarray:
        if self.setup == "custom":
            return np.asarray(self.custom_means, float)
        return fixed_means(self.setup, self.K)

    def means_for_runs(self, runs: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        """Means `(runs, K)` and the number of Bernoulli means clipped or redrawn."""
        if not self.random:
            return np.tile(self.fixed(), (runs, 1)), 0
        return random_means(self.setup, self.K, rng, runs, self.normal_scale, self.clip_policy, self.mean_var)

    def describe(self) -> dict:
        """Every parameter that shapes the rewards (a run can be repeated from it)."""
        d = {"setup": self.setup, "K": self.K, "reward": self.reward}
        if self.setup == "custom":
            d["means"] = list(self.custom_means)
        if self.reward == "gaussian":
            d["nu_sq"] = self.nu_sq
        if self.setup == MODEL:
            d["mean_var"] = self.mean_var
        elif self.random:
            d.update(normal_scale=self.normal_scale, clip_policy=self.clip_policy)
        return d


def complexity_H(means: np.ndarray, convention: str = "suboptimal") -> float:
    """H in either convention: 'suboptimal' (sum over k != i* of Delta_k^-2, common practice and the
    authors' code) or 'section2' (plus the best arm's own Delta_min^-2, Section 2)."""
    from bounds.section2 import H_complexity
    if convention not in ("suboptimal", "section2"):
        raise ValueError(f"H convention must be 'suboptimal' or 'section2', got {convention!r}")
    return H_complexity(means, include_best=convention == "section2")


def parse_budget(budget: str | int, env: Environment, convention: str = "suboptimal") -> int:
    """A budget as an integer or as a label of `FIXED_BUDGETS` (H/2, H, 2H: ceil(ceil(H)/2), ceil(H),
    2 ceil(H), Section 6.2)."""
    labels = ", ".join(FIXED_BUDGETS)
    if isinstance(budget, bool):
        raise ValueError(f"budget must be an integer or one of {labels}, got {budget!r}")
    if isinstance(budget, (int, np.integer)) or str(budget).isdigit():
        n = int(budget)
        if not 1 <= n <= 10 ** 9:
            raise ValueError(f"budget must be an integer in [1, 1e9] or one of {labels}, got {n}")
        return n
    if env.random:
        raise ValueError("budgets relative to H need fixed means; give a number for R1-R3 and M")
    table = budgets_from(FIXED_BUDGETS, math.ceil(complexity_H(env.fixed(), convention)))
    if budget not in table:
        raise ValueError(f"budget must be an integer or one of {list(table)}, got {budget!r}")
    return table[budget]


def prior_variances(K: int, prior_var: float, ratio: float = 1.0) -> np.ndarray:
    """Per-arm prior variances spread geometrically: arm k (0-based) gets prior_var *
    ratio^(k/(K-1) - 1/2), so ratio = 1 is the homogeneous prior of Section 3 and any ratio keeps
    the geometric mean at prior_var. The prior-dependent peers read it, and the differing-prior
    setting of the rate study draws means from it."""
    if not (isinstance(K, (int, np.integer)) and K >= 2):
        raise ValueError(f"K must be an integer >= 2, got {K!r}")
    if not (np.isfinite(prior_var) and prior_var > 0):
        raise ValueError(f"prior_var must be a finite number > 0, got {prior_var!r}")
    if not (np.isfinite(ratio) and ratio >= 1):
        raise ValueError(f"prior_ratio must be a finite number >= 1, got {ratio!r}")
    return prior_var * ratio ** (np.arange(K) / (K - 1) - 0.5)
