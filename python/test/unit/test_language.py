"""triton.language, feature by feature: each test compiles one small kernel
(no GPU needed) and checks the Triton IR for the ops and attributes that the
feature must produce.

Every kernel stores what it computes, so that no check depends on whether
the TTIR pipeline (inliner, canonicalizer, CSE, loop unroller) has run; the
checks look for ops and never for the absence of `tt.call`.
"""
import os
import re

import pytest

import tritium as triton
from conftest import compile_ttir, strip_locations
import tritium.language as tl
from tritium.compiler.compiler import ASTSource, GPUTarget


# ---- helpers ------------------------------------------------------------------------------

def ttir(fn, signature, constexprs=None, **kwargs) -> str:
    return compile_ttir(fn, signature, constexprs, **kwargs)


def count(text: str, op: str) -> int:
    """Occurrences of op `op` (custom or generic form), not of longer names."""
    return len(re.findall(r'(?<![\w."])"?' + re.escape(op) + r'"?(?![\w.])', text))


def lines_with(text: str, op: str):
    return [line for line in text.splitlines() if count(line, op)]


def kernel_header(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if f"tt.func public @{name}(" in line)


F32 = {"x_ptr": "*fp32", "y_ptr": "*fp32"}
I32 = {"x_ptr": "*i32", "y_ptr": "*i32"}


# ---- program ids, ranges, constants ---------------------------------------------------------

@triton.jit
def k_program_id(x_ptr):
    pid = tl.program_id(axis=1)
    n = tl.num_programs(2)
    tl.store(x_ptr, pid * n)


def test_program_id_and_num_programs():
    t = ttir(k_program_id, {"x_ptr": "*i32"})
    assert re.search(r"tt\.get_program_id (\{axis = 1 : i32\}|y) : i32", t)
    assert re.search(r"tt\.get_num_programs (\{axis = 2 : i32\}|z) : i32", t)
    assert re.search(r"arith\.muli %[\w#]+, %[\w#]+ : i32", t)


@triton.jit
def k_arange(x_ptr):
    offs = tl.arange(8, 24)
    tl.store(x_ptr + offs, offs)


def test_arange_with_offset_start():
    t = ttir(k_arange, {"x_ptr": "*i32"})
    assert re.search(r"tt\.make_range \{end = 24 : i32, start = 8 : i32\} : tensor<16xi32>", t)


@triton.jit
def k_full(x_ptr, y_ptr, v, B: tl.constexpr):
    offs = tl.arange(0, B)
    tl.store(x_ptr + offs, tl.full((B,), 7, tl.int32))
    tl.store(x_ptr + B + offs, tl.full([B], v, tl.int32))
    tl.store(x_ptr + 2 * B + offs, tl.zeros((B,), dtype=tl.int32))
    two_d = tl.load(y_ptr + offs[:, None] * 8 + tl.arange(0, 8)[None, :])
    tl.store(y_ptr + offs[:, None] * 8 + tl.arange(0, 8)[None, :], tl.zeros_like(two_d))


def test_full_zeros_and_zeros_like():
    t = ttir(k_full, {"x_ptr": "*i32", "y_ptr": "*fp16", "v": "i32"}, {"B": 16})
    assert "dense<7> : tensor<16xi32>" in t
    assert re.search(r"tt\.splat %arg2 : i32 -> tensor<16xi32>", t)  # full of a runtime value (v)
    assert "dense<0> : tensor<16xi32>" in t
    # zeros_like takes shape and dtype from its argument
    assert "dense<0.000000e+00> : tensor<16x8xf16>" in t
    assert count(t, "tt.store") == 4


@triton.jit
def k_cdiv(x_ptr, n, B: tl.constexpr):
    tl.store(x_ptr, tl.cdiv(n, B))


def test_cdiv_in_a_kernel_and_in_python():
    t = ttir(k_cdiv, {"x_ptr": "*i32", "n": "i32"}, {"B": 16})
    assert re.search(r"arith\.divsi %[\w#]+, %[\w#]+ : i32", t)
    assert re.search(r"arith\.addi %[\w#]+, %[\w#]+ : i32", t)
    assert triton.cdiv(10, 4) == 3 and triton.cdiv(12, 4) == 3 and triton.cdiv(1, 128) == 1
    # (0 and below give 0, as Triton's bit trick does)
    assert [triton.next_power_of_2(n) for n in (-3, 0, 1, 2, 3, 5, 16, 17, 1000)] == [0, 0, 1, 2, 4, 8, 16, 32, 1024]


# ---- memory --------------------------------------------------------------------------------

@triton.jit
def k_load_store(x_ptr, y_ptr, n, B: tl.constexpr):
    offs = tl.arange(0, B)
    m = offs < n
    a = tl.load(x_ptr + offs, mask=m, other=1.5, cache_modifier=".cg", eviction_policy="evict_last")
    b = tl.load(x_ptr + B + offs, volatile=True)
    tl.store(y_ptr + offs, a + b, mask=m, cache_modifier=".wb", eviction_policy="evict_first")


@triton.jit
def k_store_cached(x_ptr, y_ptr, CACHE: tl.constexpr):
    offs = tl.arange(0, 128)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs), cache_modifier=CACHE)


@pytest.mark.parametrize("cache", ["", ".wb", ".cg", ".cs", ".wt"])
def test_a_store_cache_modifier_is_spelled_in_the_ptx(cache):
    # as Triton's PTX has it (upstream test_store_cache_modifier): .wb, PTX's
    # default, is written out when asked for; no modifier, no suffix
    ptx = triton.compile(k_store_cached, signature={"x_ptr": "*fp32", "y_ptr": "*fp32"},
                         constexprs={"CACHE": cache}, target="cuda:90").asm["ptx"]
    for modifier in (".wb", ".cg", ".cs", ".wt"):
        assert (f"st.global{modifier}" in ptx) == (modifier == cache), modifier


def test_load_store_with_mask_other_cache_eviction_volatile():
    t = ttir(k_load_store, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"}, {"B": 128})
    loads = lines_with(t, "tt.load")
    assert len(loads) == 2
    masked = next(l for l in loads if "cacheModifier" in l)
    assert re.search(r"tt\.load %[\w#]+, %[\w#]+, %[\w#]+ ", masked)  # pointer, mask, other
    assert "cacheModifier = cg" in masked and "evictionPolicy = evict_last" in masked
    assert "isVolatile = true" not in masked
    volatile = next(l for l in loads if l is not masked)
    assert "isVolatile = true" in volatile
    assert re.search(r"arith\.constant 1\.500000e\+00 : f32|dense<1\.500000e\+00> : tensor<128xf32>", t)
    store = lines_with(t, "tt.store")[0]
    assert re.search(r"tt\.store %[\w#]+, %[\w#]+, %[\w#]+ ", store)
    assert "cacheModifier = wb" in store and "evictionPolicy = evict_first" in store


@triton.jit
def k_spin_then_copy(flag_ptr, x_ptr, y_ptr, B: tl.constexpr):
    # wait for another program's flag, then copy: the loop must survive
    while tl.load(flag_ptr, volatile=True) == 0:
        pass
    offs = tl.arange(0, B)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))


def test_a_spin_on_a_volatile_load_is_kept():
    t = ttir(k_spin_then_copy, {"flag_ptr": "*i32", "x_ptr": "*fp32", "y_ptr": "*fp32"}, {"B": 128})
    assert count(t, "scf.while") == 1
    spin = next(l for l in lines_with(t, "tt.load") if "isVolatile = true" in l)
    assert "!tt.ptr<i32>" in spin


@triton.jit
def k_load_scalar(x_ptr, y_ptr):
    v = tl.load(x_ptr + 3)
    tl.store(y_ptr, v + 1)


def test_scalar_load_and_store():
    t = ttir(k_load_scalar, {"x_ptr": "*i64", "y_ptr": "*i64"})
    assert re.search(r"tt\.load %[\w#]+ : !tt\.ptr<i64>", t)
    assert re.search(r"tt\.store %[\w#]+, %[\w#]+ : !tt\.ptr<i64>", t)
    assert re.search(r"arith\.addi %[\w#]+, %[\w#]+ : i64", t)


# ---- atomics -------------------------------------------------------------------------------

@triton.jit
def k_atomic_add_f32(x_ptr, y_ptr, n):
    offs = tl.arange(0, 64)
    old = tl.atomic_add(x_ptr + offs, 1.0, mask=offs < n)
    tl.store(y_ptr + offs, old)


