"""Clock traces of a persistent matmul's K loop: where its cycles go, tile
by tile (the instrument behind bench/RESULTS.md's twelfth-session figures).

Instrumenting a PTX dump (no GPU; ptxas from CUDA):

  python bench/tools/clock_trace.py PATH.ptx [OUT_STEM]

writes OUT_STEM.ptx (default PATH_trace) in which thread 0 of each CTA
appends 64-bit records (value << 2 | tag) to trace_buf + ctaid.x * 64 KiB
(`trace_buf`, a .global pointer the launcher sets):
  tag 0  %clock64 at each wgmma.fence (a K step's MMAs about to issue),
  tag 1  %clock64 after each wgmma.wait_group 1 (the step before is done),
  tag 2  %clock64 after each wgmma.wait_group 0 (a tile's MMAs are done),
  tag 3  %clock64, then %globaltimer, at kernel entry and before its `ret`;
and assembles OUT_STEM.cubin (ptxas -arch=sm_90a -lineinfo).  One store per
K step (a few cycles of a ~1000-cycle step) is what it costs the kernel.

Reading the records: `persistent_cubin_ab.py --trace` launches such cubins
and prints summarize()'s two lines per kernel:
  TILE   mean cycles per tile (first fence to the next tile's first), their
         excess over the K steps at the tensor cores' rate, the mean period
         (fence to fence) of steps 1-4, 5-8, the middle and the last four,
         and across the tile boundary;
  CLOCK  the kernel's time (globaltimer, first entry to last exit), the
         CTAs' mean SM clock (clock64 over globaltimer, entry to exit) and
         the cycles before the first fence and after the last wait.
Made for the tutorial-09 kernels of persistent_cubin_ab.py: one wgmma.fence
per K step, one tile's steps between two wait_group 0.
"""
import os
import subprocess
import sys

CAPACITY = 8192  # records per CTA (64 KiB)
TAGS = {"wgmma.fence.sync.aligned;": 0, "wgmma.wait_group.sync.aligned 1;": 1,
        "wgmma.wait_group.sync.aligned 0;": 2}


def _record(tag, source="%clock64"):
    return [f"\t@%tr_p mov.u64 \t%tr_val, {source};", "\t@%tr_p shl.b64 \t%tr_val, %tr_val, 2;",
            f"\t@%tr_p or.b64 \t%tr_val, %tr_val, {tag};", "\t@%tr_p st.global.u64 \t[%tr_ptr], %tr_val;",
            "\t@%tr_p add.u64 \t%tr_ptr, %tr_ptr, 8;"]


def instrument(ptx):
    """`ptx` (one .entry) with the records of the module comment."""
    lines = ptx.split("\n")
    out, in_entry, started = [], False, False
    for i, line in enumerate(lines):
        text = line.strip()
        if text == "ret;" and started:
            out += _record(3) + _record(3, "%globaltimer")
        out.append(line)
        if text.startswith(".address_size"):
            out.append(".visible .global .align 8 .u64 trace_buf;")
        if ".entry" in text:
            in_entry = True
        # After the entry's register declarations: the CTA's record pointer.
        if (in_entry and not started and text.startswith(".reg ") and
                not lines[i + 1].strip().startswith(".reg ")):
            out += ["\t.reg .b64 \t%tr_ptr, %tr_off, %tr_val;", "\t.reg .pred \t%tr_p;",
                    "\t.reg .b32 \t%tr_tid, %tr_cta;",
                    "\tmov.u32 \t%tr_tid, %tid.x;", "\tsetp.eq.u32 \t%tr_p, %tr_tid, 0;",
                    "\tmov.u32 \t%tr_cta, %ctaid.x;", "\tld.global.u64 \t%tr_ptr, [trace_buf];",
                    f"\tmul.wide.u32 \t%tr_off, %tr_cta, {CAPACITY * 8};",
                    "\tadd.u64 \t%tr_ptr, %tr_ptr, %tr_off;"] + _record(3) + _record(3, "%globaltimer")
            started = True
        if text in TAGS and started:
            out += _record(TAGS[text])
    if not started:
        raise ValueError("no .entry with .reg declarations found")
    return "\n".join(out)


