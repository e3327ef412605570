"""Compiles the tensor-descriptor attention forward (bench/attention_kernels.py:
attn_fwd_tma) with Tritium and with Triton for one config and prints
registers, shared memory and the counts of the SASS instructions of each
(cuobjdump -sass on the GPU machine), whole kernel and inner loops; writes
the SASS, PTX and TTGIR listings of both to OUT_DIR.
Usage: python bench/tools/attention_sass.py OUT_DIR [BM BN stages warps D causal]"""
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
from triton.tools.tensor_descriptor import TensorDescriptor as TritonDescriptor  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from tritium.tools.tensor_descriptor import TensorDescriptor as TritiumDescriptor  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "."
bm, bn, stages, warps, D, causal = (int(v) for v in sys.argv[2:8]) if len(sys.argv) > 7 else (128, 128, 3, 8, 128, 0)
Z, H, N = 4, 32, 4096
q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16) for _ in range(3))
o = torch.empty_like(q)
OP = re.compile(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)")
for name, mod, lang, desc in [("tritium", tritium, ttl, TritiumDescriptor), ("triton", triton, tl, TritonDescriptor)]:
    kern = load_kernels("attention_kernels.py", mod, lang, name + "_sass")
    rows = lambda t, block: desc(t, [Z * H * N, D], [D, 1], [block, D])  # noqa: E731
    compiled = kern.attn_fwd_tma[(N // bm, Z * H)](D ** -0.5, H, rows(q, bm), rows(k, bn), rows(v, bn), rows(o, bm),
                                                    N_CTX=N, HEAD_DIM=D, BLOCK_M=bm, BLOCK_N=bn,
                                                    STAGE=3 if causal else 1, num_stages=stages, num_warps=warps)
    torch.cuda.synchronize()
    path = os.path.join(out, f"{name}.cubin")
    with open(path, "wb") as f:
        f.write(compiled.asm["cubin"])
    for stage in ("ptx", "ttgir"):
        with open(os.path.join(out, f"{name}.{stage}"), "w") as f:
            f.write(compiled.asm[stage])
    sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
    with open(os.path.join(out, f"{name}.sass"), "w") as f:
        f.write(sass)
    ops = collections.Counter(m.group(1) for m in OP.finditer(sass))
    metadata = compiled.metadata
    shared = metadata.get("shared") if isinstance(metadata, dict) else getattr(metadata, "shared", None)
    print(f"{name}: registers {getattr(compiled, 'n_regs', None)} shared {shared} instructions {sum(ops.values())}")
    for key in ("HGMMA", "WARPGROUP", "BAR", "SYNCS", "MUFU", "FMUL", "FADD", "FFMA", "FMNMX", "SHFL", "F2FP",
                "LDS", "STS", "BRA", "UTMALDG", "R2UR"):
        print(f"  {key:10} {sum(n for op, n in ops.items() if op.startswith(key))}")
