"""The paper's benchmark environments (Section 6): fixed means F1-F6 for any K, random means R1-R3,
custom means, and means drawn from a user's prior (setup 'prior': independent N(prior_mean_k,
prior_sd_k^2) per arm, or a sampler of the user's). An environment owns the true means; algorithms never
read them. Gaussian rewards have one noise variance `nu_sq` for every arm, or one per arm.

F-setups follow Section 6.2 literally (the best arm is arm 1 with mean 0.5; index ranges such as
"k = 2..8" are kept as written and clipped to K). R-setups follow Section 6.1; "N(0.5, 0.1)" is
ambiguous, so `normal_scale` chooses 'variance' (variance 0.1) or 'sd' (standard deviation 0.1).
Bernoulli means must lie in [0, 1]; `clip_policy` says what happens to a drawn mean outside:
'clip' (to [0, 1], counted and reported), 'redraw' (rejection sampling) or 'error'.
Each R-setup fixes its reward law (R1 Gaussian with noise variance 1; R2, R3 Bernoulli): an
environment takes it unless told otherwise, and Bernoulli rewards on R1's unbounded means are an
error (that combination, with a policy for the out-of-range means, is R2). Custom Bernoulli means
outside [0, 1] are an error; means drawn from a user's prior follow `clip_policy` as R2's do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

# ---------------------------------------------------------------- the paper's settings, declared once
#: the fixed-means setups of Section 6.2 and the random-means setups of Section 6.1
F_SETUPS = ("F1", "F2", "F3", "F4", "F5", "F6")
R_SETUPS = ("R1", "R2", "R3")
#: the model of Section 3 as a setup: every run's means drawn from N(0, sigma0^2), Gaussian rewards (not a
#: setup of the paper's experiments; claim EXPLORE-CLIFF's numbers can be recomputed on it)
MODEL = "M"
#: means drawn from a user's prior: independent N(prior_mean_k, prior_sd_k^2), or `prior_sampler(rng, runs)`
PRIOR = "prior"
#: the most times setup prior redraws the runs whose Bernoulli means fell outside [0, 1] (`clip_policy` 'redraw')
REDRAWS = 1000
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


def _ndim(value) -> int:
    """`np.ndim(value)`, or -1 for what is no array (a ragged list)."""
    try:
        return int(np.ndim(value))
    except (TypeError, ValueError):
        return -1


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
    `Environment`. A ValueError naming the parameter when the two ways disagree. Setup 'prior' takes
    K from a per-arm prior_mean or prior_sd when K is not given."""
    if means is not None:
        if setup not in (None, "custom"):
            raise ValueError(f"setup {setup} and means: custom means replace the setup; give one of them")
        if K is not None and K != len(means):
            raise ValueError(f"K {K}: the means give K = {len(means)}")
        return Environment("custom", len(means), custom_means=tuple(means), **kw)
    if setup == "custom":
        raise ValueError("setup custom needs the means (custom arm means)")
    if setup == PRIOR and K is None:
        sizes = {len(kw[f]) for f in ("prior_mean", "prior_sd") if kw.get(f) is not None and _ndim(kw[f]) == 1}
        if len(sizes) != 1:
            raise ValueError("K: setup prior needs K, or a prior_mean or prior_sd with one value per arm")
        K = sizes.pop()
    return Environment(setup or "F1", K or PAPER_K, **kw)



