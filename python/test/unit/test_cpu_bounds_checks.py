"""The CPU target in debug mode (debug=True, TRITON_DEBUG=1): loads, stores
and atomics through a pointer argument stay inside the argument's buffer
(a numpy array's whole base array), or the launch fails with an
AssertionError at the kernel's line naming the argument, before the access
(tritium-cpu-bounds-checks).  Without debug nothing is checked."""
import inspect

import pytest

np = pytest.importorskip("numpy")

import tritium as triton  # noqa: E402
import tritium.language as tl  # noqa: E402


@triton.jit
def copy_kernel(src, dst, n_load, n_store, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(src + offs, mask=offs < n_load, other=0.0)
    tl.store(dst + offs, x, mask=offs < n_store)


def _line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_accesses_inside_the_buffers_run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, dtype=np.float32)
    copy_kernel[(1,)](x, y, 64, 64, BLOCK=64, debug=True)
    assert np.array_equal(x, y)


def test_a_store_its_mask_does_not_cover_fails_at_its_line():
    x = np.arange(64, dtype=np.float32)
    whole = np.full(80, -1.0, dtype=np.float32)
    y = whole[:60].copy()  # its own buffer of 60 elements
    with pytest.raises(AssertionError, match=r"copy_kernel: program \(0, 0, 0\): "
                       r"Assertion `out-of-bounds store through argument 'dst'` failed") as failure:
        copy_kernel[(1,)](x, y, 60, 64, BLOCK=64, debug=True)
    assert f":{_line_of(copy_kernel, 'tl.store')}:" in str(failure.value)
    assert np.all(y == -1.0)  # the program stopped before the store


def test_a_load_outside_its_argument_fails():
    x = np.arange(48, dtype=np.float32)
    y = np.zeros(64, dtype=np.float32)
    with pytest.raises(AssertionError, match=r"out-of-bounds load through argument 'src'"):
        copy_kernel[(1,)](x, y, 64, 48, BLOCK=64, debug=True)


def test_a_view_may_reach_the_rest_of_its_base_array():
    base = np.arange(128, dtype=np.float32)
    y = np.zeros(64, dtype=np.float32)
    copy_kernel[(1,)](base[32:48], y, 64, 64, BLOCK=64, debug=True)  # reads base[32:96]
    assert np.array_equal(y, base[32:96])


def test_repeated_launches_are_checked_each_time():
    x = np.arange(64, dtype=np.float32)
    copy_kernel[(1,)](x, np.zeros(64, np.float32), 64, 56, BLOCK=64, debug=True)
    with pytest.raises(AssertionError, match="argument 'dst'"):
        copy_kernel[(1,)](x, np.zeros(60, np.float32), 64, 61, BLOCK=64, debug=True)


@triton.jit
def strided_sum_kernel(src, out, n, STEPS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    ptrs = src + offs
    acc = tl.zeros([BLOCK], tl.float32)
    for _ in range(STEPS):
        acc += tl.load(ptrs, mask=offs < n, other=0.0)
        ptrs += BLOCK
    tl.store(out + offs, acc)


def test_pointers_a_loop_carries_are_checked():
    out = np.zeros(16, np.float32)
    src = np.ones(64, np.float32)
    strided_sum_kernel[(1,)](src, out, 16, STEPS=4, BLOCK=16, debug=True)
    assert np.all(out == 4.0)
    with pytest.raises(AssertionError, match="out-of-bounds load through argument 'src'"):
        strided_sum_kernel[(1,)](src, out, 16, STEPS=5, BLOCK=16, debug=True)


@triton.jit
def count_kernel(counter, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(counter + offs % 4, 1, mask=offs < n)


def test_atomics_are_checked():
    counter = np.zeros(4, np.int32)
    count_kernel[(1,)](counter, 16, BLOCK=16, debug=True)
    assert np.all(counter == 4)
    with pytest.raises(AssertionError, match="out-of-bounds atomic through argument 'counter'"):
        count_kernel[(1,)](np.zeros(3, np.int32), 16, BLOCK=16, debug=True)


def test_without_debug_the_kernel_takes_no_extents():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, dtype=np.float32)
    kernel = copy_kernel.warmup(x, y, 64, 64, BLOCK=64, grid=(1,))
    assert not kernel.metadata["bounds_checks"]
    assert "out-of-bounds" not in kernel.asm["ttir"]
    checked = copy_kernel.warmup(x, y, 64, 64, BLOCK=64, debug=True, grid=(1,))
    assert checked.metadata["bounds_checks"]


@triton.jit
def descriptor_copy_kernel(src_desc, dst, BM: tl.constexpr, BN: tl.constexpr):
    tile = src_desc.load([0, 0])
    tl.store(dst + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], tile)


def test_tensor_descriptors_are_checked_through_their_base():
    from tritium.tools.tensor_descriptor import TensorDescriptor
    src = np.arange(32 * 16, dtype=np.float32).reshape(32, 16)
    dst = np.zeros((32, 16), np.float32)
    descriptor_copy_kernel[(1,)](TensorDescriptor(src, [32, 16], [16, 1], [32, 16]), dst, BM=32, BN=16,
                                 debug=True)
    assert np.array_equal(dst, src)
    with pytest.raises(AssertionError, match="out-of-bounds store through argument 'dst'"):
        descriptor_copy_kernel[(1,)](TensorDescriptor(src, [32, 16], [16, 1], [32, 16]), dst[:31].copy(),
                                     BM=32, BN=16, debug=True)
    # a descriptor whose shape runs past its base array
    with pytest.raises(AssertionError, match="out-of-bounds load through argument 'src_desc.base'"):
        descriptor_copy_kernel[(1,)](TensorDescriptor(src[:16].copy(), [32, 16], [16, 1], [32, 16]), dst,
                                     BM=32, BN=16, debug=True)
