"""Loading libtritium.so and calling its C ABI (capi/tritium.h) through ctypes.

The library is looked for, in order, at $TRITIUM_LIBRARY (an explicit path),
then at tritium/_lib/libtritium.so beside this file: the build links that
name to the library it produced, and a shipped package holds a copy there.
"""
import ctypes
import json
import os
import re
import threading

from .errors import CompilationError, NativeLibraryError

# Must equal kAbiVersion in capi/ParseAndVerify.cpp.
ABI_VERSION = 16

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_lock = threading.Lock()
_library = None


def library_path() -> str:
    """Where the native library is taken from."""
    explicit = os.environ.get("TRITIUM_LIBRARY")
    if explicit:
        return explicit
    return os.path.join(_PACKAGE_DIR, "_lib", "libtritium.so")


# "file:line:col: error: message", the first line of an MLIR diagnostic.
_FIRST_ERROR = re.compile(r"^(.+?):(\d+):(\d+): error: (.*)$", re.MULTILINE)


class NativeLibrary:
    """The loaded libtritium.so with typed entry points."""

    def __init__(self, path: str):
        if not os.path.exists(path):
            raise NativeLibraryError(
                f"libtritium.so not found at {path}; build it with the set-up "
                "command in the README, or point TRITIUM_LIBRARY at it"
            )
        try:
            self._dll = ctypes.CDLL(path)
        except OSError as e:
            raise NativeLibraryError(f"cannot load {path}: {e}") from e
        self.path = path
        self._build_id = None
        d = self._dll
        d.tritium_version.restype = ctypes.c_char_p
        d.tritium_version.argtypes = []
        d.tritium_abi_version.restype = ctypes.c_int
        d.tritium_abi_version.argtypes = []
        # Checked before the other entry points are looked up: an older library
        # may lack some of them.
        abi = d.tritium_abi_version()
        if abi != ABI_VERSION:
            raise NativeLibraryError(
                f"{path} has C ABI revision {abi}, this package needs {ABI_VERSION}; rebuild"
            )
        d.tritium_parse_and_verify.restype = ctypes.c_int
        d.tritium_parse_and_verify.argtypes = [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_void_p),
        ]
        d.tritium_run_pipeline.restype = ctypes.c_int
        d.tritium_run_pipeline.argtypes = [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_void_p),
        ]
        d.tritium_compile_cuda.restype = ctypes.c_int
        d.tritium_compile_cuda.argtypes = [
            ctypes.c_char_p,
            ctypes.c_size_t,
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_size_t),
            ctypes.POINTER(ctypes.c_void_p),
        ]
        d.tritium_free.restype = None
        d.tritium_free.argtypes = [ctypes.c_void_p]
        d.tritium_prepare_ptx_compiler.restype = None
        d.tritium_prepare_ptx_compiler.argtypes = []
        d.tritium_ptxas_path.restype = None
        d.tritium_ptxas_path.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        vp = ctypes.c_void_p
        d.tritium_cpu_compile.restype = ctypes.c_int
        d.tritium_cpu_compile.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p,
                                          ctypes.c_int, ctypes.POINTER(vp), ctypes.POINTER(vp), ctypes.POINTER(vp),
                                          ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(vp)]
        d.tritium_cpu_load.restype = ctypes.c_int
        d.tritium_cpu_load.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(vp),
                                       ctypes.POINTER(vp)]
        d.tritium_cpu_run.restype = ctypes.c_int
        d.tritium_cpu_run.argtypes = [vp, ctypes.POINTER(vp), ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                      ctypes.POINTER(vp)]
        d.tritium_cpu_release.restype = None
        d.tritium_cpu_release.argtypes = [vp]
        d.tritium_cpu_host.restype = None
        d.tritium_cpu_host.argtypes = [ctypes.POINTER(vp)]

    def version(self) -> str:
        return self._dll.tritium_version().decode()

    def build_id(self) -> str:
        """Identifies this build of the library for the kernel cache: its
        version, size and modification time (a rebuilt compiler must not be
        answered by kernels an older one compiled).  Cheap: one stat."""
        if self._build_id is None:
            st = os.stat(os.path.realpath(self.path))
            self._build_id = f"{self.version()}:{st.st_size}:{st.st_mtime_ns}"
        return self._build_id

    def ptxas_path(self) -> str:
        """The ptxas a compile runs now (the environment decides: see
        findPtxas in Ptxas.h), or "" when there is none."""
        path = ctypes.c_void_p()
        self._dll.tritium_ptxas_path(ctypes.byref(path))
        return self._take_string(path)

    def ptx_compiler_id(self) -> str:
        """Identifies what turns PTX into cubins for the kernel cache: the
        ptxas (path, size and modification time: a CUDA upgrade or another
        TRITIUM_PTXAS_PATH / TRITON_PTXAS_PATH must not be answered by
        cubins another ptxas built) and TRITIUM_NVJITLINK.  One stat."""
        path = self.ptxas_path()
        try:
            st = os.stat(os.path.realpath(path)) if path else None
        except OSError:
            st = None
        ptxas = f"{path}:{st.st_size}:{st.st_mtime_ns}" if st else (path or "no ptxas")
        return f"{ptxas}|nvjitlink={os.environ.get('TRITIUM_NVJITLINK', 'none')}"

    def _take_bytes(self, pointer: ctypes.c_void_p, size: ctypes.c_size_t) -> bytes:
        """The `size` bytes at `pointer` (b"" for NULL), freed."""
        if not pointer.value:
            return b""
        try:
            return ctypes.string_at(pointer.value, size.value)
        finally:
            self._dll.tritium_free(pointer.value)

    def _take_string(self, pointer: ctypes.c_void_p) -> str:
        if not pointer.value:
            return ""
        try:
            return ctypes.string_at(pointer.value).decode("utf-8", errors="replace")
        finally:
            self._dll.tritium_free(pointer.value)

    def parse_and_verify(self, text: str, source_name: str = "<ir>") -> str:
        """Parses and verifies MLIR text; returns its printed form.

        Raises CompilationError carrying every diagnostic (with location,
        source line and caret) when the text does not parse or verify.
        """
        data = text.encode("utf-8")
        printed = ctypes.c_void_p()
        diagnostics = ctypes.c_void_p()
        rc = self._dll.tritium_parse_and_verify(
            data, len(data), source_name.encode("utf-8"),
            ctypes.byref(printed), ctypes.byref(diagnostics),
        )
        out, messages = self._take_string(printed), self._take_string(diagnostics)
        if rc != 0:
            raise CompilationError(messages)
        return out

    def run_pipeline(self, text: str, pipeline: str, source_name: str = "<ir>") -> str:
        """Parses and verifies MLIR text, runs the textual pass pipeline on it
        (e.g. "builtin.module(tritium-make-ttir)"), and returns the result's
        printed form.

        Raises CompilationError carrying the diagnostics when the text does
        not parse or verify, the pipeline is invalid, or a pass fails.
        """
        data = text.encode("utf-8")
        printed = ctypes.c_void_p()
        diagnostics = ctypes.c_void_p()
        rc = self._dll.tritium_run_pipeline(
            data, len(data), source_name.encode("utf-8"), pipeline.encode("utf-8"),
            ctypes.byref(printed), ctypes.byref(diagnostics),
        )
        out, messages = self._take_string(printed), self._take_string(diagnostics)
        if rc != 0:
            raise CompilationError(messages)
        return out

    def compile_cuda(self, ttir: str, options: dict = None, source_name: str = "<ir>"):
        """Compiles TTIR for an NVIDIA GPU (see tritium_compile_cuda in
        capi/tritium.h for the options, e.g. {"num_warps": 4, "arch": 90}).

        Returns (stages, cubin): `stages` is the dict of stage texts and
        metadata ("ttgir", "llir", "ptx", "name", "shared", "registers", ...),
        `cubin` the cubin's bytes, or None when no ptxas is installed (then
        stages["ptx"] is the artifact to load).  Options whose value is None
        are left at their defaults.  Raises CompilationError with the
        diagnostics (ptxas's log included) on failure; its `stages`
        attribute holds what was produced before the failure.
        """
        parts = []
        for key, value in (options or {}).items():
            if value is None:
                continue
            if isinstance(value, bool):
                value = int(value)
            text = str(value)
            if ";" in text or ";" in key or "=" in key:
                raise ValueError(f"option {key}={text!r}: ';' and '=' cannot appear in options")
            parts.append(f"{key}={text}")
        data = ttir.encode("utf-8")
        stages_json = ctypes.c_void_p()
        cubin = ctypes.c_void_p()
        cubin_size = ctypes.c_size_t()
        diagnostics = ctypes.c_void_p()
        rc = self._dll.tritium_compile_cuda(
            data, len(data), source_name.encode("utf-8"), ";".join(parts).encode("utf-8"),
            ctypes.byref(stages_json), ctypes.byref(cubin), ctypes.byref(cubin_size),
            ctypes.byref(diagnostics),
        )
        image = self._take_bytes(cubin, cubin_size) or None
        text, messages = self._take_string(stages_json), self._take_string(diagnostics)
        stages = json.loads(text) if text else {}
        if rc != 0:
            error = _compilation_error(messages, "compilation failed")
            error.stages = stages
            raise error
        return stages, image


    # -- the CPU target --
    def compile_cpu(self, ttir: str, kernel_name: str, source_name: str = "<ir>", fast_codegen: bool = False):
        """Compiles TTIR for the host CPU: (program handle, optimized LLVM
        IR, the host object file the program was linked from, which
        load_cpu takes back).  `fast_codegen`: machine code from LLVM's fast
        path (made sooner, runs slower).  Free the handle with release_cpu.
        Raises CompilationError."""
        data = ttir.encode("utf-8")
        program, llvm_ir, diagnostics = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
        obj, obj_size = ctypes.c_void_p(), ctypes.c_size_t()
        rc = self._dll.tritium_cpu_compile(data, len(data), source_name.encode("utf-8"), kernel_name.encode("utf-8"),
                                           int(fast_codegen), ctypes.byref(program), ctypes.byref(llvm_ir), ctypes.byref(obj),
                                           ctypes.byref(obj_size), ctypes.byref(diagnostics))
        image = self._take_bytes(obj, obj_size)
        text, messages = self._take_string(llvm_ir), self._take_string(diagnostics)
        if rc != 0:
            raise _compilation_error(messages, "compilation for the CPU failed")
        return program.value, text, image

    def load_cpu(self, image: bytes, kernel_name: str) -> int:
        """Links a host object file of compile_cpu (made on this host):
        the program handle.  Raises CompilationError."""
        program, diagnostics = ctypes.c_void_p(), ctypes.c_void_p()
        rc = self._dll.tritium_cpu_load(image, len(image), kernel_name.encode("utf-8"), ctypes.byref(program),
                                        ctypes.byref(diagnostics))
        messages = self._take_string(diagnostics)
        if rc != 0:
            raise CompilationError(messages or "loading a CPU kernel failed")
        return program.value

    def run_cpu(self, program: int, args, grid, threads: int = 0):
        """Runs `program`'s grid; `args` is a ctypes array of argument
        addresses.  Raises AssertionError when a tl.device_assert failed
        (the first failure's message; no program started after it), and
        RuntimeError when the grid could not run (its reason)."""
        diagnostics = ctypes.c_void_p()
        rc = self._dll.tritium_cpu_run(program, args, grid[0], grid[1], grid[2], threads, ctypes.byref(diagnostics))
        message = self._take_string(diagnostics)
        if rc == 2:
            raise RuntimeError(message or "the grid could not run")
        if rc != 0:
            raise AssertionError(message or "a device assertion failed")

    def release_cpu(self, program: int):
        self._dll.tritium_cpu_release(program)

    def cpu_host(self) -> str:
        """The host as the CPU target sees it (triple, CPU, vector features)."""
        text = ctypes.c_void_p()
        self._dll.tritium_cpu_host(ctypes.byref(text))
        return self._take_string(text)


