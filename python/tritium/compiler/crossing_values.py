"""Values that cross the boundaries of `scf.if`, `scf.for` and `scf.while`.

A tensor crosses as one SSA value.  A tensor descriptor made in the kernel
(`tl.make_tensor_descriptor`) is Python-side state, its parts: the base
pointer, then the shape and the strides, each a scalar tensor or a constant,
and, where the program encodes a tensor map for it (Hopper), the
`!tt.tensordesc` value of that map.
It crosses as the SSA values of the parts that a *plan* names, and is
rebuilt on the other side from those and its constant parts, so that a
descriptor remade in a branch or a loop body (a batched matmul's per-batch
descriptors, say) is the one the code after it uses, and a constant stride
of 1 stays a constant (the pointer path vectorizes along it).

A tuple crosses the same way, as the parts of its elements in order (a
tensor, a descriptor's parts, a nested tuple's parts; any other element is
a constant part), and is rebuilt with its structure: a tuple accumulator
carried by a loop, or rebound in the branches of a runtime `if`.

Plans: a loop carries the parts that are tensors before it (its constant
parts must come back from the body as the same constants); a branch merges
the parts that are tensors on either side or constants that differ.  A host
descriptor is a kernel argument: branches and loops only ever see that one,
and it never crosses."""
from typing import Any, List, Tuple

from ..dtypes import int32, int64
from ..language import core as tl
from ..language import semantic
from ..language.semantic import SemanticError

Plan = List[Tuple[int, Any]]  # (index of a part, the type it crosses as)


def is_made_in_kernel(value) -> bool:
    """A tensor descriptor made by tl.make_tensor_descriptor (a host one has
    kernel parameters for leaves)."""
    return isinstance(value, tl.tensor_descriptor) and value._leaves is None


def is_composite(value) -> bool:
    """A value that crosses as several parts: a descriptor made in the
    kernel, or a tuple (its elements' parts, in order; an element that is
    neither a tensor nor a descriptor nor a tuple is a constant part)."""
    return is_made_in_kernel(value) or isinstance(value, tuple)


def crosses(value) -> bool:
    """Whether `value` can cross a branch or loop boundary (a tuple when some
    element does)."""
    if isinstance(value, tuple):
        return any(crosses(v) for v in value)
    return isinstance(value, tl.tensor) or is_made_in_kernel(value)


def parts(value) -> list:
    if isinstance(value, tuple):
        return [p for v in value for p in (parts(v) if _has_parts(v) else [v])]
    if is_made_in_kernel(value):
        tensor_map = [tl.tensor(value.handle, value.type)] if value.handle is not None else []
        return [value.base] + list(value.shape) + list(value.strides) + tensor_map
    return [value]


def _has_parts(value) -> bool:
    return isinstance(value, (tuple, tl.tensor)) or is_made_in_kernel(value)


def _constant(part):
    return part.value if isinstance(part, tl.constexpr) else part


def _part_name(value, index: int) -> str:
    if isinstance(value, tuple):
        for i, v in enumerate(value):
            n = len(parts(v)) if _has_parts(v) else 1
            if index < n:
                inner = _part_name(v, index) if is_composite(v) else ""
                return f"element [{i}]" + (f", {inner}" if inner else "")
            index -= n
        return "value"
    if not is_made_in_kernel(value):
        return "value"
    rank = value.type.rank
    if index == 0:
        return "base"
    if index > 2 * rank:
        return "tensor map"
    return f"shape[{index - 1}]" if index <= rank else f"strides[{index - 1 - rank}]"


def _check_kind(a, b, what: str):
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)):
            describe = lambda v: (f"a tuple of {len(v)}" if isinstance(v, tuple)  # noqa: E731
                                  else str(getattr(v, "type", type(v).__name__)))
            raise SemanticError(f"{what} is {describe(a)} on one side but {describe(b)} on the other: "
                                "give it one structure on both")
        for i, (x, y) in enumerate(zip(a, b)):
            if _has_parts(x) and _has_parts(y):
                _check_kind(x, y, f"{what}[{i}]")
            elif _has_parts(x) != _has_parts(y) and (is_composite(x) or is_composite(y)):
                raise SemanticError(f"{what}[{i}] is a constant on one side but a tuple or descriptor on the "
                                    "other: give it one structure on both")
        return
    if is_made_in_kernel(a) != is_made_in_kernel(b) or \
            (is_made_in_kernel(a) and a.type.block_type != b.type.block_type):
        describe = lambda v: (f"a tensor descriptor of {v.type.block_type}" if is_made_in_kernel(v)  # noqa: E731
                              else str(getattr(v, "type", type(v).__name__)))
        raise SemanticError(f"{what} is {describe(a)} on one side but {describe(b)} on the other: "
                            "give it one kind and type on both")


