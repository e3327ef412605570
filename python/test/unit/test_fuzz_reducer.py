"""The delta-debugging reducer of tools/fuzz/reduce.py, with stand-in
predicates (the real one runs both compilers on the GPU): it shrinks a
generated kernel to the few lines that keep the predicate true, never
touches decorators, signatures or addressing (the pointers and masks of
loads and stores and what they depend on), and leaves a program that
parses."""
import ast
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools", "fuzz"))

from kernel_generator import generate  # noqa: E402
from reduce import candidates, reduce_source  # noqa: E402


def _seed_with(text):
    return next(s for s in range(1000) if text in generate(s).source and "def helper" not in generate(s).source)


def test_reduces_to_the_statement_and_expression_that_matter():
    seed = _seed_with("tl.sin(")
    source = generate(seed).source
    calls = []

    def still_fails(text):
        calls.append(text)
        return "tl.sin(" in text and "tl.store(" in text

    reduced = reduce_source(source, still_fails)
    tree = ast.parse(reduced)
    kernel = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    assert ast.unparse(kernel.decorator_list[0]) == "triton.jit"
    assert [a.arg for a in kernel.args.args] == [a.arg for a in next(
        n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)).args.args]
    # the addressing stays as generated; of the rest only the store is left, holding the sine
    assert [ast.unparse(s) for s in kernel.body[:3]] == ["pid = tl.program_id(0)",
                                                          "offs = pid * BLOCK + tl.arange(0, BLOCK)",
                                                          "mask = offs < n"]
    assert len(kernel.body) == 4
    store = ast.unparse(kernel.body[3])
    assert store.startswith("tl.store(out_ptr + offs, ") and store.endswith(", mask=mask)") and "tl.sin(" in store
    assert len(reduced) < len(source) * 0.7
    # and no smaller one-edit candidate keeps the predicate
    assert not any(still_fails(c) for c in candidates(reduced))


def test_a_predicate_that_needs_everything_keeps_everything():
    source = generate(_seed_with("tl.where(")).source
    original = ast.unparse(ast.parse(source)) + "\n"
    assert reduce_source(source, lambda text: text == original) == original


def test_if_statements_collapse_to_a_branch():
    source = ("import tritium as triton\nimport tritium.language as tl\n\n@triton.jit\n"
              "def kernel(x_ptr, FLAG: tl.constexpr):\n    v = tl.load(x_ptr)\n"
              "    if FLAG:\n        v = v + 1\n    else:\n        v = tl.abs(v) * 3\n    tl.store(x_ptr, v)\n")
    reduced = reduce_source(source, lambda text: "tl.abs" in text)
    assert "if FLAG" not in reduced and reduced.strip().endswith("tl.abs(v)")
