"""Compile fuzzing (tools/fuzz): generated kernels, valid and invalid,
compiled to cubins for cuda:90 in child processes.  No crash, no hang, every
valid program compiles to PTX that writes every register it reads, every
invalid one fails with a CompilationError at the line its mistake was
planted on.  CI (CI=true) runs seeds 0-999, 2,000
kernels; a local run takes seeds 0-149.  The same for the CPU target (host
code, linked), on seeds 0-199 in CI, 0-29 locally.  A longer run is
`python tools/fuzz/compile_fuzz.py --count 5000 [--target cpu]` (10,000 kernels)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools", "fuzz"))

import compile_fuzz  # noqa: E402


def test_generated_kernels_compile_or_fail_at_their_line():
    count = 1000 if os.environ.get("CI") else 150
    failures = compile_fuzz.run(first=0, count=count, jobs=max(1, min(4, os.cpu_count() or 1)), timeout=300)
    report = "\n".join(f"{f['failure']}: seed {f['seed']} ({f['kind']}): {f.get('message', '')}" for f in failures)
    assert not failures, f"{len(failures)} of {2 * count} generated kernels failed " \
                         f"(python tools/fuzz/compile_fuzz.py --show SEED [--invalid]):\n{report}"


def test_generated_kernels_compile_for_the_cpu_or_fail_at_their_line():
    count = 200 if os.environ.get("CI") else 30
    failures = compile_fuzz.run(first=0, count=count, jobs=max(1, min(4, os.cpu_count() or 1)), timeout=300,
                                target="cpu")
    report = "\n".join(f"{f['failure']}: seed {f['seed']} ({f['kind']}): {f.get('message', '')}" for f in failures)
    assert not failures, f"{len(failures)} of {2 * count} generated kernels failed on the CPU target " \
                         f"(python tools/fuzz/compile_fuzz.py --show SEED [--invalid] --target cpu):\n{report}"


def test_the_harness_reports_crashes_hangs_rejections_and_unwritten_registers():
    # Faults planted in four valid programs: each is reported with its
    # seed, and the seeds after them in the same child still run.
    failures = compile_fuzz.run(first=0, count=6, jobs=1, timeout=5,
                                inject={1: "abort", 2: "hang", 4: "reject", 5: "unwritten"})
    found = sorted((f["seed"], f["kind"], f["failure"]) for f in failures)
    assert found == [(1, "valid", "crash"), (2, "valid", "hang"), (4, "valid", "rejected"),
                     (5, "valid", "unwritten")], found
