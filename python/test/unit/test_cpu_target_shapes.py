"""The CPU target across tile shapes: one kernel of many ops (masked loads
and stores, reductions and scans along both axes, argmin, a transpose, a
gather through loaded indices, math functions, integer division, a dot)
run at shapes on both sides of the sizes where the lowering switches from
whole vectors to loops over stack copies (convert-tt-to-host-llvm: 64
lanes for gathers, 256 for costly element-wise ops, 1024 for reductions,
scans, permutations and row accesses), against numpy in float64."""
import pytest

np = pytest.importorskip("numpy")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402


@triton.jit
def _many_ops(x_ptr, idx_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    inside = (rows < M) & (cols < N)
    x = tl.load(x_ptr + rows * N + cols, mask=inside, other=0.0)
    tile = BM * BN
    # the (BM, BN) results, one after another
    tl.store(out_ptr + rows * BN + cols, tl.cumsum(x, axis=1))
    tl.store(out_ptr + tile + rows * BN + cols, tl.cumsum(x, axis=0, reverse=True))
    tl.store(out_ptr + 2 * tile + cols * BM + rows, x)  # (BN, BM): the transpose, by its pointers
    tl.store(out_ptr + 3 * tile + rows * BN + cols, tl.trans(tl.trans(x) * 2.0))
    tl.store(out_ptr + 4 * tile + rows * BN + cols, tl.exp(x * 0.5) - tl.sin(x))
    i = (x * 100.0).to(tl.int32)
    tl.store(out_ptr + 5 * tile + rows * BN + cols, (i // 7 + i % 5).to(tl.float32))
    j = tl.load(idx_ptr + rows * BN + cols)  # a permutation of the tile, loaded
    tl.store(out_ptr + 6 * tile + rows * BN + cols, tl.load(x_ptr + j, mask=inside, other=-1.0))
    # the vectors
    base = 7 * tile
    tl.store(out_ptr + base + tl.arange(0, BN), tl.sum(x, axis=0))
    tl.store(out_ptr + base + BN + tl.arange(0, BM), tl.max(x, axis=1))
    tl.store(out_ptr + base + BN + BM + tl.arange(0, BN), tl.argmin(x, axis=0).to(tl.float32))
    tl.store(out_ptr + base + 2 * BN + BM + tl.arange(0, BM), tl.sum(x * x, axis=1))
    # a dot of the tile with its transpose: (BM, BM)
    d = tl.dot(x, tl.trans(x), input_precision="ieee")
    tl.store(out_ptr + base + 2 * BN + 2 * BM + tl.arange(0, BM)[:, None] * BM + tl.arange(0, BM)[None, :], d)


SHAPES = [(16, 16, 16, 16), (16, 64, 13, 50), (32, 32, 32, 32), (32, 64, 30, 64), (64, 32, 64, 17),
          (16, 128, 16, 100), (128, 16, 100, 16)]


@pytest.mark.parametrize("BM, BN, M, N", SHAPES)
def test_many_ops_at_shapes_around_the_loop_sizes(BM, BN, M, N):
    rng = np.random.default_rng(BM * 1000 + BN)
    x = rng.standard_normal((M, N)).astype(np.float32)
    idx = rng.permutation(BM * BN).reshape(BM, BN)
    idx = np.where((np.arange(BM)[:, None] < M) & (np.arange(BN)[None, :] < N), idx % (M * N), 0).astype(np.int32)
    tile = BM * BN
    out = np.zeros(7 * tile + 2 * BN + 2 * BM + BM * BM, np.float32)
    _many_ops[(1,)](x, idx, out, M, N, BM=BM, BN=BN)
    p = np.zeros((BM, BN))
    p[:M, :N] = x
    inside = np.zeros((BM, BN), bool)
    inside[:M, :N] = True
    t = out[:7 * tile].reshape(7, BM, BN)
    close = dict(rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(t[0], np.cumsum(p, axis=1), **close)
    np.testing.assert_allclose(t[1], np.cumsum(p[::-1], axis=0)[::-1], **close)
    np.testing.assert_array_equal(out[2 * tile:3 * tile].reshape(BN, BM), p.T.astype(np.float32))
    np.testing.assert_array_equal(t[3], (p * 2).astype(np.float32))
    np.testing.assert_allclose(t[4], np.exp(p * 0.5) - np.sin(p), rtol=1e-5, atol=1e-5)
    i = np.trunc(p.astype(np.float32) * np.float32(100)).astype(np.int64)
    np.testing.assert_array_equal(t[5], (np.trunc(i / 7) + np.fmod(i, 5)).astype(np.float32))
    gathered = np.where(inside, x.reshape(-1)[idx], -1.0)
    np.testing.assert_array_equal(t[6], gathered.astype(np.float32))
    v = out[7 * tile:]
    np.testing.assert_allclose(v[:BN], p.sum(axis=0), **close)
    np.testing.assert_array_equal(v[BN:BN + BM], p.max(axis=1).astype(np.float32))
    np.testing.assert_array_equal(v[BN + BM:2 * BN + BM], p.argmin(axis=0))
    np.testing.assert_allclose(v[2 * BN + BM:2 * BN + 2 * BM], (p * p).sum(axis=1), **close)
    np.testing.assert_allclose(v[2 * BN + 2 * BM:].reshape(BM, BM), p @ p.T, rtol=1e-4, atol=1e-3)


@triton.jit
def _row_accesses(x_ptr, out_ptr, M, N, fill, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    inside = (rows < M) & (cols < N)
    tile = BM * BN
    whole = tl.load(x_ptr + rows * BN + cols)  # no mask, no other: constants in the row loop
    tl.store(out_ptr + rows * BN + cols, whole * 3.0)
    masked = tl.load(x_ptr + rows * BN + cols, mask=inside, other=fill)  # mask and other copied
    tl.store(out_ptr + tile + rows * BN + cols, masked + 1.0)
    zeroed = tl.load(x_ptr + rows * BN + cols, mask=inside)  # a mask, zero other
    tl.store(out_ptr + 2 * tile + rows * BN + cols, zeroed, mask=cols < N)
    negative_zero = tl.load(x_ptr + rows * BN + cols, mask=inside, other=-0.0)  # kept as given
    tl.store(out_ptr + 3 * tile + rows * BN + cols, negative_zero)


@pytest.mark.parametrize("interpret", [False, True])
def test_row_accesses_beyond_the_loop_size(interpret, monkeypatch):
    # 128x128 tiles: loads and stores by rows in a loop (more than 1024
    # lanes), each row from its first pointer; with and without a mask and
    # `other`, and under fast-compile (TRITON_INTERPRET=1's code generator).
    if interpret:
        monkeypatch.setenv("TRITON_INTERPRET", "1")
    BM = BN = 128
    M, N = 100, 120
    rng = np.random.default_rng(7)
    x = rng.standard_normal((BM, BN)).astype(np.float32)
    out = np.full(4 * BM * BN, -7.0, np.float32)
    _row_accesses[(1,)](x, out, M, N, 2.5, BM=BM, BN=BN)
    t = out.reshape(4, BM, BN)
    inside = (np.arange(BM)[:, None] < M) & (np.arange(BN)[None, :] < N)
    np.testing.assert_array_equal(t[0], x * np.float32(3))
    np.testing.assert_array_equal(t[1], np.where(inside, x + np.float32(1), np.float32(3.5)))
    np.testing.assert_array_equal(t[2], np.where(inside, x, np.where(np.arange(BN)[None, :] < N, np.float32(0),
                                                                    np.float32(-7))))
    outside = ~inside
    assert (t[3][outside] == 0).all() and np.signbit(t[3][outside]).all()
    np.testing.assert_array_equal(t[3][inside], x[inside])
