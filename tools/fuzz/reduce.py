"""Delta debugging of a kernel that Tritium gets wrong: shrinks the module's
Python AST while a predicate ("still fails") holds, so that a disagreement
found by differential.py ends as a minimal kernel to keep as a regression
test.

Algorithm: greedy reduction to a fixpoint (ddmin's one-element complements,
which is what single statements and expressions need).  Each round lists
every candidate edit of the current tree, largest first:
  1. drop one statement of a function body (`pass` where the body empties);
  2. replace an `if` by its body or by its `else`;
  3. replace an expression by one of its operands: a binary operation by
     either side, a unary one by its operand, a call by one of its
     positional arguments (tl.where(c, a, b) -> a or b) or a method call by
     its receiver (x.to(tl.float16) -> x), a conditional expression by
     either branch;
and tries them in order; the first candidate for which the predicate still
holds becomes the current program and the round starts over.  A round in
which no candidate holds ends the reduction.  Addressing is never edited:
the pointer and mask arguments of loads, stores and atomics, and the
assignments they depend on, stay as generated (`_address_nodes`).  Candidates that do not
compile under the other compiler simply fail the predicate (see
`differential_predicate`), so the result stays a valid Triton program.

Usage: python tools/fuzz/reduce.py SEED [--against tritium-O0]   (on the
GPU machine, Triton installed) prints the minimal kernel of a generated
program Tritium disagrees with Triton on (or with itself assembled by
ptxas -O0: a ptxas miscompile).
"""
import ast
import copy
import os
import sys
from typing import Callable, Iterator, List

_STATEMENT_LISTS = ("body", "orelse")


