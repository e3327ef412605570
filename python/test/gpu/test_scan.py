"""Scans on the GPU against torch: tl.cumsum / tl.cumprod along axis 0 and 1
of 2-D tiles, reversed, over sizes that are not multiples of the tile
(masked loads fill with the combine's identity), a 1-D tile longer than the
CTA's threads, and a two-operand associative_scan (a linear recurrence,
whose combine is not commutative).  Outputs are poisoned before launch."""
import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402


@triton.jit
def scan_2d_kernel(x_ptr, out_ptr, M, N, AXIS: tl.constexpr, REVERSE: tl.constexpr, PROD: tl.constexpr,
                   BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    mask = (rows < M) & (cols < N)
    offs = rows * N + cols
    if PROD:
        x = tl.load(x_ptr + offs, mask=mask, other=1.0)
        y = tl.cumprod(x, AXIS, reverse=REVERSE)
    else:
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        y = tl.cumsum(x, AXIS, reverse=REVERSE)
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def cumsum_1d_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr + offs, tl.cumsum(x, 0, reverse=REVERSE), mask=offs < n)


@triton.jit
def _affine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def recurrence_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs, mask=offs < n, other=1.0)
    b = tl.load(b_ptr + offs, mask=offs < n, other=0.0)
    _, h = tl.associative_scan((a, b), 0, _affine, reverse=REVERSE)
    tl.store(out_ptr + offs, h, mask=offs < n)


def poisoned(shape, dtype):
    out = torch.empty(shape, device="cuda", dtype=dtype)
    out.fill_(float("nan") if dtype.is_floating_point else -77)
    return out


def torch_scan(x, axis, reverse, prod):
    x64 = x.double()
    if reverse:
        x64 = x64.flip(axis)
    y = torch.cumprod(x64, axis) if prod else torch.cumsum(x64, axis)
    return y.flip(axis) if reverse else y


@pytest.mark.parametrize("shape", [(64, 64), (37, 100), (128, 8), (5, 200)])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("prod", [False, True])
@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_scan_2d(shape, axis, reverse, prod, num_warps):
    m, n = shape
    if prod:  # keep products near 1
        x = 1.0 + 0.01 * torch.randn(m, n, device="cuda")
    else:
        x = torch.randn(m, n, device="cuda")
    out = poisoned((m, n), torch.float32)
    scan_2d_kernel[(1,)](x, out, m, n, AXIS=axis, REVERSE=reverse, PROD=prod, BM=triton.next_power_of_2(m),
                         BN=triton.next_power_of_2(n), num_warps=num_warps)
    torch.testing.assert_close(out.double(), torch_scan(x, axis, reverse, prod), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("n", [1, 33, 1000, 4096])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_cumsum_1d_int(n, reverse, num_warps):
    x = torch.randint(-1000, 1000, (n,), device="cuda", dtype=torch.int32)
    out = poisoned((n,), torch.int32)
    cumsum_1d_kernel[(1,)](x, out, n, BLOCK=triton.next_power_of_2(n), REVERSE=reverse, num_warps=num_warps)
    expected = torch_scan(x, 0, reverse, False).to(torch.int32)
    torch.testing.assert_close(out, expected, rtol=0, atol=0)


@pytest.mark.parametrize("n", [100, 512, 2048])
@pytest.mark.parametrize("reverse", [False, True])
def test_two_operand_recurrence(n, reverse):
    a = 0.5 + 0.5 * torch.rand(n, device="cuda")
    b = torch.randn(n, device="cuda")
    out = poisoned((n,), torch.float32)
    recurrence_kernel[(1,)](a, b, out, n, BLOCK=triton.next_power_of_2(n), REVERSE=reverse)
    # h_i = a_i * h_{i-1} + b_i in scan order
    order = range(n - 1, -1, -1) if reverse else range(n)
    a64, b64 = a.double().cpu(), b.double().cpu()
    h, expected = 0.0, torch.empty(n, dtype=torch.float64)
    for i in order:
        h = a64[i] * h + b64[i]
        expected[i] = h
    torch.testing.assert_close(out.double().cpu(), expected, rtol=1e-4, atol=1e-4)


@triton.jit
def transposed_tile_cumsum_kernel(x_ptr, bias_ptr, out_ptr, sum_ptr, H, L, BH: tl.constexpr, BL: tl.constexpr):
    # x is stored [L, H] (heads fastest) and read as an [H, L] tile, so the
    # load coalesces along H; both results are stored [H, L] (L fastest):
    # the tile plus a per-head bias, through exp, and its running sum along L
    h = tl.arange(0, BH)
    pos = tl.arange(0, BL)
    mask = (h[:, None] < H) & (pos[None, :] < L)
    x = tl.load(x_ptr + pos[None, :] * H + h[:, None], mask=mask, other=0.0)
    bias = tl.load(bias_ptr + h, mask=h < H, other=0.0)
    y = tl.exp(x + bias[:, None])
    y = tl.where(mask, y, 0.0)
    tl.store(out_ptr + h[:, None] * L + pos[None, :], y, mask=mask)
    tl.store(sum_ptr + h[:, None] * L + pos[None, :], tl.cumsum(y, axis=1), mask=mask)


@pytest.mark.parametrize("H,L,num_warps", [(64, 256, 4), (80, 200, 4), (16, 256, 8), (64, 256, 1)])
def test_tile_loaded_across_and_stored_along_the_scan(H, L, num_warps):
    x = 0.1 * torch.randn(L, H, device="cuda")
    bias = 0.1 * torch.randn(H, device="cuda")
    out = poisoned((H, L), torch.float32)
    sums = poisoned((H, L), torch.float32)
    transposed_tile_cumsum_kernel[(1,)](x, bias, out, sums, H, L, BH=triton.next_power_of_2(H),
                                        BL=triton.next_power_of_2(L), num_warps=num_warps)
    want = torch.exp(x.double().T + bias.double()[:, None])
    torch.testing.assert_close(out.double(), want, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(sums.double(), want.cumsum(1), rtol=1e-4, atol=1e-4)
