"""`triton.backends.nvidia`: the NVIDIA backend (compiled in the native library)."""
from types import SimpleNamespace

from ..compiler import BaseBackend


class CUDABackend(BaseBackend):
    """Compiles for NVIDIA GPUs from sm_80 (see tritium.compile)."""


backend = SimpleNamespace(compiler=CUDABackend, driver=None)
