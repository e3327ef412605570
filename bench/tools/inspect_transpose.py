import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch, triton, triton.language as tl
import tritium, tritium.language as ttl
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
from kernel_sources import load_kernels  # noqa: E402
out = os.environ.get("OUT", "/tmp")
m = 8192
src = torch.randn(m, m, device="cuda"); dst = torch.empty_like(src)
for name, tm, lm in (("triton", triton, tl), ("tritium", tritium, ttl)):
    k = load_kernels("elementwise_kernels.py", tm, lm, name)
    ck = k.transpose_kernel[(m // 64, m // 64)](src, dst, m, m, m, m, BLOCK_M=64, BLOCK_N=64)
    if ck is None:
        ck = k.transpose_kernel.warmup(src, dst, m, m, m, m, BLOCK_M=64, BLOCK_N=64, grid=(1,))
    for stage in ("ttgir", "ptx"):
        with open(os.path.join(out, f"{name}_transpose.{stage}"), "w") as f:
            f.write(ck.asm[stage])
    print(name, "shared", getattr(ck.metadata, "shared", None) if not isinstance(ck.metadata, dict) else ck.metadata.get("shared"))
