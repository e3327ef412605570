"""The attention backward on tensor descriptors made in the kernel
(bench/kernels/attention_bwd.py, attn_bwd_tma) with rows padded in memory,
Tritium and Triton config by config, in one run on the GPU.

Q, K, V, dO, O and the gradients are views of rows ROWS elements apart
(wider than the head dimension, or equal to it).  A row stride that is not
a multiple of 16 elements is not specialized at launch, so the kernel does
not know it is a multiple of 16 bytes; rows of 72 fp16 (144 bytes) against
rows of 64 (dense, specialized) show what the compiler does with such a
stride.  The backward
kernel alone is timed (the preprocess's row sums come from torch, once);
each result is checked against torch's autograd of SDPA.

    python3 bench/tools/attention_bwd_row_stride.py [--rows 72,64] [--head-dim 64]
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/
from bench_setup import HAVE_TRITON, tl, triton  # noqa: E402  (first: the path, fresh caches)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from bench_timing import median_ms  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

# (BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2, num_stages, num_warps); BLK_SLICE_FACTOR = 2
CONFIGS = [(32, 128, 128, 32, 3, 4), (64, 128, 128, 64, 3, 8), (32, 128, 128, 32, 3, 8)]
Z, H, N = 4, 32, 4096


def scratch(size, alignment, stream):
    return torch.empty(size, device="cuda", dtype=torch.int8)


def padded(rows, d, fill=None):
    """A (Z, H, N, d) fp16 view of rows `rows` elements apart."""
    big = torch.empty(Z, H, N, rows, device="cuda", dtype=torch.float16)
    view = big[..., :d]
    if fill == "randn":
        view.copy_(torch.randn(Z, H, N, d, device="cuda", dtype=torch.float16))
    return view


def case(backends, rows, d, causal):
    torch.manual_seed(0)
    q, k, v, do = (padded(rows, d, "randn") for _ in range(4))
    o, arg_k = padded(rows, d), padded(rows, d)
    sm_scale = d ** -0.5
    arg_k.copy_(k * (sm_scale / math.log(2)))
    m = torch.empty(Z, H, N, device="cuda", dtype=torch.float32)
    backends["tritium"].attn_fwd_lse[(N // 128, Z * H)](q, k, v, sm_scale, m, o, q.stride(0), q.stride(1),
                                                       q.stride(2), H, N_CTX=N, HEAD_DIM=d, BLOCK_M=128,
                                                       BLOCK_N=64, CAUSAL=causal, num_warps=8, num_stages=3)
    qr, kr, vr = (t.detach().clone().requires_grad_() for t in (q, k, v))
    want_o = F.scaled_dot_product_attention(qr, kr, vr, is_causal=causal)
    assert (o.float() - want_o.float()).abs().max().item() < 2e-2, "forward disagrees with SDPA"
    want_o.backward(do.contiguous())
    want = (qr.grad, kr.grad, vr.grad)
    # the preprocess's row sums (its kernel assumes unpadded rows): once, by torch
    delta = (o.float() * do.float()).sum(-1).contiguous()
    flops = 2.5 * 4.0 * Z * H * N * N * d * (0.5 if causal else 1.0)
    for config in CONFIGS:
        bm1, bn1, bm2, bn2, stages, warps = config
        figures = {}
        for name, module in backends.items():
            grads = tuple(padded(rows, d) for _ in range(3))

            def run(module=module, grads=grads):
                module.attn_bwd_tma[(N // bn1, 1, Z * H)](
                    q, arg_k, v, sm_scale, do, *grads, m, delta, q.stride(0), q.stride(1), q.stride(2), H, N,
                    BLOCK_M1=bm1, BLOCK_N1=bn1, BLOCK_M2=bm2, BLOCK_N2=bn2, BLK_SLICE_FACTOR=2, HEAD_DIM=d,
                    CAUSAL=causal, num_warps=warps, num_stages=stages)
            for g in grads:
                g.fill_(float("nan"))
            run()
            err = max((g.float() - w.float()).abs().max().item() for g, w in zip(grads, want))
            figures[name] = flops / median_ms(run) / 1e9 if err <= 5e-2 else None
            if figures[name] is None:
                print(f"    {name} {config}: WRONG (max error {err})")
        t, r = figures.get("tritium"), figures.get("triton")
        ratio = f"{t / r:.3f}" if t and r else "-"
        print(f"rows {rows:4d} d{d}{' causal' if causal else '':7} {str(config):26} "
              f"tritium {t or 0:7.1f}  triton {r or 0:7.1f}  ratio {ratio}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="72,64", help="row lengths in elements, comma-separated")
    parser.add_argument("--head-dim", type=int, default=64)
    args = parser.parse_args()
    tritium.set_allocator(scratch)
    backends = {"tritium": load_kernels("attention_bwd.py", tritium, ttl, "tritium")}
    if HAVE_TRITON:
        triton.set_allocator(scratch)
        backends["triton"] = load_kernels("attention_bwd.py", triton, tl, "triton")
    print(f"GPU: {torch.cuda.get_device_name()}; TFLOP/s, Z={Z} H={H} N={N}, fp16")
    for causal in (False, True):
        for rows in (int(r) for r in args.rows.split(",")):
            case(backends, rows, args.head_dim, causal)


if __name__ == "__main__":
    main()
