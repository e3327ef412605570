"""Dumps both compilers' TTGIR and PTX of bench_reductions.py's kernels, as
the bench launches them, into $OUT (<compiler>_<case>.ttgir/.ptx), and prints
their register counts and instruction mixes, for comparing what each
generates.  Runs on the GPU machine:
    python3 bench/tools/inspect_reductions.py"""
import collections
import re
import os
import sys

sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402

sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
from kernel_sources import load_kernels  # noqa: E402


out = os.environ.get("OUT", "/tmp")
M, N = 8192, 4096


def cases(k):
    """(name, launch) for each kernel, launched as bench_reductions.py does."""
    x16 = torch.randn(M, N, device="cuda", dtype=torch.float16)
    w, b = torch.randn(N, device="cuda", dtype=torch.float16), torch.randn(N, device="cuda", dtype=torch.float16)
    mean, rstd = torch.empty(M, device="cuda"), torch.empty(M, device="cuda")
    xb = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    x32 = torch.randn(M, N, device="cuda")
    idx = torch.empty(M, device="cuda", dtype=torch.int32)
    yield "layernorm", lambda: k._layer_norm_fwd_fused[(M,)](x16, torch.empty_like(x16), w, b, mean, rstd,
                                                             x16.stride(0), N, 1e-5, BLOCK_SIZE=4096, num_warps=8)
    yield "softmax_bf16", lambda: k.softmax_kernel_fp32_math[(M,)](torch.empty_like(xb), xb, xb.stride(0), N, M, N,
                                                                   BLOCK_SIZE=4096, num_stages=4, num_warps=16)
    yield "argmax", lambda: k.argmax_rows_kernel[(M,)](x32, idx, N, x32.stride(0), BLOCK_SIZE=N, num_warps=8)


for name, tm, lm in (("triton", triton, tl), ("tritium", tritium, ttl)):
    k = load_kernels("reduction_kernels.py", tm, lm, name)
    for case, launch in cases(k):
        ck = launch()
        for stage in ("ttgir", "ptx"):
            with open(os.path.join(out, f"{name}_{case}.{stage}"), "w") as f:
                f.write(ck.asm[stage])
        meta = ck.metadata
        get = meta.get if isinstance(meta, dict) else (lambda key: getattr(meta, key, None))
        ops = collections.Counter(re.findall(r"^\s*(?:@!?%p\d+\s+)?([a-z]+(?:\.[a-z0-9]+)*)", ck.asm["ptx"], re.M))
        print(f"{name:8s} {case:13s} registers {getattr(ck, 'n_regs', None) or get('registers')} "
              f"shared {get('shared')} instructions {sum(ops.values())}: {ops.most_common(12)}")
