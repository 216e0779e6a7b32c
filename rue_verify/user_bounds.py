"""Your own bound, checked like the paper's (`rue-verify check-bound`): a plain function
`(K, n, sigma0_sq, sigma_sq) -> float` in any file, claimed to bound an algorithm's Bayesian
failure probability or simple regret under the paper's model (means from N(0, sigma0^2), Gaussian
rewards of variance sigma^2, the algorithm told what it assumes).

It is judged with the ledger's machinery and returned as a claim (`core.ClaimResult`, what
`claims --json` prints):

- against the rate study's measured truth (the shipped paper-scale study, or `rates`): at every
  setting and budget of the study, the truth's lower confidence limit at level 1 - 1e-6 against the
  bound (a refutation names K, n, sigma0_sq, sigma_sq and recomputes from the stored study); then
  the tightness (bound over truth where the bound is tightest) and the bound's exponent in n
  against the truth's;
- an adversarial Monte Carlo search of the bound over a parameter space: for the failure
  probability `montecarlo.search` (grid, seeded random points, refinement and confirmation with
  exact binomial intervals, simulating only where the bound is below 1); for the simple regret the
  same screening and confirmation with Student-t intervals of the mean regret at level 1 - 1e-6;
- where the bound is informative (below 1) and where it is vacuous, on the same points.


A bound that raises, returns NaN, a negative number or a non-number, or takes other parameters than
the four, is refused with one line naming the file, the function and the parameter or the point.
Nothing is written anywhere.
"""

from __future__ import annotations

import inspect
import math
import time
from pathlib import Path
from typing import Callable

import numpy as np

from simulate.stats import STRICT_LEVEL

from .errors import ParameterError
from .store.userfiles import load_module
from .verify import ClaimResult, Finding, Mode, from_tightness, from_value, overall, witness
from .verify.montecarlo import Point, rate_finding, search
from .verify.search import Dim

PARAMS = ("K", "n", "sigma0_sq", "sigma_sq")
QUANTITIES = {"failure": "Bayesian failure probability", "regret": "Bayesian simple regret"}
#: the default space of the Monte Carlo search (`space` overrides any of it)
SPACE = {"K": Dim(2, 30, integer=True), "n": Dim(20, 3000, integer=True), "sigma0_sq": Dim(0.1, 10.0),
         "sigma_sq": Dim(0.1, 10.0)}
LEVEL = STRICT_LEVEL


class BoundError(ParameterError):
    """A user's bound that cannot be judged: the message names the file, the function and what is
    wrong with it (a parameter, or the point where it failed)."""

    def __init__(self, spec: str, reason: str):
        super().__init__("bound", f"{spec}: {reason}")
        self.spec, self.why = spec, reason

    def __reduce__(self):
        return (type(self), (self.spec, self.why))


def load_bound(spec: str) -> Callable[..., float]:
    """The function `spec` names: 'path/to/file.py:NAME' or 'module:NAME'. A `BoundError` if it is
    missing, not callable, or does not take exactly (K, n, sigma0_sq, sigma_sq)."""
    where, sep, name = spec.rpartition(":")
    if not sep or not where or not name:
        raise BoundError(spec, "expected path/to/file.py:NAME or module:NAME")
    try:
        module = load_module(where, "bound")
    except ParameterError as err:
        raise BoundError(spec, err.reason) from None
    fn = getattr(module, name, None)
    if not callable(fn):
        raise BoundError(spec, f"{where} has no function {name}")
    return _checked(fn, spec)


def _checked(fn: Callable[..., float], spec: str) -> Callable[..., float]:
    """`fn` if it takes exactly (K, n, sigma0_sq, sigma_sq); a `BoundError` naming the parameter otherwise."""
    name = getattr(fn, "__name__", "the bound")
    got = tuple(inspect.signature(fn).parameters)
    if got != PARAMS:
        extra = [p for p in got if p not in PARAMS]
        missing = [p for p in PARAMS if p not in got]
        why = (f"parameter {extra[0]!r} is not one of {', '.join(PARAMS)}" if extra else
               f"parameter {missing[0]!r} is missing" if missing else "the parameters are out of order")
        raise BoundError(spec, f"{name} must take exactly ({', '.join(PARAMS)}); {why}")
    return fn


