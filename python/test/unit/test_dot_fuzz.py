"""Random dot kernels compiled without a GPU: a seeded generator draws the
operand dtype (with out_dtype and input precision), the tile, warps,
stages, which operands are contiguous along K, a ReLU epilogue and the
target (cuda:90 wgmma or cuda:80 mma.sync), and every draw must compile to
a cubin, the only allowed error being fp8e4nv on sm_80.  Tiles stay where
compiles take well under a second, so CI can run the whole draw."""
import random

import pytest

import tritium as triton
import tritium.language as tl


@triton.jit
def fuzz_matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PREC: tl.constexpr, OUT: tl.constexpr,
                RELU: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=OUT)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc, input_precision=PREC, out_dtype=OUT)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    if RELU:
        acc = tl.where(acc > 0, acc, 0)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# operand dtype -> (accumulator, its signature type)
DTYPES = {"fp16": (tl.float32, "fp32"), "bf16": (tl.float32, "fp32"), "fp32": (tl.float32, "fp32"),
          "i8": (tl.int32, "i32"), "fp8e5": (tl.float32, "fp32"), "fp8e4nv": (tl.float32, "fp32")}


def draw(seed):
    rng = random.Random(seed)
    dtype = rng.choice(sorted(DTYPES))
    out, out_sig = DTYPES[dtype]
    if dtype == "fp16" and rng.random() < 0.3:
        out, out_sig = tl.float16, "fp16"
    warps = rng.choice([2, 4, 8])
    bm, bn = rng.choice([16, 32, 64, 128]), rng.choice([16, 32, 64, 128])
    bk = rng.choice([16, 32, 64])
    precision = rng.choice(["tf32", "tf32x3", "ieee", "bf16x3"]) if dtype == "fp32" else "ieee"
    if dtype == "fp32" and precision in ("ieee", "tf32x3", "bf16x3"):
        bm, bn, bk = min(bm, 64), min(bn, 64), min(bk, 32)  # CUDA-core or multi-pass: keep it small
    return dict(dtype=dtype, out=out, out_sig=out_sig, warps=warps, stages=rng.choice([1, 2, 3, 4]),
                block=(bm, bn, bk), precision=precision, a_k_contiguous=rng.random() < 0.7,
                b_n_contiguous=rng.random() < 0.7, relu=rng.random() < 0.5, target=rng.choice(["cuda:90", "cuda:80"]))


@pytest.mark.parametrize("seed", range(24))
def test_random_dot_kernels_compile(seed):
    c = draw(seed)
    signature = {"a_ptr": "*" + c["dtype"], "b_ptr": "*" + c["dtype"], "c_ptr": "*" + c["out_sig"]}
    for name in ["M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"]:
        signature[name] = "i32"
    bm, bn, bk = c["block"]
    constexprs = {"BM": bm, "BN": bn, "BK": bk, "PREC": c["precision"], "OUT": c["out"], "RELU": c["relu"], "scn": 1,
                  ("sak" if c["a_k_contiguous"] else "sam"): 1, ("sbn" if c["b_n_contiguous"] else "sbk"): 1}
    divisible = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K"] + [s for s in ["sam", "sak", "sbk", "sbn", "scm"]
                                                             if s not in constexprs]
    attrs = {name: [["tt.divisibility", 16]] for name in divisible}
    compile_ = lambda: triton.compile(fuzz_matmul, signature=signature, constexprs=constexprs,  # noqa: E731
                                      attrs=attrs, target=c["target"], num_warps=c["warps"],
                                      num_stages=c["stages"])
    if c["dtype"] == "fp8e4nv" and c["target"] == "cuda:80":
        with pytest.raises(triton.CompilationError, match="fp8e4nv need compute capability 89"):
            compile_()
        return
    kernel = compile_()
    assert "cubin" in kernel.asm, c
