"""libdevice functions (CUDA's device math library), each a
tt.extern_elementwise call resolved against libdevice's bitcode when the
kernel is lowered.  (The full list is generated in a later step.)"""
from ... import core, semantic
from ...core import builtin

LIBDEVICE = "libdevice"


def _extern(name, overloads, is_pure=True):
    @builtin
    def fn(*args):
        return semantic.extern_elementwise(LIBDEVICE, "", list(args), overloads, is_pure)
    fn.__name__ = name
    return fn


_F32, _F64 = core.float32, core.float64
exp = _extern("exp", {(_F32,): ("__nv_expf", _F32), (_F64,): ("__nv_exp", _F64)})
