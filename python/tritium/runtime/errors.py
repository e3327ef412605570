"""`triton.runtime.errors`: the runtime's exceptions under Triton's names."""
from ..errors import AutotunerError, InterpreterError, OutOfResources, PTXASError, TritiumError  # noqa: F401

TritonError = TritiumError
