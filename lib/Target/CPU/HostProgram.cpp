//===- HostProgram.cpp - a kernel compiled for the host CPU ---------------===//
//
// Translation to LLVM IR, LLVM's O3 pipeline for the host's target machine,
// code generation to an object file (optimizing, or LLVM's fast path when
// the caller asks: TRITON_INTERPRET=1's compiles), ORC's LLJIT linking it (math functions
// such as expf resolve to the process's own, the libdevice functions the C
// library lacks to HostMath.cpp's, the half and bfloat16 conversions LLVM
// calls to HostConversions.cpp's),
// and the grid run on the process's pool of host threads (HostThreadPool),
// or on threads of their own for a program whose stack frame (from the
// object's .stack_sizes section) a pool thread's stack might not hold.
// A failed tt.assert calls tritium_cpu_assert_fail (defined for the JIT
// here), which records the first failure of the grid and jumps out of the
// program (longjmp to where the runner called it; the JIT's frames hold
// nothing to unwind); programs not started yet are skipped, and run()
// returns the failure.
//
//===----------------------------------------------------------------------===//
#include "tritium/Target/CPU/HostProgram.h"
#include "tritium/Target/CPU/HostConversions.h"
#include "tritium/Target/CPU/HostMath.h"
#include "tritium/Target/CPU/HostThreadPool.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "tritium/Target/Optimize.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/LEB128.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <atomic>
#include <csetjmp>

using namespace tritium::cpu;

namespace {
void initializeNativeTarget() {
  static const bool done = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)done;
}

/// The state of one grid run that a failed assertion reports to.
struct GridRun {
  std::atomic<bool> failed{false};
  std::string message; ///< written by the first failure only
};
thread_local GridRun *currentRun = nullptr;
thread_local std::jmp_buf *currentProgram = nullptr;

/// Called by a program whose tt.assert failed; does not return.
extern "C" void tritiumCpuAssertFail(const char *message, const char *file, int line, const char *function,
                                     int x, int y, int z) {
  GridRun *run = currentRun;
  if (run && !run->failed.exchange(true))
    run->message = std::string(file) + ":" + std::to_string(line) + ": " + function + ": program (" +
                   std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) +
                   "): Assertion `" + message + "` failed.";
  if (currentProgram)
    std::longjmp(*currentProgram, 1);
  std::abort(); // (programs only run under HostProgram::run, which sets both)
}
} // namespace

std::string tritium::cpu::hostDescription() {
  std::string features;
  for (const auto &[name, on] : llvm::sys::getHostCPUFeatures())
    if (on && (name.starts_with("avx") || name.starts_with("sse4") || name == "fma" || name == "neon"))
      features += (features.empty() ? "" : ",") + name.str();
  return llvm::sys::getProcessTriple() + " " + llvm::sys::getHostCPUName().str() + " " + features;
}

HostProgram::~HostProgram() = default;

namespace {
llvm::Expected<llvm::orc::JITTargetMachineBuilder> hostMachineBuilder(bool fastCodegen = false) {
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return machineBuilder.takeError();
  machineBuilder->setCodeGenOptLevel(fastCodegen ? llvm::CodeGenOptLevel::None
                                                 : llvm::CodeGenOptLevel::Aggressive);
  return machineBuilder;
}
} // namespace

