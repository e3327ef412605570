"""Tutorial 03's matmul (bench/kernels/tutorials.py) timed under Triton, under
Tritium, and under Tritium with at most k CTAs an SM, config by config, in
one process on one GPU: how much of a gap is occupancy.

    python3 bench/tools/matmul_occupancy.py [--sizes 4096,8192] [--dtypes fp16,bf16]
        [--config BM,BN,BK,GROUP,STAGES,WARPS ...] [--ctas 1,2,3]

The cap is made by launching Tritium's kernel with more dynamic shared memory
than it uses (the SM's shared memory divided by k, less the per-CTA
reservation), so that the same cubin runs with at most k CTAs an SM; a cap
at or above the kernel's own occupancy is skipped.  Tritium's launcher is
wrapped for this (its `shared` field), which only this tool does.  Each line
gives TFLOP/s and each Tritium row's ratio to Triton; results are checked
against an fp32 torch.matmul.  Needs a GPU, torch and triton.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

SM_SHARED = 233472  # bytes of shared memory an H100/H200 SM gives its CTAs
CTA_RESERVED = 1024  # bytes the driver reserves for each CTA

DEFAULT_CONFIGS = [(128, 128, 32, 8, 4, 4), (128, 128, 32, 8, 3, 4), (128, 128, 64, 8, 3, 4),
                   (64, 128, 32, 8, 4, 4), (128, 64, 32, 8, 4, 4), (128, 128, 32, 8, 4, 8)]


class SharedPadding:
    """Wraps tritium's Launcher so that launchers made while `bytes` is set
    ask for at least that much shared memory; `used` is the last launcher's
    own figure."""

    def __init__(self):
        from tritium.runtime import launcher
        self.bytes, self.used = 0, 0
        original = launcher.Launcher.__init__

        def init(launcher_self, *args, **kwargs):
            original(launcher_self, *args, **kwargs)
            self.used = launcher_self.shared
            if self.bytes:
                launcher_self.shared = max(launcher_self.shared, self.bytes)

        launcher.Launcher.__init__ = init


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--sizes", default="4096")
    parser.add_argument("--dtypes", default="fp16,bf16")
    parser.add_argument("--config", action="append", default=[])
    parser.add_argument("--ctas", default="1,2,3")
    args = parser.parse_args()
    configs = [tuple(int(x) for x in c.split(",")) for c in args.config] or DEFAULT_CONFIGS
    if any(len(c) != 6 for c in configs):
        parser.error("a --config is BM,BN,BK,GROUP,STAGES,WARPS")

    import torch
    import triton
    import triton.language as triton_language
    from triton.testing import do_bench

    import tritium
    import tritium.language as tritium_language
    from kernel_sources import load_kernels

    padding = SharedPadding()
    dtypes = {"fp16": torch.float16, "bf16": torch.bfloat16}
    for dtype_name in args.dtypes.split(","):
        for size in (int(s) for s in args.sizes.split(",")):
            torch.manual_seed(0)
            a = torch.randn(size, size, device="cuda", dtype=dtypes[dtype_name])
            b = torch.randn(size, size, device="cuda", dtype=dtypes[dtype_name])
            reference = a.float() @ b.float()
            scale = reference.abs().max().item()
            for config in configs:
                bm, bn, bk, group, stages, warps = config
                grid = (((size + bm - 1) // bm) * ((size + bn - 1) // bn),)
                figures = {}

                def timed(name, compiler, language, pad):
                    # a module of its own per row: its own JIT cache, so its own launcher
                    tag = f"{name}_{dtype_name}_{size}".replace("<=", "le")
                    kernel = load_kernels("tutorials.py", compiler, language, tag).matmul_kernel
                    c = torch.empty(size, size, device="cuda", dtype=a.dtype)

                    def launch():
                        kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0),
                                     b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                                     BLOCK_SIZE_K=bk, GROUP_SIZE_M=group, ACTIVATION="", num_stages=stages,
                                     num_warps=warps)

                    padding.bytes = pad
                    launch()
                    torch.cuda.synchronize()
                    padding.bytes = 0
                    error = (c.float() - reference).abs().max().item() / scale
                    if error > 1e-2:
                        raise SystemExit(f"{name} {config}: relative error {error:.3g} against torch")
                    figures[name] = 2 * size ** 3 / do_bench(launch, warmup=50, rep=300) * 1e-9

                timed("triton", triton, triton_language, 0)
                timed("tritium", tritium, tritium_language, 0)
                used = padding.used
                for k in (int(x) for x in args.ctas.split(",")):
                    pad = SM_SHARED // k - CTA_RESERVED - 64
                    if pad > used and SM_SHARED // (pad + CTA_RESERVED) == k and k * warps * 32 <= 2048:
                        timed(f"ctas<={k}", tritium, tritium_language, pad)
                cells = " ".join(f"{name} {value:6.1f}" for name, value in figures.items())
                ratios = " ".join(f"{name} {value / figures['triton']:.3f}"
                                  for name, value in figures.items() if name != "triton")
                print(f"{dtype_name} {size} {config} shared {used}: {cells} TFLOP/s | of Triton: {ratios}",
                      flush=True)


if __name__ == "__main__":
    main()
