"""Python AST -> Triton IR.

One CodeGenerator compiles one function (a kernel, or a @jit function it
calls, specialized on its argument types and constexpr values) into the
shared module.  Algorithm:

  * Names live in a scope dict: tensors (SSA values with Triton types),
    constexprs (compile-time values) and Python objects (modules, @jit
    functions, dtypes).  Globals are looked up in the function's globals.
  * Expressions evaluate bottom-up; constexpr operands fold in Python,
    tensor operands emit ops through `triton.language.semantic`.
  * `if` on a constexpr compiles one branch; on a runtime scalar it becomes
    `scf.if`: both branches are generated with their own scope, and every
    name either branch (re)binds that is visible afterwards becomes a result.
    An `if` with a `return` inside (at any depth, not in a loop) takes the
    rest of the function into both of its branches, so that every path
    ends in a return: the `scf.if` yields what the function returns, and
    the function returns the `scf.if`'s results.
  * `for ... in range(...)` becomes `scf.for`: the body is generated once
    without emitting it to find the names it rebinds (the loop-carried
    values), then for real with those names as iteration arguments.
    `tl.static_range` unrolls in Python.  `while` becomes `scf.while` the
    same way.
  * A call of a @jit function generates (once per specialization) a private
    `tt.func` and a `tt.call`; the TTIR pipeline inlines it.  As in Triton,
    only tensors are runtime arguments; every other argument (a number, a
    dtype, None, a string, a @jit function) is a compile-time value of the
    callee, whatever the parameter's annotation, and the callee is
    specialized on it.  A compile-time value that every path of the callee
    returns reaches the caller as a compile-time value.  Tuples (as
    arguments, of kernels too, and as results) are Python tuples while
    compiling: their tensors travel as separate arguments and results.
  * A call of a plain Python function (a constexpr function, a method of a
    dtype, any other callable) runs it while compiling; its result is a
    compile-time value unless it is a tensor.
  * List comprehensions over compile-time sequences unroll into tuples.
  * Free names resolve through the function's closure, then its globals.
  * Every op carries the source location of the expression that made it;
    every user mistake becomes a CompilationError at that location.  A
    Python exception from a language function becomes the `__cause__` of
    that error, and an error inside a called @jit function the `__cause__`
    of one at the call (as Triton chains them); the code generator's own
    frames are left out of the tracebacks the user sees, unless
    TRITON_FRONT_END_DEBUGGING=1.
"""
from __future__ import annotations

import ast
import builtins
import functools
import hashlib
import inspect
import operator
import os
import types
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import ir
from .. import knobs
from ..compile_time import PYTHON_BUILTINS, ConstexprFunction
from ..dtypes import block_type, dtype, pointer_type
from ..errors import CompilationError, CompileTimeAssertionFailure
from ..language import core as tl
from ..language import semantic
from ..language import standard as tl_standard
from ..language.semantic import SemanticError
from ..runtime.jit import JITFunction
from ..runtime.tuple_args import is_namedtuple, like
from . import crossing_values


class ModuleState:
    """What the functions of one compilation share: the module being written
    and the @jit functions already generated for it."""

    def __init__(self, debug: bool, num_warps: int = 4, arch: int = 90):
        self.module = ir.Module()
        self.debug = debug
        self.num_warps = num_warps  # tl.extra.cuda.num_threads() is a compile-time value
        self.arch = arch  # tensor descriptors use the copy engine from 90 on
        self.functions: Dict[Tuple, Tuple[str, List[Any], Any]] = {}  # key -> (name, result types, template)
        # specializations generated in their callers' bodies instead (see
        # CodeGenerator._call_inlined)
        self.inlined: set = set()
        self.names: set = set()
        # objects that specialization keys name by id (_specialization_key)
        self.kept: list = []

    def unique_name(self, base: str, key: Tuple) -> str:
        digest = hashlib.sha1(repr(key).encode()).hexdigest()[:10]
        name = f"{base}__{digest}"
        while name in self.names:
            name += "_"
        self.names.add(name)
        return name


def _is_tensor(x) -> bool:
    return isinstance(x, tl.tensor)


def _unwrap(x):
    return x.value if isinstance(x, tl.constexpr) else x


def _wrap_python(x):
    """Python results (numbers, strings, None) as constexprs."""
    if isinstance(x, (tl.tensor, tl.constexpr, tuple, JITFunction, dtype, types.ModuleType)):
        return x
    if x is None or isinstance(x, (bool, int, float, str)):
        return tl.constexpr(x)
    return x


def _wrap_result(x):
    """The result of a Python function called from @jit code: tensors as
    they are, anything else a constexpr (each element of a tuple)."""
    if isinstance(x, tuple) and not isinstance(x, tl.constexpr):
        return like(x, (_wrap_result(e) for e in x))
    if isinstance(x, (tl.tensor, tl.constexpr, tl.tensor_descriptor)):
        return x
    return tl.constexpr(x)


_ABSENT = object()


def _specialization_key(value, keep: list):
    """What a @jit function's specialization depends on for one compile-time
    argument (or a tuple argument's structure): numbers, strings and None
    by type and value (1, 1.0 and True are three specializations; so are
    0.0 and -0.0), dtypes by their IR type and name, other objects (@jit
    functions, Python functions, ...) by identity; such objects are appended
    to `keep`, so that no other object takes their id while the compilation
    lasts.  In a tuple's structure a tensor element stands as its type and a
    compile-time element as a constexpr: the two are told apart."""
    if isinstance(value, tl.constexpr):
        return ("c", _specialization_key(value.value, keep))
    if isinstance(value, tuple):
        return (type(value).__name__, tuple(_specialization_key(v, keep) for v in value))
    if value is None or isinstance(value, (bool, int, float, str)):
        return (type(value).__name__, repr(value))
    if isinstance(value, dtype):
        return ("dtype", repr(value), str(getattr(value, "address_space", "")),
                value.to_ir() if hasattr(value, "to_ir") else "")
    keep.append(value)
    return (type(value).__qualname__, id(value))


class _Slot:
    """Stands for a runtime value in a function's return template."""

    def __repr__(self):
        return "<runtime>"


_SLOT = _Slot()


def _fill_template(template, values: List[Any]):
    """A call's result: the callee's return template with its runtime
    values (the call's results, in order) in place of the slots."""
    if template is None:
        return tl.constexpr(None)
    results = iter(values)
    if isinstance(template, tuple):
        return tuple(next(results) if item is _SLOT else item for item in template)
    return next(results) if template is _SLOT else template


def _same_constexpr(a, b) -> bool:
    """Whether two compile-time values returned on two paths are the same
    value (then a caller receives it as a compile-time value)."""
    a, b = _unwrap(a), _unwrap(b)
    if a is b:
        return True
    try:
        # (equal and of one representation: 0.0 and -0.0 are equal but differ)
        return type(a) is type(b) and bool(a == b) and repr(a) == repr(b)
    except Exception:  # noqa: BLE001 - values that do not compare differ
        return False


class _Return(Exception):
    """Unwinds a function body at `return`."""


def _contains_return(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Return) for n in ast.walk(node))


def _is_dims_index(index) -> bool:
    """Whether a subscript only adds dimensions or keeps them whole
    (`[None]`, `[:, None]`): the indexing a tensor takes from a number."""
    items = index if isinstance(index, tuple) else (index,)
    return all(i is None or i == slice(None) for i in items)


class _ReturnsDescriptor(Exception):
    """A @jit function returned a tensor descriptor, a named tuple or a
    nested tuple (Python-side structure that a function's results cannot
    carry): its callers generate it in their own bodies
    (CodeGenerator._call_inlined)."""


