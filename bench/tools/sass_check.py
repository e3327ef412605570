"""Tutorial 03's matmul (bench/kernels/tutorials.py, 128x256x64, 3 stages,
8 warps, fp16, contiguous rows) compiled by Tritium for cuda:90 and
cuda:80: writes OUT_DIR/matmul_cuda90.cubin and matmul_cuda80.cubin and
prints their counts of tensor-core and copy SASS instructions (HGMMA for
wgmma, HMMA for mma.sync, LDSM, LDGSTS, BAR; cuobjdump -sass), registers
and shared memory.  Compiling needs no GPU; cuobjdump comes with the CUDA
toolkit.

  python bench/tools/sass_check.py OUT_DIR
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

NAMES = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm",
         "stride_cn"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    args = parser.parse_args()
    if not shutil.which("cuobjdump"):
        sys.exit("sass_check.py: needs cuobjdump (CUDA toolkit) on PATH")

    import tritium
    import tritium.language as tl
    from kernel_sources import load_kernels

    kernel = load_kernels("tutorials.py", tritium, tl, "tritium").matmul_kernel
    signature = dict(zip(NAMES, ["*fp16"] * 3 + ["i32"] * 9))
    # what a launch with 16-divisible sizes and contiguous rows specializes
    attrs = {n: [["tt.divisibility", 16]] for n in ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am",
                                                   "stride_bk", "stride_cm"]}
    constexprs = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "ACTIVATION": "",
                  "stride_ak": 1, "stride_bn": 1, "stride_cn": 1}
    for target in ["cuda:90", "cuda:80"]:
        compiled = tritium.compile(kernel, signature=signature, constexprs=constexprs, attrs=attrs, target=target,
                                   num_warps=8, num_stages=3)
        path = os.path.join(args.out_dir, f"matmul_{target.replace(':', '')}.cubin")
        with open(path, "wb") as f:
            f.write(compiled.asm["cubin"])
        sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
        ops = collections.Counter(re.findall(r"\b(HGMMA|HMMA|LDSM|LDGSTS|BAR)\b", sass))
        print(target, dict(ops),
              f"registers {compiled.metadata.get('registers')}, shared {compiled.metadata.get('shared')}")


if __name__ == "__main__":
    main()
