"""Launches tutorial 03's matmul (bench/kernels/tutorials.py, bench_matmul's
kernel) twice with one compiler, for one size and config, so that a
profiler can read the second launch:

  ncu --clock-control none --launch-skip 1 --launch-count 1 \\
      --section SpeedOfLight --section MemoryWorkloadAnalysis \\
      --section WarpStateStats --section SchedulerStats \\
      python bench/tools/matmul_profile.py tritium 8192 128 256 64 8 3 8

Arguments: compiler (tritium or triton), size (M = N = K), then BM BN BK
GROUP_SIZE_M num_stages num_warps; fp16 inputs, fp32 accumulation.  The
result is checked against torch.matmul.  Needs a GPU.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("compiler", choices=["tritium", "triton"])
    parser.add_argument("size", type=int)
    for name in ("BM", "BN", "BK", "GROUP", "STAGES", "WARPS"):
        parser.add_argument(name, type=int)
    args = parser.parse_args()
    config = bm, bn, bk, group, stages, warps = args.BM, args.BN, args.BK, args.GROUP, args.STAGES, args.WARPS
    size = args.size

    import torch

    from kernel_sources import load_kernels
    if args.compiler == "tritium":
        import tritium as compiler
        import tritium.language as language
    else:
        import triton as compiler
        import triton.language as language
    kernel = load_kernels("tutorials.py", compiler, language, args.compiler).matmul_kernel
    torch.manual_seed(0)
    a = torch.randn(size, size, device="cuda", dtype=torch.float16)
    b = torch.randn(size, size, device="cuda", dtype=torch.float16)
    c = torch.empty(size, size, device="cuda", dtype=torch.float16)
    grid = (((size + bm - 1) // bm) * ((size + bn - 1) // bn),)
    for _ in range(2):
        kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                     c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=group,
                     ACTIVATION="", num_stages=stages, num_warps=warps)
    torch.cuda.synchronize()
    err = (c.float() - (a @ b).float()).abs().max().item()
    print(f"{args.compiler} {size}^3 {config}: max |error| vs torch.matmul {err:.3g}")


if __name__ == "__main__":
    main()