class CodeGenerator(ast.NodeVisitor):
    def __init__(self, fn: JITFunction, arg_values: Sequence[Any], state: ModuleState,
                 function_name: str, is_kernel: bool, arg_attrs: Optional[Sequence[Dict[str, str]]] = None):
        self.fn = fn
        # a dtype (the type of a runtime argument) or a tl.constexpr (a compile-time value)
        self.arg_values = list(arg_values)
        self.arg_attrs = list(arg_attrs) if arg_attrs else [{} for _ in arg_values]
        self.state = state
        self.function_name = function_name
        self.is_kernel = is_kernel
        self.builder = ir.Builder()
        self.builder.num_warps = state.num_warps
        self.builder.arch = state.arch
        self.builder.device_tensor_maps = not (fn.noinline and not is_kernel)
        self.scope: Dict[str, Any] = {}
        self.return_values: Optional[Any] = None
        self.returned = False
        self.file_name = fn.file_name
        self.line_offset = fn.starting_line - 1
        self.col_offset = fn._src_col_offset
        self.src_lines = fn.src.splitlines()
        self._current_node = None
        self.loop_depth = 0  # enclosing scf.for / scf.while / static_range loops
        self.return_node: Optional[ast.Return] = None  # the last `return` generated
        # What callers receive (see _split_return): None, or compile-time
        # values and _SLOT where a result of the call goes (a tuple of them
        # for a function returning a tuple)
        self.return_template: Any = None
        self._continuation: Optional[List[ast.stmt]] = None  # see visit_statements

    # ---- errors and locations -------------------------------------------------
    def _location(self, node) -> ir.Location:
        return ir.Location(self.file_name, self.line_offset + node.lineno,
                           node.col_offset + 1 + self.col_offset)

    def error(self, node, message: str, kind=CompilationError) -> CompilationError:
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        src = self.src_lines[line - 1] if 0 < line <= len(self.src_lines) else None
        if src is not None:
            src = " " * self.col_offset + src
        err = kind(message, file=self.file_name, line=self.line_offset + line, col=col + 1 + self.col_offset,
                   source_line=src, function_source=self.fn.src, function_line=line, function_col=col)
        err._raised_by = id(self)  # call_jit_function tells the callee's errors from its own
        return err

    def visit(self, node):
        if node is None:
            return None
        if hasattr(node, "lineno"):
            previous = self.builder.loc
            self.builder.loc = self._location(node)
            self._current_node = node
        else:
            previous = None
        try:
            return super().visit(node)
        except (CompilationError, _Return, _ReturnsDescriptor, KeyboardInterrupt):
            raise
        # The error at the user's line; the mistake found deeper is its
        # __cause__, as Triton chains it (code that inspects errors reads
        # it).  generate_ttir leaves the compiler's frames out of both.
        except SemanticError as e:
            if knobs.compilation.front_end_debugging:
                raise
            raise self.error(node, f"{e}, {e.detail}" if getattr(e, "detail", None) else str(e)) from e
        except RecursionError:
            err = self.error(node, "recursion is not supported in @jit functions")
            err._unwrapped = True  # one error, not one per level of the recursion (call_jit_function)
            raise err from None
        except Exception as e:  # noqa: BLE001 - as Triton: any error at the user's line
            # (Python functions run while compiling: a library's own
            # exception classes too)
            if knobs.compilation.front_end_debugging:
                raise
            raise self.error(node, f"{type(e).__name__}: {e}") from e
        finally:
            if previous is not None:
                self.builder.loc = previous

    def generic_visit(self, node):
        raise self.error(node, f"unsupported Python construct in a @jit function: {type(node).__name__}")

    # ---- function -------------------------------------------------------------
    def generate(self) -> List[Any]:
        """Writes the function into the module; returns its return types."""
        fdef = self.fn.parse().body[0]
        previous_builder = semantic.set_builder(self.builder)
        previous_caller = semantic.set_combine_caller(self._call_combine)
        try:
            return self._generate_function(fdef)
        finally:
            semantic.set_builder(previous_builder)
            semantic.set_combine_caller(previous_caller)

    def _call_combine(self, fn, values):
        """Calls a reduction's combine function from inside its region."""
        if not isinstance(fn, JITFunction):
            raise SemanticError(f"the combine function must be a @jit function, got {fn!r}")
        return self.call_jit_function(self._current_node, fn, values, {})

    def _generate_function(self, fdef: ast.FunctionDef) -> List[Any]:
        self.builder.loc = self._location(fdef)
        names = [a.arg for a in fdef.args.args]
        if fdef.args.vararg or fdef.args.kwarg or fdef.args.kwonlyargs:
            raise self.error(fdef, "@jit functions take only plain positional parameters "
                                   "(no *args, **kwargs or keyword-only parameters)")
        # the function's arguments: one per runtime leaf (a tuple parameter
        # contributes its runtime elements, depth first, named `name.i`)
        runtime_args = []  # (name, dtype, attributes)

        def collect(name, value, attrs):
            if isinstance(value, tuple):
                for i, element in enumerate(value):
                    collect(f"{name}.{i}", element, {})
            elif isinstance(value, tl.tensor_descriptor_type):
                # its leaves (tensor_descriptor_type.leaf_types), the base
                # pointer aligned as TensorDescriptor requires
                for suffix, ty in value.leaf_types():
                    leaf_attrs = {"tt.divisibility": "16 : i32"} if suffix == ".base" else {}
                    runtime_args.append((name + suffix, ty, leaf_attrs))
            elif not isinstance(value, tl.constexpr):
                runtime_args.append((name, value, attrs))
        for name, value, attrs in zip(names, self.arg_values, self.arg_attrs):
            collect(name, value, attrs)
        arg_attrs = [attrs for _, _, attrs in runtime_args]
        block_args = self.builder.new_block_args([ty.to_ir() for _, ty, _ in runtime_args])
        body = self.builder.open_block(block_args)
        leaves = iter(zip(runtime_args, block_args))

        def bind(value):
            if isinstance(value, tuple):
                return like(value, (bind(element) for element in value))
            if isinstance(value, tl.constexpr):
                return value
            if isinstance(value, tl.tensor_descriptor_type):
                (_, _, _), desc_handle = next(leaves)
                handles = [tl.tensor(handle, ty) for (_, ty, _), handle in
                           (next(leaves) for _ in value.leaf_types()[1:])]
                rank = value.rank
                strides = handles[1 + rank:]
                strides[-1] = tl.constexpr(1)  # TensorDescriptor checked it: the last dimension is contiguous
                return tl.tensor_descriptor(desc_handle, handles[0], handles[1:1 + rank], strides, value,
                                            leaves=[types.SimpleNamespace(handle=desc_handle)] + handles)
            (_, ty, _), handle = next(leaves)
            return tl.tensor(handle, ty)
        for name, value in zip(names, self.arg_values):
            self.scope[name] = bind(value)
        try:
            self.visit_statements(fdef.body)
        except _Return:
            pass
        self.return_template, results = self._split_return(self.return_values)
        if self.is_kernel and results:
            raise self.error(self.return_node or fdef, "a kernel cannot return a value")
        self.builder.create("tt.return", [r.handle for r in results], [])
        self.builder.close_block()
        visibility = "public" if self.is_kernel else "private"
        attributes = {"noinline": "true"} if (self.fn.noinline and not self.is_kernel) else None
        self.state.module.add_function(self.function_name, visibility, block_args, arg_attrs,
                                       [r.type.to_ir() for r in results], body, self._location(fdef),
                                       attributes=attributes, arg_names=[name for name, _, _ in runtime_args])
        return [r.type for r in results]

    def _return_leaves(self, value) -> Tuple[bool, List[Any]]:
        """(whether `value`, a returned value, is a tuple; its elements):
        tensors and compile-time values.  A named tuple, a nested tuple or
        a tensor descriptor (Python-side structure that a function's
        results cannot carry) makes its callers generate the function in
        their own bodies (_ReturnsDescriptor)."""
        if value is None or (isinstance(value, tl.constexpr) and value.value is None):
            return False, []
        items = _unwrap(value)
        is_tuple = isinstance(items, tuple)
        if not is_tuple:
            items = (value,)
        elif is_namedtuple(items) and not self.is_kernel:
            raise _ReturnsDescriptor()
        leaves = []
        for item in items:
            if isinstance(_unwrap(item), (tl.tensor_descriptor, tuple)) and not self.is_kernel:
                raise _ReturnsDescriptor()
            leaves.append(item if _is_tensor(item) or isinstance(item, tl.constexpr) else tl.constexpr(item))
        return is_tuple, leaves

    def _split_return(self, value) -> Tuple[Any, List[tl.tensor]]:
        """(template, runtime results) of what the function returns.  As in
        Triton 3.6, a compile-time value that every path returns stays a
        compile-time value for the callers: it is in the template, not
        among the function's results."""
        is_tuple, leaves = self._return_leaves(value)
        if not leaves and not is_tuple:
            return None, []
        results = []
        template = []
        for leaf in leaves:
            if _is_tensor(leaf):
                results.append(leaf)
                template.append(_SLOT)
            else:
                template.append(leaf)
        return (tuple(template) if is_tuple else template[0]), results

    # ---- statements -----------------------------------------------------------
    def visit_statements(self, stmts: Sequence[ast.stmt]):
        stmts = list(stmts)
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, ast.If) and _contains_return(stmt):
                # an `if` with a `return` in it takes the rest of the function
                # into its branches (visit_If); it always ends the function
                self._continuation = stmts[i + 1:]
            self.visit(stmt)
            if self.returned:
                raise _Return()

    def visit_Pass(self, node):
        return None

    def visit_Expr(self, node):
        self.visit(node.value)

    def visit_Return(self, node):
        if self.loop_depth:
            raise self.error(node, "return inside a loop is not supported (as in Triton); assign the value "
                                   "and return after the loop")
        value = self.visit(node.value) if node.value is not None else None
        if self.is_kernel and value is not None:
            _, leaves = self._return_leaves(value)
            if any(_is_tensor(leaf) or isinstance(_unwrap(leaf), tl.tensor_descriptor) for leaf in leaves):
                raise self.error(node, "a kernel cannot return a value")
            value = None  # (a compile-time value returned by a kernel has no runtime result: dropped)
        self.return_values = value
        self.return_node = node
        self.returned = True

    def _assign_target(self, target, value, node):
        if isinstance(target, ast.Name):
            # plain Python numbers are compile-time values
            self.scope[target.id] = tl.constexpr(value) if isinstance(value, (int, float, bool)) else value
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            values = _unwrap(value)
            if not isinstance(values, tuple):
                raise self.error(node, f"cannot unpack {type(values).__name__} into {len(target.elts)} names")
            if len(values) != len(target.elts):
                raise self.error(node, f"cannot unpack {len(values)} values into {len(target.elts)} names")
            for t, v in zip(target.elts, values):
                self._assign_target(t, v, node)
            return
        if isinstance(target, ast.Subscript):
            # Tuples are immutable, as in Triton 3.6 (upstream
            # test_tuple.py::test_modifying_tuples); tensors have no elements
            # to assign
            items = _unwrap(self.visit(target.value))
            if isinstance(items, tuple):
                raise self.error(target, "tuples are immutable in a @jit function: build a new tuple instead of "
                                         "assigning an element (e.g. t = (x, t[1]))")
            raise self.error(target, "an element of a tensor cannot be assigned in a @jit function "
                                     f"(the value is a {type(items).__name__}; use tl.where)")
        raise self.error(target, "only names and tuples of names can be assigned in a @jit function")

    def visit_Assign(self, node):
        value = self.visit(node.value)
        for target in node.targets:
            self._assign_target(target, value, node)

    def visit_AnnAssign(self, node):
        value = self.visit(node.value) if node.value is not None else None
        annotation = self.visit(node.annotation)
        if annotation is tl.constexpr or (isinstance(annotation, tl.constexpr) and annotation.value is tl.constexpr):
            # As in Triton, the annotation wraps a compile-time value; a
            # runtime value (a tensor) is bound as it is, and is usable
            # wherever a runtime value is (Triton's constexpr of a tensor
            # behaves as the tensor).
            if not _is_tensor(value) and not isinstance(value, tl.tensor_descriptor):
                value = tl.constexpr(value)
        self._assign_target(node.target, value, node)

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Subscript):  # `t[i] += x`: refused as `t[i] = ...` is
            self._assign_target(node.target, None, node)
        if not isinstance(node.target, ast.Name):
            raise self.error(node, "only names can be updated with augmented assignment")
        lhs = self._lookup(node.target.id, node.target)
        rhs = self.visit(node.value)
        self.scope[node.target.id] = self._binary(node.op, lhs, rhs, node)

    def visit_Assert(self, node):
        if not self.state.debug:
            return
        cond = self.visit(node.test)
        msg = _unwrap(self.visit(node.msg)) if node.msg is not None else ast.unparse(node.test)
        if isinstance(cond, tl.constexpr):
            if not cond.value:
                raise self.error(node, f"assertion failed: {msg}")
            return
        semantic.device_assert(cond, str(msg))

    visit_Break = lambda self, n: CodeGenerator._raise(self, n, "`break` is not supported in @jit functions")
    visit_Continue = lambda self, n: CodeGenerator._raise(self, n, "`continue` is not supported in @jit functions")
    visit_Lambda = lambda self, n: CodeGenerator._raise(self, n, "lambda is not supported in @jit functions")
    visit_FunctionDef = lambda self, n: CodeGenerator._raise(
        self, n, "nested function definitions are not supported in @jit functions; define a separate @jit "
                 "function at module level")
    visit_AsyncFunctionDef = visit_FunctionDef
    visit_ClassDef = lambda self, n: CodeGenerator._raise(self, n, "class definitions are not supported in @jit functions")
    visit_Dict = lambda self, n: CodeGenerator._raise(self, n, "dicts are not supported in @jit functions")
    visit_Set = lambda self, n: CodeGenerator._raise(self, n, "sets are not supported in @jit functions")
    visit_Try = lambda self, n: CodeGenerator._raise(self, n, "try/except is not supported in @jit functions")
    visit_With = lambda self, n: CodeGenerator._raise(self, n, "`with` is not supported in @jit functions")
    visit_Global = lambda self, n: CodeGenerator._raise(self, n, "`global` is not supported in @jit functions")
    visit_Nonlocal = lambda self, n: CodeGenerator._raise(self, n, "`nonlocal` is not supported in @jit functions")
    visit_Delete = lambda self, n: CodeGenerator._raise(self, n, "`del` is not supported in @jit functions")
    visit_Import = lambda self, n: CodeGenerator._raise(self, n, "import is not supported in @jit functions")
    visit_ImportFrom = visit_Import

    def _raise(self, node, message):
        raise self.error(node, message)

    # ---- if ---------------------------------------------------------------------
    def visit_If(self, node):
        continuation, self._continuation = self._continuation, None
        cond = self.visit(node.test)
        if continuation is not None:
            return self._returning_if(node, cond, continuation)
        if not _is_tensor(cond):
            branch = node.body if _unwrap(cond) else node.orelse
            self.visit_statements(branch)
            return
        self._runtime_if(node, cond)

    def _returning_if(self, node, cond, continuation: List[ast.stmt]):
        """An `if` with a `return` in a branch, followed by `continuation`,
        the rest of the function.  A constexpr condition splices the chosen
        branch into the function.  A runtime one becomes an `scf.if` whose
        branches each run their statements and then the continuation, and
        yield what the function returns on that path (nothing for a kernel);
        the function returns the `scf.if`'s results.  Statements after the
        `if` are thus generated once per path (as Triton's unstructured
        branches would run them once per path)."""
        if self.loop_depth:
            raise self.error(node, "return inside a loop is not supported (as in Triton); assign the value "
                                   "and return after the loop")
        if not _is_tensor(cond):
            self.visit_statements((node.body if _unwrap(cond) else node.orelse) + continuation)
        else:
            cond = self._scalar_condition(node.test, cond)
            before = self.scope
            self.return_node = None
            then_block, then_raw = self._returning_branch(node.body + continuation, before)
            then_return, self.return_node = self.return_node, None
            else_block, else_raw = self._returning_branch(node.orelse + continuation, before)
            then_tuple, then_leaves = self._return_leaves(then_raw)
            _, else_leaves = self._return_leaves(else_raw)
            # A compile-time value both paths return alike stays one (Triton's
            # rule); the other values become the scf.if's results.
            merged, then_values, else_values = [], [], []
            if len(then_leaves) == len(else_leaves):
                for a, b in zip(then_leaves, else_leaves):
                    if not _is_tensor(a) and not _is_tensor(b) and _same_constexpr(a, b):
                        merged.append(a)
                        continue
                    then_values.append(self._append_to_block(then_block, lambda: semantic.to_tensor(
                        a if _is_tensor(a) else _unwrap(a)), node, None))
                    else_values.append(self._append_to_block(else_block, lambda: semantic.to_tensor(
                        b if _is_tensor(b) else _unwrap(b)), node, None))
                    merged.append(_SLOT)
            if len(then_leaves) != len(else_leaves) or \
                    [v.type for v in then_values] != [v.type for v in else_values]:
                # at the `return` of the path that differs (the `if` itself
                # where that path ends without one)
                def describe(leaves):
                    return ", ".join(str(v.type) if _is_tensor(v) else f"constexpr[{_unwrap(v)!r}]"
                                     for v in leaves) or "nothing"
                raise self.error(self.return_node or then_return or node,
                                 f"Inconsistent return types: the function returns {describe(then_leaves)} when "
                                 f"the condition at line {self.line_offset + node.lineno} holds but "
                                 f"{describe(else_leaves)} when it does not")
            for block, values in ((then_block, then_values), (else_block, else_values)):
                self._append_to_block(block, lambda: self.builder.create(
                    "scf.yield", [v.handle for v in values], []), node, None)
            types_ = [v.type for v in then_values]
            results = self.builder.create("scf.if", [cond.handle], [t.to_ir() for t in types_],
                                          regions=[ir.Builder.render_region(then_block),
                                                   ir.Builder.render_region(else_block)])
            self.scope = before
            outs = iter([tl.tensor(h, t) for h, t in zip(results, types_)])
            leaves = [next(outs) if m is _SLOT else m for m in merged]
            self.return_values = (tuple(leaves) if then_tuple else leaves[0] if leaves else None)
        self.returned = True
        raise _Return()

    def _returning_branch(self, stmts: List[ast.stmt], before: Dict[str, Any]):
        """Generates one path to the end of the function into a new block;
        returns the block and the value the path returns (as returned)."""
        self.scope = dict(before)
        self.returned, self.return_values = False, None
        block = self.builder.open_block()
        try:
            self.visit_statements(stmts)
        except _Return:
            pass
        value = self.return_values
        self.returned, self.return_values = False, None
        self.builder.close_block()
        return block, value

    def _scalar_condition(self, node, cond) -> tl.tensor:
        if cond.type.is_block() and cond.type.numel == 1:
            cond = tl_standard.item(cond)  # a condition of one element, as Triton reads it
        if cond.type.is_block():
            raise self.error(node, f"the condition of `if`/`while` must be a scalar, got a tensor of shape "
                                   f"{list(cond.type.shape)}")
        if not cond.type.is_bool():
            cond = semantic.cast(cond, tl.int1)
        return cond

    def _run_branch(self, stmts, before: Dict[str, Any]):
        """Generates `stmts` into a new block with a copy of `before`."""
        self.scope = dict(before)
        block = self.builder.open_block()
        try:
            self.visit_statements(stmts)
        except _Return:
            raise self.error(stmts[-1], "return inside `if` is not supported")
        self.builder.close_block()
        return block, self.scope

    def _runtime_if(self, node, cond):
        cond = self._scalar_condition(node.test, cond)
        before = self.scope
        then_block, then_scope = self._run_branch(node.body, before)
        else_block, else_scope = self._run_branch(node.orelse, before)
        merged = []
        for name in list(then_scope) + [n for n in else_scope if n not in then_scope]:
            in_then, in_else = name in then_scope, name in else_scope
            if not (in_then and in_else):
                continue  # defined in one branch only: not visible afterwards
            a, b = then_scope[name], else_scope[name]
            if a is b:
                continue
            if isinstance(a, tl.constexpr) and isinstance(b, tl.constexpr) and a.value == b.value:
                continue
            merged.append(name)
        then_vals, else_vals, crossings = [], [], []
        for name in merged:
            a, b = then_scope[name], else_scope[name]
            if crossing_values.is_composite(a) or crossing_values.is_composite(b):
                # a descriptor made in the kernel or a tuple: the parts that differ cross
                what = f"'{name}'"
                plan = self._append_to_block(then_block, lambda: crossing_values.branch_plan(a, b, what), node, None)
                then_vals += self._append_to_block(then_block, lambda: crossing_values.leaves(a, plan, what),
                                                   node, None)
                else_vals += self._append_to_block(else_block, lambda: crossing_values.leaves(b, plan, what),
                                                   node, None)
                crossings.append((a, plan))
                continue
            a = self._append_to_block(then_block, lambda: semantic.to_tensor(_unwrap(a) if isinstance(a, tl.constexpr) else a), node, name)
            b = self._append_to_block(else_block, lambda: semantic.to_tensor(_unwrap(b) if isinstance(b, tl.constexpr) else b), node, name)
            if a.type != b.type:
                raise self.error(node, f"Mismatched type for {name} between then block ({a.type}) and else "
                                       f"block ({b.type}): both branches must give it one type")
            crossings.append((a, [(0, a.type)]))
            then_vals.append(a)
            else_vals.append(b)
        self._append_to_block(then_block, lambda: self.builder.create("scf.yield", [v.handle for v in then_vals], []),
                              node, None)
        self._append_to_block(else_block, lambda: self.builder.create("scf.yield", [v.handle for v in else_vals], []),
                              node, None)
        result_types = [v.type for v in then_vals]
        results = self.builder.create("scf.if", [cond.handle], [t.to_ir() for t in result_types],
                                      regions=[ir.Builder.render_region(then_block),
                                               ir.Builder.render_region(else_block)])
        self.scope = dict(before)
        outs = [tl.tensor(handle, ty) for handle, ty in zip(results, result_types)]
        for name, value in zip(merged, self._rebuilt(crossings, outs)):
            self.scope[name] = value

    @staticmethod
    def _rebuilt(crossings, values) -> list:
        """`values` (SSA values after a branch or loop) regrouped into one
        value per (template, plan) of `crossings` (crossing_values)."""
        out, at = [], 0
        for template, plan in crossings:
            out.append(crossing_values.rebuild(template, plan, values[at:at + len(plan)]))
            at += len(plan)
        return out

    @staticmethod
    def _loop_crossings(inits):
        """(template, plan) of each loop-carried initial value and the SSA
        values the loop starts from."""
        crossings = [(init, crossing_values.loop_plan(init)) for init in inits]
        flat = [leaf for init, plan in crossings for leaf in crossing_values.leaves(init, plan, "")]
        return crossings, flat

    def _append_to_block(self, block: ir.Block, make, node, name):
        """Runs `make` with ops going to the end of an already generated block."""
        with self.builder.appending_to(block):
            try:
                return make()
            except SemanticError as e:
                raise self.error(node, f"'{name}': {e}" if name else str(e)) from None

    def visit_IfExp(self, node):
        cond = self.visit(node.test)
        if not _is_tensor(cond):
            return self.visit(node.body) if _unwrap(cond) else self.visit(node.orelse)
        cond = self._scalar_condition(node.test, cond)
        for branch in (node.body, node.orelse):
            binding = next((n for n in ast.walk(branch) if isinstance(n, ast.NamedExpr)), None)
            if binding is not None:
                raise self.error(binding, "an assignment expression inside a conditional expression whose "
                                          "condition is a runtime value is not supported (its value would "
                                          "exist in one branch only): assign it before the expression")
        saved = self.scope
        then_block = self.builder.open_block()
        a = _unwrap(self.visit(node.body))
        if a is None:  # `tl.store(...) if c else tl.store(...)`: an scf.if of two void branches
            self.builder.create("scf.yield", [], [])
            self.builder.close_block()
            else_block = self.builder.open_block()
            if _unwrap(self.visit(node.orelse)) is not None:
                raise self.error(node, "Ternary expression with dynamic condition has inconsistent type: nothing "
                                       "in one branch, a value in the other")
            self.builder.create("scf.yield", [], [])
            self.builder.close_block()
            self.scope = saved
            self.builder.create("scf.if", [cond.handle], [], regions=[ir.Builder.render_region(then_block),
                                                                       ir.Builder.render_region(else_block)])
            return tl.constexpr(None)
        a = semantic.to_tensor(a)
        self.builder.create("scf.yield", [a.handle], [])
        self.builder.close_block()
        else_block = self.builder.open_block()
        b = semantic.to_tensor(_unwrap(self.visit(node.orelse)))
        if a.type != b.type:
            raise self.error(node, f"Ternary expression with dynamic condition has inconsistent type: {a.type} "
                                   f"and {b.type}")
        self.builder.create("scf.yield", [b.handle], [])
        self.builder.close_block()
        self.scope = saved
        result = self.builder.create("scf.if", [cond.handle], [a.type.to_ir()],
                                     regions=[ir.Builder.render_region(then_block),
                                              ir.Builder.render_region(else_block)])[0]
        return tl.tensor(result, a.type)

    # ---- loops --------------------------------------------------------------------
    @staticmethod
    def _assigned_names(stmts: Sequence[ast.stmt]) -> List[str]:
        """Names a loop body (re)binds, in order of first appearance."""
        names: List[str] = []

        def add_target(target):
            if isinstance(target, ast.Name):
                if target.id not in names:
                    names.append(target.id)
            elif isinstance(target, (ast.Tuple, ast.List)):
                for elt in target.elts:
                    add_target(elt)

        for stmt in stmts:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        add_target(target)
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
                    add_target(node.target)
                elif isinstance(node, ast.For):
                    add_target(node.target)
        return names

    def _carried(self, node, stmts, exclude=()) -> Tuple[List[str], List[Any]]:
        """The loop-carried names of a loop body and their initial values:
        every name the body rebinds that already holds a tensor or a
        descriptor made in the kernel (which is carried as its base, shape
        and strides, crossing_values).  A constexpr initial value becomes a
        scalar tensor (as in Triton: give a carried variable its final type
        before the loop)."""
        names, inits = [], []
        for name in self._assigned_names(stmts):
            if name in exclude or name not in self.scope:
                continue
            init = self.scope[name]
            if isinstance(init, tl.constexpr):
                value = init.value
                if not isinstance(value, (bool, int, float)):
                    continue  # e.g. a dtype or None rebound in the body: stays compile-time
                init = semantic.to_tensor(value)
            if not crossing_values.crosses(init):
                continue
            names.append(name)
            inits.append(init)
        return names, inits

    def visit_For(self, node):
        if node.orelse:
            raise self.error(node, "for/else is not supported in @jit functions")
        iterator = node.iter
        if not isinstance(iterator, ast.Call):
            raise self.error(iterator, "a @jit for loop must iterate over range(), tl.range() or tl.static_range()")
        fn = self.visit(iterator.func)
        args = [self.visit(a) for a in iterator.args]
        kwargs = {k.arg: self.visit(k.value) for k in iterator.keywords}
        if fn is not builtins.range and fn is not tl.range and fn is not tl.static_range:
            raise self.error(iterator, "a @jit for loop must iterate over range(), tl.range() or tl.static_range()")
        if fn is builtins.range and kwargs:
            raise self.error(iterator, "range() takes no keyword arguments; use tl.range for loop options")
        lb, ub, step = self._range_bounds(iterator, args, kwargs)
        if fn is tl.static_range:
            if kwargs:
                raise self.error(iterator, f"tl.static_range() got unexpected keyword arguments: {', '.join(kwargs)}")
            return self._static_for(node, [lb, ub, step])
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "the loop variable must be a single name")
        step_value = _unwrap(step)
        if isinstance(step_value, int) and step_value == 0:
            raise self.error(iterator, "range() step must not be zero")
        # A constant negative step counts down: scf.for runs a counter t over
        # [0, start - end) by -step, and the loop variable is start - t.
        descending = isinstance(step_value, int) and step_value < 0
        lb_t, ub_t, step_t = (semantic.to_tensor(_unwrap(v)) for v in (lb, ub, step))
        for v, what in ((lb_t, "start"), (ub_t, "end"), (step_t, "step")):
            if v.type.is_block() or not v.type.is_int():
                raise self.error(iterator, f"range() {what} must be a scalar integer, got {v.type}")
        iv_ty = tl.int64 if any(v.type.int_bitwidth == 64 for v in (lb_t, ub_t, step_t)) else tl.int32
        lb_t, ub_t, step_t = (semantic.cast(v, iv_ty) for v in (lb_t, ub_t, step_t))
        start = lb_t
        if descending:
            lb_t, ub_t, step_t = (semantic.to_tensor(0, iv_ty), semantic.sub(start, ub_t),
                                  semantic.to_tensor(-step_value, iv_ty))
        attrs = self._loop_attributes(iterator, kwargs)

        iv_name = node.target.id
        carried, inits = self._carried(node, node.body, exclude=(iv_name,))
        crossings, flat_inits = self._loop_crossings(inits)
        block_args = self.builder.new_block_args([iv_ty.to_ir()] + [i.type.to_ir() for i in flat_inits])
        saved = self.scope
        self.scope = dict(saved)
        self.scope[iv_name] = tl.tensor(block_args[0], iv_ty)
        args = [tl.tensor(arg, init.type) for arg, init in zip(block_args[1:], flat_inits)]
        for name, value in zip(carried, self._rebuilt(crossings, args)):
            self.scope[name] = value
        body = self.builder.open_block(block_args)
        if descending:
            self.scope[iv_name] = semantic.sub(start, self.scope[iv_name])
        self.loop_depth += 1
        try:
            self.visit_statements(node.body)
        finally:
            self.loop_depth -= 1
        yields = self._loop_yields(node, carried, inits, saved)
        self.builder.create("scf.yield", [y.handle for y in yields], [])
        self.builder.close_block()
        self.scope = saved
        results = self.builder.create("scf.for", [lb_t.handle, ub_t.handle, step_t.handle] +
                                      [i.handle for i in flat_inits],
                                      [i.type.to_ir() for i in flat_inits], attributes=attrs or None,
                                      regions=[ir.Builder.render_region(body)])
        outs = [tl.tensor(handle, init.type) for handle, init in zip(results, flat_inits)]
        for name, value in zip(carried, self._rebuilt(crossings, outs)):
            self.scope[name] = value

    def _loop_yields(self, node, carried, inits, before=None) -> List[tl.tensor]:
        """The values the body yields for the carried names, as SSA values.
        A name the body rebinds from compile-time values only (a tuple of
        numbers, say) to one holding runtime values cannot be carried: an
        error, not a loop whose updates would be lost."""
        for name in self._assigned_names(node.body):
            if name in carried or before is None or name not in before:
                continue
            if crossing_values.crosses(self.scope.get(name)) and not crossing_values.crosses(before[name]):
                raise self.error(node, f"loop-carried variable '{name}' holds only compile-time values before the "
                                       "loop but runtime values at the end of the body; give it its runtime form "
                                       "before the loop (e.g. tl.zeros(...) for each tuple element)")
        yields = []
        for name, init in zip(carried, inits):
            value = self.scope[name]
            if crossing_values.is_composite(init):
                try:
                    yields += crossing_values.leaves(value, crossing_values.loop_plan(init),
                                                     f"loop-carried variable '{name}'", template=init)
                except SemanticError as e:
                    raise self.error(node, str(e)) from None
                continue
            if isinstance(value, tl.constexpr):
                value = semantic.to_tensor(_unwrap(value), init.type.scalar)
            if not _is_tensor(value) or value.type != init.type:
                raise self.error(node, f"loop-carried variable '{name}' has type {init.type} before the loop "
                                       f"but {getattr(value, 'type', type(value).__name__)} at the end of the "
                                       "body; give it its final type before the loop (e.g. "
                                       "tl.zeros(..., dtype=...) or .to(...))")
            yields.append(value)
        return yields

    def _loop_attributes(self, node, kwargs) -> Dict[str, str]:
        attrs = {}
        for key, value in kwargs.items():
            value = _unwrap(value)
            if value is None:
                continue
            if key == "num_stages":
                attrs["tt.num_stages"] = ir.i32_attr(value)
            elif key == "loop_unroll_factor":
                attrs["tt.loop_unroll_factor"] = ir.i32_attr(value)
            elif key in ("disallow_acc_multi_buffer", "flatten", "warp_specialize"):
                if value:
                    attrs[f"tt.{key}"] = "unit"
            else:
                raise self.error(node, f"unknown loop option '{key}'")
        return attrs

    def _range_bounds(self, iterator, args, kwargs):
        """(start, end, step) of range(...) / tl.range(...) / tl.static_range(...)
        as Triton binds them: (arg1, arg2=None, step=None), by position or by
        name; the keywords bound here are removed from `kwargs`."""
        names = ("arg1", "arg2", "step")
        if len(args) > 3:
            raise self.error(iterator, f"range() takes 1 to 3 arguments, got {len(args)}")
        bound = dict(zip(names, args))
        for name in names:
            if name in kwargs:
                if name in bound:
                    raise self.error(iterator, f"range() got multiple values for '{name}'")
                bound[name] = kwargs.pop(name)
        if "arg1" not in bound:
            raise self.error(iterator, "range() needs at least one argument")
        arg2, step = _unwrap(bound.get("arg2")), _unwrap(bound.get("step"))
        if arg2 is None:
            return 0, bound["arg1"], 1 if step is None else bound["step"]
        return bound["arg1"], bound["arg2"], 1 if step is None else bound["step"]

    def _static_for(self, node, args):
        values = [_unwrap(a) for a in args]
        if not all(isinstance(v, int) for v in values):
            raise self.error(node.iter, "tl.static_range bounds must be constexpr integers")
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "the loop variable must be a single name")
        self.loop_depth += 1
        try:
            for i in builtins.range(*values):
                self.scope[node.target.id] = tl.constexpr(i)
                self.visit_statements(node.body)
        finally:
            self.loop_depth -= 1

    def visit_While(self, node):
        if node.orelse:
            raise self.error(node, "while/else is not supported in @jit functions")
        # (names the condition binds, `while (i := i + 1) < n`, are carried
        # too: the condition forwards its values to the body and the results)
        carried, inits = self._carried(node, [ast.Expr(node.test)] + node.body)
        crossings, flat_inits = self._loop_crossings(inits)
        types_ = [i.type.to_ir() for i in flat_inits]
        saved = self.scope
        # before region: evaluate the condition
        before_args = self.builder.new_block_args(types_)
        self.scope = dict(saved)
        args = [tl.tensor(arg, init.type) for arg, init in zip(before_args, flat_inits)]
        for name, value in zip(carried, self._rebuilt(crossings, args)):
            self.scope[name] = value
        before_block = self.builder.open_block(before_args)
        cond = self.visit(node.test)
        if not _is_tensor(cond):
            cond = semantic.to_tensor(bool(_unwrap(cond)))
        cond = self._scalar_condition(node.test, cond)
        forwarded = self._loop_yields(node, carried, inits, saved)
        # Names the condition binds first (`while (x := tl.load(p)) > 0:`):
        # their runtime values go to the body and out of the loop too.
        fresh = self._condition_bindings(node, carried)
        self.builder.create("scf.condition", [cond.handle] + [f.handle for f in forwarded] +
                            [v.handle for _, v in fresh if _is_tensor(v)], [])
        self.builder.close_block()
        after_types = types_ + [v.type.to_ir() for _, v in fresh if _is_tensor(v)]
        # after region: the body
        after_args = self.builder.new_block_args(after_types)
        self.scope = dict(saved)
        args = [tl.tensor(arg, init.type) for arg, init in zip(after_args, flat_inits)]
        for name, value in zip(carried, self._rebuilt(crossings, args)):
            self.scope[name] = value
        self._bind_condition_values(fresh, after_args[len(types_):])
        body_block = self.builder.open_block(after_args)
        self.loop_depth += 1
        try:
            self.visit_statements(node.body)
        finally:
            self.loop_depth -= 1
        yields = self._loop_yields(node, carried, inits, saved)
        self.builder.create("scf.yield", [y.handle for y in yields], [])
        self.builder.close_block()
        self.scope = saved
        results = self.builder.create("scf.while", [i.handle for i in flat_inits], after_types,
                                      regions=[ir.Builder.render_region(before_block),
                                               ir.Builder.render_region(body_block)])
        outs = [tl.tensor(handle, init.type) for handle, init in zip(results, flat_inits)]
        for name, value in zip(carried, self._rebuilt(crossings, outs)):
            self.scope[name] = value
        self._bind_condition_values(fresh, results[len(types_):])

    def _condition_bindings(self, node, carried) -> List[Tuple[str, Any]]:
        """(name, value) of the names a while condition binds that the loop
        does not carry, as the condition left them: scalar tensors (sent on
        through scf.condition) or compile-time values (the same every time)."""
        fresh = []
        for name in self._assigned_names([ast.Expr(node.test)]):
            if name in carried:
                continue
            value = self.scope[name]
            if not (_is_tensor(value) or isinstance(value, tl.constexpr)):
                raise self.error(node.test, f"'{name}', bound in the loop's condition, holds a "
                                            f"{type(value).__name__}: only tensors and compile-time values can "
                                            "leave a while condition")
            fresh.append((name, value))
        return fresh

    def _bind_condition_values(self, fresh, handles):
        """Binds the names of _condition_bindings to `handles` (the tensors,
        in order) or to their compile-time values."""
        handles = iter(handles)
        for name, value in fresh:
            self.scope[name] = tl.tensor(next(handles), value.type) if _is_tensor(value) else value

    # ---- expressions -------------------------------------------------------------
    def _lookup(self, name: str, node):
        if name in self.scope:
            return self.scope[name]
        value = self.fn.lookup_free_name(name, _ABSENT)
        if value is not _ABSENT:
            if isinstance(value, (bool, int, float)) and not isinstance(value, tl.constexpr):
                # A plain number is a compile-time value only where it says so
                # (Triton's rule): a global annotated `X: tl.constexpr = 4`,
                # or any global or closure number under
                # TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1.
                if knobs.compilation.allow_non_constexpr_globals:  # (Triton's knob: globals and closures)
                    return tl.constexpr(value)
                if self.fn.is_global_name(name):
                    if self.fn.global_annotated_constexpr(name):
                        return tl.constexpr(value)
                    raise self.error(node, f"cannot use global variable '{name}' (a {type(value).__name__}) in "
                                           f"a @jit function: make it a constexpr, e.g. `{name} = "
                                           f"tl.constexpr({value!r})` or `{name}: tl.constexpr = {value!r}`")
                raise self.error(node, f"{name} is not defined in the @jit function: a variable of an enclosing "
                                       f"function is read only if it is a constexpr, e.g. `{name} = "
                                       f"tl.constexpr({value!r})`")
            return value
        if name in PYTHON_BUILTINS:
            return getattr(builtins, name)
        raise self.error(node, f"{name} is not defined")

    def visit_NamedExpr(self, node):
        """`(name := value)`: binds `name` as an assignment would, and is the value."""
        value = self.visit(node.value)
        self._assign_target(node.target, value, node)
        return value

    def visit_Name(self, node):
        return self._lookup(node.id, node)

    def visit_Constant(self, node):
        return tl.constexpr(node.value)

    def visit_JoinedStr(self, node):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                v = self.visit(value.value)
                if _is_tensor(v):
                    raise self.error(value, "f-strings can only format constexpr values")
                parts.append(format(_unwrap(v), _unwrap(self.visit(value.format_spec)) if value.format_spec else ""))
        return tl.constexpr("".join(parts))

    def visit_FormattedValue(self, node):
        raise self.error(node, "unsupported f-string")

    def visit_ListComp(self, node):
        """`[f(v) for v in values]` over a compile-time sequence (a tuple, a
        range of constexprs): unrolled while compiling, giving a tuple.
        Conditions (`if ...`) must be compile-time values."""
        if len(node.generators) != 1 or node.generators[0].is_async:
            raise self.error(node, "only list comprehensions with one `for` are supported in @jit functions")
        generator = node.generators[0]
        iterable = _unwrap(self.visit(generator.iter))
        if _is_tensor(iterable) or not isinstance(iterable, (tuple, range)):
            raise self.error(generator.iter, "a list comprehension in a @jit function iterates over a tuple or a "
                                             "range of compile-time values")
        # The loop target is local to the comprehension; an assignment
        # expression inside it binds in the enclosing scope (Python's rule).
        local = self._assigned_names([ast.Assign(targets=[generator.target], value=generator.iter)])
        saved = {name: self.scope[name] for name in local if name in self.scope}
        out = []
        try:
            for item in iterable:
                self._assign_target(generator.target, _wrap_python(item), node)
                conditions = [self.visit(c) for c in generator.ifs]
                if any(_is_tensor(c) for c in conditions):
                    raise self.error(node, "the condition of a list comprehension must be a compile-time value")
                if all(_unwrap(c) for c in conditions):
                    out.append(self.visit(node.elt))
        finally:
            for name in local:
                self.scope.pop(name, None)
            self.scope.update(saved)
        return tuple(out)

    def visit_Tuple(self, node):
        return tuple(self.visit(e) for e in node.elts)

    def visit_List(self, node):
        # A list literal is a compile-time sequence (e.g. a shape: tl.zeros([BLOCK], ...)).
        if not isinstance(node.ctx, ast.Load):
            raise self.error(node, "lists can only be read in @jit functions")
        return tuple(self.visit(e) for e in node.elts)

    def visit_Attribute(self, node):
        base = self.visit(node.value)
        if isinstance(base, tl.constexpr) and node.attr == "type" and not hasattr(base.value, "type"):
            return base.type  # a compile-time value's type: tl.constexpr_type(value), as in Triton
        if isinstance(base, tl.constexpr) and node.attr == "value":
            return _wrap_python(base.value)  # `x.value` of a constexpr is the value itself (Triton's rule)
        if isinstance(base, tl.constexpr):
            base = base.value
            if isinstance(base, (bool, int, float)) and not hasattr(base, node.attr):
                # a number used as a tensor (`acc = 0; acc = acc.to(tl.int64)`,
                # `value.dtype`): the scalar tensor Triton would have made of it
                base = semantic.to_tensor(base)
        value = getattr(base, node.attr)
        return value if callable(value) else _wrap_python(value)

    def visit_Subscript(self, node):
        base = self.visit(node.value)
        index = self.visit(node.slice)
        if _is_tensor(base):
            return base[index]
        base = _unwrap(base)
        index = _unwrap(index)
        if isinstance(index, tuple):
            index = tuple(_unwrap(i) for i in index)
        if isinstance(base, (int, float)) and _is_dims_index(index):
            # `rows = 0` makes a scalar tensor in Triton, so `rows[:, None]` is a [1, 1] tile
            return semantic.to_tensor(base)[index]
        return _wrap_python(base[index])

    def visit_Slice(self, node):
        lower = _unwrap(self.visit(node.lower)) if node.lower else None
        upper = _unwrap(self.visit(node.upper)) if node.upper else None
        step = _unwrap(self.visit(node.step)) if node.step else None
        return slice(lower, upper, step)

    _BINOPS = {ast.Add: "__add__", ast.Sub: "__sub__", ast.Mult: "__mul__", ast.Div: "__truediv__",
               ast.FloorDiv: "__floordiv__", ast.Mod: "__mod__", ast.Pow: "__pow__", ast.LShift: "__lshift__",
               ast.RShift: "__rshift__", ast.BitAnd: "__and__", ast.BitOr: "__or__", ast.BitXor: "__xor__"}

    def _binary(self, op, lhs, rhs, node):
        if isinstance(lhs, tl.constexpr) and isinstance(rhs, tl.constexpr):
            fn = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
                  ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
                  ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
                  ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor}.get(type(op))
            if fn is None:
                raise self.error(node, f"unsupported operator {type(op).__name__}")
            return tl.constexpr(fn(lhs.value, rhs.value))
        if isinstance(op, ast.MatMult):
            return semantic.dot(lhs, rhs)
        name = self._BINOPS.get(type(op))
        if name is None:
            raise self.error(node, f"unsupported operator {type(op).__name__}")
        if _is_tensor(lhs):
            return getattr(lhs, name)(rhs)
        if _is_tensor(rhs):
            return getattr(rhs, "__r" + name[2:])(lhs)
        return tl.constexpr(getattr(_unwrap(lhs), name)(_unwrap(rhs)))

    def visit_BinOp(self, node):
        return self._binary(node.op, self.visit(node.left), self.visit(node.right), node)

    def visit_UnaryOp(self, node):
        operand = self.visit(node.operand)
        if isinstance(node.op, ast.Not):
            if _is_tensor(operand):
                return semantic.logical_not(operand)
            return tl.constexpr(not _unwrap(operand))
        if not _is_tensor(operand):
            value = _unwrap(operand)
            return tl.constexpr({ast.USub: lambda v: -v, ast.UAdd: lambda v: +v,
                                 ast.Invert: lambda v: ~v}[type(node.op)](value))
        if isinstance(node.op, ast.USub):
            return semantic.neg(operand)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.Invert):
            return semantic.invert(operand)
        raise self.error(node, f"unsupported unary operator {type(node.op).__name__}")

    _CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}

    def visit_Compare(self, node):
        if len(node.ops) != 1:
            raise self.error(node, "chained comparisons are not supported; combine two comparisons with &")
        lhs, rhs = self.visit(node.left), self.visit(node.comparators[0])
        op = node.ops[0]
        if isinstance(op, (ast.Is, ast.IsNot)):
            if _is_tensor(lhs) and _is_tensor(rhs):
                raise self.error(node, "`is` compares compile-time values only")
            # (a runtime value is never a compile-time one: `ptr is not None`
            # holds for a pointer argument, as in Triton)
            same = False if _is_tensor(lhs) or _is_tensor(rhs) else _unwrap(lhs) is _unwrap(rhs)
            return tl.constexpr(same if isinstance(op, ast.Is) else not same)
        if isinstance(op, (ast.In, ast.NotIn)):
            if _is_tensor(lhs) or _is_tensor(rhs):
                raise self.error(node, "`in` works on compile-time values only")
            found = _unwrap(lhs) in tuple(_unwrap(x) for x in _unwrap(rhs))
            return tl.constexpr(found if isinstance(op, ast.In) else not found)
        symbol = self._CMP[type(op)]
        if not _is_tensor(lhs) and not _is_tensor(rhs):
            fn = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
                  ">=": operator.ge}[symbol]
            return tl.constexpr(fn(_unwrap(lhs), _unwrap(rhs)))
        return semantic.compare(symbol, lhs, rhs)

    def visit_BoolOp(self, node):
        is_and = isinstance(node.op, ast.And)
        result = None
        for value_node in node.values:
            value = self.visit(value_node)
            if result is None:
                result = value
            elif not _is_tensor(result) and not _is_tensor(value):
                result = value  # `result` did not decide (see below), so the operand does
            else:
                result = semantic.logical_and(result, value) if is_and else semantic.logical_or(result, value)
            # short-circuit on compile-time values, giving the deciding operand
            # itself as Python does (`(3, 4) or (5, 6)` is (3, 4))
            if not _is_tensor(result):
                if (is_and and not _unwrap(result)) or (not is_and and _unwrap(result)):
                    return result
        return result

    # ---- calls ---------------------------------------------------------------------
    def _call_args(self, node):
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                value = _unwrap(self.visit(a.value))
                if not isinstance(value, tuple):
                    raise self.error(a, "only tuples can be unpacked with *")
                args.extend(value)
            else:
                args.append(self.visit(a))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                raise self.error(k, "**kwargs is not supported in @jit functions")
            kwargs[k.arg] = self.visit(k.value)
        return args, kwargs

    def visit_Call(self, node):
        fn = self.visit(node.func)
        if isinstance(fn, tl.constexpr) and callable(fn.value):
            fn = fn.value
        args, kwargs = self._call_args(node)
        if fn is tl.static_assert:
            return self._static_assert(node, args, kwargs)
        if fn is tl.static_print:
            print(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()})
            return tl.constexpr(None)
        if fn is tl.device_assert:
            if self.state.debug:
                cond = args[0]
                msg = _unwrap(args[1]) if len(args) > 1 else _unwrap(kwargs.get("msg", ""))
                if not _is_tensor(cond):
                    if not _unwrap(cond):
                        raise self.error(node, f"device_assert failed at compile time: {msg}")
                    return tl.constexpr(None)
                semantic.device_assert(cond, str(msg))
            return tl.constexpr(None)
        if isinstance(fn, JITFunction):
            return self.call_jit_function(node, fn, args, kwargs)
        if isinstance(fn, ConstexprFunction):
            # runs in Python on the values of its constexpr arguments; its
            # result is a compile-time value (a tensor argument is passed as
            # it is: tensor operators work in Python while compiling)
            return _wrap_result(fn(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()}))
        if isinstance(fn, functools.partial) and isinstance(fn.func, JITFunction):
            # a tensor method that is a @jit function (x.sigmoid(), x.softmax())
            return self.call_jit_function(node, fn.func, [*fn.args, *args], {**fn.keywords, **kwargs})
        if tl.is_builtin(fn):
            return _wrap_python(fn(*args, **kwargs))
        if isinstance(fn, type) and issubclass(fn, tuple) and hasattr(fn, "_fields"):
            return fn(*args, **kwargs)  # a named tuple of the values as they are (tensors stay tensors)
        if isinstance(fn, type) and issubclass(fn, (tl.constexpr, dtype)):
            return _wrap_python(fn(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()}))
        if fn is builtins.print:
            prefix = " ".join(str(_unwrap(a)) for a in args if not _is_tensor(a))
            semantic.device_print(prefix + " ", [a for a in args if _is_tensor(a)])
            return tl.constexpr(None)
        if fn in (builtins.min, builtins.max) and any(_is_tensor(a) for a in args):
            result = args[0]
            for a in args[1:]:
                result = semantic.minimum(result, a) if fn is builtins.min else semantic.maximum(result, a)
            return result
        if fn is builtins.abs and args and _is_tensor(args[0]):
            return semantic.abs_(args[0])
        if fn is builtins.isinstance and len(args) == 2:
            # a compile-time question about the value's kind (tutorial 06 asks
            # whether an argument is a tl.tensor_descriptor or a pointer)
            return tl.constexpr(isinstance(args[0] if _is_tensor(args[0]) else _unwrap(args[0]), _unwrap(args[1])))
        if isinstance(fn, types.BuiltinFunctionType) or fn in (builtins.range, builtins.int, builtins.float,
                                                                 builtins.bool, builtins.str, builtins.tuple,
                                                                 builtins.zip, builtins.enumerate,
                                                                 builtins.reversed, builtins.list):
            if any(_is_tensor(a) for a in args):
                raise self.error(node, f"{getattr(fn, '__name__', fn)}() works on compile-time values only, "
                                       "not tensors")
            return _wrap_python(fn(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()}))
        if callable(fn) and isinstance(getattr(fn, "__self__", None), tl.tensor_descriptor):
            return _wrap_python(fn(*args, **kwargs))  # desc.load(...), desc.store(...)
        if callable(fn) and getattr(fn, "__self__", None) is not None and _is_tensor(fn.__self__):
            return _wrap_python(fn(*args, **kwargs))
        if callable(fn) and hasattr(fn, "func") and _is_tensor(getattr(fn, "args", (None,))[0]):
            return _wrap_python(fn(*args, **kwargs))  # a tensor method (functools.partial)
        if not callable(fn):
            raise self.error(node, f"'{type(fn).__name__}' object is not callable")
        # Any other Python callable (a plain function, a method of a dtype
        # such as `x.dtype.is_floating`, a class) runs in Python on the
        # arguments as they are (constexprs stay constexprs), and its result
        # is a compile-time value unless it is a tensor (Triton's rule).
        return _wrap_result(fn(*args, **kwargs))

    def _tuple_argument(self, value: tuple, operands: List[tl.tensor]) -> tuple:
        """A tuple passed to a @jit function: its structure with dtypes for
        the tensor elements (appended to `operands`) and constexprs for
        the others."""
        out = []
        for element in value:
            element = _unwrap(element)
            if isinstance(element, tuple):
                out.append(self._tuple_argument(element, operands))
            elif _is_tensor(element):
                operands.append(element)
                out.append(element.type)
            else:
                out.append(tl.constexpr(element))
        return like(_unwrap(value), out)

    def _static_assert(self, node, args, kwargs):
        cond = args[0] if args else kwargs.get("cond")
        msg = _unwrap(args[1]) if len(args) > 1 else _unwrap(kwargs.get("msg", ""))
        if _is_tensor(cond):
            raise self.error(node, "static_assert needs a compile-time condition")
        if not _unwrap(cond):
            raise self.error(node, f"static_assert failed: {msg}" if msg else "static_assert failed",
                             CompileTimeAssertionFailure)
        return tl.constexpr(None)

    def call_jit_function(self, node, fn: JITFunction, args, kwargs):
        """Generates (once) a private function for this specialization and
        calls it.  An error inside `fn` becomes the cause of one at the call."""
        try:
            return self._emit_call(node, fn, args, kwargs)
        except CompilationError as e:
            if getattr(e, "_unwrapped", False) and fn is self.fn and not knobs.compilation.front_end_debugging:
                # a recursion: at the outermost call of the function to itself
                err = self.error(node, e.error_message)
                err._unwrapped = True
                raise err from None
            if (getattr(e, "_raised_by", None) == id(self) or getattr(e, "_unwrapped", False)
                    or knobs.compilation.front_end_debugging):
                raise
            # (the innermost message, once: "in f(): ..." at each level, not "in f(): in g(): ...")
            root = getattr(e, "_root_message", e.error_message)
            err = self.error(node, f"in {fn.__name__}(): {root}")
            err._root_message = root
            raise err from e

    def _emit_call(self, node, fn: JITFunction, args, kwargs):
        try:
            values = fn.bind(args, kwargs)
        except CompilationError as e:
            raise self.error(node, e.error_message) from None
        if any(isinstance(v, tl.tensor_descriptor) and v._leaves is None for v in values):
            # a descriptor made in the kernel is Python-side state (its base,
            # shape and strides), not a list of parameters
            return self._call_inlined(node, fn, values)
        arg_values = []
        call_operands = []
        key_parts = []
        for p, value in zip(fn.params, values):
            # Triton's rule (its call_JitFunction): only tensors (and the
            # tensors inside tuples) are runtime arguments, whatever the
            # parameter's annotation; every other value (a number, a bool,
            # a dtype, None, a string, a @jit function) is a compile-time
            # value of the callee, which is specialized on it.
            if _is_tensor(value):
                if fn.noinline and value.type.is_block():
                    # Triton's rule (its noinline functions stay calls, taking scalars)
                    raise self.error(node, f"Function {fn.__name__} is marked noinline, but was called with "
                                           f"non-scalar argument {p.name}:{value.type}")
                arg_values.append(value.type)
                call_operands.append(value)
                key_parts.append(("t", value.type.to_ir(), str(value.type.scalar)))
                continue
            if isinstance(value, tl.tensor_descriptor):
                arg_values.append(value.type)
                call_operands.extend(value.leaves())
                key_parts.append(("d", value.type.to_ir()))
                continue
            v = _unwrap(value)
            if isinstance(v, tuple):
                # tensors inside the tuple become arguments, the rest compile-time elements
                structure = self._tuple_argument(v, call_operands)
                arg_values.append(structure)
                key_parts.append(("T", _specialization_key(structure, self.state.kept)))
                continue
            arg_values.append(tl.constexpr(v))
            key_parts.append(("c", _specialization_key(v, self.state.kept)))
        key = (id(fn), fn.cache_key, tuple(key_parts))
        if key in self.state.inlined:
            return self._call_inlined(node, fn, values)
        entry = self.state.functions.get(key)
        if entry is None:
            name = self.state.unique_name(fn.__name__, key)
            generator = CodeGenerator(fn, arg_values, self.state, name, is_kernel=False)
            try:
                result_types = generator.generate()
            except _ReturnsDescriptor:
                self.state.inlined.add(key)
                return self._call_inlined(node, fn, values)
            entry = (name, result_types, generator.return_template)
            self.state.functions[key] = entry
        name, result_types, template = entry
        results = self.builder.create("tt.call", [o.handle for o in call_operands],
                                      [t.to_ir() for t in result_types], {"callee": f"@{name}"})
        return _fill_template(template, [tl.tensor(h, t) for h, t in zip(results, result_types)])

    def _call_inlined(self, node, fn: JITFunction, values):
        """Generates `fn`'s body here, in the caller, with the arguments bound
        as they are: the way to return a tensor descriptor (tutorial 06's
        `_maybe_make_tensor_desc`) or to pass one made in the kernel, which
        are Python objects that a function signature cannot carry."""
        # (`noinline` is not honoured here: the code is the same, generated
        # in the caller)
        callee = CodeGenerator(fn, [], self.state, self.function_name, is_kernel=False)
        callee.builder = self.builder
        for p, value in zip(fn.params, values):
            # the values a generated function would receive (_emit_call)
            if not (_is_tensor(value) or isinstance(value, (tl.tensor_descriptor, tl.constexpr))):
                v = _unwrap(value)
                value = tl.constexpr(v) if not isinstance(v, tuple) else v
            callee.scope[p.name] = value
        fdef = fn.parse().body[0]
        previous_caller = semantic.set_combine_caller(callee._call_combine)
        try:
            callee.visit_statements(fdef.body)
        except _Return:
            pass
        finally:
            semantic.set_combine_caller(previous_caller)
        result = callee.return_values
        if result is None:
            return tl.constexpr(None)

        def settle(v):
            # compile-time values stay compile-time (Triton returns a
            # constexpr that every path returns as a constexpr)
            u = _unwrap(v)
            if isinstance(u, tuple):
                return like(u, (settle(e) for e in u))
            return _wrap_python(u) if not isinstance(v, tl.constexpr) else v
        return settle(result)


