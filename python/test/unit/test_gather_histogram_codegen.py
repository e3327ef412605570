"""tl.gather and tl.histogram compile, without a GPU, for cuda:90: the TTIR
holds tt.gather / tt.histogram, the lowering goes through shared memory
(ld.shared / red.shared.add.u32 in the PTX, a scratch buffer in the
metadata), and ptxas accepts the result.  A histogram of floats is a
CompilationError at the user's line.  Also a layout conversion that stays
inside warps compiles to shfl.sync.idx without shared memory."""
import inspect
import os

import pytest

import tritium as triton
import tritium.language as tl

THIS_FILE = os.path.abspath(__file__)


@triton.jit
def gather_rows_kernel(src_ptr, idx_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    src = tl.load(src_ptr + rows * N + cols)
    krows = tl.arange(0, K)[:, None]
    idx = tl.load(idx_ptr + krows * N + cols)
    out = tl.gather(src, idx, 0)
    tl.store(out_ptr + krows * N + cols, out)


@triton.jit
def histogram_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    h = tl.histogram(x, BINS, mask=offs < n)
    tl.store(out_ptr + tl.arange(0, BINS), h)


@triton.jit
def float_histogram_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    h = tl.histogram(x, 16)
    tl.store(out_ptr + tl.arange(0, 16), h)


def compile_gather(**kwargs):
    return triton.compile(gather_rows_kernel,
                          signature={"src_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*fp32"},
                          constexprs={"M": 64, "N": 32, "K": 16}, target="cuda:90", num_warps=4, **kwargs)


def compile_histogram(x_type="*i32", **kwargs):
    return triton.compile(histogram_kernel, signature={"x_ptr": x_type, "out_ptr": "*i32", "n": "i32"},
                          constexprs={"BLOCK": 1024, "BINS": 64}, target="cuda:90", num_warps=4, **kwargs)


def test_gather_ir_and_ptx():
    kernel = compile_gather()
    assert "tt.gather" in kernel.asm["ttir"]
    assert "axis = 0 : i32" in kernel.asm["ttir"]
    ptx = kernel.asm["ptx"]
    assert "st.shared" in ptx and "ld.shared" in ptx
    assert "bar.sync" in ptx
    # the whole 64x32 f32 source lives in the scratch buffer
    assert kernel.metadata["shared"] >= 64 * 32 * 4


def test_histogram_ir_and_ptx():
    kernel = compile_histogram()
    ttir = kernel.asm["ttir"]
    assert "tt.histogram" in ttir and "-> tensor<64xi32>" in ttir
    ptx = kernel.asm["ptx"]
    assert "red.shared.add.u32" in ptx
    assert ptx.count("bar.sync") >= 2  # bins zeroed, then counted, then read
    assert kernel.metadata["shared"] >= 64 * 4


def test_histogram_of_narrow_unsigned_input_widens_with_zero_extension():
    ttir = compile_histogram("*u8", stop_after="ttir").asm["ttir"]
    assert "arith.extui" in ttir
    assert "tt.histogram" in ttir and "tensor<1024xi32> -> tensor<64xi32>" in ttir


def test_histogram_of_floats_is_an_error_at_the_call():
    with pytest.raises(triton.CompilationError) as info:
        triton.compile(float_histogram_kernel, signature={"x_ptr": "*fp32", "out_ptr": "*i32"},
                       constexprs={"BLOCK": 128}, target="cuda:90", stop_after="ttir")
    lines, start = inspect.getsourcelines(float_histogram_kernel.fn)
    offset = next(i for i, line in enumerate(lines) if "tl.histogram" in line)
    text = str(info.value)
    assert f"{THIS_FILE}:{start + offset}:" in text, text
    assert "histogram needs a 1-D integer tensor" in text
    assert "h = tl.histogram(x, 16)" in text


def test_histogram_bins_must_be_a_power_of_two():
    with pytest.raises(triton.CompilationError) as info:
        triton.compile(histogram_kernel, signature={"x_ptr": "*i32", "out_ptr": "*i32", "n": "i32"},
                       constexprs={"BLOCK": 128, "BINS": 12}, target="cuda:90", stop_after="ttir")
    assert "power of two" in str(info.value)


@triton.jit
def transpose_copy_kernel(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    # (volatile: a tile of no more elements than the block has threads is
    # otherwise loaded again in the store's layout, with no conversion)
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + r * N + c, volatile=True)
    tl.store(y_ptr + c * M + r, x)


def compile_transpose(M, N, num_warps):
    return triton.compile(transpose_copy_kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32"},
                          constexprs={"M": M, "N": N}, target="cuda:90", num_warps=num_warps)


def test_lane_permutation_inside_a_warp_uses_shuffles():
    # One warp, 8x4: the load's lanes run along rows (order [1, 0]), the
    # transposed store's down columns (order [0, 1]); every element stays in
    # the warp and in register 0, so the conversion is one shfl.sync.idx.
    kernel = compile_transpose(8, 4, num_warps=1)
    assert "ttg.convert_layout" in kernel.asm["ttgir"]
    ptx = kernel.asm["ptx"]
    assert "shfl.sync.idx.b32" in ptx
    assert ".shared" not in ptx and "bar.sync" not in ptx
    assert kernel.metadata["shared"] == 0


def test_register_to_lane_transpose_goes_by_shuffles_with_selects():
    # 8x8 on one warp: rows of the load are lanes, columns of the store are
    # lanes, and one register bit of a thread trades places with a lane bit:
    # each thread selects what it sends before each shuffle and what it
    # keeps after it (Triton's rule), no shared memory.
    kernel = compile_transpose(8, 8, num_warps=1)
    ptx = kernel.asm["ptx"]
    assert "shfl.sync.idx.b32" in ptx and "selp" in ptx
    assert ".shared" not in ptx and "bar.sync" not in ptx
    assert kernel.metadata["shared"] == 0


def test_two_traded_register_bits_go_through_shared_memory():
    # 16x8 on one warp: two register bits trade places with lane bits, so
    # the conversion goes through shared memory, as Triton's does (it takes
    # shuffles for at most one such bit).
    kernel = compile_transpose(16, 8, num_warps=1)
    ptx = kernel.asm["ptx"]
    assert "shfl.sync" not in ptx
    assert "st.shared" in ptx and "ld.shared" in ptx and "bar.sync" in ptx
    assert kernel.metadata["shared"] > 0
