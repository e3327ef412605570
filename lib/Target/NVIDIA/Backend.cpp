//===- Backend.cpp - LLVM dialect to PTX and cubin -------------------------===//
//
// The steps, in order, each timed:
//   translate   MLIR LLVM dialect -> llvm::Module (triple, data layout, verify)
//   link        each sin and cos of one value become one sincos
//               (SinCosCombine.h); libdevice, only if some `__nv_*` function
//               is called; then all but the kernels become internal so O3
//               may inline and drop them
//   optimize    the O3 module pipeline with NVPTX's passes
//   ptx         NVPTX code generation; widening multiplies by 2^k whose
//               product one add of their block takes become mad.wide, the
//               others sign-extend + shift (PTXWideShifts.h)
//   ptxas       PTX -> cubin, with its -v resource report; a kernel that
//               spilled with registers to spare is assembled once more with
//               `.minnctapersm 1` (Ptxas.h, withMinBlocksPerSM), and the
//               forms below get that hint when it was kept; a kernel still
//               spilling is assembled with the multiplies as NVPTX emitted
//               them and, still spilling, from PTX emitted with
//               straight-line strength reduction, unless it copies with
//               per-thread cp.async, and, still spilling, from PTX emitted
//               without loop strength reduction, and, still spilling, with
//               its masked loads' defaults written unconditionally
//               (PTXLoadDefaults.h); each time the result that
//               spills less is kept (the forms of a spilling kernel are
//               assembled at once, on threads of their own, and then
//               chosen in order, each said kept or not in the forms log
//               (the dump's ptxas-forms.txt); a kernel whose values hold as many words
//               at once as spilling kernels do (RegisterPressure.h) has
//               them assembled alongside the first, hinted forms too
//               where the machine has a thread for each, stopped where
//               the first does not spill);
//               one whose warp-group MMAs ptxas serialized for the
//               placement of instructions in their pipeline stages (not
//               for lack of registers nor around a call), from PTX
//               emitted with its wgmma waits after joins moved onto the
//               paths the MMAs run on (WgmmaWaitPaths.h), kept if they
//               are no longer serialized and it spills no more (its
//               foreseen occupancy step assembled beside it);
//               one that does not spill, runs fewer warps per SM than hide
//               latency and would reach one more block per SM giving up at
//               most three eighths of its registers, with `.minnctapersm`
//               one block more (Occupancy.h), kept if it reaches the step
//               without spilling, or spilling a few words where the SM
//               ran few warps (stepSpillsAcceptable); a step foreseen
//               from the block and its live words is assembled alongside
//               the first, one its live words put out of reach is not
// Each compile has its own LLVMContext whose diagnostic handler collects
// LLVM's warnings and errors instead of printing them (and, for errors,
// exiting the process, which an LLVMContext without a handler does).
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/NVIDIA/Backend.h"

#include "tritium/Target/NVIDIA/LLVMIRTranslation.h"
#include "tritium/Target/NVIDIA/LibdeviceLinker.h"
#include "tritium/Target/NVIDIA/Occupancy.h"
#include "tritium/Target/NVIDIA/SinCosCombine.h"
#include "tritium/Target/NVIDIA/WgmmaWaitPaths.h"
#include "tritium/Target/Optimize.h"
#include "tritium/Target/NVIDIA/PTXEmission.h"
#include "tritium/Target/NVIDIA/PTXLoadDefaults.h"
#include "tritium/Target/NVIDIA/PTXLoops.h"
#include "tritium/Target/NVIDIA/PTXWideShifts.h"
#include "tritium/Target/NVIDIA/RegisterPressure.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <thread>
#include <vector>

using namespace tritium::nvidia;

namespace {
/// LLVM's diagnostics of one compile, as text.
struct LLVMDiagnostics {
  std::vector<std::string> warnings;
  std::string errors;

  static void handle(const llvm::DiagnosticInfo *info, void *self) {
    auto *diagnostics = static_cast<LLVMDiagnostics *>(self);
    llvm::DiagnosticSeverity severity = info->getSeverity();
    if (severity != llvm::DS_Error && severity != llvm::DS_Warning)
      return; // remarks and notes are not asked for
    std::string text;
    llvm::raw_string_ostream stream(text);
    llvm::DiagnosticPrinterRawOStream printer(stream);
    info->print(printer);
    if (severity == llvm::DS_Error)
      diagnostics->errors += "error: " + text + "\n";
    else
      diagnostics->warnings.push_back("warning: " + text);
  }

