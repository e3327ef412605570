"""Public libraries' Triton kernels, compiled and timed under Tritium and
under Triton, kernel by kernel and config by config.

The libraries are the ones whose tests scripts/library_corpus.sh runs,
fetched into the ignored folder upstream/libraries/ by
scripts/library_corpus_sources.sh (never committed).  A case calls one of a
library's operations the way its users do (a Mamba-2 layer's chunked scan,
forward and backward; its RMSNorm; a gated linear attention's chunked form),
on fixed seeded inputs.  Every kernel launch the operation makes is
recorded (the kernel object, its grid, its arguments, and a copy of its
tensor arguments taken just before it ran); then each recorded launch is
replayed once per config of the kernel's own autotune list, as the
autotuner's pruner (`prune_configs_by`) leaves it for that launch (the
list set to that one config, so nothing is autotuned), and timed.

One process per compiler and library (in turn, within the compiler's
budget), fresh caches, `import triton` answered by Tritium in Tritium's
(scripts/triton_alias), the same code otherwise:
  compile s   the config's first replay (compile, load, launch) in a warm
              process; none for the configs the recording compiled (the
              first of each list that builds, and kernels without a list)
  ms          the lower of two rounds (the case's configs in order, then in
              reverse), each the median of CUDA-event timings with the L2
              flushed before every launch
  check       after the first replay, on the tensor arguments restored from
              the copy: each tensor argument's sum and sum of magnitudes,
              compared between the compilers (1e-3 of the magnitude)

  python3 bench/bench_library_kernels.py [--cases a,b] [--match TEXT]
        [--max-configs N] [--budget-s S] [--json PATH] [--dump DIR]
  python3 bench/bench_library_kernels.py --merge RECORD.json ...

--dump writes each item's build under each compiler (TTGIR, PTX and, with
cuobjdump on PATH, SASS) into DIR/<compiler>/.

Every run writes a record (bench/results/, or TRITIUM_RESULTS_DIR); one of
some cases, of matched items, with dumps, or with items the budget left is
partial.  The whole bench does not fit one GPU call: run the cases in
groups, one call each, and --merge their records into one, which is whole
when the groups cover every case, no item was left by the budget, and all
ran on one GPU model from one commit.

Items: "<case> <kernel>#<launch>", the launch numbered among the distinct
launches of that kernel in the operation (distinct by the arguments' shapes,
dtypes and scalar values); config: the config's kwargs, warps (w) and
stages (s), or "as launched" for a kernel without an autotune list.
--max-configs takes every k-th config of a longer list (the same ones under
both compilers).
"""
import argparse
import inspect
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
# the two compilers' argument sums compared, the geomean and the table cells
# as bench_inductor_kernels.py has them
from bench_inductor_kernels import check_state, fmt, geomean  # noqa: E402
LIBRARIES = os.path.join(REPO, "upstream", "libraries")


# ---------------------------------------------------------------- cases
# Each case: (library folder, setup).  setup(torch) returns the operation, a function of no
# arguments that runs it once.

def _mamba_ssd(torch):
    """Mamba-2's chunked SSD scan (Mamba2-2.7B's layer sizes: 80 heads of 64,
    one group, state 128, chunks of 256), bf16, forward and backward."""
    from mamba_ssm.ops.triton.ssd_combined import mamba_chunk_scan_combined
    batch, seqlen, nheads, headdim, ngroups, dstate, chunk = 2, 4096, 80, 64, 1, 128, 256
    dev, bf16 = "cuda", torch.bfloat16
    x = torch.randn(batch, seqlen, nheads, headdim, device=dev, dtype=bf16, requires_grad=True)
    dt = torch.randn(batch, seqlen, nheads, device=dev, dtype=bf16, requires_grad=True)
    A = (-torch.exp(torch.rand(nheads, device=dev) * math.log(16))).requires_grad_()
    B = torch.randn(batch, seqlen, ngroups, dstate, device=dev, dtype=bf16, requires_grad=True)
    C = torch.randn(batch, seqlen, ngroups, dstate, device=dev, dtype=bf16, requires_grad=True)
    D = torch.ones(nheads, device=dev, requires_grad=True)
    dt_bias = (torch.rand(nheads, device=dev) - 4.0).requires_grad_()
    dout = torch.randn(batch, seqlen, nheads, headdim, device=dev, dtype=bf16)

    def op():
        out = mamba_chunk_scan_combined(x, dt, A, B, C, chunk, D=D, dt_bias=dt_bias, dt_softplus=True)
        out.backward(dout)
    return op


