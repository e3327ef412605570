"""Element-wise kernels on the GPU against torch: masks, sizes that are not
multiples of the block, int64 offsets, several num_warps, strided and
non-contiguous inputs, fused chains in bf16/fp16.  Outputs are poisoned
before every launch so a kernel that writes nothing fails."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from kernel_sources import load_kernels  # noqa: E402

# tutorial 01's vector add; x * sigmoid(x) + y stored in the output's dtype
K = load_kernels(("tutorials.py", "elementwise.py"), triton, tl, "tritium")
add_kernel, silu_mul_add_kernel = K.add_kernel, K.silu_mul_add_kernel


def poisoned_like(t):
    out = torch.empty_like(t)
    if out.dtype.is_floating_point:
        out.fill_(float("nan"))
    else:
        out.fill_(-77)
    return out


@pytest.mark.parametrize("n", [1, 127, 1024, 98432, 1 << 20])
@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_vector_add(n, num_warps):
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = poisoned_like(x)
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024, num_warps=num_warps)
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.int32, torch.int64, torch.int8])
def test_vector_add_dtypes(dtype):
    n = 5000
    if dtype.is_floating_point:
        x = torch.randn(n, device="cuda").to(dtype)
        y = torch.randn(n, device="cuda").to(dtype)
    else:
        x = torch.randint(-100, 100, (n,), device="cuda", dtype=dtype)
        y = torch.randint(-100, 100, (n,), device="cuda", dtype=dtype)
    out = poisoned_like(x)
    add_kernel[(triton.cdiv(n, 512),)](x, y, out, n, BLOCK_SIZE=512)
    torch.testing.assert_close(out, x + y, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_fused_chain(dtype):
    n = 100_003
    x = torch.randn(n, device="cuda", dtype=dtype)
    y = torch.randn(n, device="cuda", dtype=dtype)
    out = poisoned_like(x)
    silu_mul_add_kernel[(triton.cdiv(n, 2048),)](x, y, out, n, BLOCK=2048)
    ref = (x.double() * torch.sigmoid(x.double()) + y.double()).to(dtype)
    tol = {torch.bfloat16: 2e-2, torch.float16: 2e-3, torch.float32: 1e-5}[dtype]
    torch.testing.assert_close(out.float(), ref.float(), rtol=tol, atol=tol)


def test_maxnreg_caps_registers_and_keeps_results():
    # maxnreg is a launch option (Triton's): the capped kernel is its own
    # specialization, spills if it must, and computes the same values.
    n = 100_003
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    ref = x.double() * torch.sigmoid(x.double()) + y.double()
    for maxnreg in (None, 24, None):
        out = poisoned_like(x)
        silu_mul_add_kernel[(triton.cdiv(n, 2048),)](x, y, out, n, BLOCK=2048, maxnreg=maxnreg)
        torch.testing.assert_close(out.double(), ref, rtol=1e-5, atol=1e-5)
    capped = silu_mul_add_kernel.warmup(x, y, out, n, BLOCK=2048, maxnreg=24, grid=(1,))
    free = silu_mul_add_kernel.warmup(x, y, out, n, BLOCK=2048, grid=(1,))
    assert capped.metadata["maxnreg"] == 24 and capped.n_regs <= 24 < free.n_regs


@triton.jit
def copy_2d_kernel(src, dst, M, N, stride_sm, stride_sn, stride_dm, stride_dn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(src + rm[:, None] * stride_sm + rn[None, :] * stride_sn, mask=mask, other=0)
    tl.store(dst + rm[:, None] * stride_dm + rn[None, :] * stride_dn, x, mask=mask)


@pytest.mark.parametrize("shape", [(64, 64), (1000, 300), (517, 1029)])
def test_transpose(shape):
    m, n = shape
    src = torch.randn(m, n, device="cuda")
    dst = torch.full((n, m), float("nan"), device="cuda")
    grid = (triton.cdiv(m, 32), triton.cdiv(n, 32))
    # write dst^T: dst[j, i] = src[i, j]
    copy_2d_kernel[grid](src, dst, m, n, src.stride(0), src.stride(1), dst.stride(1), dst.stride(0),
                         BLOCK_M=32, BLOCK_N=32)
    torch.testing.assert_close(dst, src.t(), rtol=0, atol=0)


def test_non_contiguous_input():
    base = torch.randn(300, 400, device="cuda")
    src = base[::2, 1::3]  # strided view
    m, n = src.shape
    dst = torch.full((m, n), float("nan"), device="cuda")
    copy_2d_kernel[(triton.cdiv(m, 16), triton.cdiv(n, 64))](src, dst, m, n, src.stride(0), src.stride(1),
                                                              dst.stride(0), dst.stride(1),
                                                              BLOCK_M=16, BLOCK_N=64)
    torch.testing.assert_close(dst, src, rtol=0, atol=0)


@triton.jit
def int64_offset_kernel(x_ptr, out_ptr, start, BLOCK: tl.constexpr):
    offs = start + tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x * 2)


def test_int64_offsets():
    # offsets beyond 2**31 elements of int8 (2.1 GiB), indexed with i64
    n = (1 << 31) + 4096
    try:
        x = torch.ones(n, dtype=torch.int8, device="cuda")
    except RuntimeError:
        pytest.skip("not enough GPU memory")
    out = torch.zeros_like(x)
    start = (1 << 31) - 1024
    int64_offset_kernel[(4,)](x, out, start, BLOCK=1024)
    assert int(out[start:start + 4096].sum()) == 2 * 4096
    assert int(out[:start].sum()) == 0


def test_cpu_tensor_is_rejected():
    x = torch.randn(16)
    with pytest.raises(triton.TritiumError, match="cuda"):
        add_kernel[(1,)](x, x, x, 16, BLOCK_SIZE=16)


def test_zero_grid_is_rejected():
    x = torch.randn(16, device="cuda")
    with pytest.raises(triton.TritiumError, match="grid"):
        add_kernel[(0,)](x, x, x, 16, BLOCK_SIZE=16)


def test_vector_add_ptx_is_vectorized():
    x = torch.randn(4096, device="cuda")
    kernel = add_kernel.warmup(x, x, x, 4096, BLOCK_SIZE=1024, grid=(4,))
    assert "ld.global.v4" in kernel.asm["ptx"]
    assert "st.global.v4" in kernel.asm["ptx"]


ILLEGAL_ADDRESS_SCRIPT = """
import torch, tritium as triton, tritium.language as tl

