"""tl.dot compiled without a GPU: the tutorial matmul (tutorial 03,
bench/kernels/tutorials.py) for cuda:90 runs on wgmma with cp.async
pipelining (PTX wgmma.mma_async, cp.async.cg, commit and wait groups, an
asynchronous MMA wait), for cuda:80 on mma.sync.m16n8k16 fed by ldmatrix,
also pipelined; small or exact-fp32 dots on FMAs; ptxas accepts every
one.  Bad dots fail at the user's tl.dot line."""
import inspect
import os
import re
import sys

import pytest

import tritium as triton
import tritium.language as tl
from kernels.attention import attention_kernel
from kernels.gated_state_scan import gated_state_scan
from kernels.masked_matmul import rows_cols_masked_matmul

THIS_FILE = os.path.abspath(__file__)

sys.path.insert(0, os.path.join(os.path.dirname(THIS_FILE), "..", "..", "..", "bench"))
from kernel_sources import load_kernels  # noqa: E402

matmul_kernel = load_kernels("tutorials.py", triton, tl, "tritium").matmul_kernel

NAMES = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn",
         "stride_cm", "stride_cn"]


def compile_matmul(dtype, target, num_warps=4, num_stages=3, block=(128, 128, 64)):
    signature = dict(zip(NAMES, [f"*{dtype}"] * 2 + ["*fp16"] + ["i32"] * 9))
    # What launching with 16-divisible sizes and contiguous rows specializes.
    attrs = {n: [["tt.divisibility", 16]] for n in ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am",
                                                  "stride_bk", "stride_cm"]}
    constexprs = {"BLOCK_SIZE_M": block[0], "BLOCK_SIZE_N": block[1], "BLOCK_SIZE_K": block[2], "GROUP_SIZE_M": 8,
                  "ACTIVATION": "", "stride_ak": 1, "stride_bn": 1, "stride_cn": 1}
    return triton.compile(matmul_kernel, signature=signature, constexprs=constexprs, attrs=attrs, target=target,
                          num_warps=num_warps, num_stages=num_stages)


def test_hopper_matmul_runs_on_pipelined_asynchronous_wgmma():
    k = compile_matmul("fp16", "cuda:90", num_warps=8)
    ptx, ttgir = k.asm["ptx"], k.asm["ttgir"]
    assert "nvidia_mma<{versionMajor = 3" in ttgir and "ttg.warp_group_dot" in ttgir
    # 64 of K per iteration, 16 per instruction; 8 warps: two warpgroups of 64 rows.
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16") == 4
    assert "cp.async.cg.shared.global" in ptx and "cp.async.commit_group" in ptx
    assert "cp.async.wait_group 1" in ptx  # 3 stages: one group may stay in flight
    assert "wgmma.wait_group.sync.aligned 1" in ptx and "wgmma.wait_group.sync.aligned 0" in ptx
    assert "cubin" in k.asm


