"""A copy whose 64-bit offset adds two widened products: a program's slab
(non-negative, zero-extended) and a loaded row (of unknown sign,
sign-extended), each times a power of two, the sum used twice so that it
stays one add of the two products (as flash-linear-attention's
chunk_gla_fwd_kernel_o offsets its state).  Compiled by the CPU tests
(the PTX's multiply-adds) and run by the GPU tests against torch."""
import tritium as triton
import tritium.language as tl


@triton.jit
def copy_shifted_slabs(x_ptr, rows_ptr, out_ptr, BLOCK: tl.constexpr):
    slab = tl.program_id(0)
    row = tl.load(rows_ptr + slab)
    base = slab.to(tl.int64) * 65536 + row.to(tl.int64) * 1024
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + base + offs, tl.load(x_ptr + base + offs) + 1)
