//===- CudaDriver.cpp - the CUDA driver API, loaded at run time -----------===//
//
// dlopen()s libcuda.so.1 once, resolves every entry point CudaDriver
// declares (failing cleanly if one is missing), and calls cuInit.
//
//===----------------------------------------------------------------------===//
#include "tritium/Runtime/CudaDriver.h"

#include <dlfcn.h>
#include <mutex>

using namespace tritium::runtime;

namespace {
template <typename Fn>
bool resolve(void *handle, const char *name, Fn &slot, std::string &error) {
  slot = reinterpret_cast<Fn>(dlsym(handle, name));
  if (!slot) {
    error = std::string("libcuda.so.1 lacks ") + name;
    return false;
  }
  return true;
}
} // namespace

bool CudaDriver::load(std::string &error) {
  handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    error = std::string("cannot load the CUDA driver (libcuda.so.1): ") +
            (why ? why : "unknown error");
    return false;
  }
  bool ok = resolve(handle, "cuInit", cuInit, error) &&
            resolve(handle, "cuDriverGetVersion", cuDriverGetVersion, error) &&
            resolve(handle, "cuDeviceGet", cuDeviceGet, error) &&
            resolve(handle, "cuDeviceGetCount", cuDeviceGetCount, error) &&
            resolve(handle, "cuDeviceGetAttribute", cuDeviceGetAttribute, error) &&
            resolve(handle, "cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain, error) &&
            resolve(handle, "cuCtxGetCurrent", cuCtxGetCurrent, error) &&
            resolve(handle, "cuCtxSetCurrent", cuCtxSetCurrent, error) &&
            resolve(handle, "cuCtxGetDevice", cuCtxGetDevice, error) &&
            resolve(handle, "cuCtxSynchronize", cuCtxSynchronize, error) &&
            resolve(handle, "cuModuleLoadData", cuModuleLoadData, error) &&
            resolve(handle, "cuModuleUnload", cuModuleUnload, error) &&
            resolve(handle, "cuModuleGetFunction", cuModuleGetFunction, error) &&
            resolve(handle, "cuFuncSetAttribute", cuFuncSetAttribute, error) &&
            resolve(handle, "cuFuncGetAttribute", cuFuncGetAttribute, error) &&
            resolve(handle, "cuLaunchKernel", cuLaunchKernel, error) &&
            resolve(handle, "cuLaunchCooperativeKernel", cuLaunchCooperativeKernel, error) &&
            resolve(handle, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
                    cuOccupancyMaxActiveBlocksPerMultiprocessor, error) &&
            resolve(handle, "cuMemAlloc_v2", cuMemAlloc, error) &&
            resolve(handle, "cuMemFree_v2", cuMemFree, error) &&
            resolve(handle, "cuStreamIsCapturing", cuStreamIsCapturing, error) &&
            resolve(handle, "cuGetErrorName", cuGetErrorName, error) &&
            resolve(handle, "cuGetErrorString", cuGetErrorString, error);
  if (!ok)
    return false;
  // Drivers before CUDA 12 lack it; only tensor descriptors need it.
  cuTensorMapEncodeTiled = reinterpret_cast<decltype(cuTensorMapEncodeTiled)>(
      dlsym(handle, "cuTensorMapEncodeTiled"));
  CUresult result = cuInit(0);
  if (result != CUDA_SUCCESS) {
    error = "cuInit failed: " + errorText(result);
    return false;
  }
  return true;
}

CudaDriver *CudaDriver::get(std::string &error) {
  static std::once_flag once;
  static CudaDriver *driver = nullptr;
  static std::string loadError;
  std::call_once(once, [] {
    auto *candidate = new CudaDriver();
    if (candidate->load(loadError))
      driver = candidate;
  });
  if (!driver)
    error = loadError;
  return driver;
}

std::string CudaDriver::errorText(CUresult result) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  std::string out = name ? name : ("CUDA error " + std::to_string(result));
  if (text)
    out += std::string(": ") + text;
  return out;
}

CUresult tritium::runtime::ensureContext(CudaDriver &driver, int device) {
  CUcontext current = nullptr;
  CUresult result = driver.cuCtxGetCurrent(&current);
  if (result != CUDA_SUCCESS || current)
    return result;
  CUdevice dev;
  if ((result = driver.cuDeviceGet(&dev, device)) != CUDA_SUCCESS)
    return result;
  CUcontext primary = nullptr;
  if ((result = driver.cuDevicePrimaryCtxRetain(&primary, dev)) != CUDA_SUCCESS)
    return result;
  return driver.cuCtxSetCurrent(primary);
}
