"""What the registry knows about an algorithm: its entry points, its parameters with defaults and
allowed ranges, and its smallest budget. Each algorithm module ends with one `Algorithm(...)`;
`simulate.algorithms.REGISTRY` collects them.

Calling conventions shared by every algorithm (keyword arguments; modes are names, never integers):

- `batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, **kernel_params)`: runs
  r = 0..R-1 on means[r] (`(R, K)`), Gaussian rewards of noise sd `nu` (one number, or a sequence
  of one per arm where the entry allows it: `Algorithm.one_nu`), each on the streams of its seeds
  (`sources`); returns the recommended arms `(R,)` and the pulls per arm `(R, K)`. Results do not depend on threads. An
  entry that declares `collects_sums` also takes `sums=`, an `(R, K)` float array it fills with each
  run's reward sums as its kernel draws them (`sources.collect`); through the entry every algorithm
  takes it, the others' sums replayed from their reward streams (`sources.replayed_sums`).
- `run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0,
  **kernel_params)`: one run, live (as `batch` would run it with those seeds) or on a reward table.
- `reference(source, K, n, gaussian=False, nu=0.0, **kernel_params)`: the plain numpy version,
  written from the definition, reading rewards and uniforms from `source` (`sources.LiveSource`
  or `TableSource`).

The kernel parameters are the user's parameters, except for an algorithm that is told something
about the instance (UCB-E's a = c n / H needs the true gaps), or whose parameters expand (a prior
spread over the arms): its `kernel_params` hook maps the user's parameters and the true means to what
the kernel takes (`kernel_rules` declares their ranges). A kernel parameter is a number, an array
with one value per run (the runner splits it with the runs) or a tuple with one value per arm.

An entry's `batch` and `run` check their input before a kernel sees it (means finite, of K >= 2
arms, in [0, 1] for Bernoulli rewards; nu one number > 0, or K of them with Gaussian rewards where the
entry allows it; n at least the smallest budget; one seed of each kind per run; a reward table with n
rewards per arm; every kernel parameter in its range) and raise a ValueError that names the argument.
The module functions they wrap are unchecked.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np


def ndim(value) -> int:
    """`np.ndim(value)`, or -1 for what is no array (a ragged list), so that a check refuses it by name."""
    try:
        return int(np.ndim(value))
    except (TypeError, ValueError):
        return -1


@dataclass(frozen=True)
class Param:
    """A parameter: a name from `choices`, a finite number in [low, high] (ends open when said), or with
    `per_arm` a tuple of such numbers, one per arm (its length is the entry's to check, where K is known;
    the default may be empty, meaning what the entry says)."""

    name: str
    default: Any
    help: str
    choices: tuple = ()
    low: float | None = None
    high: float | None = None
    open_low: bool = False
    open_high: bool = False
    tag: Callable[[Any, dict], str] | None = None      # (value, all params) -> text for the algorithm's label
    #: False for a parameter added after results were stored: at its default it is left out of stored keys
    #: (`Algorithm.stored`), so the rows stored before it existed, which ran that default, still match
    keyed_at_default: bool = True
    per_arm: bool = False

    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(map(str, self.choices))
        lo = "-inf" if self.low is None else f"{self.low:g}"
        hi = "inf" if self.high is None else f"{self.high:g}"
        interval = (f"{'(' if self.open_low or self.low is None else '['}{lo}, "
                    f"{hi}{')' if self.open_high or self.high is None else ']'}")
        return f"a sequence of finite numbers in {interval}, one per arm" if self.per_arm else \
            f"a finite number in {interval}"

    def check(self, value: Any, owner: str) -> Any:
        """The value if allowed, else a ValueError naming `owner`'s parameter, the value and the range."""
        bad = ValueError(f"{owner}: {self.name} must be {self.allowed()}, got {value!r}"[:400])
        if self.per_arm:
            if isinstance(value, (str, bytes, dict)) or ndim(value) != 1:
                raise bad
            one = Param(self.name, None, self.help, low=self.low, high=self.high, open_low=self.open_low,
                        open_high=self.open_high)
            try:
                return tuple(one.check(v.item() if isinstance(v, np.generic) else v, owner) for v in value)
            except ValueError:
                raise bad from None
        if self.choices:
            if isinstance(value, str) and value in self.choices:
                return value
            raise bad
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise bad
        v = float(value)
        if not math.isfinite(v):
            raise bad
        if self.low is not None and (v < self.low or (self.open_low and v == self.low)):
            raise bad
        if self.high is not None and (v > self.high or (self.open_high and v == self.high)):
            raise bad
        return v


