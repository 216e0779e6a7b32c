"""A per-run random stream for kernels that interleave runs: xoshiro256+ (Blackman & Vigna),
seeded from a 64-bit seed through splitmix64. Each run owns a row of a `(R, 4)` uint64 state, so a
run's draws do not depend on which thread or block processes it.

Kernels that need many uniforms at once (TTTS's argmax sampler: K per posterior argmax) can also
give a run LANES further xoshiro256+ streams advanced together in one SIMD register set
(`seed_lanes`, `fill_lanes`): numba does not vectorise the scalar generator, so `fill_lanes` is
written as LLVM vector IR. Each lane's draws are exactly those of the scalar generator started
from that lane's state (tested against xoshiro256+ written out with Python integers); a uniform
costs a fraction of a scalar draw (docs/bench.txt).

Standard normals for the reward streams come from a ziggurat (`normal`, `ziggurat_table`): one 64-bit
output and one comparison 98.5% of the time, where Box-Muller (`box_muller`, still used where a
normal is read off two table uniforms) costs a logarithm and a cosine.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

#: streams advanced together by `fill_lanes` (one AVX-512 register of uint64, two AVX2 registers)
LANES = 8

#: (x >> 11) * TO_UNIT maps a 64-bit output to a uniform double in [0, 1) (its top 53 bits)
TO_UNIT = 1.0 / 9007199254740992.0


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def seed_states(seeds, words=4):
    """`(R, words)` uint64 from R 64-bit seeds: row i holds the first `words` outputs of splitmix64
    started at seeds[i]; its first 4 are run i's xoshiro256+ state."""
    R = seeds.shape[0]
    st = np.empty((R, words), np.uint64)
    for i in range(R):
        z = np.uint64(seeds[i])
        for j in range(words):
            z = z + np.uint64(0x9E3779B97F4A7C15)
            x = z
            x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            st[i, j] = x ^ (x >> np.uint64(31))
    return st


@njit(cache=True, inline="always")
def _bits(s0, s1, s2, s3):
    """One xoshiro256+ step: (its 64-bit output, next state)."""
    result = s0 + s3
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True, inline="always")
def _step(s0, s1, s2, s3):
    """One xoshiro256+ step: (uniform double in [0, 1), next state)."""
    result, s0, s1, s2, s3 = _bits(s0, s1, s2, s3)
    # the top 53 bits fit an int64, whose conversion to double is one instruction (uint64's is a
    # branchy sequence without AVX-512); same value either way
    return float(np.int64(result >> np.uint64(11))) * TO_UNIT, s0, s1, s2, s3


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


#: the ziggurat's strips (`normal`)
LAYERS = 256


def _density(x: float) -> float:
    return math.exp(-0.5 * x * x)


def _strips(r: float, layers: int):
    """The strips' right edges x[1..layers-1] from x[1] = r, each strip of area v (the base's: r f(r)
    plus the tail beyond r); (the last strip's top f value, which is 1 when r is right, v, x)."""
    v = r * _density(r) + math.sqrt(math.pi / 2) * math.erfc(r / math.sqrt(2))
    x = [r]
    for _ in range(layers - 2):
        y = v / x[-1] + _density(x[-1])
        if y >= 1.0:
            return math.inf, v, x
        x.append(math.sqrt(-2.0 * math.log(y)))
    return v / x[-1] + _density(x[-1]), v, x


def ziggurat_table(layers: int = LAYERS) -> tuple[np.ndarray, np.ndarray]:
    """(x, f) of a ziggurat of `layers` strips of equal area v under f(x) = exp(-x^2/2) on x >= 0
    (Marsaglia & Tsang 2000, whose abstract states the method; the strips and r are computed here):
    x[0] = v / f(r) is the base strip's width (the rectangle [0, x[0]) x [0, f(r)) has area v, its
    part beyond r standing for the tail), x[1] = r, strip i >= 1 spans heights f(x[i]) to f(x[i+1])
    at width x[i], and x[layers] = 0 (height 1). r is the root, found by bisection to the last bit,
    at which the recurrence x[i+1] = f^-1(v / x[i] + f(x[i])) reaches height 1 at the top strip
    (every strip's area is v to 1e-12 relative, the rounding of f). f = exp(-x^2/2) of each x."""
    lo, hi = 3.0, 4.0                   # r = 3.654... for 256 strips; a smaller r overshoots height 1
    while True:
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        top = _strips(mid, layers)[0]
        lo, hi = (mid, hi) if top > 1.0 else (lo, mid)
    _, v, edges = _strips(hi, layers)
    x = np.array([v / _density(hi)] + edges + [0.0])
    return x, np.exp(-0.5 * x * x)


