# Kernel source of bench_attention_bwd.py, executed once per compiler with
# `triton` and `tl` bound to it (kernel_sources.load_kernels): the backward
# pass of flash attention in the form of Triton's tutorial 06, on plain
# pointers, and the forward that saves what it needs.
#   attn_fwd_lse     the forward, also storing M = max + log2(sum) per row
#                    (base-2 log-sum-exp of the scaled scores);
#   bwd_preprocess   Delta = rowsum(O * dO);
#   attn_bwd         one program per BLOCK_N1 keys and per BLOCK_M2 queries
#                    of a (batch, head): dK and dV over the query blocks
#                    (the diagonal ones masked, in slices), then dQ over
#                    the key blocks.  K arrives pre-scaled by
#                    sm_scale / ln(2), so scores are already base 2;
#   attn_bwd_block_ptr  the same backward with its Q, K, V, dO tiles (and the
#                    transposed ones, through order=(0, 1) views) and its
#                    dQ, dK, dV tiles on block pointers advanced along the
#                    sequence, as Triton 3.0's tutorial wrote the forward;
#   attn_bwd_tma     the same backward on tensor descriptors made in the
#                    kernel (tl.make_tensor_descriptor over each (batch,
#                    head)'s N_CTX x HEAD_DIM slice, one per block shape;
#                    transposed tiles loaded as they lie and tl.trans'd), as
#                    tutorial 06 makes the forward's on Hopper.  Needs
#                    triton.set_allocator for the maps' global scratch.