def summarize(name, records, k_steps, step_cycles):
    """Prints the TILE and CLOCK lines of the module comment for `records`
    (a [CTAs, CAPACITY] int64 numpy array read back from trace_buf), the
    kernel's tiles having `k_steps` K steps of `step_cycles` cycles each at
    the tensor cores' peak."""
    import numpy as np
    period, count, tiles = np.zeros(k_steps + 1), np.zeros(k_steps + 1), []
    kernel_entry, kernel_exit, mhz, prologue, tail = [], [], [], [], []
    for row in records:
        row = row[row != 0]
        if len(row) == CAPACITY:
            print(f"{name}: a CTA filled its {CAPACITY} records; the trace is cut short")
        (entry_clock, entry_ns), (exit_clock, exit_ns) = row[:2] >> 2, row[-2:] >> 2
        kernel_entry.append(entry_ns)
        kernel_exit.append(exit_ns)
        mhz.append((exit_clock - entry_clock) / max(exit_ns - entry_ns, 1) * 1000)
        inner = row[2:-2]
        clock, tag = inner >> 2, inner & 3
        fences = clock[tag == 0]
        prologue.append(fences[0] - entry_clock)
        tail.append(exit_clock - clock[tag == 2][-1])
        n = len(fences) // k_steps
        by_tile = fences[:n * k_steps].reshape(n, k_steps)
        for t in range(n):
            period[1:k_steps] += np.diff(by_tile[t])
            count[1:k_steps] += 1
            if t + 1 < n:
                period[k_steps] += by_tile[t + 1, 0] - by_tile[t, k_steps - 1]
                count[k_steps] += 1
                tiles.append(by_tile[t + 1, 0] - by_tile[t, 0])
    p = period / np.maximum(count, 1)

    def mean(first, end):  # steps [first, end) of a tile
        return float(p[first:end].mean()) if 0 < first < end <= k_steps else float("nan")

    tile = float(np.mean(tiles)) if tiles else float("nan")
    print(f"TILE  {name}: {tile:8.0f} cycles a tile (over the MMAs {tile - k_steps * step_cycles:6.0f})  "
          f"steps 1-4 {' '.join(f'{mean(j, j + 1):5.0f}' for j in range(1, 5))}  5-8 {mean(5, min(9, k_steps)):5.0f}  "
          f"middle {mean(9, k_steps - 4):6.1f}  last 4 "
          f"{' '.join(f'{mean(j, j + 1):5.0f}' for j in range(k_steps - 4, k_steps))}  boundary {p[k_steps]:5.0f}")
    print(f"CLOCK {name}: kernel {(max(kernel_exit) - min(kernel_entry)) / 1000:8.1f} us  SM clock "
          f"{np.mean(mhz):7.1f} MHz (CTA mean)  before the first fence {np.mean(prologue):6.0f} cycles  "
          f"after the last wait {np.mean(tail):6.0f} cycles")


def main():
    if len(sys.argv) not in (2, 3) or not sys.argv[1].endswith(".ptx"):
        sys.exit(__doc__)
    stem = sys.argv[2] if len(sys.argv) == 3 else sys.argv[1][:-len(".ptx")] + "_trace"
    with open(sys.argv[1]) as f:
        traced = instrument(f.read())
    with open(stem + ".ptx", "w") as f:
        f.write(traced)
    ptxas = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")
    subprocess.run([ptxas, "-arch=sm_90a", "-lineinfo", "-o", stem + ".cubin", stem + ".ptx"], check=True)
    print(f"{stem}.ptx, {stem}.cubin")


if __name__ == "__main__":
    main()
