"""A/B of the two compilers' matmul cubins under one launcher, on the GPU
machine: bench_matmul's kernel (tutorial 03) is compiled by Tritium and by
Triton for one config; each cubin is then also launched through CuPy with
the same grid, block, dynamic shared memory and carveout, so that what
remains between the two CuPy rows is the code alone, and what differs
between a compiler's own launch and its CuPy launch is the launch.
Triton's kernel takes two more parameters than the source names (global
and profile scratch pointers, unused by this kernel): they get null.
Every launch is checked against torch.matmul; the rows are timed in
rounds whose order rotates (do_bench medians, L2 flushed), and the table
gives the median of the rounds.
Variants: every NAME.cubin (with NAME.json: kernel name, shared bytes) in
the folder named by MATMUL_AB_CUBINS, built from the same source and
signature as Tritium's own kernel (a variant of the compiler), gets a CuPy
row too.
Usage: python bench/tools/matmul_ab.py [M N K [BM BN BK GROUP stages warps]]
"""
import json
import os
import re
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

import cupy  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from bench_timing import median_ms  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

args = [int(v) for v in sys.argv[1:]]
M, N, K = args[:3] if len(args) >= 3 else (8192, 8192, 8192)
bm, bn, bk, group, stages, warps = args[3:9] if len(args) >= 9 else (128, 256, 64, 8, 3, 8)
torch.manual_seed(0)
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
want = a.float() @ b.float()
grid = (((M + bm - 1) // bm) * ((N + bn - 1) // bn),)
scalars = {"M": M, "N": N, "K": K, "stride_am": a.stride(0), "stride_ak": a.stride(1), "stride_bk": b.stride(0),
           "stride_bn": b.stride(1), "stride_cm": N, "stride_cn": 1}


def jit_launcher(kernel, c):
    def run():
        return kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                            c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=group,
                            num_stages=stages, num_warps=warps)
    return run


def ptx_params(ptx, name):
    """The .param types of kernel `name` in `ptx`, in order."""
    entry = re.search(r"\.entry\s+" + re.escape(name) + r"\s*\((.*?)\)", ptx, re.S)
    return re.findall(r"\.param\s+\.(\w+)", entry.group(1))


def cupy_launcher(cubin, name, ptx, shared, c, runtime_names, types=None):
    path = os.path.join(tempfile.mkdtemp(), name + ".cubin")
    with open(path, "wb") as f:
        f.write(cubin)
    function = cupy.RawModule(path=path).get_function(name)
    function.max_dynamic_shared_size_bytes = shared
    function.preferred_shared_memory_carveout = 100  # percent: all shared memory it can have
    types = types or ptx_params(ptx, name)
    values = []
    for i, kind in enumerate(types):
        if i < len(runtime_names):
            n = runtime_names[i]
            v = {"a_ptr": a.data_ptr(), "b_ptr": b.data_ptr(), "c_ptr": c.data_ptr()}.get(n, scalars.get(n))
        else:
            v = 0  # Triton's scratch pointers
        values.append(np.uint64(v) if kind in ("u64", "b64") else np.int32(v))
    return lambda: function(grid, (32 * warps, 1, 1), tuple(values), shared_mem=shared)


rows = {}
outputs = {}
compiled = {}
for name, module, language in [("tritium", tritium, ttl), ("triton", triton, tl)]:
    kernel = load_kernels("matmul_kernels.py", module, language, "ab_" + name).matmul_kernel
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    run = jit_launcher(kernel, c)
    compiled[name] = run()
    rows[f"{name} cubin, {name} launch"] = run
    outputs[f"{name} cubin, {name} launch"] = c
torch.cuda.synchronize()
for name, k in compiled.items():
    cubin = k.asm["cubin"]
    kernel_name = k.metadata.name if name == "triton" else k.metadata["kernel_name"]
    shared = k.metadata.shared if name == "triton" else k.shared
    every = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn",
             "stride_cm", "stride_cn"]
    runtime_names = getattr(k, "runtime_params", None)
    if name == "triton":  # unit strides are specialized away, unless the PTX says otherwise
        n_params = len(ptx_params(k.asm["ptx"], kernel_name)) - 2
        runtime_names = every if n_params == len(every) else [p for p in every if not p.endswith(("_ak", "_bn", "_cn"))]
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    print(f"{name}: kernel {kernel_name}, params {ptx_params(k.asm['ptx'], kernel_name)}, "
          f"runtime {runtime_names}, shared {shared}")
    rows[f"{name} cubin, CuPy launch"] = cupy_launcher(cubin, kernel_name, k.asm["ptx"], shared, c, runtime_names)
    outputs[f"{name} cubin, CuPy launch"] = c
variants = os.environ.get("MATMUL_AB_CUBINS")
for file in sorted(os.listdir(variants)) if variants else []:
    if not file.endswith(".cubin"):
        continue
    stem = os.path.join(variants, file[:-len(".cubin")])
    with open(stem + ".json") as f:
        info = json.load(f)
    with open(stem + ".cubin", "rb") as f:
        cubin = f.read()
    ours = compiled["tritium"]
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    label = f"variant {file[:-len('.cubin')]}, CuPy launch"
    rows[label] = cupy_launcher(cubin, info["name"], None, info["shared"], c, ours.runtime_params,
                                types=ptx_params(ours.asm["ptx"], ours.metadata["kernel_name"]))
    outputs[label] = c
for label, run in rows.items():
    outputs[label].fill_(float("nan"))
    run()
    torch.cuda.synchronize()
    err = (outputs[label].float() - want).abs().max().item()
    print(f"{label}: max |error| {err:.3g}")
    assert err < 0.05 * want.abs().max().item(), label
samples = {label: [] for label in rows}
labels = list(rows)
for r in range(8):
    for label in labels[r % len(labels):] + labels[:r % len(labels)]:
        samples[label].append(median_ms(rows[label], False) * 1e3)
print(f"{M}x{N}x{K} fp16, config {(bm, bn, bk, group, stages, warps)}")
for label, v in samples.items():
    print(f"  {label:32} {statistics.median(v):9.1f} us   (rounds {min(v):.1f} - {max(v):.1f})")
