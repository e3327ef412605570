"""Counter-based random numbers: Philox-4xW-R (Salmon, Moraes, Dror and Shaw,
"Parallel random numbers: as easy as 1, 2, 3", SC'11) with Triton's
conventions, so that a seed and offsets give the numbers Triton (3.4 and
later, after triton-lang/triton#6832) gives:

  * randint4x / randint / rand / randn always run Philox-4x32 and return
    uint32 words: counter = (low 32 bits of the offset, bits 32..63 of the
    offset or 0 when it is 32 bits wide or narrower, 0, 0), where the low
    word is the offset's value converted to uint32 (narrower signed offsets
    are sign-extended); key = (low 32 bits of the seed, high 32 bits), the
    seed converted to uint64 first (so a negative int32 seed is
    sign-extended);
  * philox itself follows the width of its counters: 32-bit counters run
    Philox-4x32 keyed as above, 64-bit counters Philox-4x64 with
    key = (seed, 0), the zero a 1-element block as in Triton;
  * R rounds (10 by default), each
        (c0, c1, c2, c3) <- (hi(B*c2) ^ c1 ^ k0, lo(B*c2), hi(A*c0) ^ c3 ^ k1, lo(A*c0))
    followed by the Weyl key bump (k0, k1) += (KEY_A, KEY_B) (the bump
    after the last round is never used);
  * uint -> float in [0, 1): reinterpret as signed, map negative x to
    -x - 1 (so that 0 <= x < 2**(W-1)), multiply by the largest scale that
    keeps the result below 1.0 in fp32;
  * normal numbers by Box-Muller on the first two uniforms.
"""
from ..runtime.jit import jit
from . import core, math, semantic  # noqa: F401
from .core import builtin, constexpr

N_ROUNDS_DEFAULT = constexpr(10)

# Philox-4x32 constants: key increments (Weyl sequence) and round multipliers
PHILOX_KEY_A = constexpr(0x9E3779B9)
PHILOX_KEY_B = constexpr(0xBB67AE85)
PHILOX_ROUND_A = constexpr(0xD2511F53)
PHILOX_ROUND_B = constexpr(0xCD9E8D57)
# Philox-4x64 constants
PHILOX64_KEY_A = constexpr(0x9E3779B97F4A7C15)
PHILOX64_KEY_B = constexpr(0xBB67AE8584CAA73B)
PHILOX64_ROUND_A = constexpr(0xD2E7470EE14C6C93)
PHILOX64_ROUND_B = constexpr(0xCA5A826395121157)


@jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """`n_rounds` rounds of Philox on the counter (c0, c1, c2, c3) with the key
    (k0, k1), all uint32 or all uint64."""
    if c0.dtype == core.uint32:
        key_a: constexpr = PHILOX_KEY_A
        key_b: constexpr = PHILOX_KEY_B
        mul_a: constexpr = PHILOX_ROUND_A
        mul_b: constexpr = PHILOX_ROUND_B
    else:
        core.static_assert(c0.dtype == core.uint64, "philox_impl needs uint32 or uint64 counters")
        key_a: constexpr = PHILOX64_KEY_A
        key_b: constexpr = PHILOX64_KEY_B
        mul_a: constexpr = PHILOX64_ROUND_A
        mul_b: constexpr = PHILOX64_ROUND_B
    for _ in core.static_range(n_rounds):
        old_c0, old_c2 = c0, c2
        c0 = math.umulhi(mul_b, old_c2) ^ c1 ^ k0
        c2 = math.umulhi(mul_a, old_c0) ^ c3 ^ k1
        c1 = mul_b * old_c2
        c3 = mul_a * old_c0
        k0 = k0 + key_a
        k1 = k1 + key_b
    return c0, c1, c2, c3


@builtin
def _philox_inputs(seed, c0, c1, c2, c3):
    """The counter as unsigned words of c0's width, and the key made of the seed."""
    seed = semantic.to_tensor(seed)
    if not seed.dtype.is_int():
        raise core.SemanticError(f"the seed of a random number generator must be an integer, got {seed.dtype}")
    seed = semantic.cast(seed, core.uint64)
    counters = [semantic.to_tensor(c) for c in (c0, c1, c2, c3)]
    bits = counters[0].dtype.primitive_bitwidth
    if bits == 32:
        word = core.uint32
        k0 = semantic.cast(semantic.and_(seed, 0xFFFFFFFF), word)
        k1 = semantic.cast(semantic.lshr(seed, 32), word)
    elif bits == 64:
        word = core.uint64
        k0 = seed
        k1 = semantic.full([1], 0, core.uint64)  # a 1-element block, as Triton makes it
    else:
        raise core.SemanticError(f"philox needs 32- or 64-bit counters, got {counters[0].dtype}")
    counters = [semantic.bitcast(c, word) for c in counters]
    return tuple(counters) + (k0, k1)


