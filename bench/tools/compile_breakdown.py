"""Where the cold compile of a bench_matmul config goes: the first launch of
tutorial 03's matmul at (128, 128, 64, 3 stages, 8 warps) with GROUP_SIZE_M
3, 5 and 6 (configs no process compiled yet) in a process that already
compiled another config, timed whole, then split into the native stages
(kernel.metadata["compile_times_ms"]) and the Python functions that took
longest (cProfile).  Then the same first launches under Triton when it is
installed, and ptxas timed on both compilers' PTX of that config (median of
5 runs each), to tell the PTX's cost from the rest.  Needs a GPU.

  python bench/tools/compile_breakdown.py
"""
import argparse
import cProfile
import io
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

SIZE = 512


def cdiv(x, y):
    return (x + y - 1) // y


def launcher(kernel, a, b, c):
    def launch(bm, bn, bk, group, stages, warps):
        grid = (cdiv(SIZE, bm) * cdiv(SIZE, bn),)
        return kernel[grid](a, b, c, SIZE, SIZE, SIZE, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                            c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                            GROUP_SIZE_M=group, ACTIVATION="", num_stages=stages, num_warps=warps)
    return launch


def main():
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    os.environ["TRITIUM_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritium-cache-")

    import torch

    import tritium
    import tritium.language as ttl
    from kernel_sources import load_kernels

    a = torch.randn(SIZE, SIZE, device="cuda", dtype=torch.float16)
    b = torch.randn(SIZE, SIZE, device="cuda", dtype=torch.float16)
    c = torch.empty(SIZE, SIZE, device="cuda", dtype=torch.float16)
    launch = launcher(load_kernels("tutorials.py", tritium, ttl, "tritium").matmul_kernel, a, b, c)
    launch(64, 64, 32, 8, 2, 4)  # warm the process
    torch.cuda.synchronize()
    for group in (3, 5, 6):
        profiler = cProfile.Profile()
        t0 = time.perf_counter()
        profiler.enable()
        compiled = launch(128, 128, 64, group, 3, 8)
        torch.cuda.synchronize()
        profiler.disable()
        total = (time.perf_counter() - t0) * 1e3
        stages = {k: round(v, 1) for k, v in compiled.metadata["compile_times_ms"].items()}
        print(f"GROUP_SIZE_M={group}: first launch {total:.1f} ms; native stages {stages}")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
    print(out.getvalue())
    ptxas = next((p for p in ("/usr/local/cuda/bin/ptxas", shutil.which("ptxas")) if p and os.path.exists(p)), None)
    if ptxas:
        print("ptxas:", ptxas, subprocess.run([ptxas, "--version"], capture_output=True, text=True)
              .stdout.strip().splitlines()[-1])
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"cpu: {cpu}, {os.cpu_count()} cores")

    try:
        import triton
        import triton.language as tl
    except ImportError:
        return
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-cache-")
    launch_triton = launcher(load_kernels("tutorials.py", triton, tl, "triton").matmul_kernel, a, b, c)
    launch_triton(64, 64, 32, 8, 2, 4)
    torch.cuda.synchronize()
    for group in (3, 5, 6):
        t0 = time.perf_counter()
        triton_compiled = launch_triton(128, 128, 64, group, 3, 8)
        torch.cuda.synchronize()
        print(f"triton GROUP_SIZE_M={group}: first launch {(time.perf_counter() - t0) * 1e3:.1f} ms")
    if not ptxas:
        return
    work = tempfile.mkdtemp(prefix="ptx-")
    for name, ptx in (("tritium", compiled.asm["ptx"]), ("triton", triton_compiled.asm["ptx"])):
        path = os.path.join(work, name + ".ptx")
        with open(path, "w") as f:
            f.write(ptx)
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([ptxas, "-arch=sm_90a", "-O3", path, "-o", path + ".cubin"], check=True)
            times.append((time.perf_counter() - t0) * 1e3)
        print(f"ptxas on {name}'s PTX ({ptx.count(chr(10))} lines): median {statistics.median(times):.1f} ms "
              f"of {[round(t, 1) for t in times]}")


if __name__ == "__main__":
    main()
