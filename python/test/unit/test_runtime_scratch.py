"""The runtime's scratch memory for tensor maps the compiler makes (block
pointers moved by TMA), with a fake CUDA runtime: one buffer per device and
stream, grown geometrically and never freed while kernels may use it; under
CUDA graph capture a fresh buffer per launch, from triton.set_allocator's
allocator or PyTorch's, and a clear error without either."""
import sys
import types

import pytest

import tritium as triton
from tritium.errors import TritiumError
from tritium.runtime import _allocation, driver


class FakeCuda:
    def __init__(self):
        self.allocations = []
        self.capturing = set()

    def allocate(self, device, size):
        self.allocations.append((device, size))
        return 0x10000000 * len(self.allocations)

    def stream_capturing(self, stream):
        return stream in self.capturing


@pytest.fixture
def cuda(monkeypatch):
    fake = FakeCuda()
    monkeypatch.setattr(driver, "_runtime", fake)
    monkeypatch.setattr(_allocation, "_runtime_buffers", {})
    before = _allocation.get_allocator()
    triton.set_allocator(_allocation.NullAllocator())
    yield fake
    triton.set_allocator(before)


def test_one_buffer_per_device_and_stream(cuda):
    buffer, first = _allocation.runtime_scratch(4096, 0, 0x50)
    assert buffer is None and cuda.allocations == [(0, 1 << 20)]
    assert _allocation.runtime_scratch(1 << 20, 0, 0x50) == (None, first)  # fits: reused
    _, other_stream = _allocation.runtime_scratch(4096, 0, 0x60)
    _, other_device = _allocation.runtime_scratch(4096, 1, 0x50)
    assert len({first, other_stream, other_device}) == 3
    _, grown = _allocation.runtime_scratch((1 << 20) + 1, 0, 0x50)  # doubles; the old one is not freed
    assert grown != first and cuda.allocations[-1] == (0, 2 << 20)


def test_capture_takes_a_buffer_per_launch_from_the_allocator(cuda):
    cuda.capturing.add(0x70)
    asked = []

    class Buffer:
        def __init__(self, address):
            self.address = address

        def data_ptr(self):
            return self.address

    def allocator(size, alignment, stream):
        asked.append((size, alignment, stream))
        return Buffer(0xABC000 + len(asked))
    triton.set_allocator(allocator)
    first = _allocation.runtime_scratch(4096, 0, 0x70)
    second = _allocation.runtime_scratch(4096, 0, 0x70)
    assert asked == [(4096, 128, 0x70)] * 2 and first[1] != second[1]
    assert first[0] is not None and cuda.allocations == []


def test_capture_without_an_allocator_uses_torch_or_says_why(cuda, monkeypatch):
    cuda.capturing.add(0x70)
    monkeypatch.delitem(sys.modules, "torch", raising=False)
    with pytest.raises(TritiumError, match="CUDA graph capture.*set_allocator"):
        _allocation.runtime_scratch(4096, 0, 0x70)
    made = []

    class Tensor:
        def data_ptr(self):
            return 0xBEEF00

    def empty(shape, dtype=None, device=None):
        made.append((shape, device))
        return Tensor()
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(empty=empty, uint8="uint8"))
    buffer, address = _allocation.runtime_scratch(4096, 1, 0x70)
    assert made == [((4096,), "cuda:1")] and address == 0xBEEF00 and buffer is not None
    assert cuda.allocations == []
