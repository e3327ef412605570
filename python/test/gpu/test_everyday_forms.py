"""Forms of Triton code that users write every day, each run on the GPU
against torch: dtypes passed as constexprs, early returns (also from
nested ifs and from @jit helpers with a value), @jit functions defined in
an enclosing function (closures) called and passed as combine functions,
tl.debug_barrier, the autotuner with grid callables and its hooks,
heuristics stacked on autotune, the error a failing launch shows, and
64-bit offsets that add two widened products.
Outputs are poisoned before every launch."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit"))
from kernels.shifted_slabs import copy_shifted_slabs  # noqa: E402


def poisoned(n, dtype=torch.float32):
    return torch.full((n,), float("nan") if dtype.is_floating_point else -77, dtype=dtype, device="cuda")


# ---- a dtype as a constexpr argument ------------------------------------------------------------

@triton.jit
def sum_rows_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr, ACC_DTYPE: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=ACC_DTYPE)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0).to(ACC_DTYPE)
    tl.store(out_ptr + row, tl.sum(acc, axis=0).to(out_ptr.dtype.element_ty))


@pytest.mark.parametrize("acc_dtype,out_dtype", [(tl.float32, torch.float32), (tl.float64, torch.float64)])
def test_dtype_constexpr_accumulator(acc_dtype, out_dtype):
    x = torch.randn(37, 1000, device="cuda", dtype=torch.float16)
    out = poisoned(37, out_dtype)
    sum_rows_kernel[(37,)](x, out, 1000, BLOCK=256, ACC_DTYPE=acc_dtype)
    torch.testing.assert_close(out, x.to(torch.float64).sum(1).to(out_dtype), rtol=1e-4, atol=1e-3)


# ---- early returns -------------------------------------------------------------------------------

@triton.jit
def early_exit_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


def test_early_exit_leaves_extra_programs_idle():
    n = 1000
    x = torch.randn(n, device="cuda")
    out = poisoned(n + 1024)
    early_exit_kernel[(8,)](x, out, n, BLOCK=256)  # programs 4..7 return at once
    torch.testing.assert_close(out[:n], x * 2, rtol=0, atol=0)
    assert torch.isnan(out[n:]).all()


@triton.jit
def scale_for(x, flag):
    if flag > 0:
        if flag > 10:
            return x * 3
        return x * 2
    y = x + 1
    return y


@triton.jit
def nested_return_kernel(x_ptr, flags_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    flag = tl.load(flags_ptr + pid)
    if flag < -5:
        tl.store(out_ptr + offs, tl.full((BLOCK,), -1.0, tl.float32))
        return
    tl.store(out_ptr + offs, scale_for(tl.load(x_ptr + offs), flag))


def test_nested_returns_with_values():
    flags = torch.tensor([20, 3, 0, -7, 11, -1], dtype=torch.int32, device="cuda")
    x = torch.randn(6 * 128, device="cuda")
    out = poisoned(6 * 128)
    nested_return_kernel[(6,)](x, flags, out, BLOCK=128)
    rows = x.view(6, 128)
    expected = torch.stack([rows[0] * 3, rows[1] * 2, rows[2] + 1, torch.full_like(rows[3], -1.0),
                            rows[4] * 3, rows[5] + 1]).flatten()
    torch.testing.assert_close(out, expected, rtol=0, atol=0)


# ---- @jit functions defined in an enclosing function ----------------------------------------------

def make_kernels(scale):
    SCALE = tl.constexpr(scale)

    @triton.jit
    def combine_max(a, b):
        return tl.maximum(a, b)

    @triton.jit
    def combine_add(a, b):
        return a + b

    @triton.jit
    def scaled(x):
        return x * SCALE

    @triton.jit
    def kernel(x_ptr, max_ptr, scan_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = scaled(tl.load(x_ptr + offs))
        tl.store(max_ptr, tl.reduce(x, 0, combine_max))
        tl.store(scan_ptr + offs, tl.associative_scan(x, 0, combine_add))
    return kernel


@pytest.mark.parametrize("scale", [2.0, -0.5])
def test_closure_jit_functions(scale):
    kernel = make_kernels(scale)
    x = torch.randn(512, device="cuda")
    top, scan = poisoned(1), poisoned(512)
    kernel[(1,)](x, top, scan, BLOCK=512)
    torch.testing.assert_close(top[0], (x * scale).max(), rtol=0, atol=0)
    torch.testing.assert_close(scan, torch.cumsum(x * scale, 0), rtol=1e-5, atol=1e-4)


# ---- tl.debug_barrier ------------------------------------------------------------------------------

@triton.jit
def barrier_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1)
    tl.debug_barrier()
    # every thread now sees the other threads' stores: read them reversed
    tl.store(out_ptr + BLOCK + offs, tl.load(out_ptr + BLOCK - 1 - offs))


def test_debug_barrier():
    x = torch.randn(256, device="cuda")
    out = poisoned(512)
    barrier_kernel[(1,)](x, out, BLOCK=256)
    torch.testing.assert_close(out[:256], x + 1, rtol=0, atol=0)
    torch.testing.assert_close(out[256:], (x + 1).flip(0), rtol=0, atol=0)


# ---- autotune ---------------------------------------------------------------------------------------

CONFIGS = [triton.Config({"BLOCK": 128}, num_warps=4), triton.Config({"BLOCK": 256}, num_warps=8),
           triton.Config({"BLOCK": 64}, num_warps=2)]


def test_autotune_grid_callable_and_reset_to_zero(capsys, monkeypatch):
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "1")

    @triton.autotune(configs=CONFIGS, key=["n"], reset_to_zero=["total_ptr"], warmup=1, rep=1)
    @triton.jit
    def accumulate(x_ptr, total_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.atomic_add(total_ptr, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0), axis=0))

    x = torch.randint(0, 100, (5000,), device="cuda", dtype=torch.int32)
    total = torch.full((1,), -77, dtype=torch.int32, device="cuda")
    accumulate[lambda meta: (triton.cdiv(5000, meta["BLOCK"]),)](x, total, 5000)
    # tuning ran the kernel many times; reset_to_zero zeroed the total before each and before the real run
    assert total.item() == x.sum().item()
    assert accumulate.best_config in CONFIGS and len(accumulate.configs_timings) == 3
    printed = capsys.readouterr().out
    assert "Triton autotuning for function accumulate" in printed and "best config selected" in printed
    # the second call uses the cached choice (no tuning, no reset: the caller zeroes)
    total.zero_()
    accumulate[lambda meta: (triton.cdiv(5000, meta["BLOCK"]),)](x, total, 5000)
    assert total.item() == x.sum().item()
    assert "Triton autotuning" not in capsys.readouterr().out


def test_autotune_restore_value_hooks_prune_and_heuristics():
    calls = {"pre": 0, "post": 0, "prune": None, "do_bench": 0}

    def early_prune(configs, named_args, **kwargs):
        calls["prune"] = sorted(named_args)
        return configs[:2]

    def my_bench(fn, quantiles=None):
        calls["do_bench"] += 1
        fn()
        return [1.0 * calls["do_bench"], 0.0, 0.0]  # the first config benchmarked wins

    def pre(nargs):
        calls["pre"] += 1

    # heuristics below autotune see the tuned BLOCK
    @triton.autotune(configs=CONFIGS, key=["n"], restore_value=["x_ptr"],
                     prune_configs_by={"early_config_prune": early_prune}, do_bench=my_bench)
    @triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
    @triton.jit
    def double_in_place2(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        if EVEN:
            tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
        else:
            tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)

    CONFIGS[0].pre_hook = pre
    try:
        x = torch.randn(1000, device="cuda")
        original = x.clone()
        double_in_place2[lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)](x, 1000)
    finally:
        CONFIGS[0].pre_hook = None
    # restore_value undid the benchmark runs: exactly one doubling is left
    torch.testing.assert_close(x, original * 2, rtol=0, atol=0)
    assert calls["prune"] == ["n", "x_ptr"] and calls["do_bench"] == 2
    assert double_in_place2.best_config is CONFIGS[0] and calls["pre"] >= 2


def test_autotune_warmup_and_run():
    @triton.autotune(configs=CONFIGS[:2], key=["n"])
    @triton.jit
    def fill(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, offs.to(tl.float32), mask=offs < n)

    x = poisoned(300)
    compiled = fill.warmup(x, 300, grid=(1,))
    assert len(compiled) == 2 and all("ptx" in k.asm for k in compiled)
    fill.run(x, 300, grid=lambda meta: (triton.cdiv(300, meta["BLOCK"]),), warmup=False)
    torch.testing.assert_close(x, torch.arange(300, device="cuda", dtype=torch.float32), rtol=0, atol=0)


# ---- errors at launch ----------------------------------------------------------------------------------

@triton.jit
def broken_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, undefined_name)  # noqa: F821


def test_launch_error_has_no_dispatcher_context():
    x = torch.zeros(16, device="cuda")
    with pytest.raises(triton.CompilationError) as info:
        broken_kernel[(1,)](x, BLOCK=16)
    assert "undefined_name" in str(info.value) and f"{os.path.basename(__file__)}:" in str(info.value)
    assert info.value.__context__ is None  # no "during handling of KeyError"


def test_too_large_tensor_fails_fast():
    @triton.jit
    def huge(x_ptr, BLOCK: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)

    with pytest.raises(triton.CompilationError, match=r"numel \(4194304\) exceeds the maximum tensor numel"):
        huge[(1,)](torch.zeros(1, device="cuda"), BLOCK=1 << 22)


# ---- tuple arguments ---------------------------------------------------------------------------------------

@triton.jit
def _scaled_pair(values, scale):
    return tl.tuple([v * scale for v in values])


@triton.jit
def tuple_kernel(ptrs, n, scales, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(ptrs[0] + offs, mask=mask)
    a, b = _scaled_pair((x, x + 1), scales[0])
    tl.store(ptrs[1] + offs, a + b * scales[1], mask=mask)


def test_tuple_arguments_on_the_gpu():
    n = 3000
    x = torch.randn(n, device="cuda")
    out = poisoned(n)
    tuple_kernel[(triton.cdiv(n, 512),)]((x, out), n, (2.0, 0.5), BLOCK=512)
    torch.testing.assert_close(out, x * 2.0 + (x + 1) * 2.0 * 0.5, rtol=1e-6, atol=1e-6)
    # the compiled kernel also takes the tuple (all arguments) or its leaves
    compiled = tuple_kernel.warmup((x, out), n, (2.0, 0.5), BLOCK=512, grid=(1,))
    out.fill_(float("nan"))
    compiled[(triton.cdiv(n, 512),)]((x, out), n, (2.0, 0.5), 512)
    torch.testing.assert_close(out, x * 2.0 + (x + 1) * 2.0 * 0.5, rtol=1e-6, atol=1e-6)


@triton.jit
def tuple_carried_kernel(x_ptr, out_ptr, n, steps, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    acc = (tl.zeros([BLOCK], tl.float32), x)
    for i in range(steps):  # a tuple carried by a loop, rebuilt each iteration
        acc = (acc[0] + acc[1], acc[1] * 0.5)
    if steps > 2:  # and swapped by a runtime branch
        acc = (acc[1], acc[0])
    tl.store(out_ptr + offs, acc[0] - acc[1], mask=mask)


@pytest.mark.parametrize("steps", [0, 1, 3, 7])
def test_tuples_carried_by_a_loop_and_a_branch(steps):
    n = 3000
    x = torch.randn(n, device="cuda")
    out = poisoned(n)
    tuple_carried_kernel[(triton.cdiv(n, 512),)](x, out, n, steps, BLOCK=512)
    total, half = torch.zeros_like(x), x.clone()
    for _ in range(steps):
        total, half = total + half, half * 0.5
    if steps > 2:
        total, half = half, total
    torch.testing.assert_close(out, total - half, rtol=1e-6, atol=1e-6)


# ---- arguments Triton accepts or refuses ---------------------------------------------------------------------

@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


def test_pinned_host_memory_passes_and_pageable_memory_is_a_value_error():
    src = torch.randn(1000).pin_memory()
    dst = poisoned(1000)
    copy_kernel[(2,)](src, dst, 1000, BLOCK=512)
    torch.cuda.synchronize()
    torch.testing.assert_close(dst.cpu(), src, rtol=0, atol=0)
    with pytest.raises(ValueError, match="is a tensor on cpu"):
        copy_kernel[(2,)](torch.randn(1000), dst, 1000, BLOCK=512)
    with pytest.raises(OverflowError, match="does not fit in 64 bits"):
        copy_kernel[(2,)](dst, dst, 2**64, BLOCK=512)


# ---- launch and load hooks -----------------------------------------------------------------------------------

def test_launch_hooks_see_every_launch_and_load_hooks_the_load():
    from tritium import knobs
    seen, loads = [], []

    def _metadata(grid, kernel, args):
        return {"n": args["n"]}

    @triton.jit(launch_metadata=_metadata)
    def fill(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, 1.0, mask=offs < n)

    def on_launch(metadata):
        seen.append((metadata.get()["grid"], metadata.get()["n"]))

    def on_load(module, function, name, metadata_group, hash):
        loads.append((name, hash))

    x = poisoned(100)
    fill[(1,)](x, 100, BLOCK=128)  # warm entry registered before the hooks
    knobs.runtime.launch_enter_hook.add(on_launch)
    knobs.runtime.kernel_load_end_hook.add(on_load)
    try:
        fill[(1,)](x, 100, BLOCK=128)
        fill[(1,)](x, 100, BLOCK=128)
        fill[(2,)](x, 100, BLOCK=64)  # a new specialization: compiled and loaded
    finally:
        knobs.runtime.launch_enter_hook.remove(on_launch)
        knobs.runtime.kernel_load_end_hook.remove(on_load)
    assert seen == [((1,), 100), ((1,), 100), ((2,), 100)]
    assert [name for name, _ in loads] == ["fill"] and len(loads[0][1]) == 32
    fill[(1,)](x, 100, BLOCK=128)
    assert len(seen) == 3
    torch.testing.assert_close(x, torch.ones_like(x), rtol=0, atol=0)


def test_pre_run_hooks_run_before_every_launch():
    @triton.jit
    def add_two(a_ptr, N: tl.constexpr):
        offs = tl.arange(0, N)
        tl.store(a_ptr + offs, tl.load(a_ptr + offs) + 2)

    add_two.add_pre_run_hook(lambda *args: args[0].zero_())
    for _ in range(3):  # warm launches too
        a = torch.ones(4, device="cuda", dtype=torch.int32)
        add_two[(1,)](a, 4)
        assert torch.all(a == 2)
    a = torch.ones(4, device="cuda", dtype=torch.int32)
    add_two.run(a, 4, grid=(1,), warmup=False)
    assert torch.all(a == 2)
    assert len(add_two.device_caches[0][0]) == 1


# ---- lowerings the upstream tests found ----------------------------------------------------------------------

@triton.jit
def cat_kernel(x_ptr, y_ptr, z_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    z = tl.cat(tl.load(x_ptr + offs), tl.load(y_ptr + offs), can_reorder=True)
    tl.store(z_ptr + tl.arange(0, 2 * N), z)


@pytest.mark.parametrize("num_warps", [4, 8])
def test_cat_of_tensors_smaller_than_the_cta(num_warps):
    x = torch.arange(0, 128, device="cuda", dtype=torch.int16)
    y = torch.arange(-128, 0, device="cuda", dtype=torch.int16)
    z = torch.full((256,), 999, device="cuda", dtype=torch.int16)
    cat_kernel[(1,)](x, y, z, N=128, num_warps=num_warps)
    assert torch.equal(z.sort().values, torch.cat([y, x]))  # every element once, in some order


@triton.jit
def where_pointers_kernel(cond_ptr, a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs).to(tl.pi32_t)
    b = tl.load(b_ptr + offs).to(tl.pi32_t)
    picked = tl.where(tl.load(cond_ptr + offs), a, b)
    tl.store(out_ptr + offs, picked.to(tl.int64))


def test_where_between_pointer_tensors():
    cond = torch.rand(128, device="cuda") > 0.5
    a = torch.randint(1, 1 << 40, (128,), device="cuda", dtype=torch.int64)
    b = torch.randint(1, 1 << 40, (128,), device="cuda", dtype=torch.int64)
    out = torch.full((128,), -77, device="cuda", dtype=torch.int64)
    where_pointers_kernel[(1,)](cond, a, b, out, BLOCK=128)
    torch.testing.assert_close(out, torch.where(cond, a, b), rtol=0, atol=0)


@triton.jit
def split_pairs_kernel(x_ptr, out_ptr):
    pid = tl.program_id(0)
    pair = tl.load(x_ptr + 2 * pid + tl.arange(0, 2))
    first, second = tl.split(pair)  # a 2-element tensor splits into two scalars
    tl.store(out_ptr + pid, first * 10 + second)


def test_split_of_two_elements_gives_scalars():
    x = torch.randn(64, device="cuda")
    out = torch.full((32,), float("nan"), device="cuda")
    split_pairs_kernel[(32,)](x, out)
    torch.testing.assert_close(out, x[0::2] * 10 + x[1::2], rtol=1e-6, atol=1e-6)


@triton.jit
def to_e5m2_toward_zero_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x.to(tl.float8e5, fp_downcast_rounding="rtz"), mask=mask)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_float8e5_rounding_toward_zero(dtype):
    # reference: the float8e5 value of largest magnitude not above |x|, with
    # x's sign (every finite e5m2 value, decoded by torch, sorted)
    table = torch.arange(256, dtype=torch.uint8).view(torch.float8_e5m2).float()
    finite = table[torch.isfinite(table) & (table >= 0)].unique().sort().values.cuda()
    x = torch.cat([torch.randn(1 << 16) * 4.0 ** torch.randint(-8, 9, (1 << 16,)),
                   finite.cpu() * 1.0001, finite.cpu() * 0.9999, finite.cpu(),
                   torch.tensor([0.0, -0.0, 1e-9, -1e-9, 57344.0, 60000.0, -70000.0])]).to(dtype).cuda()
    y = torch.full(x.shape, 0x7E, dtype=torch.uint8, device="cuda").view(torch.float8_e5m2)  # poison: NaN
    to_e5m2_toward_zero_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    magnitude = x.float().abs()
    want = finite[torch.searchsorted(finite, magnitude, right=True) - 1] * torch.sign(x.float())
    # zeros keep their sign, infinities stay infinite (float16 holds -70000 as -inf)
    want = torch.where((magnitude == 0) | torch.isinf(magnitude), x.float(), want)
    assert torch.equal(y.float(), want)


# ---- tl.range(..., num_stages=k) on a loop without a dot -----------------------------------------

@triton.jit
def decayed_running_sum_kernel(x_ptr, w_ptr, out_ptr, T, D: tl.constexpr, STAGES: tl.constexpr):
    # h_t = h_{t-1} * w_t + x_t, one row of D a step (a recurrence, as a
    # linear-attention decoder's state update is): the loop's own stage
    # count streams the rows of later steps while this one computes
    offs = tl.arange(0, D)
    h = tl.zeros((D,), dtype=tl.float32)
    for t in tl.range(0, T, num_stages=STAGES):
        x = tl.load(x_ptr + t * D + offs)
        w = tl.load(w_ptr + t * D + offs).to(tl.float32)
        h = h * w + x
        tl.store(out_ptr + t * D + offs, h)


@pytest.mark.parametrize("stages,kernel_stages", [(1, 3), (2, 1), (3, 3), (4, 2)])
@pytest.mark.parametrize("T", [1, 2, 37])
def test_loop_stages_stream_a_recurrence(stages, kernel_stages, T):
    D = 128
    x = torch.randn(T, D, device="cuda")
    w = torch.rand(T, D, device="cuda").to(torch.bfloat16)
    out = poisoned(T * D)
    decayed_running_sum_kernel[(1,)](x, w, out, T, D=D, STAGES=stages, num_warps=1, num_stages=kernel_stages)
    h = torch.zeros(D, device="cuda", dtype=torch.float64)
    want = []
    for t in range(T):
        h = h * w[t].double() + x[t].double()
        want.append(h.clone())
    torch.testing.assert_close(out.view(T, D).double(), torch.stack(want), rtol=1e-5, atol=1e-5)


# ---- a 64-bit offset that adds two widened products ---------------------------------------------

def test_offsets_that_add_two_widened_products():
    rows = torch.tensor([5, -3, 17, -20], dtype=torch.int32, device="cuda")
    x = torch.randn(5 * 65536, device="cuda")
    out = poisoned(5 * 65536)
    copy_shifted_slabs[(4,)](x, rows, out, BLOCK=128)
    expected = torch.full_like(out, float("nan"))
    for slab, row in enumerate(rows.tolist()):
        base = slab * 65536 + row * 1024
        expected[base:base + 128] = x[base:base + 128] + 1
    torch.testing.assert_close(out, expected, equal_nan=True)
