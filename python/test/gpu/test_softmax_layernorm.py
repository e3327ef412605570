"""Fused softmax (Triton's tutorial 02) and layer norm forward (tutorial 05)
on the GPU against torch in float64, with the tutorials' kernels
(bench/kernels/tutorials.py) and, for half-precision rows, tutorial 02's
kernel with the row upcast to fp32 (bench/kernels/reductions.py):

  * softmax: n_cols that are not powers of two (masked loads with
    other=-inf), fp32 within 1e-5; one program per row and a persistent grid
    (fewer programs than rows: the kernel's tl.range loop); the tutorial's
    num_warps by BLOCK_SIZE; strided rows; fp16/bf16 in two forms: the
    kernel as written (tritium accepts tl.exp on half types; Triton 3.x
    refuses them) and the form a Triton user writes for half types, with the
    row upcast to fp32 after the load (within one ulp of the output type);
  * layer norm: Y, Mean and Rstd for fp16 and fp32 rows of several widths,
    with the tutorial's BLOCK_SIZE/num_warps rule and with a BLOCK_SIZE
    smaller than the row (each of the kernel's three loops runs several
    times).

Outputs are poisoned (NaN) before every launch."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402

from gpu_reference import poisoned_like  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from kernel_sources import load_kernels  # noqa: E402

T = load_kernels(("tutorials.py", "reductions.py"), triton, tl, "tritium")


def softmax_num_warps(block_size):
    """The tutorial's rule (its earlier releases; the current one fixes 8):
    more warps for wider rows."""
    num_warps = 4
    if block_size >= 2048:
        num_warps = 8
    if block_size >= 4096:
        num_warps = 16
    return num_warps


def softmax(x, kernel=T.softmax_kernel, num_programs=None, num_warps=None, num_stages=4, out=None):
    """Tutorial 02's host code, without its occupancy query: one program per
    row unless `num_programs` is given (then a persistent grid)."""
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    y = poisoned_like(x) if out is None else out
    grid = (n_rows if num_programs is None else min(num_programs, n_rows),)
    kernel[grid](y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE=BLOCK_SIZE,
                 num_stages=num_stages, num_warps=num_warps or softmax_num_warps(BLOCK_SIZE))
    return y


def softmax_ref(x):
    return torch.softmax(x.double(), dim=-1)


# ---- softmax ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n_cols", [781, 1000, 2049, 4096, 1, 5, 16384])
@pytest.mark.parametrize("n_rows", [1, 823])
def test_softmax_fp32(n_rows, n_cols):
    x = torch.randn(n_rows, n_cols, device="cuda")
    y = softmax(x)
    torch.testing.assert_close(y.double(), softmax_ref(x), rtol=1e-5, atol=1e-10)


@pytest.mark.parametrize("num_programs", [1, 7, 132])
@pytest.mark.parametrize("num_stages", [2, 4])
@pytest.mark.parametrize("n_cols", [1000, 4096])
def test_softmax_persistent(n_cols, num_stages, num_programs):
    # fewer programs than rows: each program walks rows pid, pid + P, ...
    x = torch.randn(1000, n_cols, device="cuda")
    y = softmax(x, num_programs=num_programs, num_stages=num_stages)
    torch.testing.assert_close(y.double(), softmax_ref(x), rtol=1e-5, atol=1e-10)


@pytest.mark.parametrize("num_warps", [1, 2, 4, 8, 16])
def test_softmax_num_warps(num_warps):
    x = torch.randn(300, 2049, device="cuda")
    y = softmax(x, num_warps=num_warps)
    torch.testing.assert_close(y.double(), softmax_ref(x), rtol=1e-5, atol=1e-10)


def test_softmax_large_inputs_and_strided_rows():
    # large magnitudes: without the max subtraction exp overflows; rows 3000 apart in memory
    base = 50.0 * torch.randn(400, 3000, device="cuda")
    x = base[:, 17:17 + 1000]
    out = torch.full((400, 2000), float("nan"), device="cuda")
    y = out[:, :1000]
    softmax(x, out=y)
    torch.testing.assert_close(y.double(), softmax_ref(x), rtol=1e-5, atol=1e-10)
    assert torch.isnan(out[:, 1000:]).all()  # nothing written past n_cols


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("n_cols", [781, 1000, 2049, 4096])
def test_softmax_half_fp32_math(dtype, n_cols):
    x = torch.randn(577, n_cols, device="cuda", dtype=dtype)
    y = softmax(x, kernel=T.softmax_kernel_fp32_math)
    assert y.dtype == dtype
    # fp32 math, one rounding to the output type: within one ulp of the rounded exact result
    ulp = {torch.float16: 2.0**-10, torch.bfloat16: 2.0**-7}[dtype]
    torch.testing.assert_close(y.double(), softmax_ref(x).to(dtype).double(), rtol=ulp, atol=1e-7)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("n_cols", [781, 4096])
def test_softmax_half_as_written(dtype, n_cols):
    # the tutorial kernel unchanged on half rows: exp and the row sum in the half type
    # (accumulated in 16 bits: a few per cent for bf16, a few tenths of a per cent for fp16)
    x = torch.randn(300, n_cols, device="cuda", dtype=dtype)
    y = softmax(x)
    assert y.dtype == dtype
    rtol = {torch.float16: 1e-2, torch.bfloat16: 4e-2}[dtype]
    torch.testing.assert_close(y.double(), softmax_ref(x), rtol=rtol, atol=1e-6)


# ---- layer norm --------------------------------------------------------------------------------

def layer_norm(x, weight, bias, eps, block_size=None):
    """Tutorial 05's host code (forward)."""
    y = poisoned_like(x)
    x_arg = x.reshape(-1, x.shape[-1])
    M, N = x_arg.shape
    mean = torch.full((M,), float("nan"), dtype=torch.float32, device=x.device)
    rstd = torch.full((M,), float("nan"), dtype=torch.float32, device=x.device)
    MAX_FUSED_SIZE = 65536 // x.element_size()
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
    if block_size is not None:
        BLOCK_SIZE = block_size
    if N > MAX_FUSED_SIZE:
        raise RuntimeError("This layer norm doesn't support feature dim >= 64KB.")
    num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
    T._layer_norm_fwd_fused[(M,)](x_arg, y, weight, bias, mean, rstd, x_arg.stride(0), N, eps,
                                  BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, num_ctas=1)
    return y, mean, rstd


