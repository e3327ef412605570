"""`triton.backends`: the one backend Tritium has, NVIDIA (`backends["nvidia"]`,
its `compiler` class and its `driver` class), and the base classes code
written for Triton imports from here (BaseBackend, DriverBase)."""
from dataclasses import dataclass
from typing import Optional, Type

from . import compiler, nvidia  # noqa: F401
from .compiler import BaseBackend
from .driver import DriverBase


@dataclass
class Backend:
    """A backend's compiler class and driver class (Triton's Backend).
    The driver is set when tritium.runtime.driver loads: that module
    imports this package."""
    compiler: Type[BaseBackend]
    driver: Optional[Type[DriverBase]] = None


backends = {"nvidia": Backend(compiler=nvidia.CUDABackend)}

__all__ = ["Backend", "BaseBackend", "DriverBase", "backends"]
