"""The CPU target against Triton's interpreter and torch on the CPU, in one
run on one host: tutorial 01's vector add, tutorial 02's softmax and
tutorial 03's matmul in fp32 (bench/kernels/tutorials.py, the same source
for both compilers).  Tritium's kernels get numpy arrays, which run on its
CPU target; Triton's, when Triton is installed, get torch CPU tensors over
the same memory and run in its interpreter (TRITON_INTERPRET=1, set before
the kernels are decorated), which is slow, so the interpreter has rows of
its own at small sizes.  A compiler that fails a row gets "error" in it and
a note with the error.  Each figure: the best of 3 wall-clock runs after a first
call that compiles.  The copy row is the host's memory bandwidth (a plain
copy of 2^26 floats), the bar vector add is measured against.

  python3 bench/bench_cpu.py [--quick]
"""
import contextlib
import os
import sys
import time

os.environ["TRITON_INTERPRET"] = "1"  # Triton's kernels below are decorated in its interpreter
from bench_setup import HAVE_TRITON, QUICK, tl, triton  # noqa: E402  (first: the path, fresh caches)

import numpy as np  # noqa: E402

import tritium  # noqa: E402
from tritium._native import native_library  # noqa: E402
import tritium.language as ttl  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402
from results_page import record  # noqa: E402

try:
    import torch
    REFERENCE = "torch"
except ImportError:
    torch = None
    REFERENCE = "numpy"


def best_seconds(fn, rounds=3):
    fn()  # compiles
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


FAILURES = []


@contextlib.contextmanager
def failure_noted(row, name):
    """A compiler that fails a row (an error, a wrong result) gets "error"
    in it and a note, and the run goes on."""
    try:
        yield
    except Exception as e:  # noqa: BLE001 (any failure of the compiler under test is a result)
        row[name] = "error"
        FAILURES.append(f"{row['work']}, {name}: {type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}")


def host_array(a):
    return torch.from_numpy(a) if torch is not None else a


def as_args(name, *arrays):
    """The arrays as `name`'s kernels take them: numpy views for Tritium
    (where a GPU is usable, torch CPU tensors are Triton's error, not a CPU
    launch), the torch tensors for Triton's interpreter."""
    return [np.asarray(a) for a in arrays] if name == "tritium" else list(arrays)


def cdiv(a, b):
    return (a + b - 1) // b


