"""Tritium vs Triton on one config of tutorial 03's matmul
(bench/kernels/tutorials.py, fp16) over shapes that weigh the parts of a
tile differently: a short K makes the per-tile prologue and epilogue
dominate, a long K the main loop.  L2 flushed (do_bench).  Each of 10
rounds times both compilers, in an order that alternates between rounds
(the second of a pair runs on a warmer GPU); the ratio is the median of
the rounds' paired ratios.  Needs a GPU and Triton.

  python bench/tools/matmul_shapes.py [--config BM BN BK GROUP STAGES WARPS]
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

SHAPES = [(8192, 8192, 64), (8192, 8192, 512), (8192, 8192, 2048), (8192, 8192, 8192), (4096, 4096, 4096)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", nargs=6, type=int, default=(128, 256, 64, 8, 3, 8),
                        metavar=("BM", "BN", "BK", "GROUP", "STAGES", "WARPS"))
    bm, bn, bk, group, stages, warps = parser.parse_args().config

    import torch
    import triton
    import triton.language as tl

    import tritium
    import tritium.language as ttl
    from bench_timing import median_ms
    from kernel_sources import load_kernels

    kernels = {"tritium": load_kernels("tutorials.py", tritium, ttl, "tritium").matmul_kernel,
               "triton": load_kernels("tutorials.py", triton, tl, "triton").matmul_kernel}
    print(f"config {(bm, bn, bk, group, stages, warps)}")
    print(f"{'M N K':>18} {'tritium us':>11} {'triton us':>10} {'tritium/triton time':>20}")
    for M, N, K in SHAPES:
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        grid = (((M + bm - 1) // bm) * ((N + bn - 1) // bn),)
        runs = {}
        for name, kernel in kernels.items():
            c = torch.empty(M, N, device="cuda", dtype=torch.float16)

            def run(kernel=kernel, c=c):
                kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                             c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=group,
                             ACTIVATION="", num_stages=stages, num_warps=warps)
            run()
            torch.cuda.synchronize()
            ref = a.float() @ b.float()
            assert torch.allclose(c.float(), ref, atol=1e-1 * (K / 64) ** 0.5, rtol=1e-2), name
            runs[name] = run
        samples = {name: [] for name in runs}
        order = list(runs)
        for r in range(10):
            for name in (order if r % 2 == 0 else order[::-1]):
                samples[name].append(median_ms(runs[name], False) * 1e3)
        t = {name: statistics.median(v) for name, v in samples.items()}
        ratio = statistics.median(x / y for x, y in zip(samples["tritium"], samples["triton"]))
        print(f"{f'{M} {N} {K}':>18} {t['tritium']:11.1f} {t['triton']:10.1f} {ratio:20.3f}")


if __name__ == "__main__":
    main()
