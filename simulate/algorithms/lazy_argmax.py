"""The argmax of independent Beta draws, exactly in law, without drawing them all (TTTS's posterior
argmax on Bernoulli arms).

Couple theta_j = F_j^{-1}(u_j) with u_j uniform: theta_j >= x iff u_j >= F_j(x), one comparison.
Each arm's Beta CDF is kept on a grid of `cells(K, n)` cells, updated after every pull by the exact
a -> a + 1, b -> b + 1 recurrences of the regularised incomplete beta function (`cdf_update`).
An argmax then needs one uniform and one comparison per arm to find the highest occupied cell, and
actual draws (`truncated_beta`, the Beta law conditioned on that cell) only for the arms that share
it. The K uniforms of one argmax come from the run's LANES extra streams, drawn LANES at a time in
SIMD registers (`_rng.fill_lanes`); the truncated draws from its scalar stream.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._rng import box_muller, fill_lanes, next_double

MIN_CELLS = 128      # the grid's cells [i/m, (i+1)/m), m from `cells`: finer cells share fewer arms
MAX_CELLS = 512      # (fewer truncated draws) but widen every CDF update's window; docs/bench.txt
                     # has the timings behind the rule


@njit(cache=True)
def cells(K, n):
    """The grid's cells for a run of K arms and budget n (any m gives the same law; only the time
    differs): the power of two from MIN_CELLS up to at least 4K, doubled for long runs (n >= 2000 K,
    where the posteriors end narrow), at most MAX_CELLS. Measured (docs/bench.txt): 128 cells best at
    K = 20, n = 12000; 256 at K = 20, n = 174400; 512 at K = 80, n = 400000; at K = 40, n = 114862
    (512 here) 256 and 512 within noise of each other."""
    m = MIN_CELLS
    while m < 4 * K and m < MAX_CELLS:
        m *= 2
    if n >= 2000 * K and m < MAX_CELLS:
        m *= 2
    return m


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
    """The lazy sampler's state for K arms at Beta(1, 1): F[i, j] = I_{x_i}(a_j, b_j) (the CDF, one
    row per grid point, so that an argmax's scan of the K arms at one point reads contiguous memory);
    G[j, i] = x_i^a (1 - x_i)^b / B(a, b) (the recurrence term) on the window W[j] = (lo, hi) of
    interior points where G >= exp(CUT), and lnB[j] = log B(a_j, b_j)."""
    F = np.empty((m + 1, K))
    G = np.zeros((K, m + 1))
    W = np.empty((K, 2), np.int64)
    lnB = np.zeros(K)
    for j in range(K):
        for i in range(m + 1):
            F[i, j] = i / m
            G[j, i] = (i / m) * ((m - i) / m)
        W[j, 0] = 1
        W[j, 1] = m - 1
    return F, G, W, lnB


@njit(cache=True, error_model="numpy", inline="always")
def cdf_update(F, G, W, lnB, j, a, b, r, XS, lx, l1x):
    """Column j of F holds the Beta(a, b) CDF I_x(a, b) at x_i = i/m; turn it into the CDF after the
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
    m = F.shape[0] - 1
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
        F[i, j] = min(max(F[i, j] + s * g, 0.0), 1.0)
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


@njit(cache=True, inline="always")
def _log_kernel(a, b, x):
    """(a - 1) log x + (b - 1) log(1 - x), the Beta(a, b) log density up to its constant, at 0 < x < 1."""
    return (a - 1.0) * math.log(x) + (b - 1.0) * math.log1p(-x)


#: a cell whose envelope falls by less than this (in log density) from its highest point is sampled
#: by uniform proposals, steeper cells by proposals shaped like the envelope; chosen, not tuned
FLAT = 1.5
#: `envelope`'s proposal kinds
UNIFORM, NORMAL, EXPONENTIAL = 0, 1, 2