def evaluate(fn: Callable[..., float], spec: str, K: int, n: int, sigma0_sq: float, sigma_sq: float) -> float:
    """The bound at one point, as a finite number >= 0; a `BoundError` naming the point otherwise."""
    point = f"K={K}, n={n}, sigma0_sq={sigma0_sq:g}, sigma_sq={sigma_sq:g}"
    try:
        v = fn(K, n, sigma0_sq, sigma_sq)
    except Exception as err:             # the user's code: whatever it raises is reported, with the point
        raise BoundError(spec, f"raised {type(err).__name__} at {point}: {err}") from None
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise BoundError(spec, f"returned {type(v).__name__} {v!r} at {point}, not a number")
    v = float(v)
    if math.isnan(v) or v < 0:
        raise BoundError(spec, f"returned {v} at {point} (a bound must be a number >= 0)")
    return v


def _truth_points(quantity: str, algorithm: str, rates_dir: str | None):
    """(setting, n index, its Curve) of every homogeneous-prior setting of the rate study where
    `algorithm` has a curve."""
    from . import rates
    res = rates.load(rates_dir)
    out = []
    for name, setting in res.settings().items():
        if setting.prior_ratio != 1.0 or not res.has(name, algorithm):
            continue
        out.append((name, setting, res.curve(name, algorithm)))
    if not out:
        raise ParameterError("algorithm", f"the rate study ({res.description}) has no curve of {algorithm!r} under "
                                          "the common prior")
    return res, out


def truth_sides(p: dict) -> tuple[float, float]:
    """A witness of the truth check again: the truth's lower confidence limit at the witness's level
    and the bound, from the stored study and the user's function."""
    from . import rates
    fn = load_bound(p["bound"])
    c = rates.load(p["rates"]).curve(p["setting"], p["algorithm"])
    j = c.index(p["n"])
    attr = p["quantity"]
    return (c.interval(attr, j, p["level"]).low,
            evaluate(fn, p["bound"], p["K"], p["n"], p["sigma0_sq"], p["sigma_sq"]))


