"""Tensor descriptors compiled without a GPU: on cuda:90 a descriptor is a
64-byte aligned tensor-map parameter whose loads and stores are TMA copies
(cp.async.bulk.tensor completing on an mbarrier; bulk groups out), with the
plan the launcher encodes in the metadata; on cuda:80, and for blocks the
copy engine cannot move, the same kernel loads through pointers.  The
launch record places each tensor map 64-byte aligned.  Bad uses fail at
the user's line."""
import os
import re

import pytest

import tritium as triton
import tritium.language as tl
from tritium.errors import CompilationError
from tritium.runtime.launcher import argument_offsets, record_format
from kernels.persistent import persistent_matmul_any_output, persistent_matmul_recording_tiles

THIS_FILE = os.path.abspath(__file__)


@triton.jit
def copy_kernel(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = in_desc.load([pm * BM, pn * BN])
    out_desc.store([pm * BM, pn * BN], x * 2)


def compile_copy(dtype, block, target):
    sig = f"tensordesc<{dtype}[{block[0]},{block[1]}]>"
    return triton.compile(copy_kernel, signature={"in_desc": sig, "out_desc": sig},
                          constexprs={"BM": block[0], "BN": block[1]}, target=target)


def test_hopper_moves_tiles_with_tma():
    k = compile_copy("fp16", (64, 128), "cuda:90")
    ptx = k.asm["ptx"]
    assert ".param .align 64 .b8 copy_kernel_param_0[128]" in ptx
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes") == 2
    assert ptx.count("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group") == 2
    assert "mbarrier.try_wait.parity" in ptx and "cp.async.bulk.wait_group.read 0" in ptx
    # two 128-byte slabs of 64 fp16 each; arguments 0 and 6 (a descriptor spans 2 + 2 * rank)
    assert k.metadata["tensor_descriptors"] == [{"arg": 0, "swizzle": 128, "box": [64, 64]},
                                                {"arg": 6, "swizzle": 128, "box": [64, 64]}]


def test_other_targets_and_blocks_load_through_pointers():
    k = compile_copy("fp16", (64, 128), "cuda:80")
    assert "cp.async.bulk" not in k.asm["ptx"] and k.metadata["tensor_descriptors"] == []
    k = compile_copy("fp16", (64, 4), "cuda:90")  # 8-byte rows: not a TMA box
    assert "cp.async.bulk" not in k.asm["ptx"] and k.metadata["tensor_descriptors"] == []


def test_launch_record_aligns_tensor_maps():
    types = ["i32", "tensordesc<fp16[64]>", "fp32", "tensordesc<fp32[2,4,8]>"]
    offsets = argument_offsets(types)
    assert offsets == [0, 64, 192, 200, 208, 216, 256, 384, 392, 396, 400, 408, 416, 424]
    assert record_format(types).count("128s") == 2


@triton.jit
def bad_offsets_kernel(desc):
    desc.load([0])


@triton.jit
def bad_store_kernel(desc):
    desc.store([0, 0], tl.zeros((32, 32), dtype=tl.float16))


@pytest.mark.parametrize("kernel,message", [
    (bad_offsets_kernel, "load needs 2 offsets (one per block dimension), got 1"),
    (bad_store_kernel, "store of a [32, 32] tile through a descriptor of block shape [64, 64]"),
])
def test_bad_uses_point_at_the_line(kernel, message):
    with pytest.raises(CompilationError) as info:
        triton.compile(kernel, signature={"desc": "tensordesc<fp16[64,64]>"}, target="cuda:90")
    assert message in str(info.value)
    assert f"{THIS_FILE}:" in str(info.value)


@triton.jit
def device_descriptor_kernel(x_ptr, M, N, BLOCK: tl.constexpr):
    desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK, BLOCK])
    desc.store([0, 0], desc.load([0, 0]) + 1)


@triton.jit
def strided_device_descriptor_kernel(x_ptr, M, N):
    tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[1, 2], block_shape=[16, 16])


