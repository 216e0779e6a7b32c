"""One algorithm, called by its registry name with keyword arguments, for claims and notebooks:

    from simulate import run
    r = run("sh", means=[0.5, 0.45, 0.4, 0.3], budget=2000, runs=4000, seed=1)
    r.error, r.regret          # Intervals (estimate, low, high, level); r.seed, r.params as run

Gaussian rewards may have one noise sd per arm (`nu=[...]`), and the means may be drawn from a user's
prior (`prior=(means, sds)` or a sampler). Its parameters (`tie_rule="lowest-index"` for SH, `variances="reml"`
for RUE, `shares=[...]` for the fixed-share allocation, ...) are the registry's
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
        runs: int = 1000, seed: int = 0, gaussian: bool = False, nu=0.5, prior=None, level: float = 0.95,
        progress: bool = False, **params) -> Run:
    """`runs` runs of the registry's algorithm `name`, its own parameters `params` by name.

    The instance: `means` (custom means), a paper setup `setup` with K arms, or `prior`, means drawn
    afresh for every run from a user's prior: a pair (prior means, prior sds), each one number for every
    arm or one per arm (independent N(m_k, sd_k^2); K from them or `K`), or a function `(rng, runs) ->
    (runs, K)` means of a numpy Generator (give `K`). The prior's draws come from the run's seed (its
    `SeedSequence` means stream), so a seed repeats them.

    Rewards: Bernoulli, or with `gaussian` Gaussian of standard deviation `nu`: one number for every arm,
    or a sequence of K, one per arm (arm k's rewards N(mu_k, nu_k^2)). An algorithm whose definition has
    one noise level for every arm and reads it from the reward law refuses per-arm `nu` with a ValueError
    that says why (`Algorithm.one_nu`: Bayesian elimination and the prior allocations with noise_var = 0);
    the others read none (RUE's sigma_sq is its own parameter, UCB-E's a its own) or each arm's (TTTS's
    posterior, two-stage's bounds). `budget`: an integer, or 'H/2', 'H', '2H' on fixed means.

    Returns the error rate (exact binomial interval) and simple regret (t-interval) at `level`, with the
    parameters as run and the seed; e.g. the fixed-share allocation on two arms of unequal noise:
    `run("fixed-share", means=[0.2, 0.0], gaussian=True, nu=[2.0, 0.5], shares=[0.8, 0.2], budget=100)`.
    """
    from dataclasses import replace

    from .algorithms.spec import ndim
    from .environments import PRIOR, environment_for
    from .runner import simulate
    if not isinstance(name, str):
        raise ValueError(f"name must be an algorithm's registry name (a string), got {name!r}")
    if not isinstance(gaussian, bool):
        raise ValueError(f"gaussian must be True or False, got {gaussian!r}")
    per_arm = not isinstance(nu, (str, bytes)) and ndim(nu) != 0
    if per_arm:
        try:
            sd = [float(x) for x in nu] if ndim(nu) == 1 else [float("nan")]
        except (TypeError, ValueError):
            sd = [float("nan")]
        if not all(0 < x < float("inf") for x in sd):
            raise ValueError(f"nu must be a finite number > 0 or one per arm (the rewards' standard deviations), "
                             f"got {nu!r}"[:400])
        if not gaussian:
            raise ValueError("nu per arm (one noise sd per arm) needs gaussian=True")
        kw = {"reward": "gaussian", "nu_sq": 1.0}
    else:
        if gaussian and not (isinstance(nu, (int, float)) and not isinstance(nu, bool) and 0 < nu < float("inf")):
            raise ValueError(f"nu must be a finite number > 0 (the rewards' standard deviation), or one per arm, got "
                             f"{nu!r}")
        kw = {"reward": "gaussian", "nu_sq": float(nu) ** 2} if gaussian else {"reward": "bernoulli"}
    if prior is None:
        env = environment_for(setup, K, None if means is None else list(means), **kw)
    else:
        if means is not None or setup not in (None, PRIOR):
            raise ValueError(f"prior: means are drawn from the prior; give prior, or means / setup, not both "
                             f"(got {'means' if means is not None else f'setup {setup}'})")
        if callable(prior):
            kw["prior_sampler"] = prior
        elif isinstance(prior, (tuple, list)) and len(prior) == 2:
            kw.update(prior_mean=prior[0], prior_sd=prior[1])
        else:
            raise ValueError(f"prior must be a pair (prior means, prior sds), each one number or one per arm, or a "
                             f"function (rng, runs) -> (runs, K) means; got {prior!r}"[:400])
        env = environment_for(PRIOR, K, None, **kw)
    if per_arm:
        if len(sd) != env.K:
            raise ValueError(f"nu per arm must be K = {env.K} numbers (one per arm), got {len(sd)}")
        env = replace(env, nu_sq=tuple(x * x for x in sd))
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
