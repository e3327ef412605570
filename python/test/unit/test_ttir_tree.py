"""ASTSource.make_ir's tree (tritium/compiler/ttir_tree.py), as PyTorch's
Inductor walks it to find which arguments a user-defined kernel writes:
the call forms it uses on the way (triton._C.libtriton.ir, the backend's
hooks, the specialization helpers), and a tree whose ids, blocks, regions
and attributes let a walk trace every store back to the parameter it
writes through, across loops, branches, reductions and calls."""
import inspect
from collections import defaultdict

import tritium as triton
import tritium.language as tl
from tritium._utils import find_paths_if, get_iterable_path
from tritium.backends.compiler import GPUTarget
from tritium.runtime.jit import mangle_type, native_specialize_impl


@triton.jit
def _atomic_helper(p, v):
    tl.atomic_add(p, v)


@triton.jit
def _writes_two_of_four(src_ptr, out_ptr, counter_ptr, table_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for i in range(n):
        acc += tl.load(src_ptr + offs + i)
    if n > 3:
        acc = acc * tl.load(table_ptr + offs)
    _atomic_helper(counter_ptr, tl.sum(acc, 0))
    k = 0
    j = 1
    while k < n:
        k += 2
        j += 1
    tl.store(out_ptr + offs + k + j, acc)


@triton.jit
def _pure_asm(x_ptr, y_ptr):
    x = tl.load(x_ptr + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(y_ptr + tl.arange(0, 128), y)


class _Tensor:
    """What specialization sees of a tensor argument."""
    dtype = "torch.float32"

    def data_ptr(self):
        return 4096


def _make_ir(kernel, args):
    """The calls Inductor makes, in its order, for Triton 3.6."""
    target = GPUTarget("cuda", 90, 32)
    backend = triton.compiler.compiler.make_backend(target)
    options = backend.parse_options({})
    # (Inductor takes the native_specialize_impl path when the older
    # create_specialize_impl is absent, and passes the BaseBackend class)
    assert not hasattr(triton.runtime.jit, "create_specialize_impl")
    from tritium.backends import BaseBackend
    attrvals = [a if p.is_constexpr else native_specialize_impl(BaseBackend, a, p.is_const, not p.do_not_specialize,
                                                                         not p.do_not_specialize_on_alignment)[1]
                for a, p in zip(args.values(), kernel.params)]
    spec = {path: backend.parse_attr(get_iterable_path(attrvals, path))
            for path in find_paths_if(attrvals, lambda _, x: isinstance(x, str))}
    constants = {name: a for name, a in args.items() if not isinstance(a, _Tensor)}
    signature = {name: "constexpr" if kernel.params[i].is_constexpr else mangle_type(a)
                 for i, (name, a) in enumerate(args.items())}
    context = triton._C.libtriton.ir.context()
    triton._C.libtriton.ir.load_dialects(context)
    backend.load_dialects(context)
    src = triton.compiler.compiler.ASTSource(kernel, signature, constants, spec)
    assert len(inspect.signature(src.make_ir).parameters) == 5  # (target, options, codegen_fns, module_map, context)
    assert len(inspect.signature(backend.get_codegen_implementation).parameters) == 1
    module = src.make_ir(target, options, backend.get_codegen_implementation(options), backend.get_module_map(),
                         context)
    assert module.verify()
    return module


def _written_params(module):
    """Per function, the indices of the parameters a store, an atomic or a
    call that writes reaches through the values it is given: a walk of the
    tree of our own, the use Inductor makes of it."""
    defs = {}        # value id -> (op, function)
    params = {}      # function name -> [block argument ids]
    sinks = defaultdict(list)  # function name -> [(op, operand index)]
    order = []

    def visit(op):
        order.append(op)
        for i in range(op.get_num_results()):
            defs[op.get_result(i).id()] = op
        name = op.get_name()
        if name == "tt.func":
            entry = op.get_region(0).blocks[0]
            params[op.get_str_attr("sym_name")] = [entry.get_argument(i).id() for i in range(entry.get_num_arguments())]

    module.walk(visit)
    # which function holds each op: the tt.func whose region encloses its block
    owner = {}
    for op in order:
        if op.get_name() == "tt.func":
            stack = [op.get_region(0)]
            while stack:
                for block in stack.pop().blocks:
                    for inner in block.operations:
                        owner[id(inner)] = op.get_str_attr("sym_name")
                        stack.extend(inner.get_region(i) for i in range(inner.get_num_regions()))
    for op in order:
        if op.get_name() in ("tt.store", "tt.atomic_rmw", "tt.atomic_cas"):
            sinks[owner[id(op)]].append((op, 0))
    written = {}

    def reach(fn_name):
        if fn_name in written:
            return written[fn_name]
        found, stack, seen = set(), [], set()
        for op, i in sinks[fn_name]:
            stack.append(op.get_operand(i).id())
        for op in order:
            if op.get_name() == "tt.call" and owner.get(id(op)) == fn_name:
                callee = op.get_flat_symbol_ref_attr("callee")
                stack.extend(op.get_operand(i).id() for i in reach(callee))
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen.add(v)
            if v in params[fn_name]:
                found.add(params[fn_name].index(v))
            elif v in defs and defs[v].get_name() != "tt.load":
                stack.extend(defs[v].get_operand(i).id() for i in range(defs[v].get_num_operands()))
            else:  # a loop-carried block argument: what the loop's operands give it
                for op in order:
                    if op.get_name() == "scf.for" and any(v == b.get_argument(j).id() for b in op.get_region(0).blocks
                                                          for j in range(b.get_num_arguments())):
                        stack.extend(op.get_operand(i).id() for i in range(op.get_num_operands()))
        written[fn_name] = sorted(found)
        return written[fn_name]

    return {name: reach(name) for name in params}


def test_make_ir_tree_traces_stores_to_their_parameters():
    args = {"src_ptr": _Tensor(), "out_ptr": _Tensor(), "counter_ptr": _Tensor(), "table_ptr": _Tensor(), "n": 7,
            "BLOCK": 128}
    module = _make_ir(_writes_two_of_four, args)
    functions = module.body.operations
    # the kernel's function first (Inductor takes the first as the kernel), its callees after
    assert functions[0].get_str_attr("sym_name") == "_writes_two_of_four"
    names = [f.get_str_attr("sym_name") for f in functions]
    assert any(n.startswith("_atomic_helper") for n in names)
    # runtime parameters only: the scalar n is a constant, as Inductor passes it
    assert functions[0].get_region(0).blocks[0].get_num_arguments() == 4
    written = _written_params(module)
    assert written["_writes_two_of_four"] == [1, 2]  # out_ptr, and counter_ptr through the call
    helper = next(n for n in names if n.startswith("_atomic_helper"))
    assert written[helper] == [0]


def test_walk_is_post_order_with_ids_blocks_and_regions():
    args = {"src_ptr": _Tensor(), "out_ptr": _Tensor(), "counter_ptr": _Tensor(), "table_ptr": _Tensor(), "n": 7,
            "BLOCK": 128}
    module = _make_ir(_writes_two_of_four, args)
    seen, defined = set(), set()
    kinds = defaultdict(int)

    def visit(op):
        for i in range(op.get_num_regions()):
            region = op.get_region(i)
            for block in region.blocks:
                assert block.get_parent() is region
                for inner in block.operations:
                    assert id(inner) in seen  # regions before their op
                    assert inner.get_block() is block
        seen.add(id(op))
        kinds[op.get_name()] += 1
        for i in range(op.get_num_results()):
            assert op.get_result(i).id() not in defined
            defined.add(op.get_result(i).id())

    module.walk(visit)
    assert kinds["builtin.module"] == 1 and kinds["scf.for"] == 1 and kinds["scf.while"] == 1
    assert kinds["tt.reduce"] == 1 and kinds["tt.call"] >= 2  # the helper, and the reduction's combine
    while_op = []
    module.walk(lambda op: while_op.append(op) if op.get_name() == "scf.while" else None)
    assert while_op[0].get_num_regions() == 2
    # two results (`%N:2`, used as `%N#0`, `%N#1`), each an operand of a later op
    results = {while_op[0].get_result(i).id() for i in range(while_op[0].get_num_results())}
    assert len(results) == 2
    used = set()
    module.walk(lambda op: used.update(op.get_operand(i).id() for i in range(op.get_num_operands())))
    assert results <= used
    assert module.get_block() is None and "tt.func" in str(module)


def test_inline_asm_purity():
    module = _make_ir(_pure_asm, {"x_ptr": _Tensor(), "y_ptr": _Tensor()})
    asm = []
    module.walk(lambda op: asm.append(op) if op.get_name() == "tt.elementwise_inline_asm" else None)
    assert len(asm) == 1 and asm[0].get_bool_attr("pure") is True


def test_utils_paths():
    values = [1, ("D", ("", 3)), "x"]
    paths = find_paths_if(values, lambda _, v: isinstance(v, str))
    assert paths == [(1, 0), (1, 1, 0), (2,)]
    assert [get_iterable_path(values, p) for p in paths] == ["D", "", "x"]
