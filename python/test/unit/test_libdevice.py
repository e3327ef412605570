"""triton.language.extra.cuda.libdevice: which __nv_ function each call
emits, how unsupported argument types are reported, and that the whole
table agrees with the signatures in CUDA's libdevice.10.bc."""
import os
import re
import shutil
import subprocess

import pytest

import tritium as triton
from conftest import compile_ttir
import tritium.language as tl
from tritium.language.extra.cuda import libdevice

LIBDEVICE_BC = "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"




def extern_calls(ttir):
    """(symbol, result type) of every tt.extern_elementwise, in order."""
    calls = []
    for line in ttir.splitlines():
        if "tt.extern_elementwise" in line:
            symbol = re.search(r'symbol = "(\w+)"', line).group(1)
            result = line.rsplit("->", 1)[1].strip().split(" loc(")[0]
            calls.append((symbol, result))
    return calls


# ---- emitted calls -----------------------------------------------------------------------

@triton.jit
def _mixed_kernel(F32, F64, I32, I64, U32, OutF, OutD, OutI, OutL, OutB, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(F32 + o)
    d = tl.load(F64 + o)
    i = tl.load(I32 + o)
    j = tl.load(I64 + o)
    u = tl.load(U32 + o)
    tl.store(OutF + o, libdevice.exp(x) + libdevice.atan2(x, x) + libdevice.pow(x, 3) + libdevice.pow(x, x))
    tl.store(OutD + o, libdevice.cbrt(d) + libdevice.fma_rz(d, d, d) + libdevice.hypot(d, d))
    tl.store(OutI + o, libdevice.popc(i) + libdevice.mulhi(i, i) + libdevice.mulhi(u, u) + libdevice.clz(j))
    tl.store(OutL + o, libdevice.llrint(x) + libdevice.brev(j))
    # (int8 rather than a *i1 output: semantic.store does not yet retype *i1 pointers)
    tl.store(OutB + o, (libdevice.isnan(x) | libdevice.isinf(d)).to(tl.int8))


MIXED_SIGNATURE = {"F32": "*fp32", "F64": "*fp64", "I32": "*i32", "I64": "*i64", "U32": "*u32",
                   "OutF": "*fp32", "OutD": "*fp64", "OutI": "*i32", "OutL": "*i64", "OutB": "*i8"}


def test_symbols_follow_argument_types():
    ttir = compile_ttir(_mixed_kernel, MIXED_SIGNATURE, {"N": 64})
    calls = dict(extern_calls(ttir))
    expected = {
        "__nv_expf": "tensor<64xf32>", "__nv_atan2f": "tensor<64xf32>", "__nv_powif": "tensor<64xf32>",
        "__nv_powf": "tensor<64xf32>",
        "__nv_cbrt": "tensor<64xf64>", "__nv_fma_rz": "tensor<64xf64>", "__nv_hypot": "tensor<64xf64>",
        "__nv_popc": "tensor<64xi32>", "__nv_mulhi": "tensor<64xi32>", "__nv_umulhi": "tensor<64xi32>",
        "__nv_clzll": "tensor<64xi32>",
        "__nv_llrintf": "tensor<64xi64>", "__nv_brevll": "tensor<64xi64>",
        "__nv_isnanf": "tensor<64xi32>", "__nv_isinfd": "tensor<64xi32>",
    }
    for symbol, result in expected.items():
        assert symbol in calls, f"{symbol} missing from\n{ttir}"
        assert calls[symbol].endswith(result), (symbol, calls[symbol])
    assert 'libname = "libdevice"' in ttir
    assert "pure = true" in ttir
    # the predicates come back as int32 and are compared with zero into int1
    assert re.search(r"arith\.cmpi.*ne|cmpi\"\(.*predicate = 1 :", ttir), ttir


@triton.jit
def _scalar_kernel(Out, x, n, MODE: tl.constexpr):
    if MODE == 0:
        tl.store(Out, libdevice.rsqrt(x))
    elif MODE == 1:
        tl.store(Out, libdevice.jn(n, x))  # (int32, fp32): a mixed overload
    else:
        tl.store(Out, libdevice.ldexp(arg0=x, arg1=n))


@pytest.mark.parametrize("mode, symbol", [(0, "__nv_rsqrtf"), (1, "__nv_jnf"), (2, "__nv_ldexpf")])
def test_scalar_arguments_and_keywords(mode, symbol):
    ttir = compile_ttir(_scalar_kernel, {"Out": "*fp32", "x": "fp32", "n": "i32"}, {"MODE": mode})
    assert extern_calls(ttir) == [(symbol, "f32")]


@triton.jit
def _promote_kernel(A, B, Out, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(Out + o, libdevice.atan2(tl.load(A + o), tl.load(B + o)))


def test_mixed_float_arguments_promote_as_in_triton():
    # (fp32, fp64) has no overload: both become fp64, as Triton does
    ttir = compile_ttir(_promote_kernel, {"A": "*fp32", "B": "*fp64", "Out": "*fp64"}, {"N": 16})
    assert extern_calls(ttir) == [("__nv_atan2", "tensor<16xf64>")]
    assert "arith.extf" in ttir


@tl.core.extern
def _atan2_by_symbol(y, x, _semantic=None):
    # as libraries define external functions: Triton's core.extern and
    # core.extern_elementwise, the overloads keyed by argument dtypes
    return tl.core.extern_elementwise("libdevice", "", [y, x],
                                      {(tl.float32, tl.float32): ("__nv_atan2f", tl.float32),
                                       (tl.float64, tl.float64): ("__nv_atan2", tl.float64)},
                                      is_pure=True, _semantic=_semantic)


@triton.jit
def _extern_kernel(A, B, Out, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(Out + o, _atan2_by_symbol(tl.load(A + o), tl.load(B + o)))


def test_extern_elementwise_calls_a_symbol_by_the_argument_types():
    ttir = compile_ttir(_extern_kernel, {"A": "*fp32", "B": "*fp32", "Out": "*fp32"}, {"N": 16})
    assert extern_calls(ttir) == [("__nv_atan2f", "tensor<16xf32>")]
    # (fp32, fp64): brought to their common type, fp64, as in Triton
    ttir = compile_ttir(_extern_kernel, {"A": "*fp32", "B": "*fp64", "Out": "*fp64"}, {"N": 16})
    assert extern_calls(ttir) == [("__nv_atan2", "tensor<16xf64>")]
    with pytest.raises(triton.CompilationError, match="no overload"):
        compile_ttir(_extern_kernel, {"A": "*i32", "B": "*i32", "Out": "*i32"}, {"N": 16})


@triton.jit
def _promote_kernel_scalar(A, s, Out, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(Out + o, libdevice.fmin(tl.load(A + o), s))


def test_broadcasting_between_scalar_and_block():
    ttir = compile_ttir(_promote_kernel_scalar, {"A": "*fp32", "s": "fp32", "Out": "*fp32"}, {"N": 32})
    assert extern_calls(ttir) == [("__nv_fminf", "tensor<32xf32>")]


# ---- errors ------------------------------------------------------------------------------

@triton.jit
def _unary_kernel(X, Out, N: tl.constexpr, FN: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(Out + o, FN(tl.load(X + o)))


@pytest.mark.parametrize("fn, dtype, message", [
    (libdevice.exp, "fp16", "libdevice.exp has no overload for argument types (fp16)"),
    (libdevice.popc, "u16", "libdevice.popc has no overload for argument types (uint16)"),
    (libdevice.sin, "i32", "libdevice.sin has no overload for argument types (int32)"),
    (libdevice.clz, "fp32", "libdevice.clz has no overload for argument types (fp32)"),
])
def test_unsupported_types_raise_compilation_error(fn, dtype, message):
    with pytest.raises(triton.CompilationError) as info:
        compile_ttir(_unary_kernel, {"X": f"*{dtype}", "Out": f"*{dtype}"}, {"N": 16, "FN": fn})
    text = str(info.value)
    assert message in text
    assert "it takes (" in text  # the supported types are listed


@triton.jit
def _arity_kernel(X, Out):
    tl.store(Out, libdevice.atan2(tl.load(X)))


def test_wrong_number_of_arguments():
    with pytest.raises(triton.CompilationError, match="libdevice.atan2 takes 2 arguments"):
        compile_ttir(_arity_kernel, {"X": "*fp32", "Out": "*fp32"})


# ---- the table -----------------------------------------------------------------------------

# Every function of Triton's triton.language.extra.cuda.libdevice
TRITON_NAMES = """
abs acos acosh asin asinh atan atan2 atanh brev byte_perm cbrt ceil clz copysign cos cosh cospi
cyl_bessel_i0 cyl_bessel_i1 double2hiint double2loint double_as_longlong erf erfc erfcinv erfcx erfinv exp
exp10 exp2 expm1 fast_cosf fast_dividef fast_exp10f fast_expf fast_log10f fast_log2f fast_logf fast_powf
fast_sinf fast_tanf fdim ffs finitef float_as_int float_as_uint floor fma fmod hadd hiloint2double hypot
ilogb int2double_rn int_as_float isfinited isinf isnan j0 j1 jn ldexp lgamma llrint llround log log10
log1p log2 logb longlong_as_double mul24 mulhi nearbyint nextafter norm3d norm4d normcdf normcdfinv popc
pow rcbrt rcp64h remainder rhadd rhypot rint rnorm3d rnorm4d round rsqrt rsqrt_rn sad saturatef scalbn
signbit sin sinh sinpi sqrt tan tanh tgamma trunc uint2double_rn uint_as_float y0 y1 yn
""".split() + [f"{stem}_{r}" for r in ("rn", "rz", "rd", "ru") for stem in """
add sub mul div fma rcp sqrt double2float double2int double2uint double2ll double2ull float2int float2uint
float2ll float2ull int2float uint2float ll2float ull2float ll2double ull2double""".split()]


def test_every_triton_function_exists():
    missing = [name for name in TRITON_NAMES if not callable(getattr(libdevice, name, None))]
    assert not missing
    assert len(TRITON_NAMES) == 197
    # and is reachable the way kernels spell it
    assert tl.extra.cuda.libdevice.exp is libdevice.exp


def test_signedness_picks_the_symbol():
    assert libdevice.mulhi.overloads[(tl.int32, tl.int32)][0] == "__nv_mulhi"
    assert libdevice.mulhi.overloads[(tl.uint32, tl.uint32)] == ("__nv_umulhi", tl.uint32)
    assert libdevice.mulhi.overloads[(tl.uint64, tl.uint64)] == ("__nv_umul64hi", tl.uint64)
    assert libdevice.max.overloads[(tl.uint64, tl.uint64)][0] == "__nv_ullmax"
    assert libdevice.sad.overloads[(tl.int32, tl.int32, tl.uint32)][0] == "__nv_sad"
    assert libdevice.uint2float_rd.overloads == {(tl.uint32,): ("__nv_uint2float_rd", tl.float32)}
    assert libdevice.isnan.returns_bool and not libdevice.signbit.returns_bool


_LLVM_TYPE = {"int32": "i32", "uint32": "i32", "int64": "i64", "uint64": "i64", "fp32": "float",
              "fp64": "double"}


def _libdevice_signatures():
    llvm_dis = shutil.which("llvm-dis") or "/usr/lib/llvm-22/bin/llvm-dis"
    if not os.path.exists(LIBDEVICE_BC) or not os.path.exists(llvm_dis):
        pytest.skip("libdevice.10.bc or llvm-dis is not installed")
    text = subprocess.run([llvm_dis, LIBDEVICE_BC, "-o", "-"], capture_output=True, text=True, check=True,
                          timeout=120).stdout
    signatures = {}
    for m in re.finditer(r"^define\s+(.*?)@(__nv_\w+)\((.*?)\)", text, re.M):
        ret = m.group(1).split()[-1]
        params = [p.split()[0] for p in m.group(3).split(",") if p.strip()]
        signatures[m.group(2)] = (ret, params)
    assert len(signatures) > 300, "unexpected llvm-dis output"
    return signatures


def test_table_matches_libdevice_bitcode():
    signatures = _libdevice_signatures()
    checked = 0
    problems = []
    for name, (overloads, _) in libdevice.TABLE.items():
        for args, (symbol, ret) in overloads.items():
            if symbol not in signatures:
                problems.append(f"{name}: {symbol} is not in libdevice")
                continue
            want = (_LLVM_TYPE[ret.name], [_LLVM_TYPE[a.name] for a in args])
            if signatures[symbol] != want:
                problems.append(f"{name}: {symbol} is {signatures[symbol]} in libdevice, the table says {want}")
            checked += 1
    assert not problems, "\n".join(problems)
    assert checked >= 330


def test_table_covers_libdevice():
    """Every libdevice function on plain numbers is reachable; the rest take
    pointers (frexp, sincos...), raw fp16 bits or are internal variants."""
    signatures = _libdevice_signatures()
    used = {symbol for overloads, _ in libdevice.TABLE.values() for symbol, _ in overloads.values()}
    scalar = {s for s, (ret, params) in signatures.items()
              if ret in ("i32", "i64", "float", "double") and all(p in ("i32", "i64", "float", "double")
                                                                    for p in params)}
    not_exposed = scalar - used
    assert not_exposed <= {"__nv_fmaf_ieee_rn", "__nv_fmaf_ieee_rz", "__nv_fmaf_ieee_rd",
                           "__nv_fmaf_ieee_ru"}, sorted(not_exposed)
