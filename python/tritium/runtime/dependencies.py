"""What a @jit function depends on: the @jit functions it calls and the
global (or closure) values it reads.

`scan(fn)` walks the function's body once, in source order, tracking the
names the body binds (parameters, assignment and loop targets), so that a
local that shadows a global is not taken for it.  Each free name read
resolves as the code generator resolves it (closure cell, then global):
- a @jit function (also through a module or object attribute, e.g.
  `helpers.load_tile`) is a callee: its cache key enters the caller's;
- a module, a @jit or constexpr function, a Tritium builtin or a Python
  builtin is left alone (rebinding those is not a use case);
- anything else (constexprs, dtypes, plain numbers the code generator will
  refuse) is a read: the kernel compiled from it is stale once it changes.

JITFunction.cache_key hashes the source, the first line and the callees'
keys, and keeps the reads of the function and its callees as they were at
that moment; a callee whose first hash saw another value of the same
global raises (Triton's rule: one kernel cannot see two values of it).
"""
from __future__ import annotations

import ast
import copy
import types
from typing import Any, List, Optional, Tuple

from ..compile_time import PYTHON_BUILTINS, ConstexprFunction, constexpr

_ABSENT = object()


class Read:
    """A free name `name` of @jit function `fn`, and the value it had when
    `fn` was hashed.  `scope` is the object it was found in (the closure
    cell's function or the globals dict), so that two functions reading the
    same global of one module agree on what they read."""

    __slots__ = ("fn", "name", "value", "scope")

    def __init__(self, fn, name: str, value: Any, scope: Any):
        self.fn, self.name, self.value, self.scope = fn, name, value, scope

    @property
    def key(self) -> Tuple[str, int]:
        return self.name, id(self.scope)

    def current(self) -> Any:
        """The value the name has now (_ABSENT if deleted)."""
        return self.fn.lookup_free_name(self.name, _ABSENT)


def same_value(old: Any, new: Any) -> bool:
    """Whether a global still holds what a kernel was compiled with: the
    same object, or an equal value of the same type (a constexpr assigned
    again with the same value is no change)."""
    if new is old:
        return True
    try:
        return type(new) is type(old) and bool(getattr(new, "value", new) == getattr(old, "value", old))
    except Exception:  # noqa: BLE001 - values that do not compare are taken as changed
        return False


def shown(value: Any) -> str:
    """A read value as error messages show it (a constexpr as
    `constexpr[42]`, as Triton shows it)."""
    if value is _ABSENT:
        return "(deleted)"
    return repr(value)


def _kept(value: Any) -> Any:
    """What a read remembers of a value: the object itself (so that the
    launch-time check is one identity test while nothing changed), or a
    shallow copy of a mutable container, whose change in place must show
    (Triton copies every value; an object without value equality would
    then never compare equal to its copy).  A constexpr is copied too: code
    may assign its `.value` in place."""
    if isinstance(value, (list, dict, set, bytearray, constexpr)):
        return copy.copy(value)
    return value


# Modules whose functions a constexpr function may call (Triton's
# supported_modules, with Tritium's names for its own).
_SUPPORTED_MODULES = ("math", "copy", "triton", "tritium")


def _plain_callable(value: Any) -> bool:
    """A function the cache key cannot follow: callable, and not a type, a
    constexpr, a @jit or constexpr function or a builtin of the language."""
    return (callable(value) and not isinstance(value, (type, constexpr, ConstexprFunction))
            and not getattr(value, "__triton_builtin__", False) and not hasattr(value, "cache_key"))


