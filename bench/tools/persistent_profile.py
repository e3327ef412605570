"""One persistent-matmul kernel of bench_persistent_matmul (tutorial 09 on
host tensor descriptors) with one compiler, one size and config, for the
profilers and for reading its SASS:

  python bench/tools/persistent_profile.py COMPILER KERNEL SIZE BM BN BK STAGES WARPS [--dump DIR] [--loop S] [--k K]
      [--programs P]

It launches the kernel twice and checks the result against torch.matmul (so
`ncu --launch-skip 1 --launch-count 1 ...` reads a warm launch).  --dump DIR
writes DIR/COMPILER_KERNEL_STAGES.cubin, .sass (cuobjdump -sass), .ptx and
.ttgir.  --loop S
then launches it back to back for S seconds and prints the TFLOP/s of that
stretch, so that a sampler of clocks and power (nvidia-smi -lms) running
beside it sees the kernel's steady state.  Each run compiles afresh (its
own cache directories, unless TRITIUM_CACHE_DIR / TRITON_CACHE_DIR are
set), so that runs under different TRITIUM_LIBRARY builds never share a
cubin.  --k K makes the reduction K long instead of SIZE (M = N = SIZE):
a short K makes the tile transitions a larger share of the time.
--programs P runs the persistent kernels on P programs instead of one per
SM: with half the SMs the board stays under its power cap, so both
compilers' kernels run at the top clock and the power each draws for the
same work can be compared.
"""
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TRITIUM_CACHE_DIR", tempfile.mkdtemp(prefix="tritium-cache-"))
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

import torch  # noqa: E402

from kernel_sources import load_kernels  # noqa: E402

args = [a for a in sys.argv[1:]]
dump = loop = k_size = programs = None
if "--dump" in args:
    i = args.index("--dump")
    dump = args[i + 1]
    del args[i:i + 2]
if "--loop" in args:
    i = args.index("--loop")
    loop = float(args[i + 1])
    del args[i:i + 2]
if "--k" in args:
    i = args.index("--k")
    k_size = int(args[i + 1])
    del args[i:i + 2]
if "--programs" in args:
    i = args.index("--programs")
    programs = int(args[i + 1])
    del args[i:i + 2]
which, kernel_name = args[0], args[1]
size = int(args[2])
k_size = k_size or size
bm, bn, bk, stages, warps = (int(v) for v in args[3:8])
if which == "tritium":
    import tritium as compiler
    import tritium.language as language
    from tritium.tools.tensor_descriptor import TensorDescriptor
else:
    import triton as compiler
    import triton.language as language
    from triton.tools.tensor_descriptor import TensorDescriptor
kernel = getattr(load_kernels("persistent_matmul_kernels.py", compiler, language, which), kernel_name)
num_sms = programs or torch.cuda.get_device_properties(0).multi_processor_count
torch.manual_seed(0)
a = torch.randn(size, k_size, device="cuda", dtype=torch.float16)
b = torch.randn(size, k_size, device="cuda", dtype=torch.float16)  # N x K
c = torch.empty(size, size, device="cuda", dtype=torch.float16)
descs = (TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bn, bk]),
         TensorDescriptor.from_tensor(c, [bm, bn]))
tiles = ((size + bm - 1) // bm) * ((size + bn - 1) // bn)
extra = {}
if kernel_name.startswith("matmul_tma_persistent"):
    grid = (min(num_sms, tiles),)
    extra["NUM_SMS"] = num_sms
else:
    grid = (tiles,)


def launch():
    return kernel[grid](*descs, size, size, k_size, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8,
                        num_stages=stages, num_warps=warps, **extra)


for _ in range(2):
    compiled = launch()
torch.cuda.synchronize()
err = (c.float() - (a @ b.T).float()).abs().max().item()
print(f"{which} {kernel_name} {size}x{size}x{k_size} {(bm, bn, bk, stages, warps)}: max |error| vs torch.matmul {err:.3g}")
if dump:
    os.makedirs(dump, exist_ok=True)
    stem = os.path.join(dump, f"{which}_{kernel_name}_{stages}")
    with open(stem + ".cubin", "wb") as f:
        f.write(compiled.asm["cubin"])
    with open(stem + ".sass", "w") as f:
        f.write(subprocess.run(["cuobjdump", "-sass", stem + ".cubin"], capture_output=True, text=True).stdout)
    for stage in ("ptx", "ttgir"):
        with open(f"{stem}.{stage}", "w") as f:
            f.write(compiled.asm[stage])
if loop:
    count, start = 0, time.perf_counter()
    torch.cuda.synchronize()
    while time.perf_counter() - start < loop:
        for _ in range(20):
            launch()
        count += 20
        torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    print(f"{which} {kernel_name} loop: {count} launches in {seconds:.2f} s, "
          f"{2 * size * size * k_size * count / seconds / 1e12:.1f} TFLOP/s")