def _mamba_rms_norm(torch):
    """The RMSNorm of Mamba's blocks (mamba_ssm/ops/triton/layer_norm.py):
    residual added first and kept in fp32, 16384 rows of 2560, bf16,
    forward and backward."""
    from mamba_ssm.ops.triton.layer_norm import rms_norm_fn
    rows, width, dev = 16384, 2560, "cuda"
    x = torch.randn(rows, width, device=dev, dtype=torch.bfloat16, requires_grad=True)
    residual = torch.randn(rows, width, device=dev, dtype=torch.float32, requires_grad=True)
    weight = torch.randn(width, device=dev, requires_grad=True)
    dout = torch.randn(rows, width, device=dev, dtype=torch.bfloat16)

    def op():
        out, res = rms_norm_fn(x, weight, None, residual=residual, prenorm=True, residual_in_fp32=True, eps=1e-5)
        torch.autograd.backward([out, res], [dout, torch.zeros_like(res)])
    return op


def _mamba_gated_norm(torch):
    """Mamba-2's gated RMSNorm (layernorm_gated.py: norm(x) * silu(z)),
    8192 rows of 5120, bf16, forward and backward."""
    from mamba_ssm.ops.triton.layernorm_gated import rmsnorm_fn
    rows, width, dev = 8192, 5120, "cuda"
    x = torch.randn(rows, width, device=dev, dtype=torch.bfloat16, requires_grad=True)
    z = torch.randn(rows, width, device=dev, dtype=torch.bfloat16, requires_grad=True)
    weight = torch.randn(width, device=dev, requires_grad=True)
    dout = torch.randn(rows, width, device=dev, dtype=torch.bfloat16)

    def op():
        rmsnorm_fn(x, weight, None, z=z, eps=1e-5, group_size=width, norm_before_gate=False).backward(dout)
    return op


def _mamba_state_update(torch):
    """Mamba-2's one-token state update at decoding (selective_state_update:
    80 heads of 64, state 128, batch 64), bf16."""
    from mamba_ssm.ops.triton.selective_state_update import selective_state_update
    batch, nheads, headdim, dstate, dev = 64, 80, 64, 128, "cuda"
    state = torch.randn(batch, nheads, headdim, dstate, device=dev, dtype=torch.bfloat16)
    x = torch.randn(batch, nheads, headdim, device=dev, dtype=torch.bfloat16)
    dt = torch.randn(batch, nheads, device=dev, dtype=torch.bfloat16)[..., None].expand(-1, -1, headdim)
    dt_bias = (torch.rand(nheads, device=dev) - 4.0)[:, None].expand(-1, headdim)
    A = (-torch.rand(nheads, device=dev) - 1.0)[:, None, None].expand(-1, headdim, dstate)
    B = torch.randn(batch, 1, dstate, device=dev, dtype=torch.bfloat16)
    C = torch.randn(batch, 1, dstate, device=dev, dtype=torch.bfloat16)
    D = torch.randn(nheads, device=dev)[:, None].expand(-1, headdim)
    z = torch.randn_like(x)

    def op():
        selective_state_update(state, x, dt, A, B, C, D=D, z=z, dt_bias=dt_bias, dt_softplus=True)
    return op


def _fla_gla(torch):
    """flash-linear-attention's chunked gated linear attention (chunk_gla),
    B=4 T=2048 H=8 D=128, fp16, forward and backward."""
    import torch.nn.functional as F
    from fla.ops.gla import chunk_gla
    B, T, H, D, dev = 4, 2048, 8, 128, "cuda"
    q, k, v = (torch.rand(B, T, H, D, device=dev, dtype=torch.float16, requires_grad=True) for _ in range(3))
    g = F.logsigmoid(torch.rand(B, T, H, D, device=dev, dtype=torch.float16)).requires_grad_()
    do = torch.randn(B, T, H, D, device=dev, dtype=torch.float16)

    def op():
        out, _ = chunk_gla(q=q, k=k, v=v, g=g)
        out.backward(do)
    return op


