"""`tl.flip` and `tl.sort`: data-parallel permutations of a block along one
dimension whose size is a power of two, n = 2**k.

Both view that dimension as k dimensions of size 2 (a reshape), so that the
element at position i along it sits at the coordinates given by the bits of
i, most significant first.  Exchanging the two elements along one of these
size-2 dimensions pairs every i with i ^ 2**s for one bit s, which is what
both algorithms are made of:

  * the exchange itself, `_swap_pairs`: bitcast to an integer of the same
    width, and xor each element with the xor of its pair (an xor_sum over
    the size-2 dimension, kept and broadcast back), which yields the other
    element of the pair bit for bit (NaN payloads and -0.0 included);
  * flip reverses the order: reversing i is complementing all of its k bits,
    i.e. one exchange along each of the k size-2 dimensions;
  * sort is a bitonic sorting network: for m = 1..k, blocks of 2**m
    elements, made of two sorted halves of opposite direction, are merged
    by compare-exchanges at distance 2**(m-1), ..., 2, 1.  At each step
    every element compares itself with its pair and takes the other value
    when the pair is out of order: the lower element of a pair (bit s = 0)
    wants the smaller value in an ascending block, the larger in a
    descending one.  A block of the merge at level m is descending when bit
    m of i is set (m < k), so that it and its neighbour form a bitonic
    sequence for level m + 1; the last level (m = k) runs in the requested
    direction.  Swaps are decided with `<`/`>`, so NaNs are never exchanged
    and the result is always a permutation of the input (where NaNs end up
    is unspecified, as in Triton).

The network is written once, over a small set of array operations (`ops`),
so that the tests can run the very same code on NumPy arrays.
"""
from . import core, semantic, standard
from .core import builtin


# ---- the networks, over abstract array operations --------------------------------------

def _split_shape(shape, axis):
    """`shape` with dimension `axis` (a power of two, 2**k) split into k
    dimensions of size 2; returns (split shape, k)."""
    n = shape[axis]
    if n <= 0 or n & (n - 1):
        raise core.SemanticError(f"flip/sort need a power-of-two size along dimension {axis}, got {n} "
                                 f"(shape {list(shape)})")
    k = n.bit_length() - 1
    return list(shape[:axis]) + [2] * k + list(shape[axis + 1:]), k


def flip_network(x, shape, axis, ops):
    """`x` (of `shape`) reversed along `axis`."""
    split, k = _split_shape(shape, axis)
    if k == 0:
        return x
    y = ops.reshape(x, split)
    for d in range(axis, axis + k):
        y = ops.swap_pairs(y, d)
    return ops.reshape(y, shape)


def sort_network(x, shape, axis, descending, ops):
    """`x` (of `shape`) sorted along `axis` by a bitonic network."""
    split, k = _split_shape(shape, axis)
    if k == 0:
        return x
    y = ops.reshape(x, split)

    def dim_of_bit(bit):  # the size-2 dimension holding bit `bit` of the position
        return axis + k - 1 - bit

    for level in range(1, k + 1):
        # 1 where the current blocks of 2**level elements are to be descending
        descending_block = ops.coordinate(split, dim_of_bit(level)) if level < k else int(bool(descending))
        for bit in range(level - 1, -1, -1):
            d = dim_of_bit(bit)
            other = ops.swap_pairs(y, d)
            upper = ops.coordinate(split, d)
            wants_smaller = (upper ^ descending_block) == 0
            out_of_order = ops.where(wants_smaller, y > other, y < other)
            y = ops.where(out_of_order, other, y)
    return ops.reshape(y, shape)


# ---- the operations on tl tensors -----------------------------------------------------

_SAME_WIDTH_INT = {1: core.int1, 8: core.int8, 16: core.int16, 32: core.int32, 64: core.int64}


class _TensorOps:
    @staticmethod
    def reshape(x, shape):
        return semantic.reshape(x, list(shape))

    @staticmethod
    def swap_pairs(x, dim):
        """Exchanges the two elements along size-2 dimension `dim`."""
        ity = _SAME_WIDTH_INT[x.dtype.primitive_bitwidth]
        bits = semantic.bitcast(x, ity)
        pair_xor = standard.xor_sum(bits, dim, keep_dims=True)
        return semantic.bitcast(semantic.xor_(bits, pair_xor), x.dtype)

    @staticmethod
    def coordinate(shape, dim):
        """int32 tensor broadcastable to `shape`: the index along `dim` (size 2)."""
        idx = semantic.arange(0, shape[dim])
        for d in range(len(shape)):
            if d != dim:
                idx = semantic.expand_dims(idx, d)
        return idx

    @staticmethod
    def where(cond, x, y):
        return semantic.where(cond, x, y)


def _axis(x, dim, what):
    if not isinstance(x, core.tensor) or not x.type.is_block():
        raise core.SemanticError(f"{what} needs a block (a tensor with a shape), got {getattr(x, 'type', x)}")
    dtype = x.dtype
    if dtype.is_ptr() or dtype.primitive_bitwidth not in _SAME_WIDTH_INT:
        raise core.SemanticError(f"{what} does not support elements of type {dtype}")
    rank = len(x.type.shape)
    dim = core._cv(dim)
    axis = rank - 1 if dim is None else int(dim)
    if not -rank <= axis < rank:
        raise core.SemanticError(f"{what}: dimension {dim} is out of range for a tensor of rank {rank}")
    return axis % rank


@builtin
def flip(x, dim=None):
    """Reverses `x` along dimension `dim` (default: the last one), whose
    size must be a power of two."""
    axis = _axis(x, dim, "flip")
    return flip_network(x, list(x.type.shape), axis, _TensorOps)


@builtin
def sort(x, dim=None, descending=False):
    """Sorts `x` along dimension `dim` (default: the last one; its size must
    be a power of two), ascending unless `descending`."""
    axis = _axis(x, dim, "sort")
    return sort_network(x, list(x.type.shape), axis, bool(core._cv(descending)), _TensorOps)


@builtin
def topk(x, k, dim=None):
    """The `k` largest elements of `x` along its last dimension, largest
    first (Triton's tl.topk); `k` is a power of two no larger than that
    dimension.  After a descending sort, the dimension viewed as [n / k, k]
    has the k largest elements in its first row, and every column is
    sorted, so that row is the maximum over the rows."""
    axis = _axis(x, dim, "topk")
    shape = list(x.type.shape)
    if axis != len(shape) - 1:
        raise core.SemanticError(f"topk works along the last dimension ({len(shape) - 1}), got dimension {dim}")
    k, n = int(core._cv(k)), shape[-1]
    if k <= 0 or k & (k - 1) or k > n:
        raise core.SemanticError(f"topk needs k to be a power of two from 1 to {n} (the dimension's size), got {k}")
    ordered = sort_network(x, shape, axis, True, _TensorOps)
    if k == n:
        return ordered
    rows = semantic.reshape(ordered, shape[:-1] + [n // k, k], False)
    return standard.max(rows, axis=len(shape) - 1)
