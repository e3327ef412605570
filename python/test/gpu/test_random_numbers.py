"""tl.randint4x / randint / rand / randn on the GPU, bit for bit against
Triton's generator:

  (a) a numpy Philox-4x32-10 (and -4x64-10 for tl.philox on 64-bit
      counters) with Triton's counter/key mapping and uint -> float
      conversion (gpu_reference.py, itself checked against Random123's known
      answers below); as in Triton 3.4 and later (triton-lang/triton#6832),
      64-bit offsets still give uint32 words from Philox-4x32, the offset's
      low and high halves in counter words 0 and 1;
  (b) real Triton, when `import triton` works: the same kernel source
      (bench/kernels/random_numbers.py) compiled by both and run on the same seeds and
      offsets.

Integers and uniforms must be identical; normals (which go through the
GPU's log, sqrt and cos) must agree to a few fp32 ulps.  Outputs are poisoned
before every launch; sizes are not multiples of the block (masked tails)."""
import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402

import gpu_reference as ref  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from kernel_sources import load_kernels  # noqa: E402

K = load_kernels("random_numbers.py", tritium, ttl, "tritium")

SEEDS = [0, 1, 42, 123456789, -5, 2**31 + 5, 0x1234567890ABCDEF]
BLOCK = 256


def cdiv(a, b):
    return (a + b - 1) // b


def bits32(t):
    return t.cpu().numpy().view(np.uint32)


# ---- the numpy reference against Random123's known answers ---------------------------------

# Random123 kat_vectors: rounds, counter[4], key[2], result[4]
KAT = [
    (32, 10, [0, 0, 0, 0], [0, 0], [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]),
    (32, 10, [0xffffffff] * 4, [0xffffffff] * 2, [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]),
    (32, 10, [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0],
     [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]),
    (32, 7, [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0],
     [0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a]),
    (64, 10, [0] * 4, [0, 0], [0x16554d9eca36314c, 0xdb20fe9d672d0fdc, 0xd7e772cee186176b, 0x7e68b68aec7ba23b]),
    (64, 10, [0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89],
     [0x452821e638d01377, 0xbe5466cf34e90c6c],
     [0xa528f45403e61d95, 0x38c72dbd566e9788, 0xa5a1610e72fd18b5, 0x57bd43b5e52b7fe6]),
]


@pytest.mark.parametrize("bits, rounds, counter, key, expected", KAT)
def test_reference_known_answers(bits, rounds, counter, key, expected):
    fn = ref.philox4x32 if bits == 32 else ref.philox4x64
    word = np.uint32 if bits == 32 else np.uint64
    out = fn(*(np.array([c], dtype=word) for c in counter), key[0], key[1], rounds)
    assert [int(w[0]) for w in out] == expected


# ---- tritium against the numpy reference ----------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("rounds", [10, 7])
def test_randint4x(seed, rounds):
    n = 1000
    out = torch.full((4, n), -77, dtype=torch.int32, device="cuda")
    K.randint4x_kernel[(cdiv(n, BLOCK),)](out, seed, n, BLOCK=BLOCK, ROUNDS=rounds)
    want = ref.randint4x(seed, np.arange(n, dtype=np.int32), rounds)
    got = bits32(out)
    for i in range(4):
        np.testing.assert_array_equal(got[i], want[i], err_msg=f"word {i}")


@pytest.mark.parametrize("seed", SEEDS)
def test_randint(seed):
    n = 5003
    out = torch.full((n,), -77, dtype=torch.int32, device="cuda")
    K.randint_kernel[(cdiv(n, BLOCK),)](out, seed, n, BLOCK=BLOCK)
    np.testing.assert_array_equal(bits32(out), ref.randint(seed, np.arange(n, dtype=np.int32)))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_rand(seed, num_warps):
    n = 100_003
    out = torch.full((n,), float("nan"), device="cuda")
    K.rand_kernel[(cdiv(n, 1024),)](out, seed, n, BLOCK=1024, num_warps=num_warps)
    want = ref.rand(seed, np.arange(n, dtype=np.int32))
    got = out.cpu().numpy()
    # bit for bit, not merely close
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    assert got.min() >= 0.0 and got.max() < 1.0


