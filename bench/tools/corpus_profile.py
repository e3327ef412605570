"""One item of the performance corpus (bench/bench_corpus.py) launched by
one compiler, for profilers: the item's inputs, its launch checked against
torch once, then LAUNCHES more launches and a synchronize.  Under Nsight
Compute, skip the checked launch and profile one of the rest:

  ncu --launch-skip 1 --launch-count 1 -k regex:KERNEL \\
      python bench/tools/corpus_profile.py tritium|triton "ITEM" [--launches N]

ITEM is text of one line of `bench_corpus.py --list` (the first item whose
line contains it is taken, e.g. "attention ('fp16', 256, False) (64, 32, 3, 4)").
Needs a GPU; `triton` needs Triton installed.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("compiler", choices=("tritium", "triton"))
    parser.add_argument("item")
    parser.add_argument("--launches", type=int, default=2)
    args = parser.parse_args()

    import bench_corpus
    chosen = [i for i in bench_corpus.items(bench_corpus.FAMILIES, False)
              if args.item in bench_corpus.item_line(*i)]
    if not chosen:
        sys.exit(f"corpus_profile.py: no item's line contains {args.item!r} (bench_corpus.py --list)")
    family, case, config = chosen[0]
    print("item:", bench_corpus.item_line(family, case, config), file=sys.stderr)

    import torch
    from bench_setup import TritonDescriptor, tl, triton  # the path, fresh caches
    from kernel_sources import load_kernels
    if args.compiler == "tritium":
        import tritium as mod
        import tritium.language as lang
        from tritium.tools.tensor_descriptor import TensorDescriptor as descriptor
    else:
        if triton is None:
            sys.exit("corpus_profile.py: Triton is not installed")
        mod, lang, descriptor = triton, tl, TritonDescriptor
    mod.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    modules = {args.compiler: dict({key: load_kernels(file, mod, lang, args.compiler)
                                    for key, file in bench_corpus.KERNEL_FILES.items()},
                                   TensorDescriptor=descriptor)}
    torch.backends.cuda.matmul.allow_tf32 = family == "inductor_mm" and case == ("tf32",)
    item = bench_corpus.Item(family, case, config, modules, torch)
    run = item.launch(args.compiler)
    run()
    torch.cuda.synchronize()
    err = ((item.out[args.compiler].float() - item.want.float()).abs().max()
           / item.want.float().abs().max().clamp_min(1e-30)).item()
    print(f"relative error {err:.3g} (tolerance {item.tol:.3g})", file=sys.stderr)
    for _ in range(args.launches):
        run()
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
