"""Generated kernels (tools/fuzz/kernel_generator.py) run on the GPU and
checked against their own numpy references: integers bit for bit, floats
within each program's tolerance.  Seeds 0-239, in chunks so that pytest-xdist
spreads them; `python tools/fuzz/differential.py --count N` runs more, with
Triton alongside."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools", "fuzz"))

import differential  # noqa: E402
from kernel_generator import generate  # noqa: E402


@pytest.mark.parametrize("first", range(0, 240, 20))
def test_generated_kernels_match_their_references(first, tmp_path):
    wrong = []
    for seed in range(first, first + 20):
        program = generate(seed)
        namespace = {}
        exec(compile(program.reference, f"<reference {seed}>", "exec"), namespace)
        arrays = differential.inputs_for(program, np.random.default_rng(seed))
        with np.errstate(all="ignore"):
            want = namespace["reference"](arrays)
        got = differential.run(program, differential.load(program, "tritium", str(tmp_path)), arrays)
        if not differential.agrees(program, got, want):
            wrong.append(seed)
    assert not wrong, f"generated kernels disagree with their references: seeds {wrong} " \
                      f"(python tools/fuzz/compile_fuzz.py --show SEED)"
