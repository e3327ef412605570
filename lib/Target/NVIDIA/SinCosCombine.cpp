//===- SinCosCombine.cpp - one libdevice sincos for a sin and a cos -------===//
//
// For every function: the calls of __nv_sinf and __nv_cosf are grouped by
// basic block and argument.  Where a group has both, a call of the sincos function (void
// (x, ptr sin, ptr cos)) goes before the group's first call, with two stack
// slots in the entry block; each sin and cos call is replaced by a load of
// its slot after it.  Calls in different blocks are left alone (one would
// have to dominate the other's uses).
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/SinCosCombine.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {
struct Family {
  StringRef sin, cos, sincos;
};

// (float only: __nv_sincosf was checked bit for bit against __nv_sinf and
// __nv_cosf; the double functions were not)
constexpr Family kFamilies[] = {{"__nv_sinf", "__nv_cosf", "__nv_sincosf"}};

/// The calls of one argument in one block.
struct Group {
  SmallVector<CallInst *> sins, coss;
};

unsigned combineIn(Function &function, const Family &family, Module &module) {
  MapVector<std::pair<BasicBlock *, Value *>, Group> groups;
  for (BasicBlock &block : function)
    for (Instruction &inst : block) {
      auto *call = dyn_cast<CallInst>(&inst);
      Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || call->arg_size() != 1)
        continue;
      bool isSin = callee->getName() == family.sin;
      if (!isSin && callee->getName() != family.cos)
        continue;
      Group &group = groups[{&block, call->getArgOperand(0)}];
      (isSin ? group.sins : group.coss).push_back(call);
    }
  unsigned combined = 0;
  const DataLayout &layout = module.getDataLayout();
  for (auto &[key, group] : groups) {
    if (group.sins.empty() || group.coss.empty())
      continue;
    Value *argument = key.second;
    Type *type = argument->getType();
    LLVMContext &context = module.getContext();
    PointerType *generic = PointerType::get(context, 0);
    FunctionCallee sincos = module.getOrInsertFunction(
        family.sincos, Type::getVoidTy(context), type, generic, generic);

    IRBuilder<> entry(&*function.getEntryBlock().getFirstInsertionPt());
    auto slot = [&](const char *name) -> Value * {
      Value *alloca = entry.CreateAlloca(type, layout.getAllocaAddrSpace(),
                                         nullptr, name);
      return alloca->getType() == generic
                 ? alloca
                 : entry.CreateAddrSpaceCast(alloca, generic);
    };
    Value *sinSlot = slot("sin"), *cosSlot = slot("cos");

    // before the group's first call: the argument is defined there
    CallInst *first = nullptr;
    for (Instruction &inst : *key.first) {
      auto *call = dyn_cast<CallInst>(&inst);
      if (call && (llvm::is_contained(group.sins, call) ||
                   llvm::is_contained(group.coss, call))) {
        first = call;
        break;
      }
    }
    IRBuilder<> at(first);
    at.CreateCall(sincos, {argument, sinSlot, cosSlot});
    auto replace = [&](ArrayRef<CallInst *> calls, Value *slot) {
      for (CallInst *call : calls) {
        IRBuilder<> after(call);
        Value *value = after.CreateLoad(type, slot);
        call->replaceAllUsesWith(value);
        call->eraseFromParent();
      }
    };
    replace(group.sins, sinSlot);
    replace(group.coss, cosSlot);
    ++combined;
  }
  return combined;
}
} // namespace

unsigned tritium::nvidia::combineSinCos(Module &module) {
  unsigned combined = 0;
  for (const Family &family : kFamilies) {
    if (!module.getFunction(family.sin) || !module.getFunction(family.cos))
      continue;
    for (Function &function : module)
      if (!function.isDeclaration())
        combined += combineIn(function, family, module);
  }
  return combined;
}
