"""Atomics compiled for cuda:90 (and cuda:80) without a GPU: the PTX `atom`
instruction each tl.atomic_* becomes (operation, type, packing, `.sem` and
`.scope` qualifiers, predication by the mask), ptxas accepting it, and the
CompilationError, at the user's line, for atomics PTX does not have or for
bad `sem` / `scope` strings."""
import inspect
import os
import re

import pytest

import tritium as triton
import tritium.language as tl

import conftest

THIS_FILE = os.path.abspath(__file__)
ALIGNED = [["tt.divisibility", 16]]


def compile_ptx(fn, signature, constexprs=None, aligned=(), target="cuda:90", num_warps=4):
    attrs = {name: ALIGNED for name in aligned}
    kernel = triton.compile(fn, signature=signature, constexprs=constexprs or {}, attrs=attrs, target=target,
                            num_warps=num_warps)
    return kernel


def atoms(kernel):
    """The atom instructions of the kernel's PTX, predicates and operands stripped."""
    found = []
    for line in kernel.asm["ptx"].splitlines():
        m = re.match(r"\s*(?:@!?%p\d+\s+)?(atom\.[\w.]+)", line)
        if m:
            found.append(m.group(1))
    return found


def assert_cubin(kernel):
    # ptxas accepted the PTX whenever a cubin is produced; without ptxas there is none.
    if "cubin" in kernel.asm:
        assert len(kernel.asm["cubin"]) > 0


# ---- add ------------------------------------------------------------------------------------------

