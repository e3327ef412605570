"""Tuple arguments of kernels (`kernel[grid](x, (a_ptr, b_ptr), ...)`).

A tuple argument is specialized element by element: tensors and numbers
are runtime leaves, None, strings, dtypes, tl.constexpr values and the
integer 1 are compile-time leaves, and tuples nest.  Its signature entry is the leaves'
types in parentheses, "constexpr" for a compile-time leaf: `(*fp32,i32,
constexpr,(*i64))`.  Its constexpr entry is the tuple with every runtime
leaf replaced by RUNTIME, so the compile-time leaves reach the code
generator and the cache key, and no tensor does.  The kernel receives the
runtime leaves as separate parameters, depth first, and the code generator
rebuilds the tuple from them; launches flatten the values the same way.
Tensors inside tuples are not specialized on 16-byte alignment, and
launches with tuple arguments take the slow path (no warm-path entry).
"""
from __future__ import annotations

from typing import Any, List, Sequence, Tuple, Union

from ..compile_time import constexpr
from ..dtypes import dtype

Structure = Union[str, List["Structure"]]


class _RuntimeLeaf:
    """Stands for a runtime leaf in a tuple's constexpr view."""

    def __repr__(self):
        return "<runtime>"

    def __reduce__(self):
        return "RUNTIME"


RUNTIME = _RuntimeLeaf()


def is_tuple_argument(value) -> bool:
    return isinstance(value, (tuple, list)) and not hasattr(value, "data_ptr")


def is_tuple_signature(ty) -> bool:
    return isinstance(ty, str) and ty.startswith("(")


def is_namedtuple(value) -> bool:
    """A typing.NamedTuple or collections.namedtuple instance."""
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def like(template, elements) -> tuple:
    """`elements` as a tuple of `template`'s kind: a named tuple of the same
    class (so `t.field` keeps working in @jit code), or a plain tuple."""
    elements = list(elements)
    return type(template)(*elements) if is_namedtuple(template) else tuple(elements)


def specialize_tuple(value, specialize_leaf) -> Tuple[str, tuple]:
    """(signature, constexpr view) of a tuple argument; `specialize_leaf(v)`
    gives a runtime leaf's type."""
    types, view = [], []
    for v in value:
        if is_tuple_argument(v):
            ty, sub = specialize_tuple(v, specialize_leaf)
            types.append(ty)
            view.append(sub)
        elif v is None or isinstance(v, (str, constexpr, dtype)) or callable(v) and not hasattr(v, "data_ptr") \
                or (type(v) is int and v == 1):  # a 1 is specialized to a constant, as a plain argument is
            types.append("constexpr")
            view.append(v.value if isinstance(v, constexpr) else v)
        else:
            types.append(specialize_leaf(v))
            view.append(RUNTIME)
    return "(" + ",".join(types) + ")", like(value, view)


def parse(ty: str) -> Structure:
    """"(*fp32,(i32,constexpr))" -> ["*fp32", ["i32", "constexpr"]]."""
    def parse_at(i: int):
        assert ty[i] == "("
        items, i = [], i + 1
        while ty[i] != ")":
            if ty[i] == "(":
                item, i = parse_at(i)
            else:
                end = i
                while ty[end] not in ",)":
                    end += 1
                item, i = ty[i:end].strip(), end
            items.append(item)
            if ty[i] == ",":
                i += 1
        return items, i + 1
    structure, end = parse_at(0)
    if end != len(ty):
        raise ValueError(f"malformed tuple signature {ty!r}")
    return structure


def runtime_types(ty: str) -> List[str]:
    """The types of a tuple signature's runtime leaves, depth first."""
    out: List[str] = []

    def walk(node):
        if isinstance(node, list):
            for n in node:
                walk(n)
        elif node != "constexpr":
            out.append(node)
    walk(parse(ty))
    return out


def runtime_values(ty: str, value) -> List[Any]:
    """The runtime leaves of a tuple argument, depth first."""
    out: List[Any] = []

    def walk(node, v):
        if isinstance(node, list):
            if not is_tuple_argument(v) or len(v) != len(node):
                raise TypeError(f"expected a tuple of {len(node)} elements, got {v!r}")
            for n, x in zip(node, v):
                walk(n, x)
        elif node != "constexpr":
            out.append(v)
    walk(parse(ty), value)
    return out


def flatten_signature(signature: dict) -> List[Tuple[str, str]]:
    """(name, type) of every runtime parameter of a kernel, tuple leaves
    named `param.i.j`, in the order the kernel receives them."""
    out = []
    for name, ty in signature.items():
        if is_tuple_signature(ty):
            out += [(f"{name}.{i}", t) for i, t in enumerate(runtime_types(ty))]
        elif ty != "constexpr":
            out.append((name, ty))
    return out


def flatten_values(signature: dict, values: Sequence[Any]) -> List[Any]:
    """The runtime values of a launch, in the order of flatten_signature."""
    out = []
    for ty, value in zip(signature.values(), values):
        if is_tuple_signature(ty):
            out += runtime_values(ty, value)
        elif ty != "constexpr":
            out.append(value)
    return out


def structure_of(ty: str, view: tuple, leaf_type):
    """The code generator's view of a tuple parameter: nested tuples whose
    leaves are `leaf_type(type string)` (runtime) or the compile-time value
    wrapped in tl.constexpr."""
    def build(node, v):
        if isinstance(node, list):
            return like(v, (build(n, x) for n, x in zip(node, v)))
        return constexpr(v) if node == "constexpr" else leaf_type(node)
    return build(parse(ty), view)
