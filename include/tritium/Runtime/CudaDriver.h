//===- CudaDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Tritium never links against libcuda: the library must import on machines
// without a GPU driver.  CudaDriver dlopen()s libcuda.so.1 on first use and
// resolves the handful of driver entry points the runtime needs, declared
// here with their stable C ABI (no CUDA headers needed).  Every call
// returns the driver's CUresult; errorText() turns one into words.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_CUDADRIVER_H
#define TRITIUM_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <string>

namespace tritium::runtime {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;

/// Driver enum values used here (from the CUDA driver API).
enum : int {
  CUDA_SUCCESS = 0,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_SHAREDMEM_CARVEOUT_MAX_SHARED = 100,
};

class CudaDriver {
public:
  /// The process-wide driver, loaded and initialized on first use.  Returns
  /// null (and sets `error`) when libcuda.so.1 cannot be loaded or cuInit
  /// fails, e.g. on a machine without a GPU.
  static CudaDriver *get(std::string &error);

  /// Words for a CUresult: "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory
  /// access was encountered".
  std::string errorText(CUresult result) const;

  // Entry points (names and signatures as in the driver API).
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int *version) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetCount)(int *count) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext *ctx) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext ctx) = nullptr;
  CUresult (*cuCtxGetDevice)(CUdevice *device) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule *module, const void *image) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module, const char *name) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value) = nullptr;
  CUresult (*cuFuncGetAttribute)(int *value, int attribute, CUfunction function) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                             unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                             CUstream stream, void **kernelParams, void **extra) = nullptr;
  /// A launch whose blocks are all resident at once (or none: the grid is
  /// refused), so that they may wait on each other.
  CUresult (*cuLaunchCooperativeKernel)(CUfunction function, unsigned gridX, unsigned gridY,
                                        unsigned gridZ, unsigned blockX, unsigned blockY,
                                        unsigned blockZ, unsigned sharedBytes, CUstream stream,
                                        void **kernelParams) = nullptr;
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *blocks, CUfunction function,
                                                          int blockSize, size_t dynamicSharedBytes) =
      nullptr;
  /// Null when the driver has none (before CUDA 12).
  CUresult (*cuTensorMapEncodeTiled)(void *tensorMap, int dataType, unsigned rank,
                                     void *globalAddress, const unsigned long long *globalDim,
                                     const unsigned long long *globalStrides,
                                     const unsigned *boxDim, const unsigned *elementStrides,
                                     int interleave, int swizzle, int l2Promotion,
                                     int oobFill) = nullptr;
  CUresult (*cuMemAlloc)(unsigned long long *address, size_t bytes) = nullptr;  // cuMemAlloc_v2
  CUresult (*cuStreamIsCapturing)(CUstream stream, int *captureStatus) = nullptr;
  CUresult (*cuMemFree)(unsigned long long address) = nullptr;                  // cuMemFree_v2
  CUresult (*cuGetErrorName)(CUresult result, const char **name) = nullptr;
  CUresult (*cuGetErrorString)(CUresult result, const char **text) = nullptr;

private:
  CudaDriver() = default;
  bool load(std::string &error);
  void *handle = nullptr;
};

/// Makes sure a context is current on this thread: the caller's (e.g. one
/// PyTorch made), or else the primary context of `device`.
CUresult ensureContext(CudaDriver &driver, int device);

} // namespace tritium::runtime

#endif // TRITIUM_RUNTIME_CUDADRIVER_H