@pytest.mark.parametrize("target,instruction", [("cuda:90", "wgmma.mma_async"), ("cuda:80", "mma.sync.aligned")])
def test_loads_masked_the_same_in_every_iteration_are_pipelined(target, instruction):
    # Masks on M and N only (K a multiple of the block) are defined before
    # the K loop; pipelining their loads once crashed the compiler.
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32"}
    k = triton.compile(rows_cols_masked_matmul, signature=sig, constexprs={"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64},
                       attrs={n: [["tt.divisibility", 16]] for n in ("a_ptr", "b_ptr", "c_ptr", "K")},
                       target=target, num_warps=4, num_stages=3)
    ptx = k.asm["ptx"]
    assert instruction in ptx and "cp.async.cg.shared.global" in ptx and "cp.async.wait_group 1" in ptx


def test_one_stage_is_not_pipelined():
    k = compile_matmul("fp16", "cuda:90", num_stages=1)
    assert "cp.async" not in k.asm["ptx"] and "wgmma.mma_async" in k.asm["ptx"]


def test_pointer_offsets_are_widened_once_not_by_wide_multiplies():
    # PTXWideShifts.cpp: NVPTX's `mul.wide.s32 x, 2` for the loop's
    # per-thread offsets lets ptxas redo the widening multiply-add in every
    # iteration; the PTX widens them once (cvt + shl), as Triton's does.
    k = compile_matmul("fp16", "cuda:90", block=(128, 128, 32), num_stages=4)
    ptx = k.asm["ptx"]
    assert not re.search(r"mul\.wide\.[su]32\s+%rd\d+, %r\d+, (2|4|8|16);", ptx)
    assert re.search(r"cvt\.s64\.s32\s+(%rd\d+), %r\d+;\n\tshl\.b64\s+\1, \1, 1;", ptx)
    assert "cubin" in k.asm  # ptxas accepts it


def compile_grouped_matmul(block, num_warps, num_stages):
    # Tutorial 08's form: each group's pointers and row strides are loaded
    # from device arrays, so nothing about their alignment is known and the
    # loop's loads are plain per-element loads (no cp.async).
    grouped = load_kernels("matmul_forms.py", triton, tl, "tritium").grouped_matmul
    signature = {"a_addrs": "*i64", "b_addrs": "*i64", "c_addrs": "*i64", "sizes": "*i32",
                 "row_strides": "*i32", "groups": "i32"}
    return triton.compile(grouped, signature=signature, target="cuda:90", num_warps=num_warps,
                          num_stages=num_stages,
                          constexprs={"NUM_PROGRAMS": 132, "BLOCK_M": block[0], "BLOCK_N": block[1],
                                      "BLOCK_K": block[2]},
                          attrs={n: [["tt.divisibility", 16]] for n in signature if n != "groups"})


def test_offsets_stay_wide_multiplies_where_splitting_them_spills():
    # Without cp.async the split offsets are kept only if they cost no
    # spills: at 128x128x32, 4 warps, the split form spills and NVPTX's
    # mul.wide form does not (ptxas of CUDA 13.0; 644 and 196 bytes with the
    # loop's pointers carried per element), so the latter is kept.
    k = compile_grouped_matmul((128, 128, 32), 4, 3)
    ptx = k.asm["ptx"]
    assert "cp.async.c" not in ptx
    assert re.search(r"mul\.wide\.s32\s+%rd\d+, %r\d+, 2;", ptx)
    # With its pointers carried as scalar bases (tt-split-loop-pointers) it
    # does not spill (196 bytes without).
    assert k.metadata["spills"] < 196, k.metadata["spills"]
    # n_spills counts as Triton's does: the thread's local memory in words
    # (a 128x128x64 tile at 4 warps spills).
    big = compile_grouped_matmul((128, 128, 64), 4, 3)
    assert big.n_spills == big.metadata["stack_frame"] // 4 > 0
    # A tile that fits keeps the split form (faster there: H200, 2026-11-30).
    k = compile_grouped_matmul((64, 64, 32), 4, 3)
    assert k.n_spills == 0
    assert not re.search(r"mul\.wide\.[su]32\s+%rd\d+, %r\d+, (2|4|8|16);", k.asm["ptx"])




def compile_gated_state_scan(bk, bv):
    signature = {"k_ptr": "*fp16", "v_ptr": "*fp16", "g_ptr": "*fp32", "h_ptr": "*fp16", "T": "i32"}
    return triton.compile(gated_state_scan, signature=signature, target="cuda:90", num_warps=1, num_stages=2,
                          constexprs={"H": 8, "K": 128, "V": 128, "BT": 64, "BK": bk, "BV": bv},
                          attrs={n: [["tt.divisibility", 16]] for n in signature if n != "T"})


def test_gated_tiles_stream_in_the_operand_layout_of_their_dot():
    # The fp32 gate and the fp16 tile it scales are each streamed by
    # cp.async in their own width (16 bytes a thread) and read back in the
    # dot's operand layout: no conversion of the scaled tile.
    ttgir = compile_gated_state_scan(64, 32).asm["ttgir"]
    loop = ttgir[ttgir.index("scf.for"):]
    copied = {m.group(1): m.group(2) for m in re.finditer(
        r"ttg\.async_copy_global_to_local [^\n]*: tensor<64x64x!tt\.ptr<(f16|f32)>, (#blocked\d*)>", loop)}
    assert copied.keys() == {"f16", "f32"}, copied
    per_thread = {name: re.search(re.escape(layout) + r" = #ttg\.blocked<\{sizePerThread = \[(\d+), (\d+)\]", ttgir)
                  for name, layout in copied.items()}
    per_thread = {name: m and int(m.group(1)) * int(m.group(2)) for name, m in per_thread.items()}
    assert per_thread == {"f16": 8, "f32": 4}, per_thread
    assert re.search(r"ttg\.local_load [^\n]*-> tensor<64x64xf32, #dot_op", loop)
    assert re.search(r"ttg\.local_load [^\n]*-> tensor<64x64xf16, #dot_op", loop)
    assert not re.search(r"ttg\.local_alloc %[^\n]*tensor<64x64xf16", loop)


def test_spilling_cp_async_loop_keeps_the_wide_multiplies_that_spill_less():
    # One warp streaming 64x64 fp16 and fp32 tiles by cp.async: with its
    # offsets widened once (cvt + shl) the kernel spills 380 bytes, as
    # NVPTX emitted them (mul.wide) 116 (ptxas of CUDA 13.0), so that form
    # is kept; at 64x32 neither spills and the offsets stay widened once.
    k = compile_gated_state_scan(64, 64)
    assert "cp.async.c" in k.asm["ptx"]
    assert re.search(r"mul\.wide\.[su]32\s+%rd\d+, %r\d+, (2|4);", k.asm["ptx"])
    assert 0 < k.metadata["spills"] < 380, k.metadata["spills"]
    k = compile_gated_state_scan(64, 32)
    assert k.metadata["spills"] == 0
    assert not re.search(r"mul\.wide\.[su]32\s+%rd\d+, %r\d+, (2|4|8|16);", k.asm["ptx"])

def test_wgmma_descriptors_are_one_add_from_the_address_field():
    # In a CTA of one warpgroup, every wgmma descriptor is the tile's address
    # field (a zero-extended 32-bit value) plus one constant; a descriptor
    # made by adding to another one ptxas keeps in vector registers and
    # moves with R2UR before each wgmma, where one add from the field it
    # rebuilds in uniform ones.
    ptx = compile_matmul("fp16", "cuda:90", num_warps=4).asm["ptx"]
    assert "shfl.sync" not in ptx  # no warp index: no warpgroup offsets
    widened = set(re.findall(r"cvt\.u64\.u32\s+(%rd\d+), %r\d+;", ptx))
    descriptors = re.findall(r"add\.s64 (%rd\d+), (%rd\d+), (\d{12,});", ptx)
    assert descriptors
    for descriptor, source, _ in descriptors:
        assert source in widened, (descriptor, source)
    # each wgmma names two of them
    names = set(d for d, _, _ in descriptors)
    for a, b in re.findall(r"wgmma\.mma_async[^}]*\}, (%rd\d+), (%rd\d+)", ptx):
        assert a in names and b in names, (a, b)


def test_two_warpgroups_read_the_warp_index_in_loops_over_fixed_tiles():
    # Tutorial 06's backward on block pointers at head dim 128, 8 warps: its
    # dK/dV and dQ loops multiply tiles loaded before them (K and V, Q and
    # dO).  The warp index that places each warpgroup is read by a shfl in
    # those loops, next to their dots, so that their descriptors are rebuilt
    # there (in uniform registers) instead of hoisted out of the loops into
    # vector ones.
    ptx = compile_attention_bwd_block_ptr(128, False, (32, 128, 128, 32, 3, 8)).asm["ptx"]
    lines = ptx.splitlines()
    labels = {l.rstrip(":"): i for i, l in enumerate(lines) if re.match(r"\$L__BB\d+_\d+:$", l)}
    loops = []
    for i, l in enumerate(lines):
        m = re.search(r"bra(?:\.uni)?\s+(\$L__BB\d+_\d+);", l)
        if m and m.group(1) in labels and labels[m.group(1)] < i:
            loops.append((labels[m.group(1)], i))
    with_dots = [(a, b) for a, b in loops if any("wgmma.mma_async" in x for x in lines[a:b])]
    assert len(with_dots) == 2
    for a, b in with_dots:
        assert any("shfl.sync.idx" in x for x in lines[a:b])


def test_spilling_kernel_keeps_the_form_without_loop_strength_reduction():
    # Tutorial 06's backward on plain pointers at head dim 128, 4 warps:
    # ptxas spills it whatever the form.  LLVM's loop strength reduction
    # makes each element address of the dQ loop's K and V tiles an
    # induction variable of its own; emitted without it, the kernel spills
    # less and that form is kept (2,352 bytes with it, 2,072 without:
    # ptxas of CUDA 13.0).
    attn_bwd = load_kernels("attention_bwd.py", triton, tl, "tritium").attn_bwd
    signature = {p: "*fp16" for p in ("Q", "K", "V", "DO", "DQ", "DK", "DV")}
    signature.update({"M": "*fp32", "D": "*fp32", "sm_scale": "fp32"})
    signature.update({p: "i32" for p in ("stride_z", "stride_h", "stride_tok", "H", "N_CTX")})
    constexprs = {"BLOCK_M1": 32, "BLOCK_N1": 128, "BLOCK_M2": 128, "BLOCK_N2": 32, "BLK_SLICE_FACTOR": 2,
                  "HEAD_DIM": 128, "CAUSAL": False}
    signature.update({p: "constexpr" for p in constexprs})
    attrs = {p: [["tt.divisibility", 16]] for p in signature if signature[p] in ("*fp16", "*fp32", "i32")}
    k = triton.compile(attn_bwd, signature=signature, constexprs=constexprs, attrs=attrs, target="cuda:90",
                       num_warps=4, num_stages=3)
    assert 0 < k.metadata["spills"] < 2200, k.metadata["spills"]


def test_kernels_likely_to_spill_have_their_forms_assembled_with_the_first(tmp_path, monkeypatch):
    # The values of tutorial 06's backward at head dim 128, 4 warps, hold
    # more words at once than spilling kernels do (RegisterPressure.h): its
    # other forms are assembled while ptxas assembles the first, and the
    # form kept is the one kept without that (the spills of
    # test_spilling_kernel_keeps_the_form_without_loop_strength_reduction).
    # At head dim 128, causal, 8 warps, (64, 128, 128, 64) the estimate is
    # above the bound too, but ptxas fits the kernel in 253 registers: the
    # forms are stopped once the first is known.  At head dim 64, 8 warps,
    # none is started.
    attn_bwd = load_kernels("attention_bwd.py", triton, tl, "tritium").attn_bwd
    signature = {p: "*fp16" for p in ("Q", "K", "V", "DO", "DQ", "DK", "DV")}
    signature.update({"M": "*fp32", "D": "*fp32", "sm_scale": "fp32"})
    signature.update({p: "i32" for p in ("stride_z", "stride_h", "stride_tok", "H", "N_CTX")})
    attrs = {p: [["tt.divisibility", 16]] for p in signature if signature[p] in ("*fp16", "*fp32", "i32")}
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    cases = {"spills": (128, False, (32, 128, 128, 32), 4), "fits": (128, True, (64, 128, 128, 64), 8),
             "small": (64, False, (32, 128, 128, 32), 8)}
    when = {}
    for name, (head_dim, causal, (m1, n1, m2, n2), warps) in cases.items():
        dump = tmp_path / name
        monkeypatch.setenv("TRITIUM_DUMP_DIR", str(dump))
        constexprs = {"BLOCK_M1": m1, "BLOCK_N1": n1, "BLOCK_M2": m2, "BLOCK_N2": n2, "BLK_SLICE_FACTOR": 2,
                      "HEAD_DIM": head_dim, "CAUSAL": causal}
        k = triton.compile(attn_bwd, signature=dict(signature, **{p: "constexpr" for p in constexprs}),
                           constexprs=constexprs, attrs=attrs, target="cuda:90", num_warps=warps, num_stages=3)
        (forms,) = [n for n in os.listdir(dump) if n.endswith("ptxas-forms.txt")]
        when[name] = (dump / forms).read_text().split(" (")[0]
        if name == "spills":
            assert 0 < k.metadata["spills"] < 2200, k.metadata["spills"]
        else:
            assert k.metadata["spills"] == 0
    assert when == {"spills": "assembled with the first",
                    "fits": "started with the first, stopped as it did not spill", "small": "after the first"}


@pytest.mark.parametrize("dtype,instr", [("bf16", "m64n128k16.f32.bf16.bf16"), ("fp8e4nv", "m64n128k32.f32.e4m3.e4m3"),
                                         ("fp8e5", "m64n128k32.f32.e5m2.e5m2")])
def test_hopper_matmul_dtypes(dtype, instr):
    k = compile_matmul(dtype, "cuda:90", block=(128, 128, 128 if dtype.startswith("fp8") else 64))
    assert "wgmma.mma_async.sync.aligned." + instr in k.asm["ptx"]
    assert "cubin" in k.asm


def test_ampere_matmul_runs_on_pipelined_mma_sync_with_ldmatrix():
    k = compile_matmul("fp16", "cuda:80")
    ptx = k.asm["ptx"]
    assert "nvidia_mma<{versionMajor = 2" in k.asm["ttgir"]
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
    # A is K-contiguous: ldmatrix as stored; B is N-contiguous: transposed.
    assert "ldmatrix.sync.aligned.m8n8.x4.shared.b16" in ptx
    assert "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16" in ptx
    assert "cp.async.cg.shared.global" in ptx and "cp.async.wait_group 1" in ptx
    assert "wgmma" not in ptx and "fence.proxy.async" not in ptx
    assert "cubin" in k.asm


@triton.jit
def small_dot_kernel(x_ptr, y_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                     PRECISION: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    x = tl.load(x_ptr + m[:, None] * K + k[None, :])
    y = tl.load(y_ptr + k[:, None] * N + n[None, :])
    tl.store(z_ptr + m[:, None] * N + n[None, :], tl.dot(x, y, input_precision=PRECISION))


@pytest.mark.parametrize("dtype,shape,precision", [("fp16", (2, 4, 32), "ieee"), ("fp32", (64, 64, 32), "ieee"),
                                                   ("fp64", (16, 16, 16), "ieee")])
def test_dots_no_tensor_core_fits_run_on_fmas(dtype, shape, precision):
    M, N, K = shape
    k = triton.compile(small_dot_kernel, signature={"x_ptr": f"*{dtype}", "y_ptr": f"*{dtype}", "z_ptr": "*fp32"
                                                    if dtype != "fp64" else "*fp64"},
                       constexprs={"M": M, "N": N, "K": K, "PRECISION": precision}, target="cuda:90")
    assert "mma" not in k.asm["ptx"] and re.search(r"\bfma\.rn\.f(32|64)", k.asm["ptx"])
    assert "cubin" in k.asm


def test_tf32x3_splits_into_three_mma_sync():
    k = triton.compile(small_dot_kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "z_ptr": "*fp32"},
                       constexprs={"M": 16, "N": 8, "K": 8, "PRECISION": "tf32x3"}, target="cuda:90", num_warps=1)
    assert k.asm["ptx"].count("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32") == 3
    assert "cvt.rna.tf32.f32" in k.asm["ptx"]


@pytest.mark.parametrize("precision,count", [("bf16x3", 3), ("bf16x6", 6)])
def test_bf16_splits_run_three_or_six_bf16_mma_sync(precision, count):
    k = triton.compile(small_dot_kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "z_ptr": "*fp32"},
                       constexprs={"M": 16, "N": 8, "K": 16, "PRECISION": precision}, target="cuda:90",
                       num_warps=1)
    assert k.asm["ptx"].count("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32") == count


