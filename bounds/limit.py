"""The limit: how small any algorithm's Bayesian failure probability e_n and simple regret sr_n can be
with budget n under the model of Section 3 (mu_k iid N(mu0, sigma0^2), rewards N(mu_k, sigma^2)).
Derived here (labels `limit_failure`, `limit_regret`); no source's constant is used.

What the literature says, as far as it was read: Komiyama et al. (2023; the abstract was read) find
the Bayesian simple regret of order 1/n, its leading term coming from instances whose top two means are
within about sqrt(log n / n). The argument below makes that exact for Gaussian rewards of a common
variance, and the object it turns on is the prior density of a zero top-two gap, p(0), which
`bounds.gap.gap_density` already computes for Section 3 (Theorem 3.1 is the claim c_K >= p_K(0)).

**The finite-n bound (common prior; every algorithm, adaptive or not, every n).** Give the algorithm,
for free, the identity of the top two arms {i, j}, their midpoint m = (mu_i + mu_j)/2 and every other
arm's mean. With m known, a pull of arm i reads d/2 + noise and a pull of arm j reads -d/2 + noise,
d = mu_i - mu_j, both N(., sigma^2): every informative pull is one observation of d/2, whichever arm of
the pair it is, and the other arms' pulls say nothing about d. Whatever the algorithm adapts, its data
about d are a function of n such observations (and of independent randomness), so its Bayes risk is at
least that of n observations, whose mean estimates d with variance 4 sigma^2 / n. Given the free
information, d's law is symmetric (i and j are exchangeable under a common prior), and the likelihood
ratio is monotone, so the Bayes rule for both losses picks the arm the estimate's sign points to; it
errs with probability Phi(-abs(d) sqrt(n) / (2 sigma)) and loses abs(d) when it errs. Averaging over
the prior, with Delta = mu_(1) - mu_(2)::

    e_n >= E[Phi(-Delta sqrt(n) / (2 sigma))]             (`failure_lower_bound`)
    sr_n >= E[Delta Phi(-Delta sqrt(n) / (2 sigma))]      (`regret_lower_bound`)

(an arm outside the pair only loses more).

Both are one-dimensional integrals against Delta's density p(s) (`gap.gap_density`). For K = 2,
Delta = abs(d) with d ~ N(0, 2 sigma0^2) and they have closed forms (`two_arms_failure`,
`two_arms_regret`), which uniform allocation attains: for two arms no algorithm beats it.

**The constants (asymptotic).** As n grows, only Delta below a few sigma / sqrt(n) matters, where p(s) is
p(0) to first order; with int_0^inf Phi(-u) du = phi(0) and int_0^inf u Phi(-u) du = 1/4::

    sqrt(n) e_n  ->  at least  L_e = 2 sigma phi(0) p(0) = sigma p(0) sqrt(2 / pi)
    n sr_n       ->  at least  L_r = sigma^2 p(0)

(`limit_constants`). For per-arm priors N(m_k, s_k^2) with a common sigma the same argument holds in the
limit (d's conditional law is no longer symmetric, but it is flat at the scale 1/sqrt(n) that matters),
with p(0) = sum over ordered pairs i != j of int g_i g_j prod_{k != i, j} G_k (`zero_gap_density`); there
only the asymptotic constants are given. p(0) is certified with interval arithmetic
(`certify.zero_gap_density_bracket`).

**The oracle below the limit.** The full-information oracle (`bounds.lower`) sees n observations of every
arm; in the pair argument its estimate of d has variance 2 sigma^2 / n instead of 4 sigma^2 / n, so it is
the bound at budget 2n: for K = 2 exactly (`lower.oracle_two_arms(n) == failure_lower_bound(2n)`), and
for every K in the limit, where its constants are L_e / sqrt(2) and L_r / 2 (`ORACLE_FACTOR`).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from scipy import special

from . import gap
from ._core import UndefinedError, check_int, check_positive

#: the oracle's limit constants over the limit's (the pair problem at budget 2n): failure, regret
ORACLE_FACTOR = {"failure": 1.0 / math.sqrt(2.0), "regret": 0.5}
_NODES = 32


class Constants(NamedTuple):
    """The limit's constants: sqrt(n) e_n and n sr_n are at least these in the limit, for every algorithm."""

    failure: float
    regret: float


def _check(n: Any, K: int, sigma0_sq: float, sigma_sq: float) -> None:
    check_positive("n", n)
    check_int("K", K, 2)
    check_positive("sigma0_sq", sigma0_sq)
    check_positive("sigma_sq", sigma_sq)


def _per_arm(K: int, sigma0_sq) -> bool:
    a = np.asarray(sigma0_sq, float)
    if a.ndim == 0:
        return False
    if a.shape != (K,) or not np.all(np.isfinite(a)) or np.any(a <= 0):
        raise ValueError(f"sigma0_sq must be a number > 0 or K = {K} numbers > 0, got {sigma0_sq!r}")
    return bool(np.ptp(a) > 0)


