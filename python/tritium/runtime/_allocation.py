"""`triton.set_allocator`: where kernels that need global scratch memory
(device-side tensor descriptors, in Triton) get it.

The allocator is a callable `(size, alignment, stream) -> tensor-like`
held per thread and context; `NullAllocator` (the default) refuses every
request with a clear error.  Kernels that make tensor maps in the kernel
(tl.make_tensor_descriptor on Hopper) ask it at every launch for 128 bytes
per map per program (Launcher.scratch).

Kernels whose only tensor maps are the compiler's own (block pointers moved
by TMA on Hopper) do not ask it: their scratch is `runtime_scratch`, memory
the runtime keeps per device and stream and grows as grids need.
"""
from __future__ import annotations

import contextvars
import threading
from typing import Dict, List, Optional, Protocol, Tuple

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


# (device, stream) -> (address, bytes) of the runtime's scratch for that
# stream.  Launches on one stream run in order, so they may share it; a
# grown buffer replaces the old one, which kernels already queued on the
# stream may still read: it is kept (in _retired) for the process's life.
_runtime_buffers: Dict[Tuple[int, int], Tuple[int, int]] = {}
_retired: List[int] = []
_runtime_lock = threading.Lock()


def runtime_scratch(size: int, device: int, stream: int) -> int:
    """The address of at least `size` bytes of global memory for a launch on
    `stream` of `device` (128-byte aligned: allocations are 256-byte)."""
    key = (device, stream)
    held = _runtime_buffers.get(key)
    if held is not None and held[1] >= size:
        return held[0]
    with _runtime_lock:
        held = _runtime_buffers.get(key)
        if held is not None and held[1] >= size:
            return held[0]
        from . import driver
        grown = max(size, 2 * held[1] if held else 1 << 20)
        address = driver.cuda().allocate(device, grown)
        if held is not None:
            _retired.append(held[0])
        _runtime_buffers[key] = (address, grown)
        return address