def test_int8_mma_saturates_and_fp8_runs_as_fp16_on_mma_sync():
    signature = {"x_ptr": "*i8", "y_ptr": "*i8", "z_ptr": "*i32"}
    k = triton.compile(small_dot_kernel, signature=signature, constexprs={"M": 32, "N": 32, "K": 32, "PRECISION": "ieee"},
                       target="cuda:80")
    assert "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32" in k.asm["ptx"]
    # fp8e5 on sm_80 (no fp8 instruction there): converted to fp16, exactly.
    signature = {"x_ptr": "*fp8e5", "y_ptr": "*fp8e5", "z_ptr": "*fp32"}
    k = triton.compile(small_dot_kernel, signature=signature, constexprs={"M": 32, "N": 32, "K": 32, "PRECISION": "ieee"},
                       target="cuda:80")
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in k.asm["ptx"]


@triton.jit
def imprecise_kernel(x_ptr, y_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                     MAX_IMPRECISE: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    x = tl.load(x_ptr + m[:, None] * K + k[None, :])
    y = tl.load(y_ptr + k[:, None] * N + n[None, :])
    z = tl.dot(x, y, max_num_imprecise_acc=MAX_IMPRECISE)
    tl.store(z_ptr + m[:, None] * N + n[None, :], z)


@pytest.mark.parametrize("limit", [32, 64, 128])
def test_fp8_max_num_imprecise_acc_adds_partial_sums_in_f32(limit):
    # Every `limit` of K, each thread adds its 128x256 / 256 partial sums: as
    # Triton's test_dot_max_num_imprecise_acc counts them.
    k = triton.compile(imprecise_kernel, signature={"x_ptr": "*fp8e4nv", "y_ptr": "*fp8e4nv", "z_ptr": "*fp32"},
                       constexprs={"M": 128, "N": 256, "K": 128, "MAX_IMPRECISE": limit}, target="cuda:90",
                       num_warps=8)
    assert k.asm["ptx"].count("add.f32") == (128 * 256) // (32 * 8) * (128 // limit)


@pytest.mark.parametrize("target,instruction", [("cuda:90", "wgmma.mma_async"), ("cuda:80", "mma.sync.aligned")])
def test_attention_loop_with_chained_dots_compiles_to_tensor_cores(target, instruction):
    # Two dots per iteration, the second on the softmax of the first: K and
    # V are pipelined; P reaches the second dot from registers (wgmma's
    # register A on sm_90, mma.sync's operand registers on sm_80), without
    # a shared-memory round trip.
    signature = {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "O": "*fp16", "sm_scale": "fp32", "N_CTX": "i32"}
    k = triton.compile(attention_kernel, signature=signature, constexprs={"BLOCK_M": 128, "BLOCK_N": 64, "HEAD_DIM": 64},
                       attrs={n: [["tt.divisibility", 16]] for n in ["Q", "K", "V", "O", "N_CTX"]}, target=target,
                       num_warps=4, num_stages=3)
    assert instruction in k.asm["ptx"] and "cp.async.cg.shared.global" in k.asm["ptx"]
    assert "cubin" in k.asm
    if target == "cuda:90":
        assert re.search(r"wgmma\.mma_async[^;]*\}, \{%r\d+, %r\d+, %r\d+, %r\d+\}, %rd\d+, p, 1, 1, 1;",
                         k.asm["ptx"]), "P @ V takes A from registers"
    assert k.asm["ttgir"].count("ttg.local_alloc") == 3, "only Q and the K and V rings live in shared memory"


# ---- bad dots ------------------------------------------------------------------------------------

def line_of(fn, needle):
    lines, start = inspect.getsourcelines(fn.fn)
    return start + next(i for i, line in enumerate(lines) if needle in line and not line.lstrip().startswith("def"))


@triton.jit
def e_fp8_dot(x_ptr, z_ptr):
    r = tl.arange(0, 32)
    x = tl.load(x_ptr + r[:, None] * 32 + r[None, :])
    z = tl.dot(x, x)
    tl.store(z_ptr + r[:, None] * 32 + r[None, :], z)


def test_fp8e4nv_dot_for_sm80_fails_at_the_dot_line():
    with pytest.raises(triton.CompilationError) as info:
        triton.compile(e_fp8_dot, signature={"x_ptr": "*fp8e4nv", "z_ptr": "*fp32"}, target="cuda:80")
    e = info.value
    assert e.line == line_of(e_fp8_dot, "tl.dot") and e.file == THIS_FILE
    assert "fp8e4nv need compute capability 89" in str(e)


@triton.jit
def e_precision(x_ptr, z_ptr):
    r = tl.arange(0, 32)
    x = tl.load(x_ptr + r[:, None] * 32 + r[None, :])
    z = tl.dot(x, x, input_precision="tf23")
    tl.store(z_ptr + r[:, None] * 32 + r[None, :], z)


def test_misspelt_input_precision_fails_at_the_dot_line():
    with pytest.raises(triton.CompilationError) as info:
        triton.compile(e_precision, signature={"x_ptr": "*fp32", "z_ptr": "*fp32"}, target="cuda:90",
                       stop_after="ttir")
    assert info.value.line == line_of(e_precision, "tl.dot")
    assert "input_precision must be one of" in str(info.value) and "tf23" in str(info.value)


INDUCTOR_MM = ["A", "B", "C", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn"]


def compile_inductor_mm(block, num_warps, num_stages, size=512):
    """Inductor's mm template (bench/kernels/inductor_mm.py) for fp32 with
    TF32 off, sizes baked in as Inductor bakes them."""
    mm = load_kernels("inductor_mm.py", triton, tl, "tritium").inductor_mm
    constexprs = dict(zip(INDUCTOR_MM[3:], [size, size, size, size, 1, size, 1]))
    constexprs.update(ALLOW_TF32=False, ACC_TYPE=tl.float32, BLOCK_M=block[0], BLOCK_N=block[1], BLOCK_K=block[2],
                      GROUP_M=8)
    return triton.compile(mm, signature={"A": "*fp32", "B": "*fp32", "C": "*fp32"}, constexprs=constexprs,
                          attrs={n: [["tt.divisibility", 16]] for n in ("A", "B", "C")}, target="cuda:90",
                          num_warps=num_warps, num_stages=num_stages)


def test_cuda_core_dot_accumulates_in_square_blocks_per_thread():
    # Triton's dot layout: 128x128 over 4 warps is 128 elements a thread,
    # 4x4 blocks, so a thread reads 32 rows of A and 4 columns of B per step
    # of K, not 128 rows and one column.
    ttgir = compile_inductor_mm((128, 128, 32), 4, 3).asm["ttgir"]
    assert re.search(r"#ttg\.dot_op<\{opIdx = 0, parent = #(blocked\d*)", ttgir)
    parent = re.search(r"#ttg\.dot_op<\{opIdx = 0, parent = #(blocked\d*)", ttgir).group(1)
    assert re.search(rf"#{parent} = #ttg\.blocked<\{{sizePerThread = \[4, 4\], threadsPerWarp = \[1, 32\], "
                     rf"warpsPerCTA = \[4, 1\]", ttgir), ttgir[:2000]


def test_a_kernel_that_spills_keeps_the_registers_its_block_allows():
    # This tile (Inductor's (64, 32, 128), 5 stages, 4 warps) cannot keep its
    # operands in registers.  ptxas (CUDA 13.0) answers it with 32 registers
    # and 6 KB of spill stores unless told one block per SM will do; the
    # compile retries with .minnctapersm 1 when a kernel spilled with
    # registers to spare.
    k = compile_inductor_mm((64, 32, 128), 4, 5)
    assert not (k.n_spills > 0 and k.n_regs < 255), (k.n_regs, k.n_spills)
    if k.n_spills:
        assert ".minnctapersm 1" in k.asm["ptx"]


ATTN_STRIDES = [f"stride_{t}{d}" for t in "qkvo" for d in ("z", "h", "m" if t in "qo" else "n", "d")]


@pytest.mark.parametrize("head_dim,causal", [(64, False), (128, True)])
def test_one_loop_attention_runs_on_pipelined_wgmma_at_8_warps(head_dim, causal):
    # The corpus's attention (bench/kernels/attention_one_loop.py): plain
    # pointers, strides as arguments, causal by tl.where in the one loop.
    attn = load_kernels("attention_one_loop.py", triton, tl, "tritium").attn_fwd_one_loop
    signature = {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "Out": "*fp16", "sm_scale": "fp32"}
    signature.update({name: "i32" for name in ATTN_STRIDES + ["H", "N_CTX"]})
    constexprs = {"HEAD_DIM": head_dim, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": causal}
    constexprs.update({name: 1 for name in ATTN_STRIDES if name.endswith("d")})
    for name in constexprs:
        signature.pop(name, None)
    attrs = {name: [["tt.divisibility", 16]] for name in signature if name not in ("sm_scale", "H")}
    k = triton.compile(attn, signature=signature, constexprs=constexprs, attrs=attrs, target="cuda:90",
                       num_warps=8, num_stages=3)
    ttgir, ptx = k.asm["ttgir"], k.asm["ptx"]
    assert len(re.findall(r"= ttg\.warp_group_dot ", ttgir)) == 2
    assert "cp.async.cg.shared.global" in ptx and "cp.async.wait_group" in ptx
    assert "cubin" in k.asm


def compile_attention_bwd_block_ptr(head_dim, causal, config, kernel="attn_bwd_block_ptr", aligned_ints=True):
    # Tutorial 06's backward on block pointers (bench/kernels/attention_bwd.py),
    # or on plain pointers (kernel="attn_bwd"); the integer arguments are
    # specialized as multiples of 16 unless `aligned_ints` is false.
    bwd = getattr(load_kernels("attention_bwd.py", triton, tl, "tritium"), kernel)
    m1, n1, m2, n2, stages, warps = config
    signature = {n: "*fp16" for n in ("Q", "K", "V", "DO", "DQ", "DK", "DV")}
    signature.update({"sm_scale": "fp32", "M": "*fp32", "D": "*fp32", "stride_z": "i32", "stride_h": "i32",
                      "stride_tok": "i32", "H": "i32", "N_CTX": "i32"})
    attrs = {n: [["tt.divisibility", 16]] for n in signature
             if n not in ("sm_scale", "H") and (aligned_ints or signature[n] != "i32")}
    constexprs = {"BLOCK_M1": m1, "BLOCK_N1": n1, "BLOCK_M2": m2, "BLOCK_N2": n2, "BLK_SLICE_FACTOR": 2,
                  "HEAD_DIM": head_dim, "CAUSAL": causal}
    return triton.compile(bwd, signature=signature, constexprs=constexprs, attrs=attrs, target="cuda:90",
                          num_warps=warps, num_stages=stages)


def compile_one_loop_attention(dtype, head_dim, config, causal=False):
    # The corpus's attention (bench/kernels/attention_one_loop.py); fp8 reads
    # V stored transposed (stride_vn = 1), as 8-bit wgmma takes B K-major.
    attn = load_kernels("attention_one_loop.py", triton, tl, "tritium").attn_fwd_one_loop
    block_m, block_n, stages, warps = config
    signature = {"Q": f"*{dtype}", "K": f"*{dtype}", "V": f"*{dtype}", "Out": "*fp16", "sm_scale": "fp32"}
    signature.update({name: "i32" for name in ATTN_STRIDES + ["H", "N_CTX"]})
    unit = {"stride_qd", "stride_kd", "stride_od", "stride_vn" if dtype == "fp8e4nv" else "stride_vd"}
    constexprs = {"HEAD_DIM": head_dim, "BLOCK_M": block_m, "BLOCK_N": block_n, "CAUSAL": causal}
    constexprs.update({name: 1 for name in unit})
    for name in constexprs:
        signature.pop(name, None)
    attrs = {name: [["tt.divisibility", 16]] for name in signature if name not in ("sm_scale", "H")}
    return triton.compile(attn, signature=signature, constexprs=constexprs, attrs=attrs, target="cuda:90",
                          num_warps=warps, num_stages=stages)


def test_addresses_computed_in_the_loop_are_widening_multiply_adds():
    # The one-loop attention computes each K and V address in the loop
    # (row * stride, widened, added to the base): PTXWideShifts.cpp fuses
    # NVPTX's mul.wide and its one add into mad.wide, as Triton's PTX has it,
    # where the split cvt + shl + add took one more SASS instruction each
    # (16 in the loop at head dim 256, (64, 32)).
    ptx = compile_one_loop_attention("fp16", 256, (64, 32, 3, 4)).asm["ptx"]
    loop = ptx[ptx.index("$L__BB0_2:"):]
    loop = loop[:loop.index("bra")]
    assert len(re.findall(r"mad\.wide\.s32\s+%rd\d+, %r\d+, 2, %rd\d+;", loop)) == 16
    assert not re.search(r"mul\.wide\.s32|cvt\.s64\.s32", loop)


def test_fp8_probabilities_reach_the_second_wgmma_from_registers(tmp_path, monkeypatch):
    # fp8 attention at head dim 128, (128, 128), 2 stages, 8 warps: P goes
    # to P @ V in registers (kWidth 4, 16 shuffles of four-element words
    # from the accumulator's layout), not through a shared tile, and P @ V
    # runs asynchronously.  The wait after the loop is moved onto the
    # loop's exit edge, where ptxas serialized every wgmma (C7515) while the
    # path that skips the loop also reached it.
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path))
    k = compile_one_loop_attention("fp8e4nv", 128, (128, 128, 2, 8))
    ttgir, ptx = k.asm["ttgir"], k.asm["ptx"]
    dots = re.findall(r"= ttg\.warp_group_dot .*", ttgir)
    assert len(dots) == 2
    assert "{isAsync} : tensor<128x128xf8E4M3FN, #dot_op>" in dots[1], dots[1]
    assert re.search(r"#dot_op = #ttg\.dot_op<\{opIdx = 0, parent = #mma, kWidth = 4\}>", ttgir)
    assert ptx.count("shfl.sync.idx") == 16 + 2  # the words, and two warp-uniform indices
    assert not k.metadata.get("ptxas_notes")
    (forms,) = [n for n in os.listdir(tmp_path) if n.endswith("ptxas-forms.txt")]
    lines = (tmp_path / forms).read_text().splitlines()
    assert "wgmma waits moved onto the MMAs' paths (1): kept" in lines
    # Its occupancy step (200 registers; two blocks of 8 warps allow 128),
    # foreseen from its live words, is assembled beside that form.
    if (os.cpu_count() or 1) >= 2:
        (step,) = [line for line in lines if line.startswith("occupancy step")]
        assert step.endswith(", assembled with the wgmma-wait form"), lines


def test_an_occupancy_step_is_taken_even_where_it_serializes_warp_group_mmas(tmp_path, monkeypatch):
    # fp16 attention at head dim 64, (128, 128), 2 stages, 8 warps: asked
    # for two blocks per SM ptxas fits 128 registers without spilling but
    # serializes the wgmmas (C7511).  The step is taken all the same: on the
    # H200 it ran at 425 TFLOP/s, 310 without it (2026-12-02).
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path))
    k = compile_one_loop_attention("fp16", 64, (128, 128, 2, 8))
    assert ".minnctapersm 2" in k.asm["ptx"] and k.n_regs <= 128 and k.n_spills == 0
    (forms,) = [n for n in os.listdir(tmp_path) if n.endswith("ptxas-forms.txt")]
    assert re.search(r"occupancy step: \d+ registers, asked for 2 blocks per SM: kept "
                     r"\(\d+ registers, 0 bytes spilled, warp-group MMAs serialized\)",
                     (tmp_path / forms).read_text())


