// REQUIRES: ptxas
// RUN: not tritium-translate %s --emit=ptxas-info --arch=90 2>&1 | FileCheck %s

// PTX that ptxas rejects (here an inline asm instruction that does not
// exist) comes back as an error carrying ptxas's own message, with the PTX
// named kernel.ptx rather than a temporary path.

// CHECK: error: ptxas rejected the PTX of kernel 'bad_asm' for sm_90a:
// CHECK: ptxas kernel.ptx, line {{[0-9]+}}; error
// CHECK: ptxas fatal
module {
  llvm.func @bad_asm() attributes {nvvm.kernel} {
    llvm.inline_asm has_side_effects "not.an.instruction;", "" : () -> ()
    llvm.return
  }
}
