"""`triton.backends.nvidia`: the NVIDIA backend (compiled in the native
library): its compiler class, CUDABackend, and options.  Its driver class
is tritium.runtime.driver.CudaDriver (`triton.backends.backends["nvidia"].driver`)."""
from .compiler import CUDABackend, CUDAOptions  # noqa: F401