@dataclass(frozen=True)
class Environment:
    """A bandit environment: a setup name, K, the reward law, and how each run gets its means.

    Fixed setups give every run the same means; random setups (R1-R3, M, prior) draw one instance per
    run from the runner's seed (its means stream, `SeedSequence(seed)` spawn key 0). `nu_sq`: one noise
    variance, or a tuple of one per arm (Gaussian rewards). Setup 'prior' draws arm k's mean from
    N(prior_mean_k, prior_sd_k^2) (each one number for every arm or K numbers; sd 0 fixes the mean), or
    takes `prior_sampler(rng, runs)`, a function of a numpy Generator and a count returning `(runs, K)`
    finite means; Bernoulli means outside [0, 1] are redrawn, clipped or refused by `clip_policy`.
    """

    setup: str
    K: int
    reward: str | None = None       # None: the R-setup's own law, else Bernoulli
    nu_sq: float | None = None      # None: the R-setup's own noise variance, else 0.25
    normal_scale: str = "variance"
    clip_policy: str = "redraw"
    custom_means: tuple | None = None
    mean_var: float = 1.0           # setup M: the variance sigma0^2 of the means' prior N(0, sigma0^2)
    prior_mean: float | tuple | None = None     # setup prior: each arm's prior mean (stored as K numbers)
    prior_sd: float | tuple | None = None       # setup prior: each arm's prior sd >= 0 (stored as K numbers)
    prior_sampler: Callable | None = None       # setup prior: (rng, runs) -> (runs, K) means, instead

    def __post_init__(self) -> None:
        setups = F_SETUPS + R_SETUPS + (MODEL, PRIOR, "custom")
        if self.setup not in setups:
            raise ValueError(f"setup must be one of {', '.join(setups)}, got {self.setup!r}")
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
        self._check_prior()
        spec = RANDOM_SETUPS.get(self.setup)
        if self.reward is None:
            object.__setattr__(self, "reward", spec.reward if spec else "bernoulli")
        if self.nu_sq is None:
            object.__setattr__(self, "nu_sq", spec.nu_sq if spec and spec.reward == "gaussian" else 0.25)
        if self.reward not in ("bernoulli", "gaussian"):
            raise ValueError(f"reward must be 'bernoulli' or 'gaussian', got {self.reward!r}")
        if not isinstance(self.nu_sq, (str, bytes)) and _ndim(self.nu_sq) != 0:
            self._check_nu_per_arm()
        elif isinstance(self.nu_sq, bool) or not isinstance(self.nu_sq, (int, float, np.floating)) or \
                not (0 < self.nu_sq < float("inf")):
            raise ValueError(f"nu_sq must be a finite number > 0, or one per arm, got {self.nu_sq!r}")
        if spec and spec.reward == "gaussian" and self.reward == "bernoulli":
            raise ValueError(f"reward: {self.setup} has Gaussian rewards (Section 6.1) and means that can leave "
                             f"[0, 1]; Bernoulli rewards on the same means are setup R2")
        if self.setup == "custom" and self.reward == "bernoulli" and self.custom_means is not None:
            mu = np.asarray(self.custom_means, float)
            if ((mu < 0) | (mu > 1)).any():
                raise ValueError(f"custom_means: Bernoulli means must lie in [0, 1], got {mu.min():g}..{mu.max():g}")

    def _check_nu_per_arm(self) -> None:
        """nu_sq given per arm: K finite numbers > 0, with Gaussian rewards; kept as a tuple of floats."""
        try:
            v = np.asarray(self.nu_sq, float)
        except (TypeError, ValueError):
            v = np.full(1, np.nan)
        if v.ndim != 1 or v.size != self.K or not np.all(np.isfinite(v)) or not np.all(v > 0):
            raise ValueError(f"nu_sq per arm must be K = {self.K} finite numbers > 0 (each arm's noise variance), got "
                             f"{self.nu_sq!r}"[:400])
        if self.reward != "gaussian":
            raise ValueError("nu_sq per arm (one noise variance per arm) needs Gaussian rewards (reward='gaussian')")
        object.__setattr__(self, "nu_sq", tuple(float(x) for x in v))

    def _check_prior(self) -> None:
        """Setup 'prior': a Gaussian prior (prior_mean, prior_sd, each one number or K) or a sampler, not both;
        other setups take neither."""
        given = [f for f in ("prior_mean", "prior_sd", "prior_sampler") if getattr(self, f) is not None]
        if self.setup != PRIOR:
            if given:
                raise ValueError(f"{given[0]}: only setup {PRIOR!r} draws means from a prior, got setup {self.setup!r}")
            return
        if self.prior_sampler is not None:
            if not callable(self.prior_sampler):
                raise ValueError(f"prior_sampler must be a function (rng, runs) -> (runs, K) means, got "
                                 f"{self.prior_sampler!r}")
            if len(given) > 1:
                raise ValueError(f"prior_sampler and {given[0]}: give a sampler or a Gaussian prior (prior_mean, "
                                 "prior_sd), not both")
            return
        if self.prior_mean is None or self.prior_sd is None:
            raise ValueError("prior_mean and prior_sd: setup prior needs both (each one number or one per arm), "
                             "or a prior_sampler")
        for name, low in (("prior_mean", -math.inf), ("prior_sd", 0.0)):
            value = getattr(self, name)
            try:
                v = np.asarray(value, float)
            except (TypeError, ValueError):
                v = np.full(1, np.nan)
            if isinstance(value, (bool, str)) or v.ndim > 1 or (v.ndim == 1 and v.size != self.K) or \
                    not np.all(np.isfinite(v)) or not np.all(v >= low):
                what = "finite numbers" if low == -math.inf else "finite numbers >= 0"
                raise ValueError(f"{name} must be one number or K = {self.K} {what} (one per arm), got "
                                 f"{value!r}"[:400])
            object.__setattr__(self, name, tuple(float(x) for x in np.broadcast_to(v, (self.K,))))

    @property
    def random(self) -> bool:
        return self.setup in R_SETUPS + (MODEL, PRIOR)

    @property
    def per_arm_noise(self) -> bool:
        """Whether the Gaussian noise variance is given per arm (`nu_sq` a tuple)."""
        return isinstance(self.nu_sq, tuple)

    def noise_sd(self):
        """The rewards' noise sd as the kernels take it (`nu`): one number, or a float64 array of one per arm."""
        return np.sqrt(np.asarray(self.nu_sq, float)) if self.per_arm_noise else float(np.sqrt(self.nu_sq))

    def fixed(self) -> np.ndarray:
        if self.setup == "custom":
            return np.asarray(self.custom_means, float)
        return fixed_means(self.setup, self.K)

    def means_for_runs(self, runs: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        """Means `(runs, K)` and the number of Bernoulli means clipped or redrawn."""
        if not self.random:
            return np.tile(self.fixed(), (runs, 1)), 0
        if self.setup == PRIOR:
            return self._prior_means(runs, rng)
        return random_means(self.setup, self.K, rng, runs, self.normal_scale, self.clip_policy, self.mean_var)

    def _draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """`size` instances from the user's prior, checked: `(size, K)` finite means."""
        if self.prior_sampler is None:
            return rng.normal(np.asarray(self.prior_mean), np.asarray(self.prior_sd), (size, self.K))
        name = getattr(self.prior_sampler, "__qualname__", repr(self.prior_sampler))
        try:
            mu = np.asarray(self.prior_sampler(rng, size), float)
        except Exception as err:  # noqa: BLE001 -- the user's code: say where it failed
            raise ValueError(f"prior_sampler {name} raised {type(err).__name__}: {err}") from err
        if mu.shape != (size, self.K) or not np.all(np.isfinite(mu)):
            raise ValueError(f"prior_sampler {name} must return ({size}, {self.K}) finite means (runs, K), got "
                             f"shape {mu.shape}" + ("" if mu.shape != (size, self.K) else " with non-finite means"))
        return mu

    def _prior_means(self, runs: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        """Setup prior: one draw per run; Bernoulli means outside [0, 1] by `clip_policy` (redraw: the runs
        with such a mean are drawn again, at most `REDRAWS` times)."""
        mu = self._draw(rng, runs)
        if self.reward != "bernoulli":
            return mu, 0
        bad = (mu < 0) | (mu > 1)
        count = int(bad.sum())
        if count and self.clip_policy == "error":
            raise ValueError(f"{count} Bernoulli means drawn from the prior fell outside [0, 1] (policy 'error')")
        if self.clip_policy == "clip":
            return np.clip(mu, 0.0, 1.0), count
        for _ in range(REDRAWS):
            rows = np.flatnonzero(bad.any(axis=1))
            if rows.size == 0:
                return mu, count
            mu[rows] = self._draw(rng, rows.size)
            bad = (mu < 0) | (mu > 1)
            count += int(bad.sum())
        raise ValueError(f"clip_policy: after {REDRAWS} redraws some runs' Bernoulli means drawn from the prior are "
                         "still outside [0, 1]; does the prior put mass in [0, 1]? (clip_policy 'clip' clips them)")

    def describe(self) -> dict:
        """Every parameter that shapes the rewards (a run can be repeated from it)."""
        d = {"setup": self.setup, "K": self.K, "reward": self.reward}
        if self.setup == "custom":
            d["means"] = list(self.custom_means)
        if self.reward == "gaussian":
            d["nu_sq"] = list(self.nu_sq) if self.per_arm_noise else self.nu_sq
        if self.setup == MODEL:
            d["mean_var"] = self.mean_var
        elif self.setup == PRIOR:
            if self.prior_sampler is not None:
                f = self.prior_sampler
                d["prior_sampler"] = f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', repr(f))}"
            else:
                d.update(prior_mean=list(self.prior_mean), prior_sd=list(self.prior_sd))
            if self.reward == "bernoulli":
                d["clip_policy"] = self.clip_policy
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