@pytest.mark.parametrize("base", [-(2**31), -1000, 2**31 - 3000])
def test_rand_offsets_at_the_ends_of_int32(base):
    # negative offsets are counters with the high bit set; the last one wraps nothing
    n = 2500
    out = torch.full((n,), float("nan"), device="cuda")
    K.rand_offset_kernel[(cdiv(n, BLOCK),)](out, 7, base, n, BLOCK=BLOCK)
    offsets = (np.arange(n, dtype=np.int64) + base).astype(np.int32)
    np.testing.assert_array_equal(out.cpu().numpy().view(np.uint32), ref.rand(7, offsets).view(np.uint32))


@pytest.mark.parametrize("seed", SEEDS)
def test_randn(seed):
    n = 20_000
    out = torch.full((n,), float("nan"), device="cuda")
    K.randn_kernel[(cdiv(n, BLOCK),)](out, seed, n, BLOCK=BLOCK)
    want = torch.from_numpy(ref.randn(seed, np.arange(n, dtype=np.int32)))
    # the uniforms are exact; log/sqrt/cos on the GPU are within a few fp32 ulps
    torch.testing.assert_close(out.cpu().double(), want, rtol=1e-5, atol=1e-5)
    assert abs(float(out.mean())) < 0.05 and abs(float(out.std()) - 1.0) < 0.05


@pytest.mark.parametrize("seed", [0, 42, 0x1234567890ABCDEF])
@pytest.mark.parametrize("base", [0, 2**32 - 300, 2**40 + 17, -(2**62), -350])
def test_64_bit_offsets(seed, base):
    n = 700
    out = torch.full((n,), -77, dtype=torch.int32, device="cuda")
    K.randint64_kernel[(cdiv(n, BLOCK),)](out, seed, base, n, BLOCK=BLOCK)
    offsets = np.arange(n, dtype=np.int64) + np.int64(base)
    want = ref.randint(seed, offsets)
    assert want.dtype == np.uint32
    np.testing.assert_array_equal(bits32(out), want)
    outf = torch.full((n,), float("nan"), device="cuda")
    K.rand64_kernel[(cdiv(n, BLOCK),)](outf, seed, base, n, BLOCK=BLOCK)
    np.testing.assert_array_equal(outf.cpu().numpy().view(np.uint32),
                                  ref.uint_to_uniform_float(want).view(np.uint32))
    out4 = torch.full((4, n), -77, dtype=torch.int32, device="cuda")
    K.randint4x64_kernel[(cdiv(n, BLOCK),)](out4, seed, base, n, BLOCK=BLOCK)
    got = bits32(out4)
    for i, w in enumerate(ref.randint4x(seed, offsets.view(np.uint64))):
        np.testing.assert_array_equal(got[i], w, err_msg=f"word {i}")


@pytest.mark.parametrize("seed", [0, 42, 0x1234567890ABCDEF])
@pytest.mark.parametrize("base", [0, 2**40 + 17, -(2**62)])
def test_philox_64_bit_counters(seed, base):
    n = 700
    out = torch.full((4, n), -77, dtype=torch.int64, device="cuda")
    K.philox64_kernel[(cdiv(n, BLOCK),)](out, seed, base, n, BLOCK=BLOCK)
    c = np.arange(n, dtype=np.int64) + np.int64(base)
    zero = np.zeros_like(c)
    want = ref.philox(seed, c, zero, zero, zero)
    got = out.cpu().numpy().view(np.uint64)
    for i in range(4):
        np.testing.assert_array_equal(got[i], want[i], err_msg=f"word {i}")


def test_same_seed_same_numbers_other_seed_other_numbers():
    n = 4096
    a, b, c = (torch.full((n,), float("nan"), device="cuda") for _ in range(3))
    K.rand_kernel[(cdiv(n, BLOCK),)](a, 1234, n, BLOCK=BLOCK)
    K.rand_kernel[(cdiv(n, BLOCK),)](b, 1234, n, BLOCK=BLOCK)
    K.rand_kernel[(cdiv(n, BLOCK),)](c, 1235, n, BLOCK=BLOCK)
    assert torch.equal(a, b)
    assert (a != c).float().mean() > 0.99


