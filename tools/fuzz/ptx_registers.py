"""Registers a PTX kernel reads that no instruction of it writes.

The PTX Tritium hands to ptxas is NVPTX's output rewritten as text
(lib/Target/NVIDIA/PTX*.cpp: widening shifts split, multiply-adds fused,
masked loads' defaults, wgmma waits moved).  A rewrite that drops a
definition its replacement still reads leaves PTX that assembles without a
word (every register is declared by `.reg .b64 %rd<N>`) and computes with
whatever the register held: an address off by garbage, found on a GPU as a
misaligned or illegal access.  Every virtual register NVPTX emits is
written somewhere before it is read, so a register read and never written
is such a rewrite's mistake.

The check over-approximates writes: an instruction's first operand counts
as written unless it is an address (`[...]`, a store's, a copy's); every
other register token counts as read.  Special registers (%tid.x, %ctaid.y,
...) are not the program's to write.
"""
import re

SPECIAL = ("%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
           "%gridid", "%clock", "%clock64", "%globaltimer", "%lanemask_eq", "%lanemask_le",
           "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%dynamic_smem_size", "%total_smem_size",
           "%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank", "%clusterid",
           "%nclusterid", "%is_explicit_cluster", "%envreg", "%pm")
REGISTER = re.compile(r"%[A-Za-z_$][\w$]*")


def _first_operand(operands: str):
    """(the first operand, the rest) of an instruction's operand text."""
    if operands.startswith("{"):
        end = operands.find("}")
        return operands[:end + 1], operands[end + 1:]
    first, _, rest = operands.partition(",")
    return first, rest


def _statements(ptx: str):
    """The instructions of `ptx`, one string each, guards kept: a scope
    opened on one line (`{ .reg .b32 t; mov.b64 {t, %r8}, %rd2; }`) read
    statement by statement; declarations, directives and labels left out."""
    for line in ptx.splitlines():
        for statement in line.split("//")[0].split(";"):
            statement = statement.strip()
            if statement.startswith("{") and not statement.startswith("{%"):
                statement = statement[1:].strip()  # a scope's opening brace
            if not statement or statement[0] in ".}" or statement.endswith(":") or statement.startswith("$"):
                continue
            yield statement


def unwritten_registers(ptx: str) -> list:
    """The registers `ptx` reads and never writes, sorted."""
    written, read = set(), set()
    for statement in _statements(ptx):
        guard = re.match(r"^@!?(%\w+)\s+", statement)
        if guard:
            read.add(guard.group(1))
            statement = statement[guard.end():]
        match = re.match(r"([\w.:]+)\s+(.*)$", statement)
        if not match:
            continue
        first, rest = _first_operand(match.group(2))
        (read if "[" in first else written).update(REGISTER.findall(first))
        read.update(REGISTER.findall(rest))
    return sorted(r for r in read - written if not r.startswith(SPECIAL) and not r.startswith("%SP"))
