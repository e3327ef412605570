"""tools/fuzz/differential.py on the CPU target: the first generated
kernels run on numpy arrays, under LLVM's optimizing code generator and its
fast one (TRITON_INTERPRET=1's), and agree with the generator's numpy
reference (seeds 0-39 include conversions of doubles to float16, which
LLVM compiles to library calls the JIT must resolve, and bfloat16 arrays,
held as their bits)."""
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("numpy")

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools", "fuzz",
                      "differential.py")


@pytest.mark.parametrize("codegen", ["optimized", "fast"])
def test_generated_kernels_agree_with_their_reference_on_the_cpu(tmp_path, codegen):
    env = dict(os.environ, TRITIUM_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("TRITON_INTERPRET", None)
    run = subprocess.run([sys.executable, SCRIPT, "--target", "cpu", "--codegen", codegen, "--count", "40"],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    ran, right = map(int, re.search(r"(\d+) of 40 generated kernels .*right on (\d+)", run.stdout).groups())
    assert ran == right == 40, run.stdout[-2000:]
