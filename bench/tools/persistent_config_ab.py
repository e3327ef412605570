"""Tutorial 09's persistent TMA matmul at one size, timed per process with
fixed configs: Tritium's (128, 256, 64) at 3 and 4 stages against Triton's
at 3 stages, 8 warps, in 7 rounds whose order rotates (do_bench medians,
L2 flushed), medians printed in TFLOP/s.  Run it once per native library
(TRITIUM_LIBRARY=...) and several times each: the spread between processes
(Triton's own figure moves by up to 3%) is the noise an A/B of two
libraries has to beat.  TAG labels the output line.
SHARED_C=1 makes every kernel write the same output tensor (by default each
has its own).  EXTRA="BM,BN,BK,STAGES,WARPS;..." times those configs too,
under both compilers.
Usage: TAG=new TRITIUM_LIBRARY=lib.so python bench/tools/persistent_config_ab.py [SIZE]
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from bench_setup import HAVE_TRITON, TritonDescriptor, tl, triton  # noqa: E402 - first: the path, fresh caches

import torch  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from tritium.tools.tensor_descriptor import TensorDescriptor as TritiumDescriptor  # noqa: E402
from bench_timing import median_ms  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

NUM_SMS = torch.cuda.get_device_properties(0).multi_processor_count
SIZE = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
a = torch.randn(SIZE, SIZE, device="cuda", dtype=torch.float16)
b = torch.randn(SIZE, SIZE, device="cuda", dtype=torch.float16)
want = torch.matmul(a, b.T).float()


SHARED_C = os.environ.get("SHARED_C") == "1"  # one output tensor for every kernel, else one each
c_shared = torch.empty(SIZE, SIZE, device="cuda", dtype=torch.float16)


def launcher(module, descriptor, config):
    bm, bn, bk, stages, warps = config
    c = c_shared if SHARED_C else torch.empty(SIZE, SIZE, device="cuda", dtype=torch.float16)
    ad, bd, cd = descriptor.from_tensor(a, [bm, bk]), descriptor.from_tensor(b, [bn, bk]), \
        descriptor.from_tensor(c, [bm, bn])
    grid = (min(NUM_SMS, (SIZE // bm) * (SIZE // bn)),)

    def fn():
        module.matmul_tma_persistent[grid](ad, bd, cd, SIZE, SIZE, SIZE, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                                           BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, NUM_SMS=NUM_SMS, num_stages=stages,
                                           num_warps=warps)
    fn()
    torch.cuda.synchronize()
    error = (c.float() - want).abs().max().item()
    assert error < 0.02 * want.abs().max().item(), f"{config}: max error {error}"
    return fn


ours = load_kernels("persistent_matmul_kernels.py", tritium, ttl, "tritium")
fns = {"tritium 3 stages": launcher(ours, TritiumDescriptor, (128, 256, 64, 3, 8)),
       "tritium 4 stages": launcher(ours, TritiumDescriptor, (128, 256, 64, 4, 8))}
if HAVE_TRITON:
    theirs = load_kernels("persistent_matmul_kernels.py", triton, tl, "triton")
    fns["triton 3 stages"] = launcher(theirs, TritonDescriptor, (128, 256, 64, 3, 8))
for extra in filter(None, os.environ.get("EXTRA", "").split(";")):
    config = tuple(int(v) for v in extra.split(","))
    fns[f"tritium {config}"] = launcher(ours, TritiumDescriptor, config)
    if HAVE_TRITON:
        try:
            fns[f"triton {config}"] = launcher(theirs, TritonDescriptor, config)
        except Exception as e:  # noqa: BLE001 - a config Triton cannot build is said so
            print(f"triton {config}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")
names = list(fns)
tflops = {n: [] for n in names}
for r in range(7):
    for n in names[r % len(names):] + names[:r % len(names)]:
        tflops[n].append(2 * SIZE ** 3 / median_ms(fns[n], False) * 1e-9)
line = " ".join(f"{n}: {statistics.median(v):.1f}" for n, v in tflops.items())
if HAVE_TRITON:
    line += f" ratio(3 stages)={statistics.median(tflops['tritium 3 stages']) / statistics.median(tflops['triton 3 stages']):.3f}"
print(os.environ.get("TAG", ""), SIZE, line)
