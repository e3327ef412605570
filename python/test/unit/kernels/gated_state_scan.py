"""A gated linear recurrence computed chunk by chunk, the form of chunked
linear-attention kernels: each chunk's state is stored, then decayed and
updated with (k * exp2(g_last - g)) @ v, the fp32 gate and the fp16 tile
it scales streamed together through the loop.  Compiled by the CPU tests
and run by the GPU tests against torch."""
import tritium as triton
import tritium.language as tl


@triton.jit
def gated_state_scan(k_ptr, v_ptr, g_ptr, h_ptr, T, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr,
                     BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr):
    i_k, i_v, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H
    rk = i_k * BK + tl.arange(0, BK)
    rv = i_v * BV + tl.arange(0, BV)
    h = tl.zeros([BK, BV], dtype=tl.float32)
    for i_t in range(tl.cdiv(T, BT)):
        rt = i_t * BT + tl.arange(0, BT)
        mt = rt < T
        row = (i_b * T + rt) * H + i_h
        hp = h_ptr + ((i_b * tl.cdiv(T, BT) + i_t) * H + i_h) * K * V + rk[:, None] * V + rv[None, :]
        tl.store(hp, h.to(hp.dtype.element_ty))
        kt = tl.load(k_ptr + row[None, :] * K + rk[:, None], mask=mt[None, :], other=0.0)
        gt = tl.load(g_ptr + row[None, :] * K + rk[:, None], mask=mt[None, :], other=0.0)
        vt = tl.load(v_ptr + row[:, None] * V + rv[None, :], mask=mt[:, None], other=0.0)
        last = (i_b * T + tl.minimum(i_t * BT + BT, T) - 1) * H + i_h
        g_last = tl.load(g_ptr + last * K + rk)
        h *= tl.math.exp2(g_last)[:, None]
        kt = (kt * tl.math.exp2(g_last[:, None] - gt)).to(kt.dtype)
        h += tl.dot(kt, vt)