def test_registers_just_above_an_occupancy_step_take_the_step():
    # On plain pointers at head dim 64, causal, (32, 128, 128, 32), 3
    # stages, 8 warps, ptxas (CUDA 13.0) gives the kernel 153 registers: one
    # block of 256 threads per SM (8 warps), where its shared memory allows
    # more.  Asked for two blocks (.minnctapersm 2) it takes at most 128
    # without spilling, and that is kept.
    k = compile_attention_bwd_block_ptr(64, True, (32, 128, 128, 32, 3, 8), kernel="attn_bwd")
    assert ".minnctapersm 2" in k.asm["ptx"]
    assert k.n_regs <= 128 and k.n_spills == 0
    # A kernel far from a step is left as ptxas made it.
    k = compile_attention_bwd_block_ptr(128, False, (32, 128, 128, 32, 3, 8))
    assert ".minnctapersm" not in k.asm["ptx"] and k.n_regs > 128


def test_a_spilling_kernel_has_its_hinted_forms_assembled_with_the_first_where_threads_allow(tmp_path, monkeypatch):
    # Tutorial 06's pointer backward at head dim 128, 4 warps, holds 500+
    # words at once and spills with all 255 registers.  Its other forms are
    # assembled beside the first; on a machine with a thread for each, so
    # are the forms with `.minnctapersm 1`.  Having no registers to spare,
    # it keeps an unhinted form either way.
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path))
    k = compile_attention_bwd_block_ptr(128, False, (32, 128, 128, 32, 3, 4), kernel="attn_bwd")
    (forms,) = [n for n in os.listdir(tmp_path) if n.endswith("ptxas-forms.txt")]
    first = (tmp_path / forms).read_text().splitlines()[0]
    # (the hinted forms need 2 * forms + 2 threads: 4 to 8 for the 1 to 3 other forms)
    cores = os.cpu_count() or 1
    when = ", hinted too" if cores >= 8 else "" if cores < 4 else "(, hinted too)?"
    assert re.fullmatch(r"assembled with the first%s \(\d+ live words\)" % when, first), first
    assert k.n_regs == 255 and k.n_spills > 0 and ".minnctapersm" not in k.asm["ptx"]
    # Each form tried says whether it was kept, with its spills and those of
    # the form it was weighed against.
    tried = (tmp_path / forms).read_text().splitlines()[1:]
    assert tried and all(re.fullmatch(r"(widening multiplies as emitted|straight-line strength reduction|"
                                      r"loops without strength reduction|first)(, hinted)?: (not )?kept "
                                      r"\(\d+ bytes spilled, against \d+\)", line) for line in tried), tried
    # ptxas serialized its MMAs for lack of registers: moving the waits
    # cannot undo that, and no such form is tried.
    assert "C7512" in k.metadata["ptxas_notes"]
    assert not any(line.startswith("wgmma waits") for line in tried), tried


