"""What a kernel knows when it is compiled: `constexpr` values and their
type, the `const` annotation, constexpr functions (plain Python that runs
while the kernel compiles), and the Python builtins @jit code may call on
such values.  Values that exist only on the GPU (tensors) derive from
`base_value`.

triton.language re-exports these (`tl.constexpr`, `tl.const`); the runtime
reads them to specialize arguments and the compiler to fold compile-time
code.  This module imports nothing of Tritium but its types (dtypes).
"""
from __future__ import annotations

import ast
import functools
import inspect
import operator
import textwrap
from typing import Any, Callable, List, Optional

from .dtypes import dtype
from .source_parse import parse_source

# The Python builtins a kernel may call on compile-time values (the code
# generator evaluates such calls in Python; a @jit function's dependency
# scan does not take them for globals it reads).
PYTHON_BUILTINS = frozenset({
    "range", "len", "min", "max", "int", "float", "bool", "str", "abs", "isinstance", "getattr", "hasattr",
    "zip", "enumerate", "tuple", "print", "round", "all", "any", "type", "divmod", "repr", "sum", "reversed",
    "list"})


class base_value:
    """A value that exists while the kernel runs (a tensor), not while it
    compiles: constexpr arithmetic leaves it to the value's own operators."""


class constexpr:
    """A value known when the kernel is compiled (a `tl.constexpr` parameter,
    a global, a literal).  Arithmetic on constexprs happens in Python."""

    def __init__(self, value):
        while isinstance(value, constexpr):
            value = value.value
        self.value = value

    def __repr__(self):
        return f"constexpr[{self.value!r}]"

    def __index__(self):
        return self.value.__index__()

    def __bool__(self):
        return bool(self.value)

    def __hash__(self):
        return hash(self.value)

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)

    # (Triton's constexpr has these too: plain Python functions called from
    # @jit code receive constexprs as they are)
    def __iter__(self):
        return iter(self.value)

    def __getitem__(self, index):
        return self.value[_value(index)]

    def logical_and(self, other):
        return constexpr(self.value and _value(other))

    def logical_or(self, other):
        return constexpr(self.value or _value(other))

    def __not__(self):
        return constexpr(not self.value)

    @property
    def type(self):
        return constexpr_type(self.value)

    def __getattr__(self, name):
        if name == "value":
            raise AttributeError(name)
        return getattr(self.value, name)


def _value(x):
    return x.value if isinstance(x, constexpr) else x


def _constexpr_binop(op):
    def method(self, other):
        if isinstance(other, base_value):
            return NotImplemented
        return constexpr(op(self.value, _value(other)))

    def rmethod(self, other):
        if isinstance(other, base_value):
            return NotImplemented
        return constexpr(op(_value(other), self.value))
    return method, rmethod


