"""`triton.compiler`: compile(), the compiled kernel and the sources it takes."""
from .compiler import ASTSource, CompiledKernel, GPUTarget, compile  # noqa: F401
from ..errors import CompilationError  # noqa: F401
from . import errors  # noqa: F401
