"""Compiles the tutorial matmul (bench/matmul_kernels.py) with Tritium and
with Triton for one config and prints, side by side, registers, shared
memory and the counts of the SASS instructions of each kernel (cuobjdump
-sass on the GPU machine); writes both SASS listings to OUT_DIR.
Usage: python bench/tools/sass_compare.py OUT_DIR [BM BN BK stages warps]"""
import collections
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "."
bm, bn, bk, stages, warps = (int(v) for v in sys.argv[2:7]) if len(sys.argv) > 6 else (128, 256, 64, 3, 8)
M = N = K = 4096
a = torch.randn(M, K, device="cuda", dtype=torch.float16)
b = torch.randn(K, N, device="cuda", dtype=torch.float16)
listings = {}
for name, mod, lang in [("tritium", tritium, ttl), ("triton", triton, tl)]:
    k = load_kernels("matmul_kernels.py", mod, lang, name + "_sass")
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    grid = ((M // bm) * (N // bn),)
    compiled = k.matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                     c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                                     GROUP_SIZE_M=8, num_stages=stages, num_warps=warps)
    path = os.path.join(out, f"{name}.cubin")
    with open(path, "wb") as f:
        f.write(compiled.asm["cubin"])
    sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
    with open(os.path.join(out, f"{name}.sass"), "w") as f:
        f.write(sass)
    ops = collections.Counter(m.group(1) for m in re.finditer(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", sass))
    listings[name] = ops
    regs = getattr(compiled, "n_regs", None) or compiled.metadata.get("registers") if hasattr(compiled, "metadata") else None
    print(name, "registers", getattr(compiled, "n_regs", None), "shared", getattr(compiled.metadata, "shared", None)
          if not isinstance(compiled.metadata, dict) else compiled.metadata.get("shared"))
keys = sorted(set(listings["tritium"]) | set(listings["triton"]))
print(f"{'op':14} {'tritium':>8} {'triton':>8}")
for key in keys:
    t, r = listings["tritium"].get(key, 0), listings["triton"].get(key, 0)
    if t != r:
        print(f"{key:14} {t:8} {r:8}")
print("total", sum(listings["tritium"].values()), sum(listings["triton"].values()))
