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

The runs' reward sums are replayed from their reward streams (`_source.replayed_sums`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from simulate.algorithms._source import replayed_sums
from simulate.runner import run_algorithm
from simulate.seeds import run_seeds, stream
from simulate.stats import Interval, binomial_interval, mean_interval

POINTS = 129      # quadrature points per arm: a trapezoid over m_k +- 9 sd_k, spacing 0.14 sd_k


def _grid(m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Per run, the sorted union of every arm's window m_k +- 9 sd_k at spacing 0.14 sd_k: each normal
    CDF's step is resolved however small its sd (a uniform grid over the whole range is not once the
    posteriors are narrow at large n), and between the windows every CDF is flat, where a trapezoid
    is exact. On such smooth steps the trapezoid rule's error is far below the Monte Carlo noise."""
    z = np.linspace(-9.0, 9.0, POINTS)
    return np.sort((m[:, :, None] + s[:, :, None] * z).reshape(m.shape[0], -1), axis=1)    # (R, K POINTS)


def _log_cdfs(x: np.ndarray, m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """log Phi((x - m_k)/s_k) for every run, grid point and arm: (R, G, K)."""
    return special.log_ndtr((x[:, :, None] - m[:, None, :]) / s[:, None, :])


def _by_chunks(fn):
    """Apply a per-run integral to runs in chunks, so that its (runs, grid, K) arrays stay small."""
    def chunked(m: np.ndarray, v: np.ndarray, rec: np.ndarray) -> np.ndarray:
        step = max(1, int(2e7 // (POINTS * m.shape[1] ** 2)))
        return np.concatenate([fn(m[i:i + step], v[i:i + step], rec[i:i + step]) for i in range(0, m.shape[0], step)])
    chunked.__doc__, chunked.__name__ = fn.__doc__, fn.__name__
    return chunked


@_by_chunks
def conditional_failure(m: np.ndarray, v: np.ndarray, rec: np.ndarray) -> np.ndarray:
    """Pr(some arm beats the recommended one | posterior N(m, v)), per run: the integral of the
    recommended arm's density times 1 - prod_{j != rec} Phi_j, computed as -expm1 of a log-sum so
    that tiny probabilities keep their digits."""
    s = np.sqrt(v)
    R = m.shape[0]
    idx = np.arange(R)
    x = _grid(m, s)
    logs = _log_cdfs(x, m, s)
    others = logs.sum(axis=2) - logs[idx, :, rec]
    mr, sr = m[idx, rec][:, None], s[idx, rec][:, None]
    dens = np.exp(-0.5 * ((x - mr) / sr) ** 2) / (sr * math.sqrt(2 * math.pi))
    return np.clip(np.trapezoid(dens * -np.expm1(others), x, axis=1), 0.0, 1.0)


@_by_chunks
def conditional_regret(m: np.ndarray, v: np.ndarray, rec: np.ndarray) -> np.ndarray:
    """E[max_k mu_k - mu_rec | posterior N(m, v)], per run: E[max] = lo + int_lo^hi (1 - F(x)) dx with
    F the product of the arms' normal CDFs, minus the recommended arm's posterior mean."""
    s = np.sqrt(v)
    x = _grid(m, s)
    F = np.exp(_log_cdfs(x, m, s).sum(axis=2))
    e_max = x[:, 0] + np.trapezoid(1.0 - F, x, axis=1)
    return np.maximum(e_max - m[np.arange(m.shape[0]), rec], 0.0)


def known_mean_posterior(pulls: np.ndarray, sums: np.ndarray, sigma0_sq: float, nu_sq: float):
    """(means, variances) of the arms' posterior under the model with mu0 = 0 known: independent
    normals, 1/v = 1/sigma0^2 + T/nu^2 and m = v S/nu^2, for many histories at once (`(R, K)`). The
    same posterior as `bounds.estimation.exact_gaussian_posterior(..., mu0=0)`, which conditions the
    joint Gaussian one history at a time (`tests/rates` checks that they agree)."""
    v = 1.0 / (1.0 / sigma0_sq + pulls / nu_sq)
    return v * sums / nu_sq, v


@dataclass(frozen=True)
class Truth:
    """e_n and sr_n of one setting, plain and conditional, with intervals."""

    params: dict
    n: int
    runs: int
    failure_plain: Interval
    failure: Interval            # conditional
    regret_plain: Interval
    regret: Interval             # conditional
    vr_failure: float            # variance of the plain estimator / variance of the conditional one
    vr_regret: float
    failure_runs: np.ndarray     # the conditional values of each run (run r shares its means and reward
    regret_runs: np.ndarray      # streams across budgets, so a fit across n can pair them: `fit.fit_paired`


def bayes_truth(algorithm: str, K: int, n: int, sigma0_sq: float, nu_sq: float, runs: int, seed: int,
                params: dict | None = None, level: float = 0.95) -> Truth:
    """`runs` runs of `algorithm` at budget n on means drawn from N(0, sigma0^2), rewards N(mu, nu^2):
    e_n and sr_n with `level` intervals (exact binomial for the plain failure rate, t-intervals for
    the rest). Common random numbers across budgets: run r has the same means and reward streams at
    every n (the key names K and the variances, not n), so differences across n are less noisy."""
    from simulate.algorithms import get
    alg = get(algorithm)
    p = alg.resolve(params or {})
    means, reward_seeds = instances(K, sigma0_sq, nu_sq, runs, seed)
    rec, pulls, _, _ = run_algorithm(algorithm, p, means, n, run_seeds(seed, f"rates:alg:{algorithm}:{K}", runs),
                                     reward_seeds, True, math.sqrt(nu_sq))
    return _truth({"algorithm": algorithm, "K": K, "sigma0_sq": sigma0_sq, "nu_sq": nu_sq, **p}, n, means, rec,
                  replayed_sums(means, pulls, reward_seeds, True, math.sqrt(nu_sq)), pulls, sigma0_sq, nu_sq, level)


def instances(K: int, sigma0_sq: float, nu_sq: float, runs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The means `(runs, K)` and reward seeds of the runs of one setting: the same for every algorithm
    and every budget (common random numbers: run r of two algorithms, or of two budgets, is paired)."""
    key = f"{K}:{sigma0_sq}:{nu_sq}"
    return (stream(seed, "rates:means:" + key).normal(0.0, math.sqrt(sigma0_sq), (runs, K)),
            run_seeds(seed, "rates:rewards:" + key, runs))


def oracle_truth(K: int, n: int, sigma0_sq: float, nu_sq: float, runs: int, seed: int, level: float = 0.95) -> Truth:
    """The full-information oracle (`bounds.lower`): n observations of every arm, the largest
    posterior mean recommended; its e_n and sr_n lower-bound every algorithm's with budget n. Same
    instances as `bayes_truth`; the oracle's sample means are drawn directly (their law is exact)."""
    means, _ = instances(K, sigma0_sq, nu_sq, runs, seed)
    noise = stream(seed, f"rates:oracle:{K}:{sigma0_sq}:{nu_sq}").standard_normal((runs, K))
    pulls = np.full((runs, K), float(n))
    sums = n * means + math.sqrt(n * nu_sq) * noise
    m, _ = known_mean_posterior(pulls, sums, sigma0_sq, nu_sq)
    return _truth({"algorithm": "oracle", "K": K, "sigma0_sq": sigma0_sq, "nu_sq": nu_sq}, n, means,
                  m.argmax(axis=1), sums, pulls, sigma0_sq, nu_sq, level)


def _truth(params, n, means, rec, S, pulls, sigma0_sq, nu_sq, level) -> Truth:
    runs = means.shape[0]
    m, v = known_mean_posterior(pulls, S, sigma0_sq, nu_sq)
    idx = np.arange(runs)
    best = means.argmax(axis=1)
    fail = (rec != best).astype(float)
    regret = means[idx, best] - means[idx, rec]
    cf = conditional_failure(m, v, rec)
    cr = conditional_regret(m, v, rec)

    def ratio(a, b):
        vb = float(np.var(b))
        return float(np.var(a) / vb) if vb > 0 else math.inf
    return Truth(params, n, runs,
                 binomial_interval(int(fail.sum()), runs, level), mean_interval(cf, level),
                 mean_interval(regret, level), mean_interval(cr, level), ratio(fail, cf), ratio(regret, cr), cf, cr)
