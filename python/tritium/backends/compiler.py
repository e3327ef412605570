"""`triton.backends.compiler`: GPUTarget and the backend base class."""
import re
from dataclasses import dataclass

from ..errors import TritiumError

SUPPORTED_ARCHS = (80, 86, 89, 90)


@dataclass(frozen=True)
class GPUTarget:
    """Triton's target triple: backend ("cuda"), compute capability, warp size."""

    backend: str
    arch: int
    warp_size: int = 32

    @staticmethod
    def parse(target) -> "GPUTarget":
        if isinstance(target, GPUTarget):
            t = target
        elif isinstance(target, str) and target.strip() == "cpu":
            return GPUTarget("cpu", 0, 1)
        elif isinstance(target, str):
            m = re.fullmatch(r"cuda:(?:sm_)?(\d+)a?", target.strip())
            if not m:
                raise TritiumError(f"unsupported target '{target}': expected 'cuda:<compute capability>', "
                                   f"e.g. 'cuda:90'")
            t = GPUTarget("cuda", int(m.group(1)), 32)
        else:
            raise TritiumError(f"unsupported target {target!r}")
        if t.backend == "cpu":
            return GPUTarget("cpu", 0, 1)
        if t.backend != "cuda":
            raise TritiumError(f"unsupported backend '{t.backend}': Tritium targets NVIDIA GPUs ('cuda') "
                               "and the host ('cpu')")
        if t.arch not in SUPPORTED_ARCHS:
            raise TritiumError(f"unsupported compute capability {t.arch}: Tritium supports "
                               f"{', '.join(f'sm_{a}' for a in SUPPORTED_ARCHS)}")
        if t.warp_size != 32:
            raise TritiumError(f"warp size must be 32 on NVIDIA GPUs, got {t.warp_size}")
        return t

    def __str__(self):
        return "cpu" if self.backend == "cpu" else f"{self.backend}:{self.arch}"


class BaseBackend:
    """What a backend is: a target it compiles for.  Tritium's one backend
    is in C++ (the `tritium-cuda-*` pipelines); this class exists for code
    that names it."""

    def __init__(self, target: GPUTarget):
        self.target = target

    @staticmethod
    def supports_target(target: GPUTarget) -> bool:
        return target.backend == "cuda"
