"""`triton.backends.nvidia`: the NVIDIA backend (compiled in the native
library).  `backend.compiler` is CUDABackend; `backend.driver` is
tritium.runtime.driver.CudaDriver, set there when the runtime loads."""
from types import SimpleNamespace

from .compiler import CUDABackend, CUDAOptions  # noqa: F401

backend = SimpleNamespace(compiler=CUDABackend, driver=None)
