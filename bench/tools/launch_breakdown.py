"""Where the host time of a warm launch goes, on the GPU machine: the same
tiny kernel launched (a) by the native library alone from a prepared launch
record (the driver's cost: the floor of any Python launcher), (b) through
tritium's warm path, (c) through Triton, and (d) torch's x.add_(1), in
interleaved rounds of 2000 launches without a sync inside (as
bench_elementwise.py times them); medians of 9 rounds.
Usage: python bench/tools/launch_breakdown.py
"""
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))
os.environ["TRITIUM_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritium-cache-")

import torch  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from tritium.runtime import driver  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

try:
    import triton
    import triton.language as tl
except ImportError:
    triton = None


small = torch.zeros(1024, device="cuda")
ours = load_kernels("elementwise_kernels.py", tritium, ttl, "tritium")
ours.tiny_kernel[(1,)](small, 1024, BLOCK=1024)
entry = next(iter(ours.tiny_kernel._warm.values()))
# the prepared record of the same launch, built once
launcher = next(iter(ours.tiny_kernel.compiled.values()))._launcher
record = launcher.record.pack(launcher.function(0), driver.current_stream(0), 1, 1, 1, launcher.threads,
                              launcher.shared, launcher.params_bytes, small.data_ptr(), 1024)
native_launch = driver.cuda().launch

launchers = {
    "native record only": lambda: native_launch(record),
    "tritium entry only": lambda: entry((1,), small.data_ptr(), 1024, 1024),
    "tritium warm path": lambda: ours.tiny_kernel[(1,)](small, 1024, BLOCK=1024),
    "torch x.add_(1)": lambda: small.add_(1),
}
# host-only stages of the warm path (nothing launched)
stream = driver.stream_getter()
host_only = {
    "  [grid] only": lambda: ours.tiny_kernel[(1,)],
    "  warm key only": lambda: ours.tiny_kernel._warm_key(small, 1024, BLOCK=1024),
    "  tensor is_cuda+dtype+ptr": lambda: (small.is_cuda, small.dtype, small.data_ptr()),
    "  stream query": lambda: stream(0),
    "  record pack": lambda: launcher.record.pack(1, 0, 1, 1, 1, 128, 0, 12, 0, 1024),
}
dispatch = ours.tiny_kernel._dispatch
launchers["tritium dispatch, no [grid]"] = lambda: dispatch((1,), small, 1024, BLOCK=1024)
if triton is not None:
    theirs = load_kernels("elementwise_kernels.py", triton, tl, "triton")
    launchers["triton"] = lambda: theirs.tiny_kernel[(1,)](small, 1024, BLOCK=1024)
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
    print(f"{name:24} median {values[4]:6.2f} us   min {values[0]:6.2f}   max {values[-1]:6.2f}")
