"""How values cross a call into a @jit function, and what comes back, as in
Triton 3.6 (no GPU: each kernel compiles for cuda:90).

Triton's rule: only tensors (and the tensors inside tuples) are runtime
arguments of a called @jit function; a number, a bool, a dtype, None, a
string or a @jit function is a compile-time value of the callee whatever the
parameter's annotation, and the callee is specialized on it.  A compile-time
value that every path of the callee returns reaches the caller as a
compile-time value.  Plain Python functions (constexpr functions, methods of
dtypes, any other callable) run while the kernel compiles.

Tests read either the Triton IR after the TTIR pipeline (`ttir`) or the code
generator's own output before it (`generated`), where each called @jit
function is still a private `tt.func` whose parameters are its runtime
arguments."""
import inspect
import os
import re

import pytest

import tritium as triton
import tritium.language as tl
from conftest import compile_ttir, strip_locations
from tritium.compiler.code_generator import generate_ttir
from tritium.compiler.compiler import ASTSource
from kernels.call_semantics import (
    apply_level2, differs_by_path, doubled, lowest, maximum, negate, plain_python_block, plus_one,
    program_id64, reduce_along, same_on_both_paths, scale_by)

THIS_FILE = os.path.abspath(__file__)


def ttir(fn, signature, constexprs=None) -> str:
    return compile_ttir(fn, signature, constexprs, target="cuda:90")


def generated(fn, signature, constexprs=None) -> str:
    """The code generator's module (before inlining), without locations."""
    values, attrs = ASTSource(fn, signature, constexprs or {}).arg_values()
    return strip_locations(generate_ttir(fn, values, attrs, False))


def private_functions(text: str, name: str) -> list:
    """The header lines of the private functions generated for @jit function `name`."""
    return [line for line in text.splitlines() if re.match(rf"\s*tt\.func private @{name}__\w+\(", line)]


def compile_error(fn, signature, constexprs=None) -> triton.CompilationError:
    with pytest.raises(triton.CompilationError) as info:
        ttir(fn, signature, constexprs)
    return info.value


def line_of(fn, needle: str) -> int:
    """The line of this file where `fn`'s source first holds `needle` (after its `def`)."""
    lines, start = inspect.getsourcelines(fn.fn)
    body = next(i for i, line in enumerate(lines) if line.lstrip().startswith("def ")) + 1
    return start + next(i for i, line in enumerate(lines) if i >= body and needle in line)


# ---- a number passed to a parameter annotated int -------------------------------------------------------

@triton.jit
def k_program_id64(x_ptr):
    pid = program_id64(0)
    tl.store(x_ptr + pid, pid)
    tl.store(x_ptr + 8, program_id64(1))


def test_an_int_argument_is_a_constant_of_the_callee():
    text = generated(k_program_id64, {"x_ptr": "*i64"})
    headers = private_functions(text, "program_id64")
    # one specialization per value of `axis`, none of them with a runtime parameter
    assert len(headers) == 2 and all("program_id64__" in h and "() -> (i64)" in h for h in headers), headers
    assert re.search(r"tt\.get_program_id\"\(\) <\{axis = 0 : i32\}>", text)
    assert re.search(r"tt\.get_program_id\"\(\) <\{axis = 1 : i32\}>", text)
    t = ttir(k_program_id64, {"x_ptr": "*i64"})
    assert re.search(r"tt\.get_program_id (\{axis = 0 : i32\}|x)", t) and "arith.extsi" in t


@triton.jit
def with_annotations(x, n: int, m: tl.int32, k: tl.constexpr, s: "tl.constexpr", q: "int"):
    tl.static_assert(n + m + k + s + q == 15)  # compile-time values, whatever the annotation
    return tl.full([n + m + k + s + q + 1], x, tl.float32)


@triton.jit
def k_annotations(x_ptr):
    tl.store(x_ptr + tl.arange(0, 16), with_annotations(2.0, 1, 2, 3, 4, 5))


def test_annotations_of_helper_parameters_do_not_make_numbers_runtime_values():
    t = ttir(k_annotations, {"x_ptr": "*fp32"})
    assert re.search(r"arith\.constant dense<2\.000000e\+00> : tensor<16xf32>", t)


@triton.jit
def k_scale_fp16(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), scale_by(x, 0.5))


def test_a_float_argument_is_a_python_scalar_in_the_callee():
    # a constexpr float does not promote fp16 (a runtime fp32 scalar would)
    t = ttir(k_scale_fp16, {"x_ptr": "*fp16"})
    assert re.search(r"arith\.mulf %\w+, %\w+ : tensor<16xf16>", t)
    assert "f32" not in t


