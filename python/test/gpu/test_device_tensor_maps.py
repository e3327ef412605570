"""Descriptors made in the kernel (tl.make_tensor_descriptor) on Hopper: the
program encodes a tensor map in its slot of the kernel's global scratch
memory (from triton.set_allocator) and moves blocks with TMA.  Against
torch: ranks 1 to 5, strided (padded) tensors, every dtype the tensor map
encodes, blocks crossing the edge (zero or NaN fill on load, clipped
stores), grids over three axes (one slot per program), a pipelined matmul
over made descriptors, and the error without an allocator.  Outputs are
poisoned before every launch."""
import pytest

torch = pytest.importorskip("torch")

from gpu_reference import assert_same, poison_value, random_tensor  # noqa: E402
import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402
from tritium.errors import TritiumError  # noqa: E402
from tritium.runtime._allocation import NullAllocator  # noqa: E402

DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8, torch.uint8, torch.int16,
          torch.int32, torch.int64]


@pytest.fixture(autouse=True)
def torch_allocator():
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    yield
    triton.set_allocator(NullAllocator())


def strided(shape, dtype, fill=None):
    """A tensor of `shape` whose rows are padded by 16 or more elements to a
    multiple of 16 (every stride a multiple of 16 bytes, as tensor maps
    need, and not its shape's), random or `fill`.  The shapes' rows are
    multiples of 16 bytes for every dtype: a TMA store on the H100 writes
    whole 16-byte units of the innermost dimension, so a row of 72 int8
    gets bytes 72-79 written (Triton's descriptors, host or device, do the
    same: measured 2026-11-25)."""
    row = -(-(shape[-1] + 16) // 16) * 16
    big = torch.empty(tuple(shape[:-1]) + (row,), device="cuda", dtype=dtype)
    view = big[..., :shape[-1]]
    if fill is None:
        view.copy_(random_tensor(shape, dtype))
    else:
        big.fill_(fill)
    return big, view


@triton.jit
def add_one_1d(x_ptr, y_ptr, n, B0: tl.constexpr):
    x = tl.make_tensor_descriptor(x_ptr, [n], [1], [B0])
    y = tl.make_tensor_descriptor(y_ptr, [n], [1], [B0])
    y.store([tl.program_id(0) * B0], x.load([tl.program_id(0) * B0]) + 1)


@triton.jit
def add_one_2d(x_ptr, y_ptr, n0, n1, s0, B0: tl.constexpr, B1: tl.constexpr):
    x = tl.make_tensor_descriptor(x_ptr, [n0, n1], [s0, 1], [B0, B1])
    y = tl.make_tensor_descriptor(y_ptr, [n0, n1], [s0, 1], [B0, B1])
    at = [tl.program_id(0) * B0, tl.program_id(1) * B1]
    y.store(at, x.load(at) + 1)


@triton.jit
def add_one_3d(x_ptr, y_ptr, n0, n1, n2, s0, s1, B0: tl.constexpr, B1: tl.constexpr, B2: tl.constexpr):
    x = tl.make_tensor_descriptor(x_ptr, [n0, n1, n2], [s0, s1, 1], [B0, B1, B2])
    y = tl.make_tensor_descriptor(y_ptr, [n0, n1, n2], [s0, s1, 1], [B0, B1, B2])
    at = [tl.program_id(0) * B0, tl.program_id(1) * B1, tl.program_id(2) * B2]
    y.store(at, x.load(at) + 1)


@triton.jit
def add_one_5d(x_ptr, y_ptr, n0, n1, n2, n3, n4, s0, s1, s2, s3, B0: tl.constexpr, B1: tl.constexpr,
               B2: tl.constexpr, B3: tl.constexpr, B4: tl.constexpr, G1: tl.constexpr):
    x = tl.make_tensor_descriptor(x_ptr, [n0, n1, n2, n3, n4], [s0, s1, s2, s3, 1], [B0, B1, B2, B3, B4])
    y = tl.make_tensor_descriptor(y_ptr, [n0, n1, n2, n3, n4], [s0, s1, s2, s3, 1], [B0, B1, B2, B3, B4])
    p = tl.program_id(0)
    at = [(p // G1) * B0, (p % G1) * B1, tl.program_id(1) * B2, tl.program_id(2) * B3, 0]
    y.store(at, x.load(at) + 1)


def run_add_one(rank, dtype):
    """(the output tensor with its padding after the kernel, what it should hold)"""
    shape = {1: (1000,), 2: (100, 80), 3: (3, 40, 48), 5: (2, 3, 5, 10, 16)}[rank]
    block = {1: (256,), 2: (32, 32), 3: (2, 16, 32), 5: (1, 2, 4, 8, 16)}[rank]
    grid = [triton.cdiv(s, b) for s, b in zip(shape, block)]
    if rank == 1:
        x = random_tensor(shape, dtype)
        y = torch.full(shape, poison_value(dtype), device="cuda", dtype=dtype)
        add_one_1d[(grid[0],)](x, y, *shape, *block)
        return y, x + 1
    _, x = strided(shape, dtype)
    big_y, y = strided(shape, dtype, fill=poison_value(dtype))
    expected = big_y.clone()
    expected[..., :shape[-1]] = x + 1
    strides = list(x.stride()[:-1])
    if rank == 2:
        add_one_2d[tuple(grid)](x, y, *shape, *strides, *block)
    elif rank == 3:
        add_one_3d[tuple(grid)](x, y, *shape, *strides, *block)
    else:
        add_one_5d[(grid[0] * grid[1], grid[2], grid[3])](x, y, *shape, *strides, *block, grid[1])
    return big_y, expected


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("rank", [1, 2, 3, 5])
def test_made_descriptors_move_blocks_of_every_rank_and_dtype(rank, dtype):
    """Blocks cross the edges (the padding between rows stays poisoned:
    stores are clipped to the shape, loads outside it read zero)."""
    assert_same(*run_add_one(rank, dtype))


@triton.jit
def nan_padding_kernel(x_ptr, y_ptr, n0, n1, s0, B0: tl.constexpr, B1: tl.constexpr):
    x = tl.make_tensor_descriptor(x_ptr, [n0, n1], [s0, 1], [B0, B1], padding_option="nan")
    offs = tl.arange(0, B0)[:, None] * B1 + tl.arange(0, B1)[None, :]
    tl.store(y_ptr + offs, x.load([n0 - B0 // 2, n1 - B1 // 2]))


def test_nan_padding_fills_outside_the_tensor_with_nan():
    _, x = strided((40, 48), torch.float32)
    y = torch.zeros((16, 32), device="cuda")
    nan_padding_kernel[(1,)](x, y, 40, 48, x.stride(0), 16, 32)
    expected = torch.full((16, 32), float("nan"), device="cuda")
    expected[:8, :16] = x[32:, 32:]
    assert_same(y, expected)


@triton.jit
def matmul_made_descriptors(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b = tl.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BN, BK])
    c = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BM, BN])
    pm, pn = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=3):
        acc = tl.dot(a.load([pm * BM, k * BK]), b.load([pn * BN, k * BK]).T, acc)
    c.store([pm * BM, pn * BN], acc.to(tl.float16))


def test_matmul_over_made_descriptors():
    """Descriptors made before the K loop stream through the TMA ring."""
    M, N, K = 300, 264, 200
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((N, K), device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    kernel = matmul_made_descriptors[(triton.cdiv(M, 128), triton.cdiv(N, 64))](a, b, c, M, N, K, 128, 64, 64)
    assert "tensormap.replace" in kernel.asm["ptx"]
    torch.testing.assert_close(c, (a.float() @ b.float().T).half(), rtol=1e-2, atol=1e-2)


def test_made_descriptors_without_an_allocator_are_refused():
    triton.set_allocator(NullAllocator())
    x = torch.zeros(1000, device="cuda")
    with pytest.raises(TritiumError, match="must provide an allocator with triton.set_allocator"):
        add_one_1d[(4,)](x, x, 1000, 256)


@triton.jit
def made_with_a_stride(x_ptr, y_ptr, n0, n1, s0):
    x = tl.make_tensor_descriptor(x_ptr, [n0, n1], [s0, 1], [16, 32])
    y = tl.make_tensor_descriptor(y_ptr, [n0, n1], [s0, 1], [16, 32])
    y.store([0, 0], x.load([0, 0]))


def test_misaligned_stride_is_refused_at_launch():
    """A row stride of 200 bytes (the copy engine needs multiples of 16): the
    kernel, specialized without divisibility for it, has the launcher check
    it (a multiple of 8 fp16 elements), which refuses the launch with the
    rule and the kernel's line; a stride of 104 elements (208 bytes) runs."""
    x = torch.zeros((64, 100), device="cuda", dtype=torch.float16)  # rows of 200 bytes
    with pytest.raises(triton.TritiumError, match=r"argument 's0' of 'made_with_a_stride' is 100, not a multiple "
                                                  r"of 8: tensor descriptor made in the kernel at .*"
                                                  r"test_device_tensor_maps.py:\d+: its stride 0 \(2-byte elements\) "
                                                  r"must be a multiple of 16 bytes"):
        made_with_a_stride[(1,)](x, x, 64, 96, 100)
    a = torch.randn((64, 104), device="cuda", dtype=torch.float16)
    b = torch.zeros_like(a)
    made_with_a_stride[(1,)](a, b, 64, 96, 104)
    torch.testing.assert_close(b[:16, :32], a[:16, :32], atol=0, rtol=0)


MISALIGNED_BASE_SCRIPT = """
import torch, tritium as triton, tritium.language as tl

@triton.jit
def made_with_a_misaligned_base(x_ptr, y_ptr, n0, n1, s0):
    x = tl.make_tensor_descriptor(x_ptr, [n0, n1], [s0, 1], [16, 32])
    y = tl.make_tensor_descriptor(y_ptr, [n0, n1], [s0, 1], [16, 32])
    y.store([0, 0], x.load([0, 0]))

triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
x = torch.zeros((64, 104), device="cuda", dtype=torch.float16)  # rows of 208 bytes
made_with_a_misaligned_base[(1,)](x[:, 1:], x, 64, 96, 104)  # its base 2 bytes past an aligned one
try:
    triton.runtime.driver.synchronize()
    print("NO ERROR")
except triton.TritiumError as e:
    print("RAISED:", e)
"""


@pytest.mark.deliberate_fault
def test_misaligned_base_stops_the_kernel_with_the_rule(tmp_path):
    """A base address 2 bytes past a 16-byte boundary: the kernel,
    specialized without divisibility for the pointer, checks it before
    encoding the map and stops with the rule, not with a faulting copy.  In
    a child process: the assertion poisons the CUDA context."""
    import os
    import subprocess
    import sys
    script = tmp_path / "misaligned_base.py"
    script.write_text(MISALIGNED_BASE_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env)
    text = out.stdout + out.stderr
    assert "RAISED:" in out.stdout, text
    assert "ASSERT" in out.stdout.upper(), text
    assert "its base address must be a multiple of 16 bytes" in text, text
