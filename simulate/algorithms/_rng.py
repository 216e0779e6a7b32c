"""A per-run random stream for kernels that interleave runs: xoshiro256+ (Blackman & Vigna),
seeded from a 64-bit seed through splitmix64. Each run owns a row of a `(R, 4)` uint64 state, so a
run's draws do not depend on which thread or block processes it."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

_M = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def seed_states(seeds):
    """`(R, 4)` xoshiro256+ states from R 64-bit seeds (splitmix64)."""
    R = seeds.shape[0]
    st = np.empty((R, 4), np.uint64)
    for i in range(R):
        z = np.uint64(seeds[i])
        for j in range(4):
            z = z + np.uint64(0x9E3779B97F4A7C15)
            x = z
            x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            st[i, j] = x ^ (x >> np.uint64(31))
    return st


@njit(cache=True, inline="always")
def _step(s0, s1, s2, s3):
    """One xoshiro256+ step: (uniform double in [0, 1), next state)."""
    result = s0 + s3
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    # the top 53 bits fit an int64, whose conversion to double is one instruction (uint64's is a
    # branchy sequence without AVX-512); same value either way
    return float(np.int64(result >> np.uint64(11))) * (1.0 / 9007199254740992.0), s0, s1, s2, s3


@njit(cache=True, inline="always")
def next_double(st, i):
    """A uniform double in [0, 1) from run i's stream."""
    u, st[i, 0], st[i, 1], st[i, 2], st[i, 3] = _step(st[i, 0], st[i, 1], st[i, 2], st[i, 3])
    return u


@njit(cache=True, inline="always")
def box_muller(u1, u2):
    """Two independent standard normals (r cos 2 pi u2, r sin 2 pi u2), r = sqrt(-2 log(1 - u1)),
    from two uniforms in [0, 1). Kernels that need one normal take the cosine."""
    r = math.sqrt(-2.0 * math.log(1.0 - u1))
    return r * math.cos(2.0 * math.pi * u2), r * math.sin(2.0 * math.pi * u2)


@njit(cache=True, inline="always")
def next_normal(st, spare, i):
    """A standard normal from run i's stream (Box-Muller; the second value is kept in spare[i])."""
    if not np.isnan(spare[i]):
        z = spare[i]
        spare[i] = np.nan
        return z
    z, spare[i] = box_muller(next_double(st, i), next_double(st, i))
    return z


@njit(cache=True, inline="always")
def fill_doubles(st, i, out):
    """out[:] = the next out.size uniforms of run i's stream, the same values as that many
    `next_double` calls, with the state kept in registers for the loop."""
    s0 = st[i, 0]
    s1 = st[i, 1]
    s2 = st[i, 2]
    s3 = st[i, 3]
    for j in range(out.shape[0]):
        out[j], s0, s1, s2, s3 = _step(s0, s1, s2, s3)
    st[i, 0] = s0
    st[i, 1] = s1
    st[i, 2] = s2
    st[i, 3] = s3
