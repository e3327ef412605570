"""`triton.language.extra.libdevice`: the device math library of the target
(on NVIDIA GPUs, CUDA's libdevice: the same functions as
`triton.language.extra.cuda.libdevice`)."""
from .cuda.libdevice import *  # noqa: F401,F403
from .cuda import libdevice as _cuda_libdevice

globals().update({name: getattr(_cuda_libdevice, name) for name in dir(_cuda_libdevice)
                  if not name.startswith("__")})
