"""An experiment, not a feature: does TMA multicast of the shared B tile in
2-CTA clusters speed up tutorial 09's persistent matmul?  Tritium compiles
the kernel as usual; this script edits the PTX into a cluster kernel,
assembles it with the ptxas the compile used, and times it beside the
unedited kernel and Triton's (7 rounds, order rotating, do_bench medians),
after checking every variant against torch.matmul.

  python bench/tools/multicast_probe.py [SIZE]        (on the GPU machine)

The edits assume what holds for the bench shapes (M = N = K = 4096 or 8192,
128x256x64 tiles, GROUP_SIZE_M = 8, 132 programs): programs 2c and 2c+1
always work on tiles t and t+1 of one group column, so they share every B
tile, and both run the same number of tiles.  A compiler would have to check
this at run time.  Variants (`.reqnctapercluster 2` on the entry, a
cluster barrier after the barriers' initialization and before exit):
  rank0  the non-specialized kernel; rank 0 multicasts B to both CTAs, rank 1
         loads only A.  Before refilling a slot, rank 0 waits on an `empty`
         barrier of its own that rank 1 arrives on (mapa + remote arrive)
         once its wgmma reading the slot has completed; that barrier's
         phase is the full barrier's phase of the same iteration.
  split  the same with the B copies shared out by slot: rank (slot & 1)
         multicasts the slot's B tile, and each rank waits for the other's
         release of the slots it refills (even stage counts only).
  ws     the warp-specialized kernel: rank 0's producer multicasts B; the
         empty barriers of rank 0 count both CTAs' consumer warps (16), and
         rank 1's consumers arrive remotely as well as locally.
The remote arrives use mbarrier.arrive's default semantics (release at CTA
scope, as CUTLASS's ClusterBarrier does): with `.release.cluster` every
variant ran 20-30% slower.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

os.environ["TRITIUM_ALWAYS_COMPILE"] = "1"  # the edited and unedited kernels must not share a cache entry
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from bench_setup import HAVE_TRITON, TritonDescriptor, tl, triton  # noqa: E402 - first: the path, fresh caches

import torch  # noqa: E402

import tritium  # noqa: E402
import tritium.language as ttl  # noqa: E402
from tritium import _native  # noqa: E402
from tritium.tools.tensor_descriptor import TensorDescriptor as TritiumDescriptor  # noqa: E402
from bench_timing import median_ms  # noqa: E402
from kernel_sources import load_kernels  # noqa: E402

CLUSTER_SYNC = "\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n"
COPY = r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes"
MULTICAST = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
RANK_REGISTERS = ("\t.reg .pred %pc<4>;\n\t.reg .b32 %rc<4>;\n\t.reg .b16 %hc<2>;\n"
                  "\tmov.u32 %rc0, %cluster_ctarank;\n\tsetp.eq.u32 %pc0, %rc0, 0;\n\tmov.b16 %hc0, 3;\n"
                  "\tmov.u32 %rc1, %tid.x;\n\tsetp.eq.u32 %pc1, %rc1, 0;\n")


def _sub_once(pattern, replacement, text, count=1):
    out, n = re.subn(pattern, replacement, text)
    assert n == count, f"{pattern}: {n} matches, expected {count}"
    return out


def _cluster_entry(ptx):
    ptx = _sub_once(r"(\.maxntid \d+, 1, 1\n)", lambda m: m[1] + ".explicitcluster\n.reqnctapercluster 2, 1, 1\n", ptx)
    ptx = _sub_once(r"(\t\.reg \.b64 \t%rd<\d+>;\n)", lambda m: m[1] + RANK_REGISTERS, ptx)
    return _sub_once(r"\n\tret;\n", "\n" + CLUSTER_SYNC + "\tret;\n", ptx)


def _b_descriptor(ptx):
    param = re.search(r"mov\.b64 \t(%rd\d+), \w+_param_6;", ptx)[1]  # b_desc's tensor map
    return re.search(r"cvta\.param\.u64 \t(%rd\d+), " + re.escape(param) + ";", ptx)[1]


def edit_persistent(ptx, shared, stages, mode):
    """rank0 / split on matmul_tma_persistent; returns (ptx, shared bytes)."""
    out = _cluster_entry(ptx)
    base = re.search(r"mov\.b32 \t(%r\d+), global_smem;", out)[1]
    first_init = re.search(r"mbarrier\.init\.shared::cta\.b64 \[ (%r\d+) \+ 0 \]", out)[1]
    full_base = int(re.search(re.escape(f"add.s32 \t{first_init}, {base}, ") + r"(\d+);", out)[1])
    empty_base = (shared + 7) // 8 * 8
    # the empty barriers, then a cluster-wide sync before the first copy
    init = (f"\tadd.s32 %rc2, {base}, {empty_base};\n" +
            "".join(f"\t@%pc1 mbarrier.init.shared::cta.b64 [ %rc2 + {8 * s} ], 1;\n" for s in range(stages)) +
            "\tfence.mbarrier_init.release.cluster;\n" + CLUSTER_SYNC)
    at = out.index("\tbar.sync \t0;\n") + len("\tbar.sync \t0;\n")
    out = out[:at] + init + out[at:]
    loop_at = out.index("tritium_wait: mbarrier.try_wait.parity")
    prologue = [0]

    def b_copy(m):
        who = "%pc0"
        if mode == "split":  # the prologue's k-th copy fills slot k; the loop's slot is in %pc3
            who = ("%pc0" if prologue[0] % 2 == 0 else "!%pc0") if m.start() < loop_at else "%pc3"
            prologue[0] += m.start() < loop_at
        guard = (f"and.pred q, {m[1]}, {who};" if not who.startswith("!")
                 else f"{{ .reg .pred r1; not.pred r1, %pc0; and.pred q, {m[1]}, r1; }}")
        return f"{{ .reg .pred q; {guard} @q {MULTICAST} {m[2]}, {m[3]}, {m[4]}, %hc0; }}"
    out, n = re.subn(rf"@(%p\d+) {COPY} (\[%r\d+\]), (\[{re.escape(_b_descriptor(out))}, \{{[^}}]*\}}\]), "
                     r"(\[%r\d+\]);", b_copy, out)
    assert n >= 3, n
    # in the K loop, after the CTA barrier that follows wgmma.wait_group 1:
    # release the consumed slot to its refiller, and wait before refilling
    wait = re.search(r"tritium_wait: mbarrier\.try_wait\.parity\.shared::cta\.b64 done, \[%r\d+\], (%r\d+);", out)
    full_slot = re.compile(r"mbarrier\.arrive\.expect_tx\.shared::cta\.b64 _, \[ (%r\d+) \+ 0 \], \d+;").search(
        out, wait.end())[1]
    at = out.index("\tbar.sync \t0;\n", wait.end()) + len("\tbar.sync \t0;\n")
    mine = (f"\tsub.s32 sl, {full_slot}, {base};\n\tshr.u32 sl, sl, 3;\n\tand.b32 sl, sl, 1;\n"
            "\tsetp.eq.u32 %pc3, sl, %rc0;\n\txor.b32 sl, %rc0, 1;\n" if mode == "split"
            else "\tmov.pred %pc3, %pc0;\n\tmov.u32 sl, 0;\n")
    code = ("\t{ .reg .pred q, done; .reg .b32 ea, ra, sl;\n" + mine +
            f"\tadd.s32 ea, {full_slot}, {empty_base - full_base};\n"
            "\tand.pred q, %pc1, !%pc3;\n\tmapa.shared::cluster.u32 ra, ea, sl;\n"
            "\t@q mbarrier.arrive.shared::cluster.b64 _, [ra];\n\t@!%pc3 bra.uni cl_done;\n"
            f"\tcl_wait: mbarrier.try_wait.parity.shared::cta.b64 done, [ea], {wait[1]};\n"
            "\t@!done bra.uni cl_wait;\n\tcl_done: }\n")
    return out[:at] + code + out[at:], empty_base + 8 * stages


def edit_ws(ptx, shared, stages, mode):
    """ws on matmul_tma_persistent_ws; returns (ptx, shared bytes)."""
    out = _cluster_entry(ptx)
    out = _sub_once(r"(\tmov\.u32 %rc1, %tid\.x;\n)", lambda m: m[1] + "\tselp.b32 %rc3, 16, 8, %pc0;\n", out)
    out = _sub_once(r"(mbarrier\.init\.shared::cta\.b64 \[ %r\d+ \+ 0 \]), 8;", r"\1, %rc3;", out, stages)
    at = out.index("\tbar.sync \t0;\n") + len("\tbar.sync \t0;\n")
    out = out[:at] + CLUSTER_SYNC + out[at:]
    out, n = re.subn(rf"@(%p\d+) {COPY} (\[%r\d+\]), (\[{re.escape(_b_descriptor(out))}, \{{[^}}]*\}}\]), "
                     r"(\[%r\d+\]);",
                     lambda m: f"{{ .reg .pred q; and.pred q, {m[1]}, %pc0; @q {MULTICAST} {m[2]}, {m[3]}, {m[4]}, "
                               "%hc0; }", out)
    assert n >= 1, n
    out, n = re.subn(r"@(%p\d+) mbarrier\.arrive\.shared::cta\.b64 _, \[ (%r\d+) \+ 0 \];",
                     lambda m: (f"{m[0]}\n{{ .reg .pred q; .reg .b32 ra; mapa.shared::cluster.u32 ra, {m[2]}, 0; "
                                f"and.pred q, {m[1]}, !%pc0;\n@q mbarrier.arrive.shared::cluster.b64 _, [ra]; }}"), out)
    assert n >= 2, n
    return out, shared


def assemble(ptx, ptxas):
    folder = tempfile.mkdtemp(prefix="multicast-probe-")
    source, cubin = os.path.join(folder, "k.ptx"), os.path.join(folder, "k.cubin")
    with open(source, "w") as f:
        f.write(ptx)
    run = subprocess.run([ptxas, "-v", "--gpu-name=sm_90a", "-O3", "-lineinfo", source, "-o", cubin],
                         capture_output=True, text=True)
    if run.returncode:
        raise RuntimeError(run.stderr)
    with open(cubin, "rb") as f:
        return f.read()


EDIT = [None]  # the variant the next compile is edited into
_compile_cuda = _native.NativeLibrary.compile_cuda


def _compile_and_edit(self, ttir, options=None, source_name="<ir>"):
    stages, cubin = _compile_cuda(self, ttir, options, source_name)
    if EDIT[0] and stages.get("name", "").startswith("matmul_tma_persistent"):
        editor = edit_ws if EDIT[0] == "ws" else edit_persistent
        stages["ptx"], stages["shared"] = editor(stages["ptx"], stages["shared"], int(options["num_stages"]),
                                                 EDIT[0])
        cubin = assemble(stages["ptx"], stages["ptxas"])
    return stages, cubin


_native.NativeLibrary.compile_cuda = _compile_and_edit


def main():
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    programs = torch.cuda.get_device_properties(0).multi_processor_count
    a = torch.randn(size, size, device="cuda", dtype=torch.float16)
    b = torch.randn(size, size, device="cuda", dtype=torch.float16)
    want = torch.matmul(a, b.T).float()

    def launcher(compiler, descriptor, kernel, stages, variant=None):
        module = load_kernels("persistent_matmul_kernels.py", *compiler, f"{variant}{stages}{kernel}")
        c = torch.full((size, size), float("nan"), device="cuda", dtype=torch.float16)
        descs = (descriptor.from_tensor(a, [128, 64]), descriptor.from_tensor(b, [256, 64]),
                 descriptor.from_tensor(c, [128, 256]))

        def fn():
            getattr(module, kernel)[(programs,)](*descs, size, size, size, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256,
                                                 BLOCK_SIZE_K=64, GROUP_SIZE_M=8, NUM_SMS=programs,
                                                 num_stages=stages, num_warps=8)
        EDIT[0] = variant
        try:
            fn()
        finally:
            EDIT[0] = None
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        error = (c.float() - want).abs().max().item()
        assert error < 0.02 * want.abs().max().item(), f"{kernel} {stages} {variant}: max error {error}"
        return fn

    ours = (tritium, ttl)
    fns = {"tritium 4": launcher(ours, TritiumDescriptor, "matmul_tma_persistent", 4),
           "rank0 4": launcher(ours, TritiumDescriptor, "matmul_tma_persistent", 4, "rank0"),
           "split 4": launcher(ours, TritiumDescriptor, "matmul_tma_persistent", 4, "split"),
           "tritium ws 3": launcher(ours, TritiumDescriptor, "matmul_tma_persistent_ws", 3),
           "ws 3": launcher(ours, TritiumDescriptor, "matmul_tma_persistent_ws", 3, "ws")}
    if HAVE_TRITON:
        fns["triton 3"] = launcher((triton, tl), TritonDescriptor, "matmul_tma_persistent", 3)
    names = list(fns)
    tflops = {n: [] for n in names}
    for r in range(7):
        for n in names[r % len(names):] + names[:r % len(names)]:
            tflops[n].append(2 * size ** 3 / median_ms(fns[n]) * 1e-9)
    line = " ".join(f"{n}: {statistics.median(v):.1f}" for n, v in tflops.items())
    if HAVE_TRITON:
        reference = statistics.median(tflops["triton 3"])
        line += " | / triton 3: " + " ".join(f"{n} {statistics.median(v) / reference:.3f}"
                                             for n, v in tflops.items())
    print(size, line, flush=True)


if __name__ == "__main__":
    main()