def test_atomic_add_on_f32_is_fadd():
    t = ttir(k_atomic_add_f32, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"})
    (line,) = lines_with(t, "tt.atomic_rmw")
    assert re.search(r"tt\.atomic_rmw fadd, acq_rel, gpu, %[\w#]+, %[\w#]+, %[\w#]+ : "
                     r"\(tensor<64x!tt\.ptr<f32>>, tensor<64xf32>, tensor<64xi1>\) -> tensor<64xf32>", line)


@triton.jit
def k_atomic_add_i32(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    old = tl.atomic_add(x_ptr + offs, 1, sem="relaxed", scope="cta")
    tl.store(y_ptr + offs, old)


def test_atomic_add_on_i32_is_add():
    t = ttir(k_atomic_add_i32, I32)
    (line,) = lines_with(t, "tt.atomic_rmw")
    assert re.search(r"tt\.atomic_rmw add, relaxed, cta, %[\w#]+, %[\w#]+ : "
                     r"\(tensor<64x!tt\.ptr<i32>>, tensor<64xi32>\) -> tensor<64xi32>", line)


@triton.jit
def k_atomic_max_min(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    v = tl.load(y_ptr + offs)
    a = tl.atomic_max(x_ptr + offs, v)
    b = tl.atomic_min(x_ptr + offs, v)
    tl.store(y_ptr + offs, a + b)


def test_atomic_max_min_on_signed_integers():
    t = ttir(k_atomic_max_min, I32)
    kinds = [re.search(r"tt\.atomic_rmw (\w+),", l).group(1) for l in lines_with(t, "tt.atomic_rmw")]
    assert sorted(kinds) == ["max", "min"]


def test_atomic_max_min_on_unsigned_integers():
    t = ttir(k_atomic_max_min, {"x_ptr": "*u32", "y_ptr": "*u32"})
    kinds = [re.search(r"tt\.atomic_rmw (\w+),", l).group(1) for l in lines_with(t, "tt.atomic_rmw")]
    assert sorted(kinds) == ["umax", "umin"]


def test_atomic_max_min_on_floats_use_the_integer_trick():
    t = ttir(k_atomic_max_min, F32)
    rmws = lines_with(t, "tt.atomic_rmw")
    assert rmws
    for line in rmws:
        assert "f32>" not in line.split(":")[-1].split("->")[0], line  # operands are integers
    kinds = sorted(re.search(r"tt\.atomic_rmw (\w+),", l).group(1) for l in rmws)
    assert kinds == ["max", "min", "umax", "umin"]
    assert count(t, "tt.bitcast") >= 2


@triton.jit
def k_atomic_bitwise(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    a = tl.atomic_and(x_ptr + offs, 1)
    b = tl.atomic_or(x_ptr + offs, 2)
    c = tl.atomic_xor(x_ptr + offs, 4)
    d = tl.atomic_xchg(x_ptr + offs, 8)
    tl.store(y_ptr + offs, a + b + c + d)


def test_atomic_and_or_xor_xchg():
    t = ttir(k_atomic_bitwise, I32)
    kinds = sorted(re.search(r"tt\.atomic_rmw (\w+),", l).group(1) for l in lines_with(t, "tt.atomic_rmw"))
    assert kinds == ["and", "exch", "or", "xor"]


@triton.jit
def k_atomic_cas(x_ptr, y_ptr, SEM: tl.constexpr, SCOPE: tl.constexpr):
    old = tl.atomic_cas(x_ptr, 0, 1, sem=SEM, scope=SCOPE)
    tl.store(y_ptr, old)


@pytest.mark.parametrize("sem", ["relaxed", "acquire", "release", "acq_rel"])
@pytest.mark.parametrize("scope", ["gpu", "cta", "sys"])
def test_atomic_cas_with_sem_and_scope(sem, scope):
    t = ttir(k_atomic_cas, I32, {"SEM": sem, "SCOPE": scope})
    (line,) = lines_with(t, "tt.atomic_cas")
    assert re.search(rf"tt\.atomic_cas {sem}, {scope}, %[\w#]+, %[\w#]+, %[\w#]+ : \(!tt\.ptr<i32>, i32, i32\) -> i32",
                     line)


def test_atomic_with_a_bad_sem_is_an_error():
    with pytest.raises(triton.CompilationError, match="sem"):
        ttir(k_atomic_cas, I32, {"SEM": "sequential", "SCOPE": "gpu"})


# ---- element-wise ---------------------------------------------------------------------------

@triton.jit
def k_select_min_max(x_ptr, y_ptr, i_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    i = tl.load(i_ptr + offs)
    tl.store(x_ptr + offs, tl.where(x > y, x, y))
    tl.store(y_ptr + offs, tl.minimum(x, y))
    tl.store(x_ptr + 64 + offs, tl.maximum(x, y, propagate_nan=True))
    tl.store(y_ptr + 64 + offs, tl.clamp(x, -1.0, y))
    tl.store(i_ptr + offs, tl.maximum(i, 3))


def test_where_minimum_maximum_clamp():
    t = ttir(k_select_min_max, {"x_ptr": "*fp32", "y_ptr": "*fp32", "i_ptr": "*i32"})
    assert re.search(r"arith\.select %[\w#]+, %[\w#]+, %[\w#]+ : tensor<64xi1>, tensor<64xf32>", t)
    assert re.search(r"arith\.minnumf %[\w#]+, %[\w#]+ : tensor<64xf32>", t)
    assert re.search(r"arith\.maximumf %[\w#]+, %[\w#]+ : tensor<64xf32>", t)  # propagate_nan=True
    assert re.search(r"tt\.clamp %[\w#]+, %[\w#]+, %[\w#]+, propagateNan = none : tensor<64xf32>", t)
    assert re.search(r"arith\.maxsi %[\w#]+, %[\w#]+ : tensor<64xi32>", t)


@triton.jit
def k_unary(x_ptr, y_ptr, FN: tl.constexpr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    if FN == "exp":
        y = tl.exp(x)
    elif FN == "exp2":
        y = tl.exp2(x)
    elif FN == "log":
        y = tl.log(x)
    elif FN == "log2":
        y = tl.log2(x)
    elif FN == "sin":
        y = tl.sin(x)
    elif FN == "cos":
        y = tl.cos(x)
    elif FN == "sqrt":
        y = tl.sqrt(x)
    elif FN == "sqrt_rn":
        y = tl.sqrt_rn(x)
    elif FN == "rsqrt":
        y = tl.rsqrt(x)
    elif FN == "abs":
        y = tl.abs(x)
    elif FN == "floor":
        y = tl.floor(x)
    elif FN == "ceil":
        y = tl.ceil(x)
    elif FN == "erf":
        y = tl.erf(x)
    elif FN == "math.exp":
        y = tl.math.exp(x)
    else:
        y = x.exp()  # the tensor method
    tl.store(y_ptr + offs, y)


UNARY = {"exp": "math.exp", "exp2": "math.exp2", "log": "math.log", "log2": "math.log2", "sin": "math.sin",
         "cos": "math.cos", "sqrt": "math.sqrt", "sqrt_rn": "tt.precise_sqrt", "rsqrt": "math.rsqrt",
         "abs": "math.absf", "floor": "math.floor", "ceil": "math.ceil", "erf": "math.erf",
         "math.exp": "math.exp", "method": "math.exp"}


@pytest.mark.parametrize("fn", list(UNARY))
def test_unary_math_function(fn):
    t = ttir(k_unary, F32, {"FN": fn})
    op = UNARY[fn]
    assert re.search(re.escape(op) + r" %[\w#]+ : tensor<64xf32>", t), t
    # the constexpr if-chain emits only the chosen branch
    others = {o for o in UNARY.values() if o != op}
    assert not any(count(t, o) for o in others), t


@triton.jit
def k_binary_math(x_ptr, y_ptr, z_ptr, u_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.load(z_ptr + offs)
    u = tl.load(u_ptr + offs)
    tl.store(x_ptr + offs, tl.fma(x, y, z))
    tl.store(y_ptr + offs, tl.div_rn(x, y))
    tl.store(z_ptr + offs, tl.fdiv(x, z))
    tl.store(u_ptr + offs, tl.umulhi(u, u))


def test_fma_div_rn_fdiv_umulhi():
    t = ttir(k_binary_math, {"x_ptr": "*fp32", "y_ptr": "*fp32", "z_ptr": "*fp32", "u_ptr": "*u32"})
    assert re.search(r"math\.fma %[\w#]+, %[\w#]+, %[\w#]+ : tensor<64xf32>", t)
    assert re.search(r"tt\.precise_divf %[\w#]+, %[\w#]+ : tensor<64xf32>", t)
    assert re.search(r"arith\.divf %[\w#]+, %[\w#]+ : tensor<64xf32>", t)
    assert re.search(r"tt\.mulhiui %[\w#]+, %[\w#]+ : tensor<64xi32>", t)


@triton.jit
def k_int_abs(x_ptr):
    offs = tl.arange(0, 64)
    tl.store(x_ptr + offs, tl.abs(tl.load(x_ptr + offs)))


def test_abs_of_signed_integers():
    t = ttir(k_int_abs, {"x_ptr": "*i32"})
    assert re.search(r"math\.absi %[\w#]+ : tensor<64xi32>", t)


@triton.jit
def k_sigmoid(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    tl.store(y_ptr + offs, tl.sigmoid(tl.load(x_ptr + offs)))


def test_sigmoid():
    t = ttir(k_sigmoid, F32)
    assert re.search(r"math\.exp %[\w#]+ : tensor<64xf32>", t)
    assert re.search(r"arith\.divf %[\w#]+, %[\w#]+ : tensor<64xf32>", t)


@triton.jit
def k_softmax(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    tl.store(y_ptr + offs, tl.softmax(tl.load(x_ptr + offs)))


def test_softmax():
    t = ttir(k_softmax, F32)
    assert count(t, "tt.reduce") == 2
    assert re.search(r"arith\.maxnumf %[\w#]+, %[\w#]+ : f32", t)
    assert re.search(r"math\.exp %[\w#]+ : tensor<64xf32>", t)
    assert re.search(r"arith\.divf %[\w#]+, %[\w#]+ : tensor<64xf32>", t)


# ---- casts ---------------------------------------------------------------------------------

@triton.jit
def k_casts(f_ptr, h_ptr, i_ptr, l_ptr, u_ptr):
    offs = tl.arange(0, 64)
    f = tl.load(f_ptr + offs)
    i = tl.load(i_ptr + offs)
    u = tl.load(u_ptr + offs)
    tl.store(i_ptr + offs, f.to(tl.int32, bitcast=True))
    tl.store(h_ptr + offs, f.to(tl.float16, fp_downcast_rounding="rtz"))
    tl.store(h_ptr + 64 + offs, tl.cast(f, tl.float16))
    tl.store(f_ptr + offs, i.to(tl.float32))
    tl.store(i_ptr + 64 + offs, f.to(tl.int32))
    tl.store(l_ptr + offs, i.to(tl.int64))
    tl.store(l_ptr + 64 + offs, u.to(tl.int64))
    tl.store(u_ptr + offs, tl.load(l_ptr + offs).to(tl.uint32))


def test_casts():
    t = ttir(k_casts, {"f_ptr": "*fp32", "h_ptr": "*fp16", "i_ptr": "*i32", "l_ptr": "*i64", "u_ptr": "*u32"})
    assert re.search(r"tt\.bitcast %[\w#]+ : tensor<64xf32> -> tensor<64xi32>", t)
    assert re.search(r"tt\.fp_to_fp %[\w#]+, rounding = rtz : tensor<64xf32> -> tensor<64xf16>", t)
    assert re.search(r"arith\.truncf %[\w#]+ : tensor<64xf32> to tensor<64xf16>", t)
    assert re.search(r"arith\.sitofp %[\w#]+ : tensor<64xi32> to tensor<64xf32>", t)
    assert re.search(r"arith\.fptosi %[\w#]+ : tensor<64xf32> to tensor<64xi32>", t)
    assert re.search(r"arith\.extsi %[\w#]+ : tensor<64xi32> to tensor<64xi64>", t)
    assert re.search(r"arith\.extui %[\w#]+ : tensor<64xi32> to tensor<64xi64>", t)  # from uint32
    assert re.search(r"arith\.trunci %[\w#]+ : tensor<64xi64> to tensor<64xi32>", t)


@triton.jit
def k_cast_to_bool(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    b = tl.load(x_ptr + offs).to(tl.int1)
    tl.store(y_ptr + offs, b.to(tl.int32))


def test_cast_to_bool_compares_with_zero_and_back_zero_extends():
    t = ttir(k_cast_to_bool, {"x_ptr": "*fp32", "y_ptr": "*i32"})
    assert re.search(r"arith\.cmpf une, %[\w#]+, %[\w#]+ : tensor<64xf32>", t)
    assert re.search(r"arith\.extui %[\w#]+ : tensor<64xi1> to tensor<64xi32>", t)


# ---- shapes ----------------------------------------------------------------------------------

@triton.jit
def k_reshape(x_ptr, y_ptr):
    offs = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + tl.arange(0, 256), tl.reshape(x, (256,)))
    tl.store(y_ptr + tl.arange(0, 8)[:, None] * 32 + tl.arange(0, 32)[None, :], tl.view(x, (8, 32)))
    tl.store(y_ptr + 256 + tl.arange(0, 256), tl.ravel(x))
    tl.store(y_ptr + 512 + tl.arange(0, 4)[:, None] * 64 + tl.arange(0, 64)[None, :], x.reshape(4, 64))


def test_reshape_view_ravel():
    t = ttir(k_reshape, F32)
    reshapes = lines_with(t, "tt.reshape")
    assert any("tensor<16x16xf32> -> tensor<256xf32>" in l for l in reshapes)
    assert any("tensor<16x16xf32> -> tensor<8x32xf32>" in l for l in reshapes)
    assert any("tensor<16x16xf32> -> tensor<4x64xf32>" in l for l in reshapes)
    # tl.view may reorder elements
    assert any("allow_reorder" in l and "tensor<8x32xf32>" in l for l in reshapes)


@triton.jit
def k_trans_permute(x_ptr, y_ptr):
    offs = tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :], tl.trans(x))
    x3 = tl.reshape(x, (4, 4, 32))
    p = tl.permute(x3, (2, 0, 1))
    tl.store(y_ptr + 512 + tl.arange(0, 512), tl.reshape(p, (512,)))


def test_trans_and_permute():
    t = ttir(k_trans_permute, F32)
    assert re.search(r"tt\.trans %[\w#]+ \{order = array<i32: 1, 0>\} : tensor<16x32xf32> -> tensor<32x16xf32>", t)
    assert re.search(r"tt\.trans %[\w#]+ \{order = array<i32: 2, 0, 1>\} : tensor<4x4x32xf32> -> tensor<32x4x4xf32>",
                     t)


@triton.jit
def k_expand_broadcast(x_ptr, y_ptr):
    a = tl.load(x_ptr + tl.arange(0, 32))
    e = tl.expand_dims(a, 0)
    b = tl.broadcast_to(e, (8, 32))
    offs = tl.arange(0, 8)[:, None] * 32 + tl.arange(0, 32)[None, :]
    tl.store(y_ptr + offs, b)
    c = tl.expand_dims(a, 1)
    lhs, rhs = tl.broadcast(c, tl.load(x_ptr + tl.arange(0, 4))[None, :])
    tl.store(y_ptr + 256 + tl.arange(0, 32)[:, None] * 4 + tl.arange(0, 4)[None, :], lhs + rhs)


def test_expand_dims_broadcast_broadcast_to():
    t = ttir(k_expand_broadcast, F32)
    assert re.search(r"tt\.expand_dims %[\w#]+ \{axis = 0 : i32\} : tensor<32xf32> -> tensor<1x32xf32>", t)
    assert re.search(r"tt\.expand_dims %[\w#]+ \{axis = 1 : i32\} : tensor<32xf32> -> tensor<32x1xf32>", t)
    assert re.search(r"tt\.broadcast %[\w#]+ : tensor<1x32xf32> -> tensor<8x32xf32>", t)
    assert re.search(r"tt\.broadcast %[\w#]+ : tensor<32x1xf32> -> tensor<32x4xf32>", t)
    assert re.search(r"tt\.broadcast %[\w#]+ : tensor<1x4xf32> -> tensor<32x4xf32>", t)


@triton.jit
def k_join_split(x_ptr, y_ptr):
    a = tl.load(x_ptr + tl.arange(0, 64))
    b = tl.load(y_ptr + tl.arange(0, 64))
    j = tl.join(a, b)
    lo, hi = tl.split(j * 2.0)
    tl.store(x_ptr + tl.arange(0, 64), lo)
    tl.store(y_ptr + tl.arange(0, 64), hi)
    tl.store(x_ptr + 64 + tl.arange(0, 128), tl.interleave(a, b))
    tl.store(y_ptr + 64 + tl.arange(0, 128), tl.cat(a, b, can_reorder=True))


def test_join_split_interleave_cat():
    t = ttir(k_join_split, F32)
    assert re.search(r"tt\.join %[\w#]+, %[\w#]+ : tensor<64xf32> -> tensor<64x2xf32>", t)
    assert re.search(r"tt\.split %[\w#]+ : tensor<64x2xf32> -> tensor<64xf32>", t)
    # interleave: join, then reshape to 128
    assert re.search(r"tt\.reshape %[\w#]+ : tensor<64x2xf32> -> tensor<128xf32>", t)
    assert re.search(r"tt\.cat %[\w#]+, %[\w#]+ : tensor<64xf32> -> tensor<128xf32>", t)


# ---- reductions and scans ---------------------------------------------------------------------

@triton.jit
def mul_plus_one(a, b):
    return a * b + 1.0


@triton.jit
def k_reductions(x_ptr, y_ptr, OP: tl.constexpr):
    offs = tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :]
    x = tl.load(x_ptr + offs)
    if OP == "sum":
        r = tl.sum(x, axis=1)
    elif OP == "max":
        r = tl.max(x, axis=1)
    elif OP == "min":
        r = tl.min(x, 1)
    elif OP == "method":
        r = x.sum(1)
    else:
        r = tl.reduce(x, 1, mul_plus_one)
    tl.store(y_ptr + tl.arange(0, 16), r)


@pytest.mark.parametrize("op, combine", [("sum", r"arith\.addf"), ("max", r"arith\.maxnumf"),
                                          ("min", r"arith\.minnumf"), ("method", r"arith\.addf"),
                                          ("custom", r"arith\.mulf")])
def test_reduction(op, combine):
    t = ttir(k_reductions, F32, {"OP": op})
    (line,) = lines_with(t, "tt.reduce")
    assert re.search(r"axis = 1", line)
    assert re.search(r"\(tensor<16x32xf32>\) -> tensor<16xf32>", t)
    assert re.search(combine + r" %[\w#]+, %[\w#]+ : f32", t)
    if op == "custom":
        assert re.search(r"arith\.addf %[\w#]+, %[\w#]+ : f32", t)


@triton.jit
def k_sum_all_keep_dims(x_ptr, y_ptr):
    offs = tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr, tl.sum(x))
    tl.store(y_ptr + offs, x - tl.max(x, axis=1, keep_dims=True))


def test_reduce_everything_and_keep_dims():
    t = ttir(k_sum_all_keep_dims, F32)
    assert count(t, "tt.reduce") == 2
    assert re.search(r"\(tensor<512xf32>\) -> f32", t)  # axis=None: flattened, reduced to a scalar
    assert re.search(r"tt\.expand_dims %[\w#]+ \{axis = 1 : i32\} : tensor<16xf32> -> tensor<16x1xf32>", t)


@triton.jit
def k_int_reductions(x_ptr, y_ptr):
    offs = tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + tl.arange(0, 16), tl.xor_sum(x, axis=1))
    tl.store(y_ptr + 16 + tl.arange(0, 16), tl.argmax(x, axis=1))
    tl.store(y_ptr + 32 + tl.arange(0, 32), tl.argmin(x, axis=0))


def test_xor_sum_argmax_argmin_on_integers():
    t = ttir(k_int_reductions, I32)
    assert count(t, "tt.reduce") == 3
    assert re.search(r"arith\.xori %[\w#]+, %[\w#]+ : i32", t)
    # argmax/argmin reduce (value, index) pairs
    assert len(re.findall(r"\(tensor<16x32xi32>, tensor<16x32xi32>\) -> \(tensor<16xi32>, tensor<16xi32>\)", t)) == 1
    assert len(re.findall(r"\(tensor<16x32xi32>, tensor<16x32xi32>\) -> \(tensor<32xi32>, tensor<32xi32>\)", t)) == 1
    assert re.search(r"arith\.cmpi sgt, %[\w#]+, %[\w#]+ : i32", t)
    assert re.search(r"arith\.cmpi slt, %[\w#]+, %[\w#]+ : i32", t)


@triton.jit
def k_argmax_float(x_ptr, y_ptr):
    x = tl.load(x_ptr + tl.arange(0, 128))
    tl.store(y_ptr, tl.argmax(x, 0))


def test_argmax_on_floats():
    t = ttir(k_argmax_float, {"x_ptr": "*fp32", "y_ptr": "*i32"})
    assert re.search(r"\(tensor<128xf32>, tensor<128xi32>\) -> \(f32, i32\)", t)


@triton.jit
def k_scans(x_ptr, y_ptr, OP: tl.constexpr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    if OP == "cumsum":
        r = tl.cumsum(x, 0)
    elif OP == "cumprod":
        r = tl.cumprod(x, 0, reverse=True)
    else:
        r = tl.associative_scan(x, 0, mul_plus_one, reverse=True)
    tl.store(y_ptr + offs, r)


@pytest.mark.parametrize("op, combine, reverse", [("cumsum", r"arith\.addf", "false"),
                                                   ("cumprod", r"arith\.mulf", "true"),
                                                   ("custom", r"arith\.mulf", "true")])
def test_scan(op, combine, reverse):
    t = ttir(k_scans, F32, {"OP": op})
    (line,) = lines_with(t, "tt.scan")
    assert re.search(rf"reverse = {reverse}", line), line
    assert re.search(r"\(tensor<128xf32>\) -> tensor<128xf32>", t)
    assert re.search(combine + r" %[\w#]+, %[\w#]+ : f32", t)
    assert count(t, "tt.scan.return") == 1


@triton.jit
def k_histogram_gather(x_ptr, y_ptr, z_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + tl.arange(0, 8), tl.histogram(x, 8))
    src = tl.load(z_ptr + offs)
    tl.store(z_ptr + offs, tl.gather(src, x, 0))


def test_histogram_and_gather():
    t = ttir(k_histogram_gather, {"x_ptr": "*i32", "y_ptr": "*i32", "z_ptr": "*fp32"})
    assert re.search(r"tt\.histogram %[\w#]+ : tensor<128xi32> -> tensor<8xi32>", t)
    assert re.search(r"tt\.gather %[\w#]+\[%[\w#]+\] \{axis = 0 : i32\} : \(tensor<128xf32>, tensor<128xi32>\) -> "
                     r"tensor<128xf32>", t)


# ---- dot --------------------------------------------------------------------------------------

@triton.jit
def k_dot(a_ptr, b_ptr, c_ptr, PREC: tl.constexpr):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    acc = tl.load(c_ptr + offs)
    tl.store(c_ptr + offs, tl.dot(a, b, acc, input_precision=PREC))


def test_dot_with_accumulator_and_input_precision():
    tf32 = ttir(k_dot, {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32"}, {"PREC": "tf32"})
    ieee = ttir(k_dot, {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32"}, {"PREC": "ieee"})
    (d_tf32,) = lines_with(tf32, "tt.dot")
    (d_ieee,) = lines_with(ieee, "tt.dot")
    for d in (d_tf32, d_ieee):
        # the loaded accumulator is the third operand
        assert re.search(r"tt\.dot %[\w#]+, %[\w#]+, %[\w#]+.* : tensor<32x32xf32> \* tensor<32x32xf32> -> "
                         r"tensor<32x32xf32>", d)
    assert "inputPrecision = tf32" in d_tf32
    assert "tf32" not in d_ieee and ("inputPrecision = ieee" in d_ieee or "inputPrecision" not in d_ieee)
    assert count(tf32, "tt.load") == 3


@triton.jit
def k_dot_out_dtype(a_ptr, b_ptr, c_ptr):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(c_ptr + offs, tl.dot(a, b, out_dtype=tl.float16))
    c = tl.dot(a.to(tl.float8e5), b.to(tl.float8e5), max_num_imprecise_acc=32)
    tl.store(c_ptr + 1024 + offs, c.to(tl.float16))


def test_dot_out_dtype_and_max_num_imprecise_acc():
    t = ttir(k_dot_out_dtype, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"})
    dots = lines_with(t, "tt.dot")
    assert len(dots) == 2
    assert any("tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf16>" in d for d in dots)
    fp8 = next(d for d in dots if "f8E5M2" in d)
    assert "maxNumImpreciseAcc = 32" in fp8
    assert "-> tensor<32x32xf32>" in fp8


@triton.jit
def k_dot_wide_operands(a_ptr, b_ptr, c_ptr):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    c = tl.dot(tl.load(a_ptr + offs), tl.load(b_ptr + offs), out_dtype=tl.float16)
    tl.store(c_ptr + offs, c)


@pytest.mark.parametrize("operand", ["bf16", "fp32"])
def test_dot_of_bf16_or_fp32_operands_is_fp32_whatever_out_dtype_says(operand):
    # Triton's rule: out_dtype chooses the result type of fp16 and fp8 dots only
    t = ttir(k_dot_wide_operands, {"a_ptr": f"*{operand}", "b_ptr": f"*{operand}", "c_ptr": "*fp32"})
    (d,) = lines_with(t, "tt.dot")
    assert "-> tensor<32x32xf32>" in d


@triton.jit
def k_dot_int8(a_ptr, b_ptr, c_ptr):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    tl.store(c_ptr + offs, tl.dot(tl.load(a_ptr + offs), tl.load(b_ptr + offs)))


def test_dot_of_int8_accumulates_in_int32():
    t = ttir(k_dot_int8, {"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*i32"})
    (d,) = lines_with(t, "tt.dot")
    assert "tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>" in d


# ---- block pointers -----------------------------------------------------------------------------

@triton.jit
def k_block_ptr(x_ptr, y_ptr, M, N, sm, sn):
    p = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(sm, sn), offsets=(0, 0), block_shape=(32, 64),
                          order=(1, 0))
    acc = tl.zeros((32, 64), dtype=tl.float32)
    for i in range(0, N, 64):
        acc += tl.load(p, boundary_check=(0, 1), padding_option="zero")
        p = tl.advance(p, (0, 64))
    q = tl.make_block_ptr(y_ptr, shape=(M, N), strides=(sm, sn), offsets=(0, 0), block_shape=(32, 64),
                          order=(1, 0))
    tl.store(q, acc, boundary_check=(0,))


def test_make_block_ptr_and_advance():
    t = ttir(k_block_ptr, {"x_ptr": "*fp32", "y_ptr": "*fp32", "M": "i32", "N": "i32", "sm": "i32", "sn": "i32"})
    assert count(t, "scf.for") == 1
    if "tt.make_tensor_ptr" in t:
        assert count(t, "tt.make_tensor_ptr") == 2
        assert re.search(r"tt\.make_tensor_ptr %x_ptr, \[%[\w#]+, %[\w#]+\], \[%[\w#]+, %[\w#]+\], \[%[\w#]+, %[\w#]+\] "
                         r"\{order = array<i32: 1, 0>\} : !tt\.ptr<tensor<32x64xf32>>", t)
        assert re.search(r"tt\.advance %[\w#]+, \[%[\w#]+, %[\w#]+\] : !tt\.ptr<tensor<32x64xf32>>", t)
        (load,) = lines_with(t, "tt.load")
        assert "boundaryCheck = array<i32: 0, 1>" in load and "padding = 1" in load
        (store,) = lines_with(t, "tt.store")
        assert "boundaryCheck = array<i32: 0>" in store
    else:
        # rewritten to tensors of pointers: boundary checks become masks, padding "zero" an other of 0
        (load,) = lines_with(t, "tt.load")
        assert re.search(r"tt\.load %[\w#]+, %[\w#]+, %[\w#]+ : tensor<32x64x!tt\.ptr<f32>>", load)
        assert re.search(r"tt\.store %[\w#]+, %[\w#]+, %[\w#]+ : tensor<32x64x!tt\.ptr<f32>>", t)


# ---- compiler hints ------------------------------------------------------------------------------

@triton.jit
def k_hints(x_ptr, n, B: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.max_contiguous(tl.multiple_of(pid * B + tl.arange(0, B), B), B)
    base = tl.multiple_of(pid * n, 16)
    c = tl.max_constancy(offs // 4, 4)
    x = tl.load(x_ptr + base + offs)
    tl.store(x_ptr + c, x)


def test_multiple_of_max_contiguous_max_constancy():
    t = ttir(k_hints, {"x_ptr": "*fp32", "n": "i32"}, {"B": 128})
    assert re.search(r"\{[^}]*tt\.contiguity = dense<128> : tensor<1xi32>[^}]*\} : tensor<128xi32>", t)
    assert re.search(r"\{[^}]*tt\.divisibility = dense<128> : tensor<1xi32>[^}]*\} : tensor<128xi32>", t)
    assert re.search(r"arith\.muli %[\w#]+, %[\w#]+ \{tt\.divisibility = dense<16> : tensor<1xi32>\} : i32", t)
    assert re.search(r"\{tt\.constancy = dense<4> : tensor<1xi32>\} : tensor<128xi32>", t)


@triton.jit
def k_assume(x_ptr, n):
    tl.assume(n > 0)
    tl.store(x_ptr, n // 4)


def test_assume():
    t = ttir(k_assume, {"x_ptr": "*i32", "n": "i32"})
    assert re.search(r"llvm\.intr\.assume %[\w#]+ : i1", t)


# ---- debugging ------------------------------------------------------------------------------------

@triton.jit
def k_print(x_ptr, HEX: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 64))
    tl.device_print("x: ", x, hex=HEX)
    tl.store(x_ptr + tl.arange(0, 64), x + 1)


def test_device_print():
    t = ttir(k_print, {"x_ptr": "*i32"}, {"HEX": False})
    (line,) = lines_with(t, "tt.print")
    assert '"x: "' in line and "hex = false" in line and "isSigned = array<i32: 1>" in line
    assert "tensor<64xi32>" in line
    t = ttir(k_print, {"x_ptr": "*u32"}, {"HEX": True})
    (line,) = lines_with(t, "tt.print")
    assert "hex = true" in line and "isSigned = array<i32: 0>" in line


@triton.jit
def k_assert(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 64))
    tl.device_assert(x > 0, "x must be positive")
    assert x < 100, "x too large"
    tl.store(x_ptr + tl.arange(0, 64), x + 1)


def test_device_assert_only_with_debug():
    t = ttir(k_assert, {"x_ptr": "*i32"}, debug=True)
    asserts = lines_with(t, "tt.assert")
    assert len(asserts) == 2
    assert any('"x must be positive"' in a for a in asserts)
    assert any('"x too large"' in a for a in asserts)
    assert all("tensor<64xi1>" in a for a in asserts)
    t = ttir(k_assert, {"x_ptr": "*i32"})
    assert count(t, "tt.assert") == 0
    assert count(t, "tt.store") == 1


@triton.jit
def k_barrier(x_ptr):
    tl.store(x_ptr, 1)
    tl.debug_barrier()
    tl.store(x_ptr + 1, tl.load(x_ptr + 2))


def test_debug_barrier():
    t = ttir(k_barrier, {"x_ptr": "*i32"})
    assert count(t, "gpu.barrier") == 1


@triton.jit
def k_inline_asm(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $1, 3;", "=r,r", [x], dtype=tl.int32, is_pure=True,
                                  pack=1)
    tl.store(y_ptr + offs, y)


def test_inline_asm_elementwise():
    t = ttir(k_inline_asm, I32)
    (line,) = lines_with(t, "tt.elementwise_inline_asm")
    assert '"shf.l.wrap.b32 $0, $1, $1, 3;"' in line
    assert 'constraints = "=r,r"' in line and "packed_element = 1 : i32" in line and "pure = true" in line
    assert "tensor<64xi32> -> tensor<64xi32>" in line


@triton.jit
def k_static(x_ptr, B: tl.constexpr):
    tl.static_assert(B % 16 == 0, "B must be a multiple of 16")
    tl.static_print("block is", B)
    tl.store(x_ptr + tl.arange(0, B), 1)


def test_static_assert_and_static_print(capsys, monkeypatch):
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")  # static_print prints when the kernel is compiled
    t = ttir(k_static, {"x_ptr": "*i32"}, {"B": 32})
    assert "block is 32" in capsys.readouterr().out
    assert count(t, "tt.store") == 1
    with pytest.raises(triton.CompilationError, match="B must be a multiple of 16"):
        ttir(k_static, {"x_ptr": "*i32"}, {"B": 8})


# ---- control flow --------------------------------------------------------------------------------

@triton.jit
def k_runtime_if(x_ptr, n):
    if n > 0:
        v = tl.load(x_ptr) * 2.0
        w = n
    else:
        v = tl.load(x_ptr + 1) + 3.0
        w = n * 7
    tl.store(x_ptr, v + w)


def test_if_else_on_a_runtime_scalar_yields_results():
    t = ttir(k_runtime_if, {"x_ptr": "*fp32", "n": "i32"})
    assert re.search(r"arith\.cmpi sgt, %arg1, %[\w#]+ : i32", t)  # n
    assert re.search(r"scf\.if %[\w#]+ -> \((f32, i32|i32, f32)\)", t), t
    assert count(t, "scf.yield") == 2
    assert re.search(r"\} else \{", t)
    # both branches' loads are inside the if
    body = t[t.index("scf.if"):]
    assert body.count("tt.load") == 2


@triton.jit
def k_if_no_else(x_ptr, n):
    x = tl.load(x_ptr)
    if n > 3:
        x = x + tl.load(x_ptr + n)
    tl.store(x_ptr, x)


def test_if_without_else_merges_the_rebound_value():
    t = ttir(k_if_no_else, {"x_ptr": "*fp32", "n": "i32"})
    assert re.search(r"scf\.if %[\w#]+ -> \(f32\)", t)
    assert re.search(r"tt\.store %arg0, %[\w#]+ : !tt\.ptr<f32>", t)  # x_ptr


@triton.jit
def k_constexpr_if(x_ptr, FLAG: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if FLAG:
        y = tl.sin(x)
    else:
        y = tl.cos(x)
    tl.store(x_ptr + tl.arange(0, 16), y)


def test_if_on_a_constexpr_emits_one_branch():
    t = ttir(k_constexpr_if, {"x_ptr": "*fp32"}, {"FLAG": True})
    assert count(t, "math.sin") == 1 and count(t, "math.cos") == 0 and count(t, "scf.if") == 0
    t = ttir(k_constexpr_if, {"x_ptr": "*fp32"}, {"FLAG": False})
    assert count(t, "math.sin") == 0 and count(t, "math.cos") == 1 and count(t, "scf.if") == 0


@triton.jit
def k_for(x_ptr, lo, hi):
    acc = tl.zeros((16,), dtype=tl.float32)
    for i in range(lo, hi):
        acc += tl.load(x_ptr + i * 16 + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), acc)


def test_for_over_range_with_runtime_bounds_carries_values():
    t = ttir(k_for, {"x_ptr": "*fp32", "lo": "i32", "hi": "i32"})
    assert re.search(r"scf\.for %[\w#]+ = %arg1 to %arg2 step %[\w#]+ iter_args\(%[\w#]+ = %[\w#]+\) -> \(tensor<16xf32>\)", t)
    assert re.search(r"scf\.yield %[\w#]+ : tensor<16xf32>", t)
    assert re.search(r"tt\.store %[\w#]+, %[\w#]+ : tensor<16x!tt\.ptr<f32>>", t)


@triton.jit
def k_for_i64(x_ptr, n):
    for i in range(0, n, 4):
        tl.store(x_ptr + i, i)


def test_for_with_an_i64_bound_has_an_i64_induction_variable():
    t = ttir(k_for_i64, {"x_ptr": "*i64", "n": "i64"})
    assert re.search(r"scf\.for %[\w#]+ = %[\w#]+ to %arg1 step %[\w#]+\s+: i64", t)


@triton.jit
def k_tl_range(x_ptr, n):
    acc = tl.zeros((16,), dtype=tl.float32)
    for j in tl.range(0, n, 2, num_stages=3, loop_unroll_factor=2):
        acc = acc * 2.0 + tl.load(x_ptr + j * 16 + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), acc)


def test_tl_range_options_become_loop_attributes():
    t = ttir(k_tl_range, {"x_ptr": "*fp32", "n": "i32"})
    assert re.search(r"\}\s*\{[^}]*tt\.num_stages = 3 : i32", t)
    if "tt.loop_unroll_factor = 2 : i32" not in t:
        # the TTIR pipeline unrolled it: a loop with two copies of the body and a remainder loop
        assert count(t, "scf.for") >= 2
        assert count(t, "tt.load") >= 3
    else:
        assert count(t, "scf.for") == 1


@triton.jit
def k_static_range(x_ptr, y_ptr):
    acc = tl.zeros((16,), dtype=tl.float32)
    for k in tl.static_range(4):
        acc += tl.load(x_ptr + k * 16 + tl.arange(0, 16))
    for k in tl.static_range(1, 7, 3):
        acc += tl.load(y_ptr + k + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), acc)


def test_static_range_is_unrolled():
    t = ttir(k_static_range, F32)
    assert count(t, "scf.for") == 0
    assert count(t, "tt.load") == 6


@triton.jit
def k_while(x_ptr, n):
    i = 0
    s = 0.0
    while i < n:
        s += tl.load(x_ptr + i)
        i += 1
    tl.store(x_ptr, s)


def test_while_loop():
    t = ttir(k_while, {"x_ptr": "*fp32", "n": "i32"})
    assert re.search(r"scf\.while \(.*\) : \((f32, i32|i32, f32)\) -> \((f32, i32|i32, f32)\)", t)
    assert re.search(r"arith\.cmpi slt, %[\w#]+, %arg1 : i32", t)  # n
    assert count(t, "scf.condition") == 1
    assert re.search(r"\} do \{", t)
    assert re.search(r"tt\.store %arg0, %[\w#]+ : !tt\.ptr<f32>", t)  # x_ptr


@triton.jit
def add_and_mul(a, b):
    return a + b, a * b


@triton.jit
def sub_of_pair(a, b):
    s, p = add_and_mul(a, b)
    return s - p


@triton.jit
def k_nested_calls(x_ptr, y_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    s, p = add_and_mul(x, y)
    tl.store(x_ptr + offs, s)
    tl.store(y_ptr + offs, p)
    tl.store(x_ptr + 16 + offs, sub_of_pair(x, 3.0))


def test_nested_jit_calls_returning_tuples():
    t = ttir(k_nested_calls, F32)
    assert count(t, "tt.store") == 3
    assert re.search(r"arith\.addf %[\w#]+, %[\w#]+ : tensor<16xf32>", t)
    assert re.search(r"arith\.mulf %[\w#]+, %[\w#]+ : tensor<16xf32>", t)
    assert re.search(r"arith\.subf %[\w#]+, %[\w#]+ : tensor<16xf32>", t)
    if "tt.call" in t:  # not inlined: one function per specialization, two results each
        assert re.search(r"%[\w#]+:2 = tt\.call @add_and_mul", t)
        assert len(re.findall(r"tt\.func private @add_and_mul\w*\(", t)) == 2  # (tensor, tensor), (tensor, f32)


@triton.jit
def k_tuples(x_ptr, FLAG: tl.constexpr):
    offs = tl.arange(0, 16)
    t = (tl.load(x_ptr + offs), offs, 2.0)
    a, b, c = t
    pair = (a * c, b)
    y = pair[0] + pair[1].to(tl.float32)
    z = y if FLAG else -y
    tl.store(x_ptr + offs, z)


def test_tuples_and_constexpr_ternary():
    t = ttir(k_tuples, {"x_ptr": "*fp32"}, {"FLAG": True})
    assert re.search(r"arith\.sitofp %[\w#]+ : tensor<16xi32> to tensor<16xf32>", t)
    assert count(t, "arith.negf") == 0 and count(t, "scf.if") == 0
    t = ttir(k_tuples, {"x_ptr": "*fp32"}, {"FLAG": False})
    assert count(t, "arith.negf") == 1


@triton.jit
def k_runtime_ternary(x_ptr, n):
    v = tl.load(x_ptr + n) if n > 3 else tl.load(x_ptr) * 2.0
    tl.store(x_ptr, v)


def test_ternary_on_a_runtime_scalar():
    t = ttir(k_runtime_ternary, {"x_ptr": "*fp32", "n": "i32"})
    assert re.search(r"scf\.if %[\w#]+ -> \(f32\)", t)
    assert count(t, "tt.load") == 2


# ---- type promotion ----------------------------------------------------------------------------

@triton.jit
def k_promote(a_ptr, b_ptr, c_ptr):
    offs = tl.arange(0, 16)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(c_ptr + offs, a + b)


def test_fp16_plus_fp32_computes_in_fp32():
    t = ttir(k_promote, {"a_ptr": "*fp16", "b_ptr": "*fp32", "c_ptr": "*fp32"})
    assert re.search(r"arith\.extf %[\w#]+ : tensor<16xf16> to tensor<16xf32>", t)
    assert re.search(r"arith\.addf %[\w#]+, %[\w#]+ : tensor<16xf32>", t)
    assert not re.search(r"arith\.addf .* : tensor<16xf16>", t)


def test_int8_plus_int16_computes_in_int16():
    t = ttir(k_promote, {"a_ptr": "*i8", "b_ptr": "*i16", "c_ptr": "*i16"})
    assert re.search(r"arith\.extsi %[\w#]+ : tensor<16xi8> to tensor<16xi16>", t)
    assert re.search(r"arith\.addi %[\w#]+, %[\w#]+ : tensor<16xi16>", t)


def test_int32_plus_int64_computes_in_int64():
    t = ttir(k_promote, {"a_ptr": "*i32", "b_ptr": "*i64", "c_ptr": "*i64"})
    assert re.search(r"arith\.extsi %[\w#]+ : tensor<16xi32> to tensor<16xi64>", t)
    assert re.search(r"arith\.addi %[\w#]+, %[\w#]+ : tensor<16xi64>", t)


def test_bf16_plus_fp16_computes_in_fp16():
    # Triton's rule 3: "if one operand is half, the other is implicitly converted to half"
    t = ttir(k_promote, {"a_ptr": "*bf16", "b_ptr": "*fp16", "c_ptr": "*fp32"})
    assert re.search(r"arith\.addf %[\w#]+, %[\w#]+ : tensor<16xf16>", t)
    assert not re.search(r"arith\.addf .* : tensor<16xbf16>", t)


def test_bf16_plus_bf16_stays_bf16():
    t = ttir(k_promote, {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*bf16"})
    assert re.search(r"arith\.addf %[\w#]+, %[\w#]+ : tensor<16xbf16>", t)


@triton.jit
def k_scalar_ops(h_ptr, i_ptr):
    offs = tl.arange(0, 16)
    h = tl.load(h_ptr + offs)
    i = tl.load(i_ptr + offs)
    tl.store(h_ptr + offs, h * 2.0)
    tl.store(i_ptr + offs, i + 1)


def test_python_scalars_do_not_widen_tensors():
    t = ttir(k_scalar_ops, {"h_ptr": "*fp16", "i_ptr": "*i32"})
    assert re.search(r"arith\.mulf %[\w#]+, %[\w#]+ : tensor<16xf16>", t)
    assert count(t, "arith.extf") == 0 and count(t, "arith.truncf") == 0
    assert re.search(r"arith\.addi %[\w#]+, %[\w#]+ : tensor<16xi32>", t)
    assert count(t, "arith.extsi") == 0 and "i64" not in t


@triton.jit
def k_compare(a_ptr, b_ptr, c_ptr):
    offs = tl.arange(0, 16)
    tl.store(c_ptr + offs, (tl.load(a_ptr + offs) < tl.load(b_ptr + offs)).to(tl.int32))


def test_unsigned_vs_signed_compare_is_unsigned():
    t = ttir(k_compare, {"a_ptr": "*u32", "b_ptr": "*i32", "c_ptr": "*i32"})
    assert re.search(r"arith\.cmpi ult, %[\w#]+, %[\w#]+ : tensor<16xi32>", t)
    t = ttir(k_compare, {"a_ptr": "*i32", "b_ptr": "*i32", "c_ptr": "*i32"})
    assert re.search(r"arith\.cmpi slt, %[\w#]+, %[\w#]+ : tensor<16xi32>", t)
    t = ttir(k_compare, {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*i32"})
    assert re.search(r"arith\.cmpf olt, %[\w#]+, %[\w#]+ : tensor<16xf32>", t)


@triton.jit
def k_int_div(a_ptr, b_ptr, c_ptr):
    offs = tl.arange(0, 16)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(c_ptr + offs, a // b + a % b)
    tl.store(c_ptr + 16 + offs, (a / b).to(tl.int32))


def test_integer_division_and_true_division():
    t = ttir(k_int_div, {"a_ptr": "*i32", "b_ptr": "*i32", "c_ptr": "*i32"})
    assert re.search(r"arith\.divsi %[\w#]+, %[\w#]+ : tensor<16xi32>", t)
    assert re.search(r"arith\.remsi %[\w#]+, %[\w#]+ : tensor<16xi32>", t)
    assert re.search(r"arith\.divf %[\w#]+, %[\w#]+ : tensor<16xf32>", t)  # int / int is a float division


@triton.jit
def k_shifts(u_ptr, i_ptr):
    offs = tl.arange(0, 16)
    u = tl.load(u_ptr + offs)
    i = tl.load(i_ptr + offs)
    tl.store(u_ptr + offs, (u >> 1) + (u << 2))
    tl.store(i_ptr + offs, i >> 1)


def test_right_shift_follows_signedness():
    t = ttir(k_shifts, {"u_ptr": "*u32", "i_ptr": "*i32"})
    assert re.search(r"arith\.shrui %[\w#]+, %[\w#]+ : tensor<16xi32>", t)
    assert re.search(r"arith\.shrsi %[\w#]+, %[\w#]+ : tensor<16xi32>", t)
    assert re.search(r"arith\.shli %[\w#]+, %[\w#]+ : tensor<16xi32>", t)


@triton.jit
def k_unsigned_div_by_literal(u_ptr):
    offs = tl.arange(0, 16)
    u = tl.load(u_ptr + offs)
    tl.store(u_ptr + offs, u // 3 + u % 5)


def test_unsigned_tensor_divided_by_a_python_int():
    t = ttir(k_unsigned_div_by_literal, {"u_ptr": "*u32"})
    assert re.search(r"arith\.divui %[\w#]+, %[\w#]+ : tensor<16xi32>", t)
    assert re.search(r"arith\.remui %[\w#]+, %[\w#]+ : tensor<16xi32>", t)


# ---- specialization ------------------------------------------------------------------------------

@triton.jit
def k_spec(x_ptr, a, b, c, d, e, f, g, h):
    tl.store(x_ptr, a + b + c + d + e)


class FakeTensor:
    """A stand-in for a torch tensor: a device address and a dtype."""

    class _DType:
        def __init__(self, name):
            self.name = name

        def __str__(self):
            return self.name

    def __init__(self, address, dtype="torch.float32"):
        self.address = address
        self.dtype = FakeTensor._DType(dtype)

    def data_ptr(self):
        return self.address


def test_specialization_of_runtime_arguments():
    sig, constexprs, attrs = k_spec.specialization(
        [FakeTensor(0x10000), 1, 32, 7, 2**40, 2**63 + 5, True, 1.5, None])
    assert sig == {"x_ptr": "*fp32", "a": "constexpr", "b": "i32", "c": "i32", "d": "i64", "e": "u64",
                   "f": "i1", "g": "fp32", "h": "constexpr"}
    assert constexprs == {"a": 1, "h": None}
    assert attrs == {"x_ptr": [["tt.divisibility", 16]], "b": [["tt.divisibility", 16]],
                     "d": [["tt.divisibility", 16]]}
    # a misaligned pointer, and negative and large i32 values
    sig, constexprs, attrs = k_spec.specialization(
        [FakeTensor(0x10004, "torch.float16"), -1, -32, 2**31 - 1, -2**31 - 1, 0, False, 0.0, 3])
    assert sig["x_ptr"] == "*fp16" and "x_ptr" not in attrs
    assert sig["a"] == "i32" and sig["b"] == "i32" and attrs["b"] == [["tt.divisibility", 16]]
    assert sig["c"] == "i32" and sig["d"] == "i64" and sig["e"] == "i32"
    assert attrs["e"] == [["tt.divisibility", 16]]  # 0 is a multiple of 16


@triton.jit
def k_constexpr_in_the_middle(x_ptr, s, n):
    tl.store(x_ptr + s, n)


# A constexpr parameter (e.g. an argument specialized to 1) before runtime
# parameters must not shift the runtime parameters or their attributes.
def test_constexpr_parameter_before_a_runtime_parameter():
    t = ttir(k_constexpr_in_the_middle, {"x_ptr": "*i32", "s": "constexpr", "n": "i32"}, {"s": 1},
             attrs={"n": [["tt.divisibility", 16]]})
    header = kernel_header(t, "k_constexpr_in_the_middle")
    assert re.search(r"\(%arg0: !tt\.ptr<i32>, %arg1: i32 \{tt\.divisibility = 16 : i32\}\)", header)  # x_ptr, n
    assert re.search(r"tt\.store %[\w#]+, %arg1 : !tt\.ptr<i32>", t)


def test_specialization_compiles_with_its_attributes():
    sig, constexprs, attrs = k_spec.specialization(
        [FakeTensor(0x10000), 1, 32, 7, 2**40, 5, True, 1.5, None])
    t = strip_locations(triton.compile(ASTSource(k_spec, sig, constexprs, attrs)).asm["ttir"])
    header = kernel_header(t, "k_spec")
    # `a` == 1 and `h` is None became constants: 7 runtime arguments remain
    assert len(re.findall(r"%\w+: ", header)) == 7  # the runtime parameters x_ptr, b, c, d, e, f, g
    assert re.search(r"%arg0: !tt\.ptr<f32> \{tt\.divisibility = 16 : i32\}", header)
    assert re.search(r"%arg1: i32 \{tt\.divisibility = 16 : i32\}", header)
    assert re.search(r"%arg2: i32[,)]", header)
    assert re.search(r"%arg3: i64 \{tt\.divisibility = 16 : i32\}", header)
    assert re.search(r"%arg5: i1[,)]", header) and re.search(r"%arg6: f32[,)]", header)


@triton.jit(do_not_specialize=["b", 3])
def k_dns(x_ptr, a, b, c):
    tl.store(x_ptr, a + b + c)


def test_do_not_specialize():
    sig, constexprs, attrs = k_dns.specialization([FakeTensor(0x10000), 1, 1, 32])
    assert sig["a"] == "constexpr" and constexprs["a"] == 1
    assert sig["b"] == "i32" and sig["c"] == "i32"
    assert "b" not in attrs and "c" not in attrs


@triton.jit
def k_bind(x_ptr, n, scale=2.0, BLOCK: tl.constexpr = 64):
    tl.store(x_ptr + tl.arange(0, BLOCK), n * scale)


def test_bind_fills_defaults_and_keywords():
    x = FakeTensor(0x1000)
    assert k_bind.bind((x, 5), {}) == [x, 5, 2.0, 64]
    assert k_bind.bind((x,), {"n": 3, "BLOCK": 128}) == [x, 3, 2.0, 128]
    sig, constexprs, attrs = k_bind.specialization(k_bind.bind((x, 16), {"BLOCK": 32}))
    assert sig == {"x_ptr": "*fp32", "n": "i32", "scale": "fp32", "BLOCK": "constexpr"}
    assert constexprs == {"BLOCK": 32}
    assert attrs == {"x_ptr": [["tt.divisibility", 16]], "n": [["tt.divisibility", 16]]}


def test_warmup_compiles_the_launch_specialization():
    try:
        k = k_bind.warmup(FakeTensor(0x1000), 16, BLOCK=32, grid=(1,))
    except triton.CompilationError:
        raise
    except Exception as e:  # warmup asks the driver for the current device's target, as in Triton
        if "GPU" in str(e) or "CUDA" in str(e) or "cuda" in str(e):
            pytest.skip(f"warmup needs a GPU here: {e}")
        raise
    t = k.asm["ttir"]
    assert "tt.make_range {end = 32 : i32, start = 0 : i32}" in t
    header = kernel_header(t, "k_bind")
    assert header.count("tt.divisibility = 16 : i32") == 2
    # a second warmup with the same specialization reuses the kernel
    assert k_bind.warmup(FakeTensor(0x2000), 32, BLOCK=32, grid=(1,)) is k


BLOCK_G = tl.constexpr(16)


@triton.jit
def k_global_constexpr(x_ptr):
    tl.store(x_ptr + tl.arange(0, BLOCK_G), 1)


def test_changing_a_global_constexpr_is_not_served_stale(monkeypatch):
    import sys
    assert "tensor<16xi32>" in ttir(k_global_constexpr, {"x_ptr": "*i32"})
    monkeypatch.setattr(sys.modules[__name__], "BLOCK_G", tl.constexpr(32))
    try:
        t = ttir(k_global_constexpr, {"x_ptr": "*i32"})
    except triton.TritiumError as e:  # Triton refuses a global that changed since the kernel compiled
        assert "BLOCK_G" in str(e)
        return
    assert "tensor<32xi32>" in t and "tensor<16xi32>" not in t


# ---- Triton's compile API, targets, autotuning objects ---------------------------------------------

@triton.jit
def k_ast(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offs, mask=offs < n)


def test_ast_source_and_gpu_target():
    src = ASTSource(k_ast, {"x_ptr": "*i32", "n": "i32"}, {"BLOCK": 256})
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32))
    assert "tt.make_range {end = 256 : i32, start = 0 : i32}" in k.asm["ttir"]
    assert k.metadata["target"] == "cuda:90"
    # the same through triton.compiler.compiler, as Triton users spell it
    k = triton.compile(triton.compiler.compiler.ASTSource(k_ast, {0: "*i32", 1: "i32"}, {(2,): 64}),
                       target=triton.compiler.compiler.GPUTarget("cuda", 80, 32))
    assert "tensor<64xi32>" in k.asm["ttir"] and k.metadata["target"] == "cuda:80"


@pytest.mark.parametrize("target", ["cuda:12", "hip:90", "cuda", "sm_90", GPUTarget("hip", 90, 64),
                                    GPUTarget("cuda", 90, 64)])
def test_bad_targets_raise(target):
    with pytest.raises(triton.TritiumError):
        triton.compile(k_ast, signature={"x_ptr": "*i32", "n": "i32"}, constexprs={"BLOCK": 64}, target=target)


def test_config_autotune_and_heuristics_objects():
    configs = [triton.Config({"BLOCK": 128}, num_warps=4), triton.Config({"BLOCK": 256}, num_warps=8, num_stages=2)]
    assert configs[1].kwargs == {"BLOCK": 256} and configs[1].num_warps == 8 and configs[1].num_stages == 2
    assert configs[1].all_kwargs()["BLOCK"] == 256 and configs[1].all_kwargs()["num_warps"] == 8
    assert "BLOCK: 256" in str(configs[1])

    @triton.autotune(configs=configs, key=["n"])
    @triton.jit
    def tuned(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, offs, mask=offs < n)

    assert isinstance(tuned, triton.Autotuner)
    assert tuned.configs is configs and tuned.keys == ["n"]
    assert tuned.arg_names == ["x_ptr", "n", "BLOCK"]
    assert isinstance(tuned.fn, triton.JITFunction)

    @triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n"])})
    @triton.jit
    def heuristic(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, offs, mask=offs < n)

    assert isinstance(heuristic, triton.Heuristics)
    assert list(heuristic.values) == ["BLOCK"]

    class Recorder:
        """Stands in for the JITFunction: records what the heuristic passes on."""
        arg_names = ["x_ptr", "n", "BLOCK"]

        def run(self, *args, **kwargs):
            self.args, self.kwargs = args, kwargs

    recorder = Recorder()
    wrapped = triton.Heuristics(recorder, recorder.arg_names, heuristic.values)
    wrapped.run(FakeTensor(0x1000, "torch.int32"), 100, grid=(1,))
    assert recorder.kwargs["BLOCK"] == 128 and recorder.kwargs["grid"] == (1,)
    # the heuristic's value compiles into the kernel
    t = triton.compile(heuristic.fn, signature={"x_ptr": "*i32", "n": "i32"},
                       constexprs={"BLOCK": recorder.kwargs["BLOCK"]}).asm["ttir"]
    assert "tt.make_range {end = 128 : i32, start = 0 : i32}" in t

    # as in Triton, early_config_prune(configs, named_args, **kwargs)
    seen = {}

    def early(cs, named_args, **kwargs):
        seen.update(named_args=named_args, kwargs=kwargs)
        return cs[:1]
    pruned = triton.autotune(configs=configs, key=["n"], prune_configs_by={"early_config_prune": early})(tuned.fn)
    pruned.nargs = {"x_ptr": None, "n": 4}
    assert pruned.prune_configs({"BLOCK2": 4}) == configs[:1]
    assert seen == {"named_args": {"x_ptr": None, "n": 4}, "kwargs": {"BLOCK2": 4}}
