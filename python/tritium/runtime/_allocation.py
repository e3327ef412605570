"""`triton.set_allocator`: where kernels that need global scratch memory
(device-side tensor descriptors, in Triton) get it.

The allocator is a callable `(size, alignment, stream) -> tensor-like`
held per thread and context; `NullAllocator` (the default) refuses every
request with a clear error.  Kernels that make tensor maps in the kernel
(tl.make_tensor_descriptor on Hopper) ask it at every launch for 128 bytes
per map per program (Launcher.scratch).

Kernels whose only tensor maps are the compiler's own (block pointers moved
by TMA on Hopper) do not ask it: their scratch is `runtime_scratch`, memory
the runtime keeps per device and stream and grows as grids need (under
CUDA graph capture, a fresh stream-ordered buffer per launch).
"""
from __future__ import annotations

import contextvars
import sys
import threading
from typing import Dict, Optional, Protocol, Tuple

from ..errors import TritiumError
from . import driver


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
# stream.  Launches on one stream run in order, so they may share it.  A
# grown buffer replaces the old one, which kernels already queued on the
# stream may still read, so no buffer is ever freed (the old ones together
# are at most the size of the live one).
_runtime_buffers: Dict[Tuple[int, int], Tuple[int, int]] = {}
_runtime_lock = threading.Lock()


def runtime_scratch(size: int, device: int, stream: int) -> Tuple[Optional[Buffer], int]:
    """(buffer, address) of at least `size` bytes of global memory, 128-byte
    aligned, for a launch on `stream` of `device`; the buffer (None for the
    runtime's own memory) must live until the launch is issued.

    Outside CUDA graph capture: the runtime's memory for that stream.  While
    the stream is captured, a buffer shared with eager launches would be
    baked into the graph and raced by later work, so each launch gets its
    own, stream-ordered: from triton.set_allocator's allocator if one is
    set, else from PyTorch's caching allocator (which keeps a graph's memory
    in its private pool)."""
    if driver.cuda().stream_capturing(stream):
        return _captured_scratch(size, device, stream)
    key = (device, stream)
    held = _runtime_buffers.get(key)
    if held is not None and held[1] >= size:
        return None, held[0]
    with _runtime_lock:
        held = _runtime_buffers.get(key)
        if held is not None and held[1] >= size:
            return None, held[0]
        grown = max(size, 2 * held[1] if held else 1 << 20)
        address = driver.cuda().allocate(device, grown)
        _runtime_buffers[key] = (address, grown)
        return None, address


def _captured_scratch(size: int, device: int, stream: int) -> Tuple[Buffer, int]:
    allocator = get_allocator()
    if not isinstance(allocator, NullAllocator):
        buffer = allocator(size, 128, stream)
        return buffer, buffer.data_ptr()
    torch = sys.modules.get("torch")
    if torch is None:
        raise TritiumError("under CUDA graph capture, a kernel whose block pointers move by TMA needs its "
                           "scratch memory from triton.set_allocator (or PyTorch's allocator)")
    buffer = torch.empty((size,), dtype=torch.uint8, device=f"cuda:{device}")
    return buffer, buffer.data_ptr()