#: the module's ziggurat, frozen into the compiled `normal` as constants (no array is passed in a
#: kernel's reward loop: numba's reference counting of an array argument around the rejection loops
#: cost 60 ns a draw, measured, more than Box-Muller)
ZIG_X, ZIG_F = ziggurat_table()
ZIG_W = ZIG_X * 2.0 ** -52              # x[i] / 2^52: a 52-bit integer times it is uniform on [0, x[i])


@njit(cache=True, error_model="numpy", inline="always")
def _ziggurat(s0, s1, s2, s3):
    """A standard normal from the stream in state (s0..s3), and the state after it. Each try reads
    one 64-bit output: its top 8 bits pick the strip, bit 55 the sign, bits 3-54 the uniform
    position x in the strip (disjoint bits: the strip and the position are independent; the weak
    low bits of xoshiro256+ are not used). Inside the strip's inner rectangle (x < x[i+1]) x is
    returned. Otherwise one more uniform: in strip i >= 1 the point's height, accepted below the
    density (else a new try); in the base strip past r, a draw from the tail beyond r by the
    exponential test (x = -log(u1) / r, y = -log(u2), accepted when 2 y > x^2; written so in Go's
    math/rand NormFloat64), returned as r + x. Inlined into a kernel compiled with FMA contraction
    (RUE's), the wedge's f[i] + u (f[i+1] - f[i]) may be fused; its decision can then differ from
    another kernel's only when the two roundings straddle exp(-x^2/2), about 2^-52 of wedge draws."""
    while True:
        b, s0, s1, s2, s3 = _bits(s0, s1, s2, s3)
        i = np.int64(b >> np.uint64(56))
        sign = 1.0 - 2.0 * float(np.int64((b >> np.uint64(55)) & np.uint64(1)))
        x = float(np.int64((b >> np.uint64(3)) & np.uint64(0xFFFFFFFFFFFFF))) * ZIG_W[i]
        if x < ZIG_X[i + 1]:
            return sign * x, s0, s1, s2, s3
        if i > 0:
            u, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
            if ZIG_F[i] + u * (ZIG_F[i + 1] - ZIG_F[i]) < math.exp(-0.5 * x * x):
                return sign * x, s0, s1, s2, s3
        else:
            while True:
                u1, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
                u2, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
                t = -math.log1p(-u1) / ZIG_X[1]
                y = -math.log1p(-u2)
                if y + y > t * t:
                    return sign * (ZIG_X[1] + t), s0, s1, s2, s3


@njit(cache=True, error_model="numpy", inline="always")
def normal(st, i):
    """A standard normal from run i's stream (`_ziggurat`); the state is read once and written back."""
    z, st[i, 0], st[i, 1], st[i, 2], st[i, 3] = _ziggurat(st[i, 0], st[i, 1], st[i, 2], st[i, 3])
    return z


@njit(cache=True)
def seed_lanes(seeds):
    """`(R, 4 LANES)` lane states for `fill_lanes`: run i's lane l takes splitmix64 outputs
    4 + 4 l .. 7 + 4 l of seeds[i] (outputs 0-3 are its scalar state), stored word-major (word w
    of lane l at column w LANES + l) so that each word of all lanes is one vector."""
    words = seed_states(seeds, 4 + 4 * LANES)
    out = np.empty((seeds.shape[0], 4 * LANES), np.uint64)
    for i in range(seeds.shape[0]):
        for lane in range(LANES):
            for w in range(4):
                out[i, w * LANES + lane] = words[i, 4 + 4 * lane + w]
    return out


