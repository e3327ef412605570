//===- CompileCUDA.cpp - C API: TTIR to PTX and cubin ----------------------===//
//
// tritium_compile_cuda is the whole compile behind @jit for an NVIDIA GPU:
//
//   parse + verify the TTIR
//   builtin.module(tritium-make-ttgir{num-warps threads-per-warp num-ctas
//                                     target}), ttg.maxnreg   -> "ttgir"
//   builtin.module(tritium-make-llir{compute-capability
//                                    ptx-version})           -> "llvm_mlir"
//   translate, link libdevice, O3                             -> "llir"
//   NVPTX                                                     -> "ptx"
//   ptxas                                                     -> the cubin
//
// and returns every stage with the kernel's metadata as one JSON object.
// Options arrive as "key=value;key=value" and are all checked before any of
// MLIR or LLVM sees them: a bad option is an error message, never an LLVM
// fatal error.  With dump_dir set, the IR after every pass and every
// intermediate of the back end are written there, numbered in order.
//
//===----------------------------------------------------------------------===//
#include "tritium.h"

#include "CompileContext.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "tritium/Analysis/Allocation.h"
#include "tritium/Dialect/TT/Transforms/Transforms.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/InitAll.h"
#include "tritium/Target/NVIDIA/Backend.h"
#include "tritium/Target/NVIDIA/NvJitLink.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

using namespace tritium::capi;
namespace nvidia = tritium::nvidia;

namespace {
/// Where a compile starts: the frontend's TTIR, or (to replay or test the
/// later steps) a TTGIR or LLVM dialect module.
enum class InputStage { TTIR, TTGIR, LLIR };

struct CudaOptions {
  InputStage input = InputStage::TTIR;
  unsigned numWarps = 4;
  unsigned numCtas = 1;
  unsigned numStages = 3;
  unsigned maxnreg = 0; // 0: no cap on registers per thread
  unsigned capability = 90;
  unsigned ptxVersion = 0; // 0: what the installed ptxas takes
  bool fpFusion = true;
  bool debug = false;
  bool lineInfo = true;
  bool flushDenormals = false;
  bool ptxasOpt = true;
  std::string dumpDir;
};

bool isPowerOfTwo(unsigned v) { return v && !(v & (v - 1)); }

bool parseBool(llvm::StringRef text, bool &out) {
  std::string lower = text.trim().lower();
  if (lower == "1" || lower == "true" || lower == "yes" || lower == "on")
    return out = true, true;
  if (lower == "0" || lower == "false" || lower == "no" || lower == "off")
    return out = false, true;
  return false;
}

/// Parses and checks "key=value;..." into `options`; an error message on
/// failure.
std::string parseOptions(llvm::StringRef text, CudaOptions &options) {
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ';', -1, /*KeepEmpty=*/false);
  std::string arch;
  for (llvm::StringRef item : items) {
    item = item.trim();
    if (item.empty())
      continue;
    std::pair<llvm::StringRef, llvm::StringRef> keyValue = item.split('=');
    llvm::StringRef key = keyValue.first.trim();
    llvm::StringRef value = keyValue.second.trim();
    if (!item.contains('='))
      return "option '" + item.str() + "' has no value (expected key=value)";
    auto unsignedValue = [&](unsigned &out) -> std::string {
      if (value.getAsInteger(10, out))
        return "option " + key.str() + "=" + value.str() +
               ": expected a non-negative integer";
      return "";
    };
    auto boolValue = [&](bool &out) -> std::string {
      if (!parseBool(value, out))
        return "option " + key.str() + "=" + value.str() +
               ": expected true or false (1 or 0)";
      return "";
    };
    std::string problem;
    if (key == "num_warps")
      problem = unsignedValue(options.numWarps);
    else if (key == "num_ctas")
      problem = unsignedValue(options.numCtas);
    else if (key == "num_stages")
      problem = unsignedValue(options.numStages);
    else if (key == "maxnreg")
      problem = unsignedValue(options.maxnreg);
    else if (key == "arch")
      arch = value.str();
    else if (key == "ptx_version") {
      if (value.empty() || value == "0" || value == "None")
        options.ptxVersion = 0;
      else if (llvm::Expected<unsigned> v = nvidia::parsePtxVersion(value))
        options.ptxVersion = *v;
      else
        problem = llvm::toString(v.takeError());
    } else if (key == "enable_fp_fusion")
      problem = boolValue(options.fpFusion);
    else if (key == "debug")
      problem = boolValue(options.debug);
    else if (key == "line_info")
      problem = boolValue(options.lineInfo);
    else if (key == "ftz")
      problem = boolValue(options.flushDenormals);
    else if (key == "ptxas_opt")
      problem = boolValue(options.ptxasOpt);
    else if (key == "dump_dir")
      options.dumpDir = value.str();
    else if (key == "input") {
      if (value == "ttir")
        options.input = InputStage::TTIR;
      else if (value == "ttgir")
        options.input = InputStage::TTGIR;
      else if (value == "llir")
        options.input = InputStage::LLIR;
      else
        problem = "option input=" + value.str() +
                  ": expected ttir, ttgir or llir";
    } else
      problem = "unknown option '" + key.str() +
                "' (known: num_warps, num_ctas, num_stages, maxnreg, arch, "
                "ptx_version, enable_fp_fusion, debug, line_info, ftz, ptxas_opt, "
                "dump_dir, "
                "input)";
    if (!problem.empty())
      return problem;
  }