def test_device_made_descriptors_encode_tensor_maps_on_hopper():
    k = triton.compile(device_descriptor_kernel, signature={"x_ptr": "*fp16", "M": "i32", "N": "i32"},
                       constexprs={"BLOCK": 64}, target="cuda:90",
                       attrs={"x_ptr": [["tt.divisibility", 16]], "N": [["tt.divisibility", 16]]})
    ptx = k.asm["ptx"]
    # one tensor map (128 bytes of each program's scratch, the kernel's last
    # parameter), encoded by one thread in shared memory, copied to the slot
    # and released for the tensor-map proxy by its warp, acquired by it
    assert k.metadata["global_scratch_size"] == 128 and k.metadata["global_scratch_align"] == 128
    assert ".param .u64 .ptr .global .align 1 device_descriptor_kernel_param_3" in ptx
    assert "tensormap.replace.tile.global_address.shared::cta.b1024.b64" in ptx
    assert "tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%r1], 3;" in ptx  # 128-byte rows
    assert ".global.b1024" not in ptx
    assert "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [%r1], 128;" in ptx
    assert "fence.proxy.tensormap::generic.acquire.gpu" in ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" in ptx and "ld.global" not in ptx
    k = triton.compile(device_descriptor_kernel, signature={"x_ptr": "*fp16", "M": "i32", "N": "i32"},
                       constexprs={"BLOCK": 64}, target="cuda:80")
    assert "tensormap" not in k.asm["ptx"] and "ld.global" in k.asm["ptx"]
    assert k.metadata["global_scratch_size"] == 0


@triton.jit(noinline=True)
def noinline_copy_block(x_ptr, M, N):
    desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[16, 16])
    desc.store([16, 0], desc.load([0, 0]))


@triton.jit
def noinline_user_kernel(x_ptr, M, N):
    noinline_copy_block(x_ptr, M, N)


@triton.jit
def pointer_only_descriptor_kernel(x_ptr, M, N, BLOCK: tl.constexpr):
    desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK, BLOCK])
    desc.atomic_add([0, 0], tl.full((BLOCK, BLOCK), 1, tl.float32))


def test_device_made_descriptors_without_a_tensor_map_need_no_scratch():
    # a noinline function has no scratch of its own: its descriptors move
    # blocks through pointers; a descriptor only used by atomics (pointer
    # operations) keeps no tensor map
    k = triton.compile(noinline_user_kernel, signature={"x_ptr": "*fp16", "M": "i32", "N": "i32"},
                       target="cuda:90")
    assert "tensormap" not in k.asm["ptx"] and "ld.global" in k.asm["ptx"]
    assert k.metadata["global_scratch_size"] == 0
    k = triton.compile(pointer_only_descriptor_kernel, signature={"x_ptr": "*fp32", "M": "i32", "N": "i32"},
                       constexprs={"BLOCK": 32}, target="cuda:90")
    assert "tensormap" not in k.asm["ptx"] and "atom.global.gpu.relaxed.add.f32" in k.asm["ptx"]
    assert k.metadata["global_scratch_size"] == 0
    with pytest.raises(CompilationError) as info:
        triton.compile(strided_device_descriptor_kernel, signature={"x_ptr": "*fp16", "M": "i32", "N": "i32"},
                       target="cuda:90")
    assert "must be contiguous (stride 1), got 2" in str(info.value) and f"{THIS_FILE}:" in str(info.value)


# Tutorial 06's shape: a helper returns the host descriptor it was given, or
# makes one from a pointer; helpers take descriptors made in the kernel.
@triton.jit
def maybe_make_descriptor(desc_or_ptr, M, N, BLOCK: tl.constexpr):
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK, BLOCK])


@triton.jit
def add_one_block(desc, row, scale):
    desc.store([row, 0], desc.load([row, 0]) * scale + 1)
    return row + 1, desc


@triton.jit
def returned_descriptor_kernel(x, M, N, BLOCK: tl.constexpr):
    desc = maybe_make_descriptor(x, M, N, BLOCK)
    row, same = add_one_block(desc, 0, 2.0)
    add_one_block(same, row * BLOCK, 3)