@intrinsic
def _fill_lanes(typingctx, lanes, out, blocks):
    """LLVM vector IR for `fill_lanes`: the four state words of all lanes are <LANES x i64> values
    kept in registers across the loop; each iteration is one xoshiro256+ step of every lane and
    stores LANES doubles ((x >> 11) * TO_UNIT, as `_step`)."""
    if not (isinstance(lanes, types.Array) and lanes.ndim == 1 and lanes.layout == "C"
            and lanes.dtype == types.uint64 and isinstance(out, types.Array) and out.ndim == 1
            and out.layout == "C" and out.dtype == types.float64 and isinstance(blocks, types.Integer)):
        return None
    sig = types.void(lanes, out, blocks)

    def codegen(context, builder, sig, args):
        state = context.make_array(sig.args[0])(context, builder, args[0])
        dest = context.make_array(sig.args[1])(context, builder, args[1])
        n = context.cast(builder, args[2], sig.args[2], types.int64)
        vint = ir.VectorType(ir.IntType(64), LANES)
        vdbl = ir.VectorType(ir.DoubleType(), LANES)

        def splat(x):
            return ir.Constant(vint, [x] * LANES)
        words = builder.bitcast(state.data, vint.as_pointer())
        ptrs = [builder.gep(words, [ir.Constant(ir.IntType(32), w)]) for w in range(4)]
        start = [builder.load(p, align=8) for p in ptrs]
        outv = builder.bitcast(dest.data, vdbl.as_pointer())
        entry = builder.block
        loop = builder.append_basic_block("lanes.loop")
        done = builder.append_basic_block("lanes.done")
        zero = ir.Constant(ir.IntType(64), 0)
        builder.cbranch(builder.icmp_signed(">", n, zero), loop, done)
        builder.position_at_end(loop)
        k = builder.phi(ir.IntType(64))
        phis = [builder.phi(vint) for _ in range(4)]
        k.add_incoming(zero, entry)
        for p, v in zip(phis, start):
            p.add_incoming(v, entry)
        s0, s1, s2, s3 = phis
        result = builder.add(s0, s3)
        t = builder.shl(s1, splat(17))
        s2 = builder.xor(s2, s0)
        s3 = builder.xor(s3, s1)
        s1 = builder.xor(s1, s2)
        s0 = builder.xor(s0, s3)
        s2 = builder.xor(s2, t)
        s3 = builder.or_(builder.shl(s3, splat(45)), builder.lshr(s3, splat(19)))
        u = builder.sitofp(builder.lshr(result, splat(11)), vdbl)
        u = builder.fmul(u, ir.Constant(vdbl, [TO_UNIT] * LANES))
        builder.store(u, builder.gep(outv, [k]), align=8)
        k1 = builder.add(k, ir.Constant(ir.IntType(64), 1))
        body = builder.block
        new = (s0, s1, s2, s3)
        k.add_incoming(k1, body)
        for p, v in zip(phis, new):
            p.add_incoming(v, body)
        builder.cbranch(builder.icmp_signed("<", k1, n), loop, done)
        builder.position_at_end(done)
        finals = [builder.phi(vint) for _ in range(4)]
        for w in range(4):
            finals[w].add_incoming(start[w], entry)
            finals[w].add_incoming(new[w], body)
        for w in range(4):
            builder.store(finals[w], ptrs[w], align=8)
        return context.get_dummy_value()
    return sig, codegen


@njit(cache=True, inline="always")
def fill_lanes(lanes, out):
    """out[:] = the next uniforms of the LANES streams in `lanes` (a C-contiguous row of
    `seed_lanes`): out[LANES b + l] is lane l's b-th draw. out.size is rounded down to whole
    blocks of LANES (callers pad); bounds are checked, so a short array cannot be overrun."""
    if lanes.shape[0] != 4 * LANES:
        raise ValueError("fill_lanes: lanes must hold 4 * LANES state words")
    _fill_lanes(lanes, out, out.shape[0] // LANES)


@njit(cache=True)
def lane_buffer(K):
    """An array for K uniforms from `fill_lanes`, padded to whole blocks of LANES."""
    return np.empty(-(-K // LANES) * LANES)
