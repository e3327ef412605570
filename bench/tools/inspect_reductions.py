"""Both compilers' TTGIR and PTX of bench_reductions.py's layer norm (fp16),
bf16 softmax (fp32 math) and argmax kernels (bench/kernels/tutorials.py,
bench/kernels/reductions.py), launched at 8192 x 4096 as the bench
launches them: writes OUT_DIR/<compiler>_<case>.ttgir and .ptx and prints
each kernel's registers, shared memory and most frequent PTX
instructions.  Needs a GPU and Triton.

  python bench/tools/inspect_reductions.py [OUT_DIR]   (default: $OUT or /tmp)
"""
import argparse
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

M, N = 8192, 4096


def cases(k, torch):
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", default=os.environ.get("OUT", "/tmp"))
    out = parser.parse_args().out_dir

    import torch
    import triton
    import triton.language as tl

    import tritium
    import tritium.language as ttl
    from kernel_sources import load_kernels

    for name, compiler, language in (("triton", triton, tl), ("tritium", tritium, ttl)):
        k = load_kernels(("tutorials.py", "reductions.py"), compiler, language, name)
        for case, launch in cases(k, torch):
            compiled = launch()
            for stage in ("ttgir", "ptx"):
                with open(os.path.join(out, f"{name}_{case}.{stage}"), "w") as f:
                    f.write(compiled.asm[stage])
            meta = compiled.metadata
            get = meta.get if isinstance(meta, dict) else (lambda key: getattr(meta, key, None))
            ops = collections.Counter(re.findall(r"^\s*(?:@!?%p\d+\s+)?([a-z]+(?:\.[a-z0-9]+)*)",
                                                 compiled.asm["ptx"], re.M))
            print(f"{name:8s} {case:13s} registers {getattr(compiled, 'n_regs', None) or get('registers')} "
                  f"shared {get('shared')} instructions {sum(ops.values())}: {ops.most_common(12)}")


if __name__ == "__main__":
    main()
