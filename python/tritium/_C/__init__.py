"""`triton._C`: in Triton the native extension; here the few names of it
that code outside Triton reaches for, in Python (libtriton.ir's context and
load_dialects, which PyTorch's Inductor calls before ASTSource.make_ir)."""
from . import libtriton  # noqa: F401
