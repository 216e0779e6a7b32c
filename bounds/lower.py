"""Lower bounds that hold for every algorithm under the model of Section 3.

The full-information oracle (label `oracle_bound`): give an algorithm n observations of *every*
arm instead of n in all. Any algorithm with budget n can be run on the oracle's data (its j-th pull
of arm k reads the oracle's j-th observation of arm k), so the oracle's Bayes risk is at most any
algorithm's: its Bayesian failure probability and simple regret are lower bounds on e_n and sr_n.
With a homogeneous prior and equal counts, the oracle's Bayes rule (for both losses) recommends the
largest sample mean.

For K = 2 the oracle's failure probability has a closed form (label `oracle_two_arms`): with
D = mu_1 - mu_2 ~ N(0, 2 s0^2) and noise E ~ N(0, 2 sigma^2 / n), it fails when D and D + E differ
in sign, which has probability arccos(rho) / pi, rho = corr(D, D + E) = sqrt(s0^2 / (s0^2 + sigma^2/n)).
For K arms `rue_verify.rates.truth.oracle_truth` estimates both quantities by simulation with exact
conditioning; the K = 2 closed form tests it (`tests/rates/test_study.py`).

The oracle is not the limit: it sees K n observations. `bounds.limit` derives the bound every
algorithm with budget n meets (the pair argument), and shows the oracle below it: for K = 2 the oracle
at n is that bound at 2n, and for every K its constants are the limit's over sqrt(2) (failure) and over
2 (regret).
"""

from __future__ import annotations

import math


def oracle_two_arms(n: float, sigma0_sq: float, sigma_sq: float) -> float:
    """arccos(rho) / pi: the full-information oracle's failure probability with K = 2 (label
    `oracle_two_arms`), a lower bound on every algorithm's e_n with budget n."""
    for name, v in (("n", n), ("sigma0_sq", sigma0_sq), ("sigma_sq", sigma_sq)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
    rho = math.sqrt(sigma0_sq / (sigma0_sq + sigma_sq / n))
    return math.acos(rho) / math.pi


#: Gauss-Hermite nodes of `oracle_given_means` (probabilists'): the integrand is a product of normal
#: CDFs in z whose steps are about one unit wide; 48 nodes give K = 2's closed form to a relative 5e-13
#: (the same values as 96 nodes to 1e-12 at K = 100, at a fifth of the cost; tests/bounds checks them)
HERMITE = 48
#: arms whose scaled mean lies this many noise sds below the top are left out: each is recommended with
#: probability below Phi(-12 / sqrt(2)), about 1e-17
RELEVANT = 12.0


def oracle_inputs(means, n: float, sigma_sq: float, shrink=None, variance: str = "sigma_sq") -> tuple:
    """The inputs of `oracle_given_means` (and of its compiled twin in `rue_verify.rates.truth`),
    checked: (means as `(R, K)`, whether one instance `(K,)` was given, the K factors a_k, the noise sd
    s = sqrt(sigma^2 / n)). A ValueError names the bad parameter (`variance`: the reward variance's
    name in the caller)."""
    import numpy as np
    mu = np.asarray(means, float)
    single = mu.ndim == 1
    mu = np.atleast_2d(mu)
    if mu.ndim != 2 or mu.shape[1] < 2 or not np.all(np.isfinite(mu)):
        raise ValueError(f"means must be finite numbers of shape (R, K) with K >= 2, got shape {mu.shape}")
    for name, v in (("n", n), (variance, sigma_sq)):
        if not (isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
                and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
    K = mu.shape[1]
    a = np.ones(K) if shrink is None else np.asarray(shrink, float)
    if a.shape != (K,) or not np.all(np.isfinite(a) & (a > 0)):
        raise ValueError(f"shrink must be K = {K} finite numbers > 0, got {shrink!r}")
    return mu, single, a, math.sqrt(sigma_sq / n)


def oracle_given_means(means, n: float, sigma_sq: float, shrink=None) -> tuple:
    """The full-information oracle's failure probability and simple regret given the means (label
    `oracle_bound`), exactly up to quadrature: with n observations of every arm its sample means are
    X_k = mu_k + s Z_k, s = sqrt(sigma^2 / n), and it recommends argmax_k a_k X_k (a_k = `shrink`:
    the posterior means' factors under per-arm priors with prior mean 0; all 1 under a common prior,
    where the largest sample mean is the Bayes rule for both losses). Then

        Pr(J = k | mu) = int phi(z) prod_{j != k} Phi((a_k (mu_k + s z) - a_j mu_j) / (a_j s)) dz,

    a one-dimensional integral (Gauss-Hermite); the failure is the sum of Pr(J = k) over the arms k
    whose mean is below the best (a tied best arm is a success; summed, so that tiny probabilities
    keep their digits) and the regret sum_k (mu_best - mu_k) Pr(J = k).

    Args:
        means: the instances' means, `(R, K)` (or `(K,)`), finite.
        n: the budget (observations of each arm), > 0.
        sigma_sq: the reward variance, > 0.
        shrink: the K positive factors a_k of the recommendation rule (default: all 1).

    Returns the failure probabilities and the regrets, two arrays `(R,)` (two floats for a single
    instance).
    """
    import numpy as np
    from scipy import special
    mu, single, a, s = oracle_inputs(means, n, sigma_sq, shrink)
    R, K = mu.shape
    z, w = np.polynomial.hermite_e.hermegauss(HERMITE)
    w = w / w.sum()
    scaled = mu * a                                      # the rule's values without noise
    best = mu.argmax(axis=1)
    relevant = scaled >= scaled.max(axis=1, keepdims=True) - RELEVANT * s * a.max()
    failure, regret = np.zeros(R), np.zeros(R)
    count = relevant.sum(axis=1)
    runs = np.argsort(count, kind="stable")          # runs of like numbers of relevant arms share a chunk
    ranked = np.argsort(-scaled, axis=1, kind="stable")
    own = special.log_ndtr(z)                        # the j = k term of each product
    lo = 0
    while lo < R:
        L = int(count[runs[min(R, lo + max(1, int(4e6 // (int(count[runs[lo]]) ** 2 * HERMITE)))) - 1]])
        hi = min(R, lo + max(1, int(4e6 // (L * L * HERMITE))))
        L = int(count[runs[hi - 1]])
        rows = runs[lo:hi]
        idx = ranked[rows, :L]                                             # the top L by the rule's values
        m = np.take_along_axis(mu[rows], idx, 1)                           # (r, L)
        ak = a[idx]
        keep = np.take_along_axis(relevant[rows], idx, 1)
        x = ak[:, :, None] * (m[:, :, None] + s * z)                       # a_k X_k at each node: (r, L, G)
        arg = (x[:, None, :, :] - (ak * m)[:, :, None, None]) / (ak[:, :, None, None] * s)   # (r, j, k, G)
        logs = np.where(keep[:, :, None, None], special.log_ndtr(arg), 0.0)
        p = np.where(keep, np.exp(logs.sum(axis=1) - own) @ w, 0.0)       # Pr(J = k): (r, L)
        b = best[rows]
        failure[rows] = np.where(m < mu[rows, b][:, None], p, 0.0).sum(axis=1)    # a tied best arm is a success
        regret[rows] = ((mu[rows, b][:, None] - m) * p).sum(axis=1)
        lo = hi
    failure = np.clip(failure, 0.0, 1.0)
    return (float(failure[0]), float(regret[0])) if single else (failure, regret)
