"""`triton.set_allocator`: where kernels that need global scratch memory
(device-side tensor descriptors, in Triton) get it.

The allocator is a callable `(size, alignment, stream) -> tensor-like`
held per thread and context; `NullAllocator` (the default) refuses every
request with a clear error.  Kernels that make tensor maps in the kernel
(tl.make_tensor_descriptor on Hopper) ask it at every launch for 128 bytes
per map per program (Launcher.scratch).
"""
from __future__ import annotations

import contextvars
from typing import Optional, Protocol

from ..errors import TritiumError


class Buffer(Protocol):
    def data_ptr(self) -> int: ...


class Allocator(Protocol):
    def __call__(self, size: int, alignment: int, stream: Optional[int]) -> Buffer: ...


class NullAllocator:
    def __call__(self, size: int, alignment: int, stream: Optional[int]) -> Buffer:
        raise TritiumError("Kernels that require additional global memory must provide an allocator with "
                           "triton.set_allocator")


_allocator: contextvars.ContextVar = contextvars.ContextVar("_allocator", default=NullAllocator())


def set_allocator(allocator: Allocator) -> None:
    """Sets the allocator of global scratch memory for this thread/context."""
    _allocator.set(allocator)


def get_allocator() -> Allocator:
    return _allocator.get()
