"""Launching a compiled kernel: launch records and the driver call.

A launch is one call into the native library with one bytes object, the
launch record (capi/tritium.h): a 40-byte header (function, stream, grid,
threads, shared memory, argument bytes) followed by the kernel's runtime
arguments laid out like its C parameter struct (then, for a kernel that
makes tensor maps, the address of its global scratch memory, allocated per
launch by triton.set_allocator's allocator).  A struct.Struct generated
once per kernel from its signature builds the whole record in one call.

Three callers:
  * Launcher.__call__: the general path (first launches, CompiledKernel
    launches); converts every argument (tensors -> device addresses, with
    the checks that name bad arguments);
  * Launcher.warm_entry: a function generated per specialization and
    device for the JIT's warm path, which has already turned tensors into
    addresses and knows the argument types from its specialization key;
  * Launcher.run_entry: a function generated per kernel with the
    parameters of Triton's CompiledKernel.run, the path PyTorch's Inductor
    launches every generated kernel through when its own launcher does not.
"""
from __future__ import annotations

import ctypes
import hashlib
import struct
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .. import knobs
from ..errors import ArgumentError, OutOfResources, TritiumError
from ..tools.tensor_descriptor import TensorDescriptor
from . import _allocation
from . import driver
from .driver import last_launched
from .jit import descriptor_element_signature

# signature type -> struct format character (native size and alignment)
_FORMATS = {"i1": "B", "u1": "B", "i8": "b", "u8": "B", "i16": "h", "u16": "H", "i32": "i", "u32": "I",
            "i64": "q", "u64": "Q", "fp16": "e", "bf16": "H", "fp32": "f", "f32": "f", "fp64": "d"}

