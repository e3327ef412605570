"""tl.gather, tl.histogram and a warp-shuffle layout conversion on the GPU
against torch: exact results, fresh random inputs, outputs poisoned before
every launch so a kernel that writes nothing fails."""
import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402


@triton.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr,
                  IM: tl.constexpr, IN: tl.constexpr, AXIS: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    offs = tl.arange(0, IM)[:, None] * IN + tl.arange(0, IN)[None, :]
    idx = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, tl.gather(src, idx, AXIS))


@triton.jit
def histogram_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr + tl.arange(0, BINS), tl.histogram(x, BINS, mask=offs < n))


@triton.jit
def transpose_copy_kernel(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    # With one warp and an 8x4 tile, the load's layout (lanes along rows)
    # and the transposed store's (lanes down columns) differ only in the
    # order of lanes: the conversion between them is one shfl.sync.idx.
    # (The load is volatile: a tile of no more elements than the block has
    # threads is otherwise loaded again in the store's layout, with no
    # conversion.)
    base = tl.program_id(0) * M * N
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + base + r * N + c, volatile=True)
    tl.store(y_ptr + base + c * M + r, x)


def poisoned(shape, dtype):
    out = torch.empty(shape, dtype=dtype, device="cuda")
    out.fill_(float("nan") if dtype.is_floating_point else -77)
    return out


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64])
@pytest.mark.parametrize("num_warps", [1, 4])
@pytest.mark.parametrize("M, N, IM, IN, axis", [
    (64, 32, 16, 32, 0),   # fewer rows gathered than the source has
    (32, 16, 64, 16, 0),   # more rows than the source: indices repeat
    (16, 64, 16, 8, 1),    # along the columns
    (128, 4, 128, 4, 0),
])
def test_gather_matches_torch(dtype, num_warps, M, N, IM, IN, axis):
    if dtype.is_floating_point:
        src = torch.randn(M, N, device="cuda").to(dtype)
    else:
        src = torch.randint(-(1 << 40), 1 << 40, (M, N), device="cuda", dtype=dtype)
    extent = M if axis == 0 else N
    idx = torch.randint(0, extent, (IM, IN), device="cuda", dtype=torch.int32)
    out = poisoned((IM, IN), dtype)
    gather_kernel[(1,)](src, idx, out, M=M, N=N, IM=IM, IN=IN, AXIS=axis, num_warps=num_warps)
    expected = torch.gather(src, axis, idx.long())
    assert torch.equal(out, expected)


@pytest.mark.parametrize("n", [1, 300, 1024])
@pytest.mark.parametrize("bins", [16, 256, 1024])
@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_histogram_matches_bincount(n, bins, num_warps):
    # values outside [0, bins) and elements past n are not counted
    x = torch.randint(-8, bins + 8, (1024,), device="cuda", dtype=torch.int32)
    out = poisoned((bins,), torch.int32)
    histogram_kernel[(1,)](x, out, n, BLOCK=1024, BINS=bins, num_warps=num_warps)
    valid = x[:n]
    valid = valid[(valid >= 0) & (valid < bins)].long()
    expected = torch.bincount(valid, minlength=bins).to(torch.int32)
    assert torch.equal(out, expected)


def test_histogram_of_uint8_counts_values_above_127():
    # unsigned bytes are widened with a zero extension: 200 lands in bin 200
    x = torch.randint(0, 256, (1024,), device="cuda", dtype=torch.uint8)
    out = poisoned((256,), torch.int32)
    histogram_kernel[(1,)](x, out, 1024, BLOCK=1024, BINS=256)
    expected = torch.bincount(x.long(), minlength=256).to(torch.int32)
    assert torch.equal(out, expected)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64])
@pytest.mark.parametrize("M, N", [(8, 4), (4, 8)])
def test_warp_shuffle_conversion_matches_transpose(dtype, M, N):
    programs = 37
    x = torch.randn(programs, M, N, device="cuda").to(dtype)
    y = poisoned((programs, N, M), dtype)
    kernel = transpose_copy_kernel[(programs,)](x, y, M=M, N=N, num_warps=1)
    assert torch.equal(y, x.transpose(1, 2))
    if kernel is not None and hasattr(kernel, "asm"):
        assert "shfl.sync.idx" in kernel.asm["ptx"]
