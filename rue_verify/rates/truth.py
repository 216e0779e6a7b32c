"""The Bayesian failure probability e_n = Pr(J_n != argmax mu) and simple regret sr_n = E[max mu -
mu_{J_n}] of an algorithm under the model of Section 3: mu_k iid N(mu0, sigma0^2) (mu0 = 0 here;
the quantities do not depend on it), rewards N(mu_k, nu^2).

Two estimators on the same runs:

- plain: the failure indicator and the realised regret of each run;
- conditional (Rao-Blackwell): their expectations given the run's data (pull counts T and reward
  sums S), which under the model are exact integrals over the posterior of the means, independent
  normals N(m_k, v_k) with 1/v_k = 1/sigma0^2 + T_k/nu^2 and m_k = v_k (mu0/sigma0^2 + S_k/nu^2).
  Both are unbiased for e_n and sr_n; the conditional one has the smaller variance (the ratio is
  reported as the variance-reduction factor), and `tests/rates` checks each against the plain one.

The runs' reward sums are kept by the kernels as they draw the rewards (`runner.run_algorithm(sums=)`;
replayed from the reward streams for an algorithm whose kernel keeps none).

Near-tie sampling (`instances(tilt=True)`) is exact importance sampling of the instances: once n is
large, failures and regret come from instances whose top two means are within about nu/sqrt(n),
which the prior rarely draws; the proposal plants such near-ties in half the runs and each run's
values carry the weight prior/proposal (at most 2), so every mean stays unbiased for the prior.
`tests/rates` checks both estimators against the plain ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from simulate.runner import outcomes, run_algorithm
from simulate.seeds import run_seeds, stream
from simulate.stats import Interval, binomial_interval, mean_interval

from .integrals import POINTS, oracle_errors, plain_oracle, posterior_integrals


def _grid(m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Per run, a grid that resolves every arm's normal CDF step at spacing 0.07 of its own sd however
    small it is (a uniform grid over the whole range does not once the posteriors are narrow at large
    n; POINTS per window, a trapezoid over m_k +- 9 sd_k: about 2e-4 of the value against a grid four
    times finer, 129 points gave about 1e-3): arm k contributes the points of its window that no finer
    arm's window (smaller sd, or equal sd and lower index) covers, since inside such a window the
    finer arm's points are already closer than arm k's step needs. Where many posteriors overlap
    (many arms, small n) this keeps about range / (0.07 min sd) points instead of K times POINTS.
    Between the windows every CDF is flat, where a trapezoid is exact. Runs are padded to a common
    length by repeating their last point (segments of width 0). `tests/rates` compares it with the
    unthinned union of the windows. The reference for `integrals._grid`, which builds it one run at
    a time."""
    z = np.linspace(-9.0, 9.0, POINTS)
    R, L = m.shape
    pts = m[:, :, None] + s[:, :, None] * z                              # (R, L, P)
    lo, hi = m - 9.0 * s, m + 9.0 * s
    idx = np.arange(L)
    covered = np.zeros(pts.shape, bool)
    for i in range(L):
        finer = (s[:, i, None] < s) | ((s[:, i, None] == s) & (i < idx))        # arm i finer than arm j: (R, L)
        covered |= finer[:, :, None] & (pts >= lo[:, i, None, None]) & (pts <= hi[:, i, None, None])
    x = np.sort(np.where(covered, np.inf, pts).reshape(R, -1), axis=1)
    kept = (~covered).reshape(R, -1).sum(axis=1)
    x = x[:, :int(kept.max())]
    last = x[np.arange(R), kept - 1]
    return np.where(np.isinf(x), last[:, None], x)


