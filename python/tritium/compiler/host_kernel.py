"""A kernel compiled for the CPU target (`target="cpu"`): its stages
("ttir", "llir"), metadata, and the launch that runs its grid of programs
on the host's threads (tritium_cpu_run; TRITIUM_CPU_THREADS caps them, all
hardware threads by default).  Its machine code is linked in this process
from a host object file, which the kernel cache keeps (compiler.py)."""
import ctypes
import os
from typing import Any, Dict, List, Sequence, Tuple

from .._native import native_library
from ..errors import TritiumError
from ..tools.tensor_descriptor import TensorDescriptor

_SCALARS = {"i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32,
            "i64": ctypes.c_int64, "u8": ctypes.c_uint8, "u16": ctypes.c_uint16, "u32": ctypes.c_uint32,
            "u64": ctypes.c_uint64, "fp32": ctypes.c_float, "fp64": ctypes.c_double}


def _address(value) -> int:
    """The host address a pointer argument passes."""
    interface = getattr(value, "__array_interface__", None)
    if interface is not None:
        return interface["data"][0]
    data_ptr = getattr(value, "data_ptr", None)
    if data_ptr is not None:
        return data_ptr()
    if isinstance(value, int):
        return value
    raise TritiumError(f"a pointer argument of the CPU target takes a numpy array, a CPU tensor or an address, "
                       f"got {type(value).__name__}")


_NO_EXTENT = (0, (1 << 64) - 1)


def _extent(value) -> Tuple[int, int]:
    """[first, past-the-end) of the host memory a pointer argument may
    reach: a torch tensor's whole storage, a numpy array's whole base
    array; any address for a plain integer address."""
    storage = getattr(value, "untyped_storage", None)
    if storage is not None:
        storage = storage()
        return storage.data_ptr(), storage.data_ptr() + storage.nbytes()
    root = value
    while getattr(root, "base", None) is not None and hasattr(root.base, "__array_interface__"):
        root = root.base
    interface = getattr(root, "__array_interface__", None)
    if interface is None:
        return _NO_EXTENT
    address = interface["data"][0]
    shape, itemsize = interface["shape"], root.itemsize
    strides = interface.get("strides") or _contiguous_strides(shape, itemsize)
    if any(n == 0 for n in shape):
        return address, address
    low = address + sum(min(0, (n - 1) * st) for n, st in zip(shape, strides))
    high = address + sum(max(0, (n - 1) * st) for n, st in zip(shape, strides)) + itemsize
    return low, high


def _contiguous_strides(shape, itemsize: int) -> list:
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.insert(0, step)
        step *= n
    return strides


def _descriptor_arguments(desc, name: str, rank: int) -> list:
    """A host TensorDescriptor as the kernel takes it (Triton IR's
    parameters of a descriptor): the descriptor itself, unused on the host
    (null), then its base, shape (i32) and strides (i64)."""
    if not isinstance(desc, TensorDescriptor):
        raise TritiumError(f"argument '{name}' must be a TensorDescriptor, got {type(desc).__name__}")
    if len(desc.shape) != rank:
        raise TritiumError(f"argument '{name}' is a descriptor of rank {len(desc.shape)}, the kernel takes rank {rank}")
    if desc.padding != "zero":
        raise TritiumError(f"argument '{name}': the CPU target reads a host descriptor's blocks through pointers, "
                           f"where elements outside the tensor are zeros; padding={desc.padding!r} is not supported")
    return ([ctypes.c_uint64(0), ctypes.c_uint64(_address(desc.base))] + [ctypes.c_int32(int(s)) for s in desc.shape]
            + [ctypes.c_int64(int(s)) for s in desc.strides])


class HostKernel:
    runs_on_host = True

    def __init__(self, name: str, asm: Dict[str, Any], metadata: Dict[str, Any], program: int,
                 params: List[Tuple[str, str]]):
        self.name = name
        self.asm = asm
        self.metadata = metadata
        self.params = params  # (name, signature type) of the runtime parameters, in order
        self._program = program
        self._library = native_library()

    def __del__(self):
        program, self._program = getattr(self, "_program", None), None
        if program:
            self._library.release_cpu(program)

    def launch(self, grid, args: Sequence[Any], cooperative: bool = False):
        grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
        if len(grid) != 3 or min(grid) < 0:
            raise TritiumError(f"grid must be 1 to 3 non-negative integers, got {grid!r}")
        if min(grid) == 0:
            return
        if len(args) != len(self.params):
            raise TritiumError(f"'{self.name}' takes {len(self.params)} runtime arguments, got {len(args)}")
        values = []
        for (name, ty), value in zip(self.params, args):
            if ty.startswith("*"):
                values.append(ctypes.c_uint64(_address(value)))
            elif ty.startswith("tensordesc<"):
                values += _descriptor_arguments(value, name, ty.count(",") + 1)
            elif ty in _SCALARS:
                values.append(_SCALARS[ty](value))
            else:
                raise TritiumError(f"argument '{name}' of type {ty} has no CPU launch yet")
        if self.metadata.get("bounds_checks"):
            # tritium-cpu-bounds-checks: two per pointer argument of the
            # Triton IR, in order (a descriptor's is its base)
            for (name, ty), value in zip(self.params, args):
                if ty.startswith("*"):
                    values += [ctypes.c_uint64(v) for v in _extent(value)]
                elif ty.startswith("tensordesc<"):
                    values += [ctypes.c_uint64(v) for v in _extent(value.base)]
        addresses = (ctypes.c_void_p * max(1, len(values)))(*[ctypes.addressof(v) for v in values])
        threads = int(os.environ.get("TRITIUM_CPU_THREADS", "0") or 0)
        self._library.run_cpu(self._program, addresses, grid, threads)

    def __getitem__(self, grid):
        return lambda *args: self.launch(grid, args)
