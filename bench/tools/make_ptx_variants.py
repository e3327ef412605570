"""Builds PTX variants of the element-wise benchmark kernels for an A/B run on
the GPU machine (bench/tools/ab_cubins.py): compiles each kernel with
tritium (no GPU needed), applies each variant's text edits to its PTX, and
assembles every variant with the local ptxas, as the backend does.  Output:
.ship/ab/<kernel>.<variant>.cubin and .ptx, plus manifest.json (parameter
types, shared bytes, warps), which the device tool carries with .ship.

A variant is a list of (regex, replacement) edits; "base" is the PTX as
tritium emits it.  Edit VARIANTS to try other PTX-level ideas.
Usage: python bench/tools/make_ptx_variants.py
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import tritium  # noqa: E402
import tritium.language as tl  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

ALIGNED = [["tt.divisibility", 16]]
LOAD = r"ld\.global\.v4\.b32"
STORE = r"st\.global\.v4\.b32"


def entry_directive(text):
    """An edit adding a performance directive after .maxntid."""
    return (r"(\.maxntid [^\n]*\n)", r"\1" + text + "\n")


def remapped_program_ids(grid: int, body: str, pid0: str, pid1: str):
    """Edits making a grid x grid kernel read its program ids from registers
    instead of %ctaid.x / %ctaid.y: `body` (PTX) computes them into `pid0`
    and `pid1` from %pg2 = lin = ctaid.y * grid + ctaid.x, the hardware's
    launch order, using the registers %pg3..%pg7."""
    code = (f"\t.reg .b32 %pg<8>;\n"
            f"\tmov.u32 %pg0, %ctaid.x;\n\tmov.u32 %pg1, %ctaid.y;\n"
            f"\tmad.lo.s32 %pg2, %pg1, {grid}, %pg0;\n" + body)
    return [(r"(\.reg \.b64[^\n]*\n)", r"\1" + code.replace("\\", "\\\\")),
            (r"%ctaid\.x;", f"{pid0};"), (r"mov\.u32\s+(%r\d+), %ctaid\.y;", rf"mov.u32 \1, {pid1};"),
            (rf"mov\.u32 %pg0, {pid0};", "mov.u32 %pg0, %ctaid.x;")]


def grouped_program_ids(group: int, grid: int):
    """Programs in groups of `group` pid-0 values per pid-1 step (matmul-style
    grouping): pid0 = lin / (group * grid) * group + lin % group and
    pid1 = lin % (group * grid) / group."""
    shift = (group * grid).bit_length() - 1
    return remapped_program_ids(grid, f"\tshr.u32 %pg3, %pg2, {shift};\n\tmul.lo.s32 %pg3, %pg3, {group};\n"
                                      f"\trem.u32 %pg4, %pg2, {group};\n\tadd.s32 %pg5, %pg3, %pg4;\n"
                                      f"\trem.u32 %pg6, %pg2, {group * grid};\n\tdiv.u32 %pg7, %pg6, {group};\n",
                                "%pg5", "%pg7")


def program_id_runs(run: int, grid: int):
    """Programs in runs of `run` consecutive pid-1 values per pid-0 value: with
    q = lin / run, pid0 = q % grid and pid1 = q / grid * run + lin % run.
    Consecutive blocks then read adjacent tiles of the same rows of the
    transpose's source."""
    log_run, log_grid = run.bit_length() - 1, grid.bit_length() - 1
    return remapped_program_ids(grid, f"\tshr.u32 %pg3, %pg2, {log_run};\n\tand.b32 %pg4, %pg3, {grid - 1};\n"
                                      f"\tshr.u32 %pg5, %pg3, {log_grid};\n\tshl.b32 %pg5, %pg5, {log_run};\n"
                                      f"\tand.b32 %pg6, %pg2, {run - 1};\n\tadd.s32 %pg7, %pg5, %pg6;\n",
                                "%pg4", "%pg7")


