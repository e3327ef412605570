//===- CudaRuntime.cpp - C API: load and launch kernels -------------------===//
//
// The runtime half of the C ABI: device queries, loading a cubin (or PTX,
// which the driver compiles) as a module, and launching a kernel with its
// arguments packed after a header in one launch record.  The launch path
// allocates nothing and returns the raw CUresult; Python asks for the error
// text only on failure.
//
//===----------------------------------------------------------------------===//
#include "tritium.h"

#include "tritium/Runtime/CudaDriver.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace tritium::runtime;

namespace {
void storeText(char **slot, const std::string &text) {
  if (!slot)
    return;
  *slot = static_cast<char *>(std::malloc(text.size() + 1));
  if (*slot)
    std::memcpy(*slot, text.c_str(), text.size() + 1);
}

CudaDriver *driverOrError(char **diagnostics) {
  std::string error;
  CudaDriver *driver = CudaDriver::get(error);
  if (!driver)
    storeText(diagnostics, error);
  return driver;
}

/// Stores the text of a failed call; returns 1 so callers can `return fail(...)`.
int fail(CudaDriver &driver, CUresult result, const std::string &what, char **diagnostics) {
  storeText(diagnostics, what + ": " + driver.errorText(result));
  return 1;
}

// cuLaunchKernel's `extra` markers.
void *const kParamBufferPointer = reinterpret_cast<void *>(0x01);
void *const kParamBufferSize = reinterpret_cast<void *>(0x02);
void *const kParamEnd = reinterpret_cast<void *>(0x00);
} // namespace

extern "C" int tritium_cuda_init(int *device_count, char **diagnostics) {
  CudaDriver *driver = driverOrError(diagnostics);
  if (!driver)
    return 1;
  int count = 0;
  CUresult result = driver->cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS)
    return fail(*driver, result, "cuDeviceGetCount", diagnostics);
  if (device_count)
    *device_count = count;
  if (count == 0) {
    storeText(diagnostics, "the CUDA driver found no GPU");
    return 1;
  }
  return 0;
}

