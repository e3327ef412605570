"""`tl.rand(seed, offsets)` computed on the host, for checking kernels that
draw random numbers (the corpus's seeded dropout): Philox-4x32-10 of the
counter (offset, 0, 0, 0) under the key (seed's low and high 32 bits), its
first word read as a signed int32, folded onto [0, 2**31) (x < 0 -> -x - 1)
and scaled by 4.6566127342e-10 in float32, as Triton's `uint_to_uniform_float`.

The words are held in int64 tensors (values below 2**32) and 32x32-bit
products split into 16-bit halves, so that nothing overflows 64 bits; the
array module `xp` is torch or numpy (both give the same operators and
`where`)."""

MASK32 = 0xFFFFFFFF
ROUND_A, ROUND_B = 0xD2511F53, 0xCD9E8D57
KEY_A, KEY_B = 0x9E3779B9, 0xBB67AE85
UNIFORM_SCALE = 4.6566127342e-10


def _mulhilo32(multiplier, x):
    """The high and low 32 bits of multiplier * x (x: words in int64)."""
    low_half = (x & 0xFFFF) * multiplier   # < 2**48
    high_half = (x >> 16) * multiplier     # < 2**48
    high = ((low_half >> 16) + high_half) >> 16
    low = (low_half + ((high_half & 0xFFFF) << 16)) & MASK32
    return high, low


def philox_first_word(seed, offsets, rounds=10):
    """Word 0 of Philox-4x32 over counters (offsets mod 2**32, 0, 0, 0)."""
    c0 = offsets & MASK32
    c1 = c2 = c3 = offsets * 0
    k0, k1 = seed & MASK32, (seed >> 32) & MASK32
    for _ in range(rounds):
        high_b, low_b = _mulhilo32(ROUND_B, c2)
        high_a, low_a = _mulhilo32(ROUND_A, c0)
        c0, c1, c2, c3 = high_b ^ c1 ^ k0, low_b, high_a ^ c3 ^ k1, low_a
        k0, k1 = (k0 + KEY_A) & MASK32, (k1 + KEY_B) & MASK32
    return c0


def uniform(xp, seed, offsets):
    """tl.rand(seed, offsets) for int64 `offsets` of array module `xp`
    (torch or numpy), in float32."""
    word = philox_first_word(seed, offsets)
    signed = xp.where(word >= 1 << 31, word - (1 << 32), word)
    folded = xp.where(signed < 0, -signed - 1, signed)
    if hasattr(folded, "to"):  # torch: the scalar is applied in float32
        return folded.to(xp.float32) * UNIFORM_SCALE
    return folded.astype(xp.float32) * xp.float32(UNIFORM_SCALE)
