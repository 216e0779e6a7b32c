"""The proof-tracking simulator of `tracked`, compiled (numba, one run per thread, `cache=True` as
the simulator's kernels): RUE with known variances and Gaussian rewards, tracking the event E and
the inequalities of Lemma `TwoBoundOnC` and of the repaired route at every round.

It follows `tracked.tracked_rue_runs`'s numpy loop operation by operation: the posterior of eqs.
`blup` and `MSE` (`bounds.estimation.posterior_arrays`), the index mean + sqrt(2 var log n), the
checks after each pull. The rewards come from one table of standard normals, `z[r, p]` for run r's
p-th pull (0-based, the initialisation's 2K pulls first), so the numpy loop given the same table
makes the same pulls (`tests/simulate/test_tracked.py` holds them together). With continuous
rewards an index tie has probability 0; the kernel takes the first maximum.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ..compiling import one_compiler_at_a_time


@njit(cache=True, inline="always")
def _posterior(T, S, s0, s, mean, var):
    """Eqs. `blup` and `MSE` for one history (the order of `bounds.estimation.posterior_arrays`)."""
    K = T.shape[0]
    denom = 0.0
    num = 0.0
    for k in range(K):
        o = s / (T[k] * s0 + s)
        denom += T[k] * o
        num += o * S[k]
    rbar0 = num / denom
    for k in range(K):
        o = s / (T[k] * s0 + s)
        rbar = S[k] / T[k] if T[k] > 0 else 0.0
        mean[k] = o * rbar0 + (1 - o) * rbar
        var[k] = s0 * s / (T[k] * s0 + s) + o ** 2 * s / denom


@njit(cache=True, inline="always")
def _ctilde(T, s0, s, logn):
    return math.sqrt(2 * (s0 * s / (T * s0 + s)) * logn)


@njit(cache=True, error_model="numpy")
def _one_run(r, means, z, sd, n, logn, s0, s, track, eta, beta, beta1, eta_r, r_range, up_rhs, up_rep_rhs,
             rec, Tout, Sout, flags, worst):
    """Run r of `tracked`, written into row r of its outputs. A function of its own, not the body of the
    prange loop: numba's parallel passes over this body took about 9 s of compiling, against about 2 s."""
    K = means.shape[1]
    mu = means[r]
    T = np.zeros(K)
    S = np.zeros(K)
    mean = np.empty(K)
    var = np.empty(K)
    best = 0
    for k in range(1, K):
        if mu[k] > mu[best]:
            best = k
    E = True
    up_bad = False
    low_bad = False
    E_rep = True
    up_rep = False
    low_shift = False
    E_prime = True
    up_w = -np.inf
    low_w = -np.inf
    lo, hi = mu[0], mu[0]
    for k in range(K):
        lo = min(lo, mu[k])
        hi = max(hi, mu[k])
    E_prime = (hi - lo) <= r_range
    p = 0
    for _ in range(2):
        for k in range(K):
            T[k] += 1
            S[k] += mu[k] + sd * z[r, p]
            p += 1
    if track:
        for k in range(K):
            if not abs(S[k] / T[k] - mu[k]) <= eta_r * _ctilde(T[k], s0, s, logn) / 3:
                E_prime = False
    for t in range(2 * K + 1, n + 1):
        _posterior(T, S, s0, s, mean, var)
        arm = 0
        top = mean[0] + math.sqrt(2 * var[0] * logn)
        for k in range(1, K):
            u = mean[k] + math.sqrt(2 * var[k] * logn)
            if u > top:
                top = u
                arm = k
        T[arm] += 1
        S[arm] += mu[arm] + sd * z[r, p]
        p += 1
        if not track:
            continue
        _posterior(T, S, s0, s, mean, var)
        c1_prev = _ctilde(T[best] - 1, s0, s, logn)
        ct1 = _ctilde(T[best], s0, s, logn)
        up_k, up_e = -1, -np.inf
        low_k, low_e = -1, -np.inf
        for k in range(K):
            c = math.sqrt(2 * var[k] * logn)
            dev = abs(mu[k] - mean[k])
            if not dev <= eta_r * c:
                E_rep = False
            if not dev <= eta * c:
                E = False
            ct = _ctilde(T[k], s0, s, logn)
            if not abs(S[k] / T[k] - mu[k]) <= eta_r * ct / 3:
                E_prime = False
            if k == best:
                continue
            D = mu[best] - mu[k]
            if T[k] > up_rep_rhs[r, k]:
                up_rep = True
            if (1 - eta_r) * ct > (1 + eta_r) * math.sqrt(beta) * c1_prev + D:
                low_shift = True
            rhs_up = up_rhs[r, k]
            if T[k] > rhs_up:
                up_bad = True
            if T[k] - rhs_up > up_e:
                up_k, up_e = k, T[k] - rhs_up
            lhs = (1 - eta) * math.sqrt(beta1) * ct
            rhs = (1 + eta) * math.sqrt(beta) * ct1 + D
            if lhs > rhs:
                low_bad = True
            if lhs - rhs > low_e:
                low_k, low_e = k, lhs - rhs
        if up_k >= 0 and up_e > up_w:
            up_w = up_e
            worst[r, 0, 0] = up_e
            worst[r, 0, 1] = T[up_k]
            worst[r, 0, 2] = up_rhs[r, up_k]
            worst[r, 0, 3] = t
        if low_k >= 0 and low_e > low_w:
            low_w = low_e
            worst[r, 1, 0] = low_e
            worst[r, 1, 1] = (1 - eta) * math.sqrt(beta1) * _ctilde(T[low_k], s0, s, logn)
            worst[r, 1, 2] = (1 + eta) * math.sqrt(beta) * ct1 + (mu[best] - mu[low_k])
            worst[r, 1, 3] = t
    _posterior(T, S, s0, s, mean, var)
    J = 0
    for k in range(1, K):
        if mean[k] > mean[J]:
            J = k
    rec[r] = J
    for k in range(K):
        Tout[r, k] = T[k]
        Sout[r, k] = S[k]
    flags[r, 0] = E
    flags[r, 1] = up_bad
    flags[r, 2] = low_bad
    flags[r, 3] = E_rep
    flags[r, 4] = up_rep
    flags[r, 5] = low_shift
    flags[r, 6] = E_prime


