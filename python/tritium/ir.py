"""A builder that writes Triton IR as MLIR text.

The code generator walks the kernel's Python AST and, through the language's
semantic functions, calls this builder; the builder numbers SSA values,
tracks their MLIR types, nests regions, and writes every op in MLIR's
generic form with the Python source location of the statement that
produced it:

    %7 = "arith.addi"(%5, %6) : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32> loc("k.py":12:8)

The native library parses that text, verifies it and runs the TTIR pipeline;
its printed result is the `.ttir` artifact.  Keeping this layer textual keeps
the C ABI small (text in, text out) and costs microseconds per op.  It
imports no other part of Tritium.
"""
from __future__ import annotations

import contextlib
import math
import struct
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple


@dataclass(frozen=True)
class Value:
    """An SSA value: its name in the text (``%12``, ``%5#1``) and MLIR type."""

    name: str
    type: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Location:
    file: str
    line: int
    col: int

    def text(self) -> str:
        escaped = _ESCAPED_FILES.get(self.file)
        if escaped is None:
            escaped = _ESCAPED_FILES[self.file] = escape_string(self.file)
        return f'loc("{escaped}":{self.line}:{self.col})'

    def named(self, name: str) -> str:
        """This location under a name (an MLIR NameLoc): a function
        argument's, so that printed IR calls it %name, as Triton's does."""
        return f'loc("{escape_string(name)}"{self.text()[3:]})'


_ESCAPED_FILES: Dict[str, str] = {}


UNKNOWN_LOCATION = Location("<unknown>", 0, 0)


def escape_string(s: str) -> str:
    """A Python string as the body of an MLIR string literal."""
    out = []
    for ch in s:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif 0x20 <= code < 0x7F:
            out.append(ch)
        else:
            for byte in ch.encode("utf-8"):
                out.append(f"\\{byte:02X}")
    return "".join(out)


# ---- attributes -------------------------------------------------------------

def i32_attr(value: int) -> str:
    return f"{int(value)} : i32"


def i64_attr(value: int) -> str:
    return f"{int(value)} : i64"


def bool_attr(value: bool) -> str:
    return "true" if value else "false"


def str_attr(value: str) -> str:
    return f'"{escape_string(value)}"'


def i32_array_attr(values: Iterable[int]) -> str:
    values = list(values)
    if not values:
        return "array<i32>"
    return "array<i32: " + ", ".join(str(int(v)) for v in values) + ">"


_FLOAT_FORMATS = {"f16": ("e", "<H"), "f32": ("f", "<I"), "f64": ("d", "<Q")}


def _pack(fmt: str, value: float) -> bytes:
    """struct.pack of one float, rounded to nearest: a value that rounds past
    the format's largest finite number becomes an infinity of its sign (where
    struct raises OverflowError), as a float32 cast of `1e50` does."""
    try:
        return struct.pack(fmt, value)
    except OverflowError:
        return struct.pack(fmt, math.copysign(float("inf"), value))


def float_literal(value: float, mlir_type: str) -> str:
    """An exact MLIR literal for `value` rounded to `mlir_type`, as a hex bit
    pattern (MLIR accepts `0x3F800000 : f32`), so no value is ever re-rounded
    by a decimal round trip."""
    if mlir_type in _FLOAT_FORMATS:
        pack, unpack = _FLOAT_FORMATS[mlir_type]
        bits = struct.unpack(unpack, _pack("<" + pack, value))[0]
        width = {"f16": 4, "f32": 8, "f64": 16}[mlir_type]
        return f"0x{bits:0{width}X}"
    if mlir_type == "bf16":
        # Round to nearest even from the fp32 bit pattern.
        bits = struct.unpack("<I", _pack("<f", value))[0]
        if (bits & 0x7F800000) == 0x7F800000 and (bits & 0x7FFFFF):
            return "0x7FC0"
        bits += 0x7FFF + ((bits >> 16) & 1)
        return f"0x{(bits >> 16) & 0xFFFF:04X}"
    # fp8 formats: MLIR rounds a decimal literal correctly for these.
    return repr(float(value)) if value == value and abs(value) != float("inf") else (
        "0x7F" if value != value else ("0x7C" if value > 0 else "0xFC"))


# ---- the builder -------------------------------------------------------------

class Operation:
    """One op written to a block; rendered when its block is closed, so that
    attributes (e.g. the hints of tl.multiple_of) can still be added."""

    __slots__ = ("head", "name", "operands", "result_types", "properties", "attributes",
                 "regions", "loc")

    def __init__(self, head, name, operands, result_types, properties, attributes, regions, loc):
        self.head = head
        self.name = name
        self.operands = operands
        self.result_types = result_types
        self.properties = properties
        self.attributes = attributes
        self.regions = regions
        self.loc = loc

    def render(self) -> str:
        text = [self.head, '"', self.name, '"(', ", ".join(v.name for v in self.operands), ")"]
        if self.properties:
            text.append(" <{" + ", ".join(f"{k} = {v}" for k, v in self.properties.items()) + "}>")
        if self.regions:
            text.append(" (" + ", ".join(self.regions) + ")")
        if self.attributes:
            text.append(" {" + ", ".join(f"{k} = {v}" for k, v in self.attributes.items()) + "}")
        text.append(" : (" + ", ".join(v.type for v in self.operands) + ") -> ")
        if len(self.result_types) == 1:
            text.append(self.result_types[0])
        else:
            text.append("(" + ", ".join(self.result_types) + ")")
        text.append(" " + self.loc.text())
        return "".join(text)