def tie_tag(value: str, params: dict) -> str:
    """The label text of the authors' tie convention (shared by the algorithms that take `tie_rule`)."""
    return " [lowest-index ties]" if value == "lowest-index" else ""


@dataclass(frozen=True)
class Reading:
    """A place where the paper can be read more than one way that changes how an algorithm runs:
    the variants, by name, as parameter sets. `setups` names the setup families the reading is about
    (("R",): Section 6.1's random setups); empty means every setup. A reading named "ties" is keyed
    by the tie conventions ('project', 'authors') that the reproduction runs under."""

    name: str
    variants: dict
    setups: tuple = ()


#: index ties: this project breaks them at random, the authors' code (SH, two-stage) to the lowest index
TIES = Reading("ties", {"project": {"tie_rule": "random"}, "authors": {"tie_rule": "lowest-index"}})


#: why an entry that does not declare `one_nu` is refused a per-arm noise sd
NOT_DECLARED = ("it does not declare that it can (an entry says so by one_nu='' when its kernels read no noise level, "
                "or read it per arm through sources.noise_sd)")


@dataclass(frozen=True)
class Algorithm:
    """One registry entry: everything the runner, the reproduction, the figures and the command
    line need about an algorithm."""

    name: str
    title: str                                   # what it is, with its source
    batch: Callable
    run: Callable
    reference: Callable
    min_budget: Callable[[int, dict], int]       # (K, resolved params) -> smallest n
    budget_rule: str                             # why, in words
    params: tuple[Param, ...] = ()
    kernel_params: Callable[[dict, np.ndarray, int], dict] | None = None
    kernel_rules: tuple[Param, ...] | None = None      # default: the same as `params`
    style: tuple[str, str, str] = ("k", ".", "-")      # plot colour, marker and line style
    cost: float = 0.05                           # relative seconds per arm-round (a progress bar's unit)
    readings: tuple[Reading, ...] = ()           # the paper's ambiguities that change this algorithm
    pulls_every_arm: bool = True                 # at its smallest budget every arm gets a pull (a random
    #                                              allocation, a multinomial draw, may leave an arm out)
    collects_sums: bool = False                  # its batch fills `sums=` itself (the kernel keeps them)
    phase_sums: bool = False                     # its kernel draws a Gaussian phase's sum at once
    #                                              (`sources.phase_sum`; must collect its sums, which no
    #                                              one-at-a-time replay gives)
    #: whether runs may have one Gaussian noise sd per arm (`nu` a sequence): "" when they may (the entry
    #: reads no noise level, or reads each arm's: TTTS's posterior, two-stage's bounds), else why not (its
    #: definition has one sigma); a function of the kernel parameters when that depends on them (Bayesian
    #: elimination reads one sigma^2 only with noise_var = 0). An entry from outside that does not say is refused
    one_nu: str | Callable[[dict], str] = NOT_DECLARED

    def arm_rounds(self, n: int, K: int, gaussian: bool) -> float:
        """One run's work in arm-rounds, the unit of `cost` (a progress bar's weight): n K, or for an
        algorithm that draws a Gaussian phase's sum at once (`phase_sums`) min(n, K) K, one draw per arm
        and phase, with at most K - 1 phases (successive rejects; the others have fewer)."""
        return float((min(n, K) if gaussian and self.phase_sums else n) * K)

    def label(self, params: dict | None = None) -> str:
        """A display name that shows the reading: 'sh', 'sh [lowest-index ties]', 'ucbe [a = 2]', ..."""
        params = {**{p.name: p.default for p in self.params}, **(params or {})}
        return self.name + "".join(p.tag(params[p.name], params) for p in self.params if p.tag)

    def line(self, params: dict | None = None) -> tuple[str, str, str]:
        """(colour, marker, line style) of a plot series: a variant reading is dashed (dotted where
        the default line already is)."""
        color, marker, ls = self.style
        if self.label(params) == self.label():
            return color, marker, ls
        return color, marker, ":" if ls == "--" else "--"

    def variants(self, setup: str, conventions: tuple[str, ...] = ("project",)) -> list[dict]:
        """The parameter sets the algorithm runs with on `setup`: one per combination of the variants
        of its readings that concern the setup (ties: only the given conventions)."""
        out = [{}]
        for r in self.readings:
            if r.setups and not setup.startswith(tuple(r.setups)):
                continue
            ties = r.name == "ties"
            vs = [r.variants[c] for c in conventions if c in r.variants] if ties else list(r.variants.values())
            out = [{**o, **v} for o in out for v in vs]
        return out

    def __post_init__(self) -> None:
        if self.phase_sums and not self.collects_sums:
            raise ValueError(f"algorithm {self.name}: phase_sums needs collects_sums (its sums cannot be replayed "
                             "one reward at a time)")
        object.__setattr__(self, "raw_batch", self.batch)
        object.__setattr__(self, "raw_run", self.run)
        object.__setattr__(self, "batch", self._checked_batch)
        object.__setattr__(self, "run", self._checked_run)

    def _check(self, means: np.ndarray, n, gaussian, nu, kw: dict, live: bool = True) -> dict:
        """The kernel keyword arguments, checked; live runs also need a reward law that fits the means."""
        if means.ndim != 2 or means.shape[1] < 2 or means.shape[0] < 1:
            raise ValueError(f"{self.name}: means must be (runs, K) with K >= 2, got shape {means.shape}")
        if not np.all(np.isfinite(means)):
            raise ValueError(f"{self.name}: means must be finite")
        if live and not gaussian and (means.min() < 0 or means.max() > 1):
            raise ValueError(f"{self.name}: Bernoulli means must lie in [0, 1], got {means.min():g}..{means.max():g}")
        if ndim(nu) == 0 and live and gaussian and not (isinstance(nu, (int, float, np.floating))
                                                            and 0 < nu < float("inf")):
            raise ValueError(f"{self.name}: nu (the Gaussian noise sd) must be a finite number > 0, got {nu!r}")
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= 10 ** 9:
            raise ValueError(f"{self.name}: n must be an integer in [1, 1e9], got {n!r}")
        rules = {p.name: p for p in (self.kernel_rules if self.kernel_rules is not None else self.params)}
        unknown = sorted(set(kw) - set(rules))
        if unknown:
            raise ValueError(f"{self.name}: unknown parameter {', '.join(unknown)} "
                             f"(it takes {', '.join(rules) or 'none'})")
        out = {}
        for name, value in kw.items():
            if rules[name].per_arm:                        # one per arm, checked whole
                out[name] = rules[name].check(value, self.name)
            elif isinstance(value, (np.ndarray, tuple)):     # per run (array) or per arm (tuple)
                for v in np.ravel(value):
                    rules[name].check(float(v), self.name)
                out[name] = value
            else:
                out[name] = rules[name].check(value, self.name)
        full = self._defaults()
        full.update({k: v for k, v in out.items() if not isinstance(v, (np.ndarray, tuple)) or rules[k].per_arm})
        if self.kernel_rules is None:
            self.check_budget(int(n), means.shape[1], full)
        elif n < means.shape[1]:
            raise ValueError(f"budget: {self.name} needs n >= K = {means.shape[1]}, got {n}")
        return out

    @staticmethod
    def _seeds(name: str, seeds, R: int, what: str) -> np.ndarray:
        a = np.asarray(seeds)
        if a.shape != (R,) or a.dtype.kind not in "iu" or (a.dtype.kind == "i" and a.size and a.min() < 0):
            raise ValueError(f"{name}: {what} must be {R} non-negative integers (one per run), got {seeds!r}"[:300])
        return a.astype(np.uint64)

    def per_arm_nu(self, nu, K: int, gaussian: bool, kw: dict):
        """`nu` as the kernels take it: one number unchanged, or a sequence of one noise sd per arm as a
        float64 array of K, checked (finite, > 0, Gaussian rewards) and refused where the entry reads one
        noise level for every arm (`one_nu`), with a ValueError that names nu and says why."""
        if ndim(nu) == 0:
            return nu
        try:
            a = np.asarray(nu, float)
        except (TypeError, ValueError):
            a = None
        if a is None or a.ndim != 1 or a.size != K or not np.all(np.isfinite(a)) or not np.all(a > 0):
            raise ValueError(f"{self.name}: nu per arm must be K = {K} finite numbers > 0 (each arm's Gaussian noise "
                             f"sd), got {nu!r}"[:400])
        if not gaussian:
            raise ValueError(f"{self.name}: nu per arm (one noise sd per arm) needs Gaussian rewards (gaussian=True)")
        why = self.one_nu(kw) if callable(self.one_nu) else self.one_nu
        if why:
            raise ValueError(f"{self.name}: nu per arm (one noise sd per arm) is refused: {why}")
        return np.ascontiguousarray(a)

    def _checked_batch(self, means, n, seeds, reward_seeds, gaussian=False, nu=0.0, sums=None, **kw):
        from .sources import collect, replayed_sums
        # C-contiguous and writable, whatever was given: numba compiles a kernel once per argument type, and a
        # read-only or strided means array (a rate study's cached draws) is another type, compiled again
        means = np.require(np.asarray(means, float), np.float64, ("C", "W"))
        kw = self._check(means, n, gaussian, nu, kw)
        nu = self.per_arm_nu(nu, means.shape[1], gaussian, {**self._defaults(), **kw})
        R = means.shape[0]
        seeds, reward_seeds = (self._seeds(self.name, s, R, w) for s, w in ((seeds, "seeds"),
                                                                           (reward_seeds, "reward_seeds")))
        collect(sums, means.shape)                  # checked (and zeroed) before any run
        if sums is None or self.collects_sums:
            return self.raw_batch(means, n, seeds, reward_seeds, gaussian=gaussian, nu=nu,
                                  **({} if sums is None else {"sums": sums}), **kw)
        rec, pulls = self.raw_batch(means, n, seeds, reward_seeds, gaussian=gaussian, nu=nu, **kw)
        sums[...] = replayed_sums(means, pulls, reward_seeds, gaussian, nu)
        return rec, pulls

    def _checked_run(self, mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0, **kw):
        mu = np.asarray(mu, float)
        if mu.ndim != 1:
            raise ValueError(f"{self.name}: mu must be one run's K means, got shape {mu.shape}")
        kw = self._check(mu[None], n, gaussian, nu, kw, live=table is None)
        nu = self.per_arm_nu(nu, mu.size, gaussian, {**self._defaults(), **kw})
        if table is not None:
            t = np.asarray(table, float)
            if t.ndim != 2 or t.shape[0] != mu.size or t.shape[1] < n:
                raise ValueError(f"{self.name}: table must hold n = {n} rewards for each of the K = {mu.size} arms, "
                                 f"got shape {t.shape}")
            if ties is None or np.asarray(ties).size == 0:
                raise ValueError(f"{self.name}: a table run needs ties, the uniforms its choices read")
        self._seeds(self.name, [seed], 1, "seed")
        self._seeds(self.name, [reward_seed], 1, "reward_seed")
        return self.raw_run(mu, n, gaussian=gaussian, nu=nu, table=table, ties=ties, seed=seed,
                            reward_seed=reward_seed, **kw)

    def _defaults(self) -> dict:
        return {p.name: p.default for p in (self.kernel_rules if self.kernel_rules is not None else self.params)}

    def stored(self, resolved: dict) -> dict:
        """Resolved parameters as result stores key them: those that say so (`Param.keyed_at_default`)
        left out at their defaults."""
        quiet = {p.name: p.default for p in self.params if not p.keyed_at_default}
        return {k: v for k, v in resolved.items() if not (k in quiet and v == quiet[k])}

    def resolve(self, params: dict | None = None) -> dict:
        """Every parameter, checked, with defaults filled in; unknown names are an error."""
        params = dict(params or {})
        known = {p.name: p for p in self.params}
        unknown = sorted(set(params) - set(known))
        if unknown:
            takes = ", ".join(known) or "no parameters"
            raise ValueError(f"{self.name}: unknown parameter {', '.join(unknown)} (it takes {takes})")
        return {name: p.check(params.get(name, p.default), self.name) for name, p in known.items()}

    def check_budget(self, n: int, K: int, params: dict) -> None:
        need = self.min_budget(K, params)
        if n < need:
            raise ValueError(f"budget: {self.name} needs n >= {need} with K = {K} ({self.budget_rule}), got {n}")

    def kernel_kwargs(self, params: dict, means: np.ndarray, n: int) -> dict:
        """The keyword arguments of `batch`, `run` and `reference` for runs on `means` (`(R, K)`)."""
        return self.kernel_params(params, means, n) if self.kernel_params else dict(params)
