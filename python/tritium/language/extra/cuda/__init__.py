"""CUDA-specific language extensions: libdevice, special registers read with
inline PTX (`smid`, `globaltimer`), and the program's size (`num_threads`,
`num_warps`, compile-time values as in Triton)."""
from . import libdevice  # noqa: F401
from ... import core, semantic
from ...core import builtin


def _special_register(asm: str, constraint: str, ty):
    return semantic.inline_asm_elementwise(asm, constraint, [], ty, False, 1)


@builtin
def globaltimer():
    """The GPU's global nanosecond timer (%globaltimer), as int64."""
    return _special_register("mov.u64 $0, %globaltimer;", "=l", core.int64)


@builtin
def smid():
    """The index of the SM this program runs on (%smid), as int32."""
    return _special_register("mov.u32 $0, %smid;", "=r", core.int32)


@builtin
def num_threads():
    """Threads per program (32 * num_warps), a compile-time value."""
    return core.constexpr(32 * semantic.builder().num_warps)


@builtin
def num_warps():
    """Warps per program, a compile-time value."""
    return core.constexpr(semantic.builder().num_warps)
