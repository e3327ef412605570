"""One rank of a data-parallel training run of a compiled model, started by
`torchrun --nproc_per_node 2` (test_torch_compile_ddp.py).

A two-layer GPT-2 (transformers' GPT2LMHeadModel, random weights, dropout
off) is trained for a few AdamW steps twice in the same process: wrapped in
DistributedDataParallel and compiled with torch.compile (Inductor splits the
graph at DDP's gradient buckets), and wrapped in DDP in eager mode.  Both start
from the same weights on every rank; each rank feeds its own batches.  The
rank writes rank<R>.json into OUT_DIR with the loss of each step (its own and
the mean over ranks, compiled and eager), the largest difference between the
ranks' compiled weights after the last step (all-reduced gradients make them
equal), which module `import triton` gave, and the kernel count.

  torchrun --standalone --nproc_per_node 2 ddp_compiled_training.py OUT_DIR [STEPS]
"""
import copy
import json
import os
import sys
import time

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

VOCAB = 1000


def build_model():
    import transformers as tf
    cfg = tf.GPT2Config(n_layer=2, n_embd=256, n_head=4, vocab_size=VOCAB, n_positions=256, resid_pdrop=0.0,
                        embd_pdrop=0.0, attn_pdrop=0.0)
    return tf.GPT2LMHeadModel(cfg)


def train_step(model, opt, ids):
    opt.zero_grad(set_to_none=True)
    loss = model(input_ids=ids, labels=ids).loss
    loss.backward()
    opt.step()
    return loss.detach()


def mean_over_ranks(value):
    value = value.clone()
    dist.all_reduce(value)
    return value / dist.get_world_size()


def main(out_dir, steps):
    rank, local = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local)
    dist.init_process_group("nccl")
    import triton

    torch.manual_seed(0)
    base = build_model().cuda()
    compiled_ddp = DistributedDataParallel(copy.deepcopy(base), device_ids=[local])
    eager_ddp = DistributedDataParallel(base, device_ids=[local])
    compiled = torch.compile(compiled_ddp)
    opt_c = torch.optim.AdamW(compiled_ddp.parameters(), lr=1e-3)
    opt_e = torch.optim.AdamW(eager_ddp.parameters(), lr=1e-3)

    from torch._inductor import metrics
    metrics.reset()
    batches = torch.Generator().manual_seed(1000 + rank)
    record = {"rank": rank, "triton": triton.__name__, "loss": [], "loss_eager": [], "mean_loss": [],
              "mean_loss_eager": []}
    for step in range(steps):
        ids = torch.randint(0, VOCAB, (4, 128), generator=batches).cuda()
        t0 = time.perf_counter()
        loss_c = train_step(compiled, opt_c, ids)
        torch.cuda.synchronize()
        if step == 0:
            record["first_step_s"] = round(time.perf_counter() - t0, 2)
        loss_e = train_step(eager_ddp, opt_e, ids)
        record["loss"].append(loss_c.item())
        record["loss_eager"].append(loss_e.item())
        record["mean_loss"].append(mean_over_ranks(loss_c).item())
        record["mean_loss_eager"].append(mean_over_ranks(loss_e).item())

    flat = torch.cat([p.detach().flatten() for p in compiled_ddp.parameters()])
    gathered = [torch.empty_like(flat) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, flat)
    record["rank_weight_diff"] = max((g - flat).abs().max().item() for g in gathered)
    eager_flat = torch.cat([p.detach().flatten() for p in eager_ddp.parameters()])
    record["weight_err"] = ((flat - eager_flat).abs().max() / eager_flat.abs().max()).item()
    record["kernels"] = getattr(metrics, "generated_kernel_count", None)
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as f:
        json.dump(record, f)
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 6)
