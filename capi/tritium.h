/*===- tritium.h - the C ABI of libtritium.so ---------------------*- C -*-===*
 *
 * The whole boundary between Python (ctypes) and the native compiler.  Every
 * entry point reports failure through its return value and a diagnostics
 * string; none aborts the process on bad input.  Strings returned through
 * `char **` are owned by the caller and freed with tritium_free().
 *
 *===----------------------------------------------------------------------===*/
#ifndef TRITIUM_CAPI_TRITIUM_H
#define TRITIUM_CAPI_TRITIUM_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define TRITIUM_API __attribute__((visibility("default")))
#else
#define TRITIUM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the native library, e.g. "0.1.0 (MLIR 22.1.8)". Static storage. */
TRITIUM_API const char *tritium_version(void);

/* The C ABI revision: bumped whenever an entry point changes. */
TRITIUM_API int tritium_abi_version(void);

/* Parses `text` (MLIR assembly; `len` bytes, need not be NUL-terminated) in a
 * fresh context that knows Tritium's dialects, and verifies it.  Locations in
 * diagnostics name `source_name`.  Returns 0 on success and stores the
 * module's canonical printed form in *printed; returns 1 on failure and stores
 * every diagnostic ("file:line:col: error: message" plus the source line and
 * a caret) in *diagnostics.  Either output may be NULL if not wanted. */
TRITIUM_API int tritium_parse_and_verify(const char *text, size_t len,
                                         const char *source_name,
                                         char **printed, char **diagnostics);

/* Parses and verifies `text` as tritium_parse_and_verify does, then runs the
 * textual pass pipeline `pipeline` on the module, e.g.
 * "builtin.module(tritium-make-ttir)" or "builtin.module(canonicalize,cse)",
 * with the verifier on after every pass.  Returns 0 on success and stores the
 * transformed module's printed form in *printed; returns 1 and stores the
 * diagnostics in *diagnostics when the text does not parse or verify, the
 * pipeline does not parse (unknown pass names included), or a pass fails.
 * Either output may be NULL if not wanted.  Since ABI revision 2. */
TRITIUM_API int tritium_run_pipeline(const char *text, size_t len,
                                     const char *source_name,
                                     const char *pipeline, char **printed,
                                     char **diagnostics);

/* Compiles a kernel for an NVIDIA GPU: parses and verifies `ttir` (`len`
 * bytes of MLIR assembly; diagnostics name `source_name`), runs
 * builtin.module(tritium-make-ttgir{...}) and builtin.module(tritium-make-llir
 * {...}), translates to LLVM IR, links libdevice when the kernel calls it,
 * runs O3, emits PTX and assembles it with ptxas when one is installed.
 *
 * `options` is "key=value;key=value" (NULL or "" for the defaults):
 *   num_warps=4          power of two, 1..32
 *   num_ctas=1           power of two, 1..16 (more than 1 needs arch 90)
 *   num_stages=3         0..16
 *   maxnreg=0            at most this many registers per thread, 1..255
 *                        (module attribute ttg.maxnreg, PTX .maxnreg); 0 =
 *                        no cap; not with input=llir
 *   arch=90              compute capability: 80, 86, 89 or 90 (90 compiles
 *                        for sm_90a); "sm_90", "cuda:90" are accepted too
 *   ptx_version=0        PTX ISA as 84 or 8.4; 0 = what the installed ptxas
 *                        takes (8.4 when there is none)
 *   enable_fp_fusion=1   contract a * b + c into fma
 *   debug=0              debug build; implies line_info
 *   line_info=1          source lines in the PTX (.loc) and the cubin
 *                        (ptxas -lineinfo), as Triton does by default
 *   ftz=0                libdevice flushes denormals (nvvm-reflect-ftz)
 *   ptxas_opt=1          ptxas -O3; 0 assembles with -O0 (to tell a ptxas
 *                        miscompile from ours; DISABLE_PTXAS_OPT=1 in Python)
 *   dump_dir=PATH        write the IR after every pass and each back-end
 *                        intermediate there, numbered in order
 *   input=ttir           where the text starts: ttir, ttgir (skips
 *                        make-ttgir) or llir (an LLVM dialect module)
 * Every option is checked before compiling; an unknown key or a bad value is
 * an error.
 *
 * Returns 0 on success: *stages_json holds a JSON object with the stages
 * ("ttgir", "llvm_mlir" = the LLVM dialect module (printed only with a
 * "dump_dir"; empty otherwise), "llir" = the optimized
 * LLVM IR, "ptx") and metadata ("name", "target", "arch", "ptx_version",
 * "num_warps", "num_ctas", "num_stages", "maxnreg" (0: no cap), "shared" =
 * dynamic shared memory from the module's ttg.shared attribute, "registers",
 * "spills", "spill_stores", "spill_loads", "stack_frame", "static_shared",
 * "has_cubin", "ptxas" = its path or null, "ptxas_log", "ptxas_command" =
 * the command that made the cubin (ptxas's, or "nvJitLink (PATH) ..." where
 * that library compiled it in this process, $TRITIUM_NVJITLINK), "warnings",
 * "times_ms"); *cubin and *cubin_size hold the cubin, or NULL and 0 when no
 * ptxas was found (the driver then JIT-compiles the PTX); *diagnostics holds
 * warnings, or NULL.  Returns 1 on failure with every diagnostic (ptxas's
 * log when ptxas rejects the PTX) in *diagnostics; *stages_json then holds
 * the stages produced so far.  All three buffers are freed with
 * tritium_free(); any output pointer may be NULL.  Since ABI revision 3. */
