"""A persistent tensor-descriptor matmul (a flattened tile loop) that
stores, at the top of each tile, which program took it, and computes the
tile's coordinates inside the K loop: ttg-prefetch-next-tile keeps the
store in its tile while the next tile's copies are issued ahead, and the
ring continues across tiles.  Compiled by the CPU tests and run by the GPU
tests."""
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
