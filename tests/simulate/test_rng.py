"""simulate.algorithms._rng: xoshiro256+ seeded by splitmix64, and its SIMD lanes, against the
definitions written out with Python integers."""

import math

import numpy as np
import pytest
from numba import njit

from simulate.algorithms._rng import next_double, normal, seed_states


def _splitmix64(seed: int, count: int) -> list[int]:
    """The first `count` outputs of splitmix64 started at `seed`, with Python integers."""
    mask = (1 << 64) - 1
    z, out = seed, []
    for _ in range(count):
        z = (z + 0x9E3779B97F4A7C15) & mask
        x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
        out.append(x ^ (x >> 31))
    return out


def _xoshiro256plus_outputs(state: list[int]):
    """The 64-bit outputs of xoshiro256+ from the state words `state`, written out with Python
    integers (Blackman & Vigna), without end."""
    mask = (1 << 64) - 1
    s = list(state)
    while True:
        yield (s[0] + s[3]) & mask
        t = (s[1] << 17) & mask
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & mask


def _xoshiro256plus_reference(state: list[int], count: int) -> list[float]:
    """`count` xoshiro256+ uniforms (an output's top 53 bits over 2^53) from the state words `state`."""
    words = _xoshiro256plus_outputs(state)
    return [(next(words) >> 11) * 2.0 ** -53 for _ in range(count)]


@njit
def _draws(seeds, count, gaussian):
    """`(runs, count)`: the first `count` draws of each run's compiled stream seeded from `seeds`, standard
    normals (`normal`) or uniforms (`next_double`)."""
    st = seed_states(seeds)
    out = np.empty((seeds.shape[0], count))
    for i in range(seeds.shape[0]):
        for j in range(count):
            out[i, j] = normal(st, i) if gaussian else next_double(st, i)
    return out


@pytest.mark.parametrize("seed", [0, 11, 2**63 + 5, 2**64 - 1])
def test_live_stream_is_xoshiro256plus_as_written_out(seed):
    """The compiled stream (its integer-to-double conversion included) against the plain
    definition, seeded by splitmix64."""
    got = _draws(np.array([seed], np.uint64), 2000, False)[0]
    assert got.tolist() == _xoshiro256plus_reference(_splitmix64(seed, 4), 2000)


@pytest.mark.parametrize("seed", [0, 11, 2**64 - 1])
def test_simd_lanes_are_xoshiro256plus_streams(seed):
    """`fill_lanes` (LLVM vector IR) against the plain definition: lane l of run seed's lane state
    is xoshiro256+ from splitmix64 outputs 4 + 4l .. 7 + 4l, out[LANES b + l] its b-th draw, and a
    second call continues every lane where the first stopped."""
    from simulate.algorithms._rng import LANES, fill_lanes, seed_lanes
    words = _splitmix64(seed, 4 + 4 * LANES)
    lanes = seed_lanes(np.array([seed], np.uint64))[0]
    first, second = np.empty(5 * LANES), np.empty(3 * LANES + 5)      # the 5 extra: whole blocks only
    fill_lanes(lanes, first)
    fill_lanes(lanes, second)
    got = np.concatenate([first, second[:3 * LANES]]).reshape(-1, LANES)
    for lane in range(LANES):
        assert got[:, lane].tolist() == _xoshiro256plus_reference(words[4 + 4 * lane:8 + 4 * lane], 8)
    assert len(set(got.ravel())) == got.size
    with pytest.raises(ValueError, match="4 \\* LANES"):
        fill_lanes(lanes[:LANES].copy(), first)


