"""`triton.compiler.errors`: the compiler's exceptions under Triton's names."""
from ..errors import CompilationError, CompileTimeAssertionFailure, TritiumError, UnsupportedLanguageConstruct  # noqa: F401

TritonError = TritiumError
