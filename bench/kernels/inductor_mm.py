# The matmul that torch.compile's max-autotune generates for `a @ b`
# (Inductor's mm template, PyTorch 2.11), written out as Inductor emits it:
# sizes and strides baked in as constants (here constexpr parameters, which
# specialize the same way), grouped program order, loads through index
# arithmetic, `acc += tl.dot(a, b, allow_tf32=..., out_dtype=...)`, a masked
# store.  Executed by bench/kernel_sources.py with `triton` and `tl` bound
# to one compiler.


@triton.jit
def inductor_mm(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                stride_am: tl.constexpr, stride_ak: tl.constexpr, stride_bk: tl.constexpr,
                stride_bn: tl.constexpr, ALLOW_TF32: tl.constexpr, ACC_TYPE: tl.constexpr,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    if M * N == 0:
        return
    pid = tl.program_id(0)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if (stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1):
        offs_a_m = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        offs_a_m = rm % M
    if (stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1):
        offs_b_n = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        offs_b_n = rn % N
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k_idx in range(0, tl.cdiv(K, BLOCK_K)):
        a_k_idx_vals = offs_k[None, :] + (k_idx * BLOCK_K)
        b_k_idx_vals = offs_k[:, None] + (k_idx * BLOCK_K)
        idx_m = offs_a_m[:, None]
        idx_n = a_k_idx_vals
        xindex = idx_n * stride_ak + idx_m * stride_am
        a = tl.load(A + xindex)
        idx_m = b_k_idx_vals
        idx_n = offs_b_n[None, :]
        xindex = idx_m * stride_bk + idx_n * stride_bn
        b = tl.load(B + xindex)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32, out_dtype=ACC_TYPE)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)
    xindex = idx_n + N * idx_m
    tl.store(C + tl.broadcast_to(xindex, acc.shape), acc.to(C.dtype.element_ty), mask)
