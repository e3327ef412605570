"""Reductions on the GPU against torch/numpy: tl.sum, tl.max, tl.min,
tl.argmax, tl.argmin (ties: the lowest index wins, as in Triton),
tl.xor_sum, tl.reduce_or and tl.reduce with user @jit combine functions
(one operand, and a (value, index) pair), along axis 0 and 1 of 2-D tiles,
of 1-D blocks (to a scalar), of whole tiles (axis=None) and along each axis
of a 3-D tile; keep_dims; float32/float16/int32; num_warps 1/4/8; shapes
where the reduced dimension is spread across warps (1 x 4096 with 8 warps),
lies within a thread (a column of 4 elements) or has one element; masked
loads with `other` for sizes that are not powers of two.

Integer-valued data makes sums exact in any order, so every comparison is
exact equality (no tolerance); outputs are poisoned before every launch."""
import zlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402

from gpu_reference import poisoned_like  # noqa: E402

DTYPES = {"float32": torch.float32, "float16": torch.float16, "int32": torch.int32}


# ---- kernels ---------------------------------------------------------------------------------

@triton.jit
def _reduce(x, OP: tl.constexpr, AXIS: tl.constexpr, KEEP: tl.constexpr):
    if OP == "sum":
        r = tl.sum(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "max":
        r = tl.max(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "min":
        r = tl.min(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "argmax":
        r = tl.argmax(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "argmin":
        r = tl.argmin(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "xor_sum":
        r = tl.xor_sum(x, axis=AXIS, keep_dims=KEEP)
    else:
        tl.static_assert(OP == "reduce_or")
        r = tl.reduce_or(x, axis=AXIS, keep_dims=KEEP)
    return r


@triton.jit
def reduce_2d_kernel(X, Z, M, N, stride_xm, OTHER: tl.constexpr, OP: tl.constexpr, AXIS: tl.constexpr,
                     KEEP: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """One program reduces the whole M x N tile (masked to BLOCK_M x BLOCK_N)."""
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(X + rm[:, None] * stride_xm + rn[None, :], mask=mask, other=OTHER)
    r = _reduce(x, OP, AXIS, KEEP)
    if AXIS == 0:
        if KEEP:
            tl.store(Z + rn[None, :], r, mask=rn[None, :] < N)
        else:
            tl.store(Z + rn, r, mask=rn < N)
    else:
        if KEEP:
            tl.store(Z + rm[:, None], r, mask=rm[:, None] < M)
        else:
            tl.store(Z + rm, r, mask=rm < M)


@triton.jit
def reduce_rows_kernel(X, Z, M, N, stride_xm, OTHER: tl.constexpr, OP: tl.constexpr,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Many programs, each reducing BLOCK_M rows along axis 1."""
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(X + rm[:, None] * stride_xm + rn[None, :], mask=mask, other=OTHER)
    tl.store(Z + rm, _reduce(x, OP, 1, False), mask=rm < M)


@triton.jit
def reduce_1d_kernel(X, Z, N, OTHER: tl.constexpr, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=OTHER)
    tl.store(Z, _reduce(x, OP, 0, False))


@triton.jit
def reduce_all_kernel(X, Z, M, N, stride_xm, OTHER: tl.constexpr, OP: tl.constexpr,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """axis=None: every element of the 2-D tile to one scalar."""
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(X + rm[:, None] * stride_xm + rn[None, :], mask=mask, other=OTHER)
    if OP == "sum":
        r = tl.sum(x)
    else:
        tl.static_assert(OP == "max")
        r = tl.max(x)
    tl.store(Z, r)


@triton.jit
def reduce_3d_kernel(X, Z, A, B, C, OTHER: tl.constexpr, OP: tl.constexpr, AXIS: tl.constexpr,
                     BLOCK_A: tl.constexpr, BLOCK_B: tl.constexpr, BLOCK_C: tl.constexpr):
    """X: contiguous A x B x C; Z: contiguous, the shape without AXIS."""
    ra = tl.arange(0, BLOCK_A)[:, None, None]
    rb = tl.arange(0, BLOCK_B)[None, :, None]
    rc = tl.arange(0, BLOCK_C)[None, None, :]
    mask = (ra < A) & (rb < B) & (rc < C)
    x = tl.load(X + ra * (B * C) + rb * C + rc, mask=mask, other=OTHER)
    r = _reduce(x, OP, AXIS, True)  # keep_dims: the output indexes as the input
    if AXIS == 0:
        tl.store(Z + rb * C + rc, r, mask=(rb < B) & (rc < C))
    elif AXIS == 1:
        tl.store(Z + ra * C + rc, r, mask=(ra < A) & (rc < C))
    else:
        tl.store(Z + ra * B + rb, r, mask=(ra < A) & (rb < B))


@triton.jit
def _max_abs_combine(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


@triton.jit
def _first_max_combine(v1, i1, v2, i2):
    # the larger value; on a tie the lower index
    take1 = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(take1, v1, v2), tl.where(take1, i1, i2)


@triton.jit
def custom_reduce_kernel(X, V, I, M, N, stride_xm, AXIS: tl.constexpr, BLOCK_M: tl.constexpr,
                         BLOCK_N: tl.constexpr):
    """V: tl.reduce(x, AXIS, max |.|); I: the (value, index) pair reduction's
    index, both along AXIS."""
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(X + rm[:, None] * stride_xm + rn[None, :], mask=mask, other=-float("inf"))
    if AXIS == 0:
        idx = tl.broadcast_to(rm[:, None], (BLOCK_M, BLOCK_N))
    else:
        idx = tl.broadcast_to(rn[None, :], (BLOCK_M, BLOCK_N))
    v = tl.reduce(tl.where(mask, x, 0.0), AXIS, _max_abs_combine)
    _, i = tl.reduce((x, idx), AXIS, _first_max_combine)
    if AXIS == 0:
        tl.store(V + rn, v, mask=rn < N)
        tl.store(I + rn, i, mask=rn < N)
    else:
        tl.store(V + rm, v, mask=rm < M)
        tl.store(I + rm, i, mask=rm < M)


# ---- data and references -------------------------------------------------------------------

def identity(op, dtype):
    """The `other` of the masked load: the neutral element of the reduction."""
    if op in ("sum", "xor_sum", "reduce_or"):
        return 0
    if dtype is torch.int32:
        return -2**31 if op in ("max", "argmax") else 2**31 - 1
    return float("-inf") if op in ("max", "argmax") else float("inf")


def make_input(op, shape, dtype, gen):
    """Integer-valued data: exact sums in any order; a narrow range makes
    ties in max/min/argmax/argmin frequent."""
    if op in ("xor_sum", "reduce_or"):
        return torch.randint(-2**31, 2**31 - 1, shape, generator=gen, dtype=torch.int64).to(torch.int32).cuda()
    if op in ("argmax", "argmin"):
        lo, hi = -3, 4
    elif dtype is torch.float16:
        lo, hi = -2, 3  # |sums| stay far below 2048, where fp16 stops being exact on integers
    else:
        lo, hi = -100, 101
    return torch.randint(lo, hi, shape, generator=gen, dtype=torch.int64).to(dtype).cuda()


def reference(op, x, axis, keep=False):
    """Sums, maxima, minima by torch on the CPU in float64/int64; xor/or and
    argmax/argmin by numpy (whose argmax/argmin return the first index of
    the extreme value)."""
    xc = x.cpu()
    if op in ("xor_sum", "reduce_or"):
        a = xc.numpy()
        fn = np.bitwise_xor if op == "xor_sum" else np.bitwise_or
        r = fn.reduce(a, axis=axis, keepdims=keep) if axis is not None else fn.reduce(a, axis=None)
        return torch.from_numpy(np.asarray(r))  # np.asarray: a 1-D input reduces to a numpy scalar
    xd = xc.double() if x.dtype.is_floating_point else xc.long()
    if op in ("argmax", "argmin"):
        a = xd.numpy()
        idx = (np.argmax if op == "argmax" else np.argmin)(a, axis=axis)
        if keep:
            idx = np.expand_dims(idx, axis)
        return torch.from_numpy(np.asarray(idx, dtype=np.int32))
    if axis is None:
        return {"sum": xd.sum(), "max": xd.max(), "min": xd.min()}[op]
    return {"sum": lambda: xd.sum(axis, keepdim=keep), "max": lambda: xd.amax(axis, keepdim=keep),
            "min": lambda: xd.amin(axis, keepdim=keep)}[op]()


def out_dtype(op, dtype):
    return torch.int32 if op in ("argmax", "argmin") else dtype


def assert_equal(got, want):
    """Exact equality (values converted to the kernel's dtype first)."""
    want = want.to(got.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    torch.testing.assert_close(got.cpu(), want, rtol=0, atol=0)


FLOAT_INT_OPS = ["sum", "max", "min", "argmax", "argmin"]
INT_ONLY_OPS = ["xor_sum", "reduce_or"]


def op_dtype_cases():
    for op in FLOAT_INT_OPS:
        for dt in DTYPES:
            yield op, dt
    for op in INT_ONLY_OPS:
        yield op, "int32"


# ---- 2-D tiles, each axis --------------------------------------------------------------------

SHAPES_2D = [(1, 4096), (4096, 1), (4, 256), (256, 4), (64, 64), (13, 781), (300, 7)]


@pytest.mark.parametrize("shape", SHAPES_2D, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("op, dtype", list(op_dtype_cases()))
def test_reduce_2d(op, dtype, axis, shape):
    dt = DTYPES[dtype]
    m, n = shape
    gen = torch.Generator().manual_seed(zlib.crc32(repr((op, dtype, axis, shape)).encode()))
    x = make_input(op, shape, dt, gen)
    want = reference(op, x, axis)
    z = poisoned_like(x, (n if axis == 0 else m,), out_dtype(op, dt))
    reduce_2d_kernel[(1,)](x, z, m, n, x.stride(0), OTHER=identity(op, dt), OP=op, AXIS=axis, KEEP=False,
                           BLOCK_M=triton.next_power_of_2(m), BLOCK_N=triton.next_power_of_2(n), num_warps=4)
    assert_equal(z, want)


@pytest.mark.parametrize("num_warps", [1, 4, 8])
@pytest.mark.parametrize("shape, axis", [((1, 4096), 1), ((4096, 1), 0), ((32, 128), 1), ((32, 128), 0),
                                         ((128, 32), 0), ((2, 1000), 1), ((8, 8), 1)],
                         ids=lambda v: f"{v[0]}x{v[1]}" if isinstance(v, tuple) else f"axis{v}")
@pytest.mark.parametrize("op, dtype", [("sum", "float32"), ("max", "float16"), ("argmax", "float32"),
                                       ("argmin", "int32"), ("xor_sum", "int32")])
def test_reduce_num_warps(op, dtype, shape, axis, num_warps):
    # with 8 warps, a 1 x 4096 row spans every warp: the reduction crosses warps through shared memory
    dt = DTYPES[dtype]
    m, n = shape
    gen = torch.Generator().manual_seed(1000 + num_warps)
    x = make_input(op, shape, dt, gen)
    z = poisoned_like(x, (n if axis == 0 else m,), out_dtype(op, dt))
    reduce_2d_kernel[(1,)](x, z, m, n, x.stride(0), OTHER=identity(op, dt), OP=op, AXIS=axis, KEEP=False,
                           BLOCK_M=triton.next_power_of_2(m), BLOCK_N=triton.next_power_of_2(n),
                           num_warps=num_warps)
    assert_equal(z, reference(op, x, axis))


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("op", ["sum", "max", "argmin", "xor_sum"])
def test_keep_dims(op, axis):
    dt = torch.int32 if op == "xor_sum" else torch.float32
    m, n = 37, 100
    gen = torch.Generator().manual_seed(7)
    x = make_input(op, (m, n), dt, gen)
    out_shape = (1, n) if axis == 0 else (m, 1)
    z = poisoned_like(x, out_shape, out_dtype(op, dt))
    reduce_2d_kernel[(1,)](x, z, m, n, x.stride(0), OTHER=identity(op, dt), OP=op, AXIS=axis, KEEP=True,
                           BLOCK_M=64, BLOCK_N=128, num_warps=4)
    assert_equal(z, reference(op, x, axis, keep=True))


@pytest.mark.parametrize("n", [1000, 4096])
@pytest.mark.parametrize("op, dtype", [("sum", "float32"), ("sum", "int32"), ("max", "float32"),
                                       ("min", "float16"), ("argmax", "float16"), ("argmin", "float32")])
def test_reduce_many_programs(op, dtype, n):
    # 2 rows per program, 1000 rows: the same kernel over many programs
    dt = DTYPES[dtype]
    m = 1000
    gen = torch.Generator().manual_seed(n)
    x = make_input(op, (m, n), dt, gen)
    z = poisoned_like(x, (m,), out_dtype(op, dt))
    reduce_rows_kernel[(triton.cdiv(m, 2),)](x, z, m, n, x.stride(0), OTHER=identity(op, dt), OP=op,
                                             BLOCK_M=2, BLOCK_N=triton.next_power_of_2(n), num_warps=8)
    assert_equal(z, reference(op, x, 1))


def test_reduce_strided_rows():
    # a view whose rows are 3000 elements apart
    base = torch.randint(-100, 101, (50, 3000), dtype=torch.int64).float().cuda()
    x = base[:, 5:805]
    m, n = x.shape
    z = poisoned_like(x, (m,))
    reduce_2d_kernel[(1,)](x, z, m, n, x.stride(0), OTHER=0, OP="sum", AXIS=1, KEEP=False,
                           BLOCK_M=64, BLOCK_N=1024, num_warps=4)
    assert_equal(z, reference("sum", x, 1))


# ---- 1-D blocks and whole tiles to a scalar ----------------------------------------------------

@pytest.mark.parametrize("n, num_warps", [(1, 1), (31, 1), (1000, 4), (4096, 8), (4096, 1), (8192, 8)])
@pytest.mark.parametrize("op, dtype", list(op_dtype_cases()))
def test_reduce_1d(op, dtype, n, num_warps):
    dt = DTYPES[dtype]
    gen = torch.Generator().manual_seed(n * 17 + num_warps)
    x = make_input(op, (n,), dt, gen)
    z = poisoned_like(x, (1,), out_dtype(op, dt))
    reduce_1d_kernel[(1,)](x, z, n, OTHER=identity(op, dt), OP=op, BLOCK=triton.next_power_of_2(n),
                           num_warps=num_warps)
    assert_equal(z, reference(op, x, 0).reshape(1))


@pytest.mark.parametrize("shape", [(1, 1), (33, 65), (64, 64), (8, 1000)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("op, dtype", [("sum", "float32"), ("sum", "int32"), ("max", "float32"),
                                       ("max", "int32")])
def test_reduce_all(op, dtype, shape):
    dt = DTYPES[dtype]
    m, n = shape
    gen = torch.Generator().manual_seed(m * n)
    x = make_input(op, shape, dt, gen)
    z = poisoned_like(x, (1,))
    reduce_all_kernel[(1,)](x, z, m, n, x.stride(0), OTHER=identity(op, dt), OP=op,
                            BLOCK_M=triton.next_power_of_2(m), BLOCK_N=triton.next_power_of_2(n), num_warps=4)
    assert_equal(z, reference(op, x, None).reshape(1))


# ---- ties ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("n, num_warps", [(4096, 8), (1000, 4), (64, 1)])
def test_arg_ties_lowest_index_wins(op, dtype, n, num_warps):
    # every element equal but a few copies of the extreme, placed in different warps and threads
    dt = DTYPES[dtype]
    x = torch.zeros(n, dtype=dt)
    extreme = 5 if op == "argmax" else -5
    for pos in sorted({n - 1, n // 2, n // 3 + 1, 37 % n, 33 % n}):
        x[pos] = extreme
    x = x.cuda()
    z = poisoned_like(x, (1,), torch.int32)
    reduce_1d_kernel[(1,)](x, z, n, OTHER=identity(op, dt), OP=op, BLOCK=triton.next_power_of_2(n),
                           num_warps=num_warps)
    first = int((x.cpu() == extreme).nonzero()[0])
    assert int(z.item()) == first
    # all equal: index 0
    y = torch.full((n,), 3, dtype=dt, device="cuda")
    reduce_1d_kernel[(1,)](y, z, n, OTHER=identity(op, dt), OP=op, BLOCK=triton.next_power_of_2(n),
                           num_warps=num_warps)
    assert int(z.item()) == 0


@pytest.mark.parametrize("axis", [0, 1])
def test_arg_ties_2d(axis):
    # rows/columns made of two equal maxima at the positions 2k and 2k + 1 (mod the length)
    m, n = 64, 96
    x = torch.zeros(m, n)
    for i in range(m):
        for j in range(n):
            k = i if axis == 1 else j
            length = n if axis == 1 else m
            pos = j if axis == 1 else i
            if pos in ((2 * k) % length, (2 * k + 1) % length, (5 * k + 3) % length):
                x[i, j] = 1.0
    x = x.cuda()
    z = poisoned_like(x, (n if axis == 0 else m,), torch.int32)
    reduce_2d_kernel[(1,)](x, z, m, n, x.stride(0), OTHER=float("-inf"), OP="argmax", AXIS=axis, KEEP=False,
                           BLOCK_M=64, BLOCK_N=128, num_warps=4)
    assert_equal(z, reference("argmax", x, axis))


# ---- user combine functions ---------------------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("shape, num_warps", [((1, 4096), 8), ((77, 130), 4), ((256, 16), 1)])
def test_custom_combine(axis, shape, num_warps):
    m, n = shape
    gen = torch.Generator().manual_seed(m + n)
    x = torch.randint(-4, 5, shape, generator=gen, dtype=torch.int64).float().cuda()
    v = poisoned_like(x, (n if axis == 0 else m,))
    i = poisoned_like(x, (n if axis == 0 else m,), torch.int32)
    custom_reduce_kernel[(1,)](x, v, i, m, n, x.stride(0), AXIS=axis, BLOCK_M=triton.next_power_of_2(m),
                               BLOCK_N=triton.next_power_of_2(n), num_warps=num_warps)
    # a reduction over one element is that element: the combine never runs
    # (Triton's semantics), so |.| is not applied then
    want = x.cpu().abs().amax(axis) if x.shape[axis] > 1 else x.cpu().select(axis, 0)
    assert_equal(v, want)
    assert_equal(i, reference("argmax", x, axis))


# ---- 3-D ------------------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [1, 0, 2])
@pytest.mark.parametrize("shape", [(4, 8, 16), (3, 50, 7), (16, 2, 64)], ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("op, dtype", [("sum", "float32"), ("max", "int32"), ("argmin", "float16")])
def test_reduce_3d(op, dtype, shape, axis):
    dt = DTYPES[dtype]
    a, b, c = shape
    gen = torch.Generator().manual_seed(a * b * c + axis)
    x = make_input(op, shape, dt, gen)
    out_shape = tuple(s for d, s in enumerate(shape) if d != axis)
    z = poisoned_like(x, out_shape, out_dtype(op, dt))
    reduce_3d_kernel[(1,)](x, z, a, b, c, OTHER=identity(op, dt), OP=op, AXIS=axis,
                           BLOCK_A=triton.next_power_of_2(a), BLOCK_B=triton.next_power_of_2(b),
                           BLOCK_C=triton.next_power_of_2(c), num_warps=4)
    assert_equal(z, reference(op, x, axis))


# ---- a loop folding row reductions (ttg-optimize-thread-locality) ----------------------------

@pytest.mark.parametrize("op", ["sum", "max", "min", "product of sums"])
@pytest.mark.parametrize("block_n", [32, 64, 128])
@pytest.mark.parametrize("n, num_pid_n", [(512, 2), (2048, 4), (1024, 3)])
def test_a_loop_folding_row_reductions(op, block_n, n, num_pid_n):
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit"))
    from kernels.thread_locality import row_reduce_loop
    code = ["sum", "max", "min", "product of sums"].index(op)
    block_m = 32
    # small integers: sums exact in any order; the product of sums stays
    # exact with sums of 0 or +-1 per row and tile
    if code == 3:
        x = torch.zeros(2 * block_m, n, device="cuda", dtype=torch.float32)
        x[:, ::block_n] = torch.randint(-1, 2, (2 * block_m, n // block_n), device="cuda").float()
    else:
        x = torch.randint(-8, 9, (2 * block_m, n), device="cuda").float()
    y = poisoned_like(torch.empty(2 * block_m, num_pid_n, device="cuda", dtype=torch.float32))
    row_reduce_loop[(2, num_pid_n)](x, y, n, BLOCK_M=block_m, BLOCK_N=block_n, OP=code)
    tiles = x.view(2 * block_m, n // block_n, block_n)
    want = torch.empty_like(y)
    for p in range(num_pid_n):
        mine = tiles[:, p::num_pid_n]
        if code == 0:
            want[:, p] = mine.sum(dim=(1, 2))
        elif code == 1:
            want[:, p] = mine.amax(dim=(1, 2))
        elif code == 2:
            want[:, p] = mine.amin(dim=(1, 2))
        else:
            want[:, p] = mine.sum(dim=2).prod(dim=1)
    assert torch.equal(y, want)
