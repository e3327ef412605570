"""The torch.compile model zoo: small models with random weights (no
downloads) and one measured case of one of them, run in a process of its own.

Models: hand-written (`mlp`; `attention`, a transformer block; `user_kernel`,
an MLP whose activation is a @triton.jit kernel pair in an autograd Function,
bench/torch_zoo_kernels.py), transformers' GPT-2, Llama, BERT and T5 from
small configs, and timm's resnet18, vit_tiny, convnext_atto and
efficientnet_b0.

A case is a model, a task (`infer`: a forward pass under no_grad; `train`:
forward, backward and an Adam step), a precision (`fp32`, or `bf16` autocast),
an Inductor mode (`default`, `max-autotune-no-cudagraphs`, `reduce-overhead`)
and whether the compile is `dynamic`.  The case runs the model eagerly and
compiled, from the same weights and inputs, and prints one JSON line:

  cold_s      the first compiled call (or training step), compile included
  warm_ms     time of a compiled call (or step) once warm: the lowest of the
              medians of five rounds of 20 calls (small models spend most of
              a call on the host, where a round can be slowed by the
              machine's other work; warm_rounds_ms lists the five)
  compile     Inductor's own timers (torch._dynamo.utils.compilation_time_metrics),
              seconds summed per timer
  err         max |compiled - eager| / max |eager| of the output (for `train`,
              the loss); grad_err and param_err (`train`): the same over all
              the gradients, and over all the weights after the Adam step
  kernels     Triton kernels Inductor generated (torch._inductor.metrics)
  triton      the module that answered `import triton` (tritium or triton)
  gpu, torch  the GPU's name and torch's version (for the record)
  profile     with ZOO_PROFILE=1: one warm call under torch.profiler, the GPU
              time its kernels took (device_ms) and the kernels taking the most
              of it (name, calls, microseconds); warm_ms over device_ms tells a
              host-bound call from a device-bound one; host_top: the Python
              functions taking the most of five warm calls' host time
              (cProfile: function, calls, own seconds, cumulative seconds)
  cold_profile with ZOO_PROFILE_COLD=1: the cold call under cProfile (which
              slows Python code, so cold_s is then not comparable): the
              functions with the largest cumulative time (cumulative_top),
              those with the largest own time (own_top), and the kernel
              compiles done in this process rather than in Inductor's
              workers (compiles: calls and cumulative seconds of the
              compiler's compile(), and of the ptxas processes it waited on);
              with TRITIUM_COMPILE_LOG set as well, Tritium's compiles in
              every process (compile_log: per process its compiles, their
              seconds, first start and last end after the cold call began,
              cache hits; the native stages summed)

  python3 bench/torch_zoo.py MODEL TASK PRECISION MODE [dynamic]
  python3 bench/torch_zoo.py --list

bench/bench_torch_compile.py runs the cases under both compilers with fresh
caches and tabulates them; python/test/gpu/test_torch_compile_zoo.py checks
the errors.
"""
import copy
import json
import os
import statistics
import sys
import time

PROCESS_START = time.perf_counter()

MODELS = ("mlp", "attention", "user_kernel", "gpt2", "llama", "bert", "t5", "resnet18", "vit_tiny", "convnext", "efficientnet")
TASKS = ("infer", "train")
PRECISIONS = ("fp32", "bf16")
MODES = ("default", "max-autotune-no-cudagraphs", "reduce-overhead")


