"""`triton.tools.tensor_descriptor`: a host-side description of a tile
access pattern over a tensor (base, shape, strides, block shape).

Passed to a kernel, it becomes the kernel's tensor descriptor: the CUDA
tensor map the copy engine (TMA) reads, encoded at launch with the swizzle
and box the compiler chose for the block (the kernel metadata's
"tensor_descriptors"), followed by the base address, shape and strides,
which tiles the copy engine cannot move (and targets before Hopper) use
through pointers (runtime/launcher.py, launch_values).  Bad descriptors are
refused here, naming the rule.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List

from ..errors import TritiumError


@dataclass
class TensorDescriptor:
    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self):
        rank = len(self.shape)
        if not 1 <= rank <= 5:
            raise TritiumError(f"a tensor descriptor has rank 1 to 5, got rank {rank}")
        if len(self.strides) != rank or len(self.block_shape) != rank:
            raise TritiumError(f"shape, strides and block_shape must have one entry per dimension, got "
                               f"{len(self.shape)}, {len(self.strides)} and {len(self.block_shape)}")
        if self.strides[-1] != 1:
            raise TritiumError(f"the last dimension of a tensor descriptor must be contiguous (stride 1), got "
                               f"strides {list(self.strides)}")
        element_size = (self.base.element_size() if hasattr(self.base, "element_size")
                        else getattr(self.base, "itemsize", 1))  # (a torch tensor, a numpy array)
        for i, stride in enumerate(self.strides[:-1]):
            if (stride * element_size) % 16:
                raise TritiumError(f"tensor descriptor stride {i} is {stride} elements ({stride * element_size} "
                                   "bytes): strides must be multiples of 16 bytes")
        for i, size in enumerate(self.shape):
            if size <= 0 or size >= 2**31:
                raise TritiumError(f"tensor descriptor shape[{i}] is {size}: sizes are 1 to 2**31 - 1")
        for i, size in enumerate(self.block_shape):
            if size <= 0 or size & (size - 1):
                raise TritiumError(f"tensor descriptor block_shape[{i}] is {size}: block sizes are powers of two")
        if self.padding not in ("zero", "nan"):
            raise TritiumError(f"padding must be 'zero' or 'nan', got {self.padding!r}")

    @staticmethod
    def from_tensor(tensor: Any, block_shape: List[int], padding: str = "zero") -> "TensorDescriptor":
        return TensorDescriptor(tensor, list(tensor.shape), list(tensor.stride()), list(block_shape), padding)