def check_bound(spec: str | Callable[..., float], quantity: str = "failure", algorithm: str = "rue", *,
                space: dict | None = None,
                rates_dir: str | None = None, mode: Mode | None = None, search_runs: bool = True,
                progress: Callable[[str], None] | None = None) -> ClaimResult:
    """Judge the bound `spec` on `algorithm`'s `quantity` (module docstring).

    Args:
        spec: 'path/to/file.py:NAME' or 'module:NAME', a function (K, n, sigma0_sq, sigma_sq) -> float,
            or the function itself (a claim of yours can judge a bound declared beside it).
        quantity: 'failure' (Bayesian failure probability) or 'regret' (Bayesian simple regret).
        algorithm: a registry name (its truth comes from the rate study; the Monte Carlo search
            simulates it).
        space: parameter -> (low, high) overriding the search's `SPACE` (K and n integers).
        rates_dir: a rate study's directory (None: the study shipped with the package).
        mode: how hard the search works (`ledger.Mode`; the quick one by default).
        search_runs: run the Monte Carlo search.
        progress: called with a line of text as each part finishes.

    Returns:
        A `ClaimResult` (`to_json()` is what `claims --json` prints for a claim).
    """
    if quantity not in QUANTITIES:
        raise ParameterError("quantity", f"must be one of {', '.join(QUANTITIES)}, got {quantity!r}")
    from simulate.algorithms import get
    get(algorithm)                        # a ValueError that lists the names
    mode = mode or Mode()
    say = progress or (lambda line: None)
    if callable(spec):
        fn = _checked(spec, f"{spec.__module__}:{spec.__name__}")
        spec = f"{spec.__module__}:{spec.__name__}"
    else:
        fn = load_bound(spec)
    t0 = time.perf_counter()
    what = QUANTITIES[quantity]
    res, curves = _truth_points(quantity, algorithm, rates_dir)
    findings: list[Finding] = []
    # 1. against the measured truth, at every setting and budget of the study
    worst, ratios, points, informative, vacuous = None, [], [], 0, 0
    for name, s, c in curves:
        for j, n in enumerate(c.n):
            b = evaluate(fn, spec, s.K, int(n), s.sigma0_sq, s.sigma_sq)
            strict, loose = c.interval(quantity, j, LEVEL), c.interval(quantity, j, 0.95)
            informative += quantity != "failure" or b < 1
            vacuous += quantity == "failure" and b >= 1
            # the headline point is where the truth comes closest to the bound relatively (a regret
            # bound's largest absolute excess always sits at the smallest n, where everything is large)
            ratio = strict.low / b if b > 0 else (math.inf if strict.low > 0 else 0.0)
            key = (ratio, strict.low - b)
            if worst is None or key > worst[0]:
                worst = (key, name, s, int(n), strict.low, b)
            capped = quantity == "failure" and b >= 1          # a probability bound at 1 says nothing to be tight about
            if loose.low > 0 and not capped:
                ratios.append(b / loose.low)
                points.append({"K": s.K, "n": int(n), "sigma0_sq": s.sigma0_sq, "sigma_sq": s.sigma_sq})
    (ratio, excess), name, s, n, lhs, rhs = worst
    params = {"bound": spec, "quantity": quantity, "algorithm": algorithm, "rates": rates_dir, "setting": name,
              "K": s.K, "n": n, "sigma0_sq": s.sigma0_sq, "sigma_sq": s.sigma_sq, "level": LEVEL}
    domain = (f"{algorithm} under the model, the rate study ({res.description}): settings "
              + ", ".join(f"{nm} (K = {st.K}, sigma0^2 = {st.sigma0_sq:g}, sigma^2 = {st.sigma_sq:g}, n in "
                          f"{int(cv.n.min())}-{int(cv.n.max())})" for nm, st, cv in curves))
    findings.append(from_value(excess, domain, at_most=0.0, holds=f"the {what}'s lower confidence limit (level 1 - "
                               f"1e-6) is at most the bound at every point of the study; closest (largest ratio) "
                               f"at {name}, n = {n}: {lhs:.4g} against {rhs:.4g}, ratio {ratio:.4g}",
                               fails=f"the {what} is significantly above the bound at {name}, n = {n} (the largest "
                                     f"ratio): its lower confidence limit (level 1 - 1e-6) {lhs:.4g} against the "
                                     f"bound {rhs:.4g}, {ratio:.4g} times the bound, an excess of {excess:.4g}",
                               witness=lambda: witness(params, lhs, rhs, "<=", ratio=ratio, excess=excess,
                                                       what=f"the {what}'s lower confidence limit against the bound")))
    say(f"check-bound: the rate study's {sum(len(c.n) for _, _, c in curves)} points judged")
    # 2. tightness and the exponent in n, at the study's base setting (the first with this algorithm)
    if ratios:
        name0, s0, c0 = curves[0]
        exponent = None
        try:
            fit = c0.fit(quantity)
            lo, hi = fit.n_range
            ns = [int(m) for m in c0.n if lo <= m <= hi]
            vals = [evaluate(fn, spec, s0.K, m, s0.sigma0_sq, s0.sigma_sq) for m in ns]
            if len(ns) >= 2 and all(v > 0 for v in vals):
                from .rates.fit import log_slope
                exponent = {"variable": "n", "bound": log_slope(ns, vals), "measured": fit.exponent,
                            "interval": list(fit.interval), "range": [lo, hi]}
        except ValueError:               # a truth with zeros: no exponent
            exponent = None
        findings.append(from_tightness(ratios, points, domain + "; the truth at the lower end of its 95% interval",
                                       bound=spec, exponent=exponent))
    # 3. where the bound says something
    findings.append(from_value(informative, domain, at_least=1, fail="vacuous",
                               holds=f"the bound is informative (below 1 for a probability) at {informative} of the "
                                     f"study's {informative + vacuous} points, vacuous at {vacuous}",
                               fails=f"the bound is vacuous (>= 1) at every one of the study's {vacuous} points"))
    # 4. the adversarial search
    if search_runs:
        findings.append(_search(fn, spec, algorithm, space, mode) if quantity == "failure" else
                        _regret_search(fn, spec, algorithm, space, mode))
        say("check-bound: the Monte Carlo search done")
    verdict = overall(findings)
    summary = f"{verdict}: " + next(f.detail for f in findings if f.verdict == verdict)[:300]
    return ClaimResult(f"BOUND:{Path(spec.rpartition(':')[0]).stem}:{spec.rpartition(':')[2]}",
                       f"your bound {spec}", f"{spec}(K, n, sigma0_sq, sigma_sq) bounds {algorithm}'s {what} under "
                       "the model of Section 3", verdict, summary, findings, round(time.perf_counter() - t0, 3),
                       mode.name)


