"""How far ahead of their first use a kernel's loops issue their shared-memory
loads, from SASS, without a GPU.

  python bench/tools/sass_load_lead.py KERNEL.cubin|KERNEL.sass [...]

For each file, every loop (a backward branch, BRA to a lower address) of at
least --min-size instructions is scanned in address order: each register an
LDS (or LDSM) loads (four for .128, two for .64) has as its lead the number
of instructions to the first later one in the loop that reads it.  Printed
per loop: the loaded registers read in the loop, their median lead, the
10th percentile, and how many are read within 8 and within 16
instructions.  ptxas decides this interleaving for
the CUDA-core dots of Inductor's fp32 mm template, whose PTX issues every
shared load of a k step before the step's FMAs: a median lead of 19 ran at
0.90 of Triton and one of 29.5 at 1.03 on the same config, where Triton's
kernel has 37 (docs/performance.md).

A .sass file is a listing from `cuobjdump -sass` or `nvdisasm -c`; a .cubin
is disassembled as sass_loop_mix.py does (NVDISASM, default nvdisasm).
"""
import argparse
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from sass_loop_mix import branch_target, disassemble, instructions, label_addresses  # noqa: E402

REGISTER = re.compile(r"\bR(\d+)\b")


def loops(listing, min_size):
    """(start, instructions) of every loop of at least `min_size`
    instructions: from a backward branch's target to the branch."""
    found = instructions(listing)
    labels = label_addresses(listing)
    result = []
    for index, (address, opcode, operands) in enumerate(found):
        if opcode != "BRA":
            continue
        target = branch_target(operands)
        if target is None:
            label = re.search(r"(\.L_x_\d+)", operands)
            target = labels.get(label.group(1)) if label else None
        if target is None or target >= address:
            continue
        body = [ins for ins in found[:index + 1] if ins[0] >= target]
        if len(body) >= min_size:
            result.append((target, body))
    return result


def load_leads(body):
    """The lead, in instructions, of every register a shared load of the
    loop body loads and the body reads later."""
    pending, leads = {}, []
    for position, (_, opcode, operands) in enumerate(body):
        registers = [int(r) for r in REGISTER.findall(operands)]
        if opcode.startswith(("LDS", "LDSM")) and registers:
            width = 4 if ".128" in opcode else 2 if ".64" in opcode else 1
            if opcode.startswith("LDSM"):
                width = 4 if ".X4" in opcode else 2 if ".X2" in opcode else 1
            for register in range(registers[0], registers[0] + width):
                pending[register] = position
            continue
        # A store reads every register it names; other instructions read all
        # but their first (the destination).
        reads = registers if opcode.startswith(("ST", "RED", "ATOM")) else registers[1:]
        for register in reads:
            if register in pending:
                leads.append(position - pending.pop(register))
    return leads


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 2)[2])
    parser.add_argument("files", nargs="+", metavar="KERNEL.cubin|KERNEL.sass")
    parser.add_argument("--min-size", type=int, default=64,
                        help="the fewest instructions a loop has to be reported (default 64)")
    args = parser.parse_args()
    for path in args.files:
        listing = disassemble(path) if path.endswith(".cubin") else open(path).read()
        reported = 0
        for start, body in loops(listing, args.min_size):
            leads = sorted(load_leads(body))
            if not leads:
                continue
            reported += 1
            print(f"{path}, loop at {start:#x} ({len(body)} instructions): {len(leads)} registers loaded "
                  f"from shared memory and read in the loop; lead median {statistics.median(leads):g}, 10th percentile "
                  f"{leads[len(leads) // 10]}, within 8: {sum(d < 8 for d in leads)}, "
                  f"within 16: {sum(d < 16 for d in leads)}")
        if not reported:
            print(f"{path}: no loop of {args.min_size} or more instructions reads a shared load")


if __name__ == "__main__":
    main()