@triton.jit
def kind_of(v):
    return v + 0


@triton.jit
def k_three_kinds(x_ptr):
    tl.store(x_ptr, kind_of(1))
    tl.store(x_ptr + 1, kind_of(1.0))
    tl.store(x_ptr + 2, kind_of(True))
    tl.store(x_ptr + 3, kind_of(1))


def test_specializations_are_keyed_by_type_and_value():
    text = generated(k_three_kinds, {"x_ptr": "*fp32"})
    # 1, 1.0 and True are three specializations, none with a runtime
    # parameter (nor result: `v + 0` is a constexpr); the second call with 1
    # reuses the first
    headers = private_functions(text, "kind_of")
    assert len(headers) == 3 and all(re.search(r"@kind_of__\w+\(\) \{", h) for h in headers), headers
    t = ttir(k_three_kinds, {"x_ptr": "*fp32"})
    assert t.count("tt.store") == 4 and "arith.constant 1.000000e+00 : f32" in t


# ---- dtypes ---------------------------------------------------------------------------------------------

@triton.jit
def k_lowest(x_ptr, DT: tl.constexpr):
    tl.store(x_ptr, lowest(DT))


def test_value_of_a_dtype_argument():
    assert "0xFF800000" in ttir(k_lowest, {"x_ptr": "*fp32"}, {"DT": tl.float16})
    assert re.search(r"arith\.constant -128 : i32", ttir(k_lowest, {"x_ptr": "*i32"}, {"DT": tl.int8}))
    assert re.search(r"arith\.constant -32768 : i32", ttir(k_lowest, {"x_ptr": "*i32"}, {"DT": tl.int16}))


@triton.jit
def zeros_of_level3(dt):
    tl.static_assert(dt.value == tl.float16)
    tl.static_assert(dt.is_fp16() and dt.primitive_bitwidth == 16)
    return tl.zeros([16], dt)


@triton.jit
def zeros_of_level2(dt):
    return zeros_of_level3(dt)


@triton.jit
def k_dtype_levels(x_ptr, DT: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, 16), zeros_of_level2(DT) + 1)
    tl.store(x_ptr + tl.arange(0, 16), zeros_of_level2(tl.float16) + 2)


def test_a_dtype_passes_through_several_levels_of_calls():
    text = generated(k_dtype_levels, {"x_ptr": "*fp16"}, {"DT": tl.float16})
    # the constexpr DT and the global tl.float16 are the same specialization
    assert len(private_functions(text, "zeros_of_level3")) == 1
    assert all("() -> (tensor<16xf16>)" in h for h in private_functions(text, "zeros_of_level2"))
    t = ttir(k_dtype_levels, {"x_ptr": "*fp16"}, {"DT": tl.float16})
    assert re.search(r"dense<1\.000000e\+00> : tensor<16xf16>", t)
    assert re.search(r"dense<2\.000000e\+00> : tensor<16xf16>", t)


DTYPE_QUESTIONS = {
    "is_floating": lambda d: d.name.startswith(("fp", "bf")),
    "is_int": lambda d: "int" in d.name,
    "is_int_signed": lambda d: d.name in ("int8", "int16", "int32", "int64"),
    "is_int_unsigned": lambda d: d.name.startswith("uint") or d.name == "int1",
    "is_fp16": lambda d: d.name == "fp16",
    "is_bf16": lambda d: d.name == "bf16",
    "is_fp32": lambda d: d.name == "fp32",
    "is_fp64": lambda d: d.name == "fp64",
    "is_fp8": lambda d: d.name.startswith("fp8"),
    "is_int8": lambda d: d.name == "int8",
    "is_int32": lambda d: d.name == "int32",
    "is_uint16": lambda d: d.name == "uint16",
    "is_bool": lambda d: d.name == "int1",
    "is_standard_floating": lambda d: d.name in ("fp16", "bf16", "fp32", "fp64"),
    "is_ptr": lambda d: False,
    "is_block": lambda d: False,
}


@triton.jit
def k_dtype_question(x_ptr, DT: tl.constexpr, Q: tl.constexpr, EXPECTED: tl.constexpr):
    tl.static_assert(getattr(DT, Q)() == EXPECTED)
    tl.static_assert(getattr(DT.value, Q)() == EXPECTED)
    tl.store(x_ptr, 1)


