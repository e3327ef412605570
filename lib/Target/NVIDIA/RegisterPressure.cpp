//===- RegisterPressure.cpp - live 32-bit words of an LLVM function --------===//
//
// Liveness of SSA values by the usual backward dataflow over blocks:
//   liveIn(B)  = uses(B) + (liveOut(B) - defs(B))
//   liveOut(B) = union over successors S of (liveIn(S) - phis(S))
//                + the values S's phis take from B,
// iterated to a fixed point with one bit per counted value; then each block
// is walked backwards from its live-out set, adding an instruction's
// operands and removing its result, and the most words live at once is the
// answer.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/RegisterPressure.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <vector>

using namespace llvm;

namespace {
/// 32-bit registers NVPTX gives a value of `type`.
unsigned words(Type *type, const DataLayout &layout) {
  if (type->isVoidTy() || type->isLabelTy() || type->isMetadataTy() ||
      type->isTokenTy() || type->isIntegerTy(1))
    return 0;
  if (auto *structType = dyn_cast<StructType>(type)) {
    unsigned sum = 0;
    for (Type *element : structType->elements())
      sum += words(element, layout);
    return sum;
  }
  if (auto *arrayType = dyn_cast<ArrayType>(type))
    return arrayType->getNumElements() * words(arrayType->getElementType(), layout);
  if (auto *vectorType = dyn_cast<FixedVectorType>(type)) {
    Type *element = vectorType->getElementType();
    if (element->isIntegerTy(1))
      return 0;
    uint64_t bits = layout.getTypeSizeInBits(element).getFixedValue();
    if (bits < 32) // packed pairs and quads
      return (vectorType->getNumElements() * bits + 31) / 32;
    return vectorType->getNumElements() * ((bits + 31) / 32);
  }
  if (!type->isSized())
    return 0;
  return (layout.getTypeSizeInBits(type).getFixedValue() + 31) / 32;
}
} // namespace

unsigned tritium::nvidia::maxLiveWords(const Function &function) {
  if (function.isDeclaration())
    return 0;
  const DataLayout &layout = function.getParent()->getDataLayout();

  // The counted values: arguments and instructions that take registers.
  DenseMap<const Value *, unsigned> index;
  std::vector<unsigned> weight;
  // An address a constant offset from another is that one's register
  // (ptxas folds the offset into the access, `[%r+16]`): such a
  // getelementptr counts nothing, and a use of it uses its base.
  auto folded = [](const Value *value) {
    while (const auto *gep = dyn_cast<GetElementPtrInst>(value)) {
      if (!gep->hasAllConstantIndices())
        break;
      value = gep->getPointerOperand();
    }
    return value;
  };
  auto add = [&](const Value *value) {
    unsigned w = words(value->getType(), layout);
    if (w == 0 || folded(value) != value)
      return;
    index.try_emplace(value, weight.size());
    weight.push_back(w);
  };
  for (const Argument &argument : function.args())
    add(&argument);
  for (const BasicBlock &block : function)
    for (const Instruction &instruction : block)
      add(&instruction);
  auto indexOf = [&](const Value *value) -> int {
    auto it = index.find(folded(value));
    return it == index.end() ? -1 : static_cast<int>(it->second);
  };
  // The value an instruction defines (none for a folded address).
  auto defined = [&](const Instruction *instruction) -> int {
    auto it = index.find(instruction);
    return it == index.end() ? -1 : static_cast<int>(it->second);
  };

  unsigned n = weight.size();
  DenseMap<const BasicBlock *, unsigned> blockIndex;
  std::vector<const BasicBlock *> blocks;
  for (const BasicBlock &block : function) {
    blockIndex[&block] = blocks.size();
    blocks.push_back(&block);
  }
  // Per block: its defs and upward-exposed uses (phis' operands excluded:
  // they are live out of the predecessor they come from, phiUsesFrom).
  std::vector<BitVector> defs(blocks.size(), BitVector(n)),
      uses(blocks.size(), BitVector(n)), liveIn(blocks.size(), BitVector(n)),
      liveOut(blocks.size(), BitVector(n));
  for (unsigned b = 0; b < blocks.size(); ++b) {
    for (const Instruction &instruction : *blocks[b]) {
      if (!isa<PHINode>(instruction))
        for (const Use &operand : instruction.operands()) {
          int i = indexOf(operand.get());
          if (i >= 0 && !defs[b].test(i))
            uses[b].set(i);
        }
      int d = defined(&instruction);
      if (d >= 0)
        defs[b].set(d);
    }
  }
  auto phiUsesFrom = [&](const BasicBlock *successor, const BasicBlock *from,
                         BitVector &into) {
    for (const PHINode &phi : successor->phis()) {
      int i = indexOf(phi.getIncomingValueForBlock(from));
      if (i >= 0)
        into.set(i);
    }
  };
  // Fixed point, blocks visited last to first.
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned b = blocks.size(); b-- > 0;) {
      BitVector out(n);
      for (const BasicBlock *successor : successors(blocks[b])) {
        unsigned s = blockIndex[successor];
        BitVector in = liveIn[s];
        for (const PHINode &phi : successor->phis()) {
          int i = indexOf(&phi);
          if (i >= 0)
            in.reset(i);
        }
        out |= in;
        phiUsesFrom(successor, blocks[b], out);
      }
      BitVector in = out;
      in.reset(defs[b]);
      in |= uses[b];
      if (in != liveIn[b] || out != liveOut[b]) {
        liveIn[b] = std::move(in);
        liveOut[b] = std::move(out);
        changed = true;
      }
    }
  }
  // The most words live inside each block, walking it backwards.
  unsigned most = 0;
  for (unsigned b = 0; b < blocks.size(); ++b) {
    BitVector live = liveOut[b];
    unsigned now = 0;
    for (int i = live.find_first(); i >= 0; i = live.find_next(i))
      now += weight[i];
    most = std::max(most, now);
    for (const Instruction &instruction : llvm::reverse(*blocks[b])) {
      int d = defined(&instruction);
      if (d >= 0 && live.test(d)) {
        live.reset(d);
        now -= weight[d];
      }
      if (isa<PHINode>(instruction))
        continue;
      for (const Use &operand : instruction.operands()) {
        int i = indexOf(operand.get());
        if (i >= 0 && !live.test(i)) {
          live.set(i);
          now += weight[i];
        }
      }
      most = std::max(most, now);
    }
  }
  return most;
}
