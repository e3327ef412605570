"""Vendor extensions of triton.language."""
from . import cuda  # noqa: F401