# Case sets: (model, task, precision, mode, dynamic).
#   bench: what bench_torch_compile.py times by default, sized for one GPU
#     call of both compilers: every model's inference, and a training step of
#     one model of each family;
#   sweep: the correctness sweep (python/test/gpu/test_torch_compile_zoo.py):
#     every model, both tasks in fp32 with the default mode, and bf16,
#     max-autotune-no-cudagraphs, reduce-overhead and dynamic=True each on
#     models of every family;
#   matrix: everything (models x tasks x precisions x modes).
_DIAGONAL = [("gpt2", "train", "bf16", "default", False), ("llama", "infer", "bf16", "default", False),
             ("resnet18", "train", "bf16", "default", False), ("vit_tiny", "infer", "bf16", "default", False),
             ("attention", "train", "bf16", "default", False),
             ("mlp", "infer", "fp32", "max-autotune-no-cudagraphs", False),
             ("gpt2", "infer", "fp32", "max-autotune-no-cudagraphs", False),
             ("resnet18", "infer", "bf16", "max-autotune-no-cudagraphs", False),
             ("attention", "train", "fp32", "max-autotune-no-cudagraphs", False),
             ("mlp", "train", "fp32", "reduce-overhead", False), ("bert", "infer", "fp32", "reduce-overhead", False),
             ("convnext", "infer", "bf16", "reduce-overhead", False),
             ("gpt2", "infer", "fp32", "default", True), ("mlp", "train", "fp32", "default", True),
             ("user_kernel", "train", "fp32", "max-autotune-no-cudagraphs", False),
             ("user_kernel", "infer", "fp32", "default", True)]


def cases(which):
    if which == "bench":
        return [(m, "infer", "fp32", "default", False) for m in MODELS] + [
            (m, "train", "fp32", "default", False) for m in ("mlp", "gpt2", "resnet18")]
    if which == "sweep":
        return [(m, t, "fp32", "default", False) for m in MODELS for t in TASKS] + _DIAGONAL
    if which == "autotune":
        return [(m, "infer", "fp32", "max-autotune-no-cudagraphs", False) for m in ("mlp", "gpt2", "resnet18")]
    if which == "matrix":
        return [(m, t, p, mode, False) for m in MODELS for t in TASKS for p in PRECISIONS for mode in MODES]
    raise ValueError(f"no case set {which!r}: bench, autotune, sweep or matrix")


def _hand_models(torch, name):
    nn = torch.nn

    class AttentionBlock(nn.Module):
        """Pre-norm transformer block: causal self-attention through
        scaled_dot_product_attention, then a GELU MLP, both residual."""

        def __init__(self, dim=256, heads=4):
            super().__init__()
            self.heads = heads
            self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
            self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
            self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

        def forward(self, x):
            b, s, d = x.shape
            q, k, v = self.qkv(self.norm1(x)).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
            a = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(a.transpose(1, 2).reshape(b, s, d))
            return x + self.mlp(self.norm2(x))

    if name == "user_kernel":
        import torch_zoo_kernels  # (imports triton)
        return torch_zoo_kernels.UserKernelMLP(), (torch.randn(512, 256),)
    if name == "mlp":
        model = nn.Sequential(nn.Linear(256, 1024), nn.GELU(), nn.LayerNorm(1024), nn.Linear(1024, 256),
                              nn.Softmax(dim=-1))
        return model, (torch.randn(512, 256),)
    return AttentionBlock(), (torch.randn(8, 128, 256),)


def _transformers_model(torch, name):
    import transformers as tf

    ids = torch.randint(0, 1000, (4, 128))
    if name == "gpt2":
        cfg = tf.GPT2Config(n_layer=2, n_embd=256, n_head=4, vocab_size=1000, n_positions=256, resid_pdrop=0.0,
                            embd_pdrop=0.0, attn_pdrop=0.0)
        return tf.GPT2LMHeadModel(cfg), (ids,)
    if name == "llama":
        cfg = tf.LlamaConfig(hidden_size=256, intermediate_size=688, num_hidden_layers=2, num_attention_heads=4,
                             num_key_value_heads=2, vocab_size=1000, max_position_embeddings=256)
        return tf.LlamaForCausalLM(cfg), (ids,)
    if name == "bert":
        cfg = tf.BertConfig(hidden_size=256, num_hidden_layers=2, num_attention_heads=4, intermediate_size=1024,
                            vocab_size=1000, max_position_embeddings=256, hidden_dropout_prob=0.0,
                            attention_probs_dropout_prob=0.0)
        return tf.BertModel(cfg, add_pooling_layer=False), (ids,)
    cfg = tf.T5Config(d_model=256, d_ff=1024, d_kv=64, num_layers=2, num_decoder_layers=2, num_heads=4,
                      vocab_size=1000, dropout_rate=0.0)
    return tf.T5ForConditionalGeneration(cfg), (ids, torch.randint(0, 1000, (4, 64)))


