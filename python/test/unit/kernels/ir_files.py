"""Files of Triton IR for `triton.compile(path)`.  TTGIR written the way
Triton prints it: a kernel that reads an M x N float16 tile in one layout,
moves it (and its offsets) to another layout, optionally through shared
memory in a third, and writes it back where it came from.  The output
equals the input for every layout pair, so a wrong conversion shows as
wrong elements.  And a small TTIR kernel.  The CPU tests compile these
files; the GPU tests run them."""

# A .ttir kernel: x[i] += 1 for i < n (one program of 128 elements).
TTIR_ADD = """\
module {
  tt.func public @add_one(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %offs = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %bound = tt.splat %n : i32 -> tensor<128xi32>
    %mask = arith.cmpi slt, %offs, %bound : tensor<128xi32>
    %ptrs = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %at = tt.addptr %ptrs, %offs : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %at, %mask : tensor<128x!tt.ptr<f32>>
    %one = arith.constant dense<1.0> : tensor<128xf32>
    %w = arith.addf %v, %one : tensor<128xf32>
    tt.store %at, %w, %mask : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
"""

# Layouts in Triton's printed syntax, CTA-group fields included.
BLOCKED_ROWS = ("#ttg.blocked<{sizePerThread=[1, 4], threadsPerWarp=[8, 4], warpsPerCTA=[4, 1], order=[1, 0], "
                "CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[1, 0]}>")
BLOCKED_COLUMNS = ("#ttg.blocked<{sizePerThread=[1, 1], threadsPerWarp=[32, 1], warpsPerCTA=[2, 2], order=[0, 1], "
                   "CTAsPerCGA=[1, 1], CTASplitNum=[1, 1], CTAOrder=[0, 1]}>")
MMA_V2 = ("#ttg.nvidia_mma<{versionMajor=2, versionMinor=0, warpsPerCTA=[2, 2], CTAsPerCGA=[1, 1], "
          "CTASplitNum=[1, 1], CTAOrder=[1, 0], instrShape=[16, 8]}>")
MMA_V3 = ("#ttg.nvidia_mma<{versionMajor=3, versionMinor=0, warpsPerCTA=[4, 1], CTAsPerCGA=[1, 1], "
          "CTASplitNum=[1, 1], CTAOrder=[1, 0], instrShape=[16, 32, 16]}>")
DOT_A_V2 = f"#ttg.dot_op<{{parent={MMA_V2}, opIdx=0, kWidth=2}}>"
# Threads along columns, registers along rows: a 16 x 32 tile over 4 warps.
LINEAR = "#ttg.linear<{register=[[1, 0], [2, 0]], lane=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp=[[4, 0], [8, 0]], block=[]}>"
SWIZZLED = ("#ttg.swizzled_shared<{vec=4, perPhase=2, maxPhase=4, order=[1, 0], CTAsPerCGA=[1, 1], "
            "CTASplitNum=[1, 1], CTAOrder=[0, 1]}>")
NVMMA_ROWS = ("#ttg.nvmma_shared<{swizzlingByteWidth=64, transposed=false, elementBitWidth=16, CTAsPerCGA=[1, 1], "
              "CTASplitNum=[1, 1], CTAOrder=[1, 0]}>")

LAYOUT_PAIRS = [(BLOCKED_ROWS, BLOCKED_COLUMNS, None), (BLOCKED_ROWS, MMA_V2, None), (MMA_V3, BLOCKED_COLUMNS, None),
                (MMA_V2, DOT_A_V2, None), (BLOCKED_COLUMNS, MMA_V3, SWIZZLED), (BLOCKED_ROWS, MMA_V2, NVMMA_ROWS),
                (LINEAR, BLOCKED_ROWS, None), (MMA_V2, LINEAR, SWIZZLED)]


def layout_copy_ttgir(m: int, n: int, src: str, dst: str, interm: str = None) -> str:
    """The copy kernel `kernel(x: *fp16, z: *fp16)` over an m x n tile (4 warps)."""
    aliases = f"#src = {src}\n#dst = {dst}\n#smem = #ttg.shared_memory\n"
    through_shared = ""
    if interm:
        aliases += f"#interm = {interm}\n"
        through_shared = f"""
    %s0 = ttg.local_alloc %x : (tensor<{m}x{n}xf16, #src>) -> !ttg.memdesc<{m}x{n}xf16, #interm, #smem>
    %x1 = ttg.local_load %s0 : !ttg.memdesc<{m}x{n}xf16, #interm, #smem> -> tensor<{m}x{n}xf16, #src>"""
    value = "%x1" if interm else "%x"
    return aliases + f"""module attributes {{"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @kernel(%x_ptr: !tt.ptr<f16> {{tt.divisibility = 16 : i32}}, %z_ptr: !tt.ptr<f16> {{tt.divisibility = 16 : i32}}) {{
    %cols = arith.constant dense<{n}> : tensor<{m}x1xi32, #src>
    %r = tt.make_range {{end = {m} : i32, start = 0 : i32}} : tensor<{m}xi32, #ttg.slice<{{dim = 1, parent = #src}}>>
    %c = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32, #ttg.slice<{{dim = 0, parent = #src}}>>
    %r2 = tt.expand_dims %r {{axis = 1 : i32}} : tensor<{m}xi32, #ttg.slice<{{dim = 1, parent = #src}}>> -> tensor<{m}x1xi32, #src>
    %rs = arith.muli %r2, %cols : tensor<{m}x1xi32, #src>
    %c2 = tt.expand_dims %c {{axis = 0 : i32}} : tensor<{n}xi32, #ttg.slice<{{dim = 0, parent = #src}}>> -> tensor<1x{n}xi32, #src>
    %cb = tt.broadcast %c2 : tensor<1x{n}xi32, #src> -> tensor<{m}x{n}xi32, #src>
    %rb = tt.broadcast %rs : tensor<{m}x1xi32, #src> -> tensor<{m}x{n}xi32, #src>
    %offs = arith.addi %rb, %cb : tensor<{m}x{n}xi32, #src>
    %xs = tt.splat %x_ptr : !tt.ptr<f16> -> tensor<{m}x{n}x!tt.ptr<f16>, #src>
    %xp = tt.addptr %xs, %offs : tensor<{m}x{n}x!tt.ptr<f16>, #src>, tensor<{m}x{n}xi32, #src>
    %x = tt.load %xp : tensor<{m}x{n}x!tt.ptr<f16>, #src>{through_shared}
    %y = ttg.convert_layout {value} : tensor<{m}x{n}xf16, #src> -> tensor<{m}x{n}xf16, #dst>
    %offs_dst = ttg.convert_layout %offs : tensor<{m}x{n}xi32, #src> -> tensor<{m}x{n}xi32, #dst>
    %zs = tt.splat %z_ptr : !tt.ptr<f16> -> tensor<{m}x{n}x!tt.ptr<f16>, #dst>
    %zp = tt.addptr %zs, %offs_dst : tensor<{m}x{n}x!tt.ptr<f16>, #dst>, tensor<{m}x{n}xi32, #dst>
    tt.store %zp, %y : tensor<{m}x{n}x!tt.ptr<f16>, #dst>
    tt.return
  }}
}}
"""