def loop_plan(init) -> Plan:
    """What a loop carries of `init`: its tensor parts."""
    return [(i, p.type) for i, p in enumerate(parts(init)) if isinstance(p, tl.tensor)]


def branch_plan(a, b, what: str) -> Plan:
    """What a branch merges of `a` (then) and `b` (else): the parts that are
    tensors on either side or constants that differ, as the tensor side's
    type (the wider integer when both are tensors of different widths)."""
    _check_kind(a, b, what)
    if not is_composite(a):
        return [(0, a.type)]
    plan = []
    for i, (pa, pb) in enumerate(zip(parts(a), parts(b))):
        ta, tb = isinstance(pa, tl.tensor), isinstance(pb, tl.tensor)
        if not ta and not tb:
            if _constant(pa) == _constant(pb):
                continue
            if not all(isinstance(_constant(p), int) and not isinstance(_constant(p), bool) for p in (pa, pb)):
                raise SemanticError(f"{what}: its {_part_name(a, i)} is the constant {_constant(pa)} on one side "
                                    f"but {_constant(pb)} on the other; only integers can differ")
            fits = all(-2**31 <= _constant(p) < 2**31 for p in (pa, pb))
            plan.append((i, int32 if fits else int64))
            continue
        types = [p.type for p in (pa, pb) if isinstance(p, tl.tensor)]
        wide = [t for t in types if isinstance(t, tl.dtype) and t.is_int() and not t.is_block()
                and t.int_bitwidth == 64]
        plan.append((i, wide[0] if wide else types[0]))
    return plan


def leaves(value, plan: Plan, what: str, template=None) -> List[tl.tensor]:
    """The parts of `value` that `plan` names, as tensors of the plan's
    types (integer scalars are cast).  With a `template` (the value before a
    loop), the parts the plan leaves out must be the template's constants."""
    if template is not None:
        _check_kind(template, value, what)
    ps = parts(value)
    if template is not None and is_composite(value):
        planned = {i for i, _ in plan}
        for i, (want, got) in enumerate(zip(parts(template), ps)):
            if i not in planned and (isinstance(got, tl.tensor) or _constant(got) != _constant(want)):
                raise SemanticError(f"{what}: its {_part_name(value, i)} is the constant {_constant(want)} before "
                                    f"the loop but {_constant(got) if not isinstance(got, tl.tensor) else 'a runtime value'} "
                                    "at the end of the body; give it the same value in both places")
    out = []
    for i, ty in plan:
        part = ps[i]
        tensor = part if isinstance(part, tl.tensor) else semantic.to_tensor(_constant(part), ty)
        if tensor.type != ty:
            if tensor.type.is_block() or ty.is_block() or not (tensor.type.is_int() and ty.is_int()):
                raise SemanticError(f"{what}: its {_part_name(value, i)} is {ty} on one side but {tensor.type} "
                                    "on the other")
            tensor = semantic.cast(tensor, ty)
        out.append(tensor)
    return out


def rebuild(template, plan: Plan, values: List[tl.tensor]):
    """`template` with the parts `plan` names replaced by `values` (their SSA
    values on the other side of the boundary)."""
    if not is_composite(template):
        return values[0]
    ps = parts(template)
    for (i, _), value in zip(plan, values):
        ps[i] = value
    return _assemble(template, iter(ps))


def _assemble(template, ps):
    """`template`'s structure over the parts `ps` yields, in order."""
    if isinstance(template, tuple):
        return tuple(_assemble(v, ps) if _has_parts(v) else next(ps) for v in template)
    if not is_made_in_kernel(template):
        return next(ps)
    rank = template.type.rank
    ps = [next(ps) for _ in range(len(parts(template)))]
    handle = ps[1 + 2 * rank].handle if template.handle is not None else None
    return tl.tensor_descriptor(handle, ps[0], ps[1:1 + rank], ps[1 + rank:1 + 2 * rank], template.type)
