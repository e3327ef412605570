"""Helpers of the GPU tests of reductions, softmax/layer norm, random numbers
and tutorials (not a test module):

  * `philox4x32` / `philox4x64`, `philox` and `randint4x`, `rand`, `randn`:
    Triton's counter-based generator in numpy (Philox-4x32-10 and -4x64-10),
    with Triton's (3.4 and later) conventions: randint4x always runs
    Philox-4x32 and returns uint32, with counter (low 32 bits of the
    offset, its bits 32..63 for 64-bit offsets or 0, 0, 0) and key (low 32
    bits of the seed, high 32 bits); tl.philox with 64-bit counters runs
    Philox-4x64 with key (seed, 0); uint -> float as signed, negative
    x -> -x - 1, times a scale that keeps the result below 1.0 in fp32;
  * `sdpa_math`: the attention reference (SDPA's math backend);
  * `poisoned_like`: an output buffer that fails any test when the kernel
    leaves an element unwritten;
  * `random_tensor`, `poison_value`, `assert_same`: the tensor-descriptor
    tests' inputs (small integers, normal floats), their poison value and
    their exact comparison (NaN equal to NaN).
"""
import numpy as np

# word width -> (round multipliers A, B; key increments A, B)
PHILOX = {
    32: (0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85),
    64: (0xD2E7470EE14C6C93, 0xCA5A826395121157, 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B),
}
UNIFORM_SCALE = {32: np.float32(4.6566127342e-10), 64: np.float32(1.0842020432385337e-19)}


def _key(seed, bits):
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF  # a negative seed is sign-extended to 64 bits, as Triton casts it
    if bits == 32:
        return seed & 0xFFFFFFFF, seed >> 32
    return seed, 0


def philox4x32(c0, c1, c2, c3, k0, k1, n_rounds=10):
    """Philox-4x32-R on uint32 arrays (the counter) under the key (k0, k1)."""
    mul_a, mul_b, key_a, key_b = PHILOX[32]
    c0, c1, c2, c3 = (np.asarray(c, dtype=np.uint32) for c in (c0, c1, c2, c3))
    low = np.uint64(0xFFFFFFFF)
    for _ in range(n_rounds):
        prod_b = np.uint64(mul_b) * c2.astype(np.uint64)
        prod_a = np.uint64(mul_a) * c0.astype(np.uint64)
        c0, c1, c2, c3 = ((prod_b >> np.uint64(32)).astype(np.uint32) ^ c1 ^ np.uint32(k0),
                          (prod_b & low).astype(np.uint32),
                          (prod_a >> np.uint64(32)).astype(np.uint32) ^ c3 ^ np.uint32(k1),
                          (prod_a & low).astype(np.uint32))
        k0, k1 = (k0 + key_a) & 0xFFFFFFFF, (k1 + key_b) & 0xFFFFFFFF
    return c0, c1, c2, c3


def philox4x64(c0, c1, c2, c3, k0, k1, n_rounds=10):
    """Philox-4x64-R, element by element in Python integers (uint64 arrays)."""
    mul_a, mul_b, key_a, key_b = PHILOX[64]
    mask = (1 << 64) - 1
    out = [[], [], [], []]
    for w in zip(*(np.asarray(c, dtype=np.uint64).tolist() for c in (c0, c1, c2, c3))):
        x0, x1, x2, x3 = w
        j0, j1 = k0, k1
        for _ in range(n_rounds):
            pb, pa = mul_b * x2, mul_a * x0
            x0, x1, x2, x3 = (pb >> 64) ^ x1 ^ j0, pb & mask, (pa >> 64) ^ x3 ^ j1, pa & mask
            j0, j1 = (j0 + key_a) & mask, (j1 + key_b) & mask
        for lst, v in zip(out, (x0, x1, x2, x3)):
            lst.append(v)
    return tuple(np.array(lst, dtype=np.uint64) for lst in out)


def philox(seed, c0, c1, c2, c3, n_rounds=10):
    """tl.philox(seed, c0, c1, c2, c3): Philox-4x32 for 32-bit counters,
    Philox-4x64 for 64-bit ones (the counters' bits)."""
    bits = np.asarray(c0).dtype.itemsize * 8
    assert bits in (32, 64), np.asarray(c0).dtype
    word = np.uint32 if bits == 32 else np.uint64
    cs = [np.asarray(c).view(word) for c in (c0, c1, c2, c3)]
    fn = philox4x32 if bits == 32 else philox4x64
    return fn(*cs, *_key(seed, bits), n_rounds)


