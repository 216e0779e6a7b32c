"""An exact Beta(a, b) sampler from uniforms only (a, b >= 1), for TTTS's posterior draws: closed
forms when a or b is 1 (Beta(a, 1) = U^(1/a), Beta(1, b) = 1 - U^(1/b)), otherwise Cheng's (1978)
algorithm BB, with its constants computed once per arm and parameter pair (`cheng_constants`).
Uniforms come from a source (`sources.uniform`): in table mode the kernel reads the very uniforms
`beta_reference`, the algorithm written out from Cheng's definition, reads.
"""

from __future__ import annotations

import math

from numba import njit

from .sources import uniform

LOG4 = math.log(4.0)
ONE_PLUS_LOG5 = 1.0 + math.log(5.0)


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
def beta_draw(kind, lo, hi, tot, bb, cc, src, i):
    """An exact Beta draw from cached `cheng_constants` (lo/hi are a/b for the closed forms)."""
    if kind == 0:
        return uniform(src, i) ** (1.0 / lo)
    if kind == 1:
        return 1.0 - uniform(src, i) ** (1.0 / hi)
    while True:
        u1 = uniform(src, i)
        u2 = uniform(src, i)
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


# ---------------------------------------------------------------- plain Python reference
def beta_reference(a: float, b: float, uniform) -> float:
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
