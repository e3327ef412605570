//===- TestBases.h - Bases for layouts written out in tests -----*- C++ -*-===//
//
// Part of the Tritium project.
//
//===----------------------------------------------------------------------===//
//
// The register, lane and warp bases of a LinearLayout spelled as three
// lists, for tests that write layouts by hand.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_UNITTESTS_LAYOUT_TESTBASES_H
#define TRITIUM_UNITTESTS_LAYOUT_TESTBASES_H

#include "tritium/Layout/LinearLayout.h"

namespace tritium {
namespace layout {

inline LayoutBases makeBases(BasisList regs, BasisList lanes,
                             BasisList warps) {
  LayoutBases bases;
  bases[0] = std::move(regs);
  bases[1] = std::move(lanes);
  bases[2] = std::move(warps);
  return bases;
}

} // namespace layout
} // namespace tritium

#endif // TRITIUM_UNITTESTS_LAYOUT_TESTBASES_H
