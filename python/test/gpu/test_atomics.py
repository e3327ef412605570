"""Atomics on the GPU against serial references computed with torch/numpy:
add (int32, uint32, int64, fp16, bf16, fp32, fp64), max/min (int32, uint32,
fp32, fp64, negative values and -0.0 included), and/or/xor, xchg, cas (as
a compare-exchange on distinct slots and as a spin lock around a plain
read-modify-write), in tensor and scalar forms, with masks, under each
`sem` and `scope`.

Where each lane owns its slot the returned old values are deterministic
and are checked (0 where the mask is off).  Under contention (many programs
on few slots) integer results are exact; float sums get a tolerance.
Outputs are poisoned before each launch so a kernel that writes nothing
fails."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402

SEM_SCOPES = [("relaxed", "gpu"), ("acquire", "cta"), ("release", "sys"), ("acq_rel", "gpu"),
              ("acq_rel", "sys"), ("relaxed", "cta")]


def poison(n, dtype):
    out = torch.empty(n, dtype=dtype, device="cuda")
    if dtype.is_floating_point:
        out.fill_(float("nan"))
    else:
        out.fill_(-77)
    return out


def random_values(n, dtype, low=-1000, high=1000):
    if dtype.is_floating_point:
        return (torch.randn(n, device="cuda", dtype=torch.float64) * 100).to(dtype)
    return torch.randint(low, high, (n,), device="cuda", dtype=dtype)


# ---- one slot per lane: old values are deterministic ----------------------------------------------

@triton.jit
def add_own_slot(x_ptr, y_ptr, old_ptr, n, BLOCK: tl.constexpr, SEM: tl.constexpr, SCOPE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask)
    old = tl.atomic_add(x_ptr + offs, y, mask=mask, sem=SEM, scope=SCOPE)
    tl.store(old_ptr + offs, old)  # unmasked: masked-off lanes must return 0


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32,
                                   torch.float64])
@pytest.mark.parametrize("block", [128, 1024])
def test_add_own_slot(dtype, block):
    n = 3000  # not a multiple of the block: the last program is masked
    grid = triton.cdiv(n, block)
    x0 = random_values(grid * block, dtype)
    y = random_values(grid * block, dtype)
    x = x0.clone()
    old = poison(grid * block, dtype)
    add_own_slot[(grid,)](x, y, old, n, BLOCK=block, SEM="acq_rel", SCOPE="gpu")
    expected = x0.clone()
    expected[:n] = (x0[:n].double() + y[:n].double()).to(dtype)
    tol = {torch.float16: 1e-3, torch.bfloat16: 8e-3, torch.float32: 1e-6}.get(dtype, 0)
    torch.testing.assert_close(x, expected, rtol=tol, atol=tol)
    torch.testing.assert_close(old[:n], x0[:n], rtol=0, atol=0)
    assert (old[n:] == 0).all()


def test_add_own_slot_uint32():
    n, block = 2000, 256
    grid = triton.cdiv(n, block)
    x0 = torch.randint(-2**31, 2**31 - 1, (grid * block,), device="cuda", dtype=torch.int32)
    y = torch.randint(-2**31, 2**31 - 1, (grid * block,), device="cuda", dtype=torch.int32)
    x = x0.clone()
    old = poison(grid * block, torch.int32)
    add_own_slot[(grid,)](x.view(torch.uint32), y.view(torch.uint32), old.view(torch.uint32), n, BLOCK=block,
                          SEM="relaxed", SCOPE="gpu")
    ref = x0.cpu().numpy().view(np.uint32).copy()
    ref[:n] += y.cpu().numpy().view(np.uint32)[:n]  # wraps modulo 2**32
    np.testing.assert_array_equal(x.cpu().numpy().view(np.uint32), ref)
    np.testing.assert_array_equal(old.cpu().numpy()[:n], x0.cpu().numpy()[:n])


@pytest.mark.parametrize("sem, scope", SEM_SCOPES)
def test_add_each_sem_and_scope(sem, scope):
    n, block = 1000, 256
    grid = triton.cdiv(n, block)
    x0 = random_values(grid * block, torch.float32)
    y = random_values(grid * block, torch.float32)
    x = x0.clone()
    old = poison(grid * block, torch.float32)
    add_own_slot[(grid,)](x, y, old, n, BLOCK=block, SEM=sem, SCOPE=scope)
    torch.testing.assert_close(x[:n], x0[:n] + y[:n])
    torch.testing.assert_close(x[n:], x0[n:], rtol=0, atol=0)
    torch.testing.assert_close(old[:n], x0[:n], rtol=0, atol=0)


@triton.jit
def minmax_own_slot(x_ptr, y_ptr, old_ptr, n, IS_MAX: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask)
    if IS_MAX:
        old = tl.atomic_max(x_ptr + offs, y, mask=mask)
    else:
        old = tl.atomic_min(x_ptr + offs, y, mask=mask, sem="relaxed", scope="cta")
    tl.store(old_ptr + offs, old, mask=mask)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float32, torch.float64])
@pytest.mark.parametrize("is_max", [True, False])
def test_max_min_own_slot(dtype, is_max):
    n, block = 3000, 512
    grid = triton.cdiv(n, block)
    x0 = random_values(grid * block, dtype)
    y = random_values(grid * block, dtype)
    if dtype.is_floating_point:  # signed zeros and equal values too
        x0[:8] = torch.tensor([-1.0, 0.0, -0.0, 3.0, -2.0, -0.0, 5.0, -5.0], dtype=dtype)
        y[:8] = torch.tensor([-0.0, -0.0, 0.0, -3.0, -2.0, -1.0, 5.0, 4.0], dtype=dtype)
    x = x0.clone()
    old = poison(grid * block, dtype)
    minmax_own_slot[(grid,)](x, y, old, n, IS_MAX=is_max, BLOCK=block)
    expected = x0.clone()
    expected[:n] = torch.maximum(x0[:n], y[:n]) if is_max else torch.minimum(x0[:n], y[:n])
    torch.testing.assert_close(x, expected, rtol=0, atol=0)
    torch.testing.assert_close(old[:n], x0[:n], rtol=0, atol=0)
    if dtype.is_floating_point and is_max:
        # max(-1.0, -0.0) is -0.0 and max(-0.0, 0.0) is +0.0: compare the bits
        assert torch.signbit(x[0]) and not torch.signbit(x[2])


@pytest.mark.parametrize("is_max", [True, False])
def test_max_min_own_slot_uint32(is_max):
    n, block = 1000, 256
    grid = triton.cdiv(n, block)
    x0 = torch.randint(-2**31, 2**31 - 1, (grid * block,), device="cuda", dtype=torch.int32)
    y = torch.randint(-2**31, 2**31 - 1, (grid * block,), device="cuda", dtype=torch.int32)
    x = x0.clone()
    old = poison(grid * block, torch.int32)
    minmax_own_slot[(grid,)](x.view(torch.uint32), y.view(torch.uint32), old.view(torch.uint32), n,
                             IS_MAX=is_max, BLOCK=block)
    xu, yu = x0.cpu().numpy().view(np.uint32), y.cpu().numpy().view(np.uint32)
    ref = xu.copy()
    ref[:n] = np.maximum(xu[:n], yu[:n]) if is_max else np.minimum(xu[:n], yu[:n])
    np.testing.assert_array_equal(x.cpu().numpy().view(np.uint32), ref)
    np.testing.assert_array_equal(old.cpu().numpy()[:n], x0.cpu().numpy()[:n])


@triton.jit
def bitwise_own_slot(x_ptr, y_ptr, old_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask)
    if OP == "and":
        old = tl.atomic_and(x_ptr + offs, y, mask=mask, sem="acquire")
    elif OP == "or":
        old = tl.atomic_or(x_ptr + offs, y, mask=mask, scope="sys")
    elif OP == "xor":
        old = tl.atomic_xor(x_ptr + offs, y, mask=mask, sem="release", scope="cta")
    else:
        old = tl.atomic_xchg(x_ptr + offs, y, mask=mask)
    tl.store(old_ptr + offs, old, mask=mask)


@pytest.mark.parametrize("op", ["and", "or", "xor", "xchg"])
@pytest.mark.parametrize("dtype", [torch.int32, torch.int64])
def test_bitwise_and_xchg_own_slot(op, dtype):
    n, block = 3000, 256
    grid = triton.cdiv(n, block)
    x0 = random_values(grid * block, dtype, -2**30, 2**30)
    y = random_values(grid * block, dtype, -2**30, 2**30)
    x = x0.clone()
    old = poison(grid * block, dtype)
    bitwise_own_slot[(grid,)](x, y, old, n, OP=op, BLOCK=block)
    fn = {"and": torch.bitwise_and, "or": torch.bitwise_or, "xor": torch.bitwise_xor,
          "xchg": lambda a, b: b}[op]
    expected = x0.clone()
    expected[:n] = fn(x0[:n], y[:n])
    torch.testing.assert_close(x, expected, rtol=0, atol=0)
    torch.testing.assert_close(old[:n], x0[:n], rtol=0, atol=0)


def test_xchg_float_own_slot():
    n, block = 1000, 256
    grid = triton.cdiv(n, block)
    x0 = random_values(grid * block, torch.float32)
    y = random_values(grid * block, torch.float32)
    x = x0.clone()
    old = poison(grid * block, torch.float32)
    bitwise_own_slot[(grid,)](x, y, old, n, OP="xchg", BLOCK=block)
    torch.testing.assert_close(x[:n], y[:n], rtol=0, atol=0)
    torch.testing.assert_close(x[n:], x0[n:], rtol=0, atol=0)
    torch.testing.assert_close(old[:n], x0[:n], rtol=0, atol=0)


@triton.jit
def cas_own_slot(x_ptr, cmp_ptr, val_ptr, old_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    old = tl.atomic_cas(x_ptr + offs, tl.load(cmp_ptr + offs), tl.load(val_ptr + offs), sem="acq_rel")
    tl.store(old_ptr + offs, old)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float32, torch.int16, torch.float16])
def test_cas_own_slot(dtype):
    block, grid = 256, 8
    n = block * grid
    x0 = random_values(n, dtype, -100, 100)
    # half the slots expect their current value (swap), half something else (keep)
    cmp = torch.where(torch.rand(n, device="cuda") < 0.5, x0, x0 + 1)
    val = random_values(n, dtype, -100, 100)
    x = x0.clone()
    old = poison(n, dtype)
    cas_own_slot[(grid,)](x, cmp, val, old, BLOCK=block)
    torch.testing.assert_close(x, torch.where(x0 == cmp, val, x0), rtol=0, atol=0)
    torch.testing.assert_close(old, x0, rtol=0, atol=0)


# ---- contention: many programs, few slots ------------------------------------------------------------

@triton.jit
def add_into_slots(x_ptr, y_ptr, n, SLOTS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask)
    tl.atomic_add(x_ptr + offs % SLOTS, y, mask=mask)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64])
@pytest.mark.parametrize("slots", [1, 7, 64])
def test_contended_integer_add_is_exact(dtype, slots):
    n, block = 100_003, 256
    y = random_values(n, dtype)
    x = torch.zeros(slots, dtype=dtype, device="cuda")
    add_into_slots[(triton.cdiv(n, block),)](x, y, n, SLOTS=slots, BLOCK=block)
    idx = torch.arange(n, device="cuda") % slots
    expected = torch.zeros(slots, dtype=torch.int64, device="cuda").index_add_(0, idx, y.to(torch.int64))
    torch.testing.assert_close(x.to(torch.int64), expected, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_contended_float_add(dtype):
    n, block, slots = 20_000, 512, 16
    y = (torch.rand(n, device="cuda", dtype=torch.float64) - 0.5).to(dtype)
    x = torch.zeros(slots, dtype=dtype, device="cuda")
    add_into_slots[(triton.cdiv(n, block),)](x, y, n, SLOTS=slots, BLOCK=block)
    idx = torch.arange(n, device="cuda") % slots
    expected = torch.zeros(slots, dtype=torch.float64, device="cuda").index_add_(0, idx, y.double())
    tol = 1.0 if dtype == torch.float16 else 1e-3
    torch.testing.assert_close(x.double(), expected, rtol=0, atol=tol)


@triton.jit
def minmax_into_slots(x_ptr, y_ptr, n, SLOTS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask)
    tl.atomic_max(x_ptr + offs % SLOTS, y, mask=mask)
    tl.atomic_min(x_ptr + SLOTS + offs % SLOTS, y, mask=mask, sem="relaxed")


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float32, torch.float64])
def test_contended_max_min_with_negative_values(dtype):
    n, block, slots = 50_000, 256, 8
    y = random_values(n, dtype)
    y[y > 0] *= -1  # mostly negative: the float path through unsigned atomics matters
    y[::97] = 5
    x = torch.empty(2 * slots, dtype=dtype, device="cuda")
    if dtype.is_floating_point:
        x[:slots], x[slots:] = -float("inf"), float("inf")
    else:
        info = torch.iinfo(dtype)
        x[:slots], x[slots:] = info.min, info.max
    minmax_into_slots[(triton.cdiv(n, block),)](x, y, n, SLOTS=slots, BLOCK=block)
    per_slot = y.view(-1)[: (n // slots) * slots].view(-1, slots)
    rest = y[(n // slots) * slots:]
    mx, mn = per_slot.max(0).values.clone(), per_slot.min(0).values.clone()
    mx[: rest.numel()] = torch.maximum(mx[: rest.numel()], rest)
    mn[: rest.numel()] = torch.minimum(mn[: rest.numel()], rest)
    torch.testing.assert_close(x[:slots], mx, rtol=0, atol=0)
    torch.testing.assert_close(x[slots:], mn, rtol=0, atol=0)


@triton.jit
def bitwise_into_slots(x_ptr, y_ptr, n, SLOTS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask)
    tl.atomic_and(x_ptr + offs % SLOTS, y, mask=mask)
    tl.atomic_or(x_ptr + SLOTS + offs % SLOTS, y, mask=mask)
    tl.atomic_xor(x_ptr + 2 * SLOTS + offs % SLOTS, y, mask=mask)


def test_contended_and_or_xor():
    n, block, slots = 30_000, 256, 5
    # sparse bits so that and/or do not saturate
    bits = torch.randint(0, 31, (n,), device="cuda")
    y = (torch.ones(n, dtype=torch.int64, device="cuda") << bits).to(torch.int32)
    y_and = ~y  # and of complements: clears the bits that appear
    x = torch.tensor([-1] * slots + [0] * slots + [0] * slots, dtype=torch.int32, device="cuda")
    grid = (triton.cdiv(n, block),)
    x_and = x.clone()  # the and slots run on the complements, the or/xor slots on y itself
    bitwise_into_slots[grid](x_and, y_and, n, SLOTS=slots, BLOCK=block)
    bitwise_into_slots[grid](x, y, n, SLOTS=slots, BLOCK=block)
    yn, yan = y.cpu().numpy(), y_and.cpu().numpy()
    idx = np.arange(n) % slots
    for s in range(slots):
        assert x_and[s].item() == np.bitwise_and.reduce(np.concatenate([[-1], yan[idx == s]]))
        assert x[slots + s].item() == np.bitwise_or.reduce(yn[idx == s])
        assert x[2 * slots + s].item() == np.bitwise_xor.reduce(yn[idx == s])


# ---- scalar forms -------------------------------------------------------------------------------------

@triton.jit
def scalar_counter(counter_ptr, old_ptr, LIMIT, SEM: tl.constexpr, SCOPE: tl.constexpr):
    pid = tl.program_id(0)
    old = tl.atomic_add(counter_ptr, 1, mask=pid < LIMIT, sem=SEM, scope=SCOPE)
    tl.store(old_ptr + pid, old)


@pytest.mark.parametrize("sem, scope", [("acq_rel", "gpu"), ("relaxed", "sys")])
def test_scalar_add_returns_distinct_tickets(sem, scope):
    programs, limit = 500, 400
    counter = torch.zeros(1, dtype=torch.int32, device="cuda")
    old = poison(programs, torch.int32)
    scalar_counter[(programs,)](counter, old, limit, SEM=sem, SCOPE=scope)
    assert counter.item() == limit
    tickets = old[:limit].sort().values
    torch.testing.assert_close(tickets, torch.arange(limit, dtype=torch.int32, device="cuda"))
    assert (old[limit:] == 0).all()  # masked off: nothing added, 0 returned


@triton.jit
def scalar_max_min(x_ptr, v_ptr):
    v = tl.load(v_ptr + tl.program_id(0))
    tl.atomic_max(x_ptr, v)
    tl.atomic_min(x_ptr + 1, v)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int32])
def test_scalar_max_min(dtype):
    programs = 300
    v = random_values(programs, dtype)
    v[v > 0] *= -1
    x = torch.tensor([-1e9, 1e9], device="cuda").to(dtype)
    scalar_max_min[(programs,)](x, v)
    torch.testing.assert_close(x, torch.stack([v.max(), v.min()]), rtol=0, atol=0)


@triton.jit
def locked_increment(lock_ptr, counter_ptr, ROUNDS: tl.constexpr):
    for _ in range(ROUNDS):
        while tl.atomic_cas(lock_ptr, 0, 1, sem="acquire") == 1:
            pass
        # a plain (non-atomic) read-modify-write, safe only under the lock
        value = tl.load(counter_ptr, volatile=True)
        tl.store(counter_ptr, value + 1)
        tl.atomic_xchg(lock_ptr, 0, sem="release")


def test_cas_spin_lock_counter():
    programs, rounds = 64, 8
    lock = torch.zeros(1, dtype=torch.int32, device="cuda")
    counter = torch.zeros(1, dtype=torch.int32, device="cuda")
    locked_increment[(programs,)](lock, counter, ROUNDS=rounds, num_warps=1)
    assert lock.item() == 0
    assert counter.item() == programs * rounds
