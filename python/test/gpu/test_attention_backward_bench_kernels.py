"""The backward kernels that bench/bench_attention_bwd.py times
(bench/kernels/attention_bwd.py: tutorial 06's backward on plain pointers,
the same on block pointers, and on tensor descriptors made in the kernel)
against SDPA's backward at small sizes: fp16, causal or not, head dims 64
and 128, two block configs, N a multiple of the blocks (as the kernels
assume).  M and Delta come from the reference forward, K is pre-scaled by
sm_scale / ln(2) as the bench passes it, and the outputs are poisoned."""
import math
import os
import sys

import pytest

torch = pytest.importorskip("torch")

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from tritium.runtime._allocation import NullAllocator  # noqa: E402

import gpu_reference as ref  # noqa: E402
from test_attention_backward import check, reference  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from kernel_sources import load_kernels  # noqa: E402

BENCH = load_kernels("attention_bwd.py", tritium, ttl, "tritium")


@pytest.fixture(autouse=True)
def allocator():
    """attn_bwd_tma makes its tensor maps in global scratch from the allocator."""
    tritium.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    yield
    tritium.set_allocator(NullAllocator())


@pytest.mark.parametrize("config", [(64, 64, 64, 64, 3, 4), (32, 128, 128, 32, 3, 8)], ids=str)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("kernel", ["attn_bwd", "attn_bwd_block_ptr", "attn_bwd_tma"])
def test_bench_backward_matches_sdpa(kernel, head_dim, causal, config):
    Z, H, N, D = 1, 2, 256, head_dim
    bm1, bn1, bm2, bn2, stages, warps = config
    g = torch.Generator(device="cuda").manual_seed(D + causal)
    q, k, v, do = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16, generator=g) for _ in range(4))
    m, delta, dq_want, dk_want, dv_want = reference(q, k, v, do, causal)
    sm_scale = D ** -0.5
    dq, dk, dv = (ref.poisoned_like(t) for t in (q, k, v))
    getattr(BENCH, kernel)[(N // bn1, 1, Z * H)](
        q, k * (sm_scale / math.log(2)), v, sm_scale, do, dq, dk, dv, m, delta, q.stride(0), q.stride(1),
        q.stride(2), H, N, BLOCK_M1=bm1, BLOCK_N1=bn1, BLOCK_M2=bm2, BLOCK_N2=bn2, BLK_SLICE_FACTOR=2,
        HEAD_DIM=D, CAUSAL=causal, num_warps=warps, num_stages=stages)
    torch.cuda.synchronize()
    for got, want, what in zip((dq, dk, dv), (dq_want, dk_want, dv_want), ("dQ", "dK", "dV")):
        check(got, want, torch.float16, f"{kernel} {what}")
