"""Mistakes in kernels are reported as `tritium.CompilationError`s that read
like a compiler's: `file:line:col: error: message`, then the offending
source line and a caret under the column.  The expected line and column are
computed from this file's source, not hard-coded."""
import inspect
import os
import re
import subprocess
import sys
import traceback

import pytest

import tritium as triton
import tritium.language as tl

import conftest

THIS_FILE = os.path.abspath(__file__)
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(THIS_FILE))))

def compile_(fn, signature, constexprs=None, **kwargs):
    return triton.compile(fn, signature=signature, constexprs=constexprs or {}, stop_after="ttir", **kwargs)


def where_in(fn, needle: str, col_needle: str = None):
    """(line, col, source line) of the first line of `fn`'s source holding
    `needle` (after the `def` line); the column is that of `col_needle` (default: `needle`)."""
    target = fn.fn if isinstance(fn, triton.JITFunction) else fn
    lines, start = inspect.getsourcelines(target)
    body = next(i for i, line in enumerate(lines) if line.lstrip().startswith("def ")) + 1
    for i, line in enumerate(lines):
        if i >= body and needle in line:
            source = line.rstrip("\n")
            return start + i, source.index(col_needle or needle) + 1, source
    raise AssertionError(f"{needle!r} is not in the source of {target.__name__}")


def assert_located(error: triton.CompilationError, line: int, col: int, source: str, message: str):
    """`error` is located at THIS_FILE:line:col (conftest.assert_located) and says `message`."""
    conftest.assert_located(error, THIS_FILE, line, col, source, message)
    assert error.file == THIS_FILE and error.line == line and error.col == col


def compile_error(fn, signature, constexprs=None, **kwargs) -> triton.CompilationError:
    with pytest.raises(triton.CompilationError) as info:
        compile_(fn, signature, constexprs, **kwargs)
    return info.value


# ---- names and constexprs ----------------------------------------------------------------------

@triton.jit
def e_undefined_name(x_ptr):
    tl.store(x_ptr, undefined_thing + 1)  # noqa: F821


def test_undefined_name():
    e = compile_error(e_undefined_name, {"x_ptr": "*i32"})
    assert_located(e, *where_in(e_undefined_name, "undefined_thing"), r"undefined_thing is not defined")


@triton.jit
def e_program_id_axis(x_ptr):
    tl.store(x_ptr, tl.program_id(20))


def test_the_mistake_found_deeper_is_the_errors_cause():
    # Triton's wording, and its chaining: code that inspects a compile error
    # reads the original mistake from __cause__
    e = compile_error(e_program_id_axis, {"x_ptr": "*i32"})
    assert_located(e, *where_in(e_program_id_axis, "tl.program_id"),
                   r"program_id axis must be 0, 1, or 2 but got 20")
    assert "program_id axis must be 0, 1, or 2 but got 20" in str(e.__cause__)


@triton.jit
def e_arange_from_runtime_arg(x_ptr, n):
    tl.store(x_ptr + tl.arange(0, n), 1)


def test_arange_bound_from_a_runtime_argument():
    e = compile_error(e_arange_from_runtime_arg, {"x_ptr": "*i32", "n": "i32"})
    assert_located(e, *where_in(e_arange_from_runtime_arg, "tl.arange"), r"arange.*constexpr")


@triton.jit
def e_zeros_from_runtime_arg(x_ptr, n):
    z = tl.zeros((n,), dtype=tl.float32)
    tl.store(x_ptr, tl.sum(z, 0))


def test_block_shape_from_a_runtime_argument():
    e = compile_error(e_zeros_from_runtime_arg, {"x_ptr": "*fp32", "n": "i32"})
    assert_located(e, *where_in(e_zeros_from_runtime_arg, "tl.zeros"), r"shape.*constexpr")


GLOBAL_INT = 4
GLOBAL_CONSTEXPR = tl.constexpr(4)


@triton.jit
def e_global_int(x_ptr):
    tl.store(x_ptr, GLOBAL_INT)


@triton.jit
def ok_global_constexpr(x_ptr):
    tl.store(x_ptr + tl.arange(0, GLOBAL_CONSTEXPR), GLOBAL_CONSTEXPR)


