"""`triton.backends.nvidia.compiler`: the NVIDIA backend object that
`triton.compiler.compiler.make_backend(target)` returns, and its options.

The compile itself runs in the native library (`tritium.compile`); this
object answers what code written for Triton asks a backend: `hash()` (a
string that changes with the compiler and the target; PyTorch's Inductor
keys its caches on it) and `parse_options(dict)` (the full option set,
defaults filled in, as Triton's `CUDAOptions`).
"""
import hashlib
from dataclasses import dataclass, fields
from typing import Any, Dict, Optional, Tuple

from ... import knobs
from ..._native import native_library
from ...version import __tritium_version__
from ..compiler import BaseBackend, GPUTarget


@dataclass(frozen=True)
class CUDAOptions:
    """Triton 3.6's compile options for NVIDIA GPUs, with its defaults.
    Tritium's compile reads num_warps, num_ctas, num_stages, maxnreg,
    enable_fp_fusion, debug and the ptxas/line-info switches; the other
    fields are kept so that code reading them finds Triton's values."""
    num_warps: int = 4
    num_ctas: int = 1
    num_stages: int = 3
    warp_size: int = 32
    maxnreg: Optional[int] = None
    cluster_dims: Tuple[int, int, int] = (1, 1, 1)
    ptx_version: Optional[int] = None
    ptx_options: Optional[str] = None
    ir_override: Optional[str] = None
    enable_fp_fusion: bool = True
    launch_cooperative_grid: bool = False
    launch_pdl: bool = False
    supported_fp8_dtypes: Tuple[str, ...] = ("fp8e5", "fp8e4b15")
    deprecated_fp8_dot_operand_dtypes: Tuple[str, ...] = ()
    default_dot_input_precision: str = "tf32"
    allowed_dot_input_precisions: Tuple[str, ...] = ("tf32", "tf32x3", "ieee", "bf16x3", "bf16x6")
    max_num_imprecise_acc_default: int = 0
    extern_libs: Optional[dict] = None
    debug: bool = False
    backend_name: str = "cuda"
    sanitize_overflow: bool = True
    arch: Optional[str] = None
    instrumentation_mode: str = ""

    def hash(self) -> str:
        """A hash of every option (Triton's CUDAOptions.hash)."""
        key = "_".join(f"{f.name}-{getattr(self, f.name)}" for f in fields(self))
        return hashlib.sha256(key.encode("utf-8")).hexdigest()


class CUDABackend(BaseBackend):
    """Compiles for NVIDIA GPUs from sm_80 (see tritium.compile)."""

    binary_ext = "cubin"

    def __init__(self, target: GPUTarget):
        super().__init__(GPUTarget.parse(target))
        self.capability = self.target.arch

    def hash(self) -> str:
        """Tritium's version, the native library's build, the ptxas it runs
        and the compute capability (Triton's is the ptxas version and the
        capability)."""
        library = native_library()
        return f"tritium-{__tritium_version__}-{library.build_id()}-{library.ptx_compiler_id()}-{self.capability}"

    def parse_options(self, opts: Dict[str, Any]) -> CUDAOptions:
        """The options `opts` names (None values ignored, unknown names
        dropped), Triton's defaults for the rest."""
        args: Dict[str, Any] = {"arch": knobs.runtime.override_arch or f"sm{self.capability}"}
        names = {f.name for f in fields(CUDAOptions)}
        args.update({k: v for k, v in opts.items() if k in names and v is not None})
        capability = int(str(args["arch"]).removeprefix("sm").rstrip("a") or self.capability)
        if "supported_fp8_dtypes" not in args:
            supported = ["fp8e5", "fp8e4b15"]
            if capability >= 89:
                supported.append("fp8e4nv")
            args["supported_fp8_dtypes"] = tuple(sorted(supported))
        if "deprecated_fp8_dot_operand_dtypes" not in args and capability >= 90:
            args["deprecated_fp8_dot_operand_dtypes"] = ("fp8e4b15",)
        if "enable_fp_fusion" not in args:
            args["enable_fp_fusion"] = knobs.language.default_fp_fusion
        args["max_num_imprecise_acc_default"] = 2 ** 30 if capability == 90 else 0
        for key in ("cluster_dims", "supported_fp8_dtypes", "deprecated_fp8_dot_operand_dtypes",
                    "allowed_dot_input_precisions"):
            if key in args and isinstance(args[key], list):
                args[key] = tuple(args[key])
        return CUDAOptions(**args)

    # What Inductor's analysis of user-defined kernels calls on the way to
    # ASTSource.make_ir (torch/_higher_order_ops/triton_kernel_wrap.py).
    def load_dialects(self, context) -> None:
        """Nothing to load: make_ir writes text the native library parses."""

    def get_codegen_implementation(self, options=None) -> Dict[str, Any]:
        return {}

    def get_module_map(self) -> Dict[str, Any]:
        return {}

    @staticmethod
    def parse_attr(desc) -> list:
        """The argument attributes of a specialization key ("D": divisible by 16)."""
        return [["tt.divisibility", 16]] if isinstance(desc, str) and "D" in desc else []

    @staticmethod
    def get_arg_specialization(arg, ty, **kwargs):
        return None

    def pack_metadata(self, metadata) -> tuple:
        """The launch's packed metadata, as Triton's NVIDIA backend packs it:
        (num_warps, num_ctas, shared, cluster x, y, z)."""
        cluster = tuple(getattr(metadata, "cluster_dims", None) or (1, 1, 1))
        return (metadata.num_warps, metadata.num_ctas, metadata.shared, *cluster)
