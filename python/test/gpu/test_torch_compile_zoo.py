"""torch.compile's model zoo on Tritium (bench/torch_zoo.py, the `sweep`
case set, or the set TRITIUM_ZOO_CASES names, such as `matrix`): each
model, task, precision and Inductor mode compiled with `triton` answered by
Tritium in a fresh process with fresh caches, and its output, gradients
and updated weights compared with eager PyTorch: within a fixed tolerance,
or, where an error is above it, no less closely than the same case
compiled with Triton (when Triton is installed; only those cases run
under Triton).

Marked full_scale: 38 cases of 5-60 s each (the matrix: 132 of 5-400 s).
Run it alone:
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
@pytest.mark.parametrize("case", torch_zoo.cases(os.environ.get("TRITIUM_ZOO_CASES", "sweep")), ids=_id)
def test_zoo_case_agrees_with_eager_as_triton_does(case):
    got = bench_torch_compile.run_case("tritium", case, timeout=900)
    assert "error" not in got, got["error"] + "\n" + got.get("stderr", "")
    assert got["triton"] == "tritium"
    keys = [key for key in ("err", "grad_err", "param_err") if key in got]
    above = [key for key in keys if got[key] > FLOOR[case[2]]]
    want = bench_torch_compile.run_case("triton", case, timeout=900) if above and HAVE_TRITON else {}
    for key in above:
        bound = max(FLOOR[case[2]], 2 * want[key]) if key in want else FLOOR[case[2]]
        assert got[key] <= bound, f"{key} {got[key]:.3e} above {bound:.3e} (Triton: {want.get(key)})"