def test_no_wgmma_wait_form_where_the_mmas_are_serialized_around_a_call(tmp_path, monkeypatch):
    # With a row stride of unknown alignment, the descriptor backward checks
    # its tensor maps' strides with an assertion, whose handler is a call
    # the wgmma pipeline crosses: ptxas serializes the MMAs (C7510).  Moving
    # the waits does not take the call away, so no such form is assembled.
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path))
    k = compile_attention_bwd_block_ptr(64, False, (64, 128, 128, 64, 3, 8), kernel="attn_bwd_tma",
                                        aligned_ints=False)
    assert "C7510" in k.metadata["ptxas_notes"]
    (forms,) = [n for n in os.listdir(tmp_path) if n.endswith("ptxas-forms.txt")]
    lines = (tmp_path / forms).read_text().splitlines()
    assert not any(line.startswith("wgmma waits") for line in lines), lines


def test_an_occupancy_step_that_spills_is_not_taken(tmp_path, monkeypatch):
    # On tensor descriptors at head dim 64, (64, 128, 128, 64), 3 stages,
    # 8 warps, ptxas (CUDA 13.0) gives the kernel 167 registers; asked for
    # two blocks per SM it spills at 128, so the first result is kept.  The
    # dump ptxas-forms.txt says the step was tried and not taken.
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path))
    k = compile_attention_bwd_block_ptr(64, False, (64, 128, 128, 64, 3, 8), kernel="attn_bwd_tma")
    assert ".minnctapersm" not in k.asm["ptx"] and k.n_regs > 128 and k.n_spills == 0
    (forms,) = [n for n in os.listdir(tmp_path) if n.endswith("ptxas-forms.txt")]
    step = (tmp_path / forms).read_text().splitlines()[1]
    assert re.fullmatch(r"occupancy step: \d+ registers, asked for 2 blocks per SM: not kept "
                        r"\(\d+ registers, [1-9]\d* bytes spilled(, warp-group MMAs serialized)?\)"
                        r"(, assembled with the first)?", step), step


