"""Writes the cubin of the tutorial matmul (bench/matmul_kernels.py) for the
device's own target and prints its tensor-core SASS instruction counts
(cuobjdump -sass on the GPU machine): HGMMA for wgmma, HMMA for mma.sync.
Usage: python bench/tools/sass_check.py OUT_DIR"""
import collections
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

import tritium  # noqa: E402
import tritium.language as tl  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "."
k = load_kernels("matmul_kernels.py", tritium, tl, "sass")
names = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm",
         "stride_cn"]
signature = dict(zip(names, ["*fp16"] * 3 + ["i32"] * 9))
attrs = {n: [["tt.divisibility", 16]] for n in ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk",
                                               "stride_cm"]}
constexprs = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "stride_ak": 1,
              "stride_bn": 1, "stride_cn": 1}
for target in ["cuda:90", "cuda:80"]:
    compiled = tritium.compile(k.matmul_kernel, signature=signature, constexprs=constexprs, attrs=attrs,
                               target=target, num_warps=8, num_stages=3)
    path = os.path.join(out, f"matmul_{target.replace(':', '')}.cubin")
    with open(path, "wb") as f:
        f.write(compiled.asm["cubin"])
    sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
    ops = collections.Counter(m.group(1) for m in re.finditer(r"\b(HGMMA|HMMA|LDSM|LDGSTS|BAR)\b", sass))
    print(target, dict(ops), f"registers {compiled.metadata.get('registers')}, shared {compiled.metadata.get('shared')}")
