"""Side-by-side matmul benchmark on the GPU: tritium vs Triton (when
importable) vs cuBLAS, same kernel source (kernels/tutorials.py:
Triton's tutorial 03), same sizes, one run.

  fp16 4096^3, fp16 8192^3, bf16 4096^3      TFLOP/s (2*M*N*K per run)
  fp8 e4m3 4096^3, B column-major            TFLOP/s (cuBLAS: torch._scaled_mm)
  cold compile of one config, warm process   ms

Each compiler runs every config of tutorial 03's list (CONFIGS, FP8_CONFIGS)
once and keeps its best; then the best configs and cuBLAS are timed in 6
rounds with the backends interleaved, the order rotating every round
(do_bench medians, L2 flushed), and the median round counts.  Every result is checked against cuBLAS first.
Usage: python bench/bench_matmul.py [--quick]
"""
import statistics
import time

from bench_setup import HAVE_TRITON, QUICK, tl, triton  # first: the path, fresh caches

import torch

import tritium
import tritium.language as ttl
from bench_timing import median_ms
from kernel_sources import load_kernels

ROUNDS = 1 if QUICK else 6

# (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_stages, num_warps): tutorial 03's lists.
CONFIGS = [(128, 256, 64, 8, 3, 8), (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4), (128, 64, 32, 8, 4, 4),
           (64, 128, 32, 8, 4, 4), (128, 32, 32, 8, 4, 4), (64, 32, 32, 8, 5, 2), (32, 64, 32, 8, 5, 2)]
FP8_CONFIGS = [(128, 256, 128, 8, 3, 8), (256, 128, 128, 8, 3, 8), (256, 64, 128, 8, 4, 4), (64, 256, 128, 8, 4, 4),
               (128, 128, 128, 8, 4, 4), (128, 64, 64, 8, 4, 4), (64, 128, 64, 8, 4, 4), (128, 32, 64, 8, 4, 4)]

backends = {"tritium": load_kernels("tutorials.py", tritium, ttl, "tritium")}
if HAVE_TRITON:
    backends["triton"] = load_kernels("tutorials.py", triton, tl, "triton")


def cdiv(a, b):
    return (a + b - 1) // b


def launcher(kernel, a, b, c, config):
    bm, bn, bk, group, stages, warps = config
    M, K = a.shape
    N = b.shape[1]
    grid = (cdiv(M, bm) * cdiv(N, bn),)
    return lambda: kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                                GROUP_SIZE_M=group, ACTIVATION="", num_stages=stages, num_warps=warps)


def best_config(name, module, a, b, c, want, configs, tol):
    """(ms, config) of `module`'s fastest correct config, and notes on the others."""
    best, notes = None, []
    for config in configs:
        fn = launcher(module.matmul_kernel, a, b, c, config)
        try:
            c.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - a config a compiler cannot build is skipped, and said so
            notes.append(f"{name} {config}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
            continue
        err = (c.float() - want.float()).abs().max().item()
        if not err <= tol:
            notes.append(f"{name} {config}: WRONG (max error {err})")
            continue
        ms = median_ms(fn, QUICK)
        if best is None or ms < best[0]:
            best = (ms, config)
    return best, notes


def run_case(label, M, N, K, dtype):
    torch.manual_seed(0)
    fp8 = dtype == torch.float8_e4m3fn
    if fp8:
        a = torch.randn(M, K, device="cuda").to(dtype)
        b = torch.randn(N, K, device="cuda").to(dtype).T  # column-major, as _scaled_mm needs
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        one = torch.tensor(1.0, device="cuda")
        cublas = lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.float16)  # noqa: E731
        configs = FP8_CONFIGS
    else:
        a = torch.randn(M, K, device="cuda", dtype=dtype)
        b = torch.randn(K, N, device="cuda", dtype=dtype)
        c = torch.empty(M, N, device="cuda", dtype=dtype)
        out = torch.empty(M, N, device="cuda", dtype=dtype)
        cublas = lambda: torch.matmul(a, b, out=out)  # noqa: E731
        configs = CONFIGS
    want = torch.matmul(a.to(torch.float32), b.to(torch.float32))
    tol = 0.05 * want.abs().max().item() if fp8 else 0.02 * want.abs().max().item()
    fns, chosen, notes = {}, {}, []
    for name, module in backends.items():
        cs = {name: torch.empty_like(c)}
        found, n = best_config(name, module, a, b, cs[name], want, configs, tol)
        notes += n
        if found:
            chosen[name] = found[1]
            fns[name] = launcher(module.matmul_kernel, a, b, cs[name], found[1])
    fns["cuBLAS"] = cublas
    # The order rotates every round: a backend timed right after a heavier
    # one runs on a hotter, lower-clocked GPU, so a fixed order favours
    # whoever follows the lightest (6 rounds: each backend twice in each of
    # the three positions).
    samples = {name: [] for name in fns}
    names = list(fns)
    for r in range(ROUNDS):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(2.0 * M * N * K / median_ms(fns[name], QUICK) / 1e9)
    tflops = {name: statistics.median(v) for name, v in samples.items()}
    return label, tflops, chosen, notes


def cold_compile_ms():
    """First call of a config no process has compiled yet (GROUP_SIZE_M=3),
    after the other configs warmed the process: compile + load + launch."""
    a = torch.randn(512, 512, device="cuda", dtype=torch.float16)
    b = torch.randn(512, 512, device="cuda", dtype=torch.float16)
    result = {}
    for name, module in backends.items():
        c = torch.empty(512, 512, device="cuda", dtype=torch.float16)
        fn = launcher(module.matmul_kernel, a, b, c, (128, 128, 64, 3, 3, 8))
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        result[name] = (time.perf_counter() - t0) * 1e3
    return result


cases = [("fp16 4096^3", 4096, 4096, 4096, torch.float16), ("fp16 8192^3", 8192, 8192, 8192, torch.float16),
         ("bf16 4096^3", 4096, 4096, 4096, torch.bfloat16), ("fp8 e4m3 4096^3", 4096, 4096, 4096, torch.float8_e4m3fn)]
if QUICK:
    cases = [cases[0], cases[3]]
print(f"GPU: {torch.cuda.get_device_name()}; triton {'available' if HAVE_TRITON else 'missing'}")
print(f"{'case':18} {'tritium':>9} {'triton':>9} {'cuBLAS':>9} {'tritium/triton':>15}   configs (tritium | triton)")
measured = []  # (label, figures, configs) of each case, for the results record
for case in cases:
    label, tflops, chosen, notes = run_case(*case)
    measured.append((label, tflops, chosen))
    t, r, cb = tflops.get("tritium"), tflops.get("triton"), tflops.get("cuBLAS")
    ratio = f"{t / r:.3f}" if t and r else "-"
    fmt = lambda v: f"{v:9.1f}" if v else f"{'-':>9}"  # noqa: E731
    print(f"{label:18} {fmt(t)} {fmt(r)} {fmt(cb)} {ratio:>15}   {chosen.get('tritium')} | {chosen.get('triton')}")
    for note in notes:
        print("    note:", note)
cold = cold_compile_ms()
print("cold compile of one config (ms): " + ", ".join(f"{k} {v:.1f}" for k, v in cold.items()))

from results_page import case_rows, record  # noqa: E402  (bench/results/bench_matmul.json)
record("bench_matmul", case_rows(measured, reference="cuBLAS")
       + case_rows([("cold compile of one config", cold, {})], unit="ms"), reference="cuBLAS")
