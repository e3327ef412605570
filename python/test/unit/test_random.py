"""tl.rand / randn / randint / randint4x: the kernels compile to the Philox
network, and a reference of Triton's generator (Philox-4x32-10 and
Philox-4x64-10, checked here against Random123's known-answer vectors)
that the GPU tests compare the kernels' output with.

As in Triton 3.4 and later (triton-lang/triton#6832), randint4x runs
Philox-4x32 and returns uint32 for every offset width: a 64-bit offset
fills the first two counter words (low, high); only tl.philox called with
64-bit counters runs Philox-4x64."""
import math
import re

import numpy as np
import pytest

import tritium as triton
from conftest import compile_ttir
import tritium.language as tl




# ---- reference ----------------------------------------------------------------------------

# word width -> (round multipliers A, B; key increments A, B)
PHILOX_CONSTANTS = {
    32: (0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85),
    64: (0xD2E7470EE14C6C93, 0xCA5A826395121157, 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B),
}


def philox_reference(counter, key, n_rounds=10, bits=32):
    """Philox-4xW-R of one counter (4 words) under one key (2 words), in
    Python integers."""
    mask = (1 << bits) - 1
    mul_a, mul_b, key_a, key_b = PHILOX_CONSTANTS[bits]
    c0, c1, c2, c3 = (c & mask for c in counter)
    k0, k1 = (k & mask for k in key)
    for _ in range(n_rounds):
        prod_a, prod_b = mul_a * c0, mul_b * c2
        c0, c1, c2, c3 = ((prod_b >> bits) ^ c1 ^ k0, prod_b & mask, (prod_a >> bits) ^ c3 ^ k1, prod_a & mask)
        k0, k1 = (k0 + key_a) & mask, (k1 + key_b) & mask
    return c0, c1, c2, c3


