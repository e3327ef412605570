"""Side-by-side benchmark on the GPU: tritium vs Triton (when importable) vs
torch, same kernel sources (kernels/tutorials.py: tutorial 01's vector add;
kernels/elementwise.py), same sizes, one run.

  vector add fp32, 2^28 elements            GB/s (3 x 4 bytes per element)
  x * sigmoid(x) + y in bf16, 2^28          GB/s (3 x 2 bytes per element)
  transpose 8192 x 8192 fp32                GB/s (2 x 4 bytes per element)
  first call of vector add, empty cache     ms   (compile + load + launch + sync)
  host time per launch, tiny kernel         us   (median of 9 rounds of 2000 launches,
                                                 backends interleaved, no sync inside)

Bandwidths: medians of CUDA-event timings (do_bench, L2 flushed between
runs), in 5 rounds with the backends interleaved; the median round counts.
Usage: python bench/bench_elementwise.py [--quick]
"""
import time

from bench_setup import HAVE_TRITON, QUICK, tl, triton  # first: the path, fresh caches

import torch

import tritium
import tritium.language as ttl
from bench_timing import interleaved_gbps
from kernel_sources import load_kernels


KERNEL_FILES = ("tutorials.py", "elementwise.py")
backends = {"tritium": load_kernels(KERNEL_FILES, tritium, ttl, "tritium")}
if HAVE_TRITON:
    backends["triton"] = load_kernels(KERNEL_FILES, triton, tl, "triton")


rows = []


def first_call_ms(k, n=1 << 20):
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    k.add_kernel[(triton_cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e3, bool(torch.equal(out, x + y))


def triton_cdiv(a, b):
    return (a + b - 1) // b


# cold first call (before anything else compiled)
cold = {name: first_call_ms(k) for name, k in backends.items()}

# vector add
n = 1 << 28 if not QUICK else 1 << 24
x = torch.randn(n, device="cuda")
y = torch.randn(n, device="cuda")
fns, ok = {}, {}
for name, k in backends.items():
    out = torch.full_like(x, float("nan"))
    k.add_kernel[(triton_cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024, num_warps=4)
    ok[name] = bool(torch.equal(out, x + y))
    fns[name] = lambda k=k, out=out: k.add_kernel[(triton_cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024,
                                                                                num_warps=4)
out_t = torch.empty_like(x)
fns["torch"], ok["torch"] = (lambda: torch.add(x, y, out=out_t)), True
gbps = interleaved_gbps(fns, 3 * 4 * n, QUICK)
rows.append(("vector add fp32 2^%d (GB/s)" % (n.bit_length() - 1), {b: (gbps[b], ok[b]) for b in fns}))
del x, y, out, out_t, fns

# fused chain in bf16
xb = torch.randn(n, device="cuda", dtype=torch.bfloat16)
yb = torch.randn(n, device="cuda", dtype=torch.bfloat16)
fns, ok = {}, {}
ref = (xb.float() * torch.sigmoid(xb.float()) + yb.float()).to(torch.bfloat16)
for name, k in backends.items():
    out = torch.full_like(xb, float("nan"))
    k.silu_mul_add_kernel[(triton_cdiv(n, 2048),)](xb, yb, out, n, BLOCK=2048)
    ok[name] = bool((out.float() - ref.float()).abs().max() <= 2e-2 * ref.float().abs().max())
    fns[name] = lambda k=k, out=out: k.silu_mul_add_kernel[(triton_cdiv(n, 2048),)](xb, yb, out, n, BLOCK=2048)
out_t = torch.empty_like(xb)


def torch_chain():
    torch.add(xb * torch.sigmoid(xb), yb, out=out_t)


fns["torch"], ok["torch"] = torch_chain, True
gbps = interleaved_gbps(fns, 3 * 2 * n, QUICK)
rows.append(("x*sigmoid(x)+y bf16 (GB/s)", {b: (gbps[b], ok[b]) for b in fns}))
del xb, yb, out, out_t, ref, fns

# transpose
m = 8192
src = torch.randn(m, m, device="cuda")
fns, ok = {}, {}
grid = (m // 64, m // 64)
for name, k in backends.items():
    dst = torch.full_like(src, float("nan"))
    k.transpose_kernel[grid](src, dst, m, m, m, m, BLOCK_M=64, BLOCK_N=64)
    ok[name] = bool(torch.equal(dst, src.t()))
    fns[name] = lambda k=k, dst=dst: k.transpose_kernel[grid](src, dst, m, m, m, m, BLOCK_M=64, BLOCK_N=64)
dst_t = torch.empty_like(src)
fns["torch"], ok["torch"] = (lambda: dst_t.copy_(src.t())), True
gbps = interleaved_gbps(fns, 2 * 4 * m * m, QUICK)
rows.append(("transpose 8192^2 fp32 (GB/s)", {name: (gbps[name], ok[name]) for name in fns}))
del src, dst, dst_t, fns

rows.append(("first call, empty cache (ms)", {name: cold[name] for name in backends}))

# host time per launch: rounds of launches, backends interleaved round by
# round (the host is shared: its speed drifts), median round per backend
small = torch.zeros(1024, device="cuda")
launchers = {name: (lambda k=k: k.tiny_kernel[(1,)](small, 1024, BLOCK=1024)) for name, k in backends.items()}
launchers["torch"] = lambda: small.add_(1)
for fn in launchers.values():
    fn()
torch.cuda.synchronize()
per_round = 2000
samples = {name: [] for name in launchers}
for _ in range(9):
    for name, fn in launchers.items():
        t0 = time.perf_counter()
        for _ in range(per_round):
            fn()
        samples[name].append((time.perf_counter() - t0) / per_round * 1e6)
        torch.cuda.synchronize()
res = {name: (sorted(v)[len(v) // 2], True) for name, v in samples.items()}
rows.append(("host time per launch (us)", res))

print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
      f"triton {triton.__version__ if HAVE_TRITON else 'absent'}  tritium {tritium.__tritium_version__}")
print(f"{'benchmark':34} {'tritium':>14} {'triton':>14} {'torch':>10} {'tritium/triton':>15}")
for label, res in rows:
    def fmt(name):
        v = res.get(name)
        if v is None:
            return "-"
        value, ok = v
        return f"{value:.1f}" + ("" if ok else " WRONG")
    ratio = ""
    if "tritium" in res and "triton" in res:
        a, b = res["tritium"][0], res["triton"][0]
        ratio = f"{a / b:.3f}" if "GB/s" in label else f"{b / a:.1f}x faster" if a else ""
    print(f"{label:34} {fmt('tritium'):>14} {fmt('triton'):>14} {fmt('torch'):>10} {ratio:>15}")

from results_page import labelled_rows, record  # noqa: E402  (bench/results/bench_elementwise.json)
record("bench_elementwise", labelled_rows(rows), reference="torch")
