"""Tensor descriptors on the GPU against torch: host TensorDescriptor
arguments loaded and stored through the copy engine (TMA) on Hopper, or
through pointers for blocks it cannot move: ranks 1 to 5, every dtype
the tensor map encodes, blocks wider than one swizzle slab and taller
than one box, blocks crossing the tensor's edge (zero fill on load,
clipped stores), descriptors passed to @jit helpers, a matmul over
descriptor loads, and the errors for descriptors TMA cannot use.
Outputs are poisoned before every launch."""
import pytest

torch = pytest.importorskip("torch")

from gpu_reference import assert_same, poison_value, random_tensor  # noqa: E402
import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402
from tritium.errors import TritiumError  # noqa: E402
from tritium.tools.tensor_descriptor import TensorDescriptor  # noqa: E402


def attention_reference(q, k, v, causal):
    """SDPA on fp32 copies (its math backend, gpu_reference.sdpa_math), in q's dtype."""
    from gpu_reference import sdpa_math
    return sdpa_math(q.float(), k.float(), v.float(), causal).to(q.dtype)


DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.int8, torch.uint8, torch.int16, torch.int32,
          torch.int64, torch.float64]


@triton.jit
def copy_2d_kernel(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = in_desc.load([pm * BM, pn * BN])
    out_desc.store([pm * BM, pn * BN], x)


def padded_output(shape, dtype, pad=16):
    """A poisoned tensor of `shape` inside a larger one (its rows padded by
    `pad` elements and one extra row), so clipped stores can be checked."""
    big = torch.full((shape[0] + 1, shape[1] + pad), poison_value(dtype), device="cuda", dtype=dtype)
    return big, big[:shape[0], :shape[1]]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("block", [(64, 64), (32, 128), (16, 16), (8, 256), (128, 32)])
def test_copy_2d(dtype, block):
    BM, BN = block
    if BN * dtype.itemsize % 16:
        pytest.skip("inner block under 16 bytes: covered by test_blocks_through_pointers")
    M, N = 100, 208  # rows of a multiple of 16 bytes, as tensor maps need
    x = random_tensor((M, N), dtype)
    big, out = padded_output((M, N), dtype)
    before = big.clone()
    copy_2d_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        TensorDescriptor.from_tensor(x, [BM, BN]),
        TensorDescriptor(out, list(out.shape), list(out.stride()), [BM, BN]), BM, BN)
    assert_same(out, x)
    rest = torch.ones_like(big, dtype=torch.bool)
    rest[:M, :N] = False
    assert_same(big[rest], before[rest])  # nothing stored outside the tensor


@triton.jit
def load_block_kernel(in_desc, out_ptr, ld, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = in_desc.load([pm * BM, pn * BN])
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    tl.store(out_ptr + rows[:, None] * ld + cols[None, :], x)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.int8], ids=str)
def test_out_of_bounds_loads_read_zero(dtype):
    M, N, BM, BN = 50, 70, 32, 64
    x = random_tensor((M, 80), dtype)[:, :N]  # rows 80 elements apart: 16-byte multiples
    gm, gn = triton.cdiv(M, BM), triton.cdiv(N, BN)
    out = torch.full((gm * BM, gn * BN), poison_value(dtype), device="cuda", dtype=dtype)
    load_block_kernel[(gm, gn)](TensorDescriptor(x, [M, N], list(x.stride()), [BM, BN]), out, out.stride(0), BM, BN)
    expected = torch.zeros_like(out)
    expected[:M, :N] = x
    assert_same(out, expected)


@triton.jit
def copy_1d_kernel(in_desc, out_desc, B: tl.constexpr):
    p = tl.program_id(0)
    out_desc.store([p * B], in_desc.load([p * B]) * 2)


@pytest.mark.parametrize("dtype,block", [(torch.float32, 256), (torch.float32, 1024), (torch.float16, 64),
                                         (torch.int8, 16), (torch.int64, 32)], ids=str)
def test_rank_1(dtype, block):
    n = 1000
    x = random_tensor((n,), dtype)
    out = torch.full((n,), poison_value(dtype), device="cuda", dtype=dtype)
    copy_1d_kernel[(triton.cdiv(n, block),)](TensorDescriptor.from_tensor(x, [block]),
                                             TensorDescriptor.from_tensor(out, [block]), block)
    assert_same(out, x * 2)


