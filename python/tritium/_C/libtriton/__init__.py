"""`triton._C.libtriton`: the `ir` names of Triton's extension module that
Tritium answers (see tritium._C)."""
from . import ir  # noqa: F401
