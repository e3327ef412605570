"""Side-by-side flash-attention backward on the GPU: tritium vs Triton (when
importable) vs torch's SDPA backward (FlashAttention-2 and cuDNN), same
kernel source (kernels/attention_bwd.py: tutorial 06's backward on plain
pointers, `attn_bwd`, and the same backward on block pointers,
`attn_bwd_block_ptr`, and on tensor descriptors made in the kernel,
`attn_bwd_tma`), same shapes, one run.

  fp16, Z=4 H=32 N=4096: head dim 64 and 128, causal and not;
  TFLOP/s = 2.5 * 4 Z H N^2 D (halved for causal) / time, as tutorial 06
  counts the backward (five N x N x D products for the forward's two)

Both compilers run the same forward (tritium's attn_fwd_lse, checked
against SDPA) to produce O and the log-sum-exp M; then each compiler's
preprocess + backward is timed over its best of CONFIGS per kernel, checked
against torch autograd of SDPA, in 6 rounds whose order rotates (do_bench
medians); "best" is each compiler's faster kernel.
Usage: python bench/bench_attention_bwd.py [--quick] [--kernels attn_bwd,attn_bwd_tma]
       [--cases "D=128 causal,D=64"]  (only those cases)
"""
import math
import statistics
import sys

from bench_setup import HAVE_TRITON, QUICK, tl, triton  # first: the path, fresh caches

import torch
import torch.nn.functional as F

import tritium
import tritium.language as ttl
from bench_timing import median_ms
from kernel_sources import load_kernels

ROUNDS = 1 if QUICK else 6
# (BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2, num_stages, num_warps); BLK_SLICE_FACTOR = 2
CONFIGS = [(32, 128, 128, 32, 5, 4), (32, 128, 128, 32, 3, 4), (64, 128, 128, 64, 3, 8), (32, 128, 128, 32, 3, 8),
           (64, 64, 64, 64, 3, 4), (64, 64, 64, 64, 3, 8)]

KERNELS = ["attn_bwd", "attn_bwd_block_ptr", "attn_bwd_tma"]
# `--kernels a,b`: only those (the three together take the longest)
if "--kernels" in sys.argv:
    chosen_kernels = sys.argv[sys.argv.index("--kernels") + 1:][:1]
    chosen_kernels = chosen_kernels[0].split(",") if chosen_kernels else []
    if not chosen_kernels or not set(chosen_kernels) <= set(KERNELS):
        sys.exit(f"--kernels takes a comma-separated list of {', '.join(KERNELS)}")
    KERNELS = chosen_kernels


# attn_bwd_tma makes its tensor maps in the kernel, in global scratch from the allocator
def _scratch(size, alignment, stream):
    return torch.empty(size, device="cuda", dtype=torch.int8)


tritium.set_allocator(_scratch)
if HAVE_TRITON:
    triton.set_allocator(_scratch)
backends = {"tritium": load_kernels("attention_bwd.py", tritium, ttl, "tritium")}
if HAVE_TRITON:
    backends["triton"] = load_kernels("attention_bwd.py", triton, tl, "triton")


