# Flash-attention forward written the way many users write it rather than
# the way Triton's tutorial does: plain pointer loads with every stride an
# argument, one loop over the K/V blocks (causal masking by tl.where inside
# it, for every block up to the diagonal), the running rescale of the
# accumulator as its own statement before `acc = tl.dot(p, v, acc)` (or,
# with ADD_PRODUCT, `acc += tl.dot(p, v)`, the other way users write it).
# Executed by bench/kernel_sources.py with `triton` and `tl` bound to one
# compiler.


@triton.jit
def attn_fwd_one_loop(Q, K, V, Out, sm_scale,
                      stride_qz, stride_qh, stride_qm, stride_qd,
                      stride_kz, stride_kh, stride_kn, stride_kd,
                      stride_vz, stride_vh, stride_vn, stride_vd,
                      stride_oz, stride_oh, stride_om, stride_od,
                      H, N_CTX,
                      HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr,
                      ADD_PRODUCT: tl.constexpr = False):
    start_m = tl.program_id(0)
    off_zh = tl.program_id(1)
    off_z = off_zh // H
    off_h = off_zh % H
    q_base = Q + off_z * stride_qz + off_h * stride_qh
    k_base = K + off_z * stride_kz + off_h * stride_kh
    v_base = V + off_z * stride_vz + off_h * stride_vh
    o_base = Out + off_z * stride_oz + off_h * stride_oh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.44269504
    if CAUSAL:
        hi = (start_m + 1) * BLOCK_M
    else:
        hi = N_CTX
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_base + cols[None, :] * stride_kn + offs_d[:, None] * stride_kd)
        qk = tl.dot(q, k) * qk_scale
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= cols[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_base + cols[:, None] * stride_vn + offs_d[None, :] * stride_vd)
        acc = acc * alpha[:, None]
        if ADD_PRODUCT:
            acc += tl.dot(p.to(v.dtype), v)
        else:
            acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_base + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od, acc.to(Out.dtype.element_ty))
