"""Triton's tutorials 06 (fused attention) and 09 (persistent matmul) as
Triton 3.6 ships them, run against Tritium through the import alias
(tools/upstream/run_tutorial.py).  The tutorial files are not part of this
repository: they are read from $TRITIUM_UPSTREAM_TUTORIALS or
upstream/tutorials/ (filled from Triton's repository, release/3.6.x, and
carried to the GPU machine), and these tests skip where they are absent.

06: the tutorial's own `test_op` (attention forward in fp8 and backward in
fp16 against torch, causal, Z 1/4, H 2/48, N 128/1024/4096, head dims 64
and 128), all 48 cases.  09: `validate` for fp16 and fp8 at 32^3 and
8192x8192x512: the pointer, TMA, persistent TMA and device-descriptor
kernels, with and without warp_specialize, against the tutorial's naive
kernel."""
import os
import re
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
TUTORIALS = os.environ.get("TRITIUM_UPSTREAM_TUTORIALS", os.path.join(ROOT, "upstream", "tutorials"))
RUNNER = os.path.join(ROOT, "tools", "upstream", "run_tutorial.py")


def tutorial(name):
    path = os.path.join(TUTORIALS, name)
    if not os.path.exists(path):
        pytest.skip(f"{path} is absent (Triton's tutorials are not part of this repository)")
    return path


def run(args, timeout):
    proc = subprocess.run([sys.executable, RUNNER] + args, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout + proc.stderr


def pytest_summary(out):
    """The last pytest result line ("4 passed, 4 skipped in 9.1s") of a
    run's output: warnings printed on stderr after it (pytest-benchmark's
    under xdist) are not the summary."""
    lines = [line for line in out.splitlines() if re.search(r"\d+ (passed|failed|error)", line)]
    return lines[-1] if lines else ""


@pytest.mark.whole_gpu  # its reference attention at N = 4096, H = 48 holds about 60 GiB
@pytest.mark.full_scale
def test_tutorial_06_test_op():
    rc, out = run([tutorial("06-fused-attention.py"), "pytest"], timeout=1200)
    summary = pytest_summary(out)
    assert rc == 0, out[-6000:]
    # 24 fp8 forward and 24 fp16 backward cases run; the other 48 skip themselves
    assert re.search(r"\b48 passed", summary), summary


def test_tutorial_06_test_op_small():
    # test ids end in HEAD_DIM-N_CTX-H-Z: "128-2-1" selects N_CTX = 128, H = 2, Z = 1
    rc, out = run([tutorial("06-fused-attention.py"), "pytest", "-k", "128-2-1"], timeout=1200)
    summary = pytest_summary(out)
    assert rc == 0, out[-6000:]
    # head dims 64 and 128: fp8 forward and fp16 backward (the other two skip themselves)
    assert re.search(r"\b4 passed", summary), summary


@pytest.mark.full_scale
def test_tutorial_09_validate():
    rc, out = run([tutorial("09-persistent-matmul.py"), "validate-09"], timeout=1200)
    assert rc == 0, out[-6000:]
    assert "❌" not in out, out
    # per validate: Torch (fp16 only), Persistent, TMA, TMA Persistent, Tensor Descriptor
    # Persistent, and Tensor Descriptor Persistent with warp_specialize (Hopper runs only
    # that one specialized)
    assert out.count("✅") >= 2 * 6 + 2 * 5, out


def test_tutorial_09_validate_small():
    # each autotuning config runs once, untimed (a correctness run: under
    # racecheck, timing every config of every kernel took over 9 minutes)
    rc, out = run([tutorial("09-persistent-matmul.py"), "validate-09", "--bench-once", "32x32x32", "256x256x512"],
                  timeout=1200)
    assert rc == 0, out[-6000:]
    assert "❌" not in out, out
    assert out.count("✅") >= 2 * 6 + 2 * 5, out
