//===- InitAll.cpp - register Tritium's dialects and passes ----------------===//
//
// The dialect registry and pass registry every entry point shares: the C API,
// tritium-opt and the tests.
//
//===----------------------------------------------------------------------===//
#include "tritium/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tritium/Conversion/TTGToLLVM/Passes.h"
#include "tritium/Conversion/TTToTTG/Passes.h"
#include "tritium/Dialect/TT/IR/TTDialect.h"
#include "tritium/Dialect/TT/Transforms/Passes.h"
#include "tritium/Dialect/TTG/IR/TTGDialect.h"
#include "tritium/Dialect/TTG/Transforms/Passes.h"
#include "tritium/Pipelines/LLIRPipeline.h"
#include "tritium/Pipelines/TTGIRPipeline.h"
#include "tritium/Pipelines/TTIRPipeline.h"
#include "tritium/Target/CPU/Passes.h"

void tritium::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<tt::TTDialect, ttg::TTGDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect>();
  mlir::func::registerInlinerExtension(registry);
}

void tritium::registerAllPasses() {
  // The registries are global and reject a pipeline registered twice, so
  // only the first call registers.
  static const bool registered = [] {
    // canonicalize, cse, inline, symbol-dce, sccp, licm...
    mlir::registerTransformsPasses();
    tt::registerTTPasses();
    registerTTIRPipeline();
    registerTTToTTGPasses();
    ttg::registerTTGPasses();
    registerTTGIRPipeline();
    registerTTGToLLVMPasses();
    registerLLIRPipeline();
    registerTTToHostPasses();
    return true;
  }();
  (void)registered;
}