TRITIUM_API int tritium_compile_cuda(const char *ttir, size_t len,
                                     const char *source_name,
                                     const char *options, char **stages_json,
                                     unsigned char **cubin, size_t *cubin_size,
                                     char **diagnostics);

/* Gets the compile's last step ready: where $TRITIUM_NVJITLINK asks for
 * nvJitLink to compile PTX in the process ("twin" or a path), loads that
 * library and compiles an empty kernel with it (a tenth of a second or more,
 * once per process).  Meant for a thread of its own, started before the first
 * kernel compiles: compiles that come meanwhile run ptxas.  Since ABI
 * revision 13. */
TRITIUM_API void tritium_prepare_ptx_compiler(void);

/* The ptxas that tritium_compile_cuda runs now (its path, as the
 * environment names it; see findPtxas in Ptxas.h), or "" when there is none.
 * *path is freed with tritium_free().  Since ABI revision 16. */
TRITIUM_API void tritium_ptxas_path(char **path);

/* Frees a string returned by this library. */
TRITIUM_API void tritium_free(char *p);

/* ---- CUDA runtime (the driver is dlopen()ed on first use) ---------------- */

/* 0 when the CUDA driver loads and sees at least one GPU (count stored in
 * *device_count); else 1 with the reason in *diagnostics. */
TRITIUM_API int tritium_cuda_init(int *device_count, char **diagnostics);

/* Compute capability, multiprocessor count and the opt-in shared-memory
 * limit per block of `device`.  Any output may be NULL. */
TRITIUM_API int tritium_cuda_device_properties(int device, int *major, int *minor,
                                               int *sm_count, int *max_shared_optin,
                                               char **diagnostics);

/* Loads a cubin (or NUL-terminated PTX, compiled by the driver) into the
 * current context (the primary context of `device` if none is current),
 * finds `kernel_name` and allows it `shared_bytes` of dynamic shared memory.
 * Returns 0 and the module and function handles, 1 with diagnostics. */
TRITIUM_API int tritium_cuda_load(const void *image, const char *kernel_name,
                                  unsigned shared_bytes, int device, void **module,
                                  void **function, int *num_regs, char **diagnostics);

/* The launch record of tritium_cuda_launch: this header, then the kernel's
 * arguments packed as in a C struct (natural alignment, counted from the
 * first argument, which starts 8-byte aligned right after the header). */
typedef struct tritium_launch_header {
  uint64_t function;    /* CUfunction from tritium_cuda_load */
  uint64_t stream;      /* CUstream (0: the legacy default stream) */
  uint32_t grid[3];     /* blocks in x, y, z */
  uint32_t threads;     /* threads per block (x only) */
  uint32_t shared_bytes;/* dynamic shared memory per block */
  uint32_t params_size; /* bytes of packed arguments after the header */
} tritium_launch_header;

/* Launches the kernel a launch record describes.  One pointer in, so that
 * the Python warm path converts a single bytes object (ctypes without
 * argtypes).  Returns the driver's CUresult (0 = success), allocates
 * nothing, and remembers the function as the last one launched;
 * tritium_cuda_error_text() words a failure. */
TRITIUM_API int tritium_cuda_launch(const void *record);

/* tritium_cuda_launch with the arguments passed one by one (cuLaunchKernel's
 * kernelParams): argument i is at `offsets[i]` bytes into the record's
 * argument area, laid out as the kernel's parameters.  A kernel taking a
 * tensor map by value (a 64-byte aligned grid constant) must be launched
 * this way: the driver does not place such a parameter correctly from a
 * packed parameter buffer.  At most 256 arguments.  Since ABI revision 7. */
TRITIUM_API int tritium_cuda_launch_params(const void *record, const uint32_t *offsets, int count);

/* tritium_cuda_launch_params as a cooperative launch (cuLaunchCooperativeKernel,
 * Triton's launch_cooperative_grid=True): every block of the grid is resident
 * at once, so that blocks may wait on each other; a grid larger than the GPU
 * holds at once is refused (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).  Since
 * ABI revision 9. */