def _rule(c: float, sigma0: float, cut: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes and weights on (0, top) for an integrand p(s) Phi(-c s) (times s): panels
    doubling from a sixteenth of the smaller of the two scales 1/c and sigma0 (where the integrand
    bends) up to where one factor is below e^-200 (p(s) <= p(0) exp(-s^2 / (4 sigma0^2)), `gap`).
    cut: a panel edge there too, so an integrand cut off at s = cut stays smooth on every panel."""
    x, w = np.polynomial.legendre.leggauss(_NODES)
    a = min(1.0 / c, sigma0) / 16.0
    top = min(40.0 / c, 30.0 * sigma0)
    edges = [0.0]
    while edges[-1] < top:
        edges.append(min(top, a * 2.0 ** (len(edges) - 1)))
    if cut is not None and 0.0 < cut < top:
        edges = sorted(set(edges) | {cut})
    s, ws = [], []
    for lo, hi in zip(edges[:-1], edges[1:]):
        s.append(lo + (hi - lo) * (x + 1) / 2)
        ws.append(w * (hi - lo) / 2)
    return np.concatenate(s), np.concatenate(ws)


def _pair_integral(n: float, K: int, sigma0_sq: float, sigma_sq: float, power: int,
                   below: float | None = None) -> float:
    """E[Delta^power Phi(-Delta sqrt(n) / (2 sigma))] against the top-gap density (only over Delta <
    `below`, if given)."""
    c = math.sqrt(n) / (2.0 * math.sqrt(sigma_sq))
    s, w = _rule(c, math.sqrt(sigma0_sq), below)
    if below is not None:
        w = np.where(s < below, w, 0.0)
    p = gap.gap_density(s, K, sigma0_sq)
    return float(np.sum(w * p * s ** power * special.ndtr(-c * s)))


def failure_lower_bound(n: float, K: int, sigma0_sq: float = 1.0, sigma_sq: float = 1.0) -> float:
    """E[Phi(-Delta sqrt(n) / (2 sigma))] (label `limit_failure`): a lower bound on the Bayesian failure
    probability of every algorithm with budget n, at every n (the module docstring derives it).

    Args:
        n: the budget, > 0 (a real number: the bound is monotone in it).
        K: the number of arms, an integer >= 2.
        sigma0_sq: the common prior variance, > 0.
        sigma_sq: the reward variance, > 0.

    Raises:
        ValueError: a parameter outside its range (named).
    """
    _check(n, K, sigma0_sq, sigma_sq)
    return _pair_integral(float(n), int(K), float(sigma0_sq), float(sigma_sq), 0)


def regret_lower_bound(n: float, K: int, sigma0_sq: float = 1.0, sigma_sq: float = 1.0) -> float:
    """E[Delta Phi(-Delta sqrt(n) / (2 sigma))] (label `limit_regret`): a lower bound on the Bayesian
    simple regret of every algorithm with budget n, at every n. Arguments as `failure_lower_bound`."""
    _check(n, K, sigma0_sq, sigma_sq)
    return _pair_integral(float(n), int(K), float(sigma0_sq), float(sigma_sq), 1)


def regret_near_ties(n: float, K: int, sigma0_sq: float = 1.0, sigma_sq: float = 1.0, width: float = 5.0) -> float:
    """The part of `regret_lower_bound` from instances whose top two means are within `width`
    sigma / sqrt(n): E[Delta Phi(-Delta sqrt(n) / (2 sigma)) 1{Delta < width sigma / sqrt(n)}] (label
    `limit_regret`, cut). The rest is `regret_lower_bound` less this. As n grows, n times it over
    L_r tends to `near_tie_share(width)`. Arguments as `failure_lower_bound`; width > 0."""
    _check(n, K, sigma0_sq, sigma_sq)
    check_positive("width", width)
    return _pair_integral(float(n), int(K), float(sigma0_sq), float(sigma_sq), 1,
                          below=float(width) * math.sqrt(sigma_sq / n))


def near_tie_share(width: float = 5.0) -> float:
    """The share of the limit's regret constant L_r from gaps below `width` sigma / sqrt(n):
    int_0^width u Phi(-u/2) du over int_0^inf u Phi(-u/2) du = 1 (with p(s) flat at p(0)). By parts,
    int_0^W u Phi(-u/2) du = W^2/2 Phi(-W/2) + int_0^W u^2/4 phi(u/2) du, and the second integral is
    2 (Phi(W/2) - 1/2) - W phi(W/2) (a normal moment)."""
    check_positive("width", width)
    h = width / 2.0
    phi = math.exp(-h * h / 2.0) / math.sqrt(2.0 * math.pi)
    return width ** 2 / 2.0 * special.ndtr(-h) + 2.0 * (special.ndtr(h) - 0.5) - width * phi


def two_arms_failure(n: float, sigma0_sq: float = 1.0, sigma_sq: float = 1.0) -> float:
    """`failure_lower_bound` at K = 2 in closed form: with d ~ N(0, a^2), a^2 = 2 sigma0^2, and its
    estimate's error N(0, b^2), b^2 = 4 sigma^2 / n, the sign flips with probability arctan(b / a) / pi."""
    _check(n, 2, sigma0_sq, sigma_sq)
    return math.atan(math.sqrt(2.0 * sigma_sq / (n * sigma0_sq))) / math.pi


def two_arms_regret(n: float, sigma0_sq: float = 1.0, sigma_sq: float = 1.0) -> float:
    """`regret_lower_bound` at K = 2 in closed form: E[abs(d) 1{the sign flips}] = a / sqrt(2 pi)
    (1 - a / sqrt(a^2 + b^2)) with a, b as in `two_arms_failure` (integrate by parts once)."""
    _check(n, 2, sigma0_sq, sigma_sq)
    a2, b2 = 2.0 * sigma0_sq, 4.0 * sigma_sq / n
    a = math.sqrt(a2)
    # 1 - a / sqrt(a^2 + b^2) = b^2 / (sqrt(a^2 + b^2) (sqrt(a^2 + b^2) + a)), without cancellation
    r = math.sqrt(a2 + b2)
    return a / math.sqrt(2.0 * math.pi) * b2 / (r * (r + a))


def zero_gap_density(K: int, sigma0_sq=1.0, prior_means=None) -> float:
    """p(0): the prior density of a zero gap between the two largest means, per unit of the gap.

    Common prior: `gap.gap_density(0, K, sigma0_sq)`. Per-arm priors N(m_k, s_k^2) (sigma0_sq a list
    of K variances, `prior_means` their means, default 0): sum over i != j of int g_i g_j prod_{k != i, j}
    G_k dx, computed as int [(sum_i h_i)^2 - sum_i h_i^2] prod_k G_k dx with h_i = g_i / G_i (in logs),
    by Gauss-Legendre panels over the union of the priors' +-14 sd windows.

    Args:
        K: the number of arms, an integer >= 2.
        sigma0_sq: the common prior variance (> 0), or the K arms' prior variances.
        prior_means: the K arms' prior means (per-arm priors only; default all 0).
    """
    check_int("K", K, 2)
    v = np.asarray(sigma0_sq, float) if np.ndim(sigma0_sq) else None
    if v is None:
        check_positive("sigma0_sq", sigma0_sq)
        if prior_means is None or np.ptp(np.asarray(prior_means, float)) == 0:
            return float(gap.gap_density(0.0, K, float(sigma0_sq)))
        v = np.full(K, float(sigma0_sq))
    _per_arm(K, v)
    m = np.zeros(K) if prior_means is None else np.asarray(prior_means, float)
    if m.shape != (K,) or not np.all(np.isfinite(m)):
        raise ValueError(f"prior_means must be K = {K} finite numbers, got {prior_means!r}")
    sd = np.sqrt(v)
    edges = np.unique(np.concatenate([m + sd * z for z in np.linspace(-14.0, 14.0, 57)]))
    x, w = np.polynomial.legendre.leggauss(_NODES)
    pts = np.concatenate([lo + (hi - lo) * (x + 1) / 2 for lo, hi in zip(edges[:-1], edges[1:])])
    wts = np.concatenate([w * (hi - lo) / 2 for lo, hi in zip(edges[:-1], edges[1:])])
    z = (pts[:, None] - m) / sd
    log_G = special.log_ndtr(z)
    log_g = -0.5 * z ** 2 - np.log(sd * math.sqrt(2.0 * math.pi))
    h = np.exp(log_g - log_G)
    integrand = (h.sum(axis=1) ** 2 - (h ** 2).sum(axis=1)) * np.exp(log_G.sum(axis=1))
    return float(np.sum(wts * integrand))


def limit_constants(K: int, sigma0_sq=1.0, sigma_sq: float = 1.0, prior_means=None) -> Constants:
    """The limit's constants: (failure L_e, regret L_r), with sqrt(n) e_n and n sr_n at least these
    in the limit for every algorithm (L_e = sigma p(0) sqrt(2/pi), L_r = sigma^2 p(0); the module
    docstring derives them). Arguments as `zero_gap_density`, with sigma_sq the reward variance (> 0)."""
    check_positive("sigma_sq", sigma_sq)
    p0 = zero_gap_density(K, sigma0_sq, prior_means)
    return Constants(math.sqrt(sigma_sq) * p0 * math.sqrt(2.0 / math.pi), sigma_sq * p0)


def lower_bound(quantity: str, n: float, K: int, sigma0_sq=1.0, sigma_sq: float = 1.0) -> float:
    """The finite-n bound on `quantity` ('failure' or 'regret'); per-arm priors have none (the pair's
    law is not symmetric there), which is reported as undefined."""
    if quantity not in ("failure", "regret"):
        raise ValueError(f"quantity must be 'failure' or 'regret', got {quantity!r}")
    if _per_arm(K, sigma0_sq):
        raise UndefinedError("the finite-n limit needs a common prior (exchangeable top two); per-arm priors "
                             "have only the asymptotic constants (limit_constants)", {"K": K})
    s0 = float(np.asarray(sigma0_sq, float).ravel()[0])
    return (failure_lower_bound if quantity == "failure" else regret_lower_bound)(n, K, s0, sigma_sq)