def _fla_delta_rule(torch):
    """flash-linear-attention's chunked delta rule (chunk_delta_rule, q and k
    L2-normalized in the kernel), B=4 T=2048 H=8 D=128, bf16, forward and
    backward."""
    from fla.ops.delta_rule import chunk_delta_rule
    B, T, H, D, dev = 4, 2048, 8, 128, "cuda"
    q, k, v = (torch.randn(B, T, H, D, device=dev, dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
    beta = torch.rand(B, T, H, device=dev, dtype=torch.bfloat16).sigmoid().requires_grad_()
    do = torch.randn(B, T, H, D, device=dev, dtype=torch.bfloat16)

    def op():
        out, _ = chunk_delta_rule(q=q, k=k, v=v, beta=beta, scale=D ** -0.5, use_qk_l2norm_in_kernel=True)
        out.backward(do)
    return op


def _fla_gdn2_recurrent(torch):
    """flash-linear-attention's token-by-token Gated DeltaNet-2
    (fused_recurrent_gdn2: a loop over time with tl.range(..., num_stages=2)
    and no dot), B=4 T=1024 H=16 D=128, bf16, forward (inference only)."""
    import torch.nn.functional as F
    from fla.ops.gdn2 import fused_recurrent_gdn2
    B, T, H, D, dev = 4, 1024, 16, 128, "cuda"
    q, k, v = (torch.randn(B, T, H, D, device=dev, dtype=torch.bfloat16) for _ in range(3))
    k = F.normalize(k.float(), dim=-1).to(torch.bfloat16)
    g = F.logsigmoid(torch.randn(B, T, H, D, device=dev)).to(torch.bfloat16)
    b, w = (torch.rand(B, T, H, D, device=dev, dtype=torch.bfloat16) for _ in range(2))

    def op():
        fused_recurrent_gdn2(q=q, k=k, v=v, g=g, b=b, w=w)
    return op


def _gemlite(torch, batch, matmul_type):
    """gemlite's 4-bit weight-only quantized linear layer (groups of 128,
    asymmetric, 4096 x 4096, fp16 activations) on `batch` rows through its
    `matmul_type` kernel, with gemlite's default ("fast") autotune lists."""
    from gemlite.core import GemLiteLinearTriton, TORCH_TO_DTYPE
    features, group, dev, fp16 = 4096, 128, "cuda", torch.float16
    w_q = torch.randint(0, 15, (features, features), device=dev).to(torch.uint8)
    groups = w_q.numel() // group
    scales = torch.rand(groups, 1, device=dev, dtype=fp16) * 0.01 + 0.001
    zeros = torch.full((groups, 1), 7.0, device=dev, dtype=fp16)
    layer = GemLiteLinearTriton(4, group_size=group, in_features=features, out_features=features,
                                input_dtype=TORCH_TO_DTYPE[fp16], output_dtype=TORCH_TO_DTYPE[fp16])
    layer.pack(w_q, scales, zeros, None)
    x = torch.randn(batch, features, device=dev, dtype=fp16) / 10

    def op():
        layer.forward_manual(x, matmul_type=matmul_type)
    return op


def _attorch_layer_norm(torch):
    """attorch's LayerNorm, 8192 rows of 4096, fp32, forward and backward."""
    import attorch
    layer = attorch.LayerNorm(4096)
    x = torch.randn(8192, 4096, device="cuda", requires_grad=True)
    dout = torch.randn(8192, 4096, device="cuda")

    def op():
        layer(x).backward(dout)
    return op


def _attorch_cross_entropy(torch):
    """attorch's CrossEntropyLoss on a language model's logits (4096 tokens,
    32000 classes), fp32, forward and backward."""
    import attorch
    loss = attorch.CrossEntropyLoss()
    logits = torch.randn(4096, 32000, device="cuda", requires_grad=True)
    target = torch.randint(0, 32000, (4096,), device="cuda")

    def op():
        loss(logits, target).backward()
    return op


def _attorch_linear(torch):
    """attorch's Linear with a GELU epilogue, 4096 x 4096 on 4096 rows, fp16,
    forward and backward."""
    import attorch
    layer = attorch.Linear(4096, 4096, act_func="gelu", dtype=torch.float16)
    x = torch.randn(4096, 4096, device="cuda", dtype=torch.float16, requires_grad=True)
    dout = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)

    def op():
        layer(x).backward(dout)
    return op


def _torchao_fp8_blockwise(torch):
    """torchao's blockwise fp8 linear (prototype/blockwise_fp8_training:
    activations quantized with 1x128 scales, weights with 128x128, its
    Triton quantization kernels and fp8 GEMMs), 8192 tokens, 4096 -> 4096,
    bf16, forward and backward."""
    from torchao.prototype.blockwise_fp8_training.linear import fp8_blockwise_mm
    tokens, features, dev, bf16 = 8192, 4096, "cuda", torch.bfloat16
    x = torch.randn(tokens, features, device=dev, dtype=bf16, requires_grad=True)
    w = torch.randn(features, features, device=dev, dtype=bf16, requires_grad=True)
    dout = torch.randn(tokens, features, device=dev, dtype=bf16)

    def op():
        fp8_blockwise_mm.apply(x, w, 128, bf16, True).backward(dout)
    return op


def _xformers_splitk_decoding(torch):
    """xformers' split-K decoding attention (its Triton operator
    triton_splitk.FwOp with the kernel's own autotune list of BLOCK_M,
    BLOCK_N, stages and warps, as its tree-attention test enables it) the way
    its decoder test calls it: 16 sequences of 8192 - 256 i keys padded to
    8192, one query each, 8 key/value heads of 4 query heads, head dim 128,
    bf16.  The operator is applied as memory_efficient_attention_forward
    applies it (the inputs validated and normalized, the operator's support
    checked), without the dispatcher's refusal of every operator of an
    xformers installed without its compiled extension: this one is Triton
    only."""
    from xformers.ops import fmha

    class SplitKAutotuned(fmha.triton_splitk.FwOp):
        AUTOTUNE = True

    sequences, padding, kv_heads, heads, dim, dev = 16, 8192, 8, 4, 128, "cuda"
    kv_shape = (1, sequences * padding, kv_heads, heads, dim)
    k = torch.randn(kv_shape[:3] + (1, dim), device=dev, dtype=torch.bfloat16).expand(kv_shape)
    v = torch.randn(kv_shape[:3] + (1, dim), device=dev, dtype=torch.bfloat16).expand(kv_shape)
    q = torch.randn((1, sequences, kv_heads, heads, dim), device=dev, dtype=torch.bfloat16)
    bias = fmha.attn_bias.BlockDiagonalCausalWithOffsetPaddedKeysMask.from_seqlens(
        q_seqlen=[1] * sequences, kv_seqlen=[padding - 256 * i for i in range(sequences)],
        kv_padding=padding)
    inputs = fmha.Inputs(query=q, key=k, value=v, attn_bias=bias)
    inputs.validate_inputs()
    inputs.normalize_bmhk()
    reasons = [r for r in SplitKAutotuned.not_supported_reasons(inputs)
               if "build with CUDA" not in r]
    if reasons:
        raise RuntimeError("triton_splitk refuses the inputs: " + "; ".join(reasons))

    def op():
        SplitKAutotuned.apply(inputs, needs_gradient=False)
    return op


CASES = {
    "mamba_ssd": ("mamba", _mamba_ssd),
    "mamba_rms_norm": ("mamba", _mamba_rms_norm),
    "mamba_gated_norm": ("mamba", _mamba_gated_norm),
    "mamba_state_update": ("mamba", _mamba_state_update),
    "fla_gla": ("fla", _fla_gla),
    "fla_delta_rule": ("fla", _fla_delta_rule),
    "fla_gdn2_recurrent": ("fla", _fla_gdn2_recurrent),
    "gemlite_gemm": ("gemlite", lambda torch: _gemlite(torch, 1024, "GEMM")),
    "gemlite_gemv": ("gemlite", lambda torch: _gemlite(torch, 1, "GEMV_REVSPLITK")),
    "torchao_fp8_blockwise": ("torchao", _torchao_fp8_blockwise),
    "xformers_splitk_decoding": ("xformers", _xformers_splitk_decoding),
    "attorch_layer_norm": ("attorch", _attorch_layer_norm),
    "attorch_cross_entropy": ("attorch", _attorch_cross_entropy),
    "attorch_linear": ("attorch", _attorch_linear),
}


# ---------------------------------------------------------------- the worker

def config_label(config):
    kwargs = " ".join(f"{k}={v}" for k, v in sorted(config.kwargs.items()))
    return f"{kwargs} w{config.num_warps} s{config.num_stages}".strip()


def time_ms(torch, fn, rep_ms=120.0):
    """Median ms of `fn` over CUDA-event timings, the L2 flushed (a 256 MB
    write) before each launch; the same code under both compilers."""
    flush = torch.empty(64 * 1024 * 1024, dtype=torch.int32, device="cuda")
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        flush.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    estimate = max(start.elapsed_time(end) / 5, 1e-3)
    n = max(5, min(500, int(rep_ms / estimate)))
    for _ in range(min(n, 25)):
        fn()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]
    for s, e in events:
        flush.zero_()
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events)


