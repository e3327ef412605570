"""Side-by-side benchmark on the GPU of reductions and scans: tritium vs
Triton (when importable) vs torch, same kernel sources (kernels/tutorials.py:
tutorial 02's softmax and 05's layer norm; kernels/reductions.py), same
sizes, one run.

  fused softmax fp32, 8192 x {1024, 4096, 16384}   GB/s (2 x 4 bytes per element)
  fused softmax bf16, 8192 x {1024, 4096, 16384}   GB/s (2 x 2 bytes per element)
  layer norm forward fp16 8192 x 4096, w and b     GB/s (x, y: 2 x 2 bytes per element,
                                                         w, b: 2 x 2 bytes per column,
                                                         mean, rstd: 2 x 4 bytes per row)
  row-wise argmax fp32 8192 x 4096 -> int32        GB/s (4 bytes per element + 4 per row)
  row sums, loop of tiles fp32 8192 x 16384        GB/s (4 bytes per element + 4 per row):
                                                   32 rows a program, 32 x 128 tiles
                                                   folded into a running sum
  cumsum along rows fp32 8192 x 4096 (axis=1)      GB/s (2 x 4 bytes per element)

Softmax is Triton's tutorial 02 kernel (fp32) and the same kernel with the
row upcast to fp32 after the load (bf16: Triton's tl.exp takes fp32/fp64
only), launched with one program per row, num_stages=4 and the tutorial's
num_warps by BLOCK_SIZE (4; 8 from 2048; 16 from 4096).  Layer norm is
tutorial 05's forward kernel with its launch (BLOCK_SIZE = next power of 2,
num_warps = min(max(BLOCK_SIZE // 256, 1), 8)).  Every result is checked
against torch before it is timed (a wrong one is marked WRONG; a backend
that fails to compile or run shows ERROR and the reason goes to stderr).

Bandwidths: medians of CUDA-event timings (do_bench, L2 flushed between
runs), in 5 rounds with the backends interleaved; the median round counts
(bench_timing.py).
Usage: python bench/bench_reductions.py [--quick]
"""
import sys

from bench_setup import HAVE_TRITON, QUICK, tl, triton  # first: the path, fresh caches

import torch

import tritium
import tritium.language as ttl
from bench_timing import interleaved_gbps
from kernel_sources import load_kernels

M = 8192 if not QUICK else 1024


KERNEL_FILES = ("tutorials.py", "reductions.py")
backends = {"tritium": load_kernels(KERNEL_FILES, tritium, ttl, "tritium")}
if HAVE_TRITON:
    backends["triton"] = load_kernels(KERNEL_FILES, triton, tl, "triton")


def next_power_of_2(n):
    return 1 << (n - 1).bit_length()


def checked(name, launch, check):
    """Whether `launch` gives a correct result (it runs once); None when the
    backend fails to compile or run it (the reason goes to stderr)."""
    try:
        launch()
        torch.cuda.synchronize()
        return bool(check())
    except Exception as e:  # a compiler that cannot do it yet: report, go on
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        print(f"[{name}] {type(e).__name__}: {first}", file=sys.stderr)
        torch.cuda.synchronize()
        return None


def timed(launches, checks, nbytes):
    """{backend: (GB/s, correct) or None} for launch functions ({name: fn},
    torch's included) and their results' correctness ({name: bool or None}),
    timed in interleaved rounds."""
    ok = {name: checks.get(name, True) for name in launches}
    gbps = interleaved_gbps({name: fn for name, fn in launches.items() if ok[name] is not None}, nbytes, QUICK)
    return {name: (gbps[name], ok[name]) if ok[name] is not None else None for name in launches}


rows = []

# fused softmax (tutorial 02)
for dtype, kernel_name in ((torch.float32, "softmax_kernel"), (torch.bfloat16, "softmax_kernel_fp32_math")):
    for n_cols in (1024, 4096, 16384):
        x = torch.randn(M, n_cols, device="cuda", dtype=dtype)
        ref = torch.softmax(x.float(), dim=1)
        BLOCK_SIZE = next_power_of_2(n_cols)
        num_warps = 4
        if BLOCK_SIZE >= 2048:
            num_warps = 8
        if BLOCK_SIZE >= 4096:
            num_warps = 16
        num_stages = 4
        nbytes = 2 * M * n_cols * x.element_size()
        launches, checks = {}, {}
        for name, k in backends.items():
            y = torch.full_like(x, float("nan"))
            kernel = getattr(k, kernel_name)

            def launch(kernel=kernel, y=y):
                kernel[(M,)](y, x, x.stride(0), y.stride(0), M, n_cols, BLOCK_SIZE=BLOCK_SIZE,
                             num_stages=num_stages, num_warps=num_warps)

            if dtype == torch.float32:
                def check(y=y):
                    return torch.allclose(y, ref, rtol=1e-5, atol=1e-8)
            else:
                def check(y=y):  # within one bf16 ulp of the fp32 result rounded
                    return torch.allclose(y.float(), ref.to(dtype).float(), rtol=2.0**-7, atol=1e-6)
            launches[name], checks[name] = launch, checked(name, launch, check)
            del y
        launches["torch"] = lambda: torch.softmax(x, dim=1)
        rows.append((f"softmax {'fp32' if dtype == torch.float32 else 'bf16'} {M}x{n_cols} (GB/s)",
                     timed(launches, checks, nbytes)))
        del x, ref

