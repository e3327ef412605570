//===- tritium-translate.cpp - LLVM dialect to LLVM IR, PTX, cubin ---------===//
//
// The NVIDIA back end as a command-line tool, for lit tests and for replaying
// the last steps of a compile by hand:
//
//   tritium-translate kernel.mlir --emit=llvm        # translated LLVM IR
//   tritium-translate kernel.mlir --emit=llvm-opt    # linked + O3 LLVM IR
//   tritium-translate kernel.mlir --emit=ptx --arch=90
//   tritium-translate kernel.mlir --emit=ptxas-info  # ptxas -v, parsed
//
// --split-input-file compiles each `// -----` chunk on its own, as
// tritium-opt does.
// The input is what tritium-make-llir produces: a module of the builtin, llvm
// and nvvm dialects.  Errors print as "error: ..." on stderr and exit 1.
//
//===----------------------------------------------------------------------===//
#include "tritium/InitAll.h"
#include "tritium/Target/NVIDIA/Backend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace tritium::nvidia;

namespace {
enum class Emit { LLVM, LLVMOpt, PTX, PtxasInfo };

llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                     llvm::cl::desc("<input .mlir>"),
                                     llvm::cl::init("-"));
llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("output file"),
                                      llvm::cl::value_desc("path"),
                                      llvm::cl::init("-"));
llvm::cl::opt<Emit> emit(
    "emit", llvm::cl::desc("what to print"), llvm::cl::init(Emit::PTX),
    llvm::cl::values(
        clEnumValN(Emit::LLVM, "llvm", "LLVM IR as translated"),
        clEnumValN(Emit::LLVMOpt, "llvm-opt",
                   "LLVM IR after libdevice linking and O3"),
        clEnumValN(Emit::PTX, "ptx", "PTX assembly (default)"),
        clEnumValN(Emit::PtxasInfo, "ptxas-info",
                   "assemble with ptxas and print its resource report")));
llvm::cl::opt<std::string> arch("arch",
                                llvm::cl::desc("compute capability, e.g. 90"),
                                llvm::cl::init("90"));
llvm::cl::opt<std::string>
    ptxVersion("ptx-version",
               llvm::cl::desc("PTX ISA version, e.g. 8.4 (default: what the "
                              "installed ptxas takes)"),
               llvm::cl::init(""));
llvm::cl::opt<bool> noFpFusion("no-fp-fusion",
                               llvm::cl::desc("do not contract into fma"));
llvm::cl::opt<bool> ftz("ftz",
                        llvm::cl::desc("libdevice flushes denormals to zero"));
llvm::cl::opt<bool> lineInfo("line-info",
                             llvm::cl::desc("emit source line information"));
llvm::cl::opt<std::string> ptxas("ptxas",
                                 llvm::cl::desc("the ptxas to run"),
                                 llvm::cl::init(""));

llvm::cl::opt<bool> splitInputFile(
    "split-input-file",
    llvm::cl::desc("compile each `// -----` chunk of the input on its own"));

int fail(const llvm::Twine &message) {
  llvm::errs() << "error: " << message << "\n";
  return 1;
}

/// Compiles one module (the whole input or one chunk) and prints what --emit
/// asks for to `os`.
mlir::LogicalResult processBuffer(std::unique_ptr<llvm::MemoryBuffer> input,
                                  const CudaTarget &target,
                                  const std::string &ptxasPath,
                                  llvm::raw_ostream &os) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  mlir::DialectRegistry registry;
  tritium::registerAllDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return mlir::failure();

  BackendOptions options;
  options.target = target;
  options.codegen.fpFusion = !noFpFusion;
  options.flushDenormals = ftz;
  options.lineInfo = lineInfo;
  options.assemble = emit == Emit::PtxasInfo;
  options.ptxasPath = ptxasPath;
  std::string translated;
  if (emit == Emit::LLVM)
    options.dump = [&](llvm::StringRef name, llvm::StringRef text) {
      if (name == "llvm-ir.ll")
        translated = text.str();
    };

  BackendResult result;
  llvm::Error failure = compileToCubin(*module, options, result);
  for (const std::string &warning : result.warnings)
    llvm::errs() << warning << "\n";
  if (failure) {
    fail(llvm::toString(std::move(failure)));
    return mlir::failure();
  }
  switch (emit) {
  case Emit::LLVM:
    os << translated;
    break;
  case Emit::LLVMOpt:
    os << result.llvmIR;
    break;
  case Emit::PTX:
    os << result.ptx;
    break;
  case Emit::PtxasInfo:
    if (!result.ptxas) {
      fail("no ptxas found");
      return mlir::failure();
    }
    for (const KernelResources &k : result.ptxas->kernels)
      os << "kernel " << k.name << ": registers " << k.registers
         << ", spill stores " << k.spillStoreBytes << ", spill loads "
         << k.spillLoadBytes << ", stack " << k.stackFrameBytes << ", smem "
         << k.sharedBytes << ", barriers " << k.barriers << "\n";
    os << "cubin bytes: " << result.ptxas->cubin.size() << "\n";
    break;
  }
  return mlir::success();
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "Tritium NVIDIA back end: LLVM dialect to LLVM IR/PTX\n");

  // Options first: a bad one must not reach LLVM.
  llvm::Expected<unsigned> capability = parseCapability(arch);
  if (!capability)
    return fail(llvm::toString(capability.takeError()));
  unsigned ptx = 0;
  if (!ptxVersion.empty()) {
    llvm::Expected<unsigned> parsed = parsePtxVersion(ptxVersion);
    if (!parsed)
      return fail(llvm::toString(parsed.takeError()));
    ptx = *parsed;
  }
  std::string ptxasPath = ptxas.empty() ? findPtxas() : std::string(ptxas);
  llvm::Expected<CudaTarget> target =
      makeCudaTarget(*capability, ptx, defaultPtxVersion(ptxasPath));
  if (!target)
    return fail(llvm::toString(target.takeError()));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFile, &error);
  if (!input)
    return fail(error);
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFile, &error);
  if (!output)
    return fail(error);

  auto process = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                     llvm::raw_ostream &os) {
    return processBuffer(std::move(chunk), *target, ptxasPath, os);
  };
  mlir::LogicalResult result =
      splitInputFile
          ? mlir::splitAndProcessBuffer(std::move(input), process,
                                        output->os(), mlir::kDefaultSplitMarker,
                                        mlir::kDefaultSplitMarker)
          : process(std::move(input), output->os());
  if (mlir::failed(result))
    return 1;
  output->keep();
  return 0;
}
