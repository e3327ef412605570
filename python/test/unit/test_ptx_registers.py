"""The PTX text rewrites after NVPTX (lib/Target/NVIDIA/PTX*.cpp) keep the
definition of every register their replacements read
(tools/fuzz/ptx_registers.py; the compile fuzzer checks every valid
program's PTX the same way)."""
import os
import re
import sys

import tritium as triton

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools", "fuzz"))
from kernels.shifted_slabs import copy_shifted_slabs  # noqa: E402
from ptx_registers import unwritten_registers  # noqa: E402


def test_an_add_of_two_widened_products_takes_one_of_them_as_a_multiply_add():
    kernel = triton.compile(copy_shifted_slabs, signature={"x_ptr": "*fp32", "rows_ptr": "*i32", "out_ptr": "*fp32"},
                            constexprs={"BLOCK": 128},
                            attrs={a: [["tt.divisibility", 16]] for a in ("x_ptr", "rows_ptr", "out_ptr")},
                            target="cuda:90", num_warps=1)
    ptx = kernel.asm["ptx"]
    assert unwritten_registers(ptx) == []
    # exactly one product fused into the add, the other kept as its addend
    fused = re.findall(r"mad\.wide\.u32\s+%rd\d+, %r\d+, 65536, %rd\d+;", ptx) \
        + re.findall(r"mad\.wide\.s32\s+%rd\d+, %r\d+, 1024, %rd\d+;", ptx)
    assert len(fused) == 1, ptx


def test_a_register_read_and_never_written_is_found():
    ptx = ("\tld.param.u64 \t%rd1, [k_param_0];\n"
           "\tmov.u32 \t%r1, %tid.x;\n"
           "\t@%p1 ld.global.v2.b32 \t{ %r2, %r3 }, [ %rd1 + 0 ];\n"
           "\tmad.wide.u32 \t%rd4, %r1, 4, %rd3;\n"  # %rd3: its definition dropped
           "\tst.global.b32 \t[%rd4], %r2;\n"
           "\tsetp.lt.s32 \t%p1, %r1, 4;\n")
    assert unwritten_registers(ptx) == ["%rd3"]
    assert unwritten_registers(ptx.replace("\tmad.wide", "\tmov.u64 \t%rd3, %rd1;\n\tmad.wide")) == []


def test_registers_of_a_scope_opened_on_one_line_are_read_and_written():
    ptx = ("\tmov.u64 \t%rd82, 0;\n"
           "\t{ .reg .b32 tmp; mov.b64 {tmp, %r8}, %rd82; }\n"
           "\tadd.s32 \t%r37, %r8, 1;\n"
           "\t{\n\t.reg .pred %p9;\n\tsetp.eq.s32 %p9, %r37, 0;\n"
           "\t@%p9 st.global.b32 [%rd82], %r99;\n\t}\n")
    assert unwritten_registers(ptx) == ["%r99"]