def test_an_occupancy_step_that_spills_a_few_words_is_taken_where_the_sm_ran_few_warps(tmp_path, monkeypatch):
    # Tutorial 06's backward on block pointers at head dim 64, (64, 64, 64,
    # 64), 3 stages, 4 warps: ptxas (CUDA 13.0) gives it 184 registers, two
    # blocks per SM (8 warps); asked for three it keeps 168 and spills a few
    # words with its MMAs asynchronous, which is taken (Occupancy.h,
    # stepSpillsAcceptable; 1.07x as fast on the H200).
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path))
    k = compile_attention_bwd_block_ptr(64, False, (64, 64, 64, 64, 3, 4))
    assert ".minnctapersm 3" in k.asm["ptx"] and k.n_regs <= 168 and 0 < k.metadata["spills"] <= 160
    (forms,) = [n for n in os.listdir(tmp_path) if n.endswith("ptxas-forms.txt")]
    step = (tmp_path / forms).read_text().splitlines()[1]
    assert re.fullmatch(r"occupancy step: \d+ registers, asked for 3 blocks per SM: kept "
                        r"\(168 registers, [1-9]\d* bytes spilled\)(, assembled with the first)?", step), step


def test_the_step_to_three_blocks_of_four_warps_is_assembled_with_the_first(tmp_path, monkeypatch):
    # Tutorial 06's descriptor forward at head dim 64, (128, 64), 2 stages,
    # 4 warps, holds about 250 words at once: 1.4-2 times the 168
    # registers of three blocks per SM (Occupancy.h, foreseenStep).  ptxas
    # gives it 186 registers (two blocks); asked for three it reaches 168
    # without spilling, from the PTX assembled beside the first.
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path))
    attention = load_kernels("attention.py", triton, tl, "tritium")
    sig = {"sm_scale": "fp32", "H": "i32", **{f"desc_{t}": f"tensordesc<fp16[{rows},64]>"
                                              for t, rows in (("q", 128), ("k", 64), ("v", 64), ("o", 128))}}
    k = triton.compile(attention.attn_fwd_tma, signature=sig, target="cuda:90", num_warps=4, num_stages=2,
                       constexprs={"N_CTX": 4096, "HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "STAGE": 1})
    assert ".minnctapersm 3" in k.asm["ptx"] and k.n_regs <= 168 and k.n_spills == 0
    (forms,) = [n for n in os.listdir(tmp_path) if n.endswith("ptxas-forms.txt")]
    (step,) = [line for line in (tmp_path / forms).read_text().splitlines() if line.startswith("occupancy step")]
    alongside = ", assembled with the first" if (os.cpu_count() or 1) >= 2 else ""
    assert re.fullmatch(r"occupancy step: \d+ registers, asked for 3 blocks per SM: kept \(\d+ registers, "
                        r"0 bytes spilled(, warp-group MMAs serialized)?\)" + alongside, step), step


def test_an_occupancy_step_far_below_the_live_words_is_not_assembled(tmp_path, monkeypatch):
    # The grouped matmul at 128x128x32, 4 warps, holds about 600 words at
    # once and fits its 255 registers without spilling only in one of its
    # forms.  Three blocks of 4 warps allow 168 registers, a third of those
    # words: ptxas reached them with 960 bytes of spills.  A step at 1.95
    # times its registers or more is not assembled (Occupancy.h).
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path))
    k = compile_grouped_matmul((128, 128, 32), 4, 3)
    assert k.n_regs > 168 and k.n_spills == 0 and ".minnctapersm" not in k.asm["ptx"]
    (forms,) = [n for n in os.listdir(tmp_path) if n.endswith("ptxas-forms.txt")]
    (step,) = [line for line in (tmp_path / forms).read_text().splitlines() if line.startswith("occupancy step")]
    match = re.fullmatch(r"occupancy step: \d+ registers, 3 blocks per SM not tried "
                         r"\((\d+) live words, against 168 registers\)", step)
    assert match and int(match.group(1)) >= 2 * 168, step