# ---- tritium against Triton, same source -------------------------------------------------------

@pytest.fixture(scope="module")
def triton_kernels():
    triton = pytest.importorskip("triton")
    import triton.language as tl
    return load_kernels("random_numbers.py", triton, tl, "triton")


def _run_both(name, triton_kernels, make_out, grid_n, *args, **kwargs):
    outs = []
    for k in (K, triton_kernels):
        out = make_out()
        getattr(k, name)[(cdiv(grid_n, kwargs["BLOCK"]),)](out, *args, **kwargs)
        outs.append(out)
    torch.cuda.synchronize()
    return outs


@pytest.mark.parametrize("seed", SEEDS)
def test_randint4x_matches_triton(seed, triton_kernels):
    n = 3000
    mine, theirs = _run_both("randint4x_kernel", triton_kernels,
                             lambda: torch.full((4, n), -77, dtype=torch.int32, device="cuda"),
                             n, seed, n, BLOCK=BLOCK, ROUNDS=10)
    assert torch.equal(mine, theirs)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kernel", ["randint_kernel", "rand_kernel"])
def test_rand_matches_triton(seed, kernel, triton_kernels):
    n = 50_001
    dtype = torch.int32 if kernel == "randint_kernel" else torch.float32
    mine, theirs = _run_both(kernel, triton_kernels, lambda: torch.full((n,), -77, dtype=dtype, device="cuda"),
                             n, seed, n, BLOCK=BLOCK)
    # bit for bit (view as integers: NaN-free, -0.0 vs 0.0 would count)
    assert torch.equal(mine.view(torch.int32), theirs.view(torch.int32))


@pytest.mark.parametrize("base", [-(2**31), 2**31 - 3000])
def test_rand_offsets_match_triton(base, triton_kernels):
    n = 2500
    mine, theirs = _run_both("rand_offset_kernel", triton_kernels,
                             lambda: torch.full((n,), float("nan"), device="cuda"), n, 99, base, n, BLOCK=BLOCK)
    assert torch.equal(mine.view(torch.int32), theirs.view(torch.int32))


@pytest.mark.parametrize("seed", [0, 42, 0x1234567890ABCDEF])
@pytest.mark.parametrize("base", [0, 2**40 + 17, -(2**62)])
def test_64_bit_offsets_match_triton(seed, base, triton_kernels):
    n = 700
    mine, theirs = _run_both("randint64_kernel", triton_kernels,
                             lambda: torch.full((n,), -77, dtype=torch.int32, device="cuda"),
                             n, seed, base, n, BLOCK=BLOCK)
    assert torch.equal(mine, theirs)
    mine, theirs = _run_both("randint4x64_kernel", triton_kernels,
                             lambda: torch.full((4, n), -77, dtype=torch.int32, device="cuda"),
                             n, seed, base, n, BLOCK=BLOCK)
    assert torch.equal(mine, theirs)
    mine, theirs = _run_both("rand64_kernel", triton_kernels,
                             lambda: torch.full((n,), float("nan"), device="cuda"), n, seed, base, n, BLOCK=BLOCK)
    assert torch.equal(mine.view(torch.int32), theirs.view(torch.int32))
    mine, theirs = _run_both("philox64_kernel", triton_kernels,
                             lambda: torch.full((4, n), -77, dtype=torch.int64, device="cuda"),
                             n, seed, base, n, BLOCK=BLOCK)
    assert torch.equal(mine, theirs)


@pytest.mark.parametrize("seed", [0, 42, -5])
def test_randn_matches_triton(seed, triton_kernels):
    n = 20_000
    mine, theirs = _run_both("randn_kernel", triton_kernels,
                             lambda: torch.full((n,), float("nan"), device="cuda"), n, seed, n, BLOCK=BLOCK)
    # same uniforms; the transcendental functions may be implemented differently
    torch.testing.assert_close(mine, theirs, rtol=1e-5, atol=1e-5)