@triton.jit
def k_add(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    old = tl.atomic_add(x_ptr + offs, tl.load(y_ptr + offs, mask=mask), mask=mask)
    tl.store(y_ptr + offs, old, mask=mask)


@pytest.mark.parametrize("ty, atom", [
    ("fp32", "atom.global.gpu.acq_rel.add.f32"),
    ("fp64", "atom.global.gpu.acq_rel.add.f64"),
    ("fp16", "atom.global.gpu.acq_rel.add.noftz.f16"),
    ("bf16", "atom.global.gpu.acq_rel.add.noftz.bf16"),
    ("i32", "atom.global.gpu.acq_rel.add.u32"),
    ("u32", "atom.global.gpu.acq_rel.add.u32"),
    ("i64", "atom.global.gpu.acq_rel.add.u64"),
    ("u64", "atom.global.gpu.acq_rel.add.u64"),
])
def test_add_of_each_type_unaligned(ty, atom):
    # no alignment known: one element per instruction
    k = compile_ptx(k_add, {"x_ptr": f"*{ty}", "y_ptr": f"*{ty}", "n": "i32"}, {"BLOCK": 256})
    assert set(atoms(k)) == {atom}
    assert_cubin(k)


@pytest.mark.parametrize("ty, block, atom", [
    ("fp16", 256, "atom.global.gpu.acq_rel.add.noftz.f16x2"),
    ("bf16", 256, "atom.global.gpu.acq_rel.add.noftz.bf16x2"),
    ("fp16", 1024, "atom.global.gpu.acq_rel.add.noftz.v4.f16x2"),
    ("fp16", 512, "atom.global.gpu.acq_rel.add.noftz.v2.f16x2"),
    ("fp32", 256, "atom.global.gpu.acq_rel.add.v2.f32"),
    ("fp32", 512, "atom.global.gpu.acq_rel.add.v4.f32"),
])
def test_float_add_is_packed_when_aligned(ty, block, atom):
    k = compile_ptx(k_add, {"x_ptr": f"*{ty}", "y_ptr": f"*{ty}", "n": "i32"}, {"BLOCK": block},
                    aligned=("x_ptr", "y_ptr", "n"))
    assert set(atoms(k)) == {atom}, atoms(k)
    assert_cubin(k)


def test_packing_needs_a_mask_uniform_over_the_pair():
    # n not known to be even: the mask may cut a pair, so f16 stays unpacked
    k = compile_ptx(k_add, {"x_ptr": "*fp16", "y_ptr": "*fp16", "n": "i32"}, {"BLOCK": 256},
                    aligned=("x_ptr", "y_ptr"))
    assert set(atoms(k)) == {"atom.global.gpu.acq_rel.add.noftz.f16"}


def test_sm80_has_no_vector_atoms():
    k = compile_ptx(k_add, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"}, {"BLOCK": 512},
                    aligned=("x_ptr", "y_ptr", "n"), target="cuda:80")
    assert set(atoms(k)) == {"atom.global.gpu.acq_rel.add.f32"}
    k = compile_ptx(k_add, {"x_ptr": "*fp16", "y_ptr": "*fp16", "n": "i32"}, {"BLOCK": 512},
                    aligned=("x_ptr", "y_ptr", "n"), target="cuda:80")
    assert set(atoms(k)) == {"atom.global.gpu.acq_rel.add.noftz.f16x2"}
    assert_cubin(k)


def test_masked_atomics_are_predicated():
    k = compile_ptx(k_add, {"x_ptr": "*i32", "y_ptr": "*i32", "n": "i32"}, {"BLOCK": 128})
    lines = [l for l in k.asm["ptx"].splitlines() if "atom." in l]
    assert lines and all(re.match(r"\s*@%p\d+ atom\.", l) for l in lines), lines


# ---- sem and scope ---------------------------------------------------------------------------------

@triton.jit
def k_add_sem_scope(x_ptr, SEM: tl.constexpr, SCOPE: tl.constexpr):
    offs = tl.arange(0, 128)
    tl.atomic_add(x_ptr + offs, 1, sem=SEM, scope=SCOPE)


@pytest.mark.parametrize("sem", ["relaxed", "acquire", "release", "acq_rel"])
@pytest.mark.parametrize("scope", ["cta", "gpu", "sys"])
def test_sem_and_scope_qualifiers(sem, scope):
    k = compile_ptx(k_add_sem_scope, {"x_ptr": "*i32"}, {"SEM": sem, "SCOPE": scope})
    assert set(atoms(k)) == {f"atom.global.{scope}.{sem}.add.u32"}
    assert_cubin(k)


# ---- max / min -------------------------------------------------------------------------------------

@triton.jit
def k_max_min(x_ptr, y_ptr, out_ptr):
    offs = tl.arange(0, 128)
    v = tl.load(y_ptr + offs)
    a = tl.atomic_max(x_ptr + offs, v)
    b = tl.atomic_min(x_ptr + 128 + offs, v, sem="relaxed", scope="cta")
    tl.store(out_ptr + offs, a)
    tl.store(out_ptr + 128 + offs, b)


@pytest.mark.parametrize("ty, expected", [
    ("i32", ["atom.global.gpu.acq_rel.max.s32", "atom.global.cta.relaxed.min.s32"]),
    ("u32", ["atom.global.gpu.acq_rel.max.u32", "atom.global.cta.relaxed.min.u32"]),
    ("i64", ["atom.global.gpu.acq_rel.max.s64", "atom.global.cta.relaxed.min.s64"]),
    ("u64", ["atom.global.gpu.acq_rel.max.u64", "atom.global.cta.relaxed.min.u64"]),
    # floats: signed max / unsigned min on the bits (max), signed min / unsigned max (min)
    ("fp32", ["atom.global.gpu.acq_rel.max.s32", "atom.global.gpu.acq_rel.min.u32",
              "atom.global.cta.relaxed.min.s32", "atom.global.cta.relaxed.max.u32"]),
    ("fp64", ["atom.global.gpu.acq_rel.max.s64", "atom.global.gpu.acq_rel.min.u64",
              "atom.global.cta.relaxed.min.s64", "atom.global.cta.relaxed.max.u64"]),
])
def test_max_min(ty, expected):
    k = compile_ptx(k_max_min, {"x_ptr": f"*{ty}", "y_ptr": f"*{ty}", "out_ptr": f"*{ty}"})
    assert sorted(set(atoms(k))) == sorted(expected)
    assert_cubin(k)


def test_float_max_splits_on_the_sign_bit():
    # the split is an integer comparison of the bits (so -0.0 takes the negative path), not `val >= 0.0`
    ttir = triton.compile(k_max_min, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32"},
                          target="cuda:90", stop_after="ttir").asm["ttir"]
    assert re.search(r"arith\.cmpi sge, %[\w#]+, %[\w#]+ : tensor<128xi32>", ttir)
    assert "arith.cmpf" not in ttir


# ---- bitwise, xchg, cas ----------------------------------------------------------------------------

@triton.jit
def k_bitwise(x_ptr, out_ptr):
    offs = tl.arange(0, 128)
    a = tl.atomic_and(x_ptr + offs, 6, sem="acquire")
    b = tl.atomic_or(x_ptr + offs, 1, scope="sys")
    c = tl.atomic_xor(x_ptr + offs, 3, sem="release", scope="cta")
    tl.store(out_ptr + offs, a + b + c)


@pytest.mark.parametrize("ty, bits", [("i32", 32), ("u32", 32), ("i64", 64)])
def test_and_or_xor(ty, bits):
    k = compile_ptx(k_bitwise, {"x_ptr": f"*{ty}", "out_ptr": f"*{ty}"})
    assert sorted(set(atoms(k))) == sorted([f"atom.global.gpu.acquire.and.b{bits}",
                                            f"atom.global.sys.acq_rel.or.b{bits}",
                                            f"atom.global.cta.release.xor.b{bits}"])
    assert_cubin(k)


@triton.jit
def k_xchg(x_ptr, y_ptr, out_ptr):
    offs = tl.arange(0, 128)
    old = tl.atomic_xchg(x_ptr + offs, tl.load(y_ptr + offs))
    tl.store(out_ptr + offs, old)


@pytest.mark.parametrize("ty, suffix", [("i32", "b32"), ("fp32", "b32"), ("i64", "b64"), ("fp64", "b64")])
def test_xchg(ty, suffix):
    k = compile_ptx(k_xchg, {"x_ptr": f"*{ty}", "y_ptr": f"*{ty}", "out_ptr": f"*{ty}"})
    assert set(atoms(k)) == {f"atom.global.gpu.acq_rel.exch.{suffix}"}
    assert_cubin(k)


@triton.jit
def k_cas_scalar(lock_ptr, out_ptr):
    old = tl.atomic_cas(lock_ptr, 0, 1, sem="acquire", scope="gpu")
    tl.store(out_ptr, old)


@triton.jit
def k_cas_tensor(x_ptr, cmp_ptr, out_ptr):
    offs = tl.arange(0, 128)
    old = tl.atomic_cas(x_ptr + offs, tl.load(cmp_ptr + offs), tl.load(out_ptr + offs))
    tl.store(out_ptr + offs, old)


@pytest.mark.parametrize("ty, suffix", [("i32", "b32"), ("i64", "b64"), ("fp32", "b32"), ("fp16", "b16"),
                                        ("i16", "b16")])
def test_cas(ty, suffix):
    k = compile_ptx(k_cas_scalar, {"lock_ptr": f"*{ty}", "out_ptr": f"*{ty}"})
    assert set(atoms(k)) == {f"atom.global.acquire.cas.{suffix}"}
    # the scalar's old value reaches every thread through shared memory
    assert "bar.sync" in k.asm["ptx"]
    assert_cubin(k)
    k = compile_ptx(k_cas_tensor, {"x_ptr": f"*{ty}", "cmp_ptr": f"*{ty}", "out_ptr": f"*{ty}"})
    assert set(atoms(k)) == {f"atom.global.acq_rel.cas.{suffix}"}
    assert_cubin(k)


@triton.jit
def k_scalar_add(x_ptr, out_ptr):
    old = tl.atomic_add(x_ptr, 1.0, mask=tl.program_id(0) < 4)
    tl.store(out_ptr + tl.program_id(0), old)


def test_scalar_add_runs_once_per_program():
    k = compile_ptx(k_scalar_add, {"x_ptr": "*fp32", "out_ptr": "*fp32"})
    assert atoms(k) == ["atom.global.gpu.acq_rel.add.f32"]
    assert_cubin(k)


# ---- errors --------------------------------------------------------------------------------------

def where_in(fn, needle):
    lines, start = inspect.getsourcelines(fn.fn)
    for i, line in enumerate(lines):
        if i > 1 and needle in line:
            return start + i, line.index(needle) + 1, line.rstrip("\n")
    raise AssertionError(needle)


def assert_located(error, fn, needle, message):
    conftest.assert_located(error, THIS_FILE, *where_in(fn, needle), message)


def compile_error(fn, signature, constexprs=None, target="cuda:90"):
    with pytest.raises(triton.CompilationError) as info:
        triton.compile(fn, signature=signature, constexprs=constexprs or {}, target=target)
    return info.value


@triton.jit
def e_op(x_ptr, OP: tl.constexpr):
    offs = tl.arange(0, 64)
    if OP == "add":
        tl.atomic_add(x_ptr + offs, 1)
    elif OP == "max":
        tl.atomic_max(x_ptr + offs, 1)
    elif OP == "and":
        tl.atomic_and(x_ptr + offs, 1)
    elif OP == "xchg":
        tl.atomic_xchg(x_ptr + offs, 1)
    else:
        tl.atomic_cas(x_ptr + offs, 1, 2)


@pytest.mark.parametrize("op, ty", [
    ("add", "i8"), ("add", "i16"), ("add", "u16"), ("add", "i1"), ("add", "fp8e5"),
    ("max", "fp16"), ("max", "bf16"), ("max", "i16"),
    ("and", "fp32"), ("and", "i16"), ("xchg", "fp16"), ("cas", "i8"),
])
def test_unsupported_dtype_is_an_error_at_the_call(op, ty):
    e = compile_error(e_op, {"x_ptr": f"*{ty}"}, {"OP": op})
    name = {"i8": "int8", "i16": "int16", "u16": "uint16", "i1": "int1", "fp8e5": "fp8e5", "fp16": "fp16",
            "bf16": "bf16", "fp32": "fp32"}[ty]
    assert_located(e, e_op, f"tl.atomic_{op}", rf"atomic_{op} does not support {name}")


@triton.jit
def e_sem(x_ptr, SEM: tl.constexpr, SCOPE: tl.constexpr):
    offs = tl.arange(0, 64)
    tl.atomic_add(x_ptr + offs, 1, sem=SEM, scope=SCOPE)


@pytest.mark.parametrize("sem, scope, message", [
    ("seq_cst", "gpu", r"sem must be one of .*'seq_cst'"),
    ("ACQUIRE", "gpu", r"sem must be one of .*'ACQUIRE'"),
    ("relaxed", "device", r"scope must be one of .*'device'"),
    ("relaxed", "cluster", r"scope must be one of .*'cluster'"),
    (1, "gpu", r"sem must be one of .*1"),
])
def test_bad_sem_or_scope_is_an_error_at_the_call(sem, scope, message):
    e = compile_error(e_sem, {"x_ptr": "*i32"}, {"SEM": sem, "SCOPE": scope})
    assert_located(e, e_sem, "tl.atomic_add", message)


@triton.jit
def e_not_a_pointer(n):
    tl.atomic_add(n, 1)


def test_atomic_on_a_non_pointer_is_an_error():
    e = compile_error(e_not_a_pointer, {"n": "i32"})
    assert_located(e, e_not_a_pointer, "tl.atomic_add", r"atomics need a pointer")


@triton.jit
def e_bf16_add(x_ptr):
    tl.atomic_add(x_ptr + tl.arange(0, 64), 1.0)


def test_bf16_add_before_sm90_is_an_error_at_the_call():
    e = compile_error(e_bf16_add, {"x_ptr": "*bf16"}, target="cuda:80")
    assert_located(e, e_bf16_add, "tl.atomic_add", r"atomic add of bf16 needs sm_90")
