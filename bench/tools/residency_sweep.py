"""Residency limits for streaming kernels of other shapes than the benchmark's,
on the GPU machine: each kernel below is compiled by tritium's JIT, then its
cubin is launched through Launcher with no limit and with at most 48, 40, 32
and 24 warps resident per SM (the native library pads dynamic shared memory
until only that many blocks fit).  Triton's JIT launch of the same source
and launch options runs in the same interleaved rounds, as does tritium's
own (which applies the compiler's limit).  The runtime applies 40 warps per
SM to every streaming kernel on the H100; the benchmark measured it for 4-warp
programs only, this sweeps 1, 2, 8 and 16 warps and a store-only kernel.
Usage: python bench/tools/residency_sweep.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

import torch  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from tritium.runtime.launcher import Launcher  # noqa: E402
from bench_timing import interleaved_rounds  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

try:
    import triton
    import triton.language as tl
except ImportError:
    triton = None

ROUNDS = 7
WARP_LIMITS = (0, 48, 40, 32, 24)
N = 1 << 28


def cases(x, y, out):
    """(label, kernel attribute, args, constexprs, num_warps, bytes moved, check)."""
    add_ok = lambda: torch.equal(out, x + y)  # noqa: E731
    fill_ok = lambda: bool((out == 2.5).all())  # noqa: E731
    for warps, block in ((1, 256), (2, 512), (4, 1024), (8, 2048), (16, 4096)):
        yield (f"add, {warps} warps, BLOCK {block}", "add_kernel", (x, y, out, N), {"BLOCK": block}, warps,
               12 * N, add_ok)
    for warps, block in ((4, 4096), (8, 4096)):
        yield (f"fill, {warps} warps, BLOCK {block}", "fill_kernel", (out, N, 2.5), {"BLOCK": block}, warps,
               4 * N, fill_ok)


def main():
    ours = load_kernels("elementwise_kernels.py", tritium, ttl, "tritium")
    theirs = load_kernels("elementwise_kernels.py", triton, tl, "triton") if triton else None
    x, y = torch.randn(N, device="cuda"), torch.randn(N, device="cuda")
    out = torch.empty_like(x)
    for label, attr, args, constexprs, warps, nbytes, check in cases(x, y, out):
        grid = (N // next(iter(constexprs.values())),)
        compiled = getattr(ours, attr).warmup(*args, **constexprs, num_warps=warps, grid=grid)
        meta = compiled.metadata
        fns = {}
        for limit in WARP_LIMITS:
            launcher = Launcher(meta["kernel_name"], compiled.asm["cubin"], compiled.runtime_params,
                                [meta["signature"][n] for n in compiled.runtime_params], warps, compiled.shared,
                                limit)
            launcher.function(0)
            name = f"<= {limit} warps/SM" if limit else "no limit"
            fns[f"{name} ({launcher.blocks_per_sm[0]}/SM)"] = lambda launcher=launcher: launcher(grid, args)
        fns["tritium jit"] = lambda: getattr(ours, attr)[grid](*args, **constexprs, num_warps=warps)
        if theirs is not None:
            fns["triton jit"] = lambda: getattr(theirs, attr)[grid](*args, **constexprs, num_warps=warps)
        for name, fn in fns.items():
            out.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            if not check():
                print(f"{label}: {name} gives a WRONG result")
        samples = interleaved_rounds(fns, nbytes, rounds=ROUNDS)
        reference = samples["triton jit"][ROUNDS // 2] if "triton jit" in samples else None
        print(f"\n{label} (streaming: {meta['streaming']}; limit {meta['max_warps_per_sm']}): "
              f"GB/s, median of {ROUNDS} interleaved rounds (min-max)")
        for name, values in samples.items():
            median = values[ROUNDS // 2]
            ratio = f"  x{median / reference:.4f} vs triton" if reference else ""
            print(f"  {name:28} {median:8.1f}  ({values[0]:.1f}-{values[-1]:.1f}){ratio}")


if __name__ == "__main__":
    main()
