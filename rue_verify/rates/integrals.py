"""The posterior integrals of `truth`, compiled (numba, `cache=True`, without the GIL): the
failure probability and the regret of a recommendation given a run's posterior N(m, v), and the arm
most probably best. The plain numpy forms in `truth` (`_grid`, `_log_cdfs`, `_failure`, `_regret`) are
the reference: `tests/rates/test_integrals.py` checks these kernels against them run by run.

What the kernels do as the reference does: the same arms (`truth.relevant_arms`, each run's own), the same thinned
grid (`truth._grid`), the same trapezoids. What they skip, and why it changes nothing above 1e-17:

- an arm's log CDF is evaluated only on its own window m_j +- 9 sd_j. Above the window it lies in
  (log Phi(9), 0] = (-1.2e-19, 0] and is taken as 0. Below the window it is under log Phi(-9) = -43.6,
  so the product of CDFs that contains it is under 1.2e-19: 1 - that product rounds to 1 in double
  precision, exactly as the reference's -expm1 and 1 - exp do, and it is taken as 1;
- each arm's failure integral runs over its own window and one grid point beyond each end. Outside,
  its density is below phi(9) / sd, and what is left out is under 2 Phi(-9) = 2.3e-19.

Per run: one grid, each arm's log CDF once, their sum once (the reference sums them again for every
arm whose failure it integrates), and no second pass for the failure of the arm most probably best
when its arms are the ones already kept. In numpy, without these, the oracle's rows under per-arm
priors (`truth.oracle_truth`) were the largest part of the rate study; see docs/bench.txt.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: quadrature points per arm window (`truth.POINTS`, which imports it from here): one value for both
POINTS = 257
_Z = np.linspace(-9.0, 9.0, POINTS)
_SQRT_HALF = math.sqrt(0.5)
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_SQRT_2PI = math.sqrt(2.0 * math.pi)
#: Phi(x) = 0.5 erfc(-x / sqrt 2) is 1 to double precision above this (1 - Phi(8.3) = 5e-17 < 2^-53)
_PHI_ONE = 8.3


@njit(cache=True, error_model="numpy")
def log_ndtr(z: float) -> float:
    """log Phi(z) for every finite z, to about 1e-14 relative: log1p(-Phi(-z)) for z > 0 (so that a value
    near 0 keeps its relative digits), log of 0.5 erfc(-z / sqrt 2) down to z = -20, and below that the asymptotic
    series log(phi(z) / -z) + log(1 - 1/z^2 + 3/z^4 - ...), summed until its terms stop changing it
    (they decrease while k < z^2 / 2, far past where they fall below the rounding). Tested against
    scipy.special.log_ndtr over z in [-1e4, 1e4] and against mpmath."""
    if z > 0.0:
        return math.log1p(-0.5 * math.erfc(z * _SQRT_HALF))
    if z > -20.0:
        return math.log(0.5 * math.erfc(-z * _SQRT_HALF))
    inv = 1.0 / (z * z)
    total, term, k = 1.0, 1.0, 1
    while True:
        term *= -(2 * k - 1) * inv
        if abs(term) <= 1e-17 * abs(total):
            break
        total += term
        k += 1
    return -0.5 * z * z - math.log(-z) - _LOG_SQRT_2PI + math.log(total)


@njit(cache=True, error_model="numpy")
def _kept(m, s, rec):
    """The arms `truth.relevant_arms` keeps for one run, in its order (window tops descending,
    stable): those whose window reaches above min(max_k lo_k, lo_rec), lo = m - 9 sd. (An insertion
    sort of the few kept: numba's argsort took seconds to compile.)"""
    lo, top = m - 9.0 * s, m + 9.0 * s
    cut = min(lo.max(), lo[rec])
    out = np.empty(m.shape[0], np.int64)
    L = 0
    for j in range(m.shape[0]):
        if top[j] > cut:
            i = L
            while i > 0 and top[out[i - 1]] < top[j]:
                out[i] = out[i - 1]
                i -= 1
            out[i] = j
            L += 1
    return out[:L]


@njit(cache=True, error_model="numpy")
def _take(a, idx):
    """a[idx] for an index array (a loop: numba's fancy indexing is slow to compile)."""
    out = np.empty(idx.shape[0])
    for i in range(idx.shape[0]):
        out[i] = a[idx[i]]
    return out


@njit(cache=True, error_model="numpy")
def _grid(m, s):
    """`truth._grid` for one run: every arm's window points that no finer arm's window covers, sorted."""
    L = m.shape[0]
    lo, top = m - 9.0 * s, m + 9.0 * s
    pts = np.empty(L * POINTS)
    count = 0
    for j in range(L):
        for p in range(POINTS):
            x = m[j] + s[j] * _Z[p]
            covered = False
            for i in range(L):
                if (s[i] < s[j] or (s[i] == s[j] and i < j)) and lo[i] <= x <= top[i]:
                    covered = True
                    break
            if not covered:
                pts[count] = x
                count += 1
    return np.sort(pts[:count])


@njit(cache=True, error_model="numpy")
def _failure(x, m, s, k, first, last, below, others):
    """Arm k's failure integral over its window and one point beyond each end, `others[g]` the other
    arms' log CDF sum at point g."""
    G = x.shape[0]
    a, b = max(first[k] - 1, 0), min(last[k] + 1, G)
    acc, prev = 0.0, 0.0
    for g in range(a, b):
        lower = below[g] - (1 if g < first[k] else 0)          # other arms whose windows start above x
        y = 1.0 if lower > 0 else -math.expm1(others[g])
        d = (x[g] - m[k]) / s[k]
        f = math.exp(-0.5 * d * d) / (s[k] * _SQRT_2PI) * y
        if g > a:
            acc += (x[g] - x[g - 1]) * (f + prev) * 0.5
        prev = f
    return min(max(acc, 0.0), 1.0)


@njit(cache=True, error_model="numpy")
def _integrals(m, s, rec, every):
    """For the arms `m`, `s` of one run (already the kept ones): the failure integral of arm `rec`, or
    of every arm when `every`, and the regret of recommending `rec`. Returns (failures, regret)."""
    L = m.shape[0]
    x = _grid(m, s)
    G = x.shape[0]
    first = np.searchsorted(x, m - 9.0 * s, side="left")       # arm j's window: grid points [first, last)
    last = np.searchsorted(x, m + 9.0 * s, side="right")
    logs = np.zeros((L, G))
    total = np.zeros(G)
    below = np.zeros(G + 1, np.int64)                # how many arms' windows start above the point
    for j in range(L):
        inv = 1.0 / s[j]
        for g in range(first[j], last[j]):
            v = log_ndtr((x[g] - m[j]) * inv)
            logs[j, g] = v
            total[g] += v
        below[0] += 1
        below[first[j]] -= 1
    for g in range(1, G):
        below[g] += below[g - 1]

    # the other arms' log CDF sum at each point of arm k's window, summed without arm k rather than as
    # total - logs[k]: where the failure is small that sum is tiny beside logs[k], and the subtraction
    # lost up to 1e-11 of the failure's relative digits (found by the run-by-run test)
    others = np.zeros(G)
    failures = np.full(L if every else 1, np.nan)
    if every:
        pre = np.empty((L, G))                     # pre[k, g]: the sum over arms j < k
        for g in range(G):
            run = 0.0
            for j in range(L):
                pre[j, g] = run
                run += logs[j, g]
        suf = np.zeros(G)                          # the sum over arms j > k, as k runs down
        for k in range(L - 1, -1, -1):
            for g in range(max(first[k] - 1, 0), min(last[k] + 1, G)):
                others[g] = pre[k, g] + suf[g]
            failures[k] = _failure(x, m, s, k, first, last, below, others)
            for g in range(G):
                suf[g] += logs[k, g]
    else:
        for g in range(max(first[rec] - 1, 0), min(last[rec] + 1, G)):
            low, high = 0.0, 0.0                   # in the order `every` adds them: the same bits
            for j in range(rec):
                low += logs[j, g]
            for j in range(L - 1, rec, -1):
                high += logs[j, g]
            others[g] = low + high
        failures[0] = _failure(x, m, s, rec, first, last, below, others)

    acc, prev = 0.0, 0.0
    for g in range(G):
        f = 1.0 if below[g] > 0 else 1.0 - math.exp(total[g])
        if g > 0:
            acc += (x[g] - x[g - 1]) * (f + prev) * 0.5
        prev = f
    return failures, max(x[0] + acc - m[rec], 0.0)


@njit(cache=True, error_model="numpy")
def _one(m, s, rec, choose):
    """One run: (the arm judged, its failure probability, the regret of `rec`, NaN when `choose`).
    choose: the arm judged is the one most probably best (its failure least, the first such in the
    kept order); else it is `rec`."""
    if choose:
        lo = m - 9.0 * s
        keep = _kept(m, s, np.argmax(lo))
        f, _ = _integrals(_take(m, keep), _take(s, keep), 0, True)
        best = 0
        for j in range(1, f.shape[0]):
            if f[j] < f[best]:
                best = j
        arm = keep[best]
        if lo[arm] >= lo.max():                     # the same kept arms as `rec` = arm would give
            return arm, f[best], np.nan
        rec = arm
    keep = _kept(m, s, rec)
    place = 0
    while keep[place] != rec:
        place += 1
    f, regret = _integrals(_take(m, keep), _take(s, keep), place, False)
    return rec, f[0], (np.nan if choose else regret)


@njit(cache=True, nogil=True, error_model="numpy")
def posterior_integrals(m, s, rec, choose, arm, failure, regret):
    """Per run r: into arm[r], failure[r] and regret[r], the arm judged, Pr(some arm beats it |
    N(m_r, s_r^2)) and E[max_k mu_k - mu_rec | N(m_r, s_r^2)] (NaN when `choose`). choose: judge
    the arm most probably best (`rec` ignored), else `rec`. Without the GIL: `truth` runs chunks of
    runs on threads (numba's parallel loop took seconds more to compile than the whole kernel)."""
    for r in range(m.shape[0]):
        arm[r], failure[r], regret[r] = _one(m[r], s[r], rec[r], choose)


@njit(cache=True, error_model="numpy")
def _oracle_one(mu, a, s, z, w, relevant):
    """`bounds.lower.oracle_given_means` for one instance: (failure, regret)."""
    scaled = mu * a
    cut = scaled.max() - relevant * s * a.max()
    near = np.empty(mu.shape[0], np.int64)
    L = 0
    for k in range(mu.shape[0]):
        if scaled[k] >= cut:
            near[L] = k
            L += 1
    near = near[:L]
    best = np.argmax(mu)
    failure, regret = 0.0, 0.0
    for k in near:
        p = 0.0
        for i in range(z.shape[0]):
            xk = a[k] * (mu[k] + s * z[i])
            prod = 1.0
            for j in near:
                if j != k:
                    arg = (xk - a[j] * mu[j]) / (a[j] * s)
                    if arg < _PHI_ONE:                  # above, Phi rounds to 1 exactly
                        prod *= 0.5 * math.erfc(-arg * _SQRT_HALF)
            p += w[i] * prod
        if mu[k] < mu[best]:          # a tied best arm is a success (`simulate.runner.outcomes`)
            failure += p
        regret += (mu[best] - mu[k]) * p
    return min(max(failure, 0.0), 1.0), regret


@njit(cache=True, nogil=True, error_model="numpy")
def oracle_errors(mu, a, s, z, w, relevant, failure, regret):
    """`bounds.lower.oracle_given_means` (the reference, in numpy) compiled, into failure[r] and
    regret[r]: the full-information oracle's failure probability and regret given the means `mu`
    `(R, K)`, its rule's factors `a`, the noise sd s = sqrt(sigma^2 / n), Gauss-Hermite nodes `z` and
    weights `w` (summing to 1) and the cut `relevant` in noise sds. The same integrals over the same
    arms, with the product of the normal CDFs formed directly rather than as the exp of a log-sum, and
    factors that round to 1 skipped. Without the GIL, for `truth`'s threads."""
    for r in range(mu.shape[0]):
        failure[r], regret[r] = _oracle_one(mu[r], a, s, z, w, relevant)


@njit(cache=True, nogil=True, error_model="numpy")
def plain_oracle(mu, noise, n, scale, v, nu_sq, failure, regret):
    """The oracle's plain estimators (`truth.oracle_truth`) in one pass over the runs: the sample sums
    S = n mu + scale z (scale = sqrt(n nu^2)), the posterior means m = v S / nu^2 (`truth.known_mean_posterior`
    with every arm pulled n times: v the arms' posterior variances), the recommendation argmax m (the
    first, as numpy's argmax), and into failure[r] and regret[r] whether it is not the best arm and its
    simple regret (`simulate.runner.outcomes`). The same operations in the same order as those numpy
    forms, so the same values to the bit, without their (R, K) temporaries."""
    K = mu.shape[1]
    for r in range(mu.shape[0]):
        rec, best = 0, 0
        top = -np.inf
        for k in range(K):
            m = v[k] * (n * mu[r, k] + scale * noise[r, k]) / nu_sq
            if m > top:
                top = m
                rec = k
            if mu[r, k] > mu[r, best]:
                best = k
        failure[r] = 1.0 if mu[r, rec] < mu[r, best] else 0.0     # a tied best arm is a success
        regret[r] = mu[r, best] - mu[r, rec]
