"""Tritium: a compiler and runtime for tile-based GPU kernels, in the
programming model of OpenAI Triton.  Use it as Triton:

    import tritium as triton
    import tritium.language as tl

Importing needs no GPU and no compiler: the native library (libtritium.so,
MLIR and LLVM linked in statically) is loaded with ctypes on first use.
"""
__version__ = "0.1.0"

from ._native import native_library, native_version
from .errors import CompilationError, OutOfResources, TritiumError
from .runtime import Autotuner, Config, Heuristics, JITFunction, KernelInterface, autotune, heuristics, jit
from .compiler.compiler import ASTSource, CompiledKernel, GPUTarget, compile
from . import language  # noqa: F401
from . import testing  # noqa: F401


def cdiv(x: int, y: int) -> int:
    """ceil(x / y) for Python integers."""
    return (x + y - 1) // y


def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n (1 for n <= 1)."""
    n = int(n)
    if n <= 1:
        return 1
    return 1 << (n - 1).bit_length()


__all__ = [
    "ASTSource", "Autotuner", "CompilationError", "CompiledKernel", "Config", "GPUTarget", "Heuristics",
    "JITFunction", "KernelInterface", "OutOfResources", "TritiumError", "autotune", "cdiv", "compile",
    "heuristics", "jit", "language", "native_library", "native_version", "next_power_of_2", "__version__",
]