class Block:
    """The ops of one block being written, with its argument list."""

    def __init__(self, args: Sequence[Value] = (), loc: Optional["Location"] = None):
        self.args = list(args)
        self.ops: List[Operation] = []
        # where the block's arguments come from (the op that opened it)
        self.loc = loc

    def render_args(self) -> str:
        loc = f" {self.loc.text()}" if self.loc is not None else ""
        return ", ".join(f"{a.name}: {a.type}{loc}" for a in self.args)

    def render_lines(self) -> List[str]:
        return [op.render() for op in self.ops]


class Builder:
    """Writes ops into the innermost open block; `open_block()` /
    `close_block()` bracket nested regions."""

    def __init__(self):
        self._counter = 0
        self._blocks: List[Block] = []
        self._constant_caches: List[Dict[Tuple[str, str], Value]] = []
        self._definitions: Dict[str, Operation] = {}
        self.loc: Location = UNKNOWN_LOCATION
        # the compile's num_warps, for builtins that are compile-time values
        # of it (tl.extra.cuda.num_threads())
        self.num_warps = 4
        self.arch = 90  # the target's compute capability
        # whether tl.make_tensor_descriptor may encode a tensor map (not in
        # noinline functions: the kernel's global scratch is not theirs)
        self.device_tensor_maps = True

    # -- names and blocks --
    def fresh(self, prefix: str = "") -> str:
        self._counter += 1
        return f"%{prefix}{self._counter}"

    def new_block_args(self, types: Sequence[str]) -> List[Value]:
        return [Value(self.fresh("a"), t) for t in types]

    def open_block(self, args: Sequence[Value] = ()) -> Block:
        """Starts a block; constants of enclosing blocks stay usable in it,
        its own constants are forgotten when it closes."""
        block = Block(args, self.loc)
        self._blocks.append(block)
        parent = self._constant_caches[-1] if self._constant_caches else {}
        self._constant_caches.append(dict(parent))
        return block

    def close_block(self) -> Block:
        self._constant_caches.pop()
        return self._blocks.pop()

    @contextlib.contextmanager
    def appending_to(self, block: Block):
        """Writes further ops at the end of an already closed block (e.g. the
        yields of an `scf.if` branch, known only once both branches exist)."""
        self._blocks.append(block)
        self._constant_caches.append({})
        try:
            yield block
        finally:
            self._constant_caches.pop()
            self._blocks.pop()

    @property
    def depth(self) -> int:
        return len(self._blocks)

    # -- ops --
    def create(self, name: str, operands: Sequence[Value] = (), result_types: Sequence[str] = (),
               properties: Optional[Dict[str, str]] = None, attributes: Optional[Dict[str, str]] = None,
               regions: Sequence[str] = ()) -> List[Value]:
        """Writes one op in generic form and returns its results."""
        results: List[Value] = []
        head = ""
        if len(result_types) == 1:
            results = [Value(self.fresh(), result_types[0])]
            head = f"{results[0].name} = "
        elif len(result_types) > 1:
            base = self.fresh()
            results = [Value(f"{base}#{i}", t) for i, t in enumerate(result_types)]
            head = f"{base}:{len(result_types)} = "
        op = Operation(head, name, list(operands), list(result_types), properties,
                       dict(attributes) if attributes else None, list(regions), self.loc)
        self._blocks[-1].ops.append(op)
        for r in results:
            self._definitions[r.name] = op
        return results

    def create1(self, name: str, operands: Sequence[Value], result_type: str,
                properties: Optional[Dict[str, str]] = None, **kwargs) -> Value:
        return self.create(name, operands, [result_type], properties, **kwargs)[0]

    def defining_op(self, value: Value) -> Optional[Operation]:
        """The op that produced `value`; None for block arguments."""
        return self._definitions.get(value.name)

    def constant(self, literal: str, mlir_type: str) -> Value:
        """`arith.constant` of an attribute literal, shared within a block."""
        key = (literal, mlir_type)
        cache = self._constant_caches[-1]
        cached = cache.get(key)
        if cached is not None:
            return cached
        value = self.create1("arith.constant", [], mlir_type, {"value": literal})
        cache[key] = value
        return value

    @staticmethod
    def render_region(block: Block) -> str:
        """A closed block as the text of a one-block region."""
        lines = ["{"]
        if block.args:
            lines.append("^bb0(" + block.render_args() + "):")
        lines.extend(block.render_lines())
        lines.append("}")
        return "\n".join(lines)


class Module:
    """The functions of one compilation unit, rendered as a module."""

    def __init__(self):
        self.functions: List[str] = []
        self.loc: Location = UNKNOWN_LOCATION  # the first (kernel) function's

    def add_function(self, name: str, visibility: str, args: Sequence[Value],
                     arg_attrs: Sequence[Dict[str, str]], result_types: Sequence[str],
                     body: Block, loc: Location, attributes: Optional[Dict[str, str]] = None,
                     arg_names: Optional[Sequence[str]] = None) -> None:
        params = []
        for i, (value, attrs) in enumerate(zip(args, arg_attrs)):
            p = f"{value.name}: {value.type}"
            if attrs:
                p += " {" + ", ".join(f"{k} = {v}" for k, v in attrs.items()) + "}"
            params.append(p + " " + (loc.named(arg_names[i]) if arg_names else loc.text()))
        header = f"tt.func {visibility} @{name}(" + ", ".join(params) + ")"
        if result_types:
            header += " -> (" + ", ".join(result_types) + ")"
        if attributes:
            header += " attributes {" + ", ".join(f"{k} = {v}" for k, v in attributes.items()) + "}"
        lines = [header + " {"]
        lines.extend("  " + line for line in body.render_lines())
        lines.append("} " + loc.text())
        if not self.functions:
            self.loc = loc
        self.functions.append("\n".join(lines))

    def text(self) -> str:
        return "module {\n" + "\n".join(self.functions) + "\n} " + self.loc.text() + "\n"
