"""The tensor-descriptor attention forward (bench/kernels/attention.py:
attn_fwd_tma) compiled by Tritium and by Triton for one config (fp16,
Z=4 H=32 N=4096): registers, shared memory and SASS instruction counts of
each (cuobjdump -sass), whole kernel and by opcode family; writes the
SASS, PTX and TTGIR listings of both to OUT_DIR.  Needs a GPU, Triton and
cuobjdump.

  python bench/tools/attention_sass.py OUT_DIR [--config BM BN STAGES WARPS D CAUSAL]
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
FAMILIES = ("HGMMA", "WARPGROUP", "BAR", "SYNCS", "MUFU", "FMUL", "FADD", "FFMA", "FMNMX", "SHFL", "F2FP", "LDS",
            "STS", "BRA", "UTMALDG", "R2UR")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--config", nargs=6, type=int, default=(128, 128, 3, 8, 128, 0),
                        metavar=("BM", "BN", "STAGES", "WARPS", "D", "CAUSAL"))
    args = parser.parse_args()
    if not shutil.which("cuobjdump"):
        sys.exit("attention_sass.py: needs cuobjdump (CUDA toolkit) on PATH")
    bm, bn, stages, warps, D, causal = args.config

    import torch
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor as TritonDescriptor

    import tritium
    import tritium.language as ttl
    from tritium.tools.tensor_descriptor import TensorDescriptor as TritiumDescriptor
    from kernel_sources import load_kernels

    Z, H, N = 4, 32, 4096
    q, k, v = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.empty_like(q)
    for name, compiler, language, descriptor in [("tritium", tritium, ttl, TritiumDescriptor),
                                                 ("triton", triton, tl, TritonDescriptor)]:
        kernels = load_kernels("attention.py", compiler, language, name)
        rows = lambda t, block: descriptor(t, [Z * H * N, D], [D, 1], [block, D])  # noqa: E731
        compiled = kernels.attn_fwd_tma[(N // bm, Z * H)](
            D ** -0.5, H, rows(q, bm), rows(k, bn), rows(v, bn), rows(o, bm), N_CTX=N, HEAD_DIM=D, BLOCK_M=bm,
            BLOCK_N=bn, STAGE=3 if causal else 1, num_stages=stages, num_warps=warps)
        torch.cuda.synchronize()
        path = os.path.join(args.out_dir, f"{name}.cubin")
        with open(path, "wb") as f:
            f.write(compiled.asm["cubin"])
        for stage in ("ptx", "ttgir"):
            with open(os.path.join(args.out_dir, f"{name}.{stage}"), "w") as f:
                f.write(compiled.asm[stage])
        sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
        with open(os.path.join(args.out_dir, f"{name}.sass"), "w") as f:
            f.write(sass)
        ops = collections.Counter(OPCODE.findall(sass))
        metadata = compiled.metadata
        shared = metadata.get("shared") if isinstance(metadata, dict) else getattr(metadata, "shared", None)
        print(f"{name}: registers {getattr(compiled, 'n_regs', None)} shared {shared} "
              f"instructions {sum(ops.values())}")
        for family in FAMILIES:
            print(f"  {family:10} {sum(n for op, n in ops.items() if op.startswith(family))}")


if __name__ == "__main__":
    main()