TRITIUM_API int tritium_cuda_launch_cooperative(const void *record, const uint32_t *offsets, int count);

/* Encodes the 128-byte CUDA tensor map of a tiled tensor into `map` (64-byte
 * aligned) with cuTensorMapEncodeTiled: `data_type` is a CUtensorMapDataType,
 * `dims` (rank entries) and `strides` (rank - 1 byte strides, of dimensions
 * 1 ..) and `box` run innermost dimension first; `swizzle` is 0, 32, 64 or
 * 128 (bytes); `nan_fill` fills out-of-bounds elements with NaN instead of
 * zero.  Element strides are 1, L2 promotion 128 bytes.  Returns 0, or 1
 * with the reason in *diagnostics.  Since ABI revision 7. */
TRITIUM_API int tritium_cuda_encode_tensor_map(void *map, int data_type, int rank, uint64_t address,
                                               const uint64_t *dims, const uint64_t *strides,
                                               const uint32_t *box, int swizzle, int nan_fill,
                                               char **diagnostics);

/* The CUfunction passed to the last tritium_cuda_launch (0 if none): names
 * the likely culprit of an asynchronous error found later. */
TRITIUM_API uint64_t tritium_cuda_last_launched(void);

/* Waits for the current context's work; 1 with the error (e.g. an illegal
 * address in an earlier kernel) in *diagnostics. */
TRITIUM_API int tritium_cuda_synchronize(char **diagnostics);

/* Allocates `bytes` of global memory on `device` (in the current context, or
 * the device's primary one) into *address, or frees the allocation at
 * `address` when `bytes` is 0.  Returns 0, or 1 with the reason in
 * *diagnostics.  The runtime's own memory, e.g. the global scratch of
 * kernels whose tensor maps the compiler made.  Since ABI revision 8. */
TRITIUM_API int tritium_cuda_memory(int device, uint64_t bytes, uint64_t *address,
                                    char **diagnostics);

/* Whether work on `stream` is being captured into a CUDA graph: *capturing
 * is 1 (active or invalidated capture) or 0.  Returns 0, or 1 with the
 * reason in *diagnostics.  Since ABI revision 8. */
TRITIUM_API int tritium_cuda_stream_capturing(uint64_t stream, int *capturing, char **diagnostics);

/* The name and description of a CUresult, in *text (free with tritium_free). */
TRITIUM_API void tritium_cuda_error_text(int result, char **text);

/* The CPU target.  tritium_cpu_compile runs Triton IR (`len` bytes of
 * `ttir`; diagnostics name `source_name`) through tritium-make-ttir and
 * convert-tt-to-host-llvm and compiles kernel `kernel_name` for the host
 * processor.  Returns 0 with the kernel in *program (freed with
 * tritium_cpu_release), its optimized LLVM IR in *llvm_ir and the host
 * object file it was linked from in *object (*object_size bytes; each may
 * be NULL); 1 with diagnostics.  With `fast_codegen` nonzero the machine code
 * is generated by LLVM's fast path (no optimization in instruction selection
 * and register allocation: code made sooner, running slower).  Since ABI
 * revision 12; `fast_codegen` since 14. */
TRITIUM_API int tritium_cpu_compile(const char *ttir, size_t len, const char *source_name,
                                    const char *kernel_name, int fast_codegen, void **program,
                                    char **llvm_ir, char **object, size_t *object_size,
                                    char **diagnostics);

/* Links an object file that tritium_cpu_compile made on a host of the same
 * description (tritium_cpu_host) and finds kernel `kernel_name` in it.
 * Returns 0 with the kernel in *program, or 1 with diagnostics.  Since ABI
 * revision 12. */
TRITIUM_API int tritium_cpu_load(const char *object, size_t size, const char *kernel_name, void **program,
                                 char **diagnostics);

/* Runs every program of the grid (nx, ny, nz) of `program` on up to
 * `threads` threads (0: one per hardware thread); `args` holds the address
 * of each kernel argument's value, in order (pointers as 8-byte addresses,
 * integers and floats in the kernel's types).  Returns 0; 1 when a
 * tt.assert failed, with the first failure's message in *diagnostics (no
 * program starts after it); 2 when the grid could not run (no thread with
 * a stack large enough for the program's frame could start), with the
 * reason.  Since ABI revision 12; 2 since revision 15. */
TRITIUM_API int tritium_cpu_run(void *program, void **args, int nx, int ny, int nz, unsigned threads,
                                char **diagnostics);

TRITIUM_API void tritium_cpu_release(void *program);

/* The host as the CPU target sees it: triple, CPU and vector features. */
TRITIUM_API void tritium_cpu_host(char **description);

#ifdef __cplusplus
}
#endif

#endif /* TRITIUM_CAPI_TRITIUM_H */