@pytest.mark.parametrize("question", sorted(DTYPE_QUESTIONS))
@pytest.mark.parametrize("dt", [tl.float16, tl.bfloat16, tl.float32, tl.int8, tl.int32, tl.uint16, tl.int1,
                                tl.float8e4nv])


def test_dtype_questions_in_jit_code(question, dt):
    ttir(k_dtype_question, {"x_ptr": "*i32"}, {"DT": dt, "Q": question, "EXPECTED": DTYPE_QUESTIONS[question](dt)})


@triton.jit
def k_dtype_of_a_tensor(x_ptr, y_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.static_assert(x.dtype.is_int() and x.dtype.is_int_signed() and x.dtype.is_int32())
    tl.static_assert(not x.dtype.is_floating())
    tl.static_assert(x.dtype.primitive_bitwidth == 32 and x.dtype.itemsize == 4 and x.dtype.int_bitwidth == 32)
    tl.static_assert(x.dtype.scalar == tl.int32 and x.type.scalar == tl.int32)
    tl.static_assert(x.dtype.get_int_max_value() == 2**31 - 1 and x.dtype.get_int_min_value() == -2**31)
    tl.static_assert(x.dtype.kind() == tl.dtype.KIND.INTEGRAL)
    tl.static_assert(x.dtype.codegen_name() == "int32")
    tl.static_assert(y_ptr.dtype.element_ty.fp_mantissa_width == 23)
    tl.static_assert(y_ptr.dtype.element_ty.exponent_bias == 127)
    unsigned: tl.constexpr = tl.core.get_int_dtype(x.dtype.primitive_bitwidth, False)
    tl.static_assert(unsigned == tl.uint32)
    tl.store(y_ptr + tl.arange(0, 16), x.to(unsigned).to(tl.float32))


def test_dtype_properties_and_methods_of_a_tensor():
    t = ttir(k_dtype_of_a_tensor, {"x_ptr": "*i32", "y_ptr": "*fp32"})
    assert "arith.uitofp" in t  # through the unsigned type the helper chose


@triton.jit
def k_maximum(x_ptr, y_ptr):
    a = tl.load(x_ptr + tl.arange(0, 16))
    b = tl.load(y_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), maximum(a, b))


def test_a_dtype_method_decides_at_compile_time():
    assert "arith.cmpf une" in ttir(k_maximum, {"x_ptr": "*fp32", "y_ptr": "*fp32"})
    assert "cmpf" not in ttir(k_maximum, {"x_ptr": "*i32", "y_ptr": "*i32"})


# ---- constexprs: tuples, strings, None, @jit functions through calls -------------------------------------

@triton.jit
def product_level3(t):
    return t[0] * t[1]


@triton.jit
def product_level2(t):
    return product_level3(t)


@triton.jit
def k_tuple_levels(x_ptr, BM: tl.constexpr):
    v: tl.constexpr = product_level2((BM, 4))
    tl.static_assert(v == BM * 4)
    tl.store(x_ptr + tl.arange(0, v), 1)


def test_a_constexpr_tuple_passes_through_calls_and_its_result_is_a_constexpr():
    assert "tensor<32xi32>" in ttir(k_tuple_levels, {"x_ptr": "*i32"}, {"BM": 8})
    assert "tensor<64xi32>" in ttir(k_tuple_levels, {"x_ptr": "*i32"}, {"BM": 16})