@pytest.mark.parametrize("x_type,target,tma", [("tensordesc<fp16[64,64]>", "cuda:90", True),
                                               ("*fp16", "cuda:90", True), ("*fp16", "cuda:80", False)])
def test_helpers_return_and_take_descriptors(x_type, target, tma):
    k = triton.compile(returned_descriptor_kernel, signature={"x": x_type, "M": "i32", "N": "i32"},
                       constexprs={"BLOCK": 64}, target=target)
    ptx = k.asm["ptx"]
    assert ("cp.async.bulk.tensor" in ptx) == tma
    # two loads and two stores, the second block one row of blocks down
    assert ptx.count("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group") == (2 if tma else 0)
    # a descriptor made in the kernel: one tensor map
    assert ptx.count("tensormap.replace.tile.global_address") == (1 if x_type == "*fp16" and tma else 0)


@triton.jit(noinline=True)
def noinline_maker(x, M, N):
    return tl.make_tensor_descriptor(x, shape=[M, N], strides=[N, 1], block_shape=[16, 16])


@triton.jit
def noinline_maker_kernel(x, M, N):
    desc = noinline_maker(x, M, N)
    desc.store([0, 0], desc.load([0, 0]))


def test_noinline_helpers_that_return_descriptors_are_generated_in_the_caller():
    # as Triton's own tests write them; noinline is a hint the body does not need
    k = triton.compile(noinline_maker_kernel, signature={"x": "*fp16", "M": "i32", "N": "i32"}, target="cuda:90")
    assert "tt.call" not in k.asm["ttir"] and "tt.descriptor_load" in k.asm["ttir"]