def main():
    kernels = {"tritium": load_kernels("tutorials.py", tritium, ttl, "tritium_cpu")}
    if HAVE_TRITON:
        kernels["triton"] = load_kernels("tutorials.py", triton, tl, "triton_interpreter")
    rng = np.random.default_rng(0)
    rows = []

    def vector_add(n, compilers):
        x, y = (host_array(rng.random(n, dtype=np.float32)) for _ in range(2))
        out = host_array(np.zeros(n, np.float32))
        row = {"work": f"vector add fp32 2^{n.bit_length() - 1}", "unit": "GB/s"}
        for name in compilers:
            k = kernels[name]
            with failure_noted(row, name):
                row[name] = round(12 * n / best_seconds(
                    lambda: k.add_kernel[(cdiv(n, 1024),)](*as_args(name, x, y, out), n, BLOCK_SIZE=1024)) / 1e9, 2)
                assert np.array_equal(np.asarray(out), np.asarray(x) + np.asarray(y)), name
        add = (lambda: torch.add(x, y, out=out)) if torch is not None else (lambda: np.add(x, y, out=out))
        row["reference"] = round(12 * n / best_seconds(add) / 1e9, 2)
        return row

    def softmax(m, n, compilers):
        x = host_array(rng.standard_normal((m, n), dtype=np.float32))
        out = host_array(np.empty((m, n), np.float32))
        row = {"work": f"softmax fp32 {m}x{n}", "unit": "GB/s"}
        block = 1 << (n - 1).bit_length()
        for name in compilers:
            k = kernels[name]
            with failure_noted(row, name):
                row[name] = round(8 * m * n / best_seconds(
                    lambda: k.softmax_kernel[(min(m, 64),)](*as_args(name, out, x), n, n, m, n, BLOCK_SIZE=block,
                                                            num_stages=4)) / 1e9, 2)
                xn = np.asarray(x).astype(np.float64)
                e = np.exp(xn - xn.max(axis=1, keepdims=True))
                np.testing.assert_allclose(np.asarray(out), e / e.sum(axis=1, keepdims=True), rtol=1e-4, atol=1e-6)
        def numpy_softmax():
            e = np.exp(x - x.max(axis=1, keepdims=True))
            np.divide(e, e.sum(axis=1, keepdims=True), out=out)
        ref = (lambda: torch.softmax(x, -1, out=out)) if torch is not None else numpy_softmax
        row["reference"] = round(8 * m * n / best_seconds(ref) / 1e9, 2)
        return row

    def matmul(n, block, compilers):
        a, b = (host_array(rng.standard_normal((n, n), dtype=np.float32)) for _ in range(2))
        c = host_array(np.empty((n, n), np.float32))
        row = {"work": f"matmul fp32 {n}^3, {block}x{block}x32 tiles", "unit": "GFLOP/s"}
        for name in compilers:
            k = kernels[name]
            with failure_noted(row, name):
                row[name] = round(2 * n ** 3 / best_seconds(
                    lambda: k.matmul_kernel[(cdiv(n, block) ** 2,)](*as_args(name, a, b, c), n, n, n, n, 1, n, 1, n, 1,
                                                                     BLOCK_SIZE_M=block, BLOCK_SIZE_N=block,
                                                                     BLOCK_SIZE_K=32, GROUP_SIZE_M=8,
                                                                     ACTIVATION="")) / 1e9, 1)
                want = np.asarray(a).astype(np.float64) @ np.asarray(b).astype(np.float64)
                np.testing.assert_allclose(np.asarray(c), want, rtol=1e-3, atol=1e-2)
        ref = (lambda: torch.matmul(a, b, out=c)) if torch is not None else (lambda: np.matmul(a, b, out=c))
        row["reference"] = round(2 * n ** 3 / best_seconds(ref) / 1e9, 1)
        return row

    both = list(kernels)
    rows.append(vector_add(1 << (16 if QUICK else 20), both))
    rows.append(vector_add(1 << (22 if QUICK else 26), ["tritium"]))
    rows.append(softmax(64, 1024, both))
    rows.append(softmax(256 if QUICK else 4096, 1024, ["tritium"]))
    rows.append(matmul(128, 32, both))
    rows.append(matmul(256 if QUICK else 1024, 64, ["tritium"]))
    n = 1 << (22 if QUICK else 26)
    src = host_array(rng.random(n, dtype=np.float32))
    dst = host_array(np.empty(n, np.float32))
    copy = (lambda: dst.copy_(src)) if torch is not None else (lambda: np.copyto(dst, src))
    rows.append({"work": f"copy fp32 2^{n.bit_length() - 1} (the host's memory bandwidth)", "unit": "GB/s",
                 "reference": round(8 * n / best_seconds(copy) / 1e9, 2)})
    for row in rows:
        if isinstance(row.get("tritium"), float) and isinstance(row.get("triton"), float):
            row["ratio"] = round(row["tritium"] / row["triton"], 1)
    host = native_library().cpu_host()
    print(f"host: {host}; threads: {os.environ.get('TRITIUM_CPU_THREADS') or os.cpu_count()}; "
          f"reference: {REFERENCE}; Triton's interpreter: {'yes' if HAVE_TRITON else 'not installed'}")
    print(f"{'work':58} {'tritium':>10} {'triton':>10} {REFERENCE:>10} {'ratio':>8}")
    for row in rows:
        print(f"{row['work']:58} {row.get('tritium', '-'):>10} {row.get('triton', '-'):>10} "
              f"{row.get('reference', '-'):>10} {row.get('ratio', '-'):>8}  {row['unit']}")
    for failure in FAILURES:
        print("failed:", failure)
    record("bench_cpu", rows, reference=REFERENCE, headers={"triton": "Triton interpreter"},
           digits={"ratio": 1}, notes=[f"host: {host}"] + [f"failed: {f}" for f in FAILURES])


if __name__ == "__main__":
    main()