def _space(space: dict | None) -> dict[str, Dim]:
    out = dict(SPACE)
    for k, v in (space or {}).items():
        if k not in SPACE:
            raise ParameterError("space", f"{k!r} is not one of {', '.join(SPACE)}")
        lo, hi = v
        if not (0 < lo <= hi):
            raise ParameterError("space", f"{k}: need 0 < low <= high, got {v}")
        out[k] = Dim(lo, hi, integer=SPACE[k].integer)
    return out


def _simulator(algorithm: str) -> Callable[[dict, int, np.random.Generator], Point]:
    """The failures of `runs` runs of `algorithm` under the model at a point, from `rng` alone."""
    from simulate.algorithms import get
    from simulate.runner import outcomes, run_algorithm
    from simulate.seeds import run_seeds
    alg = get(algorithm)

    def simulate(p: dict, runs: int, rng: np.random.Generator) -> Point:
        K, n, s0, s = p["K"], p["n"], p["sigma0_sq"], p["sigma_sq"]
        means = rng.normal(0.0, math.sqrt(s0), (runs, K))
        base = int(rng.integers(2 ** 62))
        told = {k: v for k, v in (("sigma0_sq", s0), ("sigma_sq", s)) if any(q.name == k for q in alg.params)}
        params = alg.resolve({**told, **({"variances": "known"} if any(q.name == "variances" for q in alg.params)
                                         else {})})
        rec, *_ = run_algorithm(algorithm, params, means, n, run_seeds(base, "algorithm", runs),
                                run_seeds(base, "rewards", runs), True, math.sqrt(s))
        failed, regret = outcomes(means, rec)
        pt = Point(p, runs, int(failed.sum()))
        pt.regret = regret              # the search of a regret bound reads the runs' regrets
        return pt
    return simulate


def _search(fn, spec: str, algorithm: str, space: dict | None, mode: Mode) -> Finding:
    """The adversarial Monte Carlo search of the bound against simulated failures, where it is below 1."""
    from simulate.algorithms import get
    alg = get(algorithm)
    simulate = _simulator(algorithm)

    def feasible(p: dict) -> bool:
        return p["n"] >= alg.min_budget(p["K"], alg.resolve({}))

    errors: list[BoundError] = []

    def bound(p: dict) -> float:          # the search skips points whose bound raises; yours must not
        try:
            return evaluate(fn, spec, p["K"], p["n"], p["sigma0_sq"], p["sigma_sq"])
        except BoundError as err:
            errors.append(err)
            return math.inf

    s = search(f"user-bound:{algorithm}:{spec}", _space(space), simulate,
               lambda pt: pt.rate / max(pt.bound or 1e-300, 1e-300), mode, bound=bound, constraint=feasible)
    if errors:
        raise errors[0]
    f = rate_finding(s, f"{algorithm}'s failure probability", spec)
    if f.witness:                        # what `recompute` needs besides the seed key
        f.witness["params"].update(bound=spec, algorithm=algorithm)
    return f


