"""tt-split-loop-pointers on kernels written the way users write them: the
loops carry scalar bases in the Triton IR, and the kernels compute what
numpy does (run on the CPU target)."""
import re

import pytest

import tritium as triton
import tritium.language as tl

np = pytest.importorskip("numpy")


@triton.jit
def two_tiles_one_offset(K, V, Out, stride, n_steps, BLOCK_N: tl.constexpr, D: tl.constexpr):
    # K and V read at the same offsets, as attention's dQ loop reads them
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    k_ptrs = K + offs_n[None, :] * stride + offs_d[:, None]
    v_ptrs = V + offs_n[None, :] * stride + offs_d[:, None]
    acc = tl.zeros([D, BLOCK_N], dtype=tl.float32)
    for _ in range(n_steps):
        acc += tl.load(k_ptrs) * tl.load(v_ptrs)
        k_ptrs += BLOCK_N * stride
        v_ptrs += BLOCK_N * stride
    tl.store(Out + offs_d[:, None] * BLOCK_N + offs_n[None, :], acc)


@triton.jit
def nested_and_used_after(X, Out, n_rows, n_cols, stride, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # an outer loop over row blocks and an inner one over column blocks,
    # each carrying pointers; the outer pointers are read after the loop
    rows = tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    row_ptrs = X + rows[:, None] * stride
    total = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
    for _ in range(0, n_rows, BLOCK_R):
        ptrs = row_ptrs + cols[None, :]
        for _ in range(0, n_cols, BLOCK_C):
            total += tl.load(ptrs)
            ptrs += BLOCK_C
        row_ptrs += BLOCK_R * stride
    last = tl.load(row_ptrs - BLOCK_R * stride + cols[None, :])
    tl.store(Out + rows[:, None] * BLOCK_C + cols[None, :], total + last)


def _scf_for_signatures(ttir):
    return re.findall(r"scf\.for .*?-> \((.*?)\)", ttir)


def test_tiles_at_shared_offsets_are_carried_as_scalar_bases():
    rng = np.random.default_rng(0)
    D, BLOCK_N, steps, stride = 16, 8, 5, 24
    k = rng.standard_normal(BLOCK_N * steps * stride + D).astype(np.float32)
    v = rng.standard_normal(k.size).astype(np.float32)
    out = np.empty((D, BLOCK_N), np.float32)
    compiled = two_tiles_one_offset[(1,)](k, v, out, stride, steps, BLOCK_N=BLOCK_N, D=D)
    want = np.zeros((D, BLOCK_N))
    for s in range(steps):
        idx = (np.arange(BLOCK_N)[None, :] + s * BLOCK_N) * stride + np.arange(D)[:, None]
        want += k[idx].astype(np.float64) * v[idx]
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
    (loop,) = _scf_for_signatures(compiled.asm["ttir"])
    assert loop.count("!tt.ptr<f32>") == 2 and "tensor<16x8x!tt.ptr" not in loop, loop


def test_nested_loops_and_pointers_read_after_the_loop():
    rng = np.random.default_rng(1)
    BLOCK_R, BLOCK_C, n_rows, n_cols, stride = 4, 8, 12, 24, 32
    x = rng.standard_normal(n_rows * stride).astype(np.float32)
    out = np.empty((BLOCK_R, BLOCK_C), np.float32)
    compiled = nested_and_used_after[(1,)](x, out, n_rows, n_cols, stride, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
    grid = x.reshape(n_rows, stride)[:, :n_cols].astype(np.float64)
    total = grid.reshape(n_rows // BLOCK_R, BLOCK_R, n_cols // BLOCK_C, BLOCK_C).sum(axis=(0, 2))
    last = grid[n_rows - BLOCK_R:, :BLOCK_C]
    np.testing.assert_allclose(out, total + last, rtol=1e-5, atol=1e-5)
    loops = _scf_for_signatures(compiled.asm["ttir"])
    assert len(loops) == 2 and all("x!tt.ptr" not in sig for sig in loops), loops


def test_pointers_advanced_by_a_varying_step_stay_tensors():
    @triton.jit
    def varying_step(X, Out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        ptrs = X + offs
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for i in range(n):
            acc += tl.load(ptrs)
            ptrs += i * BLOCK
        tl.store(Out + offs, acc)

    x = np.arange(64, dtype=np.float32)
    out = np.empty(8, np.float32)
    compiled = varying_step[(1,)](x, out, 4, BLOCK=8)
    # steps 0, 8, 16: reads at 0, 0, 8, 24
    want = x[0:8] * 2 + x[8:16] + x[24:32]
    np.testing.assert_allclose(out, want)
    (loop,) = _scf_for_signatures(compiled.asm["ttir"])
    assert "tensor<8x!tt.ptr<f32>>" in loop, loop


def test_ptx_loop_advances_one_address_not_one_per_element():
    # Compiled for the H100/H200 (PTX, no GPU needed): the loop reads K and V
    # at 8 addresses a thread; carried as tensors, or strength-reduced by
    # LLVM into an induction variable per element, each address is a 64-bit
    # register the loop advances every turn.  With the scalar bases the
    # loop advances at most the two bases.
    compiled = triton.compile(
        two_tiles_one_offset,
        signature={"K": "*fp16", "V": "*fp16", "Out": "*fp32", "stride": "i32", "n_steps": "i32",
                   "BLOCK_N": "constexpr", "D": "constexpr"},
        constexprs={"BLOCK_N": 64, "D": 64},
        attrs={name: [["tt.divisibility", 16]] for name in ("K", "V", "stride")},
        target="cuda:90", num_warps=4)
    ptx = compiled.asm["ptx"]
    (body,) = re.findall(r"\$L__BB0_\d+:\n(.*?)\bbra", ptx, re.S)[-1:]
    loads = re.findall(r"ld\.global\.v4\.b32", body)
    advanced = re.findall(r"add\.s64\s+(%rd\d+), \1, %rd\d+;", body)
    assert len(loads) == 8, body
    assert 1 <= len(advanced) <= 2, advanced