@njit(cache=True, error_model="numpy", inline="always")
def envelope(a, b, c, lx, l1x):
    """How `truncated_beta` samples Beta(a, b) (a, b >= 1) on the grid cell [lo, hi) = [c/m, (c+1)/m),
    m + 1 = len(lx): (kind, x0, f0, lam, toward, kmin, kmax, flo, fhi).

    The log density f(x) = (a - 1) log x + (b - 1) log(1 - x) is concave, with curvature
    -f'' = (a - 1)/x^2 + (b - 1)/(1 - x)^2 between
        kmin = (a - 1)/hi^2 + (b - 1)/(1 - lo)^2   and   kmax = (a - 1)/lo^2 + (b - 1)/(1 - hi)^2
    on the cell. Taylor's theorem at the cell's highest point x0 (the mode if the cell holds it, else
    the nearer end), with f0 = f(x0), lam = |f'(x0)| and d = |x - x0| (x = x0 + toward d; toward 0: the
    mode, either side), gives for every x in the cell
        f0 - lam d - kmax d^2/2  <=  f(x)  <=  f0 - lam d - kmin d^2/2,
    an envelope above and a squeeze below. Kinds:
    - UNIFORM where the envelope falls by less than FLAT across the cell (also the edge cells c = 0
      and m - 1, where kmax is infinite, and a = b = 1); flo, fhi: f at the cell's ends;
    - NORMAL where lam / sqrt(kmin) <= 1 (the mode inside or near the cell): a normal of variance
      1/kmin around the mode, or a half-normal from x0, under the envelope f0 - kmin d^2/2 (its slope
      term dropped; the squeeze keeps it);
    - EXPONENTIAL on steeper sides: rate lam from x0, truncated to the cell, under f0 - lam d (its
      curvature term dropped)."""
    m = lx.shape[0] - 1
    lo = c / m
    hi = (c + 1) / m
    flo = _log_density(a, b, c, lx, l1x)
    fhi = _log_density(a, b, c + 1, lx, l1x)
    mode = (a - 1.0) / (a + b - 2.0) if a + b > 2.0 else 0.5
    if lo < mode < hi:
        x0 = mode
        f0 = _log_kernel(a, b, mode)
        lam = 0.0
        toward = 0.0
    elif mode <= lo:
        x0 = lo
        f0 = flo
        lam = (b - 1.0) / (1.0 - lo) - (a - 1.0) / lo if c > 0 else 0.0
        toward = 1.0
    else:
        x0 = hi
        f0 = fhi
        lam = (a - 1.0) / hi - (b - 1.0) / (1.0 - hi) if c < m - 1 else 0.0
        toward = -1.0
    lam = max(lam, 0.0)
    kind = UNIFORM
    kmin = 0.0
    kmax = 0.0
    if 1 <= c <= m - 2 and a + b > 2.0:
        w = hi - lo
        kmin = (a - 1.0) / (hi * hi) + (b - 1.0) / ((1.0 - lo) * (1.0 - lo))
        kmax = (a - 1.0) / (lo * lo) + (b - 1.0) / ((1.0 - hi) * (1.0 - hi))
        if lam * w + 0.5 * kmin * w * w >= FLAT:
            kind = NORMAL if lam * lam <= kmin else EXPONENTIAL
    return kind, x0, f0, lam, toward, kmin, kmax, flo, fhi


@njit(cache=True, error_model="numpy", inline="always")
def truncated_beta(a, b, c, lx, l1x, st, i):
    """An exact Beta(a, b) draw (a, b >= 1) conditioned on the grid cell [lo, hi) = [c/m, (c+1)/m),
    m + 1 = len(lx), by rejection from the proposal `envelope` chooses (uniform, normal or
    exponential), each accepted with probability exp(f(x) - its envelope at x). A draw is accepted
    without a logarithm when the squeeze decides (u < 1 + a lower bound of that log-ratio, as
    e^y >= 1 + y): for uniform proposals the chord across the cell (f is concave, so above it), for
    the others the curvature bound kmax. The envelope is a bound in exact arithmetic; computed, it can
    be off by the rounding of f (about 1e-12 of a unit of log density)."""
    m = lx.shape[0] - 1
    lo = c / m
    hi = (c + 1) / m
    kind, x0, f0, lam, toward, kmin, kmax, flo, fhi = envelope(a, b, c, lx, l1x)
    if kind == NORMAL:                            # normal or half-normal proposals, sd 1/sqrt(kmin)
        sd = 1.0 / math.sqrt(kmin)
        spread = kmax - kmin
        while True:
            z1, z2 = box_muller(next_double(st, i), next_double(st, i))
            for z in (z1, z2):
                x = x0 + sd * z if toward == 0.0 else x0 + toward * sd * abs(z)
                if x < lo or x >= hi:
                    continue
                d = abs(x - x0)
                u = next_double(st, i)
                if u < 1.0 - lam * d - 0.5 * spread * d * d:
                    return x
                if u < math.exp(_log_kernel(a, b, x) - f0 + 0.5 * kmin * d * d):
                    return x
    if kind == EXPONENTIAL:                       # rate lam from x0, truncated to the cell
        tail = -math.expm1(-lam * (hi - lo))
        while True:
            d = -math.log1p(-next_double(st, i) * tail) / lam
            x = x0 + toward * d
            if x < lo or x >= hi:
                continue
            u = next_double(st, i)
            if u < 1.0 - 0.5 * kmax * d * d:
                return x
            if u < math.exp(_log_kernel(a, b, x) - f0 + lam * d):
                return x
    squeeze = flo > -np.inf and fhi > -np.inf
    while True:
        v = next_double(st, i)
        x = lo + (hi - lo) * v
        if x <= 0.0 or x >= 1.0:
            continue
        u = next_double(st, i)
        if squeeze and u < 1.0 + (flo + v * (fhi - flo) - f0):
            return x
        if u < math.exp(_log_kernel(a, b, x) - f0):
            return x


# not inline="always": numba's IR inlining of it took about 10 s of TTTS's 22 s of compiling; LLVM
# inlines it as well (the same draws, and runs within the timings' noise: docs/bench.txt)
@njit(cache=True, error_model="numpy")
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
    K = F.shape[1]
    m = F.shape[0] - 1
    fill_lanes(lanes[i], u)
    c = min(max(guess, 0), m - 1)
    while True:                                  # the arms at or above x_c, listed without branches
        nabove = 0
        for j in range(K):
            cand[nabove] = j
            nabove += u[j] >= F[c, j]
        if nabove > 0 or c == 0:
            break
        c = max(c - 8, 0)
    top = -1
    ntop = 0
    for q in range(nabove):                      # their cells; the top cell's arms go to cand[:ntop]
        j = cand[q]                              # (ntop <= q: only entries already read are overwritten)
        cj = c
        while cj < m - 1 and u[j] >= F[cj + 1, j]:
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