def _kernel_classes():
    """The classes whose `kernel[grid]` launches are recorded: the JIT
    function, the autotuner and the heuristics wrapper of this process's
    `triton`."""
    import triton
    from triton.runtime.autotuner import Autotuner, Heuristics
    from triton.runtime.jit import JITFunction
    return [JITFunction, Autotuner, Heuristics], triton


def _autotuner_of(kernel):
    """The autotuner a launched object is or wraps (through heuristics), or None."""
    from triton.runtime.autotuner import Autotuner
    seen = 0
    while kernel is not None and seen < 4:
        if isinstance(kernel, Autotuner):
            return kernel
        kernel, seen = getattr(kernel, "fn", None), seen + 1
    return None


def _tensors(torch, args, kwargs):
    return [v for v in list(args) + list(kwargs.values()) if isinstance(v, torch.Tensor)]


def _candidates(tuner, configs, args, kwargs):
    """The configs the autotuner would compare for a launch with `args` and
    `kwargs`: its list after its own pruning (`prune_configs_by`: an early
    pruner may drop, adapt or complete configs for the launch's sizes), or
    the whole list where it prunes nothing."""
    if len(configs) <= 1 or not (getattr(tuner, "early_config_prune", None) or getattr(tuner, "perf_model", None)):
        return list(configs)
    saved = tuner.configs
    try:
        tuner.configs = list(configs)
        tuner.nargs = dict(zip(tuner.arg_names, args))
        return list(tuner.prune_configs(dict(kwargs)))
    except Exception:  # noqa: BLE001 - a pruner that fails here prunes nothing
        return list(configs)
    finally:
        tuner.configs = saved