@triton.jit
def bad_kernel(p, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK).to(tl.int64) * (1 << 40)
    tl.store(p + offs, tl.full([BLOCK], 1.0, tl.float32))

x = torch.zeros(16, device="cuda")
bad_kernel[(1,)](x, BLOCK=16)
try:
    triton.runtime.driver.synchronize()
except triton.TritiumError as e:
    print("RAISED:", e)
"""


@pytest.mark.deliberate_fault
def test_illegal_address_surfaces_as_exception(tmp_path):
    # In a child process: the error poisons the CUDA context for good.  The
    # script is a file because @jit reads the kernel's source.
    import os
    import subprocess
    import sys
    script = tmp_path / "illegal_address.py"
    script.write_text(ILLEGAL_ADDRESS_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env)
    assert "RAISED:" in out.stdout, out.stdout + out.stderr
    assert "ILLEGAL" in out.stdout and "bad_kernel" in out.stdout


@triton.jit(debug=True)
def checked_sqrt_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.device_assert(x >= 0, "checked_sqrt needs x >= 0")
    tl.store(y_ptr + offs, tl.sqrt(x), mask=offs < n)


def test_device_assert_that_holds_changes_nothing():
    x = torch.rand(1000, device="cuda")
    y = torch.full_like(x, float("nan"))
    checked_sqrt_kernel[(4,)](x, y, 1000, BLOCK=256)
    triton.runtime.driver.synchronize()
    torch.testing.assert_close(y, torch.sqrt(x))


FAILING_ASSERT_SCRIPT = """
import torch, tritium as triton, tritium.language as tl

@triton.jit(debug=True)
def checked_sqrt_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.device_assert(x >= 0, "checked_sqrt needs x >= 0")
    tl.store(y_ptr + offs, tl.sqrt(x), mask=offs < n)

x = torch.rand(1000, device="cuda")
x[517] = -1.0
checked_sqrt_kernel[(4,)](x, torch.empty_like(x), 1000, BLOCK=256)
try:
    triton.runtime.driver.synchronize()
    print("NO ERROR")
except triton.TritiumError as e:
    print("RAISED:", e)
"""


@pytest.mark.deliberate_fault
def test_failing_device_assert_stops_the_kernel_with_its_message(tmp_path):
    # In a child process: the assertion poisons the CUDA context for good.
    import os
    import subprocess
    import sys
    script = tmp_path / "failing_assert.py"
    script.write_text(FAILING_ASSERT_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env)
    text = out.stdout + out.stderr
    assert "RAISED:" in out.stdout, text
    assert "ASSERT" in out.stdout.upper(), text
    assert "checked_sqrt needs x >= 0" in text, text
