"""How close the 8192^2 fp32 transpose of bench_elementwise.py is to what
the H100 gives the same traffic without the transposition, on the GPU
machine.  Tritium and Triton compile the same sources; every row moves
2 x 4 x 8192^2 bytes (one read and one write per element):

  transpose 64x64          the benchmark's kernel and launch
  transpose BMxBN, w warps other tiles of the same kernel
  tile copy 64x64          the same tiles, stored untransposed
  flat copy 4096           a 1-D copy
  torch copy_              contiguous copy (and torch's transposed copy)

All rows are timed in interleaved rounds (bench_timing); each is checked
against torch first.
Usage: python bench/tools/transpose_ceiling.py [--quick]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

import torch  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from bench_timing import interleaved_rounds  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

try:
    import triton
    import triton.language as tl
except ImportError:
    triton = None

QUICK = "--quick" in sys.argv
ROUNDS = 7
M = 8192
TRANSPOSE_TILES = ((64, 64, 4), (32, 32, 4), (64, 128, 4), (128, 64, 8), (128, 128, 8))


def main():
    backends = {"tritium": (tritium, ttl)}
    if triton is not None:
        backends["triton"] = (triton, tl)
    src = torch.randn(M, M, device="cuda")
    dst = torch.empty_like(src)
    fns, checks = {}, {}
    for name, (module, language) in backends.items():
        elementwise = load_kernels("elementwise_kernels.py", module, language, name)
        copies = load_kernels("tile_copy_kernels.py", module, language, name)
        for bm, bn, warps in TRANSPOSE_TILES:
            def launch(k=elementwise, bm=bm, bn=bn, warps=warps):
                k.transpose_kernel[(M // bm, M // bn)](src, dst, M, M, M, M, BLOCK_M=bm, BLOCK_N=bn,
                                                      num_warps=warps)
            label = f"{name}: transpose {bm}x{bn}, {warps} warps"
            fns[label], checks[label] = launch, lambda: torch.equal(dst, src.t())
        fns[f"{name}: tile copy 64x64"] = lambda k=copies: k.tile_copy_kernel[(M // 64, M // 64)](
            src, dst, M, M, M, M, BLOCK_M=64, BLOCK_N=64)
        fns[f"{name}: flat copy 4096"] = lambda k=copies: k.flat_copy_kernel[(M * M // 4096,)](
            src, dst, M * M, BLOCK=4096)
        checks[f"{name}: tile copy 64x64"] = checks[f"{name}: flat copy 4096"] = lambda: torch.equal(dst, src)
    fns["torch: copy_"], checks["torch: copy_"] = (lambda: dst.copy_(src)), (lambda: torch.equal(dst, src))
    fns["torch: copy_ of src.t()"] = lambda: dst.copy_(src.t())
    checks["torch: copy_ of src.t()"] = lambda: torch.equal(dst, src.t())
    for label, fn in fns.items():
        dst.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        if not checks[label]():
            print(f"{label}: WRONG result")
    samples = interleaved_rounds(fns, 2 * 4 * M * M, QUICK, ROUNDS)
    rounds = len(next(iter(samples.values())))
    print(f"GPU: {torch.cuda.get_device_name()}; GB/s, median of {rounds} interleaved rounds (min-max)")
    for label, values in samples.items():
        print(f"  {label:36} {values[rounds // 2]:8.1f}  ({values[0]:.1f}-{values[-1]:.1f})")


if __name__ == "__main__":
    main()
