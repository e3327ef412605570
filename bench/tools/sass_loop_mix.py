"""Instruction mix of a kernel's pipelined K loop, from SASS, without a GPU.

  python bench/tools/sass_loop_mix.py KERNEL.cubin|KERNEL.sass [...]

For each file, every innermost loop around an mbarrier wait
(SYNCS.PHASECHK...TRYWAIT: a TMA ring's consumer) is found, its out-of-line
branches (an indirect-branch switch, BRXU, up to its BSYNC: the slab cases
of a deferred tile store, which run only in a tile's first K steps) are
left out, and the instructions of one steady K step are counted per warp:
uniform-datapath (U*, R2UR, VOTEU), vector and NOP, and by opcode.  (A
loop that holds code behind a forward branch, as Triton 3.6's flattened
persistent loop holds its epilogue, is counted whole: count its steady
path by hand.)

A .sass file is a listing from `cuobjdump -sass` or `nvdisasm -c`.  A
.cubin is disassembled with the nvdisasm named by NVDISASM (default:
nvdisasm on PATH); the one of CUDA 11.8 (Debian 12's non-free package
nvidia-cuda-toolkit) works on a machine without the CUDA toolkit: `apt-get
download nvidia-cuda-toolkit` against a sources list naming bookworm
non-free, then `dpkg -x`.  That nvdisasm reads only the ELF ABI version 7
that CUDA 12 wrote; ptxas 13 writes version 8, whose header flags differ,
so when nvdisasm refuses the cubin it is disassembled from a copy with the
sm_90a header of version 7 (the code itself is unchanged).  On tutorial
09's 3-stage persistent matmul both ways count the same 116 instructions,
opcode for opcode: cuobjdump's listing on the H200 and nvdisasm 11.8's of
the same cubin (2026-11-28).
"""
import argparse
import collections
import os
import re
import struct
import subprocess
import sys
import tempfile

ELF_ABI_VERSION = 8       # e_ident[EI_ABIVERSION]
ELF_FLAGS = 48            # e_flags in a 64-bit ELF header
SM90A_ABI7_FLAGS = 0x005a0d5a  # sm_90, virtual sm_90, 64-bit addresses, unified textures, accelerated


def nvdisasm(path):
    return subprocess.run([os.environ.get("NVDISASM", "nvdisasm"), "-c", path], capture_output=True, text=True)


def disassemble(cubin_path):
    """nvdisasm -c of the cubin, or, when that nvdisasm cannot read a
    version-8 header, of a copy with the version-7 sm_90a header."""
    result = nvdisasm(cubin_path)
    with open(cubin_path, "rb") as f:
        data = bytearray(f.read())
    if result.returncode and data[ELF_ABI_VERSION] == 8:
        data[ELF_ABI_VERSION] = 7
        struct.pack_into("<I", data, ELF_FLAGS, SM90A_ABI7_FLAGS)
        with tempfile.NamedTemporaryFile(suffix=".cubin") as copy:
            copy.write(data)
            copy.flush()
            result = nvdisasm(copy.name)
    if result.returncode:
        sys.exit(f"{cubin_path}: nvdisasm failed: {result.stderr.strip()}")
    return result.stdout


INSTRUCTION = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)(.*?);")


def instructions(listing):
    """(address, opcode, operands) of every instruction of a listing."""
    found = []
    for line in listing.splitlines():
        match = INSTRUCTION.search(line)
        if match:
            found.append((int(match.group(1), 16), match.group(3), match.group(4)))
    return found


def branch_target(operands):
    """The address a BRA jumps to (cuobjdump: 0x..., nvdisasm: a label)."""
    match = re.search(r"0x([0-9a-f]+)", operands)
    return int(match.group(1), 16) if match else None


def label_addresses(listing):
    """nvdisasm -c's labels (`.L_x_N:` lines) and the addresses they name."""
    addresses, waiting = {}, []
    for line in listing.splitlines():
        label = re.match(r"\s*(\.L_x_\d+):", line)
        if label:
            waiting.append(label.group(1))
            continue
        match = INSTRUCTION.search(line)
        if match:
            for name in waiting:
                addresses[name] = int(match.group(1), 16)
            waiting = []
    return addresses


def k_loops(listing):
    """For each loop around a TRYWAIT, in address order: the opcodes from
    its head to its backward branch, the switch bodies (BSSY/BRXU ..
    BSYNC) left out."""
    code = instructions(listing)
    labels = label_addresses(listing)
    spans = []
    for i, (wait_address, op, _) in enumerate(code):
        if not op.startswith("SYNCS.PHASECHK"):
            continue
        for address, branch, operands in code[i:]:
            if branch != "BRA":
                continue
            label = re.search(r"(\.L_x_\d+)", operands)
            target = labels.get(label.group(1)) if label else branch_target(operands)
            if target == wait_address:  # an out-of-line retry of a wait: no loop of its own
                break
            if target is not None and target < wait_address:
                if (target, address) not in spans:
                    spans.append((target, address))
                break
    # innermost loops only: a tile loop around K loops holds waits of its own
    spans = sorted(span for span in spans
                   if not any(other != span and span[0] <= other[0] and other[1] <= span[1] for other in spans))
    loops = []
    for start, end in spans:
        body, skipping = [], False
        for address, op, _ in code:
            if not start <= address <= end:
                continue
            if op.startswith(("BSSY", "BRXU")):
                skipping = True
            if skipping:
                skipping = not op.startswith("BSYNC")
                continue
            body.append(op)
        loops.append((start, body))
    return loops


def mix(ops):
    kinds = collections.Counter()
    for op in ops:
        kinds["nop" if op == "NOP" else "uniform" if op.startswith(("U", "R2UR", "VOTEU")) else "vector"] += 1
    return kinds, collections.Counter(op.split(".")[0] for op in ops if op != "NOP")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 2)[2])
    parser.add_argument("files", nargs="+", metavar="KERNEL.cubin|KERNEL.sass")
    for path in parser.parse_args().files:
        listing = disassemble(path) if path.endswith(".cubin") else open(path).read()
        loops = k_loops(listing)
        if not loops:
            sys.exit(f"{path}: no loop around an mbarrier wait")
        for start, ops in loops:
            kinds, counts = mix(ops)
            print(f"{path}, loop at {start:#x}: {kinds['uniform'] + kinds['vector']} instructions a K step "
                  f"({kinds['vector']} vector, {kinds['uniform']} uniform; {kinds['nop']} NOPs)")
            print("   ", ", ".join(f"{op} {n}" for op, n in counts.most_common()))


if __name__ == "__main__":
    main()