def _ziggurat_reference(words, x, f) -> tuple[float, str]:
    """One standard normal by the ziggurat of strips `x`, heights `f` from the 64-bit outputs `words`,
    in plain Python: the top 8 bits pick the strip, bit 55 the sign, bits 3-54 the position; (the
    normal, the path taken: 'strip', 'wedge' or 'tail')."""
    while True:
        b = next(words)
        i, sign = b >> 56, -1.0 if (b >> 55) & 1 else 1.0
        pos = ((b >> 3) & (2 ** 52 - 1)) * (x[i] * 2.0 ** -52)
        if pos < x[i + 1]:
            return sign * pos, "strip"
        if i > 0:
            if f[i] + (next(words) >> 11) * 2.0 ** -53 * (f[i + 1] - f[i]) < math.exp(-0.5 * pos * pos):
                return sign * pos, "wedge"
            continue
        while True:
            t = -math.log1p(-(next(words) >> 11) * 2.0 ** -53) / x[1]
            y = -math.log1p(-(next(words) >> 11) * 2.0 ** -53)
            if y + y > t * t:
                return sign * (x[1] + t), "tail"


def test_normal_is_the_ziggurat_as_written_out():
    """The compiled `normal` against the ziggurat written out with Python integers and floats, draw
    for draw over 60000 draws of three streams, every path taken (the inner rectangles, the wedges and
    the tail)."""
    from simulate.algorithms._rng import ZIG_F, ZIG_X
    paths = set()
    x, f = ZIG_X.tolist(), ZIG_F.tolist()
    for seed in (0, 7, 2 ** 64 - 1):
        words = _xoshiro256plus_outputs(_splitmix64(seed, 4))
        want = [_ziggurat_reference(words, x, f) for _ in range(20000)]
        paths |= {p for _, p in want}
        assert _draws(np.array([seed], np.uint64), 20000, True)[0].tolist() == [z for z, _ in want]
    assert paths == {"strip", "wedge", "tail"}


def test_the_ziggurat_strips_have_equal_areas():
    """`ziggurat_table`: strips of one area v under exp(-x^2/2), the base's rectangle standing for the
    tail beyond r (x[0] f(r) = r f(r) + the tail's area), edges decreasing from r to 0 at height 1. The
    same construction with 128 strips gives its own r (where the recurrence closes)."""
    from scipy import stats

    from simulate.algorithms._rng import LAYERS, ziggurat_table
    for layers in (LAYERS, 128):
        x, f = ziggurat_table(layers)
        assert x.shape == (layers + 1,) and x[-1] == 0.0 and f[-1] == 1.0 and np.all(np.diff(x) < 0)
        v = x[0] * f[1]
        tail = math.sqrt(2 * math.pi) * stats.norm.sf(x[1])
        assert v == pytest.approx(x[1] * f[1] + tail, rel=1e-14)
        areas = x[1:-1] * (f[2:] - f[1:-1])
        assert np.max(np.abs(areas / v - 1)) < 1e-12
    assert ziggurat_table(128)[0][1] < ziggurat_table(LAYERS)[0][1]       # fewer strips: the tail starts earlier


def test_normal_draws_are_standard_normal():
    """In law (fixed seeds, so the verdicts are fixed): 2 million compiled draws pass Kolmogorov-Smirnov
    against N(0, 1) at level 1e-6, and the counts beyond the base strip's edge r, in each half line and
    in strips' bands, are within exact binomial intervals at level 1e-9 of the normal's masses."""
    from scipy import stats

    from simulate.algorithms._rng import ZIG_X
    z = _draws(np.arange(20, dtype=np.uint64), 100_000, True).ravel()
    assert stats.kstest(z, "norm").pvalue > 1e-6
    r = ZIG_X[1]
    edges = [(r, np.inf), (-np.inf, -r), (ZIG_X[200], ZIG_X[199]), (-ZIG_X[2], -ZIG_X[3]), (0.0, ZIG_X[255])]
    for lo, hi in edges:
        k = int(np.count_nonzero((z > lo) & (z <= hi)))
        p = stats.norm.cdf(hi) - stats.norm.cdf(lo)
        ci = stats.binomtest(k, z.size).proportion_ci(1 - 1e-9, method="exact")
        assert ci.low <= p <= ci.high, (lo, hi, k, p * z.size)