def generate_ttir(fn: JITFunction, arg_values: Sequence[Any], arg_attrs: Sequence[Dict[str, str]],
                  debug: bool, num_warps: int = 4, arch: int = 90) -> str:
    """The TTIR text of kernel `fn` for the given specialization."""
    state = ModuleState(debug, num_warps, arch)
    name = fn.__name__
    state.names.add(name)
    generator = CodeGenerator(fn, arg_values, state, name, is_kernel=True, arg_attrs=arg_attrs)
    try:
        generator.generate()
    except CompilationError as e:
        if not knobs.compilation.front_end_debugging:
            _hide_compiler_frames(e)
        raise
    return state.module.text()


_COMPILER_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_AST_FILE = os.path.abspath(ast.__file__)  # NodeVisitor.visit: the code generator's too


def _hide_compiler_frames(exc: BaseException) -> None:
    """Leaves the frames of Tritium's compiler package out of the tracebacks
    of `exc` and its causes: what remains is the user's call and, for a
    mistake a language function found, that function's frames."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        kept = []
        tb = exc.__traceback__
        while tb is not None:
            file = os.path.abspath(tb.tb_frame.f_code.co_filename)
            if not file.startswith(_COMPILER_DIR) and file != _AST_FILE:
                kept.append(tb)
            tb = tb.tb_next
        head = None
        for entry in reversed(kept):
            head = types.TracebackType(head, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
        exc.__traceback__ = head
        exc = exc.__cause__
