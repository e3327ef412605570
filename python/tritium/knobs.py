"""`triton.knobs`: Tritium's settings, grouped as Triton groups them.

Each group (`knobs.cache`, `knobs.runtime`, `knobs.compilation`, ...) is an
object whose attributes are knobs.  A knob reads its environment variable
on every access unless a value was assigned in Python; assigning sets it
(and, with `knobs.propagate_env`, the environment variable too); `del`
returns it to the environment.  `group.scope()` restores a group's values
on exit, `group.copy()` and `group.reset()` give a detached copy and the
defaults back, `group.knob_descriptors` lists its knobs with their
variables.

What Tritium honours: `cache.dir` (TRITIUM_CACHE_DIR, else TRITON_CACHE_DIR),
`compilation.always_compile`, `runtime.jit_cache_hook` and
`runtime.jit_post_compile_hook` (called around each new specialization),
`runtime.launch_enter_hook` / `launch_exit_hook` (around every launch of a
@jit function while a hook is set: such launches take the slow path),
`runtime.kernel_load_start_hook` / `kernel_load_end_hook` (around a
module load),
`language.default_fp_fusion` (the default of `enable_fp_fusion`),
`autotuning.print` and `autotuning.cache`.  The other knobs exist with
Triton's names and defaults so that code which sets or reads them runs; they
change nothing.  `runtime.interpret` (TRITON_INTERPRET=1) runs every launch on
the CPU target, GPU tensors copied to the host and back, as Triton's
interpreter does.
"""
from __future__ import annotations

import contextlib
import copy as _copy
import os
import subprocess
from typing import Any, Callable, Dict, List, Optional

propagate_env: bool = True

_TRUE = ("1", "true", "on", "yes")


def _parse_bool(text: str) -> bool:
    return text.strip().lower() in _TRUE


class env_knob:
    """A knob: an attribute of a group, backed by environment variables."""

    def __init__(self, key: str, default: Any = None, parse: Optional[Callable[[str], Any]] = None,
                 fallback_keys: tuple = ()):
        self.key = key
        self.default = default
        self.parse = parse or (lambda text: text)
        self.fallback_keys = fallback_keys
        self.name = key

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, group, owner=None):
        if group is None:
            return self
        if self.name in group._values:
            return group._values[self.name]
        for key in (self.key, *self.fallback_keys):
            text = os.environ.get(key)
            if text is not None:
                return self.parse(text)
        return self.default() if callable(self.default) else self.default

    def __set__(self, group, value):
        group._values[self.name] = value
        if not propagate_env:
            return
        if value is None:
            os.environ.pop(self.key, None)
        elif isinstance(value, (str, int, float, bool)):
            os.environ[self.key] = ("1" if value else "0") if isinstance(value, bool) else str(value)

    def __delete__(self, group):
        group._values.pop(self.name, None)
        if propagate_env:
            os.environ.pop(self.key, None)


def env_bool(key: str, default: bool = False, fallback_keys: tuple = ()) -> env_knob:
    return env_knob(key, default, _parse_bool, fallback_keys)


def env_int(key: str, default: Optional[int] = None) -> env_knob:
    return env_knob(key, default, int)


# Called (without arguments) whenever a hook is added to any chain: the JIT
# drops its warm-path entries then, so that launch hooks see every launch.
hook_added_callbacks: List[Callable[[], None]] = []


class HookChain:
    """Hooks called in order (Triton's launch and load hooks): add, remove, call."""

    def __init__(self):
        self.calls: List[Callable] = []

    def add(self, fn: Callable):
        if fn not in self.calls:
            self.calls.append(fn)
        for callback in hook_added_callbacks:
            callback()

    def remove(self, fn: Callable):
        if fn in self.calls:
            self.calls.remove(fn)

    def __bool__(self):
        return bool(self.calls)

    def __call__(self, *args, **kwargs):
        for fn in self.calls:
            fn(*args, **kwargs)


class base_knobs:
    """A group of knobs."""

    # knobs that are plain Python values (callables) with their defaults, and hook chains
    _plain: Dict[str, Any] = {}
    _hook_chains: tuple = ()

    def __init__(self):
        self._values: Dict[str, Any] = {}
        self.reset()

    @property
    def knob_descriptors(self) -> Dict[str, env_knob]:
        out = {}
        for cls in reversed(type(self).__mro__):
            out.update({k: v for k, v in cls.__dict__.items() if isinstance(v, env_knob)})
        return out

    @property
    def knobs(self) -> Dict[str, Any]:
        return {name: getattr(self, name) for name in self.knob_descriptors}

    def copy(self):
        other = _copy.copy(self)
        other._values = dict(self._values)
        return other

    def reset(self):
        self._values = dict(self._plain)
        for name in self._hook_chains:
            self._values[name] = HookChain()
        return self

    @contextlib.contextmanager
    def scope(self):
        saved = dict(self._values)
        saved_env = {d.key: os.environ.get(d.key) for d in self.knob_descriptors.values()}
        try:
            yield self
        finally:
            self._values = saved
            for key, value in saved_env.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

    def __getattr__(self, name):
        # hook chains and plain attributes assigned in Python live in _values
        values = self.__dict__.get("_values", {})
        if name in values:
            return values[name]
        raise AttributeError(f"{type(self).__name__} has no knob '{name}'")

    def __setattr__(self, name, value):
        if name == "_values" or isinstance(type(self).__dict__.get(name), (env_knob, property)):
            object.__setattr__(self, name, value)
        else:
            self._values[name] = value
            if name in self._hook_chains and value:
                # a hook assigned (not added to its chain) must also reach
                # launches that took the warm path before
                for callback in hook_added_callbacks:
                    callback()


