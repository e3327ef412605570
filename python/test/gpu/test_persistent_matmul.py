"""Persistent tensor-descriptor matmuls as tutorial 09 writes them
(bench/kernels/persistent_matmul.py's matmul_tma_persistent, and variants in
python/test/unit/kernels/persistent.py): a grid of a few programs striding
over the output tiles in one `tl.range(..., flatten=True)` loop, A and B
tiles by TMA through a ring (the tile-loop passes, docs/hopper.md, issue
each next tile's first copies before the current tile's epilogue), the accumulator written
with stmatrix and stored by TMA.  Against torch in float32: K loops shorter
than the ring (1 and 2 tiles of K), longer and not a multiple of it, K not a
multiple of the block (zero-filled), edge tiles in M and N (clipped stores),
programs that own one tile, several, or none, K = 0, and 2 to 4 stages;
output tiles 8 to 128 columns wide in fp16 and fp32 (unswizzled, swizzled,
and one whose write stays in the epilogue over the register budget);
tutorial 09's 128x256 tile, deferred a slab per K step, with K loops shorter
than its four slabs.  The output is poisoned before every launch."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402
from tritium.tools.tensor_descriptor import TensorDescriptor  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit"))
from kernels.persistent import persistent_matmul_any_output, persistent_matmul_recording_tiles  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from kernel_sources import load_kernels  # noqa: E402

# tutorial 09's persistent matmul as bench_persistent_matmul.py times it
persistent_matmul = load_kernels("persistent_matmul.py", triton, tl, "tritium").matmul_tma_persistent


SHAPES = [(300, 520, 64), (256, 256, 128), (200, 136, 200), (384, 320, 448)]


@pytest.mark.parametrize("programs", [1, 3, 40])
@pytest.mark.parametrize("stages", [2, 3, 4])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_persistent_matmul_against_torch(shape, stages, programs):
    M, N, K = shape
    BM, BN, BK = 128, 64, 64
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((N, K), device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    persistent_matmul[(programs,)](TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BN, BK]),
                                   TensorDescriptor.from_tensor(c, [BM, BN]), M, N, K, BM, BN, BK, GROUP_SIZE_M=2,
                                   NUM_SMS=programs, num_stages=stages, num_warps=4)
    torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=1e-2, atol=5e-2)


@pytest.mark.parametrize("programs", [1, 3, 7])
@pytest.mark.parametrize("stages", [2, 3, 4])
@pytest.mark.parametrize("shape", [(384, 320, 448), (300, 200, 64)], ids=str)
def test_persistent_matmul_with_a_store_at_each_tile_head(shape, stages, programs):
    """The store stays in its tile's iteration; the ring continues across
    tiles with copy coordinates computed in the K loop."""
    M, N, K = shape
    BM, BN, BK = 128, 64, 64
    tiles = triton.cdiv(M, BM) * triton.cdiv(N, BN)
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((N, K), device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    owner = torch.full((tiles,), -1, device="cuda", dtype=torch.int32)
    persistent_matmul_recording_tiles[(programs,)](
        TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BN, BK]),
        TensorDescriptor.from_tensor(c, [BM, BN]), owner, M, N, K, BM, BN, BK, PROGRAMS=programs, num_stages=stages,
        num_warps=4)
    torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=1e-2, atol=5e-2)
    want = torch.arange(tiles, device="cuda", dtype=torch.int32)
    assert torch.equal(owner, want % programs + 1000 * want)


def test_persistent_matmul_runs_twice_on_the_same_barriers():
    """Two launches in a row, then one over other sizes (the barriers and rings start afresh)."""
    BM, BN, BK = 128, 64, 64
    for M, N, K in [(256, 192, 320), (256, 192, 320), (130, 72, 128)]:
        a = torch.randn((M, K), device="cuda", dtype=torch.float16)
        b = torch.randn((N, K), device="cuda", dtype=torch.float16)
        c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
        persistent_matmul[(2,)](TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BN, BK]),
                                TensorDescriptor.from_tensor(c, [BM, BN]), M, N, K, BM, BN, BK, GROUP_SIZE_M=2,
                                NUM_SMS=2, num_stages=3, num_warps=4)
        torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=1e-2, atol=5e-2)


@pytest.mark.parametrize("stages", [2, 3])
@pytest.mark.parametrize("programs", [1, 3])
def test_persistent_matmul_with_empty_k_loops(stages, programs):
    """K = 0: every tile's K loop runs no iteration and each tile stores zeros
    (the tile's store is then issued from the epilogue, not from a next K
    loop), then the same launch with K = 128 on the same tensors."""
    M, N, BM, BN, BK = 300, 200, 128, 64, 64
    a = torch.randn((M, 128), device="cuda", dtype=torch.float16)
    b = torch.randn((N, 128), device="cuda", dtype=torch.float16)
    for K, want in [(0, torch.zeros((M, N), device="cuda")), (128, a.float() @ b.float().T)]:
        c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
        persistent_matmul[(programs,)](TensorDescriptor.from_tensor(a, [BM, BK]),
                                       TensorDescriptor.from_tensor(b, [BN, BK]),
                                       TensorDescriptor.from_tensor(c, [BM, BN]), M, N, K, BM, BN, BK,
                                       GROUP_SIZE_M=2, NUM_SMS=programs, num_stages=stages, num_warps=4)
        torch.testing.assert_close(c.float(), want, rtol=1e-2, atol=5e-2)


@pytest.mark.parametrize("programs", [1, 3])
@pytest.mark.parametrize("block_n, out_dtype, warps", [
    (8, torch.float16, 4),     # 16-byte rows: an unswizzled tile, fenced after its deferred write
    (16, torch.float16, 4),    # 32-byte rows: swizzled
    (128, torch.float32, 4),   # 128 + 128 registers: over the budget, written in the epilogue
    (128, torch.float32, 8),   # 64 + 64: carried
])
def test_persistent_matmul_narrow_and_wide_output_tiles(block_n, out_dtype, warps, programs):
    # M and N end in partial tiles (N a multiple of 8: C's rows in 16-byte steps for TMA)
    M, N, K, BM, BK = 300, 3 * block_n + max(8, block_n // 2), 192, 128, 64
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((N, K), device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=out_dtype)
    persistent_matmul_any_output[(programs,)](
        TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [block_n, BK]),
        TensorDescriptor.from_tensor(c, [BM, block_n]), M, N, K, BM, block_n, BK, PROGRAMS=programs,
        num_stages=3, num_warps=warps)
    torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=1e-2, atol=5e-2)


@pytest.mark.parametrize("programs", [1, 3])
@pytest.mark.parametrize("K", [0, 64, 128, 192, 256, 320])
def test_persistent_matmul_deferred_a_slab_per_k_step(K, programs):
    """Tutorial 09's 128x256 fp16 tile at 3 stages: each tile is written and
    stored by the next tile's K loop one 64-column slab per K step (four
    steps).  K loops of 0 to 3 steps leave slabs to the epilogue; 4 and 5
    steps store all four in the loop.  Partial tiles in M and N."""
    M, N, BM, BN, BK = 300, 600, 128, 256, 64
    a = torch.randn((M, max(K, BK)), device="cuda", dtype=torch.float16)  # K = 0: a box's width all the same
    b = torch.randn((N, max(K, BK)), device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    persistent_matmul_any_output[(programs,)](
        TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BN, BK]),
        TensorDescriptor.from_tensor(c, [BM, BN]), M, N, K, BM, BN, BK, PROGRAMS=programs, num_stages=3,
        num_warps=8)
    want = a[:, :K].float() @ b[:, :K].float().T
    torch.testing.assert_close(c.float(), want, rtol=1e-2, atol=5e-2)


@pytest.mark.parametrize("programs", [1, 5, 132])
@pytest.mark.parametrize("shape", [(512, 1024, 320), (300, 712, 136), (1024, 768, 64)], ids=str)
def test_persistent_matmul_with_slab_stored_epilogue(shape, programs):
    """128x256 tiles at 4 stages: the rings (192 KiB) and a whole 64 KiB
    output tile do not fit beside each other, so the epilogue stores its
    tile 64 columns at a time through two 16 KiB slots (SubtiledTMAStore.cpp),
    the last slabs' stores still reading them while the next tile's K loop
    runs; edge tiles clip in M and N."""
    M, N, K = shape
    BM, BN, BK = 128, 256, 64
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((N, K), device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    kernel = persistent_matmul[(programs,)](
        TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BN, BK]),
        TensorDescriptor.from_tensor(c, [BM, BN]), M, N, K, BM, BN, BK, GROUP_SIZE_M=4,
        NUM_SMS=programs, num_stages=4, num_warps=8)
    torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=1e-2, atol=5e-2)
    ttgir = kernel.asm["ttgir"]
    assert ttgir.count("ttg.extract_tile") == 4 and "async_tma_store_wait {pendings = 1" in ttgir