extern "C" int tritium_cuda_device_properties(int device, int *major, int *minor, int *sm_count,
                                              int *max_shared_optin, char **diagnostics) {
  CudaDriver *driver = driverOrError(diagnostics);
  if (!driver)
    return 1;
  CUdevice dev;
  CUresult result = driver->cuDeviceGet(&dev, device);
  if (result != CUDA_SUCCESS)
    return fail(*driver, result, "cuDeviceGet(" + std::to_string(device) + ")", diagnostics);
  struct {
    int *out;
    int attribute;
  } queries[] = {{major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
                 {minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
                 {sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
                 {max_shared_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN}};
  for (auto &q : queries) {
    if (!q.out)
      continue;
    result = driver->cuDeviceGetAttribute(q.out, q.attribute, dev);
    if (result != CUDA_SUCCESS)
      return fail(*driver, result, "cuDeviceGetAttribute", diagnostics);
  }
  return 0;
}

extern "C" int tritium_cuda_load(const void *image, const char *kernel_name, unsigned shared_bytes,
                                 int device, void **module, void **function, int *num_regs,
                                 char **diagnostics) {
  CudaDriver *driver = driverOrError(diagnostics);
  if (!driver)
    return 1;
  CUresult result = ensureContext(*driver, device);
  if (result != CUDA_SUCCESS)
    return fail(*driver, result, "making a CUDA context current", diagnostics);
  CUmodule mod = nullptr;
  result = driver->cuModuleLoadData(&mod, image);
  if (result != CUDA_SUCCESS)
    return fail(*driver, result, std::string("loading the module of '") + kernel_name + "'",
                diagnostics);
  CUfunction fn = nullptr;
  result = driver->cuModuleGetFunction(&fn, mod, kernel_name);
  if (result != CUDA_SUCCESS) {
    driver->cuModuleUnload(mod);
    return fail(*driver, result, std::string("finding kernel '") + kernel_name + "'", diagnostics);
  }
  // Above 48 KB, dynamic shared memory must be opted into per function,
  // and such a kernel gets the carveout that gives shared memory all it can
  // (as Triton's launcher does): the L1/shared split then stays the same
  // for every kernel of this kind instead of following each one's size.
  if (shared_bytes > 48 * 1024) {
    driver->cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                               CU_SHAREDMEM_CARVEOUT_MAX_SHARED);
    result = driver->cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        static_cast<int>(shared_bytes));
    if (result != CUDA_SUCCESS) {
      driver->cuModuleUnload(mod);
      return fail(*driver, result,
                  "allowing " + std::to_string(shared_bytes) + " bytes of shared memory for '" +
                      kernel_name + "'",
                  diagnostics);
    }
  }
  if (num_regs)
    driver->cuFuncGetAttribute(num_regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
  *module = mod;
  *function = fn;
  return 0;
}

namespace {
std::atomic<uint64_t> lastLaunched{0};
} // namespace

extern "C" int tritium_cuda_launch(const void *record) {
  std::string unused;
  CudaDriver *driver = CudaDriver::get(unused);
  if (!driver)
    return -1;
  tritium_launch_header header;
  std::memcpy(&header, record, sizeof(header));
  static_assert(sizeof(tritium_launch_header) % 8 == 0,
                "the packed arguments must start 8-byte aligned");
  const char *params = static_cast<const char *>(record) + sizeof(header);
  size_t size = header.params_size;
  void *extra[] = {kParamBufferPointer, const_cast<char *>(params),
                   kParamBufferSize, &size, kParamEnd};
  lastLaunched.store(header.function, std::memory_order_relaxed);
  return driver->cuLaunchKernel(
      reinterpret_cast<CUfunction>(header.function), header.grid[0],
      header.grid[1], header.grid[2], header.threads, 1, 1,
      header.shared_bytes, reinterpret_cast<CUstream>(header.stream), nullptr,
      size ? extra : nullptr);
}

extern "C" int tritium_cuda_encode_tensor_map(void *map, int data_type, int rank,
                                              uint64_t address, const uint64_t *dims,
                                              const uint64_t *strides, const uint32_t *box,
                                              int swizzle, int nan_fill,
                                              char **diagnostics) {
  CudaDriver *driver = driverOrError(diagnostics);
  if (!driver)
    return 1;
  if (!driver->cuTensorMapEncodeTiled) {
    storeText(diagnostics, "this CUDA driver has no cuTensorMapEncodeTiled (tensor "
                           "descriptors need CUDA 12 or later)");
    return 1;
  }
  int swizzleMode = swizzle == 128 ? 3 : swizzle == 64 ? 2 : swizzle == 32 ? 1 : 0;
  unsigned long long globalDims[5], globalStrides[5];
  unsigned boxDims[5], elementStrides[5];
  for (int d = 0; d < rank && d < 5; ++d) {
    globalDims[d] = dims[d];
    boxDims[d] = box[d];
    elementStrides[d] = 1;
    if (d + 1 < rank)
      globalStrides[d] = strides[d];
  }
  const int interleaveNone = 0, l2Promotion128B = 2;
  CUresult result = driver->cuTensorMapEncodeTiled(
      map, data_type, static_cast<unsigned>(rank), reinterpret_cast<void *>(address),
      globalDims, globalStrides, boxDims, elementStrides, interleaveNone, swizzleMode,
      l2Promotion128B, nan_fill ? 1 : 0);
  if (result != CUDA_SUCCESS)
    return fail(*driver, result, "cuTensorMapEncodeTiled", diagnostics);
  return 0;
}

namespace {
/// Launches a record with one pointer per argument, cooperatively or not.
int launchWithPointers(const void *record, const uint32_t *offsets, int count,
                       bool cooperative) {
  std::string unused;
  CudaDriver *driver = CudaDriver::get(unused);
  if (!driver)
    return -1;
  tritium_launch_header header;
  std::memcpy(&header, record, sizeof(header));
  char *params = const_cast<char *>(static_cast<const char *>(record)) + sizeof(header);
  void *pointers[256];
  if (count < 0 || count > 256)
    return 1; // CUDA_ERROR_INVALID_VALUE
  for (int i = 0; i < count; ++i)
    pointers[i] = params + offsets[i];
  lastLaunched.store(header.function, std::memory_order_relaxed);
  auto function = reinterpret_cast<CUfunction>(header.function);
  auto stream = reinterpret_cast<CUstream>(header.stream);
  if (cooperative)
    return driver->cuLaunchCooperativeKernel(function, header.grid[0], header.grid[1],
                                             header.grid[2], header.threads, 1, 1,
                                             header.shared_bytes, stream, pointers);
  return driver->cuLaunchKernel(function, header.grid[0], header.grid[1], header.grid[2],
                                header.threads, 1, 1, header.shared_bytes, stream, pointers,
                                nullptr);
}
} // namespace

extern "C" int tritium_cuda_launch_params(const void *record, const uint32_t *offsets,
                                          int count) {
  return launchWithPointers(record, offsets, count, /*cooperative=*/false);
}

extern "C" int tritium_cuda_launch_cooperative(const void *record, const uint32_t *offsets,
                                               int count) {
  return launchWithPointers(record, offsets, count, /*cooperative=*/true);
}

extern "C" uint64_t tritium_cuda_last_launched(void) {
  return lastLaunched.load(std::memory_order_relaxed);
}

extern "C" int tritium_cuda_synchronize(char **diagnostics) {
  CudaDriver *driver = driverOrError(diagnostics);
  if (!driver)
    return 1;
  CUresult result = driver->cuCtxSynchronize();
  if (result != CUDA_SUCCESS)
    return fail(*driver, result, "cuCtxSynchronize", diagnostics);
  return 0;
}

extern "C" int tritium_cuda_memory(int device, uint64_t bytes, uint64_t *address,
                                   char **diagnostics) {
  CudaDriver *driver = driverOrError(diagnostics);
  if (!driver)
    return 1;
  CUresult result = ensureContext(*driver, device);
  if (result != CUDA_SUCCESS)
    return fail(*driver, result, "making a CUDA context current", diagnostics);
  if (bytes == 0) {
    result = driver->cuMemFree(*address);
    return result == CUDA_SUCCESS ? 0 : fail(*driver, result, "cuMemFree", diagnostics);
  }
  unsigned long long allocated = 0;
  result = driver->cuMemAlloc(&allocated, bytes);
  if (result != CUDA_SUCCESS)
    return fail(*driver, result,
                "allocating " + std::to_string(bytes) + " bytes of global memory",
                diagnostics);
  *address = allocated;
  return 0;
}

extern "C" int tritium_cuda_stream_capturing(uint64_t stream, int *capturing,
                                             char **diagnostics) {
  CudaDriver *driver = driverOrError(diagnostics);
  if (!driver)
    return 1;
  int status = 0; // CU_STREAM_CAPTURE_STATUS_NONE
  CUresult result =
      driver->cuStreamIsCapturing(reinterpret_cast<CUstream>(stream), &status);
  if (result != CUDA_SUCCESS)
    return fail(*driver, result, "cuStreamIsCapturing", diagnostics);
  *capturing = status != 0;
  return 0;
}

extern "C" void tritium_cuda_error_text(int result, char **text) {
  std::string error;
  CudaDriver *driver = CudaDriver::get(error);
  storeText(text, driver ? driver->errorText(result) : error);
}