  /// `error` with the collected LLVM errors appended; an LLVM error makes a
  /// success a failure.
  llvm::Error withDetails(llvm::Error error) {
    if (errors.empty())
      return error;
    std::string message = error ? llvm::toString(std::move(error)) + "\n" +
                                      errors
                                : "LLVM reported errors:\n" + errors;
    errors.clear();
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  }
};

class Stopwatch {
public:
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
    return ms;
  }

private:
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

/// Words of values live at once (maxLiveWords) from which a kernel is
/// taken to be likely to spill.  Measured with ptxas of CUDA 13.0 on
/// sm_90a, on 21 kernels: all that spill estimate 310 words or more
/// (Inductor's fp32 template at 128x128 tiles, 4 warps: 310 and 326;
/// tutorial 06's backward at 4 warps: 387-649); of those that do not, six
/// estimate 300 or more (CUDA-core dots at 106-108 registers: 445 and
/// 449; attention kernels at 250-254 registers: 355-382), and their forms
/// are stopped when the first is known.
constexpr unsigned kWordsLikelyToSpill = 300;

/// Widening multiplies split (PTXWideShifts.h) from which a spilling kernel
/// of per-thread cp.async is also assembled as NVPTX emitted them.  Each
/// split offset holds one register more; with few of them the other form
/// saves too little to matter and only costs a ptxas run: the block-pointer
/// and descriptor attention backward kernels that spill split 6-12 and ran
/// as fast either way (H200, 2026-12-01); flash-linear-attention's one-warp
/// state loops split 58-126 and spill less as emitted (100 -> 0 bytes at
/// BK=64, BV=32).
constexpr unsigned kSplitsWorthAnotherForm = 32;

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The dynamic shared memory a block of the kernel in `module` takes (the
/// `ttg.shared` the allocation recorded; 0 when absent).
int sharedMemoryBytes(mlir::ModuleOp module) {
  if (auto bytes = module->getAttrOfType<mlir::IntegerAttr>("ttg.shared"))
    return static_cast<int>(bytes.getInt());
  return 0;
}
} // namespace

PtxasOptions tritium::nvidia::ptxasOptionsFor(const BackendOptions &options) {
  PtxasOptions ptxasOptions;
  ptxasOptions.fpFusion = options.codegen.fpFusion;
  ptxasOptions.lineInfo = options.lineInfo;
  ptxasOptions.optimize = options.ptxasOptimize;
  return ptxasOptions;
}

llvm::Error tritium::nvidia::compileToCubin(mlir::ModuleOp module,
                                            const BackendOptions &options,
                                            BackendResult &result) {
  auto dump = [&](llvm::StringRef name, llvm::StringRef text) {
    if (options.dump)
      options.dump(name, text);
  };
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(options.target, options.codegen);
  if (!machine)
    return machine.takeError();

  llvm::LLVMContext llvmContext;
  LLVMDiagnostics diagnostics;
  llvmContext.setDiagnosticHandlerCallBack(&LLVMDiagnostics::handle,
                                           &diagnostics);
  auto finish = [&](llvm::Error error) {
    result.warnings.insert(result.warnings.end(),
                           diagnostics.warnings.begin(),
                           diagnostics.warnings.end());
    diagnostics.warnings.clear();
    return diagnostics.withDetails(std::move(error));
  };

  // translate
  Stopwatch clock;
  if (options.lineInfo && !addLineInfo(module))
    return finish(makeError("adding line information failed"));
  llvm::Expected<std::unique_ptr<llvm::Module>> translated =
      translateToLLVMIR(module, llvmContext, **machine);
  result.times.translate = clock.lap();
  if (!translated)
    return finish(translated.takeError());
  llvm::Module &llvmModule = **translated;
  std::vector<std::string> kernels = kernelNames(llvmModule);
  if (kernels.empty())
    return finish(makeError("the module has no kernel: no llvm.func carries "
                            "the nvvm.kernel attribute"));
  result.kernelName = kernels.front();
  if (options.dump)
    dump("llvm-ir.ll", printLLVMIR(llvmModule));

  // link
  combineSinCos(llvmModule);
  std::vector<std::string> needed = libdeviceReferences(llvmModule);
  if (!needed.empty()) {
    std::string path = findLibdevice();
    if (path.empty())
      return finish(makeError(
          "the kernel calls " + needed.front() +
          ", a libdevice function, but libdevice.10.bc was not found: set "
          "TRITIUM_LIBDEVICE_PATH or CUDA_HOME, or install the CUDA toolkit "
          "at /usr/local/cuda"));
    if (llvm::Error error =
            linkLibdevice(llvmModule, path, options.flushDenormals))
      return finish(std::move(error));
  }
  internalizeAllButKernels(llvmModule);
  result.times.link = clock.lap();
  if (options.dump && !needed.empty())
    dump("llvm-ir-linked.ll", printLLVMIR(llvmModule));

  // optimize
  tritium::optimizeModule(llvmModule, **machine, options.optLevel);
  result.times.optimize = clock.lap();
  // What its values hold at once, to tell a kernel likely to spill.
  unsigned liveWords = 0;
  if (llvm::Function *kernel = llvmModule.getFunction(result.kernelName))
    liveWords = maxLiveWords(*kernel);
  result.llvmIR = printLLVMIR(llvmModule);
  dump("llvm-ir-optimized.ll", result.llvmIR);
  clock.lap(); // printing is not optimizing

  // ptx
  llvm::Expected<std::string> ptx = emitPTX(llvmModule, **machine);
  result.times.ptx = clock.lap();
  if (!ptx)
    return finish(ptx.takeError());
  if (!diagnostics.errors.empty())
    return finish(makeError("NVPTX code generation failed"));
  result.ptx = std::move(*ptx);
  // The widening multiplies whose product one add in their block takes
  // fused into it, the others split into sign-extend + shift, and the PTX
  // as NVPTX emitted it for when that costs spills (below).
  std::string unsplit = result.ptx;
  unsigned fused = fuseWideningMultiplyAdds(result.ptx);
  unsigned splits = splitWideningShifts(result.ptx);
  bool split = fused + splits > 0;
  dump("kernel.ptx", result.ptx);

  // ptxas
  if (!options.assemble)
    return finish(llvm::Error::success());
  result.ptxasPath = options.ptxasPath.empty() ? findPtxas() : options.ptxasPath;
  if (result.ptxasPath.empty()) {
    result.warnings.push_back(
        "note: no ptxas found (set TRITIUM_PTXAS_PATH or CUDA_HOME): the PTX "
        "is the final artifact and the CUDA driver will JIT-compile it");
    return finish(llvm::Error::success());
  }
  PtxasOptions ptxasOptions = ptxasOptionsFor(options);
  clock.lap();
  auto spilled = [](const PtxasResult &r) {
    const KernelResources &k = r.kernels.front();
    return k.spillStoreBytes + k.spillLoadBytes;
  };
  // A form of the PTX and what ptxas made of it, or why it could not be
  // made (a failure to emit it or to run ptxas: an error once the form is
  // needed).
  struct Assembled {
    std::string ptx;
    std::optional<PtxasResult> ptxas;
    std::string error;
    // What the form is, for the forms log.
    const char *name = "";
  };
  // The optimized module emitted once more with other strength reductions
  // (read back from its text, as code generation changed the module), its
  // multiplies as NVPTX emitted them.
  // `edit`, when given, changes the module first and says whether it did
  // (no form when it did not).
  auto emitAgain = [&](StrengthReduction reductions,
                       llvm::function_ref<bool(llvm::Module &)> edit = nullptr) {
    Assembled form;
    llvm::SMDiagnostic parseError;
    std::unique_ptr<llvm::Module> again = llvm::parseIR(
        llvm::MemoryBufferRef(result.llvmIR, "optimized"), parseError,
        llvmContext);
    if (!again)
      form.error = "reading back the optimized LLVM IR failed (a compiler "
                   "bug): " + parseError.getMessage().str();
    else if (edit && !edit(*again))
      form.error = "unchanged";
    else if (llvm::Expected<std::string> ptx = emitPTX(*again, **machine, reductions))
      form.ptx = std::move(*ptx);
    else
      form.error = llvm::toString(ptx.takeError());
    return form;
  };
  // Assembles `forms`, each on a thread of its own when there are several:
  // ptxas takes seconds on the large kernels that get retried, and the
  // forms do not depend on each other.
  auto assembleAtOnce = [&](std::vector<Assembled> forms,
                            const std::atomic<bool> *stop = nullptr) {
    auto assemble = [&](Assembled &form) {
      if (!form.error.empty())
        return;
      llvm::Expected<PtxasResult> assembled =
          runPtxas(result.ptxasPath, form.ptx, options.target, ptxasOptions,
                   /*started=*/nullptr, stop);
      if (assembled)
        form.ptxas = std::move(*assembled);
      else
        form.error = llvm::toString(assembled.takeError());
    };
    if (forms.size() == 1) {
      assemble(forms.front());
      return forms;
    }
    std::vector<std::thread> threads;
    for (Assembled &form : forms)
      threads.emplace_back([&assemble, &form] { assemble(form); });
    for (std::thread &thread : threads)
      thread.join();
    return forms;
  };
  // Keeps an assembled form when ptxas took it (one kernel) and `better`
  // holds of its resources; says whether it was kept.
  auto keepAssembledIf =
      [&](Assembled &form,
          llvm::function_ref<bool(const PtxasResult &)> better) -> llvm::Expected<bool> {
    if (!form.error.empty())
      return makeError(form.error);
    if (!form.ptxas->succeeded || form.ptxas->kernels.size() != 1 ||
        !better(*form.ptxas))
      return false;
    result.ptx = std::move(form.ptx);
    result.ptxas = std::move(*form.ptxas);
    dump("kernel.ptx", result.ptx);
    return true;
  };
  auto spillsLess = [&](const PtxasResult &r) {
    return spilled(r) < spilled(*result.ptxas);
  };
  // Assembles `candidate` and keeps it as keepAssembledIf does.
  auto keepIf = [&](std::string candidate,
                    llvm::function_ref<bool(const PtxasResult &)> better) -> llvm::Expected<bool> {
    std::vector<Assembled> forms(1);
    forms.front().ptx = std::move(candidate);
    forms = assembleAtOnce(std::move(forms));
    return keepAssembledIf(forms.front(), better);
  };
  auto keepIfSpillsLess = [&](std::string candidate) {
    return keepIf(std::move(candidate), spillsLess);
  };
  // ptxas may answer a kernel that cannot keep its values in registers by
  // taking few registers (for the most blocks per SM) and spilling
  // kilobytes; told that one block per SM will do, it uses the registers the
  // block size allows.  The retry happens only for a kernel that spilled
  // with registers to spare; the result that spills fewer bytes is kept.
  // It comes first, as ptxas answers the other forms below the same way,
  // and they are then assembled with the same hint.
  auto oneBlockIfRegistersToSpare = [&]() -> llvm::Expected<bool> {
    if (!result.ptxas->succeeded || result.ptxas->kernels.size() != 1 ||
        !spilledWithRegistersToSpare(result.ptxas->kernels.front(),
                                     declaredThreads(result.ptx)))
      return false;
    if (std::optional<std::string> hinted = withMinBlocksPerSM(result.ptx, 1))
      return keepIfSpillsLess(std::move(*hinted));
    return false;
  };
  // A kernel that spilled is assembled in other forms, each kept if it
  // spills less, in this order:
  //   1. with `.minnctapersm 1`, where it spilled with registers to spare
  //      (oneBlockIfRegistersToSpare);
  //   2. with its widening multiplies as NVPTX emitted them: split offsets
  //      take two registers where the multiply's source took one (in a loop
  //      of per-thread cp.async the split is for the copies' sake,
  //      PTXWideShifts.h, and kept where it does not spill; such a kernel
  //      takes this form only with kSplitsWorthAnotherForm splits or more);
  //   3. outside a loop of per-thread cp.async and still spilling, emitted
  //      with straight-line strength reduction, which rewrites B + i*S as a
  //      bump of an earlier B + j*S and so keeps fewer addresses live;
  //   4. still spilling, emitted without loop strength reduction, which
  //      leaves a tile's addresses as the loop computes them instead of
  //      making each element's an induction variable of its own; made only
  //      where its loops advance fewer addresses (PTXLoops.h) than the
  //      first form's.
  // Forms 3 and 4 are the optimized module emitted again (emitAgain), form
  // 4's multiplies split as the first form's were.  The forms are
  // assembled at once, 2-4 hinted as 1 is (the hint is kept where the
  // kernel spilled with registers to spare, nearly always); where the hint
  // is not kept, 2-4 are assembled again without it.
  // Forms 2-4 of the first form's PTX, emitted once, when first needed.
  bool asyncCopies = copiesWithPerThreadAsyncCopies(unsplit);
  bool asEmitted =
      split && (!asyncCopies || splits >= kSplitsWorthAnotherForm);
  bool formsEmitted = false, withoutLoopReduction = false;
  Assembled reduced, loopsAsWritten;
  auto emitForms = [&] {
    if (formsEmitted)
      return;
    formsEmitted = true;
    if (!asyncCopies) {
      StrengthReduction straightLine;
      straightLine.straightLine = true;
      reduced = emitAgain(straightLine);
    }
    // Form 4 only where loop strength reduction made the loops advance
    // more addresses than they do without it.
    StrengthReduction noLoops;
    noLoops.loops = false;
    loopsAsWritten = emitAgain(noLoops);
    withoutLoopReduction =
        !loopsAsWritten.error.empty() ||
        addressesLoopsAdvance(loopsAsWritten.ptx) < addressesLoopsAdvance(unsplit);
    if (loopsAsWritten.error.empty() && split) {
      fuseWideningMultiplyAdds(loopsAsWritten.ptx);
      splitWideningShifts(loopsAsWritten.ptx);
    }
  };
  auto hintedIf = [](bool hint, std::string candidate) {
    if (hint)
      if (std::optional<std::string> with = withMinBlocksPerSM(candidate, 1))
        return std::move(*with);
    return candidate;
  };
  // Forms 2-4 in order, hinted or not.
  auto otherForms = [&](bool hint) {
    emitForms();
    std::vector<Assembled> forms;
    if (asEmitted)
      forms.push_back({hintedIf(hint, unsplit), std::nullopt, "",
                       "widening multiplies as emitted"});
    for (const Assembled *emitted : {&reduced, &loopsAsWritten}) {
      if ((emitted == &reduced && asyncCopies) ||
          (emitted == &loopsAsWritten && !withoutLoopReduction))
        continue;
      forms.push_back(*emitted);
      forms.back().name = emitted == &reduced ? "straight-line strength reduction"
                                              : "loops without strength reduction";
      if (emitted->error.empty())
        forms.back().ptx = hintedIf(hint, emitted->ptx);
    }
    return forms;
  };

  // The first form.  A kernel whose values hold at least
  // kWordsLikelyToSpill words at once has its forms 2-4 (without the hint) emitted while
  // ptxas assembles the first, and assembled on threads of their own
  // meanwhile: such a kernel mostly spills, and its forms then cost no
  // time after the first (pointer backward d128, 4 warps: 2.5 -> 1.6 s on
  // 2 cores).  Where the first does not spill, the forms' ptxas runs are
  // stopped (killed) as soon as it is known and they are dropped; where
  // the hint applies they serve as the unhinted forms, assembled only
  // when the hint is not kept.  Either way the form kept is the one the
  // order below keeps.
  std::optional<std::vector<Assembled>> unhintedForms;
  // Forms 2-4 hinted, then the first form hinted, when assembled with the
  // first (below).
  std::optional<std::vector<Assembled>> hintedForms;
  std::optional<llvm::Expected<PtxasResult>> assembled;
  std::atomic<bool> firstDone{false};
  // A kernel whose values hold 1.4 to 1.95 times the registers of an
  // occupancy step its block could take (Occupancy.h, foreseenStep: 8-warp
  // blocks above 128 registers asked for two per SM, 4-warp ones above 168
  // for three) has the PTX asking for that step assembled alongside the
  // first where the machine has a second thread: the step (below) then
  // costs no ptxas run after the first.
  std::optional<SMLimits> limits = smLimits(options.target.capability);
  int threads = declaredThreads(result.ptx);
  std::optional<int> stepForeseen;
  std::optional<std::string> speculativeStep;
  if (limits && std::thread::hardware_concurrency() >= 2 &&
      liveWords < kWordsLikelyToSpill) {
    stepForeseen =
        foreseenStep(*limits, liveWords, threads, sharedMemoryBytes(module));
    if (stepForeseen)
      speculativeStep = withMinBlocksPerSM(result.ptx, *stepForeseen);
  }
  std::optional<Assembled> speculatedStep;
  // The form speculatedStep was assembled beside, for the forms log.
  const char *stepBeside = "the first";
  auto assembleFirst = [&] {
    assembled.emplace(runPtxas(result.ptxasPath, result.ptx, options.target,
                               ptxasOptions, options.startedPtxas));
    firstDone.store(true, std::memory_order_release);
  };
  // Whether the first form (assembled) spilled.
  auto firstSpills = [&] {
    if (!*assembled)
      return false;
    const PtxasResult &first = **assembled;
    return first.succeeded && first.kernels.size() == 1 && spilled(first) > 0;
  };
  const char *formsWhen = "after the first";
  if (liveWords >= kWordsLikelyToSpill) {
    std::thread first(assembleFirst);
    std::vector<Assembled> forms = otherForms(false);
    size_t unhintedCount = forms.size();
    // Where the machine has a thread for each, the hinted forms (the first
    // and 2-4 with `.minnctapersm 1`) are assembled meanwhile too: a
    // spilling kernel nearly always spills with registers to spare, and
    // its hinted forms are then needed after the first; assembled after
    // it, they doubled the ptxas time of Mamba-2's chunk cumsum backward.
    // (On 2 cores the seven processes at once took longer than the two
    // rounds: 8.8-9.6 s against 8.2-8.4 s for that kernel.)
    std::optional<std::string> hintedFirst = withMinBlocksPerSM(result.ptx, 1);
    if (hintedFirst && !forms.empty() &&
        std::thread::hardware_concurrency() >= 2 * unhintedCount + 2) {
      std::vector<Assembled> hinted = otherForms(true);
      hinted.push_back({std::move(*hintedFirst), std::nullopt, "", "first"});
      for (Assembled &form : hinted)
        forms.push_back(std::move(form));
    }
    std::atomic<bool> stop{false};
    std::optional<std::vector<Assembled>> speculated;
    std::thread rest;
    if (!forms.empty() &&
        !(firstDone.load(std::memory_order_acquire) && !firstSpills()))
      rest = std::thread([&, forms = std::move(forms)]() mutable {
        speculated = assembleAtOnce(std::move(forms), &stop);
      });
    first.join();
    if (rest.joinable()) {
      bool spilling = firstSpills();
      if (!spilling)
        stop.store(true, std::memory_order_release);
      rest.join();
      if (spilling && speculated) {
        if (speculated->size() > unhintedCount) {
          hintedForms.emplace(
              std::make_move_iterator(speculated->begin() + unhintedCount),
              std::make_move_iterator(speculated->end()));
          speculated->resize(unhintedCount);
        }
        unhintedForms = std::move(speculated);
      }
      formsWhen = !spilling ? "started with the first, stopped as it did not spill"
                  : hintedForms ? "assembled with the first, hinted too"
                                : "assembled with the first";
    }
  } else if (speculativeStep) {
    // The step foreseen (below), assembled alongside the first and stopped
    // (killed) where the first does not take it.
    std::atomic<bool> stopStep{false};
    std::thread step([&] {
      std::vector<Assembled> forms(1);
      forms.front().ptx = *speculativeStep;
      forms.front().name = "occupancy step";
      speculatedStep = std::move(assembleAtOnce(std::move(forms), &stopStep).front());
    });
    assembleFirst();
    bool takesStep = false;
    if (*assembled && (*assembled)->succeeded && (*assembled)->kernels.size() == 1 &&
        spilled(**assembled) == 0) {
      const KernelResources &kernel = (*assembled)->kernels.front();
      takesStep = oneMoreBlockPerSM(*limits, kernel.registers, threads,
                                    kernel.sharedBytes + sharedMemoryBytes(module)) ==
                  stepForeseen;
    }
    if (!takesStep)
      stopStep.store(true, std::memory_order_release);
    step.join();
    if (!takesStep)
      speculatedStep.reset();
  } else {
    assembleFirst();
  }
  if (!*assembled)
    return finish(assembled->takeError());
  result.ptxas = std::move(**assembled);
  // What the forms and the occupancy step did (the dump ptxas-forms.txt).
  std::string formsLog = std::string(formsWhen) + " (" +
                         std::to_string(liveWords) + " live words)\n";

  bool spills = result.ptxas->succeeded && result.ptxas->kernels.size() == 1 &&
                spilled(*result.ptxas) > 0;
  if (spills) {
    std::optional<std::string> hinted;
    if (spilledWithRegistersToSpare(result.ptxas->kernels.front(),
                                    declaredThreads(result.ptx)))
      hinted = withMinBlocksPerSM(result.ptx, 1);
    auto unhinted = [&] {
      return unhintedForms ? std::move(*unhintedForms)
                           : assembleAtOnce(otherForms(false));
    };
    bool hint = hinted.has_value();
    // Keeps `form` if it spills less, and says so in the forms log.
    auto keepLogged = [&](Assembled &form, bool hinted) -> llvm::Expected<bool> {
      int64_t before = spilled(*result.ptxas);
      std::string spills =
          form.ptxas && form.ptxas->succeeded && form.ptxas->kernels.size() == 1
              ? std::to_string(spilled(*form.ptxas)) + " bytes spilled"
              : "not assembled";
      llvm::Expected<bool> kept = keepAssembledIf(form, spillsLess);
      if (kept)
        formsLog += std::string(form.name) + (hinted ? ", hinted" : "") + ": " +
                    (*kept ? "kept" : "not kept") + " (" + spills + ", against " +
                    std::to_string(before) + ")\n";
      return kept;
    };
    bool formsHinted = false;
    std::vector<Assembled> forms;
    if (hint) {
      if (hintedForms) {
        forms = std::move(*hintedForms);
      } else {
        forms = otherForms(true);
        forms.push_back({std::move(*hinted), std::nullopt, "", "first"});
        forms = assembleAtOnce(std::move(forms));
      }
      llvm::Expected<bool> kept = keepLogged(forms.back(), true);
      if (!kept)
        return finish(kept.takeError());
      forms.pop_back();
      formsHinted = *kept;
      if (!*kept)
        forms = unhinted();
    } else {
      forms = unhinted();
    }
    for (size_t i = 0; i < forms.size(); ++i) {
      // Form 2 is tried whenever it was made; 3 and 4 only while spilling.
      if (i > 0 || !asEmitted)
        if (spilled(*result.ptxas) == 0)
          break;
      if (llvm::Expected<bool> kept = keepLogged(forms[i], formsHinted); !kept)
        return finish(kept.takeError());
    }
  }
  // A form kept above without the hint may spill with registers to spare.
  if (llvm::Expected<bool> kept = oneBlockIfRegistersToSpare(); !kept)
    return finish(kept.takeError());
  // Still spilling: the kept form with its masked loads' defaults written
  // unconditionally (PTXLoadDefaults.h), kept if it spills less.
  if (result.ptxas->succeeded && result.ptxas->kernels.size() == 1 &&
      spilled(*result.ptxas) > 0) {
    unsigned defaults = 0;
    std::string unguarded = withUnconditionalLoadDefaults(result.ptx, defaults);
    if (defaults > 0) {
      int64_t before = spilled(*result.ptxas);
      llvm::Expected<bool> kept = keepIfSpillsLess(std::move(unguarded));
      if (!kept)
        return finish(kept.takeError());
      formsLog += "load defaults unguarded (" + std::to_string(defaults) +
                  " moves): " + (*kept ? "kept" : "not kept") + ", " +
                  std::to_string(before) + " -> " +
                  std::to_string(spilled(*result.ptxas)) + " bytes spilled\n";
    }
  }
  // Warp-group MMAs serialized by ptxas for the placement of instructions
  // in their pipeline stages: emitted again with the waits that follow a
  // join moved onto the paths the MMAs run on (WgmmaWaitPaths.h; C7515 after
  // a loop that may run no iteration), kept when ptxas then leaves the MMAs
  // asynchronous without spilling more.  MMAs serialized for lack of
  // registers (C7511, C7512) or around a call (C7510) stay so whatever the
  // waits' places: no form.
  if (result.ptxas->succeeded && result.ptxas->kernels.size() == 1 &&
      serializedWarpGroupMmasByPlacement(result.ptxas->log)) {
    unsigned moved = 0;
    Assembled form = emitAgain({}, [&](llvm::Module &module) {
      moved = waitOnlyOnMmaPaths(module);
      return moved > 0;
    });
    if (moved > 0 && !form.error.empty()) {
      // A form that could not be made is not needed: the first stands.
      formsLog += "wgmma waits moved onto the MMAs' paths: not made (" +
                  form.error + ")\n";
    } else if (moved > 0) {
      fuseWideningMultiplyAdds(form.ptx);
      splitWideningShifts(form.ptx);
      int64_t before = spilled(*result.ptxas);
      // The occupancy step foreseen for the first (above) asked of this
      // form too, assembled beside it: where the form is kept, the step
      // (below) then costs no ptxas run after it (fp8 attention at head
      // dim 128, (128, 128, 2, 8), 2-core host: 0.7 s of ptxas in three
      // runs one after another).
      std::vector<Assembled> forms(1);
      forms.front().ptx = std::move(form.ptx);
      if (stepForeseen)
        if (std::optional<std::string> step =
                withMinBlocksPerSM(forms.front().ptx, *stepForeseen))
          forms.push_back({std::move(*step), std::nullopt, "", "occupancy step"});
      forms = assembleAtOnce(std::move(forms));
      llvm::Expected<bool> kept =
          keepAssembledIf(forms.front(), [&](const PtxasResult &r) {
            return !serializedWarpGroupMmas(r.log) && spilled(r) <= before;
          });
      if (!kept)
        return finish(kept.takeError());
      if (*kept && forms.size() > 1) {
        speculatedStep = std::move(forms.back());
        stepBeside = "the wgmma-wait form";
      }
      formsLog += "wgmma waits moved onto the MMAs' paths (" +
                  std::to_string(moved) + "): " +
                  (*kept ? "kept" : "not kept") + "\n";
    }
  }
  // A kernel that does not spill, runs too few warps per SM to hide
  // latency, and has somewhat more registers than one more block per SM
  // allows (oneMoreBlockPerSM says how many more) is assembled asking for
  // that block; kept when ptxas reached it without spilling, or with the
  // few spilled words stepSpillsAcceptable allows.
  if (result.ptxas->succeeded && result.ptxas->kernels.size() == 1 &&
      spilled(*result.ptxas) == 0 && limits) {
    const KernelResources &kernel = result.ptxas->kernels.front();
    int shared = kernel.sharedBytes + sharedMemoryBytes(module);
    std::optional<int> blocks =
        oneMoreBlockPerSM(*limits, kernel.registers, threads, shared);
    // Values that hold nearly twice the registers the step allows do not
    // fit them (Occupancy.h): no ptxas run for it.
    if (blocks && stepOutOfReach(*limits, liveWords, threads, *blocks)) {
      formsLog += "occupancy step: " + std::to_string(kernel.registers) +
                  " registers, " + std::to_string(*blocks) +
                  " blocks per SM not tried (" + std::to_string(liveWords) +
                  " live words, against " +
                  std::to_string(registersForBlocks(*limits, threads, *blocks)) +
                  " registers)\n";
      blocks.reset();
    }
    std::optional<std::string> hinted =
        blocks ? withMinBlocksPerSM(result.ptx, *blocks) : std::nullopt;
    if (hinted) {
      int registers = kernel.registers;
      std::string retried;
      auto reachesStep = [&](const PtxasResult &r) {
        retried = std::to_string(r.kernels.front().registers) + " registers, " +
                  std::to_string(spilled(r)) + " bytes spilled";
        // Fewer registers may serialize the wgmmas (C7511, C7512); the
        // block is worth more: one-loop attention at head dim 64,
        // (128, 128, 2, 8), ran at 425 TFLOP/s with the step and its
        // MMAs serialized, 310 without either (H200, 2026-12-02).
        bool serialized = serializedWarpGroupMmas(r.log);
        if (serialized)
          retried += ", warp-group MMAs serialized";
        return stepSpillsAcceptable(spilled(r), *blocks, threads, serialized) &&
               blocksPerSM(*limits, r.kernels.front().registers, threads, shared) >= *blocks;
      };
      // The form assembled alongside the first serves where it is this
      // one (the first's PTX, unchanged by the forms since).
      bool alongside = speculatedStep && speculatedStep->ptx == *hinted;
      llvm::Expected<bool> kept = alongside
                                      ? keepAssembledIf(*speculatedStep, reachesStep)
                                      : keepIf(std::move(*hinted), reachesStep);
      if (!kept)
        return finish(kept.takeError());
      formsLog += "occupancy step: " + std::to_string(registers) +
                  " registers, asked for " + std::to_string(*blocks) +
                  " blocks per SM: " + (*kept ? "kept" : "not kept") + " (" +
                  retried + ")" + (alongside ? std::string(", assembled with ") + stepBeside : "") +
                  "\n";
    }
  }
  dump("ptxas-forms.txt", formsLog);
  result.times.ptxas = clock.lap();
  dump("ptxas.log", result.ptxas->log);
  if (!result.ptxas->succeeded)
    return finish(makeError("ptxas rejected the PTX of kernel '" +
                            result.kernelName + "' for " +
                            options.target.chip() + ":\n" +
                            result.ptxas->log));
  return finish(llvm::Error::success());
}
