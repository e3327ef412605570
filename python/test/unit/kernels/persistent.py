"""Persistent tensor-descriptor matmuls (a flattened tile loop), compiled
by the CPU tests and run by the GPU tests: one that stores, at the top of
each tile, which program took it, and computes the tile's coordinates
inside the K loop (ttg-prefetch-next-tile keeps the store in its tile
while the next tile's copies are issued ahead, and
ttg-continue-ring-across-tiles carries the ring across tiles); one that
stores its tiles in C's own dtype (ttg-defer-tile-store's deferred tile
write, over any tile width and dtype)."""
import tritium as triton
import tritium.language as tl


@triton.jit
def persistent_matmul_recording_tiles(a_desc, b_desc, c_desc, owner_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                                      BK: tl.constexpr, PROGRAMS: tl.constexpr):
    num_pid_n = tl.cdiv(N, BN)
    num_tiles = tl.cdiv(M, BM) * num_pid_n
    for tile in tl.range(tl.program_id(0), num_tiles, PROGRAMS, flatten=True):
        tl.store(owner_ptr + tile, tl.program_id(0) + 1000 * tile)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(tl.cdiv(K, BK)):
            a = a_desc.load([(tile // num_pid_n) * BM, k * BK])
            b = b_desc.load([(tile % num_pid_n) * BN, k * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([(tile // num_pid_n) * BM, (tile % num_pid_n) * BN], acc.to(tl.float16))


@triton.jit
def persistent_matmul_any_output(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                                 BK: tl.constexpr, PROGRAMS: tl.constexpr):
    num_pid_n = tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BM) * num_pid_n, PROGRAMS, flatten=True):
        pid_m = tile // num_pid_n
        pid_n = tile % num_pid_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(tl.cdiv(K, BK)):
            acc = tl.dot(a_desc.load([pid_m * BM, k * BK]), b_desc.load([pid_n * BN, k * BK]).T, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))
