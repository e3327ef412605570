"""A loop folding each iteration's row reduction into a running value
(Triton's test_optimize_thread_locality form): ttg-optimize-thread-locality
keeps the running value per thread and combines the threads after the
loop.  OP: 0 sum, 1 max, 2 min, 3 a product of row sums (another fold than
the reduction: left alone)."""
import tritium as triton
import tritium.language as tl


@triton.jit
def row_reduce_loop(X, Y, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, OP: tl.constexpr):
    start_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    num_pid_n = tl.num_programs(1)
    if OP == 0:
        local = tl.zeros([BLOCK_M], dtype=tl.float32)
    elif OP == 1:
        local = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    elif OP == 2:
        local = tl.full([BLOCK_M], float("inf"), dtype=tl.float32)
    else:
        local = tl.full([BLOCK_M], 1.0, dtype=tl.float32)
    off_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    for start_n in range(pid_n, tl.cdiv(N, BLOCK_N), num_pid_n):
        off_n = start_n * BLOCK_N + tl.arange(0, BLOCK_N)
        x = tl.load(X + off_m[:, None] * N + off_n[None, :])
        if OP == 0:
            local = local + tl.sum(x, axis=1)
        elif OP == 1:
            local = tl.maximum(local, tl.max(x, axis=1))
        elif OP == 2:
            local = tl.minimum(local, tl.min(x, axis=1))
        else:
            local = local * tl.sum(x, axis=1)
    tl.store(Y + off_m * num_pid_n + pid_n, local)
