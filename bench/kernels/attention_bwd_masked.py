# Kernel source of test_attention_backward.py, executed once per compiler
# with `triton` and `tl` bound to it (kernel_sources.load_kernels): the
# backward pass of attention for any sequence length N (every load and
# score masked at N), in two kernels (attention_bwd.py holds the
# benchmark's backward, which needs N a multiple of its blocks).  The host gives M, the base-2
# log-sum-exp of each query row's scaled scores, and Delta = rowsum(O * dO).
# With s2 = q k^T * sm_scale * log2(e) and P = exp2(s2 - M) (the softmax):
#   dV = P^T dO,  dS = P * (dO V^T - Delta),  dK = dS^T Q * sm_scale,
#   dQ = dS K * sm_scale.
#   attn_bwd_dkdv  one program per BLOCK_N keys of a (batch, head): dK, dV
#                  over every query block;
#   attn_bwd_dq    one program per BLOCK_M queries: dQ over every key block.


@triton.jit
def attn_bwd_dkdv(Q, K, V, DO, M, Delta, DK, DV, sm_scale, N, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_n = tl.program_id(0) * BLOCK_N
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * N * HEAD_DIM
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    keys = offs_n[:, None] < N
    k = tl.load(K + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=keys, other=0.0)
    v = tl.load(V + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=keys, other=0.0)
    dk = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    lo = start_n // BLOCK_M * BLOCK_M if CAUSAL else 0
    for start_m in range(lo, N, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        rows = offs_m[:, None] < N
        q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=rows, other=0.0)
        do = tl.load(DO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=rows, other=0.0)
        m = tl.load(M + bh * N + offs_m, mask=offs_m < N, other=0.0)
        di = tl.load(Delta + bh * N + offs_m, mask=offs_m < N, other=0.0)
        s2T = tl.dot(k, tl.trans(q)) * qk_scale
        valid = (offs_n[:, None] < N) & (offs_m[None, :] < N)
        if CAUSAL:
            valid = valid & (offs_m[None, :] >= offs_n[:, None])
        pT = tl.where(valid, tl.math.exp2(s2T - m[None, :]), 0.0)
        dv += tl.dot(pT.to(do.dtype), do)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - di[None, :])
        dk += tl.dot(dsT.to(q.dtype), q)
    out = base + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
    tl.store(DK + out, (dk * sm_scale).to(DK.dtype.element_ty), mask=keys)
    tl.store(DV + out, dv.to(DV.dtype.element_ty), mask=keys)


@triton.jit
def attn_bwd_dq(Q, K, V, DO, M, Delta, DQ, sm_scale, N, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * N * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    rows = offs_m[:, None] < N
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=rows, other=0.0)
    do = tl.load(DO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=rows, other=0.0)
    m = tl.load(M + bh * N + offs_m, mask=offs_m < N, other=0.0)
    di = tl.load(Delta + bh * N + offs_m, mask=offs_m < N, other=0.0)
    dq = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    hi = tl.minimum(start_m + BLOCK_M, N) if CAUSAL else N
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        keys = offs_n[:, None] < N
        k = tl.load(K + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=keys, other=0.0)
        v = tl.load(V + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=keys, other=0.0)
        s2 = tl.dot(q, tl.trans(k)) * qk_scale
        valid = (offs_m[:, None] < N) & (offs_n[None, :] < N)
        if CAUSAL:
            valid = valid & (offs_m[:, None] >= offs_n[None, :])
        p = tl.where(valid, tl.math.exp2(s2 - m[:, None]), 0.0)
        dp = tl.dot(do, tl.trans(v))
        ds = p * (dp - di[:, None])
        dq += tl.dot(ds.to(k.dtype), k)
    tl.store(DQ + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], (dq * sm_scale).to(DQ.dtype.element_ty),
             mask=rows)
