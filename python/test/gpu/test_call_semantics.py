"""Kernels built from the forms of Triton code whose meaning depends on how
values cross a call into a @jit function, run on the GPU against torch:
numbers passed to parameters annotated `int` (compile-time values of the
callee), `.value` of a dtype argument, constexprs assigned from tl.cdiv of
constexprs, block pointers advanced with `.advance`, tl.static_range over
triton.cdiv, dtype methods deciding in a helper, do_not_specialize naming
parameters the kernel lacks, a reduction dimension from the caller,
constants returned on every path, strings, None and @jit functions passed
through calls, constexpr and plain Python functions, and the pointer and
math methods of tensors.  Outputs are poisoned before every launch."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit"))
from kernels.call_semantics import (  # noqa: E402
    apply_level2, differs_by_path, doubled, lowest, maximum, negate, plain_python_block, plus_one,
    program_id64, reduce_along, same_on_both_paths, scale_by)


def poisoned(shape, dtype=torch.float32):
    shape = (shape,) if isinstance(shape, int) else shape
    return torch.full(shape, float("nan") if dtype.is_floating_point else -77, dtype=dtype, device="cuda")


# ---- a number passed to a parameter annotated int --------------------------------------------------------

@triton.jit
def program_ids_kernel(out_ptr):
    pid = program_id64(0)
    tl.store(out_ptr + pid, pid * 3 + program_id64(1))


def test_program_id_helper_with_an_int_axis():
    out = poisoned(64, torch.int64)
    program_ids_kernel[(64, 1)](out)
    torch.testing.assert_close(out, torch.arange(64, device="cuda", dtype=torch.int64) * 3, rtol=0, atol=0)


# ---- the value of a dtype argument -----------------------------------------------------------------------

@triton.jit
def lowest_kernel(out_ptr, DT: tl.constexpr):
    tl.store(out_ptr, lowest(DT))


@pytest.mark.parametrize("dt", [tl.float16, tl.bfloat16, tl.float32])
def test_lowest_of_a_float_dtype(dt):
    out = poisoned(1)
    lowest_kernel[(1,)](out, DT=dt)
    assert out.item() == float("-inf")


@pytest.mark.parametrize("dt,torch_dtype", [(tl.int8, torch.int8), (tl.int16, torch.int16), (tl.int32, torch.int32)])
def test_lowest_of_an_integer_dtype(dt, torch_dtype):
    out = poisoned(1, torch.int64)
    lowest_kernel[(1,)](out, DT=dt)
    assert out.item() == torch.iinfo(torch_dtype).min


# ---- a constexpr assigned from tl.cdiv of constexprs -----------------------------------------------------

@triton.jit
def masking_kernel(out_ptr, BM: tl.constexpr, BN: tl.constexpr, CAUSAL: tl.constexpr):
    if not CAUSAL:
        masking: tl.constexpr = 0
    else:
        masking: tl.constexpr = tl.cdiv(BM, BN) * BN
    offs = tl.arange(0, BM)
    tl.store(out_ptr + offs, tl.where(offs < masking, offs, -1))


@pytest.mark.parametrize("causal", [False, True])
def test_constexpr_from_tl_cdiv(causal):
    BM, BN = 64, 48
    out = poisoned(BM, torch.int32)
    masking_kernel[(1,)](out, BM=BM, BN=BN, CAUSAL=causal)
    masking = triton.cdiv(BM, BN) * BN if causal else 0
    offs = torch.arange(BM, device="cuda", dtype=torch.int32)
    torch.testing.assert_close(out, torch.where(offs < masking, offs, -1), rtol=0, atol=0)


# ---- block pointers advanced with their method ------------------------------------------------------------

@triton.jit
def block_copy_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    col = tl.program_id(0) * BN
    src = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (0, col), (BM, BN), (1, 0))
    dst = tl.make_block_ptr(y_ptr, (M, N), (N, 1), (0, col), (BM, BN), (1, 0))
    for _ in range(tl.cdiv(M, BM)):
        v = tl.load(src, boundary_check=(0, 1), padding_option="zero")
        dst.store(v, boundary_check=(0, 1))
        src = src.advance([BM, 0])
        dst = tl.advance(dst, (BM, 0))


def test_block_pointer_advance_method():
    M, N = 50, 40
    x = torch.randn(M, N, device="cuda")
    y = poisoned((M, N))
    block_copy_kernel[(triton.cdiv(N, 16),)](x, y, M, N, BM=16, BN=16)
    torch.testing.assert_close(y, x, rtol=0, atol=0)


# ---- tl.static_range over triton.cdiv ---------------------------------------------------------------------

N_ELEMENTS = tl.constexpr(100)


@triton.jit
def blocked_sum_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], tl.float32)
    for i in tl.static_range(triton.cdiv(N_ELEMENTS, BLOCK)):
        offs = i * BLOCK + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < N_ELEMENTS, other=0.0)
    tl.store(out_ptr, tl.sum(acc, 0))


@pytest.mark.parametrize("block", [16, 32, 128])
def test_static_range_of_triton_cdiv(block):
    x = torch.randn(100, device="cuda")
    out = poisoned(1)
    blocked_sum_kernel[(1,)](x, out, BLOCK=block)
    torch.testing.assert_close(out[0], x.sum(), rtol=1e-5, atol=1e-4)


# ---- a dtype method deciding in a helper ------------------------------------------------------------------

@triton.jit
def maximum_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, maximum(a, b), mask=mask)


def test_maximum_propagates_nan_for_floats():
    n = 1000
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    x[::7] = float("nan")
    y[::5] = float("nan")
    out = poisoned(n)
    maximum_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    torch.testing.assert_close(out, torch.maximum(x, y), rtol=0, atol=0, equal_nan=True)


def test_maximum_of_integers():
    n = 1000
    x = torch.randint(-1000, 1000, (n,), device="cuda", dtype=torch.int32)
    y = torch.randint(-1000, 1000, (n,), device="cuda", dtype=torch.int32)
    out = poisoned(n, torch.int32)
    maximum_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    torch.testing.assert_close(out, torch.maximum(x, y), rtol=0, atol=0)


# ---- do_not_specialize naming parameters the kernel lacks -------------------------------------------------

@triton.jit(do_not_specialize=["seqlen_q", "seqlen_k", "n"])
def copy_n_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n, other=-1.0))


@pytest.mark.parametrize("n", [1, 16, 37])
def test_do_not_specialize_with_names_the_kernel_lacks(n):
    x = torch.randn(64, device="cuda")
    out = poisoned(64)
    copy_n_kernel[(1,)](x, out, n, BLOCK=64)
    expected = torch.where(torch.arange(64, device="cuda") < n, x, torch.full_like(x, -1.0))
    torch.testing.assert_close(out, expected, rtol=0, atol=0)


# ---- a reduction dimension from the caller ----------------------------------------------------------------

@triton.jit
def sums_kernel(x_ptr, rows_ptr, cols_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs[:, None] * BLOCK + offs[None, :])
    tl.store(rows_ptr + offs, reduce_along(x, 1))
    tl.store(cols_ptr + offs, reduce_along(x, 0))


def test_reduce_dimension_passed_as_a_plain_int():
    x = torch.randn(32, 32, device="cuda")
    rows, cols = poisoned(32), poisoned(32)
    sums_kernel[(1,)](x, rows, cols, BLOCK=32)
    torch.testing.assert_close(rows, x.sum(1), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(cols, x.sum(0), rtol=1e-5, atol=1e-5)


# ---- what a helper returns -------------------------------------------------------------------------------

@triton.jit
def returns_kernel(x_ptr, out_ptr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid)
    four: tl.constexpr = same_on_both_paths(x)
    tl.store(out_ptr + pid, differs_by_path(x) * 10 + four)


def test_constant_and_path_dependent_returns():
    x = torch.tensor([3, -2, 0, 7], dtype=torch.int32, device="cuda")
    out = poisoned(4, torch.int32)
    returns_kernel[(4,)](x, out)
    torch.testing.assert_close(out, torch.where(x > 0, 44, 54).to(torch.int32), rtol=0, atol=0)


# ---- strings, None and @jit functions through calls -------------------------------------------------------

@triton.jit
def apply_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, apply_level2(x, "apply", negate, None))
    tl.store(out_ptr + BLOCK + offs, apply_level2(x, "skip", negate, 3.0))
    tl.store(out_ptr + 2 * BLOCK + offs, apply_level2(x, "apply", plus_one, 0.5))


def test_strings_none_and_functions_through_calls():
    x = torch.randn(128, device="cuda")
    out = poisoned(3 * 128)
    apply_kernel[(1,)](x, out, BLOCK=128)
    torch.testing.assert_close(out, torch.cat([-x, x * 3.0, (x + 1) * 0.5]), rtol=0, atol=0)


@triton.jit
def scale_fp16_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, scale_by(tl.load(x_ptr + offs), 0.3))


def test_a_float_argument_keeps_fp16_arithmetic():
    # 0.3 is a compile-time value of the helper, so the product is an fp16
    # product with 0.3 rounded to fp16 (as in Triton); a runtime fp32 scalar
    # would give the fp32 product rounded to fp16, which differs for some x
    x = torch.randn(256, device="cuda", dtype=torch.float16)
    out = poisoned(256, torch.float16)
    scale_fp16_kernel[(1,)](x, out, BLOCK=256)
    s16 = float(torch.tensor(0.3, dtype=torch.float16))
    torch.testing.assert_close(out, (x.float() * s16).half(), rtol=0, atol=0)


# ---- constexpr and plain Python functions, dtypes through calls --------------------------------------------

@triton.jit
def zeros_of(dt, n: tl.constexpr):
    return tl.zeros([n], dt)


@triton.jit
def python_functions_kernel(out_ptr, N: tl.constexpr, DT: tl.constexpr):
    b: tl.constexpr = plain_python_block(N)
    width: tl.constexpr = triton.next_power_of_2(b)
    offs = tl.arange(0, width)
    v = zeros_of(DT, width) + doubled(N)
    tl.store(out_ptr + offs, v.to(tl.float32), mask=offs < b)


@pytest.mark.parametrize("n", [40, 100, 256])
def test_constexpr_and_plain_python_functions(n):
    b = max(16, n // 4)
    out = poisoned(128)
    python_functions_kernel[(1,)](out, N=n, DT=tl.float16)
    torch.testing.assert_close(out[:b], torch.full((b,), 2.0 * n, device="cuda"), rtol=0, atol=0)
    assert torch.isnan(out[b:]).all()


# ---- pointer and math methods of tensors -------------------------------------------------------------------

@triton.jit
def tensor_methods_kernel(x_ptr, y_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    (y_ptr + offs).store(x.fma(x, x), mask=mask)
    (acc_ptr + offs % 4).atomic_add(x, mask=mask)


def test_pointer_store_atomic_add_and_fma_methods():
    n = 1000
    x = torch.randn(n, device="cuda")
    y = poisoned(n)
    acc = torch.zeros(4, device="cuda")
    tensor_methods_kernel[(triton.cdiv(n, 256),)](x, y, acc, n, BLOCK=256)
    x64 = x.double()
    torch.testing.assert_close(y, (x64 * x64 + x64).float(), rtol=1e-6, atol=1e-6)  # fused: one rounding
    expected = torch.stack([x[i::4].sum() for i in range(4)])
    torch.testing.assert_close(acc, expected, rtol=1e-4, atol=1e-4)
