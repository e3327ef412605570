"""A/B timing of PTX-level variants of the element-wise benchmark kernels, on
the GPU machine: every cubin built by make_ptx_variants.py (carried in
.ship/ab) is launched through tritium's Launcher with the benchmark's
arguments and checked against torch; the base cubin is also launched with
the runtime's residency limit at several warps per SM (an occupancy sweep
with the code unchanged: the native library pads dynamic shared memory).  Triton's and tritium's own JIT launches of the
same source run in the same rounds.  All launches of one kernel are timed
in interleaved rounds (the GPU switches between two bandwidth levels for
seconds at a time); the table gives the median round and the spread.
Usage: python bench/tools/ab_cubins.py [kernel ...]
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

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
# residency limits (warps per SM) the base cubin is also timed with
WARP_LIMITS = (48, 40, 32, 24)


def setup(key):
    """(args, grid, bytes moved, reference check, launch of a JIT module)."""
    if key == "add":
        n = 1 << 28
        x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
        out = torch.empty_like(x)
        ref = x + y
        return ((x, y, out, n), ((n + 1023) // 1024,), 12 * n, lambda: torch.equal(out, ref),
                lambda k: k.add_kernel[((n + 1023) // 1024,)](x, y, out, n, BLOCK=1024))
    if key == "silu":
        n = 1 << 28
        x = torch.randn(n, device="cuda", dtype=torch.bfloat16)
        y = torch.randn(n, device="cuda", dtype=torch.bfloat16)
        out = torch.empty_like(x)
        ref = (x.float() * torch.sigmoid(x.float()) + y.float())
        return ((x, y, out, n), ((n + 2047) // 2048,), 6 * n,
                lambda: bool((out.float() - ref).abs().max() <= 2e-2 * ref.abs().max()),
                lambda k: k.silu_mul_add_kernel[((n + 2047) // 2048,)](x, y, out, n, BLOCK=2048))
    m = 8192
    src = torch.randn(m, m, device="cuda")
    dst = torch.empty_like(src)
    return ((src, dst, m, m, m, m), (m // 64, m // 64), 8 * m * m, lambda: torch.equal(dst, src.t()),
            lambda k: k.transpose_kernel[(m // 64, m // 64)](src, dst, m, m, m, m, BLOCK_M=64, BLOCK_N=64))


def main():
    ab_dir = os.path.join(ROOT, ".ship", "ab")
    manifest = json.load(open(os.path.join(ab_dir, "manifest.json")))
    ours = load_kernels("elementwise_kernels.py", tritium, ttl, "tritium")
    theirs = load_kernels("elementwise_kernels.py", triton, tl, "triton") if triton else None
    for key in sys.argv[1:] or list(manifest):
        spec = manifest[key]
        args, grid, nbytes, check, jit_launch = setup(key)
        fns = {}
        for variant, regs in spec["variants"].items():
            image = open(os.path.join(ab_dir, f"{key}.{variant}.cubin"), "rb").read()
            limits = {variant: 0}
            if variant == "base":
                limits.update({f"base, <= {w} warps/SM": w for w in WARP_LIMITS})
            for label, limit in limits.items():
                launcher = Launcher(spec["name"], image, spec["param_names"], spec["param_types"],
                                    spec["num_warps"], spec["shared"], limit)
                launcher.function(0)
                blocks = launcher.blocks_per_sm[0]
                fns[f"{label} ({regs} regs, {blocks}/SM)"] = lambda launcher=launcher: launcher(grid, args)
        fns["tritium jit"] = lambda: jit_launch(ours)
        if theirs is not None:
            fns["triton jit"] = lambda: jit_launch(theirs)
        for name, fn in fns.items():
            args[1 if key == "transpose" else 2].fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            if not check():
                print(f"{key}: {name} gives a WRONG result")
        samples = interleaved_rounds(fns, nbytes, rounds=ROUNDS)
        reference = samples["triton jit"][ROUNDS // 2] if "triton jit" in samples else None
        print(f"\n{key}: GB/s, median of {ROUNDS} interleaved rounds (min-max)")
        for name, values in samples.items():  # each ascending
            median = values[ROUNDS // 2]
            ratio = f"  x{median / reference:.4f} vs triton" if reference else ""
            print(f"  {name:28} {median:8.1f}  ({values[0]:.1f}-{values[-1]:.1f}){ratio}")
        del args, fns


if __name__ == "__main__":
    main()
