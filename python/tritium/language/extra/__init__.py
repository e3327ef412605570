"""Vendor extensions of triton.language."""
from . import cuda  # noqa: F401
from .cuda import libdevice  # noqa: F401