@triton.jit
def copy_3d_kernel(in_desc, out_desc, B0: tl.constexpr, B1: tl.constexpr, B2: tl.constexpr):
    offsets = [tl.program_id(0) * B0, tl.program_id(1) * B1, tl.program_id(2) * B2]
    out_desc.store(offsets, in_desc.load(offsets) + 1)


@triton.jit
def copy_4d_kernel(in_desc, out_desc, G1: tl.constexpr, B0: tl.constexpr, B1: tl.constexpr, B2: tl.constexpr,
                   B3: tl.constexpr):
    p0 = tl.program_id(0)
    offsets = [(p0 // G1) * B0, (p0 % G1) * B1, tl.program_id(1) * B2, tl.program_id(2) * B3]
    x = tl.load_tensor_descriptor(in_desc, offsets)
    tl.store_tensor_descriptor(out_desc, offsets, x + 1)


@triton.jit
def copy_5d_kernel(in_desc, out_desc, G1: tl.constexpr, G2: tl.constexpr, B0: tl.constexpr, B1: tl.constexpr,
                   B2: tl.constexpr, B3: tl.constexpr, B4: tl.constexpr):
    p0 = tl.program_id(0)
    offsets = [(p0 // (G1 * G2)) * B0, ((p0 // G2) % G1) * B1, (p0 % G2) * B2, tl.program_id(1) * B3,
               tl.program_id(2) * B4]
    out_desc.store(offsets, in_desc.load(offsets) + 1)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.int32], ids=str)
@pytest.mark.parametrize("rank", [3, 4, 5])
def test_ranks_3_to_5(rank, dtype):
    shape = {3: (3, 40, 48), 4: (3, 5, 20, 32), 5: (2, 3, 5, 10, 16)}[rank]
    block = {3: (2, 16, 32), 4: (2, 4, 8, 16), 5: (1, 2, 4, 8, 16)}[rank]
    x = random_tensor(shape, dtype)
    out = torch.full(shape, poison_value(dtype), device="cuda", dtype=dtype)
    grid = [triton.cdiv(s, b) for s, b in zip(shape, block)]
    d_in, d_out = TensorDescriptor.from_tensor(x, list(block)), TensorDescriptor.from_tensor(out, list(block))
    if rank == 3:
        copy_3d_kernel[tuple(grid)](d_in, d_out, *block)
    elif rank == 4:
        copy_4d_kernel[(grid[0] * grid[1], grid[2], grid[3])](d_in, d_out, grid[1], *block)
    else:
        copy_5d_kernel[(grid[0] * grid[1] * grid[2], grid[3], grid[4])](d_in, d_out, grid[1], grid[2], *block)
    assert_same(out, x + 1)


@pytest.mark.parametrize("block,dtype", [((64, 4), torch.float16), ((16, 8), torch.int8), ((4, 512), torch.int8)],
                         ids=str)
def test_blocks_through_pointers(block, dtype):
    """Blocks the copy engine cannot move (rows under 16 bytes, unswizzled
    rows over 256 elements) load and store through pointers."""
    BM, BN = block
    M, N = 70, 608
    x = random_tensor((M, N), dtype)
    big, out = padded_output((M, N), dtype)
    copy_2d_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        TensorDescriptor.from_tensor(x, [BM, BN]),
        TensorDescriptor(out, list(out.shape), list(out.stride()), [BM, BN]), BM, BN)
    assert_same(out, x)


@triton.jit
def scaled_tile(desc, row, col, scale):
    return desc.load([row, col]) * scale


@triton.jit
def helper_kernel(in_desc, out_desc, scale, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    out_desc.store([pm * BM, pn * BN], scaled_tile(in_desc, pm * BM, pn * BN, scale))


def test_descriptor_passed_to_helper():
    M, N, BM, BN = 128, 96, 64, 32
    x = random_tensor((M, N), torch.float32)
    out = torch.full((M, N), float("nan"), device="cuda")
    helper_kernel[(M // BM, N // BN)](TensorDescriptor.from_tensor(x, [BM, BN]),
                                      TensorDescriptor.from_tensor(out, [BM, BN]), 3.0, BM, BN)
    assert_same(out, x * 3.0)


@triton.jit
def descriptor_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pm * BM, k])
        b = b_desc.load([k, pn * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pm * BM, pn * BN], acc.to(tl.float16))


