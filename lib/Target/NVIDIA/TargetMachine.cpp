//===- TargetMachine.cpp - the NVPTX target machine ------------------------===//
//
// Registers NVPTX alone (never InitializeAllTargets: the library links only
// the NVPTX back end) and builds a target machine per compile.  NVPTX accepts
// any CPU string with a warning on stderr and then emits a `.target` ptxas
// rejects, so the chip and the `ptxNN` feature are checked against the
// subtarget tables before the machine is handed out.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/TargetMachine.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace tritium::nvidia;

namespace {
/// Sets an LLVM option that has no API through its own parser, as
/// `-name=value` on a command line would.  An option LLVM no longer
/// registers (renamed in an upgrade) stops the process with its name rather
/// than changing the code every kernel gets without a word.
void setBackendFlag(llvm::StringRef name, llvm::StringRef value) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it == options.end() || it->second->addOccurrence(0, name, value))
    llvm::report_fatal_error(llvm::Twine("LLVM option '") + name + "=" +
                             value + "' is not accepted; the NVPTX back "
                             "end's settings need updating");
}
} // namespace

void tritium::nvidia::initializeNVPTXTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit pointers for shared, const and local memory (what ptxas
    // addresses them with anyway): shared-memory address arithmetic stays
    // in 32 bits instead of converting to and from 64.  Set once, before
    // any data layout is made.
    setBackendFlag("nvptx-short-ptr", "true");
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
tritium::nvidia::createTargetMachine(const CudaTarget &target,
                                     const CodegenOptions &options) {
  initializeNVPTXTarget();
  llvm::Triple triple(kNVPTXTriple);
  std::string error;
  const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!nvptx)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "NVPTX target unavailable: " + error);

  llvm::TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion =
      options.fpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  std::string chip = target.chip();
  std::string features = target.ptxFeature();
  // The default code-generation level: NVPTX's IR passes then clean up with
  // EarlyCSE, where the aggressive level runs GVN twice, at a cost that
  // grows with a kernel's shared-memory accesses and, on Inductor's kernels
  // and templates, for the same PTX (docs/performance.md).
  std::unique_ptr<llvm::TargetMachine> machine(nvptx->createTargetMachine(
      triple, chip, features, targetOptions, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Default));
  if (!machine)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot create the NVPTX target machine "
                                   "for " + chip);

  // makeCudaTarget checked both against our tables; this catches tables that
  // drift from the LLVM we are linked with.
  const llvm::MCSubtargetInfo *subtarget = machine->getMCSubtargetInfo();
  bool knowsFeature = false;
  for (const llvm::SubtargetFeatureKV &kv :
       subtarget->getAllProcessorFeatures())
    knowsFeature |= features == std::string("+") + kv.Key;
  if (!subtarget->isCPUStringValid(chip) || !knowsFeature)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "this LLVM's NVPTX back end does not know " + chip + " with PTX ISA " +
            target.ptxVersionString());
  return std::move(machine);
}