def layer_norm_ref(x, weight, bias, eps):
    xd = x.double()
    mean = xd.mean(-1)
    var = xd.var(-1, unbiased=False)
    rstd = 1.0 / torch.sqrt(var + eps)
    y = (xd - mean[:, None]) * rstd[:, None] * weight.double() + bias.double()
    return y, mean, rstd


def check_layer_norm(x, y, mean, rstd, weight, bias, eps):
    y_ref, mean_ref, rstd_ref = layer_norm_ref(x, weight, bias, eps)
    torch.testing.assert_close(mean.double(), mean_ref, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(rstd.double(), rstd_ref, rtol=1e-5, atol=0)
    if x.dtype == torch.float16:
        # fp32 math, one rounding to fp16: within one fp16 ulp
        torch.testing.assert_close(y.double(), y_ref.to(torch.float16).double(), rtol=2.0**-10, atol=1e-5)
    else:
        torch.testing.assert_close(y.double(), y_ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
@pytest.mark.parametrize("N", [781, 1000, 1151, 4096, 8192])
def test_layer_norm(N, dtype):
    M = 1151
    weight = torch.rand(N, dtype=dtype, device="cuda")
    bias = torch.rand(N, dtype=dtype, device="cuda")
    x = -2.3 + 0.5 * torch.randn(M, N, dtype=dtype, device="cuda")
    eps = 1e-5
    y, mean, rstd = layer_norm(x, weight, bias, eps)
    check_layer_norm(x, y, mean, rstd, weight, bias, eps)


@pytest.mark.parametrize("N, block_size", [(5000, 1024), (4096, 512), (300, 128), (1, 16)])
def test_layer_norm_several_blocks_per_row(N, block_size):
    # BLOCK_SIZE below the row: the kernel's three loops each run cdiv(N, BLOCK_SIZE) times
    M = 97
    weight = torch.randn(N, device="cuda")
    bias = torch.randn(N, device="cuda")
    x = 3.0 + torch.randn(M, N, device="cuda")
    y, mean, rstd = layer_norm(x, weight, bias, 1e-5, block_size=block_size)
    check_layer_norm(x, y, mean, rstd, weight, bias, 1e-5)


def test_layer_norm_3d_input():
    # the tutorial reshapes (..., N) to rows
    x = torch.randn(4, 33, 512, device="cuda", dtype=torch.float16)
    weight = torch.rand(512, dtype=torch.float16, device="cuda")
    bias = torch.rand(512, dtype=torch.float16, device="cuda")
    y, mean, rstd = layer_norm(x, weight, bias, 1e-5)
    ref = torch.nn.functional.layer_norm(x.double(), (512,), weight.double(), bias.double(), 1e-5)
    torch.testing.assert_close(y.double(), ref.to(torch.float16).double(), rtol=2.0**-10, atol=1e-5)
    check_layer_norm(x.reshape(-1, 512), y.reshape(-1, 512), mean, rstd, weight, bias, 1e-5)
