"""Kernel objects: @jit functions, specialization, and the autotuner."""
from .jit import JITFunction, KernelInterface, jit  # noqa: F401
from . import driver  # noqa: F401
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics  # noqa: F401
