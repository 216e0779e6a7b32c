"""What the registry knows about an algorithm: its entry points, its parameters with defaults and
allowed ranges, and its smallest budget. Each algorithm module ends with one `Algorithm(...)`;
`simulate.algorithms.REGISTRY` collects them.

Calling conventions shared by every algorithm (keyword arguments; modes are names, never integers):
- `batch(means, n, seeds, reward_seeds, gaussian=False, nu=0.0, **kernel_params)`: runs
  r = 0..R-1 on means[r] (`(R, K)`), each on the streams of its seeds (`_source`); returns the
  recommended arms `(R,)` and the pulls per arm `(R, K)`. Results do not depend on threads.
- `run(mu, n, gaussian=False, nu=0.0, table=None, ties=None, seed=0, reward_seed=0,
  **kernel_params)`: one run, live (as `batch` would run it with those seeds) or on a reward table.
- `reference(source, K, n, gaussian=False, nu=0.0, **kernel_params)`: the plain numpy version,
  written from the definition, reading rewards and uniforms from `source` (`_source.LiveSource`
  or `TableSource`).
The kernel parameters are the user's parameters, except for an algorithm that is told something
about the instance (UCB-E's a = c n / H needs the true gaps): its `kernel_params` hook maps the
user's parameters and the true means to what the kernel takes.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np


@dataclass(frozen=True)
class Param:
    """A parameter: a name from `choices`, or a finite number in [low, high] (ends open when said)."""

    name: str
    default: Any
    help: str
    choices: tuple = ()
    low: float | None = None
    high: float | None = None
    open_low: bool = False
    open_high: bool = False

    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(map(str, self.choices))
        lo = "-inf" if self.low is None else f"{self.low:g}"
        hi = "inf" if self.high is None else f"{self.high:g}"
        return (f"a finite number in {'(' if self.open_low or self.low is None else '['}{lo}, "
                f"{hi}{')' if self.open_high or self.high is None else ']'}")

    def check(self, value: Any, owner: str) -> Any:
        """The value if allowed, else a ValueError naming `owner`'s parameter, the value and the range."""
        bad = ValueError(f"{owner}: {self.name} must be {self.allowed()}, got {value!r}")
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


@dataclass(frozen=True)
class Algorithm:
    """One registry entry."""

    name: str
    title: str                                   # what it is, with its source
    batch: Callable
    run: Callable
    reference: Callable
    min_budget: Callable[[int, dict], int]       # (K, resolved params) -> smallest n
    budget_rule: str                             # why, in words
    params: tuple[Param, ...] = ()
    kernel_params: Callable[[dict, np.ndarray, int], dict] | None = None

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