def backward(module, kernel, q, k, v, o, do, m, grads, causal, config):
    bm1, bn1, bm2, bn2, stages, warps = config
    Z, H, N, D = q.shape
    sm_scale = D ** -0.5
    arg_k = k * (sm_scale / math.log(2))
    delta = torch.empty_like(m)
    dq, dk, dv = grads

    def run():
        module.bwd_preprocess[(N // 128, Z * H)](o, do, delta, N, BLOCK_M=128, HEAD_DIM=D)
        getattr(module, kernel)[(N // bn1, 1, Z * H)](
            q, arg_k, v, sm_scale, do, dq, dk, dv, m, delta, q.stride(0), q.stride(1), q.stride(2), H, N,
            BLOCK_M1=bm1, BLOCK_N1=bn1, BLOCK_M2=bm2, BLOCK_N2=bn2, BLK_SLICE_FACTOR=2, HEAD_DIM=D,
            CAUSAL=causal, num_warps=warps, num_stages=stages)
    return run


def run_case(label, Z, H, N, D, causal):
    torch.manual_seed(0)
    q, k, v, do = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16) for _ in range(4))
    # O and M from one forward (tritium's), checked against SDPA
    o = torch.empty_like(q)
    m = torch.empty(Z, H, N, device="cuda", dtype=torch.float32)
    backends["tritium"].attn_fwd_lse[(N // 128, Z * H)](q, k, v, D ** -0.5, m, o, q.stride(0), q.stride(1),
                                                       q.stride(2), H, N_CTX=N, HEAD_DIM=D, BLOCK_M=128,
                                                       BLOCK_N=64, CAUSAL=causal, num_warps=8, num_stages=3)
    qr, kr, vr = (t.detach().clone().requires_grad_() for t in (q, k, v))
    want_o = F.scaled_dot_product_attention(qr, kr, vr, is_causal=causal)
    assert (o.float() - want_o.float()).abs().max().item() < 2e-2, "forward disagrees with SDPA"
    want_o.backward(do)
    want = (qr.grad, kr.grad, vr.grad)
    fns, chosen, notes = {}, {}, []
    for name, module in backends.items():
        for kernel in KERNELS:
            best = None
            for config in CONFIGS:
                grads = tuple(torch.empty_like(q) for _ in range(3))
                fn = backward(module, kernel, q, k, v, o, do, m, grads, causal, config)
                try:
                    for g in grads:
                        g.fill_(float("nan"))
                    fn()
                    torch.cuda.synchronize()
                except Exception as e:  # noqa: BLE001 - a config a compiler cannot build is skipped, and said so
                    notes.append(f"{name} {kernel} {config}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
                    continue
                err = max((g.float() - w.float()).abs().max().item() for g, w in zip(grads, want))
                if not err <= 5e-2:
                    notes.append(f"{name} {kernel} {config}: WRONG (max error {err})")
                    continue
                ms = median_ms(fn, QUICK)
                if best is None or ms < best[0]:
                    best = (ms, config, fn)
            if best:
                chosen[f"{name} {kernel}"] = best[1]
                fns[f"{name} {kernel}"] = best[2]
    for backend in ("FlashAttention-2", "cuDNN"):
        from torch.nn.attention import SDPBackend, sdpa_kernel
        which = {"FlashAttention-2": SDPBackend.FLASH_ATTENTION, "cuDNN": SDPBackend.CUDNN_ATTENTION}[backend]
        try:
            with sdpa_kernel(which):
                qb, kb, vb = (t.detach().clone().requires_grad_() for t in (q, k, v))
                out = F.scaled_dot_product_attention(qb, kb, vb, is_causal=causal)
            fns[backend] = lambda out=out, qb=qb, kb=kb, vb=vb: torch.autograd.grad(
                out, (qb, kb, vb), do, retain_graph=True)
            fns[backend]()
        except Exception as e:  # noqa: BLE001 - a backend torch cannot run here is left out, and said so
            fns.pop(backend, None)
            notes.append(f"{backend}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
    flops = 2.5 * 4.0 * Z * H * N * N * D * (0.5 if causal else 1.0)
    samples = {name: [] for name in fns}
    names = list(fns)
    for r in range(ROUNDS):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(flops / median_ms(fns[name], QUICK) / 1e9)
    return label, {name: statistics.median(v) for name, v in samples.items()}, chosen, notes


cases = [("D=64", 4, 32, 4096, 64, False), ("D=64 causal", 4, 32, 4096, 64, True),
         ("D=128", 4, 32, 4096, 128, False), ("D=128 causal", 4, 32, 4096, 128, True)]
if QUICK:
    cases = cases[:1] + cases[2:3]
if "--cases" in sys.argv:
    chosen_cases = (sys.argv[sys.argv.index("--cases") + 1:] or [""])[0].split(",")
    if not set(chosen_cases) <= {case[0] for case in cases}:
        sys.exit(f"--cases takes a comma-separated list of {', '.join(case[0] for case in cases)}")
    cases = [case for case in cases if case[0] in chosen_cases]
print(f"GPU: {torch.cuda.get_device_name()}; triton {'available' if HAVE_TRITON else 'missing'}")
print(f"{'case':14} {'kernel':20} {'tritium':>9} {'triton':>9} {'tritium/triton':>15}   configs (tritium | triton)")
measured = []  # (label, figures, configs) of each case, for the results record
for case in cases:
    label, tflops, chosen, notes = run_case(*case)
    measured.append((label, tflops, chosen))
    fmt = lambda v: f"{v:9.1f}" if v else f"{'-':>9}"  # noqa: E731
    for kernel in KERNELS + ["best"]:
        if kernel == "best":
            t = max((v for k, v in tflops.items() if k.startswith("tritium")), default=None)
            r = max((v for k, v in tflops.items() if k.startswith("triton")), default=None)
        else:
            t, r = tflops.get(f"tritium {kernel}"), tflops.get(f"triton {kernel}")
        ratio = f"{t / r:.3f}" if t and r else "-"
        print(f"{label:14} {kernel:20} {fmt(t)} {fmt(r)} {ratio:>15}   "
              f"{chosen.get(f'tritium {kernel}', '')} | {chosen.get(f'triton {kernel}', '')}")
    print(f"{label:14} {'SDPA':20} FlashAttention-2 {fmt(tflops.get('FlashAttention-2'))}  cuDNN "
          f"{fmt(tflops.get('cuDNN'))}")
    for note in notes:
        print("    note:", note)

from results_page import case_rows, record  # noqa: E402  (bench/results/bench_attention_bwd.json)
record("bench_attention_bwd", case_rows(measured, reference="cuDNN", others=("FlashAttention-2",),
                                       kernels=KERNELS, best=True), reference="cuDNN")
