// Targets and modules the back end refuses, each with a message instead of an
// LLVM crash or a `.target` that ptxas would reject later.

// An arch Tritium does not compile for.
// RUN: not tritium-translate %s --arch=75 2>&1 | FileCheck %s --check-prefix=ARCH75
// ARCH75: error: unsupported arch '75' (compute capability 7.5): Tritium compiles for compute capabilities 80, 86, 89, 90

// An arch that is not a number.
// RUN: not tritium-translate %s --arch=hopper 2>&1 | FileCheck %s --check-prefix=ARCHWORD
// ARCHWORD: error: invalid arch 'hopper': expected a compute capability such as 90

// The other spellings of an arch are accepted.
// RUN: tritium-translate %s --arch=sm_90a --ptx-version=8.0 | FileCheck %s --check-prefix=SPELLING
// RUN: tritium-translate %s --arch=cuda:90 --ptx-version=80 | FileCheck %s --check-prefix=SPELLING
// SPELLING: .version 8.0
// SPELLING: .target sm_90a

// A PTX ISA version NVPTX does not have.
// RUN: not tritium-translate %s --ptx-version=7.9 2>&1 | FileCheck %s --check-prefix=PTX79
// PTX79: error: unknown PTX ISA version 7.9

// A PTX ISA version too old for the chip.
// RUN: not tritium-translate %s --arch=90 --ptx-version=7.8 2>&1 | FileCheck %s --check-prefix=PTXOLD
// PTXOLD: error: PTX ISA 7.8 cannot target sm_90a: it needs PTX ISA 8.0 or newer

// A PTX ISA version that is not a version.
// RUN: not tritium-translate %s --ptx-version=eight 2>&1 | FileCheck %s --check-prefix=PTXWORD
// PTXWORD: error: invalid ptx_version 'eight'

module {
  llvm.func @k() attributes {nvvm.kernel} {
    llvm.return
  }
}