# layer norm forward (tutorial 05)
N = 4096
eps = 1e-5
x = -2.3 + 0.5 * torch.randn(M, N, device="cuda", dtype=torch.float16)
w = torch.rand(N, device="cuda", dtype=torch.float16)
b = torch.rand(N, device="cuda", dtype=torch.float16)
ref = torch.nn.functional.layer_norm(x, (N,), w, b, eps)
ref_mean = x.float().mean(1)
ref_rstd = 1.0 / torch.sqrt(x.float().var(1, unbiased=False) + eps)
MAX_FUSED_SIZE = 65536 // x.element_size()
BLOCK_SIZE = min(MAX_FUSED_SIZE, next_power_of_2(N))
num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
nbytes = 2 * M * N * 2 + 2 * N * 2 + 2 * M * 4
launches, checks = {}, {}
for name, k in backends.items():
    y = torch.full_like(x, float("nan"))
    mean = torch.full((M,), float("nan"), device="cuda")
    rstd = torch.full((M,), float("nan"), device="cuda")

    def launch(k=k, y=y, mean=mean, rstd=rstd):
        k._layer_norm_fwd_fused[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps,
                                      BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, num_ctas=1)

    def check(y=y, mean=mean, rstd=rstd):
        return (torch.allclose(y, ref, atol=1e-2, rtol=0) and torch.allclose(mean, ref_mean, rtol=1e-5, atol=1e-5)
                and torch.allclose(rstd, ref_rstd, rtol=1e-4, atol=0))
    launches[name], checks[name] = launch, checked(name, launch, check)
    del y, mean, rstd
launches["torch"] = lambda: torch.nn.functional.layer_norm(x, (N,), w, b, eps)
rows.append((f"layer norm fwd fp16 {M}x{N} (GB/s)", timed(launches, checks, nbytes)))
del x, w, b, ref, ref_mean, ref_rstd

# row-wise argmax
N = 4096
x = torch.randn(M, N, device="cuda")
ref = torch.argmax(x, dim=1)
nbytes = M * N * 4 + M * 4
launches, checks = {}, {}
for name, k in backends.items():
    out = torch.full((M,), -77, device="cuda", dtype=torch.int32)

    def launch(k=k, out=out):
        k.argmax_rows_kernel[(M,)](x, out, N, x.stride(0), BLOCK_SIZE=N, num_warps=8)

    launches[name], checks[name] = launch, checked(name, launch, lambda out=out: torch.equal(out.long(), ref))
    del out
launches["torch"] = lambda: torch.argmax(x, dim=1)
rows.append((f"argmax rows fp32 {M}x{N} (GB/s)", timed(launches, checks, nbytes)))
del x, ref

# row sums over a loop of column tiles (the running-value form); integer-
# valued data: every order of additions is exact
N = 16384
x = torch.randint(-8, 9, (M, N), device="cuda").float()
ref = x.sum(dim=1)
nbytes = M * N * 4 + M * 4
launches, checks = {}, {}
for name, k in backends.items():
    out = torch.full((M,), float("nan"), device="cuda")

    def launch(k=k, out=out):
        k.row_sum_loop_kernel[(M // 32,)](x, out, N, BLOCK_M=32, BLOCK_N=128, num_warps=4)

    launches[name], checks[name] = launch, checked(name, launch, lambda out=out: torch.equal(out, ref))
    del out
launches["torch"] = lambda: x.sum(dim=1)
rows.append((f"row sums, loop of tiles fp32 {M}x{N} (GB/s)", timed(launches, checks, nbytes)))
del x, ref

# cumsum along rows; integer-valued data: every order of additions is exact
N = 4096
x = torch.randint(-8, 9, (M, N), device="cuda").float()
ref = torch.cumsum(x, dim=1)
nbytes = 2 * M * N * 4
launches, checks = {}, {}
for name, k in backends.items():
    out = torch.full_like(x, float("nan"))

    def launch(k=k, out=out):
        k.cumsum_rows_kernel[(M,)](x, out, M, N, x.stride(0), ROWS=1, BLOCK_SIZE=N, num_warps=8)

    launches[name], checks[name] = launch, checked(name, launch, lambda out=out: torch.equal(out, ref))
    del out
out_t = torch.empty_like(x)
launches["torch"] = lambda: torch.cumsum(x, dim=1, out=out_t)
rows.append((f"cumsum rows fp32 {M}x{N} (GB/s)", timed(launches, checks, nbytes)))
del x, ref, out_t

print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
      f"triton {triton.__version__ if HAVE_TRITON else 'absent'}  tritium {tritium.__tritium_version__}")
print(f"{'benchmark':38} {'tritium':>14} {'triton':>14} {'torch':>10} {'tritium/triton':>15}")
for label, res in rows:
    def fmt(name):
        if name not in res:
            return "-"
        v = res[name]
        if v is None:
            return "ERROR"
        value, ok = v
        return f"{value:.1f}" + ("" if ok else " WRONG")
    ratio = ""
    if res.get("tritium") and res.get("triton"):
        ratio = f"{res['tritium'][0] / res['triton'][0]:.3f}"
    print(f"{label:38} {fmt('tritium'):>14} {fmt('triton'):>14} {fmt('torch'):>10} {ratio:>15}")

from results_page import labelled_rows, record  # noqa: E402  (bench/results/bench_reductions.json)
record("bench_reductions", labelled_rows(rows), reference="torch")