  if (!arch.empty()) {
    llvm::Expected<unsigned> capability = nvidia::parseCapability(arch);
    if (!capability)
      return llvm::toString(capability.takeError());
    options.capability = *capability;
  }
  if (!isPowerOfTwo(options.numWarps) || options.numWarps > 32)
    return "num_warps=" + std::to_string(options.numWarps) +
           ": must be a power of two from 1 to 32";
  if (!isPowerOfTwo(options.numCtas) || options.numCtas > 16)
    return "num_ctas=" + std::to_string(options.numCtas) +
           ": must be a power of two from 1 to 16";
  if (options.numCtas > 1 && options.capability < 90)
    return "num_ctas=" + std::to_string(options.numCtas) +
           ": thread block clusters need compute capability 9.0";
  if (options.numStages > 16)
    return "num_stages=" + std::to_string(options.numStages) +
           ": must be from 0 to 16";
  if (options.maxnreg > 255)
    return "maxnreg=" + std::to_string(options.maxnreg) +
           ": must be from 1 to 255 (0: no cap)";
  if (options.maxnreg && options.input == InputStage::LLIR)
    return "maxnreg applies when TTGIR is lowered: it cannot be used with "
           "input=llir";
  return "";
}

/// Writes the IR after every pass into a directory as
/// NNN-<stage>-<pass>.mlir, NNN counting across all stages of the compile.
class DumpAfterEachPass : public mlir::PassInstrumentation {
public:
  DumpAfterEachPass(std::string dir, std::string stage, unsigned &counter)
      : dir(std::move(dir)), stage(std::move(stage)), counter(counter) {}

  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    write(pass, op, "");
  }
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override {
    write(pass, op, "-FAILED");
  }

private:
  void write(mlir::Pass *pass, mlir::Operation *op, llvm::StringRef suffix) {
    // Print the whole module even after a pass on one function.
    while (mlir::Operation *parent = op->getParentOp())
      op = parent;
    // Pass adaptors (which run a nested pipeline on each function) have no
    // argument; the passes they run are dumped themselves.
    llvm::StringRef name = pass->getArgument();
    if (name.empty())
      return;
    std::string file = llvm::formatv("{0:D3}-{1}-{2}{3}.mlir", counter++, stage,
                                     name, suffix);
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, file);
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    if (ec)
      return; // dumping is best effort; the compile goes on
    op->print(out);
  }

  std::string dir;
  std::string stage;
  unsigned &counter;
};

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// One compile in flight: its context, options and what it produced so far.
class CudaCompile {
public:
  CudaCompile(const char *text, size_t len, const char *sourceName,
              CudaOptions options)
      : context(text, len, sourceName), options(std::move(options)) {}

  /// Runs the whole compile; false with diagnostics on failure.
  bool run();