def _restore(torch, tensors, copies):
    """The tensor arguments as they were before the recorded launch (an
    expanded view, with a stride of 0, is read-only input and stays)."""
    with torch.no_grad():
        for t, saved in zip(tensors, copies):
            if not (t.numel() > 1 and 0 in t.stride()):
                t.copy_(saved)


def _signature(torch, kernel, args, kwargs):
    """What makes two launches of a kernel the same item: its name and its
    arguments' shapes, strides and dtypes, and scalar values."""
    def describe(v):
        if isinstance(v, torch.Tensor):
            return f"{tuple(v.shape)}:{tuple(v.stride())}:{v.dtype}"
        if isinstance(v, (int, float, bool, str)) or v is None:
            return repr(v)
        return type(v).__name__
    return "|".join([_name(kernel)] + [describe(v) for v in args] +
                    [f"{k}={describe(v)}" for k, v in sorted(kwargs.items())])


def _name(kernel):
    """The name of the Python function a launched object wraps (each of
    the JIT function, the autotuner and heuristics holds the next as `fn`;
    Mamba's layer-norm backward stacks five heuristics under its autotuner)."""
    for _ in range(32):
        if inspect.isfunction(kernel):
            return kernel.__name__
        kernel = getattr(kernel, "fn", None)
    return "?"


def record_launches(torch, op, tuners):
    """Runs `op` once with every `kernel[grid](...)` launch recorded:
    [(kernel, grid, args, kwargs, copies of the tensor arguments, the
    configs to replay)], the first launch of each distinct signature.  An
    autotuned kernel runs the first of its candidate configs (_candidates)
    that builds (nothing is autotuned);
    `tuners` receives {id: (autotuner, its whole list, labels of the
    configs compiled meanwhile)}."""
    classes, _ = _kernel_classes()
    launches, seen = [], set()
    originals = {cls: cls.__getitem__ for cls in classes}

    def getitem(self, grid):
        original = next(originals[c] for c in type(self).__mro__ if c in originals)
        launch = original(self, grid)

        def recorder(*args, **kwargs):
            tuner = _autotuner_of(self)
            if tuner is not None and id(tuner) not in tuners:
                tuners[id(tuner)] = (tuner, list(tuner.configs), set())
            configs = [None] if tuner is None else _candidates(tuner, tuners[id(tuner)][1], args, kwargs)
            key = _signature(torch, self, args, kwargs)
            if key not in seen:
                seen.add(key)
                copies = [t.detach().clone() for t in _tensors(torch, args, kwargs)]
                launches.append((self, grid, args, kwargs, copies, configs))
            if tuner is None:
                return launch(*args, **kwargs)
            # the first candidate this compiler builds (a config out of
            # shared memory fails before it launches; autotuning skips it)
            compiled = tuners[id(tuner)][2]
            for i, config in enumerate(configs):
                tuner.configs, tuner.cache = [config], {}
                try:
                    result = launch(*args, **kwargs)
                    compiled.add(config_label(config))
                    return result
                except Exception as e:  # noqa: BLE001
                    if type(e).__name__ != "OutOfResources" or i + 1 == len(configs):
                        raise
        return recorder

    for cls in classes:
        cls.__getitem__ = getitem
    try:
        op()
        torch.cuda.synchronize()
    finally:
        for cls, original in originals.items():
            cls.__getitem__ = original
    return launches


def _jit_function(kernel):
    """The JIT function a launched object is or wraps (through any number of
    autotune and heuristics wrappers)."""
    for _ in range(64):
        if kernel is None or hasattr(kernel, "device_caches"):
            return kernel
        kernel = getattr(kernel, "fn", None)
    return None


def dump(torch, kernel, folder, stem):
    """The newest build of `kernel` (TTGIR, PTX and, with cuobjdump on PATH,
    SASS) into folder/stem.*"""
    import re
    import shutil
    jit = _jit_function(kernel)
    try:
        cache = jit.device_caches[torch.cuda.current_device()][0]
        compiled = list(cache.values())[-1]
    except Exception:  # noqa: BLE001 - a dump is an extra
        return
    os.makedirs(folder, exist_ok=True)
    stem = os.path.join(folder, re.sub(r"[^A-Za-z0-9_.=-]+", "_", stem))
    for key in ("ttgir", "ptx"):
        if compiled.asm.get(key):
            with open(f"{stem}.{key}", "w") as f:
                f.write(compiled.asm[key])
    if compiled.asm.get("cubin") and shutil.which("cuobjdump"):
        with open(f"{stem}.cubin", "wb") as f:
            f.write(compiled.asm["cubin"])
        sass = subprocess.run(["cuobjdump", "-sass", f"{stem}.cubin"], capture_output=True, text=True).stdout
        os.remove(f"{stem}.cubin")
        with open(f"{stem}.sass", "w") as f:
            f.write(f"// registers {getattr(compiled, 'n_regs', '?')}, spills {getattr(compiled, 'n_spills', '?')}\n")
            f.write(sass)


