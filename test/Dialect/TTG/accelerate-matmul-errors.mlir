// RUN: tritium-opt %s -ttg-accelerate-matmul -verify-diagnostics

// fp8e4nv exists from sm_89 on: a dot of it for sm_80 is an error at the
// dot, not a wrong answer.
#acc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#dota = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 1}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #acc, kWidth = 1}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:80"} {
  tt.func @fp8_before_sm89(%a: tensor<64x32xf8E4M3FN, #dota>, %b: tensor<32x64xf8E4M3FN, #dotb>, %c: tensor<64x64xf32, #acc>) {
    // expected-error @+1 {{dot operands of type fp8e4nv need compute capability 89 or newer, the target has 80}}
    %d = tt.dot %a, %b, %c : tensor<64x32xf8E4M3FN, #dota> * tensor<32x64xf8E4M3FN, #dotb> -> tensor<64x64xf32, #acc>
    tt.return
  }
}
