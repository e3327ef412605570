"""Differential testing on the GPU: generated valid kernels
(kernel_generator.py) run under Tritium and, when it is installed, under
Triton, on the same random inputs, each checked against the program's own
numpy reference: integers bit for bit, floats within the program's
tolerance, scaled by the largest reference value (sums with cancellation
lose absolute, not relative, precision).  A program that one compiler gets
right and the other wrong is a bug in the latter; one both get wrong points
at the generator's reference.

With --target cpu, no GPU or torch is needed: the kernels run on Tritium's
CPU target on numpy arrays (LLVM's optimizing code generator, or with
--codegen fast its fast one, as under TRITON_INTERPRET=1), checked against
the same reference (bfloat16 arrays as their bits in uint16 arrays).

Integer programs must match the reference, and so each other, bit for bit;
the summary also counts the programs whose outputs are bit-identical between
the two compilers.

Usage: python tools/fuzz/differential.py [--count N] [--first SEED] [--jobs J]
           [--target cpu [--codegen fast|optimized]]
Exit status 1 when Tritium disagrees with the reference on any program, or
when a pooled run stalls (no seed finished for STALL_SECONDS: a worker died
in native code or hangs); the unfinished seeds are then listed.
Progress is printed (flushed) as seeds finish: every 250 seeds, and each
seed that took over SLOW_SECONDS under either compiler, so that a run cut
off from outside still shows how far it got; the summary names the three
slowest seeds.
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

from kernel_generator import generate, poison  # noqa: E402

def torch_dtype(name):
    import torch
    return getattr(torch, name)


def load(program, compiler: str, workdir: str):
    """The program's `kernel`, compiled by `compiler`: "tritium", "triton",
    or "tritium-O0" (Tritium with ptxas -O0, which tells a ptxas miscompile
    from ours)."""
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
    """Random inputs as numpy arrays; bfloat16 ones as float32 arrays of
    bfloat16 values (numpy has no bfloat16)."""
    arrays = {}
    for name, shape, dtype in program.inputs:
        if dtype.startswith("uint"):
            arrays[name] = rng.integers(0, 200, size=shape, dtype=np.dtype(dtype))
        elif dtype.startswith("int"):
            arrays[name] = rng.integers(-100, 100, size=shape, dtype=np.dtype(dtype))
        elif dtype == "bfloat16":
            bits = (rng.standard_normal(size=shape) * 2).astype(np.float32).view(np.uint32)
            arrays[name] = (bits & np.uint32(0xFFFF0000)).view(np.float32)
        else:
            arrays[name] = (rng.standard_normal(size=shape) * 2).astype(dtype)
    return arrays


def descriptor_class(compiler):
    if compiler == "triton":
        from triton.tools.tensor_descriptor import TensorDescriptor
    else:
        from tritium.tools.tensor_descriptor import TensorDescriptor
    return TensorDescriptor


def _bfloat16_bits(values):
    """float32 values that are bfloat16 values, as bfloat16 bits."""
    return (np.asarray(values, np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)


def run_on_cpu(program, kernel, arrays):
    """The program on Tritium's CPU target, on numpy arrays (host tensor
    descriptors over them where the program takes descriptors).  numpy has
    no bfloat16: a program with bfloat16 arrays holds their bits in uint16
    arrays, compiled with the program's own signature (the pointers say
    bf16) and launched with their addresses, its bfloat16 outputs read back
    as float32."""
    import tritium
    from tritium.tools.tensor_descriptor import TensorDescriptor
    dtypes = {n: d for n, _, d in program.inputs + program.outputs}
    bfloat16 = {n for n, d in dtypes.items() if d == "bfloat16"}
    host = {n: _bfloat16_bits(a) if n in bfloat16 else a for n, a in arrays.items()}
    outs = {}
    for name, shape, dtype in program.outputs:
        fill = 0 if name in program.zero_outputs else poison(dtype)
        outs[name] = (np.full(shape, _bfloat16_bits(fill), np.uint16) if name in bfloat16
                      else np.full(shape, fill, dtype=np.dtype(dtype)))
    args = [host.get(p, outs.get(p, program.scalars.get(p))) for p in program.arguments()]
    args = [TensorDescriptor(a, list(a.shape), [s // a.itemsize for s in a.strides], list(program.descriptors[p]))
            if p in program.descriptors else a for p, a in zip(program.arguments(), args)]
    if not bfloat16:
        kernel[program.grid](*args, **program.constexprs, num_warps=program.num_warps,
                             num_stages=program.num_stages)
        return outs
    compiled = tritium.compile(kernel, signature=dict(program.signature), constexprs=dict(program.constexprs),
                               attrs=dict(program.attrs), target="cpu", num_warps=program.num_warps,
                               num_stages=program.num_stages)
    compiled[program.grid](*[a for p, a in zip(program.arguments(), args) if p not in program.constexprs])
    return {n: (o.astype(np.uint32) << np.uint32(16)).view(np.float32) if n in bfloat16 else o
            for n, o in outs.items()}


def run(program, kernel, arrays, compiler="tritium"):
    if compiler == "tritium-cpu":
        return run_on_cpu(program, kernel, arrays)
    import torch
    dtypes = {n: d for n, _, d in program.inputs}
    tensors = {n: torch.from_numpy(a).cuda().to(torch_dtype(dtypes[n])) if dtypes.get(n) == "bfloat16"
               else torch.from_numpy(a).cuda() for n, a in arrays.items()}
    outs = {}
    for name, shape, dtype in program.outputs:
        fill = 0 if name in program.zero_outputs else poison(dtype)
        outs[name] = torch.full(shape, fill, dtype=torch_dtype(dtype), device="cuda")
    args = [tensors.get(p, outs.get(p, program.scalars.get(p))) for p in program.arguments()]
    if program.descriptors:  # host tensor descriptors over those arrays
        desc = descriptor_class(compiler)
        args = [desc.from_tensor(a, list(program.descriptors[p])) if p in program.descriptors else a
                for p, a in zip(program.arguments(), args)]
    previous = os.environ.get("DISABLE_PTXAS_OPT")
    if compiler == "tritium-O0":
        os.environ["DISABLE_PTXAS_OPT"] = "1"  # read when the launch compiles
    try:
        kernel[program.grid](*args, **program.constexprs, num_warps=program.num_warps,
                             num_stages=program.num_stages)
    finally:
        if compiler == "tritium-O0" and previous is None:
            del os.environ["DISABLE_PTXAS_OPT"]
        elif compiler == "tritium-O0":
            os.environ["DISABLE_PTXAS_OPT"] = previous
    torch.cuda.synchronize()
    return {n: (t.float() if t.dtype == torch.bfloat16 else t).cpu().numpy() for n, t in outs.items()}


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


def bit_identical(a: dict, b: dict) -> bool:
    """Whether two runs wrote the same bits to every output."""
    return all(a[n].shape == b[n].shape and a[n].tobytes() == b[n].tobytes() for n in a)


def check_seed(seed: int, compilers, workdir: str) -> dict:
    """One generated program under each compiler: whether each agrees with
    the reference, the text of an error either raised, and whether Tritium
    and Triton wrote identical bits."""
    program = generate(seed)
    namespace = {}
    exec(compile(program.reference, f"<reference {seed}>", "exec"), namespace)
    arrays = inputs_for(program, np.random.default_rng(seed))
    with np.errstate(all="ignore"):  # overflow to inf in a cast is what the kernel does too
        want = namespace["reference"](arrays)
    record = {"seed": seed, "right": {}, "error": None, "triton_error": None, "identical": None, "seconds": {}}
    outputs = {}
    for compiler in compilers:
        start = time.monotonic()
        try:
            outputs[compiler] = run(program, load(program, compiler, workdir), arrays, compiler)
            record["right"][compiler] = agrees(program, outputs[compiler], want)
        except Exception as e:  # noqa: BLE001 - an error is a disagreement, reported with its text
            record["right"][compiler] = False
            text = f"{type(e).__name__}: {str(e)[:300]}"
            if compiler.startswith("tritium"):
                record["error"] = text
            elif compiler == "triton":  # e.g. a form Triton's release does not accept yet
                record["triton_error"] = text.splitlines()[0] if text else text
        record["seconds"][compiler] = time.monotonic() - start
    if len(outputs) == 2:
        record["identical"] = bit_identical(outputs["tritium"], outputs["triton"])
    return record


_WORKDIR = None


def _check_one(seed, compilers):
    """One seed in a worker process (each keeps its CUDA context and its
    source directory across the seeds it is given)."""
    global _WORKDIR
    if _WORKDIR is None:
        _WORKDIR = tempfile.mkdtemp(prefix="tritium-diff-src-")
    return check_seed(seed, compilers, _WORKDIR)


def _check_one_task(task):
    return _check_one(*task)


SLOW_SECONDS = 30.0  # a seed this slow (compile and run, either compiler) is reported as it finishes
STALL_SECONDS = 180.0  # no seed finishing for this long ends a pooled run (a worker died or hangs)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes sharing the GPU")
    parser.add_argument("--target", choices=("gpu", "cpu"), default="gpu")
    parser.add_argument("--codegen", choices=("optimized", "fast"), default="optimized",
                        help="with --target cpu: LLVM's code generator (fast: as under TRITON_INTERPRET=1)")
    args = parser.parse_args(argv)
    if args.target == "cpu":
        compilers = ["tritium-cpu"]
        if args.codegen == "fast":
            os.environ["TRITON_INTERPRET"] = "1"  # (the workers inherit it)
    else:
        try:
            import triton  # noqa: F401
            compilers = ["tritium", "triton"]
        except ImportError:
            compilers = ["tritium"]
    ours = compilers[0]
    t0 = time.monotonic()
    seeds = list(range(args.first, args.first + args.count))
    records = []

    def finished(record):
        # progress as it goes, flushed: a run stopped from outside still
        # says how far it got and which seeds were slow
        records.append(record)
        slow = {c: t for c, t in record["seconds"].items() if t > SLOW_SECONDS}
        if slow:
            print(f"seed {record['seed']}: slow, " + ", ".join(f"{c} {t:.0f} s" for c, t in slow.items()), flush=True)
        if len(records) % 250 == 0:
            print(f"{len(records)} of {len(seeds)} done in {time.monotonic() - t0:.0f} s", flush=True)

    unfinished = []
    if args.jobs <= 1:
        for seed in seeds:
            finished(_check_one(seed, compilers))
    else:
        import multiprocessing
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            results = pool.imap_unordered(_check_one_task, [(seed, compilers) for seed in seeds])
            for _ in seeds:
                try:
                    finished(results.next(timeout=STALL_SECONDS))
                except multiprocessing.TimeoutError:
                    # A worker that dies (a crash in native code) loses its
                    # seed, and the pool would wait for it forever.
                    done = {r["seed"] for r in records}
                    unfinished = [s for s in seeds if s not in done]
                    print(f"no seed finished in {STALL_SECONDS:.0f} s: a worker crashed or hangs; "
                          f"{len(unfinished)} seeds unfinished, among them the culprits: "
                          f"{' '.join(map(str, unfinished[:60]))}{' ...' if len(unfinished) > 60 else ''}\n"
                          f"(rerun one alone: --first SEED --count 1 --jobs 1)", flush=True)
                    pool.terminate()
                    break
    records.sort(key=lambda r: r["seed"])
    ours_wrong = []
    for r in records:
        if r["error"]:
            print(f"seed {r['seed']}: tritium raised {r['error']}")
        if not r["right"][ours]:
            ours_wrong.append(r["seed"])
            other = f", Triton {'right' if r['right'].get('triton') else 'wrong too'}" if "triton" in r["right"] else ""
            print(f"seed {r['seed']}: Tritium disagrees with the reference{other}")
        elif "triton" in r["right"] and not r["right"]["triton"]:
            why = f" (Triton raised {r['triton_error']})" if r.get("triton_error") else ""
            print(f"seed {r['seed']}: Triton disagrees with the reference, Tritium agrees{why}")
    tally = {c: sum(r["right"][c] for r in records) for c in compilers}
    summary = ", ".join(f"{c} right on {tally[c]}" for c in compilers)
    if "triton" in compilers:
        raised = sum(bool(r.get("triton_error")) for r in records)
        summary += f" (Triton raised on {raised})"
        summary += f"; bit-identical outputs on {sum(bool(r['identical']) for r in records)}"
    print(f"{len(records)} of {args.count} generated kernels in {time.monotonic() - t0:.0f} s: {summary}")
    slowest = sorted(records, key=lambda r: -max(r["seconds"].values(), default=0))[:3]
    print("slowest seeds: " + ", ".join(
        f"{r['seed']} ({', '.join(f'{c} {t:.1f} s' for c, t in r['seconds'].items())})" for r in slowest))
    return 1 if ours_wrong or unfinished else 0


if __name__ == "__main__":
    sys.exit(main())