def _log_cdfs(x: np.ndarray, m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """log Phi((x - m_k)/s_k) for every run, grid point and arm: (R, G, K)."""
    return special.log_ndtr((x[:, :, None] - m[:, None, :]) / s[:, None, :])


def relevant_arms(m: np.ndarray, s: np.ndarray, rec: np.ndarray) -> np.ndarray:
    """Per run, the indices `(R, L)` of the arms that can matter to either integral, L the most any run
    needs: arm j is left out only when its window's top m_j + 9 sd_j lies below
    min(max_i (m_i - 9 sd_i), m_rec - 9 sd_rec). Such an arm is below the recommended arm's window
    and below some arm's whole window, so over the region the integrands live on its CDF is at least
    Phi(9) (its log is above -1.2e-19) and it changes neither integral beyond 1e-18; the recommended
    arm is always kept. With K = 100 a few arms are usually left, and the cost, quadratic in the arms
    kept, falls by orders of magnitude. The reference for `integrals._kept` (one run's first L)."""
    top = m + 9.0 * s
    cut = np.minimum((m - 9.0 * s).max(axis=1), (m - 9.0 * s)[np.arange(m.shape[0]), rec])
    need = int((top > cut[:, None]).sum(axis=1).max())
    return np.argsort(-top, axis=1, kind="stable")[:, :need]


def _failure(x, logs, m, s, rec):
    """The failure integral on a grid `x` with the arms' log CDFs `logs` (`conditional_failure`)."""
    idx = np.arange(m.shape[0])
    # summed without the arm, not as the total minus it: that subtraction loses the relative digits of
    # a small failure (its others-sum is tiny beside the arm's own log CDF)
    others = np.where(np.arange(logs.shape[2]) == rec[:, None, None], 0.0, logs).sum(axis=2)
    mr, sr = m[idx, rec][:, None], s[idx, rec][:, None]
    dens = np.exp(-0.5 * ((x - mr) / sr) ** 2) / (sr * math.sqrt(2 * math.pi))
    return np.clip(np.trapezoid(dens * -np.expm1(others), x, axis=1), 0.0, 1.0)


def _regret(x, logs, m, rec):
    """The regret integral on a grid `x` with the arms' log CDFs `logs` (`conditional_regret`)."""
    F = np.exp(logs.sum(axis=2))
    e_max = x[:, 0] + np.trapezoid(1.0 - F, x, axis=1)
    return np.maximum(e_max - m[np.arange(m.shape[0]), rec], 0.0)


def reference_values(m: np.ndarray, v: np.ndarray, rec: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(`conditional_failure`, `conditional_regret`) in plain numpy, over every arm given, all runs on
    one grid array: the reference the compiled kernels (`integrals`) are tested against."""
    m, s, rec = np.asarray(m, float), np.sqrt(np.asarray(v, float)), np.asarray(rec)
    x = _grid(m, s)
    logs = _log_cdfs(x, m, s)
    return _failure(x, logs, m, s, rec), _regret(x, logs, m, rec)


def _threads() -> int:
    """Threads for the compiled integrals: numba's (what a worker process was given,
    `rue_verify.verify.parallel`), read without starting numba's thread pool where it has not started
    (a process that has not run a kernel may still fork workers)."""
    import numba
    from numba.np.ufunc import parallel as numba_threads
    return numba.get_num_threads() if numba_threads._is_initialized else numba.config.NUMBA_NUM_THREADS


def _on_threads(kernel, per_run: tuple, shared: tuple, outputs: tuple) -> tuple:
    """kernel(*per_run, *shared, *outputs), the per-run arrays and the outputs cut into chunks of runs
    run on `_threads()` threads (the kernels release the GIL); every run's values are its own, so the
    chunks do not change them. Returns the outputs."""
    R = per_run[0].shape[0]
    step = max(1, -(-R // max(1, _threads())))
    chunks = [slice(lo, lo + step) for lo in range(0, R, step)]

    errors: list[BaseException] = []

    def one(c):
        try:
            kernel(*(a[c] for a in per_run), *shared, *(o[c] for o in outputs))
        except BaseException as err:        # noqa: BLE001 -- raised in the calling thread below
            errors.append(err)
    # the first chunk here, the others on daemon threads: a thread pool's threads are joined at
    # interpreter exit, so an interrupted command would wait for them (`runner.interruptible`)
    import threading
    others = [threading.Thread(target=one, args=(c,), name="rue-verify integrals", daemon=True) for c in chunks[1:]]
    for t in others:
        t.start()
    for c in chunks[:1]:
        one(c)
    for t in others:
        t.join()
    if errors:
        raise errors[0]
    return outputs


def _compiled(m, v, rec, choose: bool):
    """`integrals.posterior_integrals` on arrays as given: (arm judged, failure, regret) per run."""
    m = np.ascontiguousarray(m, float)
    s = np.sqrt(np.ascontiguousarray(v, float))
    R = m.shape[0]
    rec = np.zeros(R, np.int64) if rec is None else np.ascontiguousarray(rec, np.int64)
    return _on_threads(posterior_integrals, (m, s, rec), (choose,), (np.empty(R, np.int64), np.empty(R), np.empty(R)))


def conditional_failure(m: np.ndarray, v: np.ndarray, rec: np.ndarray) -> np.ndarray:
    """Pr(some arm beats the recommended one | posterior N(m, v)), per run: the integral of the
    recommended arm's density times 1 - prod_{j != rec} Phi_j, computed as -expm1 of a log-sum so
    that tiny probabilities keep their digits. Over the arms that can matter (`relevant_arms`), on
    the thinned grid (`_grid`), compiled (`integrals`)."""
    return _compiled(m, v, rec, False)[1]


def conditional_regret(m: np.ndarray, v: np.ndarray, rec: np.ndarray) -> np.ndarray:
    """E[max_k mu_k - mu_rec | posterior N(m, v)], per run: E[max] = lo + int_lo^hi (1 - F(x)) dx with
    F the product of the arms' normal CDFs, minus the recommended arm's posterior mean."""
    return _compiled(m, v, rec, False)[2]


def conditional_values(m: np.ndarray, v: np.ndarray, rec: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(`conditional_failure`, `conditional_regret`) of the same recommendation in one pass (one grid
    and one set of log CDFs for both): the same values as the two apart."""
    _, f, g = _compiled(m, v, rec, False)
    return f, g


def most_probably_best(m: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per run, the arm most probably best under the posterior N(m, v) (the Bayes recommendation for
    the failure probability) and its failure probability (`conditional_failure` of that arm, the
    same value): the arm of least failure, found in one pass over the arms that can be best, on one
    grid and one set of log CDFs. Those arms are what `relevant_arms` keeps for the arm whose window
    reaches lowest up (the highest m_k - 9 sd_k); any other arm is best with probability below
    1e-18. `tests/rates` compares it with evaluating every arm apart."""
    arm, f, _ = _compiled(m, v, None, True)
    return arm, f


def known_mean_posterior(pulls: np.ndarray, sums: np.ndarray, sigma0_sq: float, nu_sq: float):
    """(means, variances) of the arms' posterior under the model with mu0 = 0 known: independent
    normals, 1/v = 1/sigma0^2 + T/nu^2 and m = v S/nu^2, for many histories at once (`(R, K)`). The
    same posterior as `bounds.estimation.exact_gaussian_posterior(..., mu0=0)`, which conditions the
    joint Gaussian one history at a time (`tests/rates` checks that they agree)."""
    v = 1.0 / (1.0 / sigma0_sq + pulls / nu_sq)
    return v * sums / nu_sq, v


#: near-tie sampling (`instances(tilt=True)`): the share of runs drawn from the prior itself, and the
#: scales of the near-tie offsets in units of the reward sd, about 3 nu / sqrt(n) for n = 1e2 ... 1e6
TILT_PRIOR_SHARE = 0.5
TILT_SCALES = (0.3, 0.1, 0.03, 0.01, 0.003)


@dataclass(frozen=True)
class Truth:
    """e_n and sr_n of one setting, plain and conditional, with intervals. Under near-tie sampling
    every per-run value carries its importance weight (prior density / proposal density), so every
    mean below estimates the quantity under the prior."""

    params: dict
    n: int
    runs: int
    failure_plain: Interval
    failure: Interval            # conditional
    regret_plain: Interval
    regret: Interval             # conditional
    vr_failure: float            # variance of plain Monte Carlo under the prior / variance of the estimator used
    vr_regret: float             # (conditional, and weighted where near-tie sampling is on), per run
    failure_runs: np.ndarray     # the conditional values of each run (run r shares its means and reward
    regret_runs: np.ndarray      # streams across budgets, so a fit across n can pair them: `fit.fit_paired`
    plain_failure: tuple = (0.0, 0.0)   # the plain estimators' sums and sums of squares (weighted), what a
    plain_regret: tuple = (0.0, 0.0)    # stored row keeps of them
    tilted: bool = False


def bayes_truth(algorithm: str, K: int, n: int, sigma0_sq, nu_sq: float, runs: int, seed: int,
                params: dict | None = None, level: float = 0.95, tilt: bool = False) -> Truth:
    """`runs` runs of `algorithm` at budget n on means drawn from N(0, sigma0^2), rewards N(mu, nu^2):
    e_n and sr_n with `level` intervals (exact binomial for the plain failure rate without `tilt`,
    t-intervals for the rest). Common random numbers across budgets: run r has the same means and
    reward streams at every n (the key names K and the variances, not n), so differences across n are
    less noisy. sigma0_sq: the common prior variance, or the arms' `(K,)` prior variances (the truth
    is then under that prior, whatever the algorithm was told). tilt: near-tie sampling
    (`instances`), exact importance sampling that puts more runs where failures happen."""
    r = simulated_runs(algorithm, K, n, sigma0_sq, nu_sq, runs, seed, params, tilt)
    return _truth({"algorithm": algorithm, "K": K, "sigma0_sq": sigma0_sq, "nu_sq": nu_sq, **r.params}, n, r.means,
                  r.rec, r.sums, r.pulls, sigma0_sq, nu_sq, level, weights=r.weights if tilt else None)


@dataclass(frozen=True)
class Runs:
    """What `bayes_truth` simulates, kept: each run's true means `(R, K)`, importance weight `(R,)`,
    recommended arm, pulls and reward sums `(R, K)` (the data the posterior conditions on)."""

    params: dict
    means: np.ndarray
    weights: np.ndarray
    rec: np.ndarray
    pulls: np.ndarray
    sums: np.ndarray


def runs_truth(r: Runs, n: int, sigma0_sq, nu_sq: float, level: float = 0.95, tilt: bool = True) -> Truth:
    """The Truth of runs kept by `simulated_runs` (as `bayes_truth` computes it from the same runs)."""
    return _truth({**r.params}, n, r.means, r.rec, r.sums, r.pulls, sigma0_sq, nu_sq, level,
                  weights=r.weights if tilt else None)


def simulated_runs(algorithm: str, K: int, n: int, sigma0_sq, nu_sq: float, runs: int, seed: int,
                   params: dict | None = None, tilt: bool = False) -> Runs:
    """The runs of `bayes_truth` (same instances, streams and seeds), before any estimator."""
    from simulate.algorithms import get
    p = get(algorithm).resolve(params or {})
    means, reward_seeds, w = instances(K, sigma0_sq, nu_sq, runs, seed, tilt)
    sums = np.empty(means.shape)
    rec, pulls, _, _ = run_algorithm(algorithm, p, means, n, run_seeds(seed, f"rates:alg:{algorithm}:{K}", runs),
                                     reward_seeds, True, math.sqrt(nu_sq), sums=sums)
    return Runs(p, means, w, rec, pulls, sums)


def _prior_key(sigma0_sq) -> str:
    """sigma0^2 in a stream's name: a float as written, per-arm variances by their values."""
    a = np.asarray(sigma0_sq, float)
    return str(float(a)) if a.ndim == 0 else "[" + ",".join(f"{x:.12g}" for x in a) + "]"


def _others_max(mu: np.ndarray) -> np.ndarray:
    """`(R, K)`: for each arm, the largest mean among the other arms."""
    order = np.partition(mu, mu.shape[1] - 2, axis=1)        # the two largest last, in order
    top, second = order[:, -1:], order[:, -2:-1]
    return np.where(mu == top, second, top)


def near_tie_weights(mu: np.ndarray, sigma0_sq, nu_sq: float) -> np.ndarray:
    """Prior density over the near-tie proposal's density at `mu` `(R, K)`: the proposal draws the
    means from the prior with probability TILT_PRIOR_SHARE, else picks an arm j uniformly and a scale
    h uniformly from TILT_SCALES (times nu) and moves mu_j to max_{k != j} mu_k + N(0, h^2). Its
    density over the prior's is p0 + (1 - p0)/K sum_j g(mu_j - max_{k != j} mu_k)/phi_j(mu_j), g the
    scale mixture of normal densities, so the weight is at most 1/p0."""
    s0 = np.sqrt(np.broadcast_to(np.asarray(sigma0_sq, float), mu.shape[1:]))
    h = math.sqrt(nu_sq) * np.asarray(TILT_SCALES)
    p0 = TILT_PRIOR_SHARE
    out = np.empty(mu.shape[0])
    step = max(1, 2 ** 18 // max(1, mu.shape[1]))          # rows at a time, to stay in cache: every value is
    for lo in range(0, mu.shape[0], step):                   # a row's own, so the chunks do not change them
        m = mu[lo:lo + step]
        off = m - _others_max(m)
        g = np.zeros(m.shape)       # the mean over the scales, summed in their order as np.mean would
        for hi in h:
            g += np.exp(-0.5 * (off / hi) ** 2) / (hi * math.sqrt(2 * math.pi))
        g /= len(h)
        # g / phi_j(mu_j), in logs for the tails
        log_ratio = np.log(np.maximum(g, 1e-300)) + 0.5 * (m / s0) ** 2 + np.log(s0 * math.sqrt(2 * math.pi))
        out[lo:lo + step] = 1.0 / (p0 + (1 - p0) * np.mean(np.exp(np.minimum(log_ratio, 700.0)), axis=1))
    return out


def zero_share_bound(runs: int, level: float = 0.95, tilt: bool = True) -> float:
    """An upper bound, at `level`, on the prior probability of an event that none of `runs` runs had:
    the exact (Clopper-Pearson) upper end for 0 of `runs` under the runs' own law, times the largest
    importance weight, 1 / TILT_PRIOR_SHARE under near-tie sampling (`near_tie_weights`), since the
    event's prior probability is its weighted mean under the proposal."""
    upper = 1.0 - ((1.0 - level) / 2) ** (1.0 / runs)
    return min(1.0, upper / TILT_PRIOR_SHARE if tilt else upper)


#: the last instances drawn: every budget (and every algorithm) of a setting reads the same ones, and
#: at 800 000 near-tie-sampled instances of K = 100 drawing them took longer than the oracle's quadrature
_LAST: dict = {}


def instances(K: int, sigma0_sq, nu_sq: float, runs: int, seed: int,
              tilt: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`draw_instances`, kept for the next call with the same arguments (the last one only; the arrays
    read-only, so that no caller can change what the next one reads)."""
    key = (K, _prior_key(sigma0_sq), float(nu_sq), runs, seed, bool(tilt))
    hit = _LAST.get(key)
    if hit is None:
        hit = draw_instances(K, sigma0_sq, nu_sq, runs, seed, tilt)
        for a in hit:
            a.flags.writeable = False
        _LAST.clear()
        _LAST[key] = hit
    return hit


def draw_instances(K: int, sigma0_sq, nu_sq: float, runs: int, seed: int,
                   tilt: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The means `(runs, K)`, reward seeds and importance weights of the runs of one setting: the same
    for every algorithm and every budget (common random numbers: run r of two algorithms, or of two
    budgets, is paired). sigma0_sq: the common prior variance, or the arms' `(K,)` prior variances.
    Without `tilt` the means are prior draws and the weights 1; with it, half the runs (in
    expectation) have a near-tie planted at the top (`near_tie_weights`), where failures and regret
    come from once n is large, and each run's weight makes every weighted mean unbiased for the prior."""
    key = f"{K}:{_prior_key(sigma0_sq)}:{nu_sq}"
    sd = np.sqrt(np.asarray(sigma0_sq, float))
    seeds = run_seeds(seed, "rates:rewards:" + key, runs)
    if not tilt:
        return stream(seed, "rates:means:" + key).normal(0.0, sd, (runs, K)), seeds, np.ones(runs)
    rng = stream(seed, "rates:means-near-ties:" + key)
    mu = rng.normal(0.0, sd, (runs, K))
    u, arm, scale, z = rng.random(runs), rng.integers(0, K, runs), rng.integers(0, len(TILT_SCALES), runs), \
        rng.standard_normal(runs)
    moved = u >= TILT_PRIOR_SHARE
    idx = np.flatnonzero(moved)
    j = arm[idx]
    mu[idx, j] = _others_max(mu[idx])[np.arange(idx.size), j] + \
        math.sqrt(nu_sq) * np.asarray(TILT_SCALES)[scale[idx]] * z[idx]
    return mu, seeds, near_tie_weights(mu, sigma0_sq, nu_sq)


def oracle_given_means(means: np.ndarray, n: float, nu_sq: float, shrink: np.ndarray):
    """`bounds.lower.oracle_given_means` (its nodes and cut, the reference's) by the compiled
    `integrals.oracle_errors`: (failure, regret) per instance `(R, K)`."""
    from bounds.lower import HERMITE, RELEVANT, oracle_inputs
    mu, _, a, s = oracle_inputs(means, n, nu_sq, shrink, variance="nu_sq")
    mu, a = np.ascontiguousarray(mu), np.ascontiguousarray(a)
    z, w = np.polynomial.hermite_e.hermegauss(HERMITE)
    R = mu.shape[0]
    return _on_threads(oracle_errors, (mu,), (a, s, z, w / w.sum(), RELEVANT), (np.empty(R), np.empty(R)))


def oracle_truth(K: int, n: int, sigma0_sq, nu_sq: float, runs: int, seed: int, level: float = 0.95,
                 tilt: bool = False) -> Truth:
    """The full-information oracle (`bounds.lower`): n observations of every arm and the Bayes decision
    for each quantity; its e_n and sr_n lower-bound every algorithm's with budget n. Same instances
    (and weights) as `bayes_truth`: Monte Carlo over the means only. Given the means, the oracle's
    error is computed, not simulated (`bounds.lower.oracle_given_means`, one-dimensional quadrature, compiled):
    its regret under every prior (it recommends the largest posterior mean, a_k X_k), and its failure
    under a common prior (the largest sample mean). Under per-arm priors its failure rule, the arm
    most probably best, is not a ranking of the sample means, so that failure is the posterior
    probability given simulated sample means, drawn afresh at each budget: no error is shared across
    budgets. The plain estimators (a simulated draw of the sample means per run, again afresh at each
    budget) are kept beside, as for the algorithms."""
    means, _, w = instances(K, sigma0_sq, nu_sq, runs, seed, tilt)
    s0 = np.broadcast_to(np.asarray(sigma0_sq, float), (K,))
    per_arm = bool(np.ptp(s0) > 0)
    shrink = n * s0 / (nu_sq + n * s0)                      # posterior mean = shrink x sample mean (prior mean 0)
    fail_exact, regret_exact = oracle_given_means(means, n, nu_sq, shrink if per_arm else np.ones(K))
    noise = stream(seed, f"rates:oracle:{K}:{_prior_key(sigma0_sq)}:{nu_sq}:n={n}").standard_normal((runs, K))
    if per_arm:
        pulls = np.full((runs, K), float(n))
        sums = n * means + math.sqrt(n * nu_sq) * noise
        m, v = known_mean_posterior(pulls, sums, sigma0_sq, nu_sq)
        rec = m.argmax(axis=1)
        rec_fail, fail = most_probably_best(m, v)
        fail_plain, regret_plain = outcomes(means, rec_fail)[0].astype(float), outcomes(means, rec)[1]
    else:       # the same values in one compiled pass (`integrals.plain_oracle`; 80 million means at K = 100)
        v = 1.0 / (1.0 / s0 + float(n) / nu_sq)
        fail_plain, regret_plain = _on_threads(plain_oracle, (means, noise), (float(n), math.sqrt(n * nu_sq), v, nu_sq),
                                               (np.empty(runs), np.empty(runs)))
        fail = fail_exact
    return _values({"algorithm": "oracle", "K": K, "sigma0_sq": sigma0_sq, "nu_sq": nu_sq}, n, fail, regret_exact,
                   fail_plain, regret_plain, level, w if tilt else None)


def _truth(params, n, means, rec, S, pulls, sigma0_sq, nu_sq, level, rec_fail=None, weights=None) -> Truth:
    """rec_fail: the recommendation the failure probability is judged on, where it is not `rec`;
    weights: the runs' importance weights under near-tie sampling (None: prior draws)."""
    rec_fail = rec if rec_fail is None else rec_fail
    m, v = known_mean_posterior(pulls, S, sigma0_sq, nu_sq)
    fail = outcomes(means, rec_fail)[0].astype(float)
    regret = outcomes(means, rec)[1]
    if rec_fail is rec:
        cf, cr = conditional_values(m, v, rec)
    else:
        cf, cr = conditional_failure(m, v, rec_fail), conditional_regret(m, v, rec)
    return _values(params, n, cf, cr, fail, regret, level, weights)


def _values(params, n, cf, cr, fail, regret, level, weights=None) -> Truth:
    """A Truth from the per-run values: the estimators used (cf, cr: conditional or exact given the
    means) and the plain ones (fail, regret), before the importance weights."""
    runs = len(cf)
    w = np.ones(runs) if weights is None else np.asarray(weights, float)
    cf, cr = w * cf, w * cr

    def vr(plain_sq_mean, est):
        """Var under the prior of the plain per-run value (its second moment, estimated with the
        weights, less the squared mean) over the variance of the per-run values used."""
        vb = float(np.var(est))
        return float((plain_sq_mean - est.mean() ** 2) / vb) if vb > 0 else math.inf
    pf, pr = w * fail, w * regret
    return Truth(params, n, runs,
                 binomial_interval(int(fail.sum()), runs, level) if weights is None else mean_interval(pf, level),
                 mean_interval(cf, level), mean_interval(pr, level), mean_interval(cr, level),
                 vr(float(np.mean(w * fail)), cf), vr(float(np.mean(w * regret ** 2)), cr), cf, cr,
                 (float(pf.sum()), float((pf ** 2).sum())), (float(pr.sum()), float((pr ** 2).sum())),
                 weights is not None)
