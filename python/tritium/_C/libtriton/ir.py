"""`triton._C.libtriton.ir`: a context object and load_dialects, what
callers of ASTSource.make_ir create first.  Tritium's make_ir writes TTIR
text and returns a tree with Triton's binding methods
(tritium/compiler/ttir_tree.py), so neither holds MLIR state."""
from ...compiler.ttir_tree import Block, Module as module, Operation as operation, Region, Value as value  # noqa: F401,N813


class context:  # noqa: N801 (Triton's name)
    """An MLIR context in Triton; nothing to hold here."""


def load_dialects(ctx) -> None:
    """Triton loads its dialects into `ctx`; nothing to load here."""
