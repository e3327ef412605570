"""`triton.backends`: the one backend Tritium has, NVIDIA (`backends["nvidia"]`)."""
from . import compiler, nvidia  # noqa: F401

backends = {"nvidia": nvidia.backend}