llvm::Expected<std::unique_ptr<HostProgram>>
HostProgram::compile(mlir::ModuleOp module, llvm::StringRef kernel, std::string &llvmIR,
                     std::string &object, bool fastCodegen) {
  initializeNativeTarget();
  mlir::DialectRegistry registry;
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);

  auto machineBuilder = hostMachineBuilder(fastCodegen);
  if (!machineBuilder)
    return machineBuilder.takeError();
  auto machine = machineBuilder->createTargetMachine();
  if (!machine)
    return machine.takeError();

  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule = mlir::translateModuleToLLVMIR(module, context, "tritium");
  if (!llvmModule)
    return llvm::createStringError("the kernel does not translate to LLVM IR");
  llvmModule->setDataLayout((*machine)->createDataLayout());
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  tritium::optimizeModule(*llvmModule, **machine);
  llvmIR.clear();
  llvm::raw_string_ostream(llvmIR) << *llvmModule;

  // The object file, as the JIT's own compile layer would make it.
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager codegen;
  // The object records each function's stack frame (ELF hosts), which load()
  // reads: the threads that run the grid need stacks that hold them.
  (*machine)->Options.EmitStackSizeSection = true;
  if ((*machine)->addPassesToEmitFile(codegen, stream, nullptr, llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit object files");
  codegen.run(*llvmModule);
  object.assign(buffer.begin(), buffer.end());
  return load(object, kernel);
}

namespace {
/// The stack the functions of `object` take together (the sum of the
/// frames its .stack_sizes section records: each function at most once on
/// any call chain, as the programs do not recurse); 0 when the object has
/// no such section (not ELF, or made without it).
uint64_t stackBytesOf(llvm::StringRef object) {
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(object, "kernel.o"));
  if (!file) {
    llvm::consumeError(file.takeError());
    return 0;
  }
  uint64_t total = 0;
  for (const llvm::object::SectionRef &section : (*file)->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name != ".stack_sizes")
      continue;
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (!contents) {
      llvm::consumeError(contents.takeError());
      continue;
    }
    // Entries: a function's address (relocated; its width), then its
    // frame's size in ULEB128.
    const auto *at = contents->bytes_begin(), *end = contents->bytes_end();
    unsigned addressBytes = (*file)->getBytesInAddress();
    while (end - at > addressBytes) {
      at += addressBytes;
      unsigned length = 0;
      const char *error = nullptr;
      total += llvm::decodeULEB128(at, &length, end, &error);
      if (error)
        break;
      at += length;
    }
  }
  return total;
}
} // namespace

llvm::Expected<std::unique_ptr<HostProgram>>
HostProgram::load(llvm::StringRef object, llvm::StringRef kernel) {
  initializeNativeTarget();
  auto machineBuilder = hostMachineBuilder();
  if (!machineBuilder)
    return machineBuilder.takeError();
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*machineBuilder)).create();
  if (!jit)
    return jit.takeError();
  auto symbols = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!symbols)
    return symbols.takeError();
  (*jit)->getMainJITDylib().addGenerator(std::move(*symbols));
  llvm::orc::SymbolMap runtime;
  runtime[(*jit)->mangleAndIntern("tritium_cpu_assert_fail")] = {
      llvm::orc::ExecutorAddr::fromPtr(&tritiumCpuAssertFail), llvm::JITSymbolFlags::Exported};
  for (const HostMathFunction &function : hostMathFunctions())
    runtime[(*jit)->mangleAndIntern(function.symbol)] = {llvm::orc::ExecutorAddr::fromPtr(function.address),
                                                         llvm::JITSymbolFlags::Exported};
  for (const HostConversion &conversion : hostConversions())
    runtime[(*jit)->mangleAndIntern(conversion.symbol)] = {llvm::orc::ExecutorAddr::fromPtr(conversion.address),
                                                           llvm::JITSymbolFlags::Exported};
  if (llvm::Error e = (*jit)->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(runtime))))
    return std::move(e);
  if (llvm::Error e = (*jit)->addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(object, "kernel.o")))
    return std::move(e);
  auto address = (*jit)->lookup((kernel + "__program").str());
  if (!address)
    return address.takeError();

  std::unique_ptr<HostProgram> program(new HostProgram());
  program->jit = std::move(*jit);
  program->entry = address->toPtr<Entry>();
  program->stackBytes = stackBytesOf(object);
  return program;
}

std::optional<HostProgram::Failure> HostProgram::run(void **args, int32_t nx, int32_t ny, int32_t nz,
                                                     unsigned threads) const {
  int64_t total = static_cast<int64_t>(nx) * ny * nz;
  GridRun state;
  std::optional<std::string> refused = runOnHostThreads(total, threads, stackBytes, [&](int64_t p) {
    if (state.failed.load(std::memory_order_relaxed))
      return; // an assertion failed: the programs left do not run
    auto x = static_cast<int32_t>(p % nx);
    auto y = static_cast<int32_t>((p / nx) % ny);
    auto z = static_cast<int32_t>(p / (static_cast<int64_t>(nx) * ny));
    std::jmp_buf program;
    currentRun = &state;
    currentProgram = &program;
    if (setjmp(program) == 0)
      entry(args, x, y, z, nx, ny, nz);
    currentProgram = nullptr;
    currentRun = nullptr;
  });
  if (refused)
    return Failure{Failure::CannotRun, *refused};
  if (state.failed.load())
    return Failure{Failure::Assertion, state.message};
  return std::nullopt;
}