def _timm_model(torch, name):
    import timm

    arch = {"resnet18": "resnet18", "vit_tiny": "vit_tiny_patch16_224", "convnext": "convnext_atto",
            "efficientnet": "efficientnet_b0"}[name]
    return timm.create_model(arch, pretrained=False, num_classes=100, drop_rate=0.0,
                             drop_path_rate=0.0), (torch.randn(8, 3, 224, 224),)


def build(torch, name):
    """(model, example inputs) on the CPU, from the current RNG state; dropout
    is off so that eager and compiled runs compute the same function."""
    if name in ("mlp", "attention", "user_kernel"):
        return _hand_models(torch, name)
    if name in ("gpt2", "llama", "bert", "t5"):
        return _transformers_model(torch, name)
    return _timm_model(torch, name)


class Wrapped:
    """Calls a zoo model on its inputs and returns one float tensor."""

    def __init__(self, torch, name, model):
        self.torch, self.name, self.model = torch, name, model

    def __call__(self, model, inputs):
        if self.name == "t5":
            out = model(input_ids=inputs[0], decoder_input_ids=inputs[1])
        else:
            out = model(*inputs)
        if hasattr(out, "logits"):
            return out.logits
        if hasattr(out, "last_hidden_state"):
            return out.last_hidden_state
        return out


def _rel_err(torch, got, want):
    """max |got - want| over all the tensors, over max |want| over all of
    them (one scale for the lot: a gradient that is zero by symmetry gives
    no meaningless ratio); inf when `got` is not finite where `want` is."""
    diff, scale = 0.0, 0.0
    for g, w in zip(got, want):
        if g is None or w is None:
            continue
        g, w = g.detach().float(), w.detach().float()
        if not torch.isfinite(g).all() and torch.isfinite(w).all():
            return float("inf")
        diff = max(diff, (g - w).abs().max().item())
        scale = max(scale, w.abs().max().item())
    return diff / (scale or 1.0)


def _timers(torch):
    from torch._dynamo.utils import compilation_time_metrics
    return {key: round(sum(values), 4) for key, values in compilation_time_metrics.items()}