# variant name -> edits; applied to every kernel unless the name says which.
# Measured on the H100 (2026-11-21, ab_cubins.py, ratio to Triton's kernel):
# no gain from L2::128B / L2::256B prefetch sizes on loads, ld.global.nc,
# L1::evict_last, st.global.cs; L1::no_allocate loads 2-3% slower; .maxnreg
# only matters through occupancy (div.rn's 63 registers give 8 blocks per
# SM, hence its speed); the transpose's program-id rasterizations are slower
# than the default (swap 0.991, groups of 8 0.990, of 32 0.988, base 0.999;
# in a later run runs of 2 / 4 / 8 pid-1 values 0.996 / 0.994 / 0.992, base
# 0.996, tritium jit 0.999: closer reads cost more than they give).
COMMON = {
    "base": [],
    "ld_nc": [(LOAD, "ld.global.nc.v4.b32")],
    "ld_evict_last": [(LOAD, "ld.global.L1::evict_last.v4.b32")],
}
PER_KERNEL = {
    "silu": {
        "div_rn": [(r"div\.full\.f32", "div.rn.f32")],
    },
    "transpose": {
        "regs40": [entry_directive(".maxnreg 40")],
        # program-id rasterization (the grid is 128 x 128, so it is unchanged):
        # consecutive CTAs along pid 1 instead of pid 0, or in groups of G
        # pid-0 values per pid-1 step (matmul-style grouping)
        "swap_xy": [(r"%ctaid\.x", "%ctaid.TMP"), (r"%ctaid\.y", "%ctaid.x"), (r"%ctaid\.TMP", "%ctaid.y")],
        "group8": grouped_program_ids(8, 128),
        "group32": grouped_program_ids(32, 128),
        "runs2": program_id_runs(2, 128),
        "runs4": program_id_runs(4, 128),
        "runs8": program_id_runs(8, 128),
    },
}

KERNELS = {
    # name: (kernel attribute, signature, constexprs)
    "add": ("add_kernel", {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"},
            {"BLOCK": 1024}),
    "silu": ("silu_mul_add_kernel", {"x_ptr": "*bf16", "y_ptr": "*bf16", "out_ptr": "*bf16", "n": "i32"},
             {"BLOCK": 2048}),
    "transpose": ("transpose_kernel", {"src": "*fp32", "dst": "*fp32", "M": "i32", "N": "i32",
                                       "stride_sm": "i32", "stride_dn": "i32"},
                  {"BLOCK_M": 64, "BLOCK_N": 64}),
}


def ptxas():
    home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    return os.path.join(home, "bin", "ptxas")


def main():
    out_dir = os.path.join(ROOT, ".ship", "ab")
    os.makedirs(out_dir, exist_ok=True)
    kernels = load_kernels("elementwise_kernels.py", tritium, tl, "tritium")
    manifest = {}
    for key, (attr, runtime_sig, constexprs) in KERNELS.items():
        signature = dict(runtime_sig, **{name: "constexpr" for name in constexprs})
        compiled = tritium.compile(getattr(kernels, attr), signature=signature, constexprs=constexprs,
                                   attrs={name: ALIGNED for name in runtime_sig}, target="cuda:90",
                                   num_warps=4)
        meta = compiled.metadata
        meta = meta if isinstance(meta, dict) else vars(meta)
        base = compiled.asm["ptx"]
        manifest[key] = {"name": meta["name"], "param_names": list(runtime_sig),
                         "param_types": list(runtime_sig.values()), "num_warps": 4,
                         "shared": meta["shared"], "variants": {}}
        for variant, edits in {**COMMON, **PER_KERNEL.get(key, {})}.items():
            text = base
            for pattern, replacement in edits:
                text, count = re.subn(pattern, replacement, text)
                assert count, f"{key}.{variant}: {pattern!r} matched nothing"
            stem = os.path.join(out_dir, f"{key}.{variant}")
            with open(stem + ".ptx", "w") as f:
                f.write(text)
            run = subprocess.run([ptxas(), "-v", "--gpu-name=sm_90a", "-O3", stem + ".ptx", "-o", stem + ".cubin"],
                                 capture_output=True, text=True)
            if run.returncode:
                sys.exit(f"{key}.{variant}: ptxas failed:\n{run.stderr}")
            regs = re.search(r"Used (\d+) registers", run.stderr)
            manifest[key]["variants"][variant] = int(regs.group(1)) if regs else None
            print(f"{key:10} {variant:16} registers {manifest[key]['variants'][variant]}")
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
