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


def test_reducer_shrinks_a_planted_disagreement_with_triton(tmp_path, monkeypatch):
    """tools/fuzz/reduce.py with its real predicate (both compilers on the
    GPU), on a planted bug: Tritium's outputs are negated whenever the kernel
    calls tl.sin.  The minimal kernel must still call it, still run under
    Triton, and be a few statements long."""
    pytest.importorskip("triton")
    import reduce

    real_run = differential.run

    def planted_bug(program, kernel, arrays, compiler="tritium"):
        out = real_run(program, kernel, arrays, compiler)
        if compiler == "tritium" and "tl.sin(" in program.source:
            out = {n: -v + 1 for n, v in out.items()}
        return out

    monkeypatch.setattr(differential, "run", planted_bug)
    seed = next(s for s in range(1000) if "tl.sin(" in generate(s).source and generate(s).inputs[0][2] == "float32")
    program = generate(seed)
    still_fails = reduce.differential_predicate(program, str(tmp_path))
    assert still_fails(program.source)
    reduced = reduce.reduce_source(program.source, still_fails, max_tries=400)
    assert "tl.sin(" in reduced and still_fails(reduced)
    body = reduced.split("def kernel", 1)[1].split("\n")[1:]
    assert len([line for line in body if line.strip()]) < len(program.source.split("def kernel", 1)[1].split("\n")) - 1
