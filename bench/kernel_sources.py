"""Loading a kernel-source file of bench/ for one compiler.

The kernel files (elementwise_kernels.py, reduction_kernels.py) import
nothing: each is executed once per compiler with `triton` and `tl` bound to
that compiler's modules, so tritium and Triton compile exactly the same
source.  The module is registered in sys.modules because @jit reads the
kernels' source through their module.
"""
import os
import sys
import types

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))


def load_kernels(filename: str, triton_module, language_module, tag: str) -> types.ModuleType:
    """bench/`filename` executed with triton = `triton_module` and
    tl = `language_module`, as module <name>_<tag>."""
    path = os.path.join(BENCH_DIR, filename)
    module = types.ModuleType(f"{os.path.splitext(filename)[0]}_{tag}")
    module.__file__ = path
    module.triton, module.tl = triton_module, language_module
    sys.modules[module.__name__] = module
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), module.__dict__)
    return module
