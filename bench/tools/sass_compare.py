"""Tutorial 03's matmul (bench/kernels/tutorials.py) compiled by Tritium and
by Triton for one config at 4096^3 fp16, side by side: registers, shared
memory and the SASS instructions whose counts differ (cuobjdump -sass).
Writes both cubins and SASS listings to OUT_DIR.  Needs a GPU, Triton and
the CUDA toolkit's cuobjdump.

  python bench/tools/sass_compare.py OUT_DIR [--config BM BN BK STAGES WARPS]
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

OPCODE = re.compile(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)")


def metadata_value(compiled, key):
    metadata = compiled.metadata
    return metadata.get(key) if isinstance(metadata, dict) else getattr(metadata, key, None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--config", nargs=5, type=int, default=(128, 256, 64, 3, 8),
                        metavar=("BM", "BN", "BK", "STAGES", "WARPS"))
    args = parser.parse_args()
    if not shutil.which("cuobjdump"):
        sys.exit("sass_compare.py: needs cuobjdump (CUDA toolkit) on PATH")
    bm, bn, bk, stages, warps = args.config

    import torch
    import triton
    import triton.language as tl

    import tritium
    import tritium.language as ttl
    from kernel_sources import load_kernels

    M = N = K = 4096
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    counts = {}
    for name, compiler, language in [("tritium", tritium, ttl), ("triton", triton, tl)]:
        kernel = load_kernels("tutorials.py", compiler, language, name).matmul_kernel
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        grid = ((M // bm) * (N // bn),)
        compiled = kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                                GROUP_SIZE_M=8, ACTIVATION="", num_stages=stages, num_warps=warps)
        path = os.path.join(args.out_dir, f"{name}.cubin")
        with open(path, "wb") as f:
            f.write(compiled.asm["cubin"])
        sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
        with open(os.path.join(args.out_dir, f"{name}.sass"), "w") as f:
            f.write(sass)
        counts[name] = collections.Counter(OPCODE.findall(sass))
        print(f"{name}: registers {getattr(compiled, 'n_regs', None)}, shared {metadata_value(compiled, 'shared')}")
    print(f"{'op':14} {'tritium':>8} {'triton':>8}")
    for op in sorted(set(counts["tritium"]) | set(counts["triton"])):
        ours, theirs = counts["tritium"].get(op, 0), counts["triton"].get(op, 0)
        if ours != theirs:
            print(f"{op:14} {ours:8} {theirs:8}")
    print(f"{'total':14} {sum(counts['tritium'].values()):8} {sum(counts['triton'].values()):8}")


if __name__ == "__main__":
    main()
