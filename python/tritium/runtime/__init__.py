"""Kernel objects: @jit functions, specialization, the autotuner, the driver
(`triton.runtime` under Triton's names)."""
from .jit import (ConstexprFunction, JITFunction, KernelInterface, MockTensor, TensorWrapper,  # noqa: F401
                  constexpr_function, jit, reinterpret)
from . import driver  # noqa: F401
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics  # noqa: F401
from .errors import InterpreterError, OutOfResources  # noqa: F401
