"""CUDA-specific language extensions: libdevice."""
from . import libdevice  # noqa: F401
