"""The attention backward (bench/kernels/attention_bwd.py: attn_bwd)
compiled by Tritium and by Triton for one config (fp16, Z=4 H=32
N=4096): registers, spills, shared memory, instruction count and, for
each loop of the SASS (a backward branch over more than 0x400 bytes), its
instruction counts by opcode (cuobjdump -sass); writes the SASS and TTGIR
listings of both to OUT_DIR.  Needs a GPU, Triton and cuobjdump.

  python bench/tools/attention_bwd_sass.py OUT_DIR
      [--config BM1 BN1 BM2 BN2 STAGES WARPS D CAUSAL]
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

INSTRUCTION = re.compile(r"/\*([0-9a-f]{4})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--config", nargs=8, type=int, default=(64, 128, 128, 64, 3, 8, 128, 0),
                        metavar=("BM1", "BN1", "BM2", "BN2", "STAGES", "WARPS", "D", "CAUSAL"))
    args = parser.parse_args()
    if not shutil.which("cuobjdump"):
        sys.exit("attention_bwd_sass.py: needs cuobjdump (CUDA toolkit) on PATH")
    bm1, bn1, bm2, bn2, stages, warps, D, causal = args.config

    import torch
    import triton
    import triton.language as tl

    import tritium
    import tritium.language as ttl
    from kernel_sources import load_kernels

    Z, H, N = 4, 32, 4096
    q, k, v, do = (torch.randn(Z, H, N, D, device="cuda", dtype=torch.float16) for _ in range(4))
    m = torch.zeros(Z, H, N, device="cuda")
    delta = torch.zeros_like(m)
    for name, compiler, language in [("tritium", tritium, ttl), ("triton", triton, tl)]:
        kernels = load_kernels("attention_bwd.py", compiler, language, name)
        grads = [torch.empty_like(q) for _ in range(3)]
        compiled = kernels.attn_bwd[(N // bn1, 1, Z * H)](
            q, k, v, D ** -0.5, do, *grads, m, delta, q.stride(0), q.stride(1), q.stride(2), H, N, BLOCK_M1=bm1,
            BLOCK_N1=bn1, BLOCK_M2=bm2, BLOCK_N2=bn2, BLK_SLICE_FACTOR=2, HEAD_DIM=D, CAUSAL=bool(causal),
            num_warps=warps, num_stages=stages)
        torch.cuda.synchronize()
        path = os.path.join(args.out_dir, f"{name}.cubin")
        with open(path, "wb") as f:
            f.write(compiled.asm["cubin"])
        with open(os.path.join(args.out_dir, f"{name}.ttgir"), "w") as f:
            f.write(compiled.asm["ttgir"])
        sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
        os.remove(path)
        with open(os.path.join(args.out_dir, f"{name}.sass"), "w") as f:
            f.write(sass)
        found = list(INSTRUCTION.finditer(sass))
        code = [(int(match.group(1), 16), match.group(3)) for match in found]
        metadata = compiled.metadata
        shared = metadata.get("shared") if isinstance(metadata, dict) else getattr(metadata, "shared", None)
        print(f"{name}: registers {getattr(compiled, 'n_regs', None)} spills {getattr(compiled, 'n_spills', None)} "
              f"shared {shared} instructions {len(code)}")
        for match in found:
            if not match.group(3).startswith("BRA"):
                continue
            target = re.search(r"0x([0-9a-f]+)", match.group(4))
            address = int(match.group(1), 16)
            start = int(target.group(1), 16) if target else None
            if start is not None and start < address and address - start > 0x400:
                body = collections.Counter(op.split(".")[0] for at, op in code if start <= at <= address)
                print(f"  loop {start:#x}-{address:#x}: {sum(body.values())} instructions:",
                      ", ".join(f"{op} {n}" for op, n in body.most_common(22)))


if __name__ == "__main__":
    main()