# tritium_launch_header: function, stream, grid x/y/z, threads, shared bytes,
# argument bytes.  40 bytes, so the arguments start 8-byte aligned and '@'
# alignment counted from the record's start is the C struct's.
_HEADER = "@QQIIIIII"
_HEADER_BYTES = struct.calcsize(_HEADER)
assert _HEADER_BYTES == 40


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
        pinned = getattr(value, "is_pinned", None)
        if not getattr(value, "is_cuda", True) and not (callable(pinned) and pinned()):
            # (pinned host memory is mapped into the GPU's address space: it passes)
            raise ArgumentError(f"argument '{name}' is a tensor on {value.device}, but kernels run on the GPU: "
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


def check_device(value, name: str, device: int) -> None:
    """The rule for several GPUs: a kernel launches on the current device
    (torch.cuda.current_device(), as in Triton), and every GPU tensor it is
    given must live there; one on another device is an error naming both,
    never a launch that faults or reads through peer access by accident."""
    get_device = getattr(value, "get_device", None)
    if get_device is None or not getattr(value, "is_cuda", False):
        return
    index = get_device()
    if index != device:
        raise ArgumentError(f"argument '{name}' is on cuda:{index}, but the kernel launches on cuda:{device}, "
                            f"the current device: make cuda:{index} current (torch.cuda.set_device({index}) or "
                            f"`with torch.cuda.device({index}):`) or move the tensor with .to('cuda:{device}')")


# signature element type -> CUtensorMapDataType
_MAP_DATA_TYPES = {"i1": 0, "u1": 0, "i8": 0, "u8": 0, "fp8e4nv": 0, "fp8e5": 0, "fp8e4b15": 0,
                   "i16": 1, "u16": 1, "fp16": 6, "bf16": 9, "i32": 3, "u32": 2, "fp32": 7,
                   "i64": 5, "u64": 4, "fp64": 8}

# encoded tensor maps by everything they depend on
_MAPS: Dict[Tuple, bytes] = {}


def launch_values(desc: Any, name: str, plan: Optional[dict]) -> List[Any]:
    """What a host tensor descriptor parameter passes to a kernel: its
    tensor map (128 bytes; zeros when no tile of it moves by TMA, `plan`
    None), base address, shape and strides."""
    if not isinstance(desc, TensorDescriptor):
        raise TritiumError(f"argument '{name}' must be a TensorDescriptor, got {type(desc).__name__}")
    address = device_pointer(desc.base, name)
    if address % 16:
        raise TritiumError(f"the base of tensor descriptor '{name}' is at {address:#x}, which is not 16-byte "
                           "aligned (the copy engine needs 16)")
    shape = [int(s) for s in desc.shape]
    strides = [int(s) for s in desc.strides]
    tensor_map = bytes(128)
    if plan is not None:
        element = descriptor_element_signature(desc)
        element_size = desc.base.element_size() if hasattr(desc.base, "element_size") else 1
        key = (address, tuple(shape), tuple(strides), element, plan["swizzle"], tuple(plan["box"]), desc.padding)
        tensor_map = _MAPS.get(key)
        if tensor_map is None:
            tensor_map = driver.cuda().encode_tensor_map(
                _MAP_DATA_TYPES[element], address, shape[::-1], [s * element_size for s in strides[-2::-1]],
                plan["box"][::-1], plan["swizzle"], desc.padding == "nan")
            if len(_MAPS) > 4096:
                _MAPS.clear()
            _MAPS[key] = tensor_map
    return [tensor_map, address] + shape + strides


def _descriptor_rank(ty: str) -> int:
    """The rank of a "tensordesc<fp16[64,64]>" parameter type."""
    return ty.count(",") + 1


def argument_offsets(types: Sequence[str]) -> List[int]:
    """The byte offset of every kernel argument in a launch record's
    argument area (a tensor descriptor spans 2 + 2 * rank arguments)."""
    offsets: List[int] = []
    fmt = _HEADER
    for ty in types:
        if ty.startswith("tensordesc<"):
            fmt += "x" * ((-(struct.calcsize(fmt) - _HEADER_BYTES)) % 64)
            rank = _descriptor_rank(ty)
            leaves = ["128s", "P"] + ["i"] * rank + ["q"] * rank
        else:
            leaves = [record_format([ty])[len(_HEADER):]]
        for leaf in leaves:
            # '@' alignment: the offset a leaf lands at is the size of the
            # format before it plus its own padding, i.e. calcsize of both
            # minus its own size
            offsets.append(struct.calcsize(fmt + leaf) - struct.calcsize("@" + leaf) - _HEADER_BYTES)
            fmt += leaf
    return offsets


def record_format(types: Sequence[str]) -> str:
    """The struct format of a launch record for runtime parameter types.
    A tensor descriptor is its 128-byte tensor map, 64-byte aligned in the
    parameter buffer (which starts after the header), then the base
    pointer, the shape (i32 each) and the strides (i64 each)."""
    fmt = _HEADER
    for ty in types:
        if ty.startswith("tensordesc<"):
            pad = (-(struct.calcsize(fmt) - _HEADER_BYTES)) % 64
            rank = _descriptor_rank(ty)
            fmt += "x" * pad + "128sP" + "i" * rank + "q" * rank
        elif ty.startswith("*"):
            fmt += "P"
        elif ty in _FORMATS:
            fmt += _FORMATS[ty]
        else:
            raise TritiumError(f"cannot pass an argument of type {ty} to a kernel")
    return fmt


# CUDA's grid limits: x up to 2^31 - 1 blocks, y and z up to 65535.
MAX_GRID = (2 ** 31 - 1, 65535, 65535)


def bad_grid(grid, name: str):
    dims = tuple(grid)
    if 1 <= len(dims) <= 3 and all(isinstance(d, int) and d > 0 for d in dims):
        raise TritiumError(f"grid {dims!r} for '{name}' exceeds CUDA's limits: x up to {MAX_GRID[0]}, "
                           f"y and z up to {MAX_GRID[1]} programs")
    raise TritiumError(f"grid must be 1 to 3 positive integers, got {dims!r} for '{name}'")


def grid_dims(grid, name: str):
    """(x, y, z) of a launch grid, checked."""
    n = len(grid)
    if n == 1:
        gx, gy, gz = grid[0], 1, 1
    elif n == 2:
        gx, gy, gz = grid[0], grid[1], 1
    elif n == 3:
        gx, gy, gz = grid
    else:
        bad_grid(grid, name)
    if 0 < gx <= MAX_GRID[0] and 0 < gy <= MAX_GRID[1] and 0 < gz <= MAX_GRID[2]:
        return gx, gy, gz
    bad_grid(grid, name)


class Launcher:
    """Loads a compiled kernel on first use and launches it."""

    def __init__(self, name: str, image: bytes, param_names: List[str], param_types: List[str],
                 num_warps: int, shared: int,
                 tensor_descriptors: Sequence[dict] = (), global_scratch: int = 0, global_scratch_align: int = 1,
                 global_scratch_internal: bool = False, nonnegative_args: Sequence[int] = (),
                 multiple_at_launch_args: Sequence[dict] = ()):
        self.name = name
        self.image = image
        self.threads = num_warps * 32
        self.shared = shared
        self.param_names, self.param_types = list(param_names), list(param_types)
        # TMA plans (swizzle, box) of descriptor parameters, by parameter
        # position; the metadata numbers them by kernel argument, where a
        # descriptor spans 2 + 2 * rank arguments
        plans_by_arg = {int(d["arg"]): d for d in tensor_descriptors}
        self.descriptor_plans: Dict[int, Optional[dict]] = {}
        # Parameters a block pointer moved by TMA takes as a dimension or a
        # stride (by kernel argument in the metadata), as (position, bound):
        # never negative as the kernel reads them, which is as signed (a u64
        # from 2**63 on is negative there).
        nonnegative = {int(a) for a in nonnegative_args}
        self.nonnegative: List[Tuple[int, int]] = []
        # Parameters a tensor map made in the kernel takes as a stride, as
        # (position, multiple, why): a multiple of so many elements (16
        # bytes), which the kernel then takes as known.
        multiples = {int(a["arg"]): (int(a["multiple_of"]), str(a["why"])) for a in multiple_at_launch_args}
        self.multiples: List[Tuple[int, int, str]] = []
        arg = 0
        for k, ty in enumerate(self.param_types):
            if ty.startswith("tensordesc<"):
                self.descriptor_plans[k] = plans_by_arg.get(arg)
                arg += 2 + 2 * _descriptor_rank(ty)
            else:
                if arg in nonnegative:
                    bits = int(ty.lstrip("iu") or 64) if ty[:1] in "iu" else 64
                    self.nonnegative.append((k, 1 << (bits - 1)))
                if arg in multiples:
                    self.multiples.append((k, *multiples[arg]))
                arg += 1
        self.num_params = len(param_names)
        # Global scratch memory (tensor maps the kernel makes): this many
        # bytes per program, from triton.set_allocator's allocator at every
        # launch, its address the kernel's last argument.
        self.global_scratch, self.global_scratch_align = global_scratch, global_scratch_align
        # Only the compiler's own tensor maps (block pointers): the runtime's
        # memory, not the allocator's.
        self.global_scratch_internal = global_scratch_internal
        kernel_types = list(param_types) + (["*i8"] if global_scratch else [])
        self.record = struct.Struct(record_format(kernel_types))
        self.params_bytes = self.record.size - _HEADER_BYTES
        # Kernels with tensor maps launch with one pointer per argument (see
        # tritium_cuda_launch_params); the others with the packed record.
        self._argument_offsets = None
        self._kernel_types = kernel_types
        if any(ty.startswith("tensordesc<") for ty in param_types):
            self._argument_offsets = self._offsets()
        self._functions: Dict[int, int] = {}
        self._load_lock = threading.RLock()  # one module load per device (reentrant: load hooks may launch)
        self.registers = None  # per thread, known once loaded
        self.run_function = None  # CompiledKernel.run's function, made on first use (run_entry)
        self.hash = hashlib.sha256(image).hexdigest()[:32]  # names the binary to the load hooks

    def _offsets(self):
        """The arguments' offsets in the record, as tritium_cuda_launch_params takes them."""
        offsets = argument_offsets(self._kernel_types)
        return (ctypes.c_uint32 * len(offsets))(*offsets), len(offsets)

    def function(self, device: int) -> int:
        """The CUfunction on `device`, loading the module on first use."""
        fn = self._functions.get(device)
        if fn is None:
            with self._load_lock:
                fn = self._functions.get(device)
                if fn is None:
                    fn = self._load(device)
        return fn

    def _load(self, device: int) -> int:
        """Loads the module on `device` (under the load lock)."""
        cuda = driver.cuda()
        limit = cuda.device_properties(device)["max_shared_mem"]
        if self.shared > limit:
            raise OutOfResources(self.shared, limit, "shared memory")
        start_hook, end_hook = knobs.runtime.kernel_load_start_hook, knobs.runtime.kernel_load_end_hook
        if start_hook:  # Triton's (module, function, name, metadata_group, hash); unknown before the load
            start_hook(None, None, self.name, {}, self.hash)
        module, fn, regs = cuda.load(self.image, self.name, self.shared, device)
        if end_hook:
            end_hook(module, fn, self.name, {}, self.hash)
        self.registers = regs
        self._functions[device] = fn
        driver.name_function(fn, self.name)
        return fn

    def scratch(self, programs: int, stream: int, device: int):
        """(buffer, address) of the global scratch of `programs` programs,
        from the allocator triton.set_allocator set (the buffer must live
        until the launch is issued; stream-ordered allocators keep it for
        the kernel), or, for kernels whose scratch holds only the
        compiler's tensor maps, from the runtime (_allocation.runtime_scratch:
        its own memory, buffer None, outside CUDA graph capture)."""
        if self.global_scratch_internal:
            return _allocation.runtime_scratch(self.global_scratch * programs, device, stream)
        buffer = _allocation.get_allocator()(self.global_scratch * programs, self.global_scratch_align, stream)
        return buffer, buffer.data_ptr()

    def _negative(self, k: int, value: int):
        seen = f" ({value - (1 << 64)} as the kernel reads it)" if value >= 1 << 63 else ""
        raise TritiumError(f"argument '{self.param_names[k]}' of '{self.name}' is {value}{seen}: a block pointer "
                           "moved by the copy engine (TMA) takes it as a dimension or a stride, which must not be "
                           "negative")

    def _not_multiple(self, k: int, value: int):
        _, multiple, why = next(m for m in self.multiples if m[0] == k)
        raise TritiumError(f"argument '{self.param_names[k]}' of '{self.name}' is {value}, not a multiple of "
                           f"{multiple}: {why}")

    def _raise_launch_error(self, result: int):
        hint = ""
        earlier = last_launched()
        if earlier and earlier != self.name:
            hint = f" (the kernel launched before it was '{earlier}')"
        raise driver.CudaError(f"launching '{self.name}' failed: {driver._runtime.error_text(result)}{hint}")

    def _pack_error(self, error: Exception, values: Sequence[Any]):
        if self.descriptor_plans:
            raise TritiumError(f"cannot pack the arguments of '{self.name}': {error}") from None
        for name, ty, value in zip(self.param_names, self.param_types, values):
            try:
                struct.pack("@" + ("P" if ty.startswith("*") else _FORMATS[ty]), value)
            except (struct.error, TypeError, OverflowError):
                raise TritiumError(f"argument '{name}' of '{self.name}' cannot be passed as {ty}: "
                                   f"{value!r}") from None
        raise TritiumError(f"cannot pack the arguments of '{self.name}': {error}") from None

    def __call__(self, grid: Sequence[int], args: Sequence[Any], device: Optional[int] = None,
                 cooperative: bool = False, stream: Optional[int] = None):
        """Launches with the values of the runtime parameters, in order, on
        `stream` (default: the current stream); `cooperative` (Triton's
        launch_cooperative_grid) has every program resident at once, or
        refuses the grid."""
        gx, gy, gz = grid_dims(grid, self.name)
        if len(args) != self.num_params:
            raise TritiumError(f"'{self.name}' takes {self.num_params} runtime arguments, got {len(args)}")
        if device is None:
            device = driver.current_device()
        several_devices = driver.cuda().device_count > 1
        values = []
        for k, (name, ty, value) in enumerate(zip(self.param_names, self.param_types, args)):
            if several_devices:
                check_device(getattr(value, "base", value) if ty.startswith("tensordesc<") else value, name, device)
            if ty.startswith("tensordesc<"):
                values += launch_values(value, name, self.descriptor_plans[k])
                continue
            if ty.startswith("*"):
                value = device_pointer(value, name)
            elif ty == "bf16":
                value = _bf16_bits(value)
            elif ty.startswith("fp") or ty == "f32":
                value = float(value)
            else:
                value = int(value)
            values.append(value)
        for k, limit in self.nonnegative:
            if not 0 <= args[k] < limit:
                self._negative(k, args[k])
        for k, multiple, _ in self.multiples:
            if args[k] % multiple:
                self._not_multiple(k, args[k])
        fn = self.function(device)
        if stream is None:
            stream = driver.current_stream(device)
        scratch = None
        if self.global_scratch:
            scratch, address = self.scratch(gx * gy * gz, stream, device)
            values.append(address)
        try:
            record = self.record.pack(fn, stream, gx, gy, gz, self.threads,
                                      self.shared, self.params_bytes, *values)
        except (struct.error, OverflowError) as e:
            self._pack_error(e, values)
        if cooperative:
            result = driver.cuda().launch_cooperative(record, *(self._argument_offsets or self._offsets()))
        elif self._argument_offsets is not None:
            result = driver.cuda().launch_params(record, *self._argument_offsets)
        else:
            result = driver.cuda().launch(record)
        del scratch  # (after the launch is issued)
        if result != 0:
            self._raise_launch_error(result)

    # ---- pieces of the generated launch functions (run_entry, warm_entry) ----

    def _argument_checks_source(self, positions: Sequence[int]) -> str:
        """Lines refusing a negative dimension or stride of a block pointer
        moved by TMA, and a stride of a tensor map made in the kernel that
        is not a multiple of 16 bytes (runtime parameter k is
        v{positions[k]})."""
        return ("".join(f"    if not 0 <= v{positions[k]} < {limit}:\n"
                        f"        _self._negative({k}, v{positions[k]})\n" for k, limit in self.nonnegative)
                + "".join(f"    if v{positions[k]} % {multiple}:\n"
                          f"        _self._not_multiple({k}, v{positions[k]})\n" for k, multiple, _ in self.multiples))

    @staticmethod
    def _pack_and_launch_source(function: str, grid: str, packed: Sequence[str]) -> str:
        """Lines packing the launch record of `function` on `stream` over
        the grid `grid` ("x, y, z") with the argument expressions `packed`,
        naming a value that does not fit its type, and launching it."""
        return ("    try:\n"
                f"        record = _pack({function}, stream, {grid}, _THREADS, _SHARED, _BYTES"
                f"{''.join(', ' + p for p in packed)})\n"
                "    except (_struct_error, OverflowError) as e:\n"
                f"        _self._pack_error(e, [{', '.join(packed)}])\n"
                "    result = _launch(record)\n"
                "    if result:\n"
                "        _self._raise_launch_error(result)\n")

    def _entry_namespace(self) -> dict:
        """The names both generated launch functions use."""
        return {"_pack": self.record.pack, "_THREADS": self.threads, "_SHARED": self.shared,
                "_BYTES": self.params_bytes, "_launch": driver.cuda().launch, "_bad_grid": bad_grid,
                "_NAME": self.name, "_self": self, "_bf16": _bf16_bits, "_struct_error": struct.error}

    def run_entry(self, positions: Sequence[int], num_values: int, general: Callable) -> Callable:
        """A function with the parameters of Triton's CompiledKernel.run,
        (grid_x, grid_y, grid_z, stream, function, packed_metadata,
        launch_metadata, launch_enter_hook, launch_exit_hook, v0, ...,
        v{num_values-1}),
        where v_i is the value of the kernel's parameter i (constexprs
        included; runtime parameter k is v[positions[k]]).  It launches
        `function` (a CUfunction this launcher loaded; 0 or None: the one on
        the current device) on `stream`.  Tensors become addresses here, with
        device_pointer's checks; the packing names an argument that does not
        fit its type.  A call with another number of values goes to
        `general` (the same parameters).  Unlike __call__, it does not check
        that the tensors live on the current device: as in Triton, the
        caller has chosen the function and stream of one device."""
        if any(ty.startswith("tensordesc<") for ty in self.param_types):
            raise TritiumError("run_entry: kernels with tensor descriptor parameters take the general path")
        values = [f"v{i}" for i in range(num_values)]
        packed = []
        for k, ty in zip(positions, self.param_types):
            if ty.startswith("*"):
                packed.append(f"_ptr(v{k}, {self.param_names[len(packed)]!r})")
            elif ty == "bf16":
                packed.append(f"_bf16(v{k})")
            else:
                packed.append(f"v{k}")
        checks = self._argument_checks_source(positions)
        scratch = ""
        if self.global_scratch:
            scratch = "    scratch, scratch_address = _self.scratch(grid_x * grid_y * grid_z, stream, _device())\n"
            packed.append("scratch_address")
        source = (
            "def run(grid_x, grid_y, grid_z, stream, function, packed_metadata, launch_metadata, launch_enter_hook,"
            " launch_exit_hook, *args):\n"
            f"    if len(args) != {num_values}:\n"
            "        return _general(grid_x, grid_y, grid_z, stream, function, packed_metadata, launch_metadata,"
            " launch_enter_hook, launch_exit_hook, *args)\n"
            + (f"    {', '.join(values)}, = args\n" if values else "")
            + "    if not (0 < grid_x <= 2147483647 and 0 < grid_y <= 65535 and 0 < grid_z <= 65535):\n"
            "        _bad_grid((grid_x, grid_y, grid_z), _NAME)\n"
            f"{checks}"
            "    if not function:\n"
            "        function = _self.function(_device())\n"
            f"{scratch}"
            "    if launch_enter_hook:\n"
            "        launch_enter_hook(launch_metadata)\n"
            + self._pack_and_launch_source("function", "grid_x, grid_y, grid_z", packed)
            + "    if launch_exit_hook:\n"
            "        launch_exit_hook(launch_metadata)\n")
        namespace = dict(self._entry_namespace(), _device=driver.device_getter(), _ptr=device_pointer,
                         _general=general)
        exec(compile(source, f"<tritium run of {self.name}>", "exec"), namespace)
        return namespace["run"]

    def warm_entry(self, device: int, positions: Sequence[int], num_values: int, result: Any = None) -> Callable:
        """A launch function (grid, v0, ..., v{num_values-1}) for the JIT's
        warm path on `device`: v_i is the bound value of parameter i with
        tensors already turned into addresses; runtime parameter k is
        v[positions[k]].  It returns `result` (the JIT passes the compiled
        kernel, which `kernel[grid](...)` returns, as in Triton).  The
        kernel must be loaded on `device`."""
        fn = self.function(device)
        values = [f"v{i}" for i in range(num_values)]
        packed = []
        for k, ty in zip(positions, self.param_types):
            packed.append(f"_bf16(v{k})" if ty == "bf16" else f"v{k}")
        checks = self._argument_checks_source(positions)
        scratch = ""
        if self.global_scratch:
            scratch = "    scratch, scratch_address = _self.scratch(gx * gy * gz, stream, _DEVICE)\n"
            packed.append("scratch_address")
        # The grid checks are grid_dims written inline: a call per launch
        # is what this function exists to save.
        source = (
            f"def launch(grid, {', '.join(values)}):\n"
            f"    n = len(grid)\n"
            f"    if n == 1:\n"
            f"        gx = grid[0]; gy = gz = 1\n"
            f"    elif n == 2:\n"
            f"        gx, gy = grid; gz = 1\n"
            f"    elif n == 3:\n"
            f"        gx, gy, gz = grid\n"
            f"    else:\n"
            f"        _bad_grid(grid, _NAME)\n"
            f"    if not (0 < gx <= 2147483647 and 0 < gy <= 65535 and 0 < gz <= 65535):\n"
            f"        _bad_grid(grid, _NAME)\n"
            f"{checks}"
            f"    stream = _stream(_DEVICE)\n"
            f"{scratch}"
            + self._pack_and_launch_source("_FN", "gx, gy, gz", packed)
            + "    return _RESULT\n")
        namespace = dict(self._entry_namespace(), _FN=fn, _stream=driver.stream_getter(), _DEVICE=device,
                         _RESULT=result)
        exec(compile(source, f"<tritium launch of {self.name}>", "exec"), namespace)
        return namespace["launch"]