def run_case(name, task, precision, mode, dynamic=False, warm_iters=20, warm_rounds=5):
    phases = {}  # seconds per phase of this process, to tell the cold call from the rest
    t_phase = time.perf_counter()
    import torch
    phases["import_torch"] = time.perf_counter() - t_phase

    t_phase = time.perf_counter()
    torch.manual_seed(0)
    model, inputs = build(torch, name)
    model, inputs = model.cuda(), tuple(t.cuda() for t in inputs)
    torch.cuda.synchronize()
    phases["build"] = time.perf_counter() - t_phase
    call = Wrapped(torch, name, model)
    autocast = torch.autocast("cuda", dtype=torch.bfloat16, enabled=precision == "bf16")
    compile_kwargs = {"dynamic": True} if dynamic else {}
    if mode != "default":
        compile_kwargs["mode"] = mode
    eager_model, compiled_model = model, copy.deepcopy(model)
    if task == "infer":
        eager_model.eval(), compiled_model.eval()
    compiled = torch.compile(compiled_model, **compile_kwargs)

    if task == "infer":
        def step_eager():
            with torch.no_grad(), autocast:
                return [call(eager_model, inputs)]

        def step_compiled():
            with torch.no_grad(), autocast:
                return [call(compiled, inputs)]
        results = (step_eager, step_compiled)
        params = None
    else:
        opt_e = torch.optim.Adam(eager_model.parameters(), lr=1e-3)
        opt_c = torch.optim.Adam(compiled_model.parameters(), lr=1e-3)
        opt_step = torch.compile(opt_c.step, **{k: v for k, v in compile_kwargs.items() if k != "mode"})

        def train(m, f, opt, step):
            opt.zero_grad(set_to_none=True)
            with autocast:
                out = f(m, inputs)
            loss = out.float().square().mean()
            loss.backward()
            grads = [p.grad.clone() if p.grad is not None else None for p in m.parameters()]
            step()
            return [loss, *grads]

        def step_eager():
            return train(eager_model, call, opt_e, opt_e.step)

        def step_compiled():
            return train(compiled, call, opt_c, opt_step)
        results = (step_eager, step_compiled)
        params = (eager_model, compiled_model)

    from torch._inductor import metrics
    metrics.reset()
    t_phase = time.perf_counter()
    want = results[0]()
    torch.cuda.synchronize()
    phases["eager"] = time.perf_counter() - t_phase
    cold_profiler = None
    if os.environ.get("ZOO_PROFILE_COLD") == "1":
        import cProfile
        cold_profiler = cProfile.Profile()
        cold_profiler.enable()
    cold_wall_start = time.time()
    t0 = time.perf_counter()
    got = results[1]()
    torch.cuda.synchronize()
    cold = time.perf_counter() - t0
    if cold_profiler is not None:
        cold_profiler.disable()
        cold_profile = _cold_profile(cold_profiler)
        if os.environ.get("TRITIUM_COMPILE_LOG"):
            cold_profile["compile_log"] = _compile_log(os.environ["TRITIUM_COMPILE_LOG"], cold_wall_start)
    kernels = getattr(metrics, "generated_kernel_count", None)
    t_phase = time.perf_counter()
    errors = {"err": _rel_err(torch, got[:1], want[:1])}
    if params:
        errors["grad_err"] = _rel_err(torch, got[1:], want[1:])
        named = list(zip(params[1].named_parameters(), params[0].parameters()))
        errors["param_err"] = _rel_err(torch, [p for (_, p), _ in named], [w for _, w in named])
        if errors["param_err"] > 1e-2:  # which weight, for the report
            errors["param_worst"] = max(named, key=lambda nw: (nw[0][1] - nw[1]).abs().max().item())[0][0]
    phases["check"] = time.perf_counter() - t_phase
    t_phase = time.perf_counter()
    for _ in range(3):
        results[1]()
    torch.cuda.synchronize()
    rounds = []
    for _ in range(warm_rounds):
        times = []
        for _ in range(warm_iters):
            t = time.perf_counter()
            results[1]()
            torch.cuda.synchronize()
            times.append((time.perf_counter() - t) * 1e3)
        rounds.append(statistics.median(times))
    phases["warm"] = time.perf_counter() - t_phase
    profile = _profile(torch, results[1]) if os.environ.get("ZOO_PROFILE") == "1" else None
    import triton
    return {"model": name, "task": task, "precision": precision, "mode": mode, "dynamic": bool(dynamic),
            "cold_s": round(cold, 3), "warm_ms": round(min(rounds), 4),
            "warm_rounds_ms": [round(r, 4) for r in rounds], **errors,
            "kernels": kernels, "compile": _timers(torch), "triton": triton.__name__,
            "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
            "phases_s": {k: round(v, 3) for k, v in phases.items()},
            **({"profile": profile} if profile else {}),
            **({"cold_profile": cold_profile} if cold_profiler else {})}


def _stat_rows(items, top):
    return [[f"{os.path.basename(f)}:{line}:{fn}"[:90], calls, round(own, 4), round(cum, 4)]
            for (f, line, fn), (calls, _, own, cum, _) in items[:top]]


