"""Top-two Thompson sampling (Russo 2020), leader probability beta = 1/2.

- Posterior: Bernoulli rewards, Beta(1, 1) priors updated with a reward r as (r, 1 - r); Gaussian
  rewards, N(rbar_k, nu^2 / T_k) with the environment's noise variance nu^2 known (flat prior).
- Initialisation: two round-robin passes.
- Round t: draw theta from the posterior; the leader is argmax theta (ties at random). With
  probability 1/2 pull the leader; otherwise redraw theta until its argmax differs from the leader,
  at most K + 1 draws, and pull that challenger (if every draw returns the leader, pull the leader).
- Recommendation: the largest empirical mean, ties at random.

Two exact samplers of the same law:
- Plain (table mode, Gaussian rewards, and the reference): draw every theta_j from uniforms only,
  Beta(a, b) (a, b >= 1) by closed forms when a or b is 1 and otherwise by Cheng's (1978)
  algorithm BB with constants cached per arm; normals by Box-Muller (cosine branch). In table mode
  every uniform (coin, tie, posterior) comes from the `ties` table in the order the reference
  reads it, so kernel and reference are compared pull by pull.
- Lazy (live Bernoulli runs): only the argmax of theta matters, so `lazy_argmax` finds it from one
  uniform and one comparison per arm against each arm's Beta CDF on a grid (kept exact by the
  a -> a + 1, b -> b + 1 recurrences of the regularised incomplete beta function), drawing actual
  values only for the few arms that share the top grid cell. Its law is tested against the plain
  sampler's. Live uniforms come from the run's xoshiro256+ stream (`_rng`); the K uniforms of
  each lazy argmax come from the run's LANES further streams, drawn LANES at a time in SIMD
  registers (`_rng.fill_lanes`). From the scalar stream they took 26% (K = 20) and 41% (K = 80)
  of an argmax; with the lanes an argmax on a late-run state took 96 against 105 ns (F2, K = 20)
  and 209 against 277 ns (F4, K = 80).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ._common import EMPTY_TABLE, EMPTY_TIES, draw_stream, pick_index, top
from ._rng import box_muller, fill_lanes, lane_buffer, next_double, seed_lanes, seed_states

NAME = "ttts"
LOG4 = math.log(4.0)
ONE_PLUS_LOG5 = 1.0 + math.log(5.0)


@njit(cache=True, inline="always")
def _u(ties, tie_i, st, i):
    """The next uniform: the table's in table mode, else run i's xoshiro stream."""
    if ties.shape[0] > 0:
        u = ties[tie_i[0]]
        tie_i[0] += 1
        return u
    return next_double(st, i)


@njit(cache=True, error_model="numpy")
def cheng_constants(a, b):
    """(kind, lo, hi, tot, bb, cc) for Beta(a, b): kind 0 if b == 1, 1 if a == 1 (closed forms),
    2 (Cheng BB, a is the smaller parameter) or 3 (b is)."""
    if b == 1.0:
        return 0, a, b, a + b, 0.0, 0.0
    if a == 1.0:
        return 1, a, b, a + b, 0.0, 0.0
    tot = a + b
    lo = min(a, b)
    hi = max(a, b)
    bb = math.sqrt((tot - 2.0) / (2.0 * a * b - tot))
    return (2 if a == lo else 3), lo, hi, tot, bb, lo + 1.0 / bb


@njit(cache=True, error_model="numpy")
def beta_draw(kind, lo, hi, tot, bb, cc, ties, tie_i, st, i):
    """An exact Beta draw from cached `cheng_constants` (lo/hi are a/b for the closed forms)."""
    if kind == 0:
        return _u(ties, tie_i, st, i) ** (1.0 / lo)
    if kind == 1:
        return 1.0 - _u(ties, tie_i, st, i) ** (1.0 / hi)
    while True:
        u1 = _u(ties, tie_i, st, i)
        u2 = _u(ties, tie_i, st, i)
        if u1 <= 0.0 or u1 >= 1.0:
            continue
        v = bb * math.log(u1 / (1.0 - u1))
        w = lo * math.exp(v)
        z = u1 * u1 * u2
        r = cc * v - LOG4
        s = lo + r - w
        if s + ONE_PLUS_LOG5 >= 5.0 * z:
            break
        t = math.log(z)
        if s > t or r + tot * math.log(tot / (hi + w)) >= t:
            break
    return w / (hi + w) if kind == 2 else hi / (hi + w)


@njit(cache=True, error_model="numpy")
def normal_draw(ties, tie_i, st, i):
    """A standard normal by Box-Muller from two uniforms (cosine branch)."""
    z, _ = box_muller(_u(ties, tie_i, st, i), _u(ties, tie_i, st, i))
    return z


@njit(cache=True, error_model="numpy")
def _sample(theta, C, S, T, gaussian, nu, ties, tie_i, st, i):
    for j in range(theta.shape[0]):
        if gaussian:
            theta[j] = S[j] / T[j] + nu / math.sqrt(T[j]) * normal_draw(ties, tie_i, st, i)
        else:
            theta[j] = beta_draw(int(C[j, 0]), C[j, 1], C[j, 2], C[j, 3], C[j, 4], C[j, 5], ties, tie_i, st, i)


@njit(cache=True, error_model="numpy")
def _argmax(values, ties, tie_i, st, i):
    """argmax, ties uniformly at random: a tie uniform is read only when there is a tie (live) or
    for every decision (table mode), as `_common.argmax_random`."""
    arg, best, count = top(values)
    tabled = ties.shape[0] > 0
    if count > 1:
        arg = pick_index(values, best, count, ties[tie_i[0]] if tabled else next_double(st, i))
    if tabled:
        tie_i[0] += 1
    return arg


# ---------------------------------------------------------------- lazy argmax (live Bernoulli runs)
GRID = 128           # cells [i/GRID, (i+1)/GRID) of the lazy sampler. Finer cells share fewer arms (fewer
                     # truncated draws) but widen the CDF-update windows: 128 ran 3% (K = 20) and 16%
                     # (K = 80) faster than 64 in paired timings; 96 and 192 were no better than 128
CUT = -37.0          # CDF-update terms below exp(CUT) ~ 9e-17 are dropped (under 1e-12 over 1e4 pulls)
THRESHOLD = math.exp(CUT)


@njit(cache=True)
def grid(m):
    """(XS, lx, l1x) at the grid points x_i = i/m: XS[1, i] = x_i and XS[0, i] = 1 - x_i (row r is
    the factor a reward r brings), lx = log(x_i), l1x = log(1 - x_i) (logs at the interior points
    only; entries 0 and m unused)."""
    XS = np.empty((2, m + 1))
    lx = np.zeros(m + 1)
    l1x = np.zeros(m + 1)
    for i in range(m + 1):
        XS[1, i] = i / m
        XS[0, i] = (m - i) / m
    for i in range(1, m):
        lx[i] = math.log(i / m)
        l1x[i] = math.log1p(-i / m)
    return XS, lx, l1x


@njit(cache=True)
def cdf_init(K, m):
    """The lazy sampler's state for K arms at Beta(1, 1): F[j, i] = I_{x_i}(a_j, b_j) (the CDF);
    G[j, i] = x_i^a (1 - x_i)^b / B(a, b) (the recurrence term) on the window W[j] = (lo, hi) of
    interior points where G >= exp(CUT), and lnB[j] = log B(a_j, b_j)."""
    F = np.empty((K, m + 1))
    G = np.zeros((K, m + 1))
    W = np.empty((K, 2), np.int64)
    lnB = np.zeros(K)
    for j in range(K):
        for i in range(m + 1):
            F[j, i] = i / m
            G[j, i] = (i / m) * ((m - i) / m)
        W[j, 0] = 1
        W[j, 1] = m - 1
    return F, G, W, lnB


@njit(cache=True, error_model="numpy", inline="always")
def cdf_update(F, G, W, lnB, j, a, b, r, XS, lx, l1x):
    """Row j of F holds the Beta(a, b) CDF I_x(a, b) at x_i = i/m; turn it into the CDF after the
    Bernoulli update with reward r, by the exact recurrences
        I_x(a + 1, b) = I_x(a, b) - g / a,    I_x(a, b + 1) = I_x(a, b) + g / b,
    g = x^a (1 - x)^b / B(a, b). The term itself follows by one multiplication,
        g(a + 1, b) = g x (a + b) / a,         g(a, b + 1) = g (1 - x) (a + b) / b,
    so an update is a countable loop over the window W[j] (no exp, no lgamma). Terms below
    exp(CUT) are dropped. log g is concave in x (peak at a / (a + b)), so the points where
    g >= exp(CUT) form an interval: after the update the window is trimmed at its ends and
    extended outwards by exact evaluations of log g (log B kept by log B(a + 1, b) =
    log B(a, b) + log(a / (a + b))); an empty window is re-seeded at the grid points either side of
    the peak. The stored CDF stays within about 1e-11 of I_x(a, b) over thousands of updates
    (tested against scipy's betainc)."""
    m = F.shape[1] - 1
    lo = W[j, 0]
    hi = W[j, 1]
    q = int(r)                                    # the row of XS (an array chosen by a branch
    if q == 1:                                    # would cost reference counting each update)
        s = -1.0 / a
        f = (a + b) / a
        lnB[j] += math.log(a / (a + b))
        a += 1.0
    else:
        s = 1.0 / b
        f = (a + b) / b
        lnB[j] += math.log(b / (a + b))
        b += 1.0
    for i in range(lo, hi + 1):
        g = G[j, i]
        F[j, i] = min(max(F[j, i] + s * g, 0.0), 1.0)
        G[j, i] = g * (XS[q, i] * f)
    while lo <= hi and G[j, lo] < THRESHOLD:
        lo += 1
    while hi >= lo and G[j, hi] < THRESHOLD:
        hi -= 1
    c = -lnB[j]
    if lo > hi:                                   # empty: the interval, if any, holds a point beside the peak
        i0 = int(a / (a + b) * m)
        for i in (i0, i0 + 1):
            if 1 <= i <= m - 1 and lo > hi:
                e = a * lx[i] + b * l1x[i] + c
                if e >= CUT:
                    lo = i
                    hi = i
                    G[j, i] = math.exp(e)
        if lo > hi:
            W[j, 0] = 1
            W[j, 1] = 0
            return
    while lo > 1:
        e = a * lx[lo - 1] + b * l1x[lo - 1] + c
        if e < CUT:
            break
        lo -= 1
        G[j, lo] = math.exp(e)
    while hi < m - 1:
        e = a * lx[hi + 1] + b * l1x[hi + 1] + c
        if e < CUT:
            break
        hi += 1
        G[j, hi] = math.exp(e)
    W[j, 0] = lo
    W[j, 1] = hi


@njit(cache=True, inline="always")
def _log_density(a, b, c, lx, l1x):
    """(a - 1) log x + (b - 1) log(1 - x) at the grid point x = c/m (-inf where it vanishes)."""
    m = lx.shape[0] - 1
    if c == 0:
        return -np.inf if a > 1.0 else 0.0
    if c == m:
        return -np.inf if b > 1.0 else 0.0
    return (a - 1.0) * lx[c] + (b - 1.0) * l1x[c]


@njit(cache=True, error_model="numpy", inline="always")
def truncated_beta(a, b, c, lx, l1x, st, i):
    """An exact Beta(a, b) draw (a, b >= 1) conditioned on the grid cell [c/m, (c+1)/m), m + 1 =
    len(lx), by rejection from the uniform on the cell under the density's maximum there (the
    density is unimodal). The log density f is concave, so it lies above its chord across the
    cell, and e^y >= 1 + y: a point is accepted without any log when u < 1 + chord - max f
    (the endpoints' values come from the grid's logs); only the rest are tested exactly."""
    m = lx.shape[0] - 1
    lo = c / m
    hi = (c + 1) / m
    flo = _log_density(a, b, c, lx, l1x)
    fhi = _log_density(a, b, c + 1, lx, l1x)
    mode = (a - 1.0) / (a + b - 2.0) if a + b > 2.0 else 0.5
    if mode <= lo:
        fmax = flo
    elif mode >= hi:
        fmax = fhi
    else:
        fmax = (a - 1.0) * math.log(mode) + (b - 1.0) * math.log1p(-mode)
    squeeze = flo > -np.inf and fhi > -np.inf
    while True:
        v = next_double(st, i)
        x = lo + (hi - lo) * v
        if x <= 0.0 or x >= 1.0:
            continue
        u = next_double(st, i)
        if squeeze and u < 1.0 + (flo + v * (fhi - flo) - fmax):
            return x
        f = (a - 1.0) * math.log(x) if a > 1.0 else 0.0
        if b > 1.0:
            f += (b - 1.0) * math.log1p(-x)
        if u < math.exp(f - fmax):
            return x


@njit(cache=True, error_model="numpy", inline="always")
def lazy_argmax(F, A, B, u, cand, guess, lx, l1x, st, lanes, i):
    """The argmax of independent theta_j ~ Beta(A_j, B_j), exactly in law, without drawing every
    theta_j. Couple theta_j = F_j^{-1}(u_j) with u_j uniform: theta_j >= x_c iff u_j >= F_j(x_c),
    one comparison. Starting from the grid point `guess`, collect the arms above it (lowering the
    point until one is), locate their cells, and keep the arms in the highest occupied cell. One
    arm there is the argmax; several get exact draws from their Beta law truncated to that cell
    (the conditional law given the cell) and the largest wins. Returns the argmax and the next guess,
    one cell below the argmax's (the next vector's maximum is often a little lower). The u_j
    are the next uniforms of run i's lane streams (u padded to whole blocks of LANES); the
    truncated draws use its scalar stream st."""
    K = F.shape[0]
    m = F.shape[1] - 1
    fill_lanes(lanes[i], u)
    c = min(max(guess, 0), m - 1)
    while True:                                  # the arms at or above x_c, listed without branches
        nabove = 0
        for j in range(K):
            cand[nabove] = j
            nabove += u[j] >= F[j, c]
        if nabove > 0 or c == 0:
            break
        c = max(c - 8, 0)
    top = -1
    ntop = 0
    for q in range(nabove):                      # their cells; the top cell's arms go to cand[:ntop]
        j = cand[q]                              # (ntop <= q: only entries already read are overwritten)
        cj = c
        while cj < m - 1 and u[j] >= F[j, cj + 1]:
            cj += 1
        if cj > top:
            top = cj
            ntop = 1
            cand[0] = j
        elif cj == top:
            cand[ntop] = j
            ntop += 1
    if ntop == 1:
        return cand[0], top - 1
    best = -1.0
    arg = cand[0]
    for q in range(ntop):
        j = cand[q]
        x = truncated_beta(A[j], B[j], top, lx, l1x, st, i)
        if x > best:
            best = x
            arg = j
    return arg, top - 1


@njit(cache=True, error_model="numpy", _nrt=False)
def _rounds(mu, n, gaussian, nu, table, ties, st, lanes, i, lazy, T, S, A, B, C, theta, u, cursor, tie_i,
            XS, lx, l1x, F, G, W, lnB, cand):
    """The rounds of one run, on state allocated by `_run`. Compiled without reference counting
    (nothing here allocates): numba's atomic increments around inlined calls cost a third of the
    lazy sampler's time."""
    K = mu.shape[0]
    m = F.shape[1] - 1
    guess = m // 2
    for t in range(n):
        if t < 2 * K:
            k = t % K
        elif lazy:
            k, guess = lazy_argmax(F, A, B, u, cand, guess, lx, l1x, st, lanes, i)
            if next_double(st, i) >= 0.5:
                leader = k
                for _ in range(K + 1):
                    c, guess = lazy_argmax(F, A, B, u, cand, guess, lx, l1x, st, lanes, i)
                    if c != leader:
                        k = c
                        break
        else:
            _sample(theta, C, S, T, gaussian, nu, ties, tie_i, st, i)
            k = _argmax(theta, ties, tie_i, st, i)
            if _u(ties, tie_i, st, i) >= 0.5:
                leader = k
                for _ in range(K + 1):
                    _sample(theta, C, S, T, gaussian, nu, ties, tie_i, st, i)
                    c = _argmax(theta, ties, tie_i, st, i)
                    if c != leader:
                        k = c
                        break
        r = draw_stream(k, mu, gaussian, nu, table, cursor, st, i)
        if lazy:
            cdf_update(F, G, W, lnB, k, A[k], B[k], r, XS, lx, l1x)
        T[k] += 1.0
        S[k] += r
        A[k] += r
        B[k] += 1.0 - r
        if not gaussian and not lazy:
            C[k, 0], C[k, 1], C[k, 2], C[k, 3], C[k, 4], C[k, 5] = cheng_constants(A[k], B[k])


@njit(cache=True, error_model="numpy")
def _run(mu, n, gaussian, nu, table, ties, st, lanes, i):
    K = mu.shape[0]
    T = np.zeros(K)
    S = np.zeros(K)
    A = np.ones(K)
    B = np.ones(K)
    C = np.empty((K, 6))
    for j in range(K):
        C[j, 0], C[j, 1], C[j, 2], C[j, 3], C[j, 4], C[j, 5] = cheng_constants(1.0, 1.0)
    theta = np.empty(K)
    u = lane_buffer(K)                           # the lazy argmax's uniforms
    cursor = np.zeros(K, np.int64)
    tie_i = np.zeros(1, np.int64)
    lazy = not gaussian and table.shape[0] == 0
    m = GRID if lazy else 1
    XS, lx, l1x = grid(m)
    F, G, W, lnB = cdf_init(K, m)
    cand = np.empty(K, np.int64)
    _rounds(mu, n, gaussian, nu, table, ties, st, lanes, i, lazy, T, S, A, B, C, theta, u, cursor, tie_i,
            XS, lx, l1x, F, G, W, lnB, cand)
    means = np.empty(K)
    for j in range(K):
        means[j] = S[j] / T[j] if T[j] > 0 else -np.inf
    return _argmax(means, ties, tie_i, st, i), T


@njit(cache=True, error_model="numpy")
def run(mu, n, gaussian, nu, table, ties, seed=0):
    """One run: live draws from the xoshiro256+ stream of `seed` (as `batch` gives it), or rewards
    from `table` and every uniform from `ties` (table mode). Returns (recommended arm, pulls)."""
    seeds = np.array([seed], np.uint64)
    return _run(mu, n, gaussian, nu, table, ties, seed_states(seeds), seed_lanes(seeds), 0)


@njit(cache=True, parallel=True, error_model="numpy")
def batch(means, n, gaussian, nu, seeds):
    R, K = means.shape
    rec = np.empty(R, np.int64)
    pulls = np.empty((R, K))
    st = seed_states(seeds.astype(np.uint64))
    lanes = seed_lanes(seeds.astype(np.uint64))
    for i in prange(R):
        rec[i], pulls[i] = _run(means[i], n, gaussian, nu, EMPTY_TABLE, EMPTY_TIES, st, lanes, i)
    return rec, pulls


# ---------------------------------------------------------------- plain Python reference
def _beta_reference(a: float, b: float, uniform) -> float:
    """Cheng's algorithm BB written out from its definition (closed forms when a or b is 1)."""
    if b == 1.0:
        return uniform() ** (1.0 / a)
    if a == 1.0:
        return 1.0 - uniform() ** (1.0 / b)
    alpha = a + b
    lo, hi = min(a, b), max(a, b)
    beta = math.sqrt((alpha - 2.0) / (2.0 * a * b - alpha))
    gamma = lo + 1.0 / beta
    while True:
        u1, u2 = uniform(), uniform()
        if not 0.0 < u1 < 1.0:
            continue
        v = beta * math.log(u1 / (1.0 - u1))
        w = lo * math.exp(v)
        z = u1 * u1 * u2
        r = gamma * v - math.log(4.0)
        s = lo + r - w
        if s + 1.0 + math.log(5.0) >= 5.0 * z:
            break
        t = math.log(z)
        if s > t or r + alpha * math.log(alpha / (hi + w)) >= t:
            break
    return w / (hi + w) if a == lo else hi / (hi + w)


def reference(source, K: int, n: int, gaussian: bool = False, nu: float = 0.0) -> tuple[int, np.ndarray]:
    """Plain TTTS; every uniform (posterior draws, the coin) and every reward comes from `source`."""
    T, S = np.zeros(K), np.zeros(K)
    A, B = np.ones(K), np.ones(K)

    def normal():
        u1, u2 = source.uniform(), source.uniform()
        return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)

    def sample():
        if gaussian:
            return np.array([S[j] / T[j] + nu / math.sqrt(T[j]) * normal() for j in range(K)])
        return np.array([_beta_reference(A[j], B[j], source.uniform) for j in range(K)])

    for t in range(n):
        if t < 2 * K:
            k = t % K
        else:
            k = source.argmax(sample())
            if source.uniform() >= 0.5:
                leader = k
                for _ in range(K + 1):
                    c = source.argmax(sample())
                    if c != leader:
                        k = c
                        break
        r = source.reward(k)
        T[k] += 1
        S[k] += r
        A[k] += r
        B[k] += 1 - r
    return source.argmax(np.where(T > 0, S / np.maximum(T, 1), -np.inf)), T
