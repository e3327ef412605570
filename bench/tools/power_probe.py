"""Clock and power of each compiler's persistent matmul under the H100's
power cap: does one kernel run at lower clocks for the same work?

  python bench/tools/power_probe.py SIZE [PHASES]

Tutorial 09's matmul_tma_persistent (bench/persistent_matmul_kernels.py,
128x256x64, 8 warps, M = N = K = SIZE) from Tritium at 3 and 4 stages and
from Triton at 3, each launched back to back (no L2 flush) for 2 s per
phase, the kernels alternating over PHASES (default 8) phases each, while
`nvidia-smi` samples the SM clock and the power draw every 50 ms.  Prints
per kernel the median phase's TFLOP/s (CUDA events around the phase), SM
clock and power (samples from 0.5 s into a phase to its end).

The host synchronizes every BATCH (env, default 10, as in the eleventh
session's run) launches: at 4096^3 (about 0.2 ms a launch) the GPU then
idles while the next batch is issued, so use BATCH=100 or more for small
sizes.
"""
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TRITIUM_CACHE_DIR", tempfile.mkdtemp(prefix="tritium-cache-"))
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

import torch  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from tritium.tools.tensor_descriptor import TensorDescriptor as TritiumDescriptor  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.tools.tensor_descriptor import TensorDescriptor as TritonDescriptor  # noqa: E402

PHASE_S = 2.0
BATCH = int(os.environ.get("BATCH", "10"))
size = int(sys.argv[1])
phases = int(sys.argv[2]) if len(sys.argv) > 2 else 8
a = torch.randn(size, size, device="cuda", dtype=torch.float16)
b = torch.randn(size, size, device="cuda", dtype=torch.float16)
c = torch.empty(size, size, device="cuda", dtype=torch.float16)
sms = torch.cuda.get_device_properties(0).multi_processor_count
grid = min(sms, (size // 128) * (size // 256))
launches = {}
for name, compiler, language, descriptor, stages in (
        ("tritium", tritium, ttl, TritiumDescriptor, 3), ("triton", triton, tl, TritonDescriptor, 3),
        ("tritium 4 stages", tritium, ttl, TritiumDescriptor, 4)):
    kernel = load_kernels("persistent_matmul_kernels.py", compiler, language, name.replace(" ", "_")).matmul_tma_persistent
    descs = (descriptor.from_tensor(a, [128, 64]), descriptor.from_tensor(b, [256, 64]),
             descriptor.from_tensor(c, [128, 256]))

    def launch(kernel=kernel, descs=descs, stages=stages):
        kernel[(grid,)](*descs, size, size, size, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
                        GROUP_SIZE_M=8, NUM_SMS=sms, num_stages=stages, num_warps=8)
    launch()
    torch.cuda.synchronize()
    launches[name] = launch

smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw", "--format=csv,noheader,nounits",
                        "-lms", "50"], stdout=subprocess.PIPE, text=True)
time.sleep(1.0)
marks = []  # (name, start, end, ms per launch)
names = list(launches)
for p in range(phases * len(names)):
    name = names[p % len(names)]
    start_event, end_event = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    t0, n = time.time(), 0
    start_event.record()
    while time.time() - t0 < PHASE_S:
        for _ in range(BATCH):
            launches[name]()
        n += BATCH
        torch.cuda.synchronize()
    end_event.record()
    torch.cuda.synchronize()
    marks.append((name, t0, time.time(), start_event.elapsed_time(end_event) / n))
smi.terminate()
samples = []  # (time, MHz, W); nvidia-smi's timestamps are this machine's local time
for line in smi.communicate()[0].strip().splitlines():
    stamp, clock, power = [field.strip() for field in line.split(",")]
    samples.append((datetime.datetime.strptime(stamp, "%Y/%m/%d %H:%M:%S.%f").timestamp(), float(clock), float(power)))
results = {name: {"ms": [], "clock": [], "power": []} for name in names}
for name, t0, t1, ms in marks:
    results[name]["ms"].append(ms)
    inside = [s for s in samples if t0 + 0.5 <= s[0] <= t1]
    if inside:
        results[name]["clock"].append(statistics.mean(s[1] for s in inside))
        results[name]["power"].append(statistics.mean(s[2] for s in inside))
for name, r in results.items():
    clock = statistics.median(r["clock"]) if r["clock"] else float("nan")
    power = statistics.median(r["power"]) if r["power"] else float("nan")
    print(f"{size} {name:17} {2 * size ** 3 / statistics.median(r['ms']) / 1e9:7.1f} TFLOP/s  SM clock {clock:7.1f} MHz"
          f"  power {power:6.1f} W  ({len(r['ms'])} phases)")