@pytest.mark.parametrize("shape", [(256, 256, 256), (200, 136, 304)])
def test_matmul_over_descriptors(shape):
    M, N, K = shape
    BM, BN, BK = 128, 64, 64
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((K, N), device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    # (K and N multiples of 8 elements keep the row strides 16-byte multiples)
    descriptor_matmul[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BK, BN]),
        TensorDescriptor.from_tensor(c, [BM, BN]), K, BM, BN, BK)
    torch.testing.assert_close(c, (a.float() @ b.float()).half(), rtol=1e-2, atol=1e-1)


def test_misaligned_base_is_refused():
    x = torch.zeros(1024, device="cuda", dtype=torch.float16)
    out = torch.zeros(1024, device="cuda", dtype=torch.float16)
    with pytest.raises(TritiumError, match="16-byte"):
        copy_1d_kernel[(1,)](TensorDescriptor(x[1:], [1000], [1], [64]), TensorDescriptor.from_tensor(out, [64]),
                             64)


def test_bad_descriptors_are_refused():
    x = torch.zeros((64, 60), device="cuda", dtype=torch.float16)
    with pytest.raises(TritiumError, match="multiples of 16 bytes"):
        TensorDescriptor(x, [64, 30], [30, 1], [16, 16])
    with pytest.raises(TritiumError, match="contiguous"):
        TensorDescriptor(x, [60, 64], [1, 60], [16, 16])
    with pytest.raises(TritiumError, match="powers of two"):
        TensorDescriptor.from_tensor(torch.zeros((64, 64), device="cuda"), [16, 24])
    with pytest.raises(TritiumError, match="rank 1 to 5"):
        TensorDescriptor(x, [1] * 6, [1] * 6, [1] * 6)


# ---- flash attention forward over descriptors, against torch's SDPA ------------------------------