def test_global_non_constexpr_int():
    e = compile_error(e_global_int, {"x_ptr": "*i32"})
    assert_located(e, *where_in(e_global_int, "GLOBAL_INT"), r"global.*'GLOBAL_INT'.*constexpr")
    # a constexpr global is fine
    assert "tensor<4xi32>" in compile_(ok_global_constexpr, {"x_ptr": "*i32"}).asm["ttir"]


@triton.jit
def e_static_range_from_runtime_arg(x_ptr, n):
    for i in tl.static_range(n):
        tl.store(x_ptr + i, i)


def test_static_range_bound_from_a_runtime_argument():
    e = compile_error(e_static_range_from_runtime_arg, {"x_ptr": "*i32", "n": "i32"})
    assert_located(e, *where_in(e_static_range_from_runtime_arg, "tl.static_range(n)", "tl.static_range"),
                   r"static_range.*constexpr")


# ---- shapes and types ---------------------------------------------------------------------------

@triton.jit
def e_arange_not_power_of_two(x_ptr):
    tl.store(x_ptr + tl.arange(0, 100), 1)


def test_arange_length_not_a_power_of_two():
    e = compile_error(e_arange_not_power_of_two, {"x_ptr": "*i32"})
    assert_located(e, *where_in(e_arange_not_power_of_two, "tl.arange"), r"power of 2, got end - start = 100")


@triton.jit
def e_no_broadcast(x_ptr):
    a = tl.arange(0, 16)
    b = tl.arange(0, 32)
    tl.store(x_ptr + a, a + b)


def test_shapes_that_do_not_broadcast():
    e = compile_error(e_no_broadcast, {"x_ptr": "*i32"})
    assert_located(e, *where_in(e_no_broadcast, "a + b"), r"\[16\].*\[32\].*broadcast")


@triton.jit
def e_fp8_arithmetic(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x * x
    tl.store(x_ptr + tl.arange(0, 16), y)


@triton.jit
def e_fp8_negation(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), -x)