@triton.jit
def k_apply(x_ptr, y_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(y_ptr + tl.arange(0, 16), apply_level2(x, "apply", negate, None))
    tl.store(y_ptr + 16 + tl.arange(0, 16), apply_level2(x, "skip", negate, 3.0))
    tl.store(y_ptr + 32 + tl.arange(0, 16), apply_level2(x, "apply", plus_one, None))


def test_strings_none_and_jit_functions_pass_through_calls():
    text = generated(k_apply, {"x_ptr": "*fp32", "y_ptr": "*fp32"})
    # the tensor is the only runtime argument; the rest picked three specializations
    headers = private_functions(text, "apply_level3")
    assert len(headers) == 3 and all("(%a1: tensor<16xf32>) -> (tensor<16xf32>)" in h for h in headers), headers
    t = ttir(k_apply, {"x_ptr": "*fp32", "y_ptr": "*fp32"})
    assert "arith.negf" in t and re.search(r"dense<3\.000000e\+00>", t) and re.search(r"dense<1\.000000e\+00>", t)


def make_adder(c):
    C = tl.constexpr(c)

    @triton.jit
    def add_c(x):
        return x + C
    return add_c


ADD_5 = make_adder(5)
ADD_7 = make_adder(7)


@triton.jit
def k_same_named_functions(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr + 1, apply_level2(x, "apply", ADD_5, None))
    tl.store(x_ptr + 2, apply_level2(x, "apply", ADD_7, None))


def test_two_jit_functions_of_one_name_are_two_specializations():
    t = ttir(k_same_named_functions, {"x_ptr": "*i32"})
    assert re.search(r"arith\.constant 5 : i32", t) and re.search(r"arith\.constant 7 : i32", t)


# ---- what a callee returns --------------------------------------------------------------------------------

@triton.jit
def k_cdiv_constexpr(x_ptr, BM: tl.constexpr, BN: tl.constexpr, CAUSAL: tl.constexpr):
    if not CAUSAL:
        masking: tl.constexpr = 0
    else:
        masking: tl.constexpr = tl.cdiv(BM, BN) * BN
    tl.static_assert(masking >= 0)  # a compile-time value, not a tensor
    tl.store(x_ptr + tl.arange(0, BM), tl.full([BM], masking, tl.int32))


def test_tl_cdiv_of_constexprs_is_a_constexpr():
    assert "dense<96> : tensor<64xi32>" in ttir(k_cdiv_constexpr, {"x_ptr": "*i32"},
                                                {"BM": 64, "BN": 48, "CAUSAL": True})
    assert "dense<0> : tensor<64xi32>" in ttir(k_cdiv_constexpr, {"x_ptr": "*i32"},
                                               {"BM": 64, "BN": 48, "CAUSAL": False})


@triton.jit
def pair_with_constant(x):
    return x * 2, 8


@triton.jit
def k_returns(x_ptr):
    x = tl.load(x_ptr)
    four: tl.constexpr = same_on_both_paths(x)
    tl.static_assert(four == 4)
    doubled, eight = pair_with_constant(x)
    tl.static_assert(eight == 8)
    tl.store(x_ptr + tl.arange(0, eight), doubled)
    tl.store(x_ptr, differs_by_path(x))


def test_a_constant_every_path_returns_stays_a_constant():
    text = generated(k_returns, {"x_ptr": "*i32"})
    assert all(h.rstrip().endswith("{") and "->" not in h for h in private_functions(text, "same_on_both_paths"))
    assert all("-> (i32)" in h for h in private_functions(text, "differs_by_path"))
    assert all("-> (i32)" in h for h in private_functions(text, "pair_with_constant"))
    t = ttir(k_returns, {"x_ptr": "*i32"})
    assert "tensor<8xi32>" in t and re.search(r"arith\.select %\w+, %c4_i32, %c5_i32", t)


@triton.jit
def k_constexpr_of_a_tensor(x_ptr):
    t: tl.constexpr = tl.load(x_ptr)  # Triton keeps the tensor (its constexpr behaves as it)
    tl.store(x_ptr + 1, t + 1)


def test_a_tensor_annotated_constexpr_is_used_as_the_tensor():
    assert re.search(r"arith\.addi %\w+, %c1_i32 : i32", ttir(k_constexpr_of_a_tensor, {"x_ptr": "*i32"}))


@triton.jit
def k_kernel_returns(x_ptr):
    v = tl.load(x_ptr)
    return v


def test_a_kernel_returning_a_value_is_reported_at_the_return():
    e = compile_error(k_kernel_returns, {"x_ptr": "*i32"})
    assert "cannot return a value" in str(e)
    assert e.file == THIS_FILE and e.line == line_of(k_kernel_returns, "return v"), str(e)


# ---- constexpr functions and plain Python functions ------------------------------------------------------

N_ELEMENTS = tl.constexpr(100)


@triton.jit
def k_static_range_of_cdiv(x_ptr, BLOCK: tl.constexpr):
    for i in tl.static_range(triton.cdiv(N_ELEMENTS, BLOCK)):
        tl.store(x_ptr + i, i)


def test_static_range_of_triton_cdiv_unrolls():
    t = ttir(k_static_range_of_cdiv, {"x_ptr": "*i32"}, {"BLOCK": 32})
    assert t.count("tt.store") == 4  # cdiv(100, 32)
    assert ttir(k_static_range_of_cdiv, {"x_ptr": "*i32"}, {"BLOCK": 25}).count("tt.store") == 4
    assert ttir(k_static_range_of_cdiv, {"x_ptr": "*i32"}, {"BLOCK": 10}).count("tt.store") == 10


class Tiling:
    def __init__(self, block):
        self.block = block

    @triton.constexpr_function
    def tiles(self, n):
        return -(-n // self.block)


TILING = tl.constexpr(Tiling(16))


@triton.jit
def k_constexpr_functions(x_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    tl.static_assert(triton.cdiv(N, BLOCK) == 4)
    tl.static_assert(triton.next_power_of_2(N) == 128)
    tl.static_assert(tl.cdiv(N, BLOCK) == 4)
    tl.static_assert(doubled(N) == 200)
    tl.static_assert(TILING.tiles(N) == 7)
    b: tl.constexpr = plain_python_block(N)
    tl.static_assert(b == 25)
    tl.store(x_ptr + tl.arange(0, triton.next_power_of_2(b)), 1)


def test_constexpr_functions_give_constexprs():
    assert "tensor<32xi32>" in ttir(k_constexpr_functions, {"x_ptr": "*i32"}, {"N": 100, "BLOCK": 32})


def test_triton_cdiv_and_next_power_of_2_still_work_in_python():
    assert triton.cdiv(100, 32) == 4 and triton.next_power_of_2(100) == 128 and triton.next_power_of_2(1) == 1
    assert triton.cdiv(tl.constexpr(9), 4) == 3


def plain_python_twice(x):
    return x + x


@triton.jit
def k_plain_python_on_tensors(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), plain_python_twice(x))


def test_a_plain_python_function_runs_on_tensors_while_compiling():
    assert re.search(r"arith\.addi %(\w+), %\1 : tensor<16xi32>", ttir(k_plain_python_on_tensors, {"x_ptr": "*i32"}))


def plain_python_area(shape):
    rows, cols = shape  # a constexpr tuple, received as a constexpr, unpacks and indexes as Triton's does
    return rows * shape[1] + 0 * cols


@triton.jit
def maybe_negated(x, descending: tl.constexpr = tl.core.CONSTEXPR_0):
    if descending:
        return -x
    return x


@triton.jit
def k_plain_python_on_constexprs(x_ptr, SHAPE: tl.constexpr):
    n: tl.constexpr = plain_python_area(SHAPE)
    tl.static_assert(tl.core._unwrap_if_constexpr(SHAPE) == (8, 4))
    tl.store(x_ptr + tl.arange(0, n), maybe_negated(tl.arange(0, n)))
    tl.store(x_ptr + n + tl.arange(0, n), maybe_negated(tl.arange(0, n), True))


def test_a_plain_python_function_receives_constexprs_as_they_are():
    t = ttir(k_plain_python_on_constexprs, {"x_ptr": "*i32"}, {"SHAPE": (8, 4)})
    assert "tensor<32xi32>" in t and "arith.subi" in t


# ---- constexpr values and arithmetic ------------------------------------------------------------------------

@triton.jit
def k_constexpr_arithmetic(x_ptr, B: tl.constexpr, F: tl.constexpr):
    tl.static_assert(B.value == 16)
    tl.static_assert((B // 2) * 2 == B and B ** 2 == 256 and -B < 0 and B % 5 == 1)
    tl.static_assert((B >> 1) == 8 and (B << 1) == 32)
    tl.static_assert((B & 1) == 0 and (B | 1) == 17 and (B ^ 1) == 17)
    tl.static_assert(F / 2 == 0.25 and F * B == 8.0)
    tl.static_assert(B != 3 and B >= 16 and B <= 16 and not (B > 16))
    c = tl.constexpr(B) + 1
    tl.static_assert(c == 17)
    tl.store(x_ptr + tl.arange(0, B), B)


def test_constexpr_value_arithmetic_and_comparisons():
    assert "dense<16> : tensor<16xi32>" in ttir(k_constexpr_arithmetic, {"x_ptr": "*i32"}, {"B": 16, "F": 0.5})


# ---- tensor methods: block pointers, pointers, math ----------------------------------------------------------

@triton.jit
def k_block_pointer_advance(x_ptr, y_ptr, BM: tl.constexpr):
    bp = tl.make_block_ptr(x_ptr, (64, 64), (64, 1), (0, 0), (BM, 16), (1, 0))
    v = tl.load(bp.advance([BM, 0]), boundary_check=(0, 1))
    yp = tl.make_block_ptr(y_ptr, (64, 64), (64, 1), (0, 0), (BM, 16), (1, 0))
    yp.store(v, boundary_check=(0, 1))


def test_block_pointer_methods():
    # (the TTIR pipeline rewrites block pointers into pointer tensors: read the generated IR)
    text = generated(k_block_pointer_advance, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {"BM": 16})
    assert re.search(r'"tt\.advance"\(%\w+, %\w+, %\w+\)', text)
    assert re.search(r'"tt\.store"\(%\w+, %\w+\) <\{[^}]*boundaryCheck = array<i32: 0, 1>', text)
    ttir(k_block_pointer_advance, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {"BM": 16})


@triton.jit
def k_tensor_methods(x_ptr, y_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    (y_ptr + offs).store(x.fma(x, x))
    (y_ptr + offs).atomic_add(x)
    n = tl.program_id(0).cdiv(4)
    tl.store(y_ptr + n, x.sqrt_rn().sum())


def test_pointer_and_math_tensor_methods():
    t = ttir(k_tensor_methods, {"x_ptr": "*fp32", "y_ptr": "*fp32"})
    assert "math.fma" in t and "tt.atomic_rmw" in t and "tt.precise_sqrt" in t


# ---- reductions with a dimension from the caller --------------------------------------------------------------

@triton.jit
def k_reduce_dim(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    tl.store(x_ptr + tl.arange(0, 16), reduce_along(x, 1))


def test_reduce_with_a_dimension_passed_as_a_plain_int():
    assert re.search(r"\"tt\.reduce\"\(%\w+\) <\{axis = 1 : i32\}>", ttir(k_reduce_dim, {"x_ptr": "*fp32"}))


# ---- do_not_specialize --------------------------------------------------------------------------------------

def test_do_not_specialize_ignores_names_and_indices_the_function_lacks():
    @triton.jit(do_not_specialize=["seqlen_q", "seqlen_k", "n", 7], do_not_specialize_on_alignment=["m", 9])
    def kernel(x_ptr, n, m):
        tl.store(x_ptr, n + m)

    flags = [(p.name, p.do_not_specialize, p.do_not_specialize_on_alignment) for p in kernel.params]
    assert flags == [("x_ptr", False, False), ("n", True, False), ("m", False, True)]

    @triton.jit(do_not_specialize=[2])
    def by_index(x_ptr, n, m):
        tl.store(x_ptr, n + m)
    assert [p.do_not_specialize for p in by_index.params] == [False, False, True]


# ---- specializations told apart, values merged only when they are the same -------------------------------

@triton.jit
def _first_of(t):
    return t[0]


@triton.jit
def tensor_and_dtype_in_tuples(x_ptr, y_ptr):
    x = tl.load(x_ptr)
    a = _first_of((x,))                  # a tuple holding an fp32 tensor
    b = _first_of((tl.float32,))         # a tuple holding the dtype fp32: another specialization
    tl.static_assert(b == tl.float32)
    tl.store(y_ptr, a)


def test_a_tensor_and_a_dtype_in_a_tuple_are_two_specializations():
    text = generated(tensor_and_dtype_in_tuples, {"x_ptr": "*fp32", "y_ptr": "*fp32"})
    assert len(private_functions(text, "_first_of")) == 2
    assert "tt.store" in ttir(tensor_and_dtype_in_tuples, {"x_ptr": "*fp32", "y_ptr": "*fp32"})


@triton.jit
def _signed_zero(x):
    if x < 0:
        return -0.0
    return 0.0


@triton.jit
def signed_zero_kernel(x_ptr, y_ptr):
    tl.store(y_ptr, _signed_zero(tl.load(x_ptr)))


def test_returns_equal_but_different_stay_runtime_values():
    # -0.0 == 0.0, but the two paths return different values: the caller gets
    # a value chosen at run time, not one of the two constants.
    text = ttir(signed_zero_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32"})
    assert "-0.000000e+00" in text and "0.000000e+00 : f32" in text.replace("-0.000000e+00", "")


class _LibraryError(Exception):
    pass


def _failing_helper(n):
    raise _LibraryError(f"no config for {n}")


@triton.jit
def calls_a_failing_helper(x_ptr, N: tl.constexpr):
    tl.store(x_ptr, _failing_helper(N))


def test_an_exception_of_a_python_function_is_a_compilation_error_at_the_call():
    err = compile_error(calls_a_failing_helper, {"x_ptr": "*fp32"}, {"N": 3})
    assert "_LibraryError: no config for" in str(err)
    assert err.file == THIS_FILE and err.line == line_of(calls_a_failing_helper, "_failing_helper(N)"), str(err)