# Descriptors made in the kernel cross branches and loops: a batched matmul
# remakes them per tile (the form of Triton's tests), a loop carries them.
@triton.jit
def remade_in_loop_kernel(a_ptr, c_ptr, B, M, K, BM: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    acc = tl.zeros((BM, BK), tl.float32)
    for i in range(B * 2):
        if i % 2 == 0:
            a_desc = tl.make_tensor_descriptor(a_ptr + (i // 2) * M * K, [M, K], [K, 1], [BM, BK])
        acc += a_desc.load([0, (i % 2) * BK]).to(tl.float32)
    n = 0
    while n < K:
        a_desc = tl.make_tensor_descriptor(c_ptr, [M, K], [K, 1], [BM, BK])
        a_desc.store([0, n], acc.to(tl.float16))
        n += BK


def test_descriptors_made_in_the_kernel_cross_branches_and_loops():
    k = triton.compile(remade_in_loop_kernel, signature={"a_ptr": "*fp16", "c_ptr": "*fp16", "B": "i32", "M": "i32",
                                                         "K": "i32"}, constexprs={"BM": 16, "BK": 32},
                       target="cuda:90")
    ttir = k.asm["ttir"]
    # the for loop carries the base, the shape, the runtime stride (not the
    # constant stride 1) and the tensor map
    header = next(line for line in ttir.splitlines() if "scf.for" in line)
    assert "-> (!tt.ptr<f16>, i32, i32, i32, !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf32>)" in header, header
    # three tensor maps (before the loop, in its branch, in the while loop)
    assert k.metadata["global_scratch_size"] == 3 * 128
    assert "ttg.async_tma_copy_global_to_local" in k.asm["ttgir"]
    assert "scf.while" in ttir and "tt.descriptor_store" in ttir


@triton.jit
def transposed_twice_kernel(q_desc, k_desc, out_desc, steps, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # tutorial 06's backward: qT read transposed, then used again as
    # tl.trans(qT); both dots read the ring's tile
    k = k_desc.load([0, 0])
    acc = tl.zeros((BN, D), tl.float32)
    for i in range(steps):
        qT = tl.trans(q_desc.load([i * BM, 0]))
        s = tl.dot(k, qT)
        acc = tl.dot(s.to(tl.float16), tl.trans(qT), acc)
    out_desc.store([0, 0], acc.to(tl.float16))


def test_a_transposed_tile_used_transposed_again_streams_through_the_ring():
    sig = {"q_desc": "tensordesc<fp16[64,64]>", "k_desc": "tensordesc<fp16[64,64]>",
           "out_desc": "tensordesc<fp16[64,64]>", "steps": "i32"}
    k = triton.compile(transposed_twice_kernel, signature=sig, constexprs={"BM": 64, "BN": 64, "D": 64},
                       target="cuda:90", num_warps=4, num_stages=3)
    ttgir = k.asm["ttgir"]
    # trans(trans(q)) folds to q: no transpose through registers, and the
    # q tiles come through a 3-slot ring instead of a copy waited for in
    # every iteration
    assert "tt.trans" not in ttgir
    assert "!ttg.memdesc<3x64x64xf16" in ttgir
    loop = ttgir[ttgir.index("scf.for"):]
    assert loop.count("ttg.wait_barrier") == 1 and "ttg.local_load" not in loop.split("scf.yield")[0]
    assert k.metadata.get("spills", 0) == 0


@triton.jit
def persistent_kernel(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                      PROGRAMS: tl.constexpr, PER_TILE_K: tl.constexpr):
    num_pid_n = tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BM) * num_pid_n, PROGRAMS, flatten=True):
        pid_m = tile // num_pid_n
        pid_n = tile % num_pid_n
        k_tiles = tl.cdiv(K, BK)
        if PER_TILE_K:
            k_tiles = min(k_tiles, tile + 1)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(k_tiles):
            a = a_desc.load([pid_m * BM, k * BK])
            b = b_desc.load([pid_n * BN, k * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


def compile_persistent(per_tile_k):
    sig = {"a_desc": "tensordesc<fp16[128,64]>", "b_desc": "tensordesc<fp16[128,64]>",
           "c_desc": "tensordesc<fp16[128,128]>", "M": "i32", "N": "i32", "K": "i32"}
    return triton.compile(persistent_kernel, signature=sig,
                          constexprs={"BM": 128, "BN": 128, "BK": 64, "PROGRAMS": 132, "PER_TILE_K": per_tile_k},
                          target="cuda:90", num_warps=8, num_stages=3)


def ring_copy_predicates(ttgir):
    """The predicates of the TMA copies inside the K loop (the inner scf.for)."""
    inner = ttgir[ttgir.index("scf.for", ttgir.index("scf.for") + 1):]
    inner = inner[:inner.index("scf.yield")]
    return re.findall(r"ttg\.async_tma_copy_global_to_local [^\n]*, (%\w+) :", inner)


def test_persistent_tiles_share_one_ring():
    ttgir = compile_persistent(False).asm["ttgir"]
    # the K loop's last iterations issue the next tile's first copies: their
    # predicate is `in this tile || the ring continues`
    ors = set(re.findall(r"(%\w+) = arith\.ori", ttgir))
    predicates = ring_copy_predicates(ttgir)
    assert predicates and all(p in ors for p in predicates)
    # the barriers are invalidated only where the ring stops
    assert re.search(r"scf\.if %\w+ \{\s*ttg\.inval_barrier", ttgir)


def test_a_k_extent_that_changes_per_tile_keeps_a_ring_per_tile():
    ttgir = compile_persistent(True).asm["ttgir"]
    ors = set(re.findall(r"(%\w+) = arith\.ori", ttgir))
    predicates = ring_copy_predicates(ttgir)
    assert predicates and not any(p in ors for p in predicates)
    assert not re.search(r"scf\.if %\w+ \{\s*ttg\.inval_barrier", ttgir)


@pytest.mark.parametrize("c_f32, warps, block_n, written_in_k_loop", [
    (False, 8, 256, True),   # tutorial 09's tile: 128 + 64 registers a thread
    (False, 4, 128, True),   # 128 + 64
    (True, 8, 128, True),    # 64 + 64
    (True, 4, 128, False),   # 128 + 128: over the budget, the epilogue writes the tile
])
def test_a_persistent_tile_is_written_in_the_next_k_loop_within_the_register_budget(c_f32, warps, block_n,
                                                                                     written_in_k_loop):
    sig = {"a_desc": "tensordesc<fp16[128,64]>", "b_desc": f"tensordesc<fp16[{block_n},64]>",
           "c_desc": f"tensordesc<{'fp32' if c_f32 else 'fp16'}[128,{block_n}]>", "M": "i32", "N": "i32",
           "K": "i32"}
    k = triton.compile(persistent_matmul_any_output, signature=sig,
                       constexprs={"BM": 128, "BN": block_n, "BK": 64, "PROGRAMS": 132},
                       target="cuda:90", num_warps=warps, num_stages=3)
    ttgir = k.asm["ttgir"]
    tile_loop = ttgir[ttgir.index("scf.for"):ttgir.index("{tt.flatten")]
    k_loop = tile_loop[tile_loop.index("scf.for", 1):]
    k_loop = k_loop[:k_loop.index("scf.yield")]
    # the store is always issued by the next tile's K loop; the write too when carried
    assert "ttg.async_tma_copy_local_to_global" in k_loop
    assert ("ttg.local_store" in k_loop) == written_in_k_loop
    # written or not, the tile's value is carried by the tile loop only when written there
    carried = re.search(r"-> \(([^)]*)\)", tile_loop).group(1)
    assert ("tensor<" in carried) == written_in_k_loop
    assert k.metadata.get("spills", 0) == 0


@pytest.mark.parametrize("c_f32, block_n, slab_columns", [
    (False, 256, [0, 64, 128, 192]),  # tutorial 09's tile: four 128-byte boxes
    (True, 128, [0, 32, 64, 96]),     # fp32: 32 columns a box
    (False, 128, [0, 64]),
    (False, 64, []),                  # one box: written and stored whole
    (False, 8, []),                   # unswizzled: whole, with its fence
])
def test_a_carried_tile_is_written_and_stored_a_slab_per_k_iteration(c_f32, block_n, slab_columns):
    sig = {"a_desc": "tensordesc<fp16[128,64]>", "b_desc": f"tensordesc<fp16[{block_n},64]>",
           "c_desc": f"tensordesc<{'fp32' if c_f32 else 'fp16'}[128,{block_n}]>", "M": "i32", "N": "i32",
           "K": "i32"}
    k = triton.compile(persistent_matmul_any_output, signature=sig,
                       constexprs={"BM": 128, "BN": block_n, "BK": 64, "PROGRAMS": 132},
                       target="cuda:90", num_warps=8, num_stages=3)
    ttgir = k.asm["ttgir"]
    tile_loop = ttgir[ttgir.index("scf.for"):ttgir.index("{tt.flatten")]
    k_loop = tile_loop[tile_loop.index("scf.for", 1):]
    k_loop = k_loop[:k_loop.index("scf.yield")]
    # slab j: its own scf.if (iteration j), its registers, its slot, its
    # store; slab 0's opens with the wait for the previous tile's stores
    slabs = re.findall(r"scf\.if %\w+ \{\s*((?:ttg\.async_tma_store_wait \{pendings = 0 : i32\}.*\s*ttg\.barrier.*\s*)?)"
                       r"%\w+ = ttg\.extract_tile %\w+ \[0, (\d+)\]", k_loop)
    assert [int(c) for _, c in slabs] == slab_columns
    assert [bool(wait) for wait, _ in slabs] == [c == 0 for c in slab_columns]
    assert k_loop.count("ttg.async_tma_copy_local_to_global") == max(len(slab_columns), 1)
    assert k_loop.count("ttg.local_store") == max(len(slab_columns), 1)
    assert k.metadata.get("spills", 0) == 0


def test_a_k_loop_over_64_bit_integers_writes_its_carried_tile_whole():
    # lb + j * step of an i64 loop could wrap: the tile goes whole, in the first iteration
    sig = {"a_desc": "tensordesc<fp16[128,64]>", "b_desc": "tensordesc<fp16[256,64]>",
           "c_desc": "tensordesc<fp16[128,256]>", "M": "i32", "N": "i32", "K": "i64"}
    k = triton.compile(persistent_matmul_any_output, signature=sig,
                       constexprs={"BM": 128, "BN": 256, "BK": 64, "PROGRAMS": 132},
                       target="cuda:90", num_warps=8, num_stages=3)
    ttgir = k.asm["ttgir"]
    tile_loop = ttgir[ttgir.index("scf.for"):ttgir.index("{tt.flatten")]
    k_loop = tile_loop[tile_loop.index("scf.for", 1):]
    assert re.match(r"scf\.for %\w+ = %\w+ to %\w+ step %\w+ iter_args\([^)]*\) -> \([^)]*\)\s*: i64", k_loop)
    k_loop = k_loop[:k_loop.index("scf.yield")]
    assert "ttg.extract_tile" not in k_loop
    assert k_loop.count("ttg.local_store") == 1 and k_loop.count("ttg.async_tma_copy_local_to_global") == 1


@pytest.mark.parametrize("block_n", [8, 64])  # 16-byte rows are stored unswizzled; 128-byte rows swizzled
def test_deferred_tile_writes_are_fenced_before_their_tma_store(block_n):
    # In PTX order, every TMA store follows a proxy fence after the last
    # shared-memory write: the tile's writes, moved into the next tile's K
    # loop, keep their fence (local_store fences an NVMMA tile itself; an
    # unswizzled one gets the epilogue's fence_async_shared after each write).
    sig = {"a_desc": "tensordesc<fp16[128,64]>", "b_desc": f"tensordesc<fp16[{block_n},64]>",
           "c_desc": f"tensordesc<fp16[128,{block_n}]>", "M": "i32", "N": "i32", "K": "i32"}
    k = triton.compile(persistent_matmul_any_output, signature=sig,
                       constexprs={"BM": 128, "BN": block_n, "BK": 64, "PROGRAMS": 132},
                       target="cuda:90", num_warps=4, num_stages=3)
    unfenced, stores = False, 0
    for line in k.asm["ptx"].splitlines():
        if re.search(r"\bst\.shared|\bstmatrix", line):
            unfenced = True
        elif "fence.proxy.async" in line:
            unfenced = False
        elif "cp.async.bulk.tensor" in line and "global.shared::cta" in line:
            assert not unfenced, line
            stores += 1
    assert stores >= 3  # in the K loop, for a K loop without iterations, after the tile loop
    ttgir = k.asm["ttgir"]
    k_loop = ttgir[ttgir.index("scf.for", ttgir.index("scf.for") + 1):]
    assert "ttg.local_store" in k_loop[:k_loop.index("scf.yield")]


def test_a_store_at_the_tile_head_stays_in_its_tile_and_the_ring_continues():
    sig = {"a_desc": "tensordesc<fp16[128,64]>", "b_desc": "tensordesc<fp16[128,64]>",
           "c_desc": "tensordesc<fp16[128,128]>", "owner_ptr": "*i32", "M": "i32", "N": "i32", "K": "i32"}
    ttgir = triton.compile(persistent_matmul_recording_tiles, signature=sig,
                           constexprs={"BM": 128, "BN": 128, "BK": 64, "PROGRAMS": 132},
                           target="cuda:90", num_warps=8, num_stages=3).asm["ttgir"]
    ors = set(re.findall(r"(%\w+) = arith\.ori", ttgir))
    predicates = ring_copy_predicates(ttgir)
    assert predicates and all(p in ors for p in predicates)
    # the store is the tile loop's first op, before its K loop
    tile_loop = ttgir[ttgir.index("scf.for"):]
    assert re.match(r"scf\.for [^\n]*\{\n\s*tt\.store ", tile_loop)


@triton.jit
def shape_changed_in_loop_kernel(a_ptr, M, K, BM: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, 64], [K, 1], [BM, BK])
    for i in range(4):
        a_desc = tl.make_tensor_descriptor(a_ptr, [M, 32], [K, 1], [BM, BK])
    a_desc.store([0, 0], tl.zeros((BM, BK), tl.float16))


@triton.jit
def descriptor_or_tensor_kernel(a_ptr, M, K, flag, BM: tl.constexpr, BK: tl.constexpr):
    x = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    if flag > 0:
        x = tl.zeros((BM, BK), tl.float16)


@pytest.mark.parametrize("kernel,message", [
    (shape_changed_in_loop_kernel, "loop-carried variable 'a_desc': its shape[1] is the constant 64 before the loop "
                                   "but 32 at the end of the body"),
    (descriptor_or_tensor_kernel, "on the other: give it one kind and type on both"),
])
def test_descriptors_that_change_kind_or_constant_across_a_boundary_fail_at_the_line(kernel, message):
    signature = {"a_ptr": "*fp16", "M": "i32", "K": "i32"}
    if "flag" in kernel.arg_names:
        signature["flag"] = "i32"
    with pytest.raises(CompilationError) as info:
        triton.compile(kernel, signature=signature, constexprs={"BM": 16, "BK": 32}, target="cuda:90")
    assert message in str(info.value)
    assert f"{THIS_FILE}:" in str(info.value)


# Descriptor atomics, gather and scatter go through pointers on every target.
@triton.jit
def descriptor_atomics_kernel(desc, BM: tl.constexpr, BN: tl.constexpr):
    tile = tl.full((BM, BN), 3, tl.int32)
    desc.atomic_add([0, 0], tile)
    desc.atomic_max([BM, 0], tile)
    desc.atomic_xor([0, BN], tile)


@triton.jit
def gather_scatter_kernel(src, dst, rows_ptr, R: tl.constexpr):
    rows = tl.load(rows_ptr + tl.arange(0, R))
    x = src.gather(rows, 8)
    dst.scatter(x * 2, rows, 0)


def test_descriptor_atomics_gather_and_scatter_compile_to_masked_pointer_ops():
    for target in ("cuda:90", "cuda:80"):
        k = triton.compile(descriptor_atomics_kernel, signature={"desc": "tensordesc<i32[16,32]>"},
                           constexprs={"BM": 16, "BN": 32}, target=target)
        ptx = k.asm["ptx"]
        for op in ("add.s32", "add.u32", "max.s32", "xor.b32"):
            ptx = ptx.replace(f"gpu.relaxed.{op}", "gpu.relaxed.OP")
        # 16x32 elements, 128 threads: 4 masked atomics per thread for each of the three
        assert ptx.count("atom.global.gpu.relaxed.OP") == 12 or ptx.count("red.global.gpu.relaxed.OP") == 12
        k = triton.compile(gather_scatter_kernel, signature={"src": "tensordesc<fp16[1,64]>",
                                                             "dst": "tensordesc<fp16[1,64]>", "rows_ptr": "*i32"},
                           constexprs={"R": 16}, target=target)
        assert "ld.global" in k.asm["ptx"] and "st.global" in k.asm["ptx"] and "cp.async.bulk" not in k.asm["ptx"]


@triton.jit
def bad_gather_block_kernel(desc, rows_ptr):
    desc.gather(tl.load(rows_ptr + tl.arange(0, 16)), 0)


@triton.jit
def few_rows_gather_kernel(desc, rows_ptr):
    desc.gather(tl.load(rows_ptr + tl.arange(0, 4)), 0)


@triton.jit
def half_atomic_max_kernel(desc):
    desc.atomic_max([0, 0], tl.zeros((64, 64), tl.float16))


@triton.jit
def int8_atomic_add_kernel(desc):
    desc.atomic_add([0, 0], tl.zeros((64, 64), tl.int8))


@pytest.mark.parametrize("kernel,sig,message", [
    (bad_gather_block_kernel, "tensordesc<fp16[64,64]>", "gather needs a 2-D descriptor whose block is one row"),
    (few_rows_gather_kernel, "tensordesc<fp16[1,64]>", "gather needs at least 8 rows, got 4"),
    (half_atomic_max_kernel, "tensordesc<fp16[64,64]>", "atomic_max of fp16 through a tensor descriptor is not "
                                                       "supported by Tritium yet"),
    (int8_atomic_add_kernel, "tensordesc<i8[64,64]>", "atomic_add through a tensor descriptor supports uint32"),
])
def test_bad_descriptor_atomics_and_gathers_point_at_the_line(kernel, sig, message):
    signature = {"desc": sig}
    if "rows_ptr" in kernel.arg_names:
        signature["rows_ptr"] = "*i32"
    with pytest.raises(CompilationError) as info:
        triton.compile(kernel, signature=signature, target="cuda:90")
    assert message in str(info.value)
    assert f"{THIS_FILE}:" in str(info.value)


@triton.jit
def strided_made_descriptor_kernel(x_ptr, n0, n1, s0):
    x = tl.make_tensor_descriptor(x_ptr, [n0, n1], [s0, 1], [16, 32])
    x.store([0, 0], x.load([0, 0]) + 1)


def test_made_descriptor_alignment_is_checked_where_not_known():
    """The copy engine needs the base and the outer strides to be multiples of
    16 bytes: a kernel specialized with them divisible by 16 (as launches of
    aligned tensors are) encodes the map unchecked; one without has the
    launcher check the stride argument (a multiple of 8 fp16 elements,
    metadata multiple_at_launch_args) and the kernel check the base (a
    device assertion naming the rule)."""
    signature = {"x_ptr": "*fp16", "n0": "i32", "n1": "i32", "s0": "i32"}
    known = triton.compile(strided_made_descriptor_kernel, signature=signature, target="cuda:90",
                           attrs={"x_ptr": [["tt.divisibility", 16]], "s0": [["tt.divisibility", 16]]})
    assert "tensormap.replace" in known.asm["ptx"] and "__assertfail" not in known.asm["ptx"]
    assert known.metadata["multiple_at_launch_args"] == []
    unknown = triton.compile(strided_made_descriptor_kernel, signature=signature, target="cuda:90")
    assert "tt.assert" in unknown.asm["ttgir"]
    assert "its base address must be a multiple of 16 bytes" in unknown.asm["ttgir"]
    assert "__assertfail" in unknown.asm["ptx"]
    (stride,) = unknown.metadata["multiple_at_launch_args"]
    assert (stride["arg"], stride["multiple_of"]) == (3, 8)
    line = strided_made_descriptor_kernel.fn.__code__.co_firstlineno + 2
    assert stride["why"] == (f"tensor descriptor made in the kernel at {THIS_FILE}:{line}: its stride 0 "
                             "(2-byte elements) must be a multiple of 16 bytes (the copy engine's rule)")


@triton.jit
def made_descriptor_dot_kernel(x_ptr, y_ptr, n, s0):
    a = tl.make_tensor_descriptor(x_ptr, [n, n], [s0, 1], [64, 64])
    b = tl.make_tensor_descriptor(y_ptr, [n, n], [s0, 1], [64, 64])
    acc = tl.dot(a.load([0, 0]), b.load([0, 0]))
    b.store([0, 0], acc.to(tl.float16))


def test_a_stride_checked_at_launch_keeps_warp_group_dots_asynchronous():
    """A kernel that calls the assertion handler has its wgmma serialized by
    ptxas (performance note C7510).  With aligned pointers and a stride of
    unknown divisibility, the launcher checks the stride: the kernel has no
    assertion, and the rows the kernel computes from the stride are known
    aligned."""
    signature = {"x_ptr": "*fp16", "y_ptr": "*fp16", "n": "i32", "s0": "i32"}
    k = triton.compile(made_descriptor_dot_kernel, signature=signature, target="cuda:90",
                       attrs={"x_ptr": [["tt.divisibility", 16]], "y_ptr": [["tt.divisibility", 16]]})
    assert "wgmma.mma_async" in k.asm["ptx"]
    assert "__assertfail" not in k.asm["ptx"]
    assert "C7510" not in (k.metadata.get("ptxas_notes") or [])
    assert [a["arg"] for a in k.metadata["multiple_at_launch_args"]] == [3]
