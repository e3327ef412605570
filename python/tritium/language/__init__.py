"""`triton.language` for Tritium: `import tritium.language as tl`."""
from . import core, extra, math, semantic  # noqa: F401
from .core import (TRITON_BUILTIN, PropagateNan, const, constexpr_type, str_to_ty,  # noqa: F401
                   advance, arange, associative_scan, assume, atomic_add, atomic_and, atomic_cas,
                   atomic_max, atomic_min, atomic_or, atomic_xchg, atomic_xor, broadcast,
                   broadcast_to, builtin, cast, cat, clamp, constexpr, debug_barrier, device_assert,
                   device_print, dot, expand_dims, full, gather, histogram, inline_asm_elementwise, join, load,
                   make_block_ptr, max_constancy, max_contiguous, maximum, minimum, multiple_of, num_programs,
                   permute, program_id, range, reduce, reshape, split, static_assert, static_print,
                   static_range, store, tensor, tensor_descriptor, load_tensor_descriptor, store_tensor_descriptor,
                   make_tensor_descriptor,
                   trans, view, where, zeros)
from ..dtypes import (block_type, dtype, pointer_type, void, int1, int8, int16, int32, int64, uint8,  # noqa: F401
                     uint16, uint32, uint64, float8e4nv, float8e5, float8e4b8, float8e4b15, float8e5b16, float16,
                     bfloat16, float32, float64, tensor_descriptor_type)
from .math import (abs, ceil, cos, div_rn, erf, exp, exp2, fdiv, floor, fma, log, log2, rsqrt, sin,  # noqa: F401
                   sqrt, sqrt_rn, umulhi)
from .standard import (argmax, argmin, cdiv, cumprod, cumsum, interleave, item, max, min, ravel,  # noqa: F401
                       reduce_or, sigmoid, softmax, sum, swizzle2d, xor_sum, zeros_like)
from .random import (pair_uniform_to_normal, philox, philox_impl, rand, rand4x, randint, randint4x,  # noqa: F401
                     randn, randn4x, uint_to_uniform_float)
from .sorting import flip, sort, topk  # noqa: F401
from .scaled_dot import dot_scaled  # noqa: F401

# Triton's aliases
float8e4m3fn = float8e4nv
float8e5m2 = float8e5
bool_ = int1  # noqa: N816
pi32_t = pointer_type(int32)
tuple = core.tuple_type  # noqa: A001 (Triton's name)

core._register_tensor_methods(globals())