@njit(cache=True, parallel=True, error_model="numpy")
def tracked(means, z, sd, n, s0, s, track, eta, beta, beta1, eta_r, r_range, up_rhs, up_rep_rhs):
    """R runs of RUE (known variances s0 = sigma0^2, s = sigma^2; rewards means + sd z). Returns the
    recommended arm, T, S, and (with `track`) the flags and worst cases `tracked_rue_runs` records:
    flags[:, 0..6] = E, Tk_up1 failed, Tk_lowv2 failed, E_rep, Tk_up1 (eta_repaired) failed, the
    shifted Tk_lowv2 failed, E'; worst[:, 0] and worst[:, 1] = (excess, lhs, rhs, t) of Tk_up1 and
    Tk_lowv2. `up_rhs`, `up_rep_rhs` `(R, K)`: the right side of eq. Tk_up1 with the paper's eta and
    with eta_repaired (`bounds.theorems.Tk_upper`; inf at the best arm), computed by the caller."""
    R, K = means.shape
    logn = math.log(n)
    rec = np.empty(R, np.int64)
    Tout = np.zeros((R, K))
    Sout = np.zeros((R, K))
    flags = np.zeros((R, 7), np.bool_)
    worst = np.full((R, 2, 4), np.nan)
    for r in prange(R):
        _one_run(np.int64(r), means, z, sd, n, logn, s0, s, track, eta, beta, beta1, eta_r, r_range, up_rhs,
                 up_rep_rhs, rec, Tout, Sout, flags, worst)
    return rec, Tout, Sout, flags, worst


one_compiler_at_a_time(tracked)            # the claims that track proofs, in two workers at once, compile it once
