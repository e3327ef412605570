"""bench/tools/sass_load_lead.py on a hand-written SASS listing: which loop it
finds and the lead of each register a shared load loads."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "bench", "tools"))

import sass_load_lead  # noqa: E402

LISTING = """
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   LDS.128 R4, [R2] ;
        /*0020*/                   LDS R8, [R2+0x10] ;
        /*0030*/                   FFMA R10, R4, R8, R10 ;
        /*0040*/                   FFMA R11, R5, R8, R11 ;
        /*0050*/                   STS [R2+0x20], R6 ;
        /*0060*/               @P0 BRA 0x10 ;
        /*0070*/                   BRA 0x90 ;
        /*0080*/                   NOP ;
        /*0090*/                   EXIT ;
"""


def test_the_loop_is_the_backward_branch_and_its_target():
    found = sass_load_lead.loops(LISTING, min_size=1)
    assert [(start, len(body)) for start, body in found] == [(0x10, 6)]


def test_each_loaded_register_read_in_the_loop_has_its_lead():
    (_, body), = sass_load_lead.loops(LISTING, min_size=1)
    # R4 read 2 instructions after its LDS.128, R8 1 after its LDS (once:
    # only the first read counts), R5 3 after, R6 by the store 4 after; R7
    # is never read.
    assert sorted(sass_load_lead.load_leads(body)) == [1, 2, 3, 4]


def test_short_loops_are_left_out():
    assert sass_load_lead.loops(LISTING, min_size=7) == []
