"""`triton.backends.compiler`: GPUTarget and the backend base class."""
from ..compiler.compiler import GPUTarget  # noqa: F401


class BaseBackend:
    """What a backend is: a target it compiles for.  Tritium's one backend
    is in C++ (the `tritium-cuda-*` pipelines); this class exists for code
    that names it."""

    def __init__(self, target: GPUTarget):
        self.target = target

    @staticmethod
    def supports_target(target: GPUTarget) -> bool:
        return target.backend == "cuda"
