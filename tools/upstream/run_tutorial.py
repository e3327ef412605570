"""Runs one of Triton's tutorials, as Triton ships it, against Tritium.

    python tools/upstream/run_tutorial.py TUTORIAL.py [pytest [ARGS] | validate-09 [--bench-once] [MxNxK ...]]

The tutorial files come from Triton's public repository into an ignored
folder (upstream/tutorials/) and are never committed.  `import triton`
resolves to Tritium through the import alias (scripts/triton_alias).

  pytest       runs the tutorial's own pytest tests (tutorial 06: test_op).
  validate-09  runs tutorial 09's `validate` for fp16 and fp8 at the
               shapes its `__main__` validates (32^3 and 8192x8192x512;
               its `__main__` goes on to profile with Triton's profiler),
               or at the MxNxK shapes given.  With --bench-once the
               autotuner runs each config once instead of timing it (and
               keeps the first): every config's kernel still runs, which
               is what a correctness run under compute-sanitizer needs.

Tutorial 09 imports two things outside the language, which Tritium does
not implement: Triton's profiler (`triton.profiler`, used by its
benchmark and by `torch_matmul` for a timing scope) and Triton's bundled
cuBLAS binding (`triton._C.libtriton.nvidia`).  This runner executes the
file with those two import lines replaced, the profiler by a scope that
does nothing and cuBLAS by None (the tutorial then reports its cuBLAS
check as skipped); no kernel and no host function of the tutorial is
touched.  Each `validate` line prints ✅ (agrees with the tutorial's naive
kernel), ❌ or ⭕ (skipped by the tutorial); the exit status is 1 if any
line is ❌.
"""
import contextlib
import os
import subprocess
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALIAS = os.path.join(ROOT, "scripts", "triton_alias")


def alias_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ALIAS, os.path.join(ROOT, "python")] +
                                        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def run_pytest(path, extra):
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", os.path.basename(path)] + extra
    return subprocess.call(cmd, cwd=os.path.dirname(os.path.abspath(path)), env=alias_env())


# The two import lines of tutorial 09 this runner replaces, and what with.
REPLACED_IMPORTS = {
    "import triton.profiler as proton": "proton = _runner_profiler",
    "    from triton._C.libtriton import nvidia\n": "    nvidia = None\n",
    "    cublas = nvidia.cublas.CublasLt(cublas_workspace)": "    cublas = None",
}


def load_09(path):
    """Tutorial 09 as a module, its two outside imports replaced."""
    sys.path[:0] = [ALIAS, os.path.join(ROOT, "python")]
    with open(path) as f:
        source = f.read()
    for old, new in REPLACED_IMPORTS.items():
        if old not in source:
            sys.exit(f"{path}: expected line not found, the tutorial changed: {old.strip()!r}")
        source = source.replace(old, new)
    module = types.ModuleType("tutorial_09")
    module.__file__ = path
    module._runner_profiler = types.SimpleNamespace(scope=lambda *a, **k: contextlib.nullcontext())
    sys.modules[module.__name__] = module  # @jit reads kernel source through the module
    exec(compile(source, path, "exec"), module.__dict__)
    return module


MAIN_SHAPES = ((32, 32, 32), (8192, 8192, 512))


def parse_shape(text):
    parts = text.lower().split("x")
    if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
        sys.exit(f"shape {text!r}: expected MxNxK with positive integers, e.g. 256x256x512")
    return tuple(int(p) for p in parts)


def run_each_config_once():
    """Autotuning without timing: the autotuner's benchmark (tritium.testing.
    do_bench, looked up at each use) runs the kernel once and reports the
    same time for every config, so the first config is kept."""
    import tritium.testing

    def once(fn, warmup=None, rep=None, grad_to_none=None, quantiles=None, return_mode="mean"):
        fn()
        return [1.0] * len(quantiles) if quantiles else 1.0
    tritium.testing.do_bench = once


def validate_09(path, shapes=MAIN_SHAPES, bench_once=False):
    module = load_09(path)
    if bench_once:
        run_each_config_once()
    import io
    import torch
    failed = False
    for dtype in (torch.float16, torch.float8_e4m3fn):
        for shape in shapes:
            torch.manual_seed(0)
            captured = io.StringIO()
            with contextlib.redirect_stdout(captured):
                module.validate(*shape, dtype)
            text = captured.getvalue().replace("\r", "\n")
            print(text, flush=True)
            failed = failed or "❌" in text
    return 1 if failed else 0


if __name__ == "__main__":
    path, mode = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "pytest")
    if mode == "pytest":
        sys.exit(run_pytest(path, sys.argv[3:]))
    if mode == "validate-09":
        args = sys.argv[3:]
        bench_once = "--bench-once" in args
        shapes = tuple(parse_shape(a) for a in args if a != "--bench-once") or MAIN_SHAPES
        sys.exit(validate_09(path, shapes, bench_once))
    sys.exit(f"unknown mode {mode!r}")