for _name, _fn in [("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("truediv", operator.truediv), ("floordiv", operator.floordiv), ("mod", operator.mod),
                   ("pow", operator.pow), ("and", operator.and_), ("or", operator.or_), ("xor", operator.xor),
                   ("lshift", operator.lshift), ("rshift", operator.rshift)]:
    _m, _r = _constexpr_binop(_fn)
    setattr(constexpr, f"__{_name}__", _m)
    setattr(constexpr, f"__r{_name}__", _r)
for _name, _fn in [("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt), ("le", operator.le),
                   ("gt", operator.gt), ("ge", operator.ge)]:
    setattr(constexpr, f"__{_name}__", _constexpr_binop(_fn)[0])
constexpr.__neg__ = lambda self: constexpr(-self.value)
constexpr.__pos__ = lambda self: constexpr(+self.value)
constexpr.__invert__ = lambda self: constexpr(~self.value)
constexpr.__abs__ = lambda self: constexpr(abs(self.value))


class constexpr_type(dtype):
    """The type of a compile-time value (Triton's `constexpr_type(value)`)."""

    def __init__(self, value):
        self.value = _value(value)
        self.name = f"constexpr[{self.value!r}]"

    def __eq__(self, other):
        return isinstance(other, constexpr_type) and self.value == other.value

    def __hash__(self):
        return hash(("constexpr_type", repr(self.value)))

    def __repr__(self):
        return f"constexpr_type[{self.value!r}]"


class const:
    """The annotation of a pointer parameter the kernel only reads
    (`def k(x_ptr: tl.const, ...)`): a store through it is an error."""


class ConstexprFunction:
    """A plain Python function that @jit code may call on compile-time
    values (`@triton.constexpr_function`): the call runs in Python while
    the kernel compiles, on the values of its constexpr arguments, and its
    result is a constexpr.  Called from Python it is the function itself
    (constexpr arguments are unwrapped there too).  As a method of a class,
    it binds the instance as Python methods do (Triton's
    BoundConstexprFunction)."""

    # How a constexpr function's cache key is computed (runtime/jit.py
    # installs it: the key comes from the same scan of the body as a @jit
    # function's, which lives above this module).
    key_of: Optional[Callable[["ConstexprFunction"], str]] = None

    def __init__(self, fn: Callable, unbound: Optional["ConstexprFunction"] = None):
        self.fn = fn
        functools.update_wrapper(self, fn)
        self._unbound = unbound
        self._src: Optional[str] = None
        self._ast: Optional[ast.Module] = None
        self.starting_line = 0
        # As in Triton: the cache key's memo (None until computed) and the
        # globals the body read when it was hashed
        self.hash: Optional[str] = None
        self.used_reads: List[Any] = []
        self.noinline = False

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return ConstexprFunction(functools.partial(self.fn, obj), unbound=self)

    # -- its source and cache key, as Triton's (JITCallable) --
    @property
    def src(self) -> str:
        """The function's source without decorators."""
        if self._unbound is not None:
            return self._unbound.src
        if self._src is None:
            lines, self.starting_line = inspect.getsourcelines(self.fn)
            lines = textwrap.dedent("".join(lines)).splitlines(keepends=True)
            first = next(i for i, l in enumerate(lines) if l.lstrip().startswith(("def ", "async def ")))
            self._src = "".join(lines[first:])
            self.starting_line += first
        return self._src

    def _unsafe_update_src(self, new_src: str):
        """Replaces the source the cache key hashes (Triton's hook for tests;
        the callers' keys are the caller's to reset)."""
        self._src, self._ast, self.hash = textwrap.dedent(new_src), None, None

    @property
    def cache_key(self) -> str:
        """A hash of the source, its first line and what the body calls
        (Triton's rule: a @jit function calling this one recompiles when it
        changes).  Raises RuntimeError when the body refers to a function the
        key cannot follow (Triton's "Unsupported function referenced")."""
        if self._unbound is not None:
            return self._unbound.cache_key
        if self.hash is None:
            key = ConstexprFunction.key_of(self)
            if not key:  # being hashed further up the stack: no memo of the placeholder
                return key
            self.hash = key
        return self.hash

    def parse(self) -> ast.Module:
        if self._ast is None:
            self._ast = parse_source(self.src)
        return self._ast

    @property
    def __globals__(self):
        return self.fn.__globals__

    def lookup_free_name(self, name: str, default=None):
        """The value a free name of the body refers to (closure cell, else
        global), `default` if neither holds it."""
        code, closure = self.fn.__code__, self.fn.__closure__
        if closure and name in code.co_freevars:
            try:
                return closure[code.co_freevars.index(name)].cell_contents
            except ValueError:
                pass
        return self.fn.__globals__.get(name, default)

    def __call__(self, *args, **kwargs):
        return self.fn(*[_value(a) for a in args], **{k: _value(v) for k, v in kwargs.items()})


def constexpr_function(fn: Callable) -> ConstexprFunction:
    return ConstexprFunction(fn)