@triton.jit
def fp8_arithmetic_unused(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x * x  # noqa: F841 (dead: removed before lowering, as in Triton)
    tl.store(x_ptr + tl.arange(0, 16), x)


def test_arithmetic_on_fp8_values():
    # Triton computes fp8 (op) fp8 of one type in that type and its lowering
    # then fails inside LLVM's verifier; here the user's line says so.
    def lowered(fn, signature):
        with pytest.raises(triton.CompilationError) as info:
            triton.compile(fn, signature=signature, target="cuda:90")
        return info.value
    e = lowered(e_fp8_arithmetic, {"x_ptr": "*fp8e4nv"})
    assert_located(e, *where_in(e_fp8_arithmetic, "x * x"), r"fp8e4nv values have no arithmetic \(\*\).*to\(tl.float16\)")
    e = lowered(e_fp8_negation, {"x_ptr": "*fp8e5"})
    assert_located(e, *where_in(e_fp8_negation, "-x"), r"fp8e5 values have no arithmetic \(unary -\)")
    # Arithmetic nothing uses compiles, as under Triton.
    assert "cubin" in triton.compile(fp8_arithmetic_unused, signature={"x_ptr": "*fp8e4nv"}, target="cuda:90").asm


@triton.jit
def e_dot_shapes(x_ptr):
    a = tl.load(x_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(x_ptr + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
    c = tl.dot(a, b)
    tl.store(x_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)


def test_mismatched_dot_shapes():
    e = compile_error(e_dot_shapes, {"x_ptr": "*fp32"})
    assert_located(e, *where_in(e_dot_shapes, "tl.dot"), r"dot.*\[32, 32\].*\[16, 32\]")


@triton.jit
def e_dot_dtypes(x_ptr, y_ptr):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    a = tl.load(x_ptr + offs)
    b = tl.load(y_ptr + offs)
    c = tl.dot(a, b)
    tl.store(x_ptr + offs, c)


def test_mismatched_dot_dtypes():
    e = compile_error(e_dot_dtypes, {"x_ptr": "*fp32", "y_ptr": "*fp16"})
    assert_located(e, *where_in(e_dot_dtypes, "tl.dot"), r"dot.*fp32.*fp16")


@triton.jit
def e_dot_bf16_out(x_ptr):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    a = tl.load(x_ptr + offs)
    c = tl.dot(a, a, out_dtype=tl.bfloat16)
    tl.store(x_ptr + offs, c)


def test_dot_out_dtype_bfloat16_is_refused_as_triton_refuses_it():
    e = compile_error(e_dot_bf16_out, {"x_ptr": "*fp16"})
    assert_located(e, *where_in(e_dot_bf16_out, "tl.dot"), r"out_dtype=bfloat16 is unsupported.*\.to\(tl\.bfloat16\)")


@triton.jit
def e_loop_carried_type(x_ptr, n):
    acc = 0
    for i in range(n):
        acc = acc + 1.5
    tl.store(x_ptr, acc)


def test_loop_carried_variable_changing_type():
    e = compile_error(e_loop_carried_type, {"x_ptr": "*fp32", "n": "i32"})
    # reported at the loop, as Triton does, naming the variable and both types
    assert_located(e, *where_in(e_loop_carried_type, "for i in range(n):", "for"), r"'acc'.*int32.*fp32")


@triton.jit
def e_if_on_tensor(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if x > 0:
        x = x + 1
    tl.store(x_ptr + tl.arange(0, 16), x)


def test_if_on_a_tensor_condition():
    e = compile_error(e_if_on_tensor, {"x_ptr": "*fp32"})
    assert_located(e, *where_in(e_if_on_tensor, "if x > 0:", "x > 0"), r"condition.*scalar.*\[16\]")


@triton.jit
def e_store_to_non_pointer(x_ptr, n):
    tl.store(n, 1)


def test_store_to_a_non_pointer():
    e = compile_error(e_store_to_non_pointer, {"x_ptr": "*i32", "n": "i32"})
    assert_located(e, *where_in(e_store_to_non_pointer, "tl.store"), r"store.*pointer.*int32")


@triton.jit
def e_kernel_returns(x_ptr):
    return tl.load(x_ptr)


def test_kernel_returning_a_value():
    e = compile_error(e_kernel_returns, {"x_ptr": "*i32"})
    assert "cannot return a value" in str(e) and f"{THIS_FILE}:" in str(e)


# ---- unsupported constructs ------------------------------------------------------------------------

@triton.jit
def e_break(x_ptr, n):
    for i in range(n):
        if i > 3:
            break
    tl.store(x_ptr, 1)


@triton.jit
def e_continue(x_ptr, n):
    for i in range(n):
        continue
    tl.store(x_ptr, 1)


@triton.jit
def e_lambda(x_ptr):
    f = lambda v: v + 1  # noqa: E731
    tl.store(x_ptr, 1)


@triton.jit
def e_nested_def(x_ptr):
    def inner(v):
        return v
    tl.store(x_ptr, 1)


@triton.jit
def e_list_comprehension(x_ptr):
    xs = [i * j for i in range(4) for j in range(2)]
    tl.store(x_ptr, 1)


@triton.jit
def e_try(x_ptr):
    try:
        tl.store(x_ptr, 1)
    except Exception:
        pass


@triton.jit
def e_with(x_ptr):
    with x_ptr:
        tl.store(x_ptr, 1)


@triton.jit
def e_dict(x_ptr):
    d = {"a": 1}
    tl.store(x_ptr, 1)


@triton.jit
def e_return_in_loop(x_ptr, n):
    for i in range(n):
        return
    tl.store(x_ptr, 1)


UNSUPPORTED = {
    "break": (e_break, "break", "break", r"`break` is not supported"),
    "continue": (e_continue, "continue", "continue", r"`continue` is not supported"),
    "lambda": (e_lambda, "lambda", "lambda", r"lambda is not supported"),
    "nested def": (e_nested_def, "def inner", "def", r"nested function definitions are not supported"),
    "list comprehension": (e_list_comprehension, "[i * j for i", "[",
                           r"only list comprehensions with one `for` are supported"),
    "try": (e_try, "try:", "try", r"try.*not supported"),
    "with": (e_with, "with x_ptr", "with", r"`with` is not supported"),
    "dict": (e_dict, "{\"a\": 1}", "{", r"dicts are not supported"),
    "return in a loop": (e_return_in_loop, "        return", "return", r"return inside .*(loop|`for`)"),
}


@pytest.mark.parametrize("construct", list(UNSUPPORTED))
def test_unsupported_construct(construct):
    fn, needle, col_needle, message = UNSUPPORTED[construct]
    signature = {"x_ptr": "*i32", "n": "i32"} if "n" in fn.arg_names else {"x_ptr": "*i32"}
    e = compile_error(fn, signature)
    assert_located(e, *where_in(fn, needle, col_needle), message)


# ---- calls from the kernel ----------------------------------------------------------------------

@triton.jit
def two_args(a, b):
    return a + b


@triton.jit
def e_nested_call_arity(x_ptr):
    tl.store(x_ptr, two_args(1, 2, 3))


def test_wrong_number_of_arguments_to_a_nested_jit_function():
    e = compile_error(e_nested_call_arity, {"x_ptr": "*i32"})
    assert_located(e, *where_in(e_nested_call_arity, "two_args(1, 2, 3)"), r"takes 2 arguments but 3")


def plain_python_helper(v):
    raise ValueError("plain_python_helper refuses its argument")


@triton.jit
def e_calls_plain_python(x_ptr):
    tl.store(x_ptr, plain_python_helper(tl.load(x_ptr)))


def test_an_error_in_a_plain_python_function_called_from_a_kernel():
    # (a plain Python function runs while the kernel compiles, as in Triton;
    # what it raises is reported at the call)
    e = compile_error(e_calls_plain_python, {"x_ptr": "*i32"})
    assert_located(e, *where_in(e_calls_plain_python, "plain_python_helper("),
                   r"ValueError: plain_python_helper refuses its argument")


@triton.jit
def e_static_assert(x_ptr, B: tl.constexpr):
    tl.static_assert(B >= 16, "B must be at least 16")
    tl.store(x_ptr + tl.arange(0, B), 1)


def test_static_assert_failure():
    e = compile_error(e_static_assert, {"x_ptr": "*i32"}, {"B": 8})
    assert_located(e, *where_in(e_static_assert, "tl.static_assert"), r"B must be at least 16")
    assert isinstance(e, triton.compiler.errors.CompileTimeAssertionFailure) and e.__cause__ is None


@triton.jit
def e_expand_dims_of_none(x_ptr):
    tl.store(x_ptr, tl.expand_dims(None, -1))


def test_the_traceback_shows_the_users_call_and_the_language_function_not_the_compiler():
    # as Triton filters them: the error's own traceback ends at the compile
    # call; its cause's starts in the language function that raised
    e = compile_error(e_expand_dims_of_none, {"x_ptr": "*i32"})
    outer = "".join(traceback.format_exception(type(e), e, e.__traceback__, chain=False))
    inner = "".join(traceback.format_exception(type(e.__cause__), e.__cause__, e.__cause__.__traceback__,
                                               chain=False))
    assert "code_generator.py" not in outer + inner and f"{os.sep}ast.py" not in outer + inner
    assert f"{os.sep}language{os.sep}" in inner


def test_front_end_debugging_keeps_the_compilers_frames(monkeypatch):
    monkeypatch.setenv("TRITON_FRONT_END_DEBUGGING", "1")
    with pytest.raises(Exception) as info:
        compile_(e_expand_dims_of_none, {"x_ptr": "*i32"}, {}, debug=True)  # (another cache key)
    assert not isinstance(info.value, triton.CompilationError)  # the language function's own exception
    assert "code_generator.py" in "".join(traceback.format_exception(info.type, info.value, info.tb))


@triton.jit
def returns_by_a_runtime_branch(n):
    if n == 0:
        return tl.arange(0, 4)
    else:
        return tl.arange(0, 8)


@triton.jit
def e_inconsistent_returns(x_ptr, n):
    tl.store(x_ptr + tl.arange(0, 4), returns_by_a_runtime_branch(n))


def test_inconsistent_returns_point_at_the_return_that_differs():
    e = compile_error(e_inconsistent_returns, {"x_ptr": "*i32", "n": "i32"})
    assert_located(e, *where_in(e_inconsistent_returns, "returns_by_a_runtime_branch("),
                   r"in returns_by_a_runtime_branch\(\): Inconsistent return types")
    assert_located(e.__cause__, *where_in(returns_by_a_runtime_branch, "return tl.arange(0, 8)", "return"),
                   r"returns int32\[4\] when the condition at line \d+ holds but int32\[8\] when it does not")


@triton.jit
def e_imprecise_acc_over_k(x_ptr):
    a = tl.full((64, 64), 0.0, tl.float8e5)
    tl.store(x_ptr + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :],
             tl.dot(a, a, max_num_imprecise_acc=128))


def test_max_num_imprecise_acc_over_k():
    e = compile_error(e_imprecise_acc_over_k, {"x_ptr": "*fp32"})
    assert_located(e, *where_in(e_imprecise_acc_over_k, "tl.dot"), r"max_num_imprecise_acc \(128\) must be <= K")
    assert str(e.__cause__) == "max_num_imprecise_acc (128) must be <= K (64)"  # Triton's words


@triton.jit
def helper_with_a_bad_line(x):
    return x + tl.arange(0, 32)


@triton.jit
def e_error_in_a_callee(x_ptr):
    tl.store(x_ptr + tl.arange(0, 16), helper_with_a_bad_line(tl.arange(0, 16)))


def test_error_inside_a_called_jit_function_is_the_cause_of_one_at_the_call():
    # as Triton chains them: the call in the kernel, caused by the line in the callee
    e = compile_error(e_error_in_a_callee, {"x_ptr": "*i32"})
    assert_located(e, *where_in(e_error_in_a_callee, "helper_with_a_bad_line("),
                   r"in helper_with_a_bad_line\(\): shapes \[16\] and \[32\] do not broadcast")
    assert isinstance(e.__cause__, triton.CompilationError)
    assert_located(e.__cause__, *where_in(helper_with_a_bad_line, "x + tl.arange", "x + "), r"broadcast")


# ---- launches and Python calls --------------------------------------------------------------------

@triton.jit
def launch_me(a, b, c):
    tl.store(a, b + c)


def test_launch_with_too_few_arguments():
    with pytest.raises(triton.CompilationError) as info:
        launch_me[(1,)](1)
    line, col, source = where_in(test_launch_with_too_few_arguments, "launch_me[(1,)](1)", "launch_me")
    assert_located(info.value, line, col, source, r"missing 2 argument.*\bb\b.*\bc\b")


def test_launch_with_too_many_arguments():
    with pytest.raises(triton.CompilationError) as info:
        launch_me[(1,)](1, 2.0, 3, 4)
    line, col, source = where_in(test_launch_with_too_many_arguments, "launch_me[(1,)](1, 2.0, 3, 4)",
                                 "launch_me")
    assert_located(info.value, line, col, source, r"takes 3 arguments but 4 were given")


def test_launch_with_an_unknown_keyword():
    with pytest.raises(triton.CompilationError) as info:
        launch_me[(1,)](1, 2, 3, d=4)
    line, col, source = where_in(test_launch_with_an_unknown_keyword, "d=4)", "launch_me")
    assert_located(info.value, line, col, source, r"unexpected keyword argument 'd'")


def test_calling_a_jit_function_from_plain_python():
    with pytest.raises(triton.CompilationError) as info:
        launch_me(1, 2, 3)
    line, col, source = where_in(test_calling_a_jit_function_from_plain_python, "launch_me(1, 2, 3)",
                                 "launch_me")
    assert_located(info.value, line, col, source, r"cannot call @jit function 'launch_me' from plain Python")


def test_language_functions_outside_a_kernel_raise():
    with pytest.raises(Exception, match="inside a @jit function|only be called|only be used"):
        tl.arange(0, 16)


# ---- the native library ------------------------------------------------------------------------------

@triton.jit
def e_found_by_the_verifier(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 1))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=4)
    tl.store(x_ptr + tl.arange(0, 1), y)


def test_an_error_found_by_the_native_verifier_shows_the_kernel_source_line():
    e = compile_error(e_found_by_the_verifier, {"x_ptr": "*i32"})
    line, col, source = where_in(e_found_by_the_verifier, "tl.inline_asm_elementwise")
    text = str(e)
    assert f"{THIS_FILE}:{line}:{col}: error:" in text
    assert "packed_element" in text or "pack" in text
    lines = text.splitlines()
    i = next(i for i, l in enumerate(lines) if f"{THIS_FILE}:{line}:{col}: error:" in l)
    assert lines[i + 1] == source
    assert lines[i + 2] == " " * (col - 1) + "^"


@triton.jit
def e_found_by_the_backend(x_ptr, z_ptr):
    r = tl.arange(0, 16)
    x = tl.load(x_ptr + r[:, None] * 16 + r[None, :])
    y = tl.dot(x, x)
    tl.store(z_ptr + r[:, None] * 16 + r[None, :], y)


def test_an_error_found_by_the_backend_shows_the_kernel_source_line():
    # An fp8e4nv dot for sm_80 passes the frontend; the GPU back end
    # (ttg-accelerate-matmul) rejects it, and its diagnostic must still point
    # at the kernel's own line, with that line's source (not a line of the
    # intermediate IR).
    with pytest.raises(triton.CompilationError) as info:
        triton.compile(e_found_by_the_backend, signature={"x_ptr": "*fp8e4nv", "z_ptr": "*fp32"},
                       target="cuda:80")
    line, col, source = where_in(e_found_by_the_backend, "tl.dot")
    lines = str(info.value).splitlines()
    i = next(i for i, l in enumerate(lines) if f"{THIS_FILE}:{line}:{col}: error:" in l)
    assert lines[i + 1] == source
    assert lines[i + 2] == " " * (col - 1) + "^"
    assert (info.value.file, info.value.line, info.value.col) == (THIS_FILE, line, col)


GARBAGE_SCRIPT = r"""
import sys
sys.path.insert(0, "python")
import tritium
lib = tritium.native_library()
bad = ["this is not IR {", "module {", "}}}}", "\x00\x01\x02 garbage", "module { tt.func @f( }",
       'module { "tt.load"() : () -> () }', "module { tt.func @f() { %0 = tt.make_range {start = 0 : i32, "
       "end = 3 : i32} : tensor<3xi32> tt.return } }", "%" * 10000, "(" * 5000]
raised = 0
for text in bad:
    try:
        lib.parse_and_verify(text, "garbage.mlir")
        print("accepted:", repr(text[:60]))
    except tritium.CompilationError as e:
        assert str(e), "empty diagnostics"
        raised += 1
    if hasattr(lib, "run_pipeline"):
        try:
            lib.run_pipeline(text, "builtin.module(tritium-make-ttir)", "garbage.mlir")
            print("pipeline accepted:", repr(text[:60]))
        except tritium.CompilationError as e:
            assert str(e), "empty diagnostics"
print(raised, len(bad))
"""


def test_garbage_through_the_native_library_raises_instead_of_aborting():
    # In a child process: an abort there fails this test instead of killing pytest.
    out = subprocess.run([sys.executable, "-c", GARBAGE_SCRIPT], cwd=REPO_ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    raised, total = map(int, out.stdout.split()[-2:])
    assert raised == total, out.stdout


def test_garbage_error_is_a_compilation_error_with_location():
    with pytest.raises(triton.CompilationError) as info:
        triton.native_library().parse_and_verify("module {\n  tt.func @f( {\n}\n", "junk.ttir")
    message = str(info.value)
    assert re.search(r"junk\.ttir:\d+:\d+: error:", message)
    assert "^" in message


@triton.jit
def recursing(x, n: tl.constexpr):
    return recursing(x + 1, n + 1)


@triton.jit
def e_recursion(x_ptr):
    tl.store(x_ptr, recursing(tl.load(x_ptr), 0))


@triton.jit
def calls_a_bad_helper(x):
    return helper_with_a_bad_line(x)


@triton.jit
def e_two_levels(x_ptr):
    tl.store(x_ptr + tl.arange(0, 16), calls_a_bad_helper(tl.arange(0, 16)))


def test_recursion_is_one_error_and_nesting_does_not_repeat_the_message():
    e = compile_error(e_recursion, {"x_ptr": "*i32"})
    assert e.__cause__ is None and "recursion is not supported" in str(e)
    assert_located(e, *where_in(recursing, "recursing(x + 1"), r"recursion is not supported")
    e = compile_error(e_two_levels, {"x_ptr": "*i32"})
    # kernel -> calls_a_bad_helper -> helper_with_a_bad_line: each level names its own callee once
    assert_located(e, *where_in(e_two_levels, "calls_a_bad_helper("), r"error: in calls_a_bad_helper\(\): shapes")
    assert_located(e.__cause__, *where_in(calls_a_bad_helper, "helper_with_a_bad_line("),
                   r"error: in helper_with_a_bad_line\(\): shapes")
    assert_located(e.__cause__.__cause__, *where_in(helper_with_a_bad_line, "x + tl.arange", "x + "),
                   r"error: shapes \[16\] and \[32\]")