def offset_counter(offsets):
    """The first two counter words of randint4x's integer offsets (uint32):
    the value mod 2**32 (narrower signed offsets sign-extended), and bits
    32..63 of 64-bit offsets (0 for narrower ones)."""
    offsets = np.asarray(offsets)
    assert offsets.dtype.kind in "iu" and offsets.dtype.itemsize <= 8, offsets.dtype
    wide = (offsets.astype(np.int64) if offsets.dtype.kind == "i" else offsets.astype(np.uint64)).astype(np.uint64)
    c0 = (wide & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    if offsets.dtype.itemsize == 8:
        c1 = (wide >> np.uint64(32)).astype(np.uint32)
    else:
        c1 = np.zeros_like(c0)
    return c0, c1


def randint4x(seed, offsets, n_rounds=10):
    """tl.randint4x(seed, offsets): four arrays of uint32, whatever the width
    of the (integer) offsets."""
    c0, c1 = offset_counter(offsets)
    zero = np.zeros_like(c0)
    return philox4x32(c0, c1, zero, zero, *_key(seed, 32), n_rounds)


def randint(seed, offsets, n_rounds=10):
    return randint4x(seed, offsets, n_rounds)[0]


def uint_to_uniform_float(x):
    """Triton's uint -> float32 in [0, 1): the bits as a signed integer,
    negative x -> -x - 1, converted to fp32 (round to nearest), times the
    fp32 scale (one fp32 multiply, rounded to nearest)."""
    x = np.asarray(x)
    bits = x.dtype.itemsize * 8
    signed = x.view(np.int32 if bits == 32 else np.int64).astype(np.int64)
    signed = np.where(signed < 0, -signed - 1, signed)
    return (signed.astype(np.float32) * UNIFORM_SCALE[bits]).astype(np.float32)


def rand(seed, offsets, n_rounds=10):
    return uint_to_uniform_float(randint(seed, offsets, n_rounds))


def randn(seed, offsets, n_rounds=10):
    """tl.randn: Box-Muller on the first two uniforms, in float64 (the GPU's
    approximate log, sqrt and cos differ from this by a few fp32 ulps)."""
    i1, i2, _, _ = randint4x(seed, offsets, n_rounds)
    u1 = np.maximum(np.float32(1.0e-7), uint_to_uniform_float(i1)).astype(np.float64)
    u2 = uint_to_uniform_float(i2).astype(np.float64)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(np.float64(np.float32(6.283185307179586)) * u2)


def sdpa_math(q, k, v, causal):
    """torch's scaled_dot_product_attention on its math backend, in the
    inputs' dtype (the attention tests pass fp32 copies): the same function
    without the fused kernels, whose cuDNN one shows shared-memory hazards of
    its own under compute-sanitizer racecheck, which would hide ours."""
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    with sdpa_kernel(SDPBackend.MATH):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)


def poisoned_like(t, shape=None, dtype=None):
    """An uninitialized-looking buffer: NaN for floats, -77 for integers."""
    import torch
    out = torch.empty(shape if shape is not None else t.shape, dtype=dtype or t.dtype, device=t.device)
    if out.dtype.is_floating_point:
        out.fill_(float("nan"))
    else:
        out.fill_(-77)
    return out


def random_tensor(shape, dtype):
    """Random CUDA values of `dtype`: normal floats, integers in [-100, 100)."""
    import torch
    if dtype.is_floating_point:
        return torch.randn(shape, device="cuda").to(dtype)
    info = torch.iinfo(dtype)
    return torch.randint(max(info.min, -100), min(info.max, 100), shape, device="cuda", dtype=dtype)


def poison_value(dtype):
    """What an unwritten element of a poisoned output holds: NaN or 77."""
    return float("nan") if dtype.is_floating_point else 77


def assert_same(actual, expected):
    """Equal element for element (NaN equal to NaN)."""
    import torch
    if actual.dtype.is_floating_point:
        torch.testing.assert_close(actual, expected, rtol=0, atol=0, equal_nan=True)
    else:
        assert torch.equal(actual, expected)
