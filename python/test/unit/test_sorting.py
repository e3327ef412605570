"""tl.sort and tl.flip: the kernels compile to TTIR, and the networks they
are built from (tritium.language.sorting.sort_network / flip_network), run
on NumPy arrays with NumPy versions of the same four array operations,
give exactly numpy.sort / numpy.flip."""
import re

import numpy as np
import pytest

import tritium as triton
from conftest import compile_ttir
import tritium.language as tl
from tritium.language import sorting




# ---- the networks on NumPy arrays ------------------------------------------------------------

class NumpyOps:
    """The operations sort_network / flip_network use, as the TTIR does them."""

    @staticmethod
    def reshape(x, shape):
        return x.reshape(shape)  # row-major, as tt.reshape without reordering

    @staticmethod
    def swap_pairs(x, dim):
        # bitcast to a same-width integer, xor with the xor of the pair, bitcast back
        bits = x.view(np.dtype(f"i{x.dtype.itemsize}"))
        pair = np.bitwise_xor.reduce(bits, axis=dim, keepdims=True)
        return (bits ^ pair).view(x.dtype)

    @staticmethod
    def coordinate(shape, dim):
        index = np.arange(shape[dim], dtype=np.int32)
        return index.reshape([shape[dim] if d == dim else 1 for d in range(len(shape))])

    @staticmethod
    def where(cond, x, y):
        return np.where(cond, x, y)


def np_sort_network(x, axis=-1, descending=False):
    return sorting.sort_network(x, list(x.shape), axis % x.ndim, descending, NumpyOps)


def np_flip_network(x, axis=-1):
    return sorting.flip_network(x, list(x.shape), axis % x.ndim, NumpyOps)


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        x = rng.standard_normal(shape) * 100
        x[rng.random(shape) < 0.2] = 0.0  # duplicates
        x[rng.random(shape) < 0.05] = np.inf
        x[rng.random(shape) < 0.05] = -np.inf
        return x.astype(dtype)
    info = np.iinfo(dtype)
    if rng.random() < 0.5:  # few distinct values: many ties
        return rng.integers(-3 if info.min < 0 else 0, 4, size=shape).astype(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)


SHAPES_AXES = [((1,), 0), ((2,), 0), ((8,), 0), ((1024,), 0), ((4, 16), 1), ((16, 4), 0), ((2, 8, 32), 2),
               ((2, 8, 32), 1), ((8, 1), 0)]
DTYPES = ["float32", "float16", "float64", "int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, axis", SHAPES_AXES)
def test_sort_network_equals_numpy(shape, axis, dtype):
    rng = np.random.default_rng(hash((shape, axis, dtype)) & 0xFFFF)
    for _ in range(3):
        x = random_array(rng, shape, dtype)
        expected = np.sort(x, axis=axis)
        got = np_sort_network(x, axis)
        assert got.dtype == x.dtype and got.shape == x.shape
        np.testing.assert_array_equal(got, expected)
        got = np_sort_network(x, axis, descending=True)
        np.testing.assert_array_equal(got, np.flip(expected, axis=axis))


@pytest.mark.parametrize("dtype", ["float32", "int8", "uint64", "float16"])
@pytest.mark.parametrize("shape, axis", SHAPES_AXES)
def test_flip_network_equals_numpy(shape, axis, dtype):
    rng = np.random.default_rng(7)
    x = random_array(rng, shape, dtype)
    got = np_flip_network(x, axis)
    # bit for bit: -0.0 and NaN payloads move unchanged
    bits = np.dtype(f"u{x.dtype.itemsize}")
    np.testing.assert_array_equal(got.view(bits), np.ascontiguousarray(np.flip(x, axis=axis)).view(bits))


def test_sort_keeps_signed_zeros_and_permutes_nans():
    x = np.array([np.nan, -0.0, 1.0, 0.0, -np.nan, -1.0, np.inf, 2.0], dtype=np.float32)
    got = np_sort_network(x)
    # a permutation of the input, bit for bit ...
    assert sorted(got.view(np.uint32).tolist()) == sorted(x.view(np.uint32).tolist())
    # ... in order where there are no NaNs
    x = np.array([0.0, -0.0, 3.0, -0.0, 0.0, -5.0, -0.0, 1.0], dtype=np.float32)
    got = np_sort_network(x)
    np.testing.assert_array_equal(got, np.sort(x))
    assert sorted(got.view(np.uint32).tolist()) == sorted(x.view(np.uint32).tolist())