def recompute(w: dict) -> tuple[float, float]:
    """Both sides of a witness of `check_bound` computed again: from the stored study (the truth
    check) or by rerunning the search's simulation from its seed key (the Monte Carlo search)."""
    p = w["params"]
    if "seed_key" not in p:
        return truth_sides(p)
    from simulate.stats import binomial_interval, mean_interval
    fn = load_bound(p["bound"])
    key = p["seed_key"]
    point = {k: p[k] for k in PARAMS}
    pt = _simulator(p["algorithm"])(point, p["runs"], Mode(seed=key[0]).rng(*key[1:]))
    if p.get("quantity") == "regret":
        return mean_interval(pt.regret, w["level"]).low, evaluate(fn, p["bound"], *point.values())
    if pt.events != w["events"]:
        raise AssertionError(f"rerun of {key} gave {pt.events} events, the witness says {w['events']}")
    return binomial_interval(pt.events, p["runs"], w["level"]).low, evaluate(fn, p["bound"], *point.values())


def _regret_search(fn, spec: str, algorithm: str, space: dict | None, mode: Mode) -> Finding:
    """The adversarial search of a bound on the simple regret: screen the grid and seeded random points
    of the space with `mode.search_runs` runs, confirm the three with the largest mean regret over
    the bound with `mode.confirm_runs` fresh runs; refuted when a confirmed mean's lower limit (Student
    t, level 1 - 1e-6) lies above the bound."""
    from simulate.algorithms import get
    from simulate.stats import mean_interval

    from .verify.montecarlo import screen_units
    from .verify.search import unit_point
    alg = get(algorithm)
    simulate = _simulator(algorithm)
    dims = _space(space)
    name = f"user-bound-regret:{algorithm}:{spec}"
    screened = []
    for i, u in enumerate(screen_units(dims, 2, 4 * mode.search_points, mode.rng(name, "points"))):
        p = unit_point(dims, u)
        if p["n"] < alg.min_budget(p["K"], alg.resolve({})):
            continue
        b = evaluate(fn, spec, p["K"], p["n"], p["sigma0_sq"], p["sigma_sq"])
        r = simulate(p, mode.search_runs, mode.rng(name, "screen", i)).regret
        screened.append((float(r.mean()) / max(b, 1e-300), i, p, b))
    worst = None
    for _, i, p, b in sorted(screened, key=lambda x: -x[0])[:3]:
        key = (mode.seed, name, "confirm", i)
        r = simulate(p, mode.confirm_runs, mode.rng(*key[1:])).regret
        ci = mean_interval(r, LEVEL)
        if worst is None or ci.low - b > worst[0]:
            worst = (ci.low - b, p, b, ci, key)
    excess, p, b, ci, key = worst
    domain = (f"{len(screened)} points screened ({mode.search_runs} runs each) over "
              + ", ".join(f"{k} in [{d.low:g}, {d.high:g}]" for k, d in dims.items())
              + f", the 3 closest confirmed with {mode.confirm_runs} runs")
    return from_value(excess, domain, at_most=0.0,
                      holds=f"no confirmed point above the bound; closest at {p}: mean regret {ci.estimate:.4g} in "
                            f"[{ci.low:.4g}, {ci.high:.4g}] against {b:.4g}",
                      fails=f"{algorithm}'s simple regret exceeds the bound at {p}: {ci.estimate:.4g} in "
                            f"[{ci.low:.4g}, {ci.high:.4g}] (level 1 - 1e-6) against {b:.4g}",
                      witness=lambda: witness({**p, "runs": mode.confirm_runs, "seed_key": list(key), "bound": spec,
                                               "algorithm": algorithm, "quantity": "regret"}, ci.low, b, "<=",
                                              level=LEVEL, what="the mean regret's lower confidence limit"))