def _compilation_error(messages: str, fallback: str) -> CompilationError:
    """A CompilationError of the native diagnostics, located at the first
    error's file, line and column, as frontend errors are."""
    error = CompilationError(messages or fallback)
    located = _FIRST_ERROR.search(messages or "")
    if located:
        error.file, error.line, error.col = located[1], int(located[2]), int(located[3])
        error.error_message = located[4]
    return error


def native_library() -> NativeLibrary:
    """The process-wide native library, loaded on first use."""
    global _library
    if _library is None:
        with _lock:
            if _library is None:
                _library = NativeLibrary(library_path())
                _prepare_ptx_compiler(_library)
    return _library


def _prepare_ptx_compiler(library: NativeLibrary) -> None:
    """Where TRITIUM_NVJITLINK asks for PTX to be compiled in the process
    (nvJitLink) on a machine with an NVIDIA GPU, the library is loaded and
    given its first compile on a thread of its own while the process goes
    on; kernels compiled meanwhile run ptxas.  The thread is waited for at
    exit, so that the process never ends with it inside the library."""
    if os.environ.get("TRITIUM_NVJITLINK", "none") == "none" or not os.path.exists("/dev/nvidiactl"):
        return
    import atexit
    thread = threading.Thread(target=library._dll.tritium_prepare_ptx_compiler, name="tritium-ptx-compiler",
                              daemon=True)
    thread.start()
    atexit.register(thread.join)


def native_version() -> str:
    return native_library().version()
