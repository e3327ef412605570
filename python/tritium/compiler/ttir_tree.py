"""Triton IR as a tree of operations, blocks, regions and values, read
from the generic-form text the code generator writes (tritium/ir.py), with
the method names of Triton's MLIR bindings (`op.get_name()`,
`op.get_operand(i).id()`, `block.get_parent()`, `module.walk(fn)`, ...).

`ASTSource.make_ir` returns one of these: PyTorch's Inductor walks it to
find which arguments a user-defined Triton kernel writes (its
`ttir_to_functions`), and without it would assume every tensor argument is
written.  The tree is read-only and holds no MLIR objects; the native
library never sees it.

The text has one op per line, except that an op with regions opens them at
the end of its line with `({`, separates them with a line `}, {`, and ends
on a line starting with `})`; a block with arguments starts with
`^bb0(...):`.  Value names are local to each function (`%a1` is the first
argument of every function), so ids are numbered per function.
"""
from __future__ import annotations

import itertools
import re
from typing import Callable, Dict, List, Optional

_RESULTS = re.compile(r'^(%[\w]+)(?::(\d+))? = "')
_OP_NAME = re.compile(r'"([\w.]+)"\(([^)]*)\)')
_ARG = re.compile(r'(%[\w]+): ')
_FUNC = re.compile(r'^tt\.func (\w+) @([\w$.]+)\(')
_ids = itertools.count(1)


class Value:
    """An SSA value: `id()` is unique in the module."""

    __slots__ = ("_id", "name")

    def __init__(self, name: str):
        self._id = next(_ids)
        self.name = name

    def id(self) -> int:
        return self._id

    def __repr__(self):
        return f"Value({self.name})"


class Region:
    __slots__ = ("_id", "blocks", "parent")

    def __init__(self, parent: "Operation"):
        self._id = next(_ids)
        self.blocks: List[Block] = []
        self.parent = parent

    def id(self) -> int:
        return self._id

    def get_parent(self) -> "Operation":
        return self.parent


class Block:
    __slots__ = ("_id", "arguments", "operations", "region")

    def __init__(self, region: Optional[Region], arguments: List[Value]):
        self._id = next(_ids)
        self.arguments = arguments
        self.operations: List[Operation] = []
        self.region = region

    def id(self) -> int:
        return self._id

    def get_num_arguments(self) -> int:
        return len(self.arguments)

    def get_argument(self, i: int) -> Value:
        return self.arguments[i]

    def get_parent(self) -> Optional[Region]:
        return self.region


class Operation:
    """One op: its name, operands, results, regions, the block holding it
    and the text of its line (attributes are read from it on request)."""

    def __init__(self, name: str, operands: List[Value], results: List[Value], block: Optional[Block], text: str):
        self.name, self.operands, self.results = name, operands, results
        self.regions: List[Region] = []
        self.block = block
        self.text = text
        self.symbol: Optional[str] = None  # a function's sym_name

    def get_name(self) -> str:
        return self.name

    def get_num_operands(self) -> int:
        return len(self.operands)

    def get_operand(self, i: int) -> Value:
        return self.operands[i]

    def get_num_results(self) -> int:
        return len(self.results)

    def get_result(self, i: int) -> Value:
        return self.results[i]

    def get_num_regions(self) -> int:
        return len(self.regions)

    def get_region(self, i: int) -> Region:
        return self.regions[i]

    def get_block(self) -> Optional[Block]:
        return self.block

    def _attr(self, name: str) -> Optional[str]:
        m = re.search(r"[{,<] ?" + re.escape(name) + r" = ([^,}>]+)", self.text)
        return m.group(1).strip() if m else None

    def get_str_attr(self, name: str) -> Optional[str]:
        if name == "sym_name" and self.symbol is not None:
            return self.symbol
        value = self._attr(name)
        return value[1:-1] if value and value.startswith('"') else value

    def get_flat_symbol_ref_attr(self, name: str) -> Optional[str]:
        value = self._attr(name)
        return value[1:] if value and value.startswith("@") else None

    def get_bool_attr(self, name: str) -> Optional[bool]:
        value = self._attr(name)
        return None if value is None else value == "true"

    def get_int_attr(self, name: str) -> Optional[int]:
        value = self._attr(name)
        return int(value.split(":")[0]) if value is not None else None

    def walk(self, fn: Callable[["Operation"], None]) -> None:
        """Calls `fn` on every op inside this one, then on this one
        (post-order, as MLIR's default walk)."""
        for region in self.regions:
            for block in region.blocks:
                for op in list(block.operations):
                    op.walk(fn)
        fn(self)

    def __str__(self):
        return self.text


class Module(Operation):
    """A `builtin.module` of tt.func ops, the kernel's first."""

    def __init__(self, text: str):
        super().__init__("builtin.module", [], [], None, text)
        region = Region(self)
        self.regions.append(region)
        self.body = Block(region, [])
        region.blocks.append(self.body)

    def verify(self) -> bool:
        return True

    def __str__(self):
        return self.text


def parse(text: str, kernel_name: str) -> Module:
    """The module of the code generator's TTIR `text`, its functions
    reordered so that `kernel_name`'s comes first (as in Triton's, whose
    callees follow the kernel)."""
    module = Module(text)
    scope: Dict[str, Value] = {}
    # the open ops with regions, innermost last: (op, current block)
    stack: List[List] = []
    functions: List[Operation] = []

    def value(name: str) -> Value:
        if name not in scope:
            scope[name] = Value(name)
        return scope[name]

    def current_block() -> Block:
        return stack[-1][1] if stack else module.body

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line == "module {" or (line.startswith("} loc(") and not stack):
            continue
        func = _FUNC.match(line)
        if func:
            scope = {}
            header = line.split(") ->")[0] if ") ->" in line else line
            op = Operation("tt.func", [], [], module.body, line)
            op.symbol = func.group(2)
            region = Region(op)
            op.regions.append(region)
            block = Block(region, [value(n) for n in _ARG.findall(header)])
            region.blocks.append(block)
            functions.append(op)
            stack.append([op, block])
            continue
        if line.startswith("} loc(") and stack and stack[-1][0].name == "tt.func":
            stack.pop()
            continue
        if line.startswith("^bb"):
            block = stack[-1][1]
            block.arguments = [value(n) for n in _ARG.findall(line)]
            continue
        if line == "}, {":
            op = stack[-1][0]
            region = Region(op)
            op.regions.append(region)
            block = Block(region, [])
            region.blocks.append(block)
            stack[-1][1] = block
            continue
        if line.startswith("})"):
            op = stack.pop()[0]
            op.text += "\n" + line
            continue
        m = _OP_NAME.search(line)
        if m is None:
            raise ValueError(f"unexpected TTIR line: {line[:200]}")
        results: List[Value] = []
        head = _RESULTS.match(line)
        if head:
            count = head.group(2)
            results = [value(head.group(1))] if count is None else \
                [value(f"{head.group(1)}#{i}") for i in range(int(count))]
        operands = [value(n.strip()) for n in m.group(2).split(",") if n.strip()]
        op = Operation(m.group(1), operands, results, current_block(), line)
        current_block().operations.append(op)
        if line.endswith("({"):
            region = Region(op)
            op.regions.append(region)
            block = Block(region, [])
            region.blocks.append(block)
            stack.append([op, block])
    functions.sort(key=lambda f: f.symbol != kernel_name)
    module.body.operations = functions
    return module