def _function_bodies(tree: ast.Module) -> Iterator[list]:
    """Every statement list inside a function (the module's own imports and
    decorators stay)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.For, ast.While, ast.If, ast.With)):
            for field in _STATEMENT_LISTS:
                stmts = getattr(node, field, None)
                if stmts:
                    yield stmts


def _count_nodes(tree: ast.AST) -> int:
    return sum(1 for _ in ast.walk(tree))


_MEMORY_OPS = ("load", "store", "atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or",
               "atomic_xor", "atomic_xchg", "atomic_cas")


def _address_nodes(tree: ast.Module) -> set:
    """The nodes the reduction leaves alone: the pointer and mask arguments
    of every tl.load / tl.store / atomic, and every assignment the names in
    them depend on (transitively).  Each program keeps writing the elements
    it was generated to write; otherwise an edit could make programs race
    to one address, whose value differs between compilers by chance."""
    roots, names = [], set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "tl"
                and node.func.attr in _MEMORY_OPS):
            roots += node.args[:1] + [k.value for k in node.keywords if k.arg == "mask"]
    for root in roots:
        names |= {n.id for n in ast.walk(root) if isinstance(n, ast.Name)}
    assignments = [n for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))]
    kept = set()
    changed = True
    while changed:
        changed = False
        for a in assignments:
            targets = a.targets if isinstance(a, ast.Assign) else [a.target]
            defined = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            if id(a) not in kept and defined & names:
                kept.add(id(a))
                names |= {n.id for n in ast.walk(a.value) if isinstance(n, ast.Name)}
                changed = True
    protected = {id(n) for root in roots for n in ast.walk(root)}
    for a in assignments:
        if id(a) in kept:
            protected |= {id(n) for n in ast.walk(a)}
    return protected


def _statement_edits(tree: ast.Module) -> Iterator[ast.Module]:
    """Trees with one statement dropped, or one `if` replaced by a branch."""
    lists = list(_function_bodies(tree))
    protected = _address_nodes(tree)
    for li, stmts in enumerate(lists):
        for si, stmt in enumerate(stmts):
            if isinstance(stmt, ast.FunctionDef) or id(stmt) in protected:
                continue  # functions stay (their statements go one by one), and addressing
            edited = copy.deepcopy(tree)
            target = list(_function_bodies(edited))[li]
            del target[si]
            if not target:
                target.append(ast.Pass())
            yield edited
            if isinstance(stmt, ast.If):
                for branch in ("body", "orelse"):
                    if getattr(stmt, branch):
                        edited = copy.deepcopy(tree)
                        target = list(_function_bodies(edited))[li]
                        target[si:si + 1] = getattr(target[si], branch)
                        yield edited


def _operands(node: ast.expr) -> List[ast.expr]:
    """The subexpressions that may stand in for `node`."""
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.IfExp):
        return [node.body, node.orelse]
    if isinstance(node, ast.Call):
        out = [a for a in node.args if not isinstance(a, ast.Starred)]
        if isinstance(node.func, ast.Attribute) and not (isinstance(node.func.value, ast.Name)
                                                          and node.func.value.id == "tl"):
            out.append(node.func.value)  # x.to(...) -> x
        return out
    return []


class _Replace(ast.NodeTransformer):
    """Replaces the `index`-th expression (counted depth-first, parents
    before children) by its `choice`-th operand."""

    def __init__(self, index: int, choice: int):
        self.index, self.choice, self.seen = index, choice, -1

    def visit(self, node):
        if isinstance(node, ast.expr):
            self.seen += 1
            if self.seen == self.index:
                return copy.deepcopy(_operands(node)[self.choice])
        return self.generic_visit(node)


def _expression_edits(tree: ast.Module) -> Iterator[ast.Module]:
    """Trees with one expression inside a function replaced by an operand,
    the largest expressions first."""
    order = []
    counter = _Replace(-1, 0)
    protected = _address_nodes(tree)

    def walk(node, inside):
        if isinstance(node, ast.expr):
            counter.seen += 1
            if inside and id(node) not in protected:
                for choice in range(len(_operands(node))):
                    order.append((_count_nodes(node), counter.seen, choice))
        for child in ast.iter_child_nodes(node):
            # a function's statements, not its decorators or parameter annotations
            in_body = isinstance(node, ast.FunctionDef) and child in node.body
            walk(child, inside or in_body)
    walk(tree, False)
    for _, index, choice in sorted(order, key=lambda t: -t[0]):
        edited = _Replace(index, choice).visit(copy.deepcopy(tree))
        yield ast.fix_missing_locations(edited)


def candidates(source: str) -> Iterator[str]:
    """Every one-edit reduction of `source`, largest first (texts that parse)."""
    tree = ast.parse(source)
    seen = {source}
    for edited in list(_statement_edits(tree)) + list(_expression_edits(tree)):
        text = ast.unparse(edited) + "\n"
        if text not in seen:
            seen.add(text)
            yield text


def reduce_source(source: str, still_fails: Callable[[str], bool], max_tries: int = 2000) -> str:
    """The smallest program reachable from `source` by the edits above for
    which `still_fails` holds (`source` itself must fail)."""
    current = ast.unparse(ast.parse(source)) + "\n"
    tries = 0
    progress = True
    while progress and tries < max_tries:
        progress = False
        for candidate in candidates(current):
            tries += 1
            if still_fails(candidate):
                current, progress = candidate, True
                break
            if tries >= max_tries:
                break
    return current


def differential_predicate(program, workdir: str, against: str = "triton") -> Callable[[str], bool]:
    """"Tritium disagrees with `against` (Triton, or Tritium with ptxas -O0
    for a ptxas miscompile) on `program`'s inputs, the way it does
    on the program itself", for a kernel text standing in for the
    program's (needs a GPU and Triton).  The way is kept: when Tritium's
    outputs differ, a candidate Tritium rejects is not a failure (or the
    reduction would slide to any kernel Tritium rejects), and the other way
    round; a candidate Triton cannot compile or run never is, nor one whose
    outputs change from one run to the next (programs racing to one
    address: their "disagreement" is chance)."""
    import numpy as np

    import differential

    arrays = differential.inputs_for(program, np.random.default_rng(program.seed))
    counter = [0]

    def outputs(text: str, compiler: str):
        """The outputs of two runs, or None when they differ."""
        counter[0] += 1
        variant = dict(vars(program))
        variant.update(source=text, seed=f"{program.seed}_r{counter[0]}")
        candidate = type(program)(**variant)
        kernel = differential.load(candidate, compiler, workdir)
        first = differential.run(candidate, kernel, arrays, compiler)
        return first if differential.bit_identical(first, differential.run(candidate, kernel, arrays, compiler)) \
            else None

    def outcome(text: str) -> str:
        try:
            theirs = outputs(text, against)
        except Exception:  # noqa: BLE001 - not a valid program any more
            return "invalid"
        if theirs is None:
            return "invalid"
        try:
            ours = outputs(text, "tritium")
        except Exception:  # noqa: BLE001 - Tritium rejects what Triton runs
            return "raises"
        if ours is None:
            return "invalid"
        return "agree" if differential.agrees(program, ours, theirs) else "differs"

    original = outcome(program.source)

    def still_fails(text: str) -> bool:
        return original in ("raises", "differs") and outcome(text) == original

    return still_fails


def main(argv=None) -> int:
    import argparse
    import tempfile

    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    import differential  # noqa: F401 - sets up paths and caches
    from kernel_generator import generate

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("--against", choices=["triton", "tritium-O0"], default="triton",
                        help="the other compiler: Triton, or Tritium with ptxas -O0 (a ptxas miscompile)")
    args = parser.parse_args(argv)
    program = generate(args.seed)
    still_fails = differential_predicate(program, tempfile.mkdtemp(prefix="tritium-reduce-"), args.against)
    if not still_fails(program.source):
        print(f"seed {args.seed}: Tritium and {args.against} agree; nothing to reduce")
        return 0
    reduced = reduce_source(program.source, still_fails)
    print(f"# seed {args.seed}: minimal kernel on which Tritium disagrees with {args.against} "
          f"(grid {program.grid}, constexprs {program.constexprs}, num_warps {program.num_warps}, num_stages {program.num_stages})")
    print(reduced)
    return 1


if __name__ == "__main__":
    sys.exit(main())