def worker(args):
    """One compiler's process: every case of --cases, one JSON line per
    (case, launch, config) to --out."""
    import torch
    _, triton = _kernel_classes()
    deadline = time.monotonic() + args.budget_s
    out = open(args.out, "a")

    def emit(entry):
        out.write(json.dumps(entry) + "\n")
        out.flush()

    warm = torch.zeros(1024, device="cuda")
    warm.add_(1)
    torch.cuda.synchronize()
    for case in args.cases.split(","):
        library, setup = CASES[case]
        if time.monotonic() > deadline:  # (recording a case compiles its kernels: none after the budget)
            emit({"case": case, "error": "budget spent"})
            continue
        sys.path.insert(0, os.path.join(args.libraries, library))
        try:
            torch.manual_seed(0)
            op = setup(torch)
            tuners = {}
            launches = record_launches(torch, op, tuners)
        except Exception as e:  # noqa: BLE001 - recorded per case
            emit({"case": case, "error": f"{type(e).__name__}: {str(e)[:400]}"})
            continue
        counts, items = {}, []
        for kernel, grid, call_args, call_kwargs, copies, configs in launches:
            name = _name(kernel)
            counts[name] = counts.get(name, 0) + 1
            tuner = _autotuner_of(kernel)
            if args.max_configs and len(configs) > args.max_configs:
                step = math.ceil(len(configs) / args.max_configs)
                configs = configs[::step]
            for config in configs:
                items.append((f"{case} {name}#{counts[name]}", kernel, tuner, config, grid, call_args,
                              call_kwargs, copies))
        if args.match:
            items = [it for it in items if any(m in f"{it[0]} [{config_label(it[3]) if it[3] else ''}]"
                                               for m in args.match)]
        timed = []
        for work, kernel, tuner, config, grid, call_args, call_kwargs, copies in items:
            label = config_label(config) if config is not None else "as launched"
            entry = {"work": work, "config": label}
            if time.monotonic() > deadline:
                entry["error"] = "budget spent"
                emit(entry)
                continue
            try:
                if tuner is not None:
                    tuner.configs, tuner.cache = [config], {}
                _restore(torch, _tensors(torch, call_args, call_kwargs), copies)
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                kernel[grid](*call_args, **call_kwargs)
                torch.cuda.synchronize()
                if not (tuner is None or label in tuners[id(tuner)][2]):  # (those compiled while recording)
                    entry["compile_s"] = round(time.perf_counter() - t0, 4)
                with torch.no_grad():
                    entry["check"] = [[float(t.double().sum()), float(t.double().abs().sum())]
                                      for t in _tensors(torch, call_args, call_kwargs)]
                if args.dump:
                    dump(torch, kernel, args.dump, f"{work} {label}")
                launch = kernel[grid]
                fn = (lambda launch=launch, a=call_args, k=call_kwargs: launch(*a, **k))
                entry["ms"] = time_ms(torch, fn)
                timed.append((entry, tuner, config, fn))
            except Exception as e:  # noqa: BLE001 - a config one compiler cannot build is a row
                entry["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"
                emit(entry)
        for entry, tuner, config, fn in reversed(timed):  # the second round, in reverse
            try:
                if tuner is not None:
                    tuner.configs, tuner.cache = [config], {}
                entry["ms"] = round(min(entry["ms"], time_ms(torch, fn)), 5)
            except Exception as e:  # noqa: BLE001
                entry["error"] = f"{type(e).__name__}: {str(e)[:300]}"
            emit(entry)
        for tuner, configs, _ in tuners.values():
            tuner.configs, tuner.cache = configs, {}
        del launches, items, timed
        torch.cuda.empty_cache()
    out.close()
    return 0


# ---------------------------------------------------------------- the parent

def backend_env(backend, root):
    import bench_torch_compile
    return bench_torch_compile.case_env(backend, root)


def run_backend(backend, args, cache_root=None):
    """{(item, config): entry} of the worker processes under `backend`, one
    per library (a library on the path can change what another imports: fla's
    case after torchao's failed on torchao's version string), in turn within
    --budget-s, with fresh caches, or those under
    `cache_root` (kept by the caller from run to run: a later run finds the
    kernels compiled)."""
    root = tempfile.mkdtemp(prefix=f"libkernels-{backend}-")
    out_path = os.path.join(root, "results.jsonl")
    by_library = {}
    for case in args.cases.split(","):
        by_library.setdefault(CASES[case][0], []).append(case)
    deadline = time.monotonic() + args.budget_s
    tails = []
    for cases in by_library.values():
        left = deadline - time.monotonic()
        if left <= 0:
            with open(out_path, "a") as f:
                for case in cases:
                    f.write(json.dumps({"case": case, "error": "budget spent"}) + "\n")
            continue
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--out", out_path, "--cases", ",".join(cases),
               "--libraries", args.libraries, "--max-configs", str(args.max_configs), "--budget-s",
               str(left)] + [x for m in args.match for x in ("--match", m)] + \
            (["--dump", os.path.join(args.dump, backend)] if args.dump else [])
        try:
            proc = subprocess.run(cmd, env=backend_env(backend, cache_root or root), capture_output=True, text=True,
                                  timeout=left + 240)
            if proc.returncode:
                tails.append(proc.stderr[-2000:])
        except subprocess.TimeoutExpired:
            tails.append("timeout")
    tail = "\n".join(tails)
    results = {}
    if os.path.exists(out_path):
        with open(out_path) as f:
            for line in f:
                entry = json.loads(line)
                key = (entry["work"], entry["config"]) if "work" in entry else (entry["case"], "")
                results[key] = entry
    if tail:
        print(f"{backend}: the worker ended: {tail}", file=sys.stderr)
    return results


