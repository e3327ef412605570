"""Warp specialization compiled without a GPU: `tl.range(...,
warp_specialize=True)` over a TMA matmul on cuda:90 gives the kernel one
more warp (the producer) that issues the copies, the kernel's warps waiting
on full mbarriers and releasing slots on empty ones; the block grows by a
warp (metadata total_num_warps, PTX .reqntid); CTA barriers of the consumers
become named barriers of their warps.  Maps made in the kernel are acquired
by the producer.  Loops the compiler cannot specialize compile as before;
before Hopper the hint is an error at the user's line."""
import os
import re

import pytest

import tritium as triton
import tritium.language as tl
from tritium.errors import CompilationError

THIS_FILE = os.path.abspath(__file__)


@triton.jit
def persistent_ws(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  PROGRAMS: tl.constexpr):
    num_n = tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BM) * num_n, PROGRAMS, warp_specialize=True):
        pid_m = tile // num_n
        pid_n = tile % num_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(tl.cdiv(K, BK)):
            a = a_desc.load([pid_m * BM, k * BK])
            b = b_desc.load([pid_n * BN, k * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def made_maps_ws(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), warp_specialize=True):
        acc = tl.dot(a_desc.load([pid_m * BM, k * BK]), b_desc.load([pid_n * BN, k * BK]).T, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def bias_before_loop(a_desc, b_desc, bias_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_n = tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32) + tl.load(bias_ptr + offs_n)[None, :]
    for k in tl.range(0, tl.cdiv(K, BK), warp_specialize=True):
        acc = tl.dot(a_desc.load([0, k * BK]), b_desc.load([0, k * BK]).T, acc)
    offs_m = tl.arange(0, BM)
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc)


DESC_SIG = {"a_desc": "tensordesc<fp16[128,64]>", "b_desc": "tensordesc<fp16[128,64]>",
            "c_desc": "tensordesc<fp16[128,128]>", "M": "i32", "N": "i32", "K": "i32"}
DESC_CONSTS = {"BM": 128, "BN": 128, "BK": 64, "PROGRAMS": 132}


def test_persistent_loop_gets_a_producer_warp():
    k = triton.compile(persistent_ws, signature=DESC_SIG, constexprs=DESC_CONSTS, target="cuda:90",
                       options={"num_warps": 4, "num_stages": 3})
    assert "ttg.warp_specialize default" in k.asm["ttgir"] and "partition num_warps(1)" in k.asm["ttgir"]
    # (num_warps is the launched block, as Triton reports it: launchers
    # outside Tritium's read it)
    assert k.metadata["total_num_warps"] == 5 and k.metadata["num_warps"] == 5
    ptx = k.asm["ptx"]
    assert ".reqntid 160, 1, 1" in ptx
    # The branch on the thread index (warps 0-3 consume), the consumers' releases.
    split = re.search(r"setp\.lt\.u32\s+%p\d+, %r\d+, 128;", ptx)
    assert split
    assert ptx.count("mbarrier.arrive.shared::cta.b64") == 2  # in the K loop and after it
    assert "mbarrier.arrive.expect_tx.shared::cta.b64" in ptx
    # The consumers' barriers are named (the epilogue's), never the CTA's after the split.
    after_split = ptx[split.start():]
    assert re.search(r"bar\.sync\s+1, 128;", after_split)
    assert not re.search(r"bar\.sync\s+0;", after_split)


def test_eight_consumer_warps_get_nine():
    k = triton.compile(persistent_ws, signature={**DESC_SIG, "b_desc": "tensordesc<fp16[256,64]>",
                                                 "c_desc": "tensordesc<fp16[128,256]>"},
                       constexprs={**DESC_CONSTS, "BN": 256}, target="cuda:90", options={"num_warps": 8})
    assert k.metadata["total_num_warps"] == 9
    assert ".reqntid 288, 1, 1" in k.asm["ptx"]
    assert re.search(r"bar\.sync\s+1, 256;", k.asm["ptx"])


def test_maps_made_in_the_kernel_are_acquired_by_the_producer():
    k = triton.compile(made_maps_ws, signature={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32",
                                                "N": "i32", "K": "i32"},
                       constexprs={"BM": 128, "BN": 128, "BK": 64}, target="cuda:90")
    assert "ttg.warp_specialize" in k.asm["ttgir"]
    # A and B in the partition; the three maps are made in a row, so the
    # first two are acquired after the third too (TensorMapFences.h).
    assert k.asm["ttgir"].count("ttg.fence_tensormap_acquire") == 4
    # Each map copied to its slot and released by its warp, 3 acquires after
    # the third, 2 more by the producer.
    assert k.asm["ptx"].count("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu") == 3
    assert "fence.proxy.tensormap::generic.release.gpu" not in k.asm["ptx"]
    assert k.asm["ptx"].count("fence.proxy.tensormap::generic.acquire.gpu") == 5


def test_tensor_loads_before_the_loop_keep_it_unspecialized():
    """The bias load would run on the producer's warp too: the hint is ignored."""
    k = triton.compile(bias_before_loop, signature={"a_desc": "tensordesc<fp16[128,64]>",
                                                    "b_desc": "tensordesc<fp16[128,64]>", "bias_ptr": "*fp32",
                                                    "c_ptr": "*fp32", "K": "i32"},
                       constexprs={"BM": 128, "BN": 128, "BK": 64}, target="cuda:90")
    assert "ttg.warp_specialize" not in k.asm["ttgir"]
    assert k.metadata["total_num_warps"] == k.metadata["num_warps"] == 4
    assert ".reqntid 128, 1, 1" in k.asm["ptx"]


@triton.jit
def summed(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in tl.range(0, n, warp_specialize=True):
        acc += tl.load(x_ptr + i * BLOCK + offs)
    tl.store(out_ptr + offs, acc)


def test_before_hopper_the_hint_is_an_error_at_the_loop():
    with pytest.raises(CompilationError) as info:
        triton.compile(summed, signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"},
                       constexprs={"BLOCK": 128}, target="cuda:80")
    message = str(info.value)
    assert "warp_specialize=True needs a Hopper GPU (sm_90) or later; the target is sm_80" in message
    assert f"{THIS_FILE}:" in message

