"""Runs one of Triton's tutorials, as Triton ships it, against Tritium.

    python tools/upstream/run_tutorial.py TUTORIAL.py [pytest | validate-09]

The tutorial files come from Triton's public repository into an ignored
folder (upstream/tutorials/) and are never committed.  `import triton`
resolves to Tritium through the import alias (scripts/triton_alias).

  pytest       runs the tutorial's own pytest tests (tutorial 06: test_op).
  validate-09  runs tutorial 09's `validate` for fp16 and fp8 (its
               `__main__` goes on to profile with Triton's profiler).

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


def validate_09(path):
    module = load_09(path)
    import io
    import torch
    failed = False
    for dtype in (torch.float16, torch.float8_e4m3fn):
        for shape in ((32, 32, 32), (8192, 8192, 512)):
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
        sys.exit(validate_09(path))
    sys.exit(f"unknown mode {mode!r}")
