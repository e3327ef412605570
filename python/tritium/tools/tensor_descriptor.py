"""`triton.tools.tensor_descriptor`: a host-side description of a tile
access pattern over a tensor (base, shape, strides, block shape).

Passed to a kernel, it becomes the kernel's tensor descriptor: the CUDA
tensor map the copy engine (TMA) reads, encoded at launch with the swizzle
and box the compiler chose for the block (the kernel metadata's
"tensor_descriptors"), followed by the base address, shape and strides,
which tiles the copy engine cannot move (and targets before Hopper) use
through pointers.  Bad descriptors are refused here, naming the rule.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from ..errors import TritiumError

# signature element type -> CUtensorMapDataType
_MAP_DATA_TYPES = {"i1": 0, "u1": 0, "i8": 0, "u8": 0, "fp8e4nv": 0, "fp8e5": 0, "fp8e4b15": 0,
                   "i16": 1, "u16": 1, "fp16": 6, "bf16": 9, "i32": 3, "u32": 2, "fp32": 7,
                   "i64": 5, "u64": 4, "fp64": 8}


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
        element_size = self.base.element_size() if hasattr(self.base, "element_size") else 1
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


def element_signature(desc: TensorDescriptor) -> str:
    from ..runtime.jit import specialize_arg
    ty, _ = specialize_arg(desc.base, False, False)
    if not ty.startswith("*"):
        raise TritiumError(f"a tensor descriptor's base must be a GPU tensor, got {type(desc.base).__name__}")
    return ty[1:]


def signature(desc: TensorDescriptor) -> str:
    """The kernel signature type of a descriptor: "tensordesc<fp16[64,64]>"."""
    return f"tensordesc<{element_signature(desc)}[{','.join(str(int(s)) for s in desc.block_shape)}]>"


# encoded tensor maps by everything they depend on
_MAPS: Dict[Tuple, bytes] = {}


def launch_values(desc: Any, name: str, plan: Optional[dict]) -> List[Any]:
    """What a descriptor parameter passes to a kernel: its tensor map (128
    bytes; zeros when no tile of it moves by TMA, `plan` None), base
    address, shape and strides."""
    if not isinstance(desc, TensorDescriptor):
        raise TritiumError(f"argument '{name}' must be a TensorDescriptor, got {type(desc).__name__}")
    from ..runtime.launcher import device_pointer
    address = device_pointer(desc.base, name)
    if address % 16:
        raise TritiumError(f"the base of tensor descriptor '{name}' is at {address:#x}, which is not 16-byte "
                           "aligned (the copy engine needs 16)")
    shape = [int(s) for s in desc.shape]
    strides = [int(s) for s in desc.strides]
    tensor_map = bytes(128)
    if plan is not None:
        element = element_signature(desc)
        element_size = desc.base.element_size() if hasattr(desc.base, "element_size") else 1
        key = (address, tuple(shape), tuple(strides), element, plan["swizzle"], tuple(plan["box"]), desc.padding)
        tensor_map = _MAPS.get(key)
        if tensor_map is None:
            from ..runtime import driver
            tensor_map = driver.cuda().encode_tensor_map(
                _MAP_DATA_TYPES[element], address, shape[::-1], [s * element_size for s in strides[-2::-1]],
                plan["box"][::-1], plan["swizzle"], desc.padding == "nan")
            if len(_MAPS) > 4096:
                _MAPS.clear()
            _MAPS[key] = tensor_map
    return [tensor_map, address] + shape + strides
