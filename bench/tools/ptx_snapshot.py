"""PTX of the bench kernels at their bench configs, compiled for cuda:90
without a GPU, one file per (kernel, config), and the comparison of two such
snapshots.  A compiler change meant to keep code generation as it is (a
refactor, a pass split) must leave every file byte-identical:

    python3 bench/tools/ptx_snapshot.py write /tmp/before     # on the old build
    python3 bench/tools/ptx_snapshot.py write /tmp/after      # on the new one
    python3 bench/tools/ptx_snapshot.py compare /tmp/before /tmp/after

The kernels are bench/kernels/ (tutorial 03's matmul in fp16 and fp8,
tutorial 09's descriptor matmuls one program per tile, persistent and
warp-specialized, Inductor's mm template in fp32 with and without TF32 and
in bf16, the attention forward on pointers, block pointers and
descriptors, tutorial 06's backward in the same three forms), at the configs
bench_matmul.py, bench_persistent_matmul.py, bench_inductor_mm.py and
bench_attention.py time and the forward at 2 stages as well (128x64 on 4
warps, 128x128 on 8), three of bench_attention_bwd.py's (4 warps, where
ptxas spills at head dim 128, and 8) and the fp32 template at 128x128 tiles,
4 warps (where it spills), with 16-byte-aligned pointers as a
launch specializes them (integer arguments unspecialized).  Set TRITIUM_LIBRARY to pick the
build.  `write` also records each kernel's compile time in the snapshot's
times.tsv; `compare` prints both snapshots' totals.
"""
import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TIMES = "times.tsv"  # each kernel's compile seconds, written beside its PTX
sys.path.insert(0, os.path.dirname(HERE))                             # bench/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))

PERSISTENT_CONFIGS = [(128, 256, 64, 3, 8), (128, 128, 64, 4, 8), (128, 128, 64, 4, 4), (64, 256, 64, 4, 4),
                      (128, 256, 64, 4, 8)]  # (BM, BN, BK, stages, warps)
MATMUL_CONFIGS = {"fp16": [(128, 256, 64, 8, 3, 8), (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4),
                           (64, 32, 32, 8, 5, 2)],
                  "fp8e4nv": [(128, 256, 128, 8, 3, 8), (128, 64, 64, 8, 4, 4)]}  # (BM, BN, BK, GROUP, stages, warps)
ATTENTION_CONFIGS = [(128, 64, 3, 4), (128, 128, 3, 8), (128, 64, 2, 4), (128, 128, 2, 8)]  # (BM, BN, stages, warps)
# tutorial 06's backward: (BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2, stages, warps)
ATTENTION_BWD_CONFIGS = [(32, 128, 128, 32, 5, 4), (32, 128, 128, 32, 3, 4), (64, 128, 128, 64, 3, 8)]
# Inductor's mm template (max-autotune): case -> configs (BM, BN, BK, stages, warps), with the
# case shapes of bench_inductor_mm.py: fp32 without TF32 (FMAs), with TF32, bf16
INDUCTOR_MM_CONFIGS = {"fp32": [(32, 64, 32, 5, 8), (64, 64, 64, 3, 8), (64, 128, 32, 4, 8), (128, 128, 32, 3, 4),
                                (128, 128, 64, 3, 4)],
                       "tf32": [(64, 64, 64, 3, 8), (128, 128, 64, 3, 4)],
                       "bf16": [(128, 128, 64, 3, 4)]}