@triton.jit
def attn_fwd_lse(Q, K, V, sm_scale, M, Out, stride_z, stride_h, stride_tok, H, N_CTX: tl.constexpr,
                 HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = (off_hz // H).to(tl.int64) * stride_z + (off_hz % H).to(tl.int64) * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * stride_tok + offs_d[None, :])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = (start_m + 1) * BLOCK_M if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        k = tl.load(K + base + (start_n + offs_n)[None, :] * stride_tok + offs_d[:, None])
        qk = tl.dot(q, k) * qk_scale
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= start_n + offs_n[None, :], qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + (start_n + offs_n)[:, None] * stride_tok + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_ij
    tl.store(M + off_hz * N_CTX + offs_m, m_i + tl.math.log2(l_i))
    tl.store(Out + base + offs_m[:, None] * stride_tok + offs_d[None, :], (acc / l_i[:, None]).to(Out.type.element_ty))


@triton.jit
def bwd_preprocess(O, DO, Delta, N_CTX, BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    offs_d = tl.arange(0, HEAD_DIM)
    rows = off_hz * HEAD_DIM * N_CTX + offs_m[:, None] * HEAD_DIM + offs_d[None, :]
    o = tl.load(O + rows)
    do = tl.load(DO + rows).to(tl.float32)
    tl.store(Delta + off_hz * N_CTX + offs_m, tl.sum(o * do, axis=1))


@triton.jit
def bwd_dkdv(dk, dv, Q, k, v, DO, M, D, stride_tok, start_n, start_m, num_steps, BLOCK_M1: tl.constexpr,
             BLOCK_N1: tl.constexpr, HEAD_DIM: tl.constexpr, MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BLOCK_M1)
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_d = tl.arange(0, HEAD_DIM)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_d[:, None]
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_d[None, :]
    curr_m = start_m
    for _ in range(num_steps):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        pT = tl.math.exp2(tl.dot(k, qT) - m[None, :])
        if MASK:
            pT = tl.where(offs_m[None, :] >= offs_n[:, None], pT, 0.0)
        do = tl.load(do_ptrs)
        dv += tl.dot(pT.to(tl.float16), do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = (pT * (dpT - Di[None, :])).to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += BLOCK_M1
        qT_ptrs += BLOCK_M1 * stride_tok
        do_ptrs += BLOCK_M1 * stride_tok
    return dk, dv


@triton.jit
def bwd_dq(dq, q, K, V, do, m, D, stride_tok, start_m, start_n, num_steps, BLOCK_M2: tl.constexpr,
           BLOCK_N2: tl.constexpr, HEAD_DIM: tl.constexpr, MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    offs_n = start_n + tl.arange(0, BLOCK_N2)
    offs_d = tl.arange(0, HEAD_DIM)
    kT_ptrs = K + offs_n[None, :] * stride_tok + offs_d[:, None]
    vT_ptrs = V + offs_n[None, :] * stride_tok + offs_d[:, None]
    Di = tl.load(D + offs_m)
    curr_n = start_n
    for _ in range(num_steps):
        kT = tl.load(kT_ptrs)
        vT = tl.load(vT_ptrs)
        p = tl.math.exp2(tl.dot(q, kT) - m)
        if MASK:
            offs_n = curr_n + tl.arange(0, BLOCK_N2)
            p = tl.where(offs_m[:, None] >= offs_n[None, :], p, 0.0)
        dp = tl.dot(do, vT).to(tl.float32)
        ds = (p * (dp - Di[:, None])).to(tl.float16)
        dq += tl.dot(ds, tl.trans(kT))
        curr_n += BLOCK_N2
        kT_ptrs += BLOCK_N2 * stride_tok
        vT_ptrs += BLOCK_N2 * stride_tok
    return dq


@triton.jit
def attn_bwd(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D, stride_z, stride_h, stride_tok, H, N_CTX,
             BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr,
             BLK_SLICE_FACTOR: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    LN2: tl.constexpr = 0.6931471824645996
    bhid = tl.program_id(2)
    row0 = (bhid * N_CTX).to(tl.int64)
    base = (stride_h * (bhid % H) + stride_z * (bhid // H)).to(tl.int64)
    pid = tl.program_id(0)
    Q += base
    K += base
    V += base
    DO += base
    DQ += base
    DK += base
    DV += base
    M += row0
    D += row0
    offs_d = tl.arange(0, HEAD_DIM)

    # dK, dV for keys [start_n, start_n + BLOCK_N1)
    start_n = pid * BLOCK_N1
    start_m = 0
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_d[None, :])
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_d[None, :])
    if CAUSAL:
        MASK_BLOCK_M1: tl.constexpr = BLOCK_M1 // BLK_SLICE_FACTOR
        start_m = start_n
        num_steps = BLOCK_N1 // MASK_BLOCK_M1
        dk, dv = bwd_dkdv(dk, dv, Q, k, v, DO, M, D, stride_tok, start_n, start_m, num_steps, MASK_BLOCK_M1,
                          BLOCK_N1, HEAD_DIM, MASK=True)
        start_m += num_steps * MASK_BLOCK_M1
    num_steps = (N_CTX - start_m) // BLOCK_M1
    dk, dv = bwd_dkdv(dk, dv, Q, k, v, DO, M, D, stride_tok, start_n, start_m, num_steps, BLOCK_M1, BLOCK_N1,
                      HEAD_DIM, MASK=False)
    tl.store(DV + offs_n[:, None] * stride_tok + offs_d[None, :], dv)
    tl.store(DK + offs_n[:, None] * stride_tok + offs_d[None, :], dk * sm_scale)

    # dQ for queries [start_m, start_m + BLOCK_M2)
    start_m = pid * BLOCK_M2
    start_n = 0
    num_steps = N_CTX // BLOCK_N2
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    q = tl.load(Q + offs_m[:, None] * stride_tok + offs_d[None, :])
    do = tl.load(DO + offs_m[:, None] * stride_tok + offs_d[None, :])
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
    m = tl.load(M + offs_m)[:, None]
    if CAUSAL:
        MASK_BLOCK_N2: tl.constexpr = BLOCK_N2 // BLK_SLICE_FACTOR
        end_n = start_m + BLOCK_M2
        num_steps = BLOCK_M2 // MASK_BLOCK_N2
        dq = bwd_dq(dq, q, K, V, do, m, D, stride_tok, start_m, end_n - num_steps * MASK_BLOCK_N2, num_steps,
                    BLOCK_M2, MASK_BLOCK_N2, HEAD_DIM, MASK=True)
        end_n -= num_steps * MASK_BLOCK_N2
        num_steps = end_n // BLOCK_N2
        start_n = end_n - num_steps * BLOCK_N2
    dq = bwd_dq(dq, q, K, V, do, m, D, stride_tok, start_m, start_n, num_steps, BLOCK_M2, BLOCK_N2, HEAD_DIM,
                MASK=False)
    tl.store(DQ + offs_m[:, None] * stride_tok + offs_d[None, :], dq * LN2)


@triton.jit
def bwd_dkdv_block_ptr(dk, dv, Q, k, v, DO, M, D, stride_tok, N_CTX, start_n, start_m, num_steps,
                       BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, HEAD_DIM: tl.constexpr, MASK: tl.constexpr):
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    # Q read transposed (HEAD_DIM x BLOCK_M1) through its column-major view
    qT_block = tl.make_block_ptr(Q, shape=(HEAD_DIM, N_CTX), strides=(1, stride_tok), offsets=(0, start_m),
                                 block_shape=(HEAD_DIM, BLOCK_M1), order=(0, 1))
    do_block = tl.make_block_ptr(DO, shape=(N_CTX, HEAD_DIM), strides=(stride_tok, 1), offsets=(start_m, 0),
                                 block_shape=(BLOCK_M1, HEAD_DIM), order=(1, 0))
    curr_m = start_m
    for _ in range(num_steps):
        qT = tl.load(qT_block)
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        pT = tl.math.exp2(tl.dot(k, qT) - m[None, :])
        if MASK:
            pT = tl.where(offs_m[None, :] >= offs_n[:, None], pT, 0.0)
        do = tl.load(do_block)
        dv += tl.dot(pT.to(tl.float16), do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = (pT * (dpT - Di[None, :])).to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += BLOCK_M1
        qT_block = tl.advance(qT_block, (0, BLOCK_M1))
        do_block = tl.advance(do_block, (BLOCK_M1, 0))
    return dk, dv


@triton.jit
def bwd_dq_block_ptr(dq, q, K, V, do, m, D, stride_tok, N_CTX, start_m, start_n, num_steps, BLOCK_M2: tl.constexpr,
                     BLOCK_N2: tl.constexpr, HEAD_DIM: tl.constexpr, MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    kT_block = tl.make_block_ptr(K, shape=(HEAD_DIM, N_CTX), strides=(1, stride_tok), offsets=(0, start_n),
                                 block_shape=(HEAD_DIM, BLOCK_N2), order=(0, 1))
    vT_block = tl.make_block_ptr(V, shape=(HEAD_DIM, N_CTX), strides=(1, stride_tok), offsets=(0, start_n),
                                 block_shape=(HEAD_DIM, BLOCK_N2), order=(0, 1))
    Di = tl.load(D + offs_m)
    curr_n = start_n
    for _ in range(num_steps):
        kT = tl.load(kT_block)
        vT = tl.load(vT_block)
        p = tl.math.exp2(tl.dot(q, kT) - m)
        if MASK:
            offs_n = curr_n + tl.arange(0, BLOCK_N2)
            p = tl.where(offs_m[:, None] >= offs_n[None, :], p, 0.0)
        dp = tl.dot(do, vT).to(tl.float32)
        ds = (p * (dp - Di[:, None])).to(tl.float16)
        dq += tl.dot(ds, tl.trans(kT))
        curr_n += BLOCK_N2
        kT_block = tl.advance(kT_block, (0, BLOCK_N2))
        vT_block = tl.advance(vT_block, (0, BLOCK_N2))
    return dq


@triton.jit
def attn_bwd_block_ptr(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D, stride_z, stride_h, stride_tok, H, N_CTX,
                       BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr,
                       BLK_SLICE_FACTOR: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    LN2: tl.constexpr = 0.6931471824645996
    bhid = tl.program_id(2)
    row0 = (bhid * N_CTX).to(tl.int64)
    base = (stride_h * (bhid % H) + stride_z * (bhid // H)).to(tl.int64)
    pid = tl.program_id(0)
    Q += base
    K += base
    V += base
    DO += base
    DQ += base
    DK += base
    DV += base
    M += row0
    D += row0

    # dK, dV for keys [start_n, start_n + BLOCK_N1)
    start_n = pid * BLOCK_N1
    start_m = 0
    k_block = tl.make_block_ptr(K, shape=(N_CTX, HEAD_DIM), strides=(stride_tok, 1), offsets=(start_n, 0),
                                block_shape=(BLOCK_N1, HEAD_DIM), order=(1, 0))
    v_block = tl.make_block_ptr(V, shape=(N_CTX, HEAD_DIM), strides=(stride_tok, 1), offsets=(start_n, 0),
                                block_shape=(BLOCK_N1, HEAD_DIM), order=(1, 0))
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    k = tl.load(k_block)
    v = tl.load(v_block)
    if CAUSAL:
        MASK_BLOCK_M1: tl.constexpr = BLOCK_M1 // BLK_SLICE_FACTOR
        start_m = start_n
        num_steps = BLOCK_N1 // MASK_BLOCK_M1
        dk, dv = bwd_dkdv_block_ptr(dk, dv, Q, k, v, DO, M, D, stride_tok, N_CTX, start_n, start_m, num_steps,
                                    MASK_BLOCK_M1, BLOCK_N1, HEAD_DIM, MASK=True)
        start_m += num_steps * MASK_BLOCK_M1
    num_steps = (N_CTX - start_m) // BLOCK_M1
    dk, dv = bwd_dkdv_block_ptr(dk, dv, Q, k, v, DO, M, D, stride_tok, N_CTX, start_n, start_m, num_steps,
                                BLOCK_M1, BLOCK_N1, HEAD_DIM, MASK=False)
    dv_block = tl.make_block_ptr(DV, shape=(N_CTX, HEAD_DIM), strides=(stride_tok, 1), offsets=(start_n, 0),
                                 block_shape=(BLOCK_N1, HEAD_DIM), order=(1, 0))
    dk_block = tl.make_block_ptr(DK, shape=(N_CTX, HEAD_DIM), strides=(stride_tok, 1), offsets=(start_n, 0),
                                 block_shape=(BLOCK_N1, HEAD_DIM), order=(1, 0))
    tl.store(dv_block, dv.to(tl.float16))
    tl.store(dk_block, (dk * sm_scale).to(tl.float16))

    # dQ for queries [start_m, start_m + BLOCK_M2)
    start_m = pid * BLOCK_M2
    start_n = 0
    num_steps = N_CTX // BLOCK_N2
    q_block = tl.make_block_ptr(Q, shape=(N_CTX, HEAD_DIM), strides=(stride_tok, 1), offsets=(start_m, 0),
                                block_shape=(BLOCK_M2, HEAD_DIM), order=(1, 0))
    do_block = tl.make_block_ptr(DO, shape=(N_CTX, HEAD_DIM), strides=(stride_tok, 1), offsets=(start_m, 0),
                                 block_shape=(BLOCK_M2, HEAD_DIM), order=(1, 0))
    q = tl.load(q_block)
    do = tl.load(do_block)
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
    m = tl.load(M + start_m + tl.arange(0, BLOCK_M2))[:, None]
    if CAUSAL:
        MASK_BLOCK_N2: tl.constexpr = BLOCK_N2 // BLK_SLICE_FACTOR
        end_n = start_m + BLOCK_M2
        num_steps = BLOCK_M2 // MASK_BLOCK_N2
        dq = bwd_dq_block_ptr(dq, q, K, V, do, m, D, stride_tok, N_CTX, start_m, end_n - num_steps * MASK_BLOCK_N2,
                              num_steps, BLOCK_M2, MASK_BLOCK_N2, HEAD_DIM, MASK=True)
        end_n -= num_steps * MASK_BLOCK_N2
        num_steps = end_n // BLOCK_N2
        start_n = end_n - num_steps * BLOCK_N2
    dq = bwd_dq_block_ptr(dq, q, K, V, do, m, D, stride_tok, N_CTX, start_m, start_n, num_steps, BLOCK_M2, BLOCK_N2,
                          HEAD_DIM, MASK=False)
    dq_block = tl.make_block_ptr(DQ, shape=(N_CTX, HEAD_DIM), strides=(stride_tok, 1), offsets=(start_m, 0),
                                 block_shape=(BLOCK_M2, HEAD_DIM), order=(1, 0))
    tl.store(dq_block, (dq * LN2).to(tl.float16))


@triton.jit
def bwd_dkdv_tma(dk, dv, Q, k, v, DO, M, D, stride_tok, N_CTX, start_n, start_m, num_steps,
                 BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, HEAD_DIM: tl.constexpr, MASK: tl.constexpr):
    desc_q = tl.make_tensor_descriptor(Q, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                       block_shape=[BLOCK_M1, HEAD_DIM])
    desc_do = tl.make_tensor_descriptor(DO, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                        block_shape=[BLOCK_M1, HEAD_DIM])
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    curr_m = start_m
    for _ in range(num_steps):
        qT = tl.trans(desc_q.load([curr_m, 0]))
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        pT = tl.math.exp2(tl.dot(k, qT) - m[None, :])
        if MASK:
            pT = tl.where(offs_m[None, :] >= offs_n[:, None], pT, 0.0)
        do = desc_do.load([curr_m, 0])
        dv += tl.dot(pT.to(tl.float16), do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = (pT * (dpT - Di[None, :])).to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += BLOCK_M1
    return dk, dv


@triton.jit
def bwd_dq_tma(dq, q, K, V, do, m, D, stride_tok, N_CTX, start_m, start_n, num_steps, BLOCK_M2: tl.constexpr,
               BLOCK_N2: tl.constexpr, HEAD_DIM: tl.constexpr, MASK: tl.constexpr):
    desc_k = tl.make_tensor_descriptor(K, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                       block_shape=[BLOCK_N2, HEAD_DIM])
    desc_v = tl.make_tensor_descriptor(V, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                       block_shape=[BLOCK_N2, HEAD_DIM])
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    Di = tl.load(D + offs_m)
    curr_n = start_n
    for _ in range(num_steps):
        kT = tl.trans(desc_k.load([curr_n, 0]))
        vT = tl.trans(desc_v.load([curr_n, 0]))
        p = tl.math.exp2(tl.dot(q, kT) - m)
        if MASK:
            offs_n = curr_n + tl.arange(0, BLOCK_N2)
            p = tl.where(offs_m[:, None] >= offs_n[None, :], p, 0.0)
        dp = tl.dot(do, vT).to(tl.float32)
        ds = (p * (dp - Di[:, None])).to(tl.float16)
        dq += tl.dot(ds, tl.trans(kT))
        curr_n += BLOCK_N2
    return dq


@triton.jit
def attn_bwd_tma(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D, stride_z, stride_h, stride_tok, H, N_CTX,
                 BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr,
                 BLK_SLICE_FACTOR: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    LN2: tl.constexpr = 0.6931471824645996
    bhid = tl.program_id(2)
    row0 = (bhid * N_CTX).to(tl.int64)
    base = (stride_h * (bhid % H) + stride_z * (bhid // H)).to(tl.int64)
    pid = tl.program_id(0)
    Q += base
    K += base
    V += base
    DO += base
    DQ += base
    DK += base
    DV += base
    M += row0
    D += row0

    # dK, dV for keys [start_n, start_n + BLOCK_N1)
    start_n = pid * BLOCK_N1
    start_m = 0
    desc_k = tl.make_tensor_descriptor(K, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                       block_shape=[BLOCK_N1, HEAD_DIM])
    desc_v = tl.make_tensor_descriptor(V, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                       block_shape=[BLOCK_N1, HEAD_DIM])
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    k = desc_k.load([start_n, 0])
    v = desc_v.load([start_n, 0])
    if CAUSAL:
        MASK_BLOCK_M1: tl.constexpr = BLOCK_M1 // BLK_SLICE_FACTOR
        start_m = start_n
        num_steps = BLOCK_N1 // MASK_BLOCK_M1
        dk, dv = bwd_dkdv_tma(dk, dv, Q, k, v, DO, M, D, stride_tok, N_CTX, start_n, start_m, num_steps,
                              MASK_BLOCK_M1, BLOCK_N1, HEAD_DIM, MASK=True)
        start_m += num_steps * MASK_BLOCK_M1
    num_steps = (N_CTX - start_m) // BLOCK_M1
    dk, dv = bwd_dkdv_tma(dk, dv, Q, k, v, DO, M, D, stride_tok, N_CTX, start_n, start_m, num_steps, BLOCK_M1,
                          BLOCK_N1, HEAD_DIM, MASK=False)
    desc_dv = tl.make_tensor_descriptor(DV, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                        block_shape=[BLOCK_N1, HEAD_DIM])
    desc_dk = tl.make_tensor_descriptor(DK, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                        block_shape=[BLOCK_N1, HEAD_DIM])
    desc_dv.store([start_n, 0], dv.to(tl.float16))
    desc_dk.store([start_n, 0], (dk * sm_scale).to(tl.float16))

    # dQ for queries [start_m, start_m + BLOCK_M2)
    start_m = pid * BLOCK_M2
    start_n = 0
    num_steps = N_CTX // BLOCK_N2
    desc_q = tl.make_tensor_descriptor(Q, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                       block_shape=[BLOCK_M2, HEAD_DIM])
    desc_do = tl.make_tensor_descriptor(DO, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                        block_shape=[BLOCK_M2, HEAD_DIM])
    q = desc_q.load([start_m, 0])
    do = desc_do.load([start_m, 0])
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
    m = tl.load(M + start_m + tl.arange(0, BLOCK_M2))[:, None]
    if CAUSAL:
        MASK_BLOCK_N2: tl.constexpr = BLOCK_N2 // BLK_SLICE_FACTOR
        end_n = start_m + BLOCK_M2
        num_steps = BLOCK_M2 // MASK_BLOCK_N2
        dq = bwd_dq_tma(dq, q, K, V, do, m, D, stride_tok, N_CTX, start_m, end_n - num_steps * MASK_BLOCK_N2,
                        num_steps, BLOCK_M2, MASK_BLOCK_N2, HEAD_DIM, MASK=True)
        end_n -= num_steps * MASK_BLOCK_N2
        num_steps = end_n // BLOCK_N2
        start_n = end_n - num_steps * BLOCK_N2
    dq = bwd_dq_tma(dq, q, K, V, do, m, D, stride_tok, N_CTX, start_m, start_n, num_steps, BLOCK_M2, BLOCK_N2,
                    HEAD_DIM, MASK=False)
    desc_dq = tl.make_tensor_descriptor(DQ, shape=[N_CTX, HEAD_DIM], strides=[stride_tok, 1],
                                        block_shape=[BLOCK_M2, HEAD_DIM])
    desc_dq.store([start_m, 0], (dq * LN2).to(tl.float16))
