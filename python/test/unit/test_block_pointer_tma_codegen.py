"""Block pointers compiled without a GPU: on cuda:90 the tiles that feed
tl.dot, and stores of values computed from one, become tensor-descriptor
loads and stores on maps the kernel makes (tensormap.replace in the
runtime's global scratch, metadata global_scratch_internal) and move by
TMA, with the arguments used as their dimensions and strides listed for
the launcher's sign check (nonnegative_args); on cuda:80, and where the
copy engine's rules fail, they stay tensors of pointers."""
import tritium as triton
import tritium.language as tl


@triton.jit
def block_pointer_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_block = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, 1), offsets=(pid_m * BM, 0),
                                block_shape=(BM, BK), order=(1, 0))
    # B stored N x K, read as its K x N transposed view
    b_block = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(1, stride_bn), offsets=(0, pid_n * BN),
                                block_shape=(BK, BN), order=(0, 1))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(tl.load(a_block, boundary_check=(0, 1)), tl.load(b_block, boundary_check=(0, 1)), acc)
        a_block = tl.advance(a_block, (0, BK))
        b_block = tl.advance(b_block, (BK, 0))
    c_block = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, 1), offsets=(pid_m * BM, pid_n * BN),
                                block_shape=(BM, BN), order=(1, 0))
    tl.store(c_block, acc.to(tl.float16), boundary_check=(0, 1))


SIGNATURE = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
             "stride_am": "i32", "stride_bn": "i32", "stride_cm": "i32"}
BLOCKS = {"BM": 128, "BN": 128, "BK": 64}


def compile_matmul(target, aligned=True):
    # The JIT specializes pointers and integers divisible by 16; compile()
    # is told so by `attrs`, as Triton's ASTSource takes them.
    attrs = {name: [["tt.divisibility", 16]] for name in SIGNATURE} if aligned else {}
    return triton.compile(block_pointer_matmul, signature=SIGNATURE, constexprs=BLOCKS, attrs=attrs, target=target,
                          num_warps=8, num_stages=3)


def test_one_stage_issues_both_copies_before_waiting():
    # At num_stages=1 no ring streams the tiles: A and B still move by TMA,
    # each copy issued as early as the loop body allows, so both are in
    # flight before the first wait; the accumulator's store goes through its
    # map too.
    k = triton.compile(block_pointer_matmul, signature=SIGNATURE, constexprs=BLOCKS,
                       attrs={name: [["tt.divisibility", 16]] for name in SIGNATURE}, target="cuda:90",
                       num_warps=8, num_stages=1)
    ttir, ptx = k.asm["ttir"], k.asm["ptx"]
    assert ttir.count("tt.descriptor_load") == 2 and ttir.count("tt.descriptor_store") == 1
    assert ttir.count("tt.make_tensor_descriptor") == 3
    load = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
    first_copy = ptx.index(load)
    first_wait = ptx.index("mbarrier.try_wait", first_copy)
    issued = ptx[first_copy:first_wait]
    maps = {line.split("[", 2)[2].split(",")[0] for line in issued.splitlines() if load in line}
    assert len(maps) == 2, issued


def test_hopper_moves_dot_tiles_by_tma():
    k = compile_matmul("cuda:90")
    ttir, ptx = k.asm["ttir"], k.asm["ptx"]
    assert ttir.count("tt.make_tensor_descriptor") == 3 and "tt.make_tensor_ptr" not in ttir
    assert ttir.count("tt.descriptor_load") == 2 and ttir.count("tt.descriptor_store") == 1
    assert "tt.trans" in ttir  # B's tile is loaded in its memory order and transposed back
    assert "tensormap.replace" in ptx
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes") >= 2
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx
    assert k.metadata["global_scratch_size"] == 3 * 128
    assert k.metadata["global_scratch_internal"] is True
    # M, N, K and the three row strides (arguments 3-8) are the maps'
    # dimensions and strides: the launcher refuses negative values; none is
    # checked in the kernel
    assert k.metadata["nonnegative_args"] == [3, 4, 5, 6, 7, 8]
    assert "__assertfail" not in ptx


def test_ampere_keeps_pointers():
    k = compile_matmul("cuda:80")
    assert "tt.descriptor" not in k.asm["ttir"] and "cp.async.bulk.tensor" not in k.asm["ptx"]
    assert not k.metadata.get("global_scratch_size")


def test_unproven_alignment_keeps_pointers():
    k = compile_matmul("cuda:90", aligned=False)
    assert "tt.descriptor" not in k.asm["ttir"] and "cp.async.bulk.tensor" not in k.asm["ptx"]


@triton.jit
def mixed_kernel(a_ptr, d_ptr, M, K, stride, BM: tl.constexpr, BK: tl.constexpr):
    # A block pointer moved by TMA next to a descriptor the user makes: the
    # scratch then holds a user map too, so it comes from set_allocator.
    a_block = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride, 1), offsets=(0, 0),
                                block_shape=(BM, BK), order=(1, 0))
    acc = tl.zeros((BM, BM), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_block)
        acc = tl.dot(a, tl.trans(a), acc)
        a_block = tl.advance(a_block, (0, BK))
    desc = tl.make_tensor_descriptor(d_ptr, shape=[M, M], strides=[stride, 1], block_shape=[BM, BM])
    desc.store([0, 0], acc.to(tl.float16))


def test_user_descriptors_keep_the_users_allocator():
    signature = {"a_ptr": "*fp16", "d_ptr": "*fp16", "M": "i32", "K": "i32", "stride": "i32"}
    attrs = {name: [["tt.divisibility", 16]] for name in signature}
    k = triton.compile(mixed_kernel, signature=signature,
                       constexprs={"BM": 64, "BK": 64}, attrs=attrs, target="cuda:90")
    assert k.metadata["global_scratch_size"] == 2 * 128
    assert k.metadata["global_scratch_internal"] is False
