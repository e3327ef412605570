"""triton.language's math functions: element-wise on float tensors, lowered
through the math dialect (or the exact-rounding tt ops for *_rn)."""
from . import core, semantic
from .core import builtin


def _unary(name):
    @builtin
    def fn(x):
        return semantic.math_unary(name, x)
    fn.__name__ = name
    fn.__doc__ = f"Element-wise {name} of a float tensor."
    return fn


exp = _unary("exp")
exp2 = _unary("exp2")
log = _unary("log")
log2 = _unary("log2")
sin = _unary("sin")
cos = _unary("cos")
sqrt = _unary("sqrt")
rsqrt = _unary("rsqrt")
floor = _unary("floor")
ceil = _unary("ceil")
erf = _unary("erf")


@builtin
def abs(x):
    return semantic.abs_(x)


@builtin
def fma(x, y, z):
    return semantic.fma(x, y, z)


@builtin
def sqrt_rn(x):
    return semantic.precise_sqrt(x)


@builtin
def div_rn(x, y):
    return semantic.precise_div(x, y)


@builtin
def fdiv(x, y, ieee_rounding=False):
    return semantic.fdiv(x, y, bool(core._cv(ieee_rounding)))


@builtin
def umulhi(x, y):
    return semantic.umulhi(x, y)
