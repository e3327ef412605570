"""CUDA-specific language extensions: libdevice, and special registers read
with inline PTX (`smid`, `globaltimer`, `num_threads`, `num_warps`)."""
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
    """Threads per program (%ntid.x: 32 * num_warps), as int32."""
    return _special_register("mov.u32 $0, %ntid.x;", "=r", core.int32)


@builtin
def num_warps():
    """Warps per program (%ntid.x / 32), as int32."""
    return semantic.floordiv(num_threads(), 32)
