"""Loading the kernel sources of bench/kernels/ for one compiler.

The files of bench/kernels/ import nothing: each is executed with `triton`
and `tl` bound to one compiler's modules (Tritium's or the installed
Triton's), so both compile exactly the same source.  The benchmarks
(bench/bench_*.py), the tools (bench/tools/) and the tests (python/test)
load their kernels from there through `load_kernels`; the tests reach this
module by putting bench/ on sys.path.

The module is registered in sys.modules because @jit reads a kernel's
source through its module.  Loading the same files for the same compiler
under the same tag again returns the module already loaded, so a process
compiles each kernel once.
"""
import os
import sys
import types

KERNELS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")


def load_kernels(filenames, triton_module, language_module, tag: str) -> types.ModuleType:
    """The kernels of bench/kernels/`filenames` (one file name, or several
    executed in order into one module) with triton = `triton_module` and
    tl = `language_module`, as module <stems>_<tag>."""
    names = (filenames,) if isinstance(filenames, str) else tuple(filenames)
    module_name = "_".join(os.path.splitext(name)[0] for name in names) + f"_{tag}"
    module = sys.modules.get(module_name)
    if (module is not None and getattr(module, "__kernel_files__", None) == names
            and module.triton is triton_module and module.tl is language_module):
        return module
    module = types.ModuleType(module_name)
    module.__file__ = os.path.join(KERNELS_DIR, names[0])
    module.__kernel_files__ = names
    module.triton, module.tl = triton_module, language_module
    sys.modules[module_name] = module
    for name in names:
        path = os.path.join(KERNELS_DIR, name)
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), module.__dict__)
    return module