def _compile_log(path, since):
    """Tritium's compiles of the cold call, from every process that made
    them (TRITIUM_COMPILE_LOG): per process its compiles, their seconds,
    and when its first began and last ended (s after the cold call began);
    and the native stages summed over all of them (ms)."""
    try:
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except OSError:
        return None
    rows = [r for r in rows if r["start"] >= since]
    per, stages = {}, {}
    for r in rows:
        p = per.setdefault(r["pid"], [0, 0.0, float("inf"), 0.0, 0])
        p[0] += 1
        p[1] += r["s"]
        p[2] = min(p[2], r["start"] - since)
        p[3] = max(p[3], r["start"] + r["s"] - since)
        p[4] += r["native_ms"] is None
        for stage, ms in (r["native_ms"] or {}).items():
            stages[stage] = stages.get(stage, 0.0) + ms
    return {"compiles": len(rows), "in_case_process": per.get(os.getpid(), [0])[0],
            "native_ms": {k: round(v, 1) for k, v in stages.items()},
            "per_process": [[pid, n, round(s, 3), round(first, 3), round(last, 3), hits]
                            for pid, (n, s, first, last, hits) in sorted(per.items(), key=lambda kv: kv[1][2])]}


def _cold_profile(profiler, top=40):
    """Where the cold call's time went in this process (cProfile rows:
    function, calls, own s, cumulative s)."""
    import pstats
    stats = pstats.Stats(profiler).stats
    compiles = {}
    for (f, line, fn), (calls, _, own, cum, _) in stats.items():
        path = f.replace(os.sep, "/")
        if fn == "compile" and path.endswith("/compiler/compiler.py"):
            key = "tritium" if "/tritium/" in path else "triton"
            compiles[f"{key}.compile"] = [calls, round(cum, 4)]
        elif fn == "run" and path.endswith("/subprocess.py"):
            compiles["subprocess.run"] = [calls, round(cum, 4)]
    return {"cumulative_top": _stat_rows(sorted(stats.items(), key=lambda kv: -kv[1][3]), top),
            "own_top": _stat_rows(sorted(stats.items(), key=lambda kv: -kv[1][2]), top),
            "compiles": compiles}


def _profile(torch, step, top=25):
    """The GPU kernels of one warm call of `step`: their total time and the
    `top` kernels by time."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        step()
        torch.cuda.synchronize()
    kernels = {}
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            calls, us = kernels.get(event.name, (0, 0.0))
            kernels[event.name] = (calls + 1, us + event.time_range.elapsed_us())
    ranked = sorted(kernels.items(), key=lambda kv: -kv[1][1])
    import cProfile
    import pstats
    host = cProfile.Profile()
    host.enable()
    for _ in range(5):
        step()
    torch.cuda.synchronize()
    host.disable()
    stats = pstats.Stats(host).stats  # (file, line, function) -> (calls, primitive calls, own s, cumulative s, callers)
    slowest = sorted(stats.items(), key=lambda kv: -kv[1][2])[:top]
    host_top = [[f"{os.path.basename(f)}:{line}:{fn}"[:90], calls, round(own, 4), round(cum, 4)]
                for (f, line, fn), (calls, _, own, cum, _) in slowest]
    return {"host_top": host_top, "device_ms": round(sum(us for _, us in kernels.values()) / 1e3, 4),
            "launches": sum(calls for calls, _ in kernels.values()),
            "top": [[name[:90], calls, round(us, 1)] for name, (calls, us) in ranked[:top]]}


def main(argv):
    if argv[:1] == ["--list"]:
        print(" ".join(MODELS))
        return 0
    name, task, precision, mode = argv[:4]
    dynamic = argv[4:5] == ["dynamic"]
    try:
        result = run_case(name, task, precision, mode, dynamic)
    except Exception as e:  # noqa: BLE001 - the driver records why a case failed
        import traceback
        traceback.print_exc()
        result = {"model": name, "task": task, "precision": precision, "mode": mode, "dynamic": dynamic,
                  "error": f"{type(e).__name__}: {str(e)[:2000]}"}
    # (the driver's process_s minus this is the interpreter's start and the
    # time the driver takes to end the process after this line)
    result["until_result_s"] = round(time.perf_counter() - PROCESS_START, 3)
    print("ZOO " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
