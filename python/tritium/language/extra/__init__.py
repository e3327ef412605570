"""Vendor extensions of triton.language: `extra.cuda.libdevice`, and
`extra.libdevice`, the same functions under Triton's target-neutral name."""
from . import cuda  # noqa: F401
from . import libdevice  # noqa: F401
