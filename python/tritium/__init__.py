"""Tritium: a compiler and runtime for tile-based GPU kernels, in the
programming model of OpenAI Triton.

Importing this package needs no GPU and no compiler: the native library
(libtritium.so, MLIR and LLVM linked in statically) is loaded with ctypes on
first use.
"""
from .errors import CompilationError, TritiumError
from ._native import native_library, native_version

__version__ = "0.1.0"

__all__ = [
    "CompilationError",
    "TritiumError",
    "native_library",
    "native_version",
    "__version__",
]
