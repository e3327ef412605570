"""Block pointers on the GPU against torch: on Hopper the tiles that feed
tl.dot, and the stores of values computed from one, move by TMA through
tensor maps the kernel makes in the runtime's scratch memory (no
triton.set_allocator); the other accesses keep the pointer lowering.
Matmuls with A and B in either memory order, edges that cut the tiles
(zero fill, clipped stores), a flash-attention forward in tutorial 06's
old block-pointer form, and the accesses that must stay on pointers
(strides the copy engine refuses, tiles that feed no dot).  Outputs are
poisoned before every launch."""
import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402
from tritium.runtime import _allocation  # noqa: E402


@pytest.fixture(autouse=True)
def no_allocator():
    """Block pointers must not need triton.set_allocator."""
    before = _allocation.get_allocator()
    triton.set_allocator(_allocation.NullAllocator())
    yield
    triton.set_allocator(before)


def is_hopper():
    return torch.cuda.get_device_capability()[0] >= 9


@triton.jit
def matmul_block_ptr_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                            stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                            A_ORDER: tl.constexpr, B_ORDER: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_block = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak),
                                offsets=(pid_m * BM, 0), block_shape=(BM, BK), order=A_ORDER)
    b_block = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(stride_bk, stride_bn),
                                offsets=(0, pid_n * BN), block_shape=(BK, BN), order=B_ORDER)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_block, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_block = tl.advance(a_block, (0, BK))
        b_block = tl.advance(b_block, (BK, 0))
    c_block = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn),
                                offsets=(pid_m * BM, pid_n * BN), block_shape=(BM, BN), order=(1, 0))
    tl.store(c_block, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


def round16(n):
    return (n + 15) // 16 * 16


def operand(rows, cols, dtype, column_major, padded=False):
    """A rows x cols matrix, stored transposed when `column_major`; with
    `padded`, each stored row is rounded up to 16 elements (a stride the
    copy engine takes whatever the shape)."""
    stored = (cols, rows) if column_major else (rows, cols)
    width = round16(stored[1]) if padded else stored[1]
    x = torch.randn((stored[0], width), device="cuda").to(dtype)[:, :stored[1]]
    return x.T if column_major else x


def run_matmul(a, b, out_dtype, block, stages, warps, padded=False):
    M, K = a.shape
    N = b.shape[1]
    BM, BN, BK = block
    # Poisoned, with a border the clipped stores must leave alone.
    big = torch.full((M + 8, (round16(N) if padded else N) + 16), float("nan"), device="cuda", dtype=out_dtype)
    c = big[:M, :N]
    order = lambda t: (0, 1) if t.stride(0) == 1 and t.stride(1) != 1 else (1, 0)  # noqa: E731
    kernel = matmul_block_ptr_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
        a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(), BM=BM, BN=BN, BK=BK, A_ORDER=order(a),
        B_ORDER=order(b), num_stages=stages, num_warps=warps)
    return big, c, kernel


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("a_col,b_col", [(False, False), (False, True), (True, False), (True, True)])
@pytest.mark.parametrize("shape", [(256, 256, 256), (200, 136, 328), (64, 72, 40)])
@pytest.mark.parametrize("padded", [False, True])
@pytest.mark.parametrize("stages", [1, 3])
def test_matmul(dtype, a_col, b_col, shape, padded, stages):
    torch.manual_seed(sum(shape) + stages)
    M, N, K = shape
    a, b = operand(M, K, dtype, a_col, padded), operand(K, N, dtype, b_col, padded)
    big, c, kernel = run_matmul(a, b, torch.float32, (64, 64, 32), stages, 4, padded)
    want = a.double() @ b.double()
    torch.testing.assert_close(c.double(), want, rtol=1e-3, atol=1e-2)
    assert big[M:].isnan().all() and big[:, N:].isnan().all(), "a store crossed the tensor's edge"
    if is_hopper():
        # An operand moves by TMA when the launch's specialization shows its
        # outer stride to be a multiple of 16 elements (the JIT marks
        # integers divisible by 16): always when padded; the others stay on
        # pointers.  At one stage as at more (the copies of one stage are
        # issued ahead of their waits).  Tiles cut by the edges read zeros
        # and clip their stores.
        outer = lambda t: max(t.stride())  # noqa: E731
        loads = sum(outer(t) % 16 == 0 for t in (a, b))
        stores = int(c.stride(0) % 16 == 0)
        assert not padded or (loads, stores) == (2, 1)
        ttir, ptx = kernel.asm["ttir"], kernel.asm["ptx"]
        assert ttir.count("tt.descriptor_load") == loads and ttir.count("tt.descriptor_store") == stores
        assert ("cp.async.bulk.tensor" in ptx) == bool(loads + stores)
        assert bool(kernel.metadata.get("global_scratch_internal")) == bool(loads + stores)


@pytest.mark.parametrize("block,warps", [((128, 128, 64), 8), ((128, 256, 64), 8), ((64, 128, 64), 4)])
def test_matmul_large_tiles(block, warps):
    torch.manual_seed(1)
    M, N, K = 512, 768, 1024
    a, b = operand(M, K, torch.float16, False), operand(K, N, torch.float16, True)
    big, c, _ = run_matmul(a, b, torch.float16, block, 3, warps)
    want = (a.float() @ b.float()).to(torch.float16)
    torch.testing.assert_close(c, want, rtol=2e-3, atol=2e-2)


