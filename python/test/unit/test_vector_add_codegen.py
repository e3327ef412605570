"""The vector add (tutorial 01, bench/kernels/tutorials.py) compiles,
without a GPU, to 128-bit global memory accesses: `ld.global.v4` /
`st.global.v4` in the PTX and `LDG.E.128` / `STG.E.128` in the cubin's
SASS (cuobjdump)."""
import os
import shutil
import subprocess
import sys

import pytest

import tritium as triton
import tritium.language as tl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench"))
from kernel_sources import load_kernels  # noqa: E402

add_kernel = load_kernels("tutorials.py", triton, tl, "tritium").add_kernel

SIGNATURE = {"x_ptr": "*fp32", "y_ptr": "*fp32", "output_ptr": "*fp32", "n_elements": "i32"}
# what the launcher specializes a 2^28-element launch on: aligned pointers, n % 16 == 0
ALIGNED = {name: [["tt.divisibility", 16]] for name in SIGNATURE}


def compile_vector_add(attrs):
    return triton.compile(add_kernel, signature=SIGNATURE, constexprs={"BLOCK_SIZE": 1024}, attrs=attrs,
                          target="cuda:90", num_warps=4)


def test_ptx_has_128_bit_loads_and_stores():
    ptx = compile_vector_add(ALIGNED).asm["ptx"]
    assert ptx.count("ld.global.v4.b32") == 4  # 2 inputs x 2 vectors of 4 per thread
    assert ptx.count("st.global.v4.b32") == 2
    assert ".target sm_90a" in ptx


def find_cuobjdump():
    """cuobjdump from the CUDA toolkit, or the copy Triton's wheel bundles."""
    candidates = [shutil.which("cuobjdump"), "/usr/local/cuda/bin/cuobjdump"]
    try:
        import importlib.util
        spec = importlib.util.find_spec("triton")
        if spec and spec.origin:
            candidates.append(os.path.join(os.path.dirname(spec.origin), "backends", "nvidia", "bin", "cuobjdump"))
    except (ImportError, ValueError):
        pass
    return next((c for c in candidates if c and os.path.exists(c)), None)


def test_sass_has_128_bit_loads_and_stores(tmp_path):
    cuobjdump = find_cuobjdump()
    if cuobjdump is None:
        pytest.skip("cuobjdump not installed (neither the CUDA toolkit's nor Triton's)")
    kernel = compile_vector_add(ALIGNED)
    if "cubin" not in kernel.asm:
        pytest.skip("no ptxas: no cubin")
    cubin = tmp_path / "add_kernel.cubin"
    cubin.write_bytes(kernel.asm["cubin"])
    sass = subprocess.run([cuobjdump, "-sass", str(cubin)], capture_output=True, text=True, check=True).stdout
    assert sass.count("LDG.E.128") == 4, sass
    assert sass.count("STG.E.128") == 2, sass


def test_unaligned_bound_falls_back_to_scalar_accesses():
    # n not known to be a multiple of 16: the mask may cut inside a vector
    attrs = {name: v for name, v in ALIGNED.items() if name != "n_elements"}
    ptx = compile_vector_add(attrs).asm["ptx"]
    assert "ld.global.v4" not in ptx and "ld.global.b32" in ptx


def test_metadata_from_ptxas():
    kernel = compile_vector_add(ALIGNED)
    if "cubin" not in kernel.asm:
        pytest.skip("no ptxas: no cubin")
    assert 0 < kernel.metadata["registers"] <= 64
    assert kernel.metadata["spills"] == 0
    assert kernel.metadata["num_warps"] == 4


@triton.jit
def masked_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def compile_masked_add(dtype):
    signature = {"x_ptr": f"*{dtype}", "y_ptr": f"*{dtype}", "out_ptr": f"*{dtype}", "n": "i32"}
    return triton.compile(masked_add, signature=signature, constexprs={"BLOCK": 2048},
                          attrs={name: [["tt.divisibility", 16]] for name in signature}, target="cuda:90", num_warps=4)


@pytest.mark.parametrize("dtype, pair_add", [("fp16", "add.f16x2"), ("bf16", "add.bf16x2")])
def test_16_bit_floats_move_and_add_in_pairs(dtype, pair_add):
    # A word of a masked load is two lanes of one vector: its halves are
    # added pairwise and stored as they are, with no shifts or masks.
    ptx = compile_masked_add(dtype).asm["ptx"]
    assert ptx.count("ld.global.v4.b32") == 4 and ptx.count("st.global.v4.b32") == 2
    assert ptx.count(pair_add) == 8  # 16 elements a thread
    assert "cvt.u32.u16" not in ptx and "shl.b32" not in ptx.split("ld.global")[-1]


def test_8_bit_integers_add_in_32_bit_words():
    # int8 lanes stay packed by shifts and masks, which LLVM folds into
    # 32-bit arithmetic, not byte permutes.
    ptx = compile_masked_add("i8").asm["ptx"]
    assert ptx.count("ld.global.v4.b32") == 2 and "prmt.b32" not in ptx
