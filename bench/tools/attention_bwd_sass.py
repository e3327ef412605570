"""Compiles the attention backward (bench/attention_bwd_kernels.py: attn_bwd)
with Tritium and with Triton for one config and prints registers, shared
memory, spills and, per inner loop, the counts of its SASS instructions
(cuobjdump -sass on the GPU machine); writes both SASS and TTGIR listings
to OUT_DIR.
Usage: python bench/tools/attention_bwd_sass.py OUT_DIR [BM1 BN1 BM2 BN2 stages warps D causal]"""
import collections
import math
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
bm1, bn1, bm2, bn2, stages, warps, D, causal = ((int(v) for v in sys.argv[2:10]) if len(sys.argv) > 9
                                                else (64, 128, 128, 64, 3, 8, 128, 0))
Z, H, N = 4, 32, 4096
q, k, v, do = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16) for _ in range(4))
m = torch.zeros(Z, H, N, device="cuda")
delta = torch.zeros_like(m)
OP = re.compile(r"/\*([0-9a-f]{4})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")
for name, mod, lang in [("tritium", tritium, ttl), ("triton", triton, tl)]:
    kern = load_kernels("attention_bwd_kernels.py", mod, lang, name + "_bwd_sass")
    grads = [torch.empty_like(q) for _ in range(3)]
    compiled = kern.attn_bwd[(N // bn1, 1, Z * H)](
        q, k, v, D ** -0.5, do, *grads, m, delta, q.stride(0), q.stride(1), q.stride(2), H, N, BLOCK_M1=bm1,
        BLOCK_N1=bn1, BLOCK_M2=bm2, BLOCK_N2=bn2, BLK_SLICE_FACTOR=2, HEAD_DIM=D, CAUSAL=bool(causal),
        num_warps=warps, num_stages=stages)
    torch.cuda.synchronize()
    path = os.path.join(out, f"{name}.cubin")
    with open(path, "wb") as f:
        f.write(compiled.asm["cubin"])
    with open(os.path.join(out, f"{name}.ttgir"), "w") as f:
        f.write(compiled.asm["ttgir"])
    sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
    os.remove(path)
    with open(os.path.join(out, f"{name}.sass"), "w") as f:
        f.write(sass)
    lines = [(int(mm.group(1), 16), mm.group(3)) for mm in OP.finditer(sass)]
    metadata = compiled.metadata
    get = (lambda key: metadata.get(key)) if isinstance(metadata, dict) else (lambda key: getattr(metadata, key, None))
    print(f"{name}: registers {getattr(compiled, 'n_regs', None)} spills {getattr(compiled, 'n_spills', None)} "
          f"shared {get('shared')} instructions {len(lines)}")
    for addr, op in lines:
        pass
    branches = [(mm.group(1), mm.group(4)) for mm in OP.finditer(sass) if mm.group(3).startswith("BRA")]
    for src, rest in branches:
        target = re.search(r"0x([0-9a-f]+)", rest)
        a, t = int(src, 16), int(target.group(1), 16) if target else None
        if t is not None and t < a and a - t > 0x400:
            body = collections.Counter(op.split(".")[0] for addr, op in lines if t <= addr <= a)
            print(f"  loop {t:#x}-{a:#x}: {sum(body.values())} instructions:",
                  ", ".join(f"{op} {n}" for op, n in body.most_common(22)))
