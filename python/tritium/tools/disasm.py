"""`triton.tools.disasm`: the SASS of a cubin, through the CUDA toolkit's
cuobjdump (`cuobjdump -sass`) or, where there is none, nvdisasm
(`nvdisasm -c -hex`).

    from triton.tools.disasm import get_sass
    print(get_sass(kernel.asm["cubin"]))

Both listings come out in one form, Triton's: per function a line
`Function:<name>`, then one line per instruction, its control bits
(`wait barriers:read barrier:write barrier:yield:stall`, decoded from the
second 64-bit word of the instruction, sm_70 on) and the instruction, with
branch targets named `LBB<n>` and a `LBB<n>:` line before each target.

The tools are found at TRITON_CUOBJDUMP_PATH / TRITON_NVDISASM_PATH (or
$CUDA_HOME/bin, /usr/local/cuda/bin by default), then on PATH; without
either, DisassemblerNotFoundError says so.  A tool older than the ptxas
that wrote the cubin may refuse it (e.g. CUDA 11.8's refuses the ELF ABI
version 8 that ptxas 13 writes): its message is raised as a RuntimeError.
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
from typing import Dict, List, Optional, Tuple

FLINE_RE = re.compile(r"\s*/\*([0-9a-fA-F]{4,})\*/\s*([^;]*;)\s*/\* 0x(\w{16}) \*/\s*")
SLINE_RE = re.compile(r"\s*/\* 0x(\w{16}) \*/\s*")
FNAME_RE = re.compile(r"\s*Function\s*:\s*(\S+)\s*")
NVDISASM_FNAME_RE = re.compile(r"^\.text\.(\S+):\s*$")
LABEL_RE = re.compile(r"^\s*(\.L\w+):\s*$")
# branch-like instructions and their target: an address (cuobjdump) or a label (nvdisasm)
TARGET_RE = re.compile(r"^(\s*(?:@!?U?P\w+\s+)?(?:BRA|BSSY|CALL\.REL|JMP|SSY|PBK|PCNT)\S*\s.*?)"
                       r"(0x[0-9a-fA-F]+|`\((\.L\w+)\))(\s*;)$")


class DisassemblerNotFoundError(RuntimeError):
    """Neither cuobjdump nor nvdisasm was found."""


def parseCtrl(sline: str) -> str:  # noqa: N802 (Triton's name)
    """The control bits of an instruction, from its second encoding word."""
    enc = int(SLINE_RE.match(sline).group(1), 16)
    stall = (enc >> 41) & 0xF
    yld = (enc >> 45) & 0x1
    wrtdb = (enc >> 46) & 0x7
    readb = (enc >> 49) & 0x7
    watdb = (enc >> 52) & 0x3F
    return (f"{'--' if watdb == 0 else f'{watdb:02d}'}:{'-' if readb == 7 else readb}:"
            f"{'-' if wrtdb == 7 else wrtdb}:{'Y' if yld == 0 else '-'}:{stall:x}")


def path_to_cuobjdump() -> str:
    """Where cuobjdump is looked for first (knobs.nvidia.cuobjdump.path)."""
    from tritium import knobs
    return knobs.nvidia.cuobjdump.path


def path_to_nvdisasm() -> str:
    """Where nvdisasm is looked for first (knobs.nvidia.nvdisasm.path)."""
    from tritium import knobs
    return knobs.nvidia.nvdisasm.path


def _executable(path: Optional[str]) -> Optional[str]:
    return path if path and os.path.isfile(path) and os.access(path, os.X_OK) else None


def find_disassembler() -> Tuple[str, List[str]]:
    """("cuobjdump" or "nvdisasm", the command before the file's path)."""
    cuobjdump = _executable(path_to_cuobjdump()) or shutil.which("cuobjdump")
    if cuobjdump:
        return "cuobjdump", [cuobjdump, "-sass"]
    nvdisasm = _executable(path_to_nvdisasm()) or shutil.which("nvdisasm")
    if nvdisasm:
        return "nvdisasm", [nvdisasm, "-c", "-hex"]
    raise DisassemblerNotFoundError(
        f"SASS needs cuobjdump or nvdisasm from the CUDA toolkit: neither is at {path_to_cuobjdump()} or "
        f"{path_to_nvdisasm()} or on PATH (set TRITON_CUOBJDUMP_PATH or TRITON_NVDISASM_PATH, or CUDA_HOME)")


@functools.lru_cache()
def get_sass(cubin_asm: bytes, fun: Optional[str] = None) -> str:
    """The SASS of a cubin (bytes); only function `fun` when given."""
    fd, path = tempfile.mkstemp(suffix=".cubin")
    try:
        with open(fd, "wb") as cubin:
            cubin.write(cubin_asm)
        return extract(path, fun)
    finally:
        os.remove(path)


def extract(file_path: str, fun: Optional[str] = None) -> str:
    """The SASS of the cubin at `file_path`, in Triton's form (see the
    module's docstring); only function `fun` when given."""
    tool, command = find_disassembler()
    result = subprocess.run(command + [file_path], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{tool} could not disassemble {file_path}: "
                           f"{(result.stderr or result.stdout).strip()}")
    functions = parse_listing(result.stdout)
    if fun is not None:
        functions = [(name, body) for name, body in functions if name == fun]
        if not functions:
            raise RuntimeError(f"{file_path} has no function '{fun}'")
    return "".join(f"Function:{name}\n{body}\n" for name, body in functions)


def parse_listing(listing: str) -> List[Tuple[str, str]]:
    """[(function name, its instructions in Triton's form)] of a
    `cuobjdump -sass` or `nvdisasm -c -hex` listing."""
    lines = listing.splitlines()
    functions: List[Tuple[str, List[Tuple[int, str, str]], Dict[str, int]]] = []
    pending_labels: List[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        name = FNAME_RE.match(line) or NVDISASM_FNAME_RE.match(line)
        if name:
            functions.append((name.group(1), [], {}))
            pending_labels = []
            i += 1
            continue
        label = LABEL_RE.match(line)
        if label and functions:
            pending_labels.append(label.group(1))
            i += 1
            continue
        first = FLINE_RE.match(line)
        if first and functions and i + 1 < len(lines) and SLINE_RE.match(lines[i + 1]):
            address = int(first.group(1), 16)
            _, instructions, labels = functions[-1]
            for pending in pending_labels:
                labels[pending] = address
            pending_labels = []
            text = first.group(2)
            if text.endswith(" ;"):
                text = text[:-2].rstrip() + ";"
            instructions.append((address, parseCtrl(lines[i + 1]), text))
            i += 2
            continue
        i += 1
    return [(name, _render(instructions, labels)) for name, instructions, labels in functions]


def _render(instructions: List[Tuple[int, str, str]], labels: Dict[str, int]) -> str:
    """Instructions with branch targets named LBB<n> (numbered by address)."""
    addresses = {address for address, _, _ in instructions}
    targets = set()
    for _, _, text in instructions:
        match = TARGET_RE.match(text)
        if match:
            target = labels.get(match.group(3)) if match.group(3) else int(match.group(2), 16)
            if target in addresses:
                targets.add(target)
    names = {address: f"LBB{n}" for n, address in enumerate(sorted(targets))}
    out = []
    for address, ctrl, text in instructions:
        if address in names:
            out.append(f"{names[address]}:")
        match = TARGET_RE.match(text)
        if match:
            target = labels.get(match.group(3)) if match.group(3) else int(match.group(2), 16)
            if target in names:
                text = f"{match.group(1)}{names[target]}{match.group(4)}"
        out.append(f"{ctrl}\t{text}")
    return "\n".join(out) + ("\n" if out else "")
