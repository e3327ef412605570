# Kernel sources of test_random.py, compiled by tritium and, when it is
# importable, by Triton: gpu_reference.load_kernels executes this file with
# `triton` and `tl` bound to one or the other, so both compile the same
# source.  (No imports here on purpose: the two bindings are injected.)


@triton.jit  # noqa: F821
def randint4x_kernel(Out, seed, n, BLOCK: tl.constexpr, ROUNDS: tl.constexpr):  # noqa: F821
    # Out: int32[4, n]; the uint32 words stored as their bits
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = offs < n
    r0, r1, r2, r3 = tl.randint4x(seed, offs, ROUNDS)  # noqa: F821
    tl.store(Out + offs, r0.to(tl.int32, bitcast=True), mask=mask)  # noqa: F821
    tl.store(Out + n + offs, r1.to(tl.int32, bitcast=True), mask=mask)  # noqa: F821
    tl.store(Out + 2 * n + offs, r2.to(tl.int32, bitcast=True), mask=mask)  # noqa: F821
    tl.store(Out + 3 * n + offs, r3.to(tl.int32, bitcast=True), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def randint_kernel(Out, seed, n, BLOCK: tl.constexpr):  # noqa: F821
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = offs < n
    r = tl.randint(seed, offs)  # noqa: F821
    tl.store(Out + offs, r.to(tl.int32, bitcast=True), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def rand_kernel(Out, seed, n, BLOCK: tl.constexpr):  # noqa: F821
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = offs < n
    tl.store(Out + offs, tl.rand(seed, offs), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def randn_kernel(Out, seed, n, BLOCK: tl.constexpr):  # noqa: F821
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = offs < n
    tl.store(Out + offs, tl.randn(seed, offs), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def rand_offset_kernel(Out, seed, base, n, BLOCK: tl.constexpr):  # noqa: F821
    # the counter is base + i (an int32 offset that may be negative), stored at i
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = idx < n
    tl.store(Out + idx, tl.rand(seed, base + idx), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def randint64_kernel(Out, seed, base, n, BLOCK: tl.constexpr):  # noqa: F821
    # 64-bit offsets: Philox-4x64; Out: int64[n] (the uint64 bits)
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = idx < n
    offs = base + idx.to(tl.int64)  # noqa: F821
    r = tl.randint(seed, offs)  # noqa: F821
    tl.store(Out + idx, r.to(tl.int64, bitcast=True), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def rand64_kernel(Out, seed, base, n, BLOCK: tl.constexpr):  # noqa: F821
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = idx < n
    offs = base + idx.to(tl.int64)  # noqa: F821
    tl.store(Out + idx, tl.rand(seed, offs), mask=mask)  # noqa: F821