def table_rows(by_backend):
    """One row per (item, config) either compiler reached: both times, the
    ratio, both compile times, the sums check and each one's error."""
    tt, tr = by_backend.get("tritium", {}), by_backend.get("triton", {})
    rows = []
    for key in dict.fromkeys(list(tr) + list(tt)):
        a, b = tt.get(key, {}), tr.get(key, {})
        ma, mb = a.get("ms"), b.get("ms")
        row = {"work": key[0], "config": key[1], "unit": "ms", "tritium": ma, "triton": mb,
               "ratio": round(mb / ma, 3) if ma and mb else None,
               "tritium compile s": a.get("compile_s"), "triton compile s": b.get("compile_s"),
               "check": check_state(a, b)}
        for name, entry in (("tritium", a), ("triton", b)):
            if "error" in entry:
                row[f"{name} error"] = entry["error"][:200]
        rows.append(row)
    return rows


def left_by_budget(rows):
    """The rows (items or whole cases) either compiler did not start for
    the budget."""
    return [r for r in rows if any(r.get(f"{name} error") == "budget spent" for name in ("tritium", "triton"))]


def report(rows, partial, measured=None, joined=()):
    """Prints the table and its summary, and writes the record (`partial`:
    why it does not stand for the whole bench, or None; `measured`, `joined`:
    for a record merged from others, where they ran and their commands)."""
    print(f"\n{'item':60s} {'config':40s} {'Tritium ms':>10s} {'Triton ms':>10s} {'ratio':>6s} {'compile s':>13s} check")
    for r in rows:
        print(f"{r['work'][:60]:60s} {r['config'][:40]:40s} {fmt(r['tritium'], '10.4f')} {fmt(r['triton'], '10.4f')} "
              f"{fmt(r['ratio'], '6.3f')} {fmt(r['tritium compile s'], '6.2f')} {fmt(r['triton compile s'], '6.2f')} "
              f"{r['check']} " + " ".join(f"{k}: {v}" for k, v in r.items() if k.endswith("error")))
    speed = [r["ratio"] for r in rows if r["ratio"]]
    both = [(r["tritium compile s"], r["triton compile s"]) for r in rows
            if r["ratio"] and r["tritium compile s"] and r["triton compile s"]]
    notes = []
    if speed:
        notes.append(f"{len(speed)} (kernel launch, config) items under both: speed geomean {geomean(speed):.3f} "
                     f"(Triton's time / Tritium's), {sum(r < 0.95 for r in speed)} below 0.95, "
                     f"{sum(r < 0.995 for r in speed)} below 0.995, min {min(speed):.3f}")
        for case in dict.fromkeys(r["work"].split()[0] for r in rows):
            cr = [r["ratio"] for r in rows if r["ratio"] and r["work"].split()[0] == case]
            if cr:
                notes.append(f"  {case}: {len(cr)} items, geomean {geomean(cr):.3f}, min {min(cr):.3f}")
    if both:
        notes.append(f"compile s over them: Tritium {sum(a for a, _ in both):.1f}, Triton {sum(b for _, b in both):.1f}; "
                     f"per item Triton / Tritium geomean {geomean([b / a for a, b in both]):.2f}x, "
                     f"{sum(a > b for a, b in both)} items slower to compile than under Triton")
    only_triton = [r for r in rows if r["triton"] and not r["tritium"]]
    if only_triton:
        notes.append(f"{len(only_triton)} items Triton runs and Tritium does not: " +
                     "; ".join(f"{r['work']} [{r['config']}]: {r.get('tritium error', '?')[:120]}"
                               for r in only_triton[:8]))
    differ = [r for r in rows if r["check"] == "differ"]
    if differ:
        notes.append(f"{len(differ)} items whose results differ: " +
                     ", ".join(f"{r['work']} [{r['config']}]" for r in differ[:8]))
    print("\n" + "\n".join(notes))
    print("\nslowest items (Triton's time / Tritium's):")
    for r in sorted((r for r in rows if r["ratio"]), key=lambda r: r["ratio"])[:15]:
        print(f"  {r['ratio']:.3f}  {r['work']}  [{r['config']}]  {r['tritium']:.4f} vs {r['triton']:.4f} ms")
    if joined:
        notes.append(f"joined from {len(joined)} runs: " + "; ".join(f"`{command}`" for command in joined))
    if measured is None:  # (the record names the GPU of this run)
        try:
            import torch  # noqa: F401
        except ImportError:
            pass
    try:
        from results_page import record
        record("bench_library_kernels", rows, headers={"tritium": "Tritium ms", "triton": "Triton ms"},
               digits={"ratio": 3, "tritium": 4, "triton": 4}, notes=notes, partial=partial or "",
               measured=measured)
    except Exception as e:  # noqa: BLE001 - the figures are printed; a record is a copy of them
        print(f"no record: {e}", file=sys.stderr)
    return rows, notes


