"""The performance corpus: kernels nobody tuned the compiler on, each config
of each one timed under Tritium and under Triton in one run and compared
item by item (never each compiler's best).

Families (item = kernel, shape and config):
  attention   a flash-attention forward written as users write it
              (bench/kernels/attention_one_loop.py), fp16 and bf16, head dim
              64 and 128, causal and not, Z=4 H=32 N=4096, over CONFIGS_ATTN
              (BLOCK_M, BLOCK_N, stages, warps), head dim 256 over
              CONFIGS_ATTN_D256 (the tiles whose K and V stages fit in shared
              memory), fp8 e4m3 at head dim 128 (V stored transposed, as
              8-bit wgmma reads it; fp16 output), and fp16 at head dim 128
              with `acc += tl.dot(p, v)` (add_product, 8-warp configs);
              TFLOP/s = 4 Z H N^2 D, halved for causal
  attention_forms the flash-attention forward of tutorial 06
              (bench/kernels/attention.py: causal split into an unmasked loop
              over the blocks left of the diagonal and a masked one over the
              diagonal's) in the three forms people write it: plain
              pointers, block pointers and tensor descriptors; fp16, head dim
              64 and 128, causal at 128, same shapes, over CONFIGS_ATTN
  attention_bwd tutorial 06's backward (bench/kernels/attention_bwd.py:
              its preprocess, then dK and dV and dQ in one kernel) on plain
              pointers, block pointers and tensor descriptors made in the
              kernel; fp16, head dim 64 and 128, causal and not, Z=4 H=32
              N=4096, over CONFIGS_ATTN_BWD (bench_attention_bwd.py's list);
              O and the log-sum-exp from one forward for both compilers;
              TFLOP/s = 2.5 * 4 Z H N^2 D, halved for causal
  matmul      tutorial 03 (bench/kernels/tutorials.py) over its config lists,
              fp16 and bf16 at 4096^3, fp8 e4m3 at 4096^3 (B column-major);
              TFLOP/s = 2 M N K
  matmul_forms matmul in other forms people write, fp16, over tutorial 03's
              config list: tutorial 03 with A or B column-major (4096^3),
              a batched matmul (16 x 1024^3, bench/kernels/matmul_forms.py)
              and split-K into fp32 by tl.atomic_add (1024 x 1024 x 16384,
              over CONFIGS_SPLIT_K; C zeroed in each timed call), and a
              grouped matmul in the form of tutorial 08 (8 groups of 256-1536
              rows, N = K = 2048, pointers loaded from device arrays; over
              CONFIGS_GROUPED); an int8 GEMM with an int32 accumulator and
              output (4096^3, B K-major, over tutorial 03's fp8 list; TOP/s)
  inductor_mm Inductor's mm template over Inductor's 20 configs
              (bench_inductor_mm.py): fp32 without TF32 at 2048^3, fp32 with
              TF32 and bf16 at 4096^3
  persistent_matmul tutorial 09's matmuls on tensor descriptors
              (bench/kernels/persistent_matmul.py: a program per tile, a
              persistent tile loop, the same loop warp-specialized), fp16 at
              4096^3 and 8192^3 (B stored N x K), over bench_persistent_matmul's
              configs (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps)
  tutorials   vector add (tutorial 01) at 2^20-2^27 elements, softmax
              (tutorial 02) and layer norm forward (tutorial 05) over rows of
              512-16384, 4096 rows (the tutorials' launches); layer norm
              backward (tutorial 05: dX with dW and dB partials added under
              spin locks, then summed; fp16, 4096 rows of 1024-8192, the
              locks zeroed in each timed call); seeded dropout (tutorial 04:
              tl.rand of the element's offset, p = 0.5) at 2^20-2^24
              elements, checked against Philox computed by torch
              (bench/philox_reference.py); asin through libdevice (tutorial
              07) at 98432 and 2^24 elements; GB/s

Per item and compiler: the cold compile (the first call of the item in a
warm process), the throughput (the better of two interleaved do_bench
medians, L2 flushed), each result checked against torch first.  Ratio:
Tritium / Triton.  The summary gives the geomean of the ratios, the worst 15
items and the compile-time ratio.  Registers and spills are each compiler's
`n_regs` and `n_spills` (local memory a thread uses, in 32-bit words, as
Triton counts it).

  python3 bench/bench_corpus.py [--families a,b] [--shard K/N] [--quick] [--jobs J]
  python3 bench/bench_corpus.py --merge SHARD.json ...   (one record of the shards)
  --budget-s S starts no item after S seconds, so a shard ends inside its call
  --match TEXT takes only the items whose "family case config" line (as --list
      prints it) contains TEXT (repeatable)
  --dump DIR writes each item's kernel as each compiler built it (TTGIR, PTX,
      and SASS where cuobjdump is installed) into DIR/<item>/

  --jobs J runs J worker processes, each taking every J-th item: they compile
      side by side (the compile without a launch, Triton's warmup) and take
      turns on the GPU (an exclusive lock held while a worker makes an item's
      inputs and reference, and while it makes the first calls, checks and
      times); the compile time is then that compile plus the first call.
      Timings see one worker's kernels at a time; compile times are taken
      beside the other workers' compiles, under both compilers alike.

Most of an item's time is the two compiles: --jobs 4 brings the corpus within
two GPU calls.  --shard K/N takes every N-th item from the K-th (1-based), and
--merge joins the shards' records.
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

CONFIGS_ATTN = [(64, 32, 3, 4), (64, 64, 3, 4), (128, 32, 3, 4), (128, 64, 2, 4), (128, 64, 3, 4), (128, 64, 3, 8),
                (128, 128, 2, 8), (128, 128, 3, 8)]
# head dim 256: a stage of K and V takes BLOCK_N x 1 KB in fp16
CONFIGS_ATTN_D256 = [(64, 32, 3, 4), (64, 64, 2, 4), (128, 32, 3, 8), (128, 64, 2, 8)]
# tutorial 03's lists: (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, stages, warps)
CONFIGS_MM = [(128, 256, 64, 8, 3, 8), (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4), (128, 64, 32, 8, 4, 4),
              (64, 128, 32, 8, 4, 4), (128, 32, 32, 8, 4, 4), (64, 32, 32, 8, 5, 2), (32, 64, 32, 8, 5, 2)]
CONFIGS_MM_FP8 = [(128, 256, 128, 8, 3, 8), (256, 128, 128, 8, 3, 8), (256, 64, 128, 8, 4, 4),
                  (64, 256, 128, 8, 4, 4), (128, 128, 128, 8, 4, 4), (128, 64, 64, 8, 4, 4), (64, 128, 64, 8, 4, 4),
                  (128, 32, 64, 8, 4, 4)]
# split-K: (BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K, stages, warps)
CONFIGS_SPLIT_K = [(128, 128, 64, 4, 3, 8), (128, 64, 64, 4, 4, 4), (64, 128, 64, 4, 4, 4), (64, 64, 64, 8, 4, 4),
                   (128, 128, 32, 8, 4, 8), (64, 64, 32, 8, 5, 2)]
# attention backward: (BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2, stages, warps)
CONFIGS_ATTN_BWD = [(32, 128, 128, 32, 5, 4), (32, 128, 128, 32, 3, 4), (64, 128, 128, 64, 3, 8),
                    (32, 128, 128, 32, 3, 8), (64, 64, 64, 64, 3, 4), (64, 64, 64, 64, 3, 8)]
CONFIGS_PERSISTENT = [(128, 256, 64, 3, 8), (128, 128, 64, 4, 8), (128, 128, 64, 4, 4), (64, 256, 64, 4, 4),
                      (128, 256, 64, 4, 8)]
PERSISTENT_KERNELS = ("matmul_tma", "matmul_tma_persistent", "matmul_tma_persistent_ws")
# grouped: (BLOCK_M, BLOCK_N, BLOCK_K, programs per SM, stages, warps)
CONFIGS_GROUPED = [(128, 128, 32, 1, 3, 4), (128, 128, 32, 2, 3, 4), (64, 64, 32, 1, 3, 4), (64, 64, 32, 2, 3, 4),
                   (128, 128, 64, 1, 3, 8), (128, 64, 32, 1, 4, 4)]
GROUP_ROWS = (256, 512, 1024, 768, 256, 1280, 512, 1536)  # M of each group; N = K = 2048
FAMILIES = ("attention", "attention_forms", "attention_bwd", "matmul", "matmul_forms", "inductor_mm",
            "persistent_matmul", "tutorials")
# attention_forms and attention_bwd: the form's kernel in bench/kernels/attention.py and attention_bwd.py
ATTENTION_FORMS = {"pointers": "attn_fwd", "block_pointers": "attn_fwd_block_ptr", "descriptors": "attn_fwd_tma"}
ATTENTION_BWD_FORMS = {"pointers": "attn_bwd", "block_pointers": "attn_bwd_block_ptr", "descriptors": "attn_bwd_tma"}
# the kernels' source files (bench/kernels/) of each family
KERNEL_FILES = {"attention": "attention_one_loop.py", "attention_forms": "attention.py",
                "attention_bwd": "attention_bwd.py", "matmul": "tutorials.py", "tutorials": "tutorials.py",
                "inductor_mm": "inductor_mm.py", "matmul_forms": "matmul_forms.py",
                "persistent_matmul": "persistent_matmul.py"}
HEADERS = {"config": "config"}  # one config per item, the same for both compilers


def items(families, quick):
    """Every item of `families`: (family, case, config), in a fixed order."""
    out = []
    if "attention" in families:
        for dtype in ("fp16", "bf16"):
            for d in (64, 128):
                for causal in (False, True):
                    for config in (CONFIGS_ATTN[::3] if quick else CONFIGS_ATTN):
                        out.append(("attention", (dtype, d, causal), config))
        for causal in (False, True):
            for config in (CONFIGS_ATTN_D256[::2] if quick else CONFIGS_ATTN_D256):
                out.append(("attention", ("fp16", 256, causal), config))
        for causal in (False, True):
            for config in (CONFIGS_ATTN[::3] if quick else CONFIGS_ATTN):
                out.append(("attention", ("fp8", 128, causal), config))
        for causal in (False, True):  # (Tritium folds the add into the dot: its 8-warp tiles)
            for config in [c for c in CONFIGS_ATTN if c[3] == 8][::2 if quick else 1]:
                out.append(("attention", ("fp16", 128, causal, "add_product"), config))
    if "attention_forms" in families:
        for form in ATTENTION_FORMS:
            for d, causal in ((64, False), (128, False), (128, True)):
                for config in (CONFIGS_ATTN[::3] if quick else CONFIGS_ATTN):
                    out.append(("attention_forms", (form, d, causal), config))
    if "attention_bwd" in families:
        for form in ATTENTION_BWD_FORMS:
            for d in (64, 128):
                for causal in (False, True):
                    for config in (CONFIGS_ATTN_BWD[::3] if quick else CONFIGS_ATTN_BWD):
                        out.append(("attention_bwd", (form, d, causal), config))
    if "matmul" in families:
        for dtype in ("fp16", "bf16", "fp8"):
            for config in (CONFIGS_MM_FP8 if dtype == "fp8" else CONFIGS_MM)[::4 if quick else 1]:
                out.append(("matmul", (dtype,), config))
    if "matmul_forms" in families:
        for form in ("a_column_major", "b_column_major", "batched"):
            for config in CONFIGS_MM[::4 if quick else 1]:
                out.append(("matmul_forms", ("fp16", form), config))
        for config in CONFIGS_SPLIT_K[::3 if quick else 1]:
            out.append(("matmul_forms", ("fp16", "split_k"), config))
        for config in CONFIGS_GROUPED[::3 if quick else 1]:
            out.append(("matmul_forms", ("fp16", "grouped"), config))
        for config in CONFIGS_MM_FP8[::4 if quick else 1]:
            out.append(("matmul_forms", ("int8", "int8"), config))
    if "inductor_mm" in families:
        from inductor_mm_configs import CONFIGS as MM_CONFIGS
        for case in ("fp32", "tf32", "bf16"):
            for config in MM_CONFIGS[::5 if quick else 1]:
                out.append(("inductor_mm", (case,), config))
    if "persistent_matmul" in families:
        for kernel in PERSISTENT_KERNELS:
            for size in (4096, 8192):
                for config in (CONFIGS_PERSISTENT[::2] if quick else CONFIGS_PERSISTENT):
                    out.append(("persistent_matmul", (kernel, size), config))
    if "tutorials" in families:
        for log2n in ((20, 26) if quick else (20, 22, 24, 26, 27)):
            out.append(("tutorials", ("vector_add", 1 << log2n), None))
        for n_cols in ((1024, 8192) if quick else (512, 1024, 2048, 4096, 8192, 16384)):
            out.append(("tutorials", ("softmax", n_cols), None))
            out.append(("tutorials", ("layer_norm", n_cols), None))
        for n_cols in ((1024, 8192) if quick else (1024, 2048, 4096, 8192)):
            out.append(("tutorials", ("layer_norm_bwd", n_cols), None))
        for log2n in ((22,) if quick else (20, 22, 24)):
            out.append(("tutorials", ("seeded_dropout", 1 << log2n), None))
        for n in ((98432,) if quick else (98432, 1 << 24)):
            out.append(("tutorials", ("asin", n), None))
    return out


class Item:
    """One item's launch per compiler, its check and its work."""

    KERNELS = {"attention": ("attention", "attn_fwd_one_loop"), "matmul": ("matmul", "matmul_kernel"),
               "inductor_mm": ("inductor_mm", "inductor_mm")}

    def __init__(self, family, case, config, modules, torch):
        self.family, self.case, self.config = family, case, config
        self.torch, self.modules = torch, modules
        build = getattr(self, "_" + family)
        self.unit, self.work, self.want, self.tol, self.launch, self.out = build()

    def compiled(self, name):
        """The kernel `name`'s compiler built for this item (the newest entry
        of the jit function's cache, `device_caches[device][0]` under both
        compilers), or None."""
        if self.family == "tutorials":
            kernel = {"vector_add": "add_kernel", "softmax": "softmax_kernel",
                      "layer_norm": "_layer_norm_fwd_fused", "layer_norm_bwd": "_layer_norm_bwd_dx_fused",
                      "asin": "asin_kernel", "seeded_dropout": "_seeded_dropout"}[self.case[0]]
            module = self.modules[name]["tutorials"]
        elif self.family == "attention_forms":
            module, kernel = self.modules[name]["attention_forms"], ATTENTION_FORMS[self.case[0]]
        elif self.family == "attention_bwd":
            module, kernel = self.modules[name]["attention_bwd"], ATTENTION_BWD_FORMS[self.case[0]]
        elif self.family == "persistent_matmul":
            module, kernel = self.modules[name]["persistent_matmul"], self.case[0]
        elif self.family == "matmul_forms":
            key, kernel = {"batched": ("matmul_forms", "batched_matmul"),
                           "split_k": ("matmul_forms", "split_k_matmul"),
                           "grouped": ("matmul_forms", "grouped_matmul")}.get(self.case[1],
                                                                            ("tutorials", "matmul_kernel"))
            module = self.modules[name][key]
        else:
            key, kernel = self.KERNELS[self.family]
            module = self.modules[name][key]
        try:
            cache = getattr(module, kernel).device_caches[self.torch.cuda.current_device()][0]
            return list(cache.values())[-1] if cache else None
        except Exception:  # noqa: BLE001 - the figures are extras; the timing does not need them
            return None

    def label(self):
        return f"{self.family} {' '.join(str(c) for c in self.case)}"

    # -- families --

    ATTENTION_SHAPE = (4, 32, 4096)  # Z, H, N of every attention family

    def _attention_forward_inputs(self, dtype, d, causal):
        """q, k, v of an attention forward item (Z x H x N x d), its scale,
        SDPA's output on them, and an output tensor per compiler."""
        torch = self.torch
        Z, H, N = self.ATTENTION_SHAPE
        torch.manual_seed(0)
        q, k, v = (torch.randn(Z, H, N, d, device="cuda", dtype=dtype) for _ in range(3))
        sm_scale = d ** -0.5
        want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)
        outs = {name: torch.empty_like(q) for name in self.modules}
        return q, k, v, sm_scale, want, outs

    def _attention(self):
        torch = self.torch
        dtype_name, d, causal, *form = self.case
        Z, H, N = self.ATTENTION_SHAPE
        tol = 2e-2
        variant = {"ADD_PRODUCT": True} if form == ["add_product"] else {}
        if dtype_name == "fp8":
            # fp16 tensors rounded to e4m3 (SDPA's reference on the rounded
            # values), V stored as Z x H x D x N; P is rounded to e4m3 too
            q, k, v, sm_scale, _, outs = self._attention_forward_inputs(torch.float16, d, causal)
            q, k = q.to(torch.float8_e4m3fn), k.to(torch.float8_e4m3fn)
            v = v.transpose(2, 3).contiguous().to(torch.float8_e4m3fn).transpose(2, 3)
            want = torch.nn.functional.scaled_dot_product_attention(q.half(), k.half(), v.half(), is_causal=causal,
                                                                    scale=sm_scale)
            tol = 0.1
        else:
            dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}[dtype_name]
            q, k, v, sm_scale, want, outs = self._attention_forward_inputs(dtype, d, causal)
        bm, bn, stages, warps = self.config

        def launch(name):
            kernel, o = self.modules[name]["attention"].attn_fwd_one_loop, outs[name]
            grid = (triton_cdiv(N, bm), Z * H)
            return lambda: kernel[grid](q, k, v, o, sm_scale, *q.stride(), *k.stride(), *v.stride(), *o.stride(),
                                        H, N, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal,
                                        num_stages=stages, num_warps=warps, **variant)
        flops = 4.0 * Z * H * N * N * d * (0.5 if causal else 1.0)
        return "TFLOP/s", flops / 1e12, want, tol, launch, outs

    def _attention_forms(self):
        form, d, causal = self.case
        Z, H, N = self.ATTENTION_SHAPE
        q, k, v, sm_scale, want, outs = self._attention_forward_inputs(self.torch.float16, d, causal)
        bm, bn, stages, warps = self.config
        grid = (triton_cdiv(N, bm), Z * H)
        stage = 3 if causal else 1

        def launch(name):
            module, o = self.modules[name]["attention_forms"], outs[name]
            if form == "descriptors":  # Q, K, V and O as (Z H N, D) row blocks
                descriptor = self.modules[name]["TensorDescriptor"]
                dq, dk, dv, do = (descriptor(t, [Z * H * N, d], [d, 1], [block, d])
                                  for t, block in ((q, bm), (k, bn), (v, bn), (o, bm)))
                return lambda: module.attn_fwd_tma[grid](sm_scale, H, dq, dk, dv, do, N_CTX=N, HEAD_DIM=d,
                                                         BLOCK_M=bm, BLOCK_N=bn, STAGE=stage,
                                                         num_stages=stages, num_warps=warps)
            kernel = getattr(module, ATTENTION_FORMS[form])
            return lambda: kernel[grid](q, k, v, sm_scale, o, *q.stride(), *k.stride(), *v.stride(), *o.stride(), H,
                                        N_CTX=N, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, STAGE=stage,
                                        num_stages=stages, num_warps=warps)
        flops = 4.0 * Z * H * N * N * d * (0.5 if causal else 1.0)
        return "TFLOP/s", flops / 1e12, want, 2e-2, launch, outs

    def _attention_bwd(self):
        torch = self.torch
        form, d, causal = self.case
        Z, H, N = self.ATTENTION_SHAPE
        torch.manual_seed(0)
        q, k, v, do = (torch.randn(Z, H, N, d, device="cuda", dtype=torch.float16) for _ in range(4))
        sm_scale = d ** -0.5
        # O and the log-sum-exp M from one forward (Tritium's, as bench_attention_bwd.py), the
        # backward's inputs under both compilers
        o = torch.empty_like(q)
        m = torch.empty(Z, H, N, device="cuda", dtype=torch.float32)
        self.modules["tritium"]["attention_bwd"].attn_fwd_lse[(N // 128, Z * H)](
            q, k, v, sm_scale, m, o, q.stride(0), q.stride(1), q.stride(2), H, N_CTX=N, HEAD_DIM=d, BLOCK_M=128,
            BLOCK_N=64, CAUSAL=causal, num_warps=8, num_stages=3)
        qr, kr, vr = (t.detach().clone().requires_grad_() for t in (q, k, v))
        torch.nn.functional.scaled_dot_product_attention(qr, kr, vr, is_causal=causal, scale=sm_scale).backward(do)
        want = torch.stack((qr.grad, kr.grad, vr.grad))
        arg_k = k * (sm_scale / math.log(2))
        outs = {name: torch.empty(3, Z, H, N, d, device="cuda", dtype=torch.float16) for name in self.modules}
        bm1, bn1, bm2, bn2, stages, warps = self.config

        def launch(name):
            module, (dq, dk, dv) = self.modules[name]["attention_bwd"], outs[name]
            kernel = getattr(module, ATTENTION_BWD_FORMS[form])
            delta = torch.empty_like(m)

            def run():
                module.bwd_preprocess[(N // 128, Z * H)](o, do, delta, N, BLOCK_M=128, HEAD_DIM=d)
                kernel[(N // bn1, 1, Z * H)](q, arg_k, v, sm_scale, do, dq, dk, dv, m, delta, q.stride(0),
                                             q.stride(1), q.stride(2), H, N, BLOCK_M1=bm1, BLOCK_N1=bn1,
                                             BLOCK_M2=bm2, BLOCK_N2=bn2, BLK_SLICE_FACTOR=2, HEAD_DIM=d,
                                             CAUSAL=causal, num_warps=warps, num_stages=stages)
            return run
        flops = 2.5 * 4.0 * Z * H * N * N * d * (0.5 if causal else 1.0)
        return "TFLOP/s", flops / 1e12, want, 5e-2, launch, outs

    def _persistent_matmul(self):
        torch = self.torch
        kernel_name, size = self.case
        M = N = K = size
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(N, K, device="cuda", dtype=torch.float16)
        want = a.float() @ b.float().T
        outs = {name: torch.empty(M, N, device="cuda", dtype=torch.float16) for name in self.modules}
        bm, bn, bk, stages, warps = self.config
        num_sms = torch.cuda.get_device_properties(0).multi_processor_count

        def launch(name):
            module, descriptor, c = self.modules[name]["persistent_matmul"], self.modules[name]["TensorDescriptor"], \
                outs[name]
            a_desc, b_desc = descriptor.from_tensor(a, [bm, bk]), descriptor.from_tensor(b, [bn, bk])
            c_desc = descriptor.from_tensor(c, [bm, bn])
            kernel = getattr(module, kernel_name)
            sizes = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, num_stages=stages,
                         num_warps=warps)
            if kernel_name.startswith("matmul_tma_persistent"):
                grid = (min(num_sms, triton_cdiv(M, bm) * triton_cdiv(N, bn)),)
                return lambda: kernel[grid](a_desc, b_desc, c_desc, M, N, K, NUM_SMS=num_sms, **sizes)
            grid = (triton_cdiv(M, bm) * triton_cdiv(N, bn),)
            return lambda: kernel[grid](a_desc, b_desc, c_desc, M, N, K, **sizes)
        return "TFLOP/s", 2.0 * M * N * K / 1e12, want, 2e-2, launch, outs

    def _tutorial03_launch(self, a, b, outs):
        """launch(name): a function that runs tutorial 03's matmul_kernel of
        compiler `name` on a @ b into outs[name], with the item's config."""
        M, K = a.shape
        N = b.shape[1]
        bm, bn, bk, group, stages, warps = self.config

        def launch(name):
            kernel, c = self.modules[name]["tutorials"].matmul_kernel, outs[name]
            grid = (triton_cdiv(M, bm) * triton_cdiv(N, bn),)
            return lambda: kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                        c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                                        BLOCK_SIZE_K=bk, GROUP_SIZE_M=group, ACTIVATION="", num_stages=stages,
                                        num_warps=warps)
        return launch

    def _matmul(self):
        torch = self.torch
        (dtype_name,) = self.case
        M = N = K = 4096
        torch.manual_seed(0)
        if dtype_name == "fp8":
            a = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
            b = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn).T
            out_dtype = torch.float16
        else:
            dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}[dtype_name]
            a = torch.randn(M, K, device="cuda", dtype=dtype)
            b = torch.randn(K, N, device="cuda", dtype=dtype)
            out_dtype = dtype
        want = a.float() @ b.float()
        outs = {name: torch.empty(M, N, device="cuda", dtype=out_dtype) for name in self.modules}
        return "TFLOP/s", 2.0 * M * N * K / 1e12, want, 0.05 if dtype_name == "fp8" else 0.02, \
            self._tutorial03_launch(a, b, outs), outs

    def _matmul_forms(self):
        torch = self.torch
        _, form = self.case
        torch.manual_seed(0)
        if form == "batched":
            batch, M, N, K = 16, 1024, 1024, 1024
            a = torch.randn(batch, M, K, device="cuda", dtype=torch.float16)
            b = torch.randn(batch, K, N, device="cuda", dtype=torch.float16)
            want = torch.bmm(a.float(), b.float())
            outs = {name: torch.empty(batch, M, N, device="cuda", dtype=torch.float16) for name in self.modules}
            bm, bn, bk, group, stages, warps = self.config

            def launch(name):
                kernel, c = self.modules[name]["matmul_forms"].batched_matmul, outs[name]
                grid = (triton_cdiv(M, bm) * triton_cdiv(N, bn), batch)
                return lambda: kernel[grid](a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride(), BLOCK_M=bm,
                                            BLOCK_N=bn, BLOCK_K=bk, GROUP_M=group, num_stages=stages,
                                            num_warps=warps)
            return "TFLOP/s", 2.0 * batch * M * N * K / 1e12, want, 0.02, launch, outs
        if form == "grouped":
            N = K = 2048
            starts = [sum(GROUP_ROWS[:g]) for g in range(len(GROUP_ROWS))]
            a = torch.randn(sum(GROUP_ROWS), K, device="cuda", dtype=torch.float16)
            b = torch.randn(len(GROUP_ROWS), K, N, device="cuda", dtype=torch.float16)
            want = torch.cat([a[s:s + m].float() @ b[g].float()
                              for g, (s, m) in enumerate(zip(starts, GROUP_ROWS))])
            outs = {name: torch.empty(sum(GROUP_ROWS), N, device="cuda", dtype=torch.float16)
                    for name in self.modules}

            def device_array(values, dtype):
                return torch.tensor(values, device="cuda", dtype=dtype)
            a_addrs = device_array([a[s].data_ptr() for s in starts], torch.int64)
            b_addrs = device_array([b[g].data_ptr() for g in range(len(GROUP_ROWS))], torch.int64)
            sizes = device_array([x for m in GROUP_ROWS for x in (m, N, K)], torch.int32)
            row_strides = device_array([x for _ in GROUP_ROWS for x in (K, N, N)], torch.int32)
            bm, bn, bk, per_sm, stages, warps = self.config
            programs = per_sm * torch.cuda.get_device_properties(0).multi_processor_count

            def launch(name):
                kernel, c = self.modules[name]["matmul_forms"].grouped_matmul, outs[name]
                c_addrs = device_array([c[s].data_ptr() for s in starts], torch.int64)

                def call(operands=(a, b)):  # (the address arrays do not keep the operands alive; this does)
                    kernel[(programs,)](a_addrs, b_addrs, c_addrs, sizes, row_strides, len(GROUP_ROWS),
                                        NUM_PROGRAMS=programs, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                        num_stages=stages, num_warps=warps)
                return call
            return "TFLOP/s", 2.0 * sum(GROUP_ROWS) * N * K / 1e12, want, 0.02, launch, outs
        if form == "int8":
            M = N = K = 4096
            a = torch.randint(-127, 128, (M, K), device="cuda", dtype=torch.int8)
            b = torch.randint(-127, 128, (N, K), device="cuda", dtype=torch.int8).T
            want = (a.double() @ b.double()).to(torch.int32)  # exact: |sums| < 2**27
            outs = {name: torch.empty(M, N, device="cuda", dtype=torch.int32) for name in self.modules}
            bm, bn, bk, group, stages, warps = self.config

            def launch(name):
                kernel, c = self.modules[name]["matmul_forms"].int8_matmul, outs[name]
                grid = (triton_cdiv(M, bm) * triton_cdiv(N, bn),)
                return lambda: kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                            c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                            GROUP_M=group, num_stages=stages, num_warps=warps)
            return "TOP/s", 2.0 * M * N * K / 1e12, want, 0.0, launch, outs
        if form == "split_k":
            M, N, K = 1024, 1024, 16384
            a = torch.randn(M, K, device="cuda", dtype=torch.float16)
            b = torch.randn(K, N, device="cuda", dtype=torch.float16)
            want = a.float() @ b.float()
            outs = {name: torch.zeros(M, N, device="cuda", dtype=torch.float32) for name in self.modules}
            bm, bn, bk, split, stages, warps = self.config

            def launch(name):
                kernel, c = self.modules[name]["matmul_forms"].split_k_matmul, outs[name]
                grid = (triton_cdiv(M, bm) * triton_cdiv(N, bn), split)

                def call():
                    c.zero_()  # (the partial sums accumulate into it)
                    kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                 c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split,
                                 num_stages=stages, num_warps=warps)
                return call
            return "TFLOP/s", 2.0 * M * N * K / 1e12, want, 0.02, launch, outs
        # tutorial 03 on an operand stored column-major (a transposed view)
        M = N = K = 4096
        if form == "a_column_major":
            a = torch.randn(K, M, device="cuda", dtype=torch.float16).T
            b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        else:
            a = torch.randn(M, K, device="cuda", dtype=torch.float16)
            b = torch.randn(N, K, device="cuda", dtype=torch.float16).T
        want = a.float() @ b.float()
        outs = {name: torch.empty(M, N, device="cuda", dtype=torch.float16) for name in self.modules}
        return "TFLOP/s", 2.0 * M * N * K / 1e12, want, 0.02, self._tutorial03_launch(a, b, outs), outs

    def _inductor_mm(self):
        torch = self.torch
        from bench_inductor_mm import CASES, launcher
        (case,) = self.case
        dtype, allow_tf32, size = CASES[case]
        torch.manual_seed(0)
        a = torch.randn(size, size, device="cuda", dtype=dtype)
        b = torch.randn(size, size, device="cuda", dtype=dtype)
        want = (a.double() @ b.double()).float() if case == "fp32" else a.float() @ b.float()
        outs = {name: torch.empty(size, size, device="cuda", dtype=dtype) for name in self.modules}

        def launch(name):
            return launcher(self.modules[name]["inductor_mm"], a, b, outs[name], self.config, allow_tf32)
        tol = 1e-4 * math.sqrt(size) / 10 if case == "fp32" else 2e-3 * math.sqrt(size) / 10
        return "TFLOP/s", 2.0 * size ** 3 / 1e12, want, tol, launch, outs

    def _tutorials(self):
        torch = self.torch
        kind, n = self.case
        torch.manual_seed(0)
        if kind == "vector_add":
            x = torch.rand(n, device="cuda")
            y = torch.rand(n, device="cuda")
            outs = {name: torch.empty_like(x) for name in self.modules}

            def launch(name):
                kernel, o = self.modules[name]["tutorials"].add_kernel, outs[name]
                return lambda: kernel[(triton_cdiv(n, 1024),)](x, y, o, n, BLOCK_SIZE=1024)
            return "GB/s", 3 * 4 * n / 1e9, x + y, 1e-6, launch, outs
        if kind == "asin":
            x = torch.rand(n, device="cuda") * 2 - 1
            outs = {name: torch.empty_like(x) for name in self.modules}

            def launch(name):
                kernel, o = self.modules[name]["tutorials"].asin_kernel, outs[name]
                return lambda: kernel[(triton_cdiv(n, 1024),)](x, o, n, BLOCK_SIZE=1024)
            return "GB/s", 2 * 4 * n / 1e9, torch.asin(x.double()).float(), 1e-6, launch, outs
        if kind == "seeded_dropout":
            from philox_reference import uniform
            x = torch.randn(n, device="cuda")
            p, seed = 0.5, 123
            outs = {name: torch.empty_like(x) for name in self.modules}
            keep = uniform(torch, seed, torch.arange(n, device="cuda", dtype=torch.int64)) > p
            want = torch.where(keep, x / (1 - p), 0.0)

            def launch(name):
                kernel, o = self.modules[name]["tutorials"]._seeded_dropout, outs[name]
                return lambda: kernel[(triton_cdiv(n, 1024),)](x, o, n, p, seed, BLOCK_SIZE=1024)
            return "GB/s", 2 * 4 * n / 1e9, want, 1e-6, launch, outs
        if kind == "layer_norm_bwd":
            return self._layer_norm_bwd(n)
        rows = 4096
        x = torch.randn(rows, n, device="cuda")
        block = 1 << (n - 1).bit_length()
        outs = {name: torch.empty_like(x) for name in self.modules}
        if kind == "softmax":
            warps = 16 if block >= 4096 else 8 if block >= 2048 else 4

            def launch(name):
                kernel, o = self.modules[name]["tutorials"].softmax_kernel, outs[name]
                return lambda: kernel[(rows,)](o, x, x.stride(0), o.stride(0), rows, n, BLOCK_SIZE=block,
                                               num_stages=4, num_warps=warps)
            return "GB/s", 2 * 4 * rows * n / 1e9, torch.softmax(x, -1), 1e-5, launch, outs
        w = torch.rand(n, device="cuda")
        bias = torch.rand(n, device="cuda")
        mean = torch.empty(rows, device="cuda")
        rstd = torch.empty(rows, device="cuda")
        block = min(block, 65536 // 4)
        warps = min(max(block // 256, 1), 8)

        def launch(name):
            kernel, o = self.modules[name]["tutorials"]._layer_norm_fwd_fused, outs[name]
            return lambda: kernel[(rows,)](x, o, w, bias, mean, rstd, x.stride(0), n, 1e-5, BLOCK_SIZE=block,
                                           num_warps=warps)
        want = torch.nn.functional.layer_norm(x, (n,), w, bias, 1e-5)
        return "GB/s", 2 * 4 * rows * n / 1e9, want, 1e-4, launch, outs

    def _layer_norm_bwd(self, n):
        """Tutorial 05's backward at its benchmark's shapes: the two kernels
        in one timed call, the locks zeroed first (as the tutorial allocates
        them).  One flat fp16 output per compiler: dX, then dW and dB."""
        torch = self.torch
        rows = 4096
        x = -2.3 + 0.5 * torch.randn(rows, n, device="cuda", dtype=torch.float16)
        w = torch.rand(n, device="cuda", dtype=torch.float16)
        dy = 0.1 * torch.randn(rows, n, device="cuda", dtype=torch.float16)
        x32 = x.float()
        mean = x32.mean(1)
        rstd = 1 / torch.sqrt(x32.var(1, unbiased=False) + 1e-5)
        xhat = (x32 - mean[:, None]) * rstd[:, None]
        wdy = w.float() * dy.float()
        c1 = (xhat * wdy).sum(1, keepdim=True) / n
        c2 = wdy.sum(1, keepdim=True) / n
        want = torch.cat([((wdy - (xhat * c1 + c2)) * rstd[:, None]).flatten(),
                          (dy.float() * xhat).sum(0), dy.float().sum(0)])
        group = 256 if n <= 1024 else 128 if n <= 4096 else 96 if n <= 8192 else 64
        block = 1 << (n - 1).bit_length()
        warps = min(max(block // 256, 1), 8)
        outs = {name: torch.empty(rows * n + 2 * n, device="cuda", dtype=torch.float16) for name in self.modules}
        scratch = {name: (torch.zeros(2 * group, device="cuda", dtype=torch.int32),
                          torch.empty(group, n, device="cuda", dtype=torch.float16),
                          torch.empty(group, n, device="cuda", dtype=torch.float16)) for name in self.modules}

        def launch(name):
            module, out = self.modules[name]["tutorials"], outs[name]
            locks, partial_dw, partial_db = scratch[name]
            dx, dw, db = out[:rows * n].view(rows, n), out[rows * n:rows * n + n], out[rows * n + n:]

            def run():
                locks.zero_()
                module._layer_norm_bwd_dx_fused[(rows,)](dx, dy, partial_dw, partial_db, x, w, mean, rstd, locks,
                                                         x.stride(0), n, GROUP_SIZE_M=group, BLOCK_SIZE_N=block,
                                                         num_warps=warps)
                module._layer_norm_bwd_dwdb[(triton_cdiv(n, 128),)](partial_dw, partial_db, dw, db, group, n,
                                                                   BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)
            return run
        # (dW and dB are sums of 4096 rows kept in fp16 partials)
        return "GB/s", 3 * 2 * rows * n / 1e9, want, 2e-2, launch, outs


def triton_cdiv(a, b):
    return (a + b - 1) // b


def compile_only(compilers):
    """A context in which `kernel[grid](...)` compiles (or finds) the
    kernel and returns it without launching it, under each of `compilers`
    (the modules tritium and triton): Triton's warmup, through the launch
    syntax the items' launch functions use."""
    import contextlib
    import functools

    @contextlib.contextmanager
    def patched():
        saved = []
        for module in compilers:
            cls = module.JITFunction
            saved.append((cls, cls.__dict__.get("__getitem__")))
            cls.__getitem__ = lambda self, grid: functools.partial(self.run, grid=grid, warmup=True)
        try:
            yield
        finally:
            for cls, original in saved:
                if original is None:
                    del cls.__getitem__
                else:
                    cls.__getitem__ = original
    return patched()


def measure(item, quick, median_ms, turn=None, compilers=()):
    """The record row of `item`: per compiler its compile time, registers,
    throughput, or the error that stopped it.  With `turn` (a context that
    holds the GPU, --jobs) the kernels are compiled first without the GPU
    (compile_only of `compilers`), and the first calls, checks and timings
    run in the turn; the compile time is then the compile plus the first
    call."""
    import contextlib
    torch = item.torch
    row = {"work": item.label(), "config": str(item.config), "unit": item.unit}
    launches, compile_s = {}, {}
    for name in item.modules:
        try:
            launches[name] = item.launch(name)  # (tensor descriptors are made here)
            compile_s[name] = 0.0
            if turn is not None:
                t0 = time.perf_counter()
                with compile_only(compilers):
                    launches[name]()
                compile_s[name] = time.perf_counter() - t0
        except Exception as e:  # noqa: BLE001 - an item one compiler cannot build is a row, not the end
            row[f"{name} error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
            launches.pop(name, None)
    with turn if turn is not None else contextlib.nullcontext():
        fns = {}
        for name, fn in launches.items():
            try:
                t0 = time.perf_counter()
                fn()
                torch.cuda.synchronize()
                row[f"{name} compile s"] = round(compile_s[name] + time.perf_counter() - t0, 3)
            except Exception as e:  # noqa: BLE001
                row[f"{name} error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
                continue
            kernel = item.compiled(name)
            if kernel is not None:  # registers, spills and shared memory explain many ratios
                row[f"{name} regs"] = int(getattr(kernel, "n_regs", 0) or 0)
                row[f"{name} spills"] = int(getattr(kernel, "n_spills", 0) or 0)
                shared = getattr(kernel.metadata, "shared", None)
                if shared is None and hasattr(kernel.metadata, "get"):
                    shared = kernel.metadata.get("shared")
                row[f"{name} smem"] = int(shared or 0)
                notes = kernel.metadata.get("ptxas_notes") if hasattr(kernel.metadata, "get") else None
                if notes:  # (Tritium's: ptxas's performance notes, C7512 = wgmma serialized)
                    row[f"{name} ptxas notes"] = " ".join(notes)
            got = item.out[name].float()
            want = item.want.float()
            err = ((got - want).abs().max() / want.abs().max().clamp_min(1e-30)).item()
            if not err <= item.tol:
                row[f"{name} error"] = f"relative error {err:.3g} > {item.tol:.3g}"
                continue
            fns[name] = fn
        order = list(fns)
        times = {name: [] for name in fns}
        for r in range(1 if quick else 2):
            for name in (order if r % 2 == 0 else order[::-1]):
                times[name].append(median_ms(fns[name], quick))
    for name, ms in times.items():
        row[name] = round(item.work / (min(ms) / 1e3), 1)
    if row.get("tritium") and row.get("triton"):
        row["ratio"] = round(row["tritium"] / row["triton"], 3)
    return row


class GpuTurn:
    """The GPU for one worker of --jobs at a time: an exclusive flock on a
    file the workers share, held while a worker makes an item's inputs and
    reference and while it launches, checks and times the item's kernels
    (compiles run outside it, side by side)."""

    def __init__(self, path):
        self.file = open(path, "a")

    def __enter__(self):
        import fcntl
        fcntl.flock(self.file, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        import fcntl
        fcntl.flock(self.file, fcntl.LOCK_UN)
        return False


def run_jobs(args, chosen):
    """--jobs J: J worker processes (this script with --worker I/J) take
    every J-th of the chosen items; they compile at the same time and take
    turns on the GPU (GpuTurn).  Returns (rows in the items' order, the
    items left by --budget-s, the workers' measured keys for the record, and
    what failed, if a worker did)."""
    import subprocess
    import tempfile
    folder = tempfile.mkdtemp(prefix="bench-corpus-jobs-")
    lock = os.path.join(folder, "gpu.lock")
    argv, skip = [], False
    for arg in sys.argv[1:]:  # the same selection, without --jobs
        if skip:
            skip = False
        elif arg == "--jobs":
            skip = True
        elif not arg.startswith("--jobs="):
            argv.append(arg)
    workers = []
    for i in range(args.jobs):
        out = os.path.join(folder, f"worker{i}.json")
        workers.append((out, subprocess.Popen([sys.executable, os.path.abspath(__file__), *argv, "--worker",
                                               f"{i + 1}/{args.jobs}", "--gpu-lock", lock, "--rows-out", out])))
    failed = [i + 1 for i, (_, process) in enumerate(workers) if process.wait() != 0]
    by_line, left, measured = {}, [], {}
    for out, _ in workers:  # (a worker that failed wrote the rows of the items before its failure)
        if not os.path.exists(out):
            continue
        with open(out) as f:
            data = json.load(f)
        for line, row in data["rows"]:
            by_line[line] = row
        left += data["left"]
        measured = measured or {key: data[key] for key in ("gpu", "versions")}
    rows = [by_line[item_line(*i)] for i in chosen if item_line(*i) in by_line]
    lost = [i for i in chosen if item_line(*i) not in by_line and item_line(*i) not in left]
    for family, case, config in lost:
        print(f"not measured (worker {failed} failed):", family, case, config)
    return rows, [i for i in chosen if item_line(*i) in left], measured, (
        f"worker(s) {failed} failed, {len(lost)} items not measured" if failed else None)


def item_line(family, case, config):
    """An item as --list prints it and --match reads it."""
    return f"{family} {case} {config}"


def dump(item, out_dir):
    """Each compiler's build of `item` into out_dir/<item>/<compiler>.*:
    TTGIR, PTX and, with cuobjdump on PATH, SASS."""
    import re
    import shutil
    import subprocess
    folder = os.path.join(out_dir, re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{item.label()} {item.config}").strip("_"))
    os.makedirs(folder, exist_ok=True)
    for name in item.modules:
        kernel = item.compiled(name)
        if kernel is None:
            continue
        for key in ("ttgir", "ptx"):
            text = kernel.asm.get(key) if hasattr(kernel.asm, "get") else None
            if text:
                with open(os.path.join(folder, f"{name}.{key}"), "w") as f:
                    f.write(text)
        cubin = kernel.asm.get("cubin") if hasattr(kernel.asm, "get") else None
        if cubin and shutil.which("cuobjdump"):
            path = os.path.join(folder, f"{name}.cubin")
            with open(path, "wb") as f:
                f.write(cubin)
            sass = subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
            with open(os.path.join(folder, f"{name}.sass"), "w") as f:
                f.write(sass)


def geomean(values):
    values = [v for v in values if v]
    return round(math.exp(statistics.fmean(math.log(v) for v in values)), 3) if values else None


def summary(rows):
    """Lines: items, geomean, worst 15, compile totals, failures."""
    ratios = [r["ratio"] for r in rows if r.get("ratio")]
    compile_t = {name: sum(r.get(f"{name} compile s", 0) for r in rows if r.get("ratio")) for name in
                 ("tritium", "triton")}
    lines = [f"items {len(rows)}, compared {len(ratios)}, geomean Tritium/Triton {geomean(ratios)}",
             f"compile s over the compared items: Tritium {compile_t['tritium']:.1f}, Triton "
             f"{compile_t['triton']:.1f}" + (f" ({compile_t['tritium'] / compile_t['triton']:.2f}x)"
                                            if compile_t["triton"] else "")]
    families = sorted({r["work"].split()[0] for r in rows})
    for family in families:
        fr = [r["ratio"] for r in rows if r.get("ratio") and r["work"].startswith(family + " ")]
        lines.append(f"  {family}: {len(fr)} items, geomean {geomean(fr)}, min {min(fr) if fr else None}")
    lines.append("worst 15:")
    for r in sorted((r for r in rows if r.get("ratio")), key=lambda r: r["ratio"])[:15]:
        lines.append(f"  {r['ratio']:.3f}  {r['work']} {r['config']}  ({r.get('tritium')} vs {r.get('triton')} "
                     f"{r['unit']})")
    failed = [r for r in rows if any(k.endswith("error") for k in r)]
    for r in failed:
        errors = "; ".join(f"{k}: {v}" for k, v in r.items() if k.endswith("error"))
        lines.append(f"failed: {r['work']} {r['config']}: {errors}")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--shard", default="1/1")
    parser.add_argument("--match", action="append", default=[])
    parser.add_argument("--dump", default=None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--merge", nargs="+")
    parser.add_argument("--list", action="store_true", help="print the items and exit (no GPU needed)")
    parser.add_argument("--budget-s", type=float, default=None,
                        help="start no item after this many seconds (the record says which items were left)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes that compile side by side and take turns on the GPU")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)  # I/J, from --jobs
    parser.add_argument("--gpu-lock", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--rows-out", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()

    from results_page import record  # noqa: E402  (bench/results/bench_corpus.json)
    if args.merge:
        rows, shards = [], []
        for path in args.merge:
            with open(path) as f:
                shards.append(json.load(f))
            rows += shards[-1]["rows"]
        # the record says where the shards ran, not where they were joined
        measured = {key: shards[0].get(key) for key in ("date", "time", "gpu", "cpu", "commit", "modified", "versions")}
        partial = None
        for key in ("gpu", "commit", "modified"):
            if len({json.dumps(shard.get(key)) for shard in shards}) > 1:
                partial = f"shards of different {key}s"
        lines = summary(rows)
        print("\n".join(lines))
        record("bench_corpus", rows, headers=HEADERS, digits={"ratio": 3},
               notes=lines[:2] + [f"joined from {len(shards)} runs: " + "; ".join(
                   f"`{shard.get('command')}`" for shard in shards)],
               partial=partial, measured=measured)
        return

    families = [f for f in args.families.split(",") if f]
    for f in families:
        if f not in FAMILIES:
            parser.error(f"no family {f!r}: {', '.join(FAMILIES)}")
    shard, of = (int(x) for x in args.shard.split("/"))
    chosen = items(families, args.quick)[shard - 1::of]
    if args.match:
        chosen = [i for i in chosen if any(text in item_line(*i) for text in args.match)]
    if args.list:
        for family, case, config in chosen:
            print(item_line(family, case, config))
        print(len(chosen), "items")
        return
    if args.jobs < 1:
        parser.error("--jobs takes a number of workers, 1 or more")

    started = time.perf_counter()
    if args.jobs > 1 and args.worker is None:
        rows, left, measured, failed = run_jobs(args, chosen)
        print(f"{len(rows)} items in {time.perf_counter() - started:.0f} s ({args.jobs} workers)")
        finish(args, families, shard, of, rows, left, record, measured, failed,
               [f"{args.jobs} workers compiled side by side and took turns on the GPU; compile s: the compile "
                "without a launch, then the first call in the GPU's turn"])
        return
    turn = None
    if args.worker is not None:
        worker, workers = (int(x) for x in args.worker.split("/"))
        chosen = chosen[worker - 1::workers]
        turn = GpuTurn(args.gpu_lock)

    from bench_setup import HAVE_TRITON, TritonDescriptor, tl, triton  # the path, fresh caches
    import contextlib

    import torch
    import tritium
    import tritium.language as ttl
    from bench_timing import median_ms
    from kernel_sources import load_kernels

    from tritium.tools.tensor_descriptor import TensorDescriptor as TritiumDescriptor

    def scratch(size, alignment, stream):  # global memory for tensor maps made in a kernel (attn_bwd_tma)
        return torch.empty(size, device="cuda", dtype=torch.int8)
    tritium.set_allocator(scratch)
    if HAVE_TRITON:
        triton.set_allocator(scratch)
    compilers = {"tritium": (tritium, ttl, TritiumDescriptor)}
    if HAVE_TRITON:
        compilers["triton"] = (triton, tl, TritonDescriptor)
    modules = {name: dict({key: load_kernels(file, mod, lang, name) for key, file in KERNEL_FILES.items()},
                          TensorDescriptor=descriptor)
               for name, (mod, lang, descriptor) in compilers.items()}
    rows, lines, left = [], [], []  # lines: each row's item as --list prints it

    def write_rows():  # a worker's rows for run_jobs, after each item (the record is run_jobs's to write)
        from results_page import _gpu, _versions
        with open(args.rows_out + ".new", "w") as f:
            json.dump({"rows": list(zip(lines, rows)), "left": [item_line(*i) for i in left], "gpu": _gpu(),
                       "versions": _versions()}, f)
        os.replace(args.rows_out + ".new", args.rows_out)
    for family, case, config in chosen:
        if args.budget_s is not None and time.perf_counter() - started > args.budget_s:
            left.append((family, case, config))
            continue
        torch.backends.cuda.matmul.allow_tf32 = family == "inductor_mm" and case == ("tf32",)
        try:
            with turn if turn is not None else contextlib.nullcontext():  # inputs and reference on the GPU
                item = Item(family, case, config, modules, torch)
        except Exception as e:  # noqa: BLE001 - an item whose inputs cannot be made is a row, not the end
            row = {"work": f"{family} {' '.join(str(c) for c in case)}", "config": str(config),
                   "error": f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"}
            rows.append(row)
            lines.append(item_line(family, case, config))
            print(json.dumps(row), flush=True)
            continue
        row = measure(item, args.quick, median_ms, turn, [mod for mod, _, _ in compilers.values()])
        if args.dump:
            dump(item, args.dump)
        rows.append(row)
        lines.append(item_line(family, case, config))
        print(json.dumps(row), flush=True)
        del item
        torch.cuda.empty_cache()
        if args.worker is not None:
            write_rows()
    if args.worker is not None:
        write_rows()
        return
    print(f"{len(rows)} items in {time.perf_counter() - started:.0f} s")
    finish(args, families, shard, of, rows, left, record)


def finish(args, families, shard, of, rows, left, record, measured=None, failed=None, notes=()):
    """Prints the summary and the items --budget-s left, and writes the record."""
    lines = summary(rows)
    print("\n".join(lines))
    partial = None
    if of > 1 or args.quick or set(families) != set(FAMILIES) or left or args.match or failed:
        partial = ("" if not failed else failed + ", ") + f"shard {shard}/{of}" + (" quick" if args.quick else "") + (
            "" if set(families) == set(FAMILIES) else f" families {','.join(families)}") + (
            f", {len(left)} items left by --budget-s" if left else "") + (
            f", items matching {args.match}" if args.match else "")
    for family, case, config in left:
        print("left:", family, case, config)
    record("bench_corpus", rows, headers=HEADERS, digits={"ratio": 3}, notes=lines[:2] + list(notes),
           partial=partial, measured=measured)


if __name__ == "__main__":
    main()
