"""Dumps both compilers' TTGIR and PTX of tutorial 05's layer norm forward
(fp16, 8192 x 4096, the bench's launch) into $OUT, with register counts, for
comparing what each generates.  Runs on the GPU machine:
    python3 bench/tools/inspect_layernorm.py"""
import os
import sys
import types

sys.path.insert(0, os.path.join(os.getcwd(), "python"))
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402

HERE = os.path.join(os.getcwd(), "bench")


def load(tm, lm, tag):
    path = os.path.join(HERE, "reduction_kernels.py")
    m = types.ModuleType("rk_" + tag)
    m.__file__ = path
    m.triton, m.tl = tm, lm
    sys.modules[m.__name__] = m
    exec(compile(open(path).read(), path, "exec"), m.__dict__)
    return m


out = os.environ.get("OUT", "/tmp")
M, N = 8192, 4096
x = torch.randn(M, N, device="cuda", dtype=torch.float16)
w = torch.randn(N, device="cuda", dtype=torch.float16)
b = torch.randn(N, device="cuda", dtype=torch.float16)
y = torch.empty_like(x)
mean = torch.empty(M, device="cuda")
rstd = torch.empty(M, device="cuda")
for name, tm, lm in (("triton", triton, tl), ("tritium", tritium, ttl)):
    k = load(tm, lm, name)
    ck = k._layer_norm_fwd_fused[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5, BLOCK_SIZE=4096,
                                        num_warps=8)
    for stage in ("ttgir", "ptx"):
        with open(os.path.join(out, f"{name}_layernorm.{stage}"), "w") as f:
            f.write(ck.asm[stage])
    meta = ck.metadata
    get = meta.get if isinstance(meta, dict) else (lambda key: getattr(meta, key, None))
    print(name, "registers", getattr(ck, "n_regs", None) or get("registers"), "shared", get("shared"))
