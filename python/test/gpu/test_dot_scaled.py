"""tl.dot_scaled on the GPU against a float64 reference decoded here, not
by the kernel's code: fp4 (e2m1) through its table of eight magnitudes,
fp8 through torch's fp8 dtypes, e8m0 scales as 2^(s - 127).  Scales stay
where the scaled values are exact in bf16 and fp16, so only the fp32 sums
of the dot differ from the reference.  Both operand orders, every format
against bf16, fp16 and fp8, fp4 packed along K and along M / N, a NaN
scale (NaN rows unless fast_math), an accumulator, scaled bf16 / fp16
operands, and NVFP4's groups of 16 with e4m3 scales."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit"))
from kernels.scaled_dot import scaled_dot_kernel  # noqa: E402

E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def decode(x, fmt, packed_axis):
    """float64 values of operand storage `x` in format `fmt`."""
    if fmt == "e2m1":
        lo, hi = (x & 0xF).long(), (x >> 4).long()
        table = torch.tensor(E2M1, dtype=torch.float64, device=x.device)

        def value(n):
            return torch.where(n >= 8, -table[n & 7], table[n & 7])

        pairs = torch.stack([value(lo), value(hi)], dim=packed_axis + 1)
        shape = list(x.shape)
        shape[packed_axis] *= 2
        return pairs.reshape(shape)
    if fmt in ("e4m3", "e5m2"):
        return x.view({"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}[fmt]).double()
    return x.double()


def make_operand(fmt, rows, cols, pack_axis):
    """Storage for a rows x cols operand: fp4 two per byte along pack_axis,
    fp8 without NaN or inf, small bf16 / fp16."""
    if fmt == "e2m1":
        shape = [rows, cols]
        shape[pack_axis] //= 2
        return torch.randint(0, 256, shape, dtype=torch.uint8, device="cuda")
    if fmt in ("e4m3", "e5m2"):
        bits = torch.randint(0, 256, (rows, cols), dtype=torch.uint8, device="cuda")
        finite = decode(bits, fmt, 0).isfinite() & (decode(bits, fmt, 0).abs() < 512)
        return torch.where(finite, bits, torch.zeros_like(bits))
    dtype = torch.bfloat16 if fmt == "bf16" else torch.float16
    return torch.randn(rows, cols, device="cuda").to(dtype)


def scale_factors(scale, k_axis, other_len, K, group=32):
    """The scale tensor (e8m0 bytes, or floats) as per-element factors for
    an operand whose K runs along k_axis."""
    if scale.dtype == torch.uint8:
        s = torch.pow(2.0, scale.double() - 127)
        s = torch.where(scale == 0xFF, torch.full_like(s, float("nan")), s)
    else:
        s = scale.double()
    per_elem = s.repeat_interleave(group, dim=1)  # [other, K]
    return per_elem if k_axis == 1 else per_elem.T


def make_scale(rows, groups, float_scale, lo, hi):
    """e8m0 bytes in [lo, hi], or (float_scale) e4m3 powers of two of the same range."""
    bits = torch.randint(lo, hi + 1, (rows, groups), dtype=torch.uint8, device="cuda")
    if not float_scale:
        return bits
    return torch.pow(2.0, bits.float() - 127).to(torch.float8_e4m3fn)


def run(fmt_a, fmt_b, M, N, K, scaled, pack_k=True, fast=False, with_acc=False, nan_row=None, group=32,
        float_scale=False):
    compute_fp16 = "fp16" in (fmt_a, fmt_b)
    lo, hi = (124, 130) if compute_fp16 else (117, 137)
    if float_scale:
        lo, hi = max(lo, 121), min(hi, 133)  # e4m3 holds 2^-6 .. 2^8 as normals
    a = make_operand(fmt_a, M, K, 1 if pack_k else 0)
    b = make_operand(fmt_b, K, N, 0 if pack_k else 1)
    a_scale = make_scale(M, K // group, float_scale, lo, hi) if "a" in scaled else None
    b_scale = make_scale(N, K // group, float_scale, lo, hi) if "b" in scaled else None
    if nan_row is not None:
        a_scale[nan_row, 0] = 0xFF
    acc = torch.randn(M, N, device="cuda") if with_acc else None
    out = torch.full((M, N), float("nan"), device="cuda")
    scaled_dot_kernel[(1,)](a, a_scale, b, b_scale, acc, out, M, N, K, a.shape[0], a.shape[1], b.shape[0],
                            b.shape[1], fmt_a, fmt_b, pack_k, pack_k, fast, with_acc, group, num_warps=4)
    ra = decode(a, fmt_a, 1 if pack_k else 0)
    rb = decode(b, fmt_b, 0 if pack_k else 1)
    if a_scale is not None:
        ra = ra * scale_factors(a_scale, 1, M, K, group)
    if b_scale is not None:
        rb = rb * scale_factors(b_scale, 0, N, K, group)
    # the kernel's operands are bf16 or fp16: round the reference's too
    compute = torch.float16 if compute_fp16 else torch.bfloat16
    ra, rb = ra.to(compute).double(), rb.to(compute).double()
    ref = ra @ rb
    if with_acc:
        ref = ref + acc.double()
    return out, ref


CASES = [(mx, other, side) for mx in ("e2m1", "e4m3", "e5m2") for other in ("bf16", "fp16", "e4m3", "e5m2")
         for side in ("lhs", "rhs")]


@pytest.mark.parametrize("shape", [(32, 32, 64), (128, 64, 128)], ids=str)
@pytest.mark.parametrize("mx,other,side", CASES)
def test_dot_scaled_against_torch(mx, other, side, shape):
    M, N, K = shape
    fmt_a, fmt_b, scaled = (mx, other, "a") if side == "lhs" else (other, mx, "b")
    out, ref = run(fmt_a, fmt_b, M, N, K, scaled)
    bound = ref.abs().max().item()
    torch.testing.assert_close(out.double(), ref, rtol=1e-3, atol=1e-5 * bound + 1e-6)


@pytest.mark.parametrize("fmt_a,fmt_b", [("e2m1", "e2m1"), ("e2m1", "bf16"), ("bf16", "e2m1")])
def test_fp4_packed_along_m_and_n(fmt_a, fmt_b):
    out, ref = run(fmt_a, fmt_b, 64, 64, 64, "ab" if fmt_a == fmt_b else ("a" if fmt_a == "e2m1" else "b"),
                   pack_k=False)
    torch.testing.assert_close(out.double(), ref, rtol=1e-3, atol=1e-5 * ref.abs().max().item() + 1e-6)


@pytest.mark.parametrize("fmt_a,fmt_b,scaled", [("bf16", "bf16", "a"), ("bf16", "e2m1", "ab"), ("fp16", "e4m3", "ab"),
                                                ("e4m3", "bf16", "b")])
def test_a_plain_operand_with_a_scale(fmt_a, fmt_b, scaled):
    """bf16 / fp16 operands take a scale too, multiplied in as Triton does."""
    out, ref = run(fmt_a, fmt_b, 64, 64, 128, scaled)
    torch.testing.assert_close(out.double(), ref, rtol=1e-3, atol=1e-5 * ref.abs().max().item() + 1e-6)


@pytest.mark.parametrize("fmt_a,fmt_b,scaled", [("e2m1", "bf16", "a"), ("e2m1", "e2m1", "ab"), ("bf16", "e2m1", "b")])
def test_nvfp4_groups_of_16_with_e4m3_scales(fmt_a, fmt_b, scaled):
    """NVFP4: a scale per 16 elements of K, the scales e4m3 floats; the
    group is K over the scale's second dimension."""
    out, ref = run(fmt_a, fmt_b, 64, 64, 128, scaled, group=16, float_scale=True)
    torch.testing.assert_close(out.double(), ref, rtol=1e-3, atol=1e-5 * ref.abs().max().item() + 1e-6)


def test_both_operands_scaled_with_an_accumulator():
    out, ref = run("e4m3", "e2m1", 64, 32, 128, "ab", with_acc=True)
    torch.testing.assert_close(out.double(), ref, rtol=1e-3, atol=1e-5 * ref.abs().max().item() + 1e-6)


@pytest.mark.parametrize("fast", [False, True])
def test_a_nan_scale_makes_its_row_nan_unless_fast_math(fast):
    out, ref = run("e4m3", "bf16", 32, 32, 64, "a", fast=fast, nan_row=5)
    others = torch.ones(32, dtype=torch.bool)
    others[5] = False
    torch.testing.assert_close(out[others].double(), ref[others], rtol=1e-3,
                               atol=1e-5 * ref[others].abs().max().item() + 1e-6)
    if not fast:
        assert out[5].isnan().all()
