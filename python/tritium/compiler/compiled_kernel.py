"""`CompiledKernel`: a kernel compiled from Python (compiler.compile) or
from a file of Triton IR (ir_source.py): its texts per stage, its
metadata, and the launcher that loads and launches it; and the kernel of a
variant read back from the on-disk cache."""
from __future__ import annotations

import json
import re
import threading
from typing import Any, Dict, Optional, Sequence

from .. import knobs as _knobs
from ..errors import TritiumError
from ..runtime import driver, tuple_args
from ..runtime.launcher import Launcher

_MAKE_LAUNCHER_LOCK = threading.Lock()  # (CompiledKernel._make_launcher)


class KernelMetadata(dict):
    """A kernel's metadata: a dict whose keys also read as attributes
    (`kernel.metadata.shared`, as Triton's host code writes it)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


def _needs_ptx_jit(target) -> bool:
    """True when a kernel compiled for `target` ("cuda:80") cannot run its
    cubin on the current device but can run its PTX: the device is of a
    later major generation (a cubin runs only on its own major version,
    PTX on any later one through the driver's JIT)."""
    try:
        compiled = int(str(target).removeprefix("cuda:").rstrip("a"))
        device = int(driver.current_target().removeprefix("cuda:"))
    except (ValueError, TypeError, TritiumError):  # no GPU: loading will say so
        return False
    return compiled // 10 < device // 10


def _launch_hook_knob(name: str) -> property:
    """A class property that reads and sets knobs.runtime.<name> (None
    clears it)."""
    def get(cls):
        return getattr(_knobs.runtime, name)

    def set_(cls, hook):
        setattr(_knobs.runtime, name, hook if hook is not None else _knobs.HookChain())
    return property(get, set_)


class _LaunchHooksOfTheClass(type):
    """`CompiledKernel.launch_enter_hook = f` (Triton's older spelling) sets
    knobs.runtime.launch_enter_hook, and so for the exit hook."""
    launch_enter_hook = _launch_hook_knob("launch_enter_hook")
    launch_exit_hook = _launch_hook_knob("launch_exit_hook")


class CompiledKernel(metaclass=_LaunchHooksOfTheClass):
    """A compiled kernel: its texts per stage (`asm`), metadata, and a launcher.

    `asm` holds "source", "ttir" and, with the NVIDIA backend, "ttgir",
    "llir", "ptx" and "cubin" (bytes).  As in Triton, `kernel[grid](...)`
    takes either the runtime arguments or all of the kernel's arguments
    (constexprs included, which are then skipped), and `_init_handles()`
    loads the kernel, after which `n_regs` is the driver's register count.
    """

    src = None  # the ASTSource compiled (set by compiler.compile; None for an IR file)

    def __init__(self, name: str, asm: Dict[str, Any], metadata: Dict[str, Any]):
        self.name = name
        self.asm = asm
        self.metadata = metadata
        signature = metadata["signature"]
        self._signature = dict(signature)
        self._runtime_leaves = tuple_args.flatten_signature(signature)  # tuple leaves named param.i
        self.runtime_params = [n for n, _ in self._runtime_leaves]
        self._num_params = len(signature)
        self._launcher = None

    # Inductor sends a compiled kernel from its compile workers to the main
    # process as its __dict__ with the metadata turned into a dict, and on
    # arrival puts back a named tuple built from that dict into the
    # __dict__ directly.  `metadata` is a property, which an instance
    # __dict__ entry cannot shadow, so the kernel keeps its own
    # KernelMetadata (`_metadata`, pickled with the rest); a metadata set
    # through the attribute, as a mapping or a named tuple, becomes one.
    @property
    def metadata(self) -> KernelMetadata:
        return self._metadata

    @metadata.setter
    def metadata(self, value) -> None:
        if hasattr(value, "_asdict"):
            value = value._asdict()
        self._metadata = KernelMetadata(value)

    @property
    def n_regs(self) -> int:
        launcher = self._launcher
        if launcher is not None and launcher.registers is not None:
            return launcher.registers
        return int(self.metadata.get("registers") or 0)

    @property
    def n_spills(self) -> int:
        """Triton's measure: the local memory a thread uses, in 32-bit words
        (Triton divides the driver's CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES by 4;
        ptxas's stack frame is that size).  Inductor drops autotune configs
        above its spill threshold by it.  ptxas's bytes of spill stores are
        metadata["spills"]."""
        frame = self.metadata.get("stack_frame")
        if frame is None:
            frame = self.metadata.get("spills") or 0
        return int(frame) // 4

    def _init_handles(self):
        """Loads the kernel on the current device now (the first launch
        would otherwise)."""
        launcher = self._launcher or self._make_launcher()
        launcher.function(driver.current_device())

    @property
    def shared(self) -> int:
        return int(self.metadata.get("shared", 0))

    @property
    def hash(self) -> Optional[str]:
        """The compile's cache key (Triton's name): equal for two compiles
        of the same specialization."""
        return self.metadata.get("hash")

    @property
    def num_warps(self) -> int:
        return int(self.metadata["num_warps"])

    # ---- Triton's launch interface, as PyTorch's Inductor drives it ----
    #
    # Inductor calls _init_handles(), then reads `function` and `run` and
    # calls run(gx, gy, gz, stream, function, packed_metadata,
    # launch_metadata, enter_hook, exit_hook, *args) with every parameter's
    # value (constexprs included: they are dropped here).  `run`,
    # `function` and `module` are properties: Inductor unpickles a kernel
    # by updating its __dict__ with None for them, and a property still
    # answers then.

    @property
    def num_ctas(self) -> int:
        return int(self.metadata.get("num_ctas", 1))

    @property
    def cluster_dims(self) -> tuple:
        return tuple(self.metadata.get("cluster_dims") or (1, 1, 1))

    @property
    def packed_metadata(self) -> tuple:
        """(num_warps, num_ctas, shared, cluster x, y, z), as Triton's NVIDIA
        backend packs it; run() takes it and does not read it."""
        return (self.num_warps, self.num_ctas, self.shared, *self.cluster_dims)

    @property
    def function(self) -> int:
        """The CUfunction on the current device (loads the kernel)."""
        launcher = self._launcher or self._make_launcher()
        return launcher.function(driver.current_device())

    @property
    def module(self):
        """Triton's CUmodule handle; Tritium's loader keeps the module to
        itself, so this is None."""
        return None

    @property
    def run(self):
        """Triton's run(grid_x, grid_y, grid_z, stream, function,
        packed_metadata, launch_metadata, enter_hook, exit_hook, *args):
        a function generated for this kernel (Launcher.run_entry) when its
        parameters are plain values and tensors, else _run."""
        try:
            launcher = self._launcher or self._make_launcher()
        except TritiumError:
            return self._run  # (a kernel without a binary: launching it says why)
        entry = launcher.run_function
        if entry is None:
            entry = self._run
            if not any(tuple_args.is_tuple_signature(ty) or str(ty).startswith("tensordesc<")
                       for ty in self._signature.values()):
                positions = [i for i, ty in enumerate(self._signature.values()) if ty != "constexpr"]
                try:
                    entry = launcher.run_entry(positions, self._num_params, self._run)
                except TritiumError:
                    return self._run  # (no GPU: launching it says so)
            launcher.run_function = entry
        return entry

    def _run(self, grid_x, grid_y, grid_z, stream, function, packed_metadata, launch_metadata,
             launch_enter_hook, launch_exit_hook, *args):
        """Triton's CompiledKernel.run: launches on `stream` with the values
        of all the kernel's parameters (constexprs included and dropped) or
        of its runtime parameters only; the hooks, when set, are called
        with `launch_metadata` before and after."""
        if len(args) == self._num_params:
            try:
                args = tuple_args.flatten_values(self._signature, args)
            except TypeError:
                pass  # already the runtime values
        if launch_enter_hook:
            launch_enter_hook(launch_metadata)
        launcher = self._launcher or self._make_launcher()
        launcher((grid_x, grid_y, grid_z), args, stream=stream)
        if launch_exit_hook:
            launch_exit_hook(launch_metadata)

    def launch_metadata(self, grid, stream, *args):
        """What launch hooks receive (Triton's CompiledKernel.launch_metadata):
        None when no launch_enter_hook is set; else a dict with the
        kernel's name, function and stream, plus what the @jit function's
        launch_metadata callable returns for (grid, metadata, arguments)."""
        if not _knobs.runtime.launch_enter_hook:
            return None
        ret = {"name": self.name, "function": self.function, "stream": stream}
        fn = getattr(self.src, "fn", None)
        make = getattr(fn, "launch_metadata", None)
        if make is not None:
            ret.update(make(grid, self.metadata, dict(zip(fn.arg_names, args))) or {})
        return ret

    def _make_launcher(self):
        """The kernel's one Launcher, made on first use.  Threads launching
        a new kernel at once must share it: a second one would replace the
        first after a thread had loaded the module through it, and the JIT's
        warm path (which reads the module's function from the kernel's
        launcher) would then find none."""
        with _MAKE_LAUNCHER_LOCK:
            if self._launcher is None:
                self._launcher = self._new_launcher()
        return self._launcher

    def _new_launcher(self):
        image = self.asm.get("cubin")
        if image is not None and _needs_ptx_jit(self.metadata.get("target")):
            image = None  # a cubin of another GPU generation: run its PTX
        if image is None:
            ptx = self.asm.get("ptx")
            if ptx is None:
                raise TritiumError(f"'{self.name}' was compiled to Triton IR only: this build has no "
                                   "NVIDIA backend to launch it")
            image = ptx.encode() + b"\0"  # the driver JIT-compiles PTX
        return Launcher(self.metadata.get("kernel_name", self.name), image, self.runtime_params,
                        [t for _, t in self._runtime_leaves],
                        int(self.metadata.get("total_num_warps") or self.num_warps), self.shared,
                        self.metadata.get("tensor_descriptors") or (),
                        int(self.metadata.get("global_scratch_size") or 0),
                        int(self.metadata.get("global_scratch_align") or 1),
                        bool(self.metadata.get("global_scratch_internal")),
                        self.metadata.get("nonnegative_args") or (),
                        self.metadata.get("multiple_at_launch_args") or ())

    def launch(self, grid, args: Sequence[Any], cooperative: bool = False):
        """Launches with the values of the runtime parameters, in order
        (`cooperative`: every program resident at once, see Launcher)."""
        launcher = self._launcher or self._make_launcher()
        launcher(grid, args, cooperative=cooperative)

    def __getitem__(self, grid):
        def run(*args):
            if len(args) == self._num_params:
                try:  # all of the kernel's arguments: keep the runtime ones, tuples flattened
                    args = tuple_args.flatten_values(self._signature, args)
                except TypeError:
                    pass  # already the runtime values
            return self.launch(grid, args)
        return run

    def __repr__(self):
        return f"CompiledKernel({self.name}, stages={list(self.asm)})"


def take_native_metadata(metadata: Dict[str, Any], stages: Dict[str, Any]) -> None:
    """Copies what the native compile reports (its `stages` dict) into a
    kernel's metadata: the entry's name, shared memory, registers, scratch
    and the launcher's other inputs."""
    for field in ("shared", "registers", "spills", "stack_frame", "name", "tensor_descriptors", "global_scratch_size", "global_scratch_align", "global_scratch_internal",
                  "nonnegative_args", "multiple_at_launch_args", "total_num_warps"):
        if field in stages:
            metadata["kernel_name" if field == "name" else field] = stages[field]
    metadata["maxnreg"] = stages.get("maxnreg") or None
    # ptxas's performance notes, by code (C7512: wgmma serialized for lack of
    # registers), for whoever explains a kernel's speed.
    notes = sorted(set(re.findall(r"\((C7\d{3})\)", stages.get("ptxas_log") or "")))
    if notes:
        metadata["ptxas_notes"] = notes
    # As in Triton, num_warps is the block the kernel is launched with: a
    # warp-specialized kernel's producer warp included (launchers outside
    # Tritium's, such as PyTorch's static CUDA launcher, start
    # 32 * num_warps threads).
    if stages.get("total_num_warps"):
        metadata["num_warps"] = int(stages["total_num_warps"])


_TEXT_STAGES = ("source", "ttir", "ttgir", "llir", "ptx")


def from_cache(files: Dict[str, bytes], name: str) -> CompiledKernel:
    """The kernel of a variant read from the on-disk cache (runtime/cache.py)."""
    metadata = json.loads(files["json"])
    asm: Dict[str, Any] = {}
    for stage in _TEXT_STAGES:
        if stage in files:
            asm[stage] = files[stage].decode()
    if "cubin" in files:
        asm["cubin"] = files["cubin"]
    return CompiledKernel(name, asm, metadata)