  /// The stages and metadata as JSON (partial after a failure).
  std::string json() const;
  std::string diagnostics() { return context.takeDiagnostics(""); }
  const std::string &cubin() const {
    static const std::string none;
    return backend.ptxas && backend.ptxas->succeeded ? backend.ptxas->cubin
                                                     : none;
  }
  std::string warnings() const {
    std::string out;
    for (const std::string &warning : backend.warnings)
      out += warning + "\n";
    return out;
  }

private:
  bool runPipeline(llvm::StringRef stage, const std::string &pipeline,
                   mlir::ModuleOp module);
  /// Puts the maxnreg option on the module as ttg.maxnreg (the kernel
  /// lowering turns it into nvvm.maxnreg).
  void setMaxNReg(mlir::ModuleOp module) {
    if (options.maxnreg)
      module->setAttr(tritium::ttg::TTGDialect::kMaxNRegAttrName,
                      mlir::IntegerAttr::get(
                          mlir::IntegerType::get(module.getContext(), 32),
                          options.maxnreg));
  }
  void dump(llvm::StringRef name, llvm::StringRef text);
  /// Reads the TMA plans ttg-lower-tensor-descriptors put on the kernel's
  /// arguments (tt.tma_swizzle, tt.tma_box) into tensorDescriptors.
  void collectTensorDescriptors(mlir::ModuleOp module) {
    module.walk([&](mlir::FunctionOpInterface function) {
      for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i) {
        auto swizzle =
            function.getArgAttrOfType<mlir::IntegerAttr>(i, "tt.tma_swizzle");
        auto box =
            function.getArgAttrOfType<mlir::DenseI32ArrayAttr>(i, "tt.tma_box");
        if (!swizzle || !box)
          continue;
        llvm::json::Array boxDims;
        for (int32_t size : box.asArrayRef())
          boxDims.push_back(static_cast<int64_t>(size));
        tensorDescriptors.push_back(llvm::json::Object{
            {"arg", static_cast<int64_t>(i)},
            {"swizzle", swizzle.getInt()},
            {"box", std::move(boxDims)}});
      }
    });
    // Integer arguments a block pointer moved by TMA takes as a dimension or
    // a stride: the launcher refuses negative values.
    module.walk([&](mlir::FunctionOpInterface function) {
      for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
        if (function.getArgAttr(i, tritium::tt::kNonNegativeArgAttrName))
          nonNegativeArgs.push_back(static_cast<int64_t>(i));
    });
    // Integer arguments a tensor map made in the kernel takes as a stride:
    // the launcher refuses values that are not multiples of so many elements.
    module.walk([&](mlir::FunctionOpInterface function) {
      for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i) {
        auto multiple = function.getArgAttrOfType<mlir::IntegerAttr>(
            i, tritium::tt::kMultipleAtLaunchArgAttrName);
        auto why = function.getArgAttrOfType<mlir::StringAttr>(
            i, tritium::tt::kMultipleAtLaunchWhyArgAttrName);
        if (multiple && why)
          multipleAtLaunchArgs.push_back(llvm::json::Object{
              {"arg", static_cast<int64_t>(i)},
              {"multiple_of", multiple.getInt()},
              {"why", why.getValue().str()}});
      }
    });
  }

  CompileContext context;
  CudaOptions options;
  unsigned dumpCounter = 0;
  std::string ttgir, llvmDialect;
  int64_t sharedBytes = 0;
  /// Global scratch memory per program (tensor maps made in the kernel);
  /// the launcher allocates it for the whole grid and passes its address as
  /// the kernel's last argument.
  int64_t globalScratchBytes = 0;
  bool globalScratchInternal = false; // the runtime's memory, not the user's
  int64_t totalNumWarps = 0; ///< warps launched, a warp-specialized partition's included
  /// Per tensor-descriptor argument whose tiles move by TMA: its argument
  /// index, swizzle and box (ttg-lower-tensor-descriptors), from which the
  /// host encodes the tensor map.
  llvm::json::Array tensorDescriptors;
  /// Argument indices the launcher checks are not negative.
  llvm::json::Array nonNegativeArgs;
  llvm::json::Array multipleAtLaunchArgs;
  nvidia::CudaTarget target;
  nvidia::BackendResult backend;
  double ttgirMs = 0, llirMs = 0, totalMs = 0;
};