def _mulhilo32(a, x):
    product = np.uint64(a) * x.astype(np.uint64)
    return (product >> np.uint64(32)).astype(np.uint32), (product & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def offset_counter_reference(offsets):
    """The first two counter words of integer offsets, as uint32: the value
    mod 2**32 (narrower signed offsets sign-extended), and bits 32..63 of
    64-bit offsets (zero for narrower ones)."""
    offsets = np.asarray(offsets)
    assert offsets.dtype.kind in "iu" and offsets.dtype.itemsize <= 8, offsets.dtype
    wide = offsets.astype(np.int64) if offsets.dtype.kind == "i" else offsets.astype(np.uint64)
    c0 = wide.astype(np.uint64).astype(np.uint32)  # wraps mod 2**32
    if offsets.dtype.itemsize == 8:
        c1 = (wide.astype(np.uint64) >> np.uint64(32)).astype(np.uint32)
    else:
        c1 = np.zeros_like(c0)
    return c0, c1


def randint4x_reference(seed, offsets, n_rounds=10):
    """tl.randint4x(seed, offsets) for integer offsets: four uint32 arrays.
    Counter (low 32 bits of the offset, high 32 bits or 0, 0, 0), key (low
    and high 32 bits of the seed as uint64)."""
    mul_a, mul_b, key_a, key_b = PHILOX_CONSTANTS[32]
    c0, c1 = offset_counter_reference(offsets)
    c2 = np.zeros_like(c0)
    c3 = np.zeros_like(c0)
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    k0, k1 = seed & 0xFFFFFFFF, seed >> 32
    for _ in range(n_rounds):
        hi_b, lo_b = _mulhilo32(mul_b, c2)
        hi_a, lo_a = _mulhilo32(mul_a, c0)
        c0, c1, c2, c3 = hi_b ^ c1 ^ np.uint32(k0), lo_b, hi_a ^ c3 ^ np.uint32(k1), lo_a
        k0, k1 = (k0 + key_a) & 0xFFFFFFFF, (k1 + key_b) & 0xFFFFFFFF
    return c0, c1, c2, c3


def randint_reference(seed, offsets, n_rounds=10):
    return randint4x_reference(seed, offsets, n_rounds)[0]


def uint_to_uniform_float_reference(x):
    """uint32 -> float32 in [0, 1) as Triton computes it: as int32, negative
    x -> -x - 1, converted to float32 (round to nearest) times 4.6566127342e-10."""
    x = np.asarray(x).astype(np.uint32).view(np.int32).astype(np.int64)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


def rand_reference(seed, offsets, n_rounds=10):
    return uint_to_uniform_float_reference(randint_reference(seed, offsets, n_rounds))


def randn_reference(seed, offsets, n_rounds=10):
    """Box-Muller on the first two uniforms, in float32 (the GPU's sqrt, log
    and cos differ from these by a few ulps)."""
    i1, i2, _, _ = randint4x_reference(seed, offsets, n_rounds)
    u1 = np.maximum(np.float32(1.0e-7), uint_to_uniform_float_reference(i1))
    u2 = uint_to_uniform_float_reference(i2)
    theta = np.float32(6.283185307179586) * u2
    radius = np.sqrt(np.float32(-2.0) * np.log(u1))
    return radius * np.cos(theta)


# ---- the reference against Random123's known answers ------------------------------------------

# Random123 tests/kat_vectors: "philox4xW R  counter[4]  key[2]  result[4]"
KAT_VECTORS = """
philox4x32 7 00000000 00000000 00000000 00000000 00000000 00000000   5f6fb709 0d893f64 4f121f81 4f730a48
philox4x32 7 ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff   5207ddc2 45165e59 4d8ee751 8c52f662
philox4x32 7 243f6a88 85a308d3 13198a2e 03707344 a4093822 299f31d0   4dfccaba 190a87f0 c47362ba b6b5242a
philox4x32 10 00000000 00000000 00000000 00000000 00000000 00000000   6627e8d5 e169c58d bc57ac4c 9b00dbd8
philox4x32 10 ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff   408f276d 41c83b0e a20bc7c6 6d5451fd
philox4x32 10 243f6a88 85a308d3 13198a2e 03707344 a4093822 299f31d0   d16cfe09 94fdcceb 5001e420 24126ea1
philox4x64 10 0000000000000000 0000000000000000 0000000000000000 0000000000000000 0000000000000000 0000000000000000   16554d9eca36314c db20fe9d672d0fdc d7e772cee186176b 7e68b68aec7ba23b
philox4x64 10 ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff ffffffffffffffff   87b092c3013fe90b 438c3c67be8d0224 9cc7d7c69cd777b6 a09caebf594f0ba0
philox4x64 10 243f6a8885a308d3 13198a2e03707344 a4093822299f31d0 082efa98ec4e6c89 452821e638d01377 be5466cf34e90c6c   a528f45403e61d95 38c72dbd566e9788 a5a1610e72fd18b5 57bd43b5e52b7fe6
"""


def _kat_cases():
    for line in KAT_VECTORS.strip().splitlines():
        name, rounds, *words = line.split()
        words = [int(w, 16) for w in words]
        yield pytest.param(int(name[len("philox4x"):]), int(rounds), words[:4], words[4:6], words[6:],
                           id=f"{name}-{rounds}-{words[0]:x}")


@pytest.mark.parametrize("bits, rounds, counter, key, expected", list(_kat_cases()))
def test_reference_matches_random123(bits, rounds, counter, key, expected):
    assert list(philox_reference(counter, key, rounds, bits)) == expected


def test_vectorized_reference_matches_scalar_reference():
    rng = np.random.default_rng(0)
    offsets = rng.integers(-2**31, 2**31, size=257, dtype=np.int64).astype(np.int32)
    offsets[:3] = [0, -1, 2**31 - 1]
    for seed in (0, 1, 42, 0xFFFFFFFF, 0x1234567890ABCDEF, -5):
        for n_rounds in (10, 7):
            words = randint4x_reference(seed, offsets, n_rounds)
            assert all(w.dtype == np.uint32 for w in words)
            for i in (0, 1, 2, 100, 256):
                want = philox_reference((int(offsets[i]), 0, 0, 0),
                                        (seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF), n_rounds)
                assert tuple(int(w[i]) for w in words) == want


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_reference_64_bit_offsets_fill_two_counter_words(dtype):
    offsets = np.array([0, 1, 2**32 - 1, 2**32, 2**40 + 17, 2**63 - 1, -1, -(2**63), -(2**62) + 5],
                       dtype=np.int64).astype(dtype)
    for seed in (0, 42, 0x1234567890ABCDEF, -5):
        words = randint4x_reference(seed, offsets)
        assert all(w.dtype == np.uint32 for w in words)
        for i, off in enumerate(offsets.tolist()):
            off &= (1 << 64) - 1
            want = philox_reference((off & 0xFFFFFFFF, off >> 32, 0, 0),
                                    (seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF))
            assert tuple(int(w[i]) for w in words) == want
    # offsets below 2**32 give the numbers of the same 32-bit offsets
    small = np.arange(1000, dtype=np.int64)
    for a, b in zip(randint4x_reference(7, small.astype(dtype)), randint4x_reference(7, small.astype(np.int32))):
        np.testing.assert_array_equal(a, b)


def test_reference_narrow_offsets_are_sign_extended():
    offsets = np.array([-3, -1, 0, 5, 127], dtype=np.int8)
    for a, b in zip(randint4x_reference(3, offsets), randint4x_reference(3, offsets.astype(np.int32))):
        np.testing.assert_array_equal(a, b)
    u = np.array([0xFF, 1], dtype=np.uint8)
    np.testing.assert_array_equal(randint_reference(3, u), randint_reference(3, u.astype(np.int32)))


def test_uniform_conversion():
    x = np.array([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xC0000000], dtype=np.uint32)
    u = uint_to_uniform_float_reference(x)
    assert u.dtype == np.float32
    assert u[0] == 0.0 and u[4] == 0.0  # 0 and -1 map to 0
    assert u[1] == np.float32(4.6566127342e-10)
    assert u[1:2].view(np.uint32)[0] == 0x2FFFFFFF  # the fp32 scale: just below 2**-31
    assert u[2] == u[3] and u[2] < 1.0  # the largest value stays below 1 in fp32
    assert abs(float(u[5]) - 0.5) < 1e-6
    r = rand_reference(1234, np.arange(1 << 16, dtype=np.int32))
    assert r.min() >= 0.0 and r.max() < 1.0
    assert abs(r.mean() - 0.5) < 0.01
    n = randn_reference(1234, np.arange(1 << 16, dtype=np.int32))
    assert n.dtype == np.float32 and np.isfinite(n).all()
    assert abs(n.mean()) < 0.02 and abs(n.std() - 1.0) < 0.02
    # the first output is exactly what rand() sees; randint4x's words differ
    a, b, c, d = randint4x_reference(7, np.arange(8, dtype=np.int32))
    assert (a == randint_reference(7, np.arange(8, dtype=np.int32))).all()
    assert len({a.tobytes(), b.tobytes(), c.tobytes(), d.tobytes()}) == 4


# ---- kernels -------------------------------------------------------------------------------

@triton.jit
def randint4x_kernel(Out, seed, N: tl.constexpr, ROUNDS: tl.constexpr):
    offs = tl.arange(0, N)
    r0, r1, r2, r3 = tl.randint4x(seed, offs, ROUNDS)
    tl.store(Out + offs, r0)
    tl.store(Out + N + offs, r1)
    tl.store(Out + 2 * N + offs, r2)
    tl.store(Out + 3 * N + offs, r3)


@triton.jit
def randint_kernel(Out, seed, N: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    tl.store(Out + offs, tl.randint(seed, offs))


@triton.jit
def rand_kernel(Out, seed, N: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    tl.store(Out + offs, tl.rand(seed, offs))


@triton.jit
def randn_kernel(Out, seed, N: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    tl.store(Out + offs, tl.randn(seed, offs))


@triton.jit
def rand64_kernel(Out, seed, N: tl.constexpr):
    offs = tl.arange(0, N).to(tl.int64) + seed
    tl.store(Out + tl.arange(0, N), tl.rand(seed, offs))


@triton.jit
def randint4x64_kernel(Out, seed, base, N: tl.constexpr):
    offs = tl.arange(0, N)
    r0, r1, r2, r3 = tl.randint4x(seed, base + offs.to(tl.int64))
    tl.static_assert(r0.dtype == tl.uint32)
    tl.static_assert(r3.dtype == tl.uint32)
    tl.store(Out + offs, r0.to(tl.int32, bitcast=True))
    tl.store(Out + N + offs, r3.to(tl.int32, bitcast=True))


@triton.jit
def randint_narrow_kernel(Out, seed, N: tl.constexpr):
    offs = tl.arange(0, N)
    r = tl.randint(seed, offs.to(tl.int16))
    tl.static_assert(r.dtype == tl.uint32)
    tl.store(Out + offs, r)


@triton.jit
def philox64_kernel(Out, seed, base, N: tl.constexpr):
    offs = tl.arange(0, N)
    c = base + offs.to(tl.int64)
    r0, r1, r2, r3 = tl.philox(seed, c, c * 0, c * 0, c * 0)
    tl.static_assert(r0.dtype == tl.uint64)
    tl.store(Out + offs, r0)


@triton.jit
def rand_fp64_offsets_kernel(Out, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Out + offs, tl.rand(1, offs.to(tl.float64)))


@triton.jit
def rand_float_seed_kernel(Out, seed, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Out + offs, tl.rand(seed, offs))


def _count(ttir, op):
    return len(re.findall(rf"\b{re.escape(op)}(?![\w.])", ttir))


def _has_constant(ttir, value, ty):
    """An integer constant (scalar or splat) of `value` with element type `ty`."""
    bits = int(ty[1:])
    signed = value - (1 << bits) if value >= 1 << (bits - 1) else value
    return re.search(rf"(?:dense<{signed}>|value = {signed}\b|constant {signed}\b)[^\n]*{ty}(?!\d)", ttir) is not None


def test_randint4x_ttir():
    ttir = compile_ttir(randint4x_kernel, {"Out": "*u32", "seed": "i32"}, {"N": 128, "ROUNDS": 10})
    assert _count(ttir, "tt.mulhiui") == 20  # 2 per round, 10 rounds
    assert _has_constant(ttir, 0xD2511F53, "i32") and _has_constant(ttir, 0xCD9E8D57, "i32"), ttir
    ttir7 = compile_ttir(randint4x_kernel, {"Out": "*u32", "seed": "i32"}, {"N": 128, "ROUNDS": 7})
    assert _count(ttir7, "tt.mulhiui") == 14


@pytest.mark.parametrize("kernel, out", [(randint_kernel, "*u32"), (rand_kernel, "*fp32"),
                                         (randn_kernel, "*fp32")])
def test_rand_kernels_ttir(kernel, out):
    ttir = compile_ttir(kernel, {"Out": out, "seed": "i32"}, {"N": 256})
    assert _count(ttir, "tt.mulhiui") >= 1
    assert _has_constant(ttir, 0xD2511F53, "i32") and _has_constant(ttir, 0xCD9E8D57, "i32")
    if kernel is not randint_kernel:
        assert "arith.sitofp" in ttir  # int32 -> float32, then the scale
        # the scale in fp32: 0x2FFFFFFF, just below 2**-31
        assert re.search(r"4\.65661\d*[eE]-10|0x2FFFFFFF", ttir), ttir
    if kernel is randn_kernel:
        assert "math.log" in ttir and "math.sqrt" in ttir and "math.cos" in ttir


@pytest.mark.parametrize("kernel, sig", [
    (rand64_kernel, {"Out": "*fp32", "seed": "i64"}),
    (randint4x64_kernel, {"Out": "*i32", "seed": "i64", "base": "i64"}),
    (randint4x64_kernel, {"Out": "*i32", "seed": "i32", "base": "u64"}),
])
def test_64_bit_offsets_use_philox_4x32(kernel, sig):
    # Triton >= 3.4: the low and high halves of the offset are counter words 0 and 1
    ttir = compile_ttir(kernel, sig, {"N": 64})
    assert _has_constant(ttir, 0xD2511F53, "i32") and _has_constant(ttir, 0xCD9E8D57, "i32"), ttir
    assert not _has_constant(ttir, 0xD2E7470EE14C6C93, "i64")
    assert not re.search(r"tt\.mulhiui[^\n]*i64", ttir)
    assert _count(ttir, "tt.mulhiui") >= 15  # fewer when unused words are dead code
    assert re.search(r"arith\.trunci[^\n]*i64[^\n]*to[^\n]*i32", ttir)  # the low half
    assert re.search(r"arith\.shr[su]i[^\n]*i64", ttir)  # the high half
    if kernel is rand64_kernel:
        assert re.search(r"4\.65661\d*[eE]-10|0x2FFFFFFF", ttir), ttir  # the 32-bit scale


def test_narrow_offsets_compile():
    ttir = compile_ttir(randint_narrow_kernel, {"Out": "*u32", "seed": "i32"}, {"N": 64})
    assert re.search(r"arith\.extsi[^\n]*i16[^\n]*to[^\n]*i32", ttir), ttir
    assert _count(ttir, "tt.mulhiui") >= 15  # fewer when unused words are dead code


def test_philox_with_64_bit_counters_uses_philox_4x64():
    ttir = compile_ttir(philox64_kernel, {"Out": "*u64", "seed": "i64", "base": "i64"}, {"N": 64})
    assert _has_constant(ttir, 0xD2E7470EE14C6C93, "i64") and _has_constant(ttir, 0xCA5A826395121157, "i64")
    assert re.search(r"tt\.mulhiui[^\n]*i64", ttir)
    assert not _has_constant(ttir, 0xD2511F53, "i32")


def test_64_bit_kernels_compile_for_cuda():
    for kernel, sig in ((randint4x64_kernel, {"Out": "*i32", "seed": "i64", "base": "i64"}),
                        (philox64_kernel, {"Out": "*u64", "seed": "i64", "base": "i64"})):
        compiled = triton.compile(kernel, signature=sig, constexprs={"N": 64}, target="cuda:90")
        assert "mul.hi.u32" in compiled.asm["ptx"] or "mul.hi" in compiled.asm["ptx"]


def test_unsupported_offsets_and_seeds_raise():
    with pytest.raises(Exception, match="32 bits|integer|float64|fp64"):
        compile_ttir(rand_fp64_offsets_kernel, {"Out": "*fp32"}, {"N": 64})
    with pytest.raises(Exception, match="seed"):
        compile_ttir(rand_float_seed_kernel, {"Out": "*fp32", "seed": "fp32"}, {"N": 64})


def test_random_functions_exported():
    for name in ("rand", "randn", "randint", "randint4x", "philox"):
        assert callable(getattr(tl, name))
    assert math.isclose(4.6566127342e-10 * (2**31 - 1), 1.0, rel_tol=1e-6)


# ---- the kernels run on the CPU target against the reference -----------------------------------

@pytest.mark.parametrize("block", [64, 1024])
def test_kernels_on_the_cpu_match_the_reference(block):
    # 1024 lanes: the Philox rounds run in a loop over 16-lane chunks
    # (StripMineElementwise.cpp); 64: on whole vectors
    programs, seed = 3, 0x5EED1234
    offsets = np.arange(programs * block, dtype=np.int32)
    out = np.empty(programs * block, np.uint32)
    randint_kernel[(programs,)](out, seed, N=block)
    np.testing.assert_array_equal(out, randint_reference(seed, offsets))
    words = np.empty(4 * block, np.uint32)
    randint4x_kernel[(1,)](words, seed, N=block, ROUNDS=10)
    for i, want in enumerate(randint4x_reference(seed, offsets[:block])):
        np.testing.assert_array_equal(words[i * block:(i + 1) * block], want)
    uniform = np.empty(programs * block, np.float32)
    rand_kernel[(programs,)](uniform, seed, N=block)
    np.testing.assert_array_equal(uniform, rand_reference(seed, offsets))
    normal = np.empty(programs * block, np.float32)
    randn_kernel[(programs,)](normal, seed, N=block)
    np.testing.assert_allclose(normal, randn_reference(seed, offsets), rtol=2e-5, atol=2e-5)
