"""tl.dot_scaled compiled without a GPU: every MX format against bf16,
fp16 and fp8 lowers to a bf16 / fp16 tensor-core dot (wgmma on cuda:90,
mma.sync on cuda:80) with no spills, plain operands take scales as in
Triton, and bad formats, scales and shapes fail at the user's line."""
import os
import re

import pytest

import tritium as triton
import tritium.language as tl
from tritium.errors import CompilationError
from kernels.scaled_dot import scaled_dot_kernel

THIS_FILE = os.path.abspath(__file__)


PTR = {"e2m1": "*u8", "e4m3": "*u8", "e5m2": "*u8", "bf16": "*bf16", "fp16": "*fp16"}


def compile_scaled(fmt_a, fmt_b, scaled, M=64, N=64, K=128, target="cuda:90"):
    sig = {"a_ptr": PTR[fmt_a], "a_scale_ptr": "*u8" if "a" in scaled else "constexpr", "b_ptr": PTR[fmt_b],
           "b_scale_ptr": "*u8" if "b" in scaled else "constexpr", "acc_ptr": "constexpr", "out_ptr": "*fp32"}
    # fp4 packed two per byte along K
    cx = {"M": M, "N": N, "K": K, "A_ROWS": M, "A_COLS": K // 2 if fmt_a == "e2m1" else K,
          "B_ROWS": K // 2 if fmt_b == "e2m1" else K, "B_COLS": N, "FORMAT_A": fmt_a, "FORMAT_B": fmt_b,
          "A_PACK_K": True, "B_PACK_K": True, "FAST": False, "WITH_ACC": False, "acc_ptr": None}
    if "a" not in scaled:
        cx["a_scale_ptr"] = None
    if "b" not in scaled:
        cx["b_scale_ptr"] = None
    return triton.compile(scaled_dot_kernel, signature=sig, constexprs=cx, target=target, num_warps=4)


@pytest.mark.parametrize("mx", ["e2m1", "e4m3", "e5m2"])
@pytest.mark.parametrize("other", ["bf16", "fp16", "e4m3"])
@pytest.mark.parametrize("side", ["lhs", "rhs"])
def test_every_format_runs_on_tensor_cores_without_spills(mx, other, side):
    fmt_a, fmt_b, scaled = (mx, other, "a") if side == "lhs" else (other, mx, "b")
    k = compile_scaled(fmt_a, fmt_b, scaled)
    compute = "f16" if "fp16" in (fmt_a, fmt_b) else "bf16"
    assert re.search(rf"wgmma\.mma_async\.sync\.aligned\.m64n\d+k16\.f32\.{compute}\.{compute}", k.asm["ptx"])
    assert k.metadata.get("spills", 0) == 0


def test_mma_sync_before_hopper():
    k = compile_scaled("e2m1", "bf16", "a", target="cuda:80")
    assert "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16" in k.asm["ptx"]


@triton.jit
def bad_format_kernel(a_ptr, b_ptr, out_ptr):
    a = tl.load(a_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(b_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    c = tl.dot_scaled(a, None, "e3m2", b, None, "bf16")
    tl.store(out_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)


@triton.jit
def scaled_plain_kernel(a_ptr, s_ptr, b_ptr, out_ptr):
    a = tl.load(a_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(b_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    s = tl.load(s_ptr + tl.arange(0, 32)[:, None] + tl.arange(0, 1)[None, :])
    c = tl.dot_scaled(a, s, "bf16", b, None, "bf16")
    tl.store(out_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)


@triton.jit
def wrong_scale_shape_kernel(a_ptr, s_ptr, b_ptr, out_ptr):
    a = tl.load(a_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(b_ptr + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :])
    s = tl.load(s_ptr + tl.arange(0, 16)[:, None] * 4 + tl.arange(0, 4)[None, :])
    c = tl.dot_scaled(a, s, "e2m1", b, None, "bf16")
    tl.store(out_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)


@triton.jit
def k_mismatch_kernel(a_ptr, b_ptr, out_ptr):
    a = tl.load(a_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(b_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    c = tl.dot_scaled(a, None, "e2m1", b, None, "bf16")
    tl.store(out_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)


@pytest.mark.parametrize("s_type", ["*u8", "*fp8e4nv"])
def test_a_plain_operand_takes_a_scale(s_type):
    """As in Triton, a bf16 or fp16 operand may have a scale too (e8m0
    bytes, or floats), multiplied in before the dot."""
    k = triton.compile(scaled_plain_kernel, signature={"a_ptr": "*bf16", "s_ptr": s_type, "b_ptr": "*bf16",
                                                       "out_ptr": "*fp32"}, target="cuda:90")
    assert "wgmma.mma_async" in k.asm["ptx"] or "mma.sync" in k.asm["ptx"]


@pytest.mark.parametrize("kernel,sig,message", [
    (bad_format_kernel, {"a_ptr": "*u8", "b_ptr": "*bf16", "out_ptr": "*fp32"},
     "lhs_format must be one of e2m1, e4m3, e5m2, bf16, fp16, got 'e3m2'"),
    (wrong_scale_shape_kernel, {"a_ptr": "*u8", "s_ptr": "*u8", "b_ptr": "*bf16", "out_ptr": "*fp32"},
     "lhs_scale must have shape [32, K // group] ([M, K // group], K = 64) for a lhs of [32, 64], got [16, 4]"),
    (k_mismatch_kernel, {"a_ptr": "*u8", "b_ptr": "*bf16", "out_ptr": "*fp32"},
     "K of lhs (64 after unpacking) and of rhs (32) differ"),
])
def test_bad_uses_point_at_the_line(kernel, sig, message):
    with pytest.raises(CompilationError) as info:
        triton.compile(kernel, signature=sig, target="cuda:90")
    text = str(info.value)
    assert message in text
    assert THIS_FILE in text and "tl.dot_scaled(" in text