@jit
def philox(seed, c0, c1, c2, c3, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """Philox on the counter (c0, c1, c2, c3) keyed by the integer `seed`."""
    c0, c1, c2, c3, k0, k1 = _philox_inputs(seed, c0, c1, c2, c3)
    return philox_impl(c0, c1, c2, c3, k0, k1, n_rounds)


@builtin
def _offset_counter(offset):
    """The two low counter words of a block of offsets, as uint32: the offset's
    value converted to uint32, and its bits 32..63 (zeros for offsets of 32
    bits or fewer); and a block of uint32 zeros for the two others."""
    offset = semantic.to_tensor(offset)
    low = semantic.cast(offset, core.uint32)
    zero = semantic.mul(low, 0)
    if offset.dtype.primitive_bitwidth <= 32:
        return low, zero, zero
    if not offset.dtype.is_int():
        raise core.SemanticError(f"random offsets wider than 32 bits must be integers, got {offset.dtype}")
    high = semantic.cast(semantic.shr(offset, 32), core.uint32)
    return low, high, zero


@jit
def randint4x(seed, offset, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """Four blocks of random uint32 for `seed` and the `offset` block
    (Philox-4x32 whatever the width of the offsets; 64-bit offsets fill the
    first two counter words)."""
    low, high, zero = _offset_counter(offset)
    return philox(seed, low, high, zero, zero, n_rounds)


@jit
def randint(seed, offset, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """One block of random unsigned integers for `seed` and `offset`."""
    first, _, _, _ = randint4x(seed, offset, n_rounds)
    return first


@builtin
def _uniform_scale(x):
    """Bits reinterpreted as signed, and the factor that maps [0, 2**(W-1)) into [0, 1) in fp32."""
    bits = x.dtype.primitive_bitwidth
    if not x.dtype.is_int() or bits not in (32, 64):
        raise core.SemanticError(f"uint_to_uniform_float needs 32- or 64-bit integers, got {x.dtype}")
    signed = core.int32 if bits == 32 else core.int64
    # (2**23 - 1) / 2**23 / 2**(W - 1), rounded so that max * scale < 1.0
    scale = 4.6566127342e-10 if bits == 32 else 1.0842020432385337e-19
    return semantic.bitcast(x, signed), constexpr(scale)


@jit
def uint_to_uniform_float(x):
    """Random 32- or 64-bit integers -> float32 uniform in [0, 1)."""
    x, scale = _uniform_scale(x)
    x = core.where(x < 0, -x - 1, x)
    return x * scale


@jit
def rand(seed, offset, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """A block of float32 uniform in [0, 1) for `seed` and `offset`."""
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@jit
def rand4x(seed, offsets, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """Four blocks of float32 uniform in [0, 1)."""
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    u1 = uint_to_uniform_float(i1)
    u2 = uint_to_uniform_float(i2)
    u3 = uint_to_uniform_float(i3)
    u4 = uint_to_uniform_float(i4)
    return u1, u2, u3, u4


@jit
def pair_uniform_to_normal(u1, u2):
    """Box-Muller: two uniforms -> two independent standard normals."""
    u1 = core.maximum(1.0e-7, u1)
    theta = 6.283185307179586 * u2
    radius = math.sqrt(-2.0 * math.log(u1))
    return radius * math.cos(theta), radius * math.sin(theta)


@jit
def randn(seed, offset, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """A block of float32 standard normal numbers for `seed` and `offset`."""
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    n1, _ = pair_uniform_to_normal(uint_to_uniform_float(i1), uint_to_uniform_float(i2))
    return n1


@jit
def randn4x(seed, offset, n_rounds: constexpr = N_ROUNDS_DEFAULT):
    """Four blocks of float32 standard normal numbers."""
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4
