"""Where the host time of a warm launch goes: the same tiny kernel
(bench/kernels/elementwise.py: tiny_kernel) launched (a) by the native
library alone from a prepared launch record (the driver's cost: the floor
of any Python launcher), (b) through Tritium's warm-path entry, its
dispatch and its `kernel[grid](...)`, (c) through Triton when it is
installed, and (d) torch's x.add_(1), in interleaved rounds of 2000
launches without a sync inside (as bench_elementwise.py times them);
medians of 9 rounds.  Then the host-only steps of the warm path (nothing
launched), 20000 calls a round.  Needs a GPU.

  python bench/tools/launch_breakdown.py
"""
import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))


def main():
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    os.environ["TRITIUM_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritium-cache-")

    import torch

    import tritium
    import tritium.language as ttl
    from tritium.runtime import driver
    from kernel_sources import load_kernels

    small = torch.zeros(1024, device="cuda")
    ours = load_kernels("elementwise.py", tritium, ttl, "tritium").tiny_kernel
    ours[(1,)](small, 1024, BLOCK=1024)
    entry = next(iter(ours._warm.values()))
    # the prepared record of the same launch, built once
    launcher = next(iter(ours.compiled.values()))._launcher
    function = launcher.function(0)
    record = launcher.record.pack(function, driver.current_stream(0), 1, 1, 1, launcher.threads,
                                  launcher._launch_shared[0], launcher.params_bytes, small.data_ptr(), 1024)
    native_launch = driver.cuda().launch
    dispatch = ours._dispatch
    launchers = {
        "native record only": lambda: native_launch(record),
        "tritium entry only": lambda: entry((1,), small.data_ptr(), 1024, 1024),
        "tritium dispatch, no [grid]": lambda: dispatch((1,), small, 1024, BLOCK=1024),
        "tritium warm path": lambda: ours[(1,)](small, 1024, BLOCK=1024),
        "torch x.add_(1)": lambda: small.add_(1),
    }
    try:
        import triton
        import triton.language as tl
        theirs = load_kernels("elementwise.py", triton, tl, "triton").tiny_kernel
        launchers["triton"] = lambda: theirs[(1,)](small, 1024, BLOCK=1024)
    except ImportError:
        pass
    stream = driver.stream_getter()
    host_only = {
        "  [grid] only": lambda: ours[(1,)],
        "  warm key only": lambda: ours._warm_key(small, 1024, BLOCK=1024),
        "  tensor is_cuda+dtype+ptr": lambda: (small.is_cuda, small.dtype, small.data_ptr()),
        "  stream query": lambda: stream(0),
        "  record pack": lambda: launcher.record.pack(1, 0, 1, 1, 1, 128, 0, 12, 0, 1024),
    }
    for fn in launchers.values():
        fn()
    torch.cuda.synchronize()
    samples = {name: [] for name in launchers}
    for _ in range(9):
        for name, fn in launchers.items():
            t0 = time.perf_counter()
            for _ in range(2000):
                fn()
            samples[name].append((time.perf_counter() - t0) / 2000 * 1e6)
            torch.cuda.synchronize()
    for name, fn in host_only.items():
        values = []
        for _ in range(9):
            t0 = time.perf_counter()
            for _ in range(20000):
                fn()
            values.append((time.perf_counter() - t0) / 20000 * 1e6)
        samples[name] = values
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"host CPU: {cpu}")
    for name, values in samples.items():
        values.sort()
        print(f"{name:28} median {values[4]:6.2f} us   min {values[0]:6.2f}   max {values[-1]:6.2f}")


if __name__ == "__main__":
    main()
