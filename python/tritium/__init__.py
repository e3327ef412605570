"""Tritium: a compiler and runtime for tile-based GPU kernels, in the
programming model of OpenAI Triton.  Use it as Triton:

    import tritium as triton
    import tritium.language as tl

`__version__` is the version of Triton's API that Tritium implements (code
that checks `triton.__version__` takes its 3.x paths); Tritium's own
version is `__tritium_version__`.

Importing needs no GPU and no compiler: the native library (libtritium.so,
MLIR and LLVM linked in statically) is loaded with ctypes on first use.
"""
from .version import __version__, __tritium_version__  # noqa: F401
from ._native import native_library, native_version
from .errors import (CompilationError, CompileTimeAssertionFailure, InterpreterError, OutOfResources,  # noqa: F401
                     PTXASError, TritiumError, UnsupportedLanguageConstruct)
from .runtime import (Autotuner, Config, Heuristics, JITFunction, KernelInterface, MockTensor,  # noqa: F401
                      TensorWrapper, autotune, constexpr_function, heuristics, jit, reinterpret)
from .runtime._allocation import set_allocator  # noqa: F401
from .runtime.async_compile import AsyncCompileMode  # noqa: F401
from .compiler.compiler import ASTSource, CompiledKernel, GPUTarget, compile
from . import language  # noqa: F401
from . import testing  # noqa: F401
from . import knobs  # noqa: F401
from . import tools  # noqa: F401
from . import backends  # noqa: F401
from . import _C  # noqa: F401  (triton._C.libtriton.ir, for ASTSource.make_ir callers)

TritonError = TritiumError


# Both are constexpr functions, as in Triton: @jit code may call them on
# compile-time values (`tl.static_range(triton.cdiv(N, BLOCK))`) and gets a
# compile-time value back.
@constexpr_function
def cdiv(x: int, y: int) -> int:
    """ceil(x / y) for Python integers."""
    return (x + y - 1) // y


@constexpr_function
def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n; 0 for n <= 0, as Triton's bit trick
    gives it."""
    n = int(n)
    if n <= 0:
        return 0
    return 1 << (n - 1).bit_length()


def must_use_result(x, s=True):
    """Triton's marker for builtins whose result must be used; a no-op here."""
    return x


__all__ = [
    "ASTSource", "AsyncCompileMode", "Autotuner", "CompilationError", "CompiledKernel", "Config", "GPUTarget",
    "Heuristics", "InterpreterError", "JITFunction", "KernelInterface", "MockTensor", "OutOfResources",
    "TensorWrapper", "TritonError", "TritiumError", "autotune", "cdiv", "compile", "constexpr_function",
    "heuristics", "jit", "knobs", "language", "must_use_result", "native_library", "native_version",
    "next_power_of_2", "reinterpret", "set_allocator", "testing", "tools", "__version__", "__tritium_version__",
]
