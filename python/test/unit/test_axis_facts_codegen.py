"""Vector widths that rest on what the axis analysis proves, without a GPU
(cuda:90 PTX): a row bounded by min(chunk_size, seqlen - chunk *
chunk_size) of multiples of 16 loads 16 bytes at a time, and element by
element when seqlen is of unknown divisibility; a gather addressed by a row
index loaded per element (an embedding lookup) loads 16 bytes at a time
along the row.  python/test/gpu/test_axis_facts.py runs such kernels."""
import re

import tritium as triton
import tritium.language as tl


@triton.jit
def chunk_row_sum_kernel(x_ptr, out_ptr, seqlen, chunk_size, BLOCK: tl.constexpr):
    chunk = tl.program_id(0)
    limit = min(chunk_size, seqlen - chunk * chunk_size)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + chunk * chunk_size + offs, mask=offs < limit, other=0.0)
    tl.store(out_ptr + chunk, tl.sum(x, axis=0))


@triton.jit
def embedding_kernel(idx_ptr, table_ptr, out_ptr, xnumel, HIDDEN: tl.constexpr, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    xmask = xindex < xnumel
    row = tl.load(idx_ptr + xindex // HIDDEN, xmask)
    tl.store(out_ptr + xindex, tl.load(table_ptr + (xindex % HIDDEN + HIDDEN * row), xmask), xmask)


def global_loads(ptx):
    """{vector width: count} of the global loads of 32-bit words in `ptx`."""
    widths = {}
    for match in re.finditer(r"ld\.global(?:\.[a-zA-Z0-9_:]+)*?(?:\.v(\d))?\.b32 ", ptx):
        width = int(match.group(1) or 1)
        widths[width] = widths.get(width, 0) + 1
    return widths


def test_a_min_of_multiples_of_16_bounds_a_vectorized_row():
    signature = {"x_ptr": "*fp32", "out_ptr": "*fp32", "seqlen": "i32", "chunk_size": "i32"}
    aligned = {name: [["tt.divisibility", 16]] for name in signature}
    ptx = triton.compile(chunk_row_sum_kernel, signature=signature, constexprs={"BLOCK": 256}, attrs=aligned,
                         target="cuda:90", num_warps=2).asm["ptx"]
    assert global_loads(ptx) == {4: 1}, global_loads(ptx)  # 4 elements a thread, one 16-byte load
    # seqlen of unknown divisibility: so is the bound, and the row goes element by element
    del aligned["seqlen"]
    ptx = triton.compile(chunk_row_sum_kernel, signature=signature, constexprs={"BLOCK": 256}, attrs=aligned,
                         target="cuda:90", num_warps=2).asm["ptx"]
    assert global_loads(ptx) == {1: 4}, global_loads(ptx)


def test_a_gather_by_a_loaded_row_index_is_vectorized_along_the_row():
    signature = {"idx_ptr": "*i32", "table_ptr": "*fp32", "out_ptr": "*fp32", "xnumel": "i32"}
    ptx = triton.compile(embedding_kernel, signature=signature, constexprs={"HIDDEN": 1024, "XBLOCK": 1024},
                         attrs={name: [["tt.divisibility", 16]] for name in signature}, target="cuda:90",
                         num_warps=4).asm["ptx"]
    # 8 elements a thread: the row index (one word, loaded for each) and the table row in 2 x 16 bytes
    assert global_loads(ptx) == {1: 8, 4: 2}, global_loads(ptx)
