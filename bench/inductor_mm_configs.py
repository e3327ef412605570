"""Inductor's mm configs (PyTorch 2.11's mm list: BLOCK_M, BLOCK_N,
BLOCK_K, num_stages, num_warps; GROUP_M 8) and the cases the benches time
its mm template on, as plain data (no torch import): bench_inductor_mm.py
and bench_corpus.py share them."""

CONFIGS = [(32, 32, 16, 1, 2), (32, 32, 128, 2, 4), (32, 64, 32, 5, 8), (64, 32, 32, 5, 8), (64, 32, 128, 5, 4),
           (64, 64, 16, 2, 4), (64, 64, 32, 2, 4), (64, 64, 64, 3, 8), (64, 64, 128, 5, 4), (64, 128, 32, 3, 4),
           (64, 128, 32, 4, 8), (64, 128, 64, 3, 4), (64, 128, 128, 4, 4), (128, 64, 32, 3, 4), (128, 64, 32, 4, 8),
           (128, 128, 32, 2, 8), (128, 128, 32, 3, 4), (128, 128, 64, 3, 4), (128, 128, 64, 5, 8),
           (128, 128, 128, 4, 8)]

# case: (input dtype name, allow_tf32, M = N = K)
CASE_SHAPES = {"fp32": ("fp32", False, 2048), "tf32": ("fp32", True, 4096), "bf16": ("bf16", False, 4096)}