@triton.jit
def attention_tma_kernel(sm_scale, desc_q, desc_k, desc_v, desc_o, N_CTX, HEAD_DIM: tl.constexpr,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    """Q, K, V, O as (Z * H, N, HEAD_DIM) descriptors of blocks [1, rows, HEAD_DIM]:
    rows past N read as zero (and are masked), stores past N are clipped."""
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = desc_q.load([off_hz, start_m * BLOCK_M, 0]).reshape(BLOCK_M, HEAD_DIM)
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        k = desc_k.load([off_hz, start_n, 0]).reshape(BLOCK_N, HEAD_DIM)
        qk = tl.dot(q, k.T) * qk_scale
        keep = (start_n + offs_n[None, :]) < N_CTX
        if CAUSAL:
            keep = keep & (offs_m[:, None] >= start_n + offs_n[None, :])
        qk = tl.where(keep, qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = desc_v.load([off_hz, start_n, 0]).reshape(BLOCK_N, HEAD_DIM)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_ij
    acc = acc / l_i[:, None]
    desc_o.store([off_hz, start_m * BLOCK_M, 0], acc.to(q.dtype).reshape(1, BLOCK_M, HEAD_DIM))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("n", [200, 256])
def test_attention_forward_matches_sdpa(dtype, causal, head_dim, n):
    Z, H, BM, BN = 2, 3, 64, 64
    torch.manual_seed(0)
    q, k, v = (torch.randn(Z, H, n, head_dim, device="cuda", dtype=dtype) for _ in range(3))
    o = torch.full_like(q, float("nan"))
    blocks = lambda t, rows: TensorDescriptor(t.view(Z * H, n, head_dim), [Z * H, n, head_dim],  # noqa: E731
                                              [n * head_dim, head_dim, 1], [1, rows, head_dim])
    attention_tma_kernel[(triton.cdiv(n, BM), Z * H)](head_dim ** -0.5, blocks(q, BM), blocks(k, BN), blocks(v, BN),
                                                       blocks(o, BM), n, head_dim, BM, BN, causal)
    want = attention_reference(q, k, v, causal)
    torch.testing.assert_close(o, want, rtol=2e-2, atol=2e-2)


def test_attention_benchmark_kernel_matches_sdpa():
    """bench/kernels/attention.py's attn_fwd_tma (2-D descriptors, TMA rings
    for K and V, asynchronous P V) in the configurations the benchmark picks,
    and at 2 stages, where K and V land on barriers of their own."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "bench"))
    from kernel_sources import load_kernels
    kernels = load_kernels("attention.py", triton, tl, "tritium")
    Z, H, N = 1, 4, 1024
    for dtype in (torch.float16, torch.bfloat16):
        for D, (bm, bn, stages, warps) in [(128, (128, 128, 3, 8)), (64, (128, 64, 3, 4)), (128, (128, 64, 2, 4)),
                                           (128, (128, 128, 2, 8))]:
            for causal in (False, True):
                q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=dtype) for _ in range(3))
                o = torch.full_like(q, float("nan"))
                rows = lambda t, block: TensorDescriptor(t, [Z * H * N, D], [D, 1], [block, D])  # noqa: E731
                kernels.attn_fwd_tma[(N // bm, Z * H)](D ** -0.5, H, rows(q, bm), rows(k, bn), rows(v, bn),
                                                      rows(o, bm), N_CTX=N, HEAD_DIM=D, BLOCK_M=bm, BLOCK_N=bn,
                                                      STAGE=3 if causal else 1, num_stages=stages, num_warps=warps)
                want = attention_reference(q, k, v, causal)
                torch.testing.assert_close(o, want, rtol=2e-2, atol=2e-2)


@triton.jit
def device_descriptor_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """Descriptors made in the kernel, and isinstance on them at compile time."""
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    out_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    tl.static_assert(isinstance(x_desc, tl.tensor_descriptor))
    tl.static_assert(not isinstance(x_ptr, tl.tensor_descriptor))
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    out_desc.store([pm * BM, pn * BN], x_desc.load([pm * BM, pn * BN]) * 2)


@pytest.fixture
def torch_allocator():
    """Global scratch for the tensor maps descriptors made in the kernel encode."""
    from tritium.runtime._allocation import NullAllocator
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    yield
    triton.set_allocator(NullAllocator())


def test_device_made_descriptors(torch_allocator):
    M, N, BM, BN = 100, 72, 32, 32
    x = random_tensor((M, N), torch.float32)
    out = torch.full((M, N), float("nan"), device="cuda")
    device_descriptor_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](x, out, M, N, BM, BN)
    assert_same(out, x * 2)


@triton.jit
def batched_matmul_remade_descriptors(a_ptr, b_ptr, c_ptr, B, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                                      BK: tl.constexpr, PROGRAMS: tl.constexpr):
    """A persistent batched matmul over one flat loop, as Triton's tests write
    it: at each tile's first K step the per-batch descriptors are made again
    (inside an `if`, so they cross the branch and the loop)."""
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    tiles = B * tiles_m * tiles_n
    my_tiles = tiles // PROGRAMS + (tl.program_id(0) < tiles % PROGRAMS)
    tile = tl.program_id(0) - PROGRAMS
    ki = -1
    offs_m = 0
    offs_n = 0
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(k_tiles * my_tiles):
        ki = tl.where(ki == k_tiles - 1, 0, ki + 1)
        if ki == 0:
            tile += PROGRAMS
            batch = tile // (tiles_m * tiles_n)
            offs_m = (tile // tiles_n) % tiles_m * BM
            offs_n = tile % tiles_n * BN
            a_desc = tl.make_tensor_descriptor(a_ptr + batch * M * K, [M, K], [K, 1], [BM, BK])
            b_desc = tl.make_tensor_descriptor(b_ptr + batch * N * K, [N, K], [K, 1], [BN, BK])
            c_desc = tl.make_tensor_descriptor(c_ptr + batch * M * N, [M, N], [N, 1], [BM, BN])
        a = a_desc.load([offs_m, ki * BK])
        b = b_desc.load([offs_n, ki * BK])
        acc = tl.dot(a, b.T, acc)
        if ki == k_tiles - 1:
            c_desc.store([offs_m, offs_n], acc.to(tl.float16))
            acc = tl.zeros((BM, BN), dtype=tl.float32)


def test_descriptors_remade_in_a_loop_follow_the_loop(torch_allocator):
    B, M, N, K, BM, BN, BK = 3, 200, 136, 96, 64, 64, 32
    a = torch.randn((B, M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((B, N, K), device="cuda", dtype=torch.float16)
    c = torch.full((B, M, N), float("nan"), device="cuda", dtype=torch.float16)
    programs = 7  # fewer than the 3 * 4 * 3 tiles: each program loops over several
    batched_matmul_remade_descriptors[(programs,)](a, b, c, B, M, N, K, BM, BN, BK, programs)
    torch.testing.assert_close(c, torch.bmm(a.float(), b.float().mT).half(), rtol=1e-2, atol=1e-2)
