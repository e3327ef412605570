"""One tensor-descriptor matmul of bench_persistent_matmul
(bench/kernels/persistent_matmul.py: tutorial 09's kernels on host
descriptors, fp16, B stored N x K) with one compiler, one size and one
config, for profilers and for reading its SASS.  Needs a GPU.

  python bench/tools/persistent_profile.py COMPILER KERNEL SIZE BM BN BK STAGES WARPS
      [--dump DIR] [--loop S] [--k K] [--programs P]

It launches the kernel twice and checks the result against torch.matmul
(so `ncu --launch-skip 1 --launch-count 1 ...` reads a warm launch).
--dump DIR writes DIR/COMPILER_KERNEL_STAGES.cubin, .sass (cuobjdump
-sass), .ptx and .ttgir.  --loop S then launches it back to back for S
seconds and prints the TFLOP/s of that stretch, so that a sampler of
clocks and power (nvidia-smi -lms) running beside it sees the kernel's
steady state.  Each run compiles afresh (its own cache directories, unless
TRITIUM_CACHE_DIR / TRITON_CACHE_DIR are set), so that runs under
different TRITIUM_LIBRARY builds never share a cubin.  --k K makes the
reduction K long instead of SIZE (M = N = SIZE): a short K makes the tile
transitions a larger share of the time.  --programs P runs the persistent
kernels on P programs instead of one per SM: with half the SMs the board
stays under its power cap, so both compilers' kernels run at the top
clock and the power each draws for the same work can be compared.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

KERNELS = ["matmul_tma", "matmul_tma_persistent", "matmul_tma_persistent_ws"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 2)[2])
    parser.add_argument("compiler", choices=["tritium", "triton"])
    parser.add_argument("kernel", choices=KERNELS)
    parser.add_argument("size", type=int, help="M = N (and K unless --k)")
    for name in ("BM", "BN", "BK", "STAGES", "WARPS"):
        parser.add_argument(name, type=int)
    parser.add_argument("--dump", metavar="DIR")
    parser.add_argument("--loop", type=float, metavar="S")
    parser.add_argument("--k", type=int, dest="k_size", metavar="K")
    parser.add_argument("--programs", type=int, metavar="P")
    args = parser.parse_args()
    config = bm, bn, bk, stages, warps = args.BM, args.BN, args.BK, args.STAGES, args.WARPS
    size, k_size, which, kernel_name = args.size, args.k_size or args.size, args.compiler, args.kernel
    os.environ.setdefault("TRITIUM_CACHE_DIR", tempfile.mkdtemp(prefix="tritium-cache-"))
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))

    import torch

    from kernel_sources import load_kernels
    if which == "tritium":
        import tritium as compiler
        import tritium.language as language
        from tritium.tools.tensor_descriptor import TensorDescriptor
    else:
        import triton as compiler
        import triton.language as language
        from triton.tools.tensor_descriptor import TensorDescriptor
    kernel = getattr(load_kernels("persistent_matmul.py", compiler, language, which), kernel_name)
    num_sms = args.programs or torch.cuda.get_device_properties(0).multi_processor_count
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
        return kernel[grid](*descs, size, size, k_size, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                            GROUP_SIZE_M=8, num_stages=stages, num_warps=warps, **extra)

    for _ in range(2):
        compiled = launch()
    torch.cuda.synchronize()
    err = (c.float() - (a @ b.T).float()).abs().max().item()
    print(f"{which} {kernel_name} {size}x{size}x{k_size} {config}: "
          f"max |error| vs torch.matmul {err:.3g}")
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
        stem = os.path.join(args.dump, f"{which}_{kernel_name}_{stages}")
        with open(stem + ".cubin", "wb") as f:
            f.write(compiled.asm["cubin"])
        with open(stem + ".sass", "w") as f:
            f.write(subprocess.run(["cuobjdump", "-sass", stem + ".cubin"], capture_output=True, text=True).stdout)
        for stage in ("ptx", "ttgir"):
            with open(f"{stem}.{stage}", "w") as f:
                f.write(compiled.asm[stage])
    if args.loop:
        count, start = 0, time.perf_counter()
        torch.cuda.synchronize()
        while time.perf_counter() - start < args.loop:
            for _ in range(20):
                launch()
            count += 20
            torch.cuda.synchronize()
        seconds = time.perf_counter() - start
        print(f"{which} {kernel_name} loop: {count} launches in {seconds:.2f} s, "
              f"{2 * size * size * k_size * count / seconds / 1e12:.1f} TFLOP/s")


if __name__ == "__main__":
    main()
