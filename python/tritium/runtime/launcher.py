"""Launching a compiled kernel: argument packing and the driver call.

For each kernel a packer is generated once from its signature: it turns the
runtime arguments (tensors -> device addresses, Python numbers -> their
signature types) into one buffer laid out like the kernel's C parameter
struct, which the native library hands to cuLaunchKernel.  The warm path is
one packer call, one stream query and one native call.
"""
from __future__ import annotations

import ctypes
import struct
from typing import Any, Callable, List, Optional, Sequence

from ..errors import OutOfResources, TritiumError
from . import driver

_c_void_p = ctypes.c_void_p

# signature type -> struct format character (native size and alignment)
_FORMATS = {"i1": "B", "u1": "B", "i8": "b", "u8": "B", "i16": "h", "u16": "H", "i32": "i", "u32": "I",
            "i64": "q", "u64": "Q", "fp16": "e", "bf16": "H", "fp32": "f", "f32": "f", "fp64": "d"}


def _bf16_bits(value: float) -> int:
    bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def device_pointer(value, name: str) -> int:
    """The device address of a tensor-like argument."""
    try:
        if value.is_cuda:
            return value.data_ptr()
    except AttributeError:
        pass
    data_ptr = getattr(value, "data_ptr", None)
    if data_ptr is not None:
        if not getattr(value, "is_cuda", True):
            raise TritiumError(f"argument '{name}' is a tensor on {value.device}, but kernels run on the GPU: "
                               "move it with .cuda() first")
        return data_ptr()
    interface = getattr(value, "__cuda_array_interface__", None)
    if interface is not None:
        return interface["data"][0]
    if isinstance(value, int):
        return value
    if value is None:
        return 0
    raise TritiumError(f"argument '{name}' must be a GPU tensor (or have __cuda_array_interface__), "
                       f"got {type(value).__name__}")


def make_packer(names: Sequence[str], types: Sequence[str],
                indices: Optional[Sequence[int]] = None) -> Callable[..., bytes]:
    """A function (args...) -> bytes for the kernel's runtime parameters; with
    `indices`, a function (values) -> bytes that takes parameter i from
    values[indices[i]] (the warm launch path passes all bound values)."""
    fmt = "@"
    exprs = []
    for i, (name, ty) in enumerate(zip(names, types)):
        arg = f"a{i}" if indices is None else f"v[{indices[i]}]"
        if ty.startswith("*"):
            fmt += "P"
            exprs.append(f"_ptr({arg}, {name!r})")
        elif ty in _FORMATS:
            fmt += _FORMATS[ty]
            if ty == "bf16":
                exprs.append(f"_bf16({arg})")
            elif ty.startswith("fp") or ty == "f32":
                exprs.append(f"float({arg})")
            else:
                exprs.append(f"int({arg})")
        else:
            raise TritiumError(f"cannot pass an argument of type {ty} to a kernel")
    params = "v" if indices is not None else ", ".join(f"a{i}" for i in range(len(names)))
    body = f"_pack({', '.join(exprs)})" if names else "b''"
    source = f"def pack({params}):\n    return {body}\n"
    namespace = {"_pack": struct.Struct(fmt).pack, "_ptr": device_pointer, "_bf16": _bf16_bits}
    exec(compile(source, "<tritium packer>", "exec"), namespace)
    return namespace["pack"]


class Launcher:
    """Loads a compiled kernel on first use and launches it."""

    # The name of the kernel launched last, to name the culprit of an
    # asynchronous error (e.g. an illegal address) found later.
    last_launched: str = ""

    def __init__(self, name: str, image: bytes, param_names: List[str], param_types: List[str],
                 num_warps: int, shared: int):
        self.name = name
        self.image = image
        self.threads = num_warps * 32
        self.shared = shared
        self.pack = make_packer(param_names, param_types)
        self.param_names, self.param_types = list(param_names), list(param_types)
        self.num_params = len(param_names)
        self._functions = {}
        self.registers = None  # per thread, known once loaded

    def values_launcher(self, indices: Sequence[int]) -> Callable:
        """A launch function (grid, values, device) for the warm path, where
        runtime parameter i is values[indices[i]]."""
        pack = make_packer(self.param_names, self.param_types, indices)
        functions = self._functions
        threads, shared, name = self.threads, self.shared, self.name
        get_function = self.function

        launch_raw = driver.cuda().launch_raw
        current_stream = driver.stream_getter()

        def launch(grid, values, device):
            n = len(grid)
            gx = grid[0]
            gy = grid[1] if n > 1 else 1
            gz = grid[2] if n > 2 else 1
            if gx <= 0 or gy <= 0 or gz <= 0:
                raise TritiumError(f"grid must be positive in every dimension, got {tuple(grid)} for '{name}'")
            params = pack(values)
            fn = functions.get(device) or get_function(device)
            result = launch_raw(fn, gx, gy, gz, threads, shared, _c_void_p(current_stream(device)), params,
                                len(params))
            if result != 0:
                self._raise_launch_error(result)
            Launcher.last_launched = name
        return launch

    def _raise_launch_error(self, result: int):
        earlier = Launcher.last_launched
        hint = f" (the kernel launched before it was '{earlier}')" if earlier else ""
        raise driver.CudaError(f"launching '{self.name}' failed: {driver._runtime.error_text(result)}{hint}")

    def function(self, device: int) -> int:
        fn = self._functions.get(device)
        if fn is None:
            cuda = driver.cuda()
            limit = cuda.device_properties(device)["max_shared_mem"]
            if self.shared > limit:
                raise OutOfResources(self.shared, limit, "shared memory")
            _, handle, regs = cuda.load(self.image, self.name, self.shared, device)
            self.registers = regs
            fn = self._functions[device] = ctypes.c_void_p(handle)
        return fn

    def __call__(self, grid: Sequence[int], args: Sequence[Any], device: Optional[int] = None):
        n = len(grid)
        gx = grid[0]
        gy = grid[1] if n > 1 else 1
        gz = grid[2] if n > 2 else 1
        if gx <= 0 or gy <= 0 or gz <= 0:
            raise TritiumError(f"grid must be positive in every dimension, got {tuple(grid)} for '{self.name}'")
        if len(args) != self.num_params:
            raise TritiumError(f"'{self.name}' takes {self.num_params} runtime arguments, got {len(args)}")
        params = self.pack(*args)
        if device is None:
            device = driver.current_device()
        fn = self._functions.get(device) or self.function(device)
        cuda = driver._runtime
        result = cuda.launch_raw(fn, gx, gy, gz, self.threads, self.shared,
                                 _c_void_p(driver.current_stream(device)), params, len(params))
        if result != 0:
            self._raise_launch_error(result)
        Launcher.last_launched = self.name
