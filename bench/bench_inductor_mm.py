"""Inductor's mm template (the matmul torch.compile's max-autotune generates,
bench/kernels/inductor_mm.py) under Tritium and Triton, config by config:
every config of Inductor's mm list (PyTorch 2.11) for fp32 with TF32 off
(a CUDA-core dot), fp32 with TF32 and bf16, timed side by side in one run.

Per (case, config) and compiler: TFLOP/s (2 M N K / time, the median of
CUDA-event timings with the L2 flushed, 2 interleaved rounds, the better
round counts), the cold compile (first call of the config in a warm process,
caches empty: compile, load, launch, synchronize), registers and spilled
bytes.  Every result is checked against torch first (fp64 reference for
fp32 without TF32).  Ratio: Tritium / Triton per config; the summary gives
each case's geomean, the worst configs, and the compile-time totals.

  python3 bench/bench_inductor_mm.py [--cases fp32,tf32,bf16] [--quick]
"""
import argparse
import math
import statistics
import time

from bench_setup import HAVE_TRITON, QUICK, tl, triton  # first: the path, fresh caches

import torch

import tritium
import tritium.language as ttl
from bench_timing import median_ms
from kernel_sources import load_kernels

from inductor_mm_configs import CASE_SHAPES, CONFIGS  # noqa: E402

# case: (input dtype, allow_tf32, size)
CASES = {case: ({"fp32": torch.float32, "bf16": torch.bfloat16}[dtype], tf32, size)
         for case, (dtype, tf32, size) in CASE_SHAPES.items()}


def launcher(module, a, b, c, config, allow_tf32):
    bm, bn, bk, stages, warps = config
    M, K = a.shape
    N = b.shape[1]
    grid = (triton_cdiv(M, bm) * triton_cdiv(N, bn),)
    lang = module.tl
    return lambda: module.inductor_mm[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                            allow_tf32, lang.float32, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
                                            num_stages=stages, num_warps=warps)


def triton_cdiv(a, b):
    return (a + b - 1) // b


def compiled_of(module):
    """The compiled kernel the last launch used (its registers, spills):
    the newest entry of the jit function's device cache, as both compilers
    keep it (`device_caches[device][0]`)."""
    kernels = list(module.inductor_mm.device_caches[torch.cuda.current_device()][0].values())
    return kernels[-1] if kernels else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    backends = {"tritium": load_kernels("inductor_mm.py", tritium, ttl, "tritium")}
    if HAVE_TRITON:
        backends["triton"] = load_kernels("inductor_mm.py", triton, tl, "triton")
    configs = CONFIGS[::4] if QUICK else CONFIGS
    rows, summary = [], []
    for case in args.cases.split(","):
        dtype, allow_tf32, size = CASES[case]
        torch.backends.cuda.matmul.allow_tf32 = allow_tf32
        torch.manual_seed(0)
        a = torch.randn(size, size, device="cuda", dtype=dtype)
        b = torch.randn(size, size, device="cuda", dtype=dtype)
        if dtype == torch.float32 and not allow_tf32:
            expected = (a.double() @ b.double()).float()
            tol = 1e-4 * math.sqrt(size)
        else:
            expected = (a.float() @ b.float())
            tol = 2e-2 * math.sqrt(size)
        flops = 2.0 * size ** 3
        work = f"inductor mm {case} {size}^3"
        ratios = []
        for config in configs:
            row = {"work": work, "config": str(config), "unit": "TFLOP/s"}
            fns = {}
            for name, module in backends.items():
                c = torch.empty(size, size, device="cuda", dtype=dtype)
                fn = launcher(module, a, b, c, config, allow_tf32)
                try:
                    t0 = time.perf_counter()
                    fn()
                    torch.cuda.synchronize()
                    row[f"{name} compile s"] = round(time.perf_counter() - t0, 2)
                except Exception as e:  # a config one compiler cannot build is a row, not the end of the run
                    row[f"{name} error"] = f"{type(e).__name__}: {str(e)[:200]}"
                    continue
                err = (c.float() - expected).abs().max().item()
                if not err <= tol:
                    row[f"{name} error"] = f"max abs error {err:.3g} > {tol:.3g}"
                    continue
                kernel = compiled_of(module)
                if kernel is not None:
                    row[f"{name} regs"] = int(getattr(kernel, "n_regs", 0) or 0)
                    row[f"{name} spills"] = int(getattr(kernel, "n_spills", 0) or 0)
                fns[name] = fn
            times = {name: [] for name in fns}
            for r in range(1 if QUICK else 2):
                for name in (list(fns) if r % 2 == 0 else list(fns)[::-1]):
                    times[name].append(median_ms(fns[name], QUICK))
            for name, ms in times.items():
                row[name] = round(flops / min(ms) / 1e9, 1)
            if row.get("tritium") and row.get("triton"):
                row["ratio"] = round(row["tritium"] / row["triton"], 3)
                ratios.append(row["ratio"])
            rows.append(row)
            print(work, config, {k: v for k, v in row.items() if k not in ("work", "config", "unit")}, flush=True)
        compile_s = {name: round(sum(r.get(f"{name} compile s", 0) for r in rows if r["work"] == work), 1)
                     for name in backends}
        geo = round(math.exp(statistics.fmean(math.log(r) for r in ratios)), 3) if ratios else None
        summary.append((work, geo, compile_s))
    print("\ncase                               geomean  compile s (Tritium / Triton)")
    for work, geo, compile_s in summary:
        print(f"{work:34s} {geo}  {compile_s.get('tritium')} / {compile_s.get('triton')}")
    worst = sorted((r for r in rows if r.get("ratio")), key=lambda r: r["ratio"])[:8]
    print("worst:", [(r["work"], r["config"], r["ratio"]) for r in worst])
    failed = [(r["work"], r["config"], {k: v for k, v in r.items() if k.endswith("error")}) for r in rows
              if any(k.endswith("error") for k in r)]
    if failed:
        print("failed:", failed)
    from results_page import record  # noqa: E402  (bench/results/bench_inductor_mm.json)
    record("bench_inductor_mm", rows, digits={"ratio": 3},
           notes=[f"{w}: geomean {g}, compile s Tritium {c.get('tritium')} / Triton {c.get('triton')}"
                  for w, g, c in summary])


if __name__ == "__main__":
    main()
