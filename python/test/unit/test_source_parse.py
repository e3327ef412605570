"""Kernel source is parsed with the garbage collector held off, one parse at
a time, on the CPython versions whose AST constructor shares its depth
counter between threads (tritium/source_parse.py); elsewhere it is plain
ast.parse.  Either way the tree is ast.parse's, and the collector is left
as it was found."""
import ast
import gc

import pytest

from tritium import source_parse

SOURCE = "def kernel(x_ptr, n, BLOCK: tl.constexpr):\n    return tl.load(x_ptr + tl.arange(0, BLOCK))\n"


@pytest.mark.parametrize("collecting", [True, False])
@pytest.mark.parametrize("affected", [True, False])
def test_parse_holds_the_collector_off_where_cpython_needs_it(monkeypatch, collecting, affected):
    seen = []
    parse = ast.parse

    def spy(source):
        seen.append((gc.isenabled(), source_parse._lock.locked()))
        return parse(source)

    monkeypatch.setattr(source_parse, "AFFECTED", affected)
    monkeypatch.setattr(source_parse.ast, "parse", spy)
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        tree = source_parse.parse_source(SOURCE)
        assert gc.isenabled() == collecting
    finally:
        (gc.enable if was else gc.disable)()
    assert ast.dump(tree) == ast.dump(parse(SOURCE))
    assert seen == [(False, True)] if affected else seen == [(collecting, False)]