bool CudaCompile::runPipeline(llvm::StringRef stage,
                              const std::string &pipeline,
                              mlir::ModuleOp module) {
  llvm::StringRef name = llvm::StringRef(pipeline)
                             .drop_front(strlen("builtin.module("))
                             .take_until([](char c) { return c == '{'; });
  if (!mlir::PassPipelineInfo::lookup(name) && !mlir::PassInfo::lookup(name)) {
    context.addMessage("error: pass pipeline '" + name.str() +
                       "' is not registered in this build of libtritium");
    return false;
  }
  std::string parseErrors;
  mlir::PassManager *pm;
  std::unique_ptr<mlir::PassManager> dumping;
  if (options.dumpDir.empty()) {
    pm = context.getPassManager(pipeline, parseErrors);
  } else {
    // A pass manager of its own: the dumping instrumentation is per compile.
    llvm::raw_string_ostream parseErrorStream(parseErrors);
    mlir::FailureOr<mlir::OpPassManager> parsed =
        mlir::parsePassPipeline(pipeline, parseErrorStream);
    if (mlir::succeeded(parsed)) {
      dumping = std::make_unique<mlir::PassManager>(&context.getContext(),
                                                    parsed->getOpAnchorName());
      static_cast<mlir::OpPassManager &>(*dumping) = std::move(*parsed);
      dumping->enableVerifier(true);
      dumping->addInstrumentation(std::make_unique<DumpAfterEachPass>(
          options.dumpDir, stage.str(), dumpCounter));
    }
    pm = dumping.get();
  }
  if (!pm) {
    context.addMessage("error: invalid pass pipeline '" + pipeline +
                       "': " + parseErrors);
    return false;
  }
  if (mlir::failed(pm->run(module))) {
    context.addMessage("error: " + stage.str() + " failed (pipeline " +
                       pipeline + ")");
    return false;
  }
  return true;
}

void CudaCompile::dump(llvm::StringRef name, llvm::StringRef text) {
  if (options.dumpDir.empty())
    return;
  llvm::SmallString<256> path(options.dumpDir);
  llvm::sys::path::append(
      path, llvm::formatv("{0:D3}-{1}", dumpCounter++, name).str());
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (!ec)
    out << text;
}

