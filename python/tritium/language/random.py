"""Counter-based random numbers: Philox 4x32 with 10 rounds (Salmon et al.,
"Parallel random numbers: as easy as 1, 2, 3", SC'11), with Triton's
constants and conversions so that the same seed and offsets give the same
numbers as Triton."""
from ..runtime.jit import jit
from . import core, math, semantic  # noqa: F401
from .core import constexpr

N_ROUNDS_DEFAULT = constexpr(10)
PHILOX_KEY_A = constexpr(0x9E3779B9)
PHILOX_KEY_B = constexpr(0xBB67AE85)
PHILOX_ROUND_A = constexpr(0xD2511F53)
PHILOX_ROUND_B = constexpr(0xCD9E8D57)


@jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """n_rounds of Philox 4x32 on counters c0..c3 (uint32) with key k0, k1."""
    for _ in core.static_range(n_rounds):
        _c0, _c2 = c0, c2
        c0 = math.umulhi(PHILOX_ROUND_B, _c2) ^ c1 ^ k0
        c2 = math.umulhi(PHILOX_ROUND_A, _c0) ^ c3 ^ k1
        c1 = PHILOX_ROUND_B * _c2
        c3 = PHILOX_ROUND_A * _c0
        k0 = k0 + PHILOX_KEY_A
        k1 = k1 + PHILOX_KEY_B
    return c0, c1, c2, c3


@jit
def philox(seed, c0, c1, c2, c3, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    seed = core.cast(seed, core.uint64)
    seed_hi = core.cast((seed >> 32) & 0xFFFFFFFF, core.uint32)
    seed_lo = core.cast(seed & 0xFFFFFFFF, core.uint32)
    c0 = core.cast(c0, core.uint32, bitcast=True)
    c1 = core.cast(c1, core.uint32, bitcast=True)
    c2 = core.cast(c2, core.uint32, bitcast=True)
    c3 = core.cast(c3, core.uint32, bitcast=True)
    return philox_impl(c0, c1, c2, c3, seed_lo, seed_hi, n_rounds)


@jit
def randint4x(seed, offset, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """Four blocks of random uint32 for `seed` and `offset` (int32 tensor)."""
    offset = core.cast(offset, core.uint32, bitcast=True)
    _0 = offset * 0
    return philox(seed, offset, _0, _0, _0, n_rounds)


@jit
def randint(seed, offset, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """One block of random uint32 for `seed` and `offset`."""
    ret, _, _, _ = randint4x(seed, offset, n_rounds)
    return ret


@jit
def uint_to_uniform_float(x):
    """uint32 -> float32 uniform in [0, 1)."""
    x = core.cast(x, core.int32, bitcast=True)
    scale = 4.6566127342e-10
    x = core.where(x < 0, -x - 1, x)
    return x * scale


@jit
def rand(seed, offset, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """Uniform float32 in [0, 1) for `seed` and `offset`."""
    source = randint(seed, offset, n_rounds)
    return uint_to_uniform_float(source)


@jit
def randn(seed, offset, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """Standard normal float32 (Box-Muller) for `seed` and `offset`."""
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    u1 = uint_to_uniform_float(i1)
    u2 = uint_to_uniform_float(i2)
    u1 = core.maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = math.sqrt(-2.0 * math.log(u1))
    return r * math.cos(th)
