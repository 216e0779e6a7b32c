"""simulate.algorithms._rng: xoshiro256+ seeded by splitmix64, and its SIMD lanes, against the
definitions written out with Python integers."""

import numpy as np
import pytest


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


def _xoshiro256plus_reference(state: list[int], count: int) -> list[float]:
    """`count` xoshiro256+ uniforms from the state words `state`, written out with Python
    integers (Blackman & Vigna)."""
    mask = (1 << 64) - 1
    s = list(state)
    out = []
    for _ in range(count):
        out.append((((s[0] + s[3]) & mask) >> 11) * 2.0 ** -53)
        t = (s[1] << 17) & mask
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & mask
    return out


@pytest.mark.parametrize("seed", [0, 11, 2**63 + 5, 2**64 - 1])
def test_live_stream_is_xoshiro256plus_as_written_out(seed):
    """The compiled stream (its integer-to-double conversion included) against the plain
    definition, seeded by splitmix64."""
    from numba import njit

    from simulate.algorithms._rng import next_double, seed_states

    @njit
    def draws(seed, count):
        st = seed_states(np.array([seed], np.uint64))
        out = np.empty(count)
        for j in range(count):
            out[j] = next_double(st, 0)
        return out
    assert draws(seed, 2000).tolist() == _xoshiro256plus_reference(_splitmix64(seed, 4), 2000)


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