def kernels():
    """(name, @jit function, signature, constexprs, num_warps, num_stages) of every snapshot entry."""
    import tritium
    import tritium.language as tl
    from kernel_sources import load_kernels
    persistent = load_kernels("persistent_matmul.py", tritium, tl, "snapshot")
    for kernel in ("matmul_tma", "matmul_tma_persistent", "matmul_tma_persistent_ws"):
        for bm, bn, bk, stages, warps in PERSISTENT_CONFIGS:
            sig = {"a_desc": f"tensordesc<fp16[{bm},{bk}]>", "b_desc": f"tensordesc<fp16[{bn},{bk}]>",
                   "c_desc": f"tensordesc<fp16[{bm},{bn}]>", "M": "i32", "N": "i32", "K": "i32"}
            consts = {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 8}
            if kernel != "matmul_tma":
                consts["NUM_SMS"] = 132
            yield (f"{kernel}_{bm}x{bn}x{bk}_s{stages}_w{warps}", getattr(persistent, kernel), sig, consts,
                   warps, stages)
    tutorials = load_kernels("tutorials.py", tritium, tl, "snapshot")
    ints = ["M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm", "stride_cn"]
    for dtype, configs in MATMUL_CONFIGS.items():
        for bm, bn, bk, group, stages, warps in configs:
            sig = {"a_ptr": f"*{dtype}", "b_ptr": f"*{dtype}", "c_ptr": "*fp16", **{n: "i32" for n in ints}}
            consts = {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": group,
                      "ACTIVATION": ""}
            yield (f"matmul_{dtype}_{bm}x{bn}x{bk}_s{stages}_w{warps}", tutorials.matmul_kernel, sig, consts,
                   warps, stages)
    from inductor_mm_configs import CASE_SHAPES
    inductor_mm = load_kernels("inductor_mm.py", tritium, tl, "snapshot")
    for case, configs in INDUCTOR_MM_CONFIGS.items():
        dtype, allow_tf32, size = CASE_SHAPES[case]
        for bm, bn, bk, stages, warps in configs:
            sig = {"A": f"*{dtype}", "B": f"*{dtype}", "C": f"*{dtype}"}
            consts = {"M": size, "N": size, "K": size, "stride_am": size, "stride_ak": 1, "stride_bk": size,
                      "stride_bn": 1, "ALLOW_TF32": allow_tf32, "ACC_TYPE": tl.float32, "BLOCK_M": bm,
                      "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8}
            yield (f"inductor_mm_{case}_{bm}x{bn}x{bk}_s{stages}_w{warps}", inductor_mm.inductor_mm, sig, consts,
                   warps, stages)
    attention = load_kernels("attention.py", tritium, tl, "snapshot")
    strides = [f"stride_{t}{d}" for t in "qkvo"
               for d in ("z", "h", "m" if t in "qo" else "n", "k" if t != "o" else "n")]
    for head_dim in (64, 128):
        for bm, bn, stages, warps in ATTENTION_CONFIGS:
            for stage in (1, 3):
                consts = {"N_CTX": 4096, "HEAD_DIM": head_dim, "BLOCK_M": bm, "BLOCK_N": bn, "STAGE": stage}
                name = f"d{head_dim}_{bm}x{bn}_s{stages}_w{warps}_stage{stage}"
                sig = {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "sm_scale": "fp32", "Out": "*fp16",
                       **{s: "i32" for s in strides}, "H": "i32"}
                yield f"attn_fwd_{name}", attention.attn_fwd, sig, consts, warps, stages
                yield f"attn_fwd_block_ptr_{name}", attention.attn_fwd_block_ptr, sig, consts, warps, stages
                sig = {"sm_scale": "fp32", "H": "i32", "desc_q": f"tensordesc<fp16[{bm},{head_dim}]>",
                       "desc_k": f"tensordesc<fp16[{bn},{head_dim}]>",
                       "desc_v": f"tensordesc<fp16[{bn},{head_dim}]>",
                       "desc_o": f"tensordesc<fp16[{bm},{head_dim}]>"}
                yield f"attn_fwd_tma_{name}", attention.attn_fwd_tma, sig, consts, warps, stages
    backward = load_kernels("attention_bwd.py", tritium, tl, "snapshot")
    sig = {**{t: "*fp16" for t in ("Q", "K", "V")}, "sm_scale": "fp32",
           **{t: "*fp16" for t in ("DO", "DQ", "DK", "DV")}, "M": "*fp32", "D": "*fp32",
           **{s: "i32" for s in ("stride_z", "stride_h", "stride_tok", "H", "N_CTX")}}
    for head_dim in (64, 128):
        for causal in (False, True):
            for m1, n1, m2, n2, stages, warps in ATTENTION_BWD_CONFIGS:
                consts = {"BLOCK_M1": m1, "BLOCK_N1": n1, "BLOCK_M2": m2, "BLOCK_N2": n2, "BLK_SLICE_FACTOR": 2,
                          "HEAD_DIM": head_dim, "CAUSAL": causal}
                name = f"d{head_dim}{'_causal' if causal else ''}_{m1}x{n1}_{m2}x{n2}_s{stages}_w{warps}"
                for form in ("attn_bwd", "attn_bwd_block_ptr", "attn_bwd_tma"):
                    yield f"{form}_{name}", getattr(backward, form), sig, consts, warps, stages


def write(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    # A fresh cache, so that every kernel is compiled by this build.
    os.environ["TRITIUM_CACHE_DIR"] = tempfile.mkdtemp(prefix="ptx_snapshot_cache_")
    import tritium
    count = 0
    times = []
    for name, fn, sig, consts, warps, stages in kernels():
        started = time.perf_counter()
        try:
            # Pointers 16-byte aligned, as torch allocates them and a launch
            # specializes them (without it a kernel's loads go element by
            # element and its dots take no cp.async rings).
            attrs = {arg: [["tt.divisibility", 16]] for arg, ty in sig.items() if ty.startswith("*")}
            text = tritium.compile(fn, signature=sig, constexprs=consts, attrs=attrs, target="cuda:90",
                                   options={"num_warps": warps, "num_stages": stages}).asm["ptx"]
        except Exception as e:  # a failure is part of the snapshot
            text = f"ERROR {type(e).__name__}: {e}\n"
        times.append(f"{name}\t{time.perf_counter() - started:.3f}\n")
        with open(os.path.join(out_dir, name + ".ptx"), "w") as f:
            f.write(text)
        count += 1
    with open(os.path.join(out_dir, TIMES), "w") as f:
        f.writelines(times)
    print(f"{count} kernels written to {out_dir}")


def total_seconds(snapshot):
    path = os.path.join(snapshot, TIMES)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return sum(float(line.split("\t")[1]) for line in f if line.strip())


def compare(before, after):
    names = sorted((set(os.listdir(before)) | set(os.listdir(after))) - {TIMES})
    differ = []
    for name in names:
        a, b = os.path.join(before, name), os.path.join(after, name)
        if not (os.path.exists(a) and os.path.exists(b)):
            differ.append(f"{name}: only in {before if os.path.exists(a) else after}")
        elif open(a, "rb").read() != open(b, "rb").read():
            differ.append(f"{name}: differs")
    print("\n".join(differ) if differ else f"all {len(names)} identical")
    seconds = [total_seconds(snapshot) for snapshot in (before, after)]
    if None not in seconds:
        print(f"compile time in all: {seconds[0]:.1f} s before, {seconds[1]:.1f} s after")
    return 1 if differ else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("write", help="compile the kernels and write their PTX").add_argument("out_dir")
    cmp = sub.add_parser("compare", help="compare two snapshots file by file")
    cmp.add_argument("before")
    cmp.add_argument("after")
    args = parser.parse_args()
    if args.command == "write":
        write(args.out_dir)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