bool CudaCompile::run() {
  auto start = std::chrono::steady_clock::now();
  auto fail = [&](const std::string &message) {
    if (!message.empty())
      context.addMessage(message);
    totalMs = millisecondsSince(start);
    return false;
  };

  nvidia::BackendOptions backendOptions;
  backendOptions.ptxasPath = nvidia::findPtxas();
  llvm::Expected<nvidia::CudaTarget> made = nvidia::makeCudaTarget(
      options.capability, options.ptxVersion,
      nvidia::defaultPtxVersion(backendOptions.ptxasPath));
  if (!made)
    return fail("error: " + llvm::toString(made.takeError()));
  target = *made;

  // ptxas starts now and waits for the PTX while the pipelines below make
  // it (its start is most of its time on a small kernel).
  backendOptions.target = target;
  backendOptions.codegen.fpFusion = options.fpFusion;
  backendOptions.lineInfo = options.lineInfo || options.debug;
  backendOptions.ptxasOptimize = options.ptxasOpt;
  std::unique_ptr<nvidia::StartedPtxas> startedPtxas;
  if (!backendOptions.ptxasPath.empty())
    startedPtxas = nvidia::StartedPtxas::start(
        backendOptions.ptxasPath, target,
        nvidia::ptxasOptionsFor(backendOptions));
  backendOptions.startedPtxas = startedPtxas.get();

  if (!options.dumpDir.empty()) {
    if (std::error_code ec =
            llvm::sys::fs::create_directories(options.dumpDir))
      return fail("error: cannot create dump_dir '" + options.dumpDir +
                  "': " + ec.message());
  }

  mlir::OwningOpRef<mlir::ModuleOp> module = context.parseAndVerify();
  if (!module)
    return fail(""); // the parser's diagnostics say why
  tritium::registerAllPasses();

  if (options.input == InputStage::TTIR) {
    auto t = std::chrono::steady_clock::now();
    std::string pipeline = llvm::formatv(
        "builtin.module(tritium-make-ttgir{{num-warps={0} threads-per-warp=32 "
        "num-ctas={1} target={2} num-stages={3}})",
        options.numWarps, options.numCtas, target.name(), options.numStages);
    bool ok = runPipeline("ttgir", pipeline, *module);
    ttgirMs = millisecondsSince(t);
    if (!ok)
      return fail("");
    setMaxNReg(*module);
    ttgir = printModule(*module);
  }
  if (options.input != InputStage::LLIR) {
    if (options.input == InputStage::TTGIR) {
      setMaxNReg(*module); // the option overrides the input's own cap
      // TTGIR written by hand or by Triton's tests may name no target; the
      // lowering reads the compute capability from it (stmatrix, wgmma).
      auto named = (*module)->getAttrOfType<mlir::StringAttr>(
          tritium::ttg::TTGDialect::kTargetAttrName);
      if (!named)
        (*module)->setAttr(tritium::ttg::TTGDialect::kTargetAttrName,
                           mlir::StringAttr::get(&context.getContext(), target.name()));
      else if (named.getValue() != target.name())
        return fail("error: the module's ttg.target is \"" + named.getValue().str() +
                    "\" but it is compiled for " + target.name());
    }
    collectTensorDescriptors(*module);
    auto t = std::chrono::steady_clock::now();
    std::string pipeline = llvm::formatv(
        "builtin.module(tritium-make-llir{{compute-capability={0} "
        "ptx-version={1}})",
        target.capability, target.ptxVersion);
    bool ok = runPipeline("llir", pipeline, *module);
    llirMs = millisecondsSince(t);
    if (!ok)
      return fail("");
    // The dialect form is for debugging: printed only when dumping (it is
    // the largest text of the compile and no cache file holds it).
    if (!options.dumpDir.empty())
      llvmDialect = printModule(*module);
  }
  if (auto shared = (*module)->getAttrOfType<mlir::IntegerAttr>(
          tritium::kSharedMemorySizeAttrName))
    sharedBytes = shared.getInt();
  if (auto scratch = (*module)->getAttrOfType<mlir::IntegerAttr>(
          tritium::ttg::TTGDialect::kGlobalScratchSizeAttrName))
    globalScratchBytes = scratch.getInt();
  globalScratchInternal = (*module)->hasAttr(
      tritium::ttg::TTGDialect::kGlobalScratchInternalAttrName);
  totalNumWarps = tritium::ttg::getTotalNumWarps(*module);

  backendOptions.flushDenormals = options.flushDenormals;
  if (!options.dumpDir.empty())
    backendOptions.dump = [this](llvm::StringRef name, llvm::StringRef text) {
      dump(name, text);
    };
  llvm::Error failure = nvidia::compileToCubin(*module, backendOptions, backend);
  totalMs = millisecondsSince(start);
  if (failure)
    return fail("error: " + llvm::toString(std::move(failure)));
  return true;
}

