# Kernel sources of test_random_numbers.py, compiled by Tritium and, when
# it is importable, by Triton: kernel_sources.load_kernels executes this
# file with `triton` and `tl` bound to one or the other, so both compile the
# same source.  (No imports here on purpose: the two bindings are injected.)


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
    # 64-bit offsets: still Philox-4x32 and uint32 words (Triton >= 3.4), the
    # offset's low and high halves in counter words 0 and 1; Out: int32[n]
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = idx < n
    offs = base + idx.to(tl.int64)  # noqa: F821
    r = tl.randint(seed, offs)  # noqa: F821
    tl.store(Out + idx, r.to(tl.int32, bitcast=True), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def randint4x64_kernel(Out, seed, base, n, BLOCK: tl.constexpr):  # noqa: F821
    # Out: int32[4, n]; offsets base + i as uint64 (the same bits as int64)
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = idx < n
    offs = (base + idx.to(tl.int64)).to(tl.uint64, bitcast=True)  # noqa: F821
    r0, r1, r2, r3 = tl.randint4x(seed, offs)  # noqa: F821
    tl.store(Out + idx, r0.to(tl.int32, bitcast=True), mask=mask)  # noqa: F821
    tl.store(Out + n + idx, r1.to(tl.int32, bitcast=True), mask=mask)  # noqa: F821
    tl.store(Out + 2 * n + idx, r2.to(tl.int32, bitcast=True), mask=mask)  # noqa: F821
    tl.store(Out + 3 * n + idx, r3.to(tl.int32, bitcast=True), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def philox64_kernel(Out, seed, base, n, BLOCK: tl.constexpr):  # noqa: F821
    # tl.philox with 64-bit counters (base + i, 0, 0, 0): Philox-4x64; Out: int64[4, n]
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = idx < n
    c = base + idx.to(tl.int64)  # noqa: F821
    zero = c * 0
    r0, r1, r2, r3 = tl.philox(seed, c, zero, zero, zero)  # noqa: F821
    tl.store(Out + idx, r0.to(tl.int64, bitcast=True), mask=mask)  # noqa: F821
    tl.store(Out + n + idx, r1.to(tl.int64, bitcast=True), mask=mask)  # noqa: F821
    tl.store(Out + 2 * n + idx, r2.to(tl.int64, bitcast=True), mask=mask)  # noqa: F821
    tl.store(Out + 3 * n + idx, r3.to(tl.int64, bitcast=True), mask=mask)  # noqa: F821


@triton.jit  # noqa: F821
def rand64_kernel(Out, seed, base, n, BLOCK: tl.constexpr):  # noqa: F821
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # noqa: F821
    mask = idx < n
    offs = base + idx.to(tl.int64)  # noqa: F821
    tl.store(Out + idx, tl.rand(seed, offs), mask=mask)  # noqa: F821
