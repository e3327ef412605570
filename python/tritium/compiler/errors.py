"""`triton.compiler.errors`: the compiler's exceptions under Triton's names."""
from ..errors import (CompilationError, CompileTimeAssertionFailure, TritiumError,  # noqa: F401
                      UnsupportedLanguageConstruct)

TritonError = TritiumError
