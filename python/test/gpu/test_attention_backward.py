"""Attention backward against scaled_dot_product_attention's own backward
(its math backend, on fp32 copies): dQ, dK and dV of fp16 and bf16 inputs,
causal or not, head dims 64 and 128, sequence lengths that are and are not
multiples of the blocks (bench/kernels/attention_bwd_masked.py, masked at
N).  The host computes M (base-2 log-sum-exp per query row) and
Delta = rowsum(O * dO) from the reference forward.  Where Triton is
installed, the same source runs under it first: a failure there is the
kernel's, not Tritium's."""
import math
import os
import sys

import pytest

torch = pytest.importorskip("torch")

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402

import gpu_reference as ref  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from kernel_sources import load_kernels  # noqa: E402

OURS = load_kernels("attention_bwd_masked.py", tritium, ttl, "tritium")


def theirs():
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None
    return load_kernels("attention_bwd_masked.py", triton, tl, "triton")


def reference(q, k, v, do, causal):
    q32, k32, v32 = (t.detach().float().requires_grad_() for t in (q, k, v))
    o = ref.sdpa_math(q32, k32, v32, causal)
    o.backward(do.float())
    s = (q32.detach() @ k32.detach().transpose(-1, -2)) * q.shape[-1] ** -0.5
    if causal:
        n = q.shape[-2]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1), float("-inf"))
    m = torch.logsumexp(s, dim=-1) / math.log(2.0)  # base 2
    delta = (o.detach() * do.float()).sum(-1)
    return m.contiguous(), delta.contiguous(), q32.grad, k32.grad, v32.grad


def backward(module, q, k, v, do, m, delta, causal, block_m, block_n):
    Z, H, N, D = q.shape
    dq, dk, dv = (ref.poisoned_like(t) for t in (q, k, v))
    scale = D ** -0.5
    module.attn_bwd_dkdv[(tritium.cdiv(N, block_n), Z * H)](q, k, v, do, m, delta, dk, dv, scale, N, HEAD_DIM=D,
                                                            BLOCK_M=block_m, BLOCK_N=block_n, CAUSAL=causal,
                                                            num_warps=4 if D == 64 else 8)
    module.attn_bwd_dq[(tritium.cdiv(N, block_m), Z * H)](q, k, v, do, m, delta, dq, scale, N, HEAD_DIM=D,
                                                          BLOCK_M=block_m, BLOCK_N=block_n, CAUSAL=causal,
                                                          num_warps=4 if D == 64 else 8)
    torch.cuda.synchronize()
    return dq, dk, dv


def check(got, want, dtype, what):
    tol = 2e-2 if dtype == torch.float16 else 5e-2
    scale = want.abs().max().item()
    torch.testing.assert_close(got.float(), want, rtol=tol, atol=tol * scale, msg=lambda m: f"{what}: {m}")


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("n", [128, 200])
def test_attention_backward_matches_sdpa(dtype, causal, head_dim, n):
    Z, H, block_m, block_n = 2, 3, 64, 64
    g = torch.Generator(device="cuda").manual_seed(n + head_dim)
    q, k, v, do = (torch.randn(Z, H, n, head_dim, device="cuda", dtype=dtype, generator=g) for _ in range(4))
    m, delta, dq_want, dk_want, dv_want = reference(q, k, v, do, causal)
    other = theirs()
    if other is not None:  # the kernel source itself, under Triton
        for got, want, what in zip(backward(other, q, k, v, do, m, delta, causal, block_m, block_n),
                                   (dq_want, dk_want, dv_want), ("Triton dQ", "Triton dK", "Triton dV")):
            check(got, want, dtype, what + " (the test's kernel is wrong, not Tritium)")
    for got, want, what in zip(backward(OURS, q, k, v, do, m, delta, causal, block_m, block_n),
                               (dq_want, dk_want, dv_want), ("dQ", "dK", "dV")):
        check(got, want, dtype, what)