std::string CudaCompile::json() const {
  llvm::json::Object out;
  out["name"] = backend.kernelName;
  out["target"] = target.name();
  out["arch"] = target.chip();
  out["ptx_version"] = static_cast<int64_t>(target.ptxVersion);
  out["num_warps"] = static_cast<int64_t>(options.numWarps);
  out["num_ctas"] = static_cast<int64_t>(options.numCtas);
  out["num_stages"] = static_cast<int64_t>(options.numStages);
  out["maxnreg"] = static_cast<int64_t>(options.maxnreg);
  out["threads_per_warp"] = 32;
  out["enable_fp_fusion"] = options.fpFusion;
  out["debug"] = options.debug;
  out["line_info"] = options.lineInfo || options.debug;
  out["ptxas_opt"] = options.ptxasOpt;
  out["shared"] = sharedBytes;
  out["tensor_descriptors"] = llvm::json::Array(tensorDescriptors);
  out["nonnegative_args"] = llvm::json::Array(nonNegativeArgs);
  out["multiple_at_launch_args"] = llvm::json::Array(multipleAtLaunchArgs);
  out["global_scratch_size"] = globalScratchBytes;
  // True when only block pointers' tensor maps use the scratch: the runtime
  // allocates it (no triton.set_allocator needed).
  out["global_scratch_internal"] = globalScratchInternal;
  // The block is this many warps: num_warps, plus the producer warp of a
  // warp-specialized loop.
  out["total_num_warps"] = totalNumWarps ? totalNumWarps : static_cast<int64_t>(options.numWarps);
  out["global_scratch_align"] = tritium::ttg::TTGDialect::kTensorMapBytes;

  const nvidia::KernelResources *resources = nullptr;
  if (backend.ptxas)
    for (const nvidia::KernelResources &k : backend.ptxas->kernels)
      if (k.name == backend.kernelName)
        resources = &k;
  out["registers"] = resources ? resources->registers : -1;
  out["spills"] = resources ? resources->spillStoreBytes : 0;
  out["spill_stores"] = resources ? resources->spillStoreBytes : 0;
  out["spill_loads"] = resources ? resources->spillLoadBytes : 0;
  out["stack_frame"] = resources ? resources->stackFrameBytes : 0;
  out["static_shared"] = resources ? resources->sharedBytes : 0;
  out["has_cubin"] = backend.ptxas && backend.ptxas->succeeded;
  out["ptxas"] = backend.ptxasPath.empty() ? llvm::json::Value(nullptr)
                                           : llvm::json::Value(backend.ptxasPath);
  out["ptxas_log"] = backend.ptxas ? backend.ptxas->log : "";
  // the command that made the cubin: ptxas's, or nvJitLink's in this process
  out["ptxas_command"] = backend.ptxas ? backend.ptxas->command : "";

  out["ttgir"] = ttgir;
  out["llvm_mlir"] = llvmDialect;
  out["llir"] = backend.llvmIR;
  out["ptx"] = backend.ptx;

  llvm::json::Array warnings;
  for (const std::string &w : backend.warnings)
    warnings.push_back(w);
  out["warnings"] = std::move(warnings);

  const nvidia::BackendTimes &t = backend.times;
  out["times_ms"] = llvm::json::Object{
      {"ttgir", ttgirMs},       {"llir", llirMs},
      {"translate", t.translate}, {"link", t.link},
      {"optimize", t.optimize}, {"ptx", t.ptx},
      {"ptxas", t.ptxas},       {"total", totalMs}};

  std::string text;
  llvm::raw_string_ostream stream(text);
  stream << llvm::json::Value(std::move(out));
  return text;
}
} // namespace

extern "C" void tritium_ptxas_path(char **path) {
  if (path)
    store(path, nvidia::findPtxas());
}

extern "C" void tritium_prepare_ptx_compiler(void) {
  std::string ptxas = nvidia::findPtxas();
  if (!ptxas.empty())
    nvidia::prepareNvJitLink(ptxas);
}

extern "C" int tritium_compile_cuda(const char *ttir, size_t len,
                                    const char *source_name,
                                    const char *options, char **stages_json,
                                    unsigned char **cubin, size_t *cubin_size,
                                    char **diagnostics) {
  if (stages_json)
    *stages_json = nullptr;
  if (cubin)
    *cubin = nullptr;
  if (cubin_size)
    *cubin_size = 0;
  if (diagnostics)
    *diagnostics = nullptr;
  if (!ttir) {
    store(diagnostics, "error: no IR given");
    return 1;
  }

  CudaOptions parsed;
  std::string problem = parseOptions(options ? options : "", parsed);
  if (!problem.empty()) {
    store(diagnostics, "error: " + problem);
    return 1;
  }

  CudaCompile compile(ttir, len, source_name, std::move(parsed));
  bool ok = compile.run();
  store(stages_json, compile.json());
  if (!ok) {
    std::string messages = compile.diagnostics();
    store(diagnostics, messages.empty() ? "error: compilation failed" : messages);
    return 1;
  }
  if (std::string warnings = compile.warnings(); !warnings.empty())
    store(diagnostics, warnings);
  const std::string &image = compile.cubin();
  if (!image.empty() && cubin) {
    auto *copy = static_cast<unsigned char *>(std::malloc(image.size()));
    if (!copy) {
      store(diagnostics, "error: out of memory copying the cubin");
      return 1;
    }
    std::memcpy(copy, image.data(), image.size());
    *cubin = copy;
    if (cubin_size)
      *cubin_size = image.size();
  }
  return 0;
}