def test_network_size():
    """A bitonic network on 2**k elements has k(k+1)/2 compare-exchange steps."""
    calls = []

    class CountingOps(NumpyOps):
        @staticmethod
        def swap_pairs(x, dim):
            calls.append(dim)
            return NumpyOps.swap_pairs(x, dim)

    x = np.arange(64, dtype=np.int32)[::-1].copy()
    sorting.sort_network(x, [64], 0, False, CountingOps)
    assert len(calls) == 6 * 7 // 2
    calls.clear()
    sorting.flip_network(x, [64], 0, CountingOps)
    assert calls == [0, 1, 2, 3, 4, 5]


# ---- kernels --------------------------------------------------------------------------------

@triton.jit
def sort_1d(X, Z, N: tl.constexpr, DESCENDING: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.store(Z + offs, tl.sort(x, descending=DESCENDING))


@triton.jit
def sort_2d(X, Z, M: tl.constexpr, N: tl.constexpr, DIM: tl.constexpr, DESCENDING: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    tl.store(Z + offs, tl.sort(x, DIM, DESCENDING))


@triton.jit
def flip_2d(X, Z, M: tl.constexpr, N: tl.constexpr, DIM: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    tl.store(Z + offs, tl.flip(x, DIM))


@triton.jit
def methods_2d(X, Z, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    tl.store(Z + offs, x.sort() + x.flip() + x.sort(0, descending=True) + x.flip(dim=0))


def _ops(ttir, name):
    return len(re.findall(rf"\b{re.escape(name)}(?![\w.])", ttir))


@pytest.mark.parametrize("dtype", ["fp32", "fp16", "bf16", "fp64", "i8", "i16", "i32", "i64", "u32", "u8"])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_1d_compiles(dtype, descending):
    ttir = compile_ttir(sort_1d, {"X": f"*{dtype}", "Z": f"*{dtype}"}, {"N": 128, "DESCENDING": descending})
    assert re.search(r"tt\.reshape.*tensor<128x\w+>\)? -> tensor<2x2x2x2x2x2x2x\w+>", ttir), ttir
    assert re.search(r"tt\.reshape.*tensor<2x2x2x2x2x2x2x\w+>\)? -> tensor<128x\w+>", ttir)
    assert _ops(ttir, "tt.reduce") == 7 * 8 // 2  # one xor_sum per compare-exchange step
    compare = "arith.cmpf" if dtype.startswith(("fp", "bf")) else "arith.cmpi"
    assert _ops(ttir, compare) >= 2 * 28
    assert "arith.select" in ttir


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_sort_2d_compiles(dim):
    ttir = compile_ttir(sort_2d, {"X": "*fp32", "Z": "*fp32"}, {"M": 8, "N": 32, "DIM": dim, "DESCENDING": False})
    split = "2x2x2x32" if dim == 0 else "8x2x2x2x2x2"
    assert re.search(rf"tt\.reshape.*tensor<8x32xf32>\)? -> tensor<{split}xf32>", ttir), ttir
    steps = 3 * 4 // 2 if dim == 0 else 5 * 6 // 2
    assert _ops(ttir, "tt.reduce") == steps


@pytest.mark.parametrize("dim", [0, 1])
def test_flip_2d_compiles(dim):
    ttir = compile_ttir(flip_2d, {"X": "*i32", "Z": "*i32"}, {"M": 4, "N": 16, "DIM": dim})
    split = "2x2x16" if dim == 0 else "4x2x2x2x2"
    assert re.search(rf"tt\.reshape.*tensor<4x16xi32>\)? -> tensor<{split}xi32>", ttir), ttir
    assert _ops(ttir, "tt.reduce") == (2 if dim == 0 else 4)
    assert "arith.select" not in ttir and "arith.cmpi" not in ttir  # flipping compares nothing


def test_tensor_methods_compile():
    ttir = compile_ttir(methods_2d, {"X": "*fp32", "Z": "*fp32"}, {"M": 4, "N": 8})
    # sort along dim 1 (3 levels: 6 steps) and dim 0 (2 levels: 3 steps), flip along dim 1 (3) and dim 0 (2)
    assert _ops(ttir, "tt.reduce") == 6 + 3 + 3 + 2


def test_exported_names():
    assert tl.sort is sorting.sort and tl.flip is sorting.flip


@triton.jit
def sort_scalar(X, Z):
    tl.store(Z, tl.sort(tl.load(X)))


@triton.jit
def sort_bad_dim(X, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.sort(tl.load(X + offs), 1))


def test_errors():
    with pytest.raises(triton.CompilationError, match="sort needs a block"):
        compile_ttir(sort_scalar, {"X": "*fp32", "Z": "*fp32"})
    with pytest.raises(triton.CompilationError, match="dimension 1 is out of range for a tensor of rank 1"):
        compile_ttir(sort_bad_dim, {"X": "*fp32", "Z": "*fp32"}, {"N": 16})
