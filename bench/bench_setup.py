"""Imported first by every side-by-side benchmark of bench/, before torch and
the compilers: puts this checkout's python/ first on the path (the tritium
under test), gives both compilers fresh caches (so that first calls really
compile), and imports Triton when it is installed.

    from bench_setup import HAVE_TRITON, QUICK, TritonDescriptor, tl, triton
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
os.environ["TRITIUM_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritium-cache-")
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-cache-")

# `--quick`: one round, smaller sizes where a bench has them (a smoke run).
QUICK = "--quick" in sys.argv

try:
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor as TritonDescriptor
    HAVE_TRITON = True
except ImportError:
    triton = tl = TritonDescriptor = None
    HAVE_TRITON = False
