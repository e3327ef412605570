"""torch.compile's model zoo on Tritium (bench/torch_zoo.py, the `sweep`
case set): each model, task, precision and Inductor mode compiled with
`triton` answered by Tritium in a fresh process with fresh caches, and its
output, gradients and updated weights compared with eager PyTorch no less
closely than the same case compiled with Triton is (when Triton is
installed), or than a fixed tolerance.

Marked full_scale: 34 cases of 5-60 s each, twice.  Run it alone:
  python3 -m pytest python/test/gpu/test_torch_compile_zoo.py -n 4 -m full_scale
"""
import importlib.util
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "bench"))

import bench_torch_compile  # noqa: E402
import torch_zoo  # noqa: E402

HAVE_TRITON = importlib.util.find_spec("triton") is not None and \
    "tritium" not in (importlib.util.find_spec("triton").origin or "")

# Below these errors a case agrees with eager whatever Triton's error is
# (relative to the largest magnitude; bf16 keeps 8 bits of mantissa).
FLOOR = {"fp32": 2e-4, "bf16": 3e-2}


def _id(case):
    model, task, precision, mode, dynamic = case
    return "-".join([model, task, precision, mode] + (["dynamic"] if dynamic else []))


@pytest.mark.full_scale
@pytest.mark.parametrize("case", torch_zoo.cases("sweep"), ids=_id)
def test_zoo_case_agrees_with_eager_as_triton_does(case):
    got = bench_torch_compile.run_case("tritium", case, timeout=900)
    assert "error" not in got, got["error"] + "\n" + got.get("stderr", "")
    assert got["triton"] == "tritium"
    want = bench_torch_compile.run_case("triton", case, timeout=900) if HAVE_TRITON else {}
    for key in ("err", "grad_err", "param_err"):
        if key not in got:
            continue
        bound = FLOOR[case[2]]
        if key in want:
            bound = max(bound, 2 * want[key])
        assert got[key] <= bound, f"{key} {got[key]:.3e} above {bound:.3e} (Triton: {want.get(key)})"