class _Scan(ast.NodeVisitor):
    """One pass over a function body: its reads and callees, in order.
    With `strict`, a plain Python function the body refers to raises
    RuntimeError (Triton's rule for constexpr functions)."""

    def __init__(self, fn, jit_type: type, strict: bool = False):
        self.fn = fn
        self.jit_type = jit_type
        self.strict = strict
        self.bound: set = set()
        self.reads: List[Read] = []
        self.callees: list = []

    # -- names --
    def _free(self, name: str):
        """(value, scope) of a free name as the code generator finds it:
        the closure's cell (scope: the function), else the global (scope:
        the globals dict); the value is _ABSENT if neither holds it."""
        code, closure = self.fn.fn.__code__, self.fn.fn.__closure__
        if closure and name in code.co_freevars:
            try:
                return closure[code.co_freevars.index(name)].cell_contents, self.fn
            except ValueError:  # a cell not yet assigned
                pass
        return self.fn.__globals__.get(name, _ABSENT), self.fn.__globals__

    def _callee(self, value):
        if isinstance(value, (self.jit_type, ConstexprFunction)) and value is not self.fn:
            value = getattr(value, "_unbound", None) or value  # a method's key is its function's
            if value not in self.callees:
                self.callees.append(value)

    def _refuse_plain_callable(self, value: Any):
        if self.strict and _plain_callable(value):
            raise RuntimeError(f"Unsupported function referenced: {value} (in constexpr function "
                               f"{self.fn.__qualname__}: only @jit and constexpr functions, the language's "
                               f"functions and those of math and copy can be followed by the cache key)")

    def _is_ignored(self, value: Any) -> bool:
        return (isinstance(value, (types.ModuleType, self.jit_type, ConstexprFunction))
                or getattr(value, "__triton_builtin__", False))

    def visit_Name(self, node: ast.Name):
        if not isinstance(node.ctx, ast.Load) or node.id in self.bound:
            return
        value, scope = self._free(node.id)
        if value is _ABSENT or value is None:
            return
        self._callee(value)
        if self._is_ignored(value) or node.id in PYTHON_BUILTINS:
            return
        self._refuse_plain_callable(value)
        if any(r.key == (node.id, id(scope)) for r in self.reads):
            return
        self.reads.append(Read(self.fn, node.id, _kept(value), scope))

    def visit_Attribute(self, node: ast.Attribute):
        """`mod.helper` where helper is a @jit function is a callee."""
        self.generic_visit(node)
        chain, base = [], node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or base.id in self.bound or not isinstance(node.ctx, ast.Load):
            return
        value, _ = self._free(base.id)
        for attr in reversed(chain):
            if value is _ABSENT:
                return
            if isinstance(value, types.ModuleType) and value.__name__.partition(".")[0] in _SUPPORTED_MODULES:
                return  # (its functions are the language's, or plain math)
            try:
                value = getattr(value, attr, _ABSENT)
            except Exception:  # noqa: BLE001 - a property that raises: not a callee
                return
        self._callee(value)
        self._refuse_plain_callable(value)

    # -- bindings: the value is read before the target is bound --
    def _bind(self, target: ast.AST):
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                self.bound.add(sub.id)
            elif isinstance(sub, (ast.Subscript, ast.Attribute)):
                self.visit(sub.value)  # `x[i] = ...` reads x and i
                if isinstance(sub, ast.Subscript):
                    self.visit(sub.slice)

    def visit_FunctionDef(self, node: ast.FunctionDef):
        # Parameters are bound; their defaults and annotations are evaluated
        # once, when the function is defined, and are not reads.
        args = node.args
        for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if arg is not None:
                self.bound.add(arg.arg)
        for stmt in node.body:
            self.visit(stmt)

    def visit_Lambda(self, node: ast.Lambda):
        for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
            self.bound.add(arg.arg)
        self.visit(node.body)

    def visit_Assign(self, node: ast.Assign):
        self.visit(node.value)
        for target in node.targets:
            self._bind(target)

    def visit_AnnAssign(self, node: ast.AnnAssign):
        if node.value is not None:
            self.visit(node.value)
        self._bind(node.target)

    def visit_AugAssign(self, node: ast.AugAssign):
        self.visit(node.value)
        if isinstance(node.target, ast.Name):
            self.visit_Name(ast.Name(id=node.target.id, ctx=ast.Load()))
        self._bind(node.target)

    def visit_NamedExpr(self, node: ast.NamedExpr):
        self.visit(node.value)
        self._bind(node.target)

    def visit_For(self, node: ast.For):
        self.visit(node.iter)
        self._bind(node.target)
        for stmt in node.body + node.orelse:
            self.visit(stmt)

    def visit_With(self, node: ast.With):
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self._bind(item.optional_vars)
        for stmt in node.body:
            self.visit(stmt)

    def _comprehension(self, node, elements):
        for gen in node.generators:
            self.visit(gen.iter)
            self._bind(gen.target)
            for cond in gen.ifs:
                self.visit(cond)
        for element in elements:
            self.visit(element)

    def visit_ListComp(self, node):
        self._comprehension(node, [node.elt])

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node):
        self._comprehension(node, [node.key, node.value])


def scan(fn, jit_type: Optional[type] = None, strict: bool = False) -> Tuple[List[Read], list]:
    """(reads, callees) of @jit or constexpr function `fn`'s own body.
    Instances of `jit_type` and constexpr functions are callees: the class
    of @jit functions, which JITFunction.cache_key passes (runtime/jit.py
    builds on this module); fn's own class if not given.  `strict`: see
    _Scan."""
    visitor = _Scan(fn, jit_type or type(fn), strict)
    visitor.visit(fn.parse().body[0])
    return visitor.reads, visitor.callees


def merge_reads(caller, reads: List[Read], callee) -> None:
    """Adds `callee`'s reads (as of its own first hash) to `reads`; a
    global both saw with different values raises RuntimeError."""
    mine = {r.key: r for r in reads}
    for read in callee.used_reads:
        seen = mine.get(read.key)
        if seen is None:
            reads.append(read)
            mine[read.key] = read
        elif not same_value(seen.value, read.value):
            raise RuntimeError(
                f"Global variable {read.name} has value {shown(seen.value)} when compiling {caller.__name__}, "
                f"but inner function {callee.__name__} has conflicting value {shown(read.value)} from when it "
                f"was first compiled: one kernel cannot see two values of a global")
