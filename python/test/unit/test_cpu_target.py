"""The CPU target (target "cpu"): kernels launched with numpy arrays
compile through convert-tt-to-host-llvm and the host JIT and run here, on
the machine without a GPU; results against numpy in float64.  The kernels
are Triton's tutorials as bench/kernels/tutorials.py holds them (vector add,
fused softmax, layer norm, matmul with block pointers' cousin: plain
pointers), and forms the tutorials do not cover."""
import os
import sys

import pytest

np = pytest.importorskip("numpy")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from kernel_sources import load_kernels  # noqa: E402

tutorials = load_kernels("tutorials.py", triton, tl, "cpu_test")
rng = np.random.default_rng(0)


@pytest.mark.parametrize("n", [1, 1000, 98432])
def test_vector_add_tutorial_01(n):
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    out = np.full(n + 7, -5.0, np.float32)  # past n: must stay as it was
    tutorials.add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
    assert np.array_equal(out[:n], x + y) and np.all(out[n:] == -5.0)


def test_fused_softmax_tutorial_02():
    x = rng.standard_normal((1823, 781), dtype=np.float32)
    out = np.empty_like(x)
    tutorials.softmax_kernel[(32,)](out, x, x.shape[1], out.shape[1], x.shape[0], x.shape[1], BLOCK_SIZE=1024,
                                    num_stages=4)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_layer_norm_forward_tutorial_05():
    M, N = 37, 1500
    x = rng.standard_normal((M, N), dtype=np.float32)
    w = rng.random(N, dtype=np.float32)
    b = rng.random(N, dtype=np.float32)
    y = np.empty_like(x)
    mean = np.empty(M, np.float32)
    rstd = np.empty(M, np.float32)
    tutorials._layer_norm_fwd_fused[(M,)](x, y, w, b, mean, rstd, x.shape[1], N, 1e-5, BLOCK_SIZE=256)
    x64 = x.astype(np.float64)
    want_mean = x64.mean(axis=1)
    want_rstd = 1 / np.sqrt(x64.var(axis=1) + 1e-5)
    np.testing.assert_allclose(mean, want_mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd, want_rstd, rtol=1e-4)
    np.testing.assert_allclose(y, (x64 - want_mean[:, None]) * want_rstd[:, None] * w + b, rtol=1e-4, atol=1e-4)


def test_layer_norm_backward_tutorial_05():
    # dX per row, dW and dB partials added under spin locks by programs that
    # run at once on the host's threads, then the partials summed.
    M, N, G = 300, 700, 16
    x = rng.standard_normal((M, N), dtype=np.float32)
    w = rng.random(N, dtype=np.float32)
    dy = rng.standard_normal((M, N), dtype=np.float32)
    x64 = x.astype(np.float64)
    mean, rstd = x64.mean(axis=1), 1 / np.sqrt(x64.var(axis=1) + 1e-5)
    locks = np.zeros(2 * G, np.int32)
    partial_dw, partial_db = np.zeros((G, N), np.float32), np.zeros((G, N), np.float32)
    dx, dw, db = np.empty_like(x), np.empty(N, np.float32), np.empty(N, np.float32)
    tutorials._layer_norm_bwd_dx_fused[(M,)](dx, dy, partial_dw, partial_db, x, w, mean.astype(np.float32),
                                             rstd.astype(np.float32), locks, N, N, GROUP_SIZE_M=G,
                                             BLOCK_SIZE_N=1024)
    tutorials._layer_norm_bwd_dwdb[(triton.cdiv(N, 128),)](partial_dw, partial_db, dw, db, G, N,
                                                           BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)
    xhat = (x64 - mean[:, None]) * rstd[:, None]
    wdy = w * dy.astype(np.float64)
    c1 = (xhat * wdy).sum(axis=1, keepdims=True) / N
    c2 = wdy.sum(axis=1, keepdims=True) / N
    np.testing.assert_allclose(dx, (wdy - (xhat * c1 + c2)) * rstd[:, None], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(dw, (dy * xhat).sum(axis=0), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(db, dy.astype(np.float64).sum(axis=0), rtol=1e-4, atol=1e-4)
    assert not locks[:G].any() and locks[G:].all()  # locks released; every group's count set


def test_libdevice_asin_tutorial_07():
    n = 5000
    x = rng.uniform(-1, 1, n).astype(np.float32)
    y = np.empty_like(x)
    tutorials.asin_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK_SIZE=1024)
    np.testing.assert_allclose(y, np.arcsin(x.astype(np.float64)), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_matmul_tutorial_03(dtype):
    M, N, K = 96, 80, 72
    a = rng.standard_normal((M, K)).astype(dtype)
    b = rng.standard_normal((K, N)).astype(dtype)
    c = np.empty((M, N), dtype)
    grid = (triton.cdiv(M, 32) * triton.cdiv(N, 32),)
    tutorials.matmul_kernel[grid](a, b, c, M, N, K, a.strides[0] // a.itemsize, 1, b.strides[0] // b.itemsize, 1,
                                  c.strides[0] // c.itemsize, 1, BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32,
                                  GROUP_SIZE_M=4, ACTIVATION="")
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), want, rtol=1e-2 if dtype == np.float16 else 1e-5,
                               atol=5e-2 if dtype == np.float16 else 1e-4)


@triton.jit
def tiles_2d(x_ptr, out_ptr, idx_ptr, M, N: tl.constexpr, BM: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=rows[:, None] < M, other=float("-inf"))
    tl.store(out_ptr + rows, tl.sum(tl.where(x > float("-inf"), x, 0.0), axis=1), mask=rows < M)
    tl.store(out_ptr + BM + cols, tl.max(tl.trans(x), axis=1))
    tl.store(idx_ptr + rows, tl.argmax(x, axis=1).to(tl.int32), mask=rows < M)


def test_two_dimensional_tiles_broadcast_transpose_and_reduce():
    M, N, BM = 6, 16, 8
    x = rng.standard_normal((M, N), dtype=np.float32)
    out = np.zeros(BM + N, np.float32)
    idx = np.full(BM, -1, np.int32)
    tiles_2d[(1,)](x, out, idx, M, N=N, BM=BM)
    np.testing.assert_allclose(out[:M], x.sum(axis=1), rtol=1e-5)
    assert np.array_equal(out[BM:], x.max(axis=0))
    assert np.array_equal(idx[:M], x.argmax(axis=1)) and np.all(idx[M:] == -1)