def test_strides_tma_refuses_stay_on_pointers():
    """Rows of 66 bytes (a stride the copy engine refuses) load through
    pointers, with the same results."""
    torch.manual_seed(2)
    M, N, K = 96, 64, 33
    a = operand(M, K, torch.float16, False)  # stride 33 elements
    b = operand(K, N, torch.float16, False)
    big, c, kernel = run_matmul(a, b, torch.float32, (32, 64, 32), 2, 4)
    torch.testing.assert_close(c.double(), a.double() @ b.double(), rtol=1e-3, atol=1e-2)
    if is_hopper():
        # A's map would be misaligned: A stays on pointers.  B's rows (128
        # bytes) and C's (320) move by TMA.
        ttir = kernel.asm["ttir"]
        assert ttir.count("tt.descriptor_load") == 1 and ttir.count("tt.descriptor_store") == 1


@triton.jit
def scale_block_ptr_kernel(x_ptr, y_ptr, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    src = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(stride, 1), offsets=(pid * BM, 0),
                            block_shape=(BM, BN), order=(1, 0))
    dst = tl.make_block_ptr(base=y_ptr, shape=(M, N), strides=(stride, 1), offsets=(pid * BM, 0),
                            block_shape=(BM, BN), order=(1, 0))
    x = tl.load(src, boundary_check=(0, 1), padding_option="zero")
    tl.store(dst, x * 2.0, boundary_check=(0, 1))


def test_tiles_without_dot_stay_on_pointers():
    M, N = 100, 60
    x = torch.randn(M, 64, device="cuda")[:, :N]
    y = torch.full_like(torch.empty(M, 64, device="cuda"), float("nan"))
    kernel = scale_block_ptr_kernel[(triton.cdiv(M, 32),)](x, y, M, N, x.stride(0), BM=32, BN=64)
    torch.testing.assert_close(y[:, :N], x * 2.0)
    assert y[:, N:].isnan().all()
    assert "tt.descriptor" not in kernel.asm["ttir"]


@triton.jit
def attention_block_ptr_kernel(Q, K, V, sm_scale, Out, stride_z, stride_h, stride_n, H, N_CTX: tl.constexpr,
                               HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                               CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    offset = (off_hz // H).to(tl.int64) * stride_z + (off_hz % H).to(tl.int64) * stride_h
    q_block = tl.make_block_ptr(base=Q + offset, shape=(N_CTX, HEAD_DIM), strides=(stride_n, 1),
                                offsets=(start_m * BLOCK_M, 0), block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    kt_block = tl.make_block_ptr(base=K + offset, shape=(HEAD_DIM, N_CTX), strides=(1, stride_n),
                                 offsets=(0, 0), block_shape=(HEAD_DIM, BLOCK_N), order=(0, 1))
    v_block = tl.make_block_ptr(base=V + offset, shape=(N_CTX, HEAD_DIM), strides=(stride_n, 1),
                                offsets=(0, 0), block_shape=(BLOCK_N, HEAD_DIM), order=(1, 0))
    o_block = tl.make_block_ptr(base=Out + offset, shape=(N_CTX, HEAD_DIM), strides=(stride_n, 1),
                                offsets=(start_m * BLOCK_M, 0), block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    q = tl.load(q_block)
    hi = (start_m + 1) * BLOCK_M if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        qk = tl.dot(q, tl.load(kt_block)) * (sm_scale * 1.44269504)
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= start_n + offs_n[None, :], qk, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_block)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_ij
        kt_block = tl.advance(kt_block, (0, BLOCK_N))
        v_block = tl.advance(v_block, (BLOCK_N, 0))
    tl.store(o_block, (acc / l_i[:, None]).to(Out.dtype.element_ty))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_attention_forward(dtype, head_dim, causal):
    from gpu_reference import sdpa_math
    torch.manual_seed(head_dim + causal)
    Z, H, N = 2, 3, 384
    q, k, v = (torch.randn(Z, H, N, head_dim, device="cuda", dtype=dtype) for _ in range(3))
    o = torch.full_like(q, float("nan"))
    BLOCK_M, BLOCK_N = 128, 64
    kernel = attention_block_ptr_kernel[(N // BLOCK_M, Z * H)](
        q, k, v, head_dim ** -0.5, o, q.stride(0), q.stride(1), q.stride(2), H, N_CTX=N, HEAD_DIM=head_dim,
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, CAUSAL=causal, num_warps=8, num_stages=3)
    want = sdpa_math(q.float(), k.float(), v.float(), causal)
    torch.testing.assert_close(o.float(), want, rtol=2e-2, atol=2e-2)
    if is_hopper():
        # K and V stream by TMA; q, loaded once, on pointers.
        ttir = kernel.asm["ttir"]
        assert ttir.count("tt.descriptor_load") == 2 and "tt.descriptor_store" in ttir


def test_matmul_in_cuda_graph():
    """Captured into a CUDA graph after an eager launch: the captured launch
    takes its own scratch (PyTorch's allocator, the graph's pool), and the
    replays agree with the eager result on new inputs."""
    torch.manual_seed(3)
    M, N, K = 256, 192, 320
    a = operand(M, K, torch.float16, False)
    b = operand(K, N, torch.float16, True)
    c = torch.full((M, N), float("nan"), device="cuda")
    launch = lambda: matmul_block_ptr_kernel[(triton.cdiv(M, 64), triton.cdiv(N, 64))](  # noqa: E731
        a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(), BM=64, BN=64, BK=32, A_ORDER=(1, 0),
        B_ORDER=(0, 1), num_stages=3, num_warps=4)
    launch()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        launch()
    for _ in range(2):
        a.copy_(torch.randn_like(a, dtype=torch.float32).to(a.dtype))
        c.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        torch.testing.assert_close(c.double(), a.double() @ b.double(), rtol=1e-3, atol=1e-2)
