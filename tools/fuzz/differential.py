"""Differential testing on the GPU: generated valid kernels
(kernel_generator.py) run under Tritium and, when it is installed, under
Triton, on the same random inputs, each checked against the program's own
numpy reference: integers bit for bit, floats within the program's
tolerance, scaled by the largest reference value (sums with cancellation
lose absolute, not relative, precision).  A program that one compiler gets
right and the other wrong is a bug in the latter; one both get wrong points
at the generator's reference.

Usage: python tools/fuzz/differential.py [--count N] [--first SEED]
Exit status 1 when Tritium disagrees with the reference on any program.
"""
import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
os.environ.setdefault("TRITIUM_CACHE_DIR", tempfile.mkdtemp(prefix="tritium-diff-"))
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-diff-"))

import importlib.util  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

from kernel_generator import generate  # noqa: E402

TORCH = {"float32": torch.float32, "float16": torch.float16, "int32": torch.int32, "int8": torch.int8}


def load(program, compiler: str, workdir: str):
    """The program's `kernel`, compiled by `compiler` ("tritium" or "triton")."""
    source = program.source
    if compiler == "triton":
        source = source.replace("import tritium as triton", "import triton").replace(
            "import tritium.language as tl", "import triton.language as tl")
    path = os.path.join(workdir, f"d{program.seed}_{compiler}.py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(f"diff_{program.seed}_{compiler}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.kernel


def inputs_for(program, rng):
    arrays = {}
    for name, shape, dtype in program.inputs:
        if dtype.startswith("int"):
            arrays[name] = rng.integers(-100, 100, size=shape, dtype=np.dtype(dtype))
        else:
            arrays[name] = (rng.standard_normal(size=shape) * 2).astype(dtype)
    return arrays


def descriptor_class(compiler):
    if compiler == "triton":
        from triton.tools.tensor_descriptor import TensorDescriptor
    else:
        from tritium.tools.tensor_descriptor import TensorDescriptor
    return TensorDescriptor


def run(program, kernel, arrays, compiler="tritium"):
    tensors = {n: torch.from_numpy(a).cuda() for n, a in arrays.items()}
    outs = {}
    for name, shape, dtype in program.outputs:
        fill = 0 if name in program.zero_outputs else -77 if dtype.startswith("int") else float("nan")
        outs[name] = torch.full(shape, fill, dtype=TORCH[dtype], device="cuda")
    args = [tensors.get(p, outs.get(p, program.scalars.get(p))) for p in program.arguments()]
    if program.descriptors:  # host tensor descriptors over those arrays
        desc = descriptor_class(compiler)
        args = [desc.from_tensor(a, list(program.descriptors[p])) if p in program.descriptors else a
                for p, a in zip(program.arguments(), args)]
    kernel[program.grid](*args, **program.constexprs, num_warps=program.num_warps)
    torch.cuda.synchronize()
    return {n: t.cpu().numpy() for n, t in outs.items()}


def agrees(program, got, want) -> bool:
    for name, value in want.items():
        g = got[name]
        if g.shape != value.shape:
            return False
        if np.issubdtype(value.dtype, np.integer):
            if not np.array_equal(g, value):
                return False
            continue
        g64, w64 = g.astype(np.float64), value.astype(np.float64)
        finite = np.isfinite(w64)
        if not np.array_equal(finite, np.isfinite(g64)):
            return False
        scale = np.max(np.abs(w64[finite])) if finite.any() else 0.0
        if not np.allclose(g64[finite], w64[finite], rtol=program.rtol, atol=program.atol + program.rtol * scale):
            return False
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import triton  # noqa: F401
        compilers = ["tritium", "triton"]
    except ImportError:
        compilers = ["tritium"]
    workdir = tempfile.mkdtemp(prefix="tritium-diff-src-")
    t0 = time.monotonic()
    tally = {c: 0 for c in compilers}
    ours_wrong = []
    for seed in range(args.first, args.first + args.count):
        program = generate(seed)
        namespace = {}
        exec(compile(program.reference, f"<reference {seed}>", "exec"), namespace)
        arrays = inputs_for(program, np.random.default_rng(seed))
        with np.errstate(all="ignore"):  # overflow to inf in a cast is what the kernel does too
            want = namespace["reference"](arrays)
        right = {}
        for compiler in compilers:
            try:
                right[compiler] = agrees(program, run(program, load(program, compiler, workdir), arrays, compiler),
                                         want)
            except Exception as e:  # noqa: BLE001 - an error is a disagreement, reported with its text
                right[compiler] = False
                if compiler == "tritium":
                    print(f"seed {seed}: tritium raised {type(e).__name__}: {str(e)[:300]}")
            tally[compiler] += right[compiler]
        if not right["tritium"]:
            ours_wrong.append(seed)
            other = f", Triton {'right' if right.get('triton') else 'wrong too'}" if "triton" in right else ""
            print(f"seed {seed}: Tritium disagrees with the reference{other}")
    print(f"{args.count} generated kernels in {time.monotonic() - t0:.0f} s: " +
          ", ".join(f"{c} right on {tally[c]}" for c in compilers))
    return 1 if ours_wrong else 0


if __name__ == "__main__":
    sys.exit(main())