def _default_cache_dir() -> str:
    return os.path.join(os.path.expanduser("~"), ".tritium", "cache")


class cache_knobs(base_knobs):
    home_dir = env_knob("TRITON_HOME", lambda: os.path.expanduser("~"))
    dir = env_knob("TRITIUM_CACHE_DIR", _default_cache_dir, fallback_keys=("TRITON_CACHE_DIR",))
    dump_dir = env_knob("TRITIUM_DUMP_DIR", None, fallback_keys=("TRITON_DUMP_DIR",))
    override_dir = env_knob("TRITON_OVERRIDE_DIR", None)


class compilation_knobs(base_knobs):
    override = env_bool("TRITON_KERNEL_OVERRIDE")
    dump_ir = env_bool("TRITON_KERNEL_DUMP")
    store_binary_only = env_bool("TRITON_STORE_BINARY_ONLY")
    always_compile = env_bool("TRITIUM_ALWAYS_COMPILE", fallback_keys=("TRITON_ALWAYS_COMPILE",))
    disable_line_info = env_bool("TRITON_DISABLE_LINE_INFO")
    front_end_debugging = env_bool("TRITON_FRONT_END_DEBUGGING")
    allow_non_constexpr_globals = env_bool("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS")
    _plain = {"listener": None}


class autotuning_knobs(base_knobs):
    cache = env_bool("TRITON_CACHE_AUTOTUNING")
    print = env_bool("TRITON_PRINT_AUTOTUNING")


class language_knobs(base_knobs):
    fp32_default = env_knob("TRITON_F32_DEFAULT", None)
    default_fp_fusion = env_bool("TRITON_DEFAULT_FP_FUSION", True)


class runtime_knobs(base_knobs):
    interpret = env_bool("TRITON_INTERPRET")
    debug = env_bool("TRITIUM_DEBUG", fallback_keys=("TRITON_DEBUG",))
    override_arch = env_knob("TRITON_OVERRIDE_ARCH", None)
    _hook_chains = ("launch_enter_hook", "launch_exit_hook", "kernel_load_start_hook", "kernel_load_end_hook")
    # jit_cache_hook(key=, repr=, fn=, compile=, is_manual_warmup=, already_compiled=) is called
    # before a new specialization compiles (returning False skips the compile);
    # jit_post_compile_hook(...) after it compiled
    _plain = {"jit_cache_hook": None, "jit_post_compile_hook": None}


class build_knobs(base_knobs):
    cc = env_knob("CC", None)
    cudacrt_path = env_knob("TRITON_CUDACRT_PATH", None)
    cudart_path = env_knob("TRITON_CUDART_PATH", None)


class nvidia_tool:
    """A CUDA tool's path and version (Triton's knobs.nvidia.ptxas)."""

    def __init__(self, name: str):
        self.name = name

    @property
    def path(self) -> str:
        home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
        return os.environ.get(f"TRITON_{self.name.upper()}_PATH", os.path.join(home, "bin", self.name))

    @property
    def version(self) -> str:
        try:
            out = subprocess.run([self.path, "--version"], capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return ""
        return out.strip().splitlines()[-1] if out.strip() else ""


class nvidia_knobs(base_knobs):
    dump_nvptx = env_bool("NVPTX_ENABLE_DUMP")
    disable_ptxas_opt = env_bool("DISABLE_PTXAS_OPT")
    mock_ptx_version = env_knob("TRITON_MOCK_PTX_VERSION", None)
    libdevice_path = env_knob("TRITON_LIBDEVICE_PATH", None)
    libcuda_path = env_knob("TRITON_LIBCUDA_PATH", None)

    @property
    def ptxas(self) -> nvidia_tool:
        return nvidia_tool("ptxas")

    @property
    def cuobjdump(self) -> nvidia_tool:
        return nvidia_tool("cuobjdump")

    @property
    def nvdisasm(self) -> nvidia_tool:
        return nvidia_tool("nvdisasm")


class amd_knobs(base_knobs):
    """AMD's knobs (Tritium targets NVIDIA only)."""


class proton_knobs(base_knobs):
    """Proton's knobs (Tritium has no profiler)."""


cache = cache_knobs()
compilation = compilation_knobs()
autotuning = autotuning_knobs()
language = language_knobs()
runtime = runtime_knobs()
build = build_knobs()
nvidia = nvidia_knobs()
amd = amd_knobs()
proton = proton_knobs()
