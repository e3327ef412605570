"""Side-by-side flash-attention forward on the GPU: tritium vs Triton (when
importable) vs torch's scaled_dot_product_attention (FlashAttention-2 and
cuDNN backends), same kernel source (kernels/attention.py: tutorial 06's
forward on plain pointers, attn_fwd, on host tensor descriptors,
attn_fwd_tma, as Triton 3.6's tutorial writes it, and on block pointers,
attn_fwd_block_ptr, as Triton 3.0's did), same shapes, one run.

  fp16, Z=4 H=32 N=4096: head dim 128 non-causal and causal, head dim 64
  non-causal; TFLOP/s = 4 Z H N^2 D (halved for causal) / time

Each compiler times every kernel and config of CONFIGS in 3 interleaved
rounds and keeps its fastest per kernel by median (both are reported; the
better one counts); then
the best configs and the SDPA backends are timed in 6 rounds whose order
rotates (do_bench medians), and the median counts.  Every result is checked
against SDPA first.
Usage: python bench/bench_attention.py [--quick]
"""
import statistics

from bench_setup import HAVE_TRITON, QUICK, TritonDescriptor, tl, triton  # first: the path, fresh caches

import torch
import torch.nn.functional as F

import tritium
import tritium.language as ttl
from tritium.tools.tensor_descriptor import TensorDescriptor as TritiumDescriptor
from bench_timing import fastest, median_ms
from kernel_sources import load_kernels

ROUNDS = 1 if QUICK else 6
SELECT_ROUNDS = 3
# (BLOCK_M, BLOCK_N, num_stages, num_warps)
CONFIGS = [(128, 64, 2, 4), (128, 64, 3, 4), (128, 64, 3, 8), (128, 128, 2, 8), (128, 128, 3, 8), (64, 64, 3, 4),
           (128, 32, 3, 4), (64, 32, 4, 4)]

backends = {"tritium": (load_kernels("attention.py", tritium, ttl, "tritium"), TritiumDescriptor)}
if HAVE_TRITON:
    backends["triton"] = (load_kernels("attention.py", triton, tl, "triton"), TritonDescriptor)
KERNELS = ["attn_fwd", "attn_fwd_tma", "attn_fwd_block_ptr"]


def launcher(backend, kernel, q, k, v, o, causal, config):
    module, descriptor = backend
    bm, bn, stages, warps = config
    Z, H, N, D = q.shape
    grid = (N // bm, Z * H)
    if kernel == "attn_fwd_tma":
        rows = lambda t, block: descriptor(t, [Z * H * N, D], [D, 1], [block, D])  # noqa: E731
        dq, dk, dv, do = rows(q, bm), rows(k, bn), rows(v, bn), rows(o, bm)
        return lambda: module.attn_fwd_tma[grid](
            D ** -0.5, H, dq, dk, dv, do, N_CTX=N, HEAD_DIM=D, BLOCK_M=bm, BLOCK_N=bn, STAGE=3 if causal else 1,
            num_stages=stages, num_warps=warps)
    return lambda: getattr(module, kernel)[grid](
        q, k, v, D ** -0.5, o, *q.stride(), *k.stride(), *v.stride(), *o.stride(), H, N_CTX=N, HEAD_DIM=D,
        BLOCK_M=bm, BLOCK_N=bn, STAGE=3 if causal else 1, num_stages=stages, num_warps=warps)


def sdpa(backend, q, k, v, causal):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    which = {"FlashAttention-2": SDPBackend.FLASH_ATTENTION, "cuDNN": SDPBackend.CUDNN_ATTENTION}[backend]

    def run():
        with sdpa_kernel(which):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return run


def run_case(label, Z, H, N, D, causal):
    torch.manual_seed(0)
    q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16) for _ in range(3))
    want = sdpa("FlashAttention-2", q, k, v, causal)()
    fns, chosen, notes = {}, {}, []
    for name, backend in backends.items():
        for kernel in KERNELS:
            o = torch.empty_like(q)
            candidates = {}
            for config in CONFIGS:
                if config[0] % config[1] != 0:
                    continue
                try:
                    fn = launcher(backend, kernel, q, k, v, o, causal, config)
                    o.fill_(float("nan"))
                    fn()
                    torch.cuda.synchronize()
                except Exception as e:  # noqa: BLE001 - a config a compiler cannot build is skipped, and said so
                    notes.append(f"{name} {kernel} {config}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
                    continue
                err = (o.float() - want.float()).abs().max().item()
                if not err <= 2e-2:
                    notes.append(f"{name} {kernel} {config}: WRONG (max error {err})")
                    continue
                candidates[config] = fn
            if candidates:
                best = fastest(candidates, SELECT_ROUNDS, QUICK)
                key = f"{name} {kernel}"
                chosen[key] = best[1]
                fns[key] = launcher(backend, kernel, q, k, v, torch.empty_like(q), causal, best[1])
    for backend in ("FlashAttention-2", "cuDNN"):
        try:
            sdpa(backend, q, k, v, causal)()
            fns[backend] = sdpa(backend, q, k, v, causal)
        except Exception as e:  # noqa: BLE001 - a backend torch cannot run here is left out, and said so
            notes.append(f"{backend}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
    flops = 4.0 * Z * H * N * N * D * (0.5 if causal else 1.0)
    samples = {name: [] for name in fns}
    names = list(fns)
    for r in range(ROUNDS):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(flops / median_ms(fns[name], QUICK) / 1e9)
    return label, {name: statistics.median(v) for name, v in samples.items()}, chosen, notes


cases = [("D=128", 4, 32, 4096, 128, False), ("D=128 causal", 4, 32, 4096, 128, True), ("D=64", 4, 32, 4096, 64, False)]
if QUICK:
    cases = cases[:1]
print(f"GPU: {torch.cuda.get_device_name()}; triton {'available' if HAVE_TRITON else 'missing'}")
print(f"{'case':14} {'kernel':18} {'tritium':>9} {'triton':>9} {'tritium/triton':>15}   configs (tritium | triton)")
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
        print(f"{label:14} {kernel:18} {fmt(t)} {fmt(r)} {ratio:>15}   "
              f"{chosen.get(f'tritium {kernel}', '')} | {chosen.get(f'triton {kernel}', '')}")
    print(f"{label:14} {'SDPA':18} FlashAttention-2 {fmt(tflops.get('FlashAttention-2'))}  cuDNN "
          f"{fmt(tflops.get('cuDNN'))}")
    for note in notes:
        print("    note:", note)

from results_page import case_rows, record  # noqa: E402  (bench/results/bench_attention.json)
record("bench_attention", case_rows(measured, reference="cuDNN", others=("FlashAttention-2",), kernels=KERNELS,
                                   best=True), reference="cuDNN")
