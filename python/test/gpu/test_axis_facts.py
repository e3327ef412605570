"""Accesses whose vector width rests on what the axis analysis proves, run
on the GPU against torch, with ragged ends the masks must stop: a chunked
loop bounded by min(chunk_size, seqlen - chunk * chunk_size) (Mamba-2's
chunk bound: a multiple of 16 when both are), its tile read along the chunk
and fed to a dot; and a gather addressed by a row index loaded per element
(an embedding lookup as Inductor writes it).  Outputs are poisoned before
every launch."""
import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402


@triton.jit
def chunked_bmm_kernel(dout_ptr, a_ptr, out_ptr, seqlen, chunk_size, K,
                       stride_dout_chunk, stride_dout_m, stride_a_seqlen, stride_out_chunk, stride_out_m,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_CS: tl.constexpr):
    # out[c] = dout[c][:, :limit] @ a[c * chunk_size:][:limit], dout read
    # along the chunk (its last dimension), bounded by the chunk's length
    pid_c = tl.program_id(1)
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_cs = tl.arange(0, BLOCK_CS)
    dout_ptrs = dout_ptr + pid_c * stride_dout_chunk + offs_m[:, None] * stride_dout_m + offs_cs[None, :]
    a_ptrs = a_ptr + (pid_c * chunk_size + offs_cs[:, None]) * stride_a_seqlen + offs_n[None, :]
    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for cs in range(0, tl.cdiv(chunk_size_limit, BLOCK_CS)):
        dout = tl.load(dout_ptrs, mask=(offs_m[:, None] < chunk_size) &
                       (offs_cs[None, :] < chunk_size_limit - cs * BLOCK_CS), other=0.0).to(tl.bfloat16)
        a = tl.load(a_ptrs, mask=(offs_cs[:, None] < chunk_size_limit - cs * BLOCK_CS) & (offs_n[None, :] < K),
                    other=0.0)
        acc += tl.dot(dout, a)
        dout_ptrs += BLOCK_CS
        a_ptrs += BLOCK_CS * stride_a_seqlen
    out_ptrs = out_ptr + pid_c * stride_out_chunk + offs_m[:, None] * stride_out_m + offs_n[None, :]
    tl.store(out_ptrs, acc, mask=(offs_m[:, None] < chunk_size) & (offs_n[None, :] < K))


@pytest.mark.parametrize("seqlen", [512, 464, 459])  # whole chunks; a ragged last chunk of 16k; of any length
@pytest.mark.parametrize("num_warps,num_stages", [(2, 5), (4, 3)])
def test_chunk_bound_by_a_min_masks_the_ragged_chunk(seqlen, num_warps, num_stages):
    chunk, K = 128, 32
    nchunks = triton.cdiv(seqlen, chunk)
    # dout beyond the sequence holds NaN: a mask that let it through would show
    dout = torch.randn(nchunks, chunk, chunk, device="cuda")
    for c in range(nchunks):
        dout[c, :, max(0, seqlen - c * chunk):] = float("nan")
    a = torch.randn(nchunks * chunk, K, device="cuda").to(torch.bfloat16)
    a[seqlen:] = float("nan")
    out = torch.full((nchunks, chunk, K), float("nan"), device="cuda")
    chunked_bmm_kernel[(chunk // 64, nchunks)](
        dout, a, out, seqlen, chunk, K, dout.stride(0), dout.stride(1), a.stride(0), out.stride(0), out.stride(1),
        BLOCK_M=64, BLOCK_N=K, BLOCK_CS=32, num_warps=num_warps, num_stages=num_stages)
    for c in range(nchunks):
        limit = min(chunk, seqlen - c * chunk)
        want = dout[c, :, :limit].to(torch.bfloat16).float() @ a[c * chunk:c * chunk + limit].float()
        torch.testing.assert_close(out[c], want, rtol=1e-2, atol=1e-2)


@triton.jit
def embedding_kernel(idx_ptr, table_ptr, out_ptr, xnumel, HIDDEN: tl.constexpr, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    xmask = xindex < xnumel
    x1 = xindex // HIDDEN
    x0 = xindex % HIDDEN
    row = tl.load(idx_ptr + x1, xmask, eviction_policy="evict_last")
    tl.store(out_ptr + xindex, tl.load(table_ptr + (x0 + HIDDEN * row), xmask), xmask)


@pytest.mark.parametrize("rows,hidden,xblock", [(37, 1024, 2048), (37, 48, 1024), (5, 1024, 512)])
def test_gather_by_a_loaded_row_index(rows, hidden, xblock):
    table = torch.randn(1000, hidden, device="cuda")
    idx = torch.randint(0, 1000, (rows,), device="cuda")
    out = torch.full((rows * hidden,), float("nan"), device="cuda")
    embedding_kernel[(triton.cdiv(rows * hidden, xblock),)](idx, table, out, rows * hidden, HIDDEN=hidden,
                                                            XBLOCK=xblock)
    assert torch.equal(out, table[idx].flatten())
