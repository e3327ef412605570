#!/usr/bin/env python3
"""Compile time of Triton's tutorial kernels to Triton IR, with Tritium.

Compiles each tutorial kernel once cold (its first compile in this process:
parsing its source, first use of its helpers), then REPEAT more times, and prints the median (and min/max) per kernel in milliseconds.  No
GPU is needed: this measures the Python frontend plus the native TTIR
pipeline; the "frontend" and "native" columns split a compile's median
between the two.  The on-disk kernel cache is bypassed (TRITIUM_ALWAYS_COMPILE=1)
so that every compile is a real one; the last column is a compile served
from the cache, for comparison.

    python3 bench/compile_ttir.py [--repeat 20] [--target cuda:90] [--full]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO_ROOT, "python"))

os.environ["TRITIUM_ALWAYS_COMPILE"] = "1"
os.environ.setdefault("TRITIUM_CACHE_DIR", tempfile.mkdtemp(prefix="tritium-bench-cache-"))

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

T = load_kernels("tutorials.py", triton, tl, "tritium")

I32 = "i32"
_ATTN_INTS = ("stride_qz stride_qh stride_qm stride_qk stride_kz stride_kh stride_kn stride_kk stride_vz stride_vh "
              "stride_vk stride_vn stride_oz stride_oh stride_om stride_on Z H").split()

KERNELS = [
    ("01 vector add", T.add_kernel,
     {"x_ptr": "*fp32", "y_ptr": "*fp32", "output_ptr": "*fp32", "n_elements": I32},
     {"BLOCK_SIZE": 1024}, {}),
    ("02 fused softmax", T.softmax_kernel,
     {"output_ptr": "*fp32", "input_ptr": "*fp32", "input_row_stride": I32, "output_row_stride": I32,
      "n_rows": I32, "n_cols": I32},
     {"BLOCK_SIZE": 1024, "num_stages": 4}, {}),
    ("03 matmul + leaky_relu", T.matmul_kernel,
     {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": I32, "N": I32, "K": I32, "stride_am": I32,
      "stride_ak": I32, "stride_bk": I32, "stride_bn": I32, "stride_cm": I32, "stride_cn": I32},
     {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8,
      "ACTIVATION": "leaky_relu"},
     {"stride_am": [["tt.divisibility", 16]], "stride_bk": [["tt.divisibility", 16]]}),
    ("04 low-memory dropout", T._seeded_dropout,
     {"x_ptr": "*fp32", "output_ptr": "*fp32", "n_elements": I32, "p": "fp32", "seed": I32},
     {"BLOCK_SIZE": 1024}, {}),
    ("05 layer norm fwd", T._layer_norm_fwd_fused,
     {"X": "*fp16", "Y": "*fp16", "W": "*fp16", "B": "*fp16", "Mean": "*fp32", "Rstd": "*fp32", "stride": I32,
      "N": I32, "eps": "fp32"},
     {"BLOCK_SIZE": 1024}, {}),
    ("06 fused attention fwd", T._attn_fwd,
     dict({"Q": "*fp16", "K": "*fp16", "V": "*fp16", "sm_scale": "fp32", "M": "*fp32", "Out": "*fp16"},
          **{n: I32 for n in _ATTN_INTS}),
     {"N_CTX": 1024, "HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "STAGE": 3}, {}),
]


def compile_ms(fn, signature, constexprs, attrs, target, full):
    start = time.perf_counter()
    k = triton.compile(fn, signature=signature, constexprs=constexprs, attrs=attrs, target=target,
                       stop_after=None if full else "ttir")
    return (time.perf_counter() - start) * 1e3, k


def phase_ms(fn, signature, constexprs, attrs, repeat):
    """Medians of the two halves of a compile: the Python frontend (AST -> TTIR
    text) and the native library (parse, verify, TTIR pipeline, print)."""
    try:
        from tritium.compiler.code_generator import generate_ttir
        from tritium.compiler.compiler import TTIR_PIPELINE, ASTSource
    except ImportError:
        return None, None
    src = ASTSource(fn, signature, constexprs, attrs)
    lib = triton.native_library()
    front, native = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        values, arg_attrs = src.arg_values()
        text = generate_ttir(fn, values, arg_attrs, False)
        middle = time.perf_counter()
        if hasattr(lib, "run_pipeline"):
            lib.run_pipeline(text, TTIR_PIPELINE, fn.__name__ + ".ttir")
        else:
            lib.parse_and_verify(text, fn.__name__ + ".ttir")
        end = time.perf_counter()
        front.append((middle - start) * 1e3)
        native.append((end - middle) * 1e3)
    return statistics.median(front), statistics.median(native)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--target", default="cuda:90")
    parser.add_argument("--budget-ms", type=float, default=20.0,
                        help="the median each kernel should stay under (default 20)")
    parser.add_argument("--full", action="store_true",
                        help="compile through the NVIDIA backend too (ttgir, llir, ptx), not just to TTIR")
    args = parser.parse_args()
    print(f"tritium {triton.__tritium_version__}, {triton.native_version()}, target {args.target}, "
          f"{'full compile' if args.full else 'to TTIR'}, {args.repeat} compiles per kernel after the first")
    header = f"{'kernel':<24} {'cold ms':>8} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'frontend':>9} " \
             f"{'native':>7} {'ttir ops':>9} {'cached ms':>10}"
    print(header)
    print("-" * len(header))
    over = []
    rows = []  # for the results record
    for name, fn, signature, constexprs, attrs in KERNELS:
        try:
            cold, k = compile_ms(fn, signature, constexprs, attrs, args.target, args.full)
        except triton.CompilationError as e:
            print(f"{name:<24} failed: {str(e).splitlines()[0]}")
            over.append(name)
            continue
        times = [compile_ms(fn, signature, constexprs, attrs, args.target, args.full)[0] for _ in range(args.repeat)]
        ops = sum(1 for line in k.asm["ttir"].splitlines()
                  if not line.startswith("#") and (" = " in line or line.strip().startswith(("tt.", "scf."))))
        # one compile served from the on-disk cache, for comparison
        os.environ["TRITIUM_ALWAYS_COMPILE"] = "0"
        compile_ms(fn, signature, constexprs, attrs, args.target, args.full)
        cached = compile_ms(fn, signature, constexprs, attrs, args.target, args.full)[0]
        os.environ["TRITIUM_ALWAYS_COMPILE"] = "1"
        median = statistics.median(times)
        front, native = phase_ms(fn, signature, constexprs, attrs, args.repeat)
        if median >= args.budget_ms:
            over.append(name)
        phases = f"{front:>9.2f} {native:>7.2f}" if front is not None else f"{'-':>9} {'-':>7}"
        print(f"{name:<24} {cold:>8.1f} {median:>10.2f} {min(times):>8.2f} {max(times):>8.2f} {phases} {ops:>9} "
              f"{cached:>10.2f}")
        rows.append({"work": name, "tritium": median, "unit": "ms", "cold ms": cold, "min ms": min(times),
                     "max ms": max(times), "frontend ms": front, "native ms": native, "ttir ops": ops,
                     "cached ms": cached})
    print("-" * len(header))
    from results_page import record  # (bench/results/compile_ttir.json)
    record("compile_ttir", rows, headers={"tritium": "median ms"},
           digits={c: 2 for c in ("tritium", "min ms", "max ms", "frontend ms", "native ms", "cached ms")},
           notes=[f"Failed, or over {args.budget_ms:g} ms (median): {', '.join(over)}."] if over else [],
           partial="--full" if args.full else None)
    if over:
        print(f"failed, or over {args.budget_ms:g} ms (median): {', '.join(over)}")
        return 1
    print(f"every kernel's median compile is under {args.budget_ms:g} ms after the first")
    return 0


if __name__ == "__main__":
    sys.exit(main())
