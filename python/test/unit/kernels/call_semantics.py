"""The @jit helpers of the call-semantics tests, compiled by the CPU tests
(python/test/unit/test_call_semantics.py) and run by the GPU tests
(python/test/gpu/test_call_semantics.py): a number passed to a parameter
annotated `int`, `.value` of a dtype argument, a dtype method deciding in a
helper, constants returned on every path or on one, strings, None and @jit
functions passed through two levels of calls, a reduction dimension from the
caller, and a plain Python function called while compiling."""
import tritium as triton
import tritium.language as tl


@triton.jit
def program_id64(axis: int):
    return tl.program_id(axis).to(tl.int64)


@triton.jit
def scale_by(x, s):
    return x * s


@triton.jit
def lowest(dtype):
    d = dtype.value  # a dtype argument is a constexpr: .value is the dtype
    if d.is_floating():
        return -float("inf")
    return -(2 ** (d.primitive_bitwidth - 1))


@triton.jit
def maximum(a, b):
    mask = a > b
    if a.dtype.is_floating():
        mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def negate(x):
    return -x


@triton.jit
def plus_one(x):
    return x + 1


@triton.jit
def apply_level3(x, op, fn, extra):
    if op == "apply":
        x = fn(x)
    if extra is not None:
        x = x * extra
    return x


@triton.jit
def apply_level2(x, op, fn, extra):
    return apply_level3(x, op, fn, extra)


@triton.jit
def same_on_both_paths(x):
    if x > 0:
        return 4
    return 4


@triton.jit
def differs_by_path(x):
    if x > 0:
        return 4
    return 5


@triton.constexpr_function
def doubled(x):
    return 2 * x


def plain_python_block(n):
    return max(16, n // 4)


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def reduce_along(x, dim):
    return tl.reduce(x, dim, _add)