def run_partial(args, rows):
    """Why a run's record does not stand for the whole bench, or None."""
    why = []
    if set(args.cases.split(",")) != set(CASES):
        why.append(f"cases {args.cases}")
    if args.match:
        why.append(f"items matching {args.match}")
    if args.dump:
        why.append("with --dump")
    if args.backends.split(",") != ["tritium", "triton"]:
        why.append(f"backends {args.backends}")
    left = left_by_budget(rows)
    if left:
        why.append(f"{len(left)} items left by --budget-s")
    return "; ".join(why) or None


def merge(paths):
    """One record of the records of runs over groups of cases: their rows
    (a later record's row replaces an earlier one's for the same item and
    config), where the first ran; partial unless every case is covered, no
    item was left by the budget, and all ran on one GPU from one commit."""
    records = []
    for path in paths:
        with open(path) as f:
            records.append(json.load(f))
    rows = {}
    for data in records:
        for row in data["rows"]:
            rows[(row["work"], row["config"])] = row
    rows = list(rows.values())
    why = []
    covered = {row["work"].split()[0] for row in rows}
    missing = [case for case in CASES if case not in covered]
    if missing:
        why.append(f"cases not run: {','.join(missing)}")
    left = left_by_budget(rows)
    if left:
        why.append(f"{len(left)} items left by --budget-s")
    for data in records:  # (a run's own case list and budget are judged above, over all rows)
        other = [part for part in (data.get("partial") or "").split("; ")
                 if part and not part.startswith("cases ") and not part.endswith("left by --budget-s")]
        if other:
            why.append(f"a run was partial: {'; '.join(other)}")
    for key in ("gpu", "commit", "modified"):
        if len({json.dumps(data.get(key)) for data in records}) > 1:
            why.append(f"runs of different {key}s")
    measured = {key: records[0].get(key) for key in ("date", "time", "gpu", "cpu", "commit", "modified", "versions")}
    return report(rows, "; ".join(why) or None, measured=measured,
                  joined=[data.get("command", "?") for data in records])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--match", action="append", default=[], help="only items whose '<item> [<config>]' has TEXT")
    ap.add_argument("--max-configs", type=int, default=8, help="at most about N configs per kernel (0: all)")
    ap.add_argument("--budget-s", type=float, default=240, help="per compiler: no item starts after S seconds")
    ap.add_argument("--backends", default="tritium,triton")
    ap.add_argument("--libraries", default=LIBRARIES)
    ap.add_argument("--json", default="", help="also write both compilers' entries here")
    ap.add_argument("--dump", default="", help="each item's build per compiler into DIR/<compiler>/")
    ap.add_argument("--merge", nargs="+", default=[], metavar="RECORD",
                    help="join the records of runs over groups of cases into one record")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.merge:
        merge(args.merge)
        return 0
    for case in args.cases.split(","):
        if case not in CASES:
            ap.error(f"no case {case!r}: {', '.join(CASES)}")
    if args.worker:
        return worker(args)
    by_backend = {}
    for backend in args.backends.split(","):
        t = time.perf_counter()
        by_backend[backend] = run_backend(backend, args)
        print(f"{backend}: {len(by_backend[backend])} entries in {time.perf_counter() - t:.1f} s", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({b: list(r.values()) for b, r in by_backend.items()}, f)
    rows = table_rows(by_backend)
    report(rows, run_partial(args, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