@triton.jit
def integer_ops(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = ((x * 3) ^ (x >> 2)) % 7 + tl.umulhi(x.to(tl.uint32), x.to(tl.uint32)).to(tl.int32)
    tl.store(out_ptr + offs, y, mask=mask)


def test_integer_arithmetic_over_a_grid_of_programs():
    n = 10000
    x = rng.integers(-(2 ** 20), 2 ** 20, n, dtype=np.int32)
    out = np.empty_like(x)
    integer_ops[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
    u = x.astype(np.uint32).astype(np.uint64)
    want = (((x * 3) ^ (x >> 2)) % 7) + ((u * u) >> 32).astype(np.uint32).astype(np.int32)
    assert np.array_equal(out, want.astype(np.int32))


@triton.jit
def grid_coordinates(out_ptr):
    x, y, z = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    flat = (z * tl.num_programs(1) + y) * tl.num_programs(0) + x
    tl.store(out_ptr + flat, x * 10000 + y * 100 + z)


def test_every_program_of_a_three_dimensional_grid_runs_once():
    out = np.full(5 * 3 * 2, -1, np.int32)
    grid_coordinates[(5, 3, 2)](out)
    z, y, x = np.meshgrid(range(2), range(3), range(5), indexing="ij")
    assert np.array_equal(out, (x * 10000 + y * 100 + z).ravel())


@triton.jit
def uses_inline_asm(x_ptr, y_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(y_ptr + tl.arange(0, 8), y)


def test_an_op_without_a_cpu_lowering_is_an_error_at_its_line():
    x = np.zeros(8, np.int32)
    with pytest.raises(triton.CompilationError,
                       match="'tt.elementwise_inline_asm' has no lowering for the CPU target yet") as e:
        uses_inline_asm[(1,)](x, x)
    assert e.value.line == uses_inline_asm.starting_line + 2 and os.path.samefile(e.value.file, __file__)


@triton.jit
def _histogram(x_ptr, h_ptr, N: tl.constexpr, BINS: tl.constexpr):
    tl.store(h_ptr + tl.arange(0, BINS), tl.histogram(tl.load(x_ptr + tl.arange(0, N)), BINS))


@pytest.mark.parametrize("dtype", [np.int32, np.int8, np.int64])
def test_histogram(dtype):
    # Values outside [0, BINS) (negative ones included) do not count.
    x = rng.integers(-4, 20, 256).astype(dtype)
    h = np.full(16, -1, np.int32)
    _histogram[(1,)](x, h, N=256, BINS=16)
    want = np.bincount(x[(x >= 0) & (x < 16)].astype(np.int64), minlength=16)
    assert np.array_equal(h, want)


@triton.jit
def scans(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + r)
    tl.store(out_ptr + r, tl.cumsum(x, axis=1))
    tl.store(out_ptr + M * N + r, tl.cumsum(x, axis=0, reverse=True))
    tl.store(out_ptr + 2 * M * N + r, tl.cumprod(x, axis=1))


@pytest.mark.parametrize("M, N", [(4, 8), (64, 128)])  # the second above the whole-vector size: loops
def test_scans_forward_and_reverse_along_either_axis(M, N):
    x = rng.integers(-3, 4, (M, N)).astype(np.int32)
    out = np.zeros((3, M, N), np.int32)
    scans[(1,)](x, out, M=M, N=N)
    assert np.array_equal(out[0], np.cumsum(x, axis=1))
    assert np.array_equal(out[1], np.cumsum(x[::-1], axis=0)[::-1])
    assert np.array_equal(out[2], np.cumprod(x, axis=1, dtype=np.int32))  # (wrapping as int32 does)


@triton.jit
def histogram_by_atomics(x_ptr, h_ptr, s_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.atomic_add(h_ptr + x, 1, mask=mask)
    tl.atomic_max(h_ptr + 16 + offs * 0, x, mask=mask)
    tl.atomic_add(s_ptr, tl.sum(tl.where(mask, x, 0).to(tl.float32), axis=0))


@triton.jit
def locked_increment(lock_ptr, out_ptr):
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(out_ptr, tl.load(out_ptr) + 1)
    tl.atomic_xchg(lock_ptr, 0)


def test_atomics_from_programs_on_several_threads():
    n = 100000
    x = rng.integers(0, 16, n).astype(np.int32)
    h = np.zeros(17, np.int32)
    s = np.zeros(1, np.float32)
    histogram_by_atomics[(triton.cdiv(n, 1024),)](x, h, s, n, BLOCK=1024)
    assert np.array_equal(h[:16], np.bincount(x, minlength=16)) and h[16] == x.max() and s[0] == x.sum()
    lock, count = np.zeros(1, np.int32), np.zeros(1, np.int32)
    locked_increment[(1000,)](lock, count)  # a lock taken and given back by compare-and-swap and exchange
    assert count[0] == 1000 and lock[0] == 0


@triton.jit
def reshuffles(x_ptr, i_ptr, o_ptr, s_ptr):
    r = tl.arange(0, 8)[:, None] * 4 + tl.arange(0, 4)[None, :]
    x = tl.load(x_ptr + r)
    tl.store(o_ptr + r, tl.gather(x, tl.load(i_ptr + r), 0))
    a, b = tl.split(tl.join(x, x * 2))
    tl.store(o_ptr + 32 + r, tl.clamp(a + b, 0.5, 2.0))
    tl.store(s_ptr + tl.arange(0, 32), tl.sort(tl.reshape(x, 32), descending=True))


def test_gather_join_split_clamp_and_sort():
    x = rng.random((8, 4), dtype=np.float32)
    idx = rng.integers(0, 8, (8, 4)).astype(np.int32)
    out = np.empty((2, 8, 4), np.float32)
    s = np.empty(32, np.float32)
    reshuffles[(1,)](x, idx, out, s)
    assert np.array_equal(out[0], np.take_along_axis(x, idx, axis=0))
    assert np.array_equal(out[1], np.clip(x + 2 * x, 0.5, 2.0))
    assert np.array_equal(s, np.sort(x.ravel())[::-1])


def test_compile_for_the_cpu_gives_the_hosts_llvm_ir():
    kernel = triton.compile(tutorials.add_kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32",
                                                             "output_ptr": "*fp32", "n_elements": "i32"},
                            constexprs={"BLOCK_SIZE": 64}, target="cpu")
    assert "define void @add_kernel__program" in kernel.asm["llir"]
    assert kernel.metadata["target"] == "cpu" and kernel.metadata["host"].split()[0].count("-") >= 2
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    kernel[(1,)](x, x, out, 64)
    assert np.array_equal(out, 2 * x)


def test_seeded_dropout_tutorial_04():
    n = 10000
    x = rng.random(n, dtype=np.float32) + 0.5
    out = np.empty_like(x)
    tutorials._seeded_dropout[(triton.cdiv(n, 1024),)](x, out, n, 0.5, 123, BLOCK_SIZE=1024)
    kept = out != 0
    assert 0.45 < kept.mean() < 0.55 and np.allclose(out[kept], x[kept] * 2)
    again = np.empty_like(x)
    tutorials._seeded_dropout[(triton.cdiv(n, 1024),)](x, again, n, 0.5, 123, BLOCK_SIZE=1024)
    assert np.array_equal(out, again)  # the same seed, the same mask


@pytest.mark.parametrize("stage", [1, 3])
def test_fused_attention_forward_tutorial_06(stage):
    # block pointers (rewritten to pointers), fp16 dots, exp2, causal masking
    Z, H, N, D = 1, 2, 64, 16
    q, k, v = (rng.standard_normal((Z, H, N, D)).astype(np.float16) for _ in range(3))
    out = np.empty_like(q)
    m = np.empty((Z, H, N), np.float32)
    strides = [s // 2 for a in (q, k, v, out) for s in a.strides]
    tutorials._attn_fwd[(N // 16, Z * H)](q, k, v, 0.5, m, out, *strides, Z, H, N_CTX=N, HEAD_DIM=D, BLOCK_M=16,
                                          BLOCK_N=16, STAGE=stage)
    s = (q.astype(np.float64) @ np.swapaxes(k, -1, -2).astype(np.float64)) * 0.5
    if stage == 3:
        s = np.where(np.tril(np.ones((N, N), bool)), s, -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    want = (p / p.sum(axis=-1, keepdims=True)) @ v.astype(np.float64)
    np.testing.assert_allclose(out.astype(np.float64), want, atol=2e-3, rtol=1e-2)


attention_bwd = load_kernels("attention_bwd.py", triton, tl, "cpu_test")


@pytest.mark.parametrize("causal", [False, True])
def test_flash_attention_backward_on_the_cpu(causal):
    # the backward of bench/kernels/attention_bwd.py (tutorial 06's form):
    # fp16 dots with transposed operands, exp2 on pre-scaled K, the masked
    # diagonal blocks in slices; its forward stores O and the log-sum-exp
    Z, H, N, D = 1, 2, 64, 16
    q, k, v, do = (rng.standard_normal((Z, H, N, D)).astype(np.float16) for _ in range(4))
    scale = D ** -0.5
    o, m = np.empty_like(q), np.empty((Z, H, N), np.float32)
    strides = [s // 2 for s in q.strides[:3]]
    attention_bwd.attn_fwd_lse[(N // 32, Z * H)](q, k, v, scale, m, o, *strides, H, N_CTX=N, HEAD_DIM=D,
                                                 BLOCK_M=32, BLOCK_N=16, CAUSAL=causal)
    delta = np.empty_like(m)
    dq, dk, dv = (np.zeros_like(q) for _ in range(3))
    attention_bwd.bwd_preprocess[(1, Z * H)](o, do, delta, N, BLOCK_M=N, HEAD_DIM=D)
    prescaled_k = (k.astype(np.float32) * (scale / np.log(2))).astype(np.float16)
    attention_bwd.attn_bwd[(N // 32, 1, Z * H)](q, prescaled_k, v, scale, do, dq, dk, dv, m, delta, *strides, H, N,
                                                BLOCK_M1=16, BLOCK_N1=32, BLOCK_M2=32, BLOCK_N2=16,
                                                BLK_SLICE_FACTOR=2, HEAD_DIM=D, CAUSAL=causal)
    q64, k64, v64, do64 = (a.astype(np.float64) for a in (q, k, v, do))
    s = q64 @ np.swapaxes(k64, -1, -2) * scale
    if causal:
        s = np.where(np.tril(np.ones((N, N), bool)), s, -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    dp = do64 @ np.swapaxes(v64, -1, -2)
    ds = p * (dp - (dp * p).sum(axis=-1, keepdims=True))
    np.testing.assert_allclose(o.astype(np.float64), p @ v64, atol=2e-3, rtol=1e-2)
    for got, want in ((dq, ds @ k64 * scale), (dk, np.swapaxes(ds, -1, -2) @ q64 * scale),
                      (dv, np.swapaxes(p, -1, -2) @ do64)):
        np.testing.assert_allclose(got.astype(np.float64), want, atol=5e-3, rtol=1e-2)


class _HostTensor:
    """Plays a torch CPU tensor over a numpy array (data_ptr, device, dtype)."""

    device = type("device", (), {"type": "cpu"})()

    def __init__(self, array):
        self.array = array
        self.dtype = "torch." + {np.float32: "float32", np.int32: "int32"}[array.dtype.type]
        self.data, self.shape = self, array.shape

    def data_ptr(self):
        return self.array.ctypes.data

    def detach(self):
        return self


class _DeviceTensor:
    """Plays a CUDA tensor for TRITON_INTERPRET=1: is_cuda, a host copy by
    .cpu(), and copy_ from the host."""

    is_cuda = True
    device = type("device", (), {"type": "cuda"})()

    def __init__(self, array):
        self.array = array
        self.data, self.shape = self, array.shape

    def data_ptr(self):  # (a device address a launch must never see under TRITON_INTERPRET=1)
        return 0xdead0000

    def detach(self):
        return self

    def cpu(self):
        return _HostTensor(self.array.copy())

    def copy_(self, host):
        self.array[...] = host.array


def test_triton_interpret_runs_gpu_tensors_on_the_cpu_and_copies_them_back(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    n = 3000
    x, y = _DeviceTensor(rng.random(n, dtype=np.float32)), _DeviceTensor(rng.random(n, dtype=np.float32))
    out = _DeviceTensor(np.zeros(n, np.float32))
    tutorials.add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
    assert np.array_equal(out.array, x.array + y.array)


@triton.jit
def _codegen_probe(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.sort(tl.reshape(x, (BLOCK // 8, 8)), dim=1).reshape(BLOCK), mask=offs < n)


def test_interpret_compiles_with_the_fast_code_generator(monkeypatch):
    # the same kernel and arguments: LLVM's fast path under TRITON_INTERPRET=1
    # (a kernel of its own cache entry), the optimizing one otherwise
    x = rng.random(256, dtype=np.float32)
    want = np.sort(x.reshape(32, 8), axis=1).reshape(256)
    kernels = {}
    for interpret in ("1", "0"):
        monkeypatch.setenv("TRITON_INTERPRET", interpret)
        probe = triton.jit(_codegen_probe.fn)  # (a JIT function's own specializations are kept in memory)
        y = np.zeros(256, np.float32)
        kernels[interpret] = probe.warmup(x, y, 256, BLOCK=256, grid=(1,))
        probe[(1,)](x, y, 256, BLOCK=256)
        assert np.array_equal(y, want)
    assert kernels["1"].metadata["cpu_codegen"] == "fast"
    assert kernels["0"].metadata["cpu_codegen"] == "optimized"
    assert kernels["1"].metadata["hash"] != kernels["0"].metadata["hash"]


class _TensorOn:
    """A torch tensor's look-alike on `device_type` whose array interface
    raises as torch's does for fp8 tensors and tensors that require grad."""

    def __init__(self, device_type):
        self.device = type("device", (), {"type": device_type})()

    def data_ptr(self):
        return 0

    @property
    def __cuda_array_interface__(self):
        raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires grad")


def test_which_launches_run_on_the_host(monkeypatch):
    import importlib
    driver = importlib.import_module("tritium.runtime.driver")  # (the package's names are a function and
    jit = importlib.import_module("tritium.runtime.jit")        # an object: the modules themselves)
    array = np.zeros(4, np.float32)
    for gpu in (True, False):
        monkeypatch.setattr(driver, "_gpu_usable", gpu)
        assert jit.runs_on_host([array, 3]) and not jit.runs_on_host([3, None])
        assert not jit.runs_on_host([_TensorOn("cuda"), array])
        # a torch CPU tensor runs on the host only where no GPU is usable;
        # with one, it is Triton's error (the launcher's "move it with .cuda()")
        assert jit.runs_on_host([_TensorOn("cpu"), 3]) == (not gpu)
        assert jit.runs_on_host([_TensorOn("cpu"), array])


def test_grids_from_several_threads_and_after_fork():
    # The pool of host threads serves launches from several Python threads
    # (one grid after another), and a forked child starts a pool of its own.
    import threading
    n = 1 << 16
    xs = [rng.random(n, dtype=np.float32) for _ in range(4)]
    outs = [np.zeros(n, np.float32) for _ in range(4)]

    def launch(i):
        for _ in range(20):
            tutorials.add_kernel[(triton.cdiv(n, 1024),)](xs[i], xs[i], outs[i], n, BLOCK_SIZE=1024)
    threads = [threading.Thread(target=launch, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(o, x + x) for o, x in zip(outs, xs))
    pid = os.fork()
    if pid == 0:  # the child: one launch, its result as the exit status
        out = np.zeros(n, np.float32)
        tutorials.add_kernel[(triton.cdiv(n, 1024),)](xs[0], xs[1], out, n, BLOCK_SIZE=1024)
        os._exit(0 if np.array_equal(out, xs[0] + xs[1]) else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


@triton.jit
def _tuple_copy(args, out, N: tl.constexpr):
    src, scale = args[0], args[1]
    offs = tl.arange(0, N)
    tl.store(out + offs, tl.load(src + offs) * scale[0])


def test_tuple_arguments_and_reinterpreted_tensors_under_interpret(monkeypatch):
    # Nested tuples reach the host kernel flattened, as on the GPU; a
    # reinterpreted GPU tensor is copied to the host through its base.
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    x = _DeviceTensor(np.arange(16, dtype=np.float32))
    out = _DeviceTensor(np.zeros(16, np.float32))
    _tuple_copy[(1,)]((x, (3.0, 7)), out, N=16)
    assert np.array_equal(out.array, 3 * x.array)
    bits = _DeviceTensor(np.zeros(16, np.int32))
    _tuple_copy[(1,)]((x, (2.0,)), triton.reinterpret(bits, tl.float32), N=16)
    assert np.array_equal(bits.array.view(np.float32), 2 * x.array)


_CACHED_LAUNCH = r"""
import sys
sys.path[:0] = [{python!r}, {bench!r}]
import numpy as np
import tritium as triton, tritium.language as tl
from tritium._native import native_library
from kernel_sources import load_kernels
if sys.argv[1] == "cached":  # a compile here would be a cache miss
    type(native_library()).compile_cpu = lambda *a, **k: sys.exit("compiled instead of loading the cache")
t = load_kernels("tutorials.py", triton, tl, "cached")
x = np.arange(3000, dtype=np.float32)
out = np.zeros_like(x)
t.add_kernel[(3,)](x, x, out, 3000, BLOCK_SIZE=1024)
assert np.array_equal(out, 2 * x)
"""


def test_a_cpu_kernel_is_linked_from_the_cache_in_a_later_process(tmp_path):
    # The first process compiles and caches the host object file; the
    # second links it from the cache without compiling.
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    script = tmp_path / "launch.py"
    script.write_text(_CACHED_LAUNCH.format(python=os.path.join(here, "..", ".."),
                                            bench=os.path.join(here, "..", "..", "..", "bench")))
    env = dict(os.environ, TRITIUM_CACHE_DIR=str(tmp_path / "cache"))
    for mode in ("fresh", "cached"):
        run = subprocess.run([sys.executable, str(script), mode], env=env, capture_output=True, text=True)
        assert run.returncode == 0, (mode, run.stderr[-2000:])
    assert any(name.endswith(".o") for _, _, names in os.walk(tmp_path / "cache") for name in names)


_LARGE_FRAME_SORT = """
import sys
sys.path.insert(0, {python!r})
import numpy as np
import tritium as triton
import tritium.language as tl


@triton.jit
def sort_rows(X, Z, N: tl.constexpr, M: tl.constexpr):
    offs = tl.arange(0, N)[:, None] * M + tl.arange(0, M)[None, :]
    tl.store(Z + offs, tl.sort(tl.load(X + offs)))


x = np.random.default_rng(0).standard_normal((8, 512)).astype(np.float32)
z = np.zeros_like(x)
sort_rows[(1,)](x, z, 8, 512)
assert np.array_equal(z, np.sort(x, axis=1))
"""


def test_a_program_whose_frame_outgrows_a_thread_stack_runs(tmp_path):
    # Under TRITON_INTERPRET=1 (LLVM's fast code generator, which keeps the
    # sort network's 4096-lane vectors on the stack) this program's frame is
    # larger than the 8 MiB of a default thread stack: it runs on threads
    # with stacks that hold it, sized from the object's .stack_sizes, also
    # when a later process links the object from the cache.  A process
    # each: a stack overflow is a crash.
    import subprocess
    script = tmp_path / "sort.py"
    script.write_text(_LARGE_FRAME_SORT.format(python=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                   "..", "..")))
    env = dict(os.environ, TRITIUM_CACHE_DIR=str(tmp_path / "cache"), TRITON_INTERPRET="1")
    for run_from in ("compile", "cache"):
        run = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)
        assert run.returncode == 0, (run_from, run.returncode, run.stderr[-2000:])


@triton.jit
def _store_annotated(X, i: tl.int32):
    tl.store(X, i)


def test_an_annotated_one_is_a_variant_of_its_own():
    # As in Triton (upstream test_cache::test_annotation): 16 (divisible by
    # 16), 1 and the other values are three variants, whatever the order;
    # the variant of 16 is never reused for 1.
    x = np.zeros(1, np.int32)
    for i in (16, 1, 8, 17):
        _store_annotated[(1,)](x, i)
        assert x[0] == i
    assert len(_store_annotated.device_caches[0][0]) == 3


@triton.jit
def _print_and_assert(x_ptr, N: tl.constexpr, LIMIT: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.device_print("x = ", x)
    tl.device_print("pid", tl.program_id(0))
    tl.device_assert(x < LIMIT, "x is below the limit")


def test_device_print_and_assert(capfd):
    # tl.device_print prints every element in the GPU's format (the
    # programs' lines may interleave); a failed tl.device_assert (debug=True)
    # is an AssertionError naming the program, the message and the line,
    # and no program starts after it.
    x = np.arange(4, dtype=np.int32)
    _print_and_assert[(2,)](x, N=4, LIMIT=10, debug=True)
    out = capfd.readouterr().out.splitlines()
    for pid in (0, 1):
        assert f"pid ({pid}, 0, 0) idx (3)x = 3" in out
        assert f"pid ({pid}, 0, 0)pid{pid}" in out
    assert len(out) == 10
    with pytest.raises(AssertionError, match=r"program \(\d, 0, 0\): Assertion `x is below the limit` failed"):
        _print_and_assert[(64,)](x, N=4, LIMIT=2, debug=True)
    printed = capfd.readouterr().out
    assert printed.count("idx (0)x = 0") < 64  # the programs after the failure did not run
    _print_and_assert[(1,)](x, N=4, LIMIT=10, debug=True)  # the process goes on


@triton.jit
def _store_then_assert(out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, offs + 1)
    tl.device_assert(offs < 0, "never true")


def test_interpret_copies_back_what_ran_before_a_failed_assertion(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    out = _DeviceTensor(np.zeros(8, np.int32))
    with pytest.raises(AssertionError, match="never true"):
        _store_then_assert[(1,)](out, N=8, debug=True)
    assert np.array_equal(out.array, np.arange(1, 9, dtype=np.int32))


from tritium.language.extra import libdevice  # noqa: E402


@triton.jit
def _libdevice_calls(x_ptr, y_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, libdevice.erf(x) + libdevice.pow(x, 2.0) + libdevice.atan2(x, x + 1.0) + libdevice.cbrt(x))


@tl.core.extern
def _my_erf(x, _semantic=None):
    return tl.core.extern_elementwise("mylib", "/opt/mylib.bc", [x], {(tl.float32,): ("my_erf", tl.float32)},
                                      is_pure=True, _semantic=_semantic)


@triton.jit
def _extern_function_without_a_host_lowering(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(x_ptr + offs, _my_erf(tl.load(x_ptr + offs)))


@triton.jit
def _libdevice_by_host_ops(x_ptr, i_ptr, f_ptr, b_ptr, n_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    i = tl.load(i_ptr + offs)
    f = libdevice.rsqrt(tl.abs(x) + 1.0) + libdevice.saturatef(x) + libdevice.fast_expf(x * 0.1)
    f += libdevice.add_rn(x, 1.0) * libdevice.int2float_rn(i) + libdevice.int_as_float(libdevice.float_as_int(x))
    tl.store(f_ptr + offs, f)
    flags = libdevice.isnan(x).to(tl.int32) + 2 * libdevice.isinf(x).to(tl.int32) + 4 * libdevice.signbit(x)
    tl.store(b_ptr + offs, flags)
    tl.store(n_ptr + offs, libdevice.popc(i) + 100 * libdevice.clz(i) + libdevice.max(i, 3) - libdevice.min(i, -3))


@triton.jit
def _libdevice_integer_functions(a_ptr, b_ptr, c_ptr, la_ptr, lb_ptr, out_ptr, lout_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a, b, c = tl.load(a_ptr + offs), tl.load(b_ptr + offs), tl.load(c_ptr + offs)
    la, lb = tl.load(la_ptr + offs), tl.load(lb_ptr + offs)
    ua, ub, uc = a.to(tl.uint32, bitcast=True), b.to(tl.uint32, bitcast=True), c.to(tl.uint32, bitcast=True)
    ula, ulb = la.to(tl.uint64, bitcast=True), lb.to(tl.uint64, bitcast=True)
    # (each name takes every width and signedness it has: ffs of an int64 is
    # __nv_ffsll, mulhi of uint32 __nv_umulhi, ...)
    results = (libdevice.ffs(a), libdevice.ffs(la), libdevice.brev(a), libdevice.byte_perm(a, b, c),
               libdevice.mulhi(a, b), libdevice.mulhi(ua, ub).to(tl.int32, bitcast=True), libdevice.mul24(a, b),
               libdevice.mul24(ua, ub).to(tl.int32, bitcast=True), libdevice.sad(a, b, uc),
               libdevice.sad(ua, ub, uc).to(tl.int32, bitcast=True), libdevice.hadd(a, b),
               libdevice.hadd(ua, ub).to(tl.int32, bitcast=True), libdevice.rhadd(a, b),
               libdevice.rhadd(ua, ub).to(tl.int32, bitcast=True))
    for k in tl.static_range(len(results)):
        tl.store(out_ptr + k * N + offs, results[k])
    lresults = (libdevice.brev(la), libdevice.mulhi(la, lb), libdevice.mulhi(ula, ulb).to(tl.int64, bitcast=True))
    for k in tl.static_range(len(lresults)):
        tl.store(lout_ptr + k * N + offs, lresults[k])


def test_libdevice_integer_functions_as_cuda_defines_them():
    # __ffs, __brev, __byte_perm, __mulhi, __mul24, __sad, __hadd, __rhadd
    # and their unsigned and 64-bit versions, against Python integers
    N = 256
    a = rng.integers(-(2**31), 2**31, N, dtype=np.int64)
    b = rng.integers(-(2**31), 2**31, N, dtype=np.int64)
    c = rng.integers(0, 2**31, N, dtype=np.int64)
    a[:4], b[:4] = [0, -1, 2**31 - 1, -(2**31)], [0, -1, 2**31 - 1, -(2**31)]
    la = rng.integers(-(2**63), 2**63 - 1, N, dtype=np.int64)
    lb = rng.integers(-(2**63), 2**63 - 1, N, dtype=np.int64)
    la[:2] = [0, -1]
    out, lout = np.empty((14, N), np.int32), np.empty((3, N), np.int64)
    _libdevice_integer_functions[(1,)](a.astype(np.int32), b.astype(np.int32), c.astype(np.int32), la, lb, out, lout,
                                       N=N)

    def s32(v):
        v &= 0xFFFFFFFF
        return v - (1 << 32) if v >> 31 else v

    def s64(v):
        v &= (1 << 64) - 1
        return v - (1 << 64) if v >> 63 else v

    def low24(v, signed):
        v &= 0xFFFFFF
        return v - (1 << 24) if signed and v >> 23 else v

    def byte_perm(x, y, s):
        data = (x & 0xFFFFFFFF) | ((y & 0xFFFFFFFF) << 32)
        return sum(((data >> (8 * ((s >> (4 * n)) & 7))) & 0xFF) << (8 * n) for n in range(4))

    want = []
    for x, y, z, lx, ly in zip(map(int, a), map(int, b), map(int, c), map(int, la), map(int, lb)):
        ux, uy, uz = x & 0xFFFFFFFF, y & 0xFFFFFFFF, z & 0xFFFFFFFF
        want.append([((x & -x).bit_length()), ((lx & -lx).bit_length()), int(f"{ux:032b}"[::-1], 2),
                     byte_perm(x, y, z), (x * y) >> 32, (ux * uy) >> 32,
                     low24(x, True) * low24(y, True), low24(x, False) * low24(y, False),
                     abs(x - y) + uz, abs(ux - uy) + uz, (x + y) >> 1, (ux + uy) >> 1, (x + y + 1) >> 1,
                     (ux + uy + 1) >> 1,
                     int(f"{lx & ((1 << 64) - 1):064b}"[::-1], 2), (lx * ly) >> 64,
                     ((lx & ((1 << 64) - 1)) * (ly & ((1 << 64) - 1))) >> 64])
    names = ["ffs", "ffsll", "brev", "byte_perm", "mulhi", "umulhi", "mul24", "umul24", "sad", "usad", "hadd",
             "uhadd", "rhadd", "urhadd"]
    for k, name in enumerate(names):
        assert [int(v) for v in out[k]] == [s32(w[k]) for w in want], name
    for k, name in enumerate(["brevll", "mul64hi", "umul64hi"]):
        assert [int(v) for v in lout[k]] == [s64(w[14 + k]) for w in want], name


@triton.jit
def _libdevice_mixed_twins(x_ptr, n_ptr, f_ptr, i_ptr, l_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x, n = tl.load(x_ptr + offs), tl.load(n_ptr + offs)
    f = libdevice.ldexp(x, n) + libdevice.scalbn(x, n + 1) + libdevice.jn(n % 4, x) + libdevice.j0(x) + libdevice.y1(x)
    f += libdevice.pow(x, n)  # (__nv_powif / __nv_powi: an integer exponent)
    tl.store(f_ptr + offs, f)
    tl.store(i_ptr + offs, libdevice.ilogb(x) + 1000 * libdevice.isinf(x * 1e300).to(tl.int32))
    tl.store(l_ptr + offs, libdevice.llrint(x * 1000) + libdevice.llround(x * 10))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_libdevice_functions_with_integer_operands_run_as_their_c_library_twins(dtype):
    # ldexp(x, n), scalbn, jn(n, x), ilogb, llrint, llround: C functions of
    # mixed types; j0 and y1 as the others; pow(x, n) with an int exponent
    import ctypes
    import ctypes.util
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    suffix = "f" if dtype == np.float32 else ""
    c_float = ctypes.c_float if dtype == np.float32 else ctypes.c_double
    for name, args, ret in (("jn", [ctypes.c_int, c_float], c_float), ("j0", [c_float], c_float),
                            ("y1", [c_float], c_float)):
        getattr(libm, name + suffix).argtypes, getattr(libm, name + suffix).restype = args, ret
    N = 64
    x = np.linspace(0.3, 7.0, N).astype(dtype)
    n = np.arange(N, dtype=np.int32) % 9 - 4
    f, i, l = np.empty(N, dtype), np.empty(N, np.int32), np.empty(N, np.int64)
    _libdevice_mixed_twins[(1,)](x, n, f, i, l, N=N)
    # (jn's order n % 4 as the kernel computes it: C's remainder, with the sign of n)
    want = [np.ldexp(v, k) + np.ldexp(v, k + 1) + getattr(libm, "jn" + suffix)(int(np.fmod(k, 4)), v)
            + getattr(libm, "j0" + suffix)(v) + getattr(libm, "y1" + suffix)(v) + v ** k
            for v, k in zip(x.tolist(), n.tolist())]
    np.testing.assert_allclose(f, want, rtol=1e-5 if dtype == np.float32 else 1e-12)
    want_i = np.frexp(x)[1] - 1 + 1000 * (dtype == np.float32)  # (x * 1e300 overflows a float only)
    assert np.array_equal(i, want_i.astype(np.int32))
    assert np.array_equal(l, np.rint(x * dtype(1000)).astype(np.int64)
                          + np.array([int(np.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1) for v in (x * dtype(10))]))


@triton.jit
def _libdevice_conversions(x_ptr, d_ptr, i_ptr, u_ptr, l_ptr, h_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x, d = tl.load(x_ptr + offs), tl.load(d_ptr + offs)
    tl.store(i_ptr + offs, libdevice.float2int_rn(x) + 1000 * libdevice.float2int_rd(x)
             + 1000000 * libdevice.double2int_ru(d))
    ax = tl.abs(x)
    tl.store(u_ptr + offs, libdevice.float2uint_rn(ax) + 1000 * libdevice.float2uint_rd(ax)
             + 1000000 * libdevice.float2uint_ru(ax))
    tl.store(l_ptr + offs, libdevice.float2ll_ru(x) + 1000 * libdevice.double2ll_rd(d)
             + libdevice.double2ull_rn(tl.abs(d)).to(tl.int64))
    hi, lo = libdevice.double2hiint(d), libdevice.double2loint(d)
    tl.store(h_ptr + offs, libdevice.hiloint2double(hi, lo) + libdevice.isnan(d).to(tl.float64)
             + 2 * libdevice.isinf(d).to(tl.float64) + 4 * libdevice.signbit(d).to(tl.float64))


@triton.jit
def _narrow_doubles(X, H, B, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n)
    tl.store(H + offs, x.to(tl.float16), mask=offs < n)
    tl.store(B + offs, x.to(tl.bfloat16).to(tl.float32), mask=offs < n)


@pytest.mark.parametrize("interpret", ["0", "1"])
def test_doubles_round_once_to_half_and_bfloat16(monkeypatch, interpret):
    # f64 -> f16 and f64 -> bf16 are library calls on hosts without such
    # instructions (HostConversions.cpp); each rounds once, to nearest even:
    # 1 + 2^-11 + 2^-40 is above the midpoint between two halves (through a
    # float first it would be the midpoint, and round to even, down)
    monkeypatch.setenv("TRITON_INTERPRET", interpret)
    kernel = triton.jit(_narrow_doubles.fn)
    x = np.array([1 + 2.0**-11 + 2.0**-40, 1 + 2.0**-8 + 2.0**-40, 1 + 2.0**-11, 1 + 3 * 2.0**-11, -2.0**-25,
                  65520.0, 3.0e38, -np.inf, np.nan, 1e-300, 2.0**-134 * 1.5, 0.1], np.float64)
    h = np.zeros(x.size, np.float16)
    b = np.zeros(x.size, np.float32)
    kernel[(1,)](x, h, b, x.size, BLOCK=16)
    with np.errstate(over="ignore"):  # (3e38 and 65520 overflow to infinity, as they should)
        assert np.array_equal(h, x.astype(np.float16), equal_nan=True)
    want = np.array([_round_to_bfloat16(v) for v in x], np.float32)
    assert np.array_equal(b, want, equal_nan=True), (b, want)


def _round_to_bfloat16(v):
    """`v` rounded to bfloat16 (8 significant bits, 8 exponent bits), to
    nearest even, by exact rational arithmetic."""
    import fractions
    import math
    if math.isnan(v) or math.isinf(v) or v == 0:
        return v
    x = fractions.Fraction(v)
    sign = -1 if x < 0 else 1
    x = abs(x)
    e = max(math.floor(math.log2(x)), -126)  # subnormals keep the smallest normal exponent's spacing
    while fractions.Fraction(2) ** e > x and e > -126:
        e -= 1
    while fractions.Fraction(2) ** (e + 1) <= x:
        e += 1
    unit = fractions.Fraction(2) ** (e - 7)
    q, r = divmod(x, unit)
    if r > unit / 2 or (r == unit / 2 and q % 2 == 1):
        q += 1
    y = q * unit
    if y >= fractions.Fraction(2) ** 128:
        return sign * math.inf
    return sign * float(y)


def test_libdevice_conversions_with_each_rounding():
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -1.2, 1.7, 0.0, -0.0, 3.49, -3.51, 7.0, -7.0, 0.49, 9.5],
                 np.float32)
    d = x.astype(np.float64) * 1.25
    N = len(x)
    i, u, l, h = np.empty(N, np.int32), np.empty(N, np.uint32), np.empty(N, np.int64), np.empty(N, np.float64)
    _libdevice_conversions[(1,)](x, d, i, u, l, h, N=N)
    assert np.array_equal(i, (np.rint(x) + 1000 * np.floor(x) + 1000000 * np.ceil(d)).astype(np.int32))
    ax = np.abs(x)
    assert np.array_equal(u, (np.rint(ax) + 1000 * np.floor(ax) + 1000000 * np.ceil(ax)).astype(np.uint32))
    assert np.array_equal(l, (np.ceil(x) + 1000 * np.floor(d) + np.rint(np.abs(d))).astype(np.int64))
    assert np.array_equal(h, d + 4 * np.signbit(d))


@triton.jit
def _libdevice_directed_f32(a_ptr, b_ptr, c_ptr, i_ptr, d_ptr, out_ptr, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    a, b, c = tl.load(a_ptr + offs), tl.load(b_ptr + offs), tl.load(c_ptr + offs)
    i, d = tl.load(i_ptr + offs), tl.load(d_ptr + offs)
    if MODE == "rd":
        results = (libdevice.add_rd(a, b), libdevice.sub_rd(a, b), libdevice.mul_rd(a, b), libdevice.div_rd(a, b),
                   libdevice.sqrt_rd(tl.abs(a)), libdevice.rcp_rd(b), libdevice.double2float_rd(d),
                   libdevice.int2float_rd(i), libdevice.uint2float_rd(i.to(tl.uint32, bitcast=True)),
                   libdevice.fma_rd(a, b, c))
    elif MODE == "ru":
        results = (libdevice.add_ru(a, b), libdevice.sub_ru(a, b), libdevice.mul_ru(a, b), libdevice.div_ru(a, b),
                   libdevice.sqrt_ru(tl.abs(a)), libdevice.rcp_ru(b), libdevice.double2float_ru(d),
                   libdevice.int2float_ru(i), libdevice.uint2float_ru(i.to(tl.uint32, bitcast=True)),
                   libdevice.fma_ru(a, b, c))
    else:
        results = (libdevice.add_rz(a, b), libdevice.sub_rz(a, b), libdevice.mul_rz(a, b), libdevice.div_rz(a, b),
                   libdevice.sqrt_rz(tl.abs(a)), libdevice.rcp_rz(b), libdevice.double2float_rz(d),
                   libdevice.int2float_rz(i), libdevice.uint2float_rz(i.to(tl.uint32, bitcast=True)),
                   libdevice.fma_rz(a, b, c))
    for k in tl.static_range(len(results)):
        tl.store(out_ptr + k * N + offs, results[k])


def _directed(exact, mode, dtype):
    """`exact` (a Fraction, or None for a NaN) rounded to `dtype` down, up
    or toward zero: the neighbours found from the nearest value."""
    import fractions
    if exact is None:
        return dtype(np.nan)
    info = np.finfo(dtype)
    largest = fractions.Fraction(float(info.max))
    if exact > largest or exact < -largest:
        over = exact > 0
        toward_zero = {"rd": over, "ru": not over, "rz": True}[mode]
        return dtype(info.max if over else -info.max) if toward_zero else dtype(np.inf if over else -np.inf)
    c = dtype(float(exact)) if abs(exact) > 0 else dtype(0)
    while not np.isinf(c) and fractions.Fraction(float(c)) > exact:
        c = np.nextafter(c, dtype(-np.inf))
    while fractions.Fraction(float(c)) < exact:
        c = np.nextafter(c, dtype(np.inf))
    up = c  # the smallest value >= exact
    down = c if fractions.Fraction(float(c)) == exact else np.nextafter(c, dtype(-np.inf))
    if mode == "rd":
        return down
    if mode == "ru":
        return up
    return down if exact >= 0 else up


@pytest.mark.parametrize("mode", ["rd", "ru", "rz"])
def test_libdevice_directed_roundings_of_float_arithmetic(mode):
    # add, sub, mul, div, sqrt, rcp, double2float, int2float, uint2float in
    # each directed rounding, against the exact rational results rounded by
    # hand
    import fractions
    F = fractions.Fraction
    r = np.random.default_rng(7)
    N = 256
    a = (r.standard_normal(N) * np.exp2(r.integers(-30, 30, N))).astype(np.float32)
    b = (r.standard_normal(N) * np.exp2(r.integers(-30, 30, N))).astype(np.float32)
    tiny = np.float32(np.finfo(np.float32).smallest_subnormal)
    big = np.float32(np.finfo(np.float32).max)
    a[:11] = [1, 1, big, -big, tiny, 3, 1e-20, 0.1, 2**24 + 1, -7, -tiny]
    b[:11] = [2**-30, -1, big, -big, tiny, 3, 1e-25, 0.3, 1, 3, tiny]  # (-tiny * tiny: -0, or -tiny rounded down)
    i = r.integers(-(2**31), 2**31, N, dtype=np.int64).astype(np.int32)
    i[:3] = [2**24 + 1, -(2**24 + 1), 2**31 - 1]
    d = r.standard_normal(N) * np.exp2(r.integers(-150, 140, N).astype(np.float64))
    d[:3] = [1e300, -1e300, 1.0 + 2.0**-40]
    addend = (r.standard_normal(N) * np.exp2(r.integers(-60, 60, N))).astype(np.float32)
    addend[:4] = [-2.0**-30, 1, -big, -9]  # (with a and b: 1 * 2^-30 - 2^-30 = 0, ...)
    out = np.empty((10, N), np.float32)
    _libdevice_directed_f32[(1,)](a, b, addend, i, d, out, N=N, MODE=mode)

    names = ["add", "sub", "mul", "div", "sqrt", "rcp", "double2float", "int2float", "uint2float", "fma"]
    for k, name in enumerate(names):
        for j in range(N):
            x, y = F(float(a[j])), F(float(b[j]))
            exact = None
            if name == "add":
                exact = x + y
                want = _directed(exact, mode, np.float32)
            elif name == "sub":
                exact = x - y
                want = _directed(exact, mode, np.float32)
            elif name == "mul":
                want = _directed(x * y, mode, np.float32)
            elif name == "div":
                want = _directed(x / y, mode, np.float32)
            elif name == "rcp":
                want = _directed(1 / y, mode, np.float32)
            elif name == "double2float":
                want = _directed(F(float(d[j])), mode, np.float32)
            elif name == "int2float":
                want = _directed(F(int(i[j])), mode, np.float32)
            elif name == "uint2float":
                want = _directed(F(int(i[j]) & 0xFFFFFFFF), mode, np.float32)
            elif name == "fma":
                exact = x * y + F(float(addend[j]))
                want = _directed(exact, mode, np.float32)
            else:  # sqrt: the neighbours of the nearest by their squares
                v = abs(x)
                c = np.float32(np.sqrt(float(v)))
                down = c if F(float(c)) ** 2 <= v else np.nextafter(c, np.float32(0))
                while F(float(np.nextafter(down, np.float32(np.inf)))) ** 2 <= v:
                    down = np.nextafter(down, np.float32(np.inf))
                up = down if F(float(down)) ** 2 == v else np.nextafter(down, np.float32(np.inf))
                want = up if mode == "ru" else down
            if want == 0:  # the sign of a zero, as IEEE 754 gives it
                product = np.float64(a[j]) * np.float64(b[j])
                terms = {"add": (a[j], b[j]), "sub": (a[j], -b[j]), "fma": (product, addend[j])}.get(name)
                if name in ("mul", "div"):
                    negative = bool(np.signbit(a[j]) ^ np.signbit(b[j]))
                elif name == "double2float":
                    negative = bool(np.signbit(d[j]))
                elif name in ("sqrt", "rcp", "int2float", "uint2float"):
                    negative = False
                elif terms[0] == 0 and terms[1] == 0:  # (x * y for fma: its sign is the product's)
                    both = (np.signbit(terms[0]), np.signbit(terms[1]))
                    negative = all(both) or (mode == "rd" and any(both))
                elif exact == 0:
                    negative = mode == "rd"
                else:
                    negative = exact < 0
                want = np.float32(-0.0) if negative else np.float32(0.0)
            got = out[k, j]
            assert got.view(np.uint32) == np.float32(want).view(np.uint32), \
                (name, mode, j, a[j], b[j], got, want)
    # an exact zero sum: -0 rounded down, +0 otherwise (both terms +0: +0)
    z = np.array([1, 0, -0.0, -0.0], np.float32)
    zb = np.array([-1, 0, 0, -0.0], np.float32)
    out = np.empty((10, 4), np.float32)
    _libdevice_directed_f32[(1,)](z, zb, np.zeros(4, np.float32), np.zeros(4, np.int32), np.zeros(4), out, N=4,
                                  MODE=mode)
    assert list(np.signbit(out[0])) == ([True, False, True, True] if mode == "rd" else [False, False, False, True])


@triton.jit
def _libdevice_directed_f64_sums(a_ptr, b_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a, b = tl.load(a_ptr + offs), tl.load(b_ptr + offs)
    results = (libdevice.add_rd(a, b), libdevice.add_ru(a, b), libdevice.add_rz(a, b), libdevice.sub_rd(a, b),
               libdevice.sub_ru(a, b), libdevice.sub_rz(a, b))
    for k in tl.static_range(len(results)):
        tl.store(out_ptr + k * N + offs, results[k])


@triton.jit
def _libdevice_directed_f64(a_ptr, b_ptr, l_ptr, out_ptr, fout_ptr, N: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, N)
    a, b, l = tl.load(a_ptr + offs), tl.load(b_ptr + offs), tl.load(l_ptr + offs)
    ul = l.to(tl.uint64, bitcast=True)
    if MODE == "rd":
        results = (libdevice.mul_rd(a, b), libdevice.div_rd(a, b), libdevice.rcp_rd(b), libdevice.sqrt_rd(tl.abs(a)),
                   libdevice.ll2double_rd(l), libdevice.ull2double_rd(ul))
        floats = (libdevice.ll2float_rd(l), libdevice.ull2float_rd(ul))
    elif MODE == "ru":
        results = (libdevice.mul_ru(a, b), libdevice.div_ru(a, b), libdevice.rcp_ru(b), libdevice.sqrt_ru(tl.abs(a)),
                   libdevice.ll2double_ru(l), libdevice.ull2double_ru(ul))
        floats = (libdevice.ll2float_ru(l), libdevice.ull2float_ru(ul))
    else:
        results = (libdevice.mul_rz(a, b), libdevice.div_rz(a, b), libdevice.rcp_rz(b), libdevice.sqrt_rz(tl.abs(a)),
                   libdevice.ll2double_rz(l), libdevice.ull2double_rz(ul))
        floats = (libdevice.ll2float_rz(l), libdevice.ull2float_rz(ul))
    for k in tl.static_range(len(results)):
        tl.store(out_ptr + k * N + offs, results[k])
    for k in tl.static_range(len(floats)):
        tl.store(fout_ptr + k * N + offs, floats[k])


@pytest.mark.parametrize("mode", ["rd", "ru", "rz"])
def test_libdevice_directed_roundings_of_double_products_quotients_roots_and_longs(mode):
    # double mul, div, rcp, sqrt (one fma gives the error's sign; tiny
    # operands are scaled first) and 64-bit integers to double and float,
    # against exact results rounded by hand
    import fractions
    F = fractions.Fraction
    r = np.random.default_rng(9)
    N = 128
    a = r.standard_normal(N) * np.exp2(r.integers(-300, 300, N).astype(np.float64))
    b = r.standard_normal(N) * np.exp2(r.integers(-300, 300, N).astype(np.float64))
    tiny, big = np.finfo(np.float64).smallest_subnormal, np.finfo(np.float64).max
    a[:8] = [tiny, 3 * tiny, 1e-300, -1e-160, big, 1.0, 2.0, 5e-324 * 7]
    b[:8] = [0.75, 1e10, 1e-30, 3e-170, 0.5, 3.0, big, 3.0]
    l = r.integers(-(2**63), 2**63 - 1, N, dtype=np.int64)
    l[:6] = [2**63 - 1, -(2**63), 2**53 + 1, -(2**53 + 1), 2**24 + 1, -1]
    out, fout = np.empty((6, N)), np.empty((2, N), np.float32)
    _libdevice_directed_f64[(1,)](a, b, l, out, fout, N=N, MODE=mode)
    for j in range(N):
        x, y = F(float(a[j])), F(float(b[j]))
        wants = [_directed(x * y, mode, np.float64), _directed(x / y, mode, np.float64),
                 _directed(1 / y, mode, np.float64), None, _directed(F(int(l[j])), mode, np.float64),
                 _directed(F(int(l[j]) % 2**64), mode, np.float64)]
        v = abs(x)  # sqrt: the neighbours of the nearest by their squares
        c = np.sqrt(float(v))
        down = c if F(float(c)) ** 2 <= v else np.nextafter(c, 0.0)
        while F(float(np.nextafter(down, np.inf))) ** 2 <= v:
            down = np.nextafter(down, np.inf)
        wants[3] = down if mode != "ru" or F(float(down)) ** 2 == v else np.nextafter(down, np.inf)
        for k, want in enumerate(wants):
            if want == 0:  # (zero results of mul and div: the sign of the operands')
                want = -0.0 if k < 2 and np.signbit(a[j]) != np.signbit(b[j]) else 0.0
            assert np.float64(out[k, j]).view(np.uint64) == np.float64(want).view(np.uint64), (k, mode, j, a[j], b[j])
        for k, exact in enumerate([F(int(l[j])), F(int(l[j]) % 2**64)]):
            want = _directed(exact, mode, np.float32)
            assert fout[k, j].view(np.uint32) == np.float32(want).view(np.uint32), ("long2float", k, mode, j, l[j])


def test_libdevice_directed_roundings_of_double_sums():
    import fractions
    F = fractions.Fraction
    r = np.random.default_rng(8)
    N = 128
    a = r.standard_normal(N) * np.exp2(r.integers(-60, 60, N).astype(np.float64))
    b = r.standard_normal(N) * np.exp2(r.integers(-60, 60, N).astype(np.float64))
    a[:3], b[:3] = [1.0, np.finfo(np.float64).max, 1e-300], [2.0**-80, np.finfo(np.float64).max, -1e-310]
    out = np.empty((6, N))
    _libdevice_directed_f64_sums[(1,)](a, b, out, N=N)
    for j in range(N):
        x, y = F(float(a[j])), F(float(b[j]))
        for k, (exact, mode) in enumerate([(x + y, "rd"), (x + y, "ru"), (x + y, "rz"), (x - y, "rd"), (x - y, "ru"),
                                           (x - y, "rz")]):
            assert out[k, j] == _directed(exact, mode, np.float64), (k, j, a[j], b[j])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_libdevice_functions_run_as_their_c_library_twins(dtype):
    import math
    x = np.linspace(0.1, 3.0, 64).astype(dtype)
    y = np.zeros_like(x)
    _libdevice_calls[(1,)](x, y, N=64)
    want = [math.erf(v) + v ** 2 + math.atan2(v, v + 1) + math.cbrt(v) for v in x.astype(np.float64)]
    np.testing.assert_allclose(y, want, rtol=1e-6 if dtype == np.float32 else 1e-14)
    with pytest.raises(triton.CompilationError, match="'tt.extern_elementwise' of my_erf has no lowering"):
        _extern_function_without_a_host_lowering[(1,)](np.zeros(64, np.float32), N=64)


def test_libdevice_functions_computed_by_host_ops():
    N = 512
    x = rng.standard_normal(N).astype(np.float32) * 3
    x[:4] = [np.nan, np.inf, -np.inf, -0.0]
    i = rng.integers(-(2**31), 2**31 - 1, N, dtype=np.int64).astype(np.int32)
    f, flags, n = np.empty(N, np.float32), np.empty(N, np.int32), np.empty(N, np.int32)
    _libdevice_by_host_ops[(1,)](x, i, f, flags, n, N=N)
    d = x.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        want = (1 / np.sqrt(np.abs(d) + 1) + np.clip(d, 0, 1) + np.exp(d * 0.1) + (d + 1) * i.astype(np.float64)
                + d)
    finite = np.isfinite(want)
    np.testing.assert_allclose(f[finite], want[finite], rtol=1e-5, atol=1e-3)
    want_flags = np.isnan(x) + 2 * np.isinf(x) + 4 * np.signbit(x)
    assert np.array_equal(flags, want_flags.astype(np.int32))
    u = i.view(np.uint32).astype(np.uint64)
    popc = np.array([bin(v).count("1") for v in u])
    clz = np.array([32 - int(v).bit_length() for v in u])
    assert np.array_equal(n, (popc + 100 * clz + np.maximum(i, 3) - np.minimum(i, -3)).astype(np.int32))


@triton.jit
def _descriptor_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # tutorial 09's shape: tiles through host descriptors; the edges of
    # every operand lie partly outside it (zeros there)
    pm, pn = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pm * BM, k * BK])
        b = b_desc.load([k * BK, pn * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pm * BM, pn * BN], acc)


@triton.jit
def _descriptor_made_in_the_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN], padding_option="nan")
    tile = x_desc.load([tl.program_id(0) * BM, 0])
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    tl.store(y_ptr + rows * BN + tl.arange(0, BN)[None, :], tl.where(tile != tile, -1.0, tile), mask=rows < M)


def test_tensor_descriptors_load_and_store_as_plain_accesses():
    from tritium.tools.tensor_descriptor import TensorDescriptor
    M, N, K = 50, 40, 68  # no multiple of the blocks: the edges are read as zeros, not stored
    a = rng.standard_normal((M, K), dtype=np.float32)
    b = rng.standard_normal((K, N), dtype=np.float32)
    c = np.full((M, N), 7.0, np.float32)
    desc = lambda t, block: TensorDescriptor(t, list(t.shape), [t.shape[1], 1], block)  # noqa: E731
    _descriptor_matmul[(triton.cdiv(M, 32), triton.cdiv(N, 32))](desc(a, [32, 16]), desc(b, [16, 32]),
                                                                  desc(c, [32, 32]), K, BM=32, BN=32, BK=16)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-4)
    # a descriptor made in the kernel, padded with NaN past the shape's 12 columns
    x = rng.standard_normal((10, 12), dtype=np.float32)
    y = np.zeros((10, 16), np.float32)
    _descriptor_made_in_the_kernel[(3,)](x, y, 10, 12, BM=4, BN=16)
    assert np.array_equal(y, np.concatenate([x, np.full((10, 4), -1.0, np.float32)], axis=1))


def test_host_descriptors_under_interpret_and_their_padding(monkeypatch):
    from tritium.tools.tensor_descriptor import TensorDescriptor
    # TRITON_INTERPRET=1 copies a descriptor's GPU base to the host and back
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    a = rng.standard_normal((32, 32), dtype=np.float32)
    b = rng.standard_normal((32, 32), dtype=np.float32)
    c = _DeviceTensor(np.zeros((32, 32), np.float32))
    desc = lambda t: TensorDescriptor(t, [32, 32], [32, 1], [16, 16])  # noqa: E731
    _descriptor_matmul[(2, 2)](desc(_DeviceTensor(a)), desc(_DeviceTensor(b)), desc(c), 32, BM=16, BN=16, BK=16)
    np.testing.assert_allclose(c.array, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-4)
    # a host descriptor's NaN padding cannot be honoured by the pointer path: an error, not zeros
    monkeypatch.delenv("TRITON_INTERPRET")
    nan_padded = TensorDescriptor(a, [32, 32], [32, 1], [16, 16], padding="nan")
    with pytest.raises(triton.TritiumError, match="padding='nan' is not supported"):
        _descriptor_matmul[(2, 2)](nan_padded, desc(b), desc(np.zeros((32, 32), np.float32)), 32, BM=16, BN=16,
                                   BK=16)


@triton.jit
def _large_reductions(x_ptr, i_ptr, sum0_ptr, sum1_ptr, max1_ptr, arg0_ptr, mid_ptr,
                      M: tl.constexpr, N: tl.constexpr):
    # tiles above the size the CPU target reduces as whole vectors: loops
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    tl.store(sum0_ptr + tl.arange(0, N), tl.sum(x, axis=0))
    tl.store(sum1_ptr + tl.arange(0, M), tl.sum(x, axis=1))
    tl.store(max1_ptr + tl.arange(0, M), tl.max(x, axis=1))
    tl.store(arg0_ptr + tl.arange(0, N), tl.argmax(x, axis=0))
    t = tl.reshape(tl.load(i_ptr + rows * N + cols), (M // 4, 4, N))
    mid = tl.sum(t, axis=1)
    tl.store(mid_ptr + tl.arange(0, M // 4)[:, None] * N + cols, mid)


def test_reductions_of_large_tiles_along_every_axis():
    M, N = 64, 128
    x = rng.standard_normal((M, N), dtype=np.float32)
    x[5, 7] = x[9, 7] = 50.0  # a tie: argmax takes the first
    ints = rng.integers(-1000, 1000, (M, N), dtype=np.int32)
    sum0, max1 = np.empty(N, np.float32), np.empty(M, np.float32)
    sum1, arg0 = np.empty(M, np.float32), np.empty(N, np.int32)
    mid = np.empty((M // 4, N), np.int32)
    _large_reductions[(1,)](x, ints, sum0, sum1, max1, arg0, mid, M=M, N=N)
    np.testing.assert_allclose(sum0, x.astype(np.float64).sum(axis=0), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(sum1, x.astype(np.float64).sum(axis=1), rtol=1e-5, atol=1e-4)
    assert np.array_equal(max1, x.max(axis=1)) and np.array_equal(arg0, x.argmax(axis=0))
    assert np.array_equal(mid, ints.reshape(M // 4, 4, N).sum(axis=1))


@triton.jit
def _dots(a_ptr, b_ptr, c_ptr, ia_ptr, ib_ptr, ic_ptr, qa_ptr, qb_ptr, qc_ptr,
          M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)[:, None]
    n = tl.arange(0, N)[None, :]
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n)
    tl.store(c_ptr + m * N + n, tl.dot(a, b, tl.full((M, N), 1.0, tl.float32), input_precision="ieee"))
    ia = tl.load(ia_ptr + m * K + k[None, :])
    ib = tl.load(ib_ptr + k[:, None] * N + n)
    tl.store(ic_ptr + m * N + n, tl.dot(ia, ib))
    # batched: two (M/2, K) x (K, N) products
    z = tl.arange(0, 2)[:, None, None]
    qa = tl.load(qa_ptr + z * (M // 2) * K + tl.arange(0, M // 2)[None, :, None] * K + k[None, None, :])
    qb = tl.load(qb_ptr + z * K * N + k[None, :, None] * N + tl.arange(0, N)[None, None, :])
    tl.store(qc_ptr + z * (M // 2) * N + tl.arange(0, M // 2)[None, :, None] * N + tl.arange(0, N)[None, None, :],
             tl.dot(qa, qb, input_precision="ieee"))


@pytest.mark.parametrize("shape", [(16, 16, 16), (64, 32, 64), (128, 64, 32)])
def test_dots_float_integer_and_batched(shape):
    M, N, K = shape
    a, b = rng.standard_normal((M, K), dtype=np.float32), rng.standard_normal((K, N), dtype=np.float32)
    ia = rng.integers(-128, 128, (M, K), dtype=np.int8)
    ib = rng.integers(-128, 128, (K, N), dtype=np.int8)
    qa = rng.standard_normal((2, M // 2, K), dtype=np.float32)
    qb = rng.standard_normal((2, K, N), dtype=np.float32)
    c, ic, qc = np.empty((M, N), np.float32), np.empty((M, N), np.int32), np.empty((2, M // 2, N), np.float32)
    _dots[(1,)](a, b, c, ia, ib, ic, qa, qb, qc, M=M, N=N, K=K)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b + 1.0, rtol=1e-4, atol=1e-4)
    assert np.array_equal(ic, ia.astype(np.int32) @ ib.astype(np.int32))
    np.testing.assert_allclose(qc, qa.astype(np.float64) @ qb, rtol=1e-4, atol=1e-4)


@triton.jit
def _strided_copy(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # loads and stores through pointers with no contiguous rows (a
    # transpose, rows by a stride): gathers and scatters, masked, of more
    # lanes than are gathered at once
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    inside = (rows < M) & (cols < N)
    x = tl.load(x_ptr + cols * M + rows, mask=inside, other=7)
    tl.store(y_ptr + rows * 3 * BN + cols * 3, x, mask=inside)


@pytest.mark.parametrize("dtype", [np.float16, np.int8, np.float32])
def test_gathers_and_scatters_of_many_lanes(dtype):
    M, N, BM, BN = 29, 50, 32, 64
    x = (rng.standard_normal((N, M)) * 20).astype(dtype)  # read transposed
    y = np.full((BM, BN * 3), 5, dtype)
    _strided_copy[(1,)](x, y, M, N, BM=BM, BN=BN)
    want = np.full((BM, BN * 3), 5, dtype)
    want[:M, 0:3 * N:3] = x.T
    assert np.array_equal(y, want)


@triton.jit
def _large_tiles(x_ptr, y_ptr, flags_ptr, M, N, B: tl.constexpr):
    # tiles above the size the CPU target moves in one block: the rows of
    # the masked load and store in loops, the transposes through memory
    rows = tl.arange(0, B)[:, None]
    cols = tl.arange(0, B)[None, :]
    inside = (rows < M) & (cols < N)
    x = tl.load(x_ptr + rows * N + cols, mask=inside, other=-1.0)
    positive = tl.trans(x > 0)
    tl.store(y_ptr + rows * B + cols, tl.trans(x), mask=rows < N)
    tl.store(flags_ptr + rows * B + cols, positive.to(tl.int8))


def test_masked_rows_and_transposes_of_large_tiles():
    M, N, B = 50, 45, 64
    x = rng.standard_normal((M, N), dtype=np.float32)
    y = np.full((B, B), 9.0, np.float32)
    flags = np.zeros((B, B), np.int8)
    _large_tiles[(1,)](x, y, flags, M, N, B=B)
    padded = np.full((B, B), -1.0, np.float32)
    padded[:M, :N] = x
    want = np.full((B, B), 9.0, np.float32)
    want[:N] = padded.T[:N]
    assert np.array_equal(y, want)
    assert np.array_equal(flags, (padded.T > 0).astype(np.int8))


@triton.jit
def _costly_elementwise(x_ptr, i_ptr, f_ptr, q_ptr, r_ptr, l_ptr, N: tl.constexpr):
    # above the size the CPU target computes math functions and integer
    # division on whole vectors: in a loop over chunks
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    i = tl.load(i_ptr + o)
    tl.store(f_ptr + o, tl.exp(x) * tl.sin(x) + tl.erf(x) - tl.log(x * x + 1.0))
    tl.store(q_ptr + o, i // 7)
    tl.store(r_ptr + o, i % 7)
    tl.store(l_ptr + o, libdevice.pow(x, 2.0))


def test_costly_elementwise_ops_on_large_tensors():
    import math
    N = 2048
    x = rng.standard_normal(N).astype(np.float32)
    i = rng.integers(-10000, 10000, N).astype(np.int32)
    f, l = np.empty(N, np.float32), np.empty(N, np.float32)
    q, r = np.empty(N, np.int32), np.empty(N, np.int32)
    _costly_elementwise[(1,)](x, i, f, q, r, l, N=N)
    d = x.astype(np.float64)
    erf = np.array([math.erf(v) for v in d])
    np.testing.assert_allclose(f, np.exp(d) * np.sin(d) + erf - np.log(d * d + 1.0), rtol=1e-5, atol=1e-5)
    # Triton's integer division and remainder truncate toward zero (C's)
    assert np.array_equal(q, np.trunc(i / 7).astype(np.int32))
    assert np.array_equal(r, i - np.trunc(i / 7).astype(np.int32) * 7)
    np.testing.assert_allclose(l, d * d, rtol=1e-6)


def _fp8_values(exponent_bits, bias, nan_codes, inf_codes):
    """The value of every byte of an fp8 format (sign, exponent, mantissa),
    NaN and the infinities by their codes."""
    mantissa_bits = 7 - exponent_bits
    values = []
    for code in range(256):
        sign = -1.0 if code & 0x80 else 1.0
        e, m = (code >> mantissa_bits) & ((1 << exponent_bits) - 1), code & ((1 << mantissa_bits) - 1)
        if code in nan_codes:
            values.append(np.nan)
        elif code in inf_codes:
            values.append(sign * np.inf)
        elif e == 0:
            values.append(sign * m * 2.0 ** (1 - bias - mantissa_bits))
        else:
            values.append(sign * (1 + m / 2 ** mantissa_bits) * 2.0 ** (e - bias))
    return np.array(values)


FP8_FORMATS = {  # Triton's name: (exponent bits, bias, NaN codes, infinity codes)
    "float8e4nv": (4, 7, {0x7F, 0xFF}, set()),
    "float8e5": (5, 15, {c for c in range(256) if (c & 0x7C) == 0x7C and c & 3}, {0x7C, 0xFC}),
}


@triton.jit
def _fp8_round_trip(codes_ptr, decoded_ptr, x_ptr, encoded_ptr, back_ptr, N: tl.constexpr, FMT: tl.constexpr,
                    RTZ: tl.constexpr):
    o = tl.arange(0, N)
    fp8 = tl.load(codes_ptr + o).to(FMT, bitcast=True)
    tl.store(decoded_ptr + o, fp8.to(tl.float32))
    x = tl.load(x_ptr + o)
    if RTZ:
        y = x.to(FMT, fp_downcast_rounding="rtz")
    else:
        y = x.to(FMT)
    tl.store(encoded_ptr + o, y.to(tl.uint8, bitcast=True))
    tl.store(back_ptr + o, y.to(tl.float16).to(tl.float32))


@pytest.mark.parametrize("fmt", sorted(FP8_FORMATS))
@pytest.mark.parametrize("rtz", [False, True])
def test_fp8_conversions_decode_every_code_and_round_as_the_gpu(fmt, rtz):
    values = _fp8_values(*FP8_FORMATS[fmt])
    finite = np.isfinite(values)
    largest = np.nanmax(np.abs(values[finite]))
    codes = np.arange(256, dtype=np.uint8)
    # values at, between and beyond the representable ones, ties included
    grid = np.unique(values[finite])
    mids = (grid[:-1] + grid[1:]) / 2
    x = np.concatenate([grid, mids, mids + 1e-7 * np.abs(mids), [largest * 1.5, np.inf, -np.inf, np.nan]])
    x = np.resize(x.astype(np.float32), 1024)
    decoded, back = np.empty(256, np.float32), np.empty(1024, np.float32)
    encoded = np.empty(1024, np.uint8)
    _fp8_round_trip[(1,)](codes, decoded, np.ascontiguousarray(x[:256]), encoded[:256], back[:256], N=256,
                          FMT=getattr(tl, fmt), RTZ=rtz)
    _fp8_round_trip[(1,)](np.resize(codes, 1024), np.empty(1024, np.float32), x, encoded, back, N=1024,
                          FMT=getattr(tl, fmt), RTZ=rtz)
    np.testing.assert_array_equal(decoded, values.astype(np.float32))
    # the reference: the nearest finite value (saturating), ties to the even code, or toward zero
    for xi, got in zip(x.astype(np.float64), back.astype(np.float64)):
        if np.isnan(xi):
            assert np.isnan(got)
            continue
        a = min(abs(xi), largest)
        candidates = grid[grid >= 0]
        if rtz:
            want = candidates[candidates <= a].max()
        else:
            d = np.abs(candidates - a)
            best = candidates[d == d.min()]
            want = best[0] if len(best) == 1 else [v for v in best
                                                   if int(np.nonzero(values == v)[0][0]) % 2 == 0][0]
        assert got == np.copysign(want, xi) or (want == 0 and got == 0), (fmt, xi, got, want)


@triton.jit
def _fp8_dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, FMT: tl.constexpr):
    m = tl.arange(0, M)[:, None]
    n = tl.arange(0, N)[None, :]
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m * K + k[None, :]).to(FMT, bitcast=True)
    b = tl.load(b_ptr + k[:, None] * N + n).to(FMT, bitcast=True)
    tl.store(c_ptr + m * N + n, tl.dot(a, b))


@pytest.mark.parametrize("fmt", sorted(FP8_FORMATS))
def test_fp8_dot(fmt):
    values = _fp8_values(*FP8_FORMATS[fmt])
    small = np.nonzero(np.isfinite(values) & (np.abs(values) <= 4))[0].astype(np.uint8)
    M, N, K = 32, 16, 32
    a = rng.choice(small, (M, K)).astype(np.uint8)
    b = rng.choice(small, (K, N)).astype(np.uint8)
    c = np.empty((M, N), np.float32)
    _fp8_dot[(1,)](a, b, c, M=M, N=N, K=K, FMT=getattr(tl, fmt))
    np.testing.assert_allclose(c, values[a] @ values[b], rtol=1e-6, atol=1e-6)


def test_host_launches_take_the_warm_path(monkeypatch):
    from conftest import count_calls

    @triton.jit
    def scale(x_ptr, y_ptr, n, factor, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < n) * factor, mask=o < n)

    slow = count_calls(monkeypatch, scale, "_run_slow")
    x = rng.standard_normal(1000).astype(np.float32)
    y = np.zeros_like(x)
    scale[(8,)](x, y, 1000, 2.0, BLOCK=128)
    scale[(8,)](x, y, 1000, 3.0, BLOCK=128)  # warm: the same kinds of arguments
    assert len(slow) == 1 and np.array_equal(y, x * 3.0)
    z = np.zeros(1001, np.float32)
    scale[(8,)](x, z[1:], 1000, 4.0, BLOCK=128)  # an array not 16-byte aligned: its own entry
    assert len(slow) == 2 and np.array_equal(z[1:], x * 4.0)
    scale[(8,)](x, z[1:], 1000, 5.0, BLOCK=128)
    assert len(slow) == 2 and np.array_equal(z[1:], x * 5.0)
    xd, yd = x.astype(np.float64), np.zeros(1000, np.float64)
    scale[(8,)](xd, yd, 1000, 2.0, BLOCK=128)  # another dtype: another specialization
    assert len(slow) == 3 and np.allclose(yd, xd * 2.0)
    with pytest.raises(triton.CompilationError, match="missing 1 argument"):
        scale[(8,)](x, y, 1000, BLOCK=128)  # a missing argument: the slow path says which


def test_numpy_scalars_are_passed_by_value():
    @triton.jit
    def scale(x_ptr, y_ptr, n, factor, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < n) * factor, mask=o < n)

    x = rng.standard_normal(300).astype(np.float32)
    for n, factor in ((np.int64(300), np.float32(2.5)), (np.int32(300), np.float64(-1.0)), (300, np.float16(4))):
        y = np.zeros_like(x)
        scale[(3,)](x, y, n, factor, BLOCK=128)
        np.testing.assert_array_equal(y, x * np.float32(factor))