@pytest.mark.parametrize("causal", [True, False])
def test_an_occupancy_step_at_about_half_the_live_words_is_not_assembled(causal, tmp_path, monkeypatch):
    # The descriptor backward at head dim 64, (32, 128, 128, 32), 3 stages,
    # 4 warps, holds about 360 words at once causal and 333 not, and takes
    # 231-254 registers; three blocks per SM allow 168, about half those
    # words (a step is out of reach from 1.95 times its registers, 327.6
    # words here), where ptxas spilled 596 and 1,184 bytes.  The step is not
    # assembled.
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path))
    k = compile_attention_bwd_block_ptr(64, causal, (32, 128, 128, 32, 3, 4), kernel="attn_bwd_tma")
    assert k.n_regs > 168 and k.n_spills == 0 and ".minnctapersm" not in k.asm["ptx"]
    (forms,) = [n for n in os.listdir(tmp_path) if n.endswith("ptxas-forms.txt")]
    (step,) = [line for line in (tmp_path / forms).read_text().splitlines() if line.startswith("occupancy step")]
    match = re.fullmatch(r"occupancy step: \d+ registers, 3 blocks per SM not tried "
                         r"\((\d+) live words, against 168 registers\)", step)
    assert match and 1.95 * 168 <= int(match.group(1)) < 3 * 168, step


def test_the_step_from_one_block_per_sm_is_assembled_with_the_first(tmp_path, monkeypatch):
    # Blocks of 8 warps that may run alone on their SM (above 128 registers)
    # and leave shared memory for two have their PTX asking for two blocks
    # assembled beside the first where the machine has a second thread; the
    # step is then decided from that result, as from a run after the first.
    # The pointer backward at head dim 64, causal, (32, 128, 128, 32, 3, 8)
    # takes 153 registers and the step (128, no spills).
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path))
    k = compile_attention_bwd_block_ptr(64, True, (32, 128, 128, 32, 3, 8), kernel="attn_bwd")
    assert ".minnctapersm 2" in k.asm["ptx"] and k.n_regs <= 128 and k.n_spills == 0
    (forms,) = [n for n in os.listdir(tmp_path) if n.endswith("ptxas-forms.txt")]
    step = (tmp_path / forms).read_text().splitlines()[1]
    alongside = ", assembled with the first" if (os.cpu_count() or 1) >= 2 else ""
    assert re.fullmatch(r"occupancy step: \d+ registers, asked for 2 blocks per SM: kept "
                        r"\(\d+ registers, 0 bytes spilled\)" + alongside, step), step
