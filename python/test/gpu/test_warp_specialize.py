"""Warp-specialized matmuls (`tl.range(..., warp_specialize=True)`, Hopper):
a producer warp issues the TMA copies into a ring guarded by full and empty
mbarriers while the kernel's warps run the MMAs and the epilogue.  Against
torch in float32: the persistent tile loop marked (the ring runs on across
tiles) and the K loop itself marked; K loops shorter than the ring, longer,
and not a multiple of the block; edge tiles; programs with one tile,
several, or none; 2 to 4 stages (at 4 with 128x256 tiles, a slab-stored
epilogue); 4 and 8 consumer warps; fp16 and bf16;
a pointer-store epilogue; tensor maps made in the kernel (tutorial 09's
Hopper form).  The output is poisoned before every launch."""
import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402
from tritium.runtime._allocation import NullAllocator  # noqa: E402
from tritium.tools.tensor_descriptor import TensorDescriptor  # noqa: E402


@triton.jit
def ws_persistent_matmul(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                         GROUP_M: tl.constexpr, PROGRAMS: tl.constexpr):
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_tiles = num_pid_m * num_pid_n
    in_group = GROUP_M * num_pid_n
    for tile in tl.range(tl.program_id(0), num_tiles, PROGRAMS, warp_specialize=True):
        group = tile // in_group
        first_m = group * GROUP_M
        group_m = min(num_pid_m - first_m, GROUP_M)
        pid_m = first_m + tile % group_m
        pid_n = (tile % in_group) // group_m
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(tl.cdiv(K, BK)):
            a = a_desc.load([pid_m * BM, k * BK])
            b = b_desc.load([pid_n * BN, k * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


@triton.jit
def ws_k_loop_matmul(a_desc, b_desc, c_ptr, M, N, K, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), warp_specialize=True):
        a = a_desc.load([pid_m * BM, k * BK])
        b = b_desc.load([k * BK, pid_n * BN])
        acc = tl.dot(a, b, acc)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc, mask=mask)


SHAPES = [(300, 520, 64), (256, 256, 128), (200, 136, 200), (384, 320, 448), (128, 64, 1000)]


@pytest.mark.parametrize("programs", [1, 3, 40])
@pytest.mark.parametrize("stages", [2, 3, 4])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_persistent_warp_specialized_matmul_against_torch(shape, stages, programs):
    M, N, K = shape
    BM, BN, BK = 128, 64, 64
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((N, K), device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    ws_persistent_matmul[(programs,)](TensorDescriptor.from_tensor(a, [BM, BK]),
                                      TensorDescriptor.from_tensor(b, [BN, BK]),
                                      TensorDescriptor.from_tensor(c, [BM, BN]), M, N, K, BM, BN, BK, GROUP_M=2,
                                      PROGRAMS=programs, num_stages=stages, num_warps=4)
    torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=1e-2, atol=5e-2)


@pytest.mark.parametrize("stages", [2, 3, 4])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_persistent_warp_specialized_matmul_tutorial_tile(dtype, stages):
    """Tutorial 09's 128x256x64 tile over 8 consumer warps (two warpgroups).
    At 4 stages the ring (192 KiB) leaves no room for the whole output tile:
    the epilogue stores it 64 columns at a time through two slots."""
    M, N, K = 1024, 768, 512
    BM, BN, BK = 128, 256, 64
    a = torch.randn((M, K), device="cuda", dtype=dtype)
    b = torch.randn((N, K), device="cuda", dtype=dtype)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=dtype)
    kernel = ws_persistent_matmul[(7,)](TensorDescriptor.from_tensor(a, [BM, BK]),
                                        TensorDescriptor.from_tensor(b, [BN, BK]),
                                        TensorDescriptor.from_tensor(c, [BM, BN]), M, N, K, BM, BN, BK, GROUP_M=8,
                                        PROGRAMS=7, num_stages=stages, num_warps=8)
    assert kernel.metadata["total_num_warps"] == 9
    assert (kernel.asm["ttgir"].count("ttg.extract_tile") == 4) == (stages == 4)
    tol = 2e-2 if dtype == torch.bfloat16 else 1e-2
    torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=tol, atol=0.25)


def test_warp_specialized_kernel_runs_twice_on_the_same_barriers():
    BM, BN, BK = 128, 64, 64
    for M, N, K in [(256, 192, 320), (256, 192, 320), (130, 72, 128)]:
        a = torch.randn((M, K), device="cuda", dtype=torch.float16)
        b = torch.randn((N, K), device="cuda", dtype=torch.float16)
        c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
        ws_persistent_matmul[(2,)](TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BN, BK]),
                                   TensorDescriptor.from_tensor(c, [BM, BN]), M, N, K, BM, BN, BK, GROUP_M=2,
                                   PROGRAMS=2, num_stages=3, num_warps=4)
        torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=1e-2, atol=5e-2)


@pytest.mark.parametrize("stages", [2, 3])
@pytest.mark.parametrize("shape", [(200, 312, 96), (128, 128, 64), (256, 128, 640), (64, 200, 16)], ids=str)
def test_warp_specialized_k_loop_against_torch(shape, stages):
    M, N, K = shape
    BM, BN, BK = 128, 128, 64
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((K, N), device="cuda", dtype=torch.float16)
    c = torch.full((M, N + 8), float("nan"), device="cuda", dtype=torch.float32)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    kernel = ws_k_loop_matmul[grid](TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BK, BN]),
                                    c, M, N, K, c.stride(0), BM, BN, BK, num_stages=stages, num_warps=4)
    assert kernel.metadata["total_num_warps"] == 5
    torch.testing.assert_close(c[:, :N], a.float() @ b.float(), rtol=1e-2, atol=5e-2)
    assert torch.isnan(c[:, N:]).all()


@triton.jit
def ws_made_maps_persistent(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                            PROGRAMS: tl.constexpr):
    """Tutorial 09's Hopper warp-specialized form: maps made in the kernel before the tile loop."""
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    num_n = tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BM) * num_n, PROGRAMS, warp_specialize=True):
        pid_m = tile // num_n
        pid_n = tile % num_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(tl.cdiv(K, BK)):
            acc = tl.dot(a_desc.load([pid_m * BM, k * BK]), b_desc.load([pid_n * BN, k * BK]).T, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@pytest.mark.parametrize("programs", [1, 5])
@pytest.mark.parametrize("shape", [(256, 192, 320), (200, 136, 72)], ids=str)
def test_warp_specialized_matmul_on_maps_made_in_the_kernel(shape, programs):
    M, N, K = shape
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((N, K), device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    try:
        kernel = ws_made_maps_persistent[(programs,)](a, b, c, M, N, K, 128, 64, 64, PROGRAMS=programs, num_stages=3,
                                                      num_warps=4)
    finally:
        triton.set_allocator(NullAllocator())
    assert "ttg.warp_specialize" in kernel.asm["ttgir"]
    torch.testing.assert_close(c.float(), a.float() @ b.float().T, rtol=1e-2, atol=5e-2)
