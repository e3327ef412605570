"""Where the cold compile of bench_matmul's config goes, on this machine:
the first launch of (128, 128, 64, 3 stages, 8 warps, GROUP_SIZE_M=3) in a
process that already compiled another config, timed as a whole, then split
into the native stages (kernel.metadata["compile_times_ms"]) and the Python
functions that took longest (cProfile).  Then the same for Triton when it
is installed, and one ptxas timed on both compilers' PTX of that config
(median of 5 runs each), to tell the PTX's cost from the rest.  Needs a GPU.
Usage: python bench/tools/compile_breakdown.py
"""
import cProfile
import io
import os
import pstats
import shutil
import sys
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
os.environ["TRITIUM_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritium-cache-")

import torch  # noqa: E402

import tritium  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

import tritium.language as ttl  # noqa: E402

kernel = load_kernels("matmul_kernels.py", tritium, ttl, "breakdown").matmul_kernel
a = torch.randn(512, 512, device="cuda", dtype=torch.float16)
b = torch.randn(512, 512, device="cuda", dtype=torch.float16)
c = torch.empty(512, 512, device="cuda", dtype=torch.float16)


def launch(bm, bn, bk, group, stages, warps):
    grid = (triton_cdiv(512, bm) * triton_cdiv(512, bn),)
    return kernel[grid](a, b, c, 512, 512, 512, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                        c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=group,
                        num_stages=stages, num_warps=warps)


def triton_cdiv(x, y):
    return (x + y - 1) // y


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
for candidate in ("/usr/local/cuda/bin/ptxas", shutil.which("ptxas") or ""):
    if candidate and os.path.exists(candidate):
        print("ptxas:", candidate, os.popen(f"{candidate} --version").read().strip().splitlines()[-1])
print("cpu:", open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0], "cores", os.cpu_count())

try:
    import triton
    import triton.language as tl
except ImportError:
    sys.exit(0)
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-cache-")
triton_kernel = load_kernels("matmul_kernels.py", triton, tl, "breakdown_triton").matmul_kernel


def launch_triton(bm, bn, bk, group, stages, warps):
    grid = (triton_cdiv(512, bm) * triton_cdiv(512, bn),)
    return triton_kernel[grid](a, b, c, 512, 512, 512, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                               c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                               GROUP_SIZE_M=group, num_stages=stages, num_warps=warps)


launch_triton(64, 64, 32, 8, 2, 4)
torch.cuda.synchronize()
for group in (3, 5, 6):
    t0 = time.perf_counter()
    triton_compiled = launch_triton(128, 128, 64, group, 3, 8)
    torch.cuda.synchronize()
    print(f"triton GROUP_SIZE_M={group}: first launch {(time.perf_counter() - t0) * 1e3:.1f} ms")
ptxas = "/usr/local/cuda/bin/ptxas"
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
