"""What the Section 5 checks share: the sympy symbols of `bounds.orders`, and the fixed parameter
points at which RUE is simulated under the paper's model (cached, so each is run once a mode)."""

from __future__ import annotations

import math
from functools import lru_cache

import sympy

from bounds import orders
from simulate.proofs.tracked import RUEResult, tracked_rue_runs

from ..verify import Mode

K_, n_, s0_, s_, d_ = orders.K, orders.n, orders.s0, orders.s, orders.d


def sym_ratio(a: sympy.Expr, b: sympy.Expr) -> sympy.Expr:
    """a / b simplified. Where sympy knows both sides positive and log a - log b (logs of products and
    powers expanded, which positivity allows) simplifies to 0, the ratio is 1, found in a twentieth of
    the time (the Section 5 terms' ratios take 0.8-1.5 s each the long way); any other ratio, by the
    long way."""
    if a.is_positive and b.is_positive:
        diff = sympy.simplify(sympy.powsimp(sympy.expand_log(sympy.log(a) - sympy.log(b), force=True), force=True))
        if diff == 0:
            return sympy.Integer(1)
    return sympy.simplify(sympy.powsimp(sympy.simplify(a / b), force=True))


# ---------------------------------------------------------------- shared simulations
#: Bayesian points (K, n, sigma0^2, sigma^2, delta): 'calibrated' uses the likelihood variance the
#: rewards have (delta = 1); 'informative' is where the proof's bound on Pr(not E) is below 1.
POINTS = {"calibrated": (40, 2000, 1.0, 1.0, 1.0), "informative": (40, 1000, 1.0, 0.01, 0.01)}


@lru_cache(maxsize=8)
def simulate_point(name: str, runs: int, seed: int) -> RUEResult:
    """RUE with known variances on means mu_k ~ N(0, sigma0^2), Gaussian rewards with variance
    nu^2 = delta sigma^2, tracking the event E and Lemma TwoBoundOnC (cached across claims)."""
    K, n, s0, s, d = POINTS[name]
    rng = Mode(seed=seed).rng("fixed-point", name)
    means = rng.normal(0.0, math.sqrt(s0), (runs, K))
    return tracked_rue_runs(means, n, rng, sigma0_sq=s0, sigma_sq=s, reward="gaussian", nu_sq=d * s,
                         track_proof=True)


def point_params(name: str) -> dict:
    K, n, s0, s, d = POINTS[name]
    return {"K": K, "n": n, "sigma0_sq": s0, "sigma_sq": s, "delta": d, "nu_sq": d * s,
            "prior": "mu_k ~ N(0, sigma0^2)", "rewards": "Gaussian"}


# ---------------------------------------------------------------- the proof: decomposition and events
def sim_summary(name: str, mode: Mode) -> tuple[RUEResult, dict]:
    r = simulate_point(name, mode.sim_runs, mode.seed)
    return r, {"runs": r.errors.size, "E": int(r.event_E.sum())}
