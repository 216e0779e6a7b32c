"""One algorithm, called by its registry name with keyword arguments, for claims and notebooks:

    from simulate import run
    r = run("sh", means=[0.5, 0.45, 0.4, 0.3], budget=2000, runs=4000, seed=1)
    r.error, r.regret          # Intervals (estimate, low, high, level); r.seed, r.params as run

Its parameters (`tie_rule="lowest-index"` for SH, `variances="reml"` for RUE, ...) are the registry's
(`simulate.algorithms.get(name).params`, each with its range, and `describe(name)` lists them with
the algorithm's source); anything else is a ValueError naming it. The runs go through the same runner as
`simulate.runner.simulate` and `rue-verify simulate`, with the same seeds, so a result here is the
command line's result for the same arguments."""

from __future__ import annotations

from dataclasses import dataclass

from .stats import Interval


@dataclass(frozen=True)
class Run:
    """What `run` returns: the algorithm as run (its registry name and every parameter), the error rate
    (an exact binomial interval) and the simple regret (a t-interval), with the runs, budget and seed."""

    algorithm: str
    params: dict
    error: Interval
    regret: Interval
    runs: int
    budget: int
    seed: int
    mean_pulls: list

    def __str__(self) -> str:
        e, r = self.error, self.regret
        return (f"{self.algorithm} {self.params}: error {e.estimate:.4f} [{e.low:.4f}, {e.high:.4f}], simple regret "
                f"{r.estimate:.4g} [{r.low:.4g}, {r.high:.4g}] ({e.level:g} intervals; {self.runs} runs, n = "
                f"{self.budget}, seed {self.seed})")


def run(name: str, *, means=None, setup: str | None = None, K: int | None = None, budget: int | str = "H",
        runs: int = 1000, seed: int = 0, gaussian: bool = False, nu: float = 0.5, level: float = 0.95,
        progress: bool = False, **params) -> Run:
    """`runs` runs of the registry's algorithm `name` on `means` (or a paper setup `setup` with K arms),
    Bernoulli rewards or, with `gaussian`, Gaussian rewards of standard deviation `nu`; `budget` an
    integer or 'H/2', 'H', '2H'; `params` the algorithm's own parameters by name."""
    from .environments import environment_for
    from .runner import simulate
    if not isinstance(name, str):
        raise ValueError(f"name must be an algorithm's registry name (a string), got {name!r}")
    if not isinstance(gaussian, bool):
        raise ValueError(f"gaussian must be True or False, got {gaussian!r}")
    kw = {"reward": "gaussian", "nu_sq": float(nu) ** 2} if gaussian else {"reward": "bernoulli"}
    if gaussian and not (isinstance(nu, (int, float)) and 0 < nu < float("inf")):
        raise ValueError(f"nu must be a finite number > 0 (the rewards' standard deviation), got {nu!r}")
    env = environment_for(setup, K, None if means is None else list(means), **kw)
    res = simulate(env, [(name, params)], budget, runs, seed, level=level, progress=progress)
    a = res.results[0]
    return Run(a.algorithm, a.params, Interval(a.error_rate, a.ci_low, a.ci_high, level),
               Interval(a.simple_regret, a.regret_ci_low, a.regret_ci_high, level), runs, res.budget, seed,
               a.mean_pulls)


def describe(name: str) -> str:
    """The algorithm's title, its parameters with defaults and ranges, and its budget rule."""
    from .algorithms import get
    alg = get(name)
    lines = [f"{alg.name}: {alg.title}", f"  smallest budget: {alg.budget_rule}"]
    for p in alg.params:
        lines.append(f"  {p.name} = {p.default!r}: {p.help}" + (f" (one of {', '.join(map(str, p.choices))})"
                                                                 if p.choices else ""))
    return "\n".join(lines)
